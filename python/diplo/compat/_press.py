"""Press and history containers of the MILA drop-in: :class:`Message`, :class:`GamePhaseData` and
the phase-keyed :class:`History` (MILA's ``SortedDict`` as its users read it).

Written for :mod:`diplo.compat.mila`; the shapes and names are MILA's (PyPI ``diplomacy`` 1.1.2),
the code is diplo's own.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final, TypeVar

from ..formats.mila import MilaError

__all__ = ["GLOBAL", "OBSERVER", "OMNISCIENT", "SYSTEM", "GamePhaseData", "History", "Message"]

#: The recipient of a message to every power, and the sender of the game's own notices.
GLOBAL: Final = "GLOBAL"
SYSTEM: Final = "SYSTEM"
OBSERVER: Final = "OBSERVER"
OMNISCIENT: Final = "OMNISCIENT"

K = TypeVar("K")
V = TypeVar("V")


class History(dict[K, V]):
    """A dict kept in insertion order (phases and time stamps are added in order), with the
    accessors MILA's ``SortedDict`` gives: :meth:`first_key`, :meth:`last_key`,
    :meth:`first_value`, :meth:`last_value`, :meth:`put`. An empty history raises
    ``IndexError`` on ``first_*``/``last_*``, as MILA's does."""

    def put(self, key: K, value: V) -> None:
        self[key] = value

    def first_key(self) -> K:
        return next(iter(self)) if self else _empty()

    def last_key(self) -> K:
        return next(reversed(self)) if self else _empty()

    def first_value(self) -> V:
        return self[self.first_key()]

    def last_value(self) -> V:
        return self[self.last_key()]

    def sub(self, from_key: K | None = None, to_key: K | None = None) -> list[V]:
        """The values from ``from_key`` to ``to_key`` (both included; ``None``: the ends)."""
        keys = list(self)
        start = 0 if from_key is None else keys.index(from_key)
        stop = len(keys) if to_key is None else keys.index(to_key) + 1
        return [self[k] for k in keys[start:stop]]

    def copy(self) -> History[K, V]:
        return History(self)


def _empty() -> Any:
    raise IndexError("the history is empty")


_MESSAGE_FIELDS: Final = ("sender", "recipient", "time_sent", "phase", "message")


