"""A Gymnasium vector environment of Diplomacy: N games held and stepped together in the Rust
core (``docs/env.md``).

One step plays one phase of every game, every power of a game acting at once. The games are
independent; a step releases the GIL and spreads them over ``threads`` threads, then fills the
same NumPy arrays in place (observations, legal-choice counts, rewards, terminations, ...): no
Python object per game or unit. A game that ends is started again on the next step (Gymnasium's
``AutoresetMode.NEXT_STEP``: the action given for it in that step is ignored).

Spaces of one game (``single_*``; the batched ones stack ``num_envs`` of them):

- action: ``MultiDiscrete`` of shape ``(P, S)``, ``K`` choices per entry: entry ``[p, s]`` picks
  the order of power ``p``'s ``s``-th slot (``CodeGame.slots`` order) from that slot's legal list
  (``legal_codes(i)[p][s]``); an entry at or past the slot's count orders nothing (the unit
  holds, a dislodged unit is disbanded, a build is waived), and so does ``-1``. Any other
  action (an entry below ``-1`` or of ``K`` or more, a float or NaN, a wrong shape) is refused
  with ``ValueError`` and nothing is played: the shape and type here (:func:`check_actions`),
  the entries by the engine, the one place that decides what an entry may be.
- observation: ``Dict`` of ``board`` (``int8[L, C]``), ``phase`` (``int16[7]``) and
  ``legal_counts`` (``int16[P, S]``: the choices of each slot, 0 for no slot): the masks in
  compact form; :meth:`DiplomacyVectorEnv.action_masks` expands them.

Rewards are ``float32[N, P]`` (one per power: the change in its centres, and at the end ``win``
to the solo winner or ``draw`` shared by the powers with centres, as
:class:`~diplo.env.reward.CentreReward`); terminations ``bool[N]`` (a solo, or the year
limit's draw, the calendar's last year, ``Calendar.last_year``, included); truncations
``bool[N]`` (always false: a start after that last year is refused).
``infos`` holds arrays: ``centres`` ``int16[N, P]``, ``alive`` ``bool[N, P]``, ``winner``
``int8[N]`` (a power index, -1 for none), ``steps`` ``int32[N]`` (phases since the game
started), ``episodes`` ``int32[N]`` (games started in that slot since ``reset``),
``phases_played`` (an int).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..engine.codes import CodeGame, CoreVectorEnv, Threaded, game_of, vector_env
from ..model.map import Map, standard_map
from ..model.position import Position
from ..model.variants import load_map

__all__ = ["DEFAULT_MAX_ORDERS", "DiplomacyVectorEnv", "EnvError", "check_actions"]

DEFAULT_MAX_ORDERS = 512


class EnvError(RuntimeError):
    """The environment cannot represent a position, or was stepped when it could not be."""


def max_slots(game_map: Map) -> int:
    """``S``: no power reaches ``len(centers) // 2 + 1`` units without having won."""
    return len(game_map.centers) // 2 + 1


def env_map(game_map: Map | str | None, position: Position | None) -> Map:
    """The map of an environment given ``game_map`` (a :class:`Map`, a shipped map's name or a
    map file, as ``--map`` takes it; ``MapError`` names what is wrong) and ``position`` (its map
    when given: ``ValueError`` when it is another than ``game_map``); by default the standard
    map. ``TypeError`` for anything else."""
    if isinstance(game_map, str):
        game_map = load_map(game_map)
    elif game_map is not None and not isinstance(game_map, Map):
        raise TypeError(
            f"game_map must be a diplo Map or a map's name, got {type(game_map).__name__}"
        )
    if position is not None and game_map is not None and position.map is not game_map:
        raise ValueError("the position is on another map than game_map")
    return position.map if position is not None else (game_map or standard_map())


def first_year(game_map: Map, start: Position) -> int:
    """The year the phase observation counts from: the map's first year, or the start's year
    when that is earlier, so the entry is never negative."""
    return min(Position.initial(game_map).phase.year, start.phase.year)


def check_actions(actions: Any, shape: tuple[int, ...]) -> npt.NDArray[np.int64]:
    """``actions`` as a C-contiguous ``int64`` array of ``shape``, or ``ValueError`` naming
    what is wrong (not integers, another shape). The entries are the engine's to check (every
    one in ``-1..K``: :meth:`DiplomacyVectorEnv.step` refuses the others before playing)."""
    if isinstance(actions, np.ndarray):
        array = actions
    else:
        try:
            array = np.asarray(actions)
        except (ValueError, TypeError) as exc:
            raise ValueError(f"actions must be an integer array of shape {shape}: {exc}") from exc
    if array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer):
        raise ValueError(
            f"actions must be integers (indices of legal orders), got an array of {array.dtype}"
        )
    if array.shape != shape:
        raise ValueError(f"actions: expected shape {shape}, got {array.shape}")
    if array.dtype.kind == "u" and array.size and int(array.max()) > _INT64_MAX:
        # (as int64 it would wrap to a negative entry)
        raise ValueError(f"actions: an entry of {int(array.max())} is outside the action space")
    return np.ascontiguousarray(array, dtype=np.int64)


