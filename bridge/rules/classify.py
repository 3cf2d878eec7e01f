"""What a field asks: never-fill guards, then autocomplete → ATS adapter → options → patterns."""

from __future__ import annotations

import re
from functools import cache

from bridge.forms import FieldOption, FormField, Widget
from bridge.rules import adapters as ad
from bridge.rules import eeo
from bridge.rules.countries import country_of_option, subdivisions
from bridge.rules.data import load_toml
from bridge.rules.degrees import level
from bridge.rules.features import CHOICE_WIDGETS, FieldText, asks_yes_no, question_sentence
from bridge.rules.languages import names_a_language
from bridge.rules.memo import text_cache
from bridge.rules.model import Classified, Page
from bridge.rules.options import option_text, real_options, yes_no_options
from bridge.rules.patterns import Hit, contains_words, sum_scores
from bridge.rules.permits import read_permit_question
from bridge.rules.text import fold

NEVER_BAR = 0.7
# Headings under which a person's details are someone else's (a referee, an emergency contact).
OTHER_PERSON = (
    ("emergency",),
    ("reference",),
    ("references",),
    ("referee",),
    ("referees",),
    ("next", "of", "kin"),
    ("referrer",),
    ("referral",),
    ("notfall",),
    ("referenz",),
    ("referenzen",),
    ("urgence",),
    ("emergencia",),
    ("referencias",),
    ("noodgeval",),
)
PERSON_KEYS = ("name.", "basics.email", "phone.", "address.", "location.", "links.")
# Headings of repeated history blocks, where a start date is a job's, not the earliest start.
HISTORY = (
    ("experience",),
    ("employment",),
    ("work", "history"),
    ("education",),
    ("erfahrung",),
    ("ausbildung",),
    ("experiencia",),
    ("formation",),
    ("opleiding",),
    ("werkervaring",),
    ("ervaring",),
    ("berufserfahrung",),
    ("formacion",),
    ("formacao",),
    ("estudios",),
)
# Headings that name the application form itself, whatever history word they hold.
APPLICATION_TITLE = (
    ("employment", "application"),
    ("application", "for", "employment"),
)

# Words by which a start date asks when the person can start, even under such a heading
# ("Available start date", "Earliest start date"); a block's own start is a bare "Start date".
AVAILABILITY = (
    ("available",),
    ("availability",),
    ("earliest",),
    ("when", "can", "you"),
    ("how", "soon"),
    ("disponible",),
    ("disponibilidad",),
    ("disponibilite",),
    ("disponivel",),
    ("beschikbaar",),
    ("verfugbar",),
    ("fruhest",),
)

SCHOOL = (
    ("education",),
    ("ausbildung",),
    ("formation",),
    ("opleiding",),
    ("educacion",),
    ("formacion",),
    ("estudios",),
    ("formacao",),
    ("school",),
    ("university",),
)


@cache
def _autocomplete() -> tuple[dict[str, str], dict[str, str]]:
    doc = load_toml("autocomplete.toml")
    return dict(doc.get("tokens", {})), dict(doc.get("contains", {}))


def autocomplete_key(field: FormField) -> tuple[str, str] | None:
    raw = field.autocomplete.strip().casefold()
    if not raw or raw in ("on", "off", "false", "true", "nope", "none"):
        return None
    tokens, contains = _autocomplete()
    words = raw.split()
    for word in reversed(words):
        if word in tokens:
            return tokens[word], word
    for needle, key in contains.items():
        if needle in raw:
            return key, raw
    return None


@cache
def _narrower() -> dict[str, tuple[str, ...]]:
    return {k: tuple(v) for k, v in load_toml("autocomplete.toml").get("narrower", {}).items()}


def _narrower_label(key: str, ft: FieldText) -> str | None:
    """A part of what the autocomplete token says, asked by the visible label itself."""
    parts = _narrower().get(key)
    if not parts:
        return None
    best: tuple[float, str] | None = None
    for h in ft.hits():
        if h.attr in ("label", "aria") and h.key in parts and h.score >= 0.8:
            if best is None or h.score > best[0]:
                best = (h.score, h.key)
    return best[1] if best else None


