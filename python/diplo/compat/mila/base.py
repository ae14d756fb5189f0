"""The board part of a drop-in game (:class:`State`): its engine, MILA's lists kept beside it,
the orders kept this phase and the phase's names; the other parts of
:class:`diplo.compat.mila.Game` stand on it."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Protocol

from ...engine import mila as engine
from ...engine.codes import position_from_state
from ...formats.mila import COMPLETED, MilaError, mila_builds, position_from_mila
from ...model.map import Map as GameMap
from ...model.position import Phase, Position
from ...model.rules import Rules
from .._map import Map
from .._press import History, Message
from .boards import engine_board, engine_tables, initial_board, python_lists
from .docs import board_doc
from .names import (
    ERROR_LIMIT,
    KINDS,
    LONG_KINDS,
    LONG_SEASONS,
    SEASONS,
    MapPowerException,
    mila_name,
    pairs,
)
from .order import Lists, arrange, initial_lists, lists_of
from .powers import Power, Sheet
from .records import Record
from .turn import Tables, Turn, tables_of

__all__ = ["Face", "ListsReader", "OrderTaker", "State", "map_named"]

_MAPS: dict[str, Map] = {}


def map_named(name: str) -> Map:
    """MILA's map of a game, read once per process (as MILA caches its maps)."""
    found = _MAPS.get(name)
    if found is None:
        found = _MAPS[name] = Map(name)
    return found


class OrderTaker(Protocol):
    """The order intake as the board part hands it orders again (:class:`~.intake.OrderIntake`)."""

    def take_orders(
        self, power: str, texts: Sequence[str], replace: bool, quiet: bool = False
    ) -> None: ...


class ListsReader(Protocol):
    """The histories as the board part asks them for MILA's order of the lists after a
    processed phase (:class:`~.history.Histories`)."""

    def lists_after(self, record: Record, board: dict[str, Any]) -> Lists: ...


class Face(Protocol):
    """What the parts read and change of the game's own attributes (MILA's, public)."""

    map_name: str
    role: str
    rules: list[str]
    error: list[str]
    note: str
    messages: History[int, Message]
    timestamp_created: int
    phase_summaries: dict[str, str]

    def get_state(self) -> dict[str, Any]: ...

    def get_orders(self, power_name: str | None = None) -> Any: ...

    def get_units(self, power_name: str | None = None) -> Any: ...

    def set_state(self, state: Mapping[str, Any], clear_history: bool = True) -> None: ...


