"""Result codes and the outcome of one order, shared by every phase and both backends."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal, NamedTuple, TypeAlias

Code: TypeAlias = Literal["ok", "bounce", "cut", "dislodged", "no_convoy", "void", "illegal"]

# When several codes apply, the first in this list wins (the JSON contract).
PRECEDENCE: Final[tuple[Code, ...]] = (
    "illegal",
    "void",
    "dislodged",
    "no_convoy",
    "cut",
    "bounce",
    "ok",
)

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
        return f"{order}: the army was carried."
    return f"{order}: held."


#: :func:`_explain_tail` remembered per facts (they repeat from phase to phase; bounded).
explain_tail = lru_cache(maxsize=1 << 14)(_explain_tail)
