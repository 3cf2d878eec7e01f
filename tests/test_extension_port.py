"""The real extension in a real Chromium: the native port, snapshots, apply, marks.

A fake native host (Python, written here) speaks the protocol with the bridge's own framing and
chunking code and answers `fill.plan` from a small table, so these tests need no profile, rules
engine or model. Chromium finds the host through `<user-data-dir>/NativeMessagingHosts/`.
"""

from __future__ import annotations

import json
import stat
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bridge.driver.chromium import chromium_args
from bridge.driver.static_server import StaticServer
from bridge.forms import ApplyReport, FillRequest, FrameSnapshot

REPO = Path(__file__).resolve().parents[1]
EXTENSION = REPO / "extension"
EXTENSION_ID = "oohbnckbgppopfjgnninihfpgibipmeo"

pytestmark = pytest.mark.e2e

FAKE_HOST = r"""
import json, os, sys, time
from pathlib import Path

from bridge.forms import ApplyReport, FieldDecision, FillPlan, FillRequest
from bridge.protocol.envelopes import error_reply, event_message, ok_reply, split_reply
from bridge.protocol.errors import ErrorCode
from bridge.protocol.framing import StreamClosed, decode_body, read_frame, write_frame

state = Path(os.environ["RELAY_FAKE_DIR"])
protocol = os.environ.get("RELAY_FAKE_PROTOCOL", "1.0")
with open(state / "starts.log", "a") as log:
    log.write(f"{os.getpid()} {' '.join(sys.argv[1:])}\n")

# What the fake "rules engine" answers, by label.
ANSWERS = {
    "First name": ("set_text", "Ada", "fill"),
    "Last name": ("set_text", "Lovelace", "fill"),
    "Email address": ("set_text", "ada@example.org", "fill"),
    "Phone number": ("set_text", "+44 20 7946 0000", "flag"),
    "City": ("set_text", "London", "fill"),
    "Country": ("choose", "DE", "fill"),
    "Are you authorized to work here?": ("choose", "yes", "fill"),
    "I agree to be contacted": ("check", "", "fill"),
    "Portfolio URL": ("set_text", "https://ada.example.org", "fill"),
    "Cover letter": ("set_text", "I would like to work with you.", "fill"),
    "Referral code": ("set_text", "REF-42", "fill"),
    "Promo code": ("set_text", "P-1", "fill"),
    "Website": ("set_text", "https://nope.example", "leave"),
    "Do you need a visa?": ("choose", "Yes", "fill"),
}


def plan_for(request):
    decisions = []
    for field in request.all_fields():
        action, value, status = ANSWERS.get(field.label, ("none", "", "leave"))
        decisions.append(FieldDecision(
            field_id=field.id, frame=field.frame, label=field.label, key=field.label.lower(),
            action=action, value=value if action != "choose" else "",
            values=[value] if action == "choose" else [],
            checked=True if action == "check" else None,
            source="profile" if status != "leave" else "none",
            confidence=0.9 if status == "fill" else 0.5,
            status=status, reason=f"fake engine: {field.label_source}",
        ))
    return FillPlan(run_id="run-1", decisions=decisions)


def send(message):
    for frame in split_reply(message):
        write_frame(sys.stdout.buffer, frame)


seq = 0
while True:
    try:
        message = decode_body(read_frame(sys.stdin.buffer))
    except StreamClosed:
        break
    rid, kind, payload = message["id"], message["type"], message.get("payload", {})
    if kind == "hello":
        profile = {"loaded": True, "name": "fake", "error": ""}
        send(ok_reply(rid, {"bridge_version": "0.1.0", "protocol": protocol,
                            "capabilities": ["fill"], "profile": profile}))
    elif kind == "ping":
        send(ok_reply(rid, {"pong": True, "time": time.time()}))
    elif kind == "test.big":
        reply = ok_reply(rid, {"blob": "é" * payload["size"], "tail": "end"})
        (state / "big_frames.txt").write_text(str(len(split_reply(reply))))
        send(reply)
    elif kind == "test.silent":
        pass
    elif kind == "test.exit":
        sys.exit(0)
    elif kind == "test.event":
        seq += 1
        write_frame(sys.stdout.buffer, event_message(seq, {"kind": "test", "n": seq}))
        send(ok_reply(rid, {"sent": seq}))
    elif kind in ("fill.plan", "fill.applied"):
        # A later round of the same Fill (docs/protocol.md) is kept apart from the first plan.
        later = kind == "fill.plan" and payload.get("continues")
        name = f"{kind}.later.json" if later else f"{kind}.json"
        (state / name).write_text(json.dumps(payload))
        try:
            if kind == "fill.plan":
                request = FillRequest.model_validate(payload)
                plan = plan_for(request)
                if later:  # decisions for the fields the round names only
                    wanted = {(ref.frame, ref.field_id) for ref in request.decide}
                    plan.decisions = [d for d in plan.decisions if (d.frame, d.field_id) in wanted]
                send(ok_reply(rid, plan.model_dump(mode="json")))
            else:
                send(ok_reply(rid, {"recorded": len(ApplyReport.model_validate(payload).results)}))
        except Exception as exc:
            send(error_reply(rid, ErrorCode.BAD_PAYLOAD, str(exc)[:500]))
    else:
        send(error_reply(rid, ErrorCode.UNKNOWN_TYPE, f"no request of type {kind}"))
"""

