"""The ``diplo`` command line: one parser, each subcommand in its own module
(``adjudicate``, ``datc``, ``play``, ``bench``, ``render``/``view``, ``rollouts``).

Every command that rules on orders takes ``--backend rust|python`` (default: the fastest built).
Errors in the input are reported as one clear line on stderr with a non-zero exit status.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from functools import cache

from .. import _version as version
from ..render import cli as render_cli
from ..rollouts import cli as rollouts_cli
from . import adjudicate, bench, datc, play
from .common import INTERNAL_ERROR, contract_path
from .common import describe as _describe
from .conformance import DATC_VERSION


def main(argv: Sequence[str] | None = None) -> int:
    parser, commands = _parsers()
    args, extra = parser.parse_known_args(argv)
    if extra:
        # Said by the subcommand's parser, so the usage shown is that command's.
        commands[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        return handler(args)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # no traceback ever reaches a user: a bug is one line, exit 3
        print(f"diplo: internal error: {_describe(exc)}", file=sys.stderr)
        return INTERNAL_ERROR


class _Formatter(argparse.HelpFormatter):
    """Help text wrapped at spaces only: a path or an option is never cut at its hyphens."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        import textwrap

        return textwrap.fill(
            " ".join(text.split()),
            width,
            initial_indent=indent,
            subsequent_indent=indent,
            break_on_hyphens=False,
            break_long_words=False,
        )

    def _split_lines(self, text: str, width: int) -> list[str]:
        import textwrap

        return textwrap.wrap(
            " ".join(text.split()), width, break_on_hyphens=False, break_long_words=False
        )


def _parser() -> argparse.ArgumentParser:
    """The command line's parser (see :func:`_parsers`)."""
    return _parsers()[0]


@cache
def _parsers() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The command line's parser and each subcommand's, built once per process (about 2 ms with
    every command's options: the start-up cost of each ``main`` call of a program that calls it
    often)."""
    parser = argparse.ArgumentParser(
        prog="diplo",
        description="A Diplomacy adjudicator following the DATC v3.0.",
        epilog=f"The JSON contract (diplo adjudicate's documents): {contract_path()}",
        formatter_class=_Formatter,
    )
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", required=True)

    adjudicate.register(sub)
    datc.register(sub)
    for command in (play, bench, render_cli, rollouts_cli):
        command.register(sub)
    commands: dict[str, argparse.ArgumentParser] = dict(sub.choices)
    for each in commands.values():
        each.formatter_class = _Formatter
    return parser, commands


def _version() -> str:
    return f"diplo {version.__version__} (DATC v{DATC_VERSION}, Python {sys.version.split()[0]})"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
