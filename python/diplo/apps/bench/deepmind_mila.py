"""The ``deepmind`` workload's baseline: DeepMind's ``DiplomacyState`` protocol written on MILA
(PyPI ``diplomacy``) the straightforward way, as users without an engine of their own write it:
the observation built from ``Game.get_state()``, the legal actions from
``get_all_possible_orders()`` and ``get_orderable_locations()`` through DeepMind's own
``mila_actions.mila_action_to_action``, a step through the MILA order each legal action came
from. What never changes (the area table, the area kinds) is made once."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from types import ModuleType
from typing import Any

import numpy as np

from ...env.deepmind import AREAS
from ...env.deepmind.agents import TheirEnvironment
from ...env.deepmind.batched import encoding_tables
from ...model.map import standard_map

_POWERS = 7
_SEASONS = {("S", "M"): 0, ("S", "R"): 1, ("F", "M"): 2, ("F", "R"): 3, ("W", "A"): 4}


@cache
def _static() -> tuple[Any, dict[str, list[int]], dict[str, list[int]]]:
    """The board with nothing on it (no unit, no dislodged unit, the area kinds); the areas a
    unit at a MILA location marks (its province's, and its coast's); every area of a
    province."""
    board = np.zeros((len(AREAS), 35), dtype=np.float32)
    board[:, 2] = board[:, 3 + _POWERS] = 1.0
    board[:, 15] = board[:, 16 + _POWERS] = 1.0
    for area, kind in enumerate(encoding_tables(standard_map())["area_kind"]):
        board[area, 24 + kind] = 1.0
    units: dict[str, list[int]] = {}
    provinces: dict[str, list[int]] = {}
    for i, name in enumerate(AREAS):
        province = name.split("/")[0]
        provinces.setdefault(province, []).append(i)
        units[name] = [provinces[province][0], i] if name != province else [i]
    return board, units, provinces


class MilaDiplomacyState:
    """Their protocol on a MILA ``Game`` (standard map) to the end of ``max_year``: a new game,
    or ``game``, a MILA game already under way (seen as it stands: no last actions)."""

    def __init__(
        self, mila: ModuleType, theirs: TheirEnvironment, max_year: int, game: Any = None
    ) -> None:
        self._game = mila.Game() if game is None else game
        self._theirs = theirs
        self._utils = theirs.observation_utils
        self._max_year = max_year
        self.powers = sorted(self._game.powers)
        self._last: list[int] = []
        self._numbers = [0] * _POWERS
        self._orders: list[dict[int, str]] | None = None

    def is_terminal(self) -> bool:
        phase = self._game.get_current_phase()
        return bool(self._game.is_game_done) or int(phase[1:5]) > self._max_year

    def _season(self) -> Any:
        phase = self._game.get_current_phase()
        return self._utils.Season(_SEASONS[(phase[0], phase[-1])])

    def _build_numbers(self, state: dict[str, Any]) -> list[int]:
        if self._game.phase_type != "A":
            return [0] * _POWERS
        out = []
        for power in self.powers:
            builds = state["builds"][power]
            count = int(builds["count"])
            out.append(min(count, len(builds["homes"])) if count > 0 else count)
        return out

    def observation(self) -> Any:
        state = self._game.get_state()
        base, areas, provinces = _static()
        board = base.copy()
        numbers = self._build_numbers(state)
        adjusting = self._game.phase_type == "A"
        owners: dict[str, int] = {}
        for i, power in enumerate(self.powers):
            for unit in state["units"][power]:
                dislodged = unit.startswith("*")
                kind, loc = unit.lstrip("*").split()
                start = 13 if dislodged else 0
                for area in areas[loc]:
                    board[area, start + 2] = board[area, start + 3 + _POWERS] = 0.0
                    board[area, start + (kind == "F")] = 1.0
                    board[area, start + 3 + i] = 1.0
                    if adjusting and not dislodged and numbers[i] < 0:
                        board[area, 12] = 1.0
            for centre in state["centers"][power]:
                owners[centre] = i
            if adjusting and numbers[i] > 0:
                for home in state["builds"][power]["homes"]:
                    for area in provinces[home]:
                        board[area, 11] = 1.0
        for centre in self._game.map.scs:
            flag = 27 + owners.get(centre, _POWERS)
            for area in provinces[centre]:
                board[area, flag] = 1.0
        shown = numbers if adjusting else [min(n, 0) for n in self._numbers]
        return self._utils.Observation(
            season=self._season(),
            board=board,
            build_numbers=np.array(shown, dtype=np.int64),
            last_actions=list(self._last),
        )

    def legal_actions(self) -> list[list[int]]:
        possible = self._game.get_all_possible_orders()
        orderable = self._game.get_orderable_locations()
        season = self._season()
        convert = self._theirs.mila_actions.mila_action_to_action
        self._orders = []
        for power in self.powers:
            mine: dict[int, str] = {}
            for loc in orderable[power]:
                for order in possible[loc]:
                    try:
                        action = int(convert(order, season))
                    except ValueError:  # a MILA order their list does not have
                        continue
                    mine.setdefault(action, order)
            self._orders.append(mine)
        return [list(mine) for mine in self._orders]

    def step(self, actions_per_player: Sequence[Sequence[int]]) -> None:
        if self._orders is None:
            self.legal_actions()
        assert self._orders is not None
        if self._game.phase_type == "A":
            self._numbers = self._build_numbers(self._game.get_state())
        flat: list[int] = []
        for power, actions, mine in zip(self.powers, actions_per_player, self._orders, strict=True):
            try:
                orders = [mine[int(a)] for a in actions]
            except KeyError as exc:
                raise ValueError(f"{power}: action {exc.args[0]} is not legal now") from None
            self._game.set_orders(power, orders)
            flat.extend(int(a) for a in actions)
        self._game.process()
        self._last = flat
        self._orders = None