class Message:
    """A press message (MILA's ``diplomacy.Message``): ``sender`` and ``recipient`` are power
    names (``GLOBAL`` for all, ``SYSTEM`` for the game's own notices), ``message`` the text,
    ``phase`` the short phase name, ``time_sent`` a time stamp in microseconds (set by
    :meth:`diplo.compat.mila.Game.add_message` when ``None``). Messages compare by time stamp."""

    __slots__ = _MESSAGE_FIELDS

    def __init__(
        self,
        sender: str | None = None,
        recipient: str | None = None,
        message: str | None = None,
        phase: str | None = None,
        time_sent: int | None = None,
        **extra: Any,
    ) -> None:
        if extra:
            raise TypeError(f"Message: unknown field(s) {', '.join(sorted(extra))}")
        for name, value in (("sender", sender), ("recipient", recipient), ("phase", phase)):
            if value is not None and not isinstance(value, str):
                raise TypeError(f"Message: {name} must be a string, got {type(value).__name__}")
        if message is not None and not isinstance(message, str):
            raise TypeError(f"Message: message must be a string, got {type(message).__name__}")
        if time_sent is not None and (
            isinstance(time_sent, bool) or not isinstance(time_sent, int)
        ):
            raise TypeError(
                f"Message: time_sent must be an int (microseconds), got {type(time_sent).__name__}"
            )
        self.sender = sender
        self.recipient = recipient
        self.message = message
        self.phase = phase
        self.time_sent = time_sent

    def is_global(self) -> bool:
        return self.recipient == GLOBAL

    def for_observer(self) -> bool:
        return self.recipient == OBSERVER

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _MESSAGE_FIELDS}

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> Message:
        if not isinstance(doc, Mapping):
            raise MilaError(f"a message must be an object, got {type(doc).__name__}")
        try:
            return cls(**{str(k): v for k, v in doc.items()})
        except TypeError as exc:
            raise MilaError(str(exc)) from None

    def copy(self) -> Message:
        return Message(self.sender, self.recipient, self.message, self.phase, self.time_sent)

    def __getstate__(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in _MESSAGE_FIELDS)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        for name, value in zip(_MESSAGE_FIELDS, state, strict=True):
            setattr(self, name, value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and self.time_sent == other.time_sent

    def __lt__(self, other: Message) -> bool:
        return (self.time_sent or 0) < (other.time_sent or 0)

    def __hash__(self) -> int:
        return hash(self.time_sent)

    def __str__(self) -> str:
        return f"[{self.time_sent}/{self.phase}/{self.sender}->{self.recipient}]({self.message})"

    __repr__ = __str__


class _Filled:
    """A field of :class:`GamePhaseData` kept in the slot ``_NAME``, worked out by the phase's
    lazy reader (``fill``) the first time any of them is read or set."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = "_" + name

    def __get__(self, phase: GamePhaseData | None, owner: type | None = None) -> Any:
        if phase is None:
            return self
        phase._filled()
        return getattr(phase, self.slot)

    def __set__(self, phase: GamePhaseData, value: dict[str, Any]) -> None:
        phase._filled()
        setattr(phase, self.slot, value)


class GamePhaseData:
    """One phase as MILA's ``GamePhaseData`` holds it: ``name`` (``"S1901M"``), ``state`` (the
    state dictionary), ``orders`` (power -> orders), ``results`` (unit -> labels) and
    ``messages`` (time stamp -> :class:`Message`); and, as the fork of MILA that LLM-agent
    harnesses vendor (GoodStartLabs' AI_Diplomacy) adds, ``summary`` and
    ``statistical_summary`` (text or ``None``).

    What :meth:`diplo.compat.mila.Game.process` returns is made lazily: ``state``, ``orders``
    and ``results`` are worked out on first reading (``fill``), so a caller that ignores the
    returned phase pays nothing for it."""

    __slots__ = (
        "_fill",
        "_orders",
        "_results",
        "_state",
        "messages",
        "name",
        "statistical_summary",
        "summary",
    )

    def __init__(
        self,
        name: str,
        state: dict[str, Any] | None = None,
        orders: dict[str, Any] | None = None,
        results: dict[str, Any] | None = None,
        messages: Mapping[int, Message] | None = None,
        summary: str | None = None,
        statistical_summary: str | None = None,
        fill: Callable[[], tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] | None = None,
    ) -> None:
        for what, value in (("summary", summary), ("statistical_summary", statistical_summary)):
            if value is not None and not isinstance(value, str):
                raise ValueError(f"GamePhaseData: {what} must be a string or None")
        self.name = name
        self._state = state if state is not None else {}
        self._orders = orders if orders is not None else {}
        self._results = results if results is not None else {}
        self.messages: History[int, Message] = History(messages or {})
        self.summary = summary
        self.statistical_summary = statistical_summary
        self._fill = fill

    def _filled(self) -> None:
        fill, self._fill = self._fill, None
        if fill is not None:
            self._state, self._orders, self._results = fill()

    #: Read from the lazy reader on first use (:class:`_Filled`).
    state = _Filled()
    orders = _Filled()
    results = _Filled()

    def to_dict(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "name": self.name,
            "state": self.state,
            "orders": self.orders,
            "results": self.results,
            "messages": [m.to_dict() for m in self.messages.values()],
        }
        # The fork's fields, only when set: MILA itself refuses keys it does not know.
        if self.summary is not None:
            doc["summary"] = self.summary
        if self.statistical_summary is not None:
            doc["statistical_summary"] = self.statistical_summary
        return doc

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> GamePhaseData:
        if not isinstance(doc, Mapping) or not isinstance(doc.get("name"), str):
            raise MilaError("a phase must be an object with a string 'name'")
        for key in ("state", "orders", "results"):
            if doc.get(key) is not None and not isinstance(doc[key], Mapping):
                raise MilaError(f"phase {doc['name']!r}: {key!r} must be an object")
        for key in ("summary", "statistical_summary"):
            if doc.get(key) is not None and not isinstance(doc[key], str):
                raise MilaError(f"phase {doc['name']!r}: {key!r} must be a string")
        messages = History[int, Message]()
        for item in doc.get("messages") or []:
            msg = item if isinstance(item, Message) else Message.from_dict(item)
            messages.put(msg.time_sent or 0, msg)
        return cls(
            doc["name"],
            dict(doc.get("state") or {}),
            dict(doc.get("orders") or {}),
            dict(doc.get("results") or {}),
            messages,
            doc.get("summary"),
            doc.get("statistical_summary"),
        )

    def __getstate__(self) -> tuple[Any, ...]:
        self._filled()  # the lazy reader does not pickle; what it reads does
        return (
            self.name,
            self._state,
            self._orders,
            self._results,
            self.messages,
            self.summary,
            self.statistical_summary,
        )

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        (
            self.name,
            self._state,
            self._orders,
            self._results,
            self.messages,
            self.summary,
            self.statistical_summary,
        ) = state
        self._fill = None

    def __iter__(self) -> Iterator[str]:
        return iter(("name", "state", "orders", "results", "messages"))

    def __repr__(self) -> str:
        return f"GamePhaseData({self.name!r})"


class Clock:
    """Strictly increasing microsecond time stamps (MILA stamps each message so)."""

    __slots__ = ("last",)

    def __init__(self, last: int = 0) -> None:
        self.last = last

    def stamp(self) -> int:
        now = time.time_ns() // 1000
        self.last = now if now > self.last else self.last + 1
        return self.last
