"""Message times as Cicero keeps them: an ``int`` of centiseconds (``fairdiplomacy.timestamp``).

pydipcc hands out its message times as ``fairdiplomacy.timestamp.Timestamp``. When Cicero's
``fairdiplomacy`` package is importable its class is used, so an agent's ``isinstance`` checks
hold; otherwise :class:`Timestamp` here offers the same calls.
"""

from __future__ import annotations

import importlib
from datetime import datetime, timezone
from typing import Any

__all__ = ["Timestamp"]


class _Timestamp(int):
    """Centiseconds since 1970 (an ``int``: compares, hashes and serialises as one)."""

    __slots__ = ()

    @classmethod
    def from_centis(cls, x: int) -> _Timestamp:
        return cls(x)

    @classmethod
    def from_seconds(cls, x: float) -> _Timestamp:
        return cls(int(x * 100))

    @classmethod
    def now(cls) -> _Timestamp:
        return cls.from_seconds(datetime.now(timezone.utc).timestamp())

    def to_centis(self) -> int:
        return int(self)

    def to_seconds_float(self) -> float:
        return int(self) / 100

    def to_seconds_int(self) -> int:
        return int(self) // 100

    def __add__(self, other: Any) -> _Timestamp:
        return type(self)(int(self) + int(other))

    def __sub__(self, other: Any) -> _Timestamp:
        return type(self)(int(self) - int(other))


def _cicero_class() -> Any:
    try:
        module = importlib.import_module("fairdiplomacy.timestamp")
    except Exception:  # not installed, or its package fails to import: use ours
        return None
    return getattr(module, "Timestamp", None)


Timestamp: Any = _cicero_class() or _Timestamp
