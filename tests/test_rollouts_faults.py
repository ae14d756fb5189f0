"""diplo rollouts under faults: bad counts and seeds, failed writes, signals, --years.

The promises tested: a count or seed out of range is refused by its option before anything is
written; a failed write leaves no temporary file and a folder the next run resumes; SIGTERM
stops a local run as Ctrl-C does (summary written, workers gone); workers die with their parent
however it dies; ``--years N`` plays N years from the map's first year."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from diplo.apps.cli import main
from processes import (
    HAS_PROC,
    children,
    env,
    limit_file_size,
    rollouts_command,
    summary_files,
    tmp_files,
    wait_gone,
)


def _command(args: Sequence[str]) -> list[str]:
    return rollouts_command(args)


def _cli(args: Sequence[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(_command(args), capture_output=True, text=True, timeout=180, env=env())


# --------------------------------------------------------------------------- counts and seeds


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--games", "0"], "--games"),
        (["--games", "1000000000000"], "--games"),
        (["--games", "2", "--seed", "-5"], "--seed"),
        (["--games", "2", "--seed", str(2**64)], "--seed"),
        (["--games", "3", "--seed", str(2**63 - 2)], "--seed"),
    ],
)
def test_counts_and_seeds_out_of_range_are_refused_before_writing(
    tmp_path: Path, args: list[str], option: str
) -> None:
    out = tmp_path / "r"
    done = _cli([*args, "--max-year", "1901", "--out", str(out)])
    assert done.returncode == 2, done.stderr
    assert option in done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert "OverflowError" not in done.stderr
    assert not out.exists()


def test_the_api_refuses_the_same_ranges(tmp_path: Path) -> None:
    from diplo.rollouts import run_rollouts

    for games, first in ((0, 0), (2, -1), (3, 2**63 - 2)):
        with pytest.raises(ValueError):
            run_rollouts(games, tmp_path / "r", first_seed=first, backend="local", progress=False)
    with pytest.raises(ValueError, match="seed -3"):
        run_rollouts(0, tmp_path / "r", seeds=[1, -3], backend="local", progress=False)
    with pytest.raises(ValueError, match="not from 0 to 2\\*\\*63 - 1"):
        run_rollouts(0, tmp_path / "r", seeds=[2**63], backend="local", progress=False)
    assert not (tmp_path / "r").exists()


def test_the_largest_seeds_play(tmp_path: Path) -> None:
    out = tmp_path / "r"
    done = _cli(["--games", "2", "--seed", str(2**63 - 2), "--max-year", "1901",
                 "--workers", "1", "--out", str(out)])  # fmt: skip
    assert done.returncode == 0, done.stderr
    with (out / "summary.csv").open(encoding="utf-8") as f:
        assert [int(r["seed"]) for r in csv.DictReader(f)] == [2**63 - 2, 2**63 - 1]


# --------------------------------------------------------------------------- failed writes


def _limit_file_size() -> None:
    limit_file_size(20_000)  # a write past the limit fails with EFBIG


@pytest.mark.skipif(sys.platform == "win32", reason="file-size limits are POSIX")
def test_a_write_past_the_file_size_limit_leaves_no_tmp_and_the_run_resumes(
    tmp_path: Path,
) -> None:
    out = tmp_path / "r"
    # Game files of two years are about 25 kB: every one is refused by the limit.
    args = ["--games", "4", "--max-year", "1902", "--workers", "1", "--batch", "2",
            "--dataset", "--out", str(out)]  # fmt: skip
    done = subprocess.run(
        _command(args),
        capture_output=True,
        text=True,
        timeout=180,
        env=env(),
        preexec_fn=_limit_file_size,
    )
    assert done.returncode == 2, done.stderr
    assert "File too large" in done.stderr and "Traceback" not in done.stderr
    assert tmp_files(out) == []
    assert list((out / "games").iterdir()) == list((out / "dataset").iterdir()) == []
    again = _cli(args)
    assert again.returncode == 0, again.stderr
    assert len(list((out / "games").glob("*.json"))) == 4
    assert tmp_files(out) == []


def test_a_batch_is_written_whole_or_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from diplo.rollouts import play

    batch = play.PlayedBatch(
        [play.PlayedGame(s, b"{}", play.file_name(s), {}) for s in (1, 2)], b"parquet"
    )
    (tmp_path / "games").mkdir()
    (tmp_path / "dataset").mkdir()
    real = play.write_atomic

    def full_disk(path: Path, data: bytes) -> None:
        if path.parent.name == "dataset":
            raise OSError(28, "No space left on device")
        real(path, data)

    monkeypatch.setattr(play, "write_atomic", full_disk)
    with pytest.raises(OSError, match="No space left"):
        play.write_batch(tmp_path, batch, files=True, dataset=True)
    # The part failed: the batch's files are gone too (a resumed run would refuse files
    # whose games the dataset lacks).
    assert sorted(tmp_path.rglob("*")) == [tmp_path / "dataset", tmp_path / "games"]


def test_a_failed_atomic_write_removes_its_tmp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from diplo.rollouts import play
    from diplo.rollouts.summary import write_tables

    def no_rename(self: Path, target: Path) -> Path:
        raise OSError(27, "File too large")

    monkeypatch.setattr(Path, "replace", no_rename)
    with pytest.raises(OSError, match="File too large"):
        play.write_atomic(tmp_path / "game-00000001.json", b"{}")
    with pytest.raises(OSError, match="File too large"):
        write_tables(iter([{"seed": 1}]), ["seed"], tmp_path / "summary.csv", None)
    assert list(tmp_path.iterdir()) == []


def _dead_pid() -> int:
    """A process id no process has (a child that has ended and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait(timeout=60)
    return child.pid


def test_a_run_removes_stale_tmp_files_it_finds(tmp_path: Path) -> None:
    out = tmp_path / "r"
    dead = _dead_pid()
    stale = [
        out / "games" / f".game-00000005.json.{dead}.tmp",
        out / "games" / ".game-00000006.json.tmp",  # as written before the pid was named
        out / "dataset" / f".part-00000000-00000001.parquet.{dead}.tmp",
        out / f".summary.csv.{dead}.tmp",
        out / f".summary-kept.{dead}.tmp",
    ]
    live = out / "games" / f".game-00000007.json.{os.getppid()}.tmp"  # a live process's
    mine = out / "games" / "notes.tmp"  # not a rollout's
    for path in [*stale, live, mine]:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"half a file")
    done = _cli(["--games", "2", "--max-year", "1901", "--workers", "1", "--dataset",
                 "--out", str(out)])  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert [p for p in stale if p.exists()] == []
    assert live.exists() and mine.exists()


