"""How model values show themselves as pictures (a notebook's ``_repr_svg_``).

The drawing is an application's (:mod:`diplo.render`), and the model never imports an
application: the renderer registers its drawers here when it is imported (``import diplo`` does
that), so the arrows keep pointing down. Without a drawer a value has no picture (``None``, which
notebooks read as "no SVG form").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_DRAWERS: dict[type, Callable[[Any], str]] = {}


def register(kind: type, draw: Callable[[Any], str]) -> None:
    """Use ``draw(value)`` as the SVG picture of every value of ``kind`` (and its subclasses)."""
    _DRAWERS[kind] = draw


def svg_of(value: object) -> str | None:
    """The picture of ``value`` from the drawer registered for its type, or ``None``."""
    for kind in type(value).__mro__:
        draw = _DRAWERS.get(kind)
        if draw is not None:
            return draw(value)
    return None
