"""The code API (``diplo.engine.codes``) against the reference: the reason two implementations
exist.

(a) Legal orders: on generated positions of every phase kind and on positions reached in random
    self-play, every slot of :meth:`CodeGame.legal_orders`, decoded, is exactly the corresponding
    entry of :func:`diplo.api.legal.legal_orders`, and the slots come in the order of its keys.
(b) Rulings: random self-play games, with the RandomPlayer's orders encoded and random, malformed,
    illegal, duplicated and contradictory codes mixed in, played through :class:`CodeGame` and
    through ``process_phase(position, orders, "python")`` give the same result and success for every
    submitted order, the same implied holds / disbands / waives, the same position after every
    phase (``Position.to_json()``), the same phases, winner and end. Single phases on generated
    positions (convoy-heavy boards, retreats, adjustments) are compared the same way.
(c) ``process_batch`` rules exactly as one-by-one processing, on any number of threads.

``DIPLO_FAST_GAMES`` sets the number of self-play games (default 30; the release run is
``DIPLO_FAST_GAMES=200 pytest tests/test_codes.py``), each played to ``DIPLO_FAST_YEARS`` years
(default 10). ``DIPLO_FAST_POSITIONS`` sets the number of generated positions (default 300).
"""

from __future__ import annotations

import array
import os
import random
from concurrent.futures import ThreadPoolExecutor

import pytest

from diplo.api.game import GameOverError
from diplo.api.phase import process_phase
from diplo.api.player import RandomPlayer
from diplo.engine import codes as fast
from diplo.engine.codes import CodeGame, decode_order, encode_order, process_batch
from diplo.model.map import Map, standard_map
from diplo.model.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
    format_order,
)
from diplo.model.position import Phase, Piece, Position
from diplo.reference.legal import legal_orders

from generators import (
    convoy_heavy_position,
    random_adjustment_position,
    random_orders,
    random_position,
    random_retreat_position,
)

M = standard_map()
GAMES = int(os.environ.get("DIPLO_FAST_GAMES", "30"))
YEARS = int(os.environ.get("DIPLO_FAST_YEARS", "10"))
POSITIONS = int(os.environ.get("DIPLO_FAST_POSITIONS", "300"))
FIRST_POWER = M.powers[0]


# --------------------------------------------------------------------------- helpers


def power_of(code: int, position: Position) -> str:
    """The power the code API takes a code to be from (its unit's owner, the home power of a
    build, the power a waive names); any power for a code that names nobody's unit (it is illegal
    whoever sends it)."""
    game_map = position.map
    try:
        order = decode_order(code, game_map)
    except ValueError:
        return FIRST_POWER
    if isinstance(order, Waive):
        return game_map.powers[code >> 4 & 0x7F]
    prov = game_map.province_of(order.unit.loc)
    if isinstance(order, Build):
        return game_map.provinces[prov].home or FIRST_POWER
    if position.phase.kind == "R" and prov in position.dislodged:
        return position.dislodged[prov].piece.power
    piece = position.units.get(prov)
    return piece.power if piece is not None else FIRST_POWER


def slow_orders(
    codes: list[int], position: Position
) -> tuple[dict[str, list[str | Order]], list[int]]:
    """The codes as ``process_phase`` takes them, grouped by power (in order of first
    appearance, order kept within a power), and for each code the index of its ruling."""
    groups: dict[str, list[tuple[int, str | Order]]] = {}
    for i, code in enumerate(codes):
        try:
            item: str | Order = decode_order(code, position.map)
        except ValueError:
            item = "garbage order"
        groups.setdefault(power_of(code, position), []).append((i, item))
    ruling_of = [0] * len(codes)
    orders: dict[str, list[str | Order]] = {}
    n = 0
    for power, items in groups.items():
        orders[power] = [item for _, item in items]
        for i, _ in items:
            ruling_of[i] = n
            n += 1
    return orders, ruling_of


def implied_fast(done: fast.Outcome, before: Position) -> list[tuple[str | None, str, str, bool]]:
    out = []
    for code, result, success in done.implied_results():
        order = decode_order(code, M, before)
        power = power_of(code, before)
        out.append((power, format_order(order), fast.RESULT_CODES[result], success))
    return sorted(out, key=repr)


