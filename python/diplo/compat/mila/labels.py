"""MILA's result labels of a processed phase, from diplo's ruling of it."""

from __future__ import annotations

from collections.abc import Sequence

from ...api.game import PhaseRecord
from ...formats.mila import mila_results
from ...model.results import Result

__all__ = ["mila_labels"]


def mila_labels(
    record: PhaseRecord, voids: Sequence[tuple[str, str]] = ()
) -> tuple[dict[str, list[str]], dict[str, str]]:
    """MILA's result labels of a processed phase (unit -> labels), and its dislodged units
    (unit -> the province the attacker came from), from diplo's ruling of the phase.

    Labels start from :func:`diplo.formats.mila.mila_results`; the drop-in adds what MILA also
    reports: orders it kept but found void (``voids``: power and unit, listed first), ``disrupted``
    for a convoying fleet whose convoy failed because a fleet of the route was dislodged."""
    labels = mila_results(record)
    outcome = record.outcome
    game_map = record.position.map
    units = record.position.units
    dislodged: dict[str, str] = {}
    by_unit = {r.unit: r for r in outcome.results if r.unit is not None and r.legal}
    for result in outcome.results:
        if result.unit is not None and result.dislodged_by:
            dislodged[result.unit] = result.dislodged_by[:3]
    gone = {str(d.piece) for d in outcome.dislodged.values()}
    # The armies some fleet was ordered to convoy ("F NTH C A LON - NWY" names "A LON").
    convoyed = {
        " ".join(words[3:5])
        for words in (r.order.split() for r in by_unit.values())
        if len(words) >= 5 and words[2] == "C"
    }
    if record.position.phase.kind == "M":
        for unit, result in by_unit.items():
            extra = ["dislodged"] if unit in gone else []
            words = result.order.split()
            if (len(words) >= 6 and words[2] == "S" and words[5] == "-") or (
                len(words) >= 6 and words[2] == "S" and "-" in words
            ):
                mover = by_unit.get(" ".join(words[3:5]))
                target = units.get(game_map.province_of(words[-1]))
                supporter = units.get(game_map.province_of(words[1]))
                stays = target is not None and not _left(by_unit.get(str(target)))
                if (
                    stays
                    and target is not None
                    and supporter is not None
                    and target.power == supporter.power
                ):
                    labels[unit] = ["void", *extra]  # MILA: no support against one's own unit
                elif mover is not None and mover.code == "no_convoy":
                    # MILA: a support of a convoyed move whose convoy failed is "no convoy"
                    # (DATC 6.F.17 in MILA's suite); of one no fleet was ordered to carry, void.
                    labels[unit] = ["no convoy" if mover.unit in convoyed else "void", *extra]
            elif len(words) >= 3 and words[2] == "C":
                if result.code == "no_convoy" and "paradox" in result.reason:
                    labels[unit] = ["disrupted", *extra]
                elif result.code in ("no_convoy", "void"):
                    army = by_unit.get(" ".join(words[3:5]))
                    aimed = army is not None and _moves_to(army, game_map.province_of(words[-1]))
                    # MILA: "no convoy" when the army was ordered to that place (by land, say,
                    # DATC 6.G.7), plain void for a convoy of a move nobody ordered.
                    labels[unit] = ["no convoy", "void", *extra] if aimed else ["void", *extra]
    retreat = record.position.phase.kind == "R"
    for power, unit in voids:
        loc = unit[2:]
        owner = None
        if loc in game_map.location_index:
            prov = game_map.province_of(loc)
            away = record.position.dislodged.get(prov)
            owner = (away.piece if away is not None else None) if retreat else units.get(prov)
        if owner is not None and owner.power != power:
            continue  # an order for another power's unit (NO_CHECK): MILA labels it by its own
        labels[unit] = ["void", *labels.get(unit, [])]
    if record.position.phase.kind == "A":
        waives = _mila_waives(record)
        labels.pop("WAIVE", None)
        if waives:
            labels["WAIVE"] = ["void"] * waives
    return labels, dislodged


def _mila_waives(record: PhaseRecord) -> int:
    """How many ``void`` labels MILA gives its ``WAIVE`` key: one per waive it keeps. Taking a
    power's orders, MILA drops waives while the orders outnumber the builds the power may make
    (its centres less its units, at most its free owned home centres), then, if one is left,
    adds waives up to that number; with no build to make, each waive is kept (and void)."""
    position = record.position
    homes = position.map.homes
    occupied = set(position.units)
    count = 0
    for power, texts in record.orders.items():
        adjust = list(texts)
        if "WAIVE" not in adjust:
            continue
        owned = position.centers_of(power)
        need = len(owned) - len(position.units_of(power))
        if need > 0:
            sites = [h for h in homes.get(power, ()) if h in owned and h not in occupied]
            need = min(need, len(sites))
        while 0 < need < len(adjust) and "WAIVE" in adjust:
            adjust.remove("WAIVE")
        if "WAIVE" in adjust and need > len(adjust):
            adjust.extend(["WAIVE"] * (need - len(adjust)))
        count += adjust.count("WAIVE")
    return count


def _moves_to(result: Result, province: str) -> bool:
    """Whether ``result``'s order is a move into ``province`` (any coast)."""
    words = result.order.split()
    return len(words) >= 4 and words[2] == "-" and words[3].split("/")[0] == province


def _left(result: Result | None) -> bool:
    """Whether a unit moved away (MILA: a support of an attack on one's own unit is void unless
    that unit left)."""
    words = result.order.split() if result is not None else []
    return result is not None and result.success and len(words) > 3 and words[2] == "-"
