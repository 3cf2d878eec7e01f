"""Model requests, tokens and cost per application, over the ATS fixtures, with a scripted server.

Each form in tests/fixtures/ats/*/expected.json becomes a snapshot built from its labels (choice
fields get their expected answer among a few distractors); the real rules engine decides first,
and what it leaves goes through `escalate` and real litellm to a local scripted model that answers
from the profile where it can and skips the rest. Token counts are the server's (about four
characters a token), priced per million tokens at: fast $0.098 in / $0.196 out, general $0.40 /
$1.75, heavy $0.435 / $0.87. Aims: at most 2 requests per form, at most $0.001 per application.
Prints figures; asserts nothing. Run: .venv/bin/python bench/llm_cost.py [slug ...]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bridge.forms import (  # noqa: E402
    FieldDecision,
    FieldOption,
    FillRequest,
    FormField,
    FrameSnapshot,
    Status,
    Widget,
)
from bridge.llm import MemoryLedger, escalate  # noqa: E402
from bridge.llm.facts import profile_facts  # noqa: E402
from bridge.profile import LoadedProfile  # noqa: E402
from tests.llm_server import (  # noqa: E402
    LlmServer,
    Reply,
    make_config,
    question_ids,
    sample_profile,
    user_payload,
)

FIXTURES = REPO / "tests" / "fixtures" / "ats"
WIDGETS = {
    "text": Widget.TEXT,
    "email": Widget.EMAIL,
    "tel": Widget.TEL,
    "url": Widget.URL,
    "textarea": Widget.TEXTAREA,
    "select": Widget.SELECT,
    "react-select": Widget.COMBOBOX,
    "select2": Widget.COMBOBOX,
    "listbox": Widget.LISTBOX,
    "combobox": Widget.COMBOBOX,
    "radio": Widget.RADIO_GROUP,
    "yesno-buttons": Widget.RADIO_GROUP,
    "checkbox": Widget.CHECKBOX,
    "checkbox-group": Widget.CHECKBOX_GROUP,
    "date": Widget.DATE,
    "file": Widget.FILE,
    "contenteditable": Widget.CONTENTEDITABLE,
}
CHOICE = {Widget.SELECT, Widget.COMBOBOX, Widget.LISTBOX, Widget.RADIO_GROUP, Widget.CHECKBOX_GROUP}


def _flat(expect: Any) -> list[str]:
    if isinstance(expect, list):
        return [x for e in expect for x in _flat(e)]
    return [str(expect)] if expect not in ("", None, False, True) else []


def snapshot(expected: dict[str, Any]) -> FillRequest:
    fields: list[FormField] = []
    for i, spec in enumerate(expected["fields"], start=1):
        widget = WIDGETS.get(spec.get("kind", "text"), Widget.TEXT)
        options: list[FieldOption] = []
        if widget in CHOICE:
            wanted = _flat(spec.get("expect"))[:1]
            texts = (
                ["Yes", "No"]
                if wanted in (["Yes"], ["No"])
                else [*wanted, "Other", "Prefer not to say"]
            )
            options = [FieldOption(value=t.lower(), text=t) for t in texts]
        fields.append(
            FormField(
                id=f"f{i}",
                label=spec["label"],
                widget=widget,
                options=options,
                multiple=widget == Widget.CHECKBOX_GROUP,
                max_length=1500 if widget in {Widget.TEXTAREA, Widget.CONTENTEDITABLE} else None,
            )
        )
    title = f"Senior Backend Engineer - {expected.get('name', 'Acme')}"
    job = (
        "We are hiring a Senior Backend Engineer to build payment systems in Python and Go. "
        "You will own services end to end, work with Kafka and PostgreSQL, and mentor "
        "engineers. Hybrid, San Francisco. "
    ) * 6
    return FillRequest(
        url="https://jobs.example.com/apply",
        title=title,
        job_text=job,
        frames=[FrameSnapshot(frame="0", fields=fields)],
    )


def rules_decisions(request: FillRequest, profile: LoadedProfile) -> list[FieldDecision]:
    try:
        from bridge.rules.engine import decide
    except ImportError:  # the rules engine not there yet: everything is unknown
        return [
            FieldDecision(field_id=f.id, label=f.label, status=Status.LEAVE, reason="unknown")
            for f in request.all_fields()
        ]
    return decide(request, profile)


def scripted_model(profile: LoadedProfile) -> Any:
    """A plausible model: answers a question when a fact's value appears among its options or
    shares a word with its label, drafts open questions from a highlight, skips the rest."""
    facts = profile_facts(profile)

    def reply(body: dict[str, Any]) -> Reply:
        payload = user_payload(body)
        drafting = "drafting" in body["response_format"]["json_schema"]["name"]
        out: dict[str, Any] = {}
        for q, qid in zip(payload["page"]["questions"], question_ids(body), strict=True):
            if drafting:
                out[qid] = {
                    "answer": "I led a team of 4 engineers through the migration of 30 "
                    "services from Python 2 to Python 3, and I enjoy owning reliable "
                    "backend systems end to end.",
                    "facts": ["work[0].highlights[1]"],
                    "quotes": [],
                }
                continue
            hit = None
            for f in facts:
                if q.get("options") and f.value in q["options"]:
                    hit = (f.value, f.path)
                    break
            if hit:
                out[qid] = {"answer": hit[0], "facts": [hit[1]], "quotes": [], "confidence": 0.8}
            else:
                out[qid] = {"skip": "the facts do not answer this question"}
        return Reply({"fields": out})

    return reply


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("slugs", nargs="*")
    args = parser.parse_args()
    profile = sample_profile()
    server = LlmServer()
    server.start()
    server.reset(scripted_model(profile))
    config = make_config(server)
    ledger = MemoryLedger()
    print(
        f"{'form':<20}{'fields':>7}{'left':>6}{'asked':>6}{'reqs':>6}{'tok in':>8}"
        f"{'tok out':>8}{'cost $':>11}{'llm answers':>12}"
    )
    totals = {"forms": 0, "reqs": 0, "in": 0, "out": 0, "cost": 0.0, "max_reqs": 0}
    for path in sorted(FIXTURES.glob("*/expected.json")):
        slug = path.parent.name
        if args.slugs and slug not in args.slugs:
            continue
        request = snapshot(json.loads(path.read_text()))
        decisions = rules_decisions(request, profile)
        left = sum(1 for d in decisions if d.status == Status.LEAVE)
        result = escalate(request, profile, decisions, run_id=slug, ledger=ledger, config=config)
        real = [c for c in result.calls if not c.cached]
        tin, tout = sum(c.tokens_in for c in real), sum(c.tokens_out for c in real)
        answers = sum(1 for d in result.decisions if d.source.value == "llm")
        print(
            f"{slug:<20}{len(request.all_fields()):>7}{left:>6}{result.asked:>6}"
            f"{len(real):>6}{tin:>8}{tout:>8}{result.cost_usd:>11.6f}{answers:>12}"
        )
        totals["forms"] += 1
        totals["reqs"] += len(real)
        totals["in"] += tin
        totals["out"] += tout
        totals["cost"] += result.cost_usd
        totals["max_reqs"] = max(totals["max_reqs"], len(real))
    server.stop()
    n = max(int(totals["forms"]), 1)
    print("-" * 84)
    print(
        f"{n} applications: {totals['reqs'] / n:.2f} requests, {totals['in'] / n:.0f} tokens "
        f"in, {totals['out'] / n:.0f} out, ${totals['cost'] / n:.6f} per application "
        f"(max {totals['max_reqs']} requests on one form)"
    )
    print(
        f"aims: <= 2 requests per form: {'met' if totals['max_reqs'] <= 2 else 'MISSED'}; "
        f"<= $0.001 per application: {'met' if totals['cost'] / n <= 0.001 else 'MISSED'}"
    )


if __name__ == "__main__":
    main()