def check_legal(game: CodeGame, position: Position) -> None:
    """(a): every slot equals the reference listing; the codes are in normal form."""
    reference = legal_orders(position)
    slots = game.slots()
    lists = game.legal_orders()
    assert len(slots) == len(lists)
    seen: set[str] = set()
    for (power, key), codes in zip(slots, lists, strict=True):
        decoded = [decode_order(c, M, position) for c in codes]
        assert len(set(codes)) == len(codes), (position.to_json(), key)
        expected = list(reference[key])
        seen.add(key)
        assert sorted(map(format_order, decoded)) == sorted(map(format_order, expected)), (
            position.to_json(),
            key,
        )
        assert set(decoded) == set(expected)
        for code, order in zip(codes, decoded, strict=True):
            # Round trip: a listed code is the code of the order it decodes to.
            assert encode_order(order, M, power) == code
    assert seen == set(reference), (position.to_json(), sorted(set(reference) - seen))
    # One shape for both APIs: the same keys, power by power, the waive's last in both.
    for power in M.powers:
        mine = [key for p, key in slots if p == power]
        theirs = list(legal_orders(position, power))
        assert sorted(mine) == sorted(theirs), (position.to_json(), power)
        if power in mine:
            assert mine[-1] == theirs[-1] == power, (position.to_json(), power)


def compare_phase(
    game: CodeGame, position: Position, codes: list[int]
) -> tuple[Position, str | None]:
    """(b) for one phase: process ``codes`` both ways and compare everything."""
    orders, ruling_of = slow_orders(codes, position)
    outcome = process_phase(position, orders, "python")
    game.set_orders(codes)
    done = game.process()
    results = done.result_codes()
    success = done.result_success()
    assert len(results) == len(codes)
    for i, code in enumerate(codes):
        slow = outcome.results[ruling_of[i]]
        got = (fast.RESULT_CODES[results[i]], success[i])
        assert got == (slow.code, slow.success), (position.to_json(), code, slow)
    rulings = sum(len(v) for v in orders.values())
    slow_implied = sorted(
        ((r.power, r.order, r.code, r.success) for r in outcome.results[rulings:]), key=repr
    )
    assert implied_fast(done, position) == slow_implied, position.to_json()
    assert game.position().to_json() == outcome.next.to_json(), position.to_json()
    assert game.position() == outcome.next
    return outcome.next, outcome.winner


def noise(rng: random.Random, game: CodeGame, chosen: list[int]) -> list[int]:
    """Random extra codes: legal ones of other slots, repeats, contradictions, well-formed
    illegal codes, malformed ones and out-of-range integers, shuffled in."""
    codes = list(chosen)
    lists = game.legal_orders()
    for _ in range(rng.randint(0, 4)):
        roll = rng.random()
        if roll < 0.25 and codes:
            codes.append(rng.choice(codes))  # the same order twice counts once
        elif roll < 0.45 and lists:
            codes.append(rng.choice(rng.choice(lists)))  # may contradict (DATC 4.D.3)
        elif roll < 0.8:
            kind = rng.randint(0, 8)
            loc = rng.randrange(len(M.powers) if kind == 8 else len(M.locations))
            a = rng.randrange(len(M.provinces) if kind in (2, 3, 4) else len(M.locations))
            b = rng.randrange(len(M.provinces) if kind == 4 else len(M.locations))
            code = kind | loc << 4
            if kind in (1, 2, 3, 4, 5):
                code |= a << 11
            if kind in (3, 4):
                code |= b << 18
            if kind == 1 and rng.random() < 0.3:
                code |= fast.VIA
            if kind == 7 and rng.random() < 0.5:
                code |= fast.FLEET
            codes.append(code)
        elif roll < 0.95:
            codes.append(rng.getrandbits(32))
        else:
            codes.append(rng.choice([-1, 2**40, 15]))
    rng.shuffle(codes)
    return codes


def player_codes(player: RandomPlayer, position: Position) -> list[int]:
    codes = []
    for power in position.map.powers:
        for order in player.orders(position, power):
            codes.append(encode_order(order, position.map, power))
    return codes


# --------------------------------------------------------------------------- encoding


