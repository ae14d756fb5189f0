"""diplo.rollouts: games from seeds on the code API, written as game files with a summary.

The promises tested: the same seeds give byte-identical game files whatever the backend, the
number of workers and the batching; every file reloads (replayed and checked by the engine) to
the final position the code API reached; a run resumes, and Ctrl-C keeps finished games."""

from __future__ import annotations

import csv
import gzip
import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from diplo.apps.cli import main
from diplo.engine.codes import CodeGame
from diplo.formats import gamefile
from diplo.model.orders import Hold, Order
from diplo.model.position import Position
from diplo.rollouts import GameTask, OrderPolicy, RolloutError, game_id, play_batch, run_rollouts
from diplo.rollouts.progress import Progress

MAX_YEAR = 1903  # short games: every phase kind, a few seconds for the whole module


def _files(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((out / "games").glob("*.json"))}


def _fast_final(seed: int, max_year: int) -> Position:
    """The game of ``seed`` played directly on the code API, as the default policy plays it."""
    game = CodeGame(max_year=max_year)
    rng = random.Random(seed)
    while not game.is_over:
        game.set_orders([rng.choice(options) for options in game.legal_orders()])
        game.process()
    return game.position()


@pytest.fixture(scope="module")
def local_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("local2")
    report = run_rollouts(
        10, out, workers=2, backend="local", max_year=MAX_YEAR, batch_size=3, progress=False
    )
    assert (report.played, report.skipped, report.interrupted) == (10, 0, False)
    return out


def test_batching_does_not_change_games() -> None:
    together = play_batch(GameTask((3, 4, 5), max_year=MAX_YEAR))
    alone = [play_batch(GameTask((s,), max_year=MAX_YEAR))[0] for s in (5, 3, 4)]
    assert [g.seed for g in together] == [3, 4, 5]
    assert {g.seed: g.text for g in together} == {g.seed: g.text for g in alone}
    assert len({g.text for g in together}) == 3  # different seeds, different games


def test_same_seeds_same_files_whatever_the_workers(local_run: Path, tmp_path: Path) -> None:
    run_rollouts(10, tmp_path, workers=1, backend="local", max_year=MAX_YEAR, progress=False)
    one = _files(tmp_path)
    assert one == _files(local_run)
    assert sorted(one) == [f"{game_id(s)}.json" for s in range(10)]


def test_every_file_reloads_to_the_fast_path_final_position(local_run: Path) -> None:
    for seed in range(10):
        path = local_run / "games" / f"{game_id(seed)}.json"
        game = gamefile.load(path)  # replays every phase with the engine and checks each ruling
        assert game.is_over and game.end_reason == "max_year"
        assert game.position.to_json() == _fast_final(seed, MAX_YEAR).to_json()
        assert game.meta["rollout"] == {"id": game_id(seed), "seed": seed, "policy": "random"}


