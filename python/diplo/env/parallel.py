"""A PettingZoo ``ParallelEnv`` of Diplomacy on the code API (``docs/env.md``).

Agents are the powers (``Map.powers``); one step is one phase, every power acting at once (a
power with nothing to order in a retreat or adjustment phase acts with an empty action). A
power is removed from ``agents`` when it is eliminated (no units, no dislodged units, no
centres) and every power when the game ends (solo victory, or the year limit: a draw).

Action: ``MultiDiscrete([K] * S)``: slot ``s`` of the power (the ``s``-th of its slots in
:meth:`diplo.fast.FastGame.slots` order: its units by province in movement, its dislodged units
in retreats, its build sites or its units in adjustments) picks entry ``a[s]`` of the slot's
list of legal code-API codes, ``infos[power]["legal_codes"][s]``. ``observation["action_mask"]``
holds one ``int8[K]`` mask per slot (1 = a legal choice); a masked-out entry, and every entry of
a slot the power does not have, orders nothing (the unit holds; a build site is waived).
``S`` is ``len(map.centers) // 2 + 1`` (no power reaches that many units without winning) and
``K`` is ``max_orders`` (default 128; the most legal orders one unit had in 10,000 random phases
was 81): a slot with more choices raises :class:`EnvError` rather than hide some.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from ..engine.codes import FastGame
from ..model.limits import show
from ..model.map import Map, standard_map
from ..model.position import Position
from .encoding import BoardEncoder
from .reward import CentreReward, RewardFn

__all__ = ["DiplomacyEnv", "EnvError", "parallel_env"]

DEFAULT_MAX_ORDERS = 512


class EnvError(RuntimeError):
    """The environment cannot represent a position, or was stepped when it could not be."""


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
        game_map: Map | None = None,
        *,
        max_year: int | None = 1915,
        reward: RewardFn | None = None,
        max_orders: int = DEFAULT_MAX_ORDERS,
        position: Position | None = None,
    ) -> None:
        if position is not None and game_map is not None and position.map is not game_map:
            raise ValueError("the position is on another map than game_map")
        self.map = position.map if position is not None else (game_map or standard_map())
        if not isinstance(max_orders, int) or isinstance(max_orders, bool) or max_orders < 1:
            raise ValueError(f"max_orders must be a positive int, got {max_orders!r}")
        self.start = position if position is not None else Position.initial(self.map)
        self.max_year = max_year
        self.reward_fn: RewardFn = reward if reward is not None else CentreReward()
        self.max_slots = len(self.map.centers) // 2 + 1
        self.max_orders = max_orders
        self.encoder = BoardEncoder(self.map)
        self.possible_agents: list[str] = list(self.map.powers)
        self.agents: list[str] = []
        self._powers = list(self.map.powers)
        # The mask of a slot with k choices is row k (read-only, shared by every observation).
        self._mask_rows = np.tril(np.ones((max_orders + 1, max_orders), dtype=np.int8), -1)
        self._mask_rows.setflags(write=False)
        self._game: FastGame | None = None
        self._legal: dict[str, list[list[int]]] = {}
        self._centres: dict[str, int] = {}
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
    def game(self) -> FastGame:
        """The game being played (read it; processing it behind the env's back is not allowed)."""
        if self._game is None:
            raise EnvError("call reset() first")
        return self._game

    # ------------------------------------------------------------------ the parallel API

    def reset(
        self, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a new game. The game has no randomness: ``seed`` is accepted and changes
        nothing (seed the agents' own generators instead)."""
        self._game = FastGame(self.start, self.max_year)
        state = self._game.state_indices()
        self._count_centres(state)
        self.agents = self._alive(state)
        return self._observe(state, self.agents)

    def step(
        self, actions: Mapping[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        game = self.game
        if not self.agents or game.is_over:
            raise EnvError("the game is over: call reset()")
        if not isinstance(actions, Mapping):
            raise ValueError(f"actions must be a dict of agent -> action, got {show(actions)}")
        codes: list[int] = []
        slots = self.max_slots
        for agent, action in actions.items():
            lists = self._legal.get(agent)
            if lists is None:
                if agent in self.possible_agents:
                    continue  # eliminated: nothing to order
                raise ValueError(f"unknown agent {agent!r}")
            if not lists:
                continue
            choice = _choices(agent, action, slots)
            for options, index in zip(lists, choice, strict=False):
                if 0 <= index < len(options):
                    codes.append(options[index])
        before = self._centres
        game.set_orders(codes)
        game.process()
        state = game.state_indices()
        over = game.is_over
        live = self.agents
        self._count_centres(state)
        obs, infos = self._observe(state, live)
        rewards = self.reward_fn(before, self._centres, over, game.winner)
        alive = self._alive(state)
        terminations = {a: over or a not in alive for a in live}
        truncations = dict.fromkeys(live, False)
        self.agents = [a for a in live if not terminations[a]]
        return obs, {a: rewards[a] for a in live}, terminations, truncations, infos

    def close(self) -> None:
        self._game = None

    # ------------------------------------------------------------------ internals

    def _alive(self, state: tuple[Any, ...]) -> list[str]:
        """Powers with centres, units or dislodged units (needs ``self._centres`` of ``state``)."""
        centres = self._centres
        if all(centres.values()):
            return list(self._powers)
        _y, _s, _k, units, _c, dislodged = state
        owners = {u[0] for u in units} | {d[0] for d in dislodged}
        return [p for i, p in enumerate(self._powers) if centres[p] or i in owners]

    def _count_centres(self, state: tuple[Any, ...]) -> None:
        counts = [0] * len(self._powers)
        for _prov, owner in state[4]:
            counts[owner] += 1
        self._centres = dict(zip(self._powers, counts, strict=True))

    def _observe(
        self, state: tuple[Any, ...], agents: list[str]
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        game = self.game
        board, phase = self.encoder.encode(state)
        powers = self._powers
        legal: dict[str, list[list[int]]] = {a: [] for a in powers}
        keys: dict[str, list[str]] = {a: [] for a in powers}
        slots = game.slots()
        lists = game.legal_orders()
        for (power, key), options in zip(slots, lists, strict=True):
            legal[power].append(options)
            keys[power].append(key)
        if lists and max(map(len, lists)) > self.max_orders:
            (power, key), options = max(zip(slots, lists, strict=True), key=lambda s: len(s[1]))
            raise EnvError(
                f"{game.phase}: {power} {key} has {len(options)} legal orders, more than "
                f"max_orders={self.max_orders}; make the env with a larger max_orders"
            )
        self._legal = legal
        name = game.phase
        rows = self._mask_rows
        empty = rows[0]
        width = self.max_slots
        obs: dict[str, Any] = {}
        infos: dict[str, Any] = {}
        for agent in agents:
            mine = legal[agent]
            if len(mine) > width:
                raise EnvError(f"{name}: {agent} has {len(mine)} slots, more than {width}")
            sizes = [len(o) for o in mine]
            mask = tuple([rows[k] for k in sizes] + [empty] * (width - len(sizes)))
            obs[agent] = {"board": board, "phase": phase, "action_mask": mask}
            infos[agent] = {
                "phase": name,
                "slots": keys[agent],
                "legal_codes": mine,
                "legal_counts": sizes,
            }
        return obs, infos


def _choices(agent: str, action: Any, slots: int) -> list[int]:
    """An agent's action as ``slots`` ints, or ``ValueError`` saying what it is instead."""
    try:
        choice = action.tolist() if isinstance(action, np.ndarray) else list(action)
    except TypeError:
        raise ValueError(
            f"{agent}: an action is a sequence of {slots} ints, got {show(action)}"
        ) from None
    if len(choice) != slots:
        raise ValueError(f"{agent}: an action has {slots} entries, got {len(choice)}")
    for entry in choice:
        if not isinstance(entry, int | np.integer) or isinstance(entry, bool | np.bool_):
            raise ValueError(f"{agent}: an action's entries are ints, got {show(entry)}")
    return [int(entry) for entry in choice]


def parallel_env(**kwargs: Any) -> DiplomacyEnv:
    """PettingZoo's conventional constructor name: ``DiplomacyEnv(**kwargs)``."""
    return DiplomacyEnv(**kwargs)
