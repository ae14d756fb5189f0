"""The ruling of a phase as every backend returns it: :class:`Result` per order and
:class:`PhaseOutcome` per phase (the ``results`` and the output document of the JSON contract).

Both implementations (the reference in :mod:`diplo.reference`, the engine in
:mod:`diplo.engine`) return these types, so neither needs the other.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from .display import svg_of
from .orders import Order
from .position import Dislodged, Phase, Position

#: A JSON boolean, by value.
JSON_BOOL: dict[bool, str] = {True: "true", False: "false"}


def legal_result_text(
    power: str,
    unit: str | None,
    order: str,
    given: bool,
    success: bool,
    code: str,
    reason: str,
    dislodged_by: str | None,
) -> str:
    """The JSON text of a legal order's :class:`Result` (or an implied one's, ``given`` false),
    byte for byte as ``json.dumps(result.to_json())`` writes it, without building the dict: the
    one writer of a result's text in Python (the engine's object API and the rollout writer call
    it; ``tests/test_result_json.py`` holds it to :meth:`Result.to_json`). The names (``power``,
    ``unit``, ``order``, ``code``, ``dislodged_by``) must need no JSON escape (a plain-named
    map); ``reason`` is the sentence already written as a JSON string, quotes included."""
    what = "null" if unit is None else f'"{unit}"'
    end = "}" if dislodged_by is None else f', "dislodged_by": "{dislodged_by}"}}'
    return (
        f'{{"power": "{power}", "unit": {what}, "order": "{order}", "given": {JSON_BOOL[given]}, '
        f'"legal": true, "success": {JSON_BOOL[success]}, "code": "{code}", "reason": {reason}{end}'
    )


class Result(NamedTuple):
    """One line of a phase's ruling (the ``results`` entries of the JSON contract).

    A named tuple (immutable, compared by value): the engine makes one per order and phase,
    so it must be cheap to build.
    """

    power: str | None
    unit: str | None
    order: str
    given: bool
    legal: bool
    success: bool
    code: str
    reason: str
    dislodged_by: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "power": self.power,
            "unit": self.unit,
            "order": self.order,
            "given": self.given,
            "legal": self.legal,
            "success": self.success,
            "code": self.code,
            "reason": self.reason,
        }
        if self.dislodged_by is not None:
            out["dislodged_by"] = self.dislodged_by
        return out


@dataclass(frozen=True)
class PhaseOutcome:
    """The ruling of one phase.

    ``dislodged`` (movement phases) holds every dislodged unit with its retreat options, possibly
    none. ``next`` is the position of the next phase that has something to decide; ``winner`` is
    set (and ``next`` is the final board) when the game ended.
    """

    phase: Phase
    results: list[Result]
    dislodged: dict[str, Dislodged]
    next: Position
    winner: str | None = None

    @property
    def game_over(self) -> bool:
        return self.winner is not None

    def _repr_svg_(self) -> str | None:
        """The phase as a picture (its board, orders and what failed) for notebooks, drawn by
        :mod:`diplo.render` (registered in :mod:`diplo.model.display`)."""
        return svg_of(self)

    def to_json(self) -> dict[str, Any]:
        return {
            "phase": str(self.phase),
            "results": [r.to_json() for r in self.results],
            "dislodged": dislodged_json(self),
            "next": next_json(self),
        }

    def to_json_text(self) -> str:
        """``json.dumps(self.to_json())``, byte for byte (the output line of ``diplo adjudicate
        --jsonl``)."""
        return json.dumps(self.to_json())


def dislodged_json(outcome: PhaseOutcome) -> dict[str, dict[str, list[str]]]:
    """The ``dislodged`` entry of ``outcome``'s JSON document (per power in map order)."""
    dislodged: dict[str, dict[str, list[str]]] = {}
    for d in outcome.dislodged.values():
        dislodged.setdefault(d.piece.power, {})[str(d.piece)] = list(d.options)
    return {p: dislodged[p] for p in outcome.next.map.powers if p in dislodged}


def next_json(outcome: PhaseOutcome) -> dict[str, Any]:
    """The ``next`` entry of ``outcome``'s JSON document (its phase ``null`` once the game is
    over)."""
    nxt = outcome.next.to_json()
    if outcome.game_over:
        nxt["phase"] = None
    return nxt


class _Named(Protocol):
    """What :func:`named_unit` reads of a ruling."""

    @property
    def unit(self) -> object: ...

    @property
    def order(self) -> Order | None: ...


def named_unit(ruling: _Named) -> str | None:
    """The unit a ruling's result names: the unit on the board, or the one the order names."""
    if ruling.unit is not None:
        return str(ruling.unit)
    order = ruling.order
    if order is None or not hasattr(order, "unit"):
        return None
    return str(order.unit)
