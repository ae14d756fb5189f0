"""Differential search against MILA: seeded games played side by side on MILA's ``Game`` (PyPI
``diplomacy`` 1.1.2) and on the drop-in ``diplo.compat.mila.Game`` ruled by
``Rules(edition="mila")``, with order policies that reach the rare rulings, every phase's
ruling compared (movement, retreat and adjustment phases alike).

    PYTHONPATH=python python3 tools/mila_search.py --games 50 --seed 5000 \\
        --policy convoy,support --map standard,ancmed --max-year 1910 --out cases/ \\
        [--labels] [--check-possible 50] [--report figures.json] [--seconds 60] [--progress]
    PYTHONPATH=python python3 tools/mila_search.py --games 100000 --seed next \\
        --ledger long.jsonl --policy all --map all --out cases/ --seconds 3600
    PYTHONPATH=python python3 tools/mila_search.py --ledger long.jsonl --summary

Each game gets one policy and one map (the lists given are cycled through by seed). Both
engines get the same orders each phase; after each phase the boards (the phase that comes next,
every unit, every dislodged unit with its retreat options, the centre owners) are compared. A
difference never stops the search: it is counted, the phase is shrunk to a minimal position
(:func:`shrink`: greedy removal of units, then of orders, each removal kept only when both
engines, set up afresh on the smaller position, still rule differently) and
written to ``--out`` as a JSON test case with MILA's ruling (``tests/test_mila_search.py``
replays the stored cases); the drop-in is then set to MILA's board and the game goes on. A
difference the phase's board and orders do not bring back on fresh games comes from the game's
history and is written (``history-*.json``) without shrinking. Every ``--check-possible``-th
phase the possible orders at the orderable locations are compared too, and with ``--labels``
every phase's result labels (counted by kind, with examples, not shrunk). ``--max-year`` is the
last year played, or, below a map's first year, the number of years (10: ten on every map).

Orders are drawn from the drop-in's possible orders (diplo's legal orders in MILA's notation,
held to MILA's ``get_all_possible_orders`` by ``--check-possible`` and
``tests/test_compat_mila.py``), which are cheap,
where MILA's own take most of a phase's time. The policies (:data:`POLICIES`):

* ``random``: one possible order per orderable location, uniformly (the corpus bot's way);
* ``convoy``: armies take a move "via convoy" where they have one, every fleet that can convoy
  an army's chosen move does, the others convoy what they can; supports of the convoyed moves;
* ``support``: about half the units move, preferring occupied provinces (their own power's
  included: self-dislodgement attempts), the others support those moves (a foreign move into
  one of their own units first) or support holds; moves cut supports on their own;
* ``edge``: ``support``'s movement, and in retreat and adjustment phases each power may send
  nothing at all (civil disorder), too many or too few builds, disbands, waives, retreats
  into the same place; in movement phases too a power now and then sends nothing.

Needs the ``compare`` extra: without MILA the tool says so and exits with status 2.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

POLICIES = ("random", "convoy", "support", "edge")
#: The maps MILA 1.1.2 ships (``diplomacy/maps/*.map``), every one played by the drop-in.
MILA_MAPS = (
    "standard",
    "ancmed",
    "ancmed_age_of_empires",
    "colonial",
    "empire",
    "known_world_901",
    "modern",
    "pure",
    "standard_age_of_empires",
    "standard_age_of_empires_2",
    "standard_fleet_rome",
    "standard_france_austria",
    "standard_germany_italy",
    "world",
)
Orders = dict[str, list[str]]
Board = tuple[Any, ...]


class MilaMissing(RuntimeError):
    """MILA (PyPI ``diplomacy``) is not installed."""


def mila_game_class() -> Any:
    """MILA's ``Game``, or :class:`MilaMissing` with what to install."""
    try:
        from diplomacy import Game
    except ImportError as exc:
        raise MilaMissing(
            "mila_search: MILA is not installed (the PyPI package 'diplomacy' 1.1.2, the "
            "'compare' extra: pip install 'diplo[compare]'); nothing to compare against"
        ) from exc
    return Game


def diplo_map(map_name: str) -> Any:
    """diplo's map of a MILA map name: a shipped one, else MILA's own ``.map`` file."""
    import importlib.util

    from diplo.formats.mila import MILA_MAP_NAMES
    from diplo.model.map import MapError, map_named
    from diplo.model.variants import load_mila_map

    ours = {mila: diplo for diplo, mila in MILA_MAP_NAMES.items()}.get(map_name, map_name)
    try:
        return map_named(ours)
    except MapError:
        spec = importlib.util.find_spec("diplomacy")
        if spec is None or not spec.submodule_search_locations:
            raise
        root = Path(next(iter(spec.submodule_search_locations)))
        return load_mila_map(root / "maps" / f"{map_name}.map")


_RULINGS: dict[tuple[str, str], Any] = {}


def ruling(map_name: str, edition: str = "mila") -> Any:
    """The rules of ``map_name`` (its build sites, victory count, ...) under ``edition``'s
    rulings: ``ancmed_age_of_empires`` keeps MILA's ``BUILD_ANY`` under ``edition=mila``."""
    from diplo.model.rules import Rules

    key = (map_name, edition)
    if key not in _RULINGS:
        _RULINGS[key] = Rules.from_json({"edition": edition}, diplo_map(map_name).rules)
    return _RULINGS[key]


def diplo_game(map_name: str, edition: str = "mila") -> Any:
    from diplo.compat.mila import Game

    return Game(map_name=map_name, ruling=ruling(map_name, edition))


# =========================================================================== the boards


def board(game: Any) -> Board:
    """What a phase's ruling decides, as comparable values: the phase that comes next, every
    power's units (dislodged ones marked ``*``), retreat options and centres."""
    state = game.get_state()
    return (
        state["name"],
        tuple(sorted((p, tuple(sorted(u))) for p, u in state["units"].items() if u)),
        tuple(
            sorted(
                (p, u, tuple(sorted(opts)))
                for p, r in (state.get("retreats") or {}).items()
                for u, opts in r.items()
            )
        ),
        tuple(sorted((p, tuple(sorted(c))) for p, c in state["centers"].items() if c)),
    )


