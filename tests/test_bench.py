"""``diplo bench``: the report's shape (``../shared/spec/adjudicate-json.md``), never its timings.

The code API (:mod:`diplo.engine.codes`) is exercised twice: through the command line when it is
built, and always through a stand-in written here on top of the object API, which keeps the
benchmark's use of the ``CodeGame`` interface (slots, codes, clones, ``process_batch``) tested on
its own.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from diplo.api.legal import legal_order_texts
from diplo.api.phase import process_phase
from diplo.apps import bench
from diplo.apps.bench.engines import optional_module
from diplo.apps.bench.inputs import record_game
from diplo.apps.bench.mila_api import api_floor_engine, mila_bot
from diplo.apps.bench.movement import slot_codes
from diplo.model.map import Map, standard_map
from diplo.model.orders import Build, Order, Waive, format_order, parse_order
from diplo.model.position import Position
from diplo.reference.legal import legal_orders

ROOT = Path(__file__).resolve().parent.parent
TINY = ["--games", "1", "--phases", "3", "--rounds", "1", "--batch-size", "4", "--max-year", "1901"]
TINY += ["--vector-envs", "4"]


def diplo(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "diplo.apps.cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )


def check_entry(entry: Any, workload: str = "", engine: str = "") -> None:
    keys = {"phases", "seconds", "us_per_phase"}
    if workload == "selfplay":  # the engines play the same games: their final positions
        keys.add("final_positions")
        assert isinstance(entry["final_positions"], str) and len(entry["final_positions"]) == 16
        if engine == "mila":  # MILA replays them (docs/json-contract.md)
            keys.add("resets")
            assert isinstance(entry["resets"], int) and entry["resets"] >= 0
    assert set(entry) == keys
    assert isinstance(entry["phases"], int)
    assert entry["phases"] > 0
    assert entry["seconds"] > 0
    assert entry["us_per_phase"] > 0


def test_json_report_has_every_workload_and_engine() -> None:
    done = diplo("bench", "--json", *TINY)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    fast = bench.codes_module() is not None
    expected = {
        "movement": {"diplo-python"},
        "strings": {"diplo-python"},
        "selfplay": {"diplo-python"},
        "jsonl": {"diplo-python"},
    }
    expected["movement"].add("diplo-rust")
    expected["selfplay"].add("diplo-rust")
    # No code path takes strings or documents: the object API on the engine.
    expected["strings"].add("diplo-rust-objects")
    expected["jsonl"].add("diplo-rust-objects")
    if fast:
        expected["movement"].add("diplo-rust-objects")
        expected["selfplay"].add("diplo-rust-objects")
        expected["batch"] = {"diplo-rust-1thread", "diplo-rust-2threads"}
    else:
        assert "batch omitted" in done.stderr
    if fast and optional_module("diplo.env") is not None:
        expected["vector"] = {
            "diplo-vector-1thread",
            "diplo-vector-2threads",
            "diplo-env",
            "diplo-rust",
        }
    else:
        assert "vector omitted" in done.stderr
    if fast:
        expected["mila-api"] = {"diplo-compat"}
    if bench.mila_module() is not None:
        expected["movement"].add("mila")
        expected["strings"].add("mila")
        expected["selfplay"].add("mila")
        expected.setdefault("mila-api", set()).add("mila")
        if fast:
            expected["mila-api"].add("api-floor")
        if "vector" in expected:
            expected["vector"].add("mila")
    else:
        assert "mila omitted" in done.stderr
    workloads = report["workloads"]
    assert {w: set(engines) for w, engines in workloads.items()} == expected
    for workload, engines in workloads.items():
        for name, entry in engines.items():
            check_entry(entry, workload, name)
    # Every engine played the same game: the same phases and the same final position.
    selfplay = workloads["selfplay"].values()
    assert len({e["final_positions"] for e in selfplay}) == 1
    for entry in workloads["movement"].values():
        assert entry["phases"] % 3 == 0  # the 3 phases, as many times as a round needs
    for workload, engines in workloads.items():
        assert set(report["ratios"][workload]) == {
            f"{name}/{bench.REFERENCE[workload]}"
            for name in engines
            if name != bench.REFERENCE[workload]
        }


def test_text_report_prints_a_table_with_ratios() -> None:
    done = diplo("bench", *TINY, "--workloads", "movement", "--engines", "diplo-python", "mila")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("movement: ")
    assert "µs/phase" in lines[2]
    assert any(line.split()[0] == "diplo-python" for line in lines[3:])
    assert "selfplay" not in done.stdout


def test_bad_arguments_are_refused() -> None:
    assert diplo("bench", "--games", "0").returncode != 0
    assert diplo("bench", "--engines", "other").returncode != 0


def test_mila_alone_is_refused_when_it_is_not_installed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from diplo.apps.cli import main

    monkeypatch.setitem(sys.modules, "diplomacy", None)  # as without the compare extra
    assert bench.mila_module() is None
    assert main(["bench", *TINY, "--workloads", "movement", "--engines", "mila"]) == 2
    out, err = capsys.readouterr()
    assert out == ""  # no empty tables
    assert err == (
        "diplo: --engines: mila cannot run here: the MILA engine is not installed "
        "(pip install '.[compare]')\n"
    )
    # Beside an engine that runs, MILA is left out with a note and the rest is timed.
    engines = ["--engines", "diplo-python", "mila"]
    assert main(["bench", *TINY, "--workloads", "movement", *engines]) == 0
    out, err = capsys.readouterr()
    assert "bench: mila omitted: the MILA engine is not installed" in err
    names = [line.split()[0] for line in out.splitlines()[3:] if line.strip()]
    assert "diplo-python" in names and "mila" not in names


def test_movement_phases_are_full_boards_with_one_order_per_unit() -> None:
    phases = bench.prepare_movement_phases(4, seed=3)
    assert len(phases) == 4
    for phase in phases:
        assert phase.position.phase.kind == "M"
        assert phase.units >= bench.FULL_BOARD
        ordered = sorted(o.unit.loc for os in phase.orders.values() for o in os)  # type: ignore[union-attr]
        assert ordered == sorted(p.loc for p in phase.position.units.values())
    # More than a few games hold: the fullest phases make up the shortfall.
    short = bench.prepare_movement_phases(2, seed=3, max_year=1902, min_units=99)
    assert [p.units for p in short] == sorted((p.units for p in short), reverse=True)


# --------------------------------------------------------------------------- the code API


class StandInCodeGame:
    """The ``diplo.engine.codes.CodeGame`` interface over the object API (slow, but the same
    answers)."""

    def __init__(self, position: Position | None = None, max_year: int | None = None) -> None:
        self._position = Position.initial(standard_map()) if position is None else position
        self._max_year = max_year
        self._orders: dict[str, list[Order]] = {}
        self.is_over = False
        self.winner: str | None = None

    @property
    def phase(self) -> str:
        return str(self._position.phase)

    def _legal(self) -> dict[str, list[Order]]:
        return legal_orders(self._position)

    def slots(self) -> list[tuple[str, str]]:
        position = self._position
        out = []
        for key, options in self._legal().items():
            first = options[0]
            if isinstance(first, Waive):
                power = key
            elif isinstance(first, Build):
                power = position.centers[key]
            elif position.phase.kind == "R":
                power = position.dislodged[key].piece.power
            else:
                power = position.units[key].power
            out.append((power, key))
        return out

    def legal_orders(self) -> list[list[int]]:
        game_map = self._position.map
        return [[encode_order(o, game_map) for o in opts] for opts in self._legal().values()]

    def set_orders(self, orders: Sequence[int]) -> None:
        self._orders = {}
        game_map = self._position.map
        for (power, _), code in zip(self.slots(), orders, strict=True):
            self._orders.setdefault(power, []).append(decode_order(code, game_map))

    def process(self) -> None:
        outcome = process_phase(self._position, self._orders, "rust")
        self._position = outcome.next
        self._orders = {}
        self.winner = outcome.winner
        too_late = self._max_year is not None and outcome.next.phase.year > self._max_year
        self.is_over = outcome.winner is not None or too_late

    def position(self) -> Position:
        return self._position

    def clone(self) -> StandInCodeGame:
        twin = StandInCodeGame(self._position, self._max_year)
        twin.is_over, twin.winner = self.is_over, self.winner
        return twin


_CODES: dict[str, int] = {}


def encode_order(order: Order, game_map: Map) -> int:
    return _CODES.setdefault(format_order(order), len(_CODES))


def decode_order(code: int, game_map: Map, position: Position | None = None) -> Order:
    text = next(t for t, c in _CODES.items() if c == code)
    return Waive() if text == "WAIVE" else parse_order(text, game_map)


def process_batch(
    games: Sequence[StandInCodeGame], orders: Sequence[Sequence[int]], threads: int | None = None
) -> None:
    for game, codes in zip(games, orders, strict=True):
        game.set_orders(codes)
        game.process()


@pytest.fixture
def stand_in() -> types.ModuleType:
    """A code-API module on the reference, handed to the bench's engines in place of the real
    `diplo.engine.codes` (so that the orders the engine is given can be read back)."""
    module = types.ModuleType("stand_in_codes")
    for name in ("encode_order", "decode_order", "process_batch"):
        setattr(module, name, globals()[name])
    module.CodeGame = StandInCodeGame  # type: ignore[attr-defined]
    return module


def test_code_path_engines_and_batch() -> None:
    # The real code API on the Rust core: every engine, the batch and its thread ratio.
    settings = bench.Settings(
        engines=("diplo-rust", "diplo-rust-objects", "diplo-python"),
        games=1,
        phases=2,
        rounds=2,
        batch_size=3,
        max_year=1901,
    )
    report = bench.run_benchmarks(settings).to_json()
    workloads = report["workloads"]
    assert set(workloads["movement"]) == {"diplo-rust", "diplo-rust-objects", "diplo-python"}
    assert set(workloads["selfplay"]) == {"diplo-rust", "diplo-rust-objects", "diplo-python"}
    assert set(workloads["batch"]) == {"diplo-rust-1thread", "diplo-rust-2threads"}
    assert workloads["batch"]["diplo-rust-1thread"]["phases"] % 3 == 0  # 3 per call
    for workload, engines in workloads.items():
        for name, entry in engines.items():
            check_entry(entry, workload, name)
    assert set(report["ratios"]["batch"]) == {"diplo-rust-1thread/diplo-rust-2threads"}
    assert report["settings"]["fast_path"] is True


def test_code_path_gets_the_orders_the_players_gave(stand_in: types.ModuleType) -> None:
    phase = bench.prepare_movement_phases(1, seed=5)[0]
    game = StandInCodeGame(phase.position)
    codes = slot_codes(game, phase, encode_order)
    given = {format_order(o) for os in phase.orders.values() for o in os}
    sent = {format_order(decode_order(c, phase.position.map)) for c in codes}
    assert sent == given
    # The engine processes exactly those orders: the same next position as the object API.
    (engine,) = bench.movement_engines([phase], ["diplo-rust"], stand_in)
    (clone,) = engine.setup(0)
    assert engine.run([clone]) == 1
    expected = process_phase(phase.position, phase.orders, "python").next
    assert clone.position() == expected
    assert game.position() == phase.position  # the prepared game was cloned, not played


def test_engines_take_turns() -> None:
    calls: list[str] = []

    def engine(name: str) -> bench.Engine:
        def run(_work: object) -> int:
            calls.append(name)
            return 2

        return bench.Engine(name, lambda r: r, run)

    results = bench.measure([engine("a"), engine("b"), engine("c")], rounds=3, min_run=0)
    # a warm-up run each, then the rounds
    assert calls == ["a", "b", "c", "a", "b", "c", "b", "c", "a", "c", "a", "b"]
    assert {name: m.phases for name, m in results.items()} == {"a": 6, "b": 6, "c": 6}
    assert all(len(m.rounds) == 3 for m in results.values())


def test_rollouts_workload_times_files_dataset_and_the_plain_loop() -> None:
    settings = bench.Settings(
        workloads=("rollouts",), rollout_games=2, rollout_rounds=1, max_year=1901
    )
    report = bench.run_benchmarks(settings).to_json()
    engines = set(report["workloads"]["rollouts"])
    expected = {"rollouts-files", "diplo-rust"}
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        pass
    else:
        expected.add("rollouts-dataset")
    assert engines == expected
    for entry in report["workloads"]["rollouts"].values():
        assert entry["phases"] == 2 and entry["us_per_phase"] > 0  # games, µs per game per core
    assert set(report["ratios"]["rollouts"]) == {
        f"{e}/diplo-rust" for e in expected - {"diplo-rust"}
    }
    assert "rollouts" not in bench.Settings().workloads  # asked for only


# --------------------------------------------------------------------------- the same games


def _selfplay(engines: list[bench.Engine], rounds: int) -> dict[str, list[tuple[int, str]]]:
    """Each engine's (phases, final-position digest) per round, played as measure() plays."""
    out: dict[str, list[tuple[int, str]]] = {}
    for engine in engines:
        assert engine.check is not None
        for r in range(rounds):
            work = engine.setup(r)
            phases = engine.run(work)
            out.setdefault(engine.name, []).append((phases, engine.check(work).digest))
    return out


