"""``diplo play``: random players, one per power of the map, play a whole game, phase by phase.

The same seed gives the same game on every backend: the players draw from one generator in a
fixed order (powers in map order, units sorted), and both backends rule identically.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path
from typing import Any

from ..api.backends import BackendError, backend_for, check_backend
from ..api.game import Game
from ..api.player import RandomPlayer
from ..formats.gamefile import save
from ..model.calendar import max_year_of
from ..model.limits import check_max_year
from ..model.map import Map, MapError, standard_map
from ..model.position import Position
from ..model.results import PhaseOutcome
from ..model.rules import Rules, RulesError
from ..model.variants import add_variant_arguments, add_year_arguments, variant_arguments
from ..model.wording import for_command_line, phase_words, power_name, year_words


def register(sub: Any) -> None:
    play = sub.add_parser(
        "play",
        help="play a whole game with a random player for every power",
        description="Random players, one per power (seven on the standard map; every unit "
        "ordered at random among its legal orders), play a game on the standard map or the one "
        "--map names; every phase is ruled and "
        "printed, then the final supply-centre count. Without --max-year the game runs until "
        "one power wins with the map's victory count (18 centres on the standard map, which can "
        "take a few hundred years of random play) or, failing that, to a draw after the last "
        "year the map's calendar plays before the year 9999 (9998 on the standard map); with "
        "it, the game ends as a draw after that year. The same seed gives the same game on "
        "every backend.",
    )
    play.add_argument(
        "--seed",
        type=_seed,
        default=0,
        help="random seed, a whole number 0 or more: the same seed plays the same game (default 0)",
    )
    add_year_arguments(
        play, "last year to play, then the game ends in a draw (default: play to a solo win)"
    )
    play.add_argument(
        "--backend",
        choices=("rust", "python"),
        default=None,
        help="the movement resolver (default: the fastest one built)",
    )
    play.add_argument(
        "-v", "--verbose", action="store_true", help="say why each order succeeded or failed"
    )
    play.add_argument("--quiet", action="store_true", help="print only the final centre count")
    play.add_argument(
        "--save", metavar="FILE", default=None, help="write the game file here (docs/game-files.md)"
    )
    add_variant_arguments(play)
    play.set_defaults(handler=run)


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"the seed must be 0 or more, got {value}")
    return value


def run(args: argparse.Namespace) -> int:
    try:
        backend = None if args.backend is None else check_backend(args.backend)
    except ValueError as exc:
        print(f"diplo: {for_command_line(str(exc))}", file=sys.stderr)
        return 2
    # Everything that can be refused is refused before the game is played.
    try:
        game_map, rules = variant_arguments(args)
        _say_the_backend(backend, game_map or standard_map())
        first = Position.initial(game_map or standard_map(), rules=rules).phase.year
        if args.years is not None:
            calendar = (game_map or standard_map()).calendar
            args.max_year = max_year_of(args.years, first, calendar)
        check_max_year(args.max_year, first, "--max-year")
        if rules is not None and rules.year_limit is not None:
            check_max_year(rules.year_limit, first, "--rules year_limit")
        if args.save:
            _check_writable(args.save)
    except (ValueError, MapError, RulesError) as exc:
        print(f"diplo: {for_command_line(str(exc))}", file=sys.stderr)
        return 2
    verbose = bool(getattr(args, "verbose", False))
    out = None if args.quiet else _Output(sys.stdout)
    game = play_game(
        args.seed, args.max_year, backend, out, verbose=verbose, game_map=game_map, rules=rules
    )
    try:
        _print_final(game)
        sys.stdout.flush()
    except BrokenPipeError:
        _drop_output(sys.stdout)
    if args.save:
        try:
            save(game, args.save)
        except OSError as exc:
            print(f"diplo: cannot write {args.save}: {exc.strerror}", file=sys.stderr)
            return 2
    return 0


class _Output:
    """Standard output for the phases of a game: when the reader goes away (``diplo play |
    head``), the rest of the printing is dropped, but the game is still played to its end and
    its ``--save`` file written (a closed pipe is no reason to lose the file)."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.closed = False

    def write(self, text: str) -> None:
        if self.closed:
            return
        try:
            self.stream.write(text)
        except BrokenPipeError:
            self.closed = True
            _drop_output(self.stream)


