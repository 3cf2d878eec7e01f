"""The person's applications, newest first, and on request the fills never submitted (for the
`applications.list` request and `relay history`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bridge.store import Store


def unsubmitted_runs(store: Store) -> list[dict[str, Any]]:
    """Runs no recorded application came from, newest first, without their decisions."""
    submitted = store.submitted_runs()
    runs = [r for r in store.history() if r["run_id"] not in submitted]
    return [
        {key: value for key, value in run.items() if key != "decisions"}
        for run in reversed(runs)
    ]


def applications_listing(
    store: Store, include_unsubmitted: bool, limit: int
) -> list[dict[str, Any]]:
    out = [{**a, "submitted": True} for a in store.applications(limit)]
    if include_unsubmitted:
        out += [
            {
                "application_id": None,
                "run_id": run["run_id"],
                "url": run["url"],
                "page_title": run["title"],
                "company": "",
                "job_title": "",
                "ats": run["ats"],
                "status": "not submitted",
                "started_at": run["started_at"],
                "submitted": False,
            }
            for run in unsubmitted_runs(store)
        ][: max(0, limit - len(out))]
    return out