def never_reason(field: FormField, ft: FieldText) -> str | None:
    """ "never.<kind>:<why>" for a field that must never be filled, else None."""
    if field.widget == Widget.PASSWORD or field.type.casefold() == "password":
        return "never.password:password input"
    if field.widget == Widget.HIDDEN or field.type.casefold() == "hidden":
        return "never.honeypot:hidden input"
    auto = _own_autocomplete(field, ft)
    if auto and auto[0].startswith("never."):
        return f"{auto[0]}:autocomplete {auto[1]}"
    hits = ft.hits()
    totals = sum_scores(hits)
    for key, score in sorted(totals.items(), key=lambda kv: -kv[1]):
        if not key.startswith("never."):
            continue
        bar = 0.4 if key == "never.honeypot" else NEVER_BAR
        from_ids_only = all(h.attr == "name" for h in hits if h.key == key)
        margin = 1.25 if from_ids_only else 0.8
        if score >= bar and (key == "never.honeypot" or score >= margin * _best_other(totals)):
            return f"{key}:{_attr_of(hits, key)} says {key.split('.', 1)[1]}"
    return None


def _own_autocomplete(field: FormField, ft: FieldText) -> tuple[str, str] | None:
    """The autocomplete token, unless it is a password token on a box that is no password input
    and whose visible label plainly asks something else: sites write autocomplete="new-password"
    on a street or email box to keep browsers from filling it, and the label says what it is."""
    auto = autocomplete_key(field)
    if auto is None or auto[0] != "never.password" or field.type.casefold() == "password":
        return auto
    seen = [h for h in ft.hits() if h.attr in ("label", "aria", "placeholder")]
    if not seen or any(h.key.startswith("never.") for h in seen):
        return auto
    return None if max(h.score for h in seen) >= 0.8 else auto


def _best_other(totals: dict[str, float]) -> float:
    return max((v for k, v in totals.items() if not k.startswith("never.")), default=0.0)


def _attr_of(hits: list[Hit], key: str) -> str:
    best = max((h for h in hits if h.key == key), key=lambda h: h.score)
    return best.attr


def classify(
    field: FormField, ft: FieldText, active: tuple[ad.Adapter, ...], page: Page
) -> Classified | None:
    found = _classify(field, ft, active, page)
    if found is None or found.confidence < MEANING_BAR:
        # A bare "From" in an employment block outranks a weak guess from its id ("…[start]").
        found = (
            _permit_question(field, ft, page)
            or _yes_no_in_words(field, ft)
            or _typed_email(field, ft)
            or _block_date(field, ft)
            or found
        )
    if found is None:
        return None
    found = _pick_list_by_options(field, found)
    other_person, history, school = _section_kind(ft.section)
    label = ft.texts.get("label", ())
    if found.key.startswith(PERSON_KEYS) and (other_person or _names_someone_else(label)):
        return None  # someone else's details: not the profile's to give
    if found.key == "start_date" and history and not _asks_availability(label):
        # A start date inside an employment or education block is that block's, not availability.
        return Classified(
            "edu.start" if school else "work.start",
            found.confidence * 0.9,
            f"{found.reason} (under {' '.join(ft.section)})",
        )
    return found


# Lists to pick from whose words alone may mean either: "Which of these languages have you used?"
PICK_LISTS = ("languages.pick", "skills.pick")


def _pick_list_by_options(field: FormField, found: Classified) -> Classified:
    """A list of languages is of spoken ones when its options are language names, and of skills
    (programming languages) when none is: the options settle what the word "languages" means."""
    if found.key not in PICK_LISTS or not (
        field.widget == Widget.CHECKBOX_GROUP or field.multiple
    ):
        return found
    opts = [option_text(o) for o in real_options(field.options)]
    if len(opts) < 2:
        return found
    spoken = sum(1 for t in opts if names_a_language(t))
    if spoken * 2 >= len(opts):
        key, kind = "languages.pick", "spoken languages"
    elif spoken == 0:
        key, kind = "skills.pick", "no spoken language"
    else:
        return found
    if key == found.key:
        return found
    return Classified(key, found.confidence, f"{found.reason} (options: {kind})")


def _asks_availability(label: tuple[str, ...]) -> bool:
    return any(contains_words(label, w, prefix=True) for w in AVAILABILITY)


