"""One phase's board as dipcc keeps it (``GameState``), its possible orders, and processing.

A :class:`State` holds what dipcc's ``GameState`` holds: the phase, the units by exact location,
the centres, the "influence" (the last power to stand on each location), and in a retreat
phase the dislodged units with their retreat options. Its possible orders are listed by dipcc's
rules (``game_state.cc``: holds, moves, supports of holds and moves with their coastless
variants, convoys and moves "via" over each chain of fleets at sea; retreats; builds and
disbands), as sets sorted in dipcc's order.

Every phase is played on the engine's code path (``DipccEncoder.step``: the staged orders ruled
as dipcc rules them and given the engine's codes, the engine's game processed) under
:data:`DIPCC_RULES`, the choices dipcc makes where the DATC leaves one open; the engine's game
after a phase is kept as the next board's when it is at the same phase, so a game played on
never makes one from its board again. The phases follow dipcc's sequence (a retreat phase
whenever a unit is dislodged, even with nowhere to go, ruled here when the engine had none;
centres counted on entering winter; a winter with nothing to do skipped; the game over at 18
centres or on reaching the winter of 1935). Retreats ruled here and adjustments on diplo's
object API (``process_phase``) are the references the engine's path is held to by
``tests/test_compat_dipcc.py``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from ...api.phase import process_phase
from ...engine.codes import CoreGame
from ...engine.dipcc import standard_game
from ...model.map import standard_map
from ...model.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
)
from ...model.position import Phase, Piece, Position
from ...model.rules import Rules
from .board import (
    ARMY,
    BUILD,
    CONVOY,
    DISBAND,
    FLEET,
    HOLD,
    LOC_INDEX,
    LOCS,
    MOVE,
    POWER_INDEX,
    POWERS,
    RETREAT,
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    DipccOrder,
    board,
    format_order,
    pack_orders,
)
from .core import board_encoder

__all__ = ["DIPCC_RULES", "MAX_YEAR", "PhaseName", "State", "model_order"]

#: dipcc's rulings where the rulebooks or the DATC leave a choice: ``edition="dipcc"``
#: (:data:`diplo.model.rules.EDITIONS`, ``docs/dipcc-compat.md``): only an army ordered "VIA"
#: goes by convoy to a neighbour, and it moves overland whenever its convoy does not carry it;
#: civil disorder removes the units farthest from their home centres, fleets first, then by
#: abbreviation.
DIPCC_RULES = Rules(edition="dipcc")
#: dipcc ends the game on reaching the winter of this year (``GameState::MAX_YEAR``).
MAX_YEAR = 1935
_SEASONS = "SFW"
_KINDS = "MRA"


@dataclass(frozen=True, order=False)
class PhaseName:
    """A phase as dipcc names it (``S1901M``, ``COMPLETED``), ordered as dipcc orders them."""

    season: str
    year: int
    kind: str
    #: the sort key (:attr:`key`), made once: phases are hashed and compared all the time
    _key: tuple[int, int, int] = field(init=False, repr=False, compare=False)
    #: the phase after this one (no retreat), made once (:meth:`next`)
    _next: PhaseName | None = field(default=None, init=False, repr=False, compare=False)
    #: its name (:meth:`__str__`), made once
    _text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.kind == "C":
            key = (1, 0, 0)
            text = "COMPLETED"
        else:
            key = (0, self.year * 3 + _SEASONS.index(self.season), _KINDS.index(self.kind))
            text = f"{self.season}{self.year}{self.kind}"
        object.__setattr__(self, "_key", key)
        object.__setattr__(self, "_text", text)

    @classmethod
    def parse(cls, text: object, where: str = "phase") -> PhaseName:
        if text == "COMPLETED":
            return cls("C", 2000, "C")
        if not isinstance(text, str) or len(text) != 6 or not text[1:5].isdigit():
            raise ValueError(f"Bad phase string: {text!r} ({where})")
        season, year, kind = text[0], int(text[1:5]), text[5]
        if (season, kind) not in {("S", "M"), ("S", "R"), ("F", "M"), ("F", "R"), ("W", "A")}:
            raise ValueError(f"Bad phase string: {text!r} ({where})")
        return cls(season, year, kind)

    def __str__(self) -> str:
        return self._text

    @property
    def key(self) -> tuple[int, int, int]:
        return self._key

    def __lt__(self, other: PhaseName) -> bool:
        return self._key < other._key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PhaseName) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def long(self) -> str:
        if self.kind == "C":
            return "COMPLETED"
        season = {"S": "SPRING", "F": "FALL", "W": "WINTER"}[self.season]
        kind = {"M": "MOVEMENT", "R": "RETREATS", "A": "ADJUSTMENTS"}[self.kind]
        return f"{season} {self.year} {kind}"

    def next(self, retreat: bool = False) -> PhaseName:
        if retreat:
            return _phase_name(self.season, self.year, "R")
        after = self._next
        if after is None:
            if self.season == "S":
                after = _phase_name("F", self.year, "M")
            elif self.season == "F":
                after = _phase_name("W", self.year, "A")
            else:
                after = _phase_name("S", self.year + 1, "M")
            object.__setattr__(self, "_next", after)
        return after

    def completed(self) -> PhaseName:
        return PhaseName("C", self.year, "C")


@lru_cache(maxsize=1)
def _center_of() -> list[int]:
    """Each location code's supply centre (its province's code), 0 where there is none."""
    b = board()
    return [b.root[c] if b.root[c] in b.centers else 0 for c in range(len(LOCS) + 1)]


@lru_cache(maxsize=1 << 12)
def _phase_name(season: str, year: int, kind: str) -> PhaseName:
    """The phase name, one object per phase (phases are made for each board played)."""
    return PhaseName(season, year, kind)


@lru_cache(maxsize=1)
def _engine_tables() -> tuple[list[int], list[str]]:
    """The engine's location indices (``Map.locations``) to dipcc's codes, and its powers."""
    game_map = standard_map()
    if list(game_map.powers) != list(POWERS):  # the engine's calls take dipcc's indices
        raise RuntimeError("the standard map's powers are not in dipcc's order")
    return [LOC_INDEX[loc] for loc in game_map.locations], list(game_map.powers)


@lru_cache(maxsize=1)
def _engine_template() -> CoreGame:
    """An engine game under :data:`DIPCC_RULES` whose map and rules the engine's games of
    boards are made with (``DipccEncoder.engine_game``)."""
    return standard_game(1901, "S", "M", [], [], DIPCC_RULES)


@lru_cache(maxsize=1)
def _engine_locs() -> bytes:
    """dipcc's location codes to the engine's location indices (index 0 unused), as the
    engine's ``DipccEncoder.rule_staged`` reads them."""
    loc_code, _ = _engine_tables()
    table = bytearray(len(LOCS) + 1)
    for index, code in enumerate(loc_code):
        table[code] = index
    return bytes(table)


