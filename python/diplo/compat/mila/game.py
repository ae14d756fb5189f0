"""The drop-in's ``Game``: MILA's ``diplomacy.Game`` API, ruled by diplo (see
:mod:`diplo.compat.mila`), made of the parts in the modules beside this one.

A game holds its parts (:class:`Parts`): the board part :class:`~.base.State` (the engine's
game, MILA's lists, the orders kept, the phase), the board calls (:class:`~.board.Board`),
the order intake (:class:`~.intake.OrderIntake`), the histories
(:class:`~.history.Histories`) and the press (:class:`~.press.Press`); MILA's calls are
handed to the part that answers them. What a copy and a pickle carry is declared once
(:data:`CARRIED`)."""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, NamedTuple, TypeVar

from ...engine import mila as engine
from ...engine.codes import position_from_state
from ...formats.mila import MilaError, position_to_mila
from ...model.map import MapError
from ...model.rules import Rules
from .._map import mila_map_for
from .._press import OMNISCIENT, Clock, GamePhaseData, History, Message
from .base import State, map_named
from .board import Board
from .convoys import convoy_fleets, convoy_reach, convoyer_reach, lost_centres
from .history import Histories
from .intake import OrderIntake
from .names import DEFAULT_RULES, rule_names
from .order import Lists, lists_of
from .powers import Power
from .press import Press
from .records import Record
from .ruling import default_ruling, ruling_named
from .summaries import SUMMARY_SYSTEM_PROMPT, summary_prompt

__all__ = ["CARRIED", "Game", "Parts", "parts_of"]

_F = TypeVar("_F")


def _doc(source: Any) -> Callable[[_F], _F]:
    """The docstring of ``source`` (the part's method that answers the call) on the game's."""

    def put(function: _F) -> _F:
        function.__doc__ = source.__doc__
        return function

    return put


class Parts(NamedTuple):
    """The parts of a :class:`Game` (:func:`parts_of`)."""

    state: State
    board: Board
    intake: OrderIntake
    history: Histories
    press: Press


def _list(value: list[Any], memo: dict[int, Any]) -> list[Any]:
    return list(value)


def _deep(value: Any, memo: dict[int, Any]) -> Any:
    return copy.deepcopy(value, memo) if value else type(value)()


def _orders(value: dict[str, dict[int, Any]], memo: dict[int, Any]) -> dict[str, dict[int, Any]]:
    return {p: dict(o) for p, o in value.items()}


def _records(value: list[Record], memo: dict[int, Any]) -> list[Record]:
    return [r.copy() for r in value]  # their links to each other: mapped by Game.__deepcopy__


def _clock(value: Clock, memo: dict[int, Any]) -> Clock:
    return Clock(value.last)


#: What a copy and a pickle of a game carry besides the game's own attributes (MILA's, its
#: ``__dict__``), the engine's game (a copy's clone; a pickle's state and year limit) and the
#: lists of the power objects made this phase: (the key a pickle keeps it under, every
#: release's; the part; the part's field; how a copy copies it, ``None``: shared, as nothing
#: changes it in place). Everything else a part holds is made anew (its links, its caches):
#: each part declares its fields so (``LINKS``, ``KEPT``, ``MADE``), ``KEPT`` being the fields
#: named here (``tests/test_compat_mila_parts.py``).
CARRIED: Final[tuple[tuple[str, str, str, Callable[[Any, dict[int, Any]], Any] | None], ...]] = (
    ("_ruling", "state", "ruling", None),
    ("_version", "state", "version", None),
    ("_first_year_cached", "state", "first_year", None),
    ("_mila_lists", "state", "mila_lists", None),  # a record: the copy's (Game.__deepcopy__)
    ("_done", "state", "done", None),
    ("_done_type", "state", "done_type", None),
    ("_outcome", "state", "outcome", _list),
    ("_orders", "state", "orders", _orders),
    ("_records", "history", "records", _records),
    ("_extra", "history", "extra", _deep),
    ("_clock", "press", "clock", _clock),
)


