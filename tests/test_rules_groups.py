"""A control whose own label is generic takes its meaning from its group."""

from __future__ import annotations

import pytest

from tests.conftest import SAMPLE_PROFILE
from tests.test_rules_support import field, one, profile

APPLY = "https://example.com/careers/apply"


@pytest.mark.parametrize(
    ("label", "section", "key"),
    [
        ("Upload file", "CV", "documents.resume"),
        ("Datei auswählen", "Lebenslauf", "documents.resume"),
        ("Choisir un fichier", "Lettre de motivation", "documents.cover_letter"),
        ("Browse", "Resume / CV", "documents.resume"),
        ("", "Curriculum vitae", "documents.resume"),
    ],
)
def test_file_input_takes_its_meaning_from_the_heading(label: str, section: str, key: str) -> None:
    lp = profile(SAMPLE_PROFILE.parent)
    d = one(field(label, "file", section=section), lp=lp, url=APPLY)
    assert d.key == key, d.reason


def test_a_generic_select_takes_the_legend() -> None:
    d = one(field("Select…", "select", section="Country", options=["", "Germany", "United States"]))
    assert d.key == "address.country" and d.value == "United States"


def test_a_label_that_says_something_keeps_it() -> None:
    d = one(field("Cover letter", "file", section="Resume"), url=APPLY)
    assert d.key == "documents.cover_letter"


def test_a_heading_that_names_nothing_leaves_the_field_its_own_texts() -> None:
    d = one(field("", "file", name="resume", section="Apply for this Job"), url=APPLY)
    assert d.key == "documents.resume" and d.confidence >= 0.7, d.reason