def test_encoding_layout_and_round_trip() -> None:
    index = M.location_index
    order: Order = SupportMove(Unit("F", "MAO"), Unit("F", "GAS"), "SPA/NC")
    code = encode_order(order, M)
    assert code & 0xF == fast.SUPPORT_MOVE
    assert code >> 4 & 0x7F == index["MAO"]
    assert code >> 11 & 0x7F == index["GAS"]
    assert code >> 18 & 0x7F == index["SPA/NC"]
    assert code < 2**27  # a map of at most 128 locations: the high bits are zero
    assert decode_order(code, M) == SupportMove(Unit(None, "MAO"), Unit(None, "GAS"), "SPA/NC")
    move = encode_order(Move(Unit("A", "LON"), "BEL", True), M)
    assert move == fast.MOVE | index["LON"] << 4 | index["BEL"] << 11 | fast.VIA
    assert fast.VIA == 1 << 25 and fast.FLEET == 1 << 26
    build = encode_order(Build(Unit("F", "STP/NC")), M)
    assert build == fast.BUILD | index["STP/NC"] << 4 | fast.FLEET
    assert decode_order(build, M) == Build(Unit("F", "STP/NC"))
    assert encode_order(Build(Unit(None, "STP/SC")), M) == fast.BUILD | index["STP/SC"] << 4 | (
        fast.FLEET
    )
    assert encode_order(Waive(), M, "FRANCE") == fast.WAIVE | M.powers.index("FRANCE") << 4
    assert decode_order(fast.WAIVE | 2 << 4, M) == Waive()
    for order in (
        Hold(Unit("F", "STP/SC")),
        Convoy(Unit("F", "NTH"), Unit("A", "LON"), "NWY"),
        SupportHold(Unit("A", "PAR"), Unit("F", "BRE")),
        Retreat(Unit("F", "SPA/SC"), "MAR"),
        Disband(Unit("A", "MUN")),
    ):
        code = encode_order(order, M)
        assert encode_order(decode_order(code, M), M) == code
    with pytest.raises(ValueError):
        encode_order(Waive(), M)
    with pytest.raises(ValueError):
        encode_order(Build(Unit(None, "LON")), M)  # army or fleet? (DATC 4.C.3)
    with pytest.raises(ValueError):
        encode_order(Hold(Unit("A", "XXX")), M)
    for bad in (-1, 2**64, 1 << 36, 9, 15, fast.HOLD | 81 << 4, fast.SUPPORT_HOLD | 80 << 11):
        with pytest.raises(ValueError):
            decode_order(bad, M)


def test_decoding_with_the_position_types_the_units() -> None:
    pos = Position.initial(M)
    index = M.location_index
    code = fast.SUPPORT_MOVE | index["BRE"] << 4 | index["PAR"] << 11 | index["PIC"] << 18
    assert decode_order(code, M, pos) == SupportMove(Unit("F", "BRE"), Unit("A", "PAR"), "PIC")
    stp = fast.HOLD | index["STP/SC"] << 4
    assert decode_order(stp, M, pos) == Hold(Unit("F", "STP/SC"))


# --------------------------------------------------------------------------- (a) legal orders


def test_opening_position_lists_match_the_reference() -> None:
    game = CodeGame()
    assert game.phase == "S1901M"
    assert [key for _, key in game.slots()] == sorted(
        (p.province for p in Position.initial(M).units.values()), key=M.location_index.__getitem__
    )
    check_legal(game, Position.initial(M))


def retreat_position(rng: random.Random) -> Position:
    # Some dislodged units share a province with a unit; options lead only to empty provinces.
    return random_retreat_position(M, rng, option_chance=0.6)


def adjustment_position(rng: random.Random) -> Position:
    return random_adjustment_position(M, rng)


def generated_position(rng: random.Random) -> Position:
    roll = rng.random()
    if roll < 0.3:
        return convoy_heavy_position(M, rng)
    if roll < 0.55:
        return random_position(M, rng, count=rng.randint(20, 34))
    if roll < 0.75:
        return retreat_position(rng)
    return adjustment_position(rng)


@pytest.mark.parametrize("chunk", range(4))
def test_generated_positions_list_what_the_reference_lists(chunk: int) -> None:
    for seed in range(chunk, POSITIONS, 4):
        rng = random.Random(seed)
        position = generated_position(rng)
        check_legal(CodeGame(position), position)


# --------------------------------------------------------------------------- (b) rulings


def text_codes(rng: random.Random, position: Position) -> list[int]:
    """The generators' movement orders (convoy chains, supports, illegal moves) as codes."""
    from diplo.model.orders import OrderParseError, parse_order

    codes = []
    for texts in random_orders(M, position, rng).values():
        for text in texts:
            try:
                codes.append(encode_order(parse_order(text, M), M))
            except (OrderParseError, ValueError):
                codes.append(rng.getrandbits(32))
    return codes


