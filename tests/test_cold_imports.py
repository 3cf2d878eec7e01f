"""A cold bridge's first plan imports only what that plan needs: a page without frames of other
sites never needs a URL's registrable domain (tldextract, which brings an HTTP client along), one
without a country or phone question neither country tables nor phone metadata (pycountry,
phonenumbers), with the key in the environment nothing asks the keychain, models the plan never
validates are not built, no installed package's metadata is read for pydantic plugins, and a
streamed plan leaves the model layer for the answers that come after its reply.
Checked in a fresh interpreter, as a bridge meets its first Fill; what a module costs is measured
in bench/stream_speed.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.conftest import REPO, SAMPLE_PROFILE

WATCHED = ("tldextract", "requests", "keyring", "pycountry", "phonenumbers")
# Models a first plan never validates (reports that come after it, saved answers, the profile's
# parts), and ones it does, as a check that the probe sees a built model.
LATER_MODELS = ("forms.ApplyReport", "forms.AckRequest", "learn.models.AnswerSave",
                "profile.Basics", "store.exchange.ExportDoc")
PLAN_MODELS = ("forms.FillRequest", "forms.FillPlan", "profile.Profile")

FIRST_PLAN = """
import importlib, json, sys, tomllib
from pathlib import Path
parsed = []  # TOML texts parsed (the rules' data, unless their parses are kept)
for name in ("load", "loads"):
    def counted(source, *rest, real=getattr(tomllib, name), **named):
        parsed.append(name)
        return real(source, *rest, **named)
    setattr(tomllib, name, counted)
from bridge.forms import FillRequest
from bridge.runtime import Runtime
runtime = Runtime(profile_path=Path(sys.argv[1]))
asked = []
if sys.argv[5] == "stream":  # the native port: the model's answers stream in after the reply
    runtime.emit = lambda event: True
    # What this plan hands to the model, kept here: the work after the reply is not this check's.
    runtime.model_stream.start = lambda name, job: asked.extend(d.field_id for d in job.decisions)
plan = runtime.plan_fill(FillRequest.model_validate_json(sys.argv[2]), "cold")
def built(name):
    module, cls = name.rsplit(".", 1)
    return getattr(importlib.import_module("bridge." + module), cls).__pydantic_complete__
print(json.dumps({"filled": sorted(d["field_id"] for d in plan["decisions"] if d.get("value")),
                  "asked": asked, "toml_parsed": len(parsed),
                  "loaded": sorted(m for m in json.loads(sys.argv[3]) if m in sys.modules),
                  "built": sorted(m for m in json.loads(sys.argv[4]) if built(m)),
                  "plugins_sought": sys.modules["pydantic.plugin._loader"]._plugins is not None}))
"""


FIELDS = [
    {"id": "f1", "widget": "text", "name": "first_name", "label": "First name"},
    {"id": "f2", "widget": "email", "type": "email", "name": "email", "label": "Email"},
]


def _first_plan(home: Path, request: dict[str, Any], watched: tuple[str, ...] = WATCHED,
                stream: bool = False) -> dict[str, Any]:
    # Nothing inherited from this process decides what the child loads.
    inherited = ("RELAY_", "PYTHON_KEYRING", "PYDANTIC_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(inherited)}
    env.update({"RELAY_HOME": str(home), "RELAY_LLM_API_KEY": "sk-test-not-a-real-key",
                "RELAY_LLM_API_BASE": "http://127.0.0.1:9/v1"})
    done = subprocess.run(
        [sys.executable, "-c", FIRST_PLAN, str(SAMPLE_PROFILE), json.dumps(request),
         json.dumps(watched), json.dumps(LATER_MODELS + PLAN_MODELS),
         "stream" if stream else "whole"],
        capture_output=True, text=True, cwd=REPO, env=env, timeout=300, check=True,
    )
    out: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return out


def test_a_frameless_first_plan_loads_only_what_it_needs(tmp_path: Path) -> None:
    request = {"url": "https://jobs.example.com/apply", "title": "Apply",
               "frames": [{"frame": "0", "url": "https://jobs.example.com/apply",
                           "fields": FIELDS}]}
    out = _first_plan(tmp_path, request)
    assert out["filled"] == ["f1", "f2"]  # the plan really ran the rules
    assert out["loaded"] == []
    assert out["built"] == sorted(PLAN_MODELS)
    assert out["plugins_sought"] is False


def test_with_the_rules_parses_kept_a_first_plan_parses_no_toml(tmp_path: Path) -> None:
    # As Python's bytecode: what a bridge writes where it may, and a build or benchmark writes.
    from bridge.rules.data import keep_parsed

    assert keep_parsed()
    request = {"url": "https://jobs.example.com/apply", "title": "Apply",
               "frames": [{"frame": "0", "url": "https://jobs.example.com/apply",
                           "fields": FIELDS}]}
    out = _first_plan(tmp_path, request)
    assert out["filled"] == ["f1", "f2"]
    assert out["toml_parsed"] == 0


def test_a_page_with_another_sites_frame_does_load_the_domain_parser(tmp_path: Path) -> None:
    # The same check sees the import when a registrable domain is needed.
    request = {"url": "https://jobs.example.com/apply", "title": "Apply",
               "frames": [{"frame": "0", "url": "https://jobs.example.com/apply"},
                          {"frame": "1", "url": "https://forms.example.org/embed",
                           "fields": FIELDS}]}
    out = _first_plan(tmp_path, request)
    assert "tldextract" in out["loaded"]
    assert "keyring" not in out["loaded"]


def test_a_streamed_first_plan_leaves_the_model_layer_for_after_its_reply(tmp_path: Path) -> None:
    # With a model configured, the plan only picks the fields to ask about: the model layer
    # (prompts, checks, the fabrication guard) and litellm load for the answers that follow it.
    question = {"id": "f3", "widget": "textarea", "label": "Describe a system you designed"}
    request = {"url": "https://jobs.example.com/apply", "title": "Apply", "stream": True,
               "frames": [{"frame": "0", "url": "https://jobs.example.com/apply",
                           "fields": [*FIELDS, question]}]}
    model_layer = ("bridge.llm.escalate", "bridge.llm.calls", "bridge.llm.checking",
                   "bridge.llm.guard", "bridge.llm.facts", "bridge.llm.prompts", "litellm")
    out = _first_plan(tmp_path, request, (*WATCHED, *model_layer), stream=True)
    assert out["filled"] == ["f1", "f2"]
    assert out["asked"] == ["f3"]  # the model was wanted, and is asked after the reply
    assert out["loaded"] == []


def test_the_warm_up_still_loads_what_most_forms_ask() -> None:
    # What a first plan no longer imports with the engine, the warm-up loads after it (or before
    # it, when the page is slow to answer): a name, a phone, a country are asked by most forms.
    script = ("import json, sys\nfrom bridge.rules.engine import warm_steps\n"
              "for step in warm_steps(): step()\n"
              "print(json.dumps(sorted(m for m in json.loads(sys.argv[1]) if m in sys.modules)))")
    watched = (*WATCHED, "nameparser")
    done = subprocess.run([sys.executable, "-c", script, json.dumps(watched)], capture_output=True,
                          text=True, cwd=REPO, timeout=300, check=True)
    assert json.loads(done.stdout.splitlines()[-1]) == ["nameparser", "phonenumbers", "pycountry"]
