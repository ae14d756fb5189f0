"""What the ``diplo`` subcommands of :mod:`diplo.apps` share besides what every application
shares from the model (the ``--map``, ``--rules`` and year options in
:mod:`diplo.model.variants`, the one-line error in :mod:`diplo.model.wording`): the exit status of
a bug, an exception in one line, and where the contract is."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

#: The exit status of an unexpected exception (a bug in diplo: there should be none).
INTERNAL_ERROR = 3


def describe(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    if len(text) > 200:
        text = text[:197] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def contract_path() -> Path:
    """Where the JSON contract (``docs/json-contract.md``) is in the installed package."""
    return Path(str(resources.files("diplo") / "docs" / "json-contract.md"))
