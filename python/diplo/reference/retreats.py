"""Retreat options of dislodged units, and the retreat phase.

:func:`retreat_options` is *the* definition of where a dislodged unit may go: the movement resolver
calls it for every unit it dislodges and stores the answer in ``Position.dislodged``, and validation
then checks retreat orders against that stored list. :func:`resolve_retreats` carries out the
retreat phase on orders validation has already found legal.

Rules (DATC v3.0, 2023 rulebook):

* A dislodged unit may retreat to any location it could move to by itself (no convoy, DATC 6.H.13;
  no support, 6.H.14) that is empty after the movement phase, was not left empty by a standoff
  (6.H.6, for every coast of the province: 6.H.16), and is not the province the attacker came from
  (6.H.5, every coast of it: 6.H.15) -- unless that attack came by convoy (DATC 4.A.5 choice b,
  6.H.11, 6.H.12).
* Under ``retreat_after_convoy="any"`` (MILA's ruling, ``edition=mila``) a unit dislodged by a
  convoyed attack keeps every location it could move to as an option, occupied provinces and
  standoffs included; the retreat rule (:func:`diplo.reference.legality.retreat_rule`) then
  refuses a retreat into a province a unit stands in, so such an option is listed and never
  taken (as MILA's state lists it and MILA's orders refuse it).
* Retreats have no strength: two or more units retreating to the same province are all disbanded
  (6.H.7, 6.H.8). A unit without a legal retreat order is disbanded.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from ..model.map import Map
from ..model.orders import Disband, Retreat, RetreatOrder, format_order
from ..model.outcome import Outcome, RulingFacts, explain_ruling
from ..model.position import Piece, Position

__all__ = ["NO_RETREAT_REASON", "RetreatResult", "resolve_retreats", "retreat_options"]

# The reason given to a dislodged unit that received no (legal) retreat order: a placeholder. The
# caller reports it as an implied disband, in the words of the model's ``no_retreat`` sentence.
NO_RETREAT_REASON = "no retreat ordered: disbanded"


def retreat_options(
    game_map: Map,
    piece: Piece,
    occupied: Collection[str],
    contested: Collection[str],
    attacker_origin: str | None,
    attack_convoyed: bool,
    any_after_convoy: bool = False,
) -> tuple[str, ...]:
    """The locations a dislodged ``piece`` may retreat to, in the map's location order.

    ``occupied`` are the provinces holding a unit after the movement phase (the attacker included),
    ``contested`` the provinces left empty by a standoff, ``attacker_origin`` the province (or a
    location in it) the dislodging unit came from. Pass sets for speed: membership is tested once
    per neighbour.

    An army's candidates are its army neighbours; a fleet's are the fleet neighbours of its exact
    location, so each reachable coast of a split-coast province is a separate option (a fleet in
    Portugal may go to ``SPA/NC`` or ``SPA/SC``, one in Gascony only to ``SPA/NC``). Exclusions
    apply to whole provinces. With ``any_after_convoy`` (``Rules.retreat_after_convoy``) a unit
    dislodged by a convoyed attack keeps every candidate: no exclusion applies.
    """
    if piece.power in game_map.neutral:
        return ()  # a neutral unit is disbanded when dislodged (Map.neutral)
    if piece.type == "A":
        candidates = game_map.army_neighbours(piece.province)
    else:
        candidates = game_map.fleet_neighbours(piece.loc)
    # DATC 6.H.5 / 6.H.15: not back along the attacker's path, whichever coast.
    # DATC 4.A.5 (choice b), 6.H.11, 6.H.12: a convoyed attacker crossed no border with the
    # dislodged unit, so its origin stays open.
    barred = (
        None
        if attack_convoyed or attacker_origin is None
        else game_map.province_of(attacker_origin)
    )
    province_of = game_map.province_of
    if attack_convoyed and any_after_convoy:
        # MILA: after a convoyed attack every place the unit could move to is listed.
        return tuple(sorted(candidates, key=game_map.location_index.__getitem__))
    options = []
    for loc in candidates:
        prov = province_of(loc)
        # DATC 6.H.6 / 6.H.16: a standoff closes the whole province, every coast of it.
        if prov == barred or prov in occupied or prov in contested:
            continue
        options.append(loc)
    options.sort(key=game_map.location_index.__getitem__)
    return tuple(options)


@dataclass(frozen=True)
class RetreatResult:
    """The retreat phase ruled.

    ``outcomes`` has one entry per dislodged unit, keyed by the province it was dislodged from.
    ``units`` is the board afterwards: the units that were not dislodged plus every unit whose
    retreat succeeded, at its new location (keyed by province).
    """

    outcomes: dict[str, Outcome]
    units: dict[str, Piece]


def resolve_retreats(position: Position, orders: Mapping[str, RetreatOrder]) -> RetreatResult:
    """Carry out the retreat phase of ``position``.

    ``orders`` maps the province of a dislodged unit to its legal order (validation has checked the
    destination against the unit's options); a dislodged unit without an entry is disbanded.
    Orders that could only come from a validation fault (no dislodged unit in that province, a
    destination outside the unit's options or occupied on the board) raise ``ValueError`` rather
    than corrupt the board.
    """
    game_map = position.map
    dislodged = position.dislodged
    for prov, order in orders.items():
        entry = dislodged.get(prov)
        if entry is None:
            raise ValueError(
                f"retreat-phase order {format_order(order)!r}: no dislodged unit in {prov} "
                "(validation should have refused it)"
            )
        # Checked at province level: a hand-written retreat-phase document may list a bare
        # province for a fleet, and only a second unit in one province would corrupt the board.
        if isinstance(order, Retreat) and (
            game_map.province_of(order.dest) not in {game_map.province_of(o) for o in entry.options}
            or game_map.province_of(order.dest) in position.units
        ):
            raise ValueError(
                f"{entry.piece} R {order.dest} is not a legal retreat "
                f"(options: {', '.join(entry.options) or 'none'}); "
                "validation should have refused it"
            )

    # Who retreats where, by destination province (coasts of one province collide too).
    by_target: dict[str, list[str]] = {}
    for prov, order in orders.items():
        if isinstance(order, Retreat):
            by_target.setdefault(game_map.province_of(order.dest), []).append(prov)

    index = game_map.location_index
    outcomes: dict[str, Outcome] = {}
    units: dict[str, Piece] = dict(position.units)
    for prov in sorted(dislodged, key=index.__getitem__):
        piece = dislodged[prov].piece
        given = orders.get(prov)
        if given is None:
            outcomes[prov] = Outcome("ok", True, NO_RETREAT_REASON)
        elif isinstance(given, Disband):
            facts = RulingFacts("disbanded", piece.power, str(piece))
            outcomes[prov] = Outcome("ok", True, explain_ruling(facts))
        else:
            target = game_map.province_of(given.dest)
            rivals = [dislodged[p].piece for p in by_target[target] if p != prov]
            if rivals:
                # DATC 6.H.7 / 6.H.8 / 6.H.14: retreats have no strength; every unit retreating
                # to the same province is disbanded.
                facts = RulingFacts(
                    "retreat_clash",
                    piece.power,
                    str(piece),
                    place=given.dest,
                    other=target,
                    rivals=[(r.power, str(r)) for r in rivals],
                )
                outcomes[prov] = Outcome("bounce", False, explain_ruling(facts))
            else:
                moved = Piece(piece.power, piece.type, given.dest)
                units[target] = moved
                facts = RulingFacts("retreated", piece.power, str(piece), place=given.dest)
                outcomes[prov] = Outcome("ok", True, explain_ruling(facts))
    return RetreatResult(outcomes, units)
