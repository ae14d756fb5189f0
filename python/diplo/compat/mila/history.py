"""Processing and the histories of a drop-in game: results, orders, states, phase data."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, Final

from ...engine import mila as engine
from ...engine.codes import position_from_state
from ...formats.mila import position_to_mila
from .._press import GamePhaseData, History, Message
from .base import GameBase
from .boards import python_lists
from .copies import copy_tree
from .names import DRAW_AFTER_YEARS, STATE_KEYS, index_of, mila_name, pairs, shown_orders
from .order import Lists, arrange, initial_lists, lists_of, next_lists
from .records import Record
from .summaries import SUMMARY_SYSTEM_PROMPT, summary_prompt
from .turn import Turn
from .zobrist import zobrist_of

__all__ = ["Histories"]


class Histories(GameBase):
    """Processing and MILA's history calls (a part of :class:`diplo.compat.mila.Game`)."""

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

    def _last_of_kind(self, kind: str) -> Record | None:
        last = self._records[-1] if self._records else None
        return last if last is not None and last.name.endswith(kind) else None

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
        if self._loaded or self._orders_loaded:
            self._sync()
        if self._done:
            return None
        if self._milas_intake and self._turn.name[0] == "F" and self._turn.kind in "MR":
            self._homes_when_no_centre()
        turn = self._turn
        voids: list[tuple[str, str]] = []
        core = self._core
        # Every order was read when given (code None: kept unchecked, read now). The engine
        # rules the phase once, explained, and hands back its verdict, kept for the history.
        orders = self._orders
        verdict = engine.play(core, turn.check, orders)
        if verdict is None:
            orders = self._resolved(turn, voids)
            verdict = engine.play(core, turn.check, orders)
            assert verdict is not None  # every order now has its code
        records = self._records
        # What the phase just before dislodged with nowhere to go (MILA labels it).
        popped = records[-1].unretreated_units(self._map) if records and turn.kind in "RA" else ()
        record = Record(
            turn.name,
            verdict,
            None,
            self.messages,
            voids=voids,
            timestamp=time.time_ns() // 1000,
            popped=popped,
        )
        record.pending = (orders, self._tables.powers)  # the orders' texts listed when asked for
        lists = record.lists = self._mila_lists
        if isinstance(lists, engine.MilaBoard):  # kept by the engine since get_state asked
            self._mila_lists = lists.after(self._engine_tables(), verdict, core)
        else:  # MILA's order of the lists, applied when asked for
            self._mila_lists = record
        records.append(record)
        processed = self._phase_data(record)
        self.messages = History()
        self._orders = {}
        self._turn_cache = None
        self._doc_cache = None
        if self._loaded:
            self._bump()
        elif self._orders_loaded:
            self._forget_order_views()
        winner = core.winner  # cheaper than is_over, which is asked only with a year limit
        if winner is not None:
            # MILA finds the winner as it enters the winter, when centres change hands: its
            # outcome names that phase (W1938A after F1938M), played or not.
            ended = "W" + turn.name[1:-1] + "A" if turn.name[0] == "F" else turn.name
            self._finish([winner], ended)
        elif core.max_year is not None and core.is_over:
            self._finish(self._survivors(), turn.name)
        else:
            self._draw_after_years(turn)
        generate = type(self)._generate_phase_summary
        if phase_summary_callback is not None or generate is not _OWN_SUMMARY:
            # Through the method, as the fork does, so that a harness that replaces it (the
            # fork's narrative.py) is called; without a callback the drop-in's own stores none.
            summary = self._generate_phase_summary(
                turn.name, summary_callback=phase_summary_callback
            )
            if summary is not None and not isinstance(summary, str):
                raise TypeError(
                    f"process: the phase summary (phase_summary_callback or "
                    f"_generate_phase_summary) returned {type(summary).__name__}, not a string "
                    "(the phase was processed; it has no summary)"
                )
            if summary is not None:
                self.phase_summaries[turn.name] = processed.summary = summary
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

    def _homes_when_no_centre(self) -> None:
        """MILA's bookkeeping (``_capture_centers``): when no power owns a supply centre as
        the game goes into the winter (a board after ``clear_centers``), each power is given
        its home centres before centres change hands. Given here before the Fall is played
        (centres rule nothing in it), so its record shows them."""
        if any(self._doc()["centers"].values()):
            return
        homes = self._map.homes
        for name, power in self._powers.items():
            power.centers.extend(homes.get(name, ()))
        self._sync()

    def _resolved(
        self, turn: Turn, voids: list[tuple[str, str]]
    ) -> dict[str, dict[int, tuple[Any, ...]]]:
        """The orders kept, those kept unchecked read now (a void one left out and noted in
        ``voids``): power -> entry index -> (text, code), in the map's order of powers."""
        out: dict[str, dict[int, tuple[Any, ...]]] = {}
        orders = self._orders
        for power in self._tables.powers:
            given = orders.get(power)
            if not given:
                continue
            entries: dict[int, tuple[Any, ...]] = {}
            for text, code in pairs(given):
                if code is None:  # kept unchecked: read now, void when it cannot be
                    read = None if text.startswith("VOID ") else self._read(power, text, turn, True)
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
        year = int(turn.name[1:-1])
        if year - self._first_year_cached + 1 < DRAW_AFTER_YEARS:
            return
        winter = "W" + turn.name[1:-1] + "A"
        if turn.kind == "A":  # a winter played (a game set there by hand)
            self._finish(self._survivors(), winter)
        elif turn.name[0] == "F" and mila_name(self._core.phase) != "F" + turn.name[1:-1] + "R":
            record = self._record_current(results={})
            record.name = winter
            record.timestamp = time.time_ns() // 1000
            assert record.state_doc is not None
            record.state_doc["name"] = winter
            self._records.append(record)
            self.messages = History()
            self._finish(self._survivors(), winter)

    def _state_of(self, record: Record) -> dict[str, Any]:
        """A processed phase's state dictionary as MILA's history holds it (its lists in MILA's
        order)."""
        if record.state_doc is None:
            raw = self._raw_state_of(record)
            record.state_doc = arrange(raw, self._lists_at(record), self.map.loc_abut)
            record.raw = None
        return record.state_doc

    def _raw_state_of(self, record: Record) -> dict[str, Any]:
        """A played phase's board as diplo gives it (sorted lists)."""
        if record.state_doc is not None:
            return record.state_doc
        if record.raw is None:
            assert record.state is not None
            position = position_from_state(self._map, record.state, self._core_rules())
            record.raw = position_to_mila(position)
        return record.raw

    def _lists_at(self, record: Record) -> Lists:
        """MILA's order of the lists of the board a processed phase started from."""
        chain = [record]
        while isinstance(chain[-1].lists, Record):
            chain.append(chain[-1].lists)
        first = chain[-1]
        if isinstance(first.lists, engine.MilaBoard):
            first.lists = python_lists(self._engine_tables(), first.lists)
        if first.lists is None:
            if first.state_doc is not None:  # a phase read from a save: its lists as given
                first.lists = lists_of(first.state_doc, self._tables.powers)
            else:  # a new game's first phase
                first.lists = initial_lists(self.map.units, self.map.centers, self._tables.powers)
        for later, earlier in zip(chain[-2::-1], chain[:0:-1], strict=True):
            assert isinstance(earlier.lists, Lists)
            later.lists = self._lists_after(earlier, self._raw_state_of(later))
        assert isinstance(record.lists, Lists)
        return record.lists

    def _lists_after(self, record: Record, board: dict[str, Any]) -> Lists:
        """The lists after the processed phase ``record``, which left ``board``."""
        return next_lists(
            self._lists_at(record),
            record.name[-1],
            record.orders,
            board,
            self.map.scs,
            lambda: self._results(record),
        )

    def _results(self, record: Record) -> dict[str, list[str]]:
        return record.labels(self._map, self._core_rules())

    @property
    def dislodged(self) -> dict[str, str]:
        """The units dislodged by the last processed movement phase -> the province each
        attacker came from (MILA's attribute)."""
        last = self._last_of_kind("M")
        if last is None:
            return {}
        self._results(last)
        return dict(last.dislodged or {})

    @property
    def order_history(self) -> History[str, dict[str, list[str]]]:
        """Phase name -> {power: orders kept} for every processed phase (waives not listed, as
        MILA; saved games keep them, so that a replay uses each build as this game did)."""
        coasts = self._two_coasts
        return History((r.name, shown_orders(r.orders, coasts)) for r in self._records)

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

    def _phase_state(self, record: Record) -> dict[str, Any]:
        """A processed phase's state dictionary (a copy) as MILA's phase data hold it: the
        board, when it was taken (``timestamp``) and its Zobrist hash (``zobrist_hash``)."""
        state: dict[str, Any] = copy_tree(self._state_of(record))
        if record.timestamp is None:
            given = state.get("timestamp")
            record.timestamp = given if type(given) is int else self.timestamp_created
        if record.zobrist is None:
            record.zobrist = str(zobrist_of(self.map, state))
        state["timestamp"], state["zobrist_hash"] = record.timestamp, record.zobrist
        return state

    def _phase_data(self, record: Record) -> GamePhaseData:
        def fill() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
            return (
                self._phase_state(record),
                {p: list(o) for p, o in shown_orders(record.orders, self._two_coasts).items()},
                {u: list(r) for u, r in self._results(record).items()},
            )

        return GamePhaseData(
            record.name,
            messages=record.messages.copy(),
            summary=self.phase_summaries.get(record.name),
            fill=fill,
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
        start = index_of(from_phase, names, 0)
        stop = index_of(to_phase, names, len(names) - 1) + 1
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

    def _record_current(self, results: dict[str, list[str]] | None = None) -> Record:
        return Record(
            self.get_current_phase(),
            None if self._done else self._core.state(),
            self.get_orders(),
            self.messages,
            results,
            {k: v for k, v in self.get_state().items() if k in STATE_KEYS},
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
            if texts and power in self._powers:
                self.set_orders(power, list(texts))
        self.messages = History(current.messages)


#: The drop-in's own summary method (a harness may replace it on the class).
_OWN_SUMMARY: Final = Histories._generate_phase_summary
