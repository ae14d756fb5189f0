"""``diplo play``: seven random players play a whole game, phase by phase.

The same seed gives the same game on every backend: the players draw from one generator in a
fixed order (powers in map order, units sorted), and both backends rule identically.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from .backend import check_backend
from .game import Game
from .gamefile import save
from .map import Map, MapError
from .player import RandomPlayer
from .rules import Rules, RulesError
from .variants import add_variant_arguments, variant_arguments


def register(sub: Any) -> None:
    play = sub.add_parser("play", help="play a whole game with seven random players")
    play.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    play.add_argument("--max-year", type=int, default=None, help="last year to play (then a draw)")
    play.add_argument("--backend", choices=("rust", "python"), default=None)
    play.add_argument("--quiet", action="store_true", help="print only the final centre count")
    play.add_argument("--save", metavar="FILE", default=None, help="write the game file here")
    add_variant_arguments(play)
    play.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        backend = check_backend(args.backend)
    except ValueError as exc:
        print(f"diplo: {exc}", file=sys.stderr)
        return 2
    try:
        game_map, rules = variant_arguments(args)
    except (MapError, RulesError) as exc:
        print(f"diplo: {exc}", file=sys.stderr)
        return 2
    try:
        game = play_game(
            args.seed,
            args.max_year,
            backend,
            None if args.quiet else sys.stdout,
            game_map=game_map,
            rules=rules,
        )
    except ValueError as exc:  # e.g. a max_year before the map's first year
        print(f"diplo: {exc}", file=sys.stderr)
        return 2
    _print_final(game)
    if args.save:
        save(game, args.save)
    return 0


def play_game(
    seed: int,
    max_year: int | None,
    backend: str | None,
    out: Any | None = None,
    *,
    game_map: Map | None = None,
    rules: Rules | None = None,
) -> Game:
    """Play one random game to its end; print each phase to ``out`` when given."""
    game = Game(map=game_map, backend=backend, max_year=max_year, rules=rules)
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
