"""diplo's dipcc encoders against dipcc's own ``ThreadPool``, bit for bit.

Needs dipcc's module ``pydipcc`` built whole, with torch, by ``tools/build_dipcc_torch.sh`` (on
the path: ``PYTHONPATH=python:OUT_DIR``, run by a Python that has torch) and Cicero's sources
(``DIPCC_SOURCES``: its order vocabulary and its 40 webDiplomacy games); skipped by name
otherwise. Seeded random games are played on both engines with the same orders, and at every
phase every encoder of ``diplo.compat.dipcc.ThreadPool`` is compared with dipcc's
``ThreadPool``: ``encode_inputs_multi``, ``encode_inputs_all_powers_multi`` and
``encode_inputs_state_only_multi`` (every field: keys, dtype, shape, every element) under input
versions 1 to 3, one game at a time and in batches spread over threads;
``encode_orders_single_strict`` and ``_tolerant`` (orders as dipcc lists them, supports naming
a coastal fleet by its province, orders outside the vocabulary); ``decode_order_idxs`` and
``decode_order_idxs_all_powers``. Two vocabularies: Cicero's own, and a sparse one (orders left
out, coastless forms added) that drives dipcc's coastless look-up and its duplicates under input
versions 1 and 2. Cicero's games are read by both engines and encoded at every phase (rolled
back to its start), and the orders archived in each phase encoded strictly and tolerantly.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("GLOG_minloglevel", "2")  # dipcc's warnings on ignored extra orders

torch = pytest.importorskip("torch", reason="no torch: dipcc's ThreadPool needs it")
pydipcc = pytest.importorskip(
    "pydipcc", reason="dipcc's ThreadPool not built: see tools/build_dipcc_torch.sh"
)

from diplo.compat.dipcc import Game  # noqa: E402
from diplo.compat.dipcc.encoding import ThreadPool  # noqa: E402

DIPCC_SOURCES = os.environ.get("DIPCC_SOURCES")
if not DIPCC_SOURCES:
    pytest.skip("DIPCC_SOURCES not set: Cicero's vocabulary and games", allow_module_level=True)
SOURCES = Path(DIPCC_SOURCES)
GAMES = int(os.environ.get("DIPCC_ORACLE_GAMES", "4"))
CICERO_GAMES = int(os.environ.get("DIPCC_ORACLE_CICERO_GAMES", "40"))
CALLS = ("encode_inputs_state_only_multi", "encode_inputs_multi", "encode_inputs_all_powers_multi")
MAX_CANDS = 469  # dipcc's arrays are 469 wide whatever is asked (data_fields.cc)
_COAST = re.compile(r"/[A-Z]{2}")


def _cicero_vocabulary() -> dict[str, int]:
    path = SOURCES / "fairdiplomacy" / "models" / "order_vocab_by_unit.json"
    by_unit = json.loads(path.read_text())
    ordered = [o for unit in sorted(by_unit) for o in sorted(by_unit[unit])]
    return {o: i for i, o in enumerate(ordered)}


def _sparse_vocabulary(cicero: dict[str, int]) -> dict[str, int]:
    """Cicero's orders, some left out, and coastless forms of coastal ones added, so that
    dipcc's fallback (an order found by its coastless text) and its duplicates show, and a few
    units left with no candidate at all (their step then has none, and ``x_loc_idxs`` shows
    what each encoder writes for them). Every build is kept: dipcc looks combined builds up
    without a check."""
    rng = random.Random(11)
    kept = [t for t in cicero if ";" in t or t.endswith(" B") or rng.random() > 0.15]
    coastless = {_COAST.sub("", t) for t in cicero if "/" in t and rng.random() < 0.5}
    # units with no candidate at all: every order of theirs but a build left out
    holes = ("A PAR ", "A BUR ", "F NTH ", "F STP/SC ", "F STP ", "A SER ", "F ION ")
    texts = sorted(t for t in set(kept) | coastless if t.endswith(" B") or not t.startswith(holes))
    rng.shuffle(texts)  # indices not in text order
    return {t: i for i, t in enumerate(texts)}


@pytest.fixture(scope="module", params=["cicero", "sparse"])
def vocabulary(request: pytest.FixtureRequest) -> dict[str, int]:
    cicero = _cicero_vocabulary()
    return cicero if request.param == "cicero" else _sparse_vocabulary(cicero)


def _play(seed: int) -> Iterator[tuple[Any, Game]]:
    """Every phase of a seeded game played on both engines with the same orders (some "VIA"
    left off, some adjustments left short), as copies: (dipcc's, diplo's)."""
    rng = random.Random(seed)
    theirs, ours = pydipcc.Game(), Game()
    while True:
        yield pydipcc.Game(theirs), Game(ours)
        if theirs.is_game_done or theirs.current_year > 1915:
            return
        possible = theirs.get_all_possible_orders()
        for power, locs in theirs.get_orderable_locations().items():
            orders = [rng.choice(possible[loc]) for loc in locs if possible[loc]]
            orders = [o[:-4] if o.endswith(" VIA") and rng.random() < 0.3 else o for o in orders]
            if theirs.current_short_phase.endswith("A") and rng.random() < 0.3:
                orders = orders[: rng.randint(0, len(orders))]
            theirs.set_orders(power, orders)
            ours.set_orders(power, orders)
        theirs.process()
        ours.process()


@pytest.fixture(scope="module")
def played() -> list[tuple[Any, Game]]:
    return [pair for seed in range(GAMES) for pair in _play(seed)]


def _same(theirs: dict[str, Any], ours: dict[str, np.ndarray], where: object) -> None:
    assert sorted(theirs) == sorted(ours), where
    for key, tensor in theirs.items():
        want = tensor.numpy()
        got = ours[key]
        assert (got.dtype, got.shape) == (want.dtype, want.shape), (where, key)
        if not np.array_equal(got, want):
            diff = np.argwhere(got != want)[:5].tolist()
            raise AssertionError(f"{where} {key}: first differences at {diff}")


def _pools(vocabulary: dict[str, int], threads: int) -> tuple[Any, ThreadPool]:
    return pydipcc.ThreadPool(threads, vocabulary, MAX_CANDS), ThreadPool(
        max(threads, 1), vocabulary, MAX_CANDS
    )


@pytest.mark.parametrize("version", [1, 2, 3])
def test_inputs_match_dipccs_threadpool_phase_by_phase(
    played: list[tuple[Any, Game]], vocabulary: dict[str, int], version: int
) -> None:
    theirs_pool, ours_pool = _pools(vocabulary, 0)
    for theirs, ours in played:
        assert ours.current_short_phase == theirs.current_short_phase
        for call in CALLS:
            _same(
                getattr(theirs_pool, call)([theirs], version),
                getattr(ours_pool, call)([ours], version),
                (call, version, theirs.current_short_phase),
            )


@pytest.mark.parametrize("threads", [0, 1, 2])
def test_batches_spread_over_threads_match(
    played: list[tuple[Any, Game]], vocabulary: dict[str, int], threads: int
) -> None:
    theirs_pool, ours_pool = _pools(vocabulary, threads)
    rng = random.Random(threads)
    for size in (1, 8, 64):
        batch = rng.sample(played, min(size, len(played)))
        for version, call in itertools.product((1, 2, 3), CALLS):
            _same(
                getattr(theirs_pool, call)([t for t, _ in batch], version),
                getattr(ours_pool, call)([o for _, o in batch], version),
                (call, version, size, threads),
            )


def _order_samples(theirs: Any, rng: random.Random) -> list[list[str]]:
    """Lists of orders to encode: some of the possible orders, their supports of a coastal
    fleet written with the province only, "VIA" dropped or added, and orders no vocabulary
    holds."""
    possible = [o for orders in theirs.get_all_possible_orders().values() for o in orders]
    if not possible:
        return [[]]
    some = rng.sample(possible, min(len(possible), 40))
    coastless = [_COAST.sub("", o) if " S " in o else o for o in some]
    odd = [o[:-4] if o.endswith(" VIA") else o + " VIA" if " - " in o else o for o in some]
    return [some, coastless, odd, [*some[:5], "A PAR - MOS", "F MAO S A MUN - BER"]]


def _outcome(call: Any, *args: Any) -> Any:
    """An encoding as NumPy, or the error raised: (its type's name, its message)."""
    try:
        got = call(*args)
    except (ValueError, RuntimeError) as e:
        return (type(e).__name__, str(e))
    return got.numpy() if hasattr(got, "numpy") else got


def _same_orders(theirs: Any, ours: Any, where: object) -> None:
    if isinstance(theirs, tuple) or isinstance(ours, tuple):
        assert ours == theirs, where
        return
    assert ours.dtype == theirs.dtype and np.array_equal(ours, theirs), where


@pytest.mark.parametrize("version", [1, 2, 3])
def test_order_encodings_match_strict_and_tolerant(
    played: list[tuple[Any, Game]], vocabulary: dict[str, int], version: int
) -> None:
    theirs_pool, ours_pool = _pools(vocabulary, 0)
    rng = random.Random(version)
    for theirs, ours in played[::2]:
        for orders in _order_samples(theirs, rng):
            where = (theirs.current_short_phase, orders)
            _same_orders(
                _outcome(theirs_pool.encode_orders_single_strict, orders, version),
                _outcome(ours_pool.encode_orders_single_strict, orders, version),
                where,
            )
            _same_orders(
                _outcome(theirs_pool.encode_orders_single_tolerant, theirs, orders, version),
                _outcome(ours_pool.encode_orders_single_tolerant, ours, orders, version),
                where,
            )


def _picked(actions: np.ndarray, rng: random.Random) -> np.ndarray:
    """One candidate (or the padding) drawn at each step of ``(B, 7, steps, cands)``."""
    batch, powers, steps, _ = actions.shape
    out = np.full((batch, powers, steps), -1, dtype=np.int64)
    for b, p, s in itertools.product(range(batch), range(powers), range(steps)):
        cands = [int(c) for c in actions[b, p, s] if c != -1]
        if cands and rng.random() < 0.9:
            out[b, p, s] = rng.choice(cands)
    return out


def test_decoders_match(played: list[tuple[Any, Game]], vocabulary: dict[str, int]) -> None:
    theirs_pool, ours_pool = _pools(vocabulary, 0)
    rng = random.Random(5)
    for start in range(0, len(played), 16):
        chunk = played[start : start + 16]
        theirs = [t for t, _ in chunk]
        fields = theirs_pool.encode_inputs_multi(theirs, 3)
        idxs = _picked(fields["x_possible_actions"].numpy(), rng)
        want = theirs_pool.decode_order_idxs(torch.from_numpy(idxs))
        assert ours_pool.decode_order_idxs(idxs) == want
        fields = theirs_pool.encode_inputs_all_powers_multi(theirs, 3)
        for repeat in (1, 2):
            idxs = _picked(fields["x_possible_actions"].numpy(), rng)
            idxs = np.repeat(idxs, repeat, axis=0)
            in_adj, power = fields["x_in_adj_phase"], fields["x_power"]
            want = theirs_pool.decode_order_idxs_all_powers(
                torch.from_numpy(idxs), in_adj, power, repeat
            )
            got = ours_pool.decode_order_idxs_all_powers(
                idxs, in_adj.numpy(), power.numpy(), repeat
            )
            assert got == want, (start, repeat)


def _cicero_files() -> list[Path]:
    files = sorted((SOURCES / "data" / "cicero_redacted_games").glob("game_*.json"))
    return files[:CICERO_GAMES]


def test_cicero_games_encode_as_dipcc_at_every_phase() -> None:
    """Cicero's webDiplomacy games read by both engines: at the start of every phase every
    input encoding under every version, and that phase's archived orders (as the players gave
    them) encoded strictly and tolerantly."""
    files = _cicero_files()
    if not files:
        pytest.skip(f"no Cicero games under {SOURCES}")
    vocabulary = _cicero_vocabulary()
    theirs_pool, ours_pool = _pools(vocabulary, 0)
    phases = 0
    for path in files:
        text = path.read_text()
        theirs_game, ours_game = pydipcc.Game.from_json(text), Game.from_json(text)
        orders_by_phase = {p["name"]: p.get("orders", {}) for p in json.loads(text)["phases"]}
        for name in theirs_game.get_all_phase_names():
            theirs = theirs_game.rolled_back_to_phase_start(name)
            ours = ours_game.rolled_back_to_phase_start(name)
            where = (path.stem, name)
            assert ours.get_state() == theirs.get_state(), where  # all 1,484 phases agree
            phases += 1
            for version, call in itertools.product((1, 2, 3), CALLS):
                _same(
                    getattr(theirs_pool, call)([theirs], version),
                    getattr(ours_pool, call)([ours], version),
                    (*where, call, version),
                )
            given = [o for orders in orders_by_phase.get(name, {}).values() for o in orders]
            for version in (1, 3):
                want = theirs_pool.encode_orders_single_tolerant(theirs, given, version).numpy()
                got = ours_pool.encode_orders_single_tolerant(ours, given, version)
                assert np.array_equal(got, want), (*where, given)
                want = theirs_pool.encode_orders_single_strict(given, version).numpy()
                assert np.array_equal(ours_pool.encode_orders_single_strict(given, version), want)
    assert phases > 30 * len(files)
