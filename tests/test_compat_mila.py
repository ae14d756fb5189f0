"""``diplo.compat.mila.Game``, the drop-in for MILA's ``diplomacy.Game``.

The differential test plays one seeded random bot (the corpus bot: for each power, for each
orderable location, a uniform choice among the sorted possible orders) through MILA and through
the drop-in at once: every phase both must offer the same orderable locations and the same
possible orders, take the same orders, and reach the same state. Where the states differ, the
phase must be one of the named DATC departures of ``tests/test_mila.py`` (judged on MILA's own
record of the phase) and the drop-in's board must be diplo's reference ruling of that phase; the
drop-in is then set to MILA's state so that the two games go on together.

``DIPLO_COMPAT_GAMES`` sets how many games are played (default 3, to 1910).
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from typing import Any

import pytest

from diplo.api.phase import process_phase
from diplo.compat.mila import Game, MilaError, from_saved_game_format, to_saved_game_format
from diplo.compat.mila.game import parts_of
from diplo.engine.codes import decode_order, location_of
from diplo.formats.mila import position_from_mila
from diplo.model.map import standard_map
from diplo.model.orders import Move, SupportMove, Waive, format_order, parse_order
from diplo.model.rules import Rules
from diplo.reference.convoys import convoying_fleets, sea_route_exists
from diplo.reference.legal import legal_orders
from test_mila import judge

GAMES = int(os.environ.get("DIPLO_COMPAT_GAMES", "3"))
LAST_YEAR = 1910


def bot_orders(game: Any, rng: random.Random) -> dict[str, list[str]]:
    """The corpus bot's orders (``../shared/corpus/README.md``), on either engine."""
    possible = game.get_all_possible_orders()
    return {
        power: [rng.choice(sorted(possible[loc])) for loc in sorted(locs) if possible[loc]]
        for power, locs in sorted(game.get_orderable_locations().items())
    }


def board(state: dict[str, Any]) -> dict[str, Any]:
    """The parts of a state that say where the game is."""
    return {
        "name": state["name"],
        "units": {p: sorted(u) for p, u in state["units"].items()},
        "centers": {p: sorted(c) for p, c in state["centers"].items()},
        "retreats": {p: {u: sorted(o) for u, o in r.items()} for p, r in state["retreats"].items()},
    }


def play_both(
    seed: int, mila: Any, ruling: Rules | str | None = None
) -> tuple[Counter[str], list[str]]:
    """One game through both engines, the drop-in under ``ruling`` (default: the drop-in's
    own, MILA's; ``"datc"``: diplo's rulings); (counts, problems)."""
    counts: Counter[str] = Counter()
    problems: list[str] = []
    game_map = standard_map()
    rng = random.Random(seed)
    theirs, ours = mila.Game(), Game(ruling=ruling)
    ruling = ours.ruling  # the rules the drop-in plays under (None: diplo's)
    while not theirs.is_game_done and int(theirs.get_current_phase()[1:5]) <= LAST_YEAR:
        phase = theirs.get_current_phase()
        where = f"seed {seed} {phase}"
        if ours.get_current_phase() != phase:
            problems.append(f"{where}: the drop-in is at {ours.get_current_phase()}")
            break
        locs = theirs.get_orderable_locations()
        if {p: sorted(v) for p, v in locs.items()} != {
            p: sorted(v) for p, v in ours.get_orderable_locations().items()
        }:
            problems.append(f"{where}: orderable locations differ")
        mine = ours.get_all_possible_orders()
        for loc, options in theirs.get_all_possible_orders().items():
            if any(loc in v for v in locs.values()) and sorted(options) != mine.get(loc):
                problems.append(f"{where} {loc}: possible orders differ")
        before = theirs.get_state()
        orders = bot_orders(theirs, rng)
        for power, texts in orders.items():
            theirs.set_orders(power, texts)
            ours.set_orders(power, texts)
        if ours.error:
            problems.append(f"{where}: the drop-in dropped {ours.error}")
        theirs.process()
        ours.process()
        counts["phases"] += 1
        after = theirs.get_state()
        # As MILA's, the order history does not list waives; under MILA's ruling it is MILA's
        # own (a fleet's support of a move kept without the coast where MILA drops it), under
        # diplo's the texts as given (the coast of a supported move decides it there).
        submitted = {p: [o for o in orders.get(p, []) if o != "WAIVE"] for p in game_map.powers}
        if ruling is not None:
            submitted = {p: list(o or []) for p, o in theirs.order_history[phase].items()}
        if ours.order_history[phase] != submitted:
            problems.append(f"{where}: order history {ours.order_history[phase]}")
        if board(after) == board(ours.get_state()):
            counts["same"] += 1
            continue
        # A departure: it must be diplo's reference ruling, and a named one.
        position = position_from_mila(before, phase, game_map, rules=ruling)
        reference = process_phase(position, orders).next
        drop_in = position_from_mila(ours.get_state(), game_map=game_map, rules=ruling)
        if drop_in.to_json() != reference.to_json():
            problems.append(f"{where}: the drop-in's board is not diplo's ruling")
        record = {
            "seed": seed,
            "phase": phase,
            "state": before,
            "orders": orders,
            "results": {u: [str(x) for x in ls] for u, ls in theirs.result_history[phase].items()},
            "next_phase": theirs.get_current_phase(),
            "next_state": after,
        }
        verdict = judge(record, game_map, None, ruling)
        problems += [f"{where}: unexplained: {d}" for d in verdict.unexplained]
        counts.update(f"rule {r}" for r in verdict.rules)
        counts["departures"] += 1
        ours.set_state(after)
    return counts, problems


