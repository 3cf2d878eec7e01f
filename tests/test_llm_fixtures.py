"""The real rules engine, then the model step, on snapshots built from every ATS fixture's labels:
at most two requests a form, nothing private in any request, the rules' own decisions untouched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bridge.forms import Source, Status
from bridge.llm.escalate import escalate
from bridge.llm.ledger import MemoryLedger
from tests.llm_server import (
    FIXTURES,
    LlmServer,
    llm_server,
    llm_server_session,
    make_config,
    rules_decisions,
    sample_profile,
    scripted_model,
    snapshot,
)

__all__ = ["llm_server", "llm_server_session"]

FORMS = sorted(FIXTURES.glob("*/expected.json"))


@pytest.mark.parametrize("path", FORMS, ids=lambda p: p.parent.name)
def test_fixture_form_through_rules_and_model(llm_server: LlmServer, path: Path) -> None:
    profile = sample_profile()
    llm_server.script = scripted_model(profile)
    expected = json.loads(path.read_text())
    request = snapshot(expected)
    decisions = rules_decisions(request, profile)
    result = escalate(
        request,
        profile,
        decisions,
        run_id=path.parent.name,
        ledger=MemoryLedger(),
        config=make_config(llm_server),
    )
    assert len(llm_server.requests) <= 2
    assert result.cost_usd <= 0.002
    eeo = [v for v in profile.profile.application.eeo.values() if v != "decline"]
    for raw in llm_server.raw_bodies:
        for text in [*eeo, "ada.lovelace@example.com", "415 555 0142", "2710 Mission"]:
            assert text not in raw
    by_id = {f.id: spec for f, spec in zip(request.all_fields(), expected["fields"], strict=True)}
    for before, after in zip(decisions, result.decisions, strict=True):
        if before.source != Source.NONE or before.status != Status.LEAVE:
            assert after == before  # the model step only touches what rules left open
        if after.source == Source.LLM:
            spec = by_id[after.field_id]
            assert not spec.get("never_fill")
            assert spec.get("category") not in {"eeo", "never_fill"}
