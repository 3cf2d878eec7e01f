"""The rules engine: decides, with no model, what each form field asks and what to fill.

Entry point: `bridge.rules.engine.decide`. The data (patterns, ATS adapters, option wordings) lives
in the repo's `rules/` folder; see `bridge.rules.data.rules_dir`.
"""