def test_summary_tables_describe_the_files(local_run: Path) -> None:
    with (local_run / "summary.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["seed"]) for r in rows] == list(range(10))
    for row in rows:
        doc = json.loads((local_run / row["file"]).read_text(encoding="utf-8"))
        assert row["game_id"] == doc["meta"]["rollout"]["id"]
        assert int(row["phases"]) == len(doc["phases"])
        assert int(row["years"]) == MAX_YEAR - 1900 and int(row["final_year"]) == MAX_YEAR
        assert row["draw"] == "True" and row["winner"] == "" and row["end"] == "max_year"
        centers = {k[len("centers_") :]: int(v) for k, v in row.items() if k.startswith("centers_")}
        assert centers == doc["status"]["centers"]
    pq = pytest.importorskip("pyarrow.parquet", reason='Parquet needs pip install ".[rollouts]"')
    table = pq.read_table(local_run / "summary.parquet").to_pylist()
    assert [r["game_id"] for r in table] == [r["game_id"] for r in rows]
    assert [r["centers_FRANCE"] for r in table] == [int(r["centers_FRANCE"]) for r in rows]
    assert all(r["winner"] is None and r["draw"] is True for r in table)


def test_resume_skips_games_on_disk(local_run: Path, tmp_path: Path) -> None:
    before = _files(local_run)
    games = tmp_path / "games"
    games.mkdir()
    for name in list(before)[:6]:
        (games / name).write_bytes(before[name])
    report = run_rollouts(
        10, tmp_path, workers=1, backend="local", max_year=MAX_YEAR, progress=False
    )
    assert (report.played, report.skipped) == (4, 6)
    assert _files(tmp_path) == before
    assert [r["seed"] for r in report.rows] == list(range(10))


def test_compressed_files_hold_the_same_games(local_run: Path, tmp_path: Path) -> None:
    report = run_rollouts(
        10, tmp_path, workers=2, backend="local", max_year=MAX_YEAR, compress=True, progress=False
    )
    plain = _files(local_run)
    packed = {p.name: p.read_bytes() for p in (tmp_path / "games").glob("*.json.gz")}
    assert sorted(packed) == [f"{name}.gz" for name in sorted(plain)]
    assert all(gzip.decompress(packed[f"{n}.gz"]) == data for n, data in plain.items())
    assert [r["file"] for r in report.rows] == [f"games/{n}" for n in sorted(packed)]
    with gzip.open(tmp_path / "games" / f"{game_id(4)}.json.gz", "rt", encoding="utf-8") as f:
        game = gamefile.load(f)
    assert game.position.to_json() == _fast_final(4, MAX_YEAR).to_json()
    again = run_rollouts(
        12, tmp_path, workers=1, backend="local", max_year=MAX_YEAR, progress=False
    )
    assert (again.played, again.skipped) == (2, 10)  # compressed or not, a game on disk counts


def test_resume_refuses_a_folder_of_other_settings(local_run: Path, tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    name = f"{game_id(0)}.json"
    (tmp_path / "games" / name).write_bytes((local_run / "games" / name).read_bytes())
    with pytest.raises(RolloutError, match="to 1903, not 'standard' to 1905"):
        run_rollouts(2, tmp_path, workers=1, backend="local", max_year=1905, progress=False)


def _first_hold(position: Position, legal: dict[str, dict[str, list[Order]]], rng: Any) -> Any:
    """An order policy: every unit holds when it can, otherwise the first listed order."""
    out: dict[str, list[Order]] = {}
    for power, slots in legal.items():
        for options in slots.values():
            holds = [o for o in options if isinstance(o, Hold)]
            out.setdefault(power, []).append(holds[0] if holds else options[0])
    return out


def test_an_order_policy_is_played_and_recorded() -> None:
    (played,) = play_batch(GameTask((0,), max_year=1902, policy=OrderPolicy(_first_hold)))
    doc = json.loads(played.text)
    spring = doc["phases"][0]
    assert spring["phase"] == "S1901M"
    assert all(o.endswith(" H") for os in spring["orders"].values() for o in os)
    assert doc["status"]["centers"]["FRANCE"] == 3  # nobody moved, nobody built
    assert doc["meta"]["rollout"]["policy"] == "OrderPolicy"


class _ShortPolicy:
    def __call__(self, game: CodeGame, legal: list[list[int]], rng: random.Random) -> list[int]:
        return [options[0] for options in legal][:-1]


class _NotCodes:
    def __call__(self, game: CodeGame, legal: list[list[int]], rng: random.Random) -> list[Any]:
        return ["A PAR H" for _ in legal]


def test_a_policy_answering_nonsense_is_named() -> None:
    with pytest.raises(RolloutError, match=r"seed 7: S1901M: the policy gave 21 codes for 22"):
        play_batch(GameTask((7,), policy=_ShortPolicy()))
    with pytest.raises(RolloutError, match="'A PAR H', not an order code"):
        play_batch(GameTask((7,), policy=_NotCodes()))
    with pytest.raises(ValueError, match="callable"):
        OrderPolicy(42)  # type: ignore[arg-type]


def test_bad_settings_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown backend 'dask'"):
        run_rollouts(1, tmp_path, backend="dask")
    with pytest.raises(ValueError, match="workers must be a positive int"):
        run_rollouts(1, tmp_path, workers=0, backend="local")
    with pytest.raises(ValueError, match="unknown map 'mars'"):
        run_rollouts(1, tmp_path, backend="local", map_name="mars")
    with pytest.raises(ValueError, match="an address is for the ray backend"):
        run_rollouts(1, tmp_path, backend="local", address="auto")
    with pytest.raises(ValueError, match="seeds must be distinct"):
        run_rollouts(0, tmp_path, backend="local", seeds=[1, 1])


def test_cli_reports_errors_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["rollouts", "--games", "2", "--out", str(tmp_path), "--map", "mars",
                 "--backend", "local"])  # fmt: skip
    assert code == 2
    assert capsys.readouterr().err.startswith("diplo: unknown map 'mars'")


def test_progress_line() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Tty()
    bar = Progress(10, skipped=2, stream=stream, width=10)
    bar.start -= 2.0  # two seconds ago
    bar.advance(4)
    line = stream.getvalue().rsplit("\r", 1)[-1]
    assert line.startswith("[######....] 6/10 games  2.0 games/s  0:00:02 left")
    assert Progress(10, stream=io.StringIO()).enabled is False  # not a terminal: silent


def test_ctrl_c_keeps_finished_games_and_the_run_resumes(tmp_path: Path) -> None:
    out = tmp_path / "r"
    # Far more games than can finish before the signal (the run stops at Ctrl-C, not at the end).
    cmd = [sys.executable, "-m", "diplo.apps.cli", "rollouts", "--games", "4000", "--workers", "2",
           "--backend", "local", "--max-year", "1903", "--batch", "2",
           "--out", str(out)]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while len(list((out / "games").glob("*.json"))) < 4:
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    kept = _files(out)
    assert 4 <= len(kept) < 4000
    with (out / "summary.csv").open(encoding="utf-8") as f:
        assert sorted(r["file"] for r in csv.DictReader(f)) == [f"games/{n}" for n in kept]
    for name in kept:
        gamefile.load(out / "games" / name)  # whole files only
    assert not [n for n in os.listdir(out / "games") if not n.endswith(".json")]
    # Games finish out of seed order, so the kept ones need not be the first seeds: resuming
    # skips exactly the kept games among the seeds asked for and plays the rest.
    wanted = len(kept) + 3
    done = {int(name.removeprefix("game-").removesuffix(".json")) for name in kept}
    report = run_rollouts(wanted, out, workers=1, backend="local", max_year=1903, progress=False)
    skipped = len(done & set(range(wanted)))
    assert (report.played, report.skipped) == (wanted - skipped, skipped)


def test_ray_backend_gives_the_local_games(local_run: Path, tmp_path: Path) -> None:
    pytest.importorskip("ray", reason='the ray backend needs pip install ".[ray]"')
    out = tmp_path / "ray"
    code = main(["rollouts", "--games", "50", "--workers", "2", "--backend", "ray",
                 "--max-year", str(MAX_YEAR), "--out", str(out), "--no-progress"])  # fmt: skip
    assert code == 0
    files = _files(out)
    assert len(files) == 50
    local = _files(local_run)
    assert {n: files[n] for n in local} == local
    with (out / "summary.csv").open(encoding="utf-8") as f:
        assert len(list(csv.DictReader(f))) == 50


def test_workers_that_cannot_start_are_an_error_not_a_hang(tmp_path: Path) -> None:
    # A script read from stdin cannot be imported again by spawned workers: they die at start.
    script = (
        "from diplo.rollouts import RolloutError, run_rollouts\n"
        "try:\n"
        f"    run_rollouts(2, {str(tmp_path)!r}, workers=2, backend='local', max_year=1901,\n"
        "                 progress=False, batch_size=1)\n"
        "except RolloutError as exc:\n"
        "    print('refused:', exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-"], input=script, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("refused: a worker process died")
    assert 'if __name__ == "__main__"' in done.stdout


# --------------------------------------------------------------------------- engine-written files


def _phases_of(seed: int, max_year: int, map_name: str = "standard") -> list[Any]:
    """The ``(power, code)`` orders of every phase of the game of ``seed`` (the default policy)."""
    from diplo.model.map import map_named

    return _phases_of_map(seed, max_year, map_named(map_name))


@pytest.mark.parametrize(("map_name", "max_year"), [("standard", 1908), ("pure", 1906)])
def test_engine_written_files_are_the_object_api_files_byte_for_byte(
    map_name: str, max_year: int
) -> None:
    from diplo.rollouts.play import write_by_replay
    from diplo.rollouts.summary import summary_row

    seeds = tuple(range(10))
    task = GameTask(seeds, map_name, max_year=max_year)
    for played in play_batch(task):
        old = write_by_replay(played.seed, _phases_of(played.seed, max_year, map_name), task)
        assert played.text == old
        assert played.row == summary_row(json.loads(old), played.name)


def test_a_policy_giving_codes_the_engine_rewrites_falls_back_to_the_object_api() -> None:
    class Unnormal:
        """The first legal code, with the unit type bit of a build flipped: not a normal form."""

        def __call__(self, game: CodeGame, legal: list[list[int]], rng: random.Random) -> list[int]:
            from diplo.engine.codes import BUILD, FLEET, kind_of

            return [options[0] ^ FLEET if kind_of(options[0]) == BUILD else options[0]
                    for options in legal]  # fmt: skip

    (played,) = play_batch(GameTask((1,), max_year=1903, policy=Unnormal()))
    game = gamefile.load(io.StringIO(played.text))
    assert game.is_over


def test_the_dataset_has_one_row_per_order_given(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    report = run_rollouts(
        4, tmp_path, workers=1, backend="local", max_year=1902, dataset=True, progress=False
    )
    table = pq.read_table(tmp_path / "dataset").to_pylist()
    assert report.dataset == tmp_path / "dataset"
    by_game: dict[int, list[dict[str, Any]]] = {}
    for row in table:
        by_game.setdefault(row["game"], []).append(row)
    assert sorted(by_game) == [0, 1, 2, 3]
    from diplo.engine.codes import RESULT_CODES

    for seed, rows in by_game.items():
        doc = json.loads((tmp_path / "games" / f"{game_id(seed)}.json").read_text())
        expected = [
            (entry["phase"], r["power"], r["order"], r["success"], r["code"])
            for entry in doc["phases"]
            for r in entry["results"]
            if r["given"]
        ]
        got = [(r["phase"], r["power"], r["order"], r["success"], RESULT_CODES[r["result"]])
               for r in rows]  # fmt: skip
        assert got == expected
        assert all(r["reason"] == 0 for r in rows)
        from diplo.engine.codes import encode_order
        from diplo.model.map import standard_map
        from diplo.model.orders import parse_order

        m = standard_map()
        assert all(encode_order(parse_order(r["order"], m), m) == r["code"] for r in rows[:30])


def test_dataset_only_writes_no_game_file(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    report = run_rollouts(
        3, tmp_path, workers=1, backend="local", max_year=1902, dataset=True, files=False,
        progress=False,
    )  # fmt: skip
    assert not (tmp_path / "games").exists()
    assert sorted({r["game"] for r in pq.read_table(tmp_path / "dataset").to_pylist()}) == [0, 1, 2]
    assert [r["seed"] for r in report.rows] == [0, 1, 2]
    first = report.rows
    assert all(r["file"] == "" for r in first)
    # Run again with more games: the parts verify, their games are kept, the rest are played.
    again = run_rollouts(5, tmp_path, workers=1, backend="local", max_year=1902, dataset=True,
                         files=False, progress=False)  # fmt: skip
    assert (again.played, again.skipped, again.games) == (2, 3, 5)
    assert [r["seed"] for r in again.rows] == [0, 1, 2, 3, 4]
    assert again.rows[:3] == first


def test_a_run_with_files_and_dataset_resumes_only_when_both_hold_the_same_games(
    tmp_path: Path,
) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    settings: dict[str, Any] = dict(
        workers=1, backend="local", max_year=1902, dataset=True, progress=False, batch_size=2
    )
    run_rollouts(4, tmp_path, **settings)
    # Both agree: the resume keeps the four games and plays the fifth, in files and rows alike.
    again = run_rollouts(5, tmp_path, **settings)
    assert (again.played, again.skipped) == (1, 4)
    games = sorted({r["game"] for r in pq.read_table(tmp_path / "dataset").to_pylist()})
    assert games == [0, 1, 2, 3, 4]
    # A part lost (a run stopped between a batch's files and its part): refused, by game.
    lost = sorted((tmp_path / "dataset").glob("part-*"))[0]
    rows_before = lost.read_bytes()
    lost.unlink()
    with pytest.raises(RolloutError, match="no rows of the game of seed 0") as refused:
        run_rollouts(6, tmp_path, **settings)
    assert "seed 1" in str(refused.value)
    assert not (tmp_path / "games" / f"{game_id(5)}.json").exists()  # nothing was played
    # A file lost: its game's rows have no file.
    lost.write_bytes(rows_before)
    (tmp_path / "games" / f"{game_id(4)}.json").unlink()
    with pytest.raises(RolloutError, match="rows of the game of seed 4, which has no file"):
        run_rollouts(6, tmp_path, **settings)


def test_files_of_a_run_without_the_dataset_do_not_resume_into_one(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow.parquet")
    run_rollouts(2, tmp_path, workers=1, backend="local", max_year=1902, progress=False)
    with pytest.raises(RolloutError, match="no rows of the game of seed 0"):
        run_rollouts(
            3, tmp_path, workers=1, backend="local", max_year=1902, dataset=True, progress=False
        )


def test_workers_are_bounded(tmp_path: Path) -> None:
    from diplo.rollouts.run import max_workers

    limit = max_workers("local")
    with pytest.raises(ValueError, match=f"workers {limit + 1} is more than {limit}"):
        run_rollouts(1, tmp_path, workers=limit + 1, backend="local")
    code = main(["rollouts", "--games", "1", "--out", str(tmp_path), "--workers", "100000",
                 "--backend", "local"])  # fmt: skip
    assert code == 2


def _tamper(path: Path, change: Any) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    change(doc)
    path.write_text(json.dumps(doc, ensure_ascii=False) + "\n", encoding="utf-8")


def _set_winner(doc: dict[str, Any]) -> None:
    doc["status"]["winner"] = "FRANCE"


def _set_centers(doc: dict[str, Any]) -> None:
    doc["status"]["centers"]["FRANCE"] = 30


def _set_formula(doc: dict[str, Any]) -> None:
    doc["meta"]["rollout"]["id"] = '=HYPERLINK("http://x")'


def _set_result(doc: dict[str, Any]) -> None:
    doc["phases"][0]["results"][0]["success"] = not doc["phases"][0]["results"][0]["success"]


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (_set_winner, "winner"),
        (_set_centers, r"status\.centers"),
        (_set_formula, "meta.rollout does not match"),
        (_set_result, "does not verify"),
    ],
)
def test_resume_refuses_tampered_files_by_name(
    local_run: Path, tmp_path: Path, change: Any, why: str
) -> None:
    games = tmp_path / "games"
    games.mkdir()
    for name, data in _files(local_run).items():
        (games / name).write_bytes(data)
    victim = games / f"{game_id(3)}.json"
    _tamper(victim, change)
    with pytest.raises(RolloutError, match=why) as info:
        run_rollouts(12, tmp_path, workers=2, backend="local", max_year=MAX_YEAR, progress=False)
    assert str(victim) in str(info.value)
    assert not (tmp_path / "summary.csv").exists()  # nothing reached a summary
    assert not (games / f"{game_id(11)}.json").exists()  # nothing was played


def test_resume_derives_rows_from_the_verified_games(local_run: Path, tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    for name, data in _files(local_run).items():
        (games / name).write_bytes(data)
    report = run_rollouts(
        10, tmp_path, workers=2, backend="local", max_year=MAX_YEAR, progress=False
    )
    assert (report.played, report.skipped, report.games) == (0, 10, 10)
    with (local_run / "summary.csv").open(encoding="utf-8") as f:
        first = list(csv.DictReader(f))
    with (tmp_path / "summary.csv").open(encoding="utf-8") as f:
        again = list(csv.DictReader(f))
    assert again == first


def test_a_stray_file_name_is_refused(local_run: Path, tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    (games / "game-12.json").write_text("{}", encoding="utf-8")
    with pytest.raises(RolloutError, match=r"game-12\.json: not a game file name"):
        run_rollouts(1, tmp_path, workers=1, backend="local", max_year=MAX_YEAR, progress=False)


def test_csv_cells_are_escaped_against_formulas(tmp_path: Path) -> None:
    from diplo.rollouts.summary import csv_cell, read_csv_rows, write_tables

    assert csv_cell("=1+1") == "'=1+1" and csv_cell("-x") == "'-x" and csv_cell("@A") == "'@A"
    assert csv_cell(-3) == -3 and csv_cell("FRANCE") == "FRANCE" and csv_cell(None) == ""
    rows = [{"seed": 1, "winner": "=cmd|' /C calc'!A0", "draw": False, "file": "games/x"}]
    write_tables(rows, ["seed", "winner", "draw", "file"], tmp_path / "s.csv", None)
    text = (tmp_path / "s.csv").read_text(encoding="utf-8")
    assert "\n1,'=cmd" in text
    assert read_csv_rows(tmp_path / "s.csv")[0]["winner"] == rows[0]["winner"]


def test_tasks_are_taken_as_workers_free_up() -> None:
    from diplo.rollouts.backends import run_local

    taken = []

    def tasks() -> Any:
        for i in range(40):
            taken.append(i)
            yield GameTask((i,), max_year=1901)

    seen: list[int] = []

    def on_done(k: int, batch: Any) -> None:
        # Never more than the window ahead of what has been handed over.
        assert len(taken) - len(seen) <= 4
        seen.append(k)

    run_local(tasks(), 2, on_done, window=4)
    assert sorted(seen) == list(range(40))


def test_engine_written_files_of_a_map_of_ones_own_carry_it(tmp_path: Path) -> None:
    from importlib import resources

    from diplo.model.map import Map
    from diplo.rollouts.play import write_by_replay

    data = json.loads(
        resources.files("diplo").joinpath("data/pure.json").read_text(encoding="utf-8")
    )
    data["name"] = "my-pure"
    mine = Map.from_dict(data)
    task = GameTask((0, 1, 2), mine.name, mine, max_year=1903)
    for played in play_batch(task):
        doc = json.loads(played.text)
        assert doc["map"] == "my-pure" and doc["map_data"] == mine.to_dict()
        phases = _phases_of_map(played.seed, 1903, mine)
        assert played.text == write_by_replay(played.seed, phases, task)


def _phases_of_map(seed: int, max_year: int, game_map: Any) -> list[Any]:
    from diplo.rollouts.policy import RandomPolicy, choose

    game = CodeGame(Position.initial(game_map), max_year)
    rng = random.Random(seed)
    phases = []
    while not game.is_over:
        chosen = choose(RandomPolicy(), game, game.legal_orders(), rng)
        phases.append(chosen)
        game.set_orders([code for _power, code in chosen])
        game.process()
    return phases
