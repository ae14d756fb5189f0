"""What every ``diplo`` subcommand shares: the one-line error, and where the contract is."""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

#: The exit status of bad input or arguments (one line on stderr).
BAD_INPUT = 2
#: The exit status of an unexpected exception (a bug in diplo: there should be none).
INTERNAL_ERROR = 3


def fail(message: str) -> int:
    """Say what was wrong in one line on stderr; the exit status of bad input."""
    print(f"diplo: {message}", file=sys.stderr)
    return BAD_INPUT


def describe(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    if len(text) > 200:
        text = text[:197] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def contract_path() -> Path:
    """Where the JSON contract (``docs/json-contract.md``) is in the installed package."""
    return Path(str(resources.files("diplo") / "docs" / "json-contract.md"))
