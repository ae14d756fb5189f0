"""The adjustment phase: builds, disbands, waives and the 2023 civil-disorder rule.

Every order arriving here is legal (validation has checked that a build names an owned, vacant home
centre of the right terrain with the coast given where one is needed, and that a disband names an
existing unit of the power). What is left is counting:

* A power with more supply centres than units may build the difference, but only in owned, vacant
  home centres (or, under the ``build_sites="any"`` rule, in any owned, vacant centre, and under
  ``build_sites="any_home"`` in any owned, vacant centre that is some power's home): the
  number of builds it may actually use is ``min(surplus, len(build_sites))``
  (zero when every owned home centre is occupied). The first builds and waives in submission order
  are carried out, later ones are void (DATC 4.D.4, 6.I.1); of two builds in one province the first
  is used (DATC 4.D.5, 6.I.7); a waive uses up a build (DATC 4.D.7); builds left unused are waived.
* A power with more units than centres must disband the difference. The first disbands are used
  (DATC 4.D.6, 6.J.1), the same unit named twice counts once (DATC 6.J.2: the repeat is reported
  with the first order's outcome but uses up nothing), and the shortfall is
  settled by the civil-disorder rule of the 2023 rulebook (DATC 4.D.8, 6.J.3-6.J.11): the units
  farthest from the nearest supply centre the power *owns* go first, distance counted over every
  border whatever the unit type; on equal distance fleets before armies, then the alphabetical
  order of the provinces' English names. Under the older rulebooks (``civil_disorder="home"``)
  the distance is to the nearest *home* centre instead (DATC 6.J.11); under godip's tie-break
  (``disorder_tie="abbreviation"``) equal units go by their provinces' abbreviations; under
  MILA's (``disorder_distance="fleet_moves"``) a fleet's distance counts only the moves a fleet
  can make, from its coast (:func:`unit_distances`).

This module is the one home of the build allowance in Python: :func:`centre_surplus`,
:func:`build_sites` and :func:`adjustment_counts` are what validation, legal orders, the phase
sequence and the MILA export ask.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from ..model.map import Map
from ..model.orders import AdjustmentOrder, Build, Disband, Unit, Waive, format_order
from ..model.outcome import Outcome, RulingFacts, explain_ruling
from ..model.position import Piece, Position
from ..model.rules import DisorderTie
from ..model.wording import power_name

__all__ = [
    "AdjustmentResult",
    "adjustment_counts",
    "build_sites",
    "centre_surplus",
    "civil_disorder_disbands",
    "is_some_home",
    "neutral_rebuilds",
    "resolve_adjustments",
]

_KeyFn: TypeAlias = Callable[[Piece], tuple[int, int, str, str]]

# --------------------------------------------------------------------------- counting


def build_sites(position: Position, power: str) -> list[str]:
    """Where ``power`` may build, in the map's order: its owned, vacant home centres, or under
    the ``build_sites="any"`` rule every owned, vacant centre, or under ``"any_home"`` every
    owned, vacant centre that is a home centre of some power (DATC 6.I.3-6.I.6; vacant on
    every coast, 6.I.4)."""
    game_map = position.map
    index = game_map.location_index
    rule = position.rules.build_sites
    candidates: Collection[str]
    if rule == "home":
        candidates = game_map.homes.get(power, ())
    elif rule == "any_home":
        candidates = [c for c in position.centers_of(power) if is_some_home(game_map, c)]
    else:
        candidates = position.centers_of(power)
    sites = [c for c in candidates if position.centers.get(c) == power and c not in position.units]
    return sorted(sites, key=index.__getitem__)


def is_some_home(game_map: Map, prov: str) -> bool:
    """Whether ``prov`` is a home centre of some power of ``game_map`` (``build_sites="any_home"``
    builds only there)."""
    return any(prov in homes for homes in game_map.homes.values())


def centre_surplus(position: Position, power: str) -> int:
    """Centres owned minus units: builds wanted (> 0) or disbands owed (< 0), before the cap of
    :func:`build_sites` (a power with a surplus may waive even with nowhere to build)."""
    owned = sum(1 for owner in position.centers.values() if owner == power)
    units = sum(1 for piece in position.units.values() if piece.power == power)
    return owned - units


def adjustment_counts(position: Position) -> dict[str, int]:
    """Per power of the map: the builds it may make (positive) or the disbands it owes (negative).

    The raw figure is centres owned minus units. A positive figure is capped at the number of owned,
    vacant home centres (:func:`build_sites`), since a build needs one: a power with a surplus but
    every owned home centre occupied (or none owned) gets 0. This capped figure is what
    :func:`resolve_adjustments` allows and what it waives when builds are left unused.
    """
    counts: dict[str, int] = {}
    for power in position.map.powers:
        if power in position.map.neutral:
            counts[power] = 0  # a neutral power builds and disbands nothing by the count
            continue
        surplus = centre_surplus(position, power)
        if surplus > 0:
            surplus = min(surplus, len(build_sites(position, power)))
        counts[power] = surplus
    return counts


# --------------------------------------------------------------------------- civil disorder


def unit_distances(position: Position, piece: Piece) -> dict[str, int]:
    """The civil-disorder distance of ``piece`` to every province it reaches, the one distance
    of the rule (which units go and the sentence saying why): over every border whatever the
    unit type (DATC 6.J.6, 6.J.10); under ``disorder_distance="fleet_moves"`` (MILA's
    ``Game._get_distance_to_home``) a fleet's counts only the moves a fleet can make from its
    location, a province reached by any of its coasts."""
    game_map = position.map
    if piece.type != "F" or position.rules.disorder_distance != "fleet_moves":
        return game_map.distances([piece.province])
    dist: dict[str, int] = {}
    seen = {piece.loc}
    frontier = [piece.loc]
    d = 0
    while frontier:
        following = []
        for loc in frontier:
            dist.setdefault(game_map.province_of(loc), d)
            for n in sorted(game_map.fleet_neighbours(loc)):
                if n not in seen:
                    seen.add(n)
                    following.append(n)
        frontier = following
        d += 1
    return dist


def _disorder_key(
    game_map: Map, dist: dict[str, int], unreachable: int, tie: DisorderTie
) -> _KeyFn:
    provinces = game_map.provinces

    def key(piece: Piece) -> tuple[int, int, str, str]:
        prov = piece.province
        # DATC 4.D.8 (2023 rules): greatest distance first; DATC 6.J.7: on equal distance fleets
        # before armies; DATC 6.J.4 / 6.J.6: then alphabetical by the English name (the
        # abbreviation only breaks a tie between identical names, which a checked map cannot have).
        # godip (disorder_tie="abbreviation"): by its province id, the location's abbreviation in
        # lower case compared character by character; one unit per province, so its province's.
        name = provinces[prov].name.casefold() if tie == "name" else prov.lower()
        return (-dist.get(prov, unreachable), 0 if piece.type == "F" else 1, name, prov)

    return key


def civil_disorder_disbands(
    position: Position, power: str, count: int, exclude: Collection[str] = ()
) -> list[Piece]:
    """The ``count`` units of ``power`` the civil-disorder rule removes, in removal order.

    ``exclude`` holds the provinces of units already disbanded by order: the rule only settles the
    shortfall (DATC 6.J.2). Distance is measured from each unit's province to the nearest supply
    centre the power owns (not its home centres, DATC 6.J.11; under the older rulebooks'
    ``civil_disorder="home"`` rule to the nearest home centre), counting every border whatever the
    unit type: armies may count across seas (DATC 6.J.10), fleets across land (DATC 6.J.6), and a
    split-coast province is reached by whichever coast is nearer (DATC 6.J.9).

    A power that owns no centre loses all its units (its count is minus its unit count anyway);
    with no distance to compare they go in the same tie order: fleets first, then alphabetically
    by the English name of the province (under ``disorder_tie="abbreviation"``, godip's, by the
    province's abbreviation in lower case). A unit with no route to any owned centre (impossible on
    the standard map) counts as infinitely far.
    """
    if count <= 0:
        return []
    game_map = position.map
    candidates = [p for p in position.units_of(power) if p.province not in exclude]
    sources = _disorder_sources(position, power)
    dist = game_map.distances(sources) if sources else {}
    unreachable = len(game_map.provinces) + 1
    if position.rules.disorder_distance == "fleet_moves" and sources:
        # MILA: each fleet's own distance along its moves, keyed by its province (one unit each).
        for piece in candidates:
            if piece.type == "F":
                reach = unit_distances(position, piece)
                dist[piece.province] = min(
                    (reach[c] for c in sources if c in reach), default=unreachable
                )
    candidates.sort(key=_disorder_key(game_map, dist, unreachable, position.rules.disorder_tie))
    return candidates[:count]


def _disorder_sources(position: Position, power: str) -> list[str]:
    """The centres the civil-disorder distance is measured to, as the rules say."""
    if position.rules.civil_disorder == "home":
        return list(position.map.homes.get(power, ()))  # the older rulebooks, DATC 6.J.11
    return position.centers_of(power)  # DATC 4.D.8, 6.J.11 (2023 rules)


def _disorder_reason(position: Position, piece: Piece, sources: list[str]) -> str:
    """The sentence for a civil-disorder disband, naming the distance and the nearest centre."""
    home = position.rules.civil_disorder != "owned"
    unit = str(piece)
    if not sources:
        why = "disorder_no_home" if home else "disorder_no_centre"
        return explain_ruling(RulingFacts(why, piece.power, unit))
    game_map = position.map
    dist = unit_distances(position, piece)
    index = game_map.location_index
    reachable = [c for c in sources if c in dist]
    if not reachable:
        return explain_ruling(RulingFacts("disorder_no_route", piece.power, unit, home=home))
    nearest = min(reachable, key=lambda c: (dist[c], index[c]))
    d = dist[nearest]
    why = "disorder_on_centre" if d == 0 else "disorder_distance"
    facts = RulingFacts(why, piece.power, unit, place=nearest, number=d, home=home)
    return explain_ruling(facts)


# --------------------------------------------------------------------------- the phase


@dataclass(frozen=True)
class AdjustmentResult:
    """The adjustment phase ruled.

    ``outcomes`` has one entry per input order, in input order. ``implied`` lists, per power in map
    order, what was applied without being ordered: ``(power, 'WAIVE', outcome)`` for every allowed
    build left unused and ``(power, 'A PAR D', outcome)`` for every civil-disorder disband.
    ``units`` is the board afterwards, keyed by province.
    """

    outcomes: list[Outcome]
    implied: list[tuple[str, str, Outcome]]
    units: dict[str, Piece]


@dataclass
class _Ledger:
    """What one power has done so far in the phase."""

    allowed: int  # > 0 builds allowed, < 0 disbands owed
    used: int = 0  # builds and waives carried out, or disbands carried out
    built: dict[str, str] = field(default_factory=dict)  # province -> unit text
    disbanded: set[str] = field(default_factory=set)  # provinces


def resolve_adjustments(
    position: Position, orders: Sequence[tuple[str, AdjustmentOrder]]
) -> AdjustmentResult:
    """Carry out the adjustment phase of ``position``.

    ``orders`` are the legal adjustment orders as ``(power, order)`` pairs in submission order
    (powers may be interleaved; only the order within a power matters). An order that validation
    should have refused (a build on a site that is not an owned, vacant home centre of the power,
    a disband of a unit the power does not have) raises ``ValueError`` rather than corrupt the
    board.
    """
    game_map = position.map
    counts = adjustment_counts(position)
    ledgers: dict[str, _Ledger] = {}
    outcomes: list[Outcome] = []
    removed: set[str] = set()
    added: dict[str, Piece] = {}

    for power, order in orders:
        if power not in counts:
            raise ValueError(
                f"adjustment order {format_order(order)!r} for unknown power {power!r}"
            )
        ledger = ledgers.setdefault(power, _Ledger(counts[power]))
        if isinstance(order, Disband):
            outcomes.append(_disband(position, power, order, ledger, removed))
        else:
            outcomes.append(_build_or_waive(position, power, order, ledger, added))

    implied: list[tuple[str, str, Outcome]] = []
    starts: list[Piece] = []
    for power in game_map.powers:
        allowed = counts[power]
        ledger = ledgers.get(power) or _Ledger(allowed)
        if allowed > 0 and _start_armies(position):
            # godip's chaos: in the first phase every build left unordered is an army.
            sites = [s for s in build_sites(position, power) if s not in added]
            starts.extend(Piece(power, "A", site) for site in sites[: allowed - ledger.used])
        elif allowed > 0:
            # DATC 4.D.7: a build may be waived; an allowed build nobody used is waived.
            for _ in range(allowed - ledger.used):
                reason = explain_ruling(RulingFacts("unused_build", power, number=allowed))
                implied.append((power, "WAIVE", Outcome("ok", True, reason)))
        elif allowed < 0:
            shortfall = -allowed - ledger.used
            sources = _disorder_sources(position, power)
            for piece in civil_disorder_disbands(position, power, shortfall, ledger.disbanded):
                removed.add(piece.province)
                reason = _disorder_reason(position, piece, sources)
                text = format_order(Disband(piece.unit))
                implied.append((power, text, Outcome("ok", True, reason)))

    # The armies no order asked for, in province order: the first phase's unordered builds,
    # then a rebuilding neutral power's armies in its vacant centres.
    index = game_map.location_index
    raised = [(p, "start_army") for p in sorted(starts, key=lambda p: index[p.loc])]
    raised += [(p, "neutral_rebuilt") for _, p in neutral_rebuilds(position)]
    for piece, why in raised:
        added[piece.province] = piece
        reason = explain_ruling(RulingFacts(why, piece.power, str(piece)))
        implied.append((piece.power, format_order(Build(piece.unit)), Outcome("ok", True, reason)))
    units = {prov: piece for prov, piece in position.units.items() if prov not in removed}
    units.update(added)
    return AdjustmentResult(outcomes, implied, units)


def _start_armies(position: Position) -> bool:
    """Whether this is the first phase of a map that builds armies for unordered builds."""
    game_map = position.map
    return game_map.start_armies and str(position.phase) == game_map.first_phase


def neutral_rebuilds(position: Position) -> list[tuple[str, Piece]]:
    """The armies a rebuilding neutral power (``Map.rebuilds``) raises at an adjustment: one in
    every vacant centre it owns that an army can stand in, in the map's order."""
    game_map = position.map
    out = []
    for prov in game_map.provinces:
        owner = position.centers.get(prov)
        if owner in game_map.rebuilds and prov not in position.units and not game_map.is_sea(prov):
            out.append((owner, Piece(owner, "A", prov)))
    return out


