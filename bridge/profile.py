"""The person's profile: a JSON Resume document plus an `application` object (../shared/profiles).

The file is loaded as it is: unknown keys are kept, nothing is rewritten. Validation errors name the
field path and the reason.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bridge.protocol.envelopes import describe_validation
from bridge.protocol.errors import ErrorCode, RelayError


class _Open(BaseModel):
    # JSON Resume allows more than we model; keep whatever is there. Built on first use: the
    # profile's parts are validated only through Profile, whose own schema covers them.
    model_config = ConfigDict(extra="allow", populate_by_name=True, defer_build=True)


class Location(_Open):
    address: str | None = None
    postalCode: str | None = None
    city: str | None = None
    countryCode: str | None = None
    region: str | None = None


class SocialProfile(_Open):
    network: str | None = None
    username: str | None = None
    url: str | None = None


class Basics(_Open):
    name: str | None = None
    label: str | None = None
    image: str | None = None
    email: str | None = None
    phone: str | None = None
    url: str | None = None
    summary: str | None = None
    location: Location | None = None
    profiles: list[SocialProfile] = Field(default_factory=list)


class Work(_Open):
    name: str | None = None
    position: str | None = None
    url: str | None = None
    location: str | None = None
    startDate: str | None = None
    endDate: str | None = None
    summary: str | None = None
    highlights: list[str] = Field(default_factory=list)


class Education(_Open):
    institution: str | None = None
    url: str | None = None
    area: str | None = None
    studyType: str | None = None
    startDate: str | None = None
    endDate: str | None = None
    score: str | None = None
    courses: list[str] = Field(default_factory=list)


class Skill(_Open):
    name: str | None = None
    level: str | None = None
    keywords: list[str] = Field(default_factory=list)


class Language(_Open):
    language: str | None = None
    fluency: str | None = None


class Salary(_Open):
    amount: float
    currency: str = Field(min_length=3, max_length=3)
    period: Literal["year", "month", "hour"] = "year"


class Documents(_Open):
    resume: str | None = None
    coverLetter: str | None = None


class SavedAnswer(_Open):
    question: str
    answer: str


class Application(_Open):
    preferredName: str | None = None
    pronouns: str | None = None
    authorizedToWork: dict[str, bool] = Field(default_factory=dict)
    requiresSponsorship: dict[str, bool] = Field(default_factory=dict)
    willingToRelocate: bool | None = None
    remotePreference: Literal["remote", "hybrid", "onsite"] | None = None
    noticePeriod: str | None = None
    earliestStartDate: date | None = None
    salaryExpectation: Salary | None = None
    howDidYouHear: str | None = None
    yearsOfExperience: float | None = None
    over18: bool | None = None
    eeo: dict[str, str] = Field(default_factory=dict)
    documents: Documents = Field(default_factory=Documents)
    answers: list[SavedAnswer] = Field(default_factory=list)


class Profile(_Open):
    basics: Basics = Field(default_factory=Basics)
    work: list[Work] = Field(default_factory=list)
    education: list[Education] = Field(default_factory=list)
    skills: list[Skill] = Field(default_factory=list)
    languages: list[Language] = Field(default_factory=list)
    application: Application = Field(default_factory=Application)


class LoadedProfile(BaseModel):
    """A validated profile with the folder its relative document paths resolve against."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    profile: Profile
    base_dir: Path
    raw: dict[str, Any]

    def document_path(self, kind: Literal["resume", "coverLetter"]) -> Path | None:
        rel = getattr(self.profile.application.documents, kind)
        if not rel:
            return None
        path = (self.base_dir / rel).resolve()
        return path if path.is_file() else None


def parse_profile(raw: Any, base_dir: Path, origin: str = "profile") -> LoadedProfile:
    if not isinstance(raw, dict):
        raise RelayError(ErrorCode.PROFILE_INVALID, f"{origin}: a profile must be a JSON object")
    try:
        profile = Profile.model_validate(raw)
    except ValidationError as exc:
        raise RelayError(
            ErrorCode.PROFILE_INVALID, f"{origin}: {describe_validation(exc)}"
        ) from exc
    return LoadedProfile(profile=profile, base_dir=base_dir, raw=raw)


def load_profile(path: Path) -> LoadedProfile:
    path = path.expanduser()
    if not path.is_file():
        raise RelayError(ErrorCode.PROFILE_MISSING, f"profile file not found: {path}")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RelayError(ErrorCode.PROFILE_INVALID, f"{path}: cannot read as JSON: {exc}") from exc
    return parse_profile(raw, path.resolve().parent, origin=str(path))
