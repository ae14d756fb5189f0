"""Peak memory of the parent of ``diplo rollouts`` with a million games queued.

    python benches/rollouts_memory.py [--games 1000000] [--seconds 60] [--workers 2]

Starts ``diplo rollouts --games N`` (short games: to 1901) in a fresh folder, samples the
parent's resident memory every 0.2 s for ``--seconds``, then sends Ctrl-C (the run keeps the
games finished, writes the summary and exits) and reports the parent's peak resident set
(``VmHWM``, Linux) with the games it had played. The parent's memory must not grow with the games
queued: the tasks are made from the seeds as the workers free up and the summary's rows wait on
disk. Not a timed test: run it by hand.
"""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _status_kb(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--dataset", action="store_true", help="also write the dataset")
    parser.add_argument("--json", default=None, help="write the figures to this file")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="diplo-mem-") as tmp:
        out = Path(tmp) / "run"
        cmd = [sys.executable, "-m", "diplo.apps.cli", "rollouts", "--games", str(args.games),
               "--workers", str(args.workers), "--backend", "local", "--max-year", "1901",
               "--out", str(out), "--no-progress"]  # fmt: skip
        if args.dataset:
            cmd.append("--dataset")
        proc = subprocess.Popen(
            cmd,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            # Ctrl-C must reach the run even when this bench was started in the background of a
            # shell without job control (which starts it with SIGINT ignored, as its children).
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        peak = 0
        samples = []
        start = time.monotonic()
        try:
            while time.monotonic() - start < args.seconds and proc.poll() is None:
                rss = _status_kb(proc.pid, "VmRSS")
                peak = max(peak, _status_kb(proc.pid, "VmHWM"))
                samples.append((round(time.monotonic() - start, 1), rss))
                time.sleep(0.2)
            if proc.poll() is None:
                peak = max(peak, _status_kb(proc.pid, "VmHWM"))
                proc.send_signal(signal.SIGINT)
                # The summary of the games played is written after the interruption: sample on.
                while proc.poll() is None:
                    try:
                        peak = max(peak, _status_kb(proc.pid, "VmHWM"))
                    except FileNotFoundError:
                        break
                    time.sleep(0.05)
            _, err = proc.communicate(timeout=600)
        finally:
            if proc.poll() is None:
                proc.kill()
        played = sum(1 for _ in (out / "games").glob("*.json"))
    figures = {
        "games_queued": args.games,
        "seconds": args.seconds,
        "workers": args.workers,
        "games_played": played,
        "parent_peak_rss_mb": round(peak / 1024, 1),
        "parent_rss_mb_first": round(samples[0][1] / 1024, 1) if samples else None,
        "parent_rss_mb_last": round(samples[-1][1] / 1024, 1) if samples else None,
        "exit": proc.returncode,
    }
    print(json.dumps(figures, indent=1))
    if proc.returncode not in (0, 130):
        print(err, file=sys.stderr)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
