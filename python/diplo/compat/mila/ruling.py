"""The ruling a drop-in game is played under when the code that makes it does not say.

A harness written for MILA imports ``diplomacy`` and calls ``Game()``: switched to the drop-in by
its imports alone, it cannot pass ``ruling=``. The default is chosen here, in this order:

* :func:`set_default_ruling` (a module-level setter, for code that may be changed in one place);
* the environment variable :data:`ENV_VAR` (``DIPLO_MILA_RULING``), read when a game is made:
  ``mila`` (MILA's ruling, ``Rules(edition="mila")``), ``datc`` (diplo's, by the DATC v3.0, the
  same as unset), or the command line's form of a ruling (``edition=mila,civil_disorder=owned``);
* else diplo's ruling (the DATC v3.0, ``None``: the map's rules).

A saved game is not a new game: it is replayed under the ruling it records, and a save that
records none (MILA's own saves, and the drop-in's before it recorded one) under MILA's ruling
(:data:`MILA_RULING`), whatever the default for new games (``docs/mila-compat.md``).
"""

from __future__ import annotations

import os
from typing import Final

from ...formats.mila import MilaError
from ...model.rules import Rules, RulesError

__all__ = [
    "ENV_VAR",
    "MILA_RULING",
    "default_ruling",
    "reset_default_ruling",
    "ruling_named",
    "set_default_ruling",
]

#: The environment variable that chooses the ruling of a new game made without ``ruling=``.
ENV_VAR: Final = "DIPLO_MILA_RULING"
#: MILA's ruling (``diplomacy`` 1.1.2): the edition that rules as MILA does.
MILA_RULING: Final = Rules(edition="mila")
#: The words :func:`ruling_named` reads besides a ruling in the command line's form.
_NAMED: Final[dict[str, Rules | None]] = {
    "mila": MILA_RULING,
    "datc": None,
    "diplo": None,
    "default": None,
    "": None,
}


class _Unset:
    """No ruling was set by :func:`set_default_ruling`: the environment decides."""

    def __repr__(self) -> str:
        return "<unset>"


_UNSET: Final = _Unset()
_chosen: Rules | _Unset | None = _UNSET


def ruling_named(text: str) -> Rules | None:
    """The ruling a word names: ``mila``, ``datc`` (diplo's: ``None``), or the command line's
    ``key=value,...`` form of a ruling (:meth:`Rules.parse`); anything else is a
    :class:`MilaError` naming it and the forms read."""
    if not isinstance(text, str):
        raise TypeError(f"a ruling's name must be a string, got {type(text).__name__}")
    word = text.strip()
    if word.lower() in _NAMED:
        return _NAMED[word.lower()]
    if "=" in word:
        try:
            return Rules.parse(word)
        except RulesError as exc:
            raise MilaError(f"{ENV_VAR}={text!r}: {exc}") from None
    raise MilaError(
        f"{ENV_VAR}={text!r} names no ruling: use 'mila' (MILA's), 'datc' (diplo's) or "
        "key=value pairs such as 'edition=mila'"
    )


def set_default_ruling(ruling: Rules | str | None) -> None:
    """Set the ruling of every new game made without ``ruling=`` (over :data:`ENV_VAR`):
    a :class:`Rules`, a word :func:`ruling_named` reads (``"mila"``), or ``None`` for diplo's
    ruling. A bad value is refused and leaves the default as it was."""
    global _chosen
    if isinstance(ruling, str):
        value = ruling_named(ruling)
    elif ruling is None or isinstance(ruling, Rules):
        value = ruling
    else:
        raise TypeError(
            "set_default_ruling: expected a diplo.model.rules.Rules, a name such as 'mila' or "
            f"None, got {type(ruling).__name__}"
        )
    _chosen = value


def reset_default_ruling() -> None:
    """Forget :func:`set_default_ruling`'s choice: the environment decides again."""
    global _chosen
    _chosen = _UNSET


def default_ruling() -> Rules | None:
    """The ruling of a new game made without ``ruling=``: the setter's, else the environment's
    (:data:`ENV_VAR`), else diplo's (``None``)."""
    if not isinstance(_chosen, _Unset):
        return _chosen
    return ruling_named(os.environ.get(ENV_VAR, ""))
