"""decide(): one decision per field — what it asks, what the profile answers, how to apply it.

Order per field: never-fill guards → keep what is already there → autocomplete → ATS adapter →
what the options say → scored patterns → the profile's answer, shaped to the widget.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial

from bridge.forms import (
    Action,
    FieldDecision,
    FieldOption,
    FillRequest,
    FormField,
    Source,
    Status,
    Widget,
)
from bridge.profile import LoadedProfile
from bridge.rules import adapters as ad
from bridge.rules.answers import resolve
from bridge.rules.classify import classify, never_reason
from bridge.rules.clusters import outside_application, site_search
from bridge.rules.features import CHOICE_WIDGETS, TEXT_WIDGETS, FieldText, field_ids, field_text
from bridge.rules.frames import beside_embedded, foreign_frames
from bridge.rules.model import Answer, Classified, Missing, Page, SavedLookup
from bridge.rules.options import is_address_supplement, is_placeholder
from bridge.rules.pagekind import APPLICATION_KEYS, is_application
from bridge.rules.questions import job_country
from bridge.rules.render import render
from bridge.rules.saved import own_answer, saved_answer
from bridge.rules.text import fold

REPEATED = ("work.", "edu.")
# What one work-history or education entry holds: a repeated block's fields take its entry.
BLOCK_KEYS = frozenset({
    "work.company", "work.title", "work.start", "work.end", "work.current",
    "edu.school", "edu.degree", "edu.field", "edu.gpa", "edu.start", "edu.end",
})
_ONCE_PER_BLOCK = frozenset({"work.company", "work.title", "edu.school", "edu.degree"})
# Asked only of one entry's block (a company or a title may also be asked once, of the current job).
_WITHIN_BLOCK = frozenset({"work.current", "work.start", "work.end", "edu.start", "edu.end"})
SIGNED = ("name.", "start_date", "work.start", "edu.")  # what a signature block's fields look like
_SIGNATURE_HEADINGS = re.compile(
    r"\b(signature|sign here|signed|e signature|attestation|unterschrift)\b"
)
FILL_BAR = 0.7  # at or above: fill
FLAG_BAR = 0.5  # between the bars: fill and flag for review; below: leave and flag


def detect_ats(request: FillRequest) -> str:
    """The applicant-tracking system whose adapter recognises the page ("" when none)."""
    # The adapters read only the fields' ids: no need for the full texts here.
    ids = [field_ids(field) for frame in request.frames for field in frame.fields]
    active = ad.active([request.url, *(frame.url for frame in request.frames)], ids)
    return active[0].name if active else ""


def decide(
    request: FillRequest, profile: LoadedProfile, saved: SavedLookup | None = None
) -> list[FieldDecision]:
    page = Page(url=request.url, title=request.title, job_text=request.job_text, saved=saved)
    page.lang = _page_lang(request)

    # First pass: what every field asks, so siblings can shape each other (phone country code
    # asked apart → national number; a second address line → split the street address).
    fields = [(field, field_text(field)) for frame in request.frames for field in frame.fields]
    urls = [request.url, *(frame.url for frame in request.frames)]
    active = ad.active(urls, [ft.ids for _f, ft in fields])
    page.adapters = tuple(a.name for a in active)
    texts: list[tuple[FormField, FieldText, Classified | None, str | None]] = []
    blocks: dict[tuple[str, str], list[str]] = {}
    unblocked: dict[str, set[str]] = {}
    for field, ft in fields:
        try:
            never = never_reason(field, ft)
            cls = None if never else classify(field, ft, active, page)
        except Exception:  # odd markup must not sink the whole plan: this field stays unknown
            never, cls = None, None
        if not never and _in_signature_block(ft) and (cls is None or cls.key.startswith(SIGNED)):
            never, cls = "never.signature:a name or date inside a signature block", None
        if cls and cls.key.startswith("never."):
            never, cls = f"{cls.key}:{cls.reason}", None
        if cls and cls.key.startswith(REPEATED):
            # Repeated employment / education blocks take the profile's entries in order, most
            # recent first (the resolvers pick the entry by the block's place).
            # A block the page repeats (the snapshot saw its siblings) is counted per family; one
            # told only by an index in the field's id is counted per key, since question lists
            # number their questions too ("answers[2]" a company, "answers[3]" a title).
            shown = field.attrs.get("block", "")
            block = shown or _block_index(ft)
            if block and cls.key in BLOCK_KEYS:
                family = cls.key.split(".", 1)[0] if shown else cls.key
                seen = blocks.setdefault((field.frame, family), [])
                if block not in seen:
                    seen.append(block)
                page.block_of[(field.frame, field.id)] = seen.index(block)
            elif cls.key in _ONCE_PER_BLOCK:
                # The same entry asked again with nothing telling the blocks apart: which
                # entry it wants is a guess, so it is not answered from the latest one. (Dates
                # repeat within a block: month and year boxes.)
                if cls.key in unblocked.setdefault(field.frame, set()):
                    cls = None
                else:
                    unblocked[field.frame].add(cls.key)
        texts.append((field, ft, cls, never))
    _unplaced_block_fields(texts, blocks, page)
    _current_flag_once(texts, page)
    for field, ft, cls, _never in texts:
        if cls:
            page.frame_keys.setdefault(field.frame, set()).add(cls.key)
            if cls.key == "phone.country_code":
                page.phone_code_values[field.frame] = field.value.strip()
                page.phone_code_inline[field.frame] = _inline_dial_code(field, ft)
    _address_continuations(texts, page)
    _number_after_area_code(texts, page)
    keys = {cls.key for _f, _ft, cls, _n in texts if cls}
    if keys & _NEEDS_JOB_COUNTRY:  # reading the page text for places costs: only when asked
        page.job_country = _job_country(request, texts)
    page.application = is_application(urls, request.title, keys, page.adapters)
    aside = outside_application(texts) if page.application else {}
    holding = {f.frame for f, _ft, cls, _n in texts if cls and cls.key in APPLICATION_KEYS}
    foreign = foreign_frames(request, holding)
    around = beside_embedded(request, holding)
    out = []
    for i, (field, ft, cls, never) in enumerate(texts):
        if not never and site_search(field, ft, cls):
            never = "never.search:a site search box"
        apart = ""
        if field.frame in foreign and field.visible:  # an unseen field says that first
            apart = f"in a frame from another site ({foreign[field.frame]})"
            apart += " that is not the application"
        elif i in aside and not never:
            apart = f"not part of the application ({aside[i]} on the same page)"
        elif field.frame in around and not never:
            apart = f"not part of the application (it is in a frame from {around[field.frame]})"
        if apart:
            d = _base(field)
            d.key = cls.key if cls else ""
            d.reason = f"leave: {apart}"
            out.append(d)
            continue
        out.append(_safe_decide(field, ft, cls, never, page, profile))
    return out


_LINE1 = ("address.line1", "address.street")


def _address_continuations(
    texts: list[tuple[FormField, FieldText, Classified | None, str | None]], page: Page
) -> None:
    """An unnamed-looking field right after the street line that says "additional": line 2."""
    for i in range(1, len(texts)):
        field, ft, cls, never = texts[i]
        prev_field, _pft, prev, _pn = texts[i - 1]
        if never or (cls is not None and cls.confidence >= FLAG_BAR) or field.widget != Widget.TEXT:
            continue
        if prev is None or prev.key not in _LINE1 or prev_field.frame != field.frame:
            continue
        if is_address_supplement(ft.question):
            texts[i] = (
                field,
                ft,
                Classified("address.line2", 0.8, "context:after-street-line"),
                None,
            )
            page.frame_keys.setdefault(field.frame, set()).add("address.line2")


def _number_after_area_code(
    texts: list[tuple[FormField, FieldText, Classified | None, str | None]], page: Page
) -> None:
    """A phone box right after an area code box asks the rest of the number ("Area Code" then
    "Phone Number" under one "Phone" question): the local number, not the whole one again."""
    for i in range(1, len(texts)):
        field, ft, cls, never = texts[i]
        prev_field, _pft, prev, _pn = texts[i - 1]
        if never or cls is None or cls.key != "phone.full" or prev is None:
            continue
        if prev.key != "phone.area_code" or prev_field.frame != field.frame:
            continue
        texts[i] = (field, ft, Classified("phone.local", cls.confidence, "context:after-area-code"),
                    None)
        page.frame_keys.setdefault(field.frame, set()).add("phone.local")


# Keys whose answer depends on where the job is.
_NEEDS_JOB_COUNTRY = frozenset({"auth.work", "sponsorship", "salary"})
# Questions that name the country they ask about: their wording says nothing of the job's place.
_COUNTRY_QUESTIONS = frozenset({"auth.work", "sponsorship", "residence.in", "citizenship"})


def _job_country(
    request: FillRequest, texts: list[tuple[FormField, FieldText, Classified | None, str | None]]
) -> str | None:
    """The job's country from the page, without the wording of questions that name a country
    themselves ("…the right to work in the United Kingdom?" says nothing of where the job is)."""
    job_text = request.job_text
    for field, _ft, cls, _never in texts:
        if cls is not None and cls.key in _COUNTRY_QUESTIONS and len(field.label) > 12:
            job_text = job_text.replace(field.label.strip(), " ")
    return job_country(request.title, request.url, job_text)


def _safe_decide(
    field: FormField,
    ft: FieldText,
    cls: Classified | None,
    never: str | None,
    page: Page,
    profile: LoadedProfile,
) -> FieldDecision:
    try:
        return _decide_one(field, ft, cls, never, page, profile)
    except Exception as exc:  # one field's surprise leaves that field, not the whole plan
        d = _base(field)
        d.reason = f"unknown (rules error: {type(exc).__name__})"
        return d


_BLOCK = re.compile(r"(?:-|\[|_)(\d{1,2})(?:--|\]|_)")


def warm_steps() -> list[Callable[[], object]]:
    """Loading the rules' data ahead of the first Fill, in short steps, what every Fill reads
    first: the patterns and adapters, then the name parser and the phone metadata (most forms ask
    a name and a phone), then the country tables (address and citizenship questions), then the
    lists that tell a checklist of skills from one of spoken languages. A warm-up
    pauses between steps while a plan is being made, so a step a plan does not need never slows
    it."""
    from bridge.rules.classify import _someone_else, _technologies
    from bridge.rules.countries import _names_in_text, subdivisions
    from bridge.rules.formats import valid_phone
    from bridge.rules.languages import _spoken_names
    from bridge.rules.patterns import index
    from bridge.rules.resolvers.names import parse_name

    return [
        index,
        ad.adapters,
        partial(parse_name, "Ada Lovelace"),
        partial(valid_phone, "+1 202 555 0100", "US"),
        _someone_else,
        _names_in_text,
        *(partial(subdivisions, cc) for cc in ("US", "CA", "AU", "DE", "IN", "GB")),
        # Choice lists read by their options: technologies, and spoken languages (babel's names).
        _technologies,
        _spoken_names,
    ]


def _unplaced_block_fields(
    texts: list[tuple[FormField, FieldText, Classified | None, str | None]],
    blocks: dict[tuple[str, str], list[str]],
    page: Page,
) -> None:
    """A block's field (a "current job" box, a start date) that shows no block of its own while
    its frame repeats that family's blocks takes the block of the placed fields of its family
    on both sides of it, when they agree (a month list between its block's company and year
    boxes); otherwise which entry it belongs to is a guess, so it is left."""
    repeated = {
        (frame, family.split(".", 1)[0])
        for (frame, family), seen in blocks.items()
        if len(seen) > 1
    }
    placed = [
        (i, field.frame, cls.key.split(".", 1)[0], page.block_of[(field.frame, field.id)])
        for i, (field, _ft, cls, _n) in enumerate(texts)
        if cls and (field.frame, field.id) in page.block_of
    ]
    for i, (field, ft, cls, never) in enumerate(texts):
        if not cls or cls.key not in _WITHIN_BLOCK or (field.frame, field.id) in page.block_of:
            continue
        family = cls.key.split(".", 1)[0]
        if (field.frame, family) not in repeated:
            continue
        kin = [(j, b) for j, frame, fam, b in placed if frame == field.frame and fam == family]
        before = [b for j, b in kin if j < i]
        after = [b for j, b in kin if j > i]
        if before and after and after[0] == before[-1]:
            page.block_of[(field.frame, field.id)] = before[-1]
        else:
            texts[i] = (field, ft, None, never)


def _current_flag_once(
    texts: list[tuple[FormField, FieldText, Classified | None, str | None]], page: Page
) -> None:
    """A "current job" box asked again where no block tells which entry each copy belongs to:
    the first takes the latest job, the others are left (ticking them would say an older job is
    current too). Placed after the block fields have taken their blocks, since a block's box is
    often told only by the fields around it."""
    seen: set[str] = set()
    for i, (field, ft, cls, never) in enumerate(texts):
        if not cls or cls.key != "work.current" or (field.frame, field.id) in page.block_of:
            continue
        if field.frame in seen:
            texts[i] = (field, ft, None, never)
        seen.add(field.frame)


def _block_index(ft: FieldText) -> str:
    """The repeat index in ids like `workExperience-2--jobTitle` or `educations[1][school]`."""
    m = _BLOCK.search(ft.ids.get("any", ""))
    return m.group(1) if m else ""


def _inline_dial_code(field: FormField, ft: FieldText) -> bool:
    """intl-tel-input and look-alikes: a flag button inside the number box, not a form field."""
    classes = f"{field.attrs.get('class', '')} {field.attrs.get('parent:class', '')}"
    marks = f"{classes} {ft.ids.get('any', '')}"
    return (
        bool(re.search(r"\biti\b|iti__|intl-tel|flag", marks))
        or "selected country" in field.label.casefold()
    )


def _page_lang(request: FillRequest) -> str:
    from bridge.rules.lang import guess_lang

    labels = " ".join(f.label for f in request.all_fields()[:80])
    return guess_lang(f"{request.title} {labels}")


def has_value(field: FormField) -> bool:
    """A value the page or the person put there (a placeholder option does not count)."""
    value = field.value.strip()
    if field.widget == Widget.CHECKBOX:
        return value.casefold() in ("true", "checked")
    if field.widget in (Widget.TEL, Widget.TEXT) and re.fullmatch(r"\+\s?\d{1,4}", value):
        return False  # only the dial prefix a phone widget puts there by itself
    if field.widget in CHOICE_WIDGETS:
        if field.tag == "input" and not value:
            # An editable combobox shows its choice as its text: empty text, nothing chosen (an
            # option list found beside it may belong to another control).
            return False
        selected = [o for o in field.options if o.selected]
        if field.widget == Widget.SELECT and len(selected) == 1 and selected[0] is field.options[0]:
            return False  # a native select shows its first option until someone picks one
        if selected:
            return not all(is_placeholder(o) for o in selected)
        return bool(value) and not is_placeholder(FieldOption(value="x", text=value))
    return bool(value)


_HIDDEN_CLASS = re.compile(
    r"(^|\s)(visually-hidden|sr-only|screen-reader-text|is-hidden|hidden)(\s|$)"
)


def _in_signature_block(ft: FieldText) -> bool:
    return bool(_SIGNATURE_HEADINGS.search(" ".join(ft.section)))


def _visually_hidden(field: FormField) -> bool:
    return bool(_HIDDEN_CLASS.search(field.attrs.get("class", "")))


# Address lists whose first entry a page marks as chosen ("Alabama", "Malta", "AK").
_PRESET_KEYS = frozenset({"address.country", "address.region"})


def _page_default(cls: Classified | None, field: FormField) -> bool:
    """A preset the page chose, not the person.

    Dial-code pickers always carry one. A native country or state list whose chosen entry is
    simply its first real option is the page's markup default: a person picking from the list
    would rarely land on the first entry, and when the profile agrees the fill changes nothing.
    """
    if cls is None:
        return False
    if cls.key == "phone.country_code":
        return True
    if cls.key not in _PRESET_KEYS or field.widget != Widget.SELECT:
        return False
    selected = [o for o in field.options if o.selected]
    first_real = next((o for o in field.options if not _prompt(o, field)), None)
    return len(selected) == 1 and selected[0] is first_real


def _prompt(opt: FieldOption, field: FormField) -> bool:
    """An entry that only prompts: a placeholder, an empty value or text, or the label again."""
    text = fold(opt.text)
    return is_placeholder(opt) or not opt.value.strip() or not text or text == fold(field.label)


def _base(field: FormField) -> FieldDecision:
    return FieldDecision(
        field_id=field.id, frame=field.frame, locator=field.locator, label=field.label
    )


def _decide_one(
    field: FormField,
    ft: FieldText,
    cls: Classified | None,
    never: str | None,
    page: Page,
    profile: LoadedProfile,
) -> FieldDecision:
    d = _base(field)
    if never:
        d.key, d.status, d.reason = (
            never.split(":", 1)[0],
            Status.NEVER,
            f"never-fill:{never.split(':', 1)[-1]}",
        )
        return d
    if field.user_edited or (has_value(field) and not _page_default(cls, field)):
        d.key = cls.key if cls else ""
        d.status = Status.KEEP
        d.reason = (
            "keep: the person edited it" if field.user_edited else "keep: already has a value"
        )
        return d
    text = field.widget in TEXT_WIDGETS
    if not field.visible or (text and _visually_hidden(field)):
        # What the person cannot see they cannot check, and a page can read it: a harvester, a
        # honeypot, or a wizard step not shown yet. Untouchable now; the next Fill, after the
        # field shows, decides it afresh.
        why = f"you cannot see this field ({field.hidden_reason or 'hidden'})"
        d.key = cls.key if cls else ("never.honeypot" if text else "")
        if text:
            d.status = Status.NEVER
            d.reason = f"never-fill:{why}; a hidden text box is a honeypot or a step not shown yet"
        else:
            d.reason = f"not filled: {why}"
        return d
    if field.disabled or (
        field.readonly
        and field.widget not in (Widget.DATE_TEXT, Widget.COMBOBOX, Widget.LISTBOX, Widget.SELECT)
    ):
        d.key = cls.key if cls else ""
        d.reason = "leave: disabled or read-only"
        return d
    if cls is None or cls.confidence < FLAG_BAR:
        saved = saved_answer(field, ft, profile, page)
        if saved is not None:
            return _apply(d, field, ft, Classified("saved", 0.8, "saved-answer"), saved, page)
        if cls is not None:
            d.key, d.confidence = cls.key, round(cls.confidence, 3)
            d.reason = f"below-bar: {cls.reason} (confidence {cls.confidence:.2f})"
            return d
        d.reason = "unknown"
        return d
    corrected = own_answer(field, ft, page)
    if corrected is not None:
        # The person answered this very question themselves: their word over the profile's.
        return _apply(d, field, ft, cls, corrected, page)
    result = resolve(cls.key, field, ft, page, profile)
    if isinstance(result, Missing):
        saved = saved_answer(field, ft, profile, page)
        if saved is not None:
            return _apply(d, field, ft, cls, saved, page)
        d.key, d.confidence = cls.key, round(cls.confidence, 3)
        d.reason = f"no-answer: {cls.reason}; {result.why}"
        return d
    return _apply(d, field, ft, cls, result, page)


def _apply(
    d: FieldDecision, field: FormField, ft: FieldText, cls: Classified, answer: Answer, page: Page
) -> FieldDecision:
    d.key = cls.key if cls.key != "saved" else "saved_answer"
    shaped = render(field, ft, cls.key, answer, page)
    if isinstance(shaped, Missing):
        d.confidence = round(cls.confidence, 3)
        d.reason = f"no-answer: {cls.reason}; {shaped.why}"
        return d
    d.action = shaped.action
    d.value = shaped.value
    d.values = shaped.values
    d.place = shaped.place
    d.checked = shaped.checked
    d.file = answer.file if shaped.action == Action.ATTACH else None
    d.source = answer.source
    conf = cls.confidence * answer.confidence * shaped.confidence
    d.confidence = round(min(conf, 1.0), 3)
    note = f" — {answer.note}" if answer.note else ""
    note += f" — {shaped.note}" if shaped.note else ""
    d.reason = f"{cls.reason}{note}"
    if answer.source == Source.SAVED_ANSWER or answer.review or shaped.review:
        d.status = Status.FLAG
    elif conf >= FILL_BAR:
        d.status = Status.FILL
    elif conf >= FLAG_BAR:
        d.status = Status.FLAG
    else:
        d.action, d.value, d.values, d.checked, d.file = Action.NONE, "", [], None, None
        d.status = Status.LEAVE
        d.reason = f"below-bar: {d.reason} (confidence {conf:.2f})"
    return d
