"""The ``diplo`` command line: one parser, each subcommand in its own module
(``adjudicate``, ``datc``, ``play``, ``bench``, ``render``/``view``, ``rollouts``).

Every command that rules on orders takes ``--backend rust|python`` (default: the fastest built).
Errors in the input are reported as one clear line on stderr with a non-zero exit status.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Sequence
from functools import cache

from .. import _version as version
from ..render import cli as render_cli
from ..rollouts import cli as rollouts_cli
from . import adjudicate, bench, compare, datc, play
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


def entry() -> int:
    """The ``diplo`` command (``python -m diplo`` and the installed script): :func:`main`, with
    SIGTERM raising ``KeyboardInterrupt`` as Ctrl-C does (:func:`diplo.rollouts.signals.stopping`);
    then, while the interpreter shuts down (joining a pool's threads, say), a SIGINT or SIGTERM
    ends the process at once with the command's status: its work is done and written, and a
    signal then must not turn into a traceback or a death by signal."""
    import atexit

    from ..rollouts.signals import stopping

    # The last thing before the interpreter's own end, which puts the default actions back
    # (a SIGINT then would still end the process by that signal): signals are ignored.
    atexit.register(_ignore_signals)
    # SIGTERM is met as Ctrl-C is for the whole command (``diplo rollouts`` uses this Stopper
    # for its run), and after it the exit handlers take over with no moment between.
    with stopping():
        status = main()
        _exit_on_signals(status)
    return status


def _ignore_signals() -> None:
    import signal

    for sig in (signal.SIGINT, getattr(signal, "SIGTERM", None)):
        if sig is not None:
            signal.signal(sig, signal.SIG_IGN)


def _exit_on_signals(status: int) -> None:
    import os
    import signal

    def leave(signum: int, frame: object) -> None:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(status)

    for sig in (signal.SIGINT, getattr(signal, "SIGTERM", None)):
        if sig is not None:
            signal.signal(sig, leave)


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
    for command in (play, bench, compare, render_cli, rollouts_cli):
        command.register(sub)
    commands: dict[str, argparse.ArgumentParser] = dict(sub.choices)
    for each in commands.values():
        each.formatter_class = _Formatter
    return parser, commands


def _version() -> str:
    return f"diplo {version.__version__} (DATC v{DATC_VERSION}, Python {sys.version.split()[0]})"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(entry())