class State:
    """The board part of a drop-in game, which every other part stands on: the engine's game
    at the current phase, the board as MILA's lists (the power objects' and MILA's order of
    them), the orders kept this phase, the phase's names and the game's end.

    ``game`` is the :class:`diplo.compat.mila.Game` the part belongs to (its MILA attributes:
    ``rules``, ``error``, ...), ``game_map`` the game's map and ``ruling`` the ruling the engine
    plays under (``None``: diplo's rulings by the DATC v3.0). The order intake and the
    histories are linked in by the game (:attr:`intake`, :attr:`history`)."""

    #: The links: the game, its maps, the power objects and the other parts.
    LINKS: Final = (
        "game",
        "history",
        "intake",
        "map",
        "model_map",
        "powers",
        "sheets",
        "tables",
    )
    #: What the game is: carried by copies and pickles (:data:`diplo.compat.mila.game.CARRIED`;
    #: the engine's game, ``core``, by the game itself).
    KEPT: Final = (
        "core",
        "done",
        "done_type",
        "first_year",
        "mila_lists",
        "orders",
        "outcome",
        "ruling",
        "version",
    )
    #: Worked out from it, made anew when asked for (a copy shares the map's tables).
    MADE: Final = (
        "doc_cache",
        "loaded",
        "made_tables",
        "orders_loaded",
        "turn_cache",
        "unfit",
    )
    __slots__ = LINKS + KEPT + MADE

    game: Face
    history: ListsReader | None
    intake: OrderTaker | None
    map: Map
    model_map: GameMap
    powers: dict[str, Power]
    ruling: Rules | None
    sheets: dict[str, Sheet]
    tables: Tables
    core: engine.EngineGame
    done: bool
    done_type: str | None
    first_year: int
    mila_lists: Lists | Record | engine.MilaBoard | None
    orders: dict[str, dict[int, tuple[Any, ...]]]
    outcome: list[str]
    version: int
    doc_cache: dict[str, Any] | None
    loaded: set[str]
    made_tables: engine.MilaTables | None
    orders_loaded: set[str]
    turn_cache: Turn | None
    unfit: Lists | None

    def __init__(self, game: Face, map_name: str, game_map: GameMap, ruling: Rules | None) -> None:
        self.game = game
        #: MILA's map query API over this game's map (:class:`diplo.compat.mila.Map`, one per
        #: map and process).
        self.map = map_named(map_name)
        #: The game's map as diplo reads it (MILA's names).
        self.model_map = game_map
        self.ruling = ruling
        self.tables = tables_of(game_map)
        #: The power objects (:class:`Power`), each over its :class:`Sheet` in :attr:`sheets`
        #: (made when first asked for: :meth:`blank`).
        self.sheets = {}
        self.powers = {p: Power(game, p, self) for p in game_map.powers}
        self.intake = None
        self.history = None
        self.version = 0
        self.first_year = int(game_map.first_phase[1:-1])
        self.fresh()
        self.start(Position.initial(game_map, rules=ruling), None)
        # The engine's tables of the map (made once per map and process), made with the map's
        # first game rather than at its first get_state, as MILA's map makes its caches: the
        # first call a harness makes then costs what the others do (the game keeps nothing:
        # a game that never asks for a state pays nothing as it plays).
        engine_tables(self.map, self.tables, self.core)

    def copied_from(self, game: Face, other: State, core: engine.EngineGame) -> None:
        """Made as a copy of ``other`` for ``game`` (a deep copy of its game), playing on
        ``core`` (a copy of ``other``'s engine game): the links and the maps' tables shared,
        the power objects new; the fields of ``game.CARRIED`` are put in by the game."""
        self.link(game, other.map, other.model_map, other.tables, core)
        self.made_tables, self.unfit = other.made_tables, other.unfit
        if other.turn_cache is not None:  # the phase's texts are shared; its engine is the copy's
            turn = self.turn_cache = copy.copy(other.turn_cache)
            turn.core = core
            turn.spare = None  # the original's to hand out

    def adopt(self, game: Face, game_map: GameMap, core: engine.EngineGame) -> None:
        """The part of ``game`` (made without :meth:`__init__`: a pickle read) at ``core``, a
        game on ``game_map``, its power objects new; the fields of ``game.CARRIED`` are put in
        by the game."""
        self.link(game, map_named(game.map_name), game_map, tables_of(game_map), core)

    def link(
        self, game: Face, queries: Map, game_map: GameMap, tables: Tables, core: engine.EngineGame
    ) -> None:
        """The links of a part made without :meth:`__init__` (``queries``: MILA's map queries),
        the fields of :attr:`MADE` a new game's."""
        self.game = game
        self.map = queries
        self.model_map = game_map
        self.tables = tables
        self.sheets = {}
        self.powers = {p: Power(game, p, self) for p in game_map.powers}
        self.intake = self.history = None  # linked in by the game
        self.core = core
        self.fresh()

    def fresh(self) -> None:
        """Every field of :attr:`MADE` as a new game's (nothing worked out yet)."""
        #: The power names whose lists (:attr:`sheets`) are made this board version, and whose
        #: views of orders are handed out.
        self.loaded = set()
        self.orders_loaded = set()
        self.turn_cache = None
        self.doc_cache = None
        self.made_tables = None
        self.unfit = None

    def start(self, position: Position, lists: Lists | None) -> None:
        """Put the engine at ``position`` (pending orders dropped, power lists made anew), its
        lists in the order of ``lists`` (``None``: a new game's, the map's order)."""
        if self.ruling is not None and position.rules != self.ruling:
            position = position.with_changes(rules=self.ruling)
        self.core = engine.new_game(position)
        #: MILA's order of the board's lists (:mod:`~diplo.compat.mila.order`): made (in Python,
        #: or the engine's once ``get_state`` asked: then kept by the engine phase by phase),
        #: ``None`` for a new game's, or the last processed phase's record, applied when first
        #: needed.
        self.mila_lists = lists
        self.set_core(self.core)
        if lists is not None and self.made_tables is not None:  # the engine keeps them
            self.engine_board()

    def set_core(self, core: engine.EngineGame) -> None:
        self.core = core
        self.done = False  # kept with the core's: asked for on every call
        self.done_type = "-"
        self.outcome = []
        #: Power -> slot -> (text, code, ...): the orders kept this phase (code None: kept
        #: unchecked, or void).
        self.orders = {}
        self.turn_cache = None
        self.doc_cache = None
        self.bump()

    def bump(self) -> None:
        """The board changed: the power lists are made anew when next read."""
        self.version += 1
        self.loaded = set()
        self.doc_cache = None
        self.forget_order_views()

    def forget_order_views(self) -> None:
        for name in self.orders_loaded:
            self.sheets[name].forget_orders()
        self.orders_loaded = set()

    @property
    def turn(self) -> Turn:
        turn = self.turn_cache
        if turn is None:
            turn = self.turn_cache = Turn(self.core, self.model_map, self.tables, self.ruling)
        return turn

    def note_error(self, text: str) -> None:
        error = self.game.error
        error.append(text)
        if len(error) > ERROR_LIMIT:
            del error[: len(error) - ERROR_LIMIT]

    # ------------------------------------------------------------------ keeping MILA's objects

    def sheet(self, name: str) -> Sheet:
        """Power ``name``'s lists, made from the engine's board when first asked for at this
        board version."""
        sheet = self.sheets.get(name) or self.blank(name)
        if sheet.at != self.version:
            sheet.fill(self.engine_doc(), name)
            self.stamp(name)
        return sheet

    def stamp(self, name: str) -> None:
        """Power ``name``'s lists are the board's now: an edit is seen against them."""
        self.sheets[name].stamp(self.version)
        self.loaded.add(name)

    def order_views(self, name: str) -> Sheet:
        """Power ``name``'s sheet, whose views of the orders are being handed out."""
        self.orders_loaded.add(name)
        return self.sheets.get(name) or self.blank(name)

    def blank(self, name: str) -> Sheet:
        """Power ``name``'s sheet, made (empty, of no board version) if it has none yet."""
        sheet = self.sheets.get(name)
        if sheet is None:
            sheet = self.sheets[name] = Sheet()
        return sheet

    def orders_dict(self, power: str) -> dict[str, str]:
        """Power ``power``'s orders as MILA's ``Power.orders`` keys them."""
        given = self.orders.get(power, {})
        if "NO_CHECK" in self.game.rules:
            return {f"ORDER {i + 1}": t for i, (t, _) in enumerate(given.values())}
        if self.phase_type != "M":
            return {}
        out: dict[str, str] = {}
        for text, _ in pairs(given):
            words = text.split()
            out[" ".join(words[:2])] = " ".join(words[2:])
        return out

    def adjust_list(self, power: str) -> list[str]:
        """Power ``power``'s orders as MILA's ``Power.adjust`` lists them."""
        if self.phase_type == "M":
            return []
        adjust = [e[0] for e in self.orders.get(power, {}).values()]
        if adjust and self.phase_type == "A":
            # MILA adds waives up to the builds the power may make (for a power with no
            # controller: every power of a local game), its void entries counted.
            need = int(self.doc()["builds"].get(power, {}).get("count", 0))
            adjust.extend(["WAIVE"] * (need - len(adjust)))
        return adjust

    def sync(self) -> None:
        """Take in edits made through the power objects (board lists, orders)."""
        if self.loaded and any(self.sheets[n].changed(self.version) for n in self.loaded):
            self.rebuild(self.current_name())
        if self.orders_loaded:
            self.sync_orders()

    def sync_orders(self) -> None:
        no_check = "NO_CHECK" in self.game.rules
        edited = {n: self.sheets[n].orders_edited(no_check) for n in self.orders_loaded}
        self.forget_order_views()
        for name, texts in edited.items():
            if texts is not None:
                self.orders.pop(name, None)
                self.take_orders(name, texts, replace=True)

    def take_orders(
        self, power: str, texts: Sequence[str], replace: bool, quiet: bool = False
    ) -> None:
        """Keep ``texts`` as ``power``'s orders, through the order intake."""
        assert self.intake is not None  # linked in by the game
        self.intake.take_orders(power, texts, replace, quiet)

    def board(self) -> dict[str, Any]:
        """The board as MILA's lists, from the power objects (all made)."""
        doc: dict[str, Any] = {
            "units": {},
            "retreats": {},
            "centers": {},
            "homes": {},
            "influence": {},
        }
        for name in self.model_map.powers:
            sheet = self.sheet(name)
            doc["units"][name] = sheet.shown_units()
            doc["retreats"][name] = {u: list(o) for u, o in sheet.retreats.items()}
            doc["centers"][name] = list(sheet.centers)
            doc["homes"][name] = list(sheet.homes)
            doc["influence"][name] = list(sheet.influence)
        return doc

    def rebuild(self, phase_name: str) -> None:
        """Put the engine at the board of the power objects, at ``phase_name``; the power objects
        keep their lists (MILA's lists can hold what a position does not: a dislodged unit in
        a movement phase), the pending orders are kept where they still apply."""
        board = self.board()
        state = dict(board, name=phase_name)
        position = position_from_mila(state, game_map=self.model_map, rules=self.ruling)
        pending = {p: [e[0] for e in given.values()] for p, given in self.orders.items()}
        outcome, done = self.outcome, self.done
        self.start(position, lists_of(board, self.tables.powers))
        if phase_name == COMPLETED:
            self.done, self.outcome = True, outcome if done else []
        for name in self.model_map.powers:  # the lists stay as the user left them
            self.stamp(name)
        self.doc_cache = None
        for power, texts in pending.items():
            if texts:
                self.take_orders(power, texts, replace=True, quiet=True)

    def doc(self) -> dict[str, Any]:
        """The current board as MILA's state lists (not to be changed): the engine's, with the
        lists of the power objects made this phase in their place."""
        if not self.loaded:
            return self.engine_doc()
        doc = dict(self.engine_doc())
        for key in ("units", "retreats", "centers", "homes", "influence"):
            doc[key] = dict(doc[key])
        for name in self.loaded:
            sheet = self.sheets[name]
            doc["units"][name] = sheet.shown_units()
            doc["retreats"][name] = sheet.retreats
            doc["centers"][name] = sheet.centers
            doc["homes"][name] = sheet.homes
            doc["influence"][name] = sheet.influence
        return doc

    def engine_doc(self) -> dict[str, Any]:
        """The engine's board as MILA's state lists (cached per board version)."""
        doc = self.doc_cache
        if doc is None:
            board = self.engine_board()
            if board is not None:
                made = self.engine_tables()
                doc = board.state(made, self.core, self.current_name(), "")
            else:
                doc = self.raw_doc(builds=True)
                doc = arrange(doc, self.current_lists(doc), self.map.loc_abut)
            self.doc_cache = doc
        return doc

    def raw_doc(self, builds: bool) -> dict[str, Any]:
        """The engine's board as sorted lists (:func:`~diplo.compat.mila.docs.board_doc`), an
        adjustment phase's ``builds`` made when asked for (they need the position)."""
        turn = self.turn_cache  # the raw state alone when the phase's lists are not made
        state = turn.state if turn is not None else engine.state_of(self.core)
        made = None
        if builds and state[2] == "A":
            made = mila_builds(position_from_state(self.model_map, state, self.ruling))
        return board_doc(self.tables, state, self.current_name(), made)

    def engine_tables(self) -> engine.MilaTables:
        """The engine's tables of the game's map (:func:`.boards.engine_tables`)."""
        made = self.made_tables
        if made is None:
            made = self.made_tables = engine_tables(self.map, self.tables, self.core)
        return made

    def engine_board(self) -> engine.MilaBoard | None:
        """The engine's lists of the current board, made from Python's the first time (then the
        engine keeps them as the game plays); ``None`` when they name what the map does not have
        (they stay in Python)."""
        lists = self.mila_lists
        if isinstance(lists, engine.MilaBoard):
            return lists
        if lists is None:  # a new game's: the map's, made once per map
            made = initial_board(self.map, self.engine_tables(), self.tables.powers)
            if made is not None:
                self.mila_lists = made
                return made
        if isinstance(lists, Lists):
            python = lists
        else:  # a new game's, or worked out from the last phase played
            python = self.current_lists(self.raw_doc(builds=False))
        if self.unfit is python:
            return None
        board = engine_board(self.engine_tables(), python)
        if board is None:
            self.unfit = python  # not tried again for these lists
            return None
        self.mila_lists = board
        return board

    def current_lists(self, board: dict[str, Any]) -> Lists:
        """MILA's order of the current board's lists (``board``: diplo's board as sorted
        lists), worked out from the last processed phase when first asked for."""
        lists = self.mila_lists
        if lists is None:
            lists = initial_lists(self.map.units, self.map.centers, self.tables.powers)
        elif isinstance(lists, Record):
            assert self.history is not None  # linked in by the game
            lists = self.history.lists_after(lists, board)
        elif isinstance(lists, engine.MilaBoard):  # the engine keeps them: a copy in Python
            return python_lists(self.engine_tables(), lists)
        self.mila_lists = lists
        return lists

    def python_lists(self) -> Lists | Record | None:
        """MILA's order of the board's lists as Python keeps them (the engine's copied out),
        as a pickle carries them."""
        lists = self.mila_lists
        if isinstance(lists, engine.MilaBoard):  # the engine's do not pickle
            return python_lists(self.engine_tables(), lists)
        return lists

    def position(self) -> Position:
        """The current board as a diplo position."""
        self.sync()
        return position_from_state(self.model_map, self.core.state(), self.ruling)

    @property
    def milas_intake(self) -> bool:
        """Whether orders are taken, and the board kept, as MILA does them where no rule of
        the game is concerned (under ``edition=mila``)."""
        return self.ruling is not None and self.ruling.edition == "mila"

    @property
    def two_coasts(self) -> Callable[[str, str], bool] | None:
        """Under MILA's ruling (``support_coast="any"``: the coast a support names does not
        decide it), whether a fleet at a location could reach either coast of a province, which
        is when MILA keeps a fleet's support of its move without the coast
        (:func:`~diplo.compat.mila.names.support_text`); ``None`` under diplo's rulings, where
        order texts keep what decides them (DATC 6.B.9)."""
        if self.ruling is None or self.ruling.support_coast != "any":
            return None
        game_map = self.map

        def two_coasts(location: str, province: str) -> bool:
            coasts = [c for c in game_map.find_coasts(province) if "/" in c]
            return sum(1 for c in coasts if game_map.abuts("F", location, "-", c)) >= 2

        return two_coasts

    # ------------------------------------------------------------------ phases

    def current_name(self) -> str:
        return COMPLETED if self.done else self.core.phase

    def current_phase(self) -> str:
        """The current phase, ``"S1901M"``, or ``"COMPLETED"`` once the game is done."""
        if self.done:
            return COMPLETED
        turn = self.turn_cache  # the phase's lists, when made, know its name
        return mila_name(self.core.phase) if turn is None else turn.name

    @property
    def phase(self) -> str:
        """The phase in words as MILA writes it: ``"SPRING 1901 MOVEMENT"``, ``"COMPLETED"``."""
        if self.done:
            return COMPLETED
        name = mila_name(self.core.phase)
        return f"{SEASONS[name[0]]} {name[1:-1]} {KINDS[name[-1]]}"

    def set_phase(self, value: str) -> None:
        """Go to the phase ``value`` in words (or ``"COMPLETED"``)."""
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
        return self.done_type if self.done else self.core.phase[-1]

    def set_current_phase(self, new_phase: str) -> None:
        """Go to ``new_phase`` (``"W1901A"``, or ``"COMPLETED"``) with the board as it is (MILA's
        ``set_current_phase``: nothing is ruled on). Raises :class:`MilaError` for a phase name
        that cannot be read or a board that cannot stand in that phase; the game is then
        unchanged."""
        if not isinstance(new_phase, str):
            raise TypeError(f"new_phase must be a string, got {type(new_phase).__name__}")
        self.sync()
        if new_phase == "FORMING":
            raise MilaError("new_phase: 'FORMING' is not offered (the game is made formed)")
        if new_phase == COMPLETED:
            self.done = True
            self.done_type = None
            self.outcome = self.outcome or []
            self.turn_cache = None
            self.bump()
            return
        try:
            Phase.parse(new_phase)
        except (ValueError, TypeError) as exc:
            raise MilaError(f"new_phase: {exc}") from None
        self.rebuild(new_phase)

    def finish(self, winners: Sequence[str], last: str) -> None:
        """End the game after phase ``last``, won by ``winners`` (a draw: several)."""
        self.outcome = [last, *winners]
        self.done = True
        self.done_type = "-"
        self.turn_cache = None
        self.bump()

    def power_name(self, power_name: str) -> str:
        """The map's name of a power (any case), else :class:`MapPowerException`."""
        name = str(power_name).upper()
        if name not in self.powers:
            raise MapPowerException(
                f"unknown power {power_name!r} (the powers are {', '.join(self.model_map.powers)})"
            )
        return name

    def survivors(self) -> list[str]:
        units = self.doc()["units"]
        return [p for p in self.model_map.powers if units[p]]
