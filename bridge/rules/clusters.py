"""Fill only the application: a site search box, and the log-in, newsletter or talent-community
forms beside an application on the same page, are left alone."""

from __future__ import annotations

from functools import cache

from bridge.forms import FormField, Widget
from bridge.rules.data import load_toml
from bridge.rules.features import FieldText
from bridge.rules.memo import text_cache
from bridge.rules.model import Classified
from bridge.rules.pagekind import APPLICATION_KEYS
from bridge.rules.text import fold

Row = tuple[FormField, FieldText, Classified | None, str | None]
# Keys a person's own details give: kept on a search-typed box that asks them by its label.
# Fields of a form that says nothing of its purpose, from which it reads as a short application.
_SHORT_APPLICATION = 3
_PERSON = ("name.", "basics.email", "phone.", "address.", "location.", "links.")


@cache
def _words() -> dict[str, tuple[str, ...]]:
    doc = load_toml("options/wordings.toml")["other_forms"]
    return {k: tuple(fold(p) for p in v if fold(p)) for k, v in doc.items()}


@text_cache()
def _says(text: str, kind: str) -> bool:
    padded = f" {fold(text)} "
    return any(f" {p} " in padded for p in _words()[kind])


def site_search(field: FormField, ft: FieldText, cls: Classified | None) -> bool:
    """A site search box: typed or labelled as one, and not asking a person's detail by label."""
    if field.widget not in (Widget.TEXT, Widget.COMBOBOX):
        return False
    own = " ".join(x for x in (field.label, field.aria_label, field.placeholder) if x)
    folded = fold(own)
    by_label = folded in _words()["search_labels"] or _opens_with_search(folded)
    # A select-like combobox's text box is often type=search (Ant Design's Select): by type
    # alone it is no site search; a search label or a search form still tells one.
    typed = (field.type.casefold() == "search" and field.widget != Widget.COMBOBOX) or (
        field.role.casefold() in ("searchbox", "search")
    )
    in_search_form = _says(field.form_hint, "search") and not _says(field.form_hint, "login")
    if not (by_label or typed or in_search_form):
        return False
    asked = cls is not None and cls.key.startswith(_PERSON) and not cls.reason.endswith(":name")
    return by_label or not asked


def _opens_with_search(folded: str) -> bool:
    """A short label that starts with a search verb ("Search by name", "Suche nach Stellen")."""
    words = folded.split()
    return 1 < len(words) <= 5 and words[0] in _words()["search_verbs"]


def _purpose(rows: list[Row]) -> str:
    """ "application", "search", "login", "newsletter", "footer", or "" for a cluster of fields."""
    keys = {cls.key for _f, _ft, cls, _n in rows if cls}
    nevers = {n.split(":", 1)[0] for _f, _ft, _c, n in rows if n}
    if keys & APPLICATION_KEYS:
        return "application"
    field = rows[0][0]
    about = " ".join({field.form_hint, field.form_submit, *(f.section for f, _ft, _c, _n in rows)})
    consent = " ".join(f.label for f, _ft, _c, n in rows if n and n.startswith("never.consent"))
    if _says(about, "search") and len(rows) <= 3:
        return "search"
    if ("never.password" in nevers or _says(about, "login")) and len(keys) <= 2:
        return "login"
    if (_says(about, "newsletter") or _says(consent, "newsletter")) and len(keys) <= 3:
        return "newsletter"
    if _says(field.form_hint, "footer") and len(keys) <= 3:
        return "footer"
    return ""


def outside_application(rows: list[Row]) -> dict[int, str]:
    """Rows (by index) in a form beside the application, with what that form is."""
    clusters: dict[tuple[str, str], list[int]] = {}
    for i, (field, _ft, _cls, _never) in enumerate(rows):
        # Fields in no <form> are a cluster of their own: an SPA's application often sits in none
        # while the log-in or search beside it is a real form (Avature's ApplicationMethods).
        clusters.setdefault((field.frame, field.form), []).append(i)
    if sum(1 for _frame, form in clusters if form) < 1 or len(clusters) < 2:
        return {}
    purposes = {c: _purpose([rows[i] for i in idx]) for c, idx in clusters.items()}
    # A short application asks nothing only an application asks (name, email, phone): a form of
    # that size that names no other purpose is the application beside the named ones.
    if "application" not in purposes.values() and not any(
        p == "" and len(clusters[c]) >= _SHORT_APPLICATION for c, p in purposes.items()
    ):
        return {}
    names = {
        "search": "a site search",
        "login": "a log-in form",
        "newsletter": "a newsletter or talent-community sign-up",
        "footer": "a form in the page's footer",
    }
    return {
        i: names[purpose]
        for c, purpose in purposes.items()
        if purpose in names
        for i in clusters[c]
    }
