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

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bridge.forms import (  # noqa: E402
    Status,
)
from bridge.llm.escalate import escalate  # noqa: E402
from bridge.llm.ledger import MemoryLedger  # noqa: E402
from tests.llm_server import (  # noqa: E402
    FIXTURES,
    LlmServer,
    make_config,
    rules_decisions,
    sample_profile,
    scripted_model,
    snapshot,
)


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