def test_the_same_bot_plays_alike_through_mila_and_the_drop_in() -> None:
    mila = pytest.importorskip("diplomacy", reason="MILA (the 'compare' extra) is not installed")
    totals: Counter[str] = Counter()
    problems: list[str] = []
    for seed in range(GAMES):
        counts, found = play_both(seed, mila, "datc")  # diplo's rulings: MILA departs
        totals.update(counts)
        problems += found
    print(f"{GAMES} games to {LAST_YEAR}: {dict(totals)}")
    assert totals["phases"] > 20 * GAMES
    assert not problems, "\n".join(problems[:30])


def test_in_milas_ruling_mode_the_drop_in_plays_as_mila() -> None:
    # edition=mila, the drop-in's default (no ruling given): the same bot, the same orders, and
    # every phase's board (units, centres, retreat lists, the next phase) is MILA's: no
    # departure at all.
    mila = pytest.importorskip("diplomacy", reason="MILA (the 'compare' extra) is not installed")
    assert Game().ruling == Rules(edition="mila")
    totals: Counter[str] = Counter()
    problems: list[str] = []
    for seed in range(GAMES):
        counts, found = play_both(seed, mila)
        totals.update(counts)
        problems += found
    print(f"{GAMES} games to {LAST_YEAR} under edition=mila: {dict(totals)}")
    assert totals["phases"] > 20 * GAMES
    assert not problems, "\n".join(problems[:30])
    assert totals["departures"] == 0 and totals["same"] == totals["phases"], dict(totals)


# --------------------------------------------------------------------------- without MILA


def random_game(seed: int, phases: int, ruling: str | None = None) -> Game:
    game = Game(ruling=ruling)
    rng = random.Random(seed)
    for _ in range(phases):
        for power, texts in bot_orders(game, rng).items():
            game.set_orders(power, texts)
        game.process()
    return game


def test_possible_orders_are_diplos_legal_orders_in_mila_text() -> None:
    """Every listed order reads back as the legal order it stands for, and the lists are
    exactly diplo's legal orders (less the plain form of moves beyond an army's neighbours)."""
    game = Game(ruling="datc")  # diplo's rulings, as the reference's position has
    rng = random.Random(4)  # reaches a retreat phase in S1905
    kinds: set[str] = set()
    for _ in range(16):
        position = position_from_mila(game.get_state(), game_map=standard_map())
        kinds.add(position.phase.kind)
        reference = legal_orders(position)
        possible = game.get_all_possible_orders()
        for power, locs in game.get_orderable_locations().items():
            for loc in locs:
                texts = possible[loc]
                assert texts == sorted(texts)
                ours = set(texts)
                want = {format_order(o) for o in reference.get(loc, [])}
                if position.phase.kind == "A":
                    want |= {format_order(o) for o in reference.get(power, [])}
                extra = want - ours
                for text in extra:
                    move = parse_order(text, position.map)
                    assert isinstance(move, Move) and not move.via, text
                assert all(f"{t} VIA" in ours for t in extra)
                assert ours <= want
                for text in texts:
                    order = parse_order(text, position.map)
                    assert format_order(order) == text
        for power, texts in bot_orders(game, rng).items():
            game.set_orders(power, texts)
        game.process()
    assert kinds == {"M", "R", "A"}