FORM_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Apply: Test Engineer</title></head><body>
<main>
<h1>Test Engineer at Example</h1>
<p>We are hiring a test engineer who enjoys breaking things carefully and writing it all down.</p>
<form id="apply" onsubmit="window.__submitted = (window.__submitted || 0) + 1; return false;">
  <h2>Personal details</h2>
  <div><label for="fn">First name *</label><input id="fn" name="first_name" required></div>
  <div><label>Last name <input id="ln" name="last_name"></label></div>
  <div><span id="em-l">Email address</span>
    <input id="em" type="email" aria-labelledby="em-l" aria-required="true"
      data-automation-id="email"></div>
  <div data-qa="phone-wrap"><input id="ph" type="tel" aria-label="Phone number"></div>
  <fieldset><legend>Are you authorized to work here?</legend>
    <label><input type="radio" name="auth" value="yes"> Yes</label>
    <label><input type="radio" name="auth" value="no"> No</label>
  </fieldset>
  <table><tr><td>City</td><td><input id="city" name="city"></td></tr></table>
  <div class="q"><div>LinkedIn profile</div><div><input id="li" name="li"></div></div>
  <table><tr><th>Available from</th></tr><tr><td><input id="from" name="from"></td></tr></table>
  <div class="q"><span>Willing to relocate?</span>
    <label><input type="radio" name="reloc" value="y">Yes</label>
    <label><input type="radio" name="reloc" value="n">No</label></div>
  <div><input id="web" placeholder="Website"></div>
  <div><input id="gh" title="GitHub username"></div>
  <div><label for="country">Country</label>
    <select id="country" name="country"><option value="">Select…</option>
      <option value="US">United States</option><option value="DE">Germany</option></select></div>
  <div><label><input type="checkbox" id="terms" name="terms"> I agree to be contacted</label></div>
  <h2>More about you</h2>
  <x-field id="xf"></x-field>
  <div><label for="cover">Cover letter</label>
    <textarea id="cover" name="cover" aria-describedby="cover-hint"></textarea>
    <p id="cover-hint">At most 500 words</p></div>
  <input type="hidden" name="csrf" value="token">
  <button type="submit">Submit application</button>