@lru_cache(maxsize=1)
def _dipcc_locs() -> bytes:
    """The engine's location indices to dipcc's location codes."""
    return bytes(_engine_tables()[0])


@lru_cache(maxsize=1)
def _engine_values() -> tuple[list[tuple[str, int]], list[str]]:
    """A unit as ``DipccEncoder.step`` gives it, ``2 * power + is_fleet`` (the engine's power
    index), to a board's ``(power, type)`` (made once) and to its power."""
    _, powers = _engine_tables()
    pieces = [(power, FLEET if fleet else ARMY) for power in powers for fleet in (0, 1)]
    return pieces, [power for power, _ in pieces]


class _OrderBytes(dict[DipccOrder, bytes]):
    """Each order's seven bytes (:func:`pack_orders`), made once."""

    def __missing__(self, order: DipccOrder) -> bytes:
        if len(self) > 1 << 16:
            self.clear()
        packed = self[order] = bytes(order)
        return packed


_ORDER_BYTES = _OrderBytes()


#: the powers in dipcc's order, as ``DipccEncoder.step`` reads them
_POWER_NAMES = list(POWERS)
#: a run's head, its power's index and count of orders, by index and count
_RUN_HEADS = [[bytes((index, n)) for n in range(256)] for index in range(len(POWERS))]


def _staged_runs(orders: Mapping[str, Iterable[DipccOrder]]) -> bytes:
    """Staged orders as the engine's ``DipccEncoder`` reads them: per power (in dipcc's order)
    a run, its index, its count of orders, then each order's seven bytes."""
    parts: list[bytes] = []
    order_bytes = _ORDER_BYTES.__getitem__
    get = orders.get
    for index, power in enumerate(POWERS):
        given = get(power)
        if given:
            if not isinstance(given, list) or len(given) > 255:
                given = list(given)
                while len(given) > 255:
                    parts.append(_RUN_HEADS[index][255])
                    parts.extend(map(order_bytes, given[:255]))
                    given = given[255:]
            parts.append(_RUN_HEADS[index][len(given)])
            parts.extend(map(order_bytes, given))
    return b"".join(parts)


@lru_cache(maxsize=1)
def _pieces() -> dict[tuple[int, tuple[str, int]], tuple[str, Piece]]:
    """Every unit as a board holds it, ``(code, (power, type))``, to its province and diplo's
    piece (pieces are immutable: made once)."""
    out = {}
    for code, loc in enumerate(LOCS, start=1):
        for power in POWERS:
            for utype in (ARMY, FLEET):
                piece = Piece(power, "A" if utype == ARMY else "F", loc)
                out[(code, (power, utype))] = (piece.province, piece)
    return out


