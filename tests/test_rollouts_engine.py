"""diplo.rollouts on the engine's own player (``_core.RolloutPlayer``): random games played and
written whole in Rust give exactly the games, files and dataset rows of the code API's loop
(``random.Random(seed)``'s choices, :class:`~diplo.rollouts.write.EngineWriter`'s files); a run
without game files resumes from its dataset parts after verifying each, naming any it refuses;
the local pool is kept from run to run."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from diplo.rollouts import GameTask, RolloutError, run_rollouts
from diplo.rollouts import play as play_module
from diplo.rollouts.play import PlayedBatch, play_task

# Every shipped map, with a year limit of a few years (ancmed's years start at 1).
MAPS = [
    ("standard", 1906),
    ("pure", 1905),
    ("fleet_rome", 1905),
    ("france_austria", 1906),
    ("germany_italy", 1906),
    ("ancmed", 5),
]


def _on_the_code_api(task: GameTask, monkeypatch: pytest.MonkeyPatch) -> PlayedBatch:
    """The task played without the engine's player: the code API's loop, phase by phase."""
    with monkeypatch.context() as m:
        m.setattr(play_module, "_engine_games", lambda task, game_map: None)
        return play_task(task)


def _tables_equal(a: bytes, b: bytes) -> bool:
    pq = pytest.importorskip("pyarrow.parquet")
    return bool(pq.read_table(io.BytesIO(a)).equals(pq.read_table(io.BytesIO(b))))


@pytest.mark.parametrize(("map_name", "max_year"), MAPS)
def test_the_engine_plays_and_writes_the_code_api_games(
    map_name: str, max_year: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("pyarrow")
    seeds = (-7, 0, 1, 2, 3, 4, 5, 6, 7, 1 << 40)
    task = GameTask(seeds, map_name, max_year=max_year, dataset=True)
    engine, loop = play_task(task), _on_the_code_api(task, monkeypatch)
    assert [g.seed for g in engine.games] == list(seeds)
    for a, b in zip(engine.games, loop.games, strict=True):
        assert a.data == b.data, f"seed {a.seed}: the files differ"
        assert (a.name, a.row) == (b.name, b.row)
    assert len({g.data for g in engine.games}) == len(seeds)  # different seeds, different games
    assert _tables_equal(engine.dataset, loop.dataset)


def test_the_engine_writes_what_it_is_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    only_rows = GameTask((3, 4), max_year=1904, files=False, dataset=True)
    engine, loop = play_task(only_rows), _on_the_code_api(only_rows, monkeypatch)
    assert [g.data for g in engine.games] == [b"", b""]
    assert [g.row for g in engine.games] == [g.row for g in loop.games]
    assert _tables_equal(engine.dataset, loop.dataset)
    zipped = GameTask((3,), max_year=1904, compress=True)
    assert play_task(zipped).games[0].data == _on_the_code_api(zipped, monkeypatch).games[0].data
    rows = pq.read_table(io.BytesIO(engine.dataset)).to_pylist()
    # Every legal order has its text: a hold in location 0 (code 0) included.
    assert rows and all(r["order"] for r in rows if r["reason"] == 0)
    held = [r for r in rows if r["code"] == 0]
    assert all(r["order"].endswith(" H") for r in held)


def test_a_game_the_engine_cannot_write_is_played_on_the_code_api(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The player answers None (here: made to, for one seed): that game is the code API's, the
    others the player's, the rows in seed order."""
    pytest.importorskip("pyarrow")
    from diplo.rollouts.write import EngineGames

    real = EngineGames.play

    def play(self: EngineGames, seed: int, *args: Any) -> Any:
        return None if seed == 5 else real(self, seed, *args)

    task = GameTask((4, 5, 6), max_year=1904, dataset=True)
    loop = _on_the_code_api(task, monkeypatch)
    monkeypatch.setattr(play_module, "_ENGINES", {})
    monkeypatch.setattr(EngineGames, "play", play)
    mixed = play_task(task)
    assert [g.data for g in mixed.games] == [g.data for g in loop.games]
    assert _tables_equal(mixed.dataset, loop.dataset)


# ------------------------------------------------------------------ resuming without files


def _dataset_run(out: Path, games: int, **options: Any) -> Any:
    settings: dict[str, Any] = {
        "workers": 2,
        "backend": "local",
        "max_year": 1903,
        "batch_size": 3,
        "dataset": True,
        "files": False,
        "progress": False,
    }
    settings.update(options)
    return run_rollouts(games, out, **settings)


@pytest.fixture(scope="module")
def dataset_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("pyarrow")
    out = tmp_path_factory.mktemp("dataset")
    report = _dataset_run(out, 7)
    assert (report.played, report.games) == (7, 7)
    return out


def _copy(run: Path, to: Path) -> Path:
    (to / "dataset").mkdir(parents=True)
    for part in (run / "dataset").iterdir():
        (to / "dataset" / part.name).write_bytes(part.read_bytes())
    return to / "dataset"


