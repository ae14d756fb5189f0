"""A dipcc game's data as one plain record, and the dictionaries dipcc shows of a phase.

:class:`GameRecord` is everything a :class:`~diplo.compat.dipcc.game.Game` holds (the current
phase, the staged orders, the played phases with their orders, messages, logs, metadata and
settings); the JSON reader and writer (:mod:`~diplo.compat.dipcc.jsonio`) work on records, so
they need nothing of the game class. :func:`state_dict` is a phase's board as dipcc's
``py_state_to_dict`` gives it (``get_state``, ``PhaseData.state``, and the JSON ``state``).
"""

from __future__ import annotations

import random
import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .board import LOCS, POWERS, DipccOrder, board
from .state import PhaseName, State
from .timestamp import Timestamp

__all__ = ["SCORING_STRINGS", "GameRecord", "gen_game_id", "message_dict", "state_dict"]

#: dipcc's scoring systems by number (``scoring.h``): 0 sum of squares, 1 draw size.
SCORING_STRINGS = ("sum_of_squares", "draw_size")
_ALPHABET = string.ascii_uppercase + string.ascii_lowercase + string.digits + "+/"

#: A message as dipcc keeps it: sender, recipient, phase, message, time_sent (centiseconds).
Message = dict[str, Any]


@dataclass
class GameRecord:
    """Everything a dipcc game holds."""

    state: State
    game_id: str = ""
    staged: dict[str, list[DipccOrder]] = field(default_factory=dict)
    history: dict[PhaseName, State] = field(default_factory=dict)
    order_history: dict[PhaseName, dict[str, list[DipccOrder]]] = field(default_factory=dict)
    messages: dict[PhaseName, dict[int, Message]] = field(default_factory=dict)
    logs: dict[PhaseName, list[str]] = field(default_factory=dict)
    draw_on_stalemate_years: int = -1
    exception_on_convoy_paradox: bool = False
    metadata: dict[str, str] = field(default_factory=dict)
    scoring: int = 0
    is_full_press: bool = True
    map_name: str = "standard"
    #: the encoders' packed played phases since the last movement phase, with what they were
    #: made from (``diplo.compat.dipcc.game.packed_game``): the history dict itself (shared by
    #: the copies, replaced when a phase is played), its size and the current phase
    encoded_since: tuple[Any, ...] | None = field(default=None, repr=False, compare=False)

    def copy(self) -> GameRecord:
        """A copy that shares nothing mutable with this one: the current board and the played
        phases (their boards, their orders, and the two dicts of them) are never changed in
        place, a played phase replaces the dicts, so they are shared. Made field by field
        without the constructor: a copy is the call agents make most (``clone_n_times``)."""
        new = object.__new__(GameRecord)
        fields = new.__dict__
        fields.update(self.__dict__)
        fields["staged"] = {p: list(o) for p, o in self.staged.items()}
        fields["messages"] = {p: dict(m) for p, m in self.messages.items()}
        fields["logs"] = {p: list(x) for p, x in self.logs.items()}
        fields["metadata"] = dict(self.metadata)
        return new


def gen_game_id() -> str:
    """Twelve random characters of the base64 alphabet, as dipcc makes a game's id."""
    return "".join(random.choice(_ALPHABET) for _ in range(12))


def message_dict(msg: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "sender": msg["sender"],
        "recipient": msg["recipient"],
        "phase": msg["phase"],
        "message": msg["message"],
        "time_sent": Timestamp.from_centis(msg["time_sent"]),
    }


def state_dict(state: State) -> dict[str, Any]:
    """A phase's board as ``get_state()`` and ``PhaseData.state`` give it."""
    b = board()
    possible = state.possible_orders()
    builds: dict[str, dict[str, Any]] = {}
    for power in POWERS:
        homes: list[str] = []
        count = 0
        if state.phase.kind == "A":
            homes = [LOCS[h - 1] for h in b.homes[power] if possible.get(h)]
            count = min(state.n_builds(power), len(homes))
        builds[power] = {"count": count, "homes": homes}
    centers: dict[str, list[str]] = {p: [] for p in POWERS}
    for code in sorted(state.centers):
        centers[state.centers[code]].append(LOCS[code - 1])
    homes_owned = {
        p: [LOCS[h - 1] for h in b.homes[p] if state.centers.get(h) == p] for p in POWERS
    }
    retreats: dict[str, dict[str, list[str]]] = {p: {} for p in POWERS}
    units: dict[str, list[str]] = {p: [] for p in POWERS}
    for code in sorted(state.units):
        power, utype = state.units[code]
        units[power].append(f"{'AF'[utype - 1]} {LOCS[code - 1]}")
    for power, utype, loc in _dislodged_order(state):
        text = f"{'AF'[utype - 1]} {LOCS[loc - 1]}"
        units[power].append("*" + text)
        if state.phase.kind == "R":
            retreats[power][text] = [LOCS[d - 1] for d in state.dislodged[(power, utype, loc)]]
    influence: dict[str, list[str]] = {p: [] for p in POWERS}
    for code in sorted(state.influence):
        influence[state.influence[code]].append(LOCS[code - 1])
    return {
        "builds": builds,
        "centers": centers,
        "homes": homes_owned,
        "name": str(state.phase),
        "retreats": retreats,
        "units": units,
        "influence": influence,
    }


def _dislodged_order(state: State) -> list[tuple[str, int, int]]:
    return sorted(state.dislodged, key=lambda k: (POWERS.index(k[0]), k[1], k[2]))