@pytest.mark.parametrize("chunk", range(4))
def test_generated_phases_rule_like_the_reference(chunk: int) -> None:
    for seed in range(chunk, POSITIONS, 4):
        rng = random.Random(10_000 + seed)
        position = generated_position(rng)
        game = CodeGame(position)
        if position.phase.kind == "M" and rng.random() < 0.7:
            codes = text_codes(rng, position)
        else:
            lists = game.legal_orders()
            codes = [rng.choice(options) for options in lists if rng.random() < 0.9]
        compare_phase(game, position, noise(rng, game, codes))


def play_both(
    seed: int, years: int = YEARS, start: Position | None = None
) -> tuple[int, str | None]:
    """(a) and (b) along one random self-play game; returns the number of phases played and
    the winner."""
    rng = random.Random(seed)
    player = RandomPlayer(random.Random(seed))
    position = start or Position.initial(M)
    max_year = position.phase.year - 1 + years
    game = CodeGame(position, max_year)
    phases = 0
    while True:
        assert game.phase == str(position.phase)
        if rng.random() < 0.3:
            check_legal(game, position)
        codes = player_codes(player, position)
        if rng.random() < 0.5:
            codes = noise(rng, game, codes)
        position, winner = compare_phase(game, position, codes)
        phases += 1
        over = winner is not None or position.phase.year > max_year
        assert game.is_over == over
        assert game.winner == winner
        if over:
            assert game.phase == str(position.phase)
            assert game.legal_orders() == [] and game.slots() == []
            with pytest.raises(GameOverError):
                game.process()
            return phases, winner


@pytest.mark.parametrize("chunk", range(6))
def test_self_play_games_rule_like_the_reference(chunk: int) -> None:
    for seed in range(chunk, GAMES, 6):
        assert play_both(seed)[0] > 0


@pytest.mark.slow
def test_long_self_play_game_to_a_solo_or_the_limit() -> None:
    assert play_both(12345, years=60)[0] > 0


def test_games_near_a_solo_end_alike() -> None:
    # France owns 17 centres and has armies next to the others: random play soon crosses 18.
    doc = {
        "phase": "S1905M",
        "units": {
            "FRANCE": [
                "A BUR",
                "A RUH",
                "A PIE",
                "A TYR",
                "A BOH",
                "A GAL",
                "F NTH",
                "F ION",
                "F WES",
                "A SIL",
                "F BAL",
                "A PRU",
            ],
            "RUSSIA": ["A MOS", "F SEV"],
            "TURKEY": ["A CON", "F ANK"],
        },
        "centers": {
            "FRANCE": [
                "PAR",
                "MAR",
                "BRE",
                "SPA",
                "POR",
                "BEL",
                "HOL",
                "MUN",
                "KIE",
                "BER",
                "DEN",
                "LON",
                "LVP",
                "EDI",
                "TUN",
                "NAP",
                "ROM",
            ],
            "RUSSIA": ["MOS", "SEV", "STP", "WAR"],
            "TURKEY": ["CON", "ANK", "SMY"],
        },
    }
    start = Position.from_json(doc, M)
    winners = [play_both(seed, years=6, start=start)[1] for seed in range(12)]
    assert "FRANCE" in winners


def test_civil_disorder_and_over_ordering_rule_like_the_reference() -> None:
    # France owes two disbands and names one unit twice (DATC 6.J.2); Austria may build two and
    # orders three builds and a waive (DATC 4.D.4, 4.D.7); Russia disbands by civil disorder
    # (fleets first, then by name, DATC 4.D.8).
    doc = {
        "phase": "W1905A",
        "units": {
            "FRANCE": ["A PAR", "A MAR", "F BRE", "F NAO"],
            "AUSTRIA": ["A VIE"],
            "RUSSIA": ["F STP/NC", "A MOS", "F SEV", "A WAR", "A UKR"],
        },
        "centers": {"FRANCE": ["PAR", "MAR"], "AUSTRIA": ["VIE", "BUD", "TRI"], "RUSSIA": ["MOS"]},
    }
    position = Position.from_json(doc, M)
    game = CodeGame(position)
    check_legal(game, position)
    codes = [
        encode_order(Disband(Unit("F", "NAO")), M),
        encode_order(Disband(Unit("F", "NAO")), M),
        encode_order(Build(Unit("A", "BUD")), M),
        encode_order(Build(Unit("F", "TRI")), M),
        encode_order(Build(Unit("A", "TRI")), M),
        encode_order(Waive(), M, "AUSTRIA"),
        encode_order(Build(Unit("F", "STP/SC")), M),
    ]
    compare_phase(game.clone(), position, codes)
    game.set_orders(codes)
    assert game.process().result_codes() == [0, 0, 0, 0, 5, 5, 6]