</form>
<iframe id="frame" src="/frame.html"></iframe>
<iframe id="inline" srcdoc="<label for=promo>Promo code</label><input id=promo>"></iframe>
</main>
<script>
customElements.define("x-field", class extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: "open" }).innerHTML =
      '<label for="pf">Portfolio URL</label><input id="pf" type="url" name="portfolio">';
  }
});
// A re-render: once the first name changes, the page replaces the City input with an equal one.
document.getElementById("fn").addEventListener("change", () => {
  const old = document.getElementById("city");
  old.replaceWith(old.cloneNode(true));
}, { once: true });
// React-like value tracking: onChange fires only when the DOM value differs from the value the
// framework last saw, which a plain `el.value = x` from the page's world would update.
window.__changes = [];
window.__blurs = [];
for (const id of ["fn", "em", "cover"]) {
  const el = document.getElementById(id);
  const desc = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), "value");
  let tracked = el.value;
  Object.defineProperty(el, "value", {
    configurable: true,
    get() { return desc.get.call(this); },
    set(v) { tracked = String(v); desc.set.call(this, v); },
  });
  document.addEventListener("input", (e) => {
    if (e.target !== el) return;
    const now = desc.get.call(el);
    if (now !== tracked) { tracked = now; window.__changes.push([id, now, "input"]); }
  }, true);
  document.addEventListener("change", (e) => {
    if (e.target === el) window.__changes.push([id, desc.get.call(el), "change"]);
  }, true);
  el.addEventListener("blur", () => window.__blurs.push(id));
}
</script>
</body></html>
"""

# Widget shapes the snapshot must model right (each line: what a real site does).
WIDGETS_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Widgets</title></head><body>
<form id="w" onsubmit="window.__submitted = (window.__submitted || 0) + 1; return false;">
  <!-- ARIA 1.1 combobox: the role on a wrapper around the text box (Etsy, Reach UI). -->
  <label for="zip">Postal code</label>
  <div role="combobox" aria-haspopup="listbox" aria-owns="zip-list" aria-expanded="false">
    <input id="zip" name="zip" aria-autocomplete="list" aria-controls="zip-list"></div>
  <!-- Jobvite: a decorative <i role=radio> inside each choice's label, next to the real radio. -->
  <fieldset><legend>Are you over 18?</legend>
    <label class="row"><i class="icon" role="radio" aria-selected="false"></i>
      <input type="radio" name="adult" value="Yes"> Yes</label>
    <div class="row"><i class="icon" role="radio" aria-checked="false"></i>
      <input type="radio" name="adult" value="No" id="adult-no">
      <label for="adult-no">No</label></div>
  </fieldset>
  <!-- Taleo: the prompt option's value is -1. -->
  <label for="deg">Degree</label>
  <select id="deg" name="deg"><option value="-1" selected>Select...</option>
    <option value="1">Bachelor</option><option value="2">Master</option></select>
  <!-- Pressed-state buttons beside a text box: no widget; only the text box is a field. -->
  <div class="toolbar-ish"><button type="button" aria-pressed="false">B</button>
    <button type="button" aria-pressed="false">I</button>
    <input id="note" aria-label="Note"></div>
  <!-- A yes/no button pair answering its fieldset's legend. -->
  <fieldset><legend>Do you need a visa? *</legend>
    <div class="yn"><button type="button" aria-pressed="false">Yes</button>
      <button type="button" aria-pressed="false">No</button></div></fieldset>
</form>
<script>
const pair = [...document.querySelectorAll(".yn button")];
pair.forEach((b) => b.addEventListener("click", () => {
  pair.forEach((o) => o.setAttribute("aria-pressed", String(o === b)));
}));
</script>
</body></html>
"""

# Unnamed checkboxes: the choices of one question under its label (the answer kept in a hidden
# input beside them, as JazzHR's questionnaire does), boxes with a name each under a legend
# (Gravity Forms), unnamed radios under a label column (Ant Design), and unrelated consent boxes
# side by side.
CHECKBOXES_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Checkboxes</title></head><body>
<form onsubmit="return false;">
  <div class="question">
    <label for="langs">Which languages do you speak?</label>
    <div class="choices">
      <span><input type="checkbox" id="lang-en"><label for="lang-en">English</label></span>
      <span><input type="checkbox" id="lang-de"><label for="lang-de">German</label></span>
      <span><input type="checkbox" id="lang-fr"><label for="lang-fr">French</label></span>
    </div>
    <input type="hidden" id="langs" name="langs">
  </div>
  <fieldset>
    <legend>Which tools do you use?</legend>
    <div class="choices">
      <div><input type="checkbox" name="input_9.1" id="t1"><label for="t1">Figma</label></div>
      <div><input type="checkbox" name="input_9.2" id="t2"><label for="t2">Excel</label></div>
    </div>
  </fieldset>
  <div class="item">
    <div class="label-col"><label for="apply_remote">Open to remote work?</label></div>
    <div class="control-col"><div class="control"><div id="apply_remote" class="radio-group">
      <label><span><input type="radio" value="yes"></span><span>Yes</span></label>
      <label><span><input type="radio" value="no"></span><span>No</span></label>
    </div></div></div>
  </div>
  <div class="consent">
    <input type="checkbox" id="terms"><label for="terms">I accept the terms</label>
    <input type="checkbox" id="news"><label for="news">Send me the newsletter</label>
  </div>
