"""The request payloads of the learning actions (see docs/protocol.md), validated by pydantic."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from bridge.protocol.bounds import PageText, RowId

SHORT = 500
LONG = 20_000
Long = Annotated[str, Field(max_length=LONG)]


class SetBy(StrEnum):
    """Who put a field's final value there."""

    RULES = "rules"
    SAVED_ANSWER = "saved_answer"
    MODEL = "model"
    PERSON = "person"
    PAGE = "page"
    DEFAULT = "default"


class How(StrEnum):
    """How the extension saw the person's own Submit."""

    SUBMIT_EVENT = "submit_event"
    SUBMIT_CLICK = "submit_click"
    CONFIRMATION = "confirmation"


class AppStatus(StrEnum):
    SUBMITTED = "submitted"
    INTERVIEWING = "interviewing"
    OFFER = "offer"
    REJECTED = "rejected"
    WITHDRAWN = "withdrawn"


class _Strict(BaseModel):
    # Built on first use: the store imports these, and a Fill's plan validates none of them.
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=False, defer_build=True)


class Question(_Strict):
    label: str = Field(min_length=1, max_length=SHORT)
    section: str = Field(default="", max_length=SHORT)
    options: list[PageText] = Field(default_factory=list, max_length=500)
    widget: str = Field(default="", max_length=40)
    lang: str = Field(default="", max_length=20)


class AnswerSave(_Strict):
    run_id: str = Field(default="", max_length=64)
    field_id: str = Field(default="", max_length=64)
    question: Question
    value: str = Field(max_length=LONG)
    values: list[Long] = Field(default_factory=list, max_length=500)
    self_id: bool = False


class SubmittedField(_Strict):
    field_id: str = Field(min_length=1, max_length=64)
    label: str = Field(default="", max_length=SHORT)
    section: str = Field(default="", max_length=SHORT)
    options: list[PageText] = Field(default_factory=list, max_length=500)
    widget: str = Field(default="", max_length=40)
    value: str = Field(default="", max_length=LONG)
    set_by: SetBy
    relay_value: str = Field(default="", max_length=LONG)


class ApplicationSubmitted(_Strict):
    run_id: str = Field(default="", max_length=64)
    url: str = Field(min_length=1, max_length=4000)
    page_title: str = Field(default="", max_length=SHORT)
    company: str = Field(default="", max_length=SHORT)
    job_title: str = Field(default="", max_length=SHORT)
    ats: str = Field(default="", max_length=64)
    how: How
    fields: list[SubmittedField] = Field(default_factory=list, max_length=2000)
    files: list[PageText] = Field(default_factory=list, max_length=50)


class ApplicationsList(_Strict):
    include_unsubmitted: bool = False
    limit: int = Field(default=100, ge=1, le=1000)


class ApplicationRef(_Strict):
    application_id: RowId


class ApplicationUpdate(_Strict):
    application_id: RowId
    status: AppStatus | None = None
    notes: str | None = Field(default=None, max_length=LONG)


class AnswersList(_Strict):
    query: str = Field(default="", max_length=SHORT)
    limit: int = Field(default=100, ge=1, le=1000)


class AnswerUpdate(_Strict):
    answer_id: RowId
    value: str = Field(max_length=LONG)


class AnswerRef(_Strict):
    answer_id: RowId
