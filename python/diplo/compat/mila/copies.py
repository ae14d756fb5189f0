"""Copying MILA's state dictionaries fast: what ``copy.deepcopy`` gives for their dicts, lists
and scalars (:func:`copy_tree`), at a fraction of its cost (a saved game copies every phase's
state; ``get_state`` copies one per call)."""

from __future__ import annotations

import copy as _copy
from typing import Any

from ...engine.mila import state_copy

__all__ = ["copy_board", "copy_tree"]

_ATOMIC = frozenset({str, int, float, bool, type(None)})


def copy_tree(value: Any) -> Any:
    """A copy of ``value`` sharing no dict or list with it (as ``copy.deepcopy``, except that a
    list or dict met twice is copied twice); anything but dicts, lists and scalars is
    deep-copied. The engine copies a tree of dicts, lists and scalars in one call; anything
    else is copied here (a list of scalars in one slice, a dict's values inline); a tree deeper
    than :data:`_MAX_DEPTH` (a cycle among them) is ``copy.deepcopy``'s, which copies cycles."""
    made = state_copy(value)
    if made is not None:
        return made
    try:
        return _copy_slow(value, 0)
    except _TooDeep:
        return _copy.deepcopy(value)


#: How deep :func:`copy_tree` copies its own way (a state dictionary is three deep).
_MAX_DEPTH = 64


class _TooDeep(Exception):
    """A tree deeper than :data:`_MAX_DEPTH`: left to ``copy.deepcopy``."""


def _copy_slow(value: Any, depth: int) -> Any:
    kind = type(value)
    atomic = _ATOMIC
    if kind in atomic:
        return value
    if depth >= _MAX_DEPTH:
        raise _TooDeep
    if kind is dict:
        out = {}
        for key, item in list(value.items()):  # a snapshot: a key's code may change the dict
            of = type(item)
            if of in atomic:
                out[key] = item
            elif of is list and atomic.issuperset(map(type, item)):
                out[key] = item[:]
            else:
                out[key] = _copy_slow(item, depth + 1)
        return out
    if kind is list:
        if atomic.issuperset(map(type, value)):
            return value[:]
        return [_copy_slow(item, depth + 1) for item in value]
    return _copy.deepcopy(value)


def copy_board(doc: dict[str, Any]) -> dict[str, Any]:
    """A copy of the state keys of a state dictionary the engine's board was made into
    (:func:`~diplo.compat.mila.docs.board_doc`, ``position_to_mila``: per power, lists of texts,
    ``retreats`` of lists, ``builds`` of a count and a list), as :func:`copy_tree` makes it of
    ``{k: doc[k] for k in STATE_KEYS}``."""
    lists = ("units", "centers", "homes", "influence")
    out: dict[str, Any] = {}
    for key, value in doc.items():
        if key in lists:
            out[key] = {p: v[:] for p, v in value.items()}
        elif key == "retreats":
            out[key] = {p: {u: o[:] for u, o in v.items()} for p, v in value.items()}
        elif key == "builds":
            out[key] = {p: {"count": b["count"], "homes": b["homes"][:]} for p, b in value.items()}
        elif key == "civil_disorder":
            out[key] = dict(value)
        elif key in ("name", "note"):
            out[key] = value
    return out