def model_order(order: DipccOrder) -> Order:
    """The diplo order of a dipcc order (what diplo's parser reads from its text)."""
    unit = Unit("A" if order.unit_type == ARMY else "F", LOCS[order.unit_loc - 1])
    kind = order.kind
    if kind == HOLD:
        return Hold(unit)
    if kind == MOVE:
        return Move(unit, LOCS[order.dest - 1], order.via)
    if kind == RETREAT:
        return Retreat(unit, LOCS[order.dest - 1])
    if kind == DISBAND:
        return Disband(unit)
    if kind == BUILD:
        return Build(unit)
    target = Unit("A" if order.target_type == ARMY else "F", LOCS[order.target_loc - 1])
    if kind == SUPPORT_HOLD:
        return SupportHold(unit, target)
    if kind == SUPPORT_MOVE:
        return SupportMove(unit, target, LOCS[order.dest - 1])
    if kind == CONVOY:
        return Convoy(unit, target, LOCS[order.dest - 1])
    raise ValueError(f"not a dipcc order kind: {kind}")


#: A unit: (power, unit type) by exact location code.
Units = dict[int, tuple[str, int]]


def _new_state(
    phase: PhaseName, units: Units, centers: dict[int, str], influence: dict[int, str]
) -> State:
    """``State(phase, units, centers, influence)`` without the constructor (a board is made
    per phase played)."""
    new = object.__new__(State)
    new.__dict__.update(
        phase=phase,
        units=units,
        centers=centers,
        influence=influence,
        dislodged={},
        _possible=None,
        _orderable=None,
        _builds=None,
        _memo={},
    )
    return new


