"""One phase as a bot sees it, and the per-map tables the drop-in reads orders with."""

from __future__ import annotations

from weakref import WeakKeyDictionary

from ...engine import mila as engine
from ...engine.codes import CodeState, decode_order, position_from_state
from ...model.map import Map
from ...model.orders import format_order
from ...model.position import Position
from ...model.rules import Rules
from .._map import shut_locations
from .names import mila_name

__all__ = ["Tables", "Turn", "tables_of"]


class Tables:
    """Location names and their provinces on one map, by location index."""

    def __init__(self, game_map: Map) -> None:
        index = game_map.location_index
        self.map = game_map
        self.locations: tuple[str, ...] = tuple(game_map.locations)
        self.province: list[int] = [index[game_map.province_of(loc)] for loc in self.locations]
        self.powers: tuple[str, ...] = tuple(game_map.powers)
        #: MILA's impassable locations (SWI), listed with no orders; and every listed location.
        self.shut: tuple[str, ...] = shut_locations(game_map)
        self.listed: tuple[str, ...] = self.locations + self.shut
        #: By location index: an army's and a fleet's text there (``"A PAR"``, ``"F STP/SC"``)
        #: and the province's name (state dictionaries are made of them).
        self.unit_texts: tuple[tuple[str, ...], tuple[str, ...]] = (
            tuple(f"A {loc}" for loc in self.locations),
            tuple(f"F {loc}" for loc in self.locations),
        )
        self.province_names: tuple[str, ...] = tuple(loc.split("/", 1)[0] for loc in self.locations)


_TABLES: WeakKeyDictionary[Map, Tables] = WeakKeyDictionary()


def tables_of(game_map: Map) -> Tables:
    tables = _TABLES.get(game_map)
    if tables is None:
        tables = _TABLES[game_map] = Tables(game_map)
    return tables


class Turn:
    """The current phase as a bot sees it: possible orders in MILA's text, and back to codes.

    The texts come from the engine (:func:`diplo.engine.mila.turn`: sorted, MILA's forms only),
    which makes them as :func:`diplo.model.orders.format_order` writes the decoded orders (held
    together by ``tests/test_compat_mila.py``). A bot's order is read with ``lookup`` (the map's
    ``{text: (text, code, slot, text id)}``) and ``check`` (per slot, the power ordering there
    and the ids of the texts listed there): one dict lookup and a look at the slot. Everything
    else (the raw state, each power's ``{text: code}``, the legal codes, the position) is made
    when first asked for."""

    def __init__(
        self, core: engine.EngineGame, game_map: Map, tables: Tables, rules: Rules | None
    ) -> None:
        self.rules = rules
        self._position: Position | None = None
        phase = core.phase
        self.kind: str = phase[-1]
        self.name = mila_name(phase)  # MILA's name: four-digit years (S0001M)
        self.tables = tables
        #: Every location -> its listed texts; power -> its keys; which texts each power may
        #: give (``MilaCheck``); the map's {text: (text, code, slot, text id)}; a copy of
        #: ``orderable`` for the first caller to have (``None`` once handed out).
        self.possible, self.orderable, self.check, self.lookup, spare = engine.turn(core)
        for loc in tables.shut:
            self.possible[loc] = []
        self.spare: dict[str, list[str]] | None = spare
        self._core = core
        self._state: CodeState | None = None
        self._codes: dict[str, dict[str, int]] | None = None
        self._legal: dict[str, set[int]] | None = None

    @property
    def core(self) -> engine.EngineGame:
        """The engine's game at this phase."""
        return self._core

    @core.setter
    def core(self, core: engine.EngineGame) -> None:
        self._core = core

    @property
    def state(self) -> CodeState:
        """The engine's raw state of this phase."""
        if self._state is None:
            self._state = engine.state_of(self._core)
        return self._state

    @property
    def codes(self) -> dict[str, dict[str, int]]:
        """Per power, ``{text: code}`` of its listed orders (the long way of reading orders)."""
        if self._codes is None:
            self._codes = engine.listed_codes(self._core)
        return self._codes

    @property
    def legal(self) -> dict[str, set[int]]:
        """Per power, every legal code (asked only for orders written otherwise than listed)."""
        if self._legal is None:
            self._legal = engine.legal_codes(self._core, list(self.orderable))
        return self._legal

    @property
    def position(self) -> Position:
        if self._position is None:
            self._position = position_from_state(self.tables.map, self.state, self.rules)
        return self._position

    def text(self, code: int) -> str:
        """The text of a legal code of this phase (as listed, or the plain form of a convoyed
        move beyond the army's neighbours)."""
        return format_order(decode_order(code, self.tables.map, self.position))
