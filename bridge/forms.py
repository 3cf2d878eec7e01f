"""What the extension sends (a snapshot of the form) and what the bridge sends back (a fill plan).

Field ids (`f1`, `f2`, …) are local to one frame's snapshot: the content script maps them back to
elements itself, so the plan never carries selectors that must be found again.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bridge.protocol.bounds import (
    MAX_ATTRS,
    MAX_FIELDS,
    MAX_OPTIONS,
    Count,
    FieldId,
    FrameId,
    PageText,
    PageValue,
    RunId,
    Seq,
    Url,
    Word,
)


class Widget(StrEnum):
    """How a control is operated, as the content script recognised it."""

    TEXT = "text"  # input text/search/no type
    EMAIL = "email"
    TEL = "tel"
    URL = "url"
    NUMBER = "number"
    DATE = "date"  # native date/month input
    DATE_TEXT = "date_text"  # a date picker driven through a text box (react-datepicker …)
    DATE_PARTS = "date_parts"  # month / day / year spinbuttons or inputs of one date
    TEXTAREA = "textarea"
    CONTENTEDITABLE = "contenteditable"
    SELECT = "select"  # native <select>
    COMBOBOX = "combobox"  # ARIA combobox / typeahead / react-select / select2
    LISTBOX = "listbox"  # a button that opens a listbox (Workday, Fabric, MUI)
    RADIO_GROUP = "radio_group"  # radios sharing a name, or button-style yes/no
    CHECKBOX = "checkbox"  # a single checkbox
    CHECKBOX_GROUP = "checkbox_group"  # checkboxes answering one question
    FILE = "file"
    PASSWORD = "password"
    HIDDEN = "hidden"
    OTHER = "other"


class LabelSource(StrEnum):
    LABEL_FOR = "label-for"
    LABEL_WRAP = "label-wrap"
    ARIA_LABELLEDBY = "aria-labelledby"
    ARIA_LABEL = "aria-label"
    LEGEND = "legend"
    TABLE = "table"
    PRECEDING_TEXT = "preceding-text"
    PLACEHOLDER = "placeholder"
    TITLE = "title"
    NONE = "none"


class FieldOption(BaseModel):
    model_config = ConfigDict(extra="ignore")

    value: PageText = ""
    text: PageText = ""
    selected: bool = False
    # Where an option is its own control (radio, checkbox, yes/no button): its snapshot id.
    field_id: FieldId | None = None


class FormField(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: FieldId
    frame: FrameId = "0"
    tag: Word = ""
    type: Word = ""
    widget: Widget = Widget.OTHER
    name: Word = ""
    html_id: Word = ""
    autocomplete: Word = ""
    label: PageText = ""
    label_source: LabelSource = LabelSource.NONE
    placeholder: PageText = ""
    aria_label: PageText = ""
    aria_description: PageText = ""  # text of aria-describedby targets, help text
    role: Word = ""
    section: PageText = ""  # nearest heading or legend above the control
    nearby: PageText = ""  # short text around the control (preceding sibling text, hints)
    options: list[FieldOption] = Field(default_factory=list, max_length=MAX_OPTIONS)
    multiple: bool = False
    required: bool = False
    visible: bool = True  # the person can see it, or the widget part that shows its value
    hidden_reason: str = Field(default="", max_length=200)  # why not ("covered by another element")
    disabled: bool = False
    readonly: bool = False
    value: PageValue = ""  # current value, as the person sees it
    max_length: Count | None = None
    pattern: Word = ""
    min: Word = ""
    max: Word = ""
    # Site hints for ATS adapters: data-automation-id, data-qa, data-field-path, data-testid,
    # data-ui, class names (trimmed), custom element tag of a shadow host.
    attrs: dict[Word, Word] = Field(default_factory=dict, max_length=MAX_ATTRS)
    locator: PageText = ""  # a readable locator for reports (never used to find the element again)
    # The content script's flag that the person changed this field after Relay filled it.
    user_edited: bool = False
    # The field's <form> or landmark ("" when none), and what that form says of itself (role,
    # action, id, name, class): the application is told from a search or newsletter box by it.
    form: Word = ""
    form_hint: PageText = ""
    # What the form's own submit controls say ("Subscribe", "Sign in"): a vendor's form markup
    # (every HubSpot form has the same classes) often names its purpose only there.
    form_submit: PageText = ""


class FrameSnapshot(BaseModel):
    model_config = ConfigDict(extra="ignore")

    frame: FrameId = "0"
    url: Url = ""
    title: PageText = ""
    fields: list[FormField] = Field(default_factory=list, max_length=MAX_FIELDS)
    # The person's focus is in one of its fields (the frame they clicked in before Fill).
    focused: bool = False


class FieldRef(BaseModel):
    model_config = ConfigDict(extra="ignore")

    frame: FrameId = "0"
    field_id: FieldId


class FillRequest(BaseModel):
    """Payload of `fill.plan`."""

    model_config = ConfigDict(extra="ignore")

    url: Url = ""
    title: PageText = ""
    job_text: str = Field(default="", max_length=200_000)  # job description / page text, capped
    frames: list[FrameSnapshot] = Field(default_factory=list, max_length=200)
    # Set by `relay fill` and tests so a run can be correlated with its caller.
    client_run_tag: Word = ""
    # A later round of the same Fill (fields revealed or changed by what was applied): the run it
    # continues, and the fields to decide; `frames` carry the whole snapshot, for context.
    continues: Annotated[str, Field(max_length=64)] = ""  # a run id, or "" for a first round
    decide: list[FieldRef] = Field(default_factory=list, max_length=MAX_FIELDS)
    # The extension takes model answers as they come (`fill.answer` events) instead of waiting
    # for them in the reply; other front doors get the whole plan in one answer.
    stream: bool = False

    @model_validator(mode="after")
    def _bounded(self) -> FillRequest:
        total = sum(len(frame.fields) for frame in self.frames)
        if total > MAX_FIELDS:
            raise ValueError(f"{total} fields in all frames; at most {MAX_FIELDS} are planned")
        return self

    def all_fields(self) -> list[FormField]:
        return [field for frame in self.frames for field in frame.fields]


class Source(StrEnum):
    PROFILE = "profile"
    SAVED_ANSWER = "saved_answer"
    LLM = "llm"
    NONE = "none"


class Status(StrEnum):
    FILL = "fill"  # confident: applied
    FLAG = "flag"  # applied but marked for the person's review
    LEAVE = "leave"  # left for the person (unknown, unsure, or the profile has no answer)
    NEVER = "never"  # must never be filled (password, national id, consent, honeypot, …)
    KEEP = "keep"  # already has a value (the page's or the person's); not overwritten


class Action(StrEnum):
    SET_TEXT = "set_text"  # type into a text-like control (value)
    CHOOSE = "choose"  # pick option(s) of a select / combobox / listbox / radio group (values)
    CHECK = "check"  # set a single checkbox to `checked`
    ATTACH = "attach"  # attach a file (file)
    SET_DATE = "set_date"  # a date in ISO form (value); the driver writes it in the field's format
    NONE = "none"


class FileRef(BaseModel):
    name: str
    mime: str = "application/octet-stream"
    size: int = 0
    # Base64 of the file's bytes. Large files make a large plan; the reply is chunked on the wire.
    data_b64: str = ""


class FieldDecision(BaseModel):
    """What Relay decided for one field, and how to apply it."""

    field_id: str
    frame: str = "0"
    locator: str = ""
    label: str = ""
    key: str = ""  # the profile key or question kind it answers ("" when unknown)
    action: Action = Action.NONE
    value: str = ""  # text to type, or the chosen option's text, or ISO date
    values: list[str] = Field(default_factory=list)  # option values to choose (select, radio, …)
    # A typeahead's place (city, region, country, each with its other writings): the suggestion
    # chosen must name these parts and nothing else; none matching leaves the field.
    place: list[list[str]] = Field(default_factory=list)
    checked: bool | None = None
    file: FileRef | None = None
    source: Source = Source.NONE
    confidence: float = Field(default=0.0, ge=0.0, le=1.0)
    status: Status = Status.LEAVE
    reason: str = ""  # which step decided it, and why
    # A model's answer: the profile facts (paths) and resume quotes ("resume: …") it rests on.
    cites: list[str] = Field(default_factory=list)
    why: str = ""  # the reason in plain words, for the person (bridge.rules.explain)
    # Delivery sequence number within the run (set for decisions that do something): the
    # extension acknowledges `up_to_seq` and skips a (run, seq) it has already applied.
    seq: int | None = None
    # Waiting for the model: its answer (or refusal) comes later as a `fill.answer` event.
    asking: bool = False


class FillPlan(BaseModel):
    run_id: str
    decisions: list[FieldDecision] = Field(default_factory=list)
    llm_calls: int = 0
    llm_cost_usd: float = 0.0
    llm_status: str = "rules-only: no model configured"
    # Spending left today under the daily cap (None without a model).
    llm_day_left_usd: float | None = None
    timings_ms: dict[str, float] = Field(default_factory=dict)
    # How many entries the profile has per repeated family ("work", "edu"): the extension makes
    # room for them where a section shows fewer blocks and has its own "Add another".
    entries: dict[str, int] = Field(default_factory=dict)


class ApplyStatus(StrEnum):
    APPLIED = "applied"
    NOT_FOUND = "not_found"  # the element is gone (re-rendered, next step)
    REFUSED = "refused"  # the page did not keep the value (validation, read-only, no option)
    SKIPPED = "skipped"  # nothing to do for this decision
    USER_EDITED = "user_edited"  # the person changed it; never overwritten


# The reports below arrive only after a plan was answered: they are built on first use, so a
# cold bridge's first plan does not wait for them (defer_build).
class ApplyResult(BaseModel):
    model_config = ConfigDict(extra="ignore", defer_build=True)

    field_id: FieldId
    frame: FrameId = "0"
    status: ApplyStatus
    detail: PageText = ""
    value_after: PageValue = ""  # what the control shows afterwards


class BlockedKind(StrEnum):
    """How the page tried to submit (or leave) while Relay was applying its plan."""

    SUBMIT_EVENT = "submit_event"  # a submit event (a submit button's click, requestSubmit)
    FORM_SUBMIT = "form_submit"  # a call of form.submit()
    REQUEST_SUBMIT = "request_submit"  # a call of form.requestSubmit()
    NAVIGATION = "navigation"  # the frame was about to load another document


class BlockedPhase(StrEnum):
    APPLY = "apply"  # while Relay was filling the frame
    AFTER = "after"  # in the short watch after the fill (the page's delayed handlers)


MAX_BLOCKED = 50


class BlockedAttempt(BaseModel):
    """One submission (or navigation) the page attempted during a fill, which Relay stopped.
    The extension folds repeats into `times`; `detail` is plain language for the person."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    kind: BlockedKind
    frame: str = Field(default="0", max_length=32)
    field_id: str = Field(default="", max_length=64)  # the field being filled at the time, if any
    phase: BlockedPhase = BlockedPhase.APPLY
    detail: str = Field(default="", max_length=300)
    times: int = Field(default=1, ge=1, le=1_000_000)


class ApplyReport(BaseModel):
    """Payload of `fill.applied`: what each frame did with its part of the plan."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    run_id: RunId
    results: list[ApplyResult] = Field(default_factory=list, max_length=MAX_FIELDS)
    timings_ms: dict[Word, float] = Field(default_factory=dict, max_length=MAX_ATTRS)
    # Every delivery up to this sequence number was applied (or found not applicable).
    up_to_seq: Seq | None = None
    # What the page tried to submit while the plan was applied (stopped by Relay's guard).
    blocked: list[BlockedAttempt] = Field(default_factory=list, max_length=MAX_BLOCKED)


class BlockedReport(BaseModel):
    """Payload of `fill.blocked`: attempts seen after `fill.applied` was sent (the page's delayed
    handlers), or during the apply of replayed deliveries."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    run_id: RunId
    blocked: list[BlockedAttempt] = Field(min_length=1, max_length=MAX_BLOCKED)


class AckRequest(BaseModel):
    """Payload of `fill.ack`: deliveries of a run up to `up_to_seq` are done."""

    model_config = ConfigDict(defer_build=True)

    run_id: RunId
    up_to_seq: Seq