# --------------------------------------------------------------------------- --years


@pytest.mark.parametrize(("map_name", "last"), [("standard", 1902), ("ancmed", 2)])
def test_years_plays_that_many_years_from_the_maps_first_year(
    tmp_path: Path, map_name: str, last: int
) -> None:
    out = tmp_path / "r"
    code = main(["rollouts", "--games", "2", "--years", "2", "--map", map_name, "--workers", "1",
                 "--backend", "local", "--no-progress", "--out", str(out)])  # fmt: skip
    assert code == 0
    for path in sorted((out / "games").glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert doc["status"]["max_year"] == last
        assert max(int(p["phase"][1:-1]) for p in doc["phases"]) == last
    saved = tmp_path / "play.json"
    assert main(["play", "--years", "2", "--map", map_name, "--quiet", "--save", str(saved)]) == 0
    assert json.loads(saved.read_text(encoding="utf-8"))["status"]["max_year"] == last


@pytest.mark.parametrize("command", ["rollouts", "play"])
@pytest.mark.parametrize(
    ("args", "wanted"),
    [
        (["--years", "0"], "--years: expected 1 year or more"),
        (["--years", "x"], "--years: expected a whole number"),
        (["--years", "2", "--max-year", "1903"], "not allowed with argument"),
        (["--years", "99999"], "--years 99999"),
    ],
)
def test_years_is_checked(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: str,
    args: list[str],
    wanted: str,
) -> None:
    out = tmp_path / "r"
    more = (
        ["--games", "1", "--out", str(out), "--backend", "local"] if command == "rollouts" else []
    )
    code: object
    try:
        code = main([command, *args, *more])
    except SystemExit as exc:  # argparse's refusal
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert wanted in err and "Traceback" not in err
    assert not out.exists()


# --------------------------------------------------------------------------- signals

linux_proc = pytest.mark.skipif(not HAS_PROC, reason="finds the workers in /proc")


def _start_run(out: Path) -> tuple[subprocess.Popen[str], set[int]]:
    """A long run of two workers, once it has written a few games: it and its workers."""
    args = ["--games", "4000", "--workers", "2", "--max-year", "1903", "--batch", "2",
            "--out", str(out)]  # fmt: skip
    proc = subprocess.Popen(
        _command(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env()
    )
    deadline = time.monotonic() + 120
    workers: set[int] = set()
    while len(list((out / "games").glob("*.json"))) < 4 or len(workers) < 2:
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError(proc.communicate())
        workers = children(proc.pid)
        time.sleep(0.05)
    return proc, workers


@linux_proc
@pytest.mark.parametrize("signals", [[signal.SIGTERM], [signal.SIGINT, signal.SIGTERM]])
def test_sigterm_stops_a_run_as_ctrl_c_does(tmp_path: Path, signals: list[int]) -> None:
    out = tmp_path / "r"
    proc, workers = _start_run(out)
    try:
        for sig in signals:
            proc.send_signal(sig)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    assert wait_gone(workers) == set()
    kept = sorted(f"games/{p.name}" for p in (out / "games").glob("*.json"))
    # Every game in the summary is on disk (a worker stopped at once may have finished
    # writing its batch after the summary: the next run resumes those).
    assert set(summary_files(out)) <= set(kept) and len(summary_files(out)) >= 4
    assert tmp_files(out) == []
    again = _cli(["--games", "4", "--max-year", "1903", "--out", str(out)])
    assert again.returncode == 0, again.stderr


@linux_proc
def test_workers_end_when_their_parent_is_killed(tmp_path: Path) -> None:
    out = tmp_path / "r"
    proc, workers = _start_run(out)
    try:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert wait_gone(workers) == set()


def test_the_watchdog_ends_a_worker_whose_parent_is_gone(tmp_path: Path) -> None:
    # Without prctl (not Linux, or a pool started off the main thread): a worker started
    # under a parent that has already changed ends itself.
    script = (
        "import os, time\n"
        "from diplo.rollouts.signals import start_worker\n"
        "start_worker(os.getppid(), pdeathsig=False)\n"
        "print('watching', flush=True)\n"
        "time.sleep(120)\n"
    )
    # The middle process starts the worker and exits at once: the worker's parent changes.
    middle = (
        "import subprocess, sys\n"
        f"p = subprocess.Popen([sys.executable, '-c', {script!r}], stdout=sys.stdout)\n"
        "print(p.pid, flush=True)\n"
        "import time; time.sleep(2)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", middle], capture_output=True, text=True, timeout=60, env=env()
    )
    lines = done.stdout.split()
    pid = int(lines[0])
    assert "watching" in lines
    assert wait_gone({pid}) == set()
