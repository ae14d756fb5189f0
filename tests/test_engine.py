"""The Rust game engine behind the object API rules exactly as the readable Python reference.

``process_phase(..., "rust")`` runs every phase kind in the engine (:mod:`diplo.engine`);
``process_phase(..., "python")`` is the reference. On generated positions of every phase kind
(movement boards heavy with convoys, retreats with clashing retreats, adjustments with builds,
waives, over-ordering and civil disorder) and along whole random games to a solo or the year
limit, every result (legality, success, code, reason sentence, dislodger), every dislodged unit
with its options, the next position and the winner must be the same, with orders given as
``Order`` objects, as canonical strings and in other notations, with illegal, unparsable,
foreign, repeated and contradictory orders mixed in. The engine's validation must give the same
reason code as :mod:`diplo.validation` for every order it rules on.

The number of generated phases is ``DIPLO_CROSSCHECK_EXAMPLES`` (default 2,000, as
``tests/test_backends_agree.py``); the long run before a release:
``DIPLO_CROSSCHECK_EXAMPLES=200000 pytest tests/test_engine.py -k generated``.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diplo.api.game import Game
from diplo.api.legal import legal_order_texts
from diplo.api.phase import process_phase
from diplo.api.player import RandomPlayer
from diplo.model.map import standard_map
from diplo.model.orders import Build, Convoy, Move, Order, Unit, format_order
from diplo.model.position import Phase, Piece, Position
from diplo.model.results import PhaseOutcome
from diplo.reference.legal import legal_orders
from diplo.reference.validation import validate

from generators import (
    convoy_heavy_position,
    random_adjustment_position,
    random_orders,
    random_position,
    random_retreat_position,
)

M = standard_map()
EXAMPLES = int(os.environ.get("DIPLO_CROSSCHECK_EXAMPLES", "2000"))
Orders = Mapping[str, Sequence[str | Order]]


def assert_same(position: Position, orders: Orders) -> tuple[PhaseOutcome, PhaseOutcome]:
    """Both backends on one phase: everything they report must be equal."""
    ref = process_phase(position, orders, "python")
    eng = process_phase(position, orders, "rust")
    where = (position.to_json(), {p: [str(o) for o in os] for p, os in orders.items()})
    assert eng.results == ref.results, where
    assert eng.dislodged == ref.dislodged, where
    assert eng.next == ref.next and ref.next == eng.next, where
    assert eng.next.to_json() == ref.next.to_json(), where
    assert eng.winner == ref.winner, where
    assert eng.to_json() == ref.to_json(), where
    # The text diplo adjudicate --jsonl writes (the engine's straight from its rows).
    text = process_phase(position, orders, "rust").to_json_text()
    assert text == json.dumps(ref.to_json()), where
    assert_same_reasons(position, orders)
    return ref, eng


def assert_same_reasons(position: Position, orders: Orders) -> None:
    """Item by item, the engine's reason code is validation's (for what reaches the engine)."""
    from diplo.engine.objects import engine_reasons

    rulings = validate(position, orders).rulings
    mine = engine_reasons(position, orders)
    assert len(mine) == len(rulings)
    for ruling, code in zip(rulings, mine, strict=True):
        if code is None:
            assert not ruling.legal, ruling  # only illegal orders are ruled before the engine
        else:
            assert code == ruling.code, (position.to_json(), ruling)


# --------------------------------------------------------------------------- generated phases


def retreat_position(rng: random.Random) -> Position:
    return random_retreat_position(M, rng)


def adjustment_position(rng: random.Random) -> Position:
    return random_adjustment_position(M, rng, any_rules=True)


def noise_texts(rng: random.Random, position: Position) -> list[str]:
    """Orders of every kind for random places: wrong phase, foreign, illegal, unparsable."""
    provinces = list(M.provinces)
    out: list[str] = []
    for _ in range(rng.randint(0, 5)):
        prov = rng.choice(provinces)
        loc = rng.choice(M.coasts_of(prov) or (prov,))
        other = rng.choice(provinces)
        kind = rng.choice("AF")
        roll = rng.random()
        if position.dislodged and rng.random() < 0.3:
            # A dislodged unit retreating anywhere near (options or not), or to a bare province.
            piece = rng.choice(list(position.dislodged.values())).piece
            near = M.army_neighbours(piece.province) | {M.province_of(loc), other}
            out.append(f"{piece} R {rng.choice(sorted(near))}")
        elif roll < 0.15:
            out.append(f"{kind} {loc} B")
        elif roll < 0.25:
            out.append(f"{kind} {prov} B")
        elif roll < 0.35:
            out.append("WAIVE")
        elif roll < 0.45:
            out.append(f"{kind} {loc} D")
        elif roll < 0.6:
            out.append(f"{kind} {loc} R {rng.choice(M.coasts_of(other) or (other,))}")
        elif roll < 0.7:
            out.append(f"{kind} {loc} - {other}")
        elif roll < 0.78:
            out.append(f"{kind} {loc} S A {other}")
        elif roll < 0.85:
            out.append(f"{kind} {loc} H")
        elif roll < 0.9:
            out.append(f"the {kind} in {prov} dances")
        elif roll < 0.95:
            out.append(f"{rng.choice(M.powers)}: {kind} {loc} H")
        else:
            out.append(f"{kind.lower()} {M.provinces[prov].name} holds")
    return out


def legal_choices(rng: random.Random, position: Position) -> dict[str, list[str | Order]]:
    """A random legal order for most slots (as objects or texts), by owner."""
    orders: dict[str, list[str | Order]] = {}
    for power in M.powers:
        for _key, options in legal_orders(position, power).items():
            if rng.random() < 0.85:
                order = rng.choice(options)
                item: str | Order = format_order(order) if rng.random() < 0.5 else order
                orders.setdefault(power, []).append(item)
                if rng.random() < 0.05:
                    orders[power].append(item)  # the same order twice
    return orders


def generated_phase(seed: int) -> tuple[Position, dict[str, list[str | Order]]]:
    rng = random.Random(seed)
    roll = rng.random()
    if roll < 0.25:
        position = convoy_heavy_position(M, rng)
    elif roll < 0.45:
        position = random_position(M, rng, count=rng.randint(20, 34))
    elif roll < 0.7:
        position = retreat_position(rng)
    else:
        position = adjustment_position(rng)
    if position.phase.kind == "M" and rng.random() < 0.7:
        orders: dict[str, list[str | Order]] = {
            p: list(ts) for p, ts in random_orders(M, position, rng).items()
        }
    else:
        orders = legal_choices(rng, position)
    for text in noise_texts(rng, position):
        orders.setdefault(rng.choice(M.powers), []).append(text)
    if position.phase.kind == "A" and rng.random() < 0.5:
        # Builds on a power's own home centres: some occupied, some not owned, some fine.
        power = rng.choice(M.powers)
        homes = sorted(M.homes[power])
        orders.setdefault(power, []).extend(f"A {h} B" for h in rng.sample(homes, 2))
        # And on any centre (a build site only where the rules let a power build anywhere).
        elsewhere = rng.choice(sorted(M.centers))
        orders.setdefault(power, []).append(f"{rng.choice('AF')} {elsewhere} B")
    for power in list(orders):
        rng.shuffle(orders[power])
    return position, orders


@settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=False
)
@given(st.integers(min_value=0, max_value=2**63 - 1))
def test_generated_phases_of_every_kind_agree(seed: int) -> None:
    assert_same(*generated_phase(seed))


@pytest.mark.parametrize("seed", range(300))
def test_generated_phases_agree_on_fixed_seeds(seed: int) -> None:
    assert_same(*generated_phase(seed))


def test_the_generated_phases_cover_every_kind_and_result() -> None:
    """The generator reaches what the cross-check is for: every phase kind, illegal orders with
    many reasons, retreat clashes, void builds, waives and civil-disorder disbands."""
    kinds: set[str] = set()
    codes: set[str] = set()
    reasons: set[str] = set()
    implied: set[str] = set()
    for seed in range(300):
        position, orders = generated_phase(seed)
        outcome = process_phase(position, orders, "rust")
        kinds.add(position.phase.kind)
        codes.update(f"{position.phase.kind}:{r.code}" for r in outcome.results)
        reasons.update(r.code for r in validate(position, orders).rulings)
        implied.update(r.order.split()[-1] for r in outcome.results if not r.given)
    assert kinds == {"M", "R", "A"}
    assert {"M:bounce", "M:dislodged", "M:cut", "R:bounce", "A:void", "A:ok"} <= codes
    assert {"wrong_phase", "foreign_unit", "unparsable", "not_adjacent", "bad_retreat"} <= reasons
    assert {"no_builds", "not_home_center", "multiple_orders"} <= reasons
    assert {"H", "D", "WAIVE"} <= implied


# --------------------------------------------------------------------------- whole games


def play_compared(seed: int, max_year: int, as_text: bool) -> Game:
    """A random game on the reference; every phase also ruled by the engine and compared."""
    game = Game(backend="python", max_year=max_year)
    player = RandomPlayer(random.Random(seed))
    rng = random.Random(-seed)
    while not game.is_over:
        position = game.position
        for power in game.orderable_powers():
            chosen = player.orders(position, power)
            items: list[str | Order] = []
            if as_text:
                items.extend(format_order(o) for o in chosen)
            else:
                items.extend(chosen)
            if rng.random() < 0.1:
                items.extend(noise_texts(rng, position)[:1])
            game.set_orders(power, items)
        orders = game.orders
        ref = game.process()
        _, eng = assert_same(position, orders)
        assert eng == ref
    return game


@pytest.mark.parametrize("seed", range(6))
def test_whole_games_agree_phase_by_phase(seed: int) -> None:
    game = play_compared(seed, 1912, as_text=seed % 2 == 0)
    assert {"M", "A"} <= {r.phase.kind for r in game.history}


def test_a_game_to_a_solo_agrees() -> None:
    """Long enough for somebody to win or the limit to come: game end and civil disorder."""
    game = play_compared(7, 1935, as_text=True)
    assert game.is_over


def test_games_on_both_backends_are_the_same_game() -> None:
    from diplo.apps.play import play_game

    for seed in range(3):
        ours = play_game(seed, 1908, "python")
        theirs = play_game(seed, 1908, "rust")
        assert [r.outcome.to_json() for r in theirs.history] == [
            r.outcome.to_json() for r in ours.history
        ]
        assert theirs.position == ours.position


# --------------------------------------------------------------------------- the engine's objects


def test_engine_positions_behave_as_positions() -> None:
    import copy
    import pickle

    position = Position.initial(M)
    outcome = process_phase(position, {"FRANCE": ["A PAR - BUR", "F BRE - MAO"]})
    nxt = outcome.next
    assert isinstance(nxt, Position)
    plain = Position(M, nxt.phase, dict(nxt.units), dict(nxt.centers), dict(nxt.dislodged))
    assert nxt == plain and plain == nxt
    assert pickle.loads(pickle.dumps(nxt)) == plain
    assert copy.deepcopy(nxt) == plain
    assert pickle.loads(pickle.dumps(outcome)) == outcome
    assert nxt.units["BUR"] == Piece("FRANCE", "A", "BUR")
    assert repr(plain) == repr(nxt)
    # The engine's position plays on; the old one is untouched.
    again = process_phase(nxt, {"FRANCE": ["A BUR - MUN"]})
    assert again == process_phase(plain, {"FRANCE": ["A BUR - MUN"]}, "python")
    assert again.next.phase == Phase.parse("S1902M")
    assert nxt == plain


def test_other_notations_rule_as_the_canonical_form() -> None:
    position = Position.initial(M)
    canonical = process_phase(position, {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]})
    prose = process_phase(
        position, {"FRANCE": ["FRANCE: army paris moves to burgundy"], "GERMANY": ["a mun-bur"]}
    )
    assert [r.code for r in prose.results] == [r.code for r in canonical.results]
    assert [r.order for r in prose.results] == [r.order for r in canonical.results]
    assert prose.next == canonical.next


def test_replacing_fields_of_engine_objects_gives_plain_objects() -> None:
    from dataclasses import replace

    position = Position.initial(M)
    outcome = process_phase(position, {"FRANCE": ["A PAR - BUR"]})
    changed = replace(outcome, winner="FRANCE")
    assert type(changed) is PhaseOutcome
    assert changed.results == outcome.results and changed.winner == "FRANCE"
    moved = replace(outcome.next, centers={})
    assert type(moved) is Position
    assert moved.units == outcome.next.units and moved.centers == {}


def test_every_adjustment_reason_alike() -> None:
    """A winter where France may build two, Italy owes a disband and England neither: builds,
    disbands and waives refused for every reason validation knows, given by every power."""
    units = {
        "PAR": Piece("FRANCE", "A", "PAR"),
        "ROM": Piece("ITALY", "A", "ROM"),
        "NAP": Piece("ITALY", "F", "NAP"),
        "LON": Piece("ENGLAND", "F", "LON"),
    }
    centers = {"PAR": "FRANCE", "MAR": "FRANCE", "BRE": "FRANCE", "ROM": "ITALY"}
    centers["LON"] = "ENGLAND"
    position = Position(M, Phase.parse("W1901A"), units, centers)
    orders: dict[str, list[str | Order]] = {
        "FRANCE": ["A PAR B", "F MAR B", "A BUR B", "A ROM B", "F BRE B", "A MAR D", "WAIVE"],
        "ITALY": ["A VEN B", "WAIVE", "A PAR D", "F NAP D", "F ROM D"],
        "ENGLAND": ["WAIVE", "F LON D", "F EDI B", "A MUN B"],
        "RUSSIA": ["F STP B", "A STP/NC B"],
    }
    assert_same(position, orders)
    codes = {r.code for r in validate(position, orders).rulings}
    assert {"occupied", "not_home_center", "no_builds", "no_disbands", "foreign_unit"} <= codes


def test_the_core_reads_canonical_texts_as_the_parser_does() -> None:
    """Every text the engine lists (and every canonical noise text) is read by the core's
    strict reader into the code of the order the general parser reads; other notations are
    left to the parser."""
    from diplo.api.legal import legal_order_texts
    from diplo.engine.codes import encode_order
    from diplo.engine.compile import code_map
    from diplo.model.orders import OrderParseError, parse_order

    table = code_map(M)
    seen = 0
    for seed in range(60):
        rng = random.Random(seed)
        position, _ = generated_phase(seed)
        texts = [t for ts in legal_order_texts(position).values() for t in ts]
        texts += noise_texts(rng, position)
        for text in texts:
            try:
                order = parse_order(text, M)
            except OrderParseError:
                assert table.parse_canonical(text) is None, text
                continue
            if text == "WAIVE" or format_order(order) != text:
                assert table.parse_canonical(text) is None, text
                continue
            try:
                expected = encode_order(order, M)
            except ValueError:
                expected = None
            assert table.parse_canonical(text) == expected, text
            seen += 1
    assert seen > 1000
    for other in (
        "a par - bur",
        "A PAR -> BUR",
        "A Paris - BUR",
        "A PAR - BUR ",
        "FRANCE: A PAR H",
    ):
        assert table.parse_canonical(other) is None


def test_one_order_from_every_slot_never_voids_a_build_by_a_waive() -> None:
    """Both APIs, one shape (the WAIVE problem): winters where powers may build more or fewer
    units than they have sites; one random order per slot, in slot order. Removing the chosen
    waives changes no chosen build's result, so no waive voided a build."""
    from diplo.engine.codes import RESULT_CODES, CodeGame

    checked = 0
    for seed in range(150):
        rng = random.Random(seed)
        position = adjustment_position(rng)
        chosen = {
            p: [rng.choice(v) for v in legal_order_texts(position, p).values()] for p in M.powers
        }
        chosen = {p: v for p, v in chosen.items() if v}
        without = {p: [t for t in v if t != "WAIVE"] for p, v in chosen.items()}
        full = process_phase(position, chosen)
        bare = process_phase(position, without)
        builds = [r for r in full.results if r.given and r.order.endswith(" B")]
        assert builds == [r for r in bare.results if r.given and r.order.endswith(" B")]
        checked += sum(1 for v in chosen.values() if "WAIVE" in v)
        # The code API's slots, one code from each in slot order: the same builds.
        game = CodeGame(position)
        codes = [rng.choice(v) for v in game.legal_orders()]
        game.set_orders(codes)
        done = game.process()
        slow_codes = [c for c in codes if c & 0xF != 8]  # the waives left out
        bare_game = CodeGame(position)
        bare_game.set_orders(slow_codes)
        bare_codes = bare_game.process().result_codes()
        with_waive = [r for c, r in zip(codes, done.result_codes(), strict=True) if c & 0xF == 7]
        assert with_waive == [
            r for c, r in zip(slow_codes, bare_codes, strict=True) if c & 0xF == 7
        ], RESULT_CODES
    assert checked > 50


