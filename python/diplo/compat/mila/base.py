"""The state and phases of a drop-in game: its engine, MILA's lists kept beside it, and the
phase's names (the base of :class:`diplo.compat.mila.Game`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from ...engine import mila as engine
from ...engine.codes import position_from_state
from ...formats.mila import COMPLETED, MilaError, mila_builds, position_from_mila
from ...model.map import MapError
from ...model.position import Phase, Position
from ...model.rules import Rules
from .._map import Map, mila_map_for
from .._press import OMNISCIENT, Clock, History, Message
from .boards import engine_board, engine_tables, initial_board, python_lists
from .docs import board_doc
from .names import (
    DEFAULT_RULES,
    ERROR_LIMIT,
    KINDS,
    LONG_KINDS,
    LONG_SEASONS,
    SEASONS,
    MapPowerException,
    mila_name,
    rule_names,
)
from .order import Lists, arrange, initial_lists, lists_of
from .powers import Power
from .records import Record
from .ruling import default_ruling, ruling_named
from .turn import Turn, tables_of

__all__ = ["GameBase", "map_named"]

_MAPS: dict[str, Map] = {}


def map_named(name: str) -> Map:
    """MILA's map of a game, read once per process (as MILA caches its maps)."""
    found = _MAPS.get(name)
    if found is None:
        found = _MAPS[name] = Map(name)
    return found