def test_a_dataset_run_resumes_from_its_verified_parts(dataset_run: Path, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    _copy(dataset_run, tmp_path)
    report = _dataset_run(tmp_path, 10)
    assert (report.played, report.skipped, report.games) == (3, 7, 10)
    first = (dataset_run / "summary.csv").read_text(encoding="utf-8").splitlines()
    again = (tmp_path / "summary.csv").read_text(encoding="utf-8").splitlines()
    assert again[: len(first)] == first  # the kept games' rows, derived from verified games
    games = pq.read_table(tmp_path / "dataset").column("game").to_pylist()
    assert sorted(set(games)) == list(range(10))
    # Its parts say what they were made with: another year limit is refused by name.
    with pytest.raises(RolloutError, match="to 1903, not 'standard' to 1904") as info:
        _dataset_run(tmp_path, 12, max_year=1904)
    assert "part-00000000-00000002.parquet" in str(info.value)


def _rewrite(path: Path, change: Any) -> None:
    """The part at ``path`` with its rows (a list of dicts) changed by ``change``, its
    metadata kept."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    rows = table.to_pylist()
    change(rows)
    pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), path)


def _flip_success(rows: list[dict[str, Any]]) -> None:
    rows[5]["success"] = not rows[5]["success"]


def _other_order(rows: list[dict[str, Any]]) -> None:
    # The first unit of the first game holds rather than what it did: a game the engine can
    # play, but its rows say something else than the engine rules.
    rows[0]["order"] = rows[0]["order"].split(" ")[0] + " X"


def _drop_last_phase(rows: list[dict[str, Any]]) -> None:
    last = rows[-1]["phase"]
    game = rows[-1]["game"]
    rows[:] = [r for r in rows if not (r["game"] == game and r["phase"] == last)]


def _split_game(rows: list[dict[str, Any]]) -> None:
    rows.append(dict(rows[0]))


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (_flip_success, "not what the engine rules"),
        (_other_order, "not what the engine rules"),
        (_drop_last_phase, "stop before the game's end"),
        (_split_game, "not together"),
    ],
)
def test_a_dataset_resume_refuses_tampered_parts_by_name(
    dataset_run: Path, tmp_path: Path, change: Any, why: str
) -> None:
    parts = _copy(dataset_run, tmp_path)
    victim = parts / "part-00000003-00000005.parquet"
    _rewrite(victim, change)
    with pytest.raises(RolloutError, match=why) as info:
        _dataset_run(tmp_path, 10)
    assert str(victim) in str(info.value)
    assert not (tmp_path / "summary.csv").exists()  # nothing reached a summary
    assert len(list(parts.iterdir())) == 3  # nothing was played


def test_a_dataset_resume_refuses_a_game_in_two_parts_and_stray_names(
    dataset_run: Path, tmp_path: Path
) -> None:
    parts = _copy(dataset_run, tmp_path)
    twin = parts / "part-00000000-00000002.parquet"
    (parts / "part-00000000-00000002x.parquet").write_bytes(b"")
    with pytest.raises(RolloutError, match="not a dataset part name"):
        _dataset_run(tmp_path, 10)
    (parts / "part-00000000-00000002x.parquet").unlink()
    import pyarrow.parquet as pq

    table = pq.read_table(twin)
    game0 = table.slice(0, table.column("game").to_pylist().count(0))
    pq.write_table(game0, parts / "part-00000000-00000000.parquet")
    with pytest.raises(RolloutError, match="game 0 is also in another part"):
        _dataset_run(tmp_path, 10)
    (parts / "part-00000000-00000000.parquet").write_bytes(b"not parquet")
    with pytest.raises(RolloutError, match="not a readable Parquet file"):
        _dataset_run(tmp_path, 10)


def test_the_local_pool_is_kept_from_run_to_run(tmp_path: Path) -> None:
    from diplo.rollouts.backends import local_pool, shutdown_workers

    run_rollouts(2, tmp_path / "a", workers=2, backend="local", max_year=1901, progress=False)
    pool = local_pool(2)
    run_rollouts(2, tmp_path / "b", workers=2, backend="local", max_year=1901, progress=False)
    assert local_pool(2) is pool
    shutdown_workers()
    assert local_pool(2) is not pool
    assert json.loads((tmp_path / "b" / "games" / "game-00000001.json").read_text())["map"]


def test_a_mutated_part_is_kept_whole_or_refused_with_a_reason(
    dataset_run: Path, tmp_path: Path
) -> None:
    """Arbitrary changes to a part's cells (seeded): the check names a reason or keeps the
    part, never raises; a kept part's rows are those of the engine's games."""
    import random

    import pyarrow as pa
    import pyarrow.parquet as pq

    from diplo.rollouts.verify import PartTask, verify_parts

    source = dataset_run / "dataset" / "part-00000003-00000005.parquet"
    table = pq.read_table(source)
    (good,) = verify_parts(PartTask((str(source),), "standard", 1903))
    assert good.problem is None and good.seeds == (3, 4, 5)
    rng = random.Random(18)
    choices: dict[str, list[Any]] = {
        "game": [3, 4, 5, 6, -1, None],
        "phase": ["S1901M", "F1901M", "W1901A", "X", "", None],
        "power": ["FRANCE", "ENGLAND", "france", "ATLANTIS", None],
        "order": ["A PAR H", "", "\ud7ff", None],
        "code": [0, 1, 2**63, 2**64 - 1, None],
        "success": [True, False, None],
        "result": [0, 1, 6, 127, -128, None],
        "reason": [0, 3, 127, None],
    }
    outcomes = set()
    for k in range(40):
        rows = table.to_pylist()
        for _ in range(rng.choice([1, 1, 3])):
            row = rng.randrange(len(rows))
            column = rng.choice(list(choices))
            rows[row][column] = rng.choice(choices[column])
        path = tmp_path / f"m{k}" / source.name
        path.parent.mkdir()
        pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), path)
        (checked,) = verify_parts(PartTask((str(path),), "standard", 1903))
        if checked.problem is None:
            assert checked.rows == good.rows  # only a change to what it was can be kept
        else:
            assert str(checked.problem) and "Traceback" not in checked.problem
        outcomes.add(checked.problem is None)
    assert False in outcomes
