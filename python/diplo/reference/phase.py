"""The reference's phases: one validated phase resolved in plain Python, and the next position
(phase skipping, supply-centre changes after the Fall turn, the game end).

:func:`process_phase_reference` is ``process_phase(..., backend="python")``: the readable
specification the engine (:mod:`diplo.engine`) is held to by the cross-check tests.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..model.orders import Convoy, Disband, Hold, Move, Order, Retreat, RetreatOrder, format_order
from ..model.outcome import Outcome, RulingFacts, explain_movement, explain_ruling
from ..model.position import Dislodged, Phase, Piece, Position
from ..model.refusals import implied_hold_reason
from ..model.results import PhaseOutcome, Result, named_unit
from .adjustments import adjustment_counts, neutral_rebuilds, resolve_adjustments
from .resolver import MovementResolution, resolve_movement
from .retreats import resolve_retreats
from .validation import Ruling, Validated, validate


def process_phase_reference(
    position: Position, orders: Mapping[str, Sequence[str | Order]]
) -> PhaseOutcome:
    """Rule on one phase in the reference: validate every order, resolve, and compute the next
    position (the powers are already checked by :func:`diplo.api.phase.process_phase`)."""
    validated = validate(position, orders)
    kind = position.phase.kind
    if kind == "M":
        return _movement(position, validated)
    if kind == "R":
        return _retreats(position, validated)
    return _adjustments(position, validated)


# --------------------------------------------------------------------------- movement


def _movement(position: Position, validated: Validated) -> PhaseOutcome:
    game_map = position.map
    resolution = resolve_movement(game_map, position.units, validated.orders, position.rules)
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
    return implied_hold_reason(piece, refused[-1].code if refused else None, dislodged_by)


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


# --------------------------------------------------------------------------- retreats


def _retreats(position: Position, validated: Validated) -> PhaseOutcome:
    orders: dict[str, RetreatOrder] = {}
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
                    explain_ruling(RulingFacts("no_retreat", piece.power, str(piece))),
                )
            )
    after = position.with_changes(units=result.units, dislodged={})
    if position.phase.season == "S":
        fall = position.map.calendar.fall_year(position.phase.year)
        nxt = after.with_changes(phase=Phase(fall, "F", "M"))
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
    spring = position.map.calendar.spring_year(position.phase.year)
    nxt = position.with_changes(phase=Phase(spring, "S", "M"), units=result.units, dislodged={})
    return PhaseOutcome(position.phase, results, {}, nxt)


# --------------------------------------------------------------------------- the phase machine


def _after_turn(after: Position) -> tuple[Position, str | None]:
    """The phase after a movement or retreat phase that has no retreats pending.

    After the Fall turn, every supply centre with a unit on it changes hands (a centre left
    empty keeps its owner), a power with the victory count of centres or more wins (the rules'
    count, by default the map's: 18 on the standard map; under ``victory_lead`` only with more
    centres than any other power; under ``victory_margin_year`` also a large enough lead,
    :meth:`~diplo.model.rules.Rules.winner`), and the winter is
    skipped when no power can build or has to disband.
    """
    phase = after.phase
    calendar = after.map.calendar
    if phase.season == "S":
        return after.with_changes(phase=Phase(calendar.fall_year(phase.year), "F", "M")), None
    centers = dict(after.centers)
    for prov, piece in after.units.items():
        if prov in after.map.centers:
            centers[prov] = piece.power
    owned = after.with_changes(centers=centers)
    # In map order, so that of two powers reaching the count with as many centres the first in
    # map order wins, as in the engine.
    # A neutral power wins nothing and is no rival (its centres count for nobody).
    counts = dict.fromkeys(after.map.players, 0)
    for owner in centers.values():
        if owner in counts:
            counts[owner] += 1
    winner = after.rules.winner(counts, after.map.victory, phase.year)
    if winner is not None:
        return owned.with_changes(phase=Phase(phase.year, "W", "A")), winner
    # The winter is played when some power can build (somewhere) or has to disband, or a
    # neutral army is to be raised again.
    if any(adjustment_counts(owned).values()) or neutral_rebuilds(owned):
        return owned.with_changes(phase=Phase(phase.year, "W", "A")), None
    return owned.with_changes(phase=Phase(calendar.spring_year(phase.year), "S", "M")), None
