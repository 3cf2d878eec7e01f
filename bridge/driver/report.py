"""The report `relay fill` writes: per field what was decided and applied, LLM use, timings.

Other tools read this JSON; fields are only ever added.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from bridge.cli.output import table as cli_table
from bridge.forms import ApplyResult, BlockedAttempt, FieldDecision
from bridge.source_words import SOURCE_WORDS, sources_line


class FieldReport(BaseModel):
    frame: str
    field_id: str
    locator: str
    label: str
    key: str
    value: str
    source: str
    confidence: float
    status: str  # the plan's verdict: fill / flag / leave / never / keep
    applied: str  # what the page did: applied / refused / not_found / skipped / user_edited / ""
    reason: str
    why: str = ""  # the reason in plain words (what the review panel shows)


class LlmReport(BaseModel):
    calls: int = 0
    cost_usd: float = 0.0
    status: str = ""


class FillReport(BaseModel):
    target: str
    url: str = ""
    title: str = ""
    run_id: str = ""
    ok: bool = False
    error: dict[str, Any] | None = None
    fields: list[FieldReport] = Field(default_factory=list)
    counts: dict[str, int] = Field(default_factory=dict)
    llm: LlmReport = Field(default_factory=LlmReport)
    timings_ms: dict[str, float] = Field(default_factory=dict)
    page_submits: int | None = None  # pages that count their submits (fixtures) report them here
    navigations: int = 0  # top-frame navigations after the fill started (a submit would show here)
    # Submissions the page attempted while Relay filled it (and just after), which Relay stopped.
    blocked: list[BlockedAttempt] = Field(default_factory=list)


def shown_value(decision: FieldDecision) -> str:
    if decision.file is not None:
        return decision.file.name
    if decision.checked is not None and not decision.value:
        return "checked" if decision.checked else "unchecked"
    return decision.value or ", ".join(decision.values)


def build_fields(
    decisions: list[FieldDecision], applied: list[ApplyResult]
) -> list[FieldReport]:
    outcome = {(r.frame, r.field_id): r for r in applied}
    # A field a later round decided again is one row, with its last decision, in its first place.
    latest = {(d.frame, d.field_id): d for d in decisions}
    rows = []
    for d in latest.values():
        result = outcome.get((d.frame, d.field_id))
        rows.append(
            FieldReport(
                frame=d.frame,
                field_id=d.field_id,
                locator=d.locator,
                label=d.label,
                key=d.key,
                value=shown_value(d),
                source=d.source.value,
                confidence=round(d.confidence, 3),
                status=d.status.value,
                applied=result.status.value if result else "",
                reason=f"{d.reason}; {result.detail}" if result and result.detail else d.reason,
                why=d.why,
            )
        )
    return rows


def count(rows: list[FieldReport]) -> dict[str, int]:
    """Per verdict, per source of the values Relay gave (`source:<source>`, see
    `bridge.store.runs.source_counts`), and per page outcome: the review panel and `relay history`
    count the same way."""
    counts: dict[str, int] = {"fields": len(rows)}
    counts.update({f"source:{key}": 0 for key in SOURCE_WORDS if key != "none"})
    for row in rows:
        counts[row.status] = counts.get(row.status, 0) + 1
        if row.status in ("fill", "flag"):
            counts[f"source:{row.source}"] = counts.get(f"source:{row.source}", 0) + 1
        if row.applied:
            counts[f"applied:{row.applied}"] = counts.get(f"applied:{row.applied}", 0) + 1
    return counts


def table(report: FillReport) -> str:
    """A plain-text table of the fields Relay filled or flagged, for the terminal."""
    rows = [r for r in report.fields if r.status in ("fill", "flag")]
    out = [cli_table(("Field", "Value", "Source", "Conf.", "Status"), (
        (
            _clip(r.label or r.locator, 34),
            _clip(r.value, 36),
            r.source,
            f"{r.confidence:.2f}",
            r.status if r.applied in ("", "applied") else f"{r.status}/{r.applied}",
        )
        for r in rows
    ), right=(3,))]
    c = report.counts
    if report.blocked:
        times = sum(b.times for b in report.blocked)
        out.append("")
        out.append(
            f"The page tried to submit the form {times} time{'s' if times > 1 else ''} while "
            "Relay was filling it; Relay stopped it. Nothing was sent."
        )
    out.append("")
    out.append(
        f"{c.get('fill', 0)} filled, {c.get('flag', 0)} flagged for review, "
        f"{c.get('leave', 0)} left for you, {c.get('never', 0)} never filled, "
        f"{c.get('keep', 0)} kept as they were; LLM: {report.llm.status or 'not used'}"
    )
    out.append(f"Values from: {sources_line(c)}")
    return "\n".join(out)


def _clip(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"
