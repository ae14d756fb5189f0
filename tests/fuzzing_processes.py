"""The fuzz kit's surface of processes (``docs/fuzzing.md``): ``diplo rollouts`` on the local
backend started as a command and met by the faults of real use: SIGTERM, SIGINT, both, two
SIGTERMs, SIGHUP or SIGKILL at a random moment of the run, or a file-size limit that makes
writes fail (a full disk, as the process sees it). Whatever happened, the workers end with
their parent (none is left running), the command never shows a traceback or an internal error,
a stopped run keeps a summary of games that are on disk and no temporary file, and the next
run into the folder resumes it to the full count with nothing left over."""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import subprocess
import tempfile
import time
from functools import partial
from pathlib import Path

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

#: The faults, each a list of signals sent in turn (``fsize``: a file-size limit instead).
FAULTS: dict[str, list[int]] = {
    "none": [],
    "SIGTERM": [signal.SIGTERM],
    "SIGINT": [signal.SIGINT],
    "SIGINT+SIGTERM": [signal.SIGINT, signal.SIGTERM],
    "SIGTERM+SIGTERM": [signal.SIGTERM, signal.SIGTERM],
    "SIGHUP": [signal.SIGHUP],
    "SIGKILL": [signal.SIGKILL],
    "fsize": [],
}
#: How long one command may take before the check calls it a hang (the harness's own limit
#: should be longer: two runs and a wait for the workers).
RUN_SECONDS = 90.0


def _games(out: Path) -> list[str]:
    folder = out / "games"
    if not folder.is_dir():
        return []
    return sorted(f"games/{p.name}" for p in folder.iterdir() if not p.name.endswith(".tmp"))


def _clean(text: str) -> None:
    assert "Traceback" not in text and "internal error" not in text, text[-2000:]


def _kill_if_ours(pid: int, work: Path) -> None:
    """SIGKILL ``pid`` if it still runs a command naming ``work`` (a worker of this check: its
    id cannot have gone to another process while it runs)."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return
    if str(work).encode() in command:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def check_rollout_faults(rng: random.Random, fault: str | None = None) -> str:
    """One run under one fault (``fault``, a name of :data:`FAULTS`; drawn when ``None``), then
    a run that resumes it (see the module documentation)."""
    if not HAS_PROC:
        return "skipped"
    work = Path(tempfile.mkdtemp(prefix="diplo-fuzz-proc-"))
    out = work / "out"
    games = rng.randint(4, 40)
    args = [
        "--games", str(games),
        "--seed", str(rng.randint(0, 10**6)),
        "--workers", str(rng.choice([1, 2])),
        "--max-year", str(rng.choice([1901, 1902, 1903])),
        "--batch", str(rng.choice([1, 2, 3])),
        "--out", str(out),
    ]  # fmt: skip
    if rng.random() < 0.3:
        args.append("--compress")
    drawn = rng.choice(list(FAULTS))
    fault = drawn if fault is None else fault
    limit = rng.choice([3_000, 12_000, 40_000])
    preexec = partial(limit_file_size, limit) if fault == "fsize" else None
    proc = subprocess.Popen(
        rollouts_command(args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env(),
        preexec_fn=preexec,
    )
    seen: set[int] = set()  # every child the run had, to find any left running after it
    try:
        deadline = time.monotonic() + RUN_SECONDS
        # The signals come once the run has started (its folder made), after a random while.
        started = None
        delay = rng.uniform(0.0, 1.5)
        sent = False
        while proc.poll() is None:
            seen |= children(proc.pid)
            if time.monotonic() > deadline:
                raise AssertionError(f"{fault}: the run did not end within {RUN_SECONDS} s")
            if not sent and FAULTS[fault] and (out / "games").is_dir():
                started = started or time.monotonic()
                if time.monotonic() - started >= delay:
                    for sig in FAULTS[fault]:
                        proc.send_signal(sig)
                        time.sleep(rng.uniform(0.0, 0.2))
                    sent = True
            time.sleep(0.02)
        _, err = proc.communicate(timeout=RUN_SECONDS)
        code = proc.returncode
        left = wait_gone(seen)
        assert not left, f"{fault}: workers {sorted(left)} still run after their parent ended"
        _clean(err)
        if not sent:
            outcome = "finished"
            if fault == "fsize" and code == 2:
                assert "File too large" in err, err[-500:]
                outcome = "refused"
            else:
                assert code == 0, (fault, code, err[-500:])
        elif fault in ("SIGHUP", "SIGKILL"):
            assert code in (-FAULTS[fault][0], 0), (fault, code, err[-500:])
            outcome = "killed" if code else "finished"
        else:
            assert code in (130, 0), (fault, code, err[-500:])
            outcome = "stopped" if code else "finished"
        if outcome in ("finished", "stopped", "refused"):
            assert tmp_files(out) == [], (fault, tmp_files(out))
        if outcome in ("finished", "stopped"):
            assert set(summary_files(out)) <= set(_games(out)), fault
        if outcome == "finished" and fault != "fsize":
            assert len(summary_files(out)) == games, fault
        # The next run, with nothing in its way, resumes the folder to the full count.
        again = subprocess.run(
            rollouts_command(args), capture_output=True, text=True, timeout=RUN_SECONDS, env=env()
        )
        _clean(again.stderr)
        assert again.returncode == 0, (fault, outcome, again.stderr[-500:])
        assert tmp_files(out) == [], (fault, outcome, tmp_files(out))
        assert len(_games(out)) == len(summary_files(out)) == games, (fault, outcome)
        return f"{fault}/{outcome}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        for pid in seen:  # never leave a worker behind, even when a check failed
            _kill_if_ours(pid, work)
        shutil.rmtree(work, ignore_errors=True)