@dataclass
class State:
    """A phase's board in dipcc's terms (``GameState``)."""

    phase: PhaseName
    units: Units = field(default_factory=dict)
    centers: dict[int, str] = field(default_factory=dict)
    influence: dict[int, str] = field(default_factory=dict)
    #: retreat phases: (power, type, loc) -> retreat destinations (location codes)
    dislodged: dict[tuple[str, int, int], tuple[int, ...]] = field(default_factory=dict)
    _possible: dict[int, list[DipccOrder]] | None = field(default=None, repr=False)
    _orderable: dict[str, list[int]] | None = field(default=None, repr=False)
    _builds: dict[str, int] | None = field(default=None, repr=False)
    #: what is worked out of the board once and shared by its copies (until one of them is
    #: changed: ``forget_orders`` gives it a memo of its own): ``"packed"``, the board packed
    #: for the engine's encoders; ``"position"``, (phase name, diplo's position)
    _memo: dict[str, Any] = field(default_factory=dict, repr=False)

    # ------------------------------------------------------------------ queries

    def copy(self) -> State:
        """A copy whose board may be changed; what was worked out of the board is shared
        until it is (made without the constructor: copies are frequent)."""
        new = object.__new__(State)
        fields = new.__dict__
        fields.update(self.__dict__)
        fields["units"] = dict(self.units)
        fields["centers"] = dict(self.centers)
        fields["influence"] = dict(self.influence)
        fields["dislodged"] = dict(self.dislodged)
        return new

    def __getstate__(self) -> dict[str, Any]:
        """A board pickles without what was worked out of it (made again when asked for; the
        engine's game kept in it does not pickle)."""
        fields = dict(self.__dict__)
        fields.update(_possible=None, _orderable=None, _builds=None, _memo={})
        return fields

    def unit_in(self, code: int) -> tuple[int, str, int] | None:
        """The unit anywhere in ``code``'s province: (exact loc, power, type)."""
        for c in board().coasts[code]:
            unit = self.units.get(c)
            if unit is not None:
                return (c, unit[0], unit[1])
        return None

    def possible_orders(self) -> dict[int, list[DipccOrder]]:
        """Every possible order by the exact location of its unit, sorted as dipcc sorts them."""
        if self._possible is None:
            self._load()
        assert self._possible is not None
        return self._possible

    def possible_texts(self) -> dict[int, list[str]]:
        """:meth:`possible_orders` as dipcc's texts, listed by the engine
        (``rust/src/engine/dipcc_encode.rs``, held to :meth:`possible_orders` by
        ``tests/test_compat_dipcc_encode.py``); shared by the copies."""
        return self._engine_lists()[0]

    def _engine_lists(self) -> tuple[dict[int, list[str]], dict[str, list[int]], dict[str, int]]:
        """The engine's lists of this board: the possible orders' texts by code, the orderable
        provinces by power and the builds owed (made once, shared by the copies)."""
        lists = self._memo.get("lists")
        if lists is None:
            packed = b"\x00" + self.packed() + b"\x00"
            by_code, orderable, builds, listed = board_encoder().possible_orders(packed, False)
            lists = (
                {code: texts for code, _, texts in by_code},
                {POWERS[p]: locs for p, locs in enumerate(orderable) if locs},
                dict(zip(POWERS, builds, strict=True)),
            )
            self._memo["lists"] = lists
            self._memo["listed"] = listed
        if self._orderable is None:
            self._orderable = lists[1]
            self._builds = lists[2]
        return lists

    def orderable(self) -> dict[str, list[int]]:
        """The provinces (root codes) each power may order, in dipcc's order."""
        if self._orderable is None:
            self.possible_texts()
        assert self._orderable is not None
        return self._orderable

    def n_builds(self, power: str) -> int:
        if self.phase.kind != "A":
            return 0
        if self._builds is None:
            self.possible_texts()
        assert self._builds is not None
        return self._builds[power]

    def packed(self) -> bytes:
        """The board packed for the engine's encoders (``rust/src/engine/dipcc_encode.rs``):
        the phase, the unit and the centre owner of every location code, the dislodged units
        with their retreats; made once per state."""
        packed: bytes | None = self._memo.get("packed")
        if packed is not None:
            return packed
        phase = self.phase
        units = bytearray(len(LOCS) + 1)
        for code, (power, utype) in self.units.items():
            units[code] = 2 * POWER_INDEX[power] + utype
        centers = bytearray(len(LOCS) + 1)
        for code, power in self.centers.items():
            centers[code] = 1 + POWER_INDEX[power]
        tail = bytearray((len(self.dislodged),))
        for (power, utype, loc), dests in self.dislodged.items():
            tail += bytes((POWER_INDEX[power], utype, loc, len(dests), *dests))
        head = (phase.kind + phase.season).encode() + phase.year.to_bytes(2, "little")
        packed = b"".join((head, units, centers, tail))
        self._memo["packed"] = packed
        return packed

    def packed_alone(self) -> bytes:
        """:meth:`packed` as a batch's game with no history: its length first, no scoring
        system, no played phase (the board encoders' input); made once."""
        blob: bytes | None = self._memo.get("alone")
        if blob is None:
            game = b"\x00" + self.packed() + b"\x00"
            blob = len(game).to_bytes(4, "little") + game
            self._memo["alone"] = blob
        return blob

    def forget_orders(self) -> None:
        self._possible = self._orderable = self._builds = None
        self._memo = {}

    def _load(self) -> None:
        kind = self.phase.kind
        found: dict[int, set[DipccOrder]] = {}
        powers: dict[str, set[int]] = {}
        builds = dict.fromkeys(POWERS, 0)
        if kind == "M":
            self._movement_orders(found, powers)
        elif kind == "R":
            for (power, utype, loc), dests in self.dislodged.items():
                orders = found.setdefault(loc, set())
                orders.add(DipccOrder(utype, loc, DISBAND))
                orders.update(DipccOrder(utype, loc, RETREAT, dest=d) for d in dests)
                powers.setdefault(power, set()).add(loc)
        elif kind == "A":
            builds = self._adjustment_orders(found, powers)
        root = board().root
        self._possible = {loc: sorted(orders) for loc, orders in found.items()}
        self._orderable = {p: [root[c] for c in sorted(locs)] for p, locs in powers.items()}
        self._builds = builds

    def _movement_orders(
        self, found: dict[int, set[DipccOrder]], powers: dict[str, set[int]]
    ) -> None:
        b = board()
        by_dest: dict[int, list[DipccOrder]] = {}
        chained: set[int] = set()
        for loc in sorted(self.units):
            power, utype = self.units[loc]
            powers.setdefault(power, set()).add(loc)
            orders = found.setdefault(loc, set())
            orders.add(DipccOrder(utype, loc, HOLD))
            for dest in b.adjacent[utype][loc]:
                by_dest.setdefault(dest, []).append(DipccOrder(utype, loc, MOVE, dest=dest))
            for near in b.adjacent_all[utype][loc]:
                other = self.units.get(near)
                if other is None:
                    continue
                orders.add(DipccOrder(utype, loc, SUPPORT_HOLD, other[1], near))
                if b.root[near] != near:
                    orders.add(DipccOrder(utype, loc, SUPPORT_HOLD, other[1], b.root[near]))
            if utype == FLEET and loc in b.water and loc not in chained:
                self._convoys(loc, chained, found, by_dest)
        for loc in sorted(self.units):
            utype = self.units[loc][1]
            orders = found[loc]
            for dest in b.adjacent_all[utype][loc]:
                if dest == loc:
                    continue
                for move in by_dest.get(dest, ()):
                    if move.unit_loc == loc:
                        continue
                    orders.add(
                        DipccOrder(utype, loc, SUPPORT_MOVE, move.unit_type, move.unit_loc, dest)
                    )
                    if b.root[dest] != dest:
                        orders.add(
                            DipccOrder(
                                utype,
                                loc,
                                SUPPORT_MOVE,
                                move.unit_type,
                                move.unit_loc,
                                b.root[dest],
                            )
                        )
        for dest_moves in by_dest.values():
            for move in dest_moves:
                found[move.unit_loc].add(move)

    def _convoys(
        self,
        start: int,
        chained: set[int],
        found: dict[int, set[DipccOrder]],
        by_dest: dict[int, list[DipccOrder]],
    ) -> None:
        """A chain of fleets at sea (every fleet at sea next to one of it): each army beside the
        chain may go "VIA" to each coast beside it, and each fleet of it may convoy that move."""
        b = board()
        fleets: list[int] = []
        todo = [start]
        chained.add(start)
        armies: set[int] = set()
        coasts: set[int] = set()
        while todo:
            fleet = todo.pop()
            fleets.append(fleet)
            for near in b.adjacent_all[FLEET][fleet]:
                if near not in b.water:
                    coasts.add(b.root[near])
                unit = self.units.get(near)
                if unit is None:
                    continue
                if unit[1] == FLEET and near in b.water and near not in chained:
                    chained.add(near)
                    todo.append(near)
                elif unit[1] == ARMY:
                    armies.add(near)
        for army in sorted(armies):
            for dest in sorted(coasts):
                if dest == army:
                    continue
                by_dest.setdefault(dest, []).append(
                    DipccOrder(ARMY, army, MOVE, dest=dest, via=True)
                )
                for fleet in fleets:
                    found.setdefault(fleet, set()).add(
                        DipccOrder(FLEET, fleet, CONVOY, ARMY, army, dest)
                    )

    def _adjustment_orders(
        self, found: dict[int, set[DipccOrder]], powers: dict[str, set[int]]
    ) -> dict[str, int]:
        b = board()
        units = dict.fromkeys(POWERS, 0)
        for power, _ in self.units.values():
            units[power] += 1
        centers = dict.fromkeys(POWERS, 0)
        for power in self.centers.values():
            centers[power] += 1
        builds = {p: centers[p] - units[p] for p in POWERS}
        for power in POWERS:
            if builds[power] <= 0:
                continue
            for utype, sites in ((ARMY, b.army_builds[power]), (FLEET, b.fleet_builds[power])):
                for site in sites:
                    if self.centers.get(b.root[site]) == power and self.unit_in(site) is None:
                        found.setdefault(site, set()).add(DipccOrder(utype, site, BUILD))
                        powers.setdefault(power, set()).add(b.root[site])
        for loc, (power, utype) in self.units.items():
            if builds[power] < 0:
                found.setdefault(loc, set()).add(DipccOrder(utype, loc, DISBAND))
                powers.setdefault(power, set()).add(b.root[loc])
        return builds

    # ------------------------------------------------------------------ scores and ends

    def scores(self, system: int) -> list[float]:
        """dipcc's scores (``GameState::get_scores``), in its single precision: a solo (more
        than 17.5 centres) one-hot, else the centres squared (0) or survival (1), normalised."""
        counts = [0.0] * len(POWERS)
        for power in self.centers.values():
            counts[POWERS.index(power)] += 1
        for i, n in enumerate(counts):
            if n > 17.5:
                return [1.0 if j == i else 0.0 for j in range(len(POWERS))]
        square = system == 0
        values = [n * n if square else float(n > 0) for n in counts]
        total = np.float32(sum(values))
        if total == 0:
            return [math.nan] * len(POWERS)
        return [float(np.float32(v) / total) for v in values]

    def any_center_taken(self) -> bool:
        """Whether a centre would change hands if the year ended now."""
        b = board()
        for loc, (power, _) in self.units.items():
            province = b.root[loc]
            if province in b.centers and self.centers.get(province) != power:
                return True
        return False

    def enter_winter(self) -> None:
        """dipcc's arrival in a winter: count the centres; end the game on a solo win or in the
        last year; skip a winter where no power builds or disbands."""
        center_of = _center_of()
        centers = self.centers
        units = dict.fromkeys(POWERS, 0)
        for loc, (power, _) in self.units.items():
            units[power] += 1
            center = center_of[loc]
            if center:
                centers[center] = power
        counts = dict.fromkeys(POWERS, 0)
        for power in centers.values():
            counts[power] += 1
        self.forget_orders()
        if max(counts.values()) >= 18 or self.phase.year == MAX_YEAR:
            self.phase = self.phase.completed()
            return
        if not self._owed_adjustment(counts, units):
            self.phase = self.phase.next()

    def anything_to_adjust(self) -> bool:
        """Whether some power has an adjustment order in this winter (a disband, or a build on
        an owned, vacant home centre): dipcc's possible orders of the winter are not all empty
        (held to them by ``tests/test_compat_dipcc.py``)."""
        centers = dict.fromkeys(POWERS, 0)
        for power in self.centers.values():
            centers[power] += 1
        units = dict.fromkeys(POWERS, 0)
        for power, _ in self.units.values():
            units[power] += 1
        return self._owed_adjustment(centers, units)

    def _owed_adjustment(self, centers: Mapping[str, int], units: Mapping[str, int]) -> bool:
        """:meth:`anything_to_adjust` given each power's centres and units."""
        building = []
        for power in POWERS:
            owed = centers[power] - units[power]
            if owed < 0:
                return True
            if owed:
                building.append(power)
        if not building:
            return False
        b = board()
        root = b.root
        taken = {root[loc] for loc in self.units}
        owner = self.centers.get
        return any(
            owner(home) == power and home not in taken
            for power in building
            for home in b.homes[power]
        )

    # ------------------------------------------------------------------ processing

    def process(self, orders: Mapping[str, Iterable[DipccOrder]]) -> State:
        """The next phase's state, given each power's staged orders."""
        kind = self.phase.kind
        if kind == "M":
            return self._process_movement(orders)
        if kind == "R":
            return self._process_retreats(orders)
        if kind == "A":
            return self._process_adjustments(orders)
        raise RuntimeError(f"Cannot process phase: {self.phase}")

    def _engine_game(self) -> CoreGame:
        """The engine's game at this board, a movement or adjustment phase's (made once,
        shared by the copies; or kept from the phase before when the engine's board after it
        is this one: :meth:`_keep_engine`), made from the board's units and centres as the
        engine's indices, checked by the engine alone."""
        phase = str(self.phase)
        cached = self._memo.get("engine")
        if cached is None or cached[0] != phase:
            cached = (phase, self._new_engine_game())
            self._memo["engine"] = cached
        game: CoreGame = cached[1]
        return game

    def _new_engine_game(self) -> CoreGame:
        """The engine's game of this board, made by the engine from the packed board
        (``DipccEncoder.engine_game``) on the map and rules of a game made once."""
        return board_encoder().engine_game(_engine_template(), self._framed(), _engine_locs())

    def _keep_engine(self, phase: str, game: CoreGame) -> None:
        """Keep ``game``, the engine's game after the phase before (at ``phase``, ``""`` when
        over), as this board's when it is at this board's phase (its units and centres this
        board's: held to a game made afresh by ``tests/test_compat_dipcc.py``)."""
        if phase and phase == str(self.phase):
            self._memo["engine"] = (phase, game)

    def _position(self, phase: str) -> Position:
        cached = self._memo.get("position")
        if cached is not None and cached[0] == phase:
            position: Position = cached[1]
            return position
        piece_of = _pieces()
        pieces = dict(piece_of[(loc, unit)] for loc, unit in self.units.items())
        centers = {LOCS[c - 1]: p for c, p in self.centers.items()}
        position = Position(
            standard_map(),
            Phase.parse(phase),
            pieces,
            centers,
            {},
            "dipcc state",
            rules=DIPCC_RULES,
        )
        self._memo["position"] = (phase, position)
        return position

    def _ruled(self, orders: Mapping[str, Iterable[DipccOrder]]) -> tuple[bytes, list[int]]:
        """The orders dipcc rules on and their engine codes (the engine's
        ``DipccEncoder.rule_staged``): in movement and retreats each unit's order from its
        owner, an impossible order dropped (the unit holds, or is disbanded), a move possible
        only by convoy made "VIA" (dipcc's implicit via); in adjustments every possible order,
        in the order given. Looked up in the board's possible orders when they were listed
        (:meth:`possible_texts`), else worked out by the engine at once. The orders ruled on
        come as seven bytes each (:func:`pack_orders`)."""
        ruled, codes = board_encoder().rule_staged(
            self._framed(), self._memo.get("listed"), _staged_runs(orders), _engine_locs()
        )
        return ruled, codes

    def _framed(self) -> bytes:
        """:meth:`packed` as a game with no history (what ``DipccEncoder`` reads of a board)."""
        memo = self._memo
        framed: bytes | None = memo.get("framed")
        if framed is None:
            framed = memo["framed"] = b"\x00" + self.packed() + b"\x00"
        return framed

    def _step(
        self, game: CoreGame, orders: Mapping[str, Iterable[DipccOrder]], influence: dict[int, str]
    ) -> tuple[Units, CoreGame, str, bytes, bytes, list[tuple[int, bytes]]]:
        """The phase played on the engine (``DipccEncoder.step``): the staged orders ruled on
        (:meth:`_ruled`), a copy of ``game`` given their codes and processed. Returns the units
        after (``influence`` given each one's power), the engine's game after and its phase
        (``""`` when over), the orders ruled on (seven bytes each) and their successes, and
        the units the engine keeps aside with their retreats (dipcc's codes)."""
        pieces, powers = _engine_values()
        after, phase, ruled, success, units, aside = board_encoder().step(
            game,
            self._framed(),
            self._memo.get("listed"),
            orders if type(orders) is dict else dict(orders),
            _POWER_NAMES,
            _engine_locs(),
            _dipcc_locs(),
            pieces,
            powers,
            influence,
        )
        return units, after, phase, ruled, success, aside

    def _rulings(self, orders: Mapping[str, Iterable[DipccOrder]]) -> list[tuple[DipccOrder, int]]:
        """:meth:`_ruled` as (order, engine code) pairs."""
        ruled, codes = self._ruled(orders)
        return list(zip(_unpack(ruled), codes, strict=True))

    def rule_orders(self, orders: Sequence[DipccOrder]) -> bytes:
        """Per order, 1 when it is one of this board's possible orders, 2 when only its "VIA"
        form is (a move possible only by convoy), 0 when neither is: looked up in the possible
        orders' texts when they were listed (:meth:`possible_texts`), else told by the engine
        without listing them."""
        lists = self._memo.get("lists")
        if lists is None:
            packed = b"\x00" + self.packed() + b"\x00"
            return bytes(board_encoder().rule_orders(packed, pack_orders(orders)))
        by_code: dict[int, list[str]] = lists[0]
        out = bytearray(len(orders))
        for i, order in enumerate(orders):
            listed = by_code.get(order.unit_loc, ())
            if format_order(order) in listed:
                out[i] = 1
            elif (
                order.kind == MOVE
                and not order.via
                and format_order(order._replace(via=True)) in listed
            ):
                out[i] = 2
        return bytes(out)

    def _process_movement(self, orders: Mapping[str, Iterable[DipccOrder]]) -> State:
        """Movement on the engine's code path (``diplo.engine.codes``, the position's rules
        ``edition="dipcc"``): the orders ruled on as codes, the board after read as indices."""
        influence = dict(self.influence)
        units, game, phase, ruled, success, aside = self._step(
            self._engine_game(), orders, influence
        )
        nxt = _new_state(self.phase, units, dict(self.centers), influence)
        if aside or len(units) != len(self.units):
            # someone was dislodged (the engine keeps aside those with somewhere to go and
            # removes the others; no unit leaves the board otherwise in a movement phase)
            hit = self._dislodged_by(_unpack(ruled), [ok == 1 for ok in success])
            if hit:
                options = dict(aside)
                nxt.phase = self.phase.next(retreat=True)
                for key in hit:
                    nxt.dislodged[key] = tuple(sorted(options.get(key[2], b"")))
                # the engine's game at dipcc's retreat phase, or past it when no dislodged
                # unit has somewhere to go (dipcc plays that retreat phase, the engine not)
                nxt._memo["engine_retreat"] = (phase, game)
                return nxt
        nxt.phase = self.phase.next()
        if nxt.phase.season == "W":
            nxt.enter_winter()
        nxt._keep_engine(phase, game)
        return nxt

    def _dislodged_by(
        self, ruled: list[DipccOrder], success: list[bool]
    ) -> list[tuple[str, int, int]]:
        """The units dislodged by these orders' outcome, ``(power, type, loc)``: a unit that did
        not move away from a province a move entered (the engine keeps aside only those with
        somewhere to go; dipcc plays a retreat phase for the others too)."""
        b = board()
        root = b.root
        moved: set[int] = set()
        entered: set[int] = set()
        for order, ok in zip(ruled, success, strict=True):
            if ok and order.kind == MOVE:
                moved.add(order.unit_loc)
                entered.add(root[order.dest])
        units_before = self.units
        return [
            (there[0], there[1], code)
            for province in entered
            for code in b.coasts[province]
            if code not in moved and (there := units_before.get(code)) is not None
        ]

    def _process_retreats(self, orders: Mapping[str, Iterable[DipccOrder]]) -> State:
        """Retreats on the engine's code path when the engine's game after the movement phase
        is at this retreat phase (some dislodged unit had somewhere to go), else
        (:meth:`_process_retreats_here`) by dipcc's rule written here: a board read from JSON,
        or a retreat phase where every dislodged unit can only disband."""
        kept = self._memo.get("engine_retreat")
        if kept is None or kept[0] != str(self.phase):
            nxt = self._process_retreats_here(orders)
            if kept is not None:
                nxt._keep_engine(*kept)
            return nxt
        influence: dict[int, str] = {}
        units, game, phase, ruled, _, _ = self._step(kept[1], orders, influence)
        nxt = _new_state(self.phase.next(), units, dict(self.centers), influence)
        # dipcc keeps the influence of the first of two retreats into one province (by power,
        # in order given), which both fail
        bounced = _bounced_retreats(_unpack(ruled)) if ruled[2::7].count(RETREAT) > 1 else None
        if bounced:
            root = board().root
            for power in POWERS:
                for order in orders.get(power, ()):
                    province = root[order.dest]
                    if province in bounced and order in bounced[province]:
                        influence[order.dest] = power
                        del bounced[province]
        if nxt.phase.season == "W":
            nxt.enter_winter()
        nxt._keep_engine(phase, game)
        return nxt

    def _process_retreats_here(self, orders: Mapping[str, Iterable[DipccOrder]]) -> State:
        """dipcc's retreat phase written here: each dislodged unit's possible retreat from its
        owner, two into one province both failing (the reference of the engine's path)."""
        possible = self.possible_orders()
        nxt = State(self.phase.next(), dict(self.units), dict(self.centers))
        nxt.influence = {loc: power for loc, (power, _) in nxt.units.items()}
        waiting = set(self.dislodged)
        bounced: set[int] = set()
        root = board().root
        for power in POWERS:
            for order in orders.get(power, ()):
                key = (power, order.unit_type, order.unit_loc)
                if key not in waiting or order not in possible.get(order.unit_loc, []):
                    continue
                waiting.discard(key)
                if order.kind == DISBAND or root[order.dest] in bounced:
                    continue
                there = nxt.unit_in(order.dest)
                if there is not None:
                    del nxt.units[there[0]]
                    bounced.add(root[order.dest])
                    continue
                nxt.units[order.dest] = (power, order.unit_type)
                nxt.influence[order.dest] = power
        if nxt.phase.season == "W":
            nxt.enter_winter()
        return nxt

    def _process_adjustments(self, orders: Mapping[str, Iterable[DipccOrder]]) -> State:
        """Adjustments on the engine's code path: every possible order given, in the order
        given (a power's first builds used, civil disorder by ``edition="dipcc"``)."""
        # dipcc starts the influence afresh from the units before the adjustments and adds the
        # builds; a disbanded unit's location keeps its owner's influence.
        influence = {loc: power for loc, (power, _) in self.units.items()}
        units, game, phase, _, _, _ = self._step(self._engine_game(), orders, influence)
        nxt = _new_state(self.phase.next(), units, dict(self.centers), influence)
        nxt._keep_engine(phase, game)
        return nxt

    def _process_adjustments_by_objects(self, orders: Mapping[str, Iterable[DipccOrder]]) -> State:
        """:meth:`_process_adjustments` on diplo's object API (``process_phase`` on a
        ``Position``): the reference the engine's path is held to by the tests."""
        possible = self.possible_orders()
        accepted: dict[str, list[str]] = {}
        for power in POWERS:
            for order in orders.get(power, ()):
                if order in possible.get(order.unit_loc, []):
                    accepted.setdefault(power, []).append(format_order(order))
        outcome = process_phase(self._position(str(self.phase)), accepted)
        nxt = State(self.phase.next(), {}, dict(self.centers))
        nxt.influence = {loc: power for loc, (power, _) in self.units.items()}
        for piece in outcome.next.units.values():
            code = LOC_INDEX[piece.loc]
            nxt.units[code] = (piece.power, ARMY if piece.type == "A" else FLEET)
            nxt.influence[code] = piece.power
        return nxt


def _unpack(ruled: bytes) -> list[DipccOrder]:
    """Orders packed seven bytes each (:func:`pack_orders`) as tuples."""
    r = ruled
    return [
        DipccOrder(r[i], r[i + 1], r[i + 2], r[i + 3], r[i + 4], r[i + 5], r[i + 6] == 1)
        for i in range(0, len(r), 7)
    ]


def _bounced_retreats(ruled: list[DipccOrder]) -> dict[int, set[DipccOrder]]:
    """The retreats into a province some other retreat also went for, by province."""
    root = board().root
    by_province: dict[int, set[DipccOrder]] = {}
    for order in ruled:
        if order.kind == RETREAT:
            by_province.setdefault(root[order.dest], set()).add(order)
    return {p: o for p, o in by_province.items() if len(o) > 1}
