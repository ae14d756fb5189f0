"""MILA's result labels of a processed phase, from diplo's ruling of it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ...api.game import PhaseRecord
from ...formats.mila import mila_builds, mila_results
from ...model.results import Result

__all__ = ["mila_labels"]


def mila_labels(
    record: PhaseRecord, voids: Sequence[tuple[str, str]] = (), popped: Sequence[str] = ()
) -> tuple[dict[str, list[str]], dict[str, str]]:
    """MILA's result labels of a processed phase (unit -> labels), and its dislodged units
    (unit -> the province the attacker came from), from diplo's ruling of the phase.

    Labels start from :func:`diplo.formats.mila.mila_results`; the drop-in adds what MILA also
    reports: orders it kept but found void (``voids``: power and unit, listed first), ``disrupted``
    for a convoying fleet whose convoy failed because a fleet of the route was dislodged, the
    movement labels of :class:`_Moves`, and in a retreat or adjustment phase ``disband`` for the
    units the movement phase just before dislodged with nowhere to go (``popped``: MILA keeps
    them as dislodged until the next phase it plays, which labels them)."""
    labels = mila_results(record)
    outcome = record.outcome
    game_map = record.position.map
    units = record.position.units
    dislodged: dict[str, str] = {}
    by_unit = {r.unit: r for r in outcome.results if r.unit is not None and r.legal}
    for result in outcome.results:
        if result.unit is not None and result.dislodged_by:
            dislodged[result.unit] = result.dislodged_by[:3]
    if record.position.phase.kind == "M":
        gone = frozenset(str(d.piece) for d in outcome.dislodged.values())
        _Moves(record, by_unit, gone).relabel(labels)
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
        waives = _mila_waives(record, voids)
        labels.pop("WAIVE", None)
        if waives:
            labels["WAIVE"] = ["void"] * waives
    for unit in popped:  # MILA: disbanded with nowhere to retreat, labelled in this phase
        given = labels.setdefault(unit, [])
        if "disband" not in given:
            given.append("disband")
    return labels, dislodged


def _mila_waives(record: PhaseRecord, voids: Sequence[tuple[str, str]] = ()) -> int:
    """How many ``void`` labels MILA gives its ``WAIVE`` key: one per waive it keeps. Taking a
    power's orders, MILA drops waives while the orders outnumber the builds the power may make
    (its centres less its units, at most its free build sites: its owned home centres, any
    owned centre under ``BUILD_ANY``), then adds waives up to that number (MILA adds them for a
    power with a waive or no controller, and no power of a local game has one), its void entries
    counted; with no build to make, each waive is kept (and void)."""
    position = record.position
    allowed = mila_builds(position)
    count = 0
    void_count: dict[str, int] = {}
    for power, _unit in voids:
        void_count[power] = void_count.get(power, 0) + 1
    given = {**dict.fromkeys(void_count, ()), **record.orders}
    for power, texts in given.items():
        adjust = list(texts) + ["VOID"] * void_count.get(power, 0)
        if not adjust:
            continue  # MILA takes an empty list as no orders: nothing added
        owned = position.centers_of(power)
        need = len(owned) - len(position.units_of(power))
        if need > 0:
            need = allowed[power]["count"]
        while 0 < need < len(adjust) and "WAIVE" in adjust:
            adjust.remove("WAIVE")
        if need > len(adjust):  # every power of a local game is MILA's dummy
            adjust.extend(["WAIVE"] * (need - len(adjust)))
        count += adjust.count("WAIVE")
    return count


class _Moves:
    """A movement phase's orders and diplo's ruling of them, read for the labels MILA gives
    where its way of ruling shows (``diplomacy/engine/game.py``, ``_resolve_moves``):

    - a support of an army's move by convoy is ``void`` when no chain of fleets was ordered to
      carry that army there (MILA finds the move impossible before counting supports), and
      ``no convoy`` when there was one and it was broken (unless the support was cut first);
    - an army whose convoy failed keeps ``no convoy`` when it is then dislodged;
    - a support of a move into a province held by the supporter's own power is ``void`` when
      MILA stops the move for it: a head-to-head swap with that unit, or a move stronger than
      everything else contesting the province while that unit stays (a cut support stays
      ``cut``); a move that another unit bounces equally keeps its supports' labels."""

    __slots__ = ("by_unit", "game_map", "gone", "help_hold", "help_move", "sea", "units", "words")

    def __init__(self, record: PhaseRecord, by_unit: dict[str, Result], gone: frozenset[str]):
        self.game_map = record.position.map
        self.units = record.position.units
        self.by_unit = by_unit
        self.gone = gone
        self.words = {unit: r.order.split() for unit, r in by_unit.items()}
        self.sea = record.position.rules.convoyed_attack_from == "sea"  # (see _kept)
        #: Supports given and not cut, per supported move (unit, province) and per held unit.
        self.help_move: Counter[tuple[str, str]] = Counter()
        self.help_hold: Counter[str] = Counter()
        province_of = self.game_map.province_of
        for unit, words in self.words.items():
            if (
                len(words) >= 5
                and words[2] == "S"
                and (by_unit[unit].code == "ok" or self._kept(unit))
            ):
                helped = " ".join(words[3:5])
                if "-" in words[5:]:
                    self.help_move[helped, province_of(words[-1])] += 1
                else:
                    self.help_hold[helped] += 1

    def relabel(self, labels: dict[str, list[str]]) -> None:
        """Put MILA's labels into ``labels`` where they differ from diplo's reading."""
        province_of = self.game_map.province_of
        for unit, result in self.by_unit.items():
            extra = ["dislodged"] if unit in self.gone else []
            words = self.words[unit]
            if len(words) >= 6 and words[2] == "S" and "-" in words[5:]:
                label = self._support(unit, " ".join(words[3:5]), province_of(words[-1]))
                if label is not None:
                    labels[unit] = [*label, *extra]
            elif self._kept(unit):
                labels[unit] = extra  # dislodged, not cut (MILA's step 9)
            elif len(words) >= 4 and words[2] == "-":
                if result.code == "dislodged" and self._no_convoy(unit):
                    labels[unit] = ["no convoy", *extra]
            elif len(words) >= 5 and words[2] == "C":
                army = " ".join(words[3:5])
                target = province_of(words[-1])
                here = province_of(words[1])
                aimed = self._target(army) == target
                carried = aimed and self._on_route(army, target, here)
                if result.code == "no_convoy" and "paradox" in result.reason:
                    labels[unit] = ["disrupted", *extra]
                elif result.code == "dislodged" and not (carried and self._by_convoy(army)):
                    # MILA labels the order before the fleet is dislodged: a convoy of a move
                    # it does not carry by sea is "no convoy" and void (void alone when the
                    # army was not ordered there).
                    labels[unit] = ["no convoy", "void", *extra] if aimed else ["void", *extra]
                elif carried and unit not in self.gone and self._beaten(unit, here, target):
                    # MILA's _check_disruptions: a foreign attack stronger than all else in the
                    # fleet's sea by its raw count (supports of the fleet's own power included)
                    # disrupts it, dislodged or not, whether or not another route carries on.
                    labels[unit] = ["disrupted"]
                elif result.code == "no_convoy" and carried:
                    # On a route ordered for the army, broken later: MILA's step 5 label only.
                    labels[unit] = ["no convoy", *extra]
                elif result.code in ("no_convoy", "void"):
                    # MILA: "no convoy" when the army was ordered to that place (by land, say,
                    # DATC 6.G.7) and the fleet is on no route, plain void for a convoy of a
                    # move nobody ordered.
                    labels[unit] = ["no convoy", "void", *extra] if aimed else ["void", *extra]

    def _support(self, unit: str, mover: str, target: str) -> list[str] | None:
        """MILA's label of ``unit``'s support of ``mover`` into province ``target`` where it
        is not diplo's (``None``: diplo's)."""
        code = self.by_unit[unit].code
        if self._target(mover) != target:
            return None  # void in both readings
        if code in ("cut", "dislodged") and self._uncut(unit, target):
            return []  # MILA's _cut_support exception C (and step 9 for a dislodgement)
        if self._no_convoy(mover):
            if not self._route(mover, target, frozenset()):
                return ["void"]  # no fleet chain was ordered: MILA voids the support at once
            return None if code == "cut" else ["no convoy"]
        held = self.units.get(target)
        supporter = self.units.get(self.game_map.province_of(self.words[unit][1]))
        if (
            held is None
            or supporter is None
            or held.power != supporter.power
            or code in ("cut", "dislodged")
            or self._via(mover, target)
        ):
            return None
        if self._swap(mover, str(held)):
            # MILA voids it once for the swap, and again when the move dislodges that unit.
            return ["void", "void"] if str(held) in self.gone else ["void"]
        if not self._left(str(held)) and self._strongest(mover, target, str(held)):
            return ["void"]  # MILA: no help to dislodge one's own unit, and the move stops
        return None

    def _uncut(self, unit: str, target: str) -> bool:
        """Whether ``unit``'s support of a move into ``target`` is one MILA does not cut: a
        fleet in ``target`` is ordered to convoy (its order not void) and every move into the
        supporter's province is a convoyed army's whose every ordered route needs that fleet
        (``_cut_support`` exception C; step 9 neither cuts it by a dislodgement)."""
        here = self.game_map.province_of(self.words[unit][1])
        fleet = str(self.units.get(target))
        given = self.by_unit.get(fleet)
        if not self.sea or given is None or given.code == "void" or self.words[fleet][2] != "C":
            return False
        cutters = [u for u in self.by_unit if self._target(u) == here]
        return bool(cutters) and all(
            self._by_convoy(u)
            and self._route(u, here, frozenset())
            and not self._route(u, here, frozenset((fleet,)))
            for u in cutters
        )

    def _kept(self, unit: str) -> bool:
        """Whether ``unit``'s support to hold a convoying fleet stays given though the army the
        fleet carries dislodges it, every route of the army needing that fleet (MILA's
        ``_resolve_moves`` step 9 and ``_cut_support`` exception C; diplo's
        ``convoyed_attack_from="sea"``)."""
        result, words = self.by_unit[unit], self.words[unit]
        if not self.sea or result.code != "dislodged" or not result.dislodged_by or len(words) != 5:
            return False
        attacker = self.units.get(self.game_map.province_of(result.dislodged_by[:3]))
        army, held = str(attacker), " ".join(words[3:5])
        target, given = self._target(army), self.words.get(held, [])
        return (
            words[2] == "S"
            and target is not None
            and given[2:3] == ["C"]
            and " ".join(given[3:5]) == army
            and self._by_convoy(army)
            and self._route(army, target, frozenset())
            and not self._route(army, target, frozenset((held,)))
        )

    def _beaten(self, fleet: str, here: str, target: str) -> bool:
        """Whether a foreign move into ``here`` (where convoying ``fleet`` stands) is stronger
        than everything else there by MILA's raw count (:meth:`_strongest`), or as strong when
        the unit at the army's ``target`` supports the fleet to hold (MILA's paradox check)."""
        owner = self.units.get(here)
        guard = self.units.get(target)
        words = self.words.get(str(guard)) if guard is not None else None
        tie = (
            words is not None
            and len(words) == 5
            and words[2] == "S"
            and self.game_map.province_of(words[4]) == here
        )
        # MILA's beleaguered garrison: tied strongest attacks disrupt when the unit at the
        # army's target moves or supports into the fleet's sea (its order as written).
        engaged = (
            words is not None
            and len(words) >= 4
            and words[2] in ("-", "S")
            and words[-1] != "VIA"
            and self.game_map.province_of(words[-1]) == here
        )
        for unit, result in self.by_unit.items():
            mover = self.units.get(self.game_map.province_of(self.words[unit][1]))
            if (
                self._target(unit) == here
                and mover is not None
                and owner is not None
                and mover.power != owner.power
                and result.code != "void"
                and not self._no_convoy(unit)
                and self._strongest(unit, here, fleet, tie, engaged)
            ):
                return True
        return False

    def _on_route(self, army: str, target: str, fleet: str) -> bool:
        """Whether the fleet in province ``fleet`` lies on a chain of fleets ordered to carry
        ``army`` to ``target`` (MILA's ``may_convoy``: the fleets of its possible paths)."""
        fleets = self._fleets(army, target, frozenset())
        start = self.game_map.province_of(self.words[army][1])
        return (
            fleet in fleets
            and fleet in self._reach(self.game_map.sea_neighbours(start), fleets)
            and fleet in self._reach(self.game_map.sea_neighbours(target), fleets)
        )

    def _reach(self, seeds: frozenset[str], fleets: set[str]) -> set[str]:
        """The fleets of ``fleets`` joined to ``seeds`` (seas by the army) through them."""
        reached = [f for f in seeds if f in fleets]
        seen = set(reached)
        while reached:
            for nxt in self.game_map.convoy_links(reached.pop()):
                if nxt in fleets and nxt not in seen:
                    seen.add(nxt)
                    reached.append(nxt)
        return seen

    def _target(self, unit: str) -> str | None:
        """The province ``unit`` was ordered to move to (``None``: not a move)."""
        words = self.words.get(unit)
        if words is None or len(words) < 4 or words[2] != "-":
            return None
        return self.game_map.province_of(words[3])

    def _left(self, unit: str) -> bool:
        """Whether ``unit`` moved away."""
        result = self.by_unit.get(unit)
        return result is not None and result.success and self._target(unit) is not None

    def _by_convoy(self, unit: str) -> bool:
        """Whether ``unit``'s move is one MILA carries by convoy (``VIA``, no land route, or a
        fleet of its power ordered to carry it on a chain: ``Game._get_convoy_paths``)."""
        words = self.words[unit]
        if unit[0] != "A":
            return False
        target = self._target(unit)
        assert target is not None
        if words[-1] == "VIA" or target not in self.game_map.army_neighbours(words[1]):
            return True
        army = self.units.get(self.game_map.province_of(words[1]))
        return army is not None and any(
            (fleet := self.units.get(here)) is not None
            and fleet.power == army.power
            and self._on_route(unit, target, here)
            for here in self._fleets(unit, target, frozenset())
        )

    def _via(self, mover: str, target: str) -> bool:
        """Whether ``mover``'s order keeps ``VIA`` in MILA's reading: it was written and a
        chain of fleets was ordered (MILA then looks for the owner of the unit attacked at
        "VIA", finds none, and counts a support from that owner as any other)."""
        return self.words[mover][-1] == "VIA" and self._route(mover, target, frozenset())

    def _swap(self, mover: str, held: str) -> bool:
        """Whether ``held`` was ordered into ``mover``'s place, both moves by land or sea."""
        origin = self.game_map.province_of(self.words[mover][1])
        if self._target(held) != origin:
            return False
        return not any(
            self._by_convoy(u) or self.by_unit[u].code == "void" or self._no_convoy(u)
            for u in (mover, held)
        )

    def _strongest(
        self, mover: str, target: str, held: str, tie: bool = False, engaged: bool = False
    ) -> bool:
        """Whether ``mover`` is stronger than every other unit contesting ``target`` (MILA's
        count: one plus the supports given and not cut; the unit staying there, ``held``, one
        plus its hold supports, or one when its own move failed); with ``tie`` as strong; with
        ``engaged`` as strong as the strongest other move and stronger than ``held``."""
        strength = 1 + self.help_move[mover, target]
        rivals = [1 + self.help_hold[held] if self._target(held) is None else 1]
        for unit, result in self.by_unit.items():
            if (
                unit != mover
                and self._target(unit) == target
                and result.code != "void"
                and not self._no_convoy(unit)
            ):
                rivals.append(1 + self.help_move[unit, target])
        return strength > max(rivals) or (
            strength == max(rivals) and (tie or (engaged and rivals[0] < strength))
        )

    def _no_convoy(self, unit: str) -> bool:
        """Whether ``unit``'s move failed for want of a convoy (MILA's ``no convoy``): diplo's
        ruling says so, or, for an army dislodged, the fleets ordered to carry it and those
        that were dislodged do."""
        code = self.by_unit[unit].code
        return code == "no_convoy" or (code == "dislodged" and self._stranded(unit))

    def _stranded(self, army: str) -> bool:
        """Whether ``army`` (dislodged) had no chain of fleets to carry it left unbroken."""
        target = self._target(army)
        if army[0] != "A" or target is None:
            return False
        by_land = target in self.game_map.army_neighbours(self.words[army][1])
        if not self._route(army, target, frozenset()):
            return not by_land
        if self._route(army, target, self.gone):
            return False
        return not by_land or self.words[army][-1] == "VIA"

    def _route(self, army: str, target: str, broken: frozenset[str]) -> bool:
        """Whether a chain of fleets ordered to carry ``army`` to ``target`` (none of them in
        ``broken``) joins the army's province to ``target``."""
        game_map = self.game_map
        fleets = self._fleets(army, target, broken)
        start = game_map.province_of(self.words[army][1])
        reached = [f for f in game_map.sea_neighbours(start) if f in fleets]
        seen = set(reached)
        ends = game_map.sea_neighbours(target)
        while reached:
            fleet = reached.pop()
            if fleet in ends:
                return True
            for nxt in game_map.convoy_links(fleet):
                if nxt in fleets and nxt not in seen:
                    seen.add(nxt)
                    reached.append(nxt)
        return False

    def _fleets(self, army: str, target: str, broken: frozenset[str]) -> set[str]:
        """The provinces of the fleets ordered to carry ``army`` to ``target``, those of
        ``broken`` left out."""
        game_map = self.game_map
        province_of = game_map.province_of
        fleets: set[str] = set()
        for unit, words in self.words.items():
            if (
                unit[0] == "F"
                and unit not in broken
                and len(words) >= 7
                and words[2] == "C"
                and " ".join(words[3:5]) == army
                and province_of(words[-1]) == target
                and game_map.may_convoy(province_of(words[1]))
            ):
                fleets.add(province_of(words[1]))
        return fleets