</form>
</body></html>
"""

FRAME_PAGE = """<!doctype html><html><body>
<div><label for="ref">Referral code</label><input id="ref" name="ref"></div>
</body></html>
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("site")
    (root / "form.html").write_text(FORM_PAGE, encoding="utf-8")
    (root / "frame.html").write_text(FRAME_PAGE, encoding="utf-8")
    (root / "widgets.html").write_text(WIDGETS_PAGE, encoding="utf-8")
    (root / "checkboxes.html").write_text(CHECKBOXES_PAGE, encoding="utf-8")
    (root / "empty.html").write_text("<p>nothing to fill</p>", encoding="utf-8")
    with StaticServer(root) as server:
        yield server.url("").rstrip("/")


def _register_host(udd: Path, state: Path, name: str, protocol: str) -> None:
    """A host manifest in the profile's NativeMessagingHosts; a wrapper starts the fake host."""
    script = state / "fake_host.py"
    script.write_text(FAKE_HOST, encoding="utf-8")
    wrapper = state / f"{name}.sh"
    wrapper.write_text(
        textwrap.dedent(f"""\
        #!/bin/sh
        export PYTHONPATH="{REPO}"
        export RELAY_FAKE_DIR="{state}"
        export RELAY_FAKE_PROTOCOL="{protocol}"
        exec "{sys.executable}" "{script}" "$@"
        """)
    )
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    hosts = udd / "NativeMessagingHosts"
    hosts.mkdir(parents=True, exist_ok=True)
    manifest = {
        "name": name,
        "description": "Relay test host",
        "path": str(wrapper),
        "type": "stdio",
        "allowed_origins": [f"chrome-extension://{EXTENSION_ID}/"],
    }
    (hosts / f"{name}.json").write_text(json.dumps(manifest), encoding="utf-8")


@pytest.fixture(scope="module")
def browser(
    tmp_path_factory: pytest.TempPathFactory, chromium: str
) -> Iterator[tuple[Any, Any, Path]]:
    from playwright import sync_api

    udd = tmp_path_factory.mktemp("udd")
    state = tmp_path_factory.mktemp("host")
    _register_host(udd, state, "dev.relay.bridge", "1.0")
    _register_host(udd, state, "dev.relay.future", "2.0")
    with sync_api.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(udd),
            headless=True,
            executable_path=chromium,
            args=chromium_args(EXTENSION),
        )
        worker = (
            context.service_workers[0]
            if context.service_workers
            else context.wait_for_event("serviceworker", timeout=10_000)
        )
        assert worker.url.startswith(f"chrome-extension://{EXTENSION_ID}/")
        try:
            yield context, worker, state
        finally:
            worker.evaluate("() => globalThis.relayPort.close()")
            context.close()


def _port_call(worker: Any, body: str, arg: Any = None) -> Any:
    """Runs `body` (async JS using `port`, a fresh test port) and returns its value or its error."""
    script = f"""async (arg) => {{
        try {{ return {{ ok: true, value: await (async () => {{ {body} }})() }}; }}
        catch (e) {{ return {{ ok: false, code: e.code ?? "", message: String(e.message ?? e) }}; }}
    }}"""
    return worker.evaluate(script, arg)


def _starts(state: Path) -> int:
    log = state / "starts.log"
    return len(log.read_text().splitlines()) if log.exists() else 0


def test_hello_ping_and_events(browser: tuple[Any, Any, Path]) -> None:
    _, worker, state = browser
    got = _port_call(
        worker,
        """
        const port = new RelayNativePort({ requestTimeoutMs: 5000 });
        const states = [];
        const events = [];
        port.subscribe((n) => n.kind === "state" ? states.push(n.state) : events.push(n));
        const hello = await port.connect();
        const pong = await port.request("ping", {});
        const sent = await port.request("test.event", {});
        await new Promise((r) => setTimeout(r, 20));
        const out = { hello, pong, sent, state: port.state };
        Object.assign(out, { states: [...states], events: [...events] });
        port.close();
        return out;
    """,
    )
    assert got["ok"], got
    value = got["value"]
    assert value["hello"]["protocol"] == "1.0"
    assert value["hello"]["profile"]["loaded"] is True
    assert value["pong"]["pong"] is True
    assert value["state"] == "ready"
    assert value["states"] == ["connecting", "ready"]
    assert value["events"] == [{"kind": "event", "seq": 1, "event": {"kind": "test", "n": 1}}]
    # The browser starts the host with the caller's origin on the command line.
    assert f"chrome-extension://{EXTENSION_ID}/" in (state / "starts.log").read_text()


