"""How diplo words its sentences for people (result reasons, error messages): one home for the
style, so that every reason reads alike: powers by name (``France``), a full stop at the end, and
nearest names offered for a place that was misspelt."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["power_name", "sentence", "suggestions"]


def power_name(power: str) -> str:
    """A power's name for sentences: ``FRANCE`` -> ``France``, ``NORTH_KINGDOM`` -> ``North
    Kingdom``."""
    return power.replace("_", " ").title()


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
