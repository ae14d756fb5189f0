"""A drop-in for the MILA engine's ``diplomacy.Game`` (PyPI ``diplomacy`` 1.1.2), ruled by diplo.

Most Python Diplomacy bots, analysis tools and agent harnesses are written against MILA's
``Game``. This module offers that API, with MILA's order notation, state dictionaries, press,
histories, map queries and saved games, played on diplo's code API (:mod:`diplo.fast`), so that
such code switches engines by changing its imports::

    from diplo.compat.mila import Game, Message, GLOBAL, Map   # was: from diplomacy import ...

    game = Game()
    while not game.is_game_done:
        possible = game.get_all_possible_orders()
        for power, locs in game.get_orderable_locations().items():
            game.set_orders(power, [sorted(possible[loc])[0] for loc in locs if possible[loc]])
        game.process()

``docs/mila-compat.md`` lists what is offered and where it differs from MILA. In short:

* Rulings follow the DATC v3.0 unless the game is made with a MILA ruling mode (``ruling=``, a
  :class:`diplo.rules.Rules`); the seven places where MILA departs from the DATC are named in
  ``docs/mila-compat.md`` and in ``tests/test_compat_mila_suite.py``.
* Power objects (``game.powers``, ``game.get_power``) are MILA's live objects: edits of their
  ``units``, ``centers``, ``retreats`` and ``orders`` change the game, as in MILA. The board is
  kept in the engine's codes; MILA's lists are made when first asked for in a phase.
* Possible orders are diplo's legal orders in MILA's text; result labels are plain strings (MILA's
  ``StringableCode`` objects compare equal to them).
* Games copy (``copy.deepcopy``) and pickle, which MILA's cannot.
"""

from __future__ import annotations

import copy as _copy
import hashlib
import json
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final
from weakref import WeakKeyDictionary

from .. import _core
from ..api.game import PhaseRecord
from ..api.phase import process_phase
from ..engine.codes import (
    _KIND,
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
    position_from_mila,
    position_to_mila,
)
from ..model.map import Map as _DiploMap
from ..model.map import MapError
from ..model.orders import OrderParseError, format_order, parse_order
from ..model.position import Phase, Position
from ..model.results import Result
from ..model.rules import Rules
from ..reference.validation import validate_order
from ._map import Map, mila_map_for
from ._press import GLOBAL, OBSERVER, OMNISCIENT, SYSTEM, Clock, GamePhaseData, History, Message

__all__ = [
    "GLOBAL",
    "OBSERVER",
    "OMNISCIENT",
    "SYSTEM",
    "Game",
    "GamePhaseData",
    "GamePhaseException",
    "History",
    "Map",
    "MapPowerException",
    "Message",
    "MilaError",
    "Power",
    "from_saved_game_format",
    "is_valid_saved_game",
    "load_saved_games_from_disk",
    "save_game",
    "to_saved_game_format",
]

_SEASONS: Final = {"S": "SPRING", "F": "FALL", "W": "WINTER"}
_KINDS: Final = {"M": "MOVEMENT", "R": "RETREATS", "A": "ADJUSTMENTS"}
_LONG_SEASONS: Final = {v: k for k, v in _SEASONS.items()}
_LONG_KINDS: Final = {v: k for k, v in _KINDS.items()}
#: MILA's rules of a new local game.
DEFAULT_RULES: Final = (
    "NO_DEADLINE",
    "CD_DUMMIES",
    "ALWAYS_WAIT",
    "SOLITAIRE",
    "NO_PRESS",
    "IGNORE_ERRORS",
    "POWER_CHOICE",
)
#: ``game.error`` keeps at most this many entries (the latest).
ERROR_LIMIT: Final = 100
#: The years after which a game still going is drawn (MILA: 100 years from the first).
DRAW_AFTER_YEARS: Final = 100
_STATE_KEYS: Final = (
    "name",
    "units",
    "retreats",
    "centers",
    "homes",
    "influence",
    "civil_disorder",
    "builds",
    "note",
)


class GamePhaseException(MilaError):
    """A message or phase data for another phase than the game's (MILA's exception name)."""


class MapPowerException(MilaError):
    """A power the map does not have (MILA's exception name)."""


# --------------------------------------------------------------------------- per-map tables


class _Tables:
    """Location names and their provinces on one map, by location index."""

    def __init__(self, game_map: _DiploMap) -> None:
        index = game_map.location_index
        self.map = game_map
        self.locations: tuple[str, ...] = tuple(game_map.locations)
        self.province: list[int] = [index[game_map.province_of(loc)] for loc in self.locations]
        self.powers: tuple[str, ...] = tuple(game_map.powers)


_TABLES: WeakKeyDictionary[_DiploMap, _Tables] = WeakKeyDictionary()


def _tables(game_map: _DiploMap) -> _Tables:
    tables = _TABLES.get(game_map)
    if tables is None:
        tables = _TABLES[game_map] = _Tables(game_map)
    return tables


# --------------------------------------------------------------------------- one phase


class _Turn:
    """The current phase as a bot sees it: possible orders in MILA's text, and back to codes.

    The texts come from the core (``_core.mila_turn``: sorted, MILA's forms only), which makes
    them as :func:`diplo.orders.format_order` writes the decoded orders (held together by
    ``tests/test_compat_mila.py``). A bot's order is read with ``lookup`` (the map's
    ``{text: (text, code, slot, text id)}``) and ``check`` (per slot, the power ordering there
    and the ids of the texts listed there): one dict lookup and a look at the slot. Everything
    else (the raw state, each power's ``{text: code}``, the legal codes, the position) is made
    when first asked for."""

    def __init__(
        self, core: _core.FastGame, game_map: _DiploMap, tables: _Tables, rules: Rules | None
    ) -> None:
        self.rules = rules
        self._position: Position | None = None
        phase = core.phase
        self.kind: str = phase[-1]
        self.name = _mila_name(phase)  # MILA's name: four-digit years (S0001M)
        self.tables = tables
        #: Every location -> its listed texts; power -> its keys; which texts each power may
        #: give (``_core.MilaCheck``); the map's {text: (text, code, slot, text id)}; a copy
        #: of ``orderable`` for the first caller to have (``None`` once handed out).
        made = _core.mila_turn(core)
        self.possible, self.orderable, self.check, self.lookup, spare = made
        self.spare: dict[str, list[str]] | None = spare
        self._core = core
        self._state: FastState | None = None
        self._codes: dict[str, dict[str, int]] | None = None
        self._legal: dict[str, set[int]] | None = None

    @property
    def state(self) -> FastState:
        """The engine's raw state of this phase."""
        if self._state is None:
            self._state = self._core.state()
        return self._state

    @property
    def codes(self) -> dict[str, dict[str, int]]:
        """Per power, ``{text: code}`` of its listed orders (the long way of reading orders)."""
        if self._codes is None:
            self._codes = _core.mila_codes(self._core)
        return self._codes

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

    @property
    def position(self) -> Position:
        if self._position is None:
            self._position = position_from_state(self.tables.map, self.state, self.rules)
        return self._position

    def text(self, code: int) -> str:
        """The text of a legal code of this phase (as listed, or the plain form of a convoyed
        move beyond the army's neighbours)."""
        return format_order(decode_order(code, self.tables.map, self.position))


# --------------------------------------------------------------------------- records


class _Record:
    """A processed phase: its raw state (``None`` for a phase read from a save without replay),
    the orders kept per power, its messages, and what is worked out (or was given) later.

    The raw state may be given as a copy of the engine at that phase (a ``_core.FastGame``,
    which costs less to keep than to read), and the orders as the game kept them (``pending``:
    power -> slot -> entry, the text first, and the map's powers): each is read when first
    asked for."""

    __slots__ = (
        "_orders",
        "_state",
        "dislodged",
        "extra",
        "messages",
        "name",
        "pending",
        "results",
        "state_doc",
        "voids",
    )

    def __init__(
        self,
        name: str,
        state: FastState | _core.FastGame | None,
        orders: dict[str, list[str]] | None,
        messages: History[int, Message] | None = None,
        results: dict[str, list[str]] | None = None,
        state_doc: dict[str, Any] | None = None,
        extra: dict[str, Any] | None = None,
        voids: list[tuple[str, str]] | None = None,
    ) -> None:
        self.name = name
        #: Units of adjustment orders kept but void (MILA labels them ``void``).
        self.voids: list[tuple[str, str]] = voids or []
        #: Dislodged unit -> the province its attacker came from (worked out with the results).
        self.dislodged: dict[str, str] | None = None
        self._state = state
        self._orders = orders
        self.pending: tuple[dict[str, dict[int, tuple[Any, ...]]], tuple[str, ...]] | None = None
        self.messages: History[int, Message] = messages if messages is not None else History()
        self.results = results
        self.state_doc = state_doc
        self.extra: dict[str, Any] = extra or {}

    @property
    def orders(self) -> dict[str, list[str]]:
        """Power -> the orders kept (the map's powers in order, ``[]`` for none)."""
        orders = self._orders
        if orders is None:
            assert self.pending is not None
            given, powers = self.pending
            orders = self._orders = {
                p: [e[0] for e in given[p].values()] if p in given else [] for p in powers
            }
            self.pending = None
        return orders

    @property
    def state(self) -> FastState | None:
        """The engine's raw state of the phase (``None``: a phase read from a save)."""
        raw = self._state
        if raw is None or isinstance(raw, tuple):
            return raw
        state = self._state = raw.state()
        return state

    def copy(self) -> _Record:
        return _Record(
            self.name,
            self._state,  # a copy of the engine is never changed: shared
            {p: list(o) for p, o in self.orders.items()},
            History({t: m.copy() for t, m in self.messages.items()}),
            None if self.results is None else {u: list(r) for u, r in self.results.items()},
            None if self.state_doc is None else _copy.deepcopy(self.state_doc),
            _copy.deepcopy(self.extra) if self.extra else None,
            list(self.voids),
        )

    def __getstate__(self) -> tuple[Any, ...]:
        self.state  # noqa: B018 (read: a copy of the engine does not pickle)
        self.orders  # noqa: B018
        return tuple(getattr(self, name) for name in self.__slots__)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        for name, value in zip(self.__slots__, state, strict=True):
            setattr(self, name, value)