def test_chunked_reply_is_reassembled(browser: tuple[Any, Any, Path]) -> None:
    _, worker, state = browser
    size = 700_000  # two UTF-8 bytes each: a 1.4 MB reply, over the 1 MiB frame limit
    got = _port_call(
        worker,
        """
        const port = new RelayNativePort({ requestTimeoutMs: 10000 });
        try {
            const r = await port.request("test.big", { size: arg });
            return { length: r.blob.length, sample: r.blob.slice(0, 3), tail: r.tail };
        } finally { port.close(); }
    """,
        size,
    )
    assert got == {"ok": True, "value": {"length": size, "sample": "ééé", "tail": "end"}}
    assert int((state / "big_frames.txt").read_text()) > 1


def test_request_timeout_leaves_port_usable(browser: tuple[Any, Any, Path]) -> None:
    _, worker, _ = browser
    got = _port_call(
        worker,
        """
        const port = new RelayNativePort({ requestTimeoutMs: 5000 });
        await port.connect();
        let timedOut;
        const t0 = Date.now();
        try { await port.request("test.silent", {}, { timeoutMs: 200 }); }
        catch (e) { timedOut = { code: e.code, ms: Date.now() - t0 }; }
        const pong = await port.request("ping", {});
        const out = { timedOut, pong: pong.pong, state: port.state, pending: port._pending.size };
        port.close();
        return out;
    """,
    )
    assert got["ok"], got
    value = got["value"]
    assert value["timedOut"]["code"] == "E_TIMEOUT"
    assert 150 <= value["timedOut"]["ms"] < 2000
    assert value["pong"] is True and value["state"] == "ready" and value["pending"] == 0


def test_disconnect_rejects_pending_then_reconnects(browser: tuple[Any, Any, Path]) -> None:
    _, worker, state = browser
    before = _starts(state)
    got = _port_call(
        worker,
        """
        const port = new RelayNativePort({ requestTimeoutMs: 10000, backoffInitialMs: 100 });
        await port.connect();
        const error = (e) => ({ code: e.code, message: e.message });
        const silent = port.request("test.silent", {}).catch(error);
        const exit = port.request("test.exit", {}).catch(error);
        const rejected = await Promise.all([silent, exit]);
        const stateAfterDrop = port.state;
        const listenersGone = port._port === null && port._pending.size === 0;
        // Backoff reconnect: wait for the state to come back to ready by itself.
        const t0 = Date.now();
        while (port.state !== "ready" && Date.now() - t0 < 5000) {
            await new Promise((r) => setTimeout(r, 25));
        }
        const pong = await port.request("ping", {});
        const out = { rejected, stateAfterDrop, listenersGone, state: port.state };
        Object.assign(out, { pong: pong.pong, connects: port.connects });
        port.close();
        return out;
    """,
    )
    assert got["ok"], got
    value = got["value"]
    for rejection in value["rejected"]:
        assert rejection["code"] == "E_DISCONNECTED"
        assert (
            "exited" in rejection["message"].lower()
            or "native host" in rejection["message"].lower()
        )
    assert value["stateAfterDrop"] == "closed"
    assert value["listenersGone"] is True
    assert value["state"] == "ready" and value["pong"] is True
    assert value["connects"] == 2
    assert _starts(state) == before + 2


def test_version_mismatch_and_missing_host(browser: tuple[Any, Any, Path]) -> None:
    _, worker, _ = browser
    future = _port_call(
        worker,
        """
        const port = new RelayNativePort({ hostName: "dev.relay.future" });
        try { await port.connect(); } finally { port.close(); }
    """,
    )
    assert future["ok"] is False and future["code"] == "E_VERSION_MISMATCH"
    assert "update the Relay extension" in future["message"]
    missing = _port_call(
        worker,
        """
        const port = new RelayNativePort({ hostName: "dev.relay.absent", autoReconnect: false });
        try { await port.request("ping", {}); } finally { port.close(); }
    """,
    )
    assert missing["ok"] is False and missing["code"] == "E_NO_BRIDGE"
    assert "not found" in missing["message"].lower() and "relay install" in missing["message"]


