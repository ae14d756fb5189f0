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
    parser = _parser()
    args = parser.parse_args(argv)
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


@cache
def _parser() -> argparse.ArgumentParser:
    """The command line's parser, built once per process (about 2 ms with every command's
    options: the start-up cost of each ``main`` call of a program that calls it often)."""
    parser = argparse.ArgumentParser(
        prog="diplo",
        description="A Diplomacy adjudicator following the DATC v3.0.",
        epilog=f"The JSON contract (diplo adjudicate's documents): {contract_path()}",
    )
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", required=True)

    adjudicate.register(sub)
    datc.register(sub)
    for command in (play, bench, render_cli, rollouts_cli):
        command.register(sub)
    return parser


def _version() -> str:
    return f"diplo {version.__version__} (DATC v{DATC_VERSION}, Python {sys.version.split()[0]})"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