# --------------------------------------------------------------------------- powers


class Power:
    """A power as MILA's ``Game.powers`` holds it: ``name``, ``units`` (``"A PAR"``),
    ``centers``, ``homes``, ``retreats`` (dislodged unit -> options), ``influence``, ``orders``
    (unit -> order, movement phases), ``adjust`` (orders of retreat and adjustment phases).

    The object lives as long as its game (``game.get_power("FRANCE") is game.powers["FRANCE"]``)
    and its lists are the game's: changing them changes the board or the orders, as in MILA. They
    are made from the engine's state when first read in a phase."""

    def __init__(self, game: Game, name: str) -> None:
        self.game = game
        self.name = name
        self.role = name
        self.controller = History[int, str]({0: "dummy"})
        self.vote = "neutral"
        self.civil_disorder = 0
        self._at = -1  # the board version the lists were made at
        self._units: list[str] = []
        self._centers: list[str] = []
        self._homes: list[str] = []
        self._retreats: dict[str, list[str]] = {}
        self._influence: list[str] = []
        self._snap: tuple[Any, ...] = ()
        self._orders_view: dict[str, str] | None = None
        self._orders_snap: dict[str, str] = {}
        self._adjust_view: list[str] | None = None
        self._adjust_snap: list[str] = []

    # --------------------------------------------------------------- the board, made lazily

    def _load(self) -> None:
        game = self.game
        if self._at == game._version:
            return
        doc = game._engine_doc()
        name = self.name
        self._units = [u for u in doc["units"][name] if not u.startswith("*")]
        self._retreats = {u: list(o) for u, o in doc["retreats"][name].items()}
        self._centers = list(doc["centers"][name])
        self._homes = list(doc["homes"][name])
        self._influence = list(doc["influence"][name])
        self._stamp()

    def _stamp(self) -> None:
        self._at = self.game._version
        self._snap = self._key()
        self.game._loaded.add(self.name)

    def _key(self) -> tuple[Any, ...]:
        return (
            tuple(self._units),
            tuple((u, tuple(o)) for u, o in self._retreats.items()),
            tuple(self._centers),
            tuple(self._homes),
        )

    def _changed(self) -> bool:
        return self._at == self.game._version and self._key() != self._snap

    @property
    def units(self) -> list[str]:
        self._load()
        return self._units

    @units.setter
    def units(self, value: Iterable[str]) -> None:
        self._load()
        self._units = list(value)

    @property
    def centers(self) -> list[str]:
        self._load()
        return self._centers

    @centers.setter
    def centers(self, value: Iterable[str]) -> None:
        self._load()
        self._centers = list(value)

    @property
    def homes(self) -> list[str]:
        self._load()
        return self._homes

    @homes.setter
    def homes(self, value: Iterable[str]) -> None:
        self._load()
        self._homes = list(value)

    @property
    def retreats(self) -> dict[str, list[str]]:
        self._load()
        return self._retreats

    @retreats.setter
    def retreats(self, value: Mapping[str, Iterable[str]]) -> None:
        self._load()
        self._retreats = {str(u): list(o) for u, o in dict(value).items()}

    @property
    def influence(self) -> list[str]:
        self._load()
        return self._influence

    @influence.setter
    def influence(self, value: Iterable[str]) -> None:
        self._load()
        self._influence = list(value)

    # --------------------------------------------------------------- orders, as MILA keys them

    @property
    def orders(self) -> dict[str, str]:
        """Movement: unit -> order after the unit (``{"A PAR": "- BUR"}``); with ``NO_CHECK``,
        ``"ORDER n"`` -> the order as given. Edits change the game's orders."""
        if self._orders_view is None:
            self._orders_view = self.game._orders_dict(self.name)
            self._orders_snap = dict(self._orders_view)
            self.game._orders_loaded.add(self.name)
        return self._orders_view

    @orders.setter
    def orders(self, value: Mapping[str, str]) -> None:
        self.orders  # noqa: B018 (made, so that the change is seen against it)
        self._orders_view = dict(value)

    @property
    def adjust(self) -> list[str]:
        """Orders of a retreat or adjustment phase (``["A PAR R BUR"]``, ``["A PAR B"]``)."""
        if self._adjust_view is None:
            self._adjust_view = self.game._adjust_list(self.name)
            self._adjust_snap = list(self._adjust_view)
            self.game._orders_loaded.add(self.name)
        return self._adjust_view

    @adjust.setter
    def adjust(self, value: Iterable[str]) -> None:
        self.adjust  # noqa: B018
        self._adjust_view = list(value)

    def _orders_edited(self) -> list[str] | None:
        """The orders as edited through :attr:`orders` / :attr:`adjust`, or ``None``."""
        if self._orders_view is not None and self._orders_view != self._orders_snap:
            if "NO_CHECK" in self.game.rules:
                return [v for v in self._orders_view.values() if v]
            return [f"{u} {o}" for u, o in self._orders_view.items()]
        if self._adjust_view is not None and self._adjust_view != self._adjust_snap:
            return list(self._adjust_view)
        return None

    def _forget_orders(self) -> None:
        self._orders_view = None
        self._adjust_view = None

    # --------------------------------------------------------------- MILA's methods

    def clear_units(self) -> None:
        self._load()
        self._units = []
        self._retreats = {}
        self._influence = []

    def clear_centers(self) -> None:
        self._load()
        self._centers = []

    def clear_orders(self) -> None:
        self.game.clear_orders(self.name)

    def is_eliminated(self) -> bool:
        """No unit, no centre and nothing to retreat: out of the game (as MILA says)."""
        return not (self.units or self.centers or self.retreats)

    def moves_submitted(self) -> bool:
        return (
            self.game.phase_type != "M" or bool(self.game.get_orders(self.name)) or not self.units
        )

    def is_dummy(self) -> bool:
        return True

    def __deepcopy__(self, memo: dict[int, Any]) -> Power:
        game = memo.get(id(self.game))
        if game is None:
            game = _copy.deepcopy(self.game, memo)
        return game._powers[self.name]

    def __reduce__(self) -> tuple[Any, ...]:
        return (_power_of, (self.game, self.name))

    def __repr__(self) -> str:
        return f"Power({self.name!r}, units={self.units}, centers={self.centers})"


def _power_of(game: Game, name: str) -> Power:
    return game._powers[name]


# --------------------------------------------------------------------------- the game


