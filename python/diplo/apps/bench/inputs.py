"""What ``diplo bench`` measures on: movement phases of random self-play, and the canonical
self-play game of a seed, recorded."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from ...api.game import Game
from ...api.legal import legal_order_texts
from ...model.map import Map
from ...model.orders import Order, format_order, parse_order
from ...model.position import Position
from ..play import play_game

FULL_BOARD = 30


@dataclass(frozen=True)
class MovementPhase:
    """A movement phase of a random game and the orders its players gave (one per unit)."""

    position: Position
    orders: dict[str, list[Order]]

    @property
    def units(self) -> int:
        return len(self.position.units)

    def texts(self) -> dict[str, list[str]]:
        """The orders in the short form (which is MILA's notation)."""
        return {p: [format_order(o) for o in os] for p, os in self.orders.items()}


def prepare_movement_phases(
    count: int,
    seed: int = 0,
    max_year: int = 1915,
    min_units: int = FULL_BOARD,
    game_map: Map | None = None,
) -> list[MovementPhase]:
    """``count`` movement phases of random self-play with at least ``min_units`` units.

    Plays the games of seeds ``seed``, ``seed + 1``, ... (the games ``diplo play`` plays) until
    ``count`` such phases are found or ``count`` games have been played; then the shortfall is
    made up with the fullest of the other movement phases.
    """
    if count < 1:
        raise ValueError("count must be at least 1")
    full: list[MovementPhase] = []
    rest: list[MovementPhase] = []
    for game_seed in range(seed, seed + count):
        game = play_game(game_seed, max_year, None, game_map=game_map)
        game_map = game.map
        for record in game.history:
            if record.phase.kind != "M":
                continue
            orders = {
                power: [parse_order(text, game_map) for text in texts]
                for power, texts in record.orders.items()
            }
            phase = MovementPhase(record.position, orders)
            (full if phase.units >= min_units else rest).append(phase)
        if len(full) >= count:
            return full[:count]
    rest.sort(key=lambda p: p.units, reverse=True)  # stable: ties keep the order of play
    return full + rest[: count - len(full)]


def position_digest(position: Position) -> str:
    """A short digest of a position (phase, units, centre owners, dislodged units and their
    retreat options): equal digests, equal boards, whichever engine reached them."""
    lines = [str(position.phase)]
    lines += sorted(f"{p.power} {p}" for p in position.units.values())
    lines += sorted(f"{prov} {power}" for prov, power in position.centers.items())
    lines += sorted(
        f"*{d.piece.power} {d.piece} {' '.join(sorted(d.options))}"
        for d in position.dislodged.values()
    )
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class RecordedGame:
    """The canonical game of one seed as the object engines play it: the position at the start
    of every phase and the final one (``positions``), and per phase the slots in canonical order
    as ``(power, key, texts, index of the text chosen)``."""

    positions: list[Position]
    slots: list[list[tuple[str, str, list[str], int]]]


def record_game(game_seed: int, max_year: int, game_map: Map | None) -> RecordedGame:
    """The object engines' loop (``selfplay_engines``), untimed, keeping what it chose:
    ``choice(range(n))`` draws exactly as ``choice(options)`` does from a list of ``n``."""
    game = Game(game_map, max_year=max_year)
    choice = random.Random(game_seed).choice
    positions: list[Position] = []
    slots: list[list[tuple[str, str, list[str], int]]] = []
    while not game.is_over:
        position = game.position
        positions.append(position)
        phase: list[tuple[str, str, list[str], int]] = []
        for power in game.orderable_powers():
            legal = legal_order_texts(position, power)
            chosen = [
                (power, key, texts, choice(range(len(texts)))) for key, texts in legal.items()
            ]
            game.set_orders(power, [texts[k] for _p, _key, texts, k in chosen])
            phase += chosen
        slots.append(phase)
        game.process()
    positions.append(game.position)
    return RecordedGame(positions, slots)