# --------------------------------------------------------------------------- (c) batches


def positions_along_games(count: int) -> list[Position]:
    out: list[Position] = []
    rng = random.Random(99)
    game = CodeGame(None, 1906)
    while len(out) < count:
        if game.is_over:
            game = CodeGame(None, 1906)
        out.append(game.position())
        game.set_orders([rng.choice(options) for options in game.legal_orders()])
        game.process()
    return out


def assert_same_games(
    games: list[CodeGame],
    singles: list[CodeGame],
    outcomes: list[fast.Outcome],
    single_outcomes: list[fast.Outcome],
) -> None:
    for a, b in zip(games, singles, strict=True):
        assert a.position() == b.position()
        assert a.phase == b.phase and a.is_over == b.is_over
        assert a.hash == b.hash
    assert outcomes == single_outcomes


def batch_and_singles(
    seed: int,
) -> tuple[list[CodeGame], list[list[int]], list[CodeGame], list[fast.Outcome]]:
    """Games along random games, noisy orders for them, and copies processed one by one (with
    their outcomes)."""
    rng = random.Random(seed)
    positions = positions_along_games(120)
    games = [CodeGame(p) for p in positions]
    orders = [noise(rng, g, [rng.choice(o) for o in g.legal_orders()]) for g in games]
    singles = [g.clone() for g in games]
    outcomes = []
    for g, o in zip(singles, orders, strict=True):
        g.set_orders(o)
        outcomes.append(g.process())
    return games, orders, singles, outcomes


@pytest.mark.parametrize("threads", [1, 2, 3, None])
def test_batch_rules_like_one_by_one(threads: int | None) -> None:
    games, orders, singles, outcomes = batch_and_singles(threads or 0)
    assert process_batch(games, orders, threads=threads) is None
    again, _, _, _ = batch_and_singles(threads or 0)
    got = process_batch(again, orders, threads=threads, outcomes=True)
    assert_same_games(games, singles, got, outcomes)
    assert [g.hash for g in again] == [g.hash for g in singles]


def flat_forms(orders: list[list[int]]) -> dict[str, tuple[object, object]]:
    codes, offsets = fast.pack_orders(orders)
    return {
        "bytes": (codes, offsets),
        "array": (array.array("Q", codes), array.array("I", offsets)),
        "memoryview": (memoryview(array.array("Q", codes)), memoryview(offsets)),
        "bytearray": (bytearray(codes), bytearray(offsets)),
    }


@pytest.mark.parametrize("form", ["bytes", "array", "memoryview", "bytearray"])
@pytest.mark.parametrize("threads", [1, 2, 5])
def test_flat_batch_rules_like_one_by_one(form: str, threads: int) -> None:
    games, orders, singles, outcomes = batch_and_singles(threads + len(form))
    codes, offsets = flat_forms(orders)[form]
    got = process_batch(games, codes, threads=threads, offsets=offsets, outcomes=True)
    assert_same_games(games, singles, got, outcomes)


def test_pack_orders_layout() -> None:
    codes, offsets = fast.pack_orders([[1, 2, 3], [], (4,), [-1, 2**40, 2**70]])
    assert list(array.array("Q", codes)) == [1, 2, 3, 4, 2**64 - 1, 2**40, 2**64 - 1]
    assert list(array.array("I", offsets)) == [0, 3, 3, 4, 7]
    assert fast.pack_orders([]) == (b"", array.array("I", [0]).tobytes())
    with pytest.raises(ValueError, match=r"orders\[1\]"):
        fast.pack_orders([[1], ["A PAR H"]])  # type: ignore[list-item]


def test_batches_from_several_python_threads_at_once() -> None:
    """Batches running at once (only one can have the thread pool; the others start their own
    threads) rule as one by one."""
    work = [batch_and_singles(seed) for seed in range(4)]

    def play(k: int) -> list[fast.Outcome]:
        games, orders, _, _ = work[k]
        if k % 2:
            return process_batch(games, orders, threads=2, outcomes=True)
        codes, offsets = fast.pack_orders(orders)
        return process_batch(games, codes, threads=2, offsets=offsets, outcomes=True)

    with ThreadPoolExecutor(4) as pool:
        got = [future.result() for future in [pool.submit(play, k) for k in range(4)]]
    for (games, _, singles, outcomes), mine in zip(work, got, strict=True):
        assert_same_games(games, singles, mine, outcomes)


