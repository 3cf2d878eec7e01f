"""Small value types the engine's steps pass between them."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Protocol

from bridge.forms import FileRef, Source


@dataclass(frozen=True)
class Classified:
    """What a field asks: a key, how sure we are, and which step said so."""

    key: str
    confidence: float
    reason: str


@dataclass(frozen=True)
class Answer:
    """What the profile says for a key, before it is shaped to the field's widget.

    `kind` says how to put it into options: text (fuzzy text match), bool (yes / no), date,
    number (buckets), country / region (codes), eeo (category or decline), degree (level),
    notice (days), file.
    """

    kind: str
    text: str = ""
    flag: bool | None = None
    when: date | None = None
    number: float | None = None
    code: str = ""
    alternatives: tuple[str, ...] = ()  # other wordings of the same answer, for option matching
    query: str = ""  # what to type into a search box whose suggestions hold the answer
    # A place (city, region, country), each part with its other writings: a suggestion of a
    # places-backed typeahead must name these and nothing else.
    place: tuple[tuple[str, ...], ...] = ()
    file: FileRef | None = None
    source: Source = Source.PROFILE
    confidence: float = 1.0
    review: bool = False  # fill but flag for the person's review
    note: str = ""


@dataclass(frozen=True)
class StoredAnswer:
    """One of the person's stored answers, as the engine sees it."""

    answer_id: int
    question: str
    value: str
    self_id: bool = False


class SavedLookup(Protocol):
    """The person's stored answers (the store's, behind an embedding search)."""

    def same_question(self, question: str) -> StoredAnswer | None:
        """The stored answer to a question that means the same, else None."""
        ...

    def everything(self) -> list[StoredAnswer]:
        """All stored answers (for the same question asked in other words or languages)."""
        ...

    def note_use(self, answer: StoredAnswer) -> None:
        """The answer filled a field of this plan."""
        ...


@dataclass(frozen=True)
class Missing:
    """The profile cannot answer (or the question cannot be told apart): leave it."""

    why: str


@dataclass
class Page:
    """Facts about the whole request that single fields need (job country, company, siblings)."""

    url: str
    title: str
    job_text: str
    lang: str = "en"
    adapters: tuple[str, ...] = ()
    job_country: str | None = None
    job_country_known: bool = False
    application: bool = True  # a job application (else employer / title are not the person's)
    frame_keys: dict[str, set[str]] = field(default_factory=dict)
    # (frame, field id) → which repeated work / education block the field is in (0: the first),
    # for fields in such blocks only: the profile's entries fill them most recent first.
    block_of: dict[tuple[str, str], int] = field(default_factory=dict)
    # Current value of each frame's phone country-code field ("" when empty).
    phone_code_values: dict[str, str] = field(default_factory=dict)
    # The frame's dial-code picker is part of the number box (intl-tel-input): type the full number.
    phone_code_inline: dict[str, bool] = field(default_factory=dict)
    # The person's stored answers (bridge/learn/lookup.py); None: only the profile's.
    saved: SavedLookup | None = None