class Game:
    """A game on MILA's API, ruled by diplo (see the module documentation).

    ``map_name`` names a shipped map (``"standard"``, or a variant such as ``"pure"`` or
    ``"ancmed"``, as :func:`diplo.map.map_named` reads it, or MILA's name of it; an unknown name
    raises :class:`MilaError`); ``game_id``, ``rules`` (MILA's rule names; ``NO_CHECK`` keeps
    movement orders unchecked until processing, as MILA does) and MILA's other keywords are kept.
    ``ruling`` is a :class:`diplo.rules.Rules` passed to the engine (e.g. a MILA ruling mode).
    """

    #: MILA's keyword arguments that are kept as attributes (and saved where MILA saves them).
    _KEYWORDS: Final = frozenset(
        {
            "status",
            "deadline",
            "n_controls",
            "registration_password",
            "victory",
            "role",
            "phase",
            "note",
            "daide_port",
            "timestamp_created",
            "messages",
            "powers",
            "map_name",
            "game_id",
            "rules",
            "meta_rules",
            "no_rules",
        }
    )

    def __init__(
        self,
        map_name: str = "standard",
        game_id: str | None = None,
        rules: Iterable[str] | None = None,
        *,
        ruling: Rules | None = None,
        **kwargs: Any,
    ) -> None:
        unknown = sorted(k for k in kwargs if k not in self._KEYWORDS)
        if unknown:
            raise TypeError(f"Game: unknown keyword argument(s) {', '.join(unknown)}")
        if not isinstance(map_name, str):
            raise TypeError(f"Game: map_name must be a string, got {type(map_name).__name__}")
        if game_id is not None and not isinstance(game_id, str):
            raise TypeError(f"Game: game_id must be a string, got {type(game_id).__name__}")
        if ruling is not None and not isinstance(ruling, Rules):
            raise TypeError(
                f"Game: ruling must be a diplo.rules.Rules, got {type(ruling).__name__}"
            )
        rule_list = list(DEFAULT_RULES) if rules is None else _rule_names(rules)
        try:
            game_map = mila_map_for(map_name)
        except MapError as exc:
            raise MilaError(str(exc)) from None
        self.map_name: str = map_name
        self.game_id: str = game_id if game_id is not None else f"diplo-{time.time_ns():x}"
        self.rules: list[str] = rule_list
        self.role: str = str(kwargs.get("role") or OMNISCIENT)
        self.deadline: int = int(kwargs.get("deadline") or 0)
        self.status: str = str(kwargs.get("status") or "active")
        self.n_controls = kwargs.get("n_controls")
        self.registration_password = kwargs.get("registration_password")
        self.timestamp_created: int = int(kwargs.get("timestamp_created") or time.time_ns() // 1000)
        #: Why orders and units given were dropped (MILA's ``Game.error``; the latest
        #: :data:`ERROR_LIMIT` entries).
        self.error: list[str] = []
        self.note: str = str(kwargs.get("note") or "")
        self._map = game_map
        self._ruling = ruling
        self._tables = _tables(game_map)
        self._records: list[_Record] = []
        self._clock = Clock()
        #: The current phase's messages, time stamp -> :class:`Message`.
        self.messages: History[int, Message] = History()
        self._extra: dict[str, Any] = {}
        self._powers: dict[str, Power] = {p: Power(self, p) for p in game_map.powers}
        self._loaded: set[str] = set()
        self._orders_loaded: set[str] = set()
        self._version = 0
        self._map_view: Map | None = None
        self._first_year_cached = int(game_map.first_phase[1:-1])
        self._start(Position.initial(game_map, rules=ruling))

    def _start(self, position: Position) -> None:
        """Put the engine at ``position`` (pending orders dropped, power lists made anew)."""
        if self._ruling is not None and position.rules != self._ruling:
            position = position.with_changes(rules=self._ruling)
        self._core: _core.FastGame = FastGame(position)._core
        self._set_core(self._core)

    def _set_core(self, core: _core.FastGame) -> None:
        self._core = core
        self._done = False  # kept with the core's: asked for on every call
        self._done_type: str | None = "-"
        self._outcome: list[str] = []
        #: Power -> slot -> (text, code, ...): the orders kept this phase (code None: kept
        #: unchecked, or void).
        self._orders: dict[str, dict[int, tuple[Any, ...]]] = {}
        self._turn_cache: _Turn | None = None
        self._doc_cache: dict[str, Any] | None = None
        self._bump()

    def _bump(self) -> None:
        """The board changed: the power lists are made anew when next read."""
        self._version += 1
        self._loaded = set()
        self._doc_cache = None
        self._forget_order_views()

    def _forget_order_views(self) -> None:
        for name in self._orders_loaded:
            self._powers[name]._forget_orders()
        self._orders_loaded = set()

    @property
    def _turn(self) -> _Turn:
        turn = self._turn_cache
        if turn is None:
            turn = self._turn_cache = _Turn(self._core, self._map, self._tables, self._ruling)
        return turn

    def _note_error(self, text: str) -> None:
        self.error.append(text)
        if len(self.error) > ERROR_LIMIT:
            del self.error[: len(self.error) - ERROR_LIMIT]

    # ------------------------------------------------------------------ keeping MILA's objects

    def _sync(self) -> None:
        """Take in edits made through the power objects (board lists, orders)."""
        if self._loaded and any(self._powers[n]._changed() for n in self._loaded):
            self._rebuild(self._current_name())
        if self._orders_loaded:
            self._sync_orders()

    def _sync_orders(self) -> None:
        edited = {n: self._powers[n]._orders_edited() for n in self._orders_loaded}
        self._forget_order_views()
        for name, texts in edited.items():
            if texts is not None:
                self._orders.pop(name, None)
                self._take_orders(name, texts, replace=True)

    def _board(self) -> dict[str, Any]:
        """The board as MILA's lists, from the power objects (all made)."""
        powers = self._map.powers
        doc: dict[str, Any] = {
            "units": {},
            "retreats": {},
            "centers": {},
            "homes": {},
            "influence": {},
        }
        for name in powers:
            power = self._powers[name]
            power._load()
            doc["units"][name] = list(power._units) + [f"*{u}" for u in power._retreats]
            doc["retreats"][name] = {u: list(o) for u, o in power._retreats.items()}
            doc["centers"][name] = list(power._centers)
            doc["homes"][name] = list(power._homes)
            doc["influence"][name] = list(power._influence)
        return doc

    def _rebuild(self, phase_name: str) -> None:
        """Put the engine at the board of the power objects, at ``phase_name``; the power objects
        keep their lists (MILA's lists can hold what a position does not: a dislodged unit in
        a movement phase), the pending orders are kept where they still apply."""
        board = self._board()
        state = dict(board, name=phase_name)
        position = position_from_mila(state, game_map=self._map, rules=self._ruling)
        pending = {p: [e[0] for e in given.values()] for p, given in self._orders.items()}
        outcome, done = self._outcome, self._done
        self._start(position)
        if phase_name == COMPLETED:
            self._done, self._outcome = True, outcome if done else []
        for name in self._map.powers:  # the lists stay as the user left them
            self._powers[name]._stamp()
        self._doc_cache = None
        for power, texts in pending.items():
            if texts:
                self._take_orders(power, texts, replace=True, quiet=True)

    def _doc(self) -> dict[str, Any]:
        """The current board as MILA's state lists (not to be changed): the engine's, with the
        lists of the power objects made this phase in their place."""
        if not self._loaded:
            return self._engine_doc()
        doc = dict(self._engine_doc())
        for key in ("units", "retreats", "centers", "homes", "influence"):
            doc[key] = dict(doc[key])
        for name in self._loaded:
            power = self._powers[name]
            doc["units"][name] = list(power._units) + [f"*{u}" for u in power._retreats]
            doc["retreats"][name] = power._retreats
            doc["centers"][name] = power._centers
            doc["homes"][name] = power._homes
            doc["influence"][name] = power._influence
        return doc

    def _engine_doc(self) -> dict[str, Any]:
        """The engine's board as MILA's state lists (cached per board version)."""
        doc = self._doc_cache
        if doc is None:
            position = position_from_state(self._map, self._turn.state, self._core_rules())
            doc = self._doc_cache = position_to_mila(position, name=self._current_name())
        return doc

    def _position(self) -> Position:
        """The current board as a diplo position."""
        self._sync()
        return position_from_state(self._map, self._core.state(), self._core_rules())

    def _core_rules(self) -> Rules | None:
        return self._ruling

    # ------------------------------------------------------------------ phases

    @property
    def is_game_done(self) -> bool:
        """Whether the game has ended (a power won, a draw, or the phase set to ``COMPLETED``)."""
        return self._done

    def _current_name(self) -> str:
        return COMPLETED if self._done else self._core.phase

    def get_current_phase(self) -> str:
        """The current phase, ``"S1901M"``, or ``"COMPLETED"`` once the game is done."""
        return COMPLETED if self._done else _mila_name(self._core.phase)

    @property
    def current_short_phase(self) -> str:
        return self.get_current_phase()

    @property
    def phase(self) -> str:
        """The phase in words as MILA writes it: ``"SPRING 1901 MOVEMENT"``, ``"COMPLETED"``.
        Settable (in words, or ``"COMPLETED"``), as MILA's attribute is."""
        if self._done:
            return COMPLETED
        name = _mila_name(self._core.phase)
        return f"{_SEASONS[name[0]]} {name[1:-1]} {_KINDS[name[-1]]}"

    @phase.setter
    def phase(self, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"phase must be a string, got {type(value).__name__}")
        if value in (COMPLETED, "FORMING"):
            self.set_current_phase(value)
            return
        words = value.upper().split()
        if len(words) != 3 or words[0] not in _LONG_SEASONS or words[2] not in _LONG_KINDS:
            raise MilaError(f"phase: expected e.g. 'SPRING 1901 MOVEMENT', got {value!r}")
        self.set_current_phase(f"{_LONG_SEASONS[words[0]]}{words[1]}{_LONG_KINDS[words[2]]}")

    @property
    def phase_type(self) -> str | None:
        """``"M"``, ``"R"`` or ``"A"``; once the game is done ``"-"`` (``None`` when the phase
        was set to ``COMPLETED``), as MILA."""
        return self._done_type if self._done else self._core.phase[-1]

    def set_current_phase(self, new_phase: str) -> None:
        """Go to ``new_phase`` (``"W1901A"``, or ``"COMPLETED"``) with the board as it is (MILA's
        ``set_current_phase``: nothing is ruled on). Raises :class:`MilaError` for a phase name
        that cannot be read or a board that cannot stand in that phase; the game is then
        unchanged."""
        if not isinstance(new_phase, str):
            raise TypeError(f"new_phase must be a string, got {type(new_phase).__name__}")
        self._sync()
        if new_phase == "FORMING":
            raise MilaError("new_phase: 'FORMING' is not offered (the game is made formed)")
        if new_phase == COMPLETED:
            self._done = True
            self._done_type = None
            self._outcome = self._outcome or []
            self._turn_cache = None
            self._bump()
            return
        try:
            Phase.parse(new_phase)
        except (ValueError, TypeError) as exc:
            raise MilaError(f"new_phase: {exc}") from None
        self._rebuild(new_phase)

    def clear_cache(self) -> None:
        """Nothing to clear (MILA's caches are per phase here): kept for MILA's API."""

    @property
    def outcome(self) -> list[str]:
        """``[]`` while playing; then the last phase and the winners (MILA's ``Game.outcome``)."""
        return list(self._outcome)

    def _finish(self, winners: Sequence[str], last: str) -> None:
        self._outcome = [last, *winners]
        self._done = True
        self._done_type = "-"
        self._turn_cache = None
        self._bump()

    def draw(self, winners: Sequence[str] | None = None) -> None:
        """End the game in a draw between ``winners`` (default: the powers with units)."""
        self._sync()
        if winners is None:
            winners = [p for p in self._map.powers if self.get_units(p)]
        else:
            winners = [self._power(w) for w in winners]
        last = self.get_current_phase()
        record = self._record_current(results={})
        self._records.append(record)
        self.messages = History()
        self._finish(winners, last)

    @property
    def map(self) -> Map:
        """MILA's map query API over this game's map (:class:`diplo.compat.mila.Map`)."""
        if self._map_view is None:
            self._map_view = _map_named(self.map_name)
        return self._map_view

    @property
    def victory(self) -> list[int]:
        return [self._map.victory]

    @property
    def win(self) -> int:
        return self._map.victory

    # ------------------------------------------------------------------ rules and press

    @property
    def no_press(self) -> bool:
        return "NO_PRESS" in self.rules

    @property
    def no_check(self) -> bool:
        return "NO_CHECK" in self.rules

    def add_rule(self, rule: str) -> None:
        """Add a MILA rule name (``"NO_PRESS"``, ``"NO_CHECK"``, ...); kept once."""
        name = _rule_name(rule, "rule")
        if name not in self.rules:
            self.rules.append(name)

    def remove_rule(self, rule: str) -> None:
        name = _rule_name(rule, "rule")
        if name in self.rules:
            self.rules.remove(name)

    def is_player_game(self) -> bool:
        return self.role in self._map.powers

    def is_observer_game(self) -> bool:
        return self.role == OBSERVER

    def is_omniscient_game(self) -> bool:
        return self.role == OMNISCIENT

    def is_server_game(self) -> bool:
        return False

    @property
    def power(self) -> Power | None:
        """The power a player game plays (``role``), else ``None``."""
        return self._powers.get(self.role)

    def add_message(self, message: Message) -> int:
        """Add ``message`` to the current phase and return its time stamp. A message without a
        time stamp is stamped (microseconds, strictly after every earlier one); its phase must
        be the current phase (else :class:`GamePhaseException`). Sender and recipient must be
        powers, ``GLOBAL``/``SYSTEM``/``OBSERVER``/``OMNISCIENT`` (else :class:`MilaError`)."""
        if not isinstance(message, Message):
            raise TypeError(f"message must be a Message, got {type(message).__name__}")
        if message.phase is None:
            message.phase = self.current_short_phase
        if message.phase != self.current_short_phase:
            raise GamePhaseException(
                f"message for phase {message.phase!r}, the game is at {self.current_short_phase!r}"
            )
        known = {*self._map.powers, GLOBAL, SYSTEM, OBSERVER, OMNISCIENT}
        for field in ("sender", "recipient"):
            value = getattr(message, field)
            if value not in known:
                raise MilaError(f"message {field} {value!r} is not a power, GLOBAL or SYSTEM")
        if not isinstance(message.message, str):
            raise MilaError("message: the text (message) must be a string")
        if self.is_player_game():
            role = self.role
            if not (message.is_global() or role in (message.sender, message.recipient)):
                raise MilaError(f"a player game for {role} only takes {role}'s messages")
        if message.time_sent is None:
            message.time_sent = self._clock.stamp()
        elif self.messages and message.time_sent <= self.messages.last_key():
            raise MilaError(
                f"message time_sent {message.time_sent} is not after the last message's "
                f"({self.messages.last_key()})"
            )
        else:
            self._clock.last = max(self._clock.last, message.time_sent)
        self.messages.put(message.time_sent, message)
        return message.time_sent

    def new_power_message(self, recipient: str, body: str, sender: str | None = None) -> Message:
        """A message from the game's power (a player game; else ``sender``) to ``recipient``,
        for the current phase (not yet added: pass it to :meth:`add_message`)."""
        who = sender if sender is not None else (self.role if self.is_player_game() else None)
        if who is None:
            raise MilaError("new_power_message: the game plays no power; pass sender=")
        to = self._power(recipient) if recipient not in (GLOBAL, SYSTEM) else recipient
        return Message(self._power(who), to, body, self.current_short_phase)

    def new_global_message(self, body: str, sender: str | None = None) -> Message:
        """A message from the game's power (or ``sender``) to every power (``GLOBAL``)."""
        who = sender if sender is not None else (self.role if self.is_player_game() else None)
        if who is None:
            raise MilaError("new_global_message: the game plays no power; pass sender=")
        who = who if who == SYSTEM else self._power(who)
        return Message(who, GLOBAL, body, self.current_short_phase)

    def new_system_message(self, recipient: str, body: str) -> int:
        """Add a message from ``SYSTEM`` to ``recipient`` (a power, or ``GLOBAL``)."""
        to = recipient if recipient in (GLOBAL, OBSERVER, OMNISCIENT) else self._power(recipient)
        return self.add_message(Message(SYSTEM, to, body, self.current_short_phase))

    # ------------------------------------------------------------------ the board

    def get_state(self) -> dict[str, Any]:
        """The current phase's state dictionary, as MILA's ``Game.get_state()`` gives it."""
        self._sync()
        doc = self._doc()
        note = self.note
        if self._done and not note and self._outcome:
            note = "Victory by: " + ", ".join(p[:3] for p in self._outcome[1:])
        state: dict[str, Any] = _copy.deepcopy({k: doc[k] for k in _STATE_KEYS if k in doc})
        state.update(
            name=self.get_current_phase(),
            note=note,
            timestamp=time.time_ns() // 1000,
            zobrist_hash=self.get_hash(),
        )
        state.setdefault("civil_disorder", {p: 0 for p in self._map.powers})
        state.setdefault("builds", {p: {"count": 0, "homes": []} for p in self._map.powers})
        return state

    def set_state(self, state: Mapping[str, Any], clear_history: bool = True) -> None:
        """Put the game at the phase state ``state`` (``get_state()``'s form; its ``name`` is the
        phase). Pending orders are dropped; the history is cleared unless ``clear_history`` is
        false. Raises :class:`MilaError` for a state that cannot be read (the game unchanged)."""
        if not isinstance(state, Mapping):
            raise TypeError(f"state must be a dict, got {type(state).__name__}")
        name = str(state.get("name") or "")
        done = name == COMPLETED
        position = position_from_mila(
            state,
            phase=self._core.phase if done else None,
            game_map=self._map,
            rules=self._ruling,
        )
        self._start(position)
        if done:
            self._done = True
        self.note = str(state.get("note") or "")
        if clear_history:
            self._records.clear()
            self.messages = History()

    def get_units(self, power_name: str | None = None) -> Any:
        """The units of a power (all powers: a dict), ``"*A GAL"`` for one dislodged."""
        self._sync()
        units: dict[str, list[str]] = self._doc()["units"]
        if power_name is None:
            return {p: list(u) for p, u in units.items()}
        return list(units[self._power(power_name)])

    def get_centers(self, power_name: str | None = None) -> Any:
        """The supply centres a power owns (all powers: a dict)."""
        self._sync()
        centers: dict[str, list[str]] = self._doc()["centers"]
        if power_name is None:
            return {p: list(c) for p, c in centers.items()}
        return list(centers[self._power(power_name)])

    @property
    def powers(self) -> dict[str, Power]:
        """Every power by name (MILA's live power objects)."""
        return self._powers

    def get_power(self, power_name: str) -> Power | None:
        """The power named (``None`` for a name the map does not have, as MILA)."""
        return self._powers.get(str(power_name).upper()) if power_name is not None else None

    def has_power(self, power_name: str) -> bool:
        return str(power_name).upper() in self._powers

    def _power(self, power_name: str) -> str:
        name = str(power_name).upper()
        if name not in self._powers:
            raise MapPowerException(
                f"unknown power {power_name!r} (the powers are {', '.join(self._map.powers)})"
            )
        return name

    def clear_units(self, power_name: str | None = None) -> None:
        """Take every unit (and dislodged unit) of a power off the board (all powers: every one)."""
        for power in self._selected(power_name):
            power.clear_units()
        self._sync()

    def clear_centers(self, power_name: str | None = None) -> None:
        """Make every supply centre of a power (all powers: every centre) unowned."""
        for power in self._selected(power_name):
            power.clear_centers()
        self._sync()

    def _selected(self, power_name: str | None) -> list[Power]:
        if power_name is None:
            return list(self._powers.values())
        name = str(power_name).upper()
        return [self._powers[name]] if name in self._powers else []

    def set_units(self, power_name: str, units: str | Sequence[str], reset: bool = False) -> None:
        """Put units on the board for a power (MILA's ``set_units``): ``"A PAR"``, ``"*A GAS"``
        for a dislodged one; a unit already in a province is taken off first. A unit the map
        cannot hold there is skipped and noted in :attr:`error`. ``reset`` first clears the
        power's units. An unknown power is ignored, as in MILA."""
        name = str(power_name).upper()
        if name not in self._powers:
            return
        texts = [units] if isinstance(units, str) else list(units)
        if not all(isinstance(t, str) for t in texts):
            raise TypeError("set_units: units must be strings such as 'A PAR'")
        target = self._powers[name]
        if reset:
            target.clear_units()
        regular = [" ".join(t.upper().split()) for t in texts if t and t[0] != "*"]
        dislodged = [" ".join(t[1:].upper().split()) for t in texts if t and t[0] == "*"]
        for power in self._powers.values():
            for unit in regular:
                for other in [u for u in power.units if u[2:5] == unit[2:5]]:
                    power.units.remove(other)
            for unit in dislodged:
                for other in [u for u in power.retreats if u[2:5] == unit[2:5]]:
                    del power.retreats[other]
            for unit in regular + dislodged:
                if unit[2:5] in power.influence:
                    power.influence.remove(unit[2:5])
        for unit in regular:
            if not self._valid_unit(unit):
                self._note_error(f"Invalid unit {unit}")
                continue
            if unit not in target.units:
                target.units.append(unit)
                target.influence.append(unit[2:5])
        for unit in dislodged:
            if not self._valid_unit(unit):
                self._note_error(f"Invalid unit *{unit}")
                continue
            if unit not in target.retreats:
                target.retreats[unit] = []
        self._sync()

    def _valid_unit(self, unit: str) -> bool:
        return self.map.is_valid_unit(unit)

    def set_centers(
        self, power_name: str, centers: str | Sequence[str], reset: bool = False
    ) -> None:
        """Give supply centres to a power (MILA's ``set_centers``); a province that is not a
        supply centre is skipped. ``reset`` first clears the power's centres. An unknown power
        is ignored, as in MILA."""
        name = str(power_name).upper()
        if name not in self._powers:
            return
        wanted = [centers] if isinstance(centers, str) else list(centers)
        if not all(isinstance(c, str) for c in wanted):
            raise TypeError("set_centers: centers must be province names such as 'PAR'")
        wanted = [c.upper() for c in wanted]
        target = self._powers[name]
        if reset:
            target.clear_centers()
        for power in self._powers.values():
            for center in wanted:
                if center in power.centers:
                    power.centers.remove(center)
        scs = set(self._map.centers)
        for center in wanted:
            if center in scs and center not in target.centers:
                target.centers.append(center)
        self._sync()

    def _unit_owner(self, unit: str, coast_required: int | bool = 1) -> Power | None:
        """The power with ``unit`` on the board (not dislodged), or ``None``; without
        ``coast_required`` ``"F STP"`` finds ``"F STP/SC"``."""
        self._sync()
        for power in self._powers.values():
            for have in power.units:
                if have == unit or (not coast_required and have.split("/")[0] == unit):
                    return power
        return None

    def _occupant(self, site: str, any_coast: int = 0) -> str | None:
        site = site[:3] if any_coast else site
        for power in self._powers.values():
            for unit in power.units:
                if unit[2:].startswith(site):
                    return unit
        return None

    # ------------------------------------------------------------------ hashes

    def get_hash(self) -> str:
        """A hash of the board (units, dislodged units, centres, homes, per power), as a string
        of digits like MILA's Zobrist hash; equal boards give equal hashes."""
        self._sync()
        doc = self._doc()
        board = [
            {p: sorted(doc[key][p]) for p in self._map.powers}
            for key in ("units", "centers", "homes")
        ]
        text = json.dumps(board, sort_keys=True, separators=(",", ":"))
        return str(int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big"))

    def rebuild_hash(self) -> str:
        """The board's hash worked out anew (always equal to :meth:`get_hash` here)."""
        self._doc_cache = None
        return self.get_hash()

    def update_hash(self, *args: Any, **kwargs: Any) -> None:
        """Nothing to update: the hash is worked out from the board (kept for MILA's API)."""

    # ------------------------------------------------------------------ orders

    def get_all_possible_orders(self) -> dict[str, list[str]]:
        """Every map location -> the possible orders of the unit (or build site) there, sorted,
        in MILA's notation; ``[]`` where nothing can be ordered. A new dict each call; its lists
        are made afresh each phase and shared by the calls of one phase (do not change them)."""
        if self._loaded or self._orders_loaded:
            self._sync()
        if self._done:
            return {loc: [] for loc in self._tables.locations}
        return dict(self._turn.possible)

    def get_orderable_locations(self, power_name: str | None = None) -> Any:
        """The provinces a power can order in this phase (all powers: a dict): its units, its
        dislodged units, its free home centres when it may build, its units when it must
        disband."""
        if self._loaded or self._orders_loaded:
            self._sync()
        if power_name is not None:
            name = self._power(power_name)
            return [] if self._done else list(self._turn.orderable[name])
        if self._done:
            return {p: [] for p in self._map.powers}
        turn = self._turn
        spare = turn.spare
        if spare is not None:
            turn.spare = None
            return spare
        return {p: list(v) for p, v in turn.orderable.items()}

    def set_orders(
        self,
        power_name: str,
        orders: str | Sequence[str],
        expand: bool = True,
        replace: bool = True,
    ) -> None:
        """Give ``power_name``'s orders for this phase (one order or a list), in MILA's notation
        (any case and spacing diplo reads). An order for a unit that already has one replaces it
        with ``replace`` (the default), else is ignored; other units' orders are kept. An order
        that is not legal for one of the power's units is dropped and described in
        :attr:`error` (with the rule ``NO_CHECK``, movement orders are kept as given and ruled
        void at processing when illegal). Raises :class:`MapPowerException` for an unknown
        power. ``expand`` is accepted for MILA's signature."""
        del expand
        turn = self._turn_cache
        if (  # a bot's path: texts as listed this phase, one lookup each
            turn is not None
            and type(orders) is list
            and replace is True
            and not (self._loaded or self._orders_loaded or self._done)
            and "NO_CHECK" not in self.rules
        ):
            # Each text's entry (text, code, slot, text id) kept at its slot; None: some text
            # not listed for the power (or not a string, or an unknown power), read the long way.
            kept = turn.check.take(power_name, orders, self._orders.get(power_name))
            if kept is not None:
                self._orders[power_name] = kept
                return
        power = power_name if power_name in self._powers else self._power(power_name)
        kind = type(orders)
        texts: Sequence[str]
        if kind is list:
            texts = orders
        elif kind is str:
            texts = [orders]  # type: ignore[list-item]
        elif isinstance(orders, str):
            texts = [str(orders)]
        elif isinstance(orders, Sequence):
            texts = list(orders)
        else:
            raise TypeError(
                f"set_orders: orders must be a string or a list, got {type(orders).__name__}"
            )
        if self._loaded or self._orders_loaded:
            self._sync()
        if self._done:
            if any(texts):
                self._note_error(f"{power}: the game is done, orders are not taken")
            return
        self._take_orders(power, texts, replace)

    def _take_orders(
        self, power: str, texts: Sequence[str], replace: bool, quiet: bool = False
    ) -> None:
        """Keep ``texts`` as ``power``'s orders (see :meth:`set_orders`); all or nothing."""
        turn = self._turn
        codes = turn.codes[power]
        province = self._tables.province
        before = self._orders.get(power)
        kept = {} if before is None else dict(before)
        if turn.kind == "M" and "NO_CHECK" not in self.rules:
            # The bot's path: listed texts, one per unit.
            for text in texts:
                try:
                    code = codes.get(text)
                except TypeError:  # an unhashable item (a list, a dict): no order
                    raise TypeError(
                        f"set_orders: every order must be a string, got {type(text).__name__}"
                    ) from None
                if code is None:
                    if not text:
                        continue
                    if type(text) is not str:
                        raise TypeError(f"set_orders: every order must be a string, got {text!r}")
                    code = self._read(power, text, turn, quiet)
                    if code is None:
                        continue
                    text = turn.text(code)
                slot = province[location_of(code)]
                if replace or slot not in kept:
                    kept[slot] = (text, code)
            self._orders[power] = kept
            return
        adjustment = turn.kind == "A"
        this_call: set[int] = set()
        no_check = turn.kind == "M"
        for text in texts:
            if not text:
                continue
            if type(text) is not str:
                raise TypeError(f"set_orders: every order must be a string, got {text!r}")
            code = None if no_check else codes.get(text)
            if code is None:
                if no_check:
                    slot = self._unchecked_slot(text, len(kept))
                    if not replace:
                        slot = -1000 - len(kept)
                    kept[slot] = (" ".join(text.split()), None)
                    continue
                code = self._read(power, text, turn, True)
                if code is None:
                    self._take_void_adjustment(power, text, kept, this_call, replace, quiet)
                    continue
                text = turn.text(code)
            # What the order is for: its unit's (or build site's) province; each waive its own.
            waive = code & _KIND == WAIVE
            slot = -1 - len(kept) if waive else province[location_of(code)]
            if slot in this_call and adjustment:
                kept[-2000 - len(kept)] = (f"VOID {text}", None)  # MILA: a second order, void
                continue
            if slot in kept and not replace:
                continue
            this_call.add(slot)
            kept[slot] = (text, code)
        self._orders[power] = kept

    def _take_void_adjustment(
        self,
        power: str,
        text: str,
        kept: dict[int, tuple[str, int | None]],
        this_call: set[int],
        replace: bool,
        quiet: bool,
    ) -> None:
        """An adjustment (retreat) order that is not legal now but is a build or a disband (a
        retreat or a disband): MILA keeps it (listed by ``get_orders``) and rules it void when
        processing."""
        cleaned = " ".join(text.upper().split())
        try:
            order = parse_order(cleaned, self._map)
            words = format_order(order).split()
        except (OrderParseError, ValueError) as exc:
            if not quiet:
                self._note_error(f"{power}: {text!r} dropped: {exc}")
            return
        kinds = ("B", "D") if self._turn.kind == "A" else ("R", "D")
        if self._turn.kind == "R" and len(words) >= 3 and words[2] not in kinds:
            kept[-2000 - len(kept)] = (f"VOID {' '.join(words)}", None)  # MILA: void, not listed
            return
        if len(words) not in (3, 4) or words[2] not in kinds:
            if not quiet:
                why = "not an adjustment order" if kinds[0] == "B" else "not a retreat order"
                self._note_error(f"{power}: {text!r} dropped: {why}")
            return
        slot = self._tables.province[self._map.location_index[words[1]]]
        shown = " ".join(words)
        if slot in this_call:
            kept[-2000 - len(kept)] = (f"VOID {shown}", None)
        elif slot not in kept or replace:
            this_call.add(slot)
            kept[slot] = (shown, None)

    def _unchecked_slot(self, text: str, count: int) -> int:
        """The slot of an order kept unchecked (``NO_CHECK``): its unit's province when readable."""
        words = text.upper().split()
        loc = words[1] if len(words) > 1 and words[0] in ("A", "F") else words[0]
        try:
            return self._tables.province[self._map.location_index[self._map.lookup(loc)]]
        except (MapError, KeyError, ValueError):
            return -1000 - count

    def _read(self, power: str, text: str, turn: _Turn, quiet: bool = False) -> int | None:
        """The code of an order written otherwise than listed, or ``None`` (noted in ``error``).
        Read as diplo's validation reads it (DATC 4.B: a coast left out where only one can be
        meant, a wrong coast of the ordered unit, an army ordered to a coast)."""
        cleaned = " ".join(text.upper().split())
        try:
            code = encode_order(parse_order(cleaned, self._map), self._map, power)
        except (OrderParseError, ValueError) as exc:
            if not quiet:
                self._note_error(f"{power}: {text!r} dropped: {exc}")
            return None
        if code in turn.legal[power]:
            return code
        ruling = validate_order(turn.position, power, cleaned)
        if ruling.legal and ruling.order is not None:
            try:
                code = encode_order(ruling.order, self._map, power)
            except ValueError:
                code = -1
            if code in turn.legal[power]:
                return code
        if not quiet:
            why = ruling.message if not ruling.legal else f"not a legal order of {power} here"
            self._note_error(f"{power}: {text!r} dropped: {why}")
        return None

    def get_orders(self, power_name: str | None = None) -> Any:
        """The orders kept so far for this phase, of a power (all powers: a dict); waives are
        not listed (as MILA)."""
        if self._orders_loaded:
            self._sync_orders()
        if power_name is not None:
            return self._orders_of(self._power(power_name))
        return {p: self._orders_of(p) for p in self._map.powers}

    def _orders_of(self, power: str) -> list[str]:
        return [
            t
            for t, c in _pairs(self._orders.get(power, {}))
            if (c is None and not t.startswith("VOID ")) or (c is not None and kind_of(c) != WAIVE)
        ]

    def _orders_dict(self, power: str) -> dict[str, str]:
        given = self._orders.get(power, {})
        if "NO_CHECK" in self.rules:
            return {f"ORDER {i + 1}": t for i, (t, _) in enumerate(given.values())}
        if self.phase_type != "M":
            return {}
        out: dict[str, str] = {}
        for text, _ in _pairs(given):
            words = text.split()
            out[" ".join(words[:2])] = " ".join(words[2:])
        return out

    def _adjust_list(self, power: str) -> list[str]:
        if self.phase_type == "M":
            return []
        return [e[0] for e in self._orders.get(power, {}).values()]

    def clear_orders(self, power_name: str | None = None) -> None:
        """Drop the orders given this phase by a power (all powers: every order)."""
        if self._orders_loaded:
            self._sync_orders()
        if power_name is None:
            self._orders.clear()
        else:
            self._orders.pop(self._power(power_name), None)
        self._forget_order_views()

    def get_order_status(
        self, power_name: str | None = None, unit: str | None = None, loc: str | None = None
    ) -> Any:
        """The result labels of the last processed phase (MILA's ``get_order_status``): of a
        ``unit`` (a list), of the unit at ``loc`` (``(unit, labels)``), of a power's units (a
        dict), or of every power's (a dict of dicts)."""
        if unit is not None and loc is not None:
            raise ValueError("get_order_status: give unit or loc, not both")
        last = self._records[-1] if self._records else None
        results = self._results(last) if last is not None else {}
        if unit is not None:
            return list(results.get(unit, []))
        if loc is not None:
            for have, labels in results.items():
                if have[2:5] == loc[:3]:
                    return have, list(labels)
            return loc, []
        if power_name is not None:
            name = self._power(power_name)
            units = self._state_of(last)["units"][name] if last is not None else []
            return {u.lstrip("*"): list(results.get(u.lstrip("*"), [])) for u in units}
        return {p: self.get_order_status(p) for p in self._map.powers}

    @property
    def command(self) -> dict[str, str]:
        """Unit -> its order of the last processed movement phase (``"H"`` when none)."""
        last = self._last_of_kind("M")
        if last is None:
            return {}
        out: dict[str, str] = {}
        state = self._state_of(last)
        given = {}
        for texts in last.orders.values():
            for text in texts:
                words = text.split()
                given[" ".join(words[:2])] = " ".join(words[2:])
        for units in state["units"].values():
            for unit in units:
                if not unit.startswith("*"):
                    out[unit] = given.get(unit, "H")
        return out

    @property
    def ordered_units(self) -> dict[str, list[str]]:
        """Power -> the units it ordered in the last processed phase."""
        last = self._records[-1] if self._records else None
        out: dict[str, list[str]] = {p: [] for p in self._map.powers}
        if last is not None:
            for power, texts in last.orders.items():
                out[power] = [" ".join(t.split()[:2]) for t in texts if t != "WAIVE"]
        return out

    @property
    def popped(self) -> list[str]:
        """The units disbanded by the last processed phase (dislodged with nowhere to go, or not
        retreated)."""
        if not self._records:
            return []
        last = self._records[-1]
        results = self._results(last)
        if last.name.endswith("R"):
            return [u for u, labels in results.items() if "disband" in labels]
        if last.name.endswith("M"):
            now = self.get_units()
            dislodged = {u[1:] for units in now.values() for u in units if u.startswith("*")}
            gone = [u for u, labels in results.items() if "dislodged" in labels]
            return [u for u in gone if u not in dislodged]
        return []

    def _last_of_kind(self, kind: str) -> _Record | None:
        last = self._records[-1] if self._records else None
        return last if last is not None and last.name.endswith(kind) else None

    # ------------------------------------------------------------------ processing

    def process(self) -> None:
        """Rule on the phase with the orders given (units without one hold, dislodged units
        without one are disbanded, unused builds are waived, missing disbands are made by the
        civil-disorder rule) and move on to the next phase with something to decide. A game
        still going after 100 years is drawn, as in MILA. Does nothing once the game is done."""
        if self._loaded or self._orders_loaded:
            self._sync()
        if self._done:
            return
        turn = self._turn
        powers = self._tables.powers
        voids: list[tuple[str, str]] = []
        core = self._core
        # Every order was read when given (code None: kept unchecked, read now); the engine
        # copied before the phase is kept for the history.
        before = _core.mila_play(core, turn.check, self._orders)
        kept: dict[str, list[str]] | None = None
        if before is None:
            codes, kept = self._codes_to_play(turn, voids)
            before = core.clone()
            core.set_orders(codes)
            core.process()
        record = _Record(turn.name, before, kept, self.messages, voids=voids)
        if kept is None:
            record.pending = (self._orders, powers)  # the orders' texts listed when asked for
        self._records.append(record)
        self.messages = History()
        self._orders = {}
        self._turn_cache = None
        self._doc_cache = None
        if self._loaded:
            self._bump()
        elif self._orders_loaded:
            self._forget_order_views()
        winner = core.winner  # cheaper than is_over, which is asked only with a year limit
        if winner is not None or (core.max_year is not None and core.is_over):
            self._finish([winner] if winner is not None else self._survivors(), turn.name)
        else:
            self._draw_after_years(turn)

    def _codes_to_play(
        self, turn: _Turn, voids: list[tuple[str, str]]
    ) -> tuple[list[int], dict[str, list[str]]]:
        """The codes to process and the orders to keep, orders kept unchecked read now (a void
        one noted in ``voids``)."""
        codes: list[int] = []
        kept: dict[str, list[str]] = {}
        orders = self._orders
        for power in self._tables.powers:
            given = orders.get(power)
            if not given:
                kept[power] = []
                continue
            texts = kept[power] = []
            for text, code in _pairs(given):
                if code is None:  # kept unchecked: read now, void when it cannot be
                    read = None if text.startswith("VOID ") else self._read(power, text, turn, True)
                    if read is None:
                        voids.append((power, " ".join(text.removeprefix("VOID ").split()[:2])))
                        continue
                    code, text = read, turn.text(read)
                texts.append(text)
                codes.append(code)
        return codes, kept

    def _draw_after_years(self, turn: _Turn) -> None:
        year = int(turn.name[1:-1])
        if year - self._first_year_cached + 1 < DRAW_AFTER_YEARS:
            return
        now = self._core.phase
        if turn.kind == "A" or (turn.name[0] == "F" and int(now[1:-1]) > year):
            self._finish(self._survivors(), f"W{year}A")

    def _first_year(self) -> int:
        return int(self._map.first_phase[1:-1])

    def _survivors(self) -> list[str]:
        units = self._doc()["units"]
        return [p for p in self._map.powers if units[p]]

    # ------------------------------------------------------------------ histories

    def _state_of(self, record: _Record) -> dict[str, Any]:
        if record.state_doc is None:
            assert record.state is not None
            position = position_from_state(self._map, record.state, self._core_rules())
            record.state_doc = position_to_mila(position)
        return record.state_doc

    def _results(self, record: _Record) -> dict[str, list[str]]:
        if record.results is None:
            record.results, record.dislodged = _mila_labels(
                self._phase_record(record), record.voids
            )
        return record.results

    @property
    def dislodged(self) -> dict[str, str]:
        """The units dislodged by the last processed movement phase -> the province each
        attacker came from (MILA's attribute)."""
        last = self._last_of_kind("M")
        if last is None:
            return {}
        self._results(last)
        return dict(last.dislodged or {})

    def _phase_record(self, record: _Record) -> PhaseRecord:
        """The processed phase ruled again by the reference engine, with its full outcome."""
        assert record.state is not None
        position = position_from_state(self._map, record.state, self._core_rules())
        orders = {p: tuple(texts) for p, texts in record.orders.items() if texts}
        outcome = process_phase(position, {p: list(t) for p, t in orders.items()})
        return PhaseRecord(position, orders, outcome)

    @property
    def order_history(self) -> History[str, dict[str, list[str]]]:
        """Phase name -> {power: orders kept} for every processed phase (waives not listed, as
        MILA; saved games keep them, so that a replay uses each build as this game did)."""
        return History((r.name, _without_waives(r.orders)) for r in self._records)

    @property
    def result_history(self) -> History[str, dict[str, list[str]]]:
        """Phase name -> {unit: MILA's result labels} for every processed phase: ``[]`` for a
        move or support that worked, ``bounce``, ``cut``, ``no convoy``, ``void``,
        ``dislodged``; ``disband`` in retreats; ``''`` / ``void`` for adjustments."""
        return History((r.name, self._results(r)) for r in self._records)

    @property
    def state_history(self) -> History[str, dict[str, Any]]:
        """Phase name -> the state dictionary the phase started from."""
        return History((r.name, self._state_of(r)) for r in self._records)

    @property
    def message_history(self) -> History[str, History[int, Message]]:
        """Phase name -> its messages (time stamp -> :class:`Message`)."""
        return History((r.name, r.messages) for r in self._records)

    def _phase_data(self, record: _Record) -> GamePhaseData:
        return GamePhaseData(
            record.name,
            _copy.deepcopy(self._state_of(record)),
            {p: list(o) for p, o in record.orders.items()},
            {u: list(r) for u, r in self._results(record).items()},
            record.messages.copy(),
        )

    def get_phase_history(
        self,
        from_phase: str | int | None = None,
        to_phase: str | int | None = None,
        game_role: str | None = None,
    ) -> list[GamePhaseData]:
        """The processed phases (from ``from_phase`` to ``to_phase``, names or indexes, both
        included) as :class:`GamePhaseData`."""
        del game_role
        names = [r.name for r in self._records]
        start = _index_of(from_phase, names, 0)
        stop = _index_of(to_phase, names, len(names) - 1) + 1
        return [self._phase_data(r) for r in self._records[start:stop]]

    def get_phase_from_history(
        self, short_phase_name: str, game_role: str | None = None
    ) -> GamePhaseData:
        """A processed phase by name; ``KeyError`` naming it when there is none."""
        del game_role
        for record in self._records:
            if record.name == short_phase_name:
                return self._phase_data(record)
        raise KeyError(f"no processed phase {short_phase_name!r} in the history")

    def phase_history_from_timestamp(self, timestamp: int) -> list[GamePhaseData]:
        return [
            self._phase_data(r)
            for r in self._records
            if any(t >= timestamp for t in r.messages) or not r.messages
        ]

    def _record_current(self, results: dict[str, list[str]] | None = None) -> _Record:
        return _Record(
            self.get_current_phase(),
            None if self._done else self._core.state(),
            self.get_orders(),
            self.messages,
            results,
            {k: v for k, v in self.get_state().items() if k in _STATE_KEYS},
        )

    def get_phase_data(self) -> GamePhaseData:
        """The current phase as :class:`GamePhaseData` (state, orders so far, messages)."""
        return GamePhaseData(
            self.get_current_phase(), self.get_state(), self.get_orders(), {}, self.messages.copy()
        )

    def set_phase_data(
        self, phase_data: GamePhaseData | Sequence[GamePhaseData], clear_history: bool = True
    ) -> None:
        """Put the game at the last of ``phase_data`` (one or a list); the earlier ones become
        the history (after it is cleared, with ``clear_history``)."""
        items = [phase_data] if isinstance(phase_data, GamePhaseData) else list(phase_data)
        if not items:
            return
        if not all(isinstance(p, GamePhaseData) for p in items):
            raise TypeError("set_phase_data: expected GamePhaseData objects")
        *earlier, current = items
        self.set_state(current.state, clear_history=clear_history)
        for item in earlier:
            self._records.append(
                _Record(
                    item.name,
                    None,
                    {p: list(o or []) for p, o in item.orders.items()},
                    History(item.messages),
                    {u: [str(x) for x in r] for u, r in item.results.items()},
                    dict(item.state),
                )
            )
        for power, texts in current.orders.items():
            if texts and power in self._powers:
                self.set_orders(power, list(texts))
        self.messages = History(current.messages)

    # ------------------------------------------------------------------ pictures

    def render(
        self,
        incl_orders: bool = True,
        incl_abbrev: bool = False,
        output_format: str = "svg",
        output_path: str | None = None,
    ) -> str:
        """The board as SVG text, drawn by diplo's renderer (:mod:`diplo.render`), with the
        orders given so far when ``incl_orders``; written to ``output_path`` too when given.
        Only ``output_format='svg'`` is offered (else ``ValueError``)."""
        del incl_abbrev
        if output_format != "svg":
            raise ValueError(f"render: output_format must be 'svg', got {output_format!r}")
        from ..render.svg import board_svg

        self._sync()
        position = position_from_state(self._map, self._core.state(), self._core_rules())
        results: list[dict[str, Any]] = []
        if incl_orders:
            for power, texts in self.get_orders().items():
                results.extend({"power": power, "order": t} for t in texts)
        svg = board_svg(position, results, title=self.get_current_phase())
        if output_path is not None:
            Path(output_path).write_text(svg, encoding="utf-8")
        return svg

    # ------------------------------------------------------------------ copies

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        self._sync()
        new = Game.__new__(Game)
        memo[id(self)] = new
        new.__dict__.update(self.__dict__)
        new.rules = list(self.rules)
        new.error = list(self.error)
        new._records = [r.copy() for r in self._records]
        new.messages = History({t: m.copy() for t, m in self.messages.items()})
        new._clock = Clock(self._clock.last)
        new._extra = _copy.deepcopy(self._extra, memo) if self._extra else {}
        new._outcome = list(self._outcome)
        new._core = self._core.clone()
        if self._turn_cache is not None:  # the phase's texts are shared; its engine is the copy's
            turn = new._turn_cache = _copy.copy(self._turn_cache)
            turn._core = new._core
            turn.spare = None  # the original's to hand out
        new._orders = {p: dict(o) for p, o in self._orders.items()}
        new._powers = {p: Power(new, p) for p in self._map.powers}
        new._loaded = set()
        new._orders_loaded = set()
        new._doc_cache = None
        new._map_view = None
        new._bump()
        if self._loaded:  # lists that a position cannot hold (a dislodged unit in movement)
            for name in self._loaded:
                mine, theirs = self._powers[name], new._powers[name]
                theirs._units, theirs._centers = list(mine._units), list(mine._centers)
                theirs._homes, theirs._influence = list(mine._homes), list(mine._influence)
                theirs._retreats = {u: list(o) for u, o in mine._retreats.items()}
                theirs._stamp()
        return new

    def __getstate__(self) -> dict[str, Any]:
        """The game as plain data: the engine's raw state, the history, the orders and press
        (the engine object itself does not pickle)."""
        self._sync()
        state = {
            k: v
            for k, v in self.__dict__.items()
            if k
            not in (
                "_core",
                "_turn_cache",
                "_doc_cache",
                "_map",
                "_tables",
                "_powers",
                "_loaded",
                "_orders_loaded",
                "_map_view",
            )
        }
        state["_core_state"] = self._core.state()
        state["_max_year"] = self._core.max_year
        state["_lists"] = {
            n: (p._units, p._retreats, p._centers, p._homes, p._influence)
            for n, p in self._powers.items()
            if n in self._loaded
        }
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        lists = state.pop("_lists")
        core_state = state.pop("_core_state")
        max_year = state.pop("_max_year")
        self.__dict__.update(state)
        self._map = mila_map_for(self.map_name)
        self._tables = _tables(self._map)
        self._map_view = None
        self._powers = {p: Power(self, p) for p in self._map.powers}
        self._loaded = set()
        self._orders_loaded = set()
        position = position_from_state(self._map, core_state, self._core_rules())
        self._core = FastGame(position, max_year)._core
        self._turn_cache = None
        self._doc_cache = None
        self._bump()
        for name, (units, retreats, centers, homes, influence) in lists.items():
            power = self._powers[name]
            power._units, power._retreats, power._centers = units, retreats, centers
            power._homes, power._influence = homes, influence
            power._stamp()

    def __repr__(self) -> str:
        return f"<diplo.compat.mila.Game {self.game_id} {self.get_current_phase()}>"


_MAPS: dict[str, Map] = {}


def _map_named(name: str) -> Map:
    """MILA's map of a game, read once per process (as MILA caches its maps)."""
    found = _MAPS.get(name)
    if found is None:
        found = _MAPS[name] = Map(name)
    return found


def _pairs(given: dict[int, tuple[Any, ...]]) -> list[tuple[str, int | None]]:
    """The (text, code) of a power's orders kept this phase (an entry may hold more after)."""
    return [(e[0], e[1]) for e in given.values()]


def _without_waives(orders: dict[str, list[str]]) -> dict[str, list[str]]:
    if not any("WAIVE" in texts for texts in orders.values()):
        return orders
    return {p: [t for t in texts if t != "WAIVE"] for p, texts in orders.items()}


def _mila_name(name: str) -> str:
    """A phase name with MILA's four-digit year (years from 1000 are written alike)."""
    year = name[1:-1]
    return name if len(year) >= 4 else f"{name[0]}{int(year):04d}{name[-1]}"


def _index_of(phase: str | int | None, names: list[str], default: int) -> int:
    if phase is None:
        return default
    if isinstance(phase, int) and not isinstance(phase, bool):
        return phase if phase >= 0 else len(names) + phase
    if phase in names:
        return names.index(str(phase))
    raise KeyError(f"no processed phase {phase!r} in the history")


def _rule_name(rule: object, what: str) -> str:
    if not isinstance(rule, str) or not rule.strip():
        raise TypeError(f"{what} must be a rule name such as 'NO_PRESS', got {rule!r}")
    return rule.strip().upper()


def _rule_names(rules: Iterable[str]) -> list[str]:
    if isinstance(rules, str):
        raise TypeError("rules must be a list of rule names, not a string")
    out: list[str] = []
    for rule in rules:
        name = _rule_name(rule, "rules")
        if name not in out:
            out.append(name)
    return out


# --------------------------------------------------------------------------- saved games

_SAVED_KEYS: Final = frozenset({"id", "map", "rules", "phases"})
_PHASE_KEYS: Final = frozenset({"name", "state", "orders", "results", "messages"})


def to_saved_game_format(
    game: Game, output_path: str | None = None, output_mode: str = "a"
) -> dict[str, Any]:
    """``game`` as a MILA saved game (``diplomacy.utils.export.to_saved_game_format``): one entry
    per processed phase (state, orders, results, messages), then the current phase with its
    orders so far, or ``COMPLETED`` with the final board; keys it was read with that MILA does
    not know (top-level and per phase) come back as they were. With ``output_path`` the game is
    also written there as one JSON line (``output_mode`` ``'a'`` appends, ``'w'`` replaces)."""
    if not isinstance(game, Game):
        raise TypeError(
            f"to_saved_game_format: expected a diplo.compat.mila.Game, got {type(game).__name__}"
        )
    if output_mode not in ("a", "w"):
        raise ValueError(f"output_mode must be 'a' or 'w', got {output_mode!r}")
    game._sync()
    phases: list[dict[str, Any]] = []
    for record in game._records:
        entry = {
            "name": record.name,
            "state": _copy.deepcopy(game._state_of(record)),
            "orders": {p: list(o) for p, o in record.orders.items()},
            "results": {u: list(r) for u, r in game._results(record).items()},
            "messages": [m.to_dict() for m in record.messages.values()],
        }
        entry.update(_copy.deepcopy(record.extra))
        phases.append(entry)
    current = game.get_state()
    for key in ("timestamp", "zobrist_hash"):
        current.pop(key, None)
    pending = game.get_orders()
    last_extra = game._extra.get("__current_phase__", {})
    entry = {
        "name": game.get_current_phase(),
        "state": current,
        "orders": {p: (pending[p] or None) for p in pending}
        if not game.is_game_done
        else dict.fromkeys(pending),
        "results": {},
        "messages": [m.to_dict() for m in game.messages.values()],
    }
    entry.update(_copy.deepcopy(last_extra))
    phases.append(entry)
    doc: dict[str, Any] = {"id": game.game_id, "map": game.map_name, "rules": list(game.rules)}
    doc.update({k: _copy.deepcopy(v) for k, v in game._extra.items() if k != "__current_phase__"})
    doc["phases"] = phases
    if output_path is not None:
        with open(output_path, output_mode, encoding="utf-8") as handle:
            handle.write(json.dumps(doc) + "\n")
    return doc


def save_game(game: Game, output_path: str, output_mode: str = "a") -> dict[str, Any]:
    """Write ``game`` to ``output_path`` as one line of JSON (MILA's ``.jsonl`` of saved games)."""
    return to_saved_game_format(game, output_path=output_path, output_mode=output_mode)


def from_saved_game_format(data: Mapping[str, Any], strict: bool = True) -> Game:
    """A :class:`Game` from a MILA saved game (``diplomacy.utils.export.from_saved_game_format``),
    its orders replayed by diplo, its messages and unknown keys kept. Where diplo rules a phase
    otherwise than the save says, ``strict`` raises :class:`MilaError` naming the phase;
    ``strict=False`` keeps diplo's rulings and stops where the save's later orders no longer
    apply (see :func:`diplo.mila.game_from_mila`)."""
    if not isinstance(data, Mapping):
        raise MilaError(f"a saved game must be an object, got {type(data).__name__}")
    replayed = game_from_mila(data, strict=strict)
    map_name = str(data.get("map", "standard"))
    game = Game(map_name, str(data.get("id") or "") or None, list(data.get("rules") or []) or None)
    game.set_state(position_to_mila(replayed.initial_position), clear_history=True)
    saved = [p for p in data.get("phases") or [] if isinstance(p, Mapping)]
    by_name = {str(p.get("name")): p for p in saved}
    for record in replayed.history:
        for power, texts in record.orders.items():
            game.set_orders(power, list(texts))
        entry = by_name.get(game.get_current_phase(), {})
        for message in _messages_of(entry):
            game.add_message(message)
        game.process()
        kept = game._records[-1]
        kept.extra = {k: _copy.deepcopy(v) for k, v in entry.items() if k not in _PHASE_KEYS}
    if replayed.is_over and not game.is_game_done:
        game._finish(
            game._survivors(), game._records[-1].name if game._records else game.get_current_phase()
        )
    for power, items in replayed.orders.items():
        game.set_orders(power, [str(i) for i in items])
    last = saved[-1] if saved else {}
    if not game.is_game_done or str(last.get("name")) == COMPLETED:
        for message in (
            _messages_of(last) if str(last.get("name")) == game.get_current_phase() else []
        ):
            game.add_message(message)
    game._extra = {k: _copy.deepcopy(v) for k, v in data.items() if k not in _SAVED_KEYS}
    extra_last = {k: _copy.deepcopy(v) for k, v in last.items() if k not in _PHASE_KEYS}
    if extra_last:
        game._extra["__current_phase__"] = extra_last
    return game


def _messages_of(entry: Mapping[str, Any]) -> list[Message]:
    raw = entry.get("messages") or []
    items = raw.values() if isinstance(raw, Mapping) else raw
    out = []
    for item in items:
        msg = item.copy() if isinstance(item, Message) else Message.from_dict(item)
        out.append(msg)
    out.sort(key=lambda m: m.time_sent or 0)
    return out


def load_saved_games_from_disk(input_path: str, on_error: str = "raise") -> list[Game]:
    """The games of a ``.jsonl`` file of MILA saved games, one a line
    (``diplomacy.utils.export.load_saved_games_from_disk``). ``on_error``: ``'raise'`` (a bad
    line raises :class:`MilaError` naming it), ``'warn'`` (warn and skip) or ``'ignore'``."""
    if on_error not in ("raise", "warn", "ignore"):
        raise ValueError(f"on_error must be 'raise', 'warn' or 'ignore', got {on_error!r}")
    path = Path(input_path)
    if not path.exists():
        raise FileNotFoundError(f"no such file: {input_path}")
    games: list[Game] = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                games.append(from_saved_game_format(json.loads(line), strict=False))
            except (MilaError, ValueError) as exc:
                if on_error == "raise":
                    raise MilaError(f"{input_path}:{number}: {exc}") from None
                if on_error == "warn":
                    import warnings

                    warnings.warn(f"{input_path}:{number}: {exc}", stacklevel=2)
    return games


def is_valid_saved_game(saved_game: Mapping[str, Any]) -> bool:
    """Whether diplo replays the saved game as saved (MILA's ``is_valid_saved_game``)."""
    try:
        from_saved_game_format(saved_game, strict=True)
    except (MilaError, ValueError, TypeError):
        return False
    return True


# --------------------------------------------------------------------------- MILA's labels


def _mila_labels(
    record: PhaseRecord, voids: Sequence[tuple[str, str]] = ()
) -> tuple[dict[str, list[str]], dict[str, str]]:
    """MILA's result labels of a processed phase (unit -> labels), and its dislodged units
    (unit -> the province the attacker came from), from diplo's ruling of the phase.

    Labels start from :func:`diplo.mila.mila_results`; the drop-in adds what MILA also reports:
    orders it kept but found void (``voids``: power and unit, listed first), ``disrupted`` for a
    convoying fleet whose convoy failed because a fleet of the route was dislodged."""
    labels = mila_results(record)
    outcome = record.outcome
    game_map = record.position.map
    units = record.position.units
    dislodged: dict[str, str] = {}
    by_unit = {r.unit: r for r in outcome.results if r.unit is not None and r.legal}
    for result in outcome.results:
        if result.unit is not None and result.dislodged_by:
            dislodged[result.unit] = result.dislodged_by[:3]
    gone = {str(d.piece) for d in outcome.dislodged.values()}
    if record.position.phase.kind == "M":
        for unit, result in by_unit.items():
            extra = ["dislodged"] if unit in gone else []
            words = result.order.split()
            if (len(words) >= 6 and words[2] == "S" and words[5] == "-") or (
                len(words) >= 6 and words[2] == "S" and "-" in words
            ):
                mover = by_unit.get(" ".join(words[3:5]))
                target = units.get(game_map.province_of(words[-1]))
                supporter = units.get(game_map.province_of(words[1]))
                stays = target is not None and not _left(by_unit.get(str(target)))
                if (
                    stays
                    and target is not None
                    and supporter is not None
                    and target.power == supporter.power
                ):
                    labels[unit] = ["void", *extra]  # MILA: no support against one's own unit
                elif mover is not None and mover.code == "no_convoy":
                    labels[unit] = ["no convoy", *extra]
            elif len(words) >= 3 and words[2] == "C":
                if result.code == "no_convoy" and "paradox" in result.reason:
                    labels[unit] = ["disrupted", *extra]
                elif result.code in ("no_convoy", "void"):
                    labels[unit] = ["no convoy", "void", *extra]
    retreat = record.position.phase.kind == "R"
    for power, unit in voids:
        loc = unit[2:]
        owner = None
        if loc in game_map.location_index:
            prov = game_map.province_of(loc)
            away = record.position.dislodged.get(prov)
            owner = (away.piece if away is not None else None) if retreat else units.get(prov)
        if owner is not None and owner.power != power:
            continue  # an order for another power's unit (NO_CHECK): MILA labels it by its own
        labels[unit] = ["void", *labels.get(unit, [])]
    return labels, dislodged


def _left(result: Result | None) -> bool:
    """Whether a unit moved away (MILA: a support of an attack on one's own unit is void unless
    that unit left)."""
    words = result.order.split() if result is not None else []
    return result is not None and result.success and len(words) > 3 and words[2] == "-"