def _every_selfplay_engine() -> list[bench.Engine]:
    fast = bench.codes_module()
    engines = bench.selfplay_engines(3, 1903, bench.ENGINES, fast, bench.mila_module())
    names = {e.name for e in engines}
    assert "diplo-python" in names
    assert {"diplo-rust"} <= names
    return engines


def test_selfplay_engines_play_the_same_games() -> None:
    engines = _every_selfplay_engine()
    played = _selfplay(engines, 3)
    # Every engine: the same number of phases and the same final position, seed by seed, and
    # those of the canonical game (the object API's loop, recorded).
    expected = []
    for r in range(3):
        recorded = record_game(3 + r, 1903, None)
        expected.append((len(recorded.slots), bench.position_digest(recorded.positions[-1])))
    assert len({d for _p, d in expected}) == 3  # three seeds, three games
    for name, games in played.items():
        assert games == expected, name


def test_a_changed_choice_order_is_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    # The check above can fail: an engine whose lists come in another order plays other games.
    engines = {e.name: e for e in _every_selfplay_engine()}
    canonical = _selfplay([engines["diplo-python"]], 2)["diplo-python"]
    real = legal_order_texts

    def reversed_lists(*args: Any) -> dict[str, list[str]]:
        return {k: v[::-1] for k, v in real(*args).items()}

    monkeypatch.setattr("diplo.apps.bench.selfplay.legal_order_texts", reversed_lists)
    changed = _selfplay([engines["diplo-python"]], 2)["diplo-python"]
    assert [d for _p, d in changed] != [d for _p, d in canonical]


