"""What a decision's reason says in words a person understands, for the review panel and reports.

The engine's `reason` is a trace for developers ("no-answer: patterns:label; …; decision: leave");
this turns it into one or two plain sentences. Reasons already written for people (a saved answer
naming its question, a default the person can change) pass through unchanged.
"""

from __future__ import annotations

import re

from bridge.forms import FieldDecision, Source, Status

# Reasons written for a person already: shown as they are.
_PLAIN_PREFIXES = ("your saved answer", "default:", "you ")
_TRACE = re.compile(r"\b[a-z-]+:[a-z]")
_LLM = re.compile(
    r"^llm(?: draft)? \((?P<tier>[^)]*)\)(?:; review it\.)?(?: rests on:| from) (?P<cites>.*)$"
)


def plain_reason(decision: FieldDecision) -> str:
    """One or two sentences on why the field holds what it holds, or why it was left."""
    reason = " ".join(decision.reason.split())
    lowered = reason.casefold()
    if lowered.startswith(_PLAIN_PREFIXES):
        return _sentence(reason)
    if decision.status is Status.NEVER:
        return _never(decision, lowered)
    if decision.status is Status.KEEP:
        if "edited" in lowered:
            return "You changed this yourself; Relay keeps your value."
        return "The field already had a value; Relay left it as it was."
    if decision.status in (Status.FILL, Status.FLAG):
        return _filled(decision, reason)
    return _left(decision, reason, lowered)


def _never(decision: FieldDecision, lowered: str) -> str:
    if "cannot see" in lowered:
        return "You cannot see this field, so Relay never fills it (it may be a trap for bots)."
    kind = decision.key.split(".", 1)[-1] if decision.key.startswith("never.") else ""
    words = {
        "password": "a password",
        "honeypot": "a hidden trap for bots",
        "consent": "a consent or agreement",
        "captcha": "a check that you are a person",
    }.get(kind, _words(kind) or "something only you may answer")
    return _sentence(f"This asks for {words}; Relay never fills that in, it is yours to answer")


def _filled(decision: FieldDecision, reason: str) -> str:
    check = " Please check it before you submit." if decision.status is Status.FLAG else ""
    if decision.source is Source.LLM:
        match = _LLM.match(reason)
        model = f" ({match['tier']} tier)" if match and match["tier"] else ""
        cites = match["cites"].strip() if match else ""
        found = f" The check found it rests on: {cites}." if cites else ""
        checked = "checked against your profile and resume"
        return f"Written by the model{model} and {checked}.{found}{check}"
    if decision.source is Source.SAVED_ANSWER:
        # Which saved answer: its question, as the person answered it.
        said = next((n for n in reason.split(" — ") if n.casefold().startswith(_PLAIN_PREFIXES[0])),
                    "")
        if said:
            return _sentence(said) + check
        return f"From an answer you saved for a similar question.{check}"
    what = _words(decision.key)
    head = f"From your profile ({what})." if what else "From your profile."
    notes = [_sentence(n) for n in reason.split(" — ")[1:] if n and not _TRACE.search(n)]
    return " ".join([head, *notes]) + check


def _left(decision: FieldDecision, reason: str, lowered: str) -> str:
    if lowered.startswith("llm answer refused"):
        why = reason.split(":", 1)[1].strip() if ":" in reason else ""
        detail = f" ({why})" if why and not _TRACE.search(why) else ""
        return (
            "The model's answer did not pass Relay's check against your profile and resume"
            f"{detail}, so it was not used. Please answer this yourself."
        )
    if "cannot see" in lowered:
        return "You cannot see this field right now; Relay fills only what you can see."
    if "disabled or read-only" in lowered:
        return "The page does not let anyone type here at the moment (disabled or read-only)."
    if "from another site" in lowered:
        site = reason.split("another site (", 1)[1].split(")", 1)[0] if "(" in reason else ""
        return (
            f"This box is in a part of the page that comes from another site ({site}) and is not "
            "the application, so Relay does not put your details there."
        )
    if "not part of the application" in lowered:
        return "This is not part of the application form, so Relay left it alone."
    if lowered.startswith("no-answer"):
        why = reason.split(";", 1)[1].strip() if ";" in reason else ""
        why = why.split("; llm:", 1)[0].strip()
        what = _words(decision.key)
        head = "Relay recognised the question, but"
        if what:
            head = f"Relay knows this asks for {what}, but"
        tail = f": {why}" if why and not _TRACE.search(why) else ""
        return _sentence(f"{head} your profile has no answer for it{tail}")
    if lowered.startswith("below-bar"):
        return "Relay was not sure what this question asks, so it left it for you."
    return "Relay did not recognise this question, so it left it for you."


# Profile keys whose words are not simply their parts.
_KEY_WORDS = {
    "phone.full": "phone number",
    "location.full": "location",
    "address.line1": "street address",
    "address.postal": "postal code",
    "auth.work": "your right to work",
    "documents.resume": "resume",
    "documents.cover_letter": "cover letter",
    "basics.email.confirm": "email (again)",
    "work.years": "years of experience",
    "work.years.in": "years of experience in a field",
    "start_date": "earliest start date",
    "relocate": "willingness to relocate",
    "sponsorship": "visa sponsorship",
    "over18": "whether you are over 18",
    "how_heard": "how you heard of the job",
    "notice": "notice period",
}


def _words(key: str) -> str:
    """A profile key as words: "name.first" -> "first name", "basics.email" -> "email"."""
    if not key or key in ("saved", "saved_answer"):
        return ""
    if key in _KEY_WORDS:
        return _KEY_WORDS[key]
    parts = [p for p in key.split(".") if p not in ("basics", "never")]
    if len(parts) == 2 and parts[0] in ("name", "links"):
        parts = [parts[1], "name" if parts[0] == "name" else "profile"]
    spaced = " ".join(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", p).replace("_", " ") for p in parts)
    return spaced.casefold().strip()


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else f"{text}."
