"""One phase in, the ruling and the next position out.

:func:`process_phase` is the library entry point (used by :class:`diplo.game.Game`);
:func:`adjudicate_document` is the JSON contract of ``diplo adjudicate``
(``../shared/spec/adjudicate-json.md``): parse, validate, resolve, and build the next position
with phase skipping and supply-centre changes after the Fall turn.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, NamedTuple

from .adjustments import adjustment_counts, resolve_adjustments
from .backend import Backend, backend_for
from .checks import MAX_YEAR, clip, show
from .map import Map, MapError, map_named
from .orders import Convoy, Disband, Hold, Move, Order, Retreat, format_order
from .outcome import Outcome, explain_movement
from .position import Dislodged, Phase, Piece, Position, PositionError
from .resolver import MovementResolution, resolve_movement
from .retreats import resolve_retreats
from .validation import Ruling, Validated, validate


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

    def _repr_svg_(self) -> str:
        """The phase as a picture (its board, orders and what failed) for notebooks."""
        from .render.frames import frame_of_outcome

        return frame_of_outcome(self).svg()

    def to_json(self) -> dict[str, Any]:
        return {
            "phase": str(self.phase),
            "results": [r.to_json() for r in self.results],
            "dislodged": self._dislodged_json(),
            "next": self._next_json(),
        }

    def _dislodged_json(self) -> dict[str, dict[str, list[str]]]:
        dislodged: dict[str, dict[str, list[str]]] = {}
        for d in self.dislodged.values():
            dislodged.setdefault(d.piece.power, {})[str(d.piece)] = list(d.options)
        return {p: dislodged[p] for p in self.next.map.powers if p in dislodged}

    def _next_json(self) -> dict[str, Any]:
        nxt = self.next.to_json()
        if self.game_over:
            nxt["phase"] = None
        return nxt

    def to_json_text(self) -> str:
        """``json.dumps(self.to_json())``, byte for byte (the output line of ``diplo adjudicate
        --jsonl``)."""
        return json.dumps(self.to_json())


def process_phase(
    position: Position,
    orders: Mapping[str, Sequence[str | Order]],
    backend: Backend | str | None = None,
) -> PhaseOutcome:
    """Rule on one phase: validate every order, resolve, and compute the next position.

    With the Rust backend (the default when built) the whole phase runs in the game engine
    (:mod:`diplo.engine`); with ``backend="python"`` in the readable reference below. Both give
    the same outcome (``tests/test_engine.py``).

    ``orders`` is keyed by power names as the map spells them; an unknown power raises
    ``ValueError`` (as ``Game.set_orders`` and the JSON contract refuse it), while the orders
    themselves are only ever ruled on. A phase whose next phase would fall after
    :data:`diplo.checks.MAX_YEAR` raises :class:`~diplo.position.PositionError`.
    """
    powers = position.map.powers
    for power in orders:
        if power not in powers:
            raise ValueError(
                f"process_phase: unknown power {show(power)} (the powers are {', '.join(powers)})"
            )
    try:
        if backend_for(backend, position.map) == "rust":
            outcome: PhaseOutcome = _engine().process_phase_engine(position, orders)
            return outcome
        validated = validate(position, orders)
        kind = position.phase.kind
        if kind == "M":
            return _movement(position, validated)
        if kind == "R":
            return _retreats(position, validated)
        return _adjustments(position, validated)
    except PositionError:
        if position.phase.year >= MAX_YEAR:
            raise PositionError(
                f"{position.phase}: the game cannot go past the year {MAX_YEAR}"
            ) from None
        raise


# --------------------------------------------------------------------------- movement


def _movement(position: Position, validated: Validated) -> PhaseOutcome:
    game_map = position.map
    resolution = resolve_movement(game_map, position.units, validated.orders)
    results = _given_results(validated)
    for index, ruling in enumerate(validated.rulings):
        if not ruling.legal or ruling.unit is None:
            continue
        prov = ruling.unit.province
        order = validated.orders[prov]
        results[index] = _movement_result(ruling, order, resolution)
    # Implied results in map order, so a position read from JSON and one built in memory
    # report them alike.
    order_of = game_map.location_index
    for prov in sorted(position.units, key=order_of.__getitem__):
        piece = position.units[prov]
        if prov not in validated.orders:
            hold = Hold(piece.unit)
            outcome = resolution.outcomes[prov]
            results.append(
                Result(
                    piece.power,
                    str(piece),
                    format_order(hold),
                    False,
                    True,
                    outcome.success,
                    outcome.code,
                    _implied_hold_reason(validated, prov, piece, outcome.dislodged_by),
                    outcome.dislodged_by,
                )
            )
    # Retreat options (DATC 6.H): computed once, against the board after the moves.
    dislodged: dict[str, Dislodged] = {}
    for prov, options in resolution.retreats.items():
        dislodged[prov] = Dislodged(position.units[prov], options)
    dislodged = dict(sorted(dislodged.items(), key=lambda kv: order_of[kv[0]]))
    pending = {p: d for p, d in dislodged.items() if d.options}
    phase = position.phase
    after = position.with_changes(units=resolution.units, dislodged={})
    if pending:
        nxt = after.with_changes(phase=Phase(phase.year, phase.season, "R"), dislodged=pending)
        return PhaseOutcome(phase, results, dislodged, nxt)
    nxt, winner = _after_turn(after)
    return PhaseOutcome(phase, results, dislodged, nxt, winner)


def _movement_result(ruling: Ruling, order: Order, resolution: MovementResolution) -> Result:
    assert ruling.unit is not None
    prov = ruling.unit.province
    outcome = resolution.outcomes[prov]
    szykman = False
    if isinstance(order, Convoy):
        szykman = prov in resolution.szykman
    elif isinstance(order, Move) and outcome.code == "no_convoy":
        # The Szykman rule broke this army's convoy when it stopped a fleet ordered to carry it.
        szykman = any(f in resolution.szykman for f in resolution.convoy_fleets.get(prov, ()))
    text = format_order(order)
    return Result(
        ruling.power,
        str(ruling.unit),
        text,
        True,
        True,
        outcome.success,
        outcome.code,
        explain_movement(text, type(order).__name__, outcome, szykman),
        outcome.dislodged_by,
    )


def _implied_hold_reason(
    validated: Validated, prov: str, piece: Piece, dislodged_by: str | None
) -> str:
    refused = [
        r
        for r in validated.rulings
        if r.unit is not None and r.unit.province == prov and not r.legal
    ]
    why = f"its order was refused ({refused[-1].code})" if refused else "it was not ordered"
    if dislodged_by is not None:
        return f"{piece} held because {why}, and was dislodged by the unit from {dislodged_by}."
    return f"{piece} held because {why}."


def _given_results(validated: Validated) -> list[Result]:
    """One result per submitted order; illegal ones are final here, legal ones are filled in."""
    out: list[Result] = []
    for ruling in validated.rulings:
        unit = named_unit(ruling)
        out.append(
            Result(
                ruling.power,
                unit,
                ruling.canonical,
                True,
                ruling.legal,
                False,
                "ok" if ruling.legal else "illegal",
                ruling.message,
            )
        )
    return out


def named_unit(ruling: Ruling) -> str | None:
    """The unit a ruling's result names: the unit on the board, or the one the order names."""
    if ruling.unit is not None:
        return str(ruling.unit)
    order = ruling.order
    if order is None or not hasattr(order, "unit"):
        return None
    return str(order.unit)