def board_doc(b: Board) -> dict[str, Any]:
    """A board (:func:`board`) as JSON."""
    name, units, retreats, centers = b
    out_retreats: dict[str, dict[str, list[str]]] = {}
    for power, unit, options in retreats:
        out_retreats.setdefault(power, {})[unit] = list(options)
    return {
        "name": name,
        "units": {p: list(u) for p, u in units},
        "retreats": out_retreats,
        "centers": {p: list(c) for p, c in centers},
    }


def trail_step(trail: Any, phase: str, orders: Orders, ruled: Board) -> None:
    """Add one phase to a game's trail (a SHA-256 over every phase's name, the orders given and
    the board ruled): two runs of a seed with equal trails played the same game and ruled every
    phase of it alike."""
    step = [phase, {p: list(o) for p, o in sorted(orders.items())}, board_doc(ruled)]
    trail.update(json.dumps(step, sort_keys=True, separators=(",", ":")).encode())
    trail.update(b"\n")


def board_diff(mila: Board, ours: Board) -> list[str]:
    """What differs between two boards, as short sentences (MILA's side first)."""
    out = []
    if mila[0] != ours[0]:
        out.append(f"next phase: MILA {mila[0]}, diplo {ours[0]}")
    for i, what in ((1, "units"), (2, "retreats"), (3, "centres")):
        # As multisets: a list naming a unit twice differs from one naming it once.
        if i == 2:
            a, b = Counter(mila[i]), Counter(ours[i])
        else:
            a = Counter((p, x) for p, xs in mila[i] for x in xs)
            b = Counter((p, x) for p, xs in ours[i] for x in xs)
        if a != b:
            out.append(
                f"{what}: MILA only {sorted((a - b).elements())}, "
                f"diplo only {sorted((b - a).elements())}"
            )
    return out


# =========================================================================== the policies


@dataclass
class Unit:
    power: str
    loc: str  # the orderable location's key
    name: str  # "A PAR", "F STP/SC"
    options: list[str]


def _units(game: Any) -> list[Unit]:
    """The orderable units (or build sites) of every power with their possible orders."""
    possible = game.get_all_possible_orders()
    out = []
    for power, locs in sorted(game.get_orderable_locations().items()):
        for loc in sorted(locs):
            options = sorted(possible.get(loc) or [])
            if options:
                name = " ".join(options[0].split()[:2]) if options[0] != "WAIVE" else loc
                out.append(Unit(power, loc, name, options))
    return out


def _dest(order: str) -> str | None:
    words = order.split()
    if len(words) >= 4 and words[2] == "-":
        return words[3]
    return None


def _province(loc: str) -> str:
    return loc[:3]


def _occupants(game: Any) -> dict[str, str]:
    """Province -> owner of the unit there."""
    out = {}
    for power, units in game.get_units().items():
        for u in units:
            if not u.startswith("*"):
                out[_province(u.split()[1])] = power
    return out


def policy_random(game: Any, rng: random.Random, kind: str) -> Orders:
    orders: Orders = {}
    for unit in _units(game):
        orders.setdefault(unit.power, []).append(rng.choice(unit.options))
    return orders


def _movement(game: Any, rng: random.Random, convoy: bool) -> Orders:
    units = _units(game)
    rng.shuffle(units)
    owner = _occupants(game)
    chosen: dict[str, str] = {}
    # 1. movers: via-convoy moves first (convoy policy), else moves into occupied provinces.
    for unit in units:
        moves = [o for o in unit.options if _dest(o)]
        via = [o for o in moves if o.endswith(" VIA")]
        if convoy and via and rng.random() < 0.8:
            chosen[unit.name] = rng.choice(via)
        elif moves and rng.random() < (0.35 if convoy else 0.5):
            attacks = [o for o in moves if _province(_dest(o) or "") in owner]
            own = [o for o in attacks if owner[_province(_dest(o) or "")] == unit.power]
            pick = rng.random()
            if own and pick < 0.15:
                chosen[unit.name] = rng.choice(own)
            elif attacks and pick < 0.7:
                chosen[unit.name] = rng.choice(attacks)
            else:
                chosen[unit.name] = rng.choice(moves)
    moving = {name: order for name, order in chosen.items()}
    # 2. fleets convoy the chosen moves they can; the others any convoy they can.
    for unit in units:
        if unit.name in chosen:
            continue
        convoys = [o for o in unit.options if " C " in o]
        if not convoys:
            continue
        wanted = [
            o
            for o in convoys
            if (m := moving.get(" ".join(o.split()[3:5]))) and _dest(m) == o.split()[-1]
        ]
        if wanted and rng.random() < 0.9:
            chosen[unit.name] = rng.choice(wanted)
        elif convoy and rng.random() < 0.6:
            chosen[unit.name] = rng.choice(convoys)
    # 3. the others support: a foreign move into their own unit, a convoyed move, any chosen
    # move, a hold; or do anything.
    for unit in units:
        if unit.name in chosen:
            continue
        supports = [o for o in unit.options if " S " in o]
        matching = []
        for o in supports:
            words = o.split()
            target = " ".join(words[3:5])
            if len(words) == 7 and (m := moving.get(target)) and _dest(m) == words[6]:
                matching.append(o)
        into_own = [
            o
            for o in matching
            if owner.get(_province(o.split()[6])) == unit.power
            and owner.get(_province(o.split()[4])) != unit.power
        ]
        convoyed = [o for o in matching if moving[" ".join(o.split()[3:5])].endswith("VIA")]
        holds = [
            o for o in supports if len(o.split()) == 5 and " ".join(o.split()[3:5]) not in moving
        ]
        pick = rng.random()
        if into_own and pick < 0.3:
            chosen[unit.name] = rng.choice(into_own)
        elif convoyed and pick < 0.55:
            chosen[unit.name] = rng.choice(convoyed)
        elif matching and pick < 0.8:
            chosen[unit.name] = rng.choice(matching)
        elif holds and pick < 0.9:
            chosen[unit.name] = rng.choice(holds)
        else:
            chosen[unit.name] = rng.choice(unit.options)
    orders: Orders = {}
    for unit in units:
        orders.setdefault(unit.power, []).append(chosen[unit.name])
    return {p: sorted(o) for p, o in sorted(orders.items())}


