"""Result codes and the outcome of one order, shared by every phase and both backends."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal, NamedTuple, TypeAlias

from .reasons import PHRASES, RULINGS
from .wording import power_name

Code: TypeAlias = Literal["ok", "bounce", "cut", "dislodged", "no_convoy", "void", "illegal"]

# The integer codes of the Rust core, in the order the core numbers them.
CORE_CODES: Final[tuple[Code, ...]] = ("ok", "bounce", "cut", "dislodged", "no_convoy", "void")


@dataclass(frozen=True, slots=True)
class Outcome:
    """How one legal order (or one unordered unit) fared, with a sentence saying why."""

    code: Code
    success: bool
    reason: str
    dislodged_by: str | None = None


class UnitOutcome(NamedTuple):
    """How one unit fared in a movement phase: the facts both resolvers report.

    ``by`` is the province whose unit stopped a move (the strongest opposition), cut a support,
    or dislodged the unit; ``attack`` and ``opposition`` are the strengths a move compared.
    A named tuple rather than a frozen dataclass: one is made per unit and phase, on the hot path.
    """

    code: Code
    success: bool
    dislodged_by: str | None = None
    by: str | None = None
    attack: int = 0
    opposition: int = 0
    convoyed: bool = False


def explain_movement(order: str, kind: str, outcome: UnitOutcome, szykman: bool = False) -> str:
    """The sentence for a movement-phase result. ``kind`` is the order's class name."""
    return explain_facts(
        order,
        kind,
        outcome.code,
        outcome.dislodged_by,
        outcome.by,
        outcome.attack,
        outcome.opposition,
        outcome.convoyed,
        szykman,
    )


def explain_facts(
    order: str,
    kind: str,
    code: str,
    dislodged_by: str | None,
    by: str | None,
    attack: int,
    opposition: int,
    convoyed: bool,
    szykman: bool,
) -> str:
    """:func:`explain_movement` on the facts one by one (what the engine hands over).

    The sentence is the order's text and what follows it, which depends on the facts alone:
    that part is remembered per facts (they repeat from phase to phase).
    """
    return order + explain_tail(kind, code, dislodged_by, by, attack, opposition, convoyed, szykman)


def _explain_tail(
    kind: str,
    code: str,
    dislodged_by: str | None,
    by: str | None,
    attack: int,
    opposition: int,
    convoyed: bool,
    szykman: bool,
) -> str:
    """What follows the order's text in :func:`explain_facts`'s sentence."""
    order = ""
    if code == "dislodged":
        return f"{order}: the unit was dislodged by the unit from {dislodged_by}."
    if kind == "Move":
        if code == "ok":
            via = " by convoy" if convoyed else ""
            return f"{order}: moved{via} (attack strength {attack})."
        if code == "no_convoy":
            if szykman:
                return (
                    f"{order}: the convoy is part of a paradox and fails by the Szykman rule "
                    "(DATC 4.A.2); the army stays."
                )
            return f"{order}: no unbroken chain of convoying fleets carried the army; it stays."
        if attack == 0 and by is not None and opposition >= 1:
            return (
                f"{order}: bounced; a unit cannot dislodge a unit of its own power, "
                f"nor be helped to do so (stopped at {by})."
            )
        return (
            f"{order}: bounced; attack strength {attack} did not beat strength "
            f"{opposition} of the unit from {by}."
            if by is not None
            else f"{order}: bounced."
        )
    if kind in ("SupportHold", "SupportMove"):
        if code == "void":
            what = "move" if kind == "SupportMove" else "hold"
            return f"{order}: void; the supported unit was not ordered to make that {what}."
        if code == "cut":
            return f"{order}: cut by the attack from {by}."
        return f"{order}: support given."
    if kind == "Convoy":
        if code == "void":
            return f"{order}: void; that army is not ordered to move there by convoy."
        if code == "no_convoy":
            if szykman:
                return (
                    f"{order}: the convoy is part of a paradox; by the Szykman rule (DATC 4.A.2) "
                    "the fleet does not convoy."
                )
            return f"{order}: the army had no unbroken chain of convoying fleets."
        # The fleet's part held; whether the army arrived is the army's own result (it may
        # still bounce where it lands).
        return f"{order}: the fleet convoyed; the army's route through it held."
    return f"{order}: held."


#: :func:`_explain_tail` remembered per facts (they repeat from phase to phase; bounded).
explain_tail = lru_cache(maxsize=1 << 14)(_explain_tail)


# --------------------------------------------------------------------------- retreats, adjustments


class RulingFacts(NamedTuple):
    """Why a retreat or adjustment result is what it is, and the facts its sentence names.

    ``why`` is one of the keys of :data:`RULING_SENTENCES` (the names the engine exports as
    ``diplo._core.EXPLAIN_NAMES``); each uses some of the other fields and leaves the rest at
    their defaults. ``power`` is the power's map name, ``unit`` a unit's text (``A PAR``),
    ``order`` the order's text, ``place`` a location (a retreat's destination, a province, the
    nearest centre), ``other`` another name (the province of clashing retreats, the first build
    in a province), ``number`` a number (builds allowed, disbands owed, a distance), ``home``
    whether civil disorder counts from home centres (the older rulebooks), ``rivals`` the other
    units of a clash as ``(power, unit)``. Both backends make these: the reference as it rules,
    the engine as rows (``Verdict.phase_rows``).
    """

    why: str
    power: str = ""
    unit: str = ""
    order: str = ""
    place: str | None = None
    other: str | None = None
    number: int = 0
    home: bool = False
    rivals: Sequence[tuple[str, str]] = ()


def explain_ruling(facts: RulingFacts) -> str:
    """The sentence for a retreat or adjustment result: the table's (``diplo/data/reasons.json``,
    :data:`RULING_SENTENCES`), its variant chosen by the facts, filled from them."""
    variants = RULING_SENTENCES[facts.why]
    variant = ""
    if facts.why == "retreat_clash":
        variant = "many" if len(facts.rivals) != 1 else ""
    elif facts.why == "unused_build":
        variant = "one" if facts.number == 1 else ""
    elif facts.home and "home" in variants:
        variant = "home"
    return variants[variant].format_map(_Fields(facts))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


class _Fields(dict[str, object]):
    """The fields a ruling's template names, each worked out from the facts when it is named."""

    def __init__(self, facts: RulingFacts) -> None:
        super().__init__()
        self.facts = facts

    def __missing__(self, key: str) -> object:
        f = self.facts
        if key == "power":
            return power_name(f.power)
        if key == "what":  # how a void build or disband sentence names the order
            return "this waive" if f.order == "WAIVE" else f.order
        if key == "units":
            return _plural(f.number, "unit")
        if key == "disbands":
            return _plural(f.number, "disband")
        if key == "moves":
            return _plural(f.number, "move")
        if key == "them":
            return "it" if f.number == 1 else "them"
        if key == "others":
            return _join([f"{power.title()} {unit}" for power, unit in f.rivals])
        if key in PHRASES:
            return PHRASES[key]
        return getattr(f, key)


#: The sentences of each ``why`` of :class:`RulingFacts` by variant, from the one table of
#: reasons (``diplo/data/reasons.json``): one home for both backends (the engine's why codes
#: are named by ``diplo._core.EXPLAIN_NAMES``, the same names in the same order).
RULING_SENTENCES: Final[Mapping[str, Mapping[str, str]]] = RULINGS
