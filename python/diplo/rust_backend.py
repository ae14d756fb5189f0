"""The bridge to the Rust core: encode a validated movement phase as integers, decode the outcome.

The map is compiled once per map (cached); each call sends one tuple per unit and per order and
gets integer arrays back, which become the same :class:`~diplo.resolver.MovementResolution` the
reference resolver returns. The sentences are made in Python from those facts, so both backends
explain themselves in the same words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from . import _core
from .map import Map
from .orders import Convoy, Hold, Move, Order, SupportHold, SupportMove
from .outcome import CORE_CODES, UnitOutcome
from .position import Piece
from .resolver import MovementResolution


@dataclass(frozen=True)
class CompiledTables:
    """A map as the core sees it, plus the lookups to translate names to indices and back."""

    core: _core.CompiledMap
    locations: tuple[str, ...]
    index: dict[str, int]
    power_index: dict[str, int]


_COMPILED: WeakKeyDictionary[Map, CompiledTables] = WeakKeyDictionary()


def compile_map(game_map: Map) -> CompiledTables:
    """Compile ``game_map`` for the core once; later calls return the cached tables."""
    tables = _COMPILED.get(game_map)
    if tables is None:
        locations = game_map.locations
        index = dict(game_map.location_index)
        provinces = list(game_map.provinces)
        core = _core.CompiledMap(
            [index[game_map.province_of(loc)] for loc in locations],
            [game_map.is_sea(p) for p in provinces],
            [
                sorted(index[n] for n in game_map.army_neighbours(p))
                if not game_map.is_sea(p)
                else []
                for p in provinces
            ],
            [sorted(index[n] for n in game_map.fleet_neighbours(loc)) for loc in locations],
        )
        power_index = {p: i for i, p in enumerate(game_map.powers)}
        tables = CompiledTables(core, locations, index, power_index)
        _COMPILED[game_map] = tables
    return tables


def encode_order(tables: CompiledTables, game_map: Map, order: Order) -> tuple[int, int, int, int]:
    """One effective (legal) movement order as the core's ``(kind, a, b, c)``."""
    index = tables.index
    if isinstance(order, Move):
        return (1, index[order.dest], int(order.via), 0)
    if isinstance(order, SupportHold):
        return (2, index[order.supported.province], 0, 0)
    if isinstance(order, SupportMove):
        # ``c`` carries the destination as written: a coast when the support names one, which
        # must then match the move's coast (DATC 6.B.9).
        dest = index[game_map.province_of(order.dest)]
        return (3, index[order.supported.province], dest, index[order.dest])
    if isinstance(order, Convoy):
        return (4, index[order.army.province], index[order.dest], 0)
    return (0, 0, 0, 0)


def resolve_movement_rust(
    game_map: Map, units: Mapping[str, Piece], orders: Mapping[str, Order]
) -> MovementResolution:
    """Resolve with the core; same meaning as :func:`diplo.resolver.resolve_movement`."""
    tables = compile_map(game_map)
    index = tables.index
    locations = tables.locations
    provinces = list(units)
    pieces = list(units.values())
    encoded_units = [
        (tables.power_index[p.power], 1 if p.type == "F" else 0, index[p.loc]) for p in pieces
    ]
    effective = [
        orders.get(prov) or Hold(p.unit) for prov, p in zip(provinces, pieces, strict=True)
    ]
    encoded_orders = [encode_order(tables, game_map, o) for o in effective]
    out = _core.resolve_movement(tables.core, encoded_units, encoded_orders)
    # Each attribute of the core's outcome is a fresh list: read every one once.
    codes, success, dislodged_by = out.codes, out.success, out.dislodged_by
    by, attack, opposition, convoyed = out.by, out.attack, out.opposition, out.convoyed
    core_retreats = out.retreats

    outcomes: dict[str, UnitOutcome] = {}
    dislodged: dict[str, tuple[str, bool]] = {}
    retreats: dict[str, tuple[str, ...]] = {}
    after: dict[str, Piece] = {}
    convoy_fleets: dict[str, list[str]] = {}
    convoyed_by_origin = {
        prov: convoyed[i] for i, prov in enumerate(provinces) if isinstance(effective[i], Move)
    }
    for i, prov in enumerate(provinces):
        order = effective[i]
        is_move = isinstance(order, Move)
        origin = dislodged_by[i]
        culprit = by[i]
        outcomes[prov] = UnitOutcome(
            CORE_CODES[codes[i]],
            success[i],
            None if origin < 0 else locations[origin],
            None if culprit < 0 else locations[culprit],
            attack[i],
            opposition[i],
            convoyed[i] if is_move else False,
        )
        if origin >= 0:
            attacker = locations[origin]
            dislodged[prov] = (attacker, convoyed_by_origin.get(attacker, False))
            retreats[prov] = tuple(locations[loc] for loc in core_retreats[i])
        elif not (is_move and success[i]):
            after[prov] = pieces[i]
        if isinstance(order, Convoy) and codes[i] != 5:
            convoy_fleets.setdefault(order.army.province, []).append(prov)
    for i, order in enumerate(effective):
        if isinstance(order, Move) and success[i]:
            piece = pieces[i]
            after[game_map.province_of(order.dest)] = Piece(piece.power, piece.type, order.dest)
    szykman = frozenset(locations[p] for p in out.szykman)
    return MovementResolution(
        outcomes,
        dislodged,
        frozenset(locations[p] for p in out.contested),
        after,
        retreats,
        szykman,
        {a: tuple(f) for a, f in convoy_fleets.items()},
    )
