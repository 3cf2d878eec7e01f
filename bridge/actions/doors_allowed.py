"""Which front doors may send each request type.

The extension's own reports (what a page did, acknowledgements, what the submit guard stopped, the
person's Submit) come only through the browser's port, which alone knows them to be true. The
person's settings, API keys, encryption at rest, deleting a profile and the approvals an assistant
waits on are decided only by the person: the console (the extension's port) or the `relay` CLI,
never by a program holding the HTTP token or by an assistant (which could approve its own). Every
other request may come through any door. The dispatcher checks this for every request, whatever
door it came through.
"""

from __future__ import annotations

from bridge.protocol.errors import ErrorCode, RelayError

EXTENSION = "bridge"  # the extension's native port (Runtime's door name)
CLI = "cli"

EXTENSION_ONLY = frozenset({"fill.applied", "fill.ack", "fill.blocked", "application.submitted"})
PERSON_ONLY = frozenset({
    "settings.set", "key.set", "encryption.set", "profile.delete",
    # an assistant waits on these approvals: only the person decides them
    "approvals.list", "approval.decide",
})


def allowed(kind: str, door: str) -> bool:
    if kind in EXTENSION_ONLY:
        return door == EXTENSION
    if kind in PERSON_ONLY:
        return door in (EXTENSION, CLI)
    return True


def check(kind: str, door: str) -> None:
    """Refuse a request type this door does not offer (`E_UNKNOWN_TYPE`, as for no such type)."""
    if allowed(kind, door):
        return
    if kind in EXTENSION_ONLY:
        why = f"{kind!r} is the extension's own report and is not offered through {door!r}"
    else:
        why = (f"{kind!r} changes what only you decide (settings, keys, encryption, deleting a"
               f" profile, approvals): use the Relay console or the relay command, not {door!r}")
    raise RelayError(ErrorCode.UNKNOWN_TYPE, why)
