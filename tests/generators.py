"""Random positions and orders on the standard map, for property tests.

Orders are drawn from a mix meant to stress the resolver: holds, moves to neighbours and to far
provinces (illegal), supports of real and imagined moves, convoys along chains of fleets and
convoyed moves, with extra weight on the convoy-heavy, paradox-prone seas between England,
France and Scandinavia.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from diplo.model.map import Map
from diplo.model.position import Dislodged, Phase, Piece, Position
from diplo.model.rules import Rules
from diplo.reference.convoys import route_fleets

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")

# Seas and coasts around which convoy chains and paradoxes form (DATC 6.F).
CONVOY_AREA = (
    "NTH ENG IRI MAO NAO NWG SKA HEL BAL LON WAL LVP YOR EDI CLY BRE PIC BEL HOL DEN NWY SWE "
    "KIE GAS SPA POR WES LYO TYS ION TUN NAF MAR PIE TUS ROM NAP APU ADR AEG GRE ALB"
).split()


def random_position(
    game_map: Map,
    rng: random.Random,
    provinces: Sequence[str] | None = None,
    count: int | None = None,
    phase: str = "S1901M",
) -> Position:
    """Units of random powers on random provinces of ``provinces`` (default: the whole map)."""
    pool = list(provinces if provinces is not None else game_map.provinces)
    count = rng.randint(1, min(len(pool), 34)) if count is None else min(count, len(pool))
    units: dict[str, Piece] = {}
    for prov in rng.sample(pool, count):
        power = rng.choice(POWERS)
        if game_map.is_sea(prov):
            kind = "F"
        elif game_map.is_land(prov):
            kind = "A"
        else:
            kind = rng.choice("AF")
        loc = prov
        if kind == "F" and game_map.coasts_of(prov):
            loc = rng.choice(game_map.coasts_of(prov))
        units[prov] = Piece(power, kind, loc)  # type: ignore[arg-type]
    return Position(game_map, Phase.parse(phase), units, {})


def random_orders(
    game_map: Map, position: Position, rng: random.Random, illegal_rate: float = 0.08
) -> dict[str, list[str]]:
    """One order text per unit (sometimes two, sometimes none), grouped by power.

    Independent random orders rarely meet, so a second pass coordinates some of them: moves get
    supported by units that can reach the destination, and armies get whole convoy chains.
    """
    units = list(position.units.values())
    armies = [u for u in units if u.type == "A"]
    coastal = [p for p in game_map.provinces if game_map.is_coastal(p)]
    chosen: dict[str, list[str]] = {}
    for piece in units:
        if rng.random() < 0.05:
            continue  # unordered: holds
        texts = [_one_order(game_map, piece, units, armies, coastal, rng, illegal_rate)]
        if rng.random() < 0.03:
            texts.append(_one_order(game_map, piece, units, armies, coastal, rng, illegal_rate))
        chosen[piece.province] = texts
    _coordinate_convoys(game_map, position, chosen, rng)
    _coordinate_supports(game_map, position, chosen, rng)
    orders: dict[str, list[str]] = {}
    for prov, texts in chosen.items():
        orders.setdefault(position.units[prov].power, []).extend(texts)
    return orders


def _coordinate_convoys(
    game_map: Map, position: Position, chosen: dict[str, list[str]], rng: random.Random
) -> None:
    fleets = frozenset(p for p, u in position.units.items() if game_map.is_sea(p))
    armies = [
        u for u in position.units.values() if u.type == "A" and game_map.is_coastal(u.province)
    ]
    rng.shuffle(armies)
    for army in armies[: rng.randint(0, 3)]:
        dests = [
            c
            for c in game_map.provinces
            if game_map.is_coastal(c) and route_fleets(game_map, army.province, c, fleets)
        ]
        if not dests:
            continue
        dest = rng.choice(dests)
        via = " VIA" if rng.random() < 0.5 else ""
        chosen[army.province] = [f"{army} - {dest}{via}"]
        for sea in route_fleets(game_map, army.province, dest, fleets):
            if rng.random() < 0.85:
                chosen[sea] = [f"{position.units[sea]} C {army} - {dest}"]


def _coordinate_supports(
    game_map: Map, position: Position, chosen: dict[str, list[str]], rng: random.Random
) -> None:
    moves = [
        (p, t[0])
        for p, t in chosen.items()
        if len(t) == 1 and " - " in t[0] and " C " not in t[0] and " S " not in t[0]
    ]
    rng.shuffle(moves)
    for prov, text in moves[: rng.randint(0, 4)]:
        dest = game_map.province_of(text.split(" - ")[1].split()[0])
        helpers = [
            u
            for p, u in position.units.items()
            if p not in (prov, dest) and dest in _reach(game_map, u)
        ]
        for helper in rng.sample(helpers, min(len(helpers), rng.randint(1, 2))):
            chosen[helper.province] = [f"{helper} S {text.split(' - ')[0]} - {dest}"]


def _moves_of(game_map: Map, piece: Piece) -> list[str]:
    if piece.type == "A":
        return sorted(game_map.army_neighbours(piece.province))
    return sorted(game_map.fleet_neighbours(piece.loc))


def _one_order(
    game_map: Map,
    piece: Piece,
    units: Sequence[Piece],
    armies: Sequence[Piece],
    coastal: Sequence[str],
    rng: random.Random,
    illegal_rate: float,
) -> str:
    if rng.random() < illegal_rate:
        far = rng.choice(game_map.locations)
        return rng.choice(
            [f"{piece} - {far}", f"{piece} S {piece} - {far}", f"{piece} C A {far} - {far}"]
        )
    roll = rng.random()
    neighbours = _moves_of(game_map, piece)
    if roll < 0.15 or not neighbours:
        return f"{piece} H"
    if roll < 0.45:
        return f"{piece} - {rng.choice(neighbours)}"
    if roll < 0.55 and piece.type == "A" and game_map.is_coastal(piece.province):
        via = " VIA" if rng.random() < 0.4 else ""
        return f"{piece} - {rng.choice(coastal)}{via}"
    others = [u for u in units if u.province != piece.province]
    reach = _reach(game_map, piece)
    if roll < 0.62:
        # Support a move into a province the supporter can reach, by a unit next to it.
        targets = [
            (u, dest)
            for u in others
            for dest in _moves_of(game_map, u)
            if game_map.province_of(dest) in reach
        ]
        if targets:
            unit, dest = rng.choice(targets)
            return f"{piece} S {unit} - {dest}"
    if roll < 0.75:
        held = [u for u in others if u.province in reach]
        if held:
            return f"{piece} S {rng.choice(held)}"
    if piece.type == "F" and game_map.is_sea(piece.province) and armies:
        # Convoy an army from a nearby coast to a coast a few seas away.
        near = _seas_within(game_map, piece.province, 2)
        boarding = [a for a in armies if game_map.sea_neighbours(a.province) & near] or list(armies)
        army = rng.choice(boarding)
        landings = [c for c in coastal if game_map.sea_neighbours(c) & near and c != army.province]
        return f"{piece} C {army} - {rng.choice(landings or list(coastal))}"
    if piece.type == "A" and game_map.is_coastal(piece.province) and rng.random() < 0.5:
        near = _seas_within(game_map, piece.province, 2)
        landings = [c for c in coastal if game_map.sea_neighbours(c) & near and c != piece.province]
        if landings:
            via = " VIA" if rng.random() < 0.4 else ""
            return f"{piece} - {rng.choice(landings)}{via}"
    return f"{piece} - {rng.choice(neighbours)}"


def _reach(game_map: Map, piece: Piece) -> set[str]:
    return {game_map.province_of(loc) for loc in _moves_of(game_map, piece)}


def _seas_within(game_map: Map, start: str, steps: int) -> set[str]:
    """Seas at most ``steps`` fleet moves from ``start`` (a sea, or a coast's bordering seas)."""
    frontier = {start} if game_map.is_sea(start) else set(game_map.sea_neighbours(start))
    seen = set(frontier)
    for _ in range(steps - 1):
        frontier = {
            n for sea in frontier for n in game_map.fleet_neighbours(sea) if game_map.is_sea(n)
        } - seen
        seen |= frontier
    return seen


def convoy_heavy_position(game_map: Map, rng: random.Random) -> Position:
    """A crowded board around the western seas: many fleets at sea and armies on the coasts."""
    return random_position(game_map, rng, CONVOY_AREA, rng.randint(8, 24))


def region_closure(game_map: Map, provinces: Iterable[str]) -> set[str]:
    """The provinces of a region and every province bordering it (army or fleet)."""
    out = set(provinces)
    for prov in list(out):
        out |= game_map.army_neighbours(prov) if not game_map.is_sea(prov) else set()
        for loc in (prov, *game_map.coasts_of(prov)):
            out |= {game_map.province_of(n) for n in game_map.fleet_neighbours(loc)}
    return out


def random_retreat_position(
    game_map: Map, rng: random.Random, option_chance: float = 0.7
) -> Position:
    """Units anywhere and dislodged units with random options among their empty neighbours
    (each kept with ``option_chance``), as the resolver leaves them."""
    base = random_position(game_map, rng, count=rng.randint(5, 30))
    dislodged: dict[str, Dislodged] = {}
    for prov in rng.sample(list(game_map.provinces), rng.randint(1, 6)):
        power = rng.choice(game_map.powers)
        if game_map.is_sea(prov):
            piece = Piece(power, "F", prov)
        elif game_map.is_land(prov) or rng.random() < 0.5:
            piece = Piece(power, "A", prov)
        else:
            piece = Piece(power, "F", rng.choice(game_map.coasts_of(prov) or (prov,)))
        near = sorted(
            game_map.army_neighbours(prov)
            if piece.type == "A"
            else game_map.fleet_neighbours(piece.loc),
            key=game_map.location_index.__getitem__,
        )
        options = tuple(
            o
            for o in near
            if game_map.province_of(o) not in base.units and rng.random() < option_chance
        )
        dislodged[prov] = Dislodged(piece, options)
    season = rng.choice("SF")
    return base.with_changes(phase=Phase.parse(f"{season}1903R"), dislodged=dislodged)


def random_adjustment_position(
    game_map: Map, rng: random.Random, any_rules: bool = False
) -> Position:
    """Units anywhere and centres owned at random: some powers build, some disband; with
    ``any_rules``, under a random combination of the rules that change a winter."""
    base = random_position(game_map, rng, count=rng.randint(3, 30))
    centers = {c: rng.choice(game_map.powers) for c in game_map.centers if rng.random() < 0.7}
    rules = game_map.rules
    if any_rules:
        rules = Rules(
            civil_disorder=rng.choice(("owned", "home")),
            disorder_tie=rng.choice(("name", "abbreviation")),
            disorder_distance=rng.choice(("any_border", "fleet_moves")),
            build_sites=rng.choice(("home", "any", "any_home")),
        )
    return base.with_changes(phase=Phase.parse("W1904A"), centers=centers, rules=rules)