def _build_or_waive(
    position: Position,
    power: str,
    order: Build | Waive,
    ledger: _Ledger,
    added: dict[str, Piece],
) -> Outcome:
    text = format_order(order)
    allowed = ledger.allowed

    def void(why: str, **facts: Any) -> Outcome:
        return Outcome("void", False, explain_ruling(RulingFacts(why, power, order=text, **facts)))

    if allowed < 0:
        return void("build_while_owing", number=-allowed)
    if allowed == 0:
        if centre_surplus(position, power) <= 0:
            return void("build_no_surplus")
        if position.rules.build_sites == "home":
            return void("build_no_home_site")
        if position.rules.build_sites == "any_home":
            return void("build_no_any_home_site")
        return void("build_no_site")
    piece = _built_piece(position, power, order.unit) if isinstance(order, Build) else None
    if piece is not None:
        first = ledger.built.get(piece.province)
        if first is not None:
            # DATC 4.D.5 / 6.I.7: one unit per province; the first build there is used.
            return void("build_same_province", place=piece.province, other=first)
    if piece is None and position.rules.waive == "free":
        # MILA: a waive never uses up a build.
        return Outcome("ok", True, explain_ruling(RulingFacts("waived", power)))
    if ledger.used >= allowed:
        # DATC 4.D.4 / 6.I.1: the first legal builds (and waives, DATC 4.D.7) are used.
        return void("build_excess", number=allowed)
    ledger.used += 1
    if piece is None:
        return Outcome("ok", True, explain_ruling(RulingFacts("waived", power)))
    ledger.built[piece.province] = str(piece)
    added[piece.province] = piece
    return Outcome("ok", True, explain_ruling(RulingFacts("built", power, str(piece))))


