"""The limits of inputs, and how an input is quoted in an error message.

Messages never echo more than :data:`ECHO_LIMIT` characters of an input, and show JSON's values
as JSON writes them (``null``, ``true``). The years a position may be in are
:data:`MIN_YEAR`..:data:`MAX_YEAR`; the one consistency check of a position lives with the
position (:func:`diplo.model.position.check_position`).
"""

from __future__ import annotations

import json

__all__ = [
    "DOCUMENT_LIMIT",
    "ECHO_LIMIT",
    "MAX_YEAR",
    "MIN_YEAR",
    "ORDER_LIMIT",
    "SUGGESTED_ORDERS",
    "check_max_year",
    "clip",
    "show",
]

#: The years a position may be in. A phase whose next phase would fall after ``MAX_YEAR`` is
#: refused when processed, so every ``next`` the engine writes is an input it accepts.
MIN_YEAR = 0
MAX_YEAR = 9999
#: The longest order text read, in characters (the longest real order is under 100); a longer
#: one is ruled illegal unread, which keeps parsing linear in the input.
ORDER_LIMIT = 500
#: Of the orders of one phase (one document) that cannot be read, the first this many, in input
#: order, name the nearest places to a misspelt one (``did you mean BUR?``); the rest are refused
#: without: the suggestions compare the word with every name of the map (about 0.5 ms an
#: order), so 100,000 unreadable orders would take a minute, and a refusal must cost
#: microseconds.
SUGGESTED_ORDERS = 20
#: The largest adjudicate document (one file, or one ``--jsonl`` line), in bytes.
DOCUMENT_LIMIT = 4 * 1024 * 1024
#: At most this many characters of an input are quoted in an error message.
ECHO_LIMIT = 60


def show(value: object, limit: int = ECHO_LIMIT) -> str:
    """An input value for an error message, cut to ``limit`` characters: a string quoted as
    Python does (``'PAR'``), other JSON values as JSON writes them (``null``, ``true``, ``[1]``),
    anything else by its ``repr``."""
    if isinstance(value, str):
        text = repr(value[: limit + 2])
    else:
        try:
            text = json.dumps(value, ensure_ascii=True)
        except (TypeError, ValueError, RecursionError):
            text = _safe_repr(value)
    if len(text) > limit:
        text = f"{text[: limit - 3]}... ({_size(value)})"
    return text


def clip(message: str, limit: int = 500) -> str:
    """An error message cut to ``limit`` characters, saying how long it was."""
    if len(message) <= limit:
        return message
    return f"{message[: limit - 40]}... (message of {len(message)} characters cut)"


def _safe_repr(value: object) -> str:
    try:
        return repr(value)[:ECHO_LIMIT]
    except Exception:  # a hostile __repr__ is no reason to lose the real error
        return f"<{type(value).__name__}>"


def _size(value: object) -> str:
    if isinstance(value, str):
        return f"{len(value)} characters"
    if isinstance(value, list | dict):
        return f"{len(value)} items"
    return type(value).__name__


def check_max_year(max_year: object, first_year: int, where: str) -> int | None:
    """``max_year`` for a game starting in ``first_year``: ``None`` or an int from the first year
    to ``MAX_YEAR - 1`` (a game ended by ``max_year`` shows its final board in the year after),
    and not a four-digit year on a map whose years start below 1000;
    raises ``ValueError`` naming ``where`` otherwise. ``Game`` and ``CodeGame`` both use it."""
    if max_year is None:
        return None
    if not isinstance(max_year, int) or isinstance(max_year, bool):
        raise ValueError(f"{where}: max_year must be an int or None, got {show(max_year)}")
    if max_year > MAX_YEAR - 1:
        raise ValueError(
            f"{where}: max_year {show(max_year)} is after {MAX_YEAR - 1}, the last year a game "
            "can be limited to"
        )
    if max_year < first_year:
        raise ValueError(
            f"{where}: max_year {max_year} is before {first_year}, the first year of the game"
        )
    if first_year < 1000 <= max_year:
        # A map whose years start low (year 1 of Ancient Mediterranean): a four-digit limit is
        # the standard board's calendar by mistake, and would play on to a solo.
        raise ValueError(
            f"{where}: max_year {max_year} is {max_year - first_year} years after this map's "
            f"first year {first_year}: its years count from {first_year} (give, say, "
            f"{first_year + 4} for five years)"
        )
    return max_year
