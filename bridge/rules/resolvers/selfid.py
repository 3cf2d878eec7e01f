"""Self-identification (EEO): the answer the person chose on an earlier form (kept on this
computer only), else the profile's category, or decline when it says so or says nothing."""

from __future__ import annotations

from bridge.forms import FieldOption, FormField, Source, Widget
from bridge.rules import eeo as eeo_mod
from bridge.rules.memo import text_cache
from bridge.rules.model import Answer, Missing, Page, StoredAnswer
from bridge.rules.options import is_decline, yes_no_options
from bridge.rules.resolvers.base import Ask, Result
from bridge.rules.text import fold

DEFAULT_DECLINE = "default: decline — set your answer in Relay"
_PROFILE_KEY = {
    "gender": "gender",
    "hispanic": "hispanicOrLatino",
    "race": "race",
    "veteran": "veteranStatus",
    "disability": "disabilityStatus",
}


def resolve(ask: Ask) -> Result:
    topic = ask.key.split(".", 1)[1]
    if topic == "ethnicity":
        # "Ethnicity" is the Hispanic/Latino yes-no on some forms and the race list on others.
        topic = "hispanic" if yes_no_options(ask.field.options) else "race"
    chosen = _chosen_before(ask, topic)
    if chosen is not None:
        return chosen
    answers = ask.lp.profile.application.eeo
    if topic in _EQUITY:
        return _equity(topic, answers)
    wanted = (answers.get(_PROFILE_KEY.get(topic, topic)) or "").strip()
    if not wanted:
        # Not the person's choice: say it is a default and where to change it.
        return Answer("eeo", "decline", code="decline", note=DEFAULT_DECLINE)
    if fold(wanted) in ("decline", "prefer not to say", "prefer not to answer"):
        return Answer("eeo", "decline", code="decline", note=f"eeo.{topic}: decline")
    return Answer("eeo", wanted, code=eeo_mod.category(topic, wanted) or "", note=f"eeo.{topic}")


# Canada's employment-equity questions, each a yes / no of its own: "a woman" is read from the
# gender the profile gives; "Indigenous" and "a visible minority" only from the profile's own
# answer to them, or a decline where it declines race (a race category does not settle them).
_EQUITY = {"woman": "gender", "indigenous": "race", "visible_minority": "race"}


def _equity(topic: str, answers: dict[str, str]) -> Result:
    source = _EQUITY[topic]
    own = (answers.get(_camel(topic)) or "").strip()
    wanted = (answers.get(_PROFILE_KEY[source]) or "").strip()
    if own:
        if fold(own) in ("yes", "no", "true", "false"):
            return Answer("bool", flag=fold(own) in ("yes", "true"), note=f"eeo.{topic}")
        return Answer("eeo", "decline", code="decline", note=f"eeo.{topic}: decline")
    if not wanted or fold(wanted) in ("decline", "prefer not to say", "prefer not to answer"):
        note = DEFAULT_DECLINE if not wanted else f"eeo.{source}: decline"
        return Answer("eeo", "decline", code="decline", note=note)
    if topic == "woman":
        code = eeo_mod.category("gender", wanted)
        if code in ("gender.female", "gender.male"):
            return Answer("bool", flag=code == "gender.female", note="eeo.gender")
    return Missing(f"the profile does not say; eeo.{source} does not settle it")


def _camel(topic: str) -> str:
    head, *rest = topic.split("_")
    return head + "".join(w.capitalize() for w in rest)


@text_cache()
def _key_of(question: str, value: str) -> str:
    """The self-identification key the rules read in a stored question ("" for none), asked as
    the list it was on (the person's choice and a decline: the rules want a choice's options)."""
    from bridge.rules.classify import classify  # the classifier is the engine's, loaded by now
    from bridge.rules.features import field_text

    options = [FieldOption(value=t, text=t) for t in (value, "I decline to answer")]
    field = FormField(id="q", tag="select", widget=Widget.SELECT, label=question, options=options)
    found = classify(field, field_text(field), (), Page(url="", title="", job_text=""))
    return found.key if found is not None and found.key.startswith("eeo.") else ""


def _chosen_before(ask: Ask, topic: str) -> Answer | None:
    """The person's own latest answer to this self-identification question on an earlier form:
    the same words, or the same topic by the rules' reading, and a category the rules know (or
    decline). It stays on this computer: it is the rules' answer, never the model's input."""
    saved = ask.page.saved
    if saved is None:
        return None
    asked = fold(ask.field.label)
    for stored in saved.everything():  # newest first
        if not stored.self_id or not (fold(stored.question) == asked
                                      or _key_of(stored.question, stored.value) == ask.key):
            continue
        answer = _as_answer(stored, topic)
        if answer is not None:
            saved.note_use(stored)
            return answer
    return None


def _as_answer(stored: StoredAnswer, topic: str) -> Answer | None:
    note = f"Your saved answer to “{stored.question}” (kept on this computer only)"
    if is_decline(FieldOption(value=stored.value, text=stored.value)):
        return Answer("eeo", "decline", code="decline", source=Source.SAVED_ANSWER,
                      review=True, note=note)
    code = eeo_mod.category(topic, stored.value)
    if not code:
        return None  # not a choice the rules can put on another form's list
    return Answer("eeo", stored.value, code=code, source=Source.SAVED_ANSWER, review=True,
                  note=note)
