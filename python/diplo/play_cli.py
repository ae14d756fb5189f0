"""``diplo play``: seven random players play a whole game, phase by phase.

The same seed gives the same game on every backend: the players draw from one generator in a
fixed order (powers in map order, units sorted), and both backends rule identically.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path
from typing import Any

from .backend import check_backend
from .checks import check_max_year
from .game import Game
from .gamefile import save
from .map import standard_map
from .player import RandomPlayer
from .position import Position


def register(sub: Any) -> None:
    play = sub.add_parser("play", help="play a whole game with seven random players")
    play.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    play.add_argument("--max-year", type=int, default=None, help="last year to play (then a draw)")
    play.add_argument("--backend", choices=("rust", "python"), default=None)
    play.add_argument("--quiet", action="store_true", help="print only the final centre count")
    play.add_argument("--save", metavar="FILE", default=None, help="write the game file here")
    play.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        backend = check_backend(args.backend)
    except ValueError as exc:
        print(f"diplo: {exc}", file=sys.stderr)
        return 2
    # Everything that can be refused is refused before the game is played.
    try:
        check_max_year(args.max_year, Position.initial(standard_map()).phase.year, "--max-year")
        if args.save:
            _check_writable(args.save)
    except ValueError as exc:
        print(f"diplo: {exc}", file=sys.stderr)
        return 2
    game = play_game(args.seed, args.max_year, backend, None if args.quiet else sys.stdout)
    _print_final(game)
    if args.save:
        try:
            save(game, args.save)
        except OSError as exc:
            print(f"diplo: cannot write {args.save}: {exc.strerror}", file=sys.stderr)
            return 2
    return 0


def _check_writable(path: str) -> None:
    """Raise ``ValueError`` unless a file can be written at ``path`` (checked before playing)."""
    target = Path(path)
    folder = target.parent
    if not folder.is_dir():
        raise ValueError(f"--save {path}: the folder {folder} does not exist")
    if target.is_dir():
        raise ValueError(f"--save {path}: that is a folder")
    if not os.access(target if target.exists() else folder, os.W_OK):
        raise ValueError(f"--save {path}: not writable")


def play_game(seed: int, max_year: int | None, backend: str | None, out: Any | None = None) -> Game:
    """Play one random game to its end; print each phase to ``out`` when given."""
    game = Game(backend=backend, max_year=max_year)
    player = RandomPlayer(random.Random(seed))
    while not game.is_over:
        position = game.position
        for power in game.orderable_powers():
            game.set_orders(power, player.orders(position, power))
        outcome = game.process()
        if out is not None:
            out.write(f"{outcome.phase}\n")
            for result in outcome.results:
                mark = result.code if result.given else f"{result.code}, not ordered"
                out.write(f"  {result.power:<8} {result.order:<24} {mark}\n")
    return game


def _print_final(game: Game) -> None:
    counts = game.centers
    ranking = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    if game.winner:
        print(f"{game.winner} wins in {game.position.phase.year}")
    elif game.draw:
        print(f"draw among {', '.join(game.survivors)} ({game.end_reason})")
    print("supply centres: " + json.dumps(dict(ranking)))


__all__ = ["play_game", "register", "run"]