def policy_convoy(game: Any, rng: random.Random, kind: str) -> Orders:
    if kind != "M":
        return policy_random(game, rng, kind)
    return _movement(game, rng, convoy=True)


def policy_support(game: Any, rng: random.Random, kind: str) -> Orders:
    if kind != "M":
        return policy_random(game, rng, kind)
    return _movement(game, rng, convoy=False)


def policy_edge(game: Any, rng: random.Random, kind: str) -> Orders:
    if kind == "M":
        orders = _movement(game, rng, convoy=rng.random() < 0.3)
        return {p: o for p, o in orders.items() if rng.random() > 0.1}
    orders = {}
    units = _units(game)
    by_power: dict[str, list[Unit]] = {}
    for unit in units:
        by_power.setdefault(unit.power, []).append(unit)
    for power, mine in by_power.items():
        style = rng.random()
        if style < 0.25:
            continue  # civil disorder: nothing sent
        chosen: list[str] = []
        if kind == "R":
            places = [o for u in mine for o in u.options if " R " in o]
            for unit in mine:
                same = [
                    o
                    for o in unit.options
                    if places
                    and o.split()[-1]
                    in {p.split()[-1] for p in places if not p.startswith(unit.name)}
                ]
                if same and rng.random() < 0.5:
                    chosen.append(rng.choice(same))  # two retreats into one place
                elif rng.random() < 0.85:
                    chosen.append(rng.choice(unit.options))
        else:
            options = sorted({o for u in mine for o in u.options})
            builds = [o for o in options if o.endswith(" B")]
            disbands = [o for o in options if o.endswith(" D")]
            if builds:
                rng.shuffle(builds)
                n = rng.choice([0, 1, len(builds), len(builds) + 1])
                chosen = builds[:n]
                if rng.random() < 0.4:
                    chosen.append("WAIVE")
                if rng.random() < 0.3 and len(builds) > 1:
                    chosen.insert(0, "WAIVE")
            elif disbands:
                rng.shuffle(disbands)
                chosen = disbands[: rng.choice([0, 1, len(disbands)])]
            else:
                chosen = [rng.choice(options)] if options else []
        if chosen:
            orders[power] = chosen
    return orders


POLICY_FUNCTIONS: Mapping[str, Callable[[Any, random.Random, str], Orders]] = {
    "random": policy_random,
    "convoy": policy_convoy,
    "support": policy_support,
    "edge": policy_edge,
}


# =========================================================================== one phase


def full_state(game: Any, state: Mapping[str, Any]) -> dict[str, Any]:
    """``state`` with every power of the game named (``set_state`` leaves a power it does not
    name as it was)."""
    powers = list(game.powers)
    out = {
        "name": state["name"],
        "units": {p: list(state["units"].get(p, [])) for p in powers},
        "centers": {p: list(state["centers"].get(p, [])) for p in powers},
        "retreats": {p: dict((state.get("retreats") or {}).get(p, {})) for p in powers},
    }
    if "homes" in state:
        out["homes"] = {p: list(state["homes"].get(p, [])) for p in powers}
    return out


def rule(game: Any, state: Mapping[str, Any], orders: Orders) -> Board:
    """The board after ``orders`` on ``state`` in a fresh ``game`` (MILA's or the drop-in's)."""
    # MILA's set_centers leaves a power's centres as they were when given none: clear first.
    game.clear_units()
    game.clear_centers()
    game.set_state(full_state(game, state))
    for power, texts in orders.items():
        if texts:
            game.set_orders(power, list(texts))
    game.process()
    return board(game)


@dataclass
class Case:
    """One phase: the map, the board before (MILA's state form), the orders."""

    map: str
    state: dict[str, Any]
    orders: Orders

    def units(self) -> list[tuple[str, str]]:
        return [(p, u) for p, us in sorted(self.state["units"].items()) for u in us]

    def without_unit(self, power: str, unit: str) -> Case:
        state = json.loads(json.dumps(self.state))
        state["units"][power] = [u for u in state["units"][power] if u != unit]
        bare = unit.lstrip("*")
        (state.get("retreats") or {}).get(power, {}).pop(bare, None)
        orders = {
            p: [o for o in os if not (p == power and o.startswith(bare + " "))]
            for p, os in self.orders.items()
        }
        return Case(self.map, state, {p: o for p, o in orders.items() if o})

    def without_order(self, power: str, order: str) -> Case:
        orders = {
            p: [o for o in os if not (p == power and o == order)] for p, os in self.orders.items()
        }
        return Case(self.map, self.state, {p: o for p, o in orders.items() if o})


@dataclass
class Engines:
    """Makes the two games a case is ruled on (fresh ones each time)."""

    mila: Callable[[str], Any]
    ours: Callable[[str], Any]
    checks: int = 0

    def rule(self, case: Case) -> tuple[Board, Board] | None:
        """Both boards, or ``None`` when either engine refuses the case's set-up."""
        self.checks += 1
        try:
            return rule(self.mila(case.map), case.state, case.orders), rule(
                self.ours(case.map), case.state, case.orders
            )
        except Exception:  # a smaller position one engine cannot set up: not a candidate
            return None

    def differs(self, case: Case) -> bool:
        boards = self.rule(case)
        return boards is not None and boards[0] != boards[1]


def shrink(case: Case, engines: Engines) -> Case:
    """A minimal case that still differs: units taken away one at a time (with their orders)
    while both engines still part, then orders; repeated until nothing more can go (greedy, so
    minimal for single removals). The centres are kept as they were."""
    changed = True
    while changed:
        changed = False
        for power, unit in case.units():
            smaller = case.without_unit(power, unit)
            if engines.differs(smaller):
                case, changed = smaller, True
        for power, texts in list(case.orders.items()):
            for order in texts:
                smaller = case.without_order(power, order)
                if engines.differs(smaller):
                    case, changed = smaller, True
    # The centres stay: MILA gives every power its home centres when no power owns one
    # (Game._capture_centers), a board no game reaches.
    return case


