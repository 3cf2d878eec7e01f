"""What every family resolver is given, and small helpers they share."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bridge.forms import FormField
from bridge.profile import LoadedProfile
from bridge.rules.features import FieldText
from bridge.rules.model import Answer, Missing, Page

Result = Answer | Missing


@dataclass(frozen=True)
class Ask:
    """One key asked by one field, with the page and the profile it is answered from."""

    key: str
    field: FormField
    ft: FieldText
    page: Page
    lp: LoadedProfile

    @property
    def block(self) -> int | None:
        """Which repeated work / education block the field is in (None: in no such block)."""
        return self.page.block_of.get((self.field.frame, self.field.id))

    @property
    def frame_keys(self) -> set[str]:
        """The keys the field's siblings in the same frame ask."""
        return self.page.frame_keys.get(self.field.frame, set())


Resolver = Callable[[Ask], Result]


def unknown(ask: Ask) -> Missing:
    return Missing(f"no rule gives a value for {ask.key}")


def text_or(value: str | None, why: str) -> Result:
    return Answer("text", value) if value else Missing(why)


def flag_or(value: bool | None, what: str) -> Result:
    return (
        Answer("bool", flag=value)
        if value is not None
        else Missing(f"the profile says nothing about {what}")
    )


def num_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