def _tab_id(worker: Any, url: str) -> int:
    tab_id: int = worker.evaluate(
        "async (url) => (await chrome.tabs.query({})).find((t) => t.url === url).id", url
    )
    return tab_id


def _open_form(context: Any, site: str) -> Any:
    page = context.new_page()
    page.goto(f"{site}/form.html")
    page.frame_locator("#frame").locator("#ref").wait_for()
    page.wait_for_function("() => document.querySelector('x-field').shadowRoot")
    return page


def test_snapshot_labels_shadow_and_iframe(browser: tuple[Any, Any, Path], site: str) -> None:
    context, worker, _ = browser
    page = _open_form(context, site)
    try:
        snap = worker.evaluate("(id) => relaySnapshotTab(id)", _tab_id(worker, page.url))
        frames = [FrameSnapshot.model_validate(f) for f in snap["frames"]]
        FillRequest.model_validate(
            {"url": page.url, "frames": snap["frames"], "job_text": snap["jobText"]}
        )
        assert "We are hiring a test engineer" in snap["jobText"]
        top = frames[0]
        assert top.frame == "0"
        by_label = {f.label: f for f in top.fields}
        expected_sources = {
            "First name": "label-for",
            "Last name": "label-wrap",
            "Email address": "aria-labelledby",
            "Phone number": "aria-label",
            "Are you authorized to work here?": "legend",
            "City": "table",
            "LinkedIn profile": "preceding-text",
            "Available from": "table",
            "Willing to relocate?": "preceding-text",
            "Website": "placeholder",
            "GitHub username": "title",
            "Country": "label-for",
            "I agree to be contacted": "label-wrap",
            "Portfolio URL": "label-for",
            "Cover letter": "label-for",
        }
        for label, source in expected_sources.items():
            assert label in by_label, f"no field labelled {label!r}: {sorted(by_label)}"
            assert by_label[label].label_source == source, label
        assert len(top.fields) == len(expected_sources)  # no hidden input, no submit button
        assert [f.id for f in top.fields] == sorted(
            {f.id for f in top.fields}, key=lambda i: int(i[1:])
        )

        first = by_label["First name"]
        assert first.required and first.widget == "text" and first.section == "Personal details"
        assert first.name == "first_name" and first.html_id == "fn" and "fn" in first.locator
        email = by_label["Email address"]
        assert email.required and email.widget == "email"
        assert email.attrs["data-automation-id"] == "email"
        assert by_label["Phone number"].attrs["parent:data-qa"] == "phone-wrap"

        auth = by_label["Are you authorized to work here?"]
        assert auth.widget == "radio_group"
        assert [(o.value, o.text) for o in auth.options] == [("yes", "Yes"), ("no", "No")]
        assert all(o.field_id and o.field_id != auth.id for o in auth.options)

        country = by_label["Country"]
        assert country.widget == "select"
        assert [o.value for o in country.options] == ["", "US", "DE"]
        assert by_label["I agree to be contacted"].widget == "checkbox"

        portfolio = by_label["Portfolio URL"]
        assert portfolio.widget == "url" and portfolio.attrs["host"] == "x-field"
        assert portfolio.section == "More about you" and ">>>" in portfolio.locator
        assert by_label["Cover letter"].aria_description == "At most 500 words"

        inner = {f.url.rsplit("/", 1)[-1]: f for f in frames[1:] if f.fields}
        assert set(inner) == {"frame.html", "about:srcdoc"}
        for name, label in (("frame.html", "Referral code"), ("about:srcdoc", "Promo code")):
            frame = inner[name]
            assert frame.frame not in ("0", "") and frame.frame.isdigit()
            assert [(f.label, f.frame) for f in frame.fields] == [(label, frame.frame)]
    finally:
        page.close()