@pytest.mark.skipif(bench.mila_module() is None, reason="needs the MILA engine (compare extra)")
def test_mila_replays_the_canonical_games_and_names_its_departures() -> None:
    (engine,) = bench.selfplay_engines(0, 1904, ["mila"], None, bench.mila_module())
    assert engine.check is not None
    resets = departures = 0
    for r in range(3):
        work = engine.setup(r)
        phases = engine.run(work)
        check = engine.check(work)
        recorded = record_game(r, 1904, None)
        assert phases == len(recorded.slots)
        assert check.digest == bench.position_digest(recorded.positions[-1])
        assert check.resets is not None
        resets += check.resets
        departures += check.departures
    # Random play meets MILA's departures from the DATC, and each one is a ruling diplo
    # reproduces under edition=mila.
    assert resets > 0
    assert departures == resets


def test_measure_checks_runs_and_takes_off_untimed_seconds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ticks = iter(range(1000))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(ticks)))

    def engine(name: str, digests: list[str], untimed: float) -> bench.Engine:
        it = iter(digests)

        def check(_work: object) -> bench.RunCheck:
            return bench.RunCheck(next(it), untimed, 1 if untimed else None, 1 if untimed else 0)

        return bench.Engine(name, lambda r: r, lambda _w: 2, check)

    results = bench.measure([engine("a", ["x"] * 3, 0.25)], rounds=3, min_run=0)
    m = results["a"]
    assert m.digests == ["x", "x", "x"] and m.resets == 3 and m.departures == 3
    assert m.seconds == pytest.approx(3 * (1 - 0.25))  # each timed run: 1 tick, 0.25 untimed
    with pytest.raises(bench.BenchError, match="two ways"):
        # Round 0 repeated (the warm-up asks for 2 runs): the two runs ended apart.
        slow = engine("b", ["x", "y"], 0.0)
        bench.measure([slow], rounds=1, min_run=1.5)