# --------------------------------------------------------------------------- retreats


def _retreats(position: Position, validated: Validated) -> PhaseOutcome:
    orders: dict[str, Retreat | Disband] = {}
    for prov, order in validated.orders.items():
        if isinstance(order, Retreat | Disband):
            orders[prov] = order
    result = resolve_retreats(position, orders)
    results = _given_results(validated)
    for index, ruling in enumerate(validated.rulings):
        if ruling.legal and ruling.unit is not None:
            outcome = result.outcomes[ruling.unit.province]
            results[index] = _with_outcome(results[index], outcome)
    order_of = position.map.location_index
    for prov in sorted(position.dislodged, key=order_of.__getitem__):
        dislodged = position.dislodged[prov]
        if prov not in orders:
            piece = dislodged.piece
            outcome = result.outcomes[prov]
            results.append(
                Result(
                    piece.power,
                    str(piece),
                    format_order(Disband(piece.unit)),
                    False,
                    True,
                    outcome.success,
                    outcome.code,
                    f"{piece} had no legal retreat order and is disbanded.",
                )
            )
    after = position.with_changes(units=result.units, dislodged={})
    if position.phase.season == "S":
        nxt = after.with_changes(phase=Phase(position.phase.year, "F", "M"))
        return PhaseOutcome(position.phase, results, {}, nxt)
    nxt, winner = _after_turn(after)
    return PhaseOutcome(position.phase, results, {}, nxt, winner)


def _with_outcome(result: Result, outcome: Outcome) -> Result:
    return Result(
        result.power,
        result.unit,
        result.order,
        result.given,
        result.legal,
        outcome.success,
        outcome.code,
        outcome.reason,
        outcome.dislodged_by,
    )


# --------------------------------------------------------------------------- adjustments


def _adjustments(position: Position, validated: Validated) -> PhaseOutcome:
    legal = [(power, order) for _, power, order in validated.adjustments]
    result = resolve_adjustments(position, legal)
    results = _given_results(validated)
    for (index, _, _), outcome in zip(validated.adjustments, result.outcomes, strict=True):
        results[index] = _with_outcome(results[index], outcome)
    for power, text, outcome in result.implied:
        unit = None if text == "WAIVE" else text.rsplit(" ", 1)[0]
        results.append(
            Result(power, unit, text, False, True, outcome.success, outcome.code, outcome.reason)
        )
    nxt = position.with_changes(
        phase=Phase(position.phase.year + 1, "S", "M"), units=result.units, dislodged={}
    )
    return PhaseOutcome(position.phase, results, {}, nxt)


# --------------------------------------------------------------------------- the phase machine