def test_fill_applies_marks_and_keeps_person_edits(
    browser: tuple[Any, Any, Path], site: str
) -> None:
    context, worker, state = browser
    page = _open_form(context, site)
    try:
        tab_id = _tab_id(worker, page.url)
        outcome = worker.evaluate("(id) => relayFill(id)", tab_id)
        assert outcome["ok"], outcome
        assert outcome["run_id"] == "run-1"
        assert set(outcome["timings_ms"]) >= {"snapshot", "plan", "apply", "total"}
        assert worker.evaluate("() => relayLastOutcome.run_id") == "run-1"
        # Field ids are local to a frame: key by both.
        statuses = {(r["frame"], r["field_id"]): r["status"] for r in outcome["applied"]}
        labels = {(d["frame"], d["field_id"]): d["label"] for d in outcome["plan"]["decisions"]}
        by_label = {labels[k]: v for k, v in statuses.items()}
        for label in (
            "First name",
            "Last name",
            "Email address",
            "Phone number",
            "City",
            "Country",
            "Are you authorized to work here?",
            "I agree to be contacted",
            "Portfolio URL",
            "Cover letter",
            "Referral code",
            "Promo code",
        ):
            assert by_label[label] == "applied", (label, outcome["applied"])
        assert by_label["Website"] == "skipped"

        assert page.input_value("#fn") == "Ada"
        assert page.input_value("#ln") == "Lovelace"
        assert page.input_value("#country") == "DE"
        assert page.is_checked("input[name=auth][value=yes]")
        assert page.is_checked("#terms")
        assert page.input_value("#web") == ""
        assert page.evaluate(
            "document.querySelector('x-field').shadowRoot.querySelector('#pf').value"
        ) == ("https://ada.example.org")
        assert page.frame_locator("#frame").locator("#ref").input_value() == "REF-42"
        assert page.frame_locator("#inline").locator("#promo").input_value() == "P-1"
        # City was re-rendered after Relay's snapshot; it was found again and filled.
        assert page.input_value("#city") == "London"
        # The React-like tracker saw real changes, then change and blur, for each tracked field.
        changes = page.evaluate("window.__changes")
        for field_id, value in (
            ("fn", "Ada"),
            ("em", "ada@example.org"),
            ("cover", "I would like to work with you."),
        ):
            assert [field_id, value, "input"] in changes
            assert [field_id, value, "change"] in changes
        assert set(page.evaluate("window.__blurs")) >= {"fn", "em", "cover"}
        assert page.evaluate("window.__submitted") is None

        report = ApplyReport.model_validate_json((state / "fill.applied.json").read_text())
        assert report.run_id == "run-1" and len(report.results) == len(outcome["plan"]["decisions"])

        ui = worker.evaluate(
            "(id) => chrome.tabs.sendMessage(id, { relay: 'state' }, { frameId: 0 })", tab_id
        )
        # The review went to the side panel's state: a row for every decision.
        review = worker.evaluate("(id) => globalThis.relayReview.read(id)", tab_id)
        assert review["run_id"] == "run-1"
        assert len(review["rows"]) == len(outcome["plan"]["decisions"])
        assert (
            ui["marks"]["filled"] >= 9 and ui["marks"]["review"] == 1 and ui["marks"]["left"] >= 1
        )

        # The person changes a filled field; the next fill keeps their words.
        page.fill("#fn", "Grace")
        again = worker.evaluate("(id) => relayFill(id)", tab_id)
        assert again["ok"], again
        plan_request = FillRequest.model_validate_json((state / "fill.plan.json").read_text())
        first = next(f for f in plan_request.all_fields() if f.label == "First name")
        assert first.user_edited is True and first.value == "Grace"
        result = next(
            r for r in again["applied"] if (r["frame"], r["field_id"]) == (first.frame, first.id)
        )
        assert result["status"] == "user_edited"
        assert page.input_value("#fn") == "Grace"
        assert page.evaluate("window.__submitted") is None
    finally:
        page.close()


def test_snapshot_widget_shapes(browser: tuple[Any, Any, Path], site: str) -> None:
    context, worker, _ = browser
    page = context.new_page()
    page.goto(f"{site}/widgets.html")
    try:
        snap = worker.evaluate("(id) => relaySnapshotTab(id)", _tab_id(worker, page.url))
        fields = FrameSnapshot.model_validate(snap["frames"][0]).fields
        by_label = {f.label: f for f in fields}
        # The text box inside a role=combobox wrapper is the field; the wrapper is none.
        zip_code = by_label["Postal code"]
        assert (zip_code.tag, zip_code.html_id, zip_code.widget) == ("input", "zip", "combobox")
        assert not [f for f in fields if f.tag == "div" and f.role == "combobox"]
        # Decorative role=radio icons are no groups of their own: one group, two choices.
        groups = [f for f in fields if f.widget == "radio_group"]
        adult = by_label["Are you over 18?"]
        assert [o.text for o in adult.options] == ["Yes", "No"]
        assert [g.label for g in groups] == ["Are you over 18?", "Do you need a visa?"]
        # A prompt option (value -1) is no value.
        assert by_label["Degree"].value == ""
        # Containers the drivers point at but do not claim are no fields: only the text box.
        assert by_label["Note"].tag == "input"
        assert not [f for f in fields if f.widget == "other"]
        # A container's question comes from the snapshot's own label inference (its legend).
        visa = by_label["Do you need a visa?"]
        assert visa.label_source == "legend" and visa.required
        assert [o.text for o in visa.options] == ["Yes", "No"]
        assert len(fields) == 5, [(f.label, f.widget) for f in fields]
    finally:
        page.close()


