"""A drop-in for the MILA engine's ``diplomacy.Game`` (PyPI ``diplomacy`` 1.1.2), ruled by diplo.

Most Python Diplomacy bots are written against MILA's ``Game``. This :class:`Game` offers the part
of that API they use, with MILA's order notation and state dictionaries, played on diplo's fast
path (:mod:`diplo.fast`), so that a bot can switch engines by changing one import::

    from diplo.compat.mila import Game          # was: from diplomacy import Game

    game = Game()
    while not game.is_game_done:
        possible = game.get_all_possible_orders()
        for power, locs in game.get_orderable_locations().items():
            game.set_orders(power, [sorted(possible[loc])[0] for loc in locs if possible[loc]])
        game.process()

Offered: :meth:`~Game.get_all_possible_orders`, :meth:`~Game.get_orderable_locations`,
:meth:`~Game.set_orders`, :meth:`~Game.get_orders`, :meth:`~Game.clear_orders`,
:meth:`~Game.process`, :meth:`~Game.get_current_phase`, :attr:`~Game.phase`,
:attr:`~Game.phase_type`, :attr:`~Game.is_game_done`, :meth:`~Game.get_state`,
:meth:`~Game.set_state`, :meth:`~Game.get_units`, :meth:`~Game.get_centers`,
:attr:`~Game.powers` (``name``, ``units``, ``centers``, ``homes``, ``retreats``,
``is_eliminated()``), :meth:`~Game.get_power`, :attr:`~Game.order_history`,
:attr:`~Game.result_history`, :attr:`~Game.map_name`, :attr:`~Game.game_id`, :attr:`~Game.rules`,
:attr:`~Game.outcome`, and MILA's saved-game format through :func:`to_saved_game_format` and
:func:`from_saved_game_format` (the names of ``diplomacy.utils.export``).

Where it differs from MILA (``docs/mila-compat.md`` has the full list):

* Rulings follow the DATC v3.0, not MILA: the departures named in ``tests/test_mila.py`` (convoy
  intent without a complete route, waives counted among builds, own support of a convoyed
  attack, support of a move to the wrong coast, ...) give other boards than MILA would.
* Possible orders are diplo's legal orders (:func:`diplo.legal.legal_orders`) in MILA's notation
  and keying: every map location is a key; a unit's orders are listed under its province and,
  for a fleet on a split coast, under its coast too; lists are sorted. A convoyed move beyond the
  army's neighbours is listed with ``VIA`` only, as MILA lists it (the plain form is accepted).
* :meth:`Game.set_orders` keeps only orders that are legal for a unit of the ordering power,
  in any spelling diplo reads; the others are dropped and described in :attr:`Game.error` (MILA
  drops them too, after its own checks).
* Result labels are plain strings (MILA's are ``StringableCode`` objects whose ``str`` is the
  label), worked out when :attr:`Game.result_history` is read, by the reference engine.
* No messages, press, deadlines, controllers, rule flags or cancelled phases; ``rules`` is kept
  only to be saved. ``SWI`` (impassable) is not a key of the possible orders.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final
from weakref import WeakKeyDictionary

from .. import _core
from ..api.game import PhaseRecord
from ..api.phase import process_phase
from ..engine.codes import (
    WAIVE,
    FastGame,
    FastState,
    decode_order,
    encode_order,
    kind_of,
    location_of,
    position_from_state,
)
from ..formats.mila import (
    COMPLETED,
    MilaError,
    game_from_mila,
    mila_results,
    phase_to_mila,
    position_from_mila,
    position_to_mila,
)
from ..model.limits import show
from ..model.map import Map, MapError, map_named
from ..model.orders import OrderParseError, format_order, parse_order
from ..model.position import Position

__all__ = [
    "Game",
    "MilaError",
    "Power",
    "from_saved_game_format",
    "to_saved_game_format",
]

_SEASONS: Final = {"S": "SPRING", "F": "FALL", "W": "WINTER"}
_KINDS: Final = {"M": "MOVEMENT", "R": "RETREATS", "A": "ADJUSTMENTS"}


# --------------------------------------------------------------------------- per-map tables


class _Tables:
    """Location names and their provinces on one map, by location index."""

    def __init__(self, game_map: Map) -> None:
        index = game_map.location_index
        self.map = game_map
        self.locations: tuple[str, ...] = tuple(game_map.locations)
        self.province: list[int] = [index[game_map.province_of(loc)] for loc in self.locations]


_TABLES: WeakKeyDictionary[Map, _Tables] = WeakKeyDictionary()


def _tables(game_map: Map) -> _Tables:
    tables = _TABLES.get(game_map)
    if tables is None:
        tables = _TABLES[game_map] = _Tables(game_map)
    return tables


# --------------------------------------------------------------------------- one phase


class _Turn:
    """The current phase as a bot sees it: possible orders in MILA's text, and back to codes.

    The texts come from the core (``_core.mila_turn``: sorted, MILA's forms only), which makes
    them as :func:`diplo.orders.format_order` writes the decoded orders (held together by
    ``tests/test_compat_mila.py``)."""

    def __init__(self, core: _core.FastGame, game_map: Map, tables: _Tables) -> None:
        self.state: FastState = core.state()
        year, season, kind, _units, _centers, _dislodged = self.state
        self.kind: str = kind
        self.name = f"{season}{year:04d}{kind}"  # MILA's name: four-digit years (S0001M)
        self.tables = tables
        #: Every location -> its listed texts; power -> its keys; power -> {listed text: code}.
        self.possible, self.orderable, self.codes = _core.mila_turn(core)
        self._core = core
        self._legal: dict[str, set[int]] | None = None

    @property
    def legal(self) -> dict[str, set[int]]:
        """Per power, every legal code (asked only for orders written otherwise than listed)."""
        if self._legal is None:
            legal: dict[str, set[int]] = {p: set() for p in self.orderable}
            slots = zip(self._core.slots(), self._core.legal_orders(), strict=True)
            for (power, _key), codes in slots:
                legal[power].update(codes)
            self._legal = legal
        return self._legal

    def text(self, code: int) -> str:
        """The text of a legal code of this phase (as listed, or the plain form of a convoyed
        move beyond the army's neighbours)."""
        game_map = self.tables.map
        position = position_from_state(game_map, self.state)
        return format_order(decode_order(code, game_map, position))


# --------------------------------------------------------------------------- the game


@dataclass(frozen=True)
class _Record:
    """A processed phase: its raw state and the orders kept, per power."""

    name: str
    state: FastState
    orders: dict[str, list[str]]


class Power:
    """A power as MILA's ``Game.powers`` shows it (a snapshot of the current phase)."""

    def __init__(self, game: Game, name: str, state: Mapping[str, Any] | None = None) -> None:
        self.name = name
        state = game.get_state() if state is None else state
        self.units: list[str] = [u for u in state["units"][name] if not u.startswith("*")]
        self.centers: list[str] = list(state["centers"][name])
        self.homes: list[str] = list(state["homes"][name])
        self.retreats: dict[str, list[str]] = dict(state["retreats"][name])
        self.orders: list[str] = game.get_orders(name)

    def is_eliminated(self) -> bool:
        """No unit, no centre and nothing to retreat: out of the game (as MILA says)."""
        return not (self.units or self.centers or self.retreats)

    def __repr__(self) -> str:
        return f"Power({self.name!r}, units={self.units}, centers={self.centers})"


class Game:
    """A game on MILA's API, ruled by diplo (see the module documentation).

    ``map_name`` names a shipped map (``"standard"``, or a variant such as ``"pure"`` or
    ``"ancmed"``, as :func:`diplo.map.map_named` reads it; an unknown name raises
    :class:`MilaError`); ``game_id`` and ``rules`` are kept for the saved game.
    """

    def __init__(
        self,
        map_name: str = "standard",
        game_id: str | None = None,
        rules: Iterable[str] | None = None,
    ) -> None:
        try:
            game_map = map_named(map_name)
        except MapError as exc:
            raise MilaError(str(exc)) from None
        self.map_name: str = game_map.name
        self.game_id: str = game_id if game_id is not None else f"diplo-{time.time_ns():x}"
        self.rules: list[str] = list(rules) if rules is not None else ["NO_PRESS"]
        #: Why orders given to :meth:`set_orders` were dropped (MILA's ``Game.error``).
        self.error: list[str] = []
        #: Phase name -> {power: orders kept} for every processed phase (MILA's attribute).
        self.order_history: dict[str, dict[str, list[str]]] = {}
        self.note: str = ""
        self._map = game_map
        self._tables = _tables(game_map)
        self._records: list[_Record] = []
        self._results: dict[str, dict[str, list[str]]] = {}
        self._start(Position.initial(game_map))

    def _start(self, position: Position) -> None:
        self._done = False  # kept with the core's: asked for on every call
        self._core: _core.FastGame = FastGame(position)._core
        self._orders: dict[str, dict[int, tuple[str, int]]] = {}
        self._turn_cache: _Turn | None = None

    @property
    def _turn(self) -> _Turn:
        turn = self._turn_cache
        if turn is None:
            turn = self._turn_cache = _Turn(self._core, self._map, self._tables)
        return turn

    # ------------------------------------------------------------------ phases

    @property
    def is_game_done(self) -> bool:
        """Whether the game has ended (a power with 18 centres, or a draw loaded from a save)."""
        return self._done

    def get_current_phase(self) -> str:
        """The current phase as MILA names it (``"S1901M"``, ``"S0001M"`` on ancmed), or
        ``"COMPLETED"`` once the game is done."""
        return COMPLETED if self.is_game_done else self._turn.name

    @property
    def current_short_phase(self) -> str:
        return self.get_current_phase()

    @property
    def phase(self) -> str:
        """The phase in words as MILA writes it: ``"SPRING 1901 MOVEMENT"``, ``"COMPLETED"``."""
        if self.is_game_done:
            return COMPLETED
        name = self._turn.name
        return f"{_SEASONS[name[0]]} {name[1:-1]} {_KINDS[name[-1]]}"

    @property
    def phase_type(self) -> str:
        """``"M"``, ``"R"`` or ``"A"``; ``"-"`` once the game is done."""
        return "-" if self.is_game_done else self._core.phase[-1]

    @property
    def outcome(self) -> list[str]:
        """``[]`` while playing; then the last phase and the winners (MILA's ``Game.outcome``)."""
        if not self.is_game_done:
            return []
        last = self._records[-1].name if self._records else self._turn.name
        winner = self._core.winner
        return [last, winner] if winner is not None else [last, *self._survivors()]

    def _survivors(self) -> list[str]:
        centers = self.get_centers()
        return [p for p in self._map.powers if centers[p]]

    # ------------------------------------------------------------------ the board

    def _position(self) -> Position:
        return position_from_state(self._map, self._turn.state)

    def get_state(self) -> dict[str, Any]:
        """The current phase's state dictionary, as MILA's ``Game.get_state()`` gives it."""
        note = self.note
        if self.is_game_done and not note:
            note = "Victory by: " + ", ".join(p[:3] for p in self.outcome[1:])
        state = position_to_mila(self._position(), name=self.get_current_phase(), note=note)
        state["timestamp"] = time.time_ns() // 1000
        return state

    def set_state(self, state: Mapping[str, Any], clear_history: bool = False) -> None:
        """Put the game at the phase state ``state`` (``get_state()``'s form; its ``name`` is the
        phase). Pending orders are dropped; the history is kept unless ``clear_history``.
        Raises :class:`MilaError` for a state that cannot be read."""
        position = position_from_mila(state, game_map=self._map)
        self._start(position)
        self.note = str(state.get("note") or "")
        if clear_history:
            self._records.clear()
            self._results.clear()
            self.order_history.clear()

    def get_units(self, power_name: str | None = None) -> Any:
        """The units of a power (all powers: a dict), ``"*A GAL"`` for one dislodged."""
        units: dict[str, list[str]] = self.get_state()["units"]
        return units if power_name is None else units[self._power(power_name)]

    def get_centers(self, power_name: str | None = None) -> Any:
        """The supply centres a power owns (all powers: a dict)."""
        centers: dict[str, list[str]] = self.get_state()["centers"]
        return centers if power_name is None else centers[self._power(power_name)]

    @property
    def powers(self) -> dict[str, Power]:
        """Every power by name (snapshots of the current phase)."""
        state = self.get_state()
        return {name: Power(self, name, state) for name in self._map.powers}

    def get_power(self, power_name: str) -> Power:
        return Power(self, self._power(power_name))

    def _power(self, power_name: str) -> str:
        name = str(power_name).upper()
        if name not in self._map.powers:
            raise MilaError(
                f"unknown power {power_name!r} (the powers are {', '.join(self._map.powers)})"
            )
        return name

    # ------------------------------------------------------------------ orders

    def get_all_possible_orders(self) -> dict[str, list[str]]:
        """Every map location -> the possible orders of the unit (or build site) there, sorted,
        in MILA's notation; ``[]`` where nothing can be ordered. A new dict each call; its lists
        are made afresh each phase and shared by the calls of one phase (do not change them)."""
        if self.is_game_done:
            return {loc: [] for loc in self._tables.locations}
        return dict(self._turn.possible)

    def get_orderable_locations(self, power_name: str | None = None) -> Any:
        """The provinces a power can order in this phase (all powers: a dict): its units, its
        dislodged units, its free home centres when it may build, its units when it must
        disband."""
        if self.is_game_done:
            locs: dict[str, list[str]] = {p: [] for p in self._map.powers}
        else:
            locs = {p: list(v) for p, v in self._turn.orderable.items()}
        return locs if power_name is None else locs[self._power(power_name)]

    def set_orders(
        self,
        power_name: str,
        orders: str | Sequence[str],
        expand: bool = True,
        replace: bool = True,
    ) -> None:
        """Give ``power_name``'s orders for this phase (one order or a list), in MILA's notation
        (any case and spacing diplo reads). With ``replace`` (the default) they replace the
        power's earlier orders; else they are added, a later order for a unit replacing the
        earlier one. An order that is not legal for one of the power's units is dropped and
        described in :attr:`error`. ``expand`` is accepted for MILA's signature."""
        del expand
        power = self._power(power_name)
        if not isinstance(orders, str):
            try:
                orders = list(orders)
            except TypeError:
                raise MilaError(
                    f"{power}: orders are an order string or a list of them, got {show(orders)}"
                ) from None
        if self.is_game_done:
            self.error.append(f"{power}: the game is done, orders are not taken")
            return
        turn = self._turn
        codes = turn.codes[power]
        province = self._tables.province
        kept = {} if replace else dict(self._orders.get(power, {}))
        for order in [orders] if isinstance(orders, str) else orders:
            text = str(order)
            code = codes.get(text)
            if code is None:
                code = self._read(power, text, turn)
                if code is None:
                    continue
                text = turn.text(code)
            # What the order is for: its unit's (or build site's) province; each waive its own.
            slot = -1 - len(kept) if kind_of(code) == WAIVE else province[location_of(code)]
            kept[slot] = (text, code)
        self._orders[power] = kept

    def _read(self, power: str, text: str, turn: _Turn) -> int | None:
        """The code of an order written otherwise than listed, or ``None`` (noted in ``error``)."""
        cleaned = " ".join(text.upper().split())
        try:
            code = encode_order(parse_order(cleaned, self._map), self._map, power)
        except (OrderParseError, ValueError) as exc:
            self.error.append(f"{power}: {text!r} dropped: {exc}")
            return None
        if code not in turn.legal[power]:
            self.error.append(f"{power}: {text!r} dropped: not a legal order of {power} here")
            return None
        return code

    def get_orders(self, power_name: str | None = None) -> Any:
        """The orders kept so far for this phase, of a power (all powers: a dict)."""
        out = {p: [t for t, _ in self._orders.get(p, {}).values()] for p in self._map.powers}
        return out if power_name is None else out[self._power(power_name)]

    def clear_orders(self, power_name: str | None = None) -> None:
        if power_name is None:
            self._orders.clear()
        else:
            self._orders.pop(self._power(power_name), None)

    # ------------------------------------------------------------------ processing

    def process(self) -> None:
        """Rule on the phase with the orders given (units without one hold, dislodged units
        without one are disbanded, unused builds are waived, missing disbands are made by the
        civil-disorder rule) and move on to the next phase with something to decide. Does
        nothing once the game is done."""
        if self.is_game_done:
            return
        turn = self._turn
        powers = self._map.powers
        codes: list[int] = []
        kept: dict[str, list[str]] = {}
        for power in powers:
            given = self._orders.get(power, {})
            kept[power] = [text for text, _ in given.values()]
            codes.extend([code for _, code in given.values()])
        self._core.set_orders(codes)
        self._core.process()
        self._done = self._core.is_over
        self._records.append(_Record(turn.name, turn.state, kept))
        self.order_history[turn.name] = kept
        self._orders = {}
        self._turn_cache = None

    @property
    def result_history(self) -> dict[str, dict[str, list[str]]]:
        """Phase name -> {unit: MILA's result labels} for every processed phase: ``[]`` for a
        move or support that worked, ``bounce``, ``cut``, ``no convoy``, ``void``,
        ``dislodged``; ``disband`` in retreats; ``''`` / ``void`` for adjustments."""
        for record in self._records:
            if record.name not in self._results:
                self._results[record.name] = mila_results(self._record(record))
        return {r.name: self._results[r.name] for r in self._records}

    def _record(self, record: _Record) -> PhaseRecord:
        """The processed phase ruled again by the reference engine, with its full outcome."""
        position = position_from_state(self._map, record.state)
        orders = {p: tuple(texts) for p, texts in record.orders.items() if texts}
        outcome = process_phase(position, {p: list(t) for p, t in orders.items()})
        return PhaseRecord(position, orders, outcome)

    def __repr__(self) -> str:
        return f"<diplo.compat.mila.Game {self.game_id} {self.get_current_phase()}>"


# --------------------------------------------------------------------------- saved games


def to_saved_game_format(game: Game) -> dict[str, Any]:
    """``game`` as a MILA saved game (``diplomacy.utils.export.to_saved_game_format``): one entry
    per processed phase (state, orders, results), then the current phase with no orders yet, or
    ``COMPLETED`` with the final board."""
    phases = [phase_to_mila(game._record(record)) for record in game._records]
    pending = game.get_orders()
    phases.append(
        {
            "name": game.get_current_phase(),
            "state": game.get_state(),
            "orders": {p: (pending[p] or None) for p in pending}
            if not game.is_game_done
            else dict.fromkeys(pending),
            "results": {},
            "messages": [],
        }
    )
    for phase in phases:
        phase["state"].pop("timestamp", None)
    return {"id": game.game_id, "map": game.map_name, "rules": list(game.rules), "phases": phases}


def from_saved_game_format(data: Mapping[str, Any], strict: bool = True) -> Game:
    """A :class:`Game` from a MILA saved game (``diplomacy.utils.export.from_saved_game_format``),
    its orders replayed by diplo. Where diplo rules a phase otherwise than the save says, ``strict``
    raises :class:`MilaError` naming the phase; ``strict=False`` keeps diplo's rulings and stops
    where the save's later orders no longer apply (see :func:`diplo.mila.game_from_mila`)."""
    replayed = game_from_mila(data, strict=strict)
    game = Game(str(data.get("map", "standard")), str(data.get("id") or "") or None)
    game.rules = list(data.get("rules") or game.rules)
    game.set_state(position_to_mila(replayed.initial_position), clear_history=True)
    for record in replayed.history:
        for power, texts in record.orders.items():
            game.set_orders(power, list(texts))
        game.process()
    if replayed.is_over and not game.is_game_done:
        game._done = True  # a draw agreed in the saved game
    for power, items in replayed.orders.items():
        game.set_orders(power, [str(i) for i in items])
    return game
