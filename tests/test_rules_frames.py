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


def _plan(
    frames: list[tuple[str, str, list[dict[str, str]]]], focused: str = ""
) -> dict[tuple[str, str], str]:
    request = FillRequest.model_validate({
        "url": frames[0][1],
        "frames": [{"frame": name, "url": url, "fields": [{**f, "frame": name} for f in fields],
                    "focused": name == focused}
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


def test_the_frame_the_person_clicked_in_is_the_application_when_no_other_is() -> None:
    page: tuple[str, str, list[dict[str, str]]] = ("0", "https://careers.acme.com/jobs/1", [])
    short_form = "https://forms.unknown-ats.example/apply"
    chat = "https://widget.chat-vendor.example/frame"
    # Nothing only an application asks anywhere: the frame the person clicked in is filled.
    got = _plan([page, ("4", short_form, [FIRST, EMAIL]), ("5", chat, [EMAIL])], focused="4")
    assert not got[("4", "f3")].startswith("leave"), got
    assert got[("5", "f3")].startswith("leave: in a frame from another site (widget.chat")
    # Unfocused, the same short form is not the application.
    got = _plan([page, ("4", short_form, [FIRST, EMAIL])])
    assert got[("4", "f3")].startswith("leave: in a frame from another site")
    # The person's focus left in a chat box is no reason when the application is elsewhere:
    # in the page itself, or in another site's frame.
    got = _plan([("0", page[1], [RESUME, FIRST]), ("5", chat, [EMAIL])], focused="5")
    assert got[("5", "f3")].startswith("leave: in a frame from another site")
    got = _plan([page, ("4", short_form, [RESUME, FIRST]), ("5", chat, [EMAIL])], focused="5")
    assert not got[("4", "f2")].startswith("leave")
    assert got[("5", "f3")].startswith("leave: in a frame from another site")


def test_the_page_around_an_application_embedded_from_another_site_is_not_part_of_it() -> None:
    """A job-alerts box of the career page, in no form: its email is not the application's."""
    alerts = {"id": "f9", "widget": "email", "type": "email", "label": "Email address",
              "section": "Get job alerts by email"}
    for embed in ("https://apply.unknown-ats.example/form",
                  "https://job-boards.greenhouse.io/embed/job_app?for=acme"):
        got = _plan([("0", "https://careers.acme.com/jobs/1", [alerts]),
                     ("3", embed, [RESUME, FIRST, EMAIL])])
        assert got[("0", "f9")] == (
            f"leave: not part of the application (it is in a frame from {embed.split('/')[2]})")
        assert not got[("3", "f3")].startswith("leave")
    # The page's own application and a frame of another site: the page's fields are its own.
    got = _plan([("0", "https://careers.acme.com/jobs/1", [RESUME, alerts]),
                 ("3", "https://apply.unknown-ats.example/form", [EMAIL])])
    assert "frame from" not in got[("0", "f9")]


def test_the_reason_names_the_site_in_plain_words() -> None:
    from bridge.forms import FieldDecision

    decision = FieldDecision(
        field_id="f1",
        reason="leave: in a frame from another site (ads.example) that is not the application",
    )
    assert "another site (ads.example)" in plain_reason(decision)