def case_doc(case: Case, engines: Engines, found: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON test case: the position, the orders, MILA's ruling and diplo's at the time."""
    boards = engines.rule(case)
    assert boards is not None
    state = {
        "name": case.state["name"],
        "units": {p: u for p, u in case.state["units"].items() if u},
        "centers": {p: c for p, c in case.state["centers"].items() if c},
    }
    retreats = {p: r for p, r in (case.state.get("retreats") or {}).items() if r}
    if retreats:
        state["retreats"] = retreats
    return {
        "map": case.map,
        "state": state,
        "orders": case.orders,
        "mila": board_doc(boards[0]),
        "diplo_when_found": board_doc(boards[1]),
        "differences": board_diff(boards[0], boards[1]),
        "found": dict(found),
    }


# =========================================================================== the search


@dataclass
class Tally:
    phases: Counter[str] = field(default_factory=Counter)  # "policy map kind" -> phases
    differences: list[dict[str, Any]] = field(default_factory=list)
    possible_checked: int = 0  # phases whose possible orders were compared
    deepmind_checked: int = 0  # phases whose DeepMind form was compared
    labels: Counter[str] = field(default_factory=Counter)  # label differences by kind
    label_examples: list[dict[str, Any]] = field(default_factory=list)
    games: int = 0
    seconds: float = 0.0

    def movement(self) -> int:
        return sum(n for k, n in self.phases.items() if k.endswith(" M"))

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "seconds": round(self.seconds, 1),
            "movement_phases": self.movement(),
            "possible_orders_checked": self.possible_checked,
            "deepmind_checked": self.deepmind_checked,
            "label_differences": dict(self.labels.most_common()),
            "label_examples": self.label_examples,
            "phases": dict(sorted(self.phases.items())),
            "differences": self.differences,
        }


def label_diff(mila: Any, ours: Any, phase: str, orders: Orders) -> list[tuple[str, str]]:
    """The units whose result labels of ``phase`` differ, each with a kind for counting:
    ``order kind: diplo's labels -> MILA's``."""
    want = {str(u): [str(x) for x in r] for u, r in mila.result_history[phase].items()}
    have = {str(u): [str(x) for x in r] for u, r in ours.result_history[phase].items()}
    given = {" ".join(o.split()[:2]): o for texts in orders.values() for o in texts}
    out = []
    for unit in sorted(set(want) | set(have)):
        if want.get(unit) != have.get(unit):
            words = given.get(unit, "").split()
            kind = words[2] if len(words) > 2 else "-"
            if kind == "S" and "-" in words[3:]:
                kind = "S-"
            out.append((f"{kind}: {have.get(unit)} -> {want.get(unit)}", unit))
    return out


def possible_diff(mila: Any, ours: Any) -> list[str]:
    """Where the two games' orderable locations, or the possible orders at any location (what
    a bot reads), differ (sentences): the orderable ones, and the others too, such as the
    coasts of a split-coast home centre, under which MILA lists its builds again (``STP/NC``:
    ``F STP/NC B``, ``WAIVE``) and the drop-in as well."""
    out = []
    want, have = mila.get_orderable_locations(), ours.get_orderable_locations()
    for power in sorted(set(want) | set(have)):
        a, b = set(want.get(power) or ()), set(have.get(power) or ())
        if a != b:
            out.append(f"orderable {power}: MILA only {sorted(a - b)}, diplo only {sorted(b - a)}")
    want, have = mila.get_all_possible_orders(), ours.get_all_possible_orders()
    for loc in sorted(set(want) | set(have)):
        a, b = set(want.get(loc) or ()), set(have.get(loc) or ())
        if a != b:
            out.append(f"possible at {loc}: MILA only {sorted(a - b)}, diplo only {sorted(b - a)}")
    return out


class DeepMindForm:
    """DeepMind's form of a live MILA game on the standard map, through their own conversion
    (``mila_actions`` of their repository, ``diplo.apps.bench.deepmind_mila``), set beside
    diplo's ``DiplomacyState`` made from the same position under ``edition``: the season, the
    board, the build numbers and every power's legal actions (``deepmind_diff.py``'s
    comparison)."""

    def __init__(self, snapshot: Path, edition: str) -> None:
        import importlib.util

        import diplomacy

        from diplo.env.deepmind.agents import load_their_environment

        try:
            self.theirs = load_their_environment(snapshot)
        except ValueError as exc:
            raise MilaMissing(
                f"mila_search: --deepmind needs DeepMind's repository ({exc}; --deepmind-code "
                "PATH or DIPLO_DEEPMIND=PATH)"
            ) from None
        path = Path(__file__).resolve().parent / "deepmind_diff.py"
        spec = importlib.util.spec_from_file_location("mila_search_deepmind_diff", path)
        assert spec is not None and spec.loader is not None
        self.diff = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(self.diff)
        self.mila = diplomacy
        self.edition = edition

    def differences(self, game: Any) -> list[str]:
        """What differs, each named with its kind (empty when the forms agree)."""
        from diplo.apps.bench.deepmind_mila import MilaDiplomacyState
        from diplo.env.deepmind import DiplomacyState
        from diplo.formats.mila import position_from_mila
        from diplo.model.map import standard_map
        from diplo.model.rules import Rules

        year = int(game.get_current_phase()[1:-1])
        reference = MilaDiplomacyState(self.mila, self.theirs, year, game=game)
        legal_theirs = reference.legal_actions()
        observed = reference.observation()
        rules = Rules(edition=self.edition)
        here = position_from_mila(game.get_state(), game_map=standard_map(), rules=rules)
        ours = DiplomacyState(here, year)
        legal_ours = ours.legal_actions()
        build = game.get_current_phase().endswith("A")
        kinds = self.diff.compare_forms(
            ours.observation(), observed, legal_ours, legal_theirs, build
        )
        if not kinds:
            return []
        details = self.diff.legal_difference(legal_ours, legal_theirs, reference.powers, "")
        return [", ".join(kinds), *details[:5]]


def play(
    seed: int,
    policy: str,
    map_name: str,
    max_year: int,
    tally: Tally,
    engines: Engines,
    out: Path | None,
    deadline: float | None = None,
    shrink_cases: bool = True,
    check_every: int = 0,
    labels: bool = False,
    deepmind: tuple[DeepMindForm, int] | None = None,
    trail: Any = None,
) -> None:
    """One seeded game on both engines; every differing phase recorded, shrunk and written.
    ``trail`` (a ``hashlib`` hash), when given, takes every phase as the drop-in ruled it
    (:func:`trail_step`), so :func:`replay` can later play the game on the drop-in alone.
    Every ``check_every``-th phase (0: never) the possible orders and orderable locations are
    compared too (MILA's are slow: the policies draw from the drop-in's, which this holds to
    MILA's)."""
    rng = random.Random(f"{seed}/{policy}/{map_name}")
    choose = POLICY_FUNCTIONS[policy]
    mila = engines.mila(map_name)
    ours = engines.ours(map_name)
    first = int(mila.get_current_phase()[1:-1])
    last = max_year if max_year >= first else first + max_year - 1
    while not mila.is_game_done and not ours.is_game_done:
        if deadline is not None and time.monotonic() > deadline:
            return
        phase = mila.get_current_phase()
        if int(phase[1:-1]) > last:
            return
        kind = phase[-1]
        before = mila.get_state()
        if check_every and sum(tally.phases.values()) % check_every == 0:
            tally.possible_checked += 1
            problems = possible_diff(mila, ours)
            if problems:
                entry = {"seed": seed, "policy": policy, "map": map_name, "phase": phase}
                tally.differences.append(dict(entry, possible_orders=problems[:20]))
                print(f"DIFFERENCE {json.dumps(tally.differences[-1])}", flush=True)
        if deepmind is not None and map_name == "standard":
            form, every = deepmind
            if sum(tally.phases.values()) % every == 0:
                tally.deepmind_checked += 1
                problems = form.differences(mila)
                if problems:
                    entry = {"seed": seed, "policy": policy, "map": map_name, "phase": phase}
                    tally.differences.append(dict(entry, deepmind=problems))
                    print(f"DIFFERENCE {json.dumps(tally.differences[-1])}", flush=True)
        orders = choose(ours, rng, kind)
        for power, texts in orders.items():
            mila.set_orders(power, texts)
            ours.set_orders(power, texts)
        mila.process()
        ours.process()
        tally.phases[f"{policy} {map_name} {kind}"] += 1
        if labels:
            for key, unit in label_diff(mila, ours, phase, orders):
                tally.labels[key] += 1
                if tally.labels[key] <= 3:
                    where = {"seed": seed, "policy": policy, "map": map_name, "phase": phase}
                    tally.label_examples.append(dict(where, unit=unit, kind=key, orders=orders))
        want, have = board(mila), board(ours)
        if trail is not None:
            trail_step(trail, phase, orders, have)
        if want == have:
            continue
        found = {"seed": seed, "policy": policy, "map": map_name, "phase": phase}
        case = Case(map_name, full_state(mila, before), orders)
        entry: dict[str, Any] = dict(found, differences=board_diff(want, have))
        # A difference the phase's board and orders alone do not bring back on fresh games
        # comes from the game's history (the drop-in's lists): kept with the game that shows
        # it (replay it with --games 1 --seed/--policy/--map), not shrunk.
        entry["reproducible"] = engines.differs(case)
        if shrink_cases and not entry["reproducible"] and out is not None:
            out.mkdir(parents=True, exist_ok=True)
            path = out / f"history-{map_name}-{policy}-s{seed}-{phase}.json"
            doc = {"found": found, "differences": entry["differences"], "state": case.state}
            path.write_text(json.dumps(dict(doc, orders=orders), indent=1, sort_keys=True) + "\n")
            entry["case"] = str(path)
        elif shrink_cases:
            small = shrink(case, engines)
            doc = case_doc(small, engines, found)
            entry["minimal_units"] = sum(len(u) for u in small.state["units"].values())
            entry["minimal_orders"] = sum(len(o) for o in small.orders.values())
            if out is not None:
                out.mkdir(parents=True, exist_ok=True)
                path = out / f"{map_name}-{policy}-s{seed}-{phase}.json"
                path.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
                entry["case"] = str(path)
        tally.differences.append(entry)
        print(f"DIFFERENCE {json.dumps(entry)}", flush=True)
        try:  # the drop-in follows MILA's board from here
            ours.set_state(mila.get_state())
        except Exception as exc:  # cannot follow: the game ends here, the search goes on
            print(f"  (game ended: the drop-in cannot take MILA's board: {exc})", flush=True)
            return


def search(
    games: int,
    seed: int,
    policies: Sequence[str],
    maps: Sequence[str],
    max_year: int,
    out: Path | None,
    seconds: float | None = None,
    edition: str = "mila",
    progress: bool = False,
    report: Path | None = None,
    check_every: int = 0,
    labels: bool = False,
    ledger: Path | None = None,
    deepmind: tuple[Path, int] | None = None,
) -> Tally:
    """Play ``games`` games (seeds from ``seed``; policies and maps cycled through), or as many
    as fit in ``seconds``; the figures are written to ``report`` after every game (a long run
    stopped by hand keeps them), and each game's own figures appended to ``ledger`` (see
    :func:`ledger_line`), so runs of many sittings and processes add up."""
    mila_class = mila_game_class()
    source = revision() if ledger is not None else ""
    form = None if deepmind is None else (DeepMindForm(deepmind[0], edition), deepmind[1])
    engines = Engines(lambda m: mila_class(map_name=m), lambda m: diplo_game(m, edition))
    tally = Tally()
    start = time.monotonic()
    deadline = None if seconds is None else start + seconds
    combos = [(p, m) for m in maps for p in policies]
    for i in range(games):
        if deadline is not None and time.monotonic() > deadline:
            break
        policy, map_name = combos[(seed + i) % len(combos)]  # by seed: runs that go on cycle on
        phases_before, found_before = Counter(tally.phases), len(tally.differences)
        trail = hashlib.sha256()
        play(
            seed + i,
            policy,
            map_name,
            max_year,
            tally,
            engines,
            out,
            deadline,
            check_every=check_every,
            labels=labels,
            deepmind=form,
            trail=trail,
        )
        if deadline is not None and time.monotonic() > deadline:
            break  # a game cut short by the clock is not a game played
        tally.games += 1
        tally.seconds = time.monotonic() - start
        if ledger is not None:
            line = ledger_line(
                seed + i,
                policy,
                map_name,
                edition,
                source,
                tally.phases - phases_before,
                tally.differences[found_before:],
                trail=trail.hexdigest(),
                max_year=max_year,
            )
            with ledger.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(line, sort_keys=True) + "\n")
        if report is not None:
            report.write_text(json.dumps(tally.to_json(), indent=1) + "\n")
        if progress:
            rate = tally.movement() / max(tally.seconds, 1e-9)
            print(
                f"game {tally.games} (seed {seed + i}, {policy}, {map_name}): "
                f"{sum(tally.phases.values())} phases, {tally.movement()} movement, "
                f"{len(tally.differences)} differences, {rate:.1f} movement phases/s",
                flush=True,
            )
    tally.seconds = time.monotonic() - start
    return tally


