"""The engine's dipcc encoders (``rust/src/engine/dipcc_encode.rs``) against their readable
reference (``diplo.compat.dipcc.encoding.ReferenceThreadPool``, ``reference_board_state``):
every field of ``encode_inputs_multi``, ``encode_inputs_all_powers_multi`` and
``encode_inputs_state_only_multi``, the board states, the order encodings (strict and tolerant)
and the possible orders, bit for bit, on every phase of seeded random games under every input
version, and the same errors where the reference raises. With ``DIPCC_SOURCES`` the vocabulary
is Cicero's own (``fairdiplomacy/models/order_vocab_by_unit.json``)."""

from __future__ import annotations

import itertools
import json
import os
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from diplo.compat.dipcc import Game
from diplo.compat.dipcc.board import LOCS, POWERS, DipccOrder, parse_order
from diplo.compat.dipcc.encoding import (
    ReferenceThreadPool,
    ThreadPool,
    encode_board_state,
    encode_board_states,
    pack_game,
    reference_board_state,
)
from diplo.compat.dipcc.game import state_of

DIPCC_SOURCES = os.environ.get("DIPCC_SOURCES")
GAMES = int(os.environ.get("DIPCC_ENCODE_GAMES", "6"))


def _combined_builds(game: Game) -> set[str]:
    """Every combined build an adjustment phase of ``game`` may ask the vocabulary for."""
    out: set[str] = set()
    possible = game.get_all_possible_orders()
    for locs in game.get_orderable_locations().values():
        lists = [possible[loc] for loc in locs if possible[loc]]
        if not lists or not lists[0][0].endswith(" B"):
            continue
        for n in range(1, min(len(lists), 4) + 1):
            for combo in itertools.combinations(lists, n):
                for pick in itertools.product(*combo):
                    out.add(";".join(sorted(pick)))
    return out


def _played(seed: int, end: int = 1912) -> list[Game]:
    """Every phase of a random game (copies), its orders drawn from the possible orders."""
    rng = random.Random(seed)
    game = Game()
    phases = [Game(game)]
    while not game.is_game_done and game.current_year <= end:
        possible = game.get_all_possible_orders()
        for power, locs in game.get_orderable_locations().items():
            game.set_orders(power, [rng.choice(possible[loc]) for loc in locs if possible[loc]])
        game.process()
        phases.append(Game(game))
    return phases


@pytest.fixture(scope="module")
def phases() -> list[Game]:
    return [g for seed in range(GAMES) for g in _played(seed)]


@pytest.fixture(scope="module")
def vocabulary(phases: list[Game]) -> dict[str, int]:
    if DIPCC_SOURCES:
        path = Path(DIPCC_SOURCES) / "fairdiplomacy" / "models" / "order_vocab_by_unit.json"
        by_unit = json.loads(path.read_text())
        ordered = [o for unit in sorted(by_unit) for o in sorted(by_unit[unit])]
        return {o: i for i, o in enumerate(ordered)}
    texts: set[str] = set()
    for g in phases:
        texts |= {o for orders in g.get_all_possible_orders().values() for o in orders}
        texts |= _combined_builds(g)
    rng = random.Random(7)
    # leave some out: orders found by their coastless form, or not at all; supports naming a
    # coastal fleet by its province are left out, as in Cicero's vocabulary (the tolerant path)
    kept = sorted(
        t
        for t in texts
        if ";" in t
        or (rng.random() > 0.1 and not any(f" S F {p} " in t + " " for p in ("BUL", "SPA", "STP")))
    )
    kept += ["A PAR - BUR VIA", "F BRE - MAO;X", "nonsense"]  # never matched, by either
    return {t: i for i, t in enumerate(kept)}


def _same(a: dict[str, np.ndarray], b: dict[str, np.ndarray], where: str) -> None:
    assert list(a) == list(b), where
    for key in a:
        assert a[key].dtype == b[key].dtype and a[key].shape == b[key].shape, (where, key)
        assert np.array_equal(a[key], b[key]), (where, key)