def test_text_report_shows_the_same_games() -> None:
    settings = bench.Settings(
        workloads=("selfplay",), engines=("diplo-rust", "diplo-python"), games=2, max_year=1902
    )
    table = bench.run_benchmarks(settings).table()
    lines = table.splitlines()
    assert "final positions" in lines[4]
    rows = [
        line.split() for line in lines[5:] if line.split()[:1] in (["diplo-rust"], ["diplo-python"])
    ]
    assert len(rows) == 2
    assert len({row[2] for row in rows}) == 1  # phases/run
    assert len({row[6] for row in rows}) == 1  # final positions
    assert "the same games on every engine" in table
    assert "NOT the same games" not in table


def test_api_floor_replays_the_drop_ins_games_and_asks_the_same_questions() -> None:
    """``api-floor`` (the bound on any implementation's ratio) hands the bot the drop-in's own
    phases, so the bot plays the same game on it: the same phases and the same orders, each call
    a new dict of new lists."""
    import random

    from diplo.compat import mila as compat

    class Given:
        """A game whose ``set_orders`` calls are written down."""

        def __init__(self, game: Any) -> None:
            self.game = game
            self.orders: list[tuple[str, str, list[str]]] = []

        def __getattr__(self, name: str) -> Any:
            return getattr(self.game, name)

        def set_orders(self, power: str, orders: list[str]) -> None:
            self.orders.append((self.game.get_current_phase(), power, orders))
            self.game.set_orders(power, orders)

    for seed in (3, 8):
        floor, _ = api_floor_engine(seed, 1903, compat).setup(0)
        first = floor.get_all_possible_orders()
        again = floor.get_all_possible_orders()
        assert first == again and first is not again
        assert all(first[loc] is not again[loc] for loc in first)
        assert first["PAR"] and not first["NAO"]
        on_floor, on_drop_in = Given(floor), Given(compat.Game(map_name="standard"))
        phases = mila_bot(on_floor, random.Random(seed), 1903)
        assert phases == mila_bot(on_drop_in, random.Random(seed), 1903) >= 6
        assert on_floor.orders == on_drop_in.orders
        assert floor.get_current_phase() == "S1904M" and not floor.is_game_done


def test_the_vector_workload_says_when_a_unit_has_more_orders_than_max_orders() -> None:
    # A unit with more legal orders than the environments hold is a clear error naming the
    # option (twentytwenty's Arctic fleet has over 1,000), not an internal error.
    pytest.importorskip("numpy")
    from diplo.apps.bench.measure import BenchError
    from diplo.apps.bench.vector import vector_engines
    from diplo.engine import codes

    engines = vector_engines(0, 1902, 2, codes, standard_map(), max_orders=2)
    with pytest.raises(BenchError, match=r"more than max_orders=2.*\(bench --max-orders\)"):
        engines[0].setup(0)