def test_batch_of_nothing_and_tuples() -> None:
    process_batch([], [])
    process_batch([], b"", offsets=array.array("I", [0]))
    game = CodeGame()
    process_batch((game,), ((),), threads=1)
    assert game.phase == "F1901M"


# --------------------------------------------------------------------------- games and errors


def test_clone_is_independent() -> None:
    game = CodeGame()
    copy = game.clone()
    game.process()
    assert game.phase == "F1901M" and copy.phase == "S1901M"
    assert copy.position() == Position.initial(M)


def test_position_round_trip_and_initial_state() -> None:
    game = CodeGame(Position.initial(M), max_year=1901)
    assert game.position() == Position.initial(M)
    assert game.max_year == 1901 and game.winner is None and not game.is_over


def test_bad_arguments_raise_value_error() -> None:
    game = CodeGame()
    for bad in ("A PAR H", None, 3, [1.5], [None], [True], b"ab"):
        with pytest.raises(ValueError):
            game.set_orders(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        CodeGame("S1901M")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        CodeGame(None, "1910")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        CodeGame(None, -5)
    with pytest.raises(ValueError):
        process_batch([game], [])
    with pytest.raises(ValueError):
        process_batch([game, game], [[], []])
    with pytest.raises(ValueError):
        process_batch(["game"], [[]])  # type: ignore[list-item]
    with pytest.raises(ValueError):
        process_batch([game], [[]], threads=0)
    with pytest.raises(ValueError):
        process_batch([game], ["A PAR H"])
    # A position that is not a board of this map cannot even be built (diplo.checks).
    with pytest.raises(ValueError, match="unknown location 'XXX'"):
        CodeGame(Position(M, Phase.parse("S1901M"), {"XXX": Piece("FRANCE", "A", "XXX")}, {}))
    with pytest.raises(ValueError, match="sea"):
        CodeGame(Position(M, Phase.parse("S1901M"), {"NTH": Piece("FRANCE", "A", "NTH")}, {}))
    # The phase is untouched by the refused calls.
    assert game.phase == "S1901M"


def test_bad_flat_batches_raise_value_error_naming_the_problem() -> None:
    game, other = CodeGame(), CodeGame()
    codes = array.array("Q", [0, 0, 0])
    offsets = array.array("I", [0, 1, 3])
    cases: list[tuple[object, object, str]] = [
        (b"\x00" * 12, offsets, "12 bytes is not a whole number"),
        (codes, b"\x00" * 5, "offsets: 5 bytes"),
        (codes, array.array("I", [0, 3]), r"len\(games\) \+ 1 = 3 values, got 2"),
        (codes, array.array("I", [1, 2, 3]), "first must be 0, got 1"),
        (codes, array.array("I", [0, 2, 1]), r"offsets\[2\] = 1 is below offsets\[1\] = 2"),
        (codes, array.array("I", [0, 1, 2]), "last must be the number of codes, 3, got 2"),
        (codes, array.array("I", [0, 1, 4]), "last must be the number of codes, 3, got 4"),
        (array.array("q", [0, 0, 0]), offsets, "format 'q'"),
        (array.array("I", [0, 0, 0]), offsets, "4-byte items"),
        (codes, array.array("Q", [0, 1, 3]), "8-byte items"),
        (memoryview(bytes(24)).cast("Q", (3, 1)), offsets, "one-dimensional"),
        ([0, 0, 0], offsets, "must be a buffer of u64 values.*got list"),
        (codes, "0 1 3", "offsets must be a buffer of u32 values.*got str"),
    ]
    for bad_codes, bad_offsets, message in cases:
        with pytest.raises(ValueError, match=message):
            process_batch([game, other], bad_codes, offsets=bad_offsets)
    # The core itself takes bytes only.
    with pytest.raises(ValueError, match="must be bytes"):
        fast._core.process_batch([game._core], codes, None, b"\x00" * 8)  # type: ignore[attr-defined]
    # Nothing was touched.
    assert game.phase == other.phase == "S1901M"
    process_batch([game, other], codes, offsets=offsets)
    # Every code illegal: every unit held.
    assert game.phase == other.phase == "F1901M"
    assert game.position().units == other.position().units == Position.initial(M).units


def test_out_of_range_codes_are_illegal_not_errors() -> None:
    game = CodeGame()
    game.set_orders([-1, 2**40, 2**70, 2**32 - 1, 12345678])
    assert game.process().result_codes() == [6, 6, 6, 6, 6]
    # Int subclasses and tuples are read like ints and lists.
    import enum

    class Code(enum.IntEnum):
        HOLD_PAR = fast.HOLD | M.location_index["PAR"] << 4

    game.set_orders((Code.HOLD_PAR, 2**70))
    assert game.process().result_codes() == [0, 6]


def _line_map(n: int, ring: bool = False) -> Map:
    """``n`` land provinces in a line (a ring with ``ring``), one power with an army on each but
    the last."""
    provinces = [{"abbr": f"P{i}", "name": f"Province {i}", "type": "land"} for i in range(n)]
    edges = [[f"P{i}", f"P{i + 1}"] for i in range(n - 1)]
    if ring:
        edges.append([f"P{n - 1}", "P0"])
    units = [f"A P{i}" for i in range(n - 1)]
    data = {
        "name": f"line{n}",
        "powers": {"ONE": {"adjective": "One", "homes": [], "units": units}},
        "provinces": provinces,
        "army_edges": edges,
        "fleet_edges": [],
    }
    return Map.from_dict(data)


def test_map_too_large_for_the_encoding() -> None:
    big = _line_map(1025)
    with pytest.raises(ValueError, match="1024"):
        CodeGame(Position.initial(big))


@pytest.mark.parametrize("n", [129, 300, 1024])
def test_long_move_chains_on_wide_maps(n: int) -> None:
    """Every width plays (up to 1,024 locations), and a chain of a thousand moves (each army
    into the province the next one leaves) resolves without a recursion limit: all succeed."""
    game_map = _line_map(n)
    index = game_map.location_index
    game = CodeGame(Position.initial(game_map), max_year=1901)
    moves = [encode_order(Move(Unit("A", f"P{i}"), f"P{i + 1}"), game_map) for i in range(n - 1)]
    if n > 128:
        # An index of 128 and up puts its high bits above the flags (bits 27-35).
        top = encode_order(Move(Unit("A", f"P{n - 2}"), f"P{n - 1}"), game_map)
        assert fast.location_of(top) == index[f"P{n - 2}"] and top >= 1 << 27
        assert decode_order(top, game_map) == Move(Unit(None, f"P{n - 2}"), f"P{n - 1}")
    game.set_orders(moves)
    assert game.process().result_codes() == [0] * (n - 1)
    units = game.position().units
    assert sorted(units) == sorted(f"P{i}" for i in range(1, n))
    # A ring of moves whose head moves into the tail's province: one cycle of n - 1 moves
    # ending at the empty province, then the whole ring turning (a circular movement).
    ring = _line_map(n, ring=True)
    index = ring.location_index
    game = CodeGame(Position.initial(ring), max_year=1901)
    turn = [encode_order(Move(Unit("A", f"P{i}"), f"P{(i + 1) % n}"), ring) for i in range(n)]
    game.set_orders(turn[: n - 1])
    assert game.process().result_codes() == [0] * (n - 1)
    full = Position(
        ring,
        Phase.parse("S1901M"),
        {f"P{i}": Piece("ONE", "A", f"P{i}") for i in range(n)},
        {},
    )
    game = CodeGame(full, max_year=1901)
    game.set_orders(turn)
    assert game.process().result_codes() == [0] * n


def test_small_custom_map_plays() -> None:
    data = {
        "name": "tiny",
        "powers": {
            "RED": {"adjective": "Red", "homes": ["AL"], "units": ["A AL"]},
            "BLUE": {"adjective": "Blue", "homes": ["CL"], "units": ["F CL"]},
        },
        "provinces": [
            {"abbr": "AL", "name": "Aland", "type": "land", "center": True},
            {"abbr": "BL", "name": "Bland", "type": "coast", "center": True},
            {"abbr": "CL", "name": "Cland", "type": "coast", "center": True},
            {"abbr": "SE", "name": "Sea", "type": "sea"},
        ],
        "army_edges": [["AL", "BL"], ["BL", "CL"]],
        "fleet_edges": [["BL", "SE"], ["CL", "SE"], ["BL", "CL"]],
    }
    tiny = Map.from_dict(data)
    rng = random.Random(3)
    game = CodeGame(Position.initial(tiny), max_year=1905)
    position = Position.initial(tiny)
    while not game.is_over:
        lists = game.legal_orders()
        reference = legal_orders(position)
        assert len(lists) == len(game.slots())
        assert {o for v in reference.values() for o in v} == {
            decode_order(c, tiny, position) for codes in lists for c in codes
        }
        codes = [rng.choice(options) for options in lists]
        game.set_orders(codes)
        game.process()
        orders: dict[str, list[str | Order]] = {}
        for code in codes:
            orders.setdefault(power_of_map(code, position, tiny), []).append(
                decode_order(code, tiny)
            )
        position = process_phase(position, orders, "rust").next
        assert game.position() == position


def power_of_map(code: int, position: Position, game_map: Map) -> str:
    order = decode_order(code, game_map)
    if isinstance(order, Waive):
        return game_map.powers[code >> 4 & 0x7F]
    prov = game_map.province_of(order.unit.loc)
    if isinstance(order, Build):
        return game_map.provinces[prov].home or game_map.powers[0]
    if position.phase.kind == "R" and prov in position.dislodged:
        return position.dislodged[prov].piece.power
    piece = position.units.get(prov)
    return piece.power if piece is not None else game_map.powers[0]


def test_a_panic_in_the_core_becomes_runtime_error() -> None:
    game = CodeGame()
    game._core._poison()
    with pytest.raises(RuntimeError, match="deliberate panic"):
        game.process()
    # The game and the thread's buffers are still usable afterwards.
    game.process()
    assert game.phase == "F1901M"
    other = CodeGame()
    other._core._poison()
    with pytest.raises(RuntimeError, match="deliberate panic"):
        process_batch([CodeGame(), other, CodeGame()], [[], [], []], threads=2)


def test_finished_game_refuses_orders() -> None:
    game = CodeGame(None, max_year=1901)
    while not game.is_over:
        game.process()
    assert game.phase == "S1902M" and game.winner is None
    with pytest.raises(GameOverError):
        game.set_orders([])
    with pytest.raises(GameOverError):
        process_batch([game], [[]])
    with pytest.raises(GameOverError):
        process_batch([game], b"", offsets=b"\x00" * 8)


def test_first_names_are_aliases_of_the_code_api() -> None:
    import diplo
    from diplo.engine import codes

    assert diplo.FastGame is diplo.CodeGame is codes.CodeGame
    assert codes.FastGame is codes.CodeGame
    assert codes.fast_map is codes.code_map
    assert codes.FastState is codes.CodeState


def test_process_returns_the_phase_outcome_a_value_the_game_does_not_keep() -> None:
    """``CodeGame.process`` returns the phase's results; a later phase leaves an earlier
    outcome as it was (it is the caller's, not the game's), and a copy of the game carries
    none."""
    game = CodeGame()
    par = encode_order(Move(Unit("A", "PAR"), "BUR"), M)
    mar = encode_order(Move(Unit("A", "MAR"), "BUR"), M)
    game.set_orders([par, mar, 2**70])
    first = game.process()
    assert isinstance(first, fast.Outcome)
    assert first.result_codes() == [1, 1, 6]  # bounce, bounce, illegal
    assert first.result_success() == [False, False, False]
    held = first.implied_results()
    assert len(held) == 22 - 2 and all(r == 0 and ok for _, r, ok in held)
    game.set_orders([encode_order(Move(Unit("A", "PAR"), "PIC"), M)])
    second = game.process()
    assert second.result_codes() == [0] and first.result_codes() == [1, 1, 6]
    assert second != first and len(first.implied_results()) == 20
    twin = CodeGame()
    twin.set_orders([par, mar, 2**70])
    assert twin.process() == first


def test_the_old_result_readers_are_deprecated_shims() -> None:
    """``result_codes``, ``result_success`` and ``implied_results`` on the game warn and read
    the outcome the wrapper's last ``process`` returned (none before, nor in a copy)."""
    game = CodeGame()
    with pytest.warns(DeprecationWarning, match="process"):
        assert game.result_codes() == []
    game.set_orders([2**70])
    done = game.process()
    with pytest.warns(DeprecationWarning):
        assert game.result_codes() == done.result_codes() == [6]
    with pytest.warns(DeprecationWarning):
        assert game.result_success() == [False]
    with pytest.warns(DeprecationWarning):
        assert game.implied_results() == done.implied_results()
    with pytest.warns(DeprecationWarning):
        assert game.clone().result_codes() == []
