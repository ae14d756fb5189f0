"""Processing and the histories of a drop-in game: results, orders, states, phase data."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Final

from ...engine import mila as engine
from ...engine.codes import position_from_state
from ...formats.mila import position_to_mila
from .._press import GamePhaseData, History, Message
from .base import Face, State
from .boards import python_lists
from .copies import copy_tree
from .intake import OrderIntake
from .names import DRAW_AFTER_YEARS, STATE_KEYS, index_of, mila_name, pairs, shown_orders
from .order import Lists, arrange, initial_lists, lists_of, next_lists
from .records import Record
from .turn import Turn
from .zobrist import zobrist_of

__all__ = ["Histories"]


class Histories:
    """Processing and MILA's history calls: the histories part of
    :class:`diplo.compat.mila.Game`, over its board part ``state``; it keeps the processed
    phases (:attr:`records`) and what a saved game held that MILA does not know
    (:attr:`extra`)."""

    #: Its fields (see :data:`diplo.compat.mila.game.CARRIED`): the links to the game and its
    #: board part; the processed phases and a save's extras, carried; nothing worked out.
    LINKS: Final = ("_game", "_intake", "_state")
    KEPT: Final = ("extra", "records")
    MADE: Final = ()
    __slots__ = LINKS + KEPT + MADE

    def __init__(self, state: State, game: Face, intake: OrderIntake) -> None:
        self._state = state
        self._game = game
        self._intake = intake
        #: The processed phases, oldest first.
        self.records: list[Record] = []
        #: The keys of a loaded save MILA does not know (top-level, and the current phase's
        #: under ``__current_phase__``), written again by the next save.
        self.extra: dict[str, Any] = {}

    def get_order_status(
        self, power_name: str | None = None, unit: str | None = None, loc: str | None = None
    ) -> Any:
        """The result labels of the last processed phase (MILA's ``get_order_status``): of a
        ``unit`` (a list), of the unit at ``loc`` (``(unit, labels)``), of a power's units (a
        dict), or of every power's (a dict of dicts)."""
        state = self._state
        if unit is not None and loc is not None:
            raise ValueError("get_order_status: give unit or loc, not both")
        last = self.records[-1] if self.records else None
        results = self.results(last) if last is not None else {}
        if unit is not None:
            return list(results.get(unit, []))
        if loc is not None:
            for have, labels in results.items():
                if have[2:5] == loc[:3]:
                    return have, list(labels)
            return loc, []
        if power_name is not None:
            name = state.power_name(power_name)
            units = self.state_of(last)["units"][name] if last is not None else []
            return {u.lstrip("*"): list(results.get(u.lstrip("*"), [])) for u in units}
        return {p: self.get_order_status(p) for p in state.model_map.powers}

    @property
    def command(self) -> dict[str, str]:
        """Unit -> its order of the last processed movement phase (``"H"`` when none)."""
        last = self._last_of_kind("M")
        if last is None:
            return {}
        out: dict[str, str] = {}
        state = self.state_of(last)
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
        last = self.records[-1] if self.records else None
        out: dict[str, list[str]] = {p: [] for p in self._state.model_map.powers}
        if last is not None:
            for power, texts in last.orders.items():
                out[power] = [" ".join(t.split()[:2]) for t in texts if t != "WAIVE"]
        return out

    @property
    def popped(self) -> list[str]:
        """The units disbanded by the last processed phase (dislodged with nowhere to go, or not
        retreated)."""
        if not self.records:
            return []
        last = self.records[-1]
        results = self.results(last)
        if last.name.endswith("R"):
            return [u for u, labels in results.items() if "disband" in labels]
        if last.name.endswith("M"):
            now = self._game.get_units()
            dislodged = {u[1:] for units in now.values() for u in units if u.startswith("*")}
            gone = [u for u, labels in results.items() if "dislodged" in labels]
            return [u for u in gone if u not in dislodged]
        return []

    def _last_of_kind(self, kind: str) -> Record | None:
        last = self.records[-1] if self.records else None
        return last if last is not None and last.name.endswith(kind) else None

    def draw(self, winners: Sequence[str] | None = None) -> None:
        """End the game in a draw between ``winners`` (default: the powers with units)."""
        state = self._state
        state.sync()
        if winners is None:
            winners = [p for p in state.model_map.powers if self._game.get_units(p)]
        else:
            winners = [state.power_name(w) for w in winners]
        last = state.current_phase()
        record = self._record_current(results={})
        self.records.append(record)
        self._game.messages = History()
        state.finish(winners, last)

    def process(self) -> GamePhaseData | None:
        """Rule on the phase with the orders given and move on (MILA's ``process`` but for the
        fork's summary, which the game adds: :meth:`diplo.compat.mila.Game.process`); ``None``
        once the game is done."""
        state = self._state
        if state.loaded or state.orders_loaded:
            state.sync()
        if state.done:
            return None
        if state.milas_intake and state.turn.name[0] == "F" and state.turn.kind in "MR":
            self._homes_when_no_centre()
        turn = state.turn
        voids: list[tuple[str, str]] = []
        core = state.core
        # Every order was read when given (code None: kept unchecked, read now). The engine
        # rules the phase once, explained, and hands back its verdict, kept for the history.
        orders = state.orders
        verdict = engine.play(core, turn.check, orders)
        if verdict is None:
            orders = self._resolved(turn, voids)
            verdict = engine.play(core, turn.check, orders)
            assert verdict is not None  # every order now has its code
        state.turn_cache = None  # the engine is at the next phase: the lists were this one's
        records = self.records
        # What the phase just before dislodged with nowhere to go (MILA labels it).
        popped = (
            records[-1].unretreated_units(state.model_map) if records and turn.kind in "RA" else ()
        )
        record = Record(
            turn.name,
            verdict,
            None,
            self._game.messages,
            voids=voids,
            timestamp=time.time_ns() // 1000,
            popped=popped,
        )
        record.pending = (orders, state.tables.powers)  # the orders' texts listed when asked for
        lists = record.lists = state.mila_lists
        if isinstance(lists, engine.MilaBoard):  # kept by the engine since get_state asked
            state.mila_lists = lists.after(state.engine_tables(), verdict, core)
        else:  # MILA's order of the lists, applied when asked for
            state.mila_lists = record
        records.append(record)
        processed = self.phase_data(record)
        self._game.messages = History()
        state.orders = {}
        state.doc_cache = None
        if state.loaded:
            state.bump()
        elif state.orders_loaded:
            state.forget_order_views()
        winner = core.winner  # cheaper than is_over, which is asked only with a year limit
        if winner is not None:
            # MILA finds the winner as it enters the winter, when centres change hands: its
            # outcome names that phase (W1938A after F1938M), played or not.
            ended = "W" + turn.name[1:-1] + "A" if turn.name[0] == "F" else turn.name
            state.finish([winner], ended)
        elif core.max_year is not None and core.is_over:
            state.finish(state.survivors(), turn.name)
        else:
            self._draw_after_years(turn)
        return processed

    def _homes_when_no_centre(self) -> None:
        """MILA's bookkeeping (``_capture_centers``): when no power owns a supply centre as
        the game goes into the winter (a board after ``clear_centers``), each power is given
        its home centres before centres change hands. Given here before the Fall is played
        (centres rule nothing in it), so its record shows them."""
        if any(self._state.doc()["centers"].values()):
            return
        homes = self._state.model_map.homes
        for name, power in self._state.powers.items():
            power.centers.extend(homes.get(name, ()))
        self._state.sync()

    def _resolved(
        self, turn: Turn, voids: list[tuple[str, str]]
    ) -> dict[str, dict[int, tuple[Any, ...]]]:
        """The orders kept, those kept unchecked read now (a void one left out and noted in
        ``voids``): power -> entry index -> (text, code), in the map's order of powers."""
        state = self._state
        out: dict[str, dict[int, tuple[Any, ...]]] = {}
        orders = state.orders
        for power in state.tables.powers:
            given = orders.get(power)
            if not given:
                continue
            entries: dict[int, tuple[Any, ...]] = {}
            for text, code in pairs(given):
                if code is None:  # kept unchecked: read now, void when it cannot be
                    read = (
                        None
                        if text.startswith("VOID ")
                        else self._intake.read(power, text, turn, True)
                    )
                    if read is None:
                        voids.append((power, " ".join(text.removeprefix("VOID ").split()[:2])))
                        continue
                    code, text = read, turn.text(read)
                entries[len(entries)] = (text, code)
            out[power] = entries
        return out

    def _draw_after_years(self, turn: Turn) -> None:
        """MILA's draw of a game still going in its hundredth year: as it enters that year's
        winter (after the Fall, and its retreats), before any build or disband, it records the
        winter phase with no orders and no results and draws among the powers with units."""
        state = self._state
        year = int(turn.name[1:-1])
        if year - state.first_year + 1 < DRAW_AFTER_YEARS:
            return
        winter = "W" + turn.name[1:-1] + "A"
        if turn.kind == "A":  # a winter played (a game set there by hand)
            state.finish(state.survivors(), winter)
        elif turn.name[0] == "F" and mila_name(state.core.phase) != "F" + turn.name[1:-1] + "R":
            record = self._record_current(results={})
            record.name = winter
            record.timestamp = time.time_ns() // 1000
            assert record.state_doc is not None
            record.state_doc["name"] = winter
            self.records.append(record)
            self._game.messages = History()
            state.finish(state.survivors(), winter)

    def state_of(self, record: Record) -> dict[str, Any]:
        """A processed phase's state dictionary as MILA's history holds it (its lists in MILA's
        order)."""
        if record.state_doc is None:
            raw = self._raw_state_of(record)
            record.state_doc = arrange(raw, self._lists_at(record), self._state.map.loc_abut)
            record.raw = None
        return record.state_doc

    def _raw_state_of(self, record: Record) -> dict[str, Any]:
        """A played phase's board as diplo gives it (sorted lists)."""
        state = self._state
        if record.state_doc is not None:
            return record.state_doc
        if record.raw is None:
            assert record.state is not None
            position = position_from_state(state.model_map, record.state, state.ruling)
            record.raw = position_to_mila(position)
        return record.raw

    def _lists_at(self, record: Record) -> Lists:
        """MILA's order of the lists of the board a processed phase started from."""
        state = self._state
        chain = [record]
        while isinstance(chain[-1].lists, Record):
            chain.append(chain[-1].lists)
        first = chain[-1]
        if isinstance(first.lists, engine.MilaBoard):
            first.lists = python_lists(state.engine_tables(), first.lists)
        if first.lists is None:
            if first.state_doc is not None:  # a phase read from a save: its lists as given
                first.lists = lists_of(first.state_doc, state.tables.powers)
            else:  # a new game's first phase
                first.lists = initial_lists(state.map.units, state.map.centers, state.tables.powers)
        for later, earlier in zip(chain[-2::-1], chain[:0:-1], strict=True):
            assert isinstance(earlier.lists, Lists)
            later.lists = self.lists_after(earlier, self._raw_state_of(later))
        assert isinstance(record.lists, Lists)
        return record.lists

    def lists_after(self, record: Record, board: dict[str, Any]) -> Lists:
        """The lists after the processed phase ``record``, which left ``board``."""
        return next_lists(
            self._lists_at(record),
            record.name[-1],
            record.orders,
            board,
            self._state.map.scs,
            lambda: self.results(record),
        )

    def results(self, record: Record) -> dict[str, list[str]]:
        return record.labels(self._state.model_map, self._state.ruling)

    @property
    def dislodged(self) -> dict[str, str]:
        """The units dislodged by the last processed movement phase -> the province each
        attacker came from (MILA's attribute)."""
        last = self._last_of_kind("M")
        if last is None:
            return {}
        self.results(last)
        return dict(last.dislodged or {})

    @property
    def order_history(self) -> History[str, dict[str, list[str]]]:
        """Phase name -> {power: orders kept} for every processed phase (waives not listed, as
        MILA; saved games keep them, so that a replay uses each build as this game did)."""
        coasts = self._state.two_coasts
        return History((r.name, shown_orders(r.orders, coasts)) for r in self.records)

    @property
    def result_history(self) -> History[str, dict[str, list[str]]]:
        """Phase name -> {unit: MILA's result labels} for every processed phase: ``[]`` for a
        move or support that worked, ``bounce``, ``cut``, ``no convoy``, ``void``,
        ``dislodged``; ``disband`` in retreats; ``''`` / ``void`` for adjustments."""
        return History((r.name, self.results(r)) for r in self.records)

    @property
    def state_history(self) -> History[str, dict[str, Any]]:
        """Phase name -> the state dictionary the phase started from."""
        return History((r.name, self.state_of(r)) for r in self.records)

    @property
    def message_history(self) -> History[str, History[int, Message]]:
        """Phase name -> its messages (time stamp -> :class:`Message`)."""
        return History((r.name, r.messages) for r in self.records)

    def phase_state(self, record: Record) -> dict[str, Any]:
        """A processed phase's state dictionary (a copy) as MILA's phase data hold it: the
        board, when it was taken (``timestamp``) and its Zobrist hash (``zobrist_hash``)."""
        state: dict[str, Any] = copy_tree(self.state_of(record))
        if record.timestamp is None:
            given = state.get("timestamp")
            record.timestamp = given if type(given) is int else self._game.timestamp_created
        if record.zobrist is None:
            record.zobrist = str(zobrist_of(self._state.map, state))
        state["timestamp"], state["zobrist_hash"] = record.timestamp, record.zobrist
        return state

    def phase_data(self, record: Record) -> GamePhaseData:
        def fill() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
            return (
                self.phase_state(record),
                {
                    p: list(o)
                    for p, o in shown_orders(record.orders, self._state.two_coasts).items()
                },
                {u: list(r) for u, r in self.results(record).items()},
            )

        return GamePhaseData(
            record.name,
            messages=record.messages.copy(),
            summary=self._game.phase_summaries.get(record.name),
            fill=fill,
        )

    def get_phase_history(
        self, from_phase: str | int | None, to_phase: str | int | None
    ) -> list[GamePhaseData]:
        """The processed phases (from ``from_phase`` to ``to_phase``, names or indexes, both
        included) as :class:`GamePhaseData`."""
        names = [r.name for r in self.records]
        start = index_of(from_phase, names, 0)
        stop = index_of(to_phase, names, len(names) - 1) + 1
        return [self.phase_data(r) for r in self.records[start:stop]]

    def get_phase_from_history(
        self, short_phase_name: str, game_role: str | None = None
    ) -> GamePhaseData:
        """A processed phase by name; ``KeyError`` naming it when there is none."""
        del game_role
        for record in self.records:
            if record.name == short_phase_name:
                return self.phase_data(record)
        raise KeyError(f"no processed phase {short_phase_name!r} in the history")

    def phase_history_from_timestamp(self, timestamp: int) -> list[GamePhaseData]:
        return [
            self.phase_data(r)
            for r in self.records
            if any(t >= timestamp for t in r.messages) or not r.messages
        ]

    def _record_current(self, results: dict[str, list[str]] | None = None) -> Record:
        return Record(
            self._state.current_phase(),
            None if self._state.done else self._state.core.state(),
            self._game.get_orders(),
            self._game.messages,
            results,
            {k: v for k, v in self._game.get_state().items() if k in STATE_KEYS},
        )

    def get_phase_data(self) -> GamePhaseData:
        """The current phase as :class:`GamePhaseData` (state, orders so far, messages)."""
        return GamePhaseData(
            self._state.current_phase(),
            self._game.get_state(),
            self._game.get_orders(),
            {},
            self._game.messages.copy(),
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
        self._game.set_state(current.state, clear_history=clear_history)
        for item in earlier:
            self.records.append(
                Record(
                    item.name,
                    None,
                    {p: list(o or []) for p, o in item.orders.items()},
                    History(item.messages),
                    {u: [str(x) for x in r] for u, r in item.results.items()},
                    dict(item.state),
                )
            )
        for power, texts in current.orders.items():
            if texts and power in self._state.powers:
                self._intake.set_orders(power, list(texts), replace=True)
        self._game.messages = History(current.messages)
