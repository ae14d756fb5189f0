"""diplo rollouts under faults: bad counts and seeds, failed writes, signals, --years.

The promises tested: a count or seed out of range is refused by its option before anything is
written; a failed write leaves no temporary file and a folder the next run resumes; SIGTERM
stops a local run as Ctrl-C does (summary written, workers gone); workers die with their parent
however it dies; ``--years N`` plays N years from the map's first year."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

import diplo
from diplo.api.backends import rust_available

pytestmark = pytest.mark.skipif(not rust_available(), reason="the code API needs the Rust core")

#: The package's folder, for the subprocesses (the one under test, not an installed copy).
PYTHONPATH = str(Path(diplo.__file__).resolve().parent.parent)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (PYTHONPATH, env.get("PYTHONPATH")) if p)
    return env


def _command(args: Sequence[str]) -> list[str]:
    cmd = [sys.executable, "-m", "diplo", "rollouts", "--backend", "local", "--no-progress"]
    return [*cmd, *args]


def _cli(args: Sequence[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(_command(args), capture_output=True, text=True, timeout=180, env=_env())


def _tmp_files(out: Path) -> list[str]:
    return sorted(str(p.relative_to(out)) for p in out.rglob("*.tmp"))


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
