"""One guarded model call that reads a resume's text and proposes facts the rules missed.

Only the resume text is sent: no profile, no self-identification. Each proposed fact must quote
the resume line it came from, the quote must be in the text and the value in the quote; anything
else is refused with the reason and never shown as a fact. Nothing is stored here either: the
person confirms or fixes every fact in the console, as for the rules' facts.
"""

from __future__ import annotations

import calendar
import re
import uuid
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bridge.llm.calls import Caller
from bridge.llm.config import LlmConfig, Tier
from bridge.llm.ledger import LlmLedger
from bridge.resume_align import align
from bridge.resume_extract import Fact

# Enough for a long resume; the caps still bound what the call may cost.
MAX_TEXT_CHARS = 24_000
MAX_OUTPUT_TOKENS = 4_000
PURPOSE = "resume.extract"

# The JSON Resume paths Relay reads from a resume, with what each is called in words.
_PATHS: list[tuple[re.Pattern[str], str, str]] = [
    (re.compile(pattern), label, kind)
    for pattern, label, kind in [
        (r"basics\.name", "Name", "text"),
        (r"basics\.label", "Headline", "text"),
        (r"basics\.email", "Email", "email"),
        (r"basics\.phone", "Phone", "phone"),
        (r"basics\.url", "Website", "url"),
        (r"basics\.location\.city", "City", "text"),
        (r"basics\.location\.region", "Region or country", "text"),
        (r"basics\.profiles\.\d{1,2}\.network", "Network", "text"),
        (r"basics\.profiles\.\d{1,2}\.url", "Profile link", "url"),
        (r"work\.\d{1,2}\.name", "Employer", "text"),
        (r"work\.\d{1,2}\.position", "Job title", "text"),
        (r"work\.\d{1,2}\.startDate", "Started", "partial_date"),
        (r"work\.\d{1,2}\.endDate", "Ended", "partial_date"),
        (r"work\.\d{1,2}\.highlights\.\d{1,2}", "Achievement", "text"),
        (r"education\.\d{1,2}\.institution", "School", "text"),
        (r"education\.\d{1,2}\.studyType", "Degree", "text"),
        (r"education\.\d{1,2}\.area", "Field of study", "text"),
        (r"education\.\d{1,2}\.startDate", "Started", "partial_date"),
        (r"education\.\d{1,2}\.endDate", "Finished", "partial_date"),
        (r"skills\.\d{1,2}\.name", "Skill group", "text"),
        (r"skills\.\d{1,2}\.keywords\.\d{1,2}", "Skill", "text"),
    ]
]

SYSTEM = (
    "You read the text of one resume and list the facts in it as JSON Resume paths "
    "(basics.name, basics.label, basics.email, basics.phone, basics.url, basics.location.city, "
    "basics.location.region, basics.profiles.N.network, basics.profiles.N.url, work.N.name, "
    "work.N.position, work.N.startDate, work.N.endDate, work.N.highlights.N, "
    "education.N.institution, education.N.studyType, education.N.area, education.N.startDate, "
    "education.N.endDate, skills.N.name, skills.N.keywords.N; N counts from 0 in resume order). "
    "Dates are YYYY or YYYY-MM. For each fact give `quote`: the resume line it is read from, "
    "copied exactly. Only what the resume says: never guess, complete or improve a fact. "
    'Answer {"fields": {"facts": [{"path": …, "value": …, "quote": …}]}}.'
)

FORMAT: dict[str, Any] = {
    "type": "json_schema",
    "json_schema": {"name": "resume_facts", "strict": True, "schema": {
        "type": "object",
        "properties": {"fields": {
            "type": "object",
            "properties": {"facts": {"type": "array", "items": {
                "type": "object",
                "properties": {
                    "path": {"type": "string"},
                    "value": {"type": "string"},
                    "quote": {"type": "string"},
                },
                "required": ["path", "value", "quote"],
                "additionalProperties": False,
            }}},
            "required": ["facts"],
            "additionalProperties": False,
        }},
        "required": ["fields"],
        "additionalProperties": False,
    }},
}


class ProposedFact(BaseModel):
    model_config = ConfigDict(extra="ignore")

    path: str = Field(max_length=80)
    value: str = Field(max_length=1000)
    quote: str = Field(max_length=2000)


class ProposedFacts(BaseModel):
    facts: list[ProposedFact] = Field(max_length=400)


class Refused(BaseModel):
    path: str
    value: str
    reason: str


