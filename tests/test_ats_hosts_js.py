"""The extension's list of applicant-tracking systems' addresses (extension/shared/ats_hosts.js)
is the rules' (`hosts` in rules/ats/*.toml): which other-site frames Relay may read at all
(extension/background/inject.js) and which the bridge fills (bridge/rules/frames.py) agree."""

from __future__ import annotations

import json
import re
import tomllib

from tests.conftest import REPO


def test_the_extension_knows_the_same_ats_hosts_as_the_rules() -> None:
    rules = sorted(
        host
        for path in sorted((REPO / "rules" / "ats").glob("*.toml"))
        for host in tomllib.loads(path.read_text(encoding="utf-8")).get("hosts", [])
    )
    source = (REPO / "extension" / "shared" / "ats_hosts.js").read_text(encoding="utf-8")
    listed = re.search(r"ATS_HOSTS = Object\.freeze\((\[.*?\])\);", source, re.S)
    assert listed is not None
    assert sorted(json.loads(re.sub(r",\s*\]", "]", listed.group(1)))) == rules
