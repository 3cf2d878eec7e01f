"""Facts read from a PDF or DOCX resume by rules, on this computer: contact details, work history,
education, skills and links. Each fact names the line it came from; none is stored until the
person has confirmed it (the console shows them, then sends the confirmed ones to profile.import).
"""

from __future__ import annotations

import io
import re
from typing import Literal

import phonenumbers
from pydantic import BaseModel

from bridge.jsonresume import normalize_date
from bridge.protocol.errors import ErrorCode, RelayError

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_URL = re.compile(r"(?:https?://|www\.)[^\s|,;]+|\b(?:linkedin\.com|github\.com)/[^\s|,;]+", re.I)
# Hyphen, en dash, em dash: resumes use all three between an employer and a title.
_DASHES = "-\u2013\u2014"
_DASH = rf"\s+[{_DASHES}|]\s+"
_YEAR = r"(?:[A-Za-z]{3,9}\.?\s+)?\d{4}"
_SPAN = re.compile(
    rf"\(?\s*(?P<start>{_YEAR})(?:\s*[{_DASHES}]\s*|\s+to\s+)(?P<end>{_YEAR}|present|current|now)\s*\)?$"
    rf"|\(?\s*(?P<only>{_YEAR})\s*\)?$",
    re.I,
)
_BULLET = re.compile(rf"^\s*[{_DASHES}•*▪◦]\s+")
_SCHOOL = re.compile(r"universit|college|school|institut|academy|polytechn", re.I)
_DEGREE = re.compile(
    r"^(?P<type>B\.?\s?S\.?c?|B\.?\s?A\.?|M\.?\s?S\.?c?|M\.?\s?A\.?|MBA|Ph\.?\s?D\.?|"
    r"Bachelor(?:'s)?(?: of \w+)?|Master(?:'s)?(?: of \w+)?|Doctor(?:ate)?(?: of \w+)?)"
    r"\s*(?:in\s+|of\s+)?(?P<area>.*)$",
    re.I,
)
_HEADINGS = {
    "experience": "work", "work experience": "work", "employment": "work", "work history": "work",
    "professional experience": "work", "education": "education", "skills": "skills",
    "technical skills": "skills", "links": "links", "contact": "contact",
}
FactKind = Literal["text", "email", "phone", "url", "partial_date"]
_NETWORKS = {"linkedin.com": "LinkedIn", "github.com": "GitHub", "gitlab.com": "GitLab"}


class Fact(BaseModel):
    path: str  # where it goes in the JSON Resume, e.g. "work.0.position"
    label: str  # what it is, in words
    value: str
    source: str  # the resume line it was read from
    kind: FactKind = "text"
    found_by: Literal["rules", "model"] = "rules"  # shown in the console's confirm step


def extract_text(file_name: str, data: bytes) -> str:
    suffix = file_name.lower().rsplit(".", 1)[-1] if "." in file_name else ""
    try:
        if suffix == "pdf":
            from pypdf import PdfReader

            reader = PdfReader(io.BytesIO(data))
            return "\n".join((page.extract_text() or "") for page in reader.pages)
        if suffix == "docx":
            import docx

            document = docx.Document(io.BytesIO(data))
            lines = [p.text for p in document.paragraphs]
            for table in document.tables:
                lines += [" | ".join(cell.text for cell in row.cells) for row in table.rows]
            return "\n".join(lines)
    except Exception as exc:  # a damaged file is the person's to replace, with the reason
        raise RelayError(
            ErrorCode.PROFILE_INVALID, f"{file_name[:80]}: cannot read this file ({exc})"
        ) from exc
    raise RelayError(ErrorCode.PROFILE_INVALID, "only PDF and DOCX resumes can be read")


def _date(text: str) -> str:
    text = text.strip()
    if re.fullmatch(r"\d{4}", text):
        return text
    return normalize_date(text) or ""


