"""The ruling a drop-in game is played under when the code that makes it does not say.

A drop-in of MILA rules as MILA unless told otherwise: a harness written for MILA imports
``diplomacy`` and calls ``Game()``, and switched to the drop-in by its imports alone it gets
MILA's rulings (``Rules(edition="mila")`` on the map's own rules: the map's build-anywhere rule,
for one, is kept). The ruling of a game made without ``ruling=`` is chosen here, in this order:

* :func:`set_default_ruling` (a module-level setter, for code that may be changed in one place);
* the environment variable :data:`ENV_VAR` (``DIPLO_MILA_RULING``), read when a game is made:
  ``mila`` (MILA's ruling, the same as unset), ``datc`` (diplo's, by the DATC v3.0: the map's
  rules), or the command line's form of a ruling (``edition=mila,civil_disorder=owned``);
* else MILA's ruling (:data:`MILA`).

The one word for diplo's rulings is ``datc``, wherever a ruling is named: the variable, the
setter and ``Game(ruling="datc")``; a :class:`Rules` value may be given instead (``Rules()``:
the DATC v3.0's choices, whatever the map's). ``Game(ruling=None)`` is "not said": the default.

A saved game is not a new game: it is replayed under the ruling it records, and a save that
records none (MILA's own saves, and the drop-in's before it recorded one) under MILA's ruling,
whatever the default for new games (``docs/mila-compat.md``).
"""

from __future__ import annotations

import os
from typing import Final

from ...formats.mila import MilaError
from ...model.rules import Rules, RulesError

__all__ = [
    "DATC",
    "ENV_VAR",
    "MILA",
    "MILA_RULING",
    "default_ruling",
    "reset_default_ruling",
    "ruling_named",
    "set_default_ruling",
]

#: The environment variable that chooses the ruling of a new game made without ``ruling=``.
ENV_VAR: Final = "DIPLO_MILA_RULING"
#: The word naming MILA's ruling (the default) and the one naming diplo's (by the DATC v3.0).
MILA: Final = "mila"
DATC: Final = "datc"
#: MILA's ruling (``diplomacy`` 1.1.2) on a map with no rules of its own (the standard map's):
#: on another map, the edition on that map's rules (:func:`ruling_named`).
MILA_RULING: Final = Rules(edition="mila")
#: The words :func:`ruling_named` reads besides a ruling in the command line's form: ``True``
#: for MILA's edition on the map's rules, ``False`` for diplo's (the map's rules).
_NAMED: Final[dict[str, bool]] = {MILA: True, "": True, DATC: False, "diplo": False}


class _Unset:
    """No ruling was set by :func:`set_default_ruling`: the environment decides."""

    def __repr__(self) -> str:
        return "<unset>"


_UNSET: Final = _Unset()
#: The setter's choice: a ruling, a word (read against each game's map), or unset.
_chosen: Rules | str | _Unset = _UNSET


def ruling_named(text: str, base: Rules | None = None, source: str = ENV_VAR) -> Rules | None:
    """The ruling a word names, on a map whose own rules are ``base`` (default: none, the
    standard map's): ``mila`` (or the empty word) MILA's (``edition=mila`` over ``base``),
    ``datc`` diplo's (``None``: the map's rules, by the DATC v3.0), or the command line's
    ``key=value,...`` form of a ruling over ``base`` (:meth:`Rules.parse`); anything else is a
    :class:`MilaError` naming it (as ``source`` gave it) and the forms read."""
    if not isinstance(text, str):
        raise TypeError(f"a ruling's name must be a string, got {type(text).__name__}")
    word = text.strip()
    named = _NAMED.get(word.lower())
    if named is not None:
        if not named:
            return None
        return MILA_RULING if base is None else Rules.from_json({"edition": MILA}, base)
    if "=" in word:
        try:
            return Rules.parse(word, base)
        except RulesError as exc:
            raise MilaError(f"{source}={text!r}: {exc}") from None
    raise MilaError(
        f"{source}={text!r} names no ruling: use 'mila' (MILA's, the default), 'datc' "
        "(diplo's) or key=value pairs such as 'edition=mila'"
    )


def set_default_ruling(ruling: Rules | str | None) -> None:
    """Set the ruling of every new game made without ``ruling=`` (over :data:`ENV_VAR`):
    a :class:`Rules`, a word :func:`ruling_named` reads (``"datc"`` for diplo's rulings,
    ``"mila"`` for MILA's), or ``None``, the same as ``"datc"`` (what ``Game.ruling`` gives
    for diplo's). A bad value is refused and leaves the default as it was."""
    global _chosen
    if isinstance(ruling, str):
        ruling_named(ruling, source="set_default_ruling")  # refused now, not at the next game
        value: Rules | str = ruling
    elif ruling is None:
        value = DATC
    elif isinstance(ruling, Rules):
        value = ruling
    else:
        raise TypeError(
            "set_default_ruling: expected a diplo.model.rules.Rules, a name such as 'datc' or "
            f"'mila', or None, got {type(ruling).__name__}"
        )
    _chosen = value


def reset_default_ruling() -> None:
    """Forget :func:`set_default_ruling`'s choice: the environment decides again."""
    global _chosen
    _chosen = _UNSET


def default_ruling(base: Rules | None = None) -> Rules | None:
    """The ruling of a new game made without ``ruling=`` on a map whose own rules are ``base``:
    the setter's, else the environment's (:data:`ENV_VAR`), else MILA's (``None`` stands for
    diplo's rulings, the map's rules)."""
    chosen = _chosen
    if isinstance(chosen, Rules):
        return chosen
    if isinstance(chosen, str):
        return ruling_named(chosen, base)
    return ruling_named(os.environ.get(ENV_VAR, MILA), base)
