"""A map and a position compiled for the Rust engine, once per map: the one map compilation
that every engine front end (the object API, :mod:`diplo.engine.codes`) shares.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from .. import _core
from ..model.map import Map
from ..model.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from ..model.position import Phase, Piece, Position

__all__ = ["MapTables", "code_map", "encode_position", "engine_game", "tables"]

_KINDS = {"land": 0, "coast": 1, "sea": 2}
#: The order classes in the core's order-kind order (``_core.ORDER_KINDS``): the core tells order
#: objects apart by these classes, not by their names.
_ORDER_CLASSES = tuple(
    {
        c.__name__: c
        for c in (Hold, Move, SupportHold, SupportMove, Convoy, Retreat, Disband, Build, Waive)
    }[name]
    for name in _core.ORDER_KINDS
)
_FAST_MAPS: WeakKeyDictionary[Map, _core.CodeMap] = WeakKeyDictionary()


def code_map(game_map: Map) -> _core.CodeMap:
    """``game_map`` compiled for the code API, once per map (later calls return the same table).

    Raises ``ValueError`` when the map does not fit the encoding (more than 1,024 locations or
    255 powers).
    """
    table = _FAST_MAPS.get(game_map)
    if table is None:
        if not isinstance(game_map, Map):
            raise ValueError(f"expected a diplo.model.map.Map, got {type(game_map).__name__}")
        index = game_map.location_index
        provinces = list(game_map.provinces)
        by_name = sorted(provinces, key=lambda p: (game_map.provinces[p].name.casefold(), p))
        rank = {p: i for i, p in enumerate(by_name)}
        table = _core.CodeMap(
            list(game_map.locations),
            list(game_map.powers),
            [index[game_map.province_of(loc)] for loc in game_map.locations],
            [_KINDS[game_map.provinces[p].kind] for p in provinces],
            [sorted(index[n] for n in game_map.army_neighbours(p)) for p in provinces],
            [
                sorted(index[n] for n in game_map.fleet_neighbours(loc))
                for loc in game_map.locations
            ],
            sorted(index[c] for c in game_map.centers),
            [[index[h] for h in game_map.homes.get(p, ())] for p in game_map.powers],
            [rank[p] for p in provinces],
            game_map.victory,
            order_classes=_ORDER_CLASSES,
            ports=sorted(index[p] for p in game_map.ports),
            calendar=(game_map.calendar.years_to_fall, game_map.calendar.years_to_spring),
            neutral=[i for i, p in enumerate(game_map.powers) if p in game_map.neutral],
            rebuild=[i for i, p in enumerate(game_map.powers) if p in game_map.rebuilds],
            start_armies=Phase.parse(game_map.first_phase).year if game_map.start_armies else None,
        )
        _FAST_MAPS[game_map] = table
    return table


def encode_position(
    position: Position,
) -> tuple[
    int,
    str,
    str,
    list[tuple[int, int, int]],
    list[tuple[int, int]],
    list[tuple[tuple[int, int, int], list[int]]],
]:
    """``position`` as the engine's constructor takes it (raises ``ValueError`` when it does not
    fit the map)."""
    game_map = position.map
    index = game_map.location_index
    powers = {p: i for i, p in enumerate(game_map.powers)}
    try:
        units = [
            (powers[p.power], 1 if p.type == "F" else 0, index[p.loc])
            for p in position.units.values()
        ]
        centers = [(index[c], powers[o]) for c, o in position.centers.items()]
        dislodged = [
            (
                (powers[d.piece.power], 1 if d.piece.type == "F" else 0, index[d.piece.loc]),
                [index[o] for o in d.options],
            )
            for d in position.dislodged.values()
        ]
        phase = position.phase
        return phase.year, phase.season, phase.kind, units, centers, dislodged
    except (KeyError, AttributeError, TypeError) as exc:
        raise ValueError(f"bad position: {exc!r}") from None


class MapTables:
    """Per map: the engine's map, shared pieces and phases."""

    def __init__(self, game_map: Map) -> None:
        self.map = game_map
        self.core_map = code_map(game_map)
        self.locations = game_map.locations
        self.provinces = [game_map.province_of(loc) for loc in game_map.locations]
        self.powers = game_map.powers
        self.power_index = {p: i for i, p in enumerate(game_map.powers)}
        self.pieces: dict[tuple[int, bool, int], Piece] = {}
        self.phases: dict[str, Phase] = {}

    def piece(self, power: int, fleet: bool, loc: int) -> Piece:
        key = (power, fleet, loc)
        piece = self.pieces.get(key)
        if piece is None:
            piece = Piece(self.powers[power], "F" if fleet else "A", self.locations[loc])
            self.pieces[key] = piece
        return piece

    def phase(self, text: str) -> Phase:
        phase = self.phases.get(text)
        if phase is None:
            phase = self.phases[text] = Phase.parse(text)
        return phase


_TABLES: WeakKeyDictionary[Map, MapTables] = WeakKeyDictionary()


def tables(game_map: Map) -> MapTables:
    """The engine's tables of ``game_map`` (made once per map; the last map's are at hand)."""
    global _LAST
    last = _LAST
    if last is not None and last.map is game_map:
        return last
    t = _TABLES.get(game_map)
    if t is None:
        t = _TABLES[game_map] = MapTables(game_map)
    _LAST = t
    return t


#: The tables asked for last (almost every call asks for the same map). Keeping them keeps that
#: map alive, as one map at most.
_LAST: MapTables | None = None


def engine_game(position: Position) -> _core.CodeGame:
    """The engine's game at ``position`` (kept on the position: positions are immutable)."""
    core: _core.CodeGame | None = position.__dict__.get("_engine")
    if core is None or core.is_over:
        core_map = tables(position.map).core_map
        core = _core.CodeGame(core_map, *encode_position(position), None, position.rules.to_json())
        object.__setattr__(position, "_engine", core)
    return core
