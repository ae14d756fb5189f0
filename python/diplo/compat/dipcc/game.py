"""``Game`` and ``PhaseData``: the calls of dipcc's ``pydipcc.Game``, ruled by diplo.

The behaviour follows dipcc's sources (``dipcc/cc/game.cc``, ``game_state.cc`` and
``dipcc/pybind/*.cc`` in facebookresearch/diplomacy_cicero); ``docs/dipcc-compat.md`` lists
every call and every departure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from .board import (
    LOC_INDEX,
    LOCS,
    POWERS,
    DipccOrder,
    board,
    format_order,
    pack_orders,
    parse_order,
)
from .jsonio import record_from_json, record_to_json
from .record import GameRecord, gen_game_id, message_dict, state_dict
from .state import PhaseName, State
from .timestamp import Timestamp

__all__ = ["ConvoyParadoxException", "Game", "PhaseData", "state_of"]


class ConvoyParadoxException(Exception):
    """dipcc's exception for a convoy paradox when ``set_exception_on_convoy_paradox`` is on.

    diplo resolves every paradox by the Szykman rule as dipcc does; it does not raise this (see
    ``docs/dipcc-compat.md``)."""


def _power(name: object) -> str:
    if name not in POWERS:
        raise RuntimeError(f"Bad arg to power_from_str: {name}")
    return str(name)


def _recipient(name: object) -> str:
    if name != "ALL" and name not in POWERS:
        raise RuntimeError(f"Bad arg to power_or_all_from_str: {name}")
    return str(name)


def _sorted_action(orders: Iterable[DipccOrder]) -> list[str]:
    return [format_order(o) for o in sorted(orders, key=lambda o: o.unit_loc)]


class PhaseData:
    """One phase of a game: its name, board, orders and messages (``pydipcc.PhaseData``)."""

    def __init__(
        self,
        state: State,
        orders: Mapping[str, Sequence[DipccOrder]],
        messages: Mapping[int, Mapping[str, Any]] | None = None,
    ) -> None:
        self._state = state
        self._orders = {p: list(o) for p, o in orders.items()}
        self._messages = dict(messages or {})

    @property
    def name(self) -> str:
        return str(self._state.phase)

    @property
    def state(self) -> dict[str, Any]:
        return state_dict(self._state)

    @property
    def orders(self) -> dict[str, list[str]]:
        return {p: _sorted_action(o) for p, o in self._orders.items()}

    @property
    def messages(self) -> dict[Timestamp, dict[str, Any]]:
        return {
            Timestamp.from_centis(t): message_dict(m) for t, m in sorted(self._messages.items())
        }

    def get_scores(self, scoring_system: int) -> list[float]:
        return self._state.scores(_scoring(scoring_system))

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "state": self.state,
            "orders": self.orders,
            "messages": self.messages,
        }

    def __repr__(self) -> str:
        return f"PhaseData({self.name})"


def _scoring(value: object) -> int:
    if value not in (0, 1) or isinstance(value, bool):
        raise RuntimeError("Unknown scoring method")
    return int(value)


class Game:
    """dipcc's ``Game``: the standard map, dipcc's order notation and rulings, diplo's engine.

    ``Game()`` starts in spring 1901; ``Game(other)`` copies a game; ``Game.from_json(text)``
    reads dipcc's JSON. See ``docs/dipcc-compat.md`` for every call.
    """

    SCORING_SOS = 0
    SCORING_DSS = 1
    LOC_STRS: ClassVar[list[str]] = list(LOCS)
    _data: GameRecord

    def __init__(self, draw_on_stalemate_years: Any = -1, is_full_press: bool = True) -> None:
        if isinstance(draw_on_stalemate_years, Game):
            source: Game = draw_on_stalemate_years
            self._data = source._data.copy()
            return
        if isinstance(draw_on_stalemate_years, bool) or not isinstance(
            draw_on_stalemate_years, int
        ):
            raise TypeError("Game(draw_on_stalemate_years: int = -1, is_full_press: bool = True)")
        self._data = GameRecord(
            state=_initial_state(),
            game_id=gen_game_id(),
            draw_on_stalemate_years=draw_on_stalemate_years,
            is_full_press=bool(is_full_press),
        )

    @classmethod
    def from_record(cls, record: GameRecord) -> Game:
        """A game holding ``record`` (not copied)."""
        game = cls.__new__(cls)
        game._data = record
        return game

    @property
    def game_id(self) -> str:
        return self._data.game_id

    @game_id.setter
    def game_id(self, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"game_id must be a str, got {type(value).__name__}")
        self._data.game_id = value

    def __copy__(self) -> Game:
        return Game(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return Game(self)

    # ------------------------------------------------------------------ orders

    def set_orders(self, power: str, orders: Sequence[str]) -> None:
        """Stage orders for ``power``: a unit's new order replaces its old one; orders for units
        the power may not order are dropped; ``WAIVE`` is skipped. A malformed order raises
        ``ValueError`` (dipcc's message) and stages nothing."""
        power = _power(power)
        if isinstance(orders, str):
            raise TypeError("set_orders takes a list of orders, not a str")
        parsed = [parse_order(text) for text in orders if text != "WAIVE"]
        orderable = set(self._data.state.orderable().get(power, ()))
        root = board().root
        staged = self._data.staged.setdefault(power, [])
        for order in parsed:
            if root[order.unit_loc] not in orderable:
                continue
            for i, old in enumerate(staged):
                if old.unit_loc == order.unit_loc:
                    staged[i] = order
                    break
            else:
                staged.append(order)

    def set_all_orders(self, orders_by_power: Mapping[str, Sequence[str]]) -> None:
        """Replace every staged order by these (powers in name order, as dipcc's map)."""
        for power, orders in orders_by_power.items():
            _power(power)
            for text in orders:
                if text != "WAIVE":
                    parse_order(text)
        self._data.staged = {}
        for power in sorted(orders_by_power):
            self.set_orders(power, orders_by_power[power])

    def clear_orders(self) -> None:
        self._data.staged = {}

    def get_orders(self) -> dict[str, list[str]]:
        return {p: _sorted_action(o) for p, o in self._data.staged.items()}

    # ------------------------------------------------------------------ processing

    def process(self) -> None:
        """Rule on the staged orders and move to the next phase."""
        state = self._data.state
        if state.phase.kind == "C":
            raise RuntimeError("Cannot process phase: COMPLETED")
        nxt = state.process(self._data.staged)
        # new dicts, not changed in place: copies of the game share them (GameRecord.copy)
        self._data.history = {**self._data.history, state.phase: state}
        self._data.order_history = {**self._data.order_history, state.phase: self._data.staged}
        self._data.state = nxt
        self._data.staged = {}
        self._maybe_stalemate()

    def _maybe_stalemate(self) -> None:
        phase = self._data.state.phase
        years = self._data.draw_on_stalemate_years
        if years < 1 or phase.year - 1901 < years or phase.season != "S" or phase.kind != "M":
            return
        if self.get_consecutive_years_without_sc_change() < years:
            return
        self._data.state = self._data.state.copy()
        self._data.state.phase = phase.completed()
        self._data.state.forget_orders()

    def get_consecutive_years_without_sc_change(self) -> int:
        phase = self._data.state.phase
        centers = self._data.state.centers
        same_year = self._data.history.get(PhaseName("S", phase.year, "M"))
        if same_year is not None and same_year.centers != centers:
            return 0
        years = 0
        year = phase.year - 1
        while True:
            past = self._data.history.get(PhaseName("S", year, "M"))
            if past is None or past.centers != centers:
                return years
            years += 1
            year -= 1

    def any_sc_occupied_by_new_power(self) -> bool:
        return self._data.state.any_center_taken()

    def set_draw_on_stalemate_years(self, year: int) -> None:
        self._data.draw_on_stalemate_years = int(year)

    def set_exception_on_convoy_paradox(self) -> None:
        self._data.exception_on_convoy_paradox = True

    # ------------------------------------------------------------------ the board

    def get_state(self) -> dict[str, Any]:
        return state_dict(self._data.state)

    def get_units(self) -> dict[str, list[str]]:
        units: dict[str, list[str]] = state_dict(self._data.state)["units"]
        return units

    def get_all_possible_orders(self) -> dict[str, list[str]]:
        """Every location (each coast too) to the orders of the unit there, sorted as dipcc
        sorts them; a province's list also holds the orders of a unit on one of its coasts."""
        out: dict[str, list[str]] = {loc: [] for loc in LOCS}
        root = board().root
        for code, texts in sorted(self._data.state.possible_texts().items()):
            out[LOCS[code - 1]].extend(texts)
            if root[code] != code:
                out[LOCS[root[code] - 1]].extend(texts)
        return out

    def get_orderable_locations(self) -> dict[str, list[str]]:
        """Each power's orderable provinces, sorted by the location of the unit (its coast for a
        fleet on one) in dipcc's order, as the encoders order them."""
        orderable = self._data.state.orderable()
        return {p: [LOCS[c - 1] for c in orderable.get(p, ())] for p in POWERS}

    def clear_old_all_possible_orders(self) -> None:
        for state in self._data.history.values():
            state.forget_orders()

    def get_unit_power_at(self, loc: str) -> str | None:
        found = self._unit_at(loc)
        return None if found is None else found[0]

    def get_unit_type_at(self, loc: str) -> str | None:
        found = self._unit_at(loc)
        return None if found is None else "AF"[found[1] - 1]

    def _unit_at(self, loc: str) -> tuple[str, int] | None:
        code = LOC_INDEX.get(loc)
        if code is None:
            return None
        if board().root[code] == code:
            hit = self._data.state.unit_in(code)
            return None if hit is None else (hit[1], hit[2])
        return self._data.state.units.get(code)

    def is_supply_center(self, loc: str) -> bool:
        code = LOC_INDEX.get(loc)
        return code is not None and code in board().centers

    def get_supply_center_power(self, loc: str) -> str | None:
        code = LOC_INDEX.get(loc)
        if code is None:
            return None
        code = board().root[code]
        if code not in board().centers:
            return None
        return self._data.state.centers.get(code)

    @staticmethod
    def is_water(loc: str) -> bool:
        code = LOC_INDEX.get(loc)
        return code is not None and code in board().water

    @staticmethod
    def is_coast(loc: str) -> bool:
        code = LOC_INDEX.get(loc)
        return code is not None and _is_coast(code)

    @staticmethod
    def is_center(loc: str) -> bool:
        code = LOC_INDEX.get(loc)
        return code is not None and code in board().centers

    # ------------------------------------------------------------------ phases

    @property
    def phase(self) -> str:
        return self._data.state.phase.long()

    @property
    def current_short_phase(self) -> str:
        return str(self._data.state.phase)

    def get_current_phase(self) -> str:
        return str(self._data.state.phase)

    @property
    def current_year(self) -> int:
        return self._data.state.phase.year

    @property
    def phase_type(self) -> str:
        return self._data.state.phase.kind

    @property
    def is_game_done(self) -> bool:
        return self._data.state.phase.kind == "C"

    @property
    def is_full_press(self) -> bool:
        return self._data.is_full_press

    @property
    def map_name(self) -> str:
        return self._data.map_name

    def get_phase_history(self) -> list[PhaseData]:
        return [
            PhaseData(s, self._data.order_history.get(p, {}), self._data.messages.get(p, {}))
            for p, s in sorted(self._data.history.items(), key=lambda kv: kv[0].key)
        ]

    def get_phase_data(self) -> PhaseData:
        return PhaseData(self._data.state, {})

    def get_staged_phase_data(self) -> PhaseData:
        return PhaseData(
            self._data.state, self._data.staged, self._data.messages.get(self._data.state.phase, {})
        )

    def get_all_phases(self) -> list[PhaseData]:
        return [*self.get_phase_history(), self.get_staged_phase_data()]

    def get_all_phase_names(self) -> list[str]:
        return [str(p) for p in sorted(self._data.history, key=lambda p: p.key)] + [
            str(self._data.state.phase)
        ]

    def get_next_phase(self, phase: str) -> str | None:
        name = PhaseName.parse(phase)
        if name == self._data.state.phase:
            return None
        if name not in self._data.history:
            raise RuntimeError("get_next_phase phase not found")
        later = sorted((p for p in self._data.history if name < p), key=lambda p: p.key)
        return str(later[0] if later else self._data.state.phase)

    def get_prev_phase(self, phase: str) -> str | None:
        name = PhaseName.parse(phase)
        if name == PhaseName("S", 1901, "M"):
            return None
        if name != self._data.state.phase and name not in self._data.history:
            raise RuntimeError("get_prev_phase phase not found")
        earlier = sorted((p for p in self._data.history if p < name), key=lambda p: p.key)
        if not earlier:
            raise RuntimeError("get_prev_phase phase not found")
        return str(earlier[-1])

    # ------------------------------------------------------------------ rollbacks

    def rolled_back_to_phase_start(self, phase: str) -> Game:
        game = Game(self)
        game._rollback(PhaseName.parse(phase), False, False, False)
        return game

    def rolled_back_to_phase_end(self, phase: str) -> Game:
        game = Game(self)
        game._rollback(PhaseName.parse(phase), True, True, True)
        return game

    def rolled_back_to_timestamp_start(self, timestamp: int) -> Game:
        game = Game(self)
        game._rollback(self._phase_of_last_message(int(timestamp)), True, False, False)
        game.rollback_messages_to_timestamp_start(timestamp)
        return game

    def rolled_back_to_timestamp_end(self, timestamp: int) -> Game:
        game = Game(self)
        game._rollback(self._phase_of_last_message(int(timestamp)), True, False, False)
        game.rollback_messages_to_timestamp_end(timestamp)
        return game

    def _rollback(
        self, phase: PhaseName, keep_messages: bool, keep_orders: bool, keep_logs: bool
    ) -> None:
        if phase != self._data.state.phase and phase not in self._data.history:
            raise RuntimeError("rollback_to_phase phase not found")
        self._data.messages = {
            p: m
            for p, m in self._data.messages.items()
            if p < phase or (keep_messages and p == phase)
        }
        self._data.logs = {
            p: x for p, x in self._data.logs.items() if p < phase or (keep_logs and p == phase)
        }
        if not keep_orders:
            self._data.staged = {}
        if phase == self._data.state.phase:
            return
        self._data.state = self._data.history[phase].copy()
        if keep_orders:
            self._data.staged = {p: list(o) for p, o in self._data.order_history[phase].items()}
        self._data.history = {p: s for p, s in self._data.history.items() if p < phase}
        self._data.order_history = {p: o for p, o in self._data.order_history.items() if p < phase}

    def _phase_of_last_message(self, timestamp: int) -> PhaseName:
        for phase in sorted(self._data.messages, key=lambda p: p.key, reverse=True):
            messages = self._data.messages[phase]
            if messages and min(messages) <= timestamp:
                return phase
        if self._data.history:
            return min(self._data.history, key=lambda p: p.key)
        return self._data.state.phase

    def phase_of_last_message_at_or_before(self, timestamp: int) -> str:
        return str(self._phase_of_last_message(int(timestamp)))

    def rollback_messages_to_timestamp_start(self, timestamp: int) -> None:
        for phase, messages in self._data.messages.items():
            self._data.messages[phase] = {t: m for t, m in messages.items() if t < int(timestamp)}

    def rollback_messages_to_timestamp_end(self, timestamp: int) -> None:
        self.rollback_messages_to_timestamp_start(int(timestamp) + 1)

    # ------------------------------------------------------------------ press and logs

    def add_message(
        self,
        sender: str,
        recipient: str,
        body: str,
        time_sent: int,
        increment_on_collision: bool = False,
    ) -> None:
        sender = _power(sender)
        recipient = _recipient(recipient)
        if not isinstance(body, str):
            raise TypeError("add_message: body must be a str")
        time = int(time_sent)
        if time < 0:
            raise ValueError("add_message: time_sent must be >= 0")
        phase = self._data.state.phase
        messages = self._data.messages.setdefault(phase, {})
        if time in messages:
            if not increment_on_collision:
                raise RuntimeError("add_message duplicate timestamps not currently allowed")
            while time in messages:
                time += 1
        messages[time] = {
            "sender": sender,
            "recipient": recipient,
            "phase": str(phase),
            "message": body,
            "time_sent": time,
        }

    @property
    def messages(self) -> dict[Timestamp, dict[str, Any]]:
        current = self._data.messages.get(self._data.state.phase, {})
        return {Timestamp.from_centis(t): message_dict(m) for t, m in sorted(current.items())}

    @property
    def message_history(self) -> dict[str, dict[Timestamp, dict[str, Any]]]:
        return {
            str(p): {Timestamp.from_centis(t): message_dict(m) for t, m in sorted(ms.items())}
            for p, ms in sorted(self._data.messages.items(), key=lambda kv: kv[0].key)
            if p != self._data.state.phase
        }

    def delete_message_at_timestamp(self, timestamp: int) -> None:
        for messages in self._data.messages.values():
            messages.pop(int(timestamp), None)

    def get_last_message_timestamp(self) -> int:
        for phase in sorted(self._data.messages, key=lambda p: p.key, reverse=True):
            if self._data.messages[phase]:
                return max(self._data.messages[phase])
        return 0

    def get_logs(self) -> dict[str, list[str]]:
        return {
            str(p): list(x) for p, x in sorted(self._data.logs.items(), key=lambda kv: kv[0].key)
        }

    def add_log(self, body: str) -> None:
        self._data.logs.setdefault(self._data.state.phase, []).append(str(body))

    # ------------------------------------------------------------------ scores, metadata

    def get_scores(self, scoring_system: int | None = None) -> list[float]:
        system = self._data.scoring if scoring_system is None else _scoring(scoring_system)
        return self._data.state.scores(system)

    def get_scoring_system(self) -> int:
        return self._data.scoring

    def set_scoring_system(self, scoring_system: int) -> None:
        self._data.scoring = _scoring(scoring_system)

    def get_alive_powers(self) -> list[str]:
        return [p for p, s in zip(POWERS, self._data.state.scores(1), strict=True) if s >= 1e-3]

    def get_alive_power_ids(self) -> list[int]:
        return [i for i, s in enumerate(self._data.state.scores(1)) if s >= 1e-3]

    def set_metadata(self, key: str, value: str) -> None:
        if not isinstance(key, str) or not isinstance(value, str):
            raise TypeError("set_metadata(key: str, value: str)")
        self._data.metadata[key] = value

    def get_metadata(self, key: str) -> str:
        return self._data.metadata.setdefault(key, "")

    # ------------------------------------------------------------------ hashes and copies

    def compute_board_hash(self) -> int:
        """A hash of the board (phase, units, centres, dislodged units): equal boards hash equal,
        in every process (the values are not dipcc's)."""
        s = self._data.state
        key = (
            s.phase.key,
            tuple(sorted((c, POWERS.index(p), t) for c, (p, t) in s.units.items())),
            tuple(sorted((c, POWERS.index(p)) for c, p in s.centers.items())),
            tuple(sorted((POWERS.index(p), t, c, d) for (p, t, c), d in s.dislodged.items())),
        )
        return hash(key) & 0xFFFFFFFFFFFFFFFF

    def compute_order_history_hash(self) -> int:
        """A hash of the history of valid movement orders (the set of (phase, power, order)
        with supports' targets on their province), as dipcc's."""
        root = board().root
        items = set()
        for phase, orders in self._data.order_history.items():
            if phase.kind != "M":
                continue
            orderable = self._data.history[phase].orderable()
            for power, given in orders.items():
                for o in given:
                    if root[o.unit_loc] not in orderable.get(power, ()):
                        continue
                    normal = o._replace(target_loc=root[o.target_loc]) if o.target_loc else o
                    items.add((phase.key, POWERS.index(power), tuple(int(x) for x in normal)))
        return hash(tuple(sorted(items))) & 0xFFFFFFFFFFFFFFFF

    def played_phases(self) -> list[tuple[PhaseName, State, dict[str, list[DipccOrder]]]]:
        """Each played phase (not the current one) with its board and orders, oldest first
        (what the encoders read; not a pydipcc call)."""
        data = self._data
        return [
            (phase, data.history[phase], data.order_history.get(phase, {}))
            for phase in sorted(data.history, key=lambda p: p.key)
        ]

    def clone_n_times(self, n: int) -> list[Game]:
        """``n`` copies with the ids ``ID_0``, ``ID_1``, ..."""
        games = []
        game_id = self._data.game_id
        copy = self._data.copy
        new = Game.__new__
        for i in range(int(n)):
            game = new(Game)
            record = copy()
            record.game_id = f"{game_id}_{i}"
            game._data = record
            games.append(game)
        return games

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> str:
        """The game as dipcc's JSON text (``docs/dipcc-compat.md``)."""
        return record_to_json(self._data)

    @staticmethod
    def from_json(text: str) -> Game:
        """A game read from dipcc's JSON text; a bad document raises
        :class:`~diplo.compat.dipcc.jsonio.DipccJsonError` naming the field."""
        return Game.from_record(record_from_json(text))

    def from_json_inplace(self, text: str) -> None:
        self._data = record_from_json(text)

    def __repr__(self) -> str:
        return f"<dipcc Game {self.game_id} {self.current_short_phase}>"


def state_of(game: Game | PhaseData) -> State:
    """The board a game is at (or a phase began with), for the encoders."""
    if isinstance(game, Game):
        return game._data.state
    if isinstance(game, PhaseData):
        return game._state
    raise TypeError(f"expected a diplo.compat.dipcc Game or PhaseData, got {type(game).__name__}")


def packed_game(game: Game) -> bytes:
    """A game as the engine's encoders read it (``rust/src/engine/dipcc_encode.rs``): its
    scoring system, its board, and the played phases since the last movement phase (that one
    first), each with the orders given in it. The played phases' part is kept on the record
    until a phase is played or the history replaced."""
    data = game._data
    head = bytes((data.scoring,)) + data.state.packed()
    history = data.history
    cached = data.encoded_since
    if (
        cached is None
        or cached[0] is not history
        or cached[1] != len(history)
        or cached[2] != data.state.phase
    ):
        cached = (history, len(history), data.state.phase, _packed_since(data))
        data.encoded_since = cached
    since: bytes = cached[3]
    return head + since


def _packed_since(data: GameRecord) -> bytes:
    history = data.history
    movement = [p for p in history if p.kind == "M"]
    if not movement:
        return b"\x00"
    last = max(p.key for p in movement)
    since = sorted((p for p in history if p.key >= last), key=lambda p: p.key)
    parts = [bytes((len(since),))]
    for phase in since:
        parts.append(history[phase].packed())
        given = [o for orders in data.order_history.get(phase, {}).values() for o in orders]
        parts.append(len(given).to_bytes(2, "little"))
        parts.append(pack_orders(given))
    return b"".join(parts)


def _is_coast(code: int) -> bool:
    b = board()
    if code in b.water:
        return False
    return bool(b.adjacent[2][code]) or any(b.adjacent[2][c] for c in b.coasts[code])


def _initial_state() -> State:
    from ...model.map import standard_map

    game_map = standard_map()
    state = State(PhaseName("S", 1901, "M"))
    for power, starting in game_map.starting_units.items():
        for unit_type, loc in starting:
            code = LOC_INDEX[loc]
            state.units[code] = (power, 1 if unit_type == "A" else 2)
            state.influence[code] = power
    for power, owned in game_map.starting_centers.items():
        for center in owned:
            state.centers[LOC_INDEX[center]] = power
    return state