def _built_piece(position: Position, power: str, unit: Unit) -> Piece:
    game_map = position.map
    prov = unit.province
    if prov not in build_sites(position, power):
        raise ValueError(
            f"{_title(power)} build {unit} B: {prov} is not a build site of {_title(power)} "
            "(validation should have refused it)"
        )
    unit_type = unit.type
    if unit_type is None:
        # DATC 4.C.3 (choice c): without a designation an army is built inland and a fleet where a
        # coast is named; validation refuses the rest and normally fills the type in already.
        if game_map.coast_of(unit.loc) is not None:
            unit_type = "F"
        elif game_map.is_land(prov):
            unit_type = "A"
        else:
            raise ValueError(f"build {unit} B: army or fleet? (validation should have refused it)")
    return Piece(power, unit_type, unit.loc)


def _disband(
    position: Position, power: str, order: Disband, ledger: _Ledger, removed: set[str]
) -> Outcome:
    name = _title(power)
    prov = order.unit.province
    piece = position.units.get(prov)
    if piece is None or piece.power != power:
        raise ValueError(
            f"{name} {format_order(order)}: {name} has no unit in {prov} "
            "(validation should have refused it)"
        )
    text = format_order(Disband(piece.unit))
    allowed = ledger.allowed

    def void(why: str, count: int = 0) -> Outcome:
        facts = RulingFacts(why, power, order=text, number=count)
        return Outcome("void", False, explain_ruling(facts))

    if allowed > 0:
        return void("disband_while_building", allowed)
    if allowed == 0:
        return void("disband_not_owed")
    owed = -allowed
    if prov in ledger.disbanded:
        # DATC 6.J.2: the same unit removed twice counts once, and the shortfall goes to civil
        # disorder. The repeat has the outcome of the first order (the unit is gone), as every
        # order given twice does (the JSON contract), but it uses up no disband. A repeated build
        # differs: there the second would be a second unit, and 6.I.7 makes it fail.
        facts = RulingFacts("disband_repeat", power, str(piece))
        return Outcome("ok", True, explain_ruling(facts))
    if ledger.used >= owed:
        # DATC 4.D.6 / 6.J.1: the first legal disbands are used.
        return void("disband_excess", owed)
    ledger.used += 1
    ledger.disbanded.add(prov)
    removed.add(prov)
    return Outcome("ok", True, explain_ruling(RulingFacts("disbanded", power, str(piece))))


_title = power_name