# =========================================================================== the ledger


#: The code a ruling comes from (the engine, the reference, the model, the drop-in and what feeds
#: them): a ledger's games count together when the last commit to change it is the same.
RULING_CODE = (
    "rust/src",
    "python/diplo/api",
    "python/diplo/compat",
    "python/diplo/data",
    "python/diplo/engine",
    "python/diplo/formats",
    "python/diplo/model",
    "python/diplo/reference",
)


def revision() -> str:
    """The ruling code the search runs (:data:`RULING_CODE`): the last git commit that changed
    it, with ``+changes`` when the checkout differs from it there (``unknown`` outside a git
    checkout). Commits that change only tools, tests or documents keep the same revision."""
    import subprocess

    root = Path(__file__).resolve().parent.parent

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "-C", str(root), *args],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        ).stdout.strip()

    try:
        commit = git("log", "-1", "--format=%h", "--abbrev=12", "--", *RULING_CODE)
        changed = git("status", "--porcelain", "--untracked-files=no", "--", *RULING_CODE)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return commit + ("+changes" if changed else "") if commit else "unknown"


def ledger_line(
    seed: int,
    policy: str,
    map_name: str,
    edition: str,
    source: str,
    phases: Counter[str],
    differences: Sequence[Mapping[str, Any]],
    trail: str | None = None,
    max_year: int | None = None,
) -> dict[str, Any]:
    """One played game's figures: its seed, policy and map, the edition and source it ran
    (:func:`revision`), its phases by kind (``M``, ``R``, ``A``) and its differences; for a game
    with no difference its ``trail`` (:func:`trail_step`) and ``max_year``, with which
    :func:`replay` plays it again on the drop-in alone."""
    kinds = Counter({key.rsplit(" ", 1)[-1]: n for key, n in phases.items()})
    extra: dict[str, Any] = {}
    if trail is not None and not differences:
        extra = {"trail": trail, "max_year": max_year}
    return {
        **extra,
        "seed": seed,
        "policy": policy,
        "map": map_name,
        "edition": edition,
        "source": source,
        "phases": dict(sorted(kinds.items())),
        "differences": [dict(d) for d in differences],
    }