def test_orders_of_a_power_the_map_does_not_have_are_refused_alike() -> None:
    position = Position.initial(M)
    orders = {"MARS": ["A PAR - BUR"], "FRANCE": ["A PAR - PIC", "F BRE - MAO"]}
    for backend in ("python", "rust"):
        with pytest.raises(ValueError, match="unknown power 'MARS'"):
            process_phase(position, orders, backend)
    assert process_phase(position, {}) == process_phase(position, {}, "python")


def test_the_engine_reads_documents_as_position_from_json() -> None:
    """A document in the canonical form (without dislodged units) is read by the engine, equal
    to ``Position.from_json``; any other (lower case, full names, errors) is left to it."""
    from diplo.engine.objects import read_position

    for seed in range(200):
        position, _ = generated_phase(seed)
        doc = position.to_json()
        mine = read_position(doc, M)
        if position.dislodged or "rules" in doc:
            # Retreat options are checked against the board, and rules read, by
            # Position.from_json alone.
            assert mine is None
            continue
        assert mine is not None, doc
        assert mine == Position.from_json(doc, M), doc
        assert mine.to_json() == doc
    doc = Position.initial(M).to_json()
    assert read_position({**doc, "phase": "s1901m"}, M) is None
    assert read_position({**doc, "units": {"FRANCE": ["A Paris"]}}, M) is None
    assert read_position({**doc, "units": {"FRANCE": ["A PAR", "A PAR"]}}, M) is None
    assert read_position({**doc, "units": {"FRANCE": ["F MOS"]}}, M) is None
    assert read_position({**doc, "centers": {"FRANCE": ["BUR"]}}, M) is None
    assert read_position({**doc, "phase": "S10000M"}, M) is None  # past diplo.checks.MAX_YEAR