def test_snapshot_groups_unnamed_checkboxes_under_their_question(
    browser: tuple[Any, Any, Path], site: str
) -> None:
    context, worker, _ = browser
    page = context.new_page()
    page.goto(f"{site}/checkboxes.html")
    try:
        snap = worker.evaluate("(id) => relaySnapshotTab(id)", _tab_id(worker, page.url))
        fields = FrameSnapshot.model_validate(snap["frames"][0]).fields
        shapes = [(f.label, f.widget, [o.text for o in f.options]) for f in fields]
        assert shapes == [
            ("Which languages do you speak?", "checkbox_group", ["English", "German", "French"]),
            ("Which tools do you use?", "checkbox_group", ["Figma", "Excel"]),
            ("Open to remote work?", "radio_group", ["Yes", "No"]),
            ("I accept the terms", "checkbox", []),
            ("Send me the newsletter", "checkbox", []),
        ]
    finally:
        page.close()


def test_person_edit_of_a_button_pair_is_kept(browser: tuple[Any, Any, Path], site: str) -> None:
    context, worker, state = browser
    page = context.new_page()
    page.goto(f"{site}/widgets.html")
    try:
        tab_id = _tab_id(worker, page.url)
        first = worker.evaluate("(id) => relayFill(id)", tab_id)
        assert first["ok"], first
        assert page.get_attribute(".yn button:first-child", "aria-pressed") == "true"
        # The person answers otherwise with a click: no input event, only the pair's state.
        page.click(".yn button:last-child")
        again = worker.evaluate("(id) => relayFill(id)", tab_id)
        assert again["ok"], again
        request = FillRequest.model_validate_json((state / "fill.plan.json").read_text())
        visa = next(f for f in request.all_fields() if f.label == "Do you need a visa?")
        assert visa.user_edited is True and visa.value == "No"
        result = next(r for r in again["applied"] if r["field_id"] == visa.id)
        assert result["status"] == "user_edited"
        assert page.get_attribute(".yn button:last-child", "aria-pressed") == "true"
        assert page.evaluate("window.__submitted") is None
    finally:
        page.close()


def test_fill_without_fields_reports_error(browser: tuple[Any, Any, Path], site: str) -> None:
    context, worker, _ = browser
    page = context.new_page()
    try:
        page.goto(f"{site}/empty.html")
        outcome = worker.evaluate("(id) => relayFill(id)", _tab_id(worker, page.url))
        assert outcome["ok"] is False and outcome["error"]["code"] == "E_NO_FIELDS"
        none = worker.evaluate("() => relayFill(987654)")
        assert none["ok"] is False and none["error"]["code"] == "E_NO_TAB"
    finally:
        page.close()
    # Everything above must come back as plain JSON.
    assert json.dumps(outcome) and time.time()


def test_manifest_wiring(browser: tuple[Any, Any, Path]) -> None:
    _, worker, _ = browser
    got = worker.evaluate("""async () => ({
        manifest: chrome.runtime.getManifest(),
        commands: await chrome.commands.getAll(),
        title: await chrome.action.getTitle({}),
        fill: typeof globalThis.relayFill,
    })""")
    manifest = got["manifest"]
    assert manifest["manifest_version"] == 3 and manifest["name"] == "Relay"
    assert {"nativeMessaging", "scripting", "storage", "webNavigation", "activeTab"} <= set(
        manifest["permissions"]
    )
    # Nothing runs on a page before the person's Fill: the content script is injected then.
    assert "content_scripts" not in manifest
    command = next(c for c in got["commands"] if c["name"] == "relay-fill")
    assert command["shortcut"] in ("Alt+Shift+F", "⌥⇧F")
    assert got["title"].startswith("Relay") and got["fill"] == "function"
