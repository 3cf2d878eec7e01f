"""A cheap guess of the page's language from its labels (stop words and field words)."""

from __future__ import annotations

from bridge.rules.text import fold

_MARKERS = {
    "de": {
        "und",
        "der",
        "die",
        "das",
        "sie",
        "ihre",
        "ihr",
        "vorname",
        "nachname",
        "straße",
        "strasse",
        "telefon",
        "bitte",
        "lebenslauf",
        "anschreiben",
        "wohnort",
        "mit",
        "für",
        "fur",
    },
    "fr": {
        "et",
        "le",
        "la",
        "les",
        "vous",
        "votre",
        "prenom",
        "nom",
        "adresse",
        "ville",
        "pays",
        "telephone",
        "courriel",
        "des",
        "une",
        "pour",
        "lettre",
    },
    "es": {
        "y",
        "el",
        "la",
        "los",
        "las",
        "usted",
        "su",
        "nombre",
        "apellido",
        "apellidos",
        "direccion",
        "ciudad",
        "pais",
        "correo",
        "telefono",
        "del",
        "para",
        "una",
    },
    "pt": {
        "e",
        "o",
        "a",
        "os",
        "as",
        "voce",
        "seu",
        "sua",
        "nome",
        "sobrenome",
        "endereco",
        "cidade",
        "telefone",
        "do",
        "da",
        "para",
        "uma",
        "celular",
    },
    "nl": {
        # Not "de" and "en": Spanish, French and Portuguese labels are full of them.
        "het",
        "een",
        "u",
        "uw",
        "je",
        "jouw",
        "voornaam",
        "achternaam",
        "adres",
        "woonplaats",
        "telefoonnummer",
        "postcode",
        "van",
        "voor",
        "met",
    },
    "en": {
        "and",
        "the",
        "you",
        "your",
        "first",
        "last",
        "name",
        "address",
        "city",
        "phone",
        "email",
        "of",
        "for",
        "are",
        "do",
        "have",
        "please",
        "resume",
    },
}


def marker_counts(words: tuple[str, ...]) -> dict[str, int]:
    """How many of the folded words are each language's small words."""
    return {lang: sum(1 for w in words if w in marks) for lang, marks in _MARKERS.items()}


def guess_lang(text: str) -> str:
    words = tuple(fold(text).split())
    if not words:
        return "en"
    scores = marker_counts(words)
    best = max(scores, key=lambda k: scores[k])
    return best if scores[best] > scores["en"] else "en"
