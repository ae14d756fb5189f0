"""The drop-in's words: MILA's names of phases and rules, its exceptions, the kinds of slot its
orders are kept under, and the small helpers the other modules of :mod:`diplo.compat.mila`
share."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import IntEnum
from typing import Any, Final

from ...formats.mila import MilaError

__all__ = [
    "DEFAULT_RULES",
    "DRAW_AFTER_YEARS",
    "ERROR_LIMIT",
    "KINDS",
    "LONG_KINDS",
    "LONG_SEASONS",
    "SEASONS",
    "STATE_KEYS",
    "GamePhaseException",
    "MapPowerException",
    "SlotKind",
    "index_of",
    "mila_name",
    "pairs",
    "rule_name",
    "rule_names",
    "shown_orders",
    "support_text",
    "without_waives",
]

SEASONS: Final = {"S": "SPRING", "F": "FALL", "W": "WINTER"}
KINDS: Final = {"M": "MOVEMENT", "R": "RETREATS", "A": "ADJUSTMENTS"}
LONG_SEASONS: Final = {v: k for k, v in SEASONS.items()}
LONG_KINDS: Final = {v: k for k, v in KINDS.items()}
#: MILA's rules of a new local game.
DEFAULT_RULES: Final = (
    "NO_DEADLINE",
    "CD_DUMMIES",
    "ALWAYS_WAIT",
    "SOLITAIRE",
    "NO_PRESS",
    "IGNORE_ERRORS",
    "POWER_CHOICE",
)
#: ``game.error`` keeps at most this many entries (the latest).
ERROR_LIMIT: Final = 100
#: The years after which a game still going is drawn (MILA: 100 years from the first).
DRAW_AFTER_YEARS: Final = 100
STATE_KEYS: Final = (
    "name",
    "units",
    "retreats",
    "centers",
    "homes",
    "influence",
    "civil_disorder",
    "builds",
    "note",
)


class GamePhaseException(MilaError):
    """A message or phase data for another phase than the game's (MILA's exception name)."""


class MapPowerException(MilaError):
    """A power the map does not have (MILA's exception name)."""


class SlotKind(IntEnum):
    """The slots of a power's kept orders that are no province (a unit's or build site's
    province index, ``>= 0``, is the slot of its order): a waive (each its own slot), an order
    kept unread (``NO_CHECK``) whose unit cannot be read, and MILA's void second order for one
    unit or site in an adjustment or retreat phase. The ``n``-th entry kept gets
    :meth:`slot`, a negative number no other entry and no other kind has."""

    WAIVE = 0
    UNREAD = 1
    VOID = 2

    def slot(self, n: int) -> int:
        """The slot of this kind for the entry kept after ``n`` others."""
        return -1 - 3 * n - self.value

    @classmethod
    def of(cls, slot: int) -> SlotKind | None:
        """The kind of ``slot`` (``None`` for a province's)."""
        return None if slot >= 0 else cls((-1 - slot) % 3)


def pairs(given: dict[int, tuple[Any, ...]]) -> list[tuple[str, int | None]]:
    """The (text, code) of a power's orders kept this phase (an entry may hold more after)."""
    return [(e[0], e[1]) for e in given.values()]


def support_text(text: str, two_coasts: Callable[[str, str], bool]) -> str:
    """``text`` as MILA keeps it: a fleet's support of a fleet's move to a coast that the moving
    fleet could reach on either coast of the province (``two_coasts(location, province)``) loses
    the coast (``F GAS S F MAO - SPA/NC`` is kept as ``F GAS S F MAO - SPA``; ``F GRE S F BLA -
    BUL/EC``, with one coast in reach, and an army's support, keep it); any other text as it
    is."""
    words = text.split(" ")
    if (
        len(words) == 7
        and words[0] == "F"
        and words[2] == "S"
        and words[3] == "F"
        and words[5] == "-"
        and "/" in words[6]
    ):
        province = words[6].split("/", 1)[0]
        if two_coasts(words[4], province):
            words[6] = province
            return " ".join(words)
    return text


def shown_orders(
    orders: dict[str, list[str]], two_coasts: Callable[[str, str], bool] | None
) -> dict[str, list[str]]:
    """The orders of a phase as MILA shows them (its order history, saves): no waive, and, when
    ``two_coasts`` is given (MILA's ruling, ``support_coast="any"``, under which the text rules
    the same either way), each support's text as MILA keeps it (:func:`support_text`); without
    it (diplo's rulings, where the coast of a supported move decides the support, DATC 6.B.9)
    the texts as given."""
    shown = without_waives(orders)
    if two_coasts is None or not any("/" in t for texts in shown.values() for t in texts):
        return shown
    return {p: [support_text(t, two_coasts) for t in texts] for p, texts in shown.items()}


def without_waives(orders: dict[str, list[str]]) -> dict[str, list[str]]:
    if not any("WAIVE" in texts for texts in orders.values()):
        return orders
    return {p: [t for t in texts if t != "WAIVE"] for p, texts in orders.items()}


def mila_name(name: str) -> str:
    """A phase name with MILA's four-digit year (years from 1000 are written alike)."""
    year = name[1:-1]
    return name if len(year) >= 4 else f"{name[0]}{int(year):04d}{name[-1]}"


def index_of(phase: str | int | None, names: list[str], default: int) -> int:
    if phase is None:
        return default
    if isinstance(phase, int) and not isinstance(phase, bool):
        return phase if phase >= 0 else len(names) + phase
    if phase in names:
        return names.index(str(phase))
    raise KeyError(f"no processed phase {phase!r} in the history")


def rule_name(rule: object, what: str) -> str:
    if not isinstance(rule, str) or not rule.strip():
        raise TypeError(f"{what} must be a rule name such as 'NO_PRESS', got {rule!r}")
    return rule.strip().upper()


def rule_names(rules: Iterable[str]) -> list[str]:
    if isinstance(rules, str):
        raise TypeError("rules must be a list of rule names, not a string")
    out: list[str] = []
    for rule in rules:
        name = rule_name(rule, "rules")
        if name not in out:
            out.append(name)
    return out
