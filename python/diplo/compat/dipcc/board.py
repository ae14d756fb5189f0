"""dipcc's names for the standard board: its location list, powers, unit and order codes.

dipcc (``dipcc/cc/loc.h``, ``power.h``, ``enums.h`` in facebookresearch/diplomacy_cicero) numbers
the 81 locations of the standard map in one fixed order, MILA's ``LOCS`` (provinces and coasts
interleaved: ``STP/NC`` follows ``STP``, ``STP/SC`` comes after ``PRU``). That order is the sort
key of every list dipcc returns (orders by their unit's location, orderable locations, units of
a power) and the index of the encoders' location axis, so it is written down here once. The
adjacencies are not copied from dipcc: they are read from diplo's own standard map, which has
the same board.

An order is kept as dipcc's tuple, so that sorting the tuples sorts the orders as dipcc's
``std::set<Order>`` does: ``(unit type, unit location, order type, target type, target location,
destination, via)``, each a small integer (0 for "none").
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from functools import lru_cache
from typing import Final, NamedTuple

from ...model.map import standard_map

__all__ = [
    "ARMY",
    "FLEET",
    "LOCS",
    "LOC_INDEX",
    "POWERS",
    "Board",
    "DipccOrder",
    "board",
    "format_order",
    "parse_order",
    "root",
]

#: dipcc's locations in its order (``LOCS``): the order of every sorted list and encoder axis.
LOCS: Final[tuple[str, ...]] = (
    *"YOR EDI LON LVP NTH WAL CLY NWG ENG IRI NAO BEL DEN HEL HOL NWY SKA BAR BRE MAO PIC".split(),
    *"BUR RUH BAL KIE SWE FIN STP STP/NC GAS PAR NAF POR SPA SPA/NC SPA/SC WES MAR MUN".split(),
    *"BER BOT LVN PRU STP/SC MOS TUN LYO TYS PIE BOH SIL TYR WAR SEV UKR ION TUS NAP ROM".split(),
    *"VEN GAL VIE TRI ARM BLA RUM ADR AEG ALB APU EAS GRE BUD SER ANK SMY SYR BUL BUL/EC".split(),
    "CON",
    "BUL/SC",
)
#: A location's code: its place in :data:`LOCS` plus one (dipcc's ``Loc`` enum, 0 is none).
LOC_INDEX: Final[dict[str, int]] = {loc: i + 1 for i, loc in enumerate(LOCS)}
#: The seven powers in dipcc's order (``POWERS``), the order of every per-power list.
POWERS: Final[tuple[str, ...]] = (
    "AUSTRIA",
    "ENGLAND",
    "FRANCE",
    "GERMANY",
    "ITALY",
    "RUSSIA",
    "TURKEY",
)
POWER_INDEX: Final[dict[str, int]] = {p: i for i, p in enumerate(POWERS)}

# Unit types and order types as dipcc numbers them (``enums.h``).
ARMY: Final = 1
FLEET: Final = 2
HOLD, MOVE, SUPPORT_HOLD, SUPPORT_MOVE, CONVOY, RETREAT, BUILD, DISBAND = range(1, 9)

_TYPE_LETTER = {ARMY: "A", FLEET: "F"}
_LETTER_TYPE = {"A": ARMY, "F": FLEET}


class DipccOrder(NamedTuple):
    """One order as dipcc's tuple (its sort order is dipcc's)."""

    unit_type: int
    unit_loc: int
    kind: int
    target_type: int = 0
    target_loc: int = 0
    dest: int = 0
    via: bool = False

    def __str__(self) -> str:
        return format_order(self)

    @property
    def unit(self) -> tuple[int, int]:
        return (self.unit_type, self.unit_loc)

    def with_via(self, via: bool) -> DipccOrder:
        return self._replace(via=via)


def pack_orders(orders: Iterable[DipccOrder]) -> bytes:
    """Orders as the engine's encoders read them (``rust/src/engine/dipcc_encode.rs``): each
    tuple's seven fields, a byte each."""
    return bytes(itertools.chain.from_iterable(orders))


