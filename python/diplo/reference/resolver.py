"""The reference movement resolver: Kruijswijk's algorithm (DATC v3.0, chapter 5), in pure Python.

Written to be read. Every rule is a small function named after the DATC term it computes
(attack, hold, defend and prevent strength; path; support cut) and the decisions are settled by
the guess algorithm of DATC 5.F, with the owner of a cycle found by low links (see
:meth:`_MovementResolver.resolve`), so that only a true cycle reaches the backup rule:

- a cycle of moves only is circular movement: every move in it succeeds (DATC 6.C);
- a cycle with a convoy in it is a convoy paradox: the Szykman rule makes the convoying fleets of
  the cycle fail to convoy (DATC 4.A.2, 5.B.9, 6.F.14 onwards).

Second-order paradoxes (DATC 6.F.22 to 6.F.24) need no special code. After a backup rule fixes a
cycle, the resolver simply resolves the orders again; any paradox the fix exposes is met as a new
cycle and broken the same way. This terminates: every application of the backup rule turns at
least one unresolved decision into a resolved one, resolved decisions never change, and there are
finitely many decisions (at most three per unit).

Every rule that reads a decision is a generator that yields the decision and is sent its value
(``Steps``); ``_run`` answers them on an explicit stack, so that the depth of a chain of
dependencies (a line of 2,000 moves, each into the next one's province) is bounded by memory, not
by Python's recursion limit.

The resolver receives the effective orders after validation: every order is legal on its own, and
every unit without one holds.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias, TypeVar

from ..model.map import Map
from ..model.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove
from ..model.outcome import UnitOutcome
from ..model.position import Piece
from ..model.rules import DEFAULT_RULES, Rules
from .retreats import retreat_options

Kind: TypeAlias = Literal["move", "support", "convoy"]
_NO_GUESS = 1 << 62  # ``low`` when no guess has been read
Decision: TypeAlias = tuple[Kind, str]
_T = TypeVar("_T")
# A rule that reads decisions: it yields each decision it needs and is sent back its value (see
# ``_MovementResolver._run``), so that dependencies are followed on an explicit stack.
Steps: TypeAlias = Generator[Decision, bool, _T]


@dataclass(frozen=True)
class MovementResolution:
    """The whole ruling of a movement phase."""

    outcomes: dict[str, UnitOutcome]
    # Provinces whose unit was dislodged, with the attacker's origin and whether it came by convoy.
    dislodged: dict[str, tuple[str, bool]]
    # DATC 6.H: provinces left empty by a standoff; no unit may retreat there.
    contested: frozenset[str]
    # The board after the moves, without the dislodged units.
    units: dict[str, Piece]
    # Where each dislodged unit may retreat (DATC 6.H), by province, possibly nowhere.
    retreats: dict[str, tuple[str, ...]]
    # Convoying fleets stopped by the Szykman rule (DATC 4.A.2), and the fleets whose convoy
    # order matched each convoyed army (by the army's province).
    szykman: frozenset[str] = frozenset()
    convoy_fleets: dict[str, tuple[str, ...]] = field(default_factory=dict)


class _MovementResolver:
    def __init__(
        self,
        game_map: Map,
        units: Mapping[str, Piece],
        orders: Mapping[str, Order],
        rules: Rules = DEFAULT_RULES,
        overland: frozenset[str] = frozenset(),
    ):
        self.map = game_map
        self.rules = rules
        # MILA's fallback: armies with convoy intent that go overland (``resolve_movement``).
        self.overland = overland
        self.units = units
        self.orders: dict[str, Order] = {p: orders.get(p, Hold(u.unit)) for p, u in units.items()}
        self.moves: dict[str, str] = {}  # origin province -> destination province
        for prov, order in self.orders.items():
            if isinstance(order, Move):
                self.moves[prov] = game_map.province_of(order.dest)
        # The moves into each province, by origin in location order: every rule that looks for
        # "the unit that" (cut a support, stopped a move) reads them in that order, so the unit
        # named is the same whatever order the units came in, on both backends.
        index = game_map.location_index
        self.attackers: dict[str, list[str]] = {}
        for origin in sorted(self.moves, key=index.__getitem__):
            self.attackers.setdefault(self.moves[origin], []).append(origin)
        # The powers whose fleets are ordered to convoy each (army province, destination).
        self._convoying_powers: dict[tuple[str, str], set[str]] = {}
        for prov, order in self.orders.items():
            if isinstance(order, Convoy):
                key = (order.army.province, order.dest)
                self._convoying_powers.setdefault(key, set()).add(units[prov].power)
        # MILA (``port_convoy="first"``): a port's fleet links a chain only as its first fleet.
        self._ports_later = game_map.ports if rules.port_convoy == "first" else frozenset()
        self.convoyed = {o: self._is_convoyed(o) for o in self.moves}
        if rules.convoy_fallback != "none":
            for origin in self.moves:
                if self.convoyed[origin] and self._falls_back(origin):
                    self.convoyed[origin] = False
        # Convoys and supports that match an ordered move (or hold); the rest are void.
        self.convoy_fleets: dict[str, list[str]] = {o: [] for o in self.moves}
        self.move_supports: dict[str, list[str]] = {o: [] for o in self.moves}
        self.hold_supports: dict[str, list[str]] = {}
        self.void: set[str] = set()
        for prov, order in self.orders.items():
            if isinstance(order, Convoy):
                army = order.army.province
                if self.moves.get(army) == order.dest and self.convoyed[army]:
                    self.convoy_fleets[army].append(prov)
                else:
                    self.void.add(prov)
            elif isinstance(order, SupportMove):
                mover = order.supported.province
                if self._support_matches(mover, order.dest, prov):
                    self.move_supports[mover].append(prov)
                else:
                    self.void.add(prov)
            elif isinstance(order, SupportHold):
                target = order.supported.province
                if target in self.units and target not in self.moves:
                    # DATC 6.D.4-6.D.6, 6.D.25-6.D.27: a unit that holds, supports or
                    # convoys (even in vain) can be supported in hold.
                    self.hold_supports.setdefault(target, []).append(prov)
                else:
                    # A unit ordered to move cannot be supported in hold, even when its move
                    # fails (DATC 6.D.7, 6.D.8, 6.D.25).
                    self.void.add(prov)
        # DATC 4.A.2, 1982 rule: the seas holding a fleet that convoys (an order that matched).
        self.convoying_seas = frozenset(f for fs in self.convoy_fleets.values() for f in fs)
        # Resolver administration (DATC 5.F).
        self.resolution: dict[Decision, bool] = {}
        self.resolved: set[Decision] = set()
        self.depth_of: dict[Decision, int] = {}  # decisions being resolved, by stack depth
        self.cycle: list[Decision] = []  # decisions resting on a guess not yet settled
        self.low_of: dict[Decision, int] = {}  # for those: the lowest depth they rest on
        self.low = _NO_GUESS  # the lowest depth whose guess the current frame has read
        self.szykman: set[str] = set()  # fleets the Szykman rule stopped
        # MILA (convoy_broken_by="any_support"): a convoyed army whose routes MILA's first
        # disruption check broke is no longer "moving via convoy" (Game._is_moving_via_convoy
        # reads the routes left), so, if it still moves, it meets a unit moving the other way
        # head to head (Game._bounce step 6).
        self.by_land_at_border: set[str] = set()
        if rules.convoy_broken_by == "any_support":
            self.by_land_at_border = {
                o
                for o, dest in self.moves.items()
                if self.convoyed[o] and self.moves.get(dest) == o and self._first_check_empties(o)
            }

    def _support_matches(self, mover: str, dest: str, supporter: str) -> bool:
        """A move support matches the move ordered; a coast it names must be the move's coast
        (DATC 6.B.9), while one it leaves out matches either coast (4.B.4, 6.B.7, 6.B.8,
        6.B.15). A unit that holds gets no move support (DATC 6.D.9)."""
        move = self.orders.get(mover)
        if not isinstance(move, Move) or self.moves[mover] != self.map.province_of(dest):
            return False
        if self.rules.support_coast == "any" and self.units[supporter].type == "F":
            return True  # MILA: for a fleet's support the province is enough
        return dest == self.moves[mover] or dest == move.dest

    # ------------------------------------------------------------------ convoy intent and paths

    def _is_convoyed(self, origin: str) -> bool:
        """Whether the move from ``origin`` goes by convoy (DATC 4.A.3, v3.0 preference).

        An army goes by convoy when it cannot walk there, when it was ordered "via convoy", or
        when a fleet of its own power is (legally) ordered to convoy it. A foreign fleet's
        convoy order expresses no intent (6.G.19); there is no fallback to the land route
        (6.G.8, 6.G.20).
        """
        piece = self.units[origin]
        order = self.orders[origin]
        assert isinstance(order, Move)
        if piece.type != "A":
            return False
        dest = self.moves[origin]
        if dest not in self.map.army_neighbours(origin):
            return True
        rule = self.rules.adjacent_convoy
        if rule == "explicit":
            return order.via  # the DPTG: only "by convoy" goes by convoy to a neighbour
        if rule == "opposite":
            # 1971 (DATC 4.A.3): any fleet's convoy counts, but only for a swap.
            return self.moves.get(dest) == origin and any(
                isinstance(o, Convoy) and o.army.province == origin and o.dest == dest
                for o in self.orders.values()
            )
        if order.via:
            return True
        if self.rules.convoy_chains == "any_fleets":
            return self._own_fleet_joins(origin, dest)
        return piece.power in self._convoying_powers.get((origin, dest), ())

    def _own_fleet_joins(self, origin: str, dest: str) -> bool:
        """godip (``convoy_chains="any_fleets"``, ``MustConvoy`` with ``ViaNation``): a fleet of
        the army's power is ordered to convoy it there and chains of any fleets on the board,
        whatever their orders, join the army to that fleet and that fleet to the destination."""
        power = self.units[origin].power
        afloat = {p for p, u in self.units.items() if u.type == "F" and self.map.may_convoy(p)}
        start, goal = self.map.sea_neighbours(origin), self.map.sea_neighbours(dest)
        for prov, order in self.orders.items():
            if not (
                isinstance(order, Convoy)
                and order.army.province == origin
                and order.dest == dest
                and self.units[prov].power == power
                and prov in afloat
            ):
                continue
            seen, frontier = {prov}, [prov]
            while frontier:
                here = frontier.pop()
                for other in self.map.convoy_links(here) & afloat:
                    if other not in seen:
                        seen.add(other)
                        frontier.append(other)
            if seen & start and seen & goal:
                return True
        return False

    def _falls_back(self, origin: str) -> bool:
        """MILA's fallback: an army with convoy intent to a neighbouring province goes
        overland when the convoy orders given for it form no route (or when a first resolution
        found its convoy disrupted: ``self.overland``). godip's (``convoy_fallback="via"``,
        its ``MustConvoy``): only an army ordered "via convoy" whose convoy orders form no route;
        one convoyed by the order of a fleet of its own power goes by convoy whatever the other
        fleets were ordered to do. dipcc's (``convoy_fallback="via_always"``): an army ordered
        "via convoy" whose convoy orders form no route, or (``self.overland``) whose convoy a
        first resolution found disrupted or stopped by a paradox."""
        dest = self.moves[origin]
        if dest not in self.map.army_neighbours(origin):
            return False
        if self.rules.convoy_fallback in ("via", "via_always"):
            order = self.orders[origin]
            if not (isinstance(order, Move) and order.via):
                return False
        if origin in self.overland:
            return True
        fleets = {
            p
            for p, o in self.orders.items()
            if isinstance(o, Convoy) and o.army.province == origin and o.dest == dest
        }
        return not self._route_through(origin, dest, fleets)

    def _links(self, fleet: str) -> frozenset[str]:
        """The fleets' provinces a chain may pass to from ``fleet`` (a port only as the first
        fleet under ``port_convoy="first"``: never passed to)."""
        links = self.map.convoy_links(fleet)
        return links - self._ports_later if self._ports_later else links

    def _route_through(self, origin: str, dest: str, fleets: set[str]) -> bool:
        start, goal = self.map.sea_neighbours(origin), self.map.sea_neighbours(dest)
        seen = {f for f in fleets if f in start}
        frontier = list(seen)
        while frontier:
            here = frontier.pop()
            if here in goal:
                return True
            for other in fleets:
                if other not in seen and other in self._links(here):
                    seen.add(other)
                    frontier.append(other)
        return False

    def path(self, origin: str) -> Steps[bool]:
        """DATC 5.B.4: a convoyed army needs a chain of fleets that convoy it and are not
        dislodged (DATC 6.C.5); multi-route convoys fail only when every route is broken
        (DATC 4.A.1, 6.F.9-6.F.13)."""
        if not self.convoyed[origin]:
            return True
        dest = self.moves[origin]
        if self.rules.convoy_disruption == "any":
            # DATC 4.A.1, 1971: one broken route breaks the convoy.
            on_routes = self._fleets_on_routes(origin, dest)
            if not on_routes:
                return False
            for f in on_routes:
                if not (yield ("convoy", f)):
                    return False
            return True
        fleets: list[str] = []
        for f in self.convoy_fleets[origin]:
            if (yield ("convoy", f)):
                fleets.append(f)
        start = self.map.sea_neighbours(origin)
        frontier = [f for f in fleets if f in start]
        seen = set(frontier)
        goal = self.map.sea_neighbours(dest)
        while frontier:
            fleet = frontier.pop()
            if fleet in goal:
                return True
            for other in fleets:
                if other not in seen and other in self._links(fleet):
                    seen.add(other)
                    frontier.append(other)
        return False

    def _fleets_on_routes(self, origin: str, dest: str) -> list[str]:
        """The convoying fleets of the army at ``origin`` that lie on some complete route to
        ``dest``, dislodged or not (the fleets whose loss disrupts a 1971 convoy)."""
        fleets = self.convoy_fleets[origin]

        def reach(start: frozenset[str], forward: bool) -> set[str]:
            # A port (under port_convoy="first") is never reached past the first fleets from
            # the army, and never walked past from the destination.
            seen = {f for f in fleets if f in start}
            frontier = list(seen)
            while frontier:
                here = frontier.pop()
                if not forward and here in self._ports_later:
                    continue
                links = self._links(here) if forward else self.map.convoy_links(here)
                for other in fleets:
                    if other not in seen and other in links:
                        seen.add(other)
                        frontier.append(other)
            return seen

        forward = reach(frozenset(self.map.sea_neighbours(origin)), True)
        backward = reach(frozenset(self.map.sea_neighbours(dest)), False)
        return [f for f in fleets if f in forward and f in backward]

    def _necessary_fleets(self, origin: str) -> list[str]:
        """The convoying fleets of the army at ``origin`` that every route needs (DATC 4.A.2,
        the 2000/2023 rule's "fleets necessary for the army to convoy")."""
        dest = self.moves[origin]
        on_routes = self._fleets_on_routes(origin, dest)
        start, goal = self.map.sea_neighbours(origin), self.map.sea_neighbours(dest)
        out = []
        for fleet in on_routes:
            others = [f for f in on_routes if f != fleet]
            seen = {f for f in others if f in start}
            frontier = list(seen)
            while frontier:
                here = frontier.pop()
                for other in others:
                    if other not in seen and other in self._links(here):
                        seen.add(other)
                        frontier.append(other)
            if not any(f in goal for f in seen):
                out.append(fleet)
        return out

    # ------------------------------------------------------------------ strengths (DATC 5.B)

    def head_to_head(self, origin: str) -> str | None:
        """The unit moving the opposite way, when the two meet on their border.

        Battles are between provinces, whatever the coasts (no coastal crawl, DATC 6.B.13). A
        convoyed move never meets its opponent on the border (DATC 6.G), so it is no
        head-to-head battle.
        """
        dest = self.moves[origin]
        if self.moves.get(dest) == origin and self._at_border(origin) and self._at_border(dest):
            return dest
        return None

    def _at_border(self, origin: str) -> bool:
        """Whether the move from ``origin`` crosses the border (not convoyed, or, MILA, with its
        routes broken by the first disruption check: ``by_land_at_border``)."""
        return not self.convoyed[origin] or origin in self.by_land_at_border

    def support_count(self, supporters: list[str], exclude_power: str | None = None) -> Steps[int]:
        count = 0
        for s in supporters:
            if exclude_power is not None and self.units[s].power == exclude_power:
                continue
            if (yield ("support", s)):
                count += 1
        return count

    def attack_strength(self, origin: str) -> Steps[int]:
        """DATC 5.B.8."""
        if self.convoyed[origin] and not (yield from self.path(origin)):
            return 0
        dest = self.moves[origin]
        defender = self.units.get(dest)
        supports = self.move_supports[origin]
        if defender is None or (
            dest in self.moves and self.head_to_head(origin) is None and (yield ("move", dest))
        ):
            return 1 + ((yield from self.support_count(supports)) if supports else 0)
        if defender.power == self.units[origin].power:
            # DATC 6.D.10, 6.D.11, 6.E.2: a unit never dislodges a unit of its own power, so its
            # attack has no strength.
            return 0
        if self.rules.own_support == "convoyed" and self._explicitly_convoyed(origin):
            # MILA: it counts for a convoyed attack.
            return 1 + ((yield from self.support_count(supports)) if supports else 0)
        # DATC 6.D.12, 6.D.13, 6.E.3: support from the defender's own power never helps to
        # dislodge it.
        if not supports:
            return 1
        return 1 + (yield from self.support_count(supports, exclude_power=defender.power))

    def hold_strength(self, province: str) -> Steps[int]:
        """DATC 5.B.5."""
        if province not in self.units:
            return 0
        if province in self.moves:
            # DATC 6.D.7: a unit ordered to move has no hold support, even when its move fails.
            return 0 if (yield ("move", province)) else 1
        supports = self.hold_supports.get(province)
        return 1 + ((yield from self.support_count(supports)) if supports else 0)

    def defend_strength(self, origin: str, against: str) -> Steps[int]:
        """DATC 5.B.7: the defence of the move from ``origin`` in its head-to-head battle with
        the move from ``against``."""
        supports = self.move_supports[origin]
        if not supports:
            return 1
        strength = 1 + (yield from self.support_count(supports))
        if self.rules.head_to_head_own_support == "void":
            # MILA: the support a power gives to the attack on its own unit is void, so it
            # defends nothing either (DATC 6.E.12 counts it); where both moves have as many
            # supports, MILA bounces both, as the full count does.
            attacker = self.units[against].power
            theirs = self.move_supports[against]
            if 1 + ((yield from self.support_count(theirs)) if theirs else 0) != strength:
                strength = 1 + (yield from self.support_count(supports, exclude_power=attacker))
        return strength

    def prevent_strength(self, origin: str) -> Steps[int]:
        """DATC 5.B.6."""
        if self.convoyed[origin] and not (yield from self.path(origin)):
            return 0
        opponent = self.head_to_head(origin)
        if opponent is not None and (yield ("move", opponent)):
            # DATC 6.E.1: a unit that lost its head-to-head battle prevents nothing.
            return 0
        supports = self.move_supports[origin]
        return 1 + ((yield from self.support_count(supports)) if supports else 0)

    # ------------------------------------------------------------------ the reasons (DATC 5.B)

    def opposition(self, origin: str, attack: int | None = None) -> Steps[tuple[int, str]]:
        """DATC 5.B.1: the strongest opposition to the move from ``origin`` and where it comes
        from: the destination's hold strength (head to head, the opponent's defend strength,
        DATC 6.E.1), then every rival's prevent strength, rivals in location order; on a tie the
        first wins. The move succeeds exactly when its attack beats it.

        With ``attack`` it stops at the first opposition the attack does not beat: enough for the
        decision, which so reads no more than it needs. The explanation asks for the whole answer
        once every decision is final.
        """
        dest = self.moves[origin]
        opponent = self.head_to_head(origin)
        # DATC 6.E.4: head to head, the opponent defends with its defend strength whether or not
        # it is dislodged; else the destination holds with its hold strength.
        if opponent is not None:
            best = yield from self.defend_strength(opponent, origin)
        else:
            best = (yield from self.hold_strength(dest)) if dest in self.units else 0
        by = dest
        if attack is not None and best >= attack:
            return best, by
        for other in self.attackers[dest]:
            if other == origin:
                continue
            # DATC 6.A.11, 6.A.12, 6.C.3: a rival's prevent strength bounces the move.
            strength = yield from self.prevent_strength(other)
            if strength > best:
                best, by = strength, other
                if attack is not None and best >= attack:
                    break
        return best, by

    def cut_by(self, supporter: str) -> Steps[str | None]:
        """DATC 5.B.2: the first attack (in location order) that cuts the support given from
        ``supporter``, or ``None``. Any attack with a route cuts, except one of the supporter's
        own power (DATC 6.D.20) and the one from the province the support is directed against
        (DATC 6.D.15), which must dislodge the supporter instead (DATC 6.D.17)."""
        for attacker in self.attackers.get(supporter, []):
            if self.units[attacker].power == self.units[supporter].power:
                continue  # DATC 6.D.20: a power cannot cut its own support.
            if attacker == self._supported_against(supporter):
                # DATC 4.A.4, 6.G.13: the army's starting province counts, even when convoyed.
                continue
            if self.convoyed[attacker] and self._paradox_rule_keeps(supporter, attacker):
                continue
            if self.rules.convoyed_attack_from == "sea" and self._given_to_its_sea(
                supporter, attacker
            ):
                continue
            if not self.convoyed[attacker] or (yield from self.path(attacker)):
                # DATC 6.F.6: a convoyed attack cuts only when its convoy arrives.
                return attacker
        return None

    def _explicitly_convoyed(self, origin: str) -> bool:
        """A convoyed move ordered "via convoy" or to a province the army cannot walk to (MILA's
        own support counts only for those)."""
        order = self.orders[origin]
        assert isinstance(order, Move)
        return self.convoyed[origin] and (
            order.via or self.moves[origin] not in self.map.army_neighbours(origin)
        )

    def _given_to_its_sea(self, supporter: str, attacker: str) -> bool:
        """MILA: whether the support from ``supporter`` is a support to hold a fleet that every
        route of the convoyed army needs (the attack then comes from that sea and does not cut
        it)."""
        order = self.orders[supporter]
        if not self.convoyed[attacker] or not isinstance(order, SupportHold):
            return False
        return order.supported.province in self._necessary_fleets(attacker)

    def _paradox_rule_keeps(self, supporter: str, attacker: str) -> bool:
        """DATC 4.A.2, the older paradox rules: whether the convoyed army from ``attacker``
        leaves the support from ``supporter`` uncut. 1971: a support of a fleet's attack on one
        of the army's convoying fleets; 1982: a support of an action in a sea that holds a
        convoying fleet; 2000 (the 2000 and 2023 rulebooks' text): a support of an attack on a
        fleet every route of the army needs. (Szykman's rule breaks the paradox in the backup
        rule instead, and decides where these give no answer.)"""
        rule = self.rules.paradox
        order = self.orders[supporter]
        if rule == "2000":
            if not isinstance(order, SupportMove):
                return False
            target = self.map.province_of(order.dest)
            return target in self._necessary_fleets(attacker)
        if rule == "1971":
            if not isinstance(order, SupportMove):
                return False
            supported = self.units.get(order.supported.province)
            target = self.map.province_of(order.dest)
            return (
                supported is not None
                and supported.type == "F"
                and target in self.convoy_fleets[attacker]
            )
        if rule == "1982":
            if isinstance(order, SupportMove):
                target = self.map.province_of(order.dest)
            elif isinstance(order, SupportHold):
                target = order.supported.province
            else:
                return False
            return self.map.is_sea(target) and target in self.convoying_seas
        return False

    def _supported_against(self, supporter: str) -> str | None:
        """The province a support is directed against (a move support's destination province;
        a coast named in the support does not change it, DATC 4.B.4)."""
        order = self.orders[supporter]
        return self.map.province_of(order.dest) if isinstance(order, SupportMove) else None

    # ------------------------------------------------------------------ the three decisions

    def adjudicate(self, decision: Decision) -> Steps[bool]:
        """The rule deciding ``decision`` (its steps, not a generator wrapping them)."""
        kind, prov = decision
        if kind == "move":
            return self.adjudicate_move(prov)
        if kind == "support":
            return self.adjudicate_support(prov)
        return self.adjudicate_convoy(prov)

    def adjudicate_move(self, origin: str) -> Steps[bool]:
        """DATC 5.B.1: the move succeeds when its attack beats the strongest opposition."""
        attack = yield from self.attack_strength(origin)
        if attack == 0:
            return False
        best, _ = yield from self.opposition(origin, attack)
        return attack > best

    def adjudicate_support(self, supporter: str) -> Steps[bool]:
        """DATC 5.B.2: a support succeeds unless it is cut (:meth:`cut_by`) or its unit is
        dislodged; the attack from the province the support is directed against can only do the
        latter (DATC 6.D.15, 6.D.17)."""
        if (yield from self.cut_by(supporter)) is not None:
            return False
        power = self.units[supporter].power
        # DATC 6.F.17: where an older paradox rule keeps a support, it takes precedence over
        # the dislodge rule: the army it spares cannot undo the support by dislodging it.
        for a in self.attackers.get(supporter, []):
            if self.units[a].power == power:
                continue
            if self.convoyed[a] and self._paradox_rule_keeps(supporter, a):
                continue
            # MILA (convoyed_attack_from="sea", Game._resolve_moves step 9): a convoyed army
            # that dislodges a support to hold a fleet its routes need does not break it either.
            if self.rules.convoyed_attack_from == "sea" and self._given_to_its_sea(supporter, a):
                continue
            if (yield ("move", a)):
                return False
        return True

    def adjudicate_convoy(self, fleet: str) -> Steps[bool]:
        """DATC 5.B.3: a convoy works while its fleet is not dislodged; an attack alone does
        not disrupt it (DATC 6.F.4, 6.F.5).

        The attacking moves are adjudicated directly instead of resolved (the DATC 5.D hack):
        that keeps the fleet's own decision out of the attackers' cycles, so every cycle is a
        clean, single cycle (Pandin's paradox, 6.F.16).
        """
        full = self.rules.convoy_broken_by == "any_support"
        # MILA's paradox check (Game._detect_paradox in _check_disruptions): the unit at the
        # army's destination supports this fleet to hold, so an attack as strong as all else
        # breaks the convoy.
        order = self.orders[fleet]
        guard = self.map.province_of(order.dest) if isinstance(order, Convoy) else None
        guarded = full and guard is not None and guard in self.hold_supports.get(fleet, [])
        # MILA's beleaguered garrison (_check_disruptions): when the strongest attacks on the
        # fleet are as strong as each other, they break the convoy only if the unit at the army's
        # destination was ordered to move into the fleet's province or to support anything there
        # (its order as written: void or cut, it still counts).
        engaged = guard if full and guard is not None and self._orders_into(guard, fleet) else None
        for a in self.attackers.get(fleet, []):
            if full and self.units[a].power != self.units[fleet].power:
                if (yield from self.beats_counting_every_support(a, guarded, engaged)):
                    return False
            elif (yield from self.adjudicate_move(a)):
                return False
        return True

    def _orders_into(self, at: str, here: str) -> bool:
        """Whether the unit in province ``at`` was ordered to move into province ``here`` or to
        support a unit there or a move into it (MILA reads the order as written: a support whose
        unit is missing is a hold, one that does not match still counts)."""
        order = self.orders.get(at)
        if isinstance(order, Move):
            return self.map.province_of(order.dest) == here
        if isinstance(order, SupportHold):
            return order.supported.province == here
        if isinstance(order, SupportMove):
            return (
                self.map.province_of(order.dest) == here and order.supported.province in self.units
            )
        return False

    def beats_counting_every_support(
        self, origin: str, tie: bool, engaged: str | None
    ) -> Steps[bool]:
        """MILA (``convoy_broken_by="any_support"``, ``Game._check_disruptions``): whether the
        foreign attack from ``origin`` on a convoying fleet beats its opposition counting every
        support it has, the fleet's own power's included (MILA compares the strengths of
        ``Game._strengths``, which count them, where DATC 6.D.12 does not let them dislodge);
        with ``tie`` (the unit at the army's destination supports the fleet: MILA's paradox)
        whether it is as strong as all else; with ``engaged`` (the province of the unit at the
        army's destination, which moves or supports into the fleet's province: MILA's
        beleaguered garrison) whether it is as strong as the strongest other attack and stronger
        than the fleet's hold.

        In the tie MILA reads its raw strengths, before any dislodgement: the support from
        ``engaged`` counts whatever the army does to it (the army cannot cut it either,
        ``Game._cut_support`` exception C), so it is counted without asking its decision, which
        would rest on the army's move (a cycle MILA has not)."""
        if self.convoyed[origin] and not (yield from self.path(origin)):
            return False
        supports = self.move_supports[origin]
        attack = 1 + ((yield from self.support_count(supports)) if supports else 0)
        best, _ = yield from self.opposition(origin, attack + tie)
        if attack > best or (tie and attack == best):
            return True
        if engaged is None:
            return False
        here = self.moves[origin]
        raw = 1 + (yield from self._supports_counting(origin, engaged))
        if (yield from self.hold_strength(here)) >= raw:
            return False
        top = 0
        for other in self.attackers.get(here, []):
            if other == origin:
                continue
            if self.convoyed[other] and not (yield from self.path(other)):
                continue
            top = max(top, 1 + (yield from self._supports_counting(other, engaged)))
        return top == raw

    def _supports_counting(self, origin: str, given: str) -> Steps[int]:
        """The successful supports of the move from ``origin``, the support from ``given`` (the
        unit at a convoyed army's destination) counted whatever its decision."""
        count = 0
        for s in self.move_supports[origin]:
            if s == given or (yield ("support", s)):
                count += 1
        return count

    # ------------------------------------------------------------------ resolve (DATC 5.F)

    def resolve(self, decision: Decision) -> bool:
        """The value of ``decision``, resolving it (and whatever it depends on) when needed."""
        known = self._known(decision)
        return known if known is not None else self._run(self._evaluate(decision))

    def _run(self, steps: Steps[_T]) -> _T:
        """Drive ``steps`` to its answer, evaluating every decision it asks for on an explicit
        stack, so that a chain of dependencies as long as the board (a line of 2,000 moves, each
        into the next one's province) needs no Python recursion."""
        stack: list[Steps[Any]] = [steps]
        value: Any = None
        while True:
            try:
                request = stack[-1].send(value)
            except StopIteration as done:
                stack.pop()
                if not stack:
                    answer: _T = done.value
                    return answer
                value = done.value
                continue
            value = self._known(request)
            if value is None:
                stack.append(self._evaluate(request))

    def _known(self, decision: Decision) -> bool | None:
        """The answer :meth:`_evaluate` gives without adjudicating, or ``None``: a resolved
        decision, one resting on a cycle not yet settled, or a cyclic dependency."""
        if decision in self.resolved:
            return self.resolution[decision]
        if decision in self.low_of:
            # In a cycle not yet settled: the value given earlier, still resting on a guess.
            self.low = min(self.low, self.low_of[decision])
            return self.resolution[decision]
        if decision in self.depth_of:
            # A cyclic dependency: answer with the current guess of that frame.
            depth = self.depth_of[decision]
            self.cycle.append(decision)
            self.low_of[decision] = depth
            self.low = min(self.low, depth)
            return self.resolution[decision]
        return None

    def _evaluate(self, decision: Decision) -> Steps[bool]:
        """DATC 5.F ``resolve`` (the guess algorithm), with an exact test of cycle ownership,
        for a decision :meth:`_known` does not answer. Every decision it reads is asked for by
        yielding it (:meth:`_run` answers); its stack depth is its place in ``depth_of``.

        5.F lets a decision try its second guess when ``recursion_hits`` is back to its value on
        entry. That test is too weak when a decision reads one that already sits in the cycle
        list of an *enclosing* cycle: the count does not move, the decision believes it owns a
        cycle and may settle on a value resting on the enclosing cycle's guess. So, as the low
        link of Tarjan's algorithm, every frame records the lowest stack depth whose guess it
        has read (``self.low``); a decision owns a cycle exactly when that is not above its own
        depth. The Rust core decides ownership the same way.
        """
        depth = len(self.depth_of)
        self.depth_of[decision] = depth
        old_cycle_len = len(self.cycle)
        old_low = self.low
        self.low = _NO_GUESS
        self.resolution[decision] = False
        first = yield from self.adjudicate(decision)

        if self.low == _NO_GUESS:
            # No guess was read: the answer is final.
            del self.depth_of[decision]
            self.low = old_low
            return self._settle(decision, first)

        result = first
        if self.low >= depth:
            # Every guess read rests on this decision or deeper: it owns the cycle, so try the
            # other guess.
            self._truncate_cycle(old_cycle_len)
            self.resolution[decision] = True
            self.low = _NO_GUESS
            second = yield from self.adjudicate(decision)
            if self.low >= depth:
                del self.depth_of[decision]
                self.low = old_low
                if first == second:
                    # A cycle with exactly one consistent resolution.
                    self._truncate_cycle(old_cycle_len)
                    return self._settle(decision, first)
                # Zero or two consistent answers: a real cycle for the backup rule.
                members = list(dict.fromkeys([decision, *self.cycle[old_cycle_len:]]))
                self._truncate_cycle(old_cycle_len)
                self.backup_rule(members)
                return (yield decision)
            # The other guess led into a cycle owned further up: so does this decision.
            result = second

        # A guess of an enclosing cycle was read: keep the guess-based answer and let the owner
        # of that cycle decide.
        low = self.low
        if decision not in self.low_of:
            self.cycle.append(decision)
        self.low_of[decision] = low
        self.resolution[decision] = result
        del self.depth_of[decision]
        self.low = min(old_low, low)
        return result

    def _truncate_cycle(self, length: int) -> None:
        for member in self.cycle[length:]:
            self.low_of.pop(member, None)
        del self.cycle[length:]

    def _settle(self, decision: Decision, value: bool) -> bool:
        self.resolution[decision] = value
        self.resolved.add(decision)
        return value

    def backup_rule(self, members: list[Decision]) -> None:
        convoys = [d for d in members if d[0] == "convoy"]
        if convoys:
            # DATC 4.A.2 (Szykman): the convoying fleets of the paradox do not convoy; the
            # armies they carried stay put and cut nothing. Everything else is resolved again.
            for decision in convoys:
                self._settle(decision, False)
            self.szykman.update(f for _, f in convoys)
        elif all(d[0] == "move" for d in members):
            # DATC 6.C.1, 6.C.2, 6.C.4, 6.C.6, 6.G.1: circular movement (a convoyed swap
            # included); every move of the circle succeeds. A disrupted circle (6.C.3) never
            # gets here: its bounce makes it a cycle with one consistent resolution.
            for decision in members:
                self._settle(decision, True)
        else:
            # Not reachable with the standard rules; DATC 5.B.9 advises all orders fail.
            for decision in members:
                self._settle(decision, False)
        for decision in members:
            if decision not in self.resolved:
                self.resolution.pop(decision, None)

    # ------------------------------------------------------------------ the ruling

    def run(self) -> MovementResolution:
        for origin in self.moves:
            self.resolve(("move", origin))
        for prov, order in self.orders.items():
            # Class tuples, not ``X | Y`` (a union is built on every test of every order).
            if isinstance(order, (SupportHold, SupportMove)) and prov not in self.void:
                self.resolve(("support", prov))
            elif isinstance(order, Convoy) and prov not in self.void:
                self.resolve(("convoy", prov))
        return self._ruling()

    def _moved(self, prov: str) -> bool:
        return prov in self.moves and self.resolution[("move", prov)]

    def _destination_backs_the_break(self, army: str) -> bool:
        """MILA (``convoy_broken_by="any_support"``, the second paradox check of
        ``Game._check_disruptions``, by ``Game._detect_paradox``): whether the unit at the
        destination of the convoyed ``army``, or a unit its orders lead to, supports a move into
        the province of a fleet of the army's routes whose convoy broke. MILA then keeps the army
        at home instead of letting it go overland to cut that support (:meth:`_falls_back`).

        The walk reads the orders as MILA does once it has voided the orders of missing units: a
        support or convoy order leads on to the unit at the place it names last (a support's
        destination or supported unit, a convoy's destination), until a unit is met again or an
        order of another kind (or a support of a missing unit, a convoy of a missing army) ends
        it. MILA asks this per broken fleet, while routes are left out one by one, so with two
        routes broken in different fleets only the fleet that empties the list counts there;
        this asks it of any broken fleet of the routes."""
        broken = {
            self.map.province_of(f)
            for f in self._fleets_on_routes(army, self.moves[army])
            if not self.resolve(("convoy", f))
        }
        if not broken:
            return False
        here: str | None = self.moves[army]
        seen: set[str] = set()
        while here is not None and here in self.units and here not in seen:
            seen.add(here)
            order = self.orders[here]
            if isinstance(order, SupportMove):
                if order.supported.province not in self.units:
                    return False
                here = self.map.province_of(order.dest)
                if here in broken:
                    return True
            elif isinstance(order, SupportHold):
                if order.supported.province not in self.units:
                    return False
                here = order.supported.province
            elif isinstance(order, Convoy):
                army_there = self.units.get(order.army.province)
                if army_there is None or army_there.type != "A":
                    return False
                here = self.map.province_of(order.dest)
            else:
                here = None
        return False

    def _first_check_empties(self, army: str) -> bool:
        """MILA (``convoy_broken_by="any_support"``): whether the first disruption check of
        ``Game._resolve_moves`` (step 4, at strengths where only attacks over land have cut
        supports) breaks every route of the convoyed ``army``. MILA never gives the routes back,
        so an army that still moves dislodges as an attack over land for its victim's retreats
        (``Game._move_results`` asks ``_is_moving_via_convoy``). Later rounds are not modelled."""
        dest = self.moves[army]
        fleets = set(self.convoy_fleets[army])
        kept = {f for f in fleets if not self._first_check_breaks(f)}
        return self._route_through(army, dest, fleets) and not self._route_through(army, dest, kept)

    def _first_check_breaks(self, fleet: str) -> bool:
        """Whether MILA's first disruption check breaks the convoy of ``fleet`` (see
        :meth:`_first_check_empties`): an attack of another power is the strongest, alone or tied
        with the fleet's own hold under the paradox, or tied with another attack while the unit
        at the army's destination moves or supports into the fleet's province."""
        power = self.units[fleet].power
        hold = 1 + self._supports_left_by_land(self.hold_supports.get(fleet, []))
        best, count, foreign = hold, 1, False
        for a in self.attackers.get(fleet, []):
            if self.convoyed[a] and not self.convoy_fleets[a]:
                continue  # no route at all: MILA counts it at home
            attack = 1 + self._supports_left_by_land(self.move_supports[a])
            if attack > best:
                best, count, foreign = attack, 0, False
            if attack == best:
                count += 1
                foreign = foreign or self.units[a].power != power
        order = self.orders[fleet]
        assert isinstance(order, Convoy)
        guard = self.map.province_of(order.dest)
        paradox = guard in self.hold_supports.get(fleet, [])
        return foreign and (
            paradox or (hold < best and (count == 1 or self._orders_into(guard, fleet)))
        )

    def _supports_left_by_land(self, supporters: list[str]) -> int:
        """How many of ``supporters`` no move over land of another power cuts (MILA's step 3;
        the move from the province a support is directed against does not cut it)."""
        count = 0
        for s in supporters:
            order = self.orders[s]
            against = (
                self.map.province_of(order.dest)
                if isinstance(order, SupportMove)
                else order.supported.province
                if isinstance(order, SupportHold)
                else None
            )
            if not any(
                not self.convoyed[m] and self.units[m].power != self.units[s].power and m != against
                for m in self.attackers.get(s, [])
            ):
                count += 1
        return count

    def _ruling(self) -> MovementResolution:
        dislodged: dict[str, tuple[str, bool]] = {}
        for prov in self.units:
            if self._moved(prov):
                continue
            for attacker in self.attackers.get(prov, []):
                if self._moved(attacker):
                    by_convoy = self.convoyed[attacker] and not (
                        self.rules.convoy_broken_by == "any_support"
                        and self._first_check_empties(attacker)
                    )
                    dislodged[prov] = (attacker, by_convoy)
        outcomes: dict[str, UnitOutcome] = {}
        for prov, order in self.orders.items():
            by_dislodger = dislodged.get(prov)
            dislodged_by = by_dislodger[0] if by_dislodger else None
            if isinstance(order, Move):
                outcomes[prov] = self._move_outcome(prov, dislodged_by)
            elif prov in self.void:
                outcomes[prov] = UnitOutcome("void", False, dislodged_by, dislodged_by)
            elif dislodged_by is not None:
                outcomes[prov] = UnitOutcome("dislodged", False, dislodged_by, dislodged_by)
            elif isinstance(order, (SupportHold, SupportMove)):
                if self.resolution[("support", prov)]:
                    outcomes[prov] = UnitOutcome("ok", True)
                else:
                    cut = self._run(self.cut_by(prov))
                    outcomes[prov] = UnitOutcome("cut", False, None, cut)
            elif isinstance(order, Convoy):
                army = order.army.province
                carried = self.resolution[("convoy", prov)] and self._run(self.path(army))
                outcomes[prov] = UnitOutcome("ok" if carried else "no_convoy", carried)
            else:
                outcomes[prov] = UnitOutcome("ok", True)
        units: dict[str, Piece] = {}
        for prov, piece in self.units.items():
            if prov in dislodged:
                continue
            if self._moved(prov):
                order = self.orders[prov]
                assert isinstance(order, Move)
                units[self.moves[prov]] = Piece(piece.power, piece.type, order.dest)
            else:
                units.setdefault(prov, piece)
        # DATC 6.H.9: a standoff closes a province to retreats, but a unit that lost a
        # head-to-head battle (prevent strength 0) stood off nobody.
        contested = frozenset(
            dest
            for dest, origins in self.attackers.items()
            if dest not in units
            and any(not self._moved(o) and self._run(self.prevent_strength(o)) > 0 for o in origins)
        )
        occupied = frozenset(units)
        retreats = {
            prov: retreat_options(
                self.map,
                self.units[prov],
                occupied,
                contested,
                origin,
                by_convoy,
                self.rules.retreat_after_convoy == "any",
            )
            for prov, (origin, by_convoy) in dislodged.items()
        }
        convoy_fleets = {a: tuple(f) for a, f in self.convoy_fleets.items() if f}
        return MovementResolution(
            outcomes,
            dislodged,
            contested,
            units,
            retreats,
            frozenset(self.szykman),
            convoy_fleets,
        )

    def _move_outcome(self, origin: str, dislodged_by: str | None) -> UnitOutcome:
        """The facts of a move's ruling. ``opposition`` is the greatest strength it had to beat
        (the destination's hold or defend strength, or a rival's prevent strength), reported for
        every move; ``by`` names where it came from when the move bounced."""
        convoyed = self.convoyed[origin]
        attack = self._run(self.attack_strength(origin))
        best, by = self._run(self.opposition(origin))
        if self._moved(origin):
            return UnitOutcome("ok", True, None, None, attack, best, convoyed)
        if dislodged_by is not None:
            return UnitOutcome(
                "dislodged", False, dislodged_by, dislodged_by, attack, best, convoyed
            )
        if convoyed and not self._run(self.path(origin)):
            return UnitOutcome("no_convoy", False, None, None, 0, best, convoyed)
        return UnitOutcome("bounce", False, None, by, attack, best, convoyed)


def resolve_movement(
    game_map: Map,
    units: Mapping[str, Piece],
    orders: Mapping[str, Order],
    rules: Rules = DEFAULT_RULES,
) -> MovementResolution:
    """Rule on a movement phase: ``units`` by province, ``orders`` the effective legal orders
    by province (a unit without one holds), under the movement choices of ``rules``
    (``adjacent_convoy``, ``convoy_disruption``, ``paradox`` and MILA's departures).

    Under MILA's fallback an army convoyed by intent to a neighbouring province, not ordered
    "via convoy", whose convoy is disrupted moves overland instead: the phase is resolved again
    with it moving overland, until no such army is left. Under dipcc's (``"via_always"``) so
    does an army ordered "via convoy" whose convoy is disrupted or stopped by a paradox."""
    overland: frozenset[str] = frozenset()
    fallback = rules.convoy_fallback
    while True:
        resolver = _MovementResolver(game_map, units, orders, rules, overland)
        resolution = resolver.run()
        if fallback not in ("land", "via_always"):
            return resolution
        fallen = {
            origin
            for origin, order in resolver.orders.items()
            if isinstance(order, Move)
            and resolver.convoyed.get(origin)
            and order.via == (fallback == "via_always")
            and resolver.moves[origin] in game_map.army_neighbours(origin)
            and not resolver._run(resolver.path(origin))
            # MILA: a convoy the paradox rule stopped does not fall back (DATC 6.G.11); dipcc's
            # does (_clear_convoy_paradoxes disables the fleets as a dislodgement does).
            and (
                fallback == "via_always"
                or not set(resolver.convoy_fleets[origin]) & resolver.szykman
            )
            # MILA (convoy_broken_by="any_support"): nor one whose destination backs the attack
            # that broke a fleet of its routes.
            and not (
                rules.convoy_broken_by == "any_support"
                and resolver._destination_backs_the_break(origin)
            )
        }
        if not fallen:
            return resolution
        overland |= fallen
