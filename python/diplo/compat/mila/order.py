"""MILA's order of a board's lists, and its sticky ``influence``.

MILA keeps each power's units, dislodged units, centres and influence as lists that it edits as
the game goes, so their order is a fact of the game's history, not of the board:

- a new game lists each power's units and centres in the map file's order (``Map.units``,
  ``Map.centers``), and its influence is its units' provinces in that order;
- a movement phase takes the dislodged units out of the list (its ``retreats`` keep the list's
  order), then moves every unit that moved to the end, in the list's order; each province
  entered leaves every power's influence and goes last in the mover's;
- a retreat puts the unit last (the retreat orders in the order given) and moves the province
  it names (its coast kept) into the retreater's influence; builds go last in the order given,
  and neither builds nor disbands touch influence;
- on the way into an adjustment phase centres change hands power by power (the map's powers in
  order, each power's centres in its list's order, each taken one put last in the taker's list),
  then the unowned ones in the map's order of centres.

So a province stays in a power's influence after its unit leaves, until another power's unit
enters it. :func:`next_lists` applies one processed phase to the lists; :func:`arrange` lays a
board (diplo's, as sorted lists) out in the lists' order. A unit or centre the lists do not
know (a board put there by hand) goes after those they do, sorted.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["Lists", "arrange", "initial_lists", "lists_of", "neighbour_ranks", "next_lists"]


class Lists:
    """One board's lists in MILA's order, per power: units on the board, dislodged units,
    centres and influence (never changed once made)."""

    __slots__ = ("centers", "dislodged", "influence", "units")

    def __init__(
        self,
        units: dict[str, list[str]],
        dislodged: dict[str, list[str]],
        centers: dict[str, list[str]],
        influence: dict[str, list[str]],
    ) -> None:
        self.units = units
        self.dislodged = dislodged
        self.centers = centers
        self.influence = influence

    def __getstate__(self) -> tuple[Any, ...]:
        return (self.units, self.dislodged, self.centers, self.influence)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.units, self.dislodged, self.centers, self.influence = state


def _texts(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list | tuple) else []


def _table(doc: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = doc.get(key)
    return value if isinstance(value, Mapping) else {}


def lists_of(doc: Mapping[str, Any], powers: Sequence[str]) -> Lists:
    """The lists of a state dictionary as it gives them (its influence as given; without one,
    its units' provinces)."""
    units, dislodged, centers, influence = {}, {}, {}, {}
    unit_table, centre_table = _table(doc, "units"), _table(doc, "centers")
    influence_table = _table(doc, "influence")
    for power in powers:
        listed = _texts(unit_table.get(power))
        units[power] = [u for u in listed if u[:1] != "*"]
        dislodged[power] = [u[1:] for u in listed if u[:1] == "*"]
        centers[power] = _texts(centre_table.get(power))
        if power in influence_table:
            influence[power] = _texts(influence_table.get(power))
        else:
            influence[power] = [u[2:5] for u in units[power]]
    return Lists(units, dislodged, centers, influence)


def initial_lists(
    units: Mapping[str, Sequence[str]], centers: Mapping[str, Sequence[str]], powers: Sequence[str]
) -> Lists:
    """A new game's lists: the map's units and centres in its order, influence where the units
    stand."""
    return Lists(
        {p: list(units.get(p, ())) for p in powers},
        {p: [] for p in powers},
        {p: list(centers.get(p, ())) for p in powers},
        {p: [u[2:5] for u in units.get(p, ())] for p in powers},
    )


def _in_order(listed: Sequence[str], truth: Sequence[str]) -> list[str]:
    have = set(truth)
    out = [x for x in listed if x in have]
    if len(out) != len(have):
        seen = set(out)
        out.extend(sorted(have - seen))
    return out


def arrange(
    doc: dict[str, Any], lists: Lists, neighbours: Mapping[str, Sequence[str]]
) -> dict[str, Any]:
    """The state dictionary ``doc`` (diplo's board as sorted lists) with its units, dislodged
    units, retreats and centres in the lists' order, each retreat's places in the order of its
    location's ``neighbours`` (MILA's ``Map.loc_abut``, which MILA goes through), and MILA's
    influence (a new dictionary; the lists it does not name are shared)."""
    units: dict[str, list[str]] = {}
    retreats: dict[str, dict[str, list[str]]] = {}
    centers: dict[str, list[str]] = {}
    influence: dict[str, list[str]] = {}
    doc_retreats = doc["retreats"]
    for power, listed in doc["units"].items():
        regular = [u for u in listed if u[:1] != "*"]
        options = doc_retreats.get(power, {})
        gone = _in_order(lists.dislodged.get(power, ()), list(options))
        units[power] = _in_order(lists.units.get(power, ()), regular) + ["*" + u for u in gone]
        retreats[power] = {u: _by_neighbours(options[u], u[2:], neighbours) for u in gone}
    for power, owned in doc["centers"].items():
        centers[power] = _in_order(lists.centers.get(power, ()), owned)
        influence[power] = list(lists.influence.get(power, ()))
    out = dict(doc)
    out.update(units=units, retreats=retreats, centers=centers, influence=influence)
    return out


def neighbour_ranks(site: str, neighbours: Mapping[str, Sequence[str]]) -> dict[str, int]:
    """Where each place stands among ``site``'s neighbours in MILA's ``loc_abut`` order (a
    place and its province, upper case, at their first mention): the order MILA walks a
    dislodged unit's retreat options in; a place not named goes after all, at ``len`` of it."""
    near = neighbours.get(site) or neighbours.get(site.lower()) or ()
    rank: dict[str, int] = {}
    for i, place in enumerate(near):
        upper = place.upper()
        rank.setdefault(upper, i)
        rank.setdefault(upper[:3], i)
    return rank


def _by_neighbours(
    options: list[str], site: str, neighbours: Mapping[str, Sequence[str]]
) -> list[str]:
    rank = neighbour_ranks(site, neighbours)
    return sorted(options, key=lambda o: rank.get(o, len(rank)))


def _moved(
    moves: dict[str, str],
    arrived: dict[tuple[str, str], str],
    results: Callable[[], Mapping[str, Sequence[str]]],
) -> dict[str, str]:
    """Which of a power's units ordered to move (unit -> destination province; none of them
    dislodged) moved: unit -> its text after, given the power's units after (type and province
    -> text). A unit left when its place holds none of the power's units of its type, or when
    one of them ordered into its place left its own (and so stands there); where that goes round
    in a ring, MILA's result labels tell (``[]``: it moved)."""
    into: dict[tuple[str, str], list[str]] = {}
    for unit, dest in moves.items():
        into.setdefault((unit[0], dest), []).append(unit)
    known: dict[str, bool | None] = {}  # None: being worked out (met again: a ring)

    def left(unit: str) -> bool:
        if unit in known:
            done = known[unit]
            if done is None:
                raise _Ring
            return done
        place = (unit[0], unit[2:5])
        if place not in arrived:
            known[unit] = True
            return True
        known[unit] = None
        try:
            answer = any(left(other) for other in into.get(place, ()) if other != unit)
        except _Ring:
            answer = not list(results().get(unit, ["?"]))
        known[unit] = answer
        return answer

    out: dict[str, str] = {}
    for unit, dest in moves.items():
        text = arrived.get((unit[0], dest))
        if text is not None and left(unit):
            out[unit] = text
    return out


class _Ring(Exception):
    """Units of one type and power going round: the boards cannot tell whether they moved."""


def next_lists(
    lists: Lists,
    kind: str,
    orders: Mapping[str, Sequence[str]],
    after: Mapping[str, Any],
    scs: Sequence[str],
    results: Callable[[], Mapping[str, Sequence[str]]],
) -> Lists:
    """The lists after a processed phase of ``kind`` (``M``, ``R``, ``A``) with the orders kept
    (power -> texts, in the order given), ``after`` the board it left (diplo's state dictionary)
    and ``scs`` the map's centres in MILA's order; ``results`` gives MILA's labels when a move
    cannot be told from the boards."""
    powers = list(lists.units)
    units = dict(lists.units)  # each power's list made anew where it changes
    dislodged: dict[str, list[str]] = {p: [] for p in powers}
    influence = lists.influence
    holder: dict[str, str] | None = None  # province -> the power whose influence has it
    after_units = after["units"]

    def enter(power: str, loc: str) -> None:
        nonlocal influence, holder
        if holder is None:
            influence = {p: list(v) for p, v in influence.items()}
            holder = {loc: p for p, listed in influence.items() for loc in listed}
        had = holder.get(loc)
        if had is not None:
            influence[had].remove(loc)
        influence.setdefault(power, []).append(loc)
        holder[loc] = power

    for power in powers:
        arrived = {(u[0], u[2:5]): u for u in after_units.get(power, ()) if u[:1] != "*"}
        before = units[power]
        if kind == "M":
            gone = after["retreats"].get(power)
            if gone:
                dislodged[power] = [u for u in before if u in gone]
                before = [u for u in before if u not in gone]
            moves: dict[str, str] = {}
            standing = set(before)
            for text in orders.get(power, ()):
                words = text.split(" ", 4)
                if len(words) >= 4 and words[2] == "-":
                    unit = words[0] + " " + words[1]
                    if unit in standing:
                        moves[unit] = words[3][:3]
            moved = _moved(moves, arrived, results) if moves else {}
            # A unit dislodged with nowhere to go leaves the list at once, as MILA takes it
            # off the board: kept, it would come back twice once the power stands there again.
            have = set(arrived.values())
            units[power] = [u for u in before if u not in moved and u in have] + [
                moved[u] for u in before if u in moved
            ]
            for unit in before:
                if unit in moved:
                    enter(power, moved[unit][2:5])
        elif kind == "R":
            for text in orders.get(power, ()):
                words = text.split()
                if len(words) == 4 and words[2] == "R":
                    came = arrived.get((words[0], words[3][:3]))
                    if came is not None and came not in before:
                        before = [*before, came]
                        enter(power, words[3])
            units[power] = before
        else:
            have = set(arrived.values())
            kept = [u for u in before if u in have]
            for text in orders.get(power, ()):
                words = text.split()
                if len(words) == 3 and words[2] == "B":
                    built = arrived.get((words[0], words[1][:3]))
                    if built is not None and built not in kept:
                        kept.append(built)
            units[power] = kept
    return Lists(units, dislodged, _captured(lists.centers, after["centers"], scs), influence)


def _captured(
    centers: Mapping[str, Sequence[str]], owned: Mapping[str, Sequence[str]], scs: Sequence[str]
) -> dict[str, list[str]]:
    """The centres' lists after the owners changed to ``owned``: as MILA hands them over."""
    if all(sorted(centers.get(p, ())) == list(held) for p, held in owned.items()) and all(
        p in owned or not held for p, held in centers.items()
    ):
        # No centre changed hands (``owned``'s lists are sorted).
        return {p: list(v) for p, v in centers.items()}
    owner = {c: p for p, held in owned.items() for c in held}
    out = {p: list(v) for p, v in centers.items()}
    known = {c for held in centers.values() for c in held}
    for power in list(out):
        for centre in list(out[power]):
            taker = owner.get(centre)
            if taker != power:
                out[power].remove(centre)
                if taker is not None:
                    out.setdefault(taker, []).append(centre)
    for centre in scs:
        taker = owner.get(centre)
        if centre not in known and taker is not None:
            out.setdefault(taker, []).append(centre)
    return out
