"""Processes seen from outside, for the tests and the fuzz kit that stop ``diplo rollouts``:
who a process's children are, whether a process still runs, waiting for processes to end
(Linux ``/proc``, or psutil when installed), the command line of a local run, and what a run
leaves in its folder (temporary files, the summary's game files)."""

from __future__ import annotations

import csv
import os
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import diplo

#: The package's folder, for the subprocesses (the one under test, not an installed copy).
PYTHONPATH = str(Path(diplo.__file__).resolve().parent.parent)

#: Whether processes can be found in /proc (the checks of workers need it).
HAS_PROC = Path("/proc/self/stat").exists()


def env() -> dict[str, str]:
    """The environment of a subprocess running this checkout's diplo."""
    out = dict(os.environ)
    out["PYTHONPATH"] = os.pathsep.join(p for p in (PYTHONPATH, out.get("PYTHONPATH")) if p)
    return out


def rollouts_command(args: Sequence[str]) -> list[str]:
    """``diplo rollouts`` on the local backend, quiet, with ``args``."""
    cmd = [sys.executable, "-m", "diplo", "rollouts", "--backend", "local", "--no-progress"]
    return [*cmd, *args]


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (psutil when installed, else /proc)."""
    try:
        import psutil  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        pass
    else:
        try:
            return {c.pid for c in psutil.Process(pid).children()}
        except psutil.NoSuchProcess:
            return set()
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped by its new parent, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_gone(pids: set[int], timeout: float = 30.0) -> set[int]:
    """The ``pids`` still alive after waiting up to ``timeout`` seconds for them to end."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        left = {p for p in pids if alive(p)}
        if not left:
            return left
        time.sleep(0.1)
    return {p for p in pids if alive(p)}


def limit_file_size(limit: int) -> None:
    """In a child before it runs: writes past ``limit`` bytes fail with ``EFBIG``."""
    import resource

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def tmp_files(out: Path) -> list[str]:
    """The temporary files left in the rollout folder ``out`` (none when it does not exist)."""
    return sorted(str(p.relative_to(out)) for p in out.rglob("*.tmp")) if out.exists() else []


def summary_files(out: Path) -> list[str]:
    """The game files the folder's ``summary.csv`` names."""
    with (out / "summary.csv").open(encoding="utf-8") as f:
        return sorted(r["file"] for r in csv.DictReader(f))