def test_legal_order_texts_from_the_engine_are_the_reference_s() -> None:
    """Same keys in the same order, same texts in the same order, for every power and all."""
    from diplo.api.game import Game

    positions = [generated_phase(seed)[0] for seed in range(150)]
    game = play_compared(11, 1903, as_text=True)
    positions += [record.position for record in game.history]
    for position in positions:
        for power in (None, *M.powers):
            ours = legal_order_texts(position, power, "python")
            theirs = legal_order_texts(position, power, "rust")
            assert list(theirs.items()) == list(ours.items()), (position.to_json(), power)
        rust_game = Game.from_position(position, backend="rust")
        python_game = Game.from_position(position, backend="python")
        assert rust_game.orderable_powers() == python_game.orderable_powers()


def test_legal_order_texts_from_the_engine_are_the_callers_to_change() -> None:
    """The engine's lists are made per call: changing one changes no later answer."""
    position = generated_phase(3)[0]
    for power in (None, *M.powers):
        first = legal_order_texts(position, power, "rust")
        expected = {k: list(v) for k, v in first.items()}
        for texts in first.values():
            texts.clear()
        first.clear()
        assert legal_order_texts(position, power, "rust") == expected


class _MyMove(Move):
    """An order object of a subclass of an order class (the core reads only the classes)."""