def _both(call: str, pools: tuple[Any, Any], *args: Any) -> None:
    """The engine and the reference give the same arrays, or the same error."""
    engine, reference = pools
    try:
        want = getattr(reference, call)(*args)
    except (ValueError, RuntimeError) as e:
        with pytest.raises(type(e)) as got:
            getattr(engine, call)(*args)
        assert str(got.value) == str(e)
        return
    got_fields = getattr(engine, call)(*args)
    if isinstance(want, dict):
        _same(got_fields, want, call)
    else:
        assert np.array_equal(got_fields, want), call


@pytest.mark.parametrize("version", [1, 2, 3])
def test_inputs_bit_for_bit_on_every_phase(
    phases: list[Game], vocabulary: dict[str, int], version: int
) -> None:
    pools = (ThreadPool(2, vocabulary, 469), ReferenceThreadPool(2, vocabulary, 469))
    for k, game in enumerate(phases):
        for call in (
            "encode_inputs_state_only_multi",
            "encode_inputs_multi",
            "encode_inputs_all_powers_multi",
        ):
            _both(call, pools, [game], version)
        assert np.array_equal(
            encode_board_state(game, version), reference_board_state(game, version)
        ), k
    # whole batches, spread over the threads
    for call in ("encode_inputs_state_only_multi", "encode_inputs_multi"):
        _both(call, pools, phases[:40], version)
    batch = encode_board_states(phases, version)
    assert np.array_equal(batch, np.stack([reference_board_state(g, version) for g in phases]))


def test_order_encodings_bit_for_bit(phases: list[Game], vocabulary: dict[str, int]) -> None:
    pools = (ThreadPool(1, vocabulary, 469), ReferenceThreadPool(1, vocabulary, 469))
    rng = random.Random(3)
    for game in phases[::3]:
        possible = [o for orders in game.get_all_possible_orders().values() for o in orders]
        orders = rng.sample(possible, min(len(possible), 30)) if possible else []
        _both("encode_orders_single_strict", pools, orders, 2)
        _both("encode_orders_single_tolerant", pools, game, orders, 2)
    _both("encode_orders_single_strict", pools, ["A PAR H"] * 100, 2)  # too many: RuntimeError
    for pool in pools:
        with pytest.raises(ValueError, match="Can't parse order"):
            pool.encode_orders_single_strict(["A PAR TO BUR"], 2)


def test_small_candidate_width_is_refused_as_the_reference(
    phases: list[Game], vocabulary: dict[str, int]
) -> None:
    pools = (ThreadPool(1, vocabulary, 5), ReferenceThreadPool(1, vocabulary, 5))
    _both("encode_inputs_multi", pools, phases[1:2], 2)
    _both("encode_inputs_all_powers_multi", pools, phases[1:2], 3)


def test_a_batch_over_threads_reports_its_first_games_error(
    phases: list[Game], vocabulary: dict[str, int]
) -> None:
    # the games are worked on several threads in any order; the error is the first game's
    pools = (ThreadPool(2, vocabulary, 5), ReferenceThreadPool(2, vocabulary, 5))
    for start in (0, 1, 7):
        _both("encode_inputs_multi", pools, phases[start : start + 40], 2)
        _both("encode_inputs_all_powers_multi", pools, phases[start : start + 40], 3)


def test_missing_combined_build_is_refused_as_the_reference(phases: list[Game]) -> None:
    winter = next(g for g in phases if g.current_short_phase.endswith("A"))
    singles = {o for orders in winter.get_all_possible_orders().values() for o in orders}
    vocab = {t: i for i, t in enumerate(sorted(singles))}
    pools = (ThreadPool(1, vocab, 469), ReferenceThreadPool(1, vocab, 469))
    _both("encode_inputs_multi", pools, [winter], 2)


