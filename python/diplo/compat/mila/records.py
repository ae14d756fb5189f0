"""A processed phase of a drop-in game, as its histories read it."""

from __future__ import annotations

import copy as _copy
from typing import Any, Final

from ...api.game import PhaseRecord
from ...engine import mila as engine
from ...engine.codes import CodeState, position_from_state
from ...model.map import Map
from ...model.results import PhaseOutcome
from ...model.rules import Rules
from .._press import History, Message
from .copies import copy_tree
from .labels import mila_labels
from .order import Lists

__all__ = ["Record"]

#: The fields a record is pickled with (the layout of every release: a record is pickled once
#: its results are worked out, so the engine's games it held are not needed).
_PICKLED: Final = (
    "_orders",
    "_state",
    "dislodged",
    "extra",
    "messages",
    "name",
    "pending",
    "results",
    "state_doc",
    "voids",
    # Since 2026-12: MILA's time stamp and Zobrist hash of the phase's state (a pickle of an
    # earlier release has neither: both ``None``, worked out or given when asked for).
    "timestamp",
    "zobrist",
)


class Record:
    """A processed phase: its raw state (``None`` for a phase read from a save without replay),
    the orders kept per power, its messages, and what is worked out (or was given) later.

    A phase the game played keeps the engine's ruling of it (``verdict``: the state it was
    ruled from, the rulings, the state reached; a value, which nothing changes), and the orders
    as the game kept them (``pending``: power -> slot -> entry, the text first, and the map's
    powers). Each is read when first asked for; the results (MILA's labels) are read from that
    ruling, so the phase is ruled once. A retreat or adjustment phase also keeps ``popped``, the
    units the phase just before it dislodged with nowhere to go (MILA labels them; read from that
    phase's verdict, or what it kept of it: :meth:`unretreated_units`)."""

    __slots__ = (*_PICKLED, "lists", "popped", "raw", "saved", "unretreated", "verdict")

    def __init__(
        self,
        name: str,
        state: CodeState | engine.Verdict | None,
        orders: dict[str, list[str]] | None,
        messages: History[int, Message] | None = None,
        results: dict[str, list[str]] | None = None,
        state_doc: dict[str, Any] | None = None,
        extra: dict[str, Any] | None = None,
        voids: list[tuple[str, str]] | None = None,
        timestamp: int | None = None,
        popped: tuple[str, ...] = (),
    ) -> None:
        self.name = name
        #: Units of adjustment orders kept but void (MILA labels them ``void``).
        self.voids: list[tuple[str, str]] = voids or []
        #: Dislodged unit -> the province its attacker came from (worked out with the results).
        self.dislodged: dict[str, str] | None = None
        if state is None or isinstance(state, tuple):
            self._state: CodeState | None = state
            self.verdict: engine.Verdict | None = None
        else:
            self._state = None
            self.verdict = state
        self.popped = popped
        #: The units the phase dislodged with nowhere to go, kept when its verdict is dropped.
        self.unretreated: tuple[str, ...] = ()
        self._orders = orders
        self.pending: tuple[dict[str, dict[int, tuple[Any, ...]]], tuple[str, ...]] | None = None
        self.messages: History[int, Message] = messages if messages is not None else History()
        self.results = results
        self.state_doc = state_doc
        self.extra: dict[str, Any] = extra or {}
        #: When the phase's state was taken (MILA's ``timestamp``, microseconds), and its
        #: Zobrist hash once worked out.
        self.timestamp: int | None = timestamp
        self.zobrist: str | None = None
        #: MILA's order of the lists of the phase's board (:mod:`~diplo.compat.mila.order`):
        #: made, the record of the phase before (applied when first asked for), or ``None``
        #: (those of ``state_doc``, or a new game's); and diplo's board, sorted, until then.
        self.lists: Lists | Record | engine.MilaBoard | None = None
        self.raw: dict[str, Any] | None = None
        #: The phase's ``state``, ``orders`` and ``results`` as a saved game writes them, made
        #: at the first save (none of them changes once the phase is played); each save hands
        #: out a copy.
        self.saved: dict[str, Any] | None = None

    @property
    def orders(self) -> dict[str, list[str]]:
        """Power -> the orders kept (the map's powers in order, ``[]`` for none)."""
        orders = self._orders
        if orders is None:
            assert self.pending is not None
            given, powers = self.pending
            orders = self._orders = {
                p: [e[0] for e in given[p].values()] if p in given else [] for p in powers
            }
            self.pending = None
        return orders

    @property
    def state(self) -> CodeState | None:
        """The engine's raw state of the phase (``None``: a phase read from a save)."""
        state = self._state
        if state is None and self.verdict is not None:
            state = self._state = engine.state_of(self.verdict)
        return state

    def labels(self, game_map: Map, rules: Rules | None) -> dict[str, list[str]]:
        """MILA's result labels of the phase (worked out once, from the engine's ruling)."""
        if self.results is None:
            record = self.phase_record(game_map, rules)
            popped = self.popped if self.name[-1] in "RA" else ()
            self.results, self.dislodged = mila_labels(record, self.voids, popped)
            self.unretreated = self.unretreated_units(game_map)
            self.verdict = None  # the state is read; the ruling is no longer needed
        return self.results

    def unretreated_units(self, game_map: Map) -> tuple[str, ...]:
        """The units the phase dislodged with nowhere to go (a movement phase's)."""
        verdict = self.verdict
        if verdict is None or self.name[-1] != "M":
            return self.unretreated
        return tuple(engine.unretreated(game_map, verdict))

    def phase_record(self, game_map: Map, rules: Rules | None) -> PhaseRecord:
        """The phase with the engine's ruling of it, as the object API gives it."""
        verdict = self.verdict
        if verdict is None:
            raise RuntimeError(f"{self.name}: the phase's ruling was not kept")
        state = self.state
        assert state is not None
        position = position_from_state(game_map, state, rules)
        orders = {p: tuple(texts) for p, texts in self.orders.items() if texts}
        powers = [p for p, texts in self.orders.items() for _ in texts]
        results, dislodged = engine.ruling(game_map, verdict, powers)
        after = position_from_state(game_map, engine.state_after(verdict), rules)
        outcome = PhaseOutcome(position.phase, results, dislodged, after, verdict.winner)
        return PhaseRecord(position, orders, outcome)

    def copy(self) -> Record:
        """A copy whose lists are its own (the verdict, a value, is shared)."""
        made = Record(
            self.name,
            self._state,
            copy_tree(self.orders),  # power -> texts: the core's copy, one call
            History({t: m.copy() for t, m in self.messages.items()}),
            None if self.results is None else copy_tree(self.results),
            None if self.state_doc is None else copy_tree(self.state_doc),
            _copy.deepcopy(self.extra) if self.extra else None,
            list(self.voids),
            self.timestamp,
            self.popped,
        )
        made.zobrist = self.zobrist
        made.lists, made.raw = self.lists, self.raw  # a record here is mapped by the copier
        made.saved = self.saved  # never changed: each save copies it
        made.verdict = self.verdict
        made.unretreated = self.unretreated
        made.dislodged = None if self.dislodged is None else dict(self.dislodged)
        return made

    def __getstate__(self) -> tuple[Any, ...]:
        if self.results is None and self.verdict is not None:
            raise RuntimeError("a record is pickled once its results are worked out")
        self.state  # noqa: B018 (read: the engine's games do not pickle)
        self.orders  # noqa: B018
        return tuple(getattr(self, name) for name in _PICKLED)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        if len(state) < len(_PICKLED):  # an earlier release's layout: the fields added since
            state = (*state, *[None] * (len(_PICKLED) - len(state)))
        for name, value in zip(_PICKLED, state, strict=True):
            setattr(self, name, value)
        self.verdict = None
        self.popped = self.unretreated = ()
        self.lists = self.raw = self.saved = None
