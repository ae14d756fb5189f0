"""How diplo words its sentences for people (result reasons, error messages): one home for the
style, so that every reason reads alike: powers by name (``France``), a full stop at the end, and
nearest names offered for a place that was misspelt; and the command line's one-line error
(:func:`fail`), in the command line's words (:func:`for_command_line`)."""

from __future__ import annotations

import difflib
import sys
from collections.abc import Iterable
from typing import Protocol

__all__ = [
    "BAD_INPUT",
    "COMMAND_LINE_FIXES",
    "count",
    "fail",
    "for_command_line",
    "phase_words",
    "power_name",
    "sentence",
    "suggestions",
    "year_words",
]


def power_name(power: str) -> str:
    """A power's name for sentences: ``FRANCE`` -> ``France``, ``NORTH_KINGDOM`` -> ``North
    Kingdom``."""
    return power.replace("_", " ").title()


_SEASONS = {"S": "Spring", "F": "Fall", "W": "Winter"}
_KINDS = {"M": "movement", "R": "retreats", "A": "adjustments"}


def count(n: int, word: str, plural: str | None = None) -> str:
    """``1 phase``, ``3 phases`` (``plural`` when adding an s is wrong)."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def year_words(year: int) -> str:
    """A year for sentences: ``1901`` as it is, a variant's low year as ``year 98`` (a bare
    ``98`` reads as a typo)."""
    return str(year) if year >= 1000 else f"year {year}"


class _PhaseLike(Protocol):
    @property
    def season(self) -> str: ...
    @property
    def year(self) -> int: ...
    @property
    def kind(self) -> str: ...


def phase_words(phase: _PhaseLike, seasons: tuple[str, str, str] | None = None) -> str:
    """A phase as players name it: ``Spring 1901, movement``; ``Spring of year 4, movement`` on
    a map whose years start low (a :class:`~diplo.model.position.Phase`). ``seasons``: the
    map's names of its Spring, Fall and Winter (``Map.calendar.names``; godip's hundred calls
    them all ``Year``)."""
    season = _SEASONS[phase.season] if seasons is None else seasons["SFW".index(phase.season)]
    kind = _KINDS[phase.kind]
    when = f"{season} {phase.year}" if phase.year >= 1000 else f"{season} of year {phase.year}"
    return f"{when}, {kind}"


def sentence(text: str) -> str:
    """``text`` ending with a full stop (or the ``?``/``!``/``)``-stop it already has)."""
    text = text.rstrip()
    if not text or text.endswith((".", "?", "!", ".)")):
        return text
    return text + "."


#: Words longer than this get no suggestion.
_SUGGEST_LIMIT = 60


def suggestions(word: str, names: Iterable[str], limit: int = 3) -> str:
    """`` (did you mean BUR or BRE?)`` for the names nearest ``word`` (any case), or ``""``
    (always for a word longer than :data:`_SUGGEST_LIMIT` characters: no name is that long,
    and comparing costs time in the product of the lengths)."""
    if len(word) > _SUGGEST_LIMIT:
        return ""
    by_key: dict[str, str] = {}
    for name in names:
        by_key.setdefault(name.casefold(), name)
    close = difflib.get_close_matches(word.casefold(), list(by_key), n=limit, cutoff=0.6)
    if not close:
        return ""
    shown = [by_key[c] for c in close]
    listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]
    return f" (did you mean {listed}?)"


# ----------------------------------------------------- the command line's one-line error

#: The exit status of bad input or arguments (one line on stderr).
BAD_INPUT = 2


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
