"""Fuzz tests in CI: the surfaces of ``tests/fuzzing.py`` under hypothesis, with fixed seeds
(``derandomize``) and a small budget so that CI stays short. ``tools/fuzz_long.py`` runs the same
checks on a million inputs and more (``docs/fuzzing.md``)."""

from __future__ import annotations

import contextlib
import random
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fuzzing
import fuzzing_processes
from diplo.engine.codes import CodeGame, process_batch
from test_codes import compare_phase, generated_position, slow_orders


def ci(examples: int) -> settings:
    return settings(
        max_examples=examples,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


RNG = st.randoms(use_true_random=False)


@ci(400)
@given(RNG)
def test_parser(rng: random.Random) -> None:
    fuzzing.check_parser(rng)


@ci(150)
@given(RNG)
def test_contract(rng: random.Random) -> None:
    fuzzing.check_contract(rng)


@ci(25)
@given(RNG)
def test_game_files(rng: random.Random) -> None:
    fuzzing.check_game_file(rng)


@ci(60)
@given(RNG)
def test_fast_codes(rng: random.Random) -> None:
    fuzzing.check_fast_codes(rng, generated_position, compare_phase)


@ci(40)
@given(RNG)
def test_fast_call_sequences(rng: random.Random) -> None:
    fuzzing.check_fast_calls(rng, generated_position, slow_orders)


@ci(60)
@given(RNG)
def test_jsonl_stream(rng: random.Random) -> None:
    fuzzing.check_jsonl(rng)


@ci(40)
@given(RNG)
def test_env_actions(rng: random.Random) -> None:
    pytest.importorskip("pettingzoo")
    fuzzing.check_env(rng)


@ci(30)
@given(RNG)
def test_vector_env_actions(rng: random.Random) -> None:
    pytest.importorskip("gymnasium")
    fuzzing.check_vector_env(rng)


@ci(80)
@given(RNG)
def test_mila_drop_in_calls(rng: random.Random) -> None:
    fuzzing.check_mila_dropin(rng)


@ci(12)
@given(RNG)
def test_rollouts_options_and_folders(rng: random.Random) -> None:
    fuzzing.check_rollouts(rng)


@pytest.mark.parametrize("fault", sorted(fuzzing_processes.FAULTS))
def test_rollouts_under_each_fault(fault: str) -> None:
    """Every fault of the processes' surface once (the long run draws them at random)."""
    outcome = fuzzing_processes.check_rollout_faults(random.Random(len(fault)), fault)
    assert outcome == "skipped" or outcome.startswith(f"{fault}/"), outcome


def test_fast_calls_from_several_threads_rule_as_one_thread() -> None:
    """Four Python threads drive their own games with valid and invalid calls and batches, at
    once; every game ends where the same calls made on one thread leave it."""

    def drive(seed: int, games: list[CodeGame]) -> None:
        rng = random.Random(seed)
        for _ in range(12):
            lists = [[rng.choice(o) for o in g.legal_orders()] for g in games]
            if rng.random() < 0.3:
                with contextlib.suppress(ValueError):
                    process_batch(games, [*lists[:-1], [None]], threads=2)
            elif rng.random() < 0.5:
                process_batch(games, lists, threads=rng.randint(1, 3))
            else:
                for g, codes in zip(games, lists, strict=True):
                    g.set_orders(codes)
                    g.process()

    def fresh() -> list[CodeGame]:
        return [CodeGame(generated_position(random.Random(s))) for s in range(3)]

    threaded = [fresh() for _ in range(4)]
    workers = [threading.Thread(target=drive, args=(s, threaded[s])) for s in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    for seed in range(4):
        alone = fresh()
        drive(seed, alone)
        assert [g.position() for g in alone] == [g.position() for g in threaded[seed]]