def _drop_output(stream: Any) -> None:
    """Send whatever ``stream`` (standard output, closed by its reader) still holds, and all
    later writes, to the null device: nothing more reaches the closed pipe (Python would flush
    to it again on exit, and fail)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, stream.fileno())
    finally:
        os.close(devnull)


def _say_the_backend(backend: str | None, game_map: Map) -> None:
    """A map the engine cannot hold plays on the reference by default, said on standard error;
    ``--backend rust`` on it is refused (:class:`BackendError`, naming the limit)."""
    if backend is None and backend_for(None, game_map).name == "python":
        try:
            backend_for("rust", game_map)
        except BackendError as exc:
            print(f"diplo: {exc}; playing on the Python reference", file=sys.stderr)
    else:
        backend_for(backend, game_map)


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


def play_game(
    seed: int,
    max_year: int | None,
    backend: str | None,
    out: Any | None = None,
    *,
    verbose: bool = False,
    game_map: Map | None = None,
    rules: Rules | None = None,
) -> Game:
    """Play one random game to its end; print each phase to ``out`` when given (with each
    result's reason when ``verbose``). A power no player controls (``Map.dummies``) gets no
    orders: its units hold and the rules decide its adjustments."""
    game = Game(map=game_map, backend=backend, max_year=max_year, rules=rules)
    player = RandomPlayer(random.Random(seed))
    nobody = game.map.dummies
    while not game.is_over:
        position = game.position
        for power in game.orderable_powers():
            if power not in nobody:
                game.set_orders(power, player.orders(position, power))
        outcome = game.process()
        if out is not None:
            write_phase(out, outcome, verbose)
    return game


def write_phase(out: Any, outcome: PhaseOutcome, verbose: bool = False) -> None:
    """One ruled phase for people: the phase in words, then one line per result. Every
    dislodged unit says so (with where it may retreat), whatever code its order got."""
    out.write(f"{phase_words(outcome.phase, outcome.next.map.calendar.names)}\n")
    dislodged = {str(d.piece): d for d in outcome.dislodged.values()}
    for result in outcome.results:
        marks = [result.code if result.given else f"{result.code}, not ordered"]
        gone = dislodged.get(result.unit or "")
        if gone is not None and (result.given or result.unit is not None) and result.legal:
            if result.code != "dislodged":
                marks.append("dislodged")
            options = ", ".join(gone.options)
            marks.append(f"may retreat to {options}" if options else "no retreat: disbanded")
        power = power_name(result.power) if result.power else ""
        out.write(f"  {power:<8} {result.order:<24} {'; '.join(marks)}\n")
        if verbose and result.reason:
            out.write(f"  {'':<8} {'':<24} {result.reason}\n")


def _print_final(game: Game) -> None:
    counts = game.centers
    ranking = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    year = game.position.phase.year
    if game.winner:
        print(f"{power_name(game.winner)} wins in {year_words(year)}.")
        print(game.end_text)
    elif game.draw:
        names = ", ".join(power_name(p) for p in game.survivors_played)
        why = "the year limit was reached" if game.end_reason == "max_year" else game.end_reason
        print(f"Draw among {names} ({why}).")
    units = {p: len(game.position.units_of(p)) for p in counts}
    # The players ranked; a power nobody plays after them, unranked and called neutral.
    nobody = game.map.uncontrolled
    shown = [(power_name(p), p) for p, _ in ranking if p not in nobody]
    for p in game.map.powers:
        if p in nobody:
            name = power_name(p)
            shown.append((name if "neutral" in name.lower() else f"{name} (neutral)", p))
    width = max(10, *(len(name) + 2 for name, _ in shown))
    print("")
    print(f"{'power':<{width}}{'centres':>8}{'units':>7}")
    for name, power in shown:
        print(f"{name:<{width}}{counts[power]:>8}{units[power]:>7}")
    print(f"{'total':<{width}}{sum(counts.values()):>8}{sum(units.values()):>7}")


__all__ = ["phase_words", "play_game", "register", "run", "write_phase"]