class GameBase:
    """What every part of a drop-in game stands on: the engine's game at the current phase, the
    board as MILA's lists (power objects included), the phase's names and the game's end.
    :class:`diplo.compat.mila.Game` is this and the parts in the modules beside it (press, the
    board, order intake, histories, saved games); its arguments are these:

    ``map_name`` names a shipped map (``"standard"``, or a variant such as ``"pure"`` or
    ``"ancmed"``, as :func:`diplo.model.map.map_named` reads it, or MILA's name of it; an unknown
    name raises :class:`MilaError`); ``game_id``, ``rules`` (MILA's rule names; ``NO_CHECK`` keeps
    movement orders unchecked until processing, as MILA does) and MILA's other keywords are kept.
    ``ruling`` is the ruling the engine plays under: a :class:`diplo.model.rules.Rules`, or a
    name (``"datc"``: diplo's rulings by the DATC v3.0, the map's rules; ``"mila"``: MILA's);
    not given (``None``), the default of :mod:`~diplo.compat.mila.ruling`, MILA's unless
    ``DIPLO_MILA_RULING`` or :func:`~diplo.compat.mila.set_default_ruling` says otherwise.
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
        ruling: Rules | str | None = None,
        **kwargs: Any,
    ) -> None:
        # A keyword MILA's model does not know (``Game(map=...)``) is ignored, as MILA's
        # ``Jsonable`` constructor ignores it: MILA's ``Game(map="ancmed")`` plays standard.
        if not isinstance(map_name, str):
            raise TypeError(f"Game: map_name must be a string, got {type(map_name).__name__}")
        if game_id is not None and not isinstance(game_id, str):
            raise TypeError(f"Game: game_id must be a string, got {type(game_id).__name__}")
        if ruling is not None and not isinstance(ruling, (Rules, str)):
            raise TypeError(
                "Game: ruling must be a diplo.model.rules.Rules or a name ('mila', 'datc'), "
                f"got {type(ruling).__name__}"
            )
        rule_list = list(DEFAULT_RULES) if rules is None else rule_names(rules)
        try:
            game_map = mila_map_for(map_name)
        except MapError as exc:
            raise MilaError(str(exc)) from None
        if ruling is None:  # not said: the module's default, the environment's, else MILA's
            ruling = default_ruling(game_map.rules)
        elif isinstance(ruling, str):  # a name: 'datc' (diplo's rulings), 'mila', key=value
            ruling = ruling_named(ruling, game_map.rules, source="Game: ruling")
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
        #: MILA's map query API over this game's map (:class:`diplo.compat.mila.Map`, one per
        #: map and process): a plain attribute, as MILA's is (a slot of
        #: :class:`diplo.compat.mila.Game`, so that ``game.map`` costs what MILA's does).
        self.map: Map = map_named(map_name)
        self._ruling = ruling
        self._tables = tables_of(game_map)
        self._records: list[Record] = []
        self._clock = Clock()
        #: The current phase's messages, time stamp -> :class:`Message`.
        self.messages: History[int, Message] = History()
        self._extra: dict[str, Any] = {}
        #: The fork's additions (GoodStartLabs' AI_Diplomacy): a summary text per processed
        #: phase name (filled by ``process(phase_summary_callback=...)``) and the harness's own
        #: power -> model table, kept and saved as given.
        self.phase_summaries: dict[str, str] = {}
        self.power_model_map: dict[str, str] = {}
        self._powers: dict[str, Power] = {p: Power(self, p) for p in game_map.powers}
        self._loaded: set[str] = set()
        self._orders_loaded: set[str] = set()
        self._version = 0
        self._first_year_cached = int(game_map.first_phase[1:-1])
        self._start(Position.initial(game_map, rules=ruling), None)
        # The engine's tables of the map (made once per map and process), made with the map's
        # first game rather than at its first get_state, as MILA's map makes its caches: the
        # first call a harness makes then costs what the others do (the game keeps nothing:
        # a game that never asks for a state pays nothing as it plays).
        engine_tables(self.map, self._tables, self._core)

    def _start(self, position: Position, lists: Lists | None) -> None:
        """Put the engine at ``position`` (pending orders dropped, power lists made anew), its
        lists in the order of ``lists`` (``None``: a new game's, the map's order)."""
        if self._ruling is not None and position.rules != self._ruling:
            position = position.with_changes(rules=self._ruling)
        self._core: engine.EngineGame = engine.new_game(position)
        #: MILA's order of the board's lists (:mod:`~diplo.compat.mila.order`): made (in Python,
        #: or the engine's once ``get_state`` asked: then kept by the engine phase by phase),
        #: ``None`` for a new game's, or the last processed phase's record, applied when first
        #: needed.
        self._mila_lists: Lists | Record | engine.MilaBoard | None = lists
        self._set_core(self._core)
        if lists is not None and "_made_tables" in self.__dict__:  # the engine keeps them
            self._engine_board()

    def _set_core(self, core: engine.EngineGame) -> None:
        self._core = core
        self._done = False  # kept with the core's: asked for on every call
        self._done_type: str | None = "-"
        self._outcome: list[str] = []
        #: Power -> slot -> (text, code, ...): the orders kept this phase (code None: kept
        #: unchecked, or void).
        self._orders: dict[str, dict[int, tuple[Any, ...]]] = {}
        self._turn_cache: Turn | None = None
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
    def _turn(self) -> Turn:
        turn = self._turn_cache
        if turn is None:
            turn = self._turn_cache = Turn(self._core, self._map, self._tables, self._ruling)
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
        self._start(position, lists_of(board, self._tables.powers))
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
            board = self._engine_board()
            if board is not None:
                made = self._engine_tables()
                doc = board.state(made, self._core, self._current_name(), "")
            else:
                doc = self._raw_doc(builds=True)
                doc = arrange(doc, self._current_lists(doc), self.map.loc_abut)
            self._doc_cache = doc
        return doc

    def _raw_doc(self, builds: bool) -> dict[str, Any]:
        """The engine's board as sorted lists (:func:`~diplo.compat.mila.docs.board_doc`), an
        adjustment phase's ``builds`` made when asked for (they need the position)."""
        turn = self._turn_cache  # the raw state alone when the phase's lists are not made
        state = turn.state if turn is not None else engine.state_of(self._core)
        made = None
        if builds and state[2] == "A":
            made = mila_builds(position_from_state(self._map, state, self._core_rules()))
        return board_doc(self._tables, state, self._current_name(), made)

    def _engine_tables(self) -> engine.MilaTables:
        """The engine's tables of the game's map (:func:`.boards.engine_tables`)."""
        made: engine.MilaTables | None = self.__dict__.get("_made_tables")
        if made is None:
            made = self._made_tables = engine_tables(self.map, self._tables, self._core)
        return made

    def _engine_board(self) -> engine.MilaBoard | None:
        """The engine's lists of the current board, made from Python's the first time (then the
        engine keeps them as the game plays); ``None`` when they name what the map does not have
        (they stay in Python)."""
        lists = self._mila_lists
        if isinstance(lists, engine.MilaBoard):
            return lists
        if lists is None:  # a new game's: the map's, made once per map
            made = initial_board(self.map, self._engine_tables(), self._tables.powers)
            if made is not None:
                self._mila_lists = made
                return made
        if isinstance(lists, Lists):
            python = lists
        else:  # a new game's, or worked out from the last phase played
            python = self._current_lists(self._raw_doc(builds=False))
        if self.__dict__.get("_unfit") is python:
            return None
        board = engine_board(self._engine_tables(), python)
        if board is None:
            self._unfit = python  # not tried again for these lists
            return None
        self._mila_lists = board
        return board

    def _current_lists(self, board: dict[str, Any]) -> Lists:
        """MILA's order of the current board's lists (``board``: diplo's board as sorted
        lists), worked out from the last processed phase when first asked for."""
        lists = self._mila_lists
        if lists is None:
            lists = initial_lists(self.map.units, self.map.centers, self._tables.powers)
        elif isinstance(lists, Record):
            lists = self._lists_after(lists, board)
        elif isinstance(lists, engine.MilaBoard):  # the engine keeps them: a copy in Python
            return python_lists(self._engine_tables(), lists)
        self._mila_lists = lists
        return lists

    def _position(self) -> Position:
        """The current board as a diplo position."""
        self._sync()
        return position_from_state(self._map, self._core.state(), self._core_rules())

    def _core_rules(self) -> Rules | None:
        return self._ruling

    @property
    def _milas_intake(self) -> bool:
        """Whether orders are taken, and the board kept, as MILA does them where no rule of
        the game is concerned (under ``edition=mila``)."""
        return self._ruling is not None and self._ruling.edition == "mila"

    @property
    def _two_coasts(self) -> Callable[[str, str], bool] | None:
        """Under MILA's ruling (``support_coast="any"``: the coast a support names does not
        decide it), whether a fleet at a location could reach either coast of a province, which
        is when MILA keeps a fleet's support of its move without the coast
        (:func:`~diplo.compat.mila.names.support_text`); ``None`` under diplo's rulings, where
        order texts keep what decides them (DATC 6.B.9)."""
        if self._ruling is None or self._ruling.support_coast != "any":
            return None
        game_map = self.map

        def two_coasts(location: str, province: str) -> bool:
            coasts = [c for c in game_map.find_coasts(province) if "/" in c]
            return sum(1 for c in coasts if game_map.abuts("F", location, "-", c)) >= 2

        return two_coasts

    # ------------------------------------------------------------------ phases

    @property
    def ruling(self) -> Rules | None:
        """The :class:`diplo.model.rules.Rules` the game is ruled under (MILA's by default;
        ``None``: diplo's rulings by the DATC v3.0, the map's rules); saved games record it
        (``diplo_ruling``) and loading uses it by default."""
        return self._ruling

    @property
    def is_game_done(self) -> bool:
        """Whether the game has ended (a power won, a draw, or the phase set to ``COMPLETED``)."""
        return self._done

    def _current_name(self) -> str:
        return COMPLETED if self._done else self._core.phase

    def get_current_phase(self) -> str:
        """The current phase, ``"S1901M"``, or ``"COMPLETED"`` once the game is done."""
        return COMPLETED if self._done else mila_name(self._core.phase)

    @property
    def current_short_phase(self) -> str:
        return self.get_current_phase()

    @property
    def phase(self) -> str:
        """The phase in words as MILA writes it: ``"SPRING 1901 MOVEMENT"``, ``"COMPLETED"``.
        Settable (in words, or ``"COMPLETED"``), as MILA's attribute is."""
        if self._done:
            return COMPLETED
        name = mila_name(self._core.phase)
        return f"{SEASONS[name[0]]} {name[1:-1]} {KINDS[name[-1]]}"

    @phase.setter
    def phase(self, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"phase must be a string, got {type(value).__name__}")
        if value in (COMPLETED, "FORMING"):
            self.set_current_phase(value)
            return
        words = value.upper().split()
        if len(words) != 3 or words[0] not in LONG_SEASONS or words[2] not in LONG_KINDS:
            raise MilaError(f"phase: expected e.g. 'SPRING 1901 MOVEMENT', got {value!r}")
        self.set_current_phase(f"{LONG_SEASONS[words[0]]}{words[1]}{LONG_KINDS[words[2]]}")

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

    @property
    def victory(self) -> list[int]:
        return [self._map.victory]

    @property
    def win(self) -> int:
        return self._map.victory

    def _power(self, power_name: str) -> str:
        name = str(power_name).upper()
        if name not in self._powers:
            raise MapPowerException(
                f"unknown power {power_name!r} (the powers are {', '.join(self._map.powers)})"
            )
        return name

    def _survivors(self) -> list[str]:
        units = self._doc()["units"]
        return [p for p in self._map.powers if units[p]]

    if TYPE_CHECKING:  # the parts of Game in the modules beside this one

        def _take_orders(
            self, power: str, texts: Sequence[str], replace: bool, quiet: bool = False
        ) -> None: ...

        def _orders_dict(self, power: str) -> dict[str, str]: ...

        def _adjust_list(self, power: str) -> list[str]: ...

        def clear_orders(self, power_name: str | None = None) -> None: ...

        def get_orders(self, power_name: str | None = None) -> Any: ...

        def get_units(self, power_name: str | None = None) -> Any: ...

        def _lists_after(self, record: Record, board: dict[str, Any]) -> Lists: ...

        def get_state(self) -> dict[str, Any]: ...

        def set_state(self, state: Mapping[str, Any], clear_history: bool = True) -> None: ...

        def set_orders(
            self,
            power_name: str,
            orders: str | Sequence[str],
            expand: bool = True,
            replace: bool = True,
        ) -> None: ...

        def _read(self, power: str, text: str, turn: Turn, quiet: bool = False) -> int | None: ...
