"""What every ``diplo`` subcommand shares: the one-line error, where the contract is, and the
one ``--map NAME|FILE`` (and ``--rules``) option, read the same way by every subcommand."""

from __future__ import annotations

import argparse
import sys
from importlib import resources
from pathlib import Path

from ..model.calendar import STANDARD, Calendar
from ..model.map import SHIPPED_MAPS, Map
from ..model.position import Position
from ..model.rules import Rules
from ..model.variants import load_map

#: The exit status of bad input or arguments (one line on stderr).
BAD_INPUT = 2
#: The exit status of an unexpected exception (a bug in diplo: there should be none).
INTERNAL_ERROR = 3


#: The fixes the library's errors suggest to Python callers, and the same fix on the command
#: line: a command's error never sends its user to a keyword argument.
COMMAND_LINE_FIXES: tuple[tuple[str, str], ...] = (
    (
        "(load with verify=False to take the file as it is)",
        "(diplo render --no-verify and diplo view --no-verify take the file as it is)",
    ),
    ("; pass others in 'maps')", "; give another map's file with --map FILE)"),
    (
        "(game_from_mila(..., strict=False) keeps diplo's rulings)",
        "(diplo render and diplo view draw a MILA save under MILA's ruling when it needs that)",
    ),
)


def for_command_line(message: str) -> str:
    """``message`` with each fix meant for Python callers (:data:`COMMAND_LINE_FIXES`) put as
    the command line's."""
    for python_fix, command_fix in COMMAND_LINE_FIXES:
        message = message.replace(python_fix, command_fix)
    return message


def fail(message: str) -> int:
    """Say what was wrong in one line on stderr, in the command line's words
    (:func:`for_command_line`); the exit status of bad input."""
    print(f"diplo: {for_command_line(message)}", file=sys.stderr)
    return BAD_INPUT


def describe(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    if len(text) > 200:
        text = text[:197] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def contract_path() -> Path:
    """Where the JSON contract (``docs/json-contract.md``) is in the installed package."""
    return Path(str(resources.files("diplo") / "docs" / "json-contract.md"))


MAP_HELP = (
    f"a shipped map ({', '.join(SHIPPED_MAPS)}), a diplo map file (.json) or a MILA map file (.map)"
)


def add_map_argument(parser: argparse.ArgumentParser, default: str = "standard") -> None:
    """``--map NAME|FILE``: the same option, with the same meaning, on every subcommand."""
    parser.add_argument(
        "--map", default=None, metavar="NAME|FILE", help=f"{MAP_HELP}; default: {default}"
    )


def add_variant_arguments(parser: argparse.ArgumentParser) -> None:
    """``--map NAME|FILE`` and ``--rules KEY=VALUE,...`` for a command."""
    add_map_argument(parser)
    parser.add_argument(
        "--rules",
        default=None,
        metavar="KEY=VALUE,...",
        help="rule options, e.g. edition=1982 or civil_disorder=home,build_sites=any,"
        "victory_centers=10,year_limit=1910 (default: the map's rules, the DATC's unless the "
        "variant says otherwise)",
    )


def map_argument(value: str | None) -> Map | None:
    """The map ``--map`` names (``None`` when not given): a shipped name, a diplo ``.json`` map
    or a MILA ``.map`` file. Raises :class:`~diplo.model.map.MapError` naming what is wrong."""
    return None if value is None else load_map(value)


def variant_arguments(args: argparse.Namespace) -> tuple[Map | None, Rules | None]:
    """The map and rules a command was given (``None``: the defaults). Raises
    :class:`~diplo.model.map.MapError` or :class:`~diplo.model.rules.RulesError` naming what is
    wrong."""
    game_map = map_argument(args.map)
    rules = None
    if args.rules is not None:
        rules = Rules.parse(args.rules, game_map.rules if game_map is not None else Rules())
    return game_map, rules


def add_year_arguments(parser: argparse.ArgumentParser, max_year_help: str) -> None:
    """``--max-year YEAR`` (the last year played; ``max_year_help`` says the command's default)
    and ``--years N``: play N years from the map's first year, so one need not know it (1901 on
    the standard map, 1 on ancmed). The two exclude each other."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--max-year", type=int, default=None, metavar="YEAR", help=max_year_help)
    group.add_argument(
        "--years",
        type=_years,
        default=None,
        metavar="N",
        help="play N years (1 or more) from the map's first year; instead of --max-year",
    )


def _years(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of years, got {text!r}"
        ) from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected 1 year or more, got {text}")
    return value


def max_year_of(years: int, first: int, calendar: Calendar = STANDARD) -> int:
    """The last year played by a game of ``years`` years (each a Spring and its Fall, as the
    map's calendar places them: ten calendar years each on godip's hundred) from ``first``
    (``--years``); raises ``ValueError`` naming ``--years`` when that is past the last year a
    game can be limited to."""
    from ..model.limits import MAX_YEAR

    cycle = calendar.years_to_fall + calendar.years_to_spring
    last = first + (years - 1) * cycle + calendar.years_to_fall
    if last > MAX_YEAR - 1:
        most = max(0, (MAX_YEAR - 1 - first - calendar.years_to_fall) // cycle + 1)
        raise ValueError(
            f"--years {years}: from {first} that plays to {last}, after {MAX_YEAR - 1} (the last "
            f"year a game can be limited to): at most {most} years"
        )
    return last


def first_year(game_map: Map) -> int:
    """The year a game on ``game_map`` starts in (1901 on the standard map, 1 on ancmed)."""
    return Position.initial(game_map).phase.year