@dataclass
class ModelReading:
    facts: list[Fact] = field(default_factory=list)
    refused: list[Refused] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _squash(text: str) -> str:
    dashed = text.replace("\u2013", "-").replace("\u2014", "-")
    return re.sub(r"\s+", " ", dashed).casefold().strip()


def _shape(path: str) -> tuple[str, str] | None:
    return next(((label, kind) for pattern, label, kind in _PATHS if pattern.fullmatch(path)), None)


def _date_in(value: str, quote: str) -> bool:
    found = re.fullmatch(r"(\d{4})(?:-(\d{2}))?", value)
    if found is None or found.group(1) not in quote:
        return False
    if found.group(2) is None:
        return True
    month = int(found.group(2))
    if not 1 <= month <= 12:
        return False
    names = {calendar.month_name[month].casefold(), calendar.month_abbr[month].casefold()}
    words = set(re.findall(r"[a-z]+", quote))
    return bool(names & words) or bool(re.search(rf"\b0?{month}\s*[/.-]\s*{found.group(1)}", quote))


def _value_in(value: str, quote: str, kind: str) -> bool:
    if kind == "partial_date":
        return _date_in(value, quote)
    if kind == "phone":
        digits = re.sub(r"\D", "", value)
        return len(digits) >= 6 and digits in re.sub(r"\D", "", quote)
    if kind == "url":
        value = re.sub(r"^(?:https?://)?(?:www\.)?", "", value).rstrip("/")
    # Whole words only: a one-letter "skill" is not carried by any line that has the letter.
    return bool(re.search(rf"(?<![\w]){re.escape(value)}(?![\w])", quote))


def check(proposed: ProposedFact, text: str) -> Fact | str:
    """The fact, when the resume carries it; otherwise why it is refused, in words."""
    shape = _shape(proposed.path)
    if shape is None:
        return "not a resume detail Relay reads"
    label, kind = shape
    quote, value = _squash(proposed.quote), _squash(proposed.value)
    if not value:
        return "empty"
    if not quote or quote not in text:
        return "the line it cites is not in the resume"
    if not _value_in(value, quote, kind):
        return "the resume line it cites does not say this"
    return Fact(path=proposed.path, label=label, value=proposed.value.strip(),
                source=proposed.quote.strip(), kind=kind, found_by="model")


def read_with_model(
    text: str, known: list[Fact], *, config: LlmConfig, ledger: LlmLedger
) -> ModelReading:
    """Facts the model found that the rules did not, each one checked against the text."""
    run_id = f"extract-{uuid.uuid4().hex[:12]}"
    # One try: the person is waiting in the console, whose request gives up after a minute.
    config = config.model_copy(update={
        "max_output_tokens": max(config.max_output_tokens, MAX_OUTPUT_TOKENS), "retries": 0,
    })
    caller = Caller(config=config, ledger=ledger, run_id=run_id)
    messages = [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": text[:MAX_TEXT_CHARS]},
    ]
    reading = ModelReading()
    reply = caller.ask(Tier.GENERAL, PURPOSE, messages, FORMAT)
    if reply is None:
        last = caller.calls[-1].error if caller.calls else ""
        why = caller.stopped or {"malformed JSON": "its answer was broken"}.get(last, last)
        why = why or "no answer"
        reading.warnings.append(f"The model could not read this resume ({why}): "
                                "only the details found by rules are shown.")
        return reading
    try:
        proposed = ProposedFacts.model_validate(reply["fields"]).facts
    except ValidationError:
        reading.warnings.append("The model's answer was not in the expected form: "
                                "only the details found by rules are shown.")
        ledger.record_audit(run_id, "llm.malformed", {"purpose": PURPOSE})
        return reading
    squashed = _squash(text)
    kept: list[Fact] = []
    for item in proposed:
        checked = check(item, squashed)
        if isinstance(checked, str):
            reading.refused.append(Refused(path=item.path, value=item.value, reason=checked))
        else:
            kept.append(checked)
    # Onto the rules' numbering of jobs, schools and skills; paths the rules found keep theirs.
    reading.facts = align(kept, known)
    if reading.refused:
        # Paths and reasons only: the resume's content stays out of the log.
        ledger.record_audit(run_id, "llm.refused", {
            "purpose": PURPOSE,
            "refused": [{"key": r.path, "what": r.reason} for r in reading.refused],
        })
        reading.warnings.append(
            f"{len(reading.refused)} detail(s) the model proposed were left out: "
            "the resume does not say them."
        )
    return reading