class _Reader:
    def __init__(self) -> None:
        self.facts: list[Fact] = []
        self.work = 0
        self.education = 0
        self.skills = 0
        self.links = 0
        self.last_entry = ""  # "work.N" while its bullets follow
        self.bullets = 0

    def add(self, path: str, label: str, value: str, source: str, kind: str = "text") -> None:
        value = value.strip(f" \t{_DASHES}|,;")
        if value:
            self.facts.append(Fact(path=path, label=label, value=value, source=source.strip(),
                                   kind=kind))

    def contact(self, line: str) -> bool:
        found = False
        for match in _EMAIL.finditer(line):
            if not any(f.path == "basics.email" for f in self.facts):
                self.add("basics.email", "Email", match.group(), line, "email")
            found = True
        for number in phonenumbers.PhoneNumberMatcher(line, "US"):
            if not any(f.path == "basics.phone" for f in self.facts):
                self.add("basics.phone", "Phone", number.raw_string, line, "phone")
            found = True
        for match in _URL.finditer(line):
            self.link(match.group(), line)
            found = True
        if found:
            rest = _URL.sub("", _EMAIL.sub("", line))
            for part in re.split(r"\s*[|•·]\s*", rest):
                part = part.strip()
                if "," in part and not re.search(r"\d{3}", part):
                    city, region = (p.strip() for p in part.split(",", 1))
                    self.add("basics.location.city", "City", city, line)
                    self.add("basics.location.region", "Region or country", region, line)
        return found

    def link(self, url: str, line: str) -> None:
        full = url if url.lower().startswith("http") else f"https://{url}"
        network = next((n for host, n in _NETWORKS.items() if host in full.lower()), "")
        if network:
            base = f"basics.profiles.{self.links}"
            self.add(f"{base}.network", "Network", network, line)
            self.add(f"{base}.url", f"{network} link", full, line, "url")
            self.links += 1
        elif not any(f.path == "basics.url" for f in self.facts):
            self.add("basics.url", "Website", full, line, "url")

    def entry(self, line: str, section: str) -> bool:
        """"Org - Title (2019-2021)" and its variants, as work or education."""
        span = _SPAN.search(line)
        if span is None:
            return False
        head = line[: span.start()].strip(" ,(")
        parts = re.split(_DASH, head, maxsplit=1)
        if len(parts) == 1:  # "Org, Title" when there is no dash
            parts = re.split(r",\s+(?=[A-Z])", head, maxsplit=1)
        parts = [p.strip() for p in parts]
        if not parts or not parts[0]:
            return False
        org, role = parts[0], parts[1] if len(parts) > 1 else ""
        start = span.group("start") or ""
        end = span.group("end") or span.group("only") or ""
        school = section == "education" or _SCHOOL.search(org) or _DEGREE.match(role or "-")
        if school:
            base = f"education.{self.education}"
            self.education += 1
            self.add(f"{base}.institution", "School", org, line)
            degree = _DEGREE.match(role) if role else None
            if degree:
                self.add(f"{base}.studyType", "Degree", degree.group("type"), line)
                self.add(f"{base}.area", "Field of study", degree.group("area"), line)
            else:
                self.add(f"{base}.area", "Field of study", role, line)
            if start:
                self.add(f"{base}.startDate", "Started", _date(start), line, "partial_date")
            self.add(f"{base}.endDate", "Finished", _date(end), line, "partial_date")
            self.last_entry = ""
            return True
        base = f"work.{self.work}"
        self.work += 1
        self.add(f"{base}.name", "Employer", org, line)
        self.add(f"{base}.position", "Job title", role, line)
        self.add(f"{base}.startDate", "Started", _date(start or end), line, "partial_date")
        if start and end.lower() not in {"present", "current", "now"}:
            self.add(f"{base}.endDate", "Ended", _date(end), line, "partial_date")
        self.last_entry, self.bullets = base, 0
        return True

    def skill_line(self, line: str) -> None:
        name, _, rest = line.partition(":")
        words = rest if rest else name
        base = f"skills.{self.skills}"
        self.skills += 1
        self.add(f"{base}.name", "Skill group", name if rest else "Skills", line)
        for index, word in enumerate(w for w in re.split(r"\s*[,;•|]\s*", words) if w.strip()):
            self.add(f"{base}.keywords.{index}", "Skill", word, line)


def extract_facts(text: str) -> list[Fact]:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    reader = _Reader()
    section = ""
    for number, line in enumerate(lines):
        heading = _HEADINGS.get(line.lower().rstrip(":"))
        if heading:
            section, reader.last_entry = heading, ""
            continue
        if number == 0 and not _EMAIL.search(line):
            name, *label = re.split(_DASH, line, maxsplit=1)
            reader.add("basics.name", "Name", name, line)
            reader.add("basics.label", "Headline", "".join(label), line)
            continue
        if _BULLET.match(line) and reader.last_entry:
            highlight = _BULLET.sub("", line)
            reader.add(f"{reader.last_entry}.highlights.{reader.bullets}", "Achievement",
                       highlight, line)
            reader.bullets += 1
            continue
        if section == "skills" or re.match(r"^(skills|technologies|languages)\s*:", line, re.I):
            reader.skill_line(line)
            continue
        if reader.contact(line):
            continue
        reader.entry(line, section)
    return reader.facts
