"""`documents.list`: a profile's resumes and cover letters, which is the default, and which one
is chosen for a job page (when `url` is given)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bridge.actions.validate import validate_payload
from bridge.protocol.bounds import Url
from bridge.protocol.envelopes import Request
from bridge.runtime import Runtime


class ListRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(default="", max_length=100)  # the profile; "" is the active one
    url: Url = ""  # a job page: say which file is chosen for it


PAYLOAD_MODEL = ListRequest


def parse(payload: dict[str, Any]) -> ListRequest:
    return validate_payload(ListRequest, payload)


def listing(runtime: Runtime, name: str, url: str = "") -> dict[str, Any]:
    from bridge import documents

    store = runtime.store()
    loaded = store.profile(name)
    raw = store.profile_document(name)
    defaults = raw.get("application", {}).get("documents", {}) or {}
    assert loaded is not None  # profile_document raised E_PROFILE_MISSING otherwise
    files = documents.listing(runtime.home, name, loaded.base_dir, defaults)
    chosen = {kind: documents.chosen(store, name, url, kind) for kind in documents.KINDS}
    return {"name": name, "url": documents.job_key(url), "chosen": chosen, **files}


def handle(runtime: Runtime, payload: ListRequest, request: Request) -> dict[str, Any]:
    from bridge.actions.profile_get import resolve_name

    return listing(runtime, resolve_name(runtime, payload.name), payload.url)
