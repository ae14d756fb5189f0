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

__all__ = ["Lists", "arrange", "initial_lists", "lists_of", "next_lists"]


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


def arrange(doc: dict[str, Any], lists: Lists) -> dict[str, Any]:
    """The state dictionary ``doc`` (diplo's board as sorted lists) with its units, dislodged
    units, retreats and centres in the lists' order and MILA's influence (a new dictionary; the
    lists it does not name are shared)."""
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
        retreats[power] = {u: options[u] for u in gone}
    for power, owned in doc["centers"].items():
        centers[power] = _in_order(lists.centers.get(power, ()), owned)
        influence[power] = list(lists.influence.get(power, ()))
    out = dict(doc)
    out.update(units=units, retreats=retreats, centers=centers, influence=influence)
    return out


def _moved(
    power: str,
    before: Sequence[str],
    moves: dict[str, str],
    arrived: dict[tuple[str, str], str],
    results: Callable[[], Mapping[str, Sequence[str]]],
) -> dict[str, str]:
    """The units of ``power`` that moved (unit -> its text after) among ``before``, given their
    move orders (unit -> destination province) and the power's units after (type and province
    -> text). A unit moved when one of its type now stands where it went and the power's unit
    of that type there before (if any) left; where that cannot tell (units of one type going
    round in a ring), MILA's result labels do (``[]``: it moved)."""
    at = {(u[0], u[2:5]): u for u in before}
    aims: dict[tuple[str, str], int] = {}
    for unit, dest in moves.items():
        aims[unit[0], dest] = aims.get((unit[0], dest), 0) + 1
    out: dict[str, str] = {}
    for unit, dest in moves.items():
        text = arrived.get((unit[0], dest))
        if text is None:
            continue
        if aims[unit[0], dest] > 1:  # two of the power's units of a type went there: one did
            if not list(results().get(unit, ["?"])):
                out[unit] = text
            continue
        seen = {unit}
        holder = at.get((unit[0], dest))
        ok = True
        while holder is not None and holder not in seen:
            # The power's unit of this type that stood there: did it leave?
            seen.add(holder)
            step = moves.get(holder)
            if step is None or (holder[0], step) not in arrived:
                ok = False  # it stayed (no move, or nowhere it went has one of its type now)
                break
            nxt = at.get((holder[0], step))
            if nxt is None:
                break  # it went somewhere the power had no unit of its type: it left
            holder = nxt
        else:
            if holder is not None:  # a ring of one type: the board cannot tell
                ok = not list(results().get(unit, ["?"]))
        if ok:
            out[unit] = text
    return out


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
    units = {p: list(v) for p, v in lists.units.items()}
    dislodged: dict[str, list[str]] = {p: [] for p in powers}
    influence = {p: list(v) for p, v in lists.influence.items()}
    after_units = after["units"]

    def enter(power: str, loc: str) -> None:
        for listed in influence.values():
            if loc in listed:
                listed.remove(loc)
        influence.setdefault(power, []).append(loc)

    for power in powers:
        now = [u for u in after_units.get(power, ()) if u[:1] != "*"]
        arrived = {(u[0], u[2:5]): u for u in now}
        have = set(now)
        before = units[power]
        if kind == "M":
            gone = set(after["retreats"].get(power, {}))
            dislodged[power] = [u for u in before if u in gone]
            before = [u for u in before if u not in gone]
            moves: dict[str, str] = {}
            standing = set(before)
            for text in orders.get(power, ()):
                words = text.split()
                if len(words) >= 4 and words[2] == "-" and " ".join(words[:2]) in standing:
                    moves[" ".join(words[:2])] = words[3][:3]
            moved = _moved(power, before, moves, arrived, results) if moves else {}
            units[power] = [u for u in before if u not in moved] + [
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
