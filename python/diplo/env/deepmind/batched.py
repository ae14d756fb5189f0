"""DeepMind's ``DiplomacyState`` protocol for many games in one call on the engine
(``rust/src/engine/deepmind.rs`` through :mod:`diplo.engine.deepmind`): every game's
observation and legal actions written in place into NumPy arrays, every game stepped by one call
taking an actions array, the games spread over native threads with the GIL released.

The same formats as :class:`~diplo.env.deepmind.state.ReferenceDiplomacyState`, game by game
(the tests hold the two together step by step): powers in their alphabetical order, their
64-bit actions (bits 48-63 their index), their board of 81 areas x 35 features,
``build_numbers`` with their quirk, ``last_actions`` in the order given. Padding and "no
action" are :data:`NO_ACTION` (-1, which is no action of theirs). ``docs/deepmind.md``
documents the arrays and the reset.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from ...engine.codes import CodeGame, Threaded, game_of
from ...engine.deepmind import CoreDeepMindEnv, deepmind_env
from ...model.map import Map
from ...model.position import Position
from ...model.rules import Rules
from .actions import AREAS, PROVINCES, possible_actions
from .state import NUM_POWERS, Observation, Season, action_lists, start_position

__all__ = ["NO_ACTION", "BatchedDiplomacyState", "encoding_tables"]

#: Padding of the legal-action and last-action arrays, and "no action" in a step's array.
NO_ACTION = -1


@cache
def _actions_low() -> tuple[int, ...]:
    return tuple(a & 0xFFFFFFFF for a in possible_actions())


def encoding_tables(game_map: Map) -> dict[str, list[int]]:
    """Their encoding as the engine takes it (:func:`diplo.engine.deepmind.deepmind_env`), made
    from ``data/deepmind_actions.json`` and ``game_map`` (the standard map): their list's low
    32 bits; per location, its area byte, its province's area and its coast's (255 for none);
    per area, its kind (0 land, 1 sea, 2 a coast of a bicoastal province); per power of the map,
    its place in their alphabetical order."""
    if set(game_map.locations) != set(AREAS) or len(game_map.powers) != NUM_POWERS:
        raise ValueError("DeepMind's encoding needs the standard map (7 powers, their 81 areas)")
    province_id = {p: i for i, p in enumerate(PROVINCES)}
    area_id = {a: i for i, a in enumerate(AREAS)}
    loc_byte, loc_main, loc_coast = [], [], []
    for loc in game_map.locations:
        province = game_map.province_of(loc)
        loc_byte.append(province_id[province] << 1 | (1 if loc.endswith("/SC") else 0))
        loc_main.append(area_id[province])
        loc_coast.append(area_id[loc] if loc != province else 255)
    kinds = [2 if "/" in a else 1 if game_map.is_sea(a) else 0 for a in AREAS]
    order = sorted(game_map.powers)
    return {
        "actions": list(_actions_low()),
        "loc_byte": loc_byte,
        "loc_main": loc_main,
        "loc_coast": loc_coast,
        "area_kind": kinds,
        "theirs": [order.index(p) for p in game_map.powers],
    }


class BatchedDiplomacyState(Threaded):
    """``num_games`` games of DeepMind's protocol from ``position`` (the standard map's start by
    default) to ``max_year``, stepped together on ``threads`` threads, ruled by ``rules`` or
    ``edition`` (by default the position's rules: the standard map's DATC rulings without one;
    see :class:`~diplo.env.deepmind.DiplomacyState`).

    The arrays (attributes, the same arrays after every call, filled in place; read them, copy
    what you keep): ``board`` float32 ``(N, 81, 35)``, ``season`` int8 ``(N,)`` (their
    ``Season`` values), ``build_numbers`` int64 ``(N, 7)``, ``last_actions`` int64
    ``(N, 7 * max_orders)`` and ``last_counts`` int32 ``(N,)``, ``legal_actions`` int64
    ``(N, 7, max_actions)`` padded with :data:`NO_ACTION` and ``legal_counts`` int32
    ``(N, 7)``, ``returns`` float64 ``(N, 7)``, ``terminated`` and ``truncated`` bool ``(N,)``
    (the game ended in the last step), ``steps`` and ``episodes`` int32 ``(N,)``.

    :meth:`reset` starts every game; :meth:`step` plays one phase of every game with an int64
    array ``(N, 7, max_orders)`` of their actions (:data:`NO_ACTION` where none), checked for
    every game before any is played: a ``ValueError`` naming the game, the power and the action
    leaves every game unchanged. A game that ended in a step (``terminated`` or ``truncated``,
    its final observation and ``returns`` in the arrays) is started again by the next step, its
    actions there ignored.
    """

    def __init__(
        self,
        num_games: int,
        position: Position | None = None,
        max_year: int | None = None,
        *,
        rules: Rules | None = None,
        edition: str | None = None,
        threads: int = 1,
        max_actions: int = 1024,
        max_orders: int = 34,
    ) -> None:
        start = CodeGame(start_position(position, rules, edition), max_year)
        self.map: Map = start.map
        self._rules: Rules = start.rules
        self.powers: tuple[str, ...] = tuple(sorted(self.map.powers))
        self._core: CoreDeepMindEnv = deepmind_env(
            start,
            num_games,
            threads=threads,
            max_actions=max_actions,
            max_orders=max_orders,
            **encoding_tables(self.map),
        )
        buffers: dict[str, Any] = self._core.buffers()
        self.board: npt.NDArray[np.float32] = buffers["board"]
        self.season: npt.NDArray[np.int8] = buffers["season"]
        self.build_numbers: npt.NDArray[np.int64] = buffers["build_numbers"]
        self.last_actions: npt.NDArray[np.int64] = buffers["last_actions"]
        self.last_counts: npt.NDArray[np.int32] = buffers["last_counts"]
        self.legal_actions: npt.NDArray[np.int64] = buffers["legal_actions"]
        self.legal_counts: npt.NDArray[np.int32] = buffers["legal_counts"]
        self.returns: npt.NDArray[np.float64] = buffers["returns"]
        self.terminated: npt.NDArray[np.bool_] = buffers["terminated"]
        self.truncated: npt.NDArray[np.bool_] = buffers["truncated"]
        self.steps: npt.NDArray[np.int32] = buffers["steps"]
        self.episodes: npt.NDArray[np.int32] = buffers["episodes"]

    @property
    def rules(self) -> Rules:
        """The rules every game is ruled by."""
        return self._rules

    @property
    def num_games(self) -> int:
        return self._core.num_games

    @property
    def max_orders(self) -> int:
        return self._core.max_orders

    def reset(self) -> None:
        """Starts every game from the start position."""
        self._core.reset()

    def step(self, actions: Any) -> int:
        """Plays one phase of every game (see the class documentation); returns the phases
        played (games started again are not counted)."""
        return self._core.step(self._as_array(actions))

    def step_lists(self, per_game: Sequence[Sequence[Sequence[int]]]) -> int:
        """:meth:`step` with per game seven lists of actions (as ``DiplomacyState.step``
        takes them, no padding), refused as :meth:`step` refuses them."""
        try:
            # Lists of plain ints, the common case, are read by the engine as they are.
            return self._core.step_lists(per_game)
        except TypeError:
            pass
        # Anything else (NumPy integers, tuples, a float, a bool...): checked and converted
        # here, the error naming the game, then given again.
        if isinstance(per_game, str | bytes) or not isinstance(per_game, Sequence | np.ndarray):
            raise ValueError(f"expected the actions of {self.num_games} games as lists")
        lists = []
        for g, game in enumerate(per_game):
            try:
                lists.append([list(a) for a in action_lists(game, self.powers)])
            except ValueError as exc:
                raise ValueError(f"game {g}: {exc}") from None
        return self._core.step_lists(lists)

    def check_actions(self, actions: Any) -> None:
        """Raises the ``ValueError`` :meth:`step` would, playing nothing."""
        self._core.check_actions(self._as_array(actions))

    def actions_array(self, per_game: Sequence[Sequence[Sequence[int]]]) -> npt.NDArray[np.int64]:
        """A step's array from per-game lists of seven lists of actions (as
        ``DiplomacyState.step`` takes them), padded with :data:`NO_ACTION`."""
        out = np.full((self.num_games, NUM_POWERS, self.max_orders), NO_ACTION, dtype=np.int64)
        if len(per_game) != self.num_games:
            raise ValueError(f"expected actions of {self.num_games} games, got {len(per_game)}")
        for g, lists in enumerate(per_game):
            if len(lists) != NUM_POWERS:
                raise ValueError(f"game {g}: expected 7 lists of actions, got {len(lists)}")
            for p, actions in enumerate(lists):
                if len(actions) > self.max_orders:
                    raise ValueError(
                        f"game {g}: {self.powers[p]}: {len(actions)} actions, more than "
                        f"max_orders={self.max_orders}"
                    )
                for k, action in enumerate(actions):
                    out[g, p, k] = self._entry(g, p, action)
        return out

    def _entry(self, g: int, p: int, action: object) -> int:
        if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
            raise ValueError(f"game {g}: {self.powers[p]}: action {action!r} is not an int")
        value = int(action)
        if not -(2**63) <= value < 2**63:
            raise ValueError(f"game {g}: {self.powers[p]}: action {value} is not in their list")
        return value

    def _as_array(self, actions: Any) -> Any:
        """``actions`` as the engine takes them (an int64 array of the step's shape), or a
        ``ValueError`` naming the game, power and entry that is no int."""
        want = (self.num_games, NUM_POWERS, self.max_orders)
        array = np.asarray(actions)
        if array.shape != want:
            raise ValueError(f"actions: expected shape {want}, got {array.shape}")
        if array.dtype.kind == "i":
            return np.ascontiguousarray(array, dtype=np.int64)
        if array.dtype.kind == "u":
            big = np.argwhere(array > np.iinfo(np.int64).max)
            if big.size:
                g, p, _ = (int(x) for x in big[0])
                raise ValueError(
                    f"game {g}: {self.powers[p]}: action {array[tuple(big[0])]} is not in their "
                    "list of possible actions"
                )
            return np.ascontiguousarray(array, dtype=np.int64)

        # Floats (NaN included), bools, objects: none is an int. Name the first entry that
        # cannot be one (NaN, a fraction), else the first that is not "no action".
        def bad(entry: Any) -> bool:
            if isinstance(entry, float | np.floating):
                return not np.isfinite(entry) or float(entry) != int(entry)
            return not isinstance(entry, int | np.integer) or isinstance(entry, bool | np.bool_)

        indices = list(np.ndindex(*want))
        first = next((i for i in indices if bad(array[i])), None)
        if first is None:
            first = next((i for i in indices if array[i] != NO_ACTION), indices[0])
        entry = array[first]
        shown = float(entry) if isinstance(entry, np.floating) else entry
        if isinstance(entry, np.bool_):
            shown = bool(entry)
        g, p, _ = first
        raise ValueError(
            f"game {g}: {self.powers[p]}: action {shown!r} is not an int (actions must be an "
            f"integer array, got {array.dtype})"
        )

    # ------------------------------------------------------------------ one game's view

    def observation(self, i: int) -> Observation:
        """Game ``i``'s observation as ``DiplomacyState.observation`` gives it (copies)."""
        count = int(self.last_counts[i])
        return Observation(
            season=Season(int(self.season[i])),
            board=self.board[i].copy(),
            build_numbers=self.build_numbers[i].copy(),
            last_actions=[int(a) for a in self.last_actions[i, :count]],
        )

    def legal_actions_of(self, i: int) -> list[list[int]]:
        """Game ``i``'s legal actions as ``DiplomacyState.legal_actions`` gives them (new
        lists, made by the engine)."""
        return self._core.legal_actions(i)

    def game(self, i: int) -> CodeGame:
        """A copy of game ``i`` (changing it leaves this state as it is)."""
        return game_of(self._core.game(i), self.map, self._rules)

    def __repr__(self) -> str:
        return f"<BatchedDiplomacyState {self.num_games} games, {self.threads} threads>"