def test_the_cores_texts_are_format_order_of_the_decoded_codes() -> None:
    """``_core.mila_turn`` (the hot path) writes each listed code as the reference does, lists
    every legal code of the power but the plain form of army moves beyond the neighbours and a
    fleet's supports of moves only it could carry (MILA takes them, does not list them), and
    keys each list where its unit (or build site) is."""
    from diplo import _core

    kinds: set[str] = set()
    checked = unlisted = 0
    for seed in (1, 4):
        game = Game()
        rng = random.Random(seed)
        for _ in range(30):
            position = parts_of(game).state.position()
            game_map = position.map
            kinds.add(position.phase.kind)
            core = parts_of(game).state.core
            possible, orderable, check, lookup, again = _core.mila_turn(core)
            assert again == orderable and again is not orderable
            codes = _core.mila_codes(core)
            # The bot's path: lookup and check name exactly each power's listed texts.
            powers = game_map.powers
            index = game_map.location_index
            allowed = 0
            for power, listed_texts in codes.items():
                for text, code in listed_texts.items():
                    if text not in lookup:
                        continue  # a text of two codes (a waive): read the long way
                    same, same_code, slot_at, tid = lookup[text]
                    assert same == text and same_code == code
                    loc = game_map.locations[location_of(code)]
                    assert slot_at == index[game_map.province_of(loc)]
                    assert check.allows_text(slot_at, tid, powers.index(power))
                    allowed += 1
            for text, (_, code, slot_at, tid) in lookup.items():
                for i, power in enumerate(powers):
                    if check.allows_text(slot_at, tid, i):
                        assert codes[power].get(text) == code
                        allowed -= 1
            assert allowed == 0  # each listed text allowed for its power, and nothing else
            legal: dict[str, set[int]] = {}
            for (power, key), slot in zip(core.slots(), core.legal_orders(), strict=True):
                legal.setdefault(power, set()).update(slot)
                if key != power:
                    assert key in orderable[power]
                    texts = possible[key]
                    assert texts == sorted(texts) and set(texts) <= set(codes[power])
            for power, listed in codes.items():
                for text, code in listed.items():
                    assert text == format_order(decode_order(code, game_map, position))
                    assert code in legal[power]
                    checked += 1
                for code in legal.get(power, set()) - set(listed.values()):
                    order = decode_order(code, game_map, position)
                    if isinstance(order, Waive):
                        continue  # the waive of a power without a free home centre
                    if isinstance(order, SupportMove):
                        # MILA takes a fleet's support of a move only that fleet could carry
                        # (Game._valid_order), but lists it only by a route without it.
                        army = order.supported.province
                        assert order.unit.type == "F" and order.supported.type == "A"
                        assert order.dest not in game_map.army_neighbours(army)
                        fleets = convoying_fleets(position)
                        assert sea_route_exists(game_map, army, order.dest, fleets, None, False)
                        assert not sea_route_exists(
                            game_map, army, order.dest, fleets, order.unit.province, False
                        )
                        unlisted += 1
                        continue
                    assert isinstance(order, Move) and not order.via
                    assert order.dest not in game_map.army_neighbours(order.unit.province)
            for power, texts in bot_orders(game, rng).items():
                game.set_orders(power, texts)
            game.process()
    assert kinds == {"M", "R", "A"}
    assert checked > 5000 and unlisted > 0