_INT64_MAX = int(np.iinfo(np.int64).max)


class DiplomacyVectorEnv(Threaded, VectorEnv):
    """``num_envs`` games of ``game_map`` (default: the standard map) from ``position`` (default:
    the map's opening), each ending as a draw after ``max_year`` (``None``: play to a solo).
    ``threads`` threads step the games (the calling thread included); ``max_orders`` is ``K``;
    ``win`` and ``draw`` are the end-of-game rewards. With ``copy=False`` (the default) the
    arrays returned are the environment's own buffers, overwritten by the next call: copy what
    you keep. See the module documentation."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - Gymnasium's own annotation
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int,
        game_map: Map | str | None = None,
        *,
        max_year: int | None = 1915,
        threads: int = 1,
        max_orders: int = DEFAULT_MAX_ORDERS,
        position: Position | None = None,
        win: float = 10.0,
        draw: float = 10.0,
        copy: bool = False,
    ) -> None:
        for name, value in (
            ("num_envs", num_envs),
            ("threads", threads),
            ("max_orders", max_orders),
        ):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name} must be a positive int, got {value!r}")
        self.map = env_map(game_map, position)
        self.start = position if position is not None else Position.initial(self.map)
        self.max_year = max_year
        self.num_envs = num_envs
        self.max_slots = max_slots(self.map)
        self.max_orders = max_orders
        self.copy = bool(copy)
        self.powers: list[str] = list(self.map.powers)
        start = CodeGame(self.start, max_year)
        self._core: CoreVectorEnv = vector_env(
            start,
            num_envs,
            first_year(self.map, self.start),
            self.max_slots,
            max_orders,
            float(win),
            float(draw),
            threads,
        )
        self.layout: dict[str, int] = self._core.layout()
        self._buffers: dict[str, Any] = self._core.buffers()
        shape = (len(self.powers), self.max_slots)
        self._action_shape = (num_envs, *shape)
        self.single_action_space = spaces.MultiDiscrete(
            np.full(shape, max_orders, dtype=np.int64), dtype=np.int64
        )
        board = (self.layout["locations"], self.layout["channels"])
        self.single_observation_space = spaces.Dict(
            {
                "board": spaces.Box(0, 1, board, dtype=np.int8),
                "phase": spaces.Box(0, np.iinfo(np.int16).max, (7,), dtype=np.int16),
                "legal_counts": spaces.Box(0, max_orders, shape, dtype=np.int16),
            }
        )
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self._ready = False
        self._mask_buffer: npt.NDArray[np.int8] | None = None
        self._worker: Any = None
        self._pending: Any = None

    # ------------------------------------------------------------------ the vector API

    def reset(
        self,
        *,
        seed: int | Sequence[int] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Starts every game again. The games have no chance: ``seed`` (an int, or one per
        game) seeds ``np_random`` and the action spaces' sampling, and is kept per game in
        ``seeds`` for policies that draw per game (:class:`~diplo.env.policy.UniformPolicy`)."""
        if seed is None:
            seeds = None
        elif isinstance(seed, int):
            seeds = [int(seed) + i for i in range(self.num_envs)]
        else:
            seeds = [int(s) for s in seed]
            if len(seeds) != self.num_envs:
                raise ValueError(f"reset: {len(seeds)} seeds for {self.num_envs} games")
        if self._pending is not None:
            raise EnvError("a step is under way (send): call recv() first")
        if seeds is not None:
            first = seeds[0]
            self._np_random, self._np_random_seed = np.random.default_rng(first), first
            self.action_space.seed(first)
            self.seeds = np.array(seeds, dtype=np.uint64)
        elif not hasattr(self, "seeds"):
            self.seeds = np.arange(self.num_envs, dtype=np.uint64)
        try:
            self._core.reset()
        except RuntimeError as exc:
            raise EnvError(str(exc)) from exc
        self._ready = True
        self._played = 0
        return self._observation(), self._infos()

    def step(
        self, actions: Any
    ) -> tuple[
        dict[str, Any],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Plays one phase of every game (games that ended in the last step start again)."""
        if not self._ready:
            raise EnvError("call reset() first")
        array = check_actions(actions, self._action_shape)
        if self._pending is not None:
            raise EnvError("a step is under way (send): call recv() first")
        try:
            self._played = self._core.step(array)
        except RuntimeError as exc:
            self._ready = False
            raise EnvError(f"{exc}; call reset()") from exc
        return self._results()

    def _results(
        self,
    ) -> tuple[
        dict[str, Any],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        b = self._buffers
        rewards, term, trunc = b["rewards"], b["terminated"], b["truncated"]
        if self.copy:
            rewards, term, trunc = rewards.copy(), term.copy(), trunc.copy()
        return self._observation(), rewards, term, trunc, self._infos()

    def send(self, actions: Any) -> None:
        """Starts a step on a background thread and returns at once (EnvPool's ``send``); the
        GIL is released while the games are played, so the caller can work meanwhile (on
        another environment, say). :meth:`recv` returns what :meth:`step` would have. Do not
        read this environment's arrays between the two: the step is writing them."""
        if not self._ready:
            raise EnvError("call reset() first")
        if self._pending is not None:
            raise EnvError("a step is already under way: call recv() first")
        array = check_actions(actions, self._action_shape)
        self._core.check_actions(array)  # refused here, not at recv (the step checks it too)
        if self._worker is None:
            from concurrent.futures import ThreadPoolExecutor

            self._worker = ThreadPoolExecutor(1, thread_name_prefix="diplo-vector")
        self._pending = self._worker.submit(self._core.step, array)

    def recv(
        self,
    ) -> tuple[
        dict[str, Any],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Waits for the step :meth:`send` started and returns its results."""
        pending, self._pending = self._pending, None
        if pending is None:
            raise EnvError("no step under way: call send() first")
        try:
            self._played = pending.result()
        except RuntimeError as exc:
            self._ready = False
            raise EnvError(f"{exc}; call reset()") from exc
        return self._results()

    def close_extras(self, **kwargs: Any) -> None:
        if self._pending is not None:
            self._pending.result()
            self._pending = None
        if self._worker is not None:
            self._worker.shutdown()
            self._worker = None
        self._ready = False

    # ------------------------------------------------------------------ helpers

    def _observation(self) -> dict[str, Any]:
        b = self._buffers
        obs = {"board": b["board"], "phase": b["phase"], "legal_counts": b["legal_counts"]}
        if self.copy:
            obs = {k: v.copy() for k, v in obs.items()}
        return obs

    def _infos(self) -> dict[str, Any]:
        b = self._buffers
        infos: dict[str, Any] = {
            k: b[k] for k in ("centres", "alive", "winner", "steps", "episodes")
        }
        if self.copy:
            infos = {k: v.copy() for k, v in infos.items()}
        infos["phases_played"] = self._played
        return infos

    def action_masks(self, out: npt.NDArray[np.int8] | None = None) -> npt.NDArray[np.int8]:
        """The masks of the current phase, ``int8[N, P, S, K]`` (1: a legal choice), from
        ``legal_counts``; into ``out`` when given (else a buffer the env reuses)."""
        shape = (*self._action_shape, self.max_orders)
        if out is None:
            if self._mask_buffer is None:
                self._mask_buffer = np.empty(shape, dtype=np.int8)
            out = self._mask_buffer
        if out.shape != shape or out.dtype != np.int8:
            raise ValueError(f"out must be an int8 array of shape {shape}")
        counts = self._buffers["legal_counts"]
        np.less(np.arange(self.max_orders, dtype=np.int16), counts[..., None], out=out)
        return out

    def legal_codes(self, i: int) -> list[list[list[int]]]:
        """Game ``i``'s legal code-API codes per power and slot (what the action indexes)."""
        return self._core.legal_codes(self._index(i))

    def slot_keys(self, i: int) -> list[list[str]]:
        """Game ``i``'s slots per power: the unit's location, build site, or the power (a
        waive without a site), as :meth:`diplo.engine.codes.CodeGame.slots` names them."""
        return self._core.slot_keys(self._index(i))

    def codes(self, i: int, action: Any) -> list[int]:
        """The codes that ``action`` (one game's ``(P, S)`` entries) orders in game ``i``."""
        picks = check_actions(action, self._action_shape[1:])
        every = np.full(self._action_shape, -1, dtype=np.int64)
        every[self._index(i)] = picks
        self._core.check_actions(every)  # the engine's check, as a step makes it
        out: list[int] = []
        for lists, row in zip(self.legal_codes(i), picks.tolist(), strict=False):
            out.extend(
                options[a] for options, a in zip(lists, row, strict=False) if 0 <= a < len(options)
            )
        return out

    def game(self, i: int) -> CodeGame:
        """A copy of game ``i`` as a :class:`~diplo.engine.codes.CodeGame` (changing it changes
        nothing here)."""
        return game_of(self._core.game(self._index(i)), self.map, self.start.rules)

    def _index(self, i: int) -> int:
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < self.num_envs:
            raise ValueError(f"no game {i!r} (num_envs={self.num_envs})")
        return i
