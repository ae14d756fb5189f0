"""A PettingZoo ``ParallelEnv`` of Diplomacy on the code API (``docs/env.md``), played by the
same Rust core as :class:`~diplo.env.vector.DiplomacyVectorEnv` (one game of it): the same
observations, and the same games for the same actions.

Agents are the players (``Map.players``: every power but a neutral one); one step is one
phase, every power acting at once (a power with nothing to order in a retreat or adjustment
phase acts with an empty action). A
power is removed from ``agents`` when it is eliminated (no units, no dislodged units, no
centres) and every power when the game ends (solo victory, or the year limit: a draw).

Action: ``MultiDiscrete([K] * S)``: slot ``s`` of the power (the ``s``-th of its slots in
:meth:`diplo.engine.codes.CodeGame.slots` order: its units by province in movement, its dislodged
units in retreats, its build sites or its units in adjustments) picks entry ``a[s]`` of the slot's
list of legal code-API codes, ``infos[power]["legal_codes"][s]``. ``observation["action_mask"]``
holds one ``int8[K]`` mask per slot (1 = a legal choice); a masked-out entry, ``-1``, and every
entry of a slot the power does not have, orders nothing (the unit holds; a build site is
waived). Any other action (an entry below ``-1`` or of ``K`` or more, floats, NaN) is refused
with ``ValueError`` before anything is played (the entries by the engine, as in
:class:`~diplo.env.vector.DiplomacyVectorEnv`). ``S`` is ``len(map.centers) // 2 + 1`` (no power
reaches that many units without winning) and ``K`` is ``max_orders`` (default 512; the most legal
orders one unit had in 2,000 random games on the standard map was 210; twentytwenty's fleets at sea
pass 512): a slot with more choices raises
:class:`EnvError` rather than hide some.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from ..engine.codes import ActionError, CodeGame, game_of, vector_env
from ..model.limits import show
from ..model.map import Map
from ..model.position import Position
from .encoding import BoardEncoder
from .reward import CentreReward, RewardFn
from .vector import (
    DEFAULT_MAX_ORDERS,
    EnvError,
    check_actions,
    env_map,
    first_year,
    max_slots,
)

__all__ = ["DiplomacyEnv", "EnvError", "parallel_env"]

#: The core's "no action" entry (the spaces are ``0..K``; see ``rust/src/engine/vector.rs``).
_NOTHING = -1


class DiplomacyEnv(ParallelEnv):  # type: ignore[misc]
    """See the module documentation. ``max_year`` ends the game as a draw after that year
    (``None``: play to a solo); ``reward`` is a :class:`~diplo.env.reward.RewardFn` (default
    :class:`~diplo.env.reward.CentreReward`); ``position`` starts elsewhere than the map's
    opening position."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "diplo_v0",
        "render_modes": [],
        "is_parallelizable": True,
    }

    def __init__(
        self,
        game_map: Map | str | None = None,
        *,
        max_year: int | None = 1915,
        reward: RewardFn | None = None,
        max_orders: int = DEFAULT_MAX_ORDERS,
        position: Position | None = None,
    ) -> None:
        self.map = env_map(game_map, position)
        if not isinstance(max_orders, int) or isinstance(max_orders, bool) or max_orders < 1:
            raise ValueError(f"max_orders must be a positive int, got {max_orders!r}")
        self.start = position if position is not None else Position.initial(self.map)
        self.max_year = max_year
        self.reward_fn: RewardFn = reward if reward is not None else CentreReward()
        self.max_slots = max_slots(self.map)
        self.max_orders = max_orders
        self.encoder = BoardEncoder(self.map)
        self.first_year = first_year(self.map, self.start)
        # The players: a neutral power (Map.neutral) orders nothing and is no agent.
        self.possible_agents: list[str] = list(self.map.players)
        self.agents: list[str] = []
        self._powers = list(self.map.powers)
        self._index = {p: i for i, p in enumerate(self._powers)}
        # The mask of a slot with k choices is row k (read-only, shared by every observation).
        self._mask_rows = np.tril(np.ones((max_orders + 1, max_orders), dtype=np.int8), -1)
        self._mask_rows.setflags(write=False)
        self._core = vector_env(
            CodeGame(self.start, max_year),
            1,
            self.first_year,
            self.max_slots,
            max_orders,
            # The rewards are the reward function's (below), not the core's.
            0.0,
            0.0,
            1,
            # The lists are read after every step (legal_codes): keep them, not only counts.
            keep_lists=True,
        )
        self._buffers: dict[str, Any] = self._core.buffers()
        self._over = True
        self._ready = False
        self._centres: dict[str, int] = {}
        self._legal: dict[str, list[list[int]]] = {}
        self._actions = np.full((1, len(self._powers), self.max_slots), _NOTHING, dtype=np.int64)
        self._obs_spaces = {a: self._observation_space() for a in self.possible_agents}
        self._act_spaces = {
            a: spaces.MultiDiscrete([max_orders] * self.max_slots, dtype=np.int64)
            for a in self.possible_agents
        }

    def _observation_space(self) -> spaces.Dict:
        mask = spaces.Box(0, 1, (self.max_orders,), dtype=np.int8)
        return spaces.Dict(
            {
                "board": spaces.Box(0, 1, self.encoder.board_shape, dtype=np.int8),
                "phase": spaces.Box(0, np.iinfo(np.int16).max, (7,), dtype=np.int16),
                "action_mask": spaces.Tuple([mask] * self.max_slots),
            }
        )

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_spaces[agent]

    @property
    def game(self) -> CodeGame:
        """A copy of the game being played (changing it leaves the environment as it is)."""
        if not self._ready:
            raise EnvError("call reset() first")
        return game_of(self._core.game(0), self.map, self.start.rules)

    # ------------------------------------------------------------------ the parallel API

    def reset(
        self, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a new game. The game has no chance: ``seed`` is kept as ``self.seed`` (for
        :class:`~diplo.env.policy.UniformPolicy`, as the vector environment keeps one per
        game) and changes nothing else."""
        self.seed = seed
        try:
            self._core.reset()
        except RuntimeError as exc:
            self._ready = False
            raise EnvError(str(exc)) from exc
        self._ready = True
        self._over = False
        self._count_centres()
        self.agents = self._alive()
        return self._observe(self.agents)

    def step(
        self, actions: Mapping[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        if not self._ready:
            raise EnvError("call reset() first")
        if not self.agents or self._over:
            raise EnvError("the game is over: call reset()")
        if not isinstance(actions, Mapping):
            raise ValueError(f"actions must be a dict of agent -> action, got {show(actions)}")
        slots = self.max_slots
        table = self._actions
        table.fill(_NOTHING)
        for agent, action in actions.items():
            index = self._index.get(agent)
            if index is None:
                raise ValueError(f"unknown agent {agent!r}")
            if agent not in self.agents:
                continue  # eliminated: nothing to order
            row: Any
            if isinstance(action, np.ndarray):
                try:
                    row = check_actions(action, (slots,))
                except ValueError as exc:
                    raise ValueError(f"{agent}: {exc}") from exc
            else:
                # A list: shaped in plain Python (NumPy costs microseconds per small array).
                try:
                    row = list(action)
                except TypeError:
                    raise ValueError(
                        f"{agent}: an action is a sequence of {slots} integers, got {show(action)}"
                    ) from None
                if len(row) != slots:
                    raise ValueError(f"{agent}: an action has {slots} entries, got {len(row)}")
                if not all(type(a) is int for a in row):
                    try:
                        row = check_actions(row, (slots,)).tolist()
                    except ValueError as exc:
                        raise ValueError(f"{agent}: {exc}") from exc
            if len(row) != slots:
                raise ValueError(f"{agent}: an action has {slots} entries, got {len(row)}")
            try:
                table[0, index] = row
            except OverflowError:
                raise ValueError(
                    f"{agent}: an entry of {show(row)} is outside the action space"
                ) from None
        before = self._centres
        try:
            # The engine checks every entry (-1..K) before it plays: the one check of an action.
            self._core.step(table)
        except ActionError as exc:  # an entry outside the action space: its agent named
            _game, power, _slot = exc.index
            raise ValueError(f"{self._powers[power]}: {exc}") from exc
        except RuntimeError as exc:
            self._ready = False
            raise EnvError(f"{exc}; call reset()") from exc
        b = self._buffers
        over = bool(b["terminated"][0] or b["truncated"][0])
        self._over = over
        live = self.agents
        self._count_centres()
        obs, infos = self._observe(live)
        winner = int(b["winner"][0])
        rewards = self.reward_fn(
            before, self._centres, over, self._powers[winner] if winner >= 0 else None
        )
        alive = self._alive()
        terminations = {a: over or a not in alive for a in live}
        truncations = dict.fromkeys(live, False)
        self.agents = [a for a in live if not terminations[a]]
        return obs, {a: rewards[a] for a in live}, terminations, truncations, infos

    def close(self) -> None:
        self._ready = False

    # ------------------------------------------------------------------ internals

    def _alive(self) -> list[str]:
        """Players with centres, units or dislodged units (never a neutral power)."""
        alive = self._buffers["alive"][0].tolist()
        neutral = self.map.neutral
        return [p for p, a in zip(self._powers, alive, strict=True) if a and p not in neutral]

    def _count_centres(self) -> None:
        counts = self._buffers["centres"][0].tolist()
        self._centres = dict(zip(self._powers, counts, strict=True))

    def _phase_name(self) -> str:
        phase = self._buffers["phase"][0].tolist()
        season = "SFW"[phase[1:4].index(1)]
        kind = "MRA"[phase[4:7].index(1)]
        return f"{season}{self.first_year + phase[0]}{kind}"

    def _observe(self, agents: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
        b = self._buffers
        # Copies (3.5 KB on the standard map): an observation stays as it was after later steps.
        board = b["board"][0].copy()
        phase = b["phase"][0].copy()
        board.setflags(write=False)
        phase.setflags(write=False)
        if self._over:
            lists: list[list[list[int]]] = [[] for _ in self._powers]
            keys: list[list[str]] = [[] for _ in self._powers]
        else:
            lists = self._core.legal_codes(0)
            keys = self._core.slot_keys(0)
        self._legal = legal = dict(zip(self._powers, lists, strict=True))
        name = self._phase_name()
        rows = self._mask_rows
        empty = rows[0]
        width = self.max_slots
        obs: dict[str, Any] = {}
        infos: dict[str, Any] = {}
        for agent in agents:
            mine = legal[agent]
            sizes = [len(o) for o in mine]
            mask = tuple([rows[k] for k in sizes] + [empty] * (width - len(sizes)))
            obs[agent] = {"board": board, "phase": phase, "action_mask": mask}
            infos[agent] = {
                "phase": name,
                "slots": keys[self._index[agent]],
                "legal_codes": mine,
                "legal_counts": sizes,
            }
        return obs, infos


def parallel_env(**kwargs: Any) -> DiplomacyEnv:
    """PettingZoo's conventional constructor name: ``DiplomacyEnv(**kwargs)``."""
    return DiplomacyEnv(**kwargs)