# A block's own dates named by a bare "From" / "To", in each language Relay reads (folded).
_BLOCK_FROM = (
    ("from",), ("start",), ("start", "date"), ("started",), ("desde",), ("fecha", "de", "inicio"),
    ("inicio",), ("date", "de", "debut"), ("debut",), ("du",), ("von",), ("beginn",),
    ("startdatum",), ("data", "de", "inicio"), ("van",), ("begindatum",), ("vanaf",),
)
_BLOCK_TO = (
    ("to",), ("end",), ("end", "date"), ("until",), ("hasta",), ("fecha", "de", "fin"), ("fin",),
    ("date", "de", "fin"), ("au",), ("bis",), ("ende",), ("enddatum",), ("ate",),
    ("data", "de", "fim"), ("fim",), ("tot",), ("einddatum",), ("tot", "en", "met"),
)
_DATE_PARTS = frozenset(
    {"month", "year", "mes", "ano", "mois", "annee", "monat", "jahr", "maand", "jaar"}
)
_DATE_WIDGETS = frozenset({"text", "date", "date_text", "select", "spinbutton", "combobox"})


def _block_date(field: FormField, ft: FieldText) -> Classified | None:
    """ "From (MM/YYYY)" / "Hasta" under an employment or education heading: that block's start
    or end. Nowhere else: a bare "From" or "To" alone says nothing."""
    _other, history, school = _section_kind(ft.section)
    if not history or ft.widget not in _DATE_WIDGETS:
        return None
    words = ft.texts.get("label") or ft.texts.get("placeholder") or ()
    core = words[: ft.label_core] if ft.label_core >= 0 else words
    if not core or len(core) > 4:
        return None
    for end, table in ((False, _BLOCK_FROM), (True, _BLOCK_TO)):
        # The whole label, or the label and one part of the date ("Start date month"), which
        # the renderer writes alone.
        whole = core[:-1] if core[-1] in _DATE_PARTS else core
        if whole in table:
            family = "edu" if school else "work"
            key = f"{family}.{'end' if end else 'start'}"
            under = " ".join(ft.section)
            return Classified(key, 0.8, f"patterns:label (a block's date under {under})")
    return None


# Below this, a pattern match gives way to a work-permit question read by meaning.
MEANING_BAR = 0.5
_YES_NO_WIDGETS = frozenset({Widget.RADIO_GROUP, Widget.SELECT, Widget.COMBOBOX, Widget.LISTBOX})


# Keys a profile answers yes or no: a text box asking one of them is answered in words.
YES_NO_KEYS = frozenset(
    {
        "relocate",
        "over18",
        "work.employed",
        "residence.in",
        "work.previous_here",
        "auth.work",
        "sponsorship",
    }
)


def _yes_no_in_words(field: FormField, ft: FieldText) -> Classified | None:
    """A yes/no question in a text box: read as if it were asked with Yes / No choices."""
    if not asks_yes_no(field, ft):
        return None
    totals = {k: v for k, v in sum_scores(_scan_as_choice(ft)).items() if k in YES_NO_KEYS}
    if not totals:
        return None
    key, score = max(totals.items(), key=lambda kv: kv[1])
    if score < 0.8:
        return None
    return Classified(key, min(0.9, score), "patterns:label (a yes/no question in a text box)")


def _scan_as_choice(ft: FieldText) -> list[Hit]:
    """Scanned as a choice question, the label read as its question sentence alone (what a
    preamble names, "based in our Austin office", is not what is asked)."""
    from bridge.rules.patterns import scan

    texts = dict(ft.texts)
    if texts.get("label"):
        texts["label"] = question_sentence(ft)
        return scan(texts, "radio_group", True, len(texts["label"]))
    return scan(texts, "radio_group", True, ft.label_core)


def _typed_email(field: FormField, ft: FieldText) -> Classified | None:
    """An `<input type=email>` whose words name nothing else: the person's email. Only with a
    text a person sees (a label, a placeholder): an unlabelled one is an autofill catcher."""
    if field.type.casefold() != "email" or any(
        not h.key.startswith("basics.email") for h in ft.hits()
    ):
        return None
    if not (ft.texts["label"] or ft.texts["aria"] or ft.texts["placeholder"]):
        return None
    words = tuple(" ".join(w for texts in ft.texts.values() for w in texts).split())
    if any(contains_words(words, w) for w in OTHER_PERSON) or _names_someone_else(words):
        return None
    return Classified("basics.email", 0.75, "type:email")


@cache
def _someone_else() -> tuple[tuple[str, ...], ...]:
    """Words that make a detail another person's (rules/options/wordings.toml)."""
    words = load_toml("options/wordings.toml")["someone_else"]["words"]
    return tuple(tuple(fold(w).split()) for w in words if fold(w))


@text_cache()
def _names_someone_else(words: tuple[str, ...]) -> bool:
    """Whether a field's own words name another person ("E-Mail Ihres Vorgesetzten")."""
    return any(contains_words(words, w) for w in _someone_else())