def _unit_text(unit_type: int, loc: int) -> str:
    return f"{_TYPE_LETTER[unit_type]} {LOCS[loc - 1]}"


@lru_cache(maxsize=1 << 16)
def format_order(order: DipccOrder) -> str:
    """The order in dipcc's notation (``A PAR - BUR``, ``A LON - NWY VIA``, ``F STP/NC B``);
    the texts of the orders seen last are kept (an order is an immutable tuple)."""
    text = _unit_text(order.unit_type, order.unit_loc)
    kind = order.kind
    if kind == HOLD:
        return text + " H"
    if kind == BUILD:
        return text + " B"
    if kind == DISBAND:
        return text + " D"
    if kind == MOVE:
        return f"{text} - {LOCS[order.dest - 1]}" + (" VIA" if order.via else "")
    if kind == RETREAT:
        return f"{text} R {LOCS[order.dest - 1]}"
    target = _unit_text(order.target_type, order.target_loc)
    if kind == SUPPORT_HOLD:
        return f"{text} S {target}"
    letter = "S" if kind == SUPPORT_MOVE else "C"
    return f"{text} {letter} {target} - {LOCS[order.dest - 1]}"


class _Reader:
    """Reads dipcc's fixed order grammar left to right; any misstep is dipcc's ``ValueError``."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0

    def fail(self) -> ValueError:
        return ValueError(f"Can't parse order: {self.text}")

    def char(self) -> str:
        if self.i >= len(self.text):
            raise self.fail()
        c = self.text[self.i]
        self.i += 1
        return c

    def expect(self, c: str) -> None:
        if self.char() != c:
            raise self.fail()

    def unit_type(self) -> int:
        c = self.char()
        if c not in _LETTER_TYPE:
            raise self.fail()
        self.expect(" ")
        return _LETTER_TYPE[c]

    def loc(self) -> int:
        width = 6 if self.text[self.i + 3 : self.i + 4] == "/" else 3
        name = self.text[self.i : self.i + width]
        self.i += width
        code = LOC_INDEX.get(name)
        if code is None:
            raise ValueError(f"Bad loc_from_str: {name}")
        return code

    def done(self) -> bool:
        return self.i == len(self.text)


def parse_order(text: str) -> DipccOrder:
    """Read an order in dipcc's notation, exactly as dipcc reads it (``Order(const string&)``):
    upper-case abbreviations, single spaces; anything else raises ``ValueError`` with dipcc's
    message (``Can't parse order: ...`` or ``Bad loc_from_str: ...``)."""
    if not isinstance(text, str):
        raise TypeError(f"an order must be a str, got {type(text).__name__}")
    order = _PARSED.get(text)
    if order is None:
        order = _read_order(text)
        if len(_PARSED) > 1 << 16:
            _PARSED.clear()
        _PARSED[text] = order
    return order


#: The orders read last, by their text (an order is an immutable tuple; a text that is no
#: order is not kept, so it raises every time).
_PARSED: dict[str, DipccOrder] = {}


def _read_order(text: str) -> DipccOrder:
    r = _Reader(text)
    if len(text) < 7:
        raise r.fail()
    utype = r.unit_type()
    uloc = r.loc()
    r.expect(" ")
    letter = r.char()
    simple = {"H": HOLD, "B": BUILD, "D": DISBAND}
    if letter in simple:
        if not r.done():
            raise r.fail()
        return DipccOrder(utype, uloc, simple[letter])
    r.expect(" ")
    if letter in "-R":
        dest = r.loc()
        via = False
        if letter == "-" and not r.done():
            if text[r.i :] != " VIA":
                raise r.fail()
            via = True
        elif not r.done():
            raise r.fail()
        return DipccOrder(utype, uloc, MOVE if letter == "-" else RETREAT, dest=dest, via=via)
    ttype = r.unit_type()
    tloc = r.loc()
    if r.done():
        if letter != "S":
            raise r.fail()
        return DipccOrder(utype, uloc, SUPPORT_HOLD, ttype, tloc)
    for c in " - ":
        r.expect(c)
    dest = r.loc()
    if not r.done() or letter not in "SC":
        raise r.fail()
    kind = SUPPORT_MOVE if letter == "S" else CONVOY
    return DipccOrder(utype, uloc, kind, ttype, tloc, dest)


class Board(NamedTuple):
    """The standard board in dipcc's location codes, read from diplo's standard map."""

    #: root location of each code (index 0 unused)
    root: tuple[int, ...]
    #: every code of a province's locations (root first), by any of its codes
    coasts: tuple[tuple[int, ...], ...]
    water: frozenset[int]
    centers: frozenset[int]
    #: exact neighbours a unit moves to: by unit type, then location code
    adjacent: dict[int, tuple[tuple[int, ...], ...]]
    #: the neighbours with every coast of their provinces (where a unit supports or is seen)
    adjacent_all: dict[int, tuple[tuple[int, ...], ...]]
    homes: dict[str, tuple[int, ...]]
    army_builds: dict[str, tuple[int, ...]]
    fleet_builds: dict[str, tuple[int, ...]]


@lru_cache(maxsize=1)
def board() -> Board:
    """The standard board in dipcc's codes (made once)."""
    game_map = standard_map()
    n = len(LOCS) + 1
    root = [0] * n
    coasts: list[tuple[int, ...]] = [()] * n
    for loc, code in LOC_INDEX.items():
        province = game_map.province_of(loc)
        root[code] = LOC_INDEX[province]
    for code in range(1, n):
        coasts[code] = tuple(c for c in range(1, n) if root[c] == root[code])
    water = frozenset(LOC_INDEX[p] for p in game_map.provinces if game_map.is_sea(p))
    centers = frozenset(c for c in range(1, n) if LOCS[root[c] - 1] in game_map.centers)
    army: list[tuple[int, ...]] = [()] * n
    fleet: list[tuple[int, ...]] = [()] * n
    for loc, code in LOC_INDEX.items():
        province = game_map.province_of(loc)
        if loc == province and not game_map.is_sea(province):
            army[code] = tuple(sorted(LOC_INDEX[p] for p in game_map.army_neighbours(province)))
        if loc != province or not game_map.coasts_of(province):
            if loc == province and not (game_map.is_sea(loc) or game_map.is_coastal(loc)):
                continue
            fleet[code] = tuple(sorted(LOC_INDEX[x] for x in game_map.fleet_neighbours(loc)))

    def widen(table: list[tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(sorted({c for a in near for c in coasts[a]})) for near in table)

    homes = {p: tuple(LOC_INDEX[h] for h in game_map.homes[p]) for p in POWERS}
    fleet_builds: dict[str, tuple[int, ...]] = {}
    for p in POWERS:
        sites: list[int] = []
        for h in game_map.homes[p]:
            if game_map.coasts_of(h):
                sites.extend(LOC_INDEX[c] for c in game_map.coasts_of(h))
            elif game_map.is_coastal(h):
                sites.append(LOC_INDEX[h])
        fleet_builds[p] = tuple(sites)
    return Board(
        root=tuple(root),
        coasts=tuple(coasts),
        water=water,
        centers=centers,
        adjacent={ARMY: tuple(army), FLEET: tuple(fleet)},
        adjacent_all={ARMY: widen(army), FLEET: widen(fleet)},
        homes=homes,
        army_builds=homes,
        fleet_builds=fleet_builds,
    )


def root(code: int) -> int:
    """The province of a location code (``BUL/EC`` to ``BUL``)."""
    return board().root[code]
