"""The model layer: litellm (loaded lazily), field mapping, open answers, guards and cost.

Entry point: `bridge.llm.escalate.escalate(request, profile, decisions, run_id=…, ledger=…,
config=…)`, called by the runtime after the rules engine. This package imports none of its
modules itself: a plan that only reads the configuration (`bridge.llm.config`) or picks the
fields to ask about (`bridge.llm.candidates`) does not load the rest.
"""