def _permit_question(field: FormField, ft: FieldText, page: Page) -> Classified | None:
    """A yes/no question about working in a country, whatever its wording ("Benötigen Sie eine
    Arbeitserlaubnis?", "¿Puede trabajar en Portugal sin patrocinio?")."""
    if field.widget == Widget.CHECKBOX or asks_yes_no(field, ft):
        pass
    elif field.widget not in _YES_NO_WIDGETS or not yes_no_options(field.options):
        return None
    reading = read_permit_question(ft.raw_question, page.lang)
    if reading.unclear:
        return None
    only_sponsor = all(x.fact == "S" and not x.both for x in reading.literals)
    return Classified(
        "sponsorship" if only_sponsor else "auth.work", 0.85, "meaning:work-permit question"
    )


@text_cache()
def _section_kind(section: tuple[str, ...]) -> tuple[bool, bool, bool]:
    """Whether a heading is about another person, a history block, and a school block."""
    if not section:
        return False, False, False
    # "Employment Application" names the whole form, not a block of past jobs.
    whole_form = any(contains_words(section, w) for w in APPLICATION_TITLE)
    return (
        any(contains_words(section, w) for w in OTHER_PERSON),
        not whole_form and any(contains_words(section, w) for w in HISTORY),
        any(contains_words(section, w) for w in SCHOOL),
    )


def _classify(
    field: FormField, ft: FieldText, active: tuple[ad.Adapter, ...], page: Page
) -> Classified | None:
    auto = _own_autocomplete(field, ft)
    if auto:
        narrow = _narrower_label(auto[0], ft)
        if narrow:
            return Classified(narrow, 0.9, f"patterns:label narrows autocomplete {auto[1]}")
        return Classified(auto[0], 0.95, f"autocomplete:{auto[1]}")
    hit = ad.match(field, ft, active)
    if hit:
        if hit[1] == "ignore":
            return None
        return Classified(hit[1], 0.97, f"ats-adapter:{hit[0]}")
    hits = ft.hits()
    totals = {k: v for k, v in sum_scores(hits).items() if not k.startswith("never.")}
    best = max(totals.items(), key=lambda kv: kv[1]) if totals else None
    if field.widget in CHOICE_WIDGETS and field.options:
        by_options = _options_kind(field, page)
        if by_options and by_options[0] == "skills.pick" and field.widget != Widget.CHECKBOX_GROUP:
            # One technology to choose ("your main language") is no list of the person's skills.
            by_options = None
        if (
            by_options
            and by_options[0] == "address.country"
            and best
            and best[0].startswith("phone.")
            and any(h.key == best[0] and h.attr in ("label", "aria") for h in hits)
        ):
            return Classified("phone.country_code", 0.9, "options:countries (phone label)")
        label_agrees = by_options is not None and any(
            h.attr in ("label", "aria") and h.key in by_options[2] for h in hits
        )
        if by_options and by_options[0] == "address.country" and best:
            # Country names without dial codes, named `countryCode` (an ISO code): the country,
            # unless the visible label speaks of a phone.
            label_agrees = label_agrees or (
                best[0] == "phone.country_code"
                and not any(
                    h.key.startswith("phone.") and h.attr in ("label", "aria") for h in hits
                )
            )
        if by_options and (
            best is None or best[0] in by_options[2] or best[1] < 0.8 or label_agrees
        ):
            agrees = best is not None and best[0] in by_options[2]
            asks_more = len(ft.texts["label"]) > 4 and by_options[1].startswith(
                ("countries", "regions")
            )
            if asks_more and not agrees:
                # "In which country would you like to work?": a country list, not the address.
                return None
            return Classified(by_options[0], 0.9, f"options:{by_options[1]}")
    if best is None:
        return None
    key, score = best
    labelled = {h.key for h in hits if h.attr in ("label", "aria") and h.key in totals}
    if key not in labelled and labelled:
        # What the visible label says beats a longer id match (label "Country", id `countryCode`).
        alt = max(labelled, key=lambda k: totals[k])
        if totals[alt] >= 0.75 * score:
            key, score = alt, totals[alt]
    others = [v for k, v in totals.items() if k != key and not _compatible(k, key)]
    conf = min(0.99, score)
    if others and max(others) >= 0.8 * score:
        conf *= 0.75
    if key == "name.full" and _bare_name_id_under_unread_label(field, ft, hits):
        # Log-in and sign-up forms call the user name "name" too (Drupal does): unsure, left.
        return Classified(key, 0.4, "patterns:name (only an id \"name\"; the label unread)")
    if key.startswith("name.") and _user_name_id(ft):
        # A bare "Name" beside an id that says user name ("formusername"): the log-in's name.
        return Classified("account.username", 0.8, "patterns:name (a user name, labelled Name)")
    attr = _attr_of(hits, key)
    said = {h.attr for h in hits if h.key == key}
    if ft.texts["label"] and not said & {"label", "aria", "placeholder"}:
        conf *= 0.5  # the visible label says something else; the id alone is weak evidence
    return Classified(key, conf, f"patterns:{attr}")