def test_refusals_the_engine_cannot_encode_agree() -> None:
    """Orders that never become a code (unreadable, for another power, a place the map lacks,
    an untyped build where the place does not say which, a subclass's object) are refused with
    the same code and sentence on both backends, and so is every refusal of a build."""
    game_map = standard_map()
    units = {
        "MOS": Piece("RUSSIA", "A", "MOS"),
        "SEV": Piece("RUSSIA", "F", "SEV"),
        "PAR": Piece("FRANCE", "A", "PAR"),
    }
    owned = {c: "RUSSIA" for c in ("MOS", "SEV", "STP", "WAR", "RUM")}
    winter = Position(game_map, Phase(1901, "W", "A"), units, owned)
    outcome, _ = assert_same(
        winter,
        {
            "RUSSIA": [
                "Build St Petersburg",  # coastal, no coast: army or fleet? (DATC 4.C.3)
                "Build Rumania",  # an untyped build refused before its type: not home
                "FRANCE: A WAR B",  # written for another power
                "A WAR B B B",  # unreadable
                Build(Unit(None, "SEV")),  # occupied, before its type
            ],
            "FRANCE": ["Build Brest"],  # France has no build to make
        },
    )
    codes = [r.code for r in outcome.results if r.given]
    assert codes == ["illegal"] * 6
    spring = Position(game_map, Phase(1901, "S", "M"), units, owned)
    outcome, _ = assert_same(
        spring,
        {
            "RUSSIA": [
                Move(Unit("A", "MOS"), "XYZ"),  # a place the map does not have
                Build(Unit(None, "STP")),  # an untyped build in a movement phase
                _MyMove(Unit("F", "SEV"), "BLA"),  # legal, read through its base class
            ],
            "FRANCE": [Convoy(Unit("A", "PAR"), Unit("A", "UKR"), "MOS")],  # inland, no army
        },
    )
    assert [r.legal for r in outcome.results if r.given] == [False, False, True, False]