def _after_turn(after: Position) -> tuple[Position, str | None]:
    """The phase after a movement or retreat phase that has no retreats pending.

    After the Fall turn, every supply centre with a unit on it changes hands (a centre left
    empty keeps its owner), a power with the victory count of centres or more wins (the rules'
    count, by default the map's: 18 on the standard map), and the winter is skipped when no power
    can build or has to disband.
    """
    phase = after.phase
    if phase.season == "S":
        return after.with_changes(phase=Phase(phase.year, "F", "M")), None
    centers = dict(after.centers)
    for prov, piece in after.units.items():
        if prov in after.map.centers:
            centers[prov] = piece.power
    owned = after.with_changes(centers=centers)
    counts: dict[str, int] = {}
    for owner in centers.values():
        counts[owner] = counts.get(owner, 0) + 1
    victory = after.rules.victory(after.map.victory)
    leaders = [p for p, n in counts.items() if n >= victory]
    if leaders:
        winner = max(leaders, key=lambda p: counts[p])
        return owned.with_changes(phase=Phase(phase.year, "W", "A")), winner
    # The winter is played when some power can build (somewhere) or has to disband.
    if any(adjustment_counts(owned).values()):
        return owned.with_changes(phase=Phase(phase.year, "W", "A")), None
    return owned.with_changes(phase=Phase(phase.year + 1, "S", "M")), None


# --------------------------------------------------------------------------- the JSON contract


class DocumentError(ValueError):
    """A malformed adjudicate document (not an order problem: orders are ruled on, not rejected)."""

    def __init__(self, message: str) -> None:
        super().__init__(clip(message))


def adjudicate_document(
    doc: Mapping[str, Any],
    backend: Backend | str | None = None,
    maps: Mapping[str, Map] | None = None,
) -> dict[str, Any]:
    """Rule on one phase given as a JSON document; returns the output document."""
    return _document_outcome(doc, backend, maps).to_json()


def adjudicate_document_text(
    doc: Mapping[str, Any],
    backend: Backend | str | None = None,
    maps: Mapping[str, Map] | None = None,
) -> str:
    """:func:`adjudicate_document`'s output as JSON text: ``json.dumps`` of it, byte for byte
    (the engine writes a movement phase's text without building the dictionaries)."""
    return _document_outcome(doc, backend, maps).to_json_text()


def _document_outcome(
    doc: Mapping[str, Any],
    backend: Backend | str | None,
    maps: Mapping[str, Map] | None,
) -> PhaseOutcome:
    if not isinstance(doc, Mapping):
        raise DocumentError(f"the document must be a JSON object, not {show(doc)}")
    name = doc.get("map", "standard")
    if not isinstance(name, str) or len(name) > 100:
        raise DocumentError(f"unknown map {show(name)}")
    try:
        game_map = map_named(name, maps)
    except MapError as exc:
        raise DocumentError(str(exc)) from exc
    engine = backend_for(backend, game_map) == "rust"
    # The engine reads a document written in the canonical form itself; any other is read (or
    # refused, with the reason) by Position.from_json.
    position: Position | None = _engine().read_position(doc, game_map) if engine else None
    if position is None:
        try:
            # The contract takes retreat options as given; one into an occupied province
            # is left out, so a retreat there is ruled illegal (adjudicate-json.md).
            position = Position.from_json(doc, game_map, "position", occupied_options=True)
        except PositionError as exc:
            raise DocumentError(str(exc)) from exc
    if position.phase.kind == "A" and "centers" not in doc:
        raise DocumentError("'centers' is required for an adjustment phase")
    orders = _document_orders(doc.get("orders", {}), game_map)
    try:
        return process_phase(position, orders, "rust" if engine else "python")
    except PositionError as exc:
        if position.phase.year < MAX_YEAR:
            raise  # not the input's fault: a bug, reported as one
        # The year limit: the next phase would be no valid input.
        raise DocumentError(str(exc)) from exc


_STRINGS = frozenset({str})


def _document_orders(raw: Any, game_map: Map) -> dict[str, list[str | Order]]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise DocumentError("'orders' must be an object keyed by power")
    out: dict[str, list[str | Order]] = {}
    powers = game_map.powers
    for name, texts in raw.items():
        if (
            type(name) is str
            and name in powers
            and name not in out
            and type(texts) is list
            and {*map(type, texts)} <= _STRINGS
        ):
            out[name] = list(texts)  # the common case: the map's name and a list of strings
            continue
        power = str(name).upper()
        if power not in game_map.powers:
            raise DocumentError(f"orders: unknown power {show(name)}")
        if not isinstance(texts, list):
            raise DocumentError(f"orders.{power} must be a list of order strings")
        # A non-string entry is still an order to rule on (illegal), not a reason to reject.
        out.setdefault(power, []).extend(t if isinstance(t, str) else show(t) for t in texts)
    return out


_ENGINE: ModuleType | None = None


def _engine() -> ModuleType:
    """:mod:`diplo.engine`, imported on first use (it needs the compiled core)."""
    global _ENGINE
    if _ENGINE is None:
        from . import engine

        _ENGINE = engine
    return _ENGINE
