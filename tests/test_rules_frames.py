"""Another site's frame is filled only when it is the application (bridge/rules/frames.py)."""

from __future__ import annotations

from bridge.forms import FillRequest
from bridge.profile import load_profile
from bridge.rules.engine import decide
from bridge.rules.explain import plain_reason
from bridge.rules.frames import site_of
from tests.conftest import SAMPLE_PROFILE

RESUME = {"id": "f1", "widget": "file", "type": "file", "name": "resume", "label": "Resume/CV"}
FIRST = {"id": "f2", "widget": "text", "name": "first_name", "label": "First name"}
EMAIL = {"id": "f3", "widget": "email", "type": "email", "name": "email", "label": "Email"}


def _plan(frames: list[tuple[str, str, list[dict[str, str]]]]) -> dict[tuple[str, str], str]:
    request = FillRequest.model_validate({
        "url": frames[0][1],
        "frames": [{"frame": name, "url": url, "fields": [{**f, "frame": name} for f in fields]}
                   for name, url, fields in frames],
    })
    decisions = decide(request, load_profile(SAMPLE_PROFILE))
    return {(d.frame, d.field_id): d.reason for d in decisions}


def test_sites_are_registrable_domains() -> None:
    assert site_of("https://careers.acme.co.uk/jobs") == site_of("https://apply.acme.co.uk/") == (
        "acme.co.uk")
    assert site_of("https://boards.greenhouse.io/acme") == "greenhouse.io"
    assert site_of("http://127.0.0.1:8000/") == "127.0.0.1" != site_of("http://localhost:8000/")
    assert site_of("about:blank") == ""


def test_a_chat_or_ad_frame_beside_the_application_is_left() -> None:
    got = _plan([
        ("0", "https://careers.acme.com/apply", [RESUME, FIRST]),
        ("5", "https://widget.chat-vendor.example/frame", [FIRST, EMAIL]),
    ])
    assert not got[("0", "f2")].startswith("leave")
    for field_id in ("f2", "f3"):
        reason = got[("5", field_id)]
        assert reason == (
            "leave: in a frame from another site (widget.chat-vendor.example) that is not the "
            "application")


def test_the_application_embedded_from_another_site_is_filled() -> None:
    # Known vendor: filled by its address, whatever the page holds.
    got = _plan([
        ("0", "https://careers.acme.com/jobs/1", [EMAIL]),
        ("3", "https://job-boards.greenhouse.io/embed/job_app?for=acme", [RESUME, FIRST]),
    ])
    assert not got[("3", "f2")].startswith("leave")
    # Unknown vendor: filled because it is the application and the page itself has none.
    got = _plan([
        ("0", "https://careers.acme.com/jobs/1", [EMAIL]),
        ("4", "https://apply.unknown-ats.example/form", [RESUME, FIRST]),
    ])
    assert not got[("4", "f2")].startswith("leave")
    # A frame of the page's own site is the page.
    got = _plan([
        ("0", "https://careers.acme.com/jobs/1", [RESUME]),
        ("2", "https://forms.acme.com/extra", [FIRST]),
    ])
    assert not got[("2", "f2")].startswith("leave")


def test_the_reason_names_the_site_in_plain_words() -> None:
    from bridge.forms import FieldDecision

    decision = FieldDecision(
        field_id="f1",
        reason="leave: in a frame from another site (ads.example) that is not the application",
    )
    assert "another site (ads.example)" in plain_reason(decision)