def test_set_orders_keeps_legal_orders_of_the_power_only() -> None:
    game = Game()
    game.set_orders("france", ["a par - bur", "A MAR-SPA", "A BER - KIE", "F BRE - XYZ"])
    assert game.get_orders("FRANCE") == ["A PAR - BUR", "A MAR - SPA"]
    assert len(game.error) == 2
    assert "A BER - KIE" in game.error[0] and "XYZ" in game.error[1]
    # As in MILA: replace=False adds orders for units without one and never re-orders a unit;
    # replace=True re-orders the units named and keeps the others' orders.
    game.set_orders("FRANCE", "F BRE - MAO", replace=False)
    game.set_orders("FRANCE", ["A PAR H"], replace=False)
    assert game.get_orders("FRANCE") == ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"]
    game.set_orders("FRANCE", ["A PAR - PIC"])
    assert game.get_orders("FRANCE") == ["A PAR - PIC", "A MAR - SPA", "F BRE - MAO"]
    game.clear_orders("FRANCE")
    game.set_orders("FRANCE", ["A PAR - PIC"])
    with pytest.raises(MilaError, match="unknown power"):
        game.set_orders("NARNIA", [])
    game.process()
    assert game.get_units("FRANCE") == ["A MAR", "F BRE", "A PIC"] or sorted(
        game.get_units("FRANCE")
    ) == ["A MAR", "A PIC", "F BRE"]
    assert game.order_history["S1901M"]["FRANCE"] == ["A PAR - PIC"]
    assert game.result_history["S1901M"]["A PAR"] == []


def test_phase_names_and_the_end_of_the_game() -> None:
    game = Game()
    assert (game.phase, game.get_current_phase(), game.phase_type) == (
        "SPRING 1901 MOVEMENT",
        "S1901M",
        "M",
    )
    game.process()
    game.process()
    assert game.phase == "WINTER 1901 ADJUSTMENTS" or game.phase == "SPRING 1902 MOVEMENT"
    state = game.get_state()
    # A power with 18 centres wins: give France 18 (and the only units) and end the year.
    state["centers"] = {p: [] for p in state["centers"]}
    state["centers"]["FRANCE"] = sorted(standard_map().centers)[:18]
    state["units"] = {p: u if p == "FRANCE" else [] for p, u in state["units"].items()}
    state["name"] = "F1902M"
    game.set_state(state)
    game.process()
    assert game.is_game_done
    assert game.get_current_phase() == "COMPLETED" and game.phase_type == "-"
    assert game.outcome[1:] == ["FRANCE"]
    assert game.get_state()["note"] == "Victory by: FRA"
    game.process()  # a no-op, as in MILA
    assert game.get_all_possible_orders()["PAR"] == []


def test_saved_games_round_trip() -> None:
    game = random_game(7, 15)
    loc = game.get_orderable_locations("FRANCE")[0]
    game.set_orders("FRANCE", game.get_all_possible_orders()[loc][:1])
    data = json.loads(json.dumps(to_saved_game_format(game)))
    assert [p["name"] for p in data["phases"]] == [*game.order_history, game.get_current_phase()]
    back = from_saved_game_format(data)
    assert back.order_history == game.order_history
    assert back.result_history == game.result_history
    assert board(back.get_state()) == board(game.get_state())
    assert back.get_orders() == game.get_orders()
    assert back.game_id == game.game_id


def test_saved_games_load_in_mila_and_back() -> None:
    mila = pytest.importorskip("diplomacy", reason="MILA (the 'compare' extra) is not installed")
    export = pytest.importorskip("diplomacy.utils.export")
    # MILA's save, loaded here: the first phases of a MILA game (no departure in them).
    theirs = mila.Game()
    rng = random.Random(11)
    for _ in range(3):
        for power, texts in bot_orders(theirs, rng).items():
            theirs.set_orders(power, texts)
        theirs.process()
    ours = from_saved_game_format(export.to_saved_game_format(theirs))
    assert board(ours.get_state()) == board(theirs.get_state())
    assert ours.order_history == {
        k: {p: list(v) for p, v in o.items()} for k, o in theirs.order_history.items()
    }
    # Ours, loaded by MILA: it replays to the same board.
    game = random_game(3, 3)
    loaded = export.from_saved_game_format(to_saved_game_format(game))
    assert board(loaded.get_state()) == board(game.get_state())


def test_powers_show_the_current_phase() -> None:
    game = random_game(4, 13, "datc")  # S1905R under diplo's rulings: a retreat phase
    state = game.get_state()
    for name, power in game.powers.items():
        assert power.name == name
        assert power.units == [u for u in state["units"][name] if not u.startswith("*")]
        assert power.centers == state["centers"][name] == game.get_centers(name)
        assert power.retreats == state["retreats"][name]
        assert power.is_eliminated() == (not (power.units or power.centers or power.retreats))
    assert any(p.retreats for p in game.powers.values())
    assert any(u.startswith("*") for us in game.get_units().values() for u in us)