def read_ledger(path: Path) -> list[dict[str, Any]]:
    """The ledger's games, one per seed and edition (a later line, such as one
    :func:`backfill` appended with the game's trail, takes the place of an earlier one); a line
    cut short by a stopped run (the last one) is skipped."""
    games: dict[tuple[int, str], dict[str, Any]] = {}
    for text in path.read_text(encoding="utf-8").splitlines():
        try:
            line = json.loads(text)
        except json.JSONDecodeError:
            continue
        if isinstance(line, dict) and {"seed", "policy", "map", "phases"} <= line.keys():
            games[(int(line["seed"]), str(line.get("edition", "mila")))] = line
    return list(games.values())


def next_seed(path: Path, default: int) -> int:
    """One past the largest seed the ledger holds (``default`` for none): where a run that
    goes on from earlier runs starts, so no game is played twice."""
    seeds = [int(g["seed"]) for g in read_ledger(path)] if path.exists() else []
    return max(seeds) + 1 if seeds else default


def summary(path: Path) -> str:
    """The ledger's figures as Markdown, per source and edition: movement phases per map and
    policy, all phases by kind, seed range and every difference found."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for game in read_ledger(path):
        groups.setdefault((game.get("source", "?"), game.get("edition", "?")), []).append(game)
    out: list[str] = []
    for (source, edition), games in sorted(groups.items()):
        cells: Counter[tuple[str, str]] = Counter()
        kinds: Counter[str] = Counter()
        for g in games:
            cells[(g["map"], g["policy"])] += int(g["phases"].get("M", 0))
            kinds.update({k: int(v) for k, v in g["phases"].items()})
        found = [d for g in games for d in g.get("differences", [])]
        seeds = [int(g["seed"]) for g in games]
        out.append(
            f"source {source}, edition {edition}: {len(games):,} games (seeds {min(seeds)} to "
            f"{max(seeds)}), {kinds['M']:,} movement phases ({kinds['R']:,} retreat, "
            f"{kinds['A']:,} adjustment), {len(found)} differences"
        )
        out.append("")
        out.append("| map | " + " | ".join(POLICIES) + " | movement phases |")
        out.append("| --- |" + " ---: |" * (len(POLICIES) + 1))
        for name in MILA_MAPS:
            row = [cells[(name, p)] for p in POLICIES]
            if any(row):
                out.append(
                    f"| `{name}` | " + " | ".join(f"{n:,}" for n in row) + f" | {sum(row):,} |"
                )
        totals = [sum(n for (_, p), n in cells.items() if p == q) for q in POLICIES]
        out.append("| all | " + " | ".join(f"{n:,}" for n in totals) + f" | {sum(totals):,} |")
        for d in found:
            out.append(f"- difference: {json.dumps(d, sort_keys=True)[:400]}")
        out.append("")
    return "\n".join(out) if out else "the ledger holds no game"


def replay_game(
    seed: int, policy: str, map_name: str, max_year: int, edition: str = "mila"
) -> tuple[str, Counter[str]]:
    """Play a ledger's game again on the drop-in alone, as :func:`play` played it (the same
    seeded draws from the drop-in's own possible orders, the same last year): its trail
    (:func:`trail_step`) and its phases by kind. Where MILA and the drop-in agreed on every
    phase, the drop-in alone plays the very same game, so a later build whose trail is equal
    rules every one of its phases as MILA did, without MILA."""
    rng = random.Random(f"{seed}/{policy}/{map_name}")
    choose = POLICY_FUNCTIONS[policy]
    ours = diplo_game(map_name, edition)
    first = int(ours.get_current_phase()[1:-1])
    last = max_year if max_year >= first else first + max_year - 1
    trail = hashlib.sha256()
    kinds: Counter[str] = Counter()
    while not ours.is_game_done:
        phase = ours.get_current_phase()
        if int(phase[1:-1]) > last:
            break
        orders = choose(ours, rng, phase[-1])
        for power, texts in orders.items():
            ours.set_orders(power, texts)
        ours.process()
        trail_step(trail, phase, orders, board(ours))
        kinds[phase[-1]] += 1
    return trail.hexdigest(), kinds


def replay(
    ledger: Path,
    source: str | None = None,
    shard: tuple[int, int] = (0, 1),
    progress: bool = False,
) -> dict[str, Any]:
    """Play again every game of ``ledger`` that has a trail (of ``source`` only, when given;
    the ``k``-th of every ``n`` with ``shard=(k, n)``) on the drop-in alone, with this
    checkout's ruling code, and compare the trails: the figures, and the games whose trail
    differs (their phases were not ruled as the run that wrote the ledger ruled them)."""
    k, n = shard
    games = [g for g in read_ledger(ledger) if "trail" in g]
    if source is not None:
        games = [g for g in games if g.get("source") == source]
    games = [g for i, g in enumerate(games) if i % n == k]
    kinds: Counter[str] = Counter()
    differ: list[dict[str, Any]] = []
    start = time.monotonic()
    for i, g in enumerate(games):
        trail, played = replay_game(
            int(g["seed"]), g["policy"], g["map"], int(g["max_year"]), g.get("edition", "mila")
        )
        kinds.update(played)
        recorded = {k2: int(v) for k2, v in g["phases"].items()}
        if trail != g["trail"] or dict(played) != recorded:
            differ.append({"seed": g["seed"], "policy": g["policy"], "map": g["map"]})
            print(f"TRAIL DIFFERS {json.dumps(differ[-1])}", flush=True)
        if progress and (i + 1) % 100 == 0:
            print(f"{i + 1} of {len(games)} games, {kinds['M']:,} movement phases", flush=True)
    return {
        "ledger": str(ledger),
        "source": source,
        "replayed_on": revision(),
        "shard": f"{k}/{n}",
        "games": len(games),
        "phases": dict(sorted(kinds.items())),
        "movement_phases": kinds["M"],
        "seconds": round(time.monotonic() - start, 1),
        "trails_differ": differ,
    }


def backfill(
    ledger: Path, out: Path, shard: tuple[int, int] = (0, 1), max_year: int = 10
) -> dict[str, Any]:
    """Give the games of ``ledger`` played on this checkout's ruling code before trails were
    kept their trails, by playing each again on the drop-in alone (:func:`replay_game`; with
    the ``max_year`` they all ran with, 10 by default, which the phases played again must bear
    out):
    each such game, with its trail, ``max_year`` and ``"backfilled": true``, is appended to
    ``out``. Sound because every such game agreed with MILA on every phase and the drop-in
    draws its orders from its own lists: alone, it plays the very same game."""
    k, n = shard
    here = revision()
    games = [
        g
        for g in read_ledger(ledger)
        if "trail" not in g and g.get("source") == here and not g.get("differences")
    ]
    games = [g for i, g in enumerate(games) if i % n == k]
    kinds: Counter[str] = Counter()
    unlike: list[int] = []
    start = time.monotonic()
    with out.open("a", encoding="utf-8") as handle:
        for g in games:
            trail, played = replay_game(
                int(g["seed"]), g["policy"], g["map"], max_year, g.get("edition", "mila")
            )
            if dict(played) != {key: int(v) for key, v in g["phases"].items()}:
                unlike.append(int(g["seed"]))
                continue
            kinds.update(played)
            line = dict(g, trail=trail, max_year=max_year, backfilled=True)
            handle.write(json.dumps(line, sort_keys=True) + "\n")
    return {
        "source": here,
        "games": len(games) - len(unlike),
        "movement_phases": kinds["M"],
        "phases_unlike_the_ledger": unlike,
        "seconds": round(time.monotonic() - start, 1),
    }


def _names(text: str, allowed: Sequence[str], what: str) -> list[str]:
    names = list(allowed) if text == "all" else [t.strip() for t in text.split(",") if t.strip()]
    bad = [n for n in names if n not in allowed]
    if bad or not names:
        raise SystemExit(
            f"mila_search: unknown {what} {', '.join(map(repr, bad)) or repr(text)} "
            f"(known: {', '.join(allowed)}, or all)"
        )
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games played (default 10)")
    parser.add_argument(
        "--seed",
        default="0",
        help="the first game's seed, or 'next': one past the largest seed in --ledger",
    )
    parser.add_argument(
        "--ledger",
        type=Path,
        default=None,
        help="a JSON-lines file each played game's figures are appended to (runs of many "
        "sittings and processes add up there)",
    )
    parser.add_argument(
        "--summary",
        action="store_true",
        help="print the --ledger's figures (per source, edition, map and policy) and exit",
    )
    parser.add_argument(
        "--replay",
        action="store_true",
        help="play again, on the drop-in alone, every --ledger game that has a trail, and "
        "compare the trails (exit 1 when one differs); no MILA needed",
    )
    parser.add_argument(
        "--backfill",
        type=Path,
        default=None,
        metavar="OUT",
        help="append to OUT the --ledger games of this checkout's ruling code that have no "
        "trail, each with its trail (played again on the drop-in alone)",
    )
    parser.add_argument(
        "--source", default=None, help="with --replay: only the games of this ruling code"
    )
    parser.add_argument(
        "--shard", default="0/1", metavar="K/N", help="with --replay: the K-th of every N games"
    )
    parser.add_argument("--policy", default="all", help=f"{', '.join(POLICIES)} or all")
    parser.add_argument("--map", default="standard", help="MILA map names, or all")
    parser.add_argument(
        "--max-year",
        type=int,
        default=10,
        help="the last year played; a number below a map's first year counts the years played "
        "(default 10: ten years on every map)",
    )
    parser.add_argument("--out", type=Path, default=None, help="directory for the test cases")
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long")
    parser.add_argument("--report", type=Path, default=None, help="write the figures as JSON")
    from diplo.model.rules import EDITIONS

    parser.add_argument(
        "--edition",
        default="mila",
        choices=tuple(EDITIONS),
        help="the drop-in's edition (default mila; another shows the search finding MILA's "
        "departures)",
    )
    parser.add_argument("--progress", action="store_true", help="a line per game")
    parser.add_argument(
        "--check-possible",
        type=int,
        default=50,
        metavar="N",
        help="compare MILA's possible orders with the drop-in's every N-th phase (0: never)",
    )
    parser.add_argument(
        "--deepmind",
        type=int,
        default=0,
        metavar="N",
        help="on the standard map, compare DeepMind's form (their conversion of MILA's game "
        "beside diplo's DiplomacyState) every N-th phase (0: never)",
    )
    parser.add_argument(
        "--deepmind-code",
        type=Path,
        default=None,
        metavar="PATH",
        help="DeepMind's repository for --deepmind (default: DIPLO_DEEPMIND, else "
        "../shared/deepmind-diplomacy beside the checkout)",
    )
    parser.add_argument(
        "--labels",
        action="store_true",
        help="also compare every phase's result labels (counted by kind, with examples)",
    )
    args = parser.parse_args(argv)
    if args.summary:
        if args.ledger is None or not args.ledger.exists():
            print("mila_search: --summary needs an existing --ledger file", file=sys.stderr)
            return 2
        print(summary(args.ledger))
        return 0
    if args.replay or args.backfill is not None:
        if args.ledger is None or not args.ledger.exists():
            print(
                "mila_search: --replay and --backfill need an existing --ledger file",
                file=sys.stderr,
            )
            return 2
        try:
            k, n = (int(x) for x in args.shard.split("/"))
            if not 0 <= k < n:
                raise ValueError
        except ValueError:
            print(
                f"mila_search: --shard must be K/N with 0 <= K < N, not {args.shard!r}",
                file=sys.stderr,
            )
            return 2
        if args.backfill is not None:
            filled = backfill(args.ledger, args.backfill, (k, n), args.max_year)
            print(json.dumps(filled, indent=1))
            return 1 if filled["phases_unlike_the_ledger"] else 0
        figures = replay(args.ledger, args.source, (k, n), args.progress)
        print(json.dumps(figures, indent=1))
        if args.report is not None:
            args.report.write_text(json.dumps(figures, indent=1) + "\n")
        return 1 if figures["trails_differ"] else 0
    if args.seed == "next":
        if args.ledger is None:
            print("mila_search: --seed next needs --ledger", file=sys.stderr)
            return 2
        seed = next_seed(args.ledger, 0)
    else:
        try:
            seed = int(args.seed)
        except ValueError:
            print(
                f"mila_search: --seed must be a number or 'next', not {args.seed!r}",
                file=sys.stderr,
            )
            return 2
    deepmind = None
    if args.deepmind:
        import os

        if args.deepmind < 0:
            print("mila_search: --deepmind must be 0 (never) or more", file=sys.stderr)
            return 2
        default = Path(__file__).resolve().parents[1].parent / "shared" / "deepmind-diplomacy"
        code = args.deepmind_code or Path(os.environ.get("DIPLO_DEEPMIND") or default)
        deepmind = (code, args.deepmind)
    policies = _names(args.policy, POLICIES, "policy")
    maps = _names(args.map, MILA_MAPS, "map")
    if args.games < 1 or args.max_year < 0:
        print("mila_search: --games must be at least 1 and --max-year at least 0", file=sys.stderr)
        return 2
    try:
        tally = search(
            args.games,
            seed,
            policies,
            maps,
            args.max_year,
            args.out,
            args.seconds,
            args.edition,
            args.progress,
            args.report,
            args.check_possible,
            args.labels,
            args.ledger,
            deepmind,
        )
    except MilaMissing as exc:
        print(exc, file=sys.stderr)
        return 2
    figures = tally.to_json()
    rate = tally.movement() / max(tally.seconds, 1e-9)
    print(
        f"{tally.games} games, {sum(tally.phases.values())} phases ({tally.movement()} "
        f"movement) in {tally.seconds:.1f} s ({rate:.1f} movement phases/s); "
        f"{len(tally.differences)} differences, {sum(tally.labels.values())} label differences"
    )
    for key, n in tally.labels.most_common():
        print(f"{n:8d}  labels {key}")
    for key, n in sorted(tally.phases.items()):
        print(f"{n:8d}  {key}")
    if args.report is not None:
        args.report.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
