"""Result codes and the outcome of one order, shared by every phase and both backends."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal, NamedTuple, TypeAlias

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
    the engine as rows (``CodeGame.phase_rows``).
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
    """The sentence for a retreat or adjustment result."""
    return RULING_SENTENCES[facts.why](facts)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _what(order: str) -> str:
    """How a void build or disband sentence names the order."""
    return "this waive" if order == "WAIVE" else order


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _retreat_clash(f: RulingFacts) -> str:
    # DATC 6.H.7 / 6.H.8: retreats have no strength.
    others = _join([f"{power.title()} {unit}" for power, unit in f.rivals])
    verb = "also retreats" if len(f.rivals) == 1 else "also retreat"
    return (
        f"{f.unit} R {f.place} failed and {f.unit} is disbanded: {others} {verb} "
        f"to {f.other}, and units retreating to the same province are all disbanded "
        "(DATC 6.H.7)."
    )


def _build_while_owing(f: RulingFacts) -> str:
    return (
        f"{power_name(f.power)} owes {_plural(f.number, 'disband')} and may not build; "
        f"{_what(f.order)} is void."
    )


def _may_build_no_unit(why: str) -> Callable[[RulingFacts], str]:
    def sentence(f: RulingFacts) -> str:
        return f"{power_name(f.power)} may build no unit: {why}; {_what(f.order)} is void."

    return sentence


def _build_same_province(f: RulingFacts) -> str:
    # DATC 4.D.5 / 6.I.7: one unit per province; the first build there is used.
    return (
        f"{power_name(f.power)} already builds {f.other} in {f.place}; only the first build in "
        f"a province is used (DATC 4.D.5), so {_what(f.order)} is void."
    )


def _build_excess(f: RulingFacts) -> str:
    # DATC 4.D.4 / 6.I.1: the first legal builds (and waives, DATC 4.D.7) are used.
    n = f.number
    return (
        f"{power_name(f.power)} may build only {_plural(n, 'unit')}; {_what(f.order)} comes "
        f"after {'it' if n == 1 else 'them'} and is void (DATC 4.D.4: the first legal "
        "builds are used)."
    )


def _disband_while_building(f: RulingFacts) -> str:
    return (
        f"{power_name(f.power)} may not disband: it may build {_plural(f.number, 'unit')}; "
        f"{_what(f.order)} is void."
    )


def _disband_excess(f: RulingFacts) -> str:
    # DATC 4.D.6 / 6.J.1: the first legal disbands are used.
    n = f.number
    return (
        f"{power_name(f.power)} must disband only {_plural(n, 'unit')}; {_what(f.order)} comes "
        f"after {'it' if n == 1 else 'them'} and is void (DATC 4.D.6: the first legal "
        "disbands are used)."
    )


def _unused_build(f: RulingFacts) -> str:
    # DATC 4.D.7: a build may be waived; an allowed build nobody used is waived.
    allowed = "its one allowed build" if f.number == 1 else f"one of its {f.number} allowed builds"
    return f"{power_name(f.power)} did not use {allowed}, so it is waived."


_CIVIL_DISORDER_RULE: Final[Mapping[bool, str]] = {
    False: (
        "units farthest from an owned centre go first, fleets before armies at equal distance, "
        "then in alphabetical order (DATC 4.D.8)"
    ),
    True: (
        "units farthest from a home centre go first (the older rulebooks, DATC 6.J.11), fleets "
        "before armies at equal distance, then in alphabetical order"
    ),
}


def _disorder_head(f: RulingFacts) -> str:
    return f"{f.unit} disbanded by the civil-disorder rule"


def _disorder_no_route(f: RulingFacts) -> str:
    which = "home" if f.home else "owned"
    return (
        f"{_disorder_head(f)}: no route leads to any {which} centre; "
        f"{_CIVIL_DISORDER_RULE[f.home]}."
    )


def _disorder_on_centre(f: RulingFacts) -> str:
    where = f"a home centre ({f.place})" if f.home else f"an owned centre ({f.place})"
    return f"{_disorder_head(f)}: it stands on {where}; {_CIVIL_DISORDER_RULE[f.home]}."


def _disorder_distance(f: RulingFacts) -> str:
    which = "home" if f.home else "owned"
    return (
        f"{_disorder_head(f)}: {_plural(f.number, 'move')} from the nearest {which} centre "
        f"({f.place}); {_CIVIL_DISORDER_RULE[f.home]}."
    )


#: The sentence of each ``why`` of :class:`RulingFacts`: one home for both backends (the
#: engine's why codes are named by ``diplo._core.EXPLAIN_NAMES``, the same keys).
RULING_SENTENCES: Final[Mapping[str, Callable[[RulingFacts], str]]] = {
    # retreats
    "retreated": lambda f: f"{f.unit} retreated to {f.place}.",
    "disbanded": lambda f: f"{f.unit} disbanded as ordered.",
    "retreat_clash": _retreat_clash,
    "no_retreat": lambda f: f"{f.unit} had no legal retreat order and is disbanded.",
    # builds and waives
    "build_while_owing": _build_while_owing,
    "build_no_home_site": _may_build_no_unit("none of the home centres it owns is vacant"),
    "build_no_site": _may_build_no_unit("none of the centres it owns is vacant"),
    "build_no_any_home_site": _may_build_no_unit(
        "none of the centres it owns that are some power's home is vacant"
    ),
    "build_no_surplus": _may_build_no_unit("it has no more supply centres than units"),
    "build_same_province": _build_same_province,
    "build_excess": _build_excess,
    "waived": lambda f: f"{power_name(f.power)} waives a build (DATC 4.D.7).",
    "built": lambda f: f"{power_name(f.power)} builds {f.unit}.",
    # disbands
    "disband_while_building": _disband_while_building,
    "disband_not_owed": lambda f: (
        f"{power_name(f.power)} may not disband: it owes no disband; {_what(f.order)} is void."
    ),
    "disband_repeat": lambda f: (
        f"{f.unit} is already disbanded by an earlier order; the same unit counts only once "
        "(DATC 6.J.2)."
    ),
    "disband_excess": _disband_excess,
    # what happens unordered
    "unused_build": _unused_build,
    "disorder_no_centre": lambda f: (
        f"{_disorder_head(f)}: {power_name(f.power)} owns no supply centre, so all its units "
        "are removed."
    ),
    "disorder_no_home": lambda f: (
        f"{_disorder_head(f)}: {power_name(f.power)} has no home centre; its units go in tie order."
    ),
    "disorder_no_route": _disorder_no_route,
    "disorder_on_centre": _disorder_on_centre,
    "disorder_distance": _disorder_distance,
    # a map's start: godip's chaos
    "start_army": lambda f: (
        f"{power_name(f.power)} gave no order for a build of its first "
        f"phase, so {f.unit} is built (the map's start_armies)."
    ),
    # the neutral power's own
    "neutral_rebuilt": lambda f: (
        f"{f.unit} is raised again: neutral armies are rebuilt in the vacant centres neutral owns."
    ),
}