def _bare_name_id_under_unread_label(field: FormField, ft: FieldText, hits: list[Hit]) -> bool:
    """The full name told only by the bare word "name" in an id, while the label is written in
    a script Relay does not read ("Имя пользователя", a user name): nothing confirms it."""
    unread = bool(field.label.strip()) and not ft.texts["label"]
    if not unread or ft.texts["aria"] or ft.texts["placeholder"]:
        return False
    said = [h for h in hits if h.key == "name.full"]
    names = ft.texts["name"]
    return all(h.attr == "name" and names[h.start : h.end] == ("name",) for h in said)


# An account's user name glued into one identifier word, where the word splitter cannot see it.
_USER_NAME_ID = re.compile(r"user_?name|userid|login_?name|loginid", re.IGNORECASE)


def _user_name_id(ft: FieldText) -> bool:
    """The label is a bare name word or two and an identifier says user name in one glued word."""
    short = 0 < len(ft.texts["label"]) <= 2 or (
        not ft.texts["label"] and 0 < len(ft.texts["placeholder"]) <= 2
    )
    return short and bool(_USER_NAME_ID.search(ft.ids.get("any", "")))


def _compatible(a: str, b: str) -> bool:
    pairs = {
        frozenset(("address.line1", "location.full")),
        frozenset(("address.city", "location.full")),
        frozenset(("name.full", "name.first")),
        frozenset(("eeo.race", "eeo.ethnicity")),
        frozenset(("eeo.hispanic", "eeo.ethnicity")),
        frozenset(("address.country", "location.full")),
        frozenset(("phone.full", "phone.country_code")),
    }
    return frozenset((a, b)) in pairs


# (key, kind, pattern keys that agree with it)
def _options_kind(field: FormField, page: Page) -> tuple[str, str, tuple[str, ...]] | None:
    # The same lists (countries, states, EEO) come back on every form: read each once.
    return _options_kind_of(tuple((o.value, o.text) for o in field.options))


@text_cache()
def _options_kind_of(pairs: tuple[tuple[str, str], ...]) -> tuple[str, str, tuple[str, ...]] | None:
    options = [FieldOption(value=v, text=t) for v, t in pairs]
    opts = real_options(options)
    if len(opts) < 2:
        return None
    texts = [option_text(o) for o in opts]
    n = len(opts)
    if n >= 8:
        plus = sum(1 for t in texts if re.search(r"\+\s?\d{1,4}\b", t))
        if plus >= 0.6 * n:
            return (
                "phone.country_code",
                "phone-codes",
                ("phone.country_code", "phone.full", "address.country"),
            )
        countries = sum(1 for o in opts if country_of_option("", option_text(o)))
        if countries >= 0.6 * n:
            return (
                "address.country",
                "countries",
                ("address.country", "location.full", "address.region"),
            )
        for cc in ("US", "CA", "AU", "DE", "IN", "GB"):
            subs = subdivisions(cc)
            if sum(1 for t in texts if subs.get(fold(t))) >= 0.6 * n:
                return "address.region", f"regions-{cc}", ("address.region", "location.full")
    topic = eeo.options_topic(options)
    if topic:
        return f"eeo.{topic}", f"eeo-{topic}", (f"eeo.{topic}", "eeo.ethnicity", "eeo.hispanic")
    levels = {lv[0] for t in texts if (lv := level(t))}
    if len(levels) >= 3:
        return "edu.degree", "degree-levels", ("edu.degree",)
    tech = _technologies()
    if n >= 3 and sum(1 for t in texts if fold(t) in tech) >= 0.6 * n:
        return "skills.pick", "technologies", ("skills.pick",)
    return None


@cache
def _technologies() -> frozenset[str]:
    return frozenset(fold(t) for t in load_toml("options/wordings.toml")["technologies"]["names"])