def parts_of(game: Game) -> Parts:
    """The parts of ``game`` (for the drop-in's own modules: saved games, tests)."""
    return game._parts


class Game:
    """A game on MILA's API, ruled by diplo (see the module documentation).

    ``map_name`` names a shipped map (``"standard"``, or a variant such as ``"pure"`` or
    ``"ancmed"``, as :func:`diplo.model.map.map_named` reads it, or MILA's name of it; an unknown
    name raises :class:`MilaError`); ``game_id``, ``rules`` (MILA's rule names; ``NO_CHECK`` keeps
    movement orders unchecked until processing, as MILA does) and MILA's other keywords are kept.
    ``ruling`` is the ruling the engine plays under, MILA's unless told otherwise: a
    :class:`diplo.model.rules.Rules`, or a name (``"datc"``: diplo's rulings by the DATC v3.0;
    ``"mila"``); not given, ``DIPLO_MILA_RULING`` or :func:`set_default_ruling` may choose
    (:mod:`~diplo.compat.mila.ruling`).
    """

    # ``map``, the one attribute read per map query, is a slot, as MILA's Game has it; the
    # parts are slots too, so that the game's ``__dict__`` holds MILA's attributes alone.
    __slots__ = ("__dict__", "_board", "_history", "_intake", "_parts", "_press", "_state", "map")

    __module__ = "diplo.compat.mila"  # where MILA's users (and pickles) find it

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
        #: MILA's map query API over this game's map (:class:`diplo.compat.mila.Map`, one per
        #: map and process): a plain attribute, as MILA's is (a slot, so that ``game.map``
        #: costs what MILA's does).
        self.map = map_named(map_name)
        #: The current phase's messages, time stamp -> :class:`Message`.
        self.messages: History[int, Message] = History()
        #: The fork's additions (GoodStartLabs' AI_Diplomacy): a summary text per processed
        #: phase name (filled by ``process(phase_summary_callback=...)``) and the harness's own
        #: power -> model table, kept and saved as given.
        self.phase_summaries: dict[str, str] = {}
        self.power_model_map: dict[str, str] = {}
        self._assemble(State(self, map_name, game_map, ruling), None)

    def _assemble(self, state: State, carried: Mapping[str, Any] | None) -> None:
        """The parts of the game, over its board part ``state``, with the fields of
        :data:`CARRIED` (by their pickle keys) when given (a copy, a pickle read)."""
        self._state = state
        self._board = Board(state, self)
        self._intake = intake = OrderIntake(state, self)
        self._history = history = Histories(state, self, intake)
        self._press = Press(state, self)
        state.intake, state.history = intake, history
        self._parts = parts = Parts(state, self._board, intake, history, self._press)
        if carried is not None:
            for key, part, field, _ in CARRIED:
                setattr(getattr(parts, part), field, carried[key])

    # ------------------------------------------------------------------ the phase (State)

    @property
    def ruling(self) -> Rules | None:
        """The :class:`diplo.model.rules.Rules` the game is ruled under (MILA's by default;
        ``None``: diplo's rulings by the DATC v3.0, the map's rules); saved games record it
        (``diplo_ruling``) and loading uses it by default."""
        return self._state.ruling

    @property
    def is_game_done(self) -> bool:
        """Whether the game has ended (a power won, a draw, or the phase set to ``COMPLETED``)."""
        return self._state.done

    @_doc(State.current_phase)
    def get_current_phase(self) -> str:
        return self._state.current_phase()

    @property
    def current_short_phase(self) -> str:
        return self._state.current_phase()

    @property
    def phase(self) -> str:
        """The phase in words as MILA writes it: ``"SPRING 1901 MOVEMENT"``, ``"COMPLETED"``.
        Settable (in words, or ``"COMPLETED"``), as MILA's attribute is."""
        return self._state.phase

    @phase.setter
    def phase(self, value: str) -> None:
        self._state.set_phase(value)

    @property
    def phase_type(self) -> str | None:
        """``"M"``, ``"R"`` or ``"A"``; once the game is done ``"-"`` (``None`` when the phase
        was set to ``COMPLETED``), as MILA."""
        return self._state.phase_type

    @_doc(State.set_current_phase)
    def set_current_phase(self, new_phase: str) -> None:
        self._state.set_current_phase(new_phase)

    def clear_cache(self) -> None:
        """Nothing to clear (MILA's caches are per phase here): kept for MILA's API."""

    @property
    def outcome(self) -> list[str]:
        """``[]`` while playing; then the last phase and the winners (MILA's ``Game.outcome``)."""
        return list(self._state.outcome)

    @property
    def victory(self) -> list[int]:
        return [self._state.model_map.victory]

    @property
    def win(self) -> int:
        return self._state.model_map.victory

    # ------------------------------------------------------------------ the board (Board)

    def get_state(self) -> dict[str, Any]:
        """The current phase's state dictionary, as MILA's ``Game.get_state()`` gives it, with
        the key ``phase`` (the phase's name) that the AI_Diplomacy fork adds and its prompts
        read."""
        state = self._state  # a hot path: the engine's board read here, the rest by the board
        if state.loaded or state.orders_loaded:
            state.sync()
        note = self.note
        if state.done and not note and state.outcome:
            note = "Victory by: " + ", ".join(p[:3] for p in state.outcome[1:])
        if not state.loaded:
            board = state.mila_lists
            if type(board) is not engine.MilaBoard:
                board = state.engine_board()
            if board is not None:  # made by the engine in one call, a new dict each time
                tables = state.made_tables
                if tables is None:
                    tables = state.engine_tables()
                return board.state(tables, state.core, state.current_phase(), note)
        return self._board.state_dict(note)

    def set_state(self, state: Mapping[str, Any], clear_history: bool = True) -> None:
        """Put the game at the phase state ``state`` (``get_state()``'s form; its ``name`` is the
        phase). Pending orders are dropped; the history is cleared unless ``clear_history`` is
        false. Raises :class:`MilaError` for a state that cannot be read (the game unchanged)."""
        self._board.set_board(state)
        if clear_history:
            self._history.records.clear()
            self.messages = History()

    @_doc(Board.get_units)
    def get_units(self, power_name: str | None = None) -> Any:
        return self._board.get_units(power_name)

    @_doc(Board.get_centers)
    def get_centers(self, power_name: str | None = None) -> Any:
        return self._board.get_centers(power_name)

    @property
    def powers(self) -> dict[str, Power]:
        """Every power by name (MILA's live power objects)."""
        return self._state.powers

    @_doc(Board.get_power)
    def get_power(self, power_name: str) -> Power | None:
        return self._board.get_power(power_name)

    def has_power(self, power_name: str) -> bool:
        return self._board.has_power(power_name)

    @_doc(Board.clear_units)
    def clear_units(self, power_name: str | None = None) -> None:
        self._board.clear_units(power_name)

    @_doc(Board.clear_centers)
    def clear_centers(self, power_name: str | None = None) -> None:
        self._board.clear_centers(power_name)

    @_doc(Board.set_units)
    def set_units(self, power_name: str, units: str | Sequence[str], reset: bool = False) -> None:
        self._board.set_units(power_name, units, reset)

    @_doc(Board.set_centers)
    def set_centers(
        self, power_name: str, centers: str | Sequence[str], reset: bool = False
    ) -> None:
        self._board.set_centers(power_name, centers, reset)

    @_doc(Board.get_hash)
    def get_hash(self) -> str:
        return self._board.get_hash()

    @_doc(Board.rebuild_hash)
    def rebuild_hash(self) -> str:
        return self._board.rebuild_hash()

    def update_hash(self, *args: Any, **kwargs: Any) -> None:
        """Nothing to update: the hash is worked out from the board (kept for MILA's API)."""

    # ------------------------------------------------------------------ orders (OrderIntake)

    def get_all_possible_orders(self) -> dict[str, list[str]]:
        """Every map location -> the possible orders of the unit (or build site) there, sorted,
        in MILA's notation; ``[]`` where nothing can be ordered. A new dict each call; its lists
        are made afresh each phase and shared by the calls of one phase (do not change them)."""
        state = self._state  # a hot path: answered here
        if state.loaded or state.orders_loaded:
            state.sync()
        if state.done:
            return {loc: [] for loc in state.tables.listed}
        return dict(state.turn.possible)

    @_doc(OrderIntake.get_orderable_locations)
    def get_orderable_locations(self, power_name: str | None = None) -> Any:
        state = self._state  # a hot path (a bot asks per power, each phase): answered here
        turn = state.turn_cache
        if (
            turn is not None
            and type(power_name) is str
            and not (state.loaded or state.orders_loaded or state.done)
        ):
            locations = turn.orderable.get(power_name)
            if locations is not None:
                return list(locations)
        return self._intake.get_orderable_locations(power_name)

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
        state = self._state  # a hot path: a bot's orders taken here, others by the intake
        turn = state.turn_cache
        if (  # a bot's path: texts as listed this phase, one lookup each
            turn is not None
            and type(orders) is list
            and replace is True
            and not (state.loaded or state.orders_loaded or state.done)
            and "NO_CHECK" not in self.rules
        ):
            # Each text's entry (text, code, slot, text id) kept at its slot; None: some text
            # not listed for the power (or not a string, or an unknown power), read the long way.
            kept = turn.check.take(power_name, orders, state.orders.get(power_name))
            if kept is not None:
                state.orders[power_name] = kept
                return
        self._intake.set_orders(power_name, orders, replace)

    @_doc(OrderIntake.get_orders)
    def get_orders(self, power_name: str | None = None) -> Any:
        return self._intake.get_orders(power_name)

    @_doc(OrderIntake.clear_orders)
    def clear_orders(self, power_name: str | None = None) -> None:
        self._intake.clear_orders(power_name)

    # ------------------------------------------------------------------ histories (Histories)

    def process(
        self, phase_summary_callback: Callable[[str, str], str] | None = None
    ) -> GamePhaseData | None:
        """Rule on the phase with the orders given (units without one hold, dislodged units
        without one are disbanded, unused builds are waived, missing disbands are made by the
        civil-disorder rule) and move on to the next phase with something to decide. A game
        still going after 100 years is drawn, as in MILA. Returns the processed phase as MILA
        does (its state before, orders, messages and results, worked out when first read); does
        nothing and returns ``None`` once the game is done.

        ``phase_summary_callback(system_prompt, user_prompt) -> str`` (the AI_Diplomacy fork's
        hook) is called with a description of the phase and its outcome; its answer becomes the
        phase's ``summary`` and ``phase_summaries[name]``. Without it the phase has no summary
        (the fork stores a placeholder text; the drop-in stores nothing, so that a game played
        without summaries saves exactly as MILA saves it)."""
        if phase_summary_callback is not None and not callable(phase_summary_callback):
            raise TypeError("process: phase_summary_callback must be callable or None")
        processed = self._history.process()
        if processed is None:
            return None
        generate = type(self)._generate_phase_summary
        if phase_summary_callback is not None or generate is not _OWN_SUMMARY:
            # Through the method, as the fork does, so that a harness that replaces it (the
            # fork's narrative.py) is called; without a callback the drop-in's own stores none.
            summary = self._generate_phase_summary(
                processed.name, summary_callback=phase_summary_callback
            )
            if summary is not None and not isinstance(summary, str):
                raise TypeError(
                    f"process: the phase summary (phase_summary_callback or "
                    f"_generate_phase_summary) returned {type(summary).__name__}, not a string "
                    "(the phase was processed; it has no summary)"
                )
            if summary is not None:
                self.phase_summaries[processed.name] = processed.summary = summary
        return processed

    def _generate_phase_summary(
        self,
        phase_key: str,
        summary_callback: Callable[[str, str], str] | None = None,
    ) -> str | None:
        """The summary of the processed phase ``phase_key`` (the AI_Diplomacy fork's method,
        which its ``narrative.py`` replaces): ``summary_callback(system_prompt, user_prompt)``'s
        answer; ``None`` without a callback (the fork returns a placeholder text, which the
        drop-in does not store). ``process`` stores what it returns as the phase's summary."""
        if summary_callback is None:
            return None
        if not callable(summary_callback):
            raise TypeError("_generate_phase_summary: summary_callback must be callable or None")
        try:
            processed = self.get_phase_from_history(str(phase_key))
        except KeyError:
            return f"[_generate_phase_summary] No GamePhaseData found for {phase_key}"
        return summary_callback(SUMMARY_SYSTEM_PROMPT, summary_prompt(processed))

    @_doc(Histories.draw)
    def draw(self, winners: Sequence[str] | None = None) -> None:
        self._history.draw(winners)

    @_doc(Histories.get_order_status)
    def get_order_status(
        self, power_name: str | None = None, unit: str | None = None, loc: str | None = None
    ) -> Any:
        return self._history.get_order_status(power_name, unit, loc)

    @property
    def command(self) -> dict[str, str]:
        """Unit -> its order of the last processed movement phase (``"H"`` when none)."""
        return self._history.command

    @property
    def ordered_units(self) -> dict[str, list[str]]:
        """Power -> the units it ordered in the last processed phase."""
        return self._history.ordered_units

    @property
    def popped(self) -> list[str]:
        """The units disbanded by the last processed phase (dislodged with nowhere to go, or not
        retreated)."""
        return self._history.popped

    @property
    def dislodged(self) -> dict[str, str]:
        """The units dislodged by the last processed movement phase -> the province each
        attacker came from (MILA's attribute)."""
        return self._history.dislodged

    @property
    def order_history(self) -> History[str, dict[str, list[str]]]:
        """Phase name -> {power: orders kept} for every processed phase (waives not listed, as
        MILA; saved games keep them, so that a replay uses each build as this game did)."""
        return self._history.order_history

    @property
    def result_history(self) -> History[str, dict[str, list[str]]]:
        """Phase name -> {unit: MILA's result labels} for every processed phase: ``[]`` for a
        move or support that worked, ``bounce``, ``cut``, ``no convoy``, ``void``,
        ``dislodged``; ``disband`` in retreats; ``''`` / ``void`` for adjustments."""
        return self._history.result_history

    @property
    def state_history(self) -> History[str, dict[str, Any]]:
        """Phase name -> the state dictionary the phase started from."""
        return self._history.state_history

    @property
    def message_history(self) -> History[str, History[int, Message]]:
        """Phase name -> its messages (time stamp -> :class:`Message`)."""
        return self._history.message_history

    @_doc(Histories.get_phase_history)
    def get_phase_history(
        self,
        from_phase: str | int | None = None,
        to_phase: str | int | None = None,
        game_role: str | None = None,
    ) -> list[GamePhaseData]:
        del game_role
        return self._history.get_phase_history(from_phase, to_phase)

    @_doc(Histories.get_phase_from_history)
    def get_phase_from_history(
        self, short_phase_name: str, game_role: str | None = None
    ) -> GamePhaseData:
        return self._history.get_phase_from_history(short_phase_name, game_role)

    def phase_history_from_timestamp(self, timestamp: int) -> list[GamePhaseData]:
        return self._history.phase_history_from_timestamp(timestamp)

    @_doc(Histories.get_phase_data)
    def get_phase_data(self) -> GamePhaseData:
        return self._history.get_phase_data()

    @_doc(Histories.set_phase_data)
    def set_phase_data(
        self, phase_data: GamePhaseData | Sequence[GamePhaseData], clear_history: bool = True
    ) -> None:
        self._history.set_phase_data(phase_data, clear_history)

    # ------------------------------------------------------------------ rules and press (Press)

    @property
    def no_press(self) -> bool:
        """Whether the game has MILA's rule ``NO_PRESS``."""
        return "NO_PRESS" in self.rules

    @property
    def no_check(self) -> bool:
        """Whether the game has MILA's rule ``NO_CHECK`` (movement orders kept unchecked)."""
        return "NO_CHECK" in self.rules

    @_doc(Press.add_rule)
    def add_rule(self, rule: str) -> None:
        self._press.add_rule(rule)

    def remove_rule(self, rule: str) -> None:
        self._press.remove_rule(rule)

    def is_player_game(self) -> bool:
        return self._press.is_player_game()

    def is_observer_game(self) -> bool:
        return self._press.is_observer_game()

    def is_omniscient_game(self) -> bool:
        return self._press.is_omniscient_game()

    def is_server_game(self) -> bool:
        return False

    @property
    def power(self) -> Power | None:
        """The power a player game plays (``role``), else ``None``."""
        return self._press.power

    @_doc(Press.add_message)
    def add_message(self, message: Message) -> int:
        return self._press.add_message(message)

    @_doc(Press.new_power_message)
    def new_power_message(self, recipient: str, body: str, sender: str | None = None) -> Message:
        return self._press.new_power_message(recipient, body, sender)

    @_doc(Press.new_global_message)
    def new_global_message(self, body: str, sender: str | None = None) -> Message:
        return self._press.new_global_message(body, sender)

    @_doc(Press.new_system_message)
    def new_system_message(self, recipient: str, body: str) -> int:
        return self._press.new_system_message(recipient, body)

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
        from ...render.svg import board_svg

        position = self._state.position()
        results: list[dict[str, Any]] = []
        if incl_orders:
            for power, texts in self.get_orders().items():
                results.extend({"power": power, "order": t} for t in texts)
        svg = board_svg(position, results, title=self.get_current_phase())
        if output_path is not None:
            Path(output_path).write_text(svg, encoding="utf-8")
        return svg

    # ------------------------------------------------------------------ MILA's inner names

    def _abuts(self, unit_type: str, unit_loc: str, order_type: str, other_loc: str) -> int:
        """1 when the map lets ``unit_type`` at ``unit_loc`` move to, support into or convoy
        to ``other_loc`` (MILA's ``Game._abuts``, which asks ``map.abuts``), else 0."""
        return 1 if self.map.abuts(unit_type, unit_loc, order_type, other_loc) else 0

    def _get_convoy_destinations(
        self,
        unit: str,
        start: str,
        unit_is_convoyer: bool = False,
        exclude_convoy_locs: Iterable[str] | None = None,
    ) -> list[str]:
        """Where an army at ``start`` can be convoyed by the fleets now at sea (MILA's
        ``Game._get_convoy_destinations``: ``unit`` ``'A'``), or, with ``unit_is_convoyer``,
        where a fleet at ``start`` helps convoy an army (``unit`` ``'F'``); fleets at
        ``exclude_convoy_locs`` left out; MILA's chains of at most 13 fleets; sorted (MILA's
        order is its sets')."""
        if (unit == "A") == bool(unit_is_convoyer):
            return []
        fleets = convoy_fleets(self)
        fleets -= {str(x).upper() for x in exclude_convoy_locs or ()}
        if not unit_is_convoyer:
            return sorted(convoy_reach(self.map, str(start).upper(), fleets))
        return sorted(convoyer_reach(self.map, str(start).upper(), fleets))

    @_doc(Board.unit_owner)
    def _unit_owner(self, unit: str, coast_required: int | bool = 1) -> Power | None:
        return self._board.unit_owner(unit, coast_required)

    def _occupant(self, site: str, any_coast: int = 0) -> str | None:
        return self._board.occupant(site, any_coast)

    @property
    def lost(self) -> dict[str, Power]:
        """The supply centres that changed hands as the game last went into a winter (MILA's
        ``Game.lost``): centre -> the power (object) that owned it before."""
        return lost_centres(self, self._history, self._state.doc())

    # ------------------------------------------------------------------ copies and pickles

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        state, history = self._state, self._history
        state.sync()
        new = Game.__new__(Game)
        memo[id(self)] = new
        new.__dict__.update(self.__dict__)
        new.map = self.map
        new.rules = list(self.rules)
        new.error = list(self.error)
        new.messages = History({t: m.copy() for t, m in self.messages.items()})
        new.phase_summaries = dict(self.phase_summaries)
        new.power_model_map = dict(self.power_model_map)
        parts = self._parts
        carried = {}
        for key, part, field, copier in CARRIED:
            value = getattr(getattr(parts, part), field)
            carried[key] = value if copier is None else copier(value, memo)
        # The records that MILA's list order is still to be worked out from: the copy's own.
        records = carried["_records"]
        copied = {id(r): n for r, n in zip(history.records, records, strict=True)}
        for record in records:
            if isinstance(record.lists, Record):
                record.lists = copied.get(id(record.lists), record.lists)
        if isinstance(carried["_mila_lists"], Record):
            carried["_mila_lists"] = copied.get(id(carried["_mila_lists"]), carried["_mila_lists"])
        made = State.__new__(State)
        made.copied_from(new, state, state.core.clone())
        new._assemble(made, carried)
        made.bump()
        for name in state.loaded:  # lists that a position cannot hold (a dislodged unit)
            made.blank(name).take(state.sheets[name])
            made.stamp(name)
        return new

    def __getstate__(self) -> dict[str, Any]:
        """The game as plain data: MILA's attributes, :data:`CARRIED`, the engine's raw state
        and the power objects' lists made this phase (the engine object itself does not
        pickle)."""
        state, history = self._state, self._history
        state.sync()
        for record in history.records:  # worked out now: the engine's rulings do not pickle
            if record.state is not None:
                history.results(record)
        for record in history.records:  # the states in MILA's order (the records' links do not)
            history.state_of(record)
        state.engine_doc()  # the current board's MILA order, made
        pickled = dict(self.__dict__)
        parts = self._parts
        pickled.update(
            (key, getattr(getattr(parts, part), field)) for key, part, field, _ in CARRIED
        )
        pickled["_mila_lists"] = state.python_lists()  # the engine's do not pickle
        pickled["_core_state"] = state.core.state()
        pickled["_max_year"] = state.core.max_year
        pickled["_lists"] = {n: state.sheets[n].lists() for n in state.loaded}
        return pickled

    def __setstate__(self, state: dict[str, Any]) -> None:
        pickled = dict(state)
        lists = pickled.pop("_lists")
        core_state = pickled.pop("_core_state")
        max_year = pickled.pop("_max_year")
        # An earlier release's pickle may hold no MILA order of the lists (made below).
        carried = {key: pickled.pop(key, None) for key, _, _, _ in CARRIED}
        pickled.setdefault("phase_summaries", {})
        pickled.setdefault("power_model_map", {})
        self.__dict__.update(pickled)
        game_map = mila_map_for(self.map_name)
        self.map = map_named(self.map_name)
        position = position_from_state(game_map, core_state, carried["_ruling"])
        if not isinstance(carried["_mila_lists"], Lists):  # an earlier release's
            carried["_mila_lists"] = lists_of(position_to_mila(position), game_map.powers)
        made = State.__new__(State)
        made.adopt(self, game_map, engine.new_game(position, max_year))
        self._assemble(made, carried)
        for record in self._history.records:
            if record.results is None and record.state is not None:
                # Pickled by an earlier release, which worked results out only when asked:
                # the engine rules the kept orders now (the one phase ruled here, not at play).
                kept = position_from_state(game_map, record.state, made.ruling)
                record.verdict = engine.rule_kept(kept, record.orders)
        made.bump()
        for name, kept_lists in lists.items():
            made.blank(name).set_lists(kept_lists)
            made.stamp(name)

    def __repr__(self) -> str:
        return f"<diplo.compat.mila.Game {self.game_id} {self.get_current_phase()}>"


#: The drop-in's own summary method (a harness may replace it on the class).
_OWN_SUMMARY: Final = Game._generate_phase_summary