def test_possible_orders_match_the_reference(phases: list[Game]) -> None:
    pool = ThreadPool(1, {}, 469)
    for game in phases:
        state = state_of(game)
        lists, orderable, builds, _ = pool._engine.possible_orders(pack_game(game)[4:])
        assert {code: [tuple(o) for o in orders] for code, orders, _ in lists} == {
            code: [tuple(o) for o in orders] for code, orders in state.possible_orders().items()
        }
        for code, orders, texts in lists:
            assert texts == [str(parse_order(t)) for t in texts]
            assert [tuple(parse_order(t)) for t in texts] == orders, LOCS[code - 1]
        assert {POWERS[p]: locs for p, locs in enumerate(orderable) if locs} == state.orderable()
        assert builds == [state.n_builds(p) for p in POWERS]


def test_orders_ruled_by_the_engine_as_by_the_reference(phases: list[Game]) -> None:
    """``State.rule_orders`` (the engine, without the possible orders' texts; and the texts
    where they were listed) against the reference's possible orders: on every phase, each
    possible order of that phase and of other phases, and each move's "VIA" and plain forms."""
    pool: set[DipccOrder] = set()
    for game in phases[::7]:
        for orders in state_of(game).possible_orders().values():
            pool.update(orders)
    pool |= {o._replace(via=not o.via) for o in pool if o.kind == 2}
    rng = random.Random(3)
    seen = {0: 0, 1: 0, 2: 0}
    for game in phases:
        state = state_of(game)
        possible = state.possible_orders()
        mine = [o for orders in possible.values() for o in orders]
        orders = mine + rng.sample(sorted(pool), 300)
        orders += [o._replace(via=not o.via) for o in mine if o.kind == 2]
        state.possible_texts()  # its texts listed: looked up there
        unlisted = state.copy()
        unlisted.forget_orders()  # nothing listed: the engine tells
        told = unlisted.rule_orders(orders)
        assert "lists" not in unlisted._memo
        assert state.rule_orders(orders) == told, game.current_short_phase
        for order, verdict in zip(orders, told, strict=True):
            listed = possible.get(order.unit_loc, [])
            want = (
                1
                if order in listed
                else 2
                if order.kind == 2 and not order.via and order._replace(via=True) in listed
                else 0
            )
            assert verdict == want, (game.current_short_phase, str(order))
            seen[verdict] += 1
    assert min(seen.values()) > 0, seen
    with pytest.raises(ValueError, match="7-byte"):
        pool_engine = ThreadPool(1, {}, 469)._engine
        pool_engine.rule_orders(pack_game(Game())[4:], b"\x01\x02")


def test_bad_packed_games_are_refused() -> None:
    pool = ThreadPool(1, {}, 469)
    out = np.zeros((1, 81, 38), dtype=np.float32)
    game = pack_game(Game())
    for bad in (game[:-1], game + b"\x00", game[:4] + b"\x05" + game[5:]):
        with pytest.raises(ValueError, match="packed"):
            pool._engine.board_states(bad, 1, 2, out)
    with pytest.raises(ValueError, match="input version"):
        pool._engine.board_states(game, 1, 4, out)
    with pytest.raises(ValueError, match="expected shape"):
        pool._engine.board_states(game, 1, 1, out)


def test_output_arrays_lent_twice_are_refused() -> None:
    pool = ThreadPool(1, {}, 469)
    game = pack_game(Game())
    board = np.zeros((1, 81, 38), dtype=np.float32)
    small = [np.zeros(s, dtype=np.float32) for s in ((1, 3), (1, 1), (1,), (1, 7), (1, 2))]
    orders = np.zeros((1, 2, 100), dtype=np.int64)
    with pytest.raises(ValueError, match="borrowed elsewhere"):
        pool._engine.encode(game, 1, 2, board, board, orders, *small)
    with pytest.raises(ValueError, match="expected shape"):
        pool._engine.encode(game, 1, 2, board, board[:, :, :35], orders, *small)
    prev = np.zeros((1, 81, 38), dtype=np.float32)
    pool._engine.encode(game, 1, 2, board, prev, orders, *small)
    assert np.array_equal(board[0], reference_board_state(Game(), 2))
