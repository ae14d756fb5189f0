"""The long fuzz run of ``docs/fuzzing.md``: the checks of ``tests/fuzzing.py`` on many inputs.

    nice -n 19 python tools/fuzz_long.py --inputs 1000000 --seed 1 [--surfaces parser,contract,...]

Inputs are spread over the surfaces by weight (cheap ones get more). Every input runs under a
time limit (``--timeout`` seconds, enforced with ``SIGALRM``); ``SIGTERM`` stops the run after the
current input, with the summary of the inputs run so far. A check that fails, raises anything
but its surface's documented error, or overruns is counted and its seed printed, so that
``--replay SURFACE:SEED`` reproduces it. Prints one JSON summary line at the end (counts per
surface and outcome, crashes, hangs, slowest input, inputs per second).
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import FrameType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import fuzzing
import fuzzing_processes
from test_codes import compare_phase, generated_position, slow_orders

SURFACES: dict[str, tuple[float, Callable[[random.Random], str]]] = {
    "parser": (60, fuzzing.check_parser),
    "contract": (25, fuzzing.check_contract),
    "game_file": (5, fuzzing.check_game_file),
    "fast_codes": (10, lambda r: fuzzing.check_fast_codes(r, generated_position, compare_phase)),
    "fast_calls": (5, lambda r: fuzzing.check_fast_calls(r, generated_position, slow_orders)),
    "jsonl": (5, fuzzing.check_jsonl),
    "env": (2, fuzzing.check_env),
    "vector": (2, fuzzing.check_vector_env),
    "mila_dropin": (3, fuzzing.check_mila_dropin),
    "rollouts": (0.2, fuzzing.check_rollouts),
    "rollout_faults": (0.01, fuzzing_processes.check_rollout_faults),
}


class Hang(Exception):
    pass


class Stop(BaseException):
    """SIGTERM: stop after the current input and print the summary of the inputs run so far."""


def _stop(signum: int, frame: FrameType | None) -> None:
    raise Stop


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--inputs", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--surfaces",
        default=",".join(SURFACES),
        help="comma-separated names, each optionally =WEIGHT (default weights: "
        + ", ".join(f"{k}={w}" for k, (w, _) in SURFACES.items())
        + ")",
    )
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--replay", default=None, help="SURFACE:SEED, one input, with traceback")
    parser.add_argument("--progress", type=int, default=50_000, help="report every N inputs")
    args = parser.parse_args()
    if args.replay:
        name, seed = args.replay.split(":")
        print(SURFACES[name][1](random.Random(int(seed))))
        return 0
    chosen: list[str] = []
    weights: list[float] = []
    for item in filter(None, args.surfaces.split(",")):
        name, _, weight = item.partition("=")
        chosen.append(name)
        weights.append(float(weight) if weight else SURFACES[name][0])
    plan = random.Random(args.seed)
    signal.signal(signal.SIGALRM, _alarm)
    outcomes: Counter[str] = Counter()
    failures: list[dict[str, object]] = []
    slowest = (0.0, "")
    fuzzing.seed_documents()  # built once, outside the timed inputs
    if "rollouts" in chosen:
        fuzzing._rollout_seed_folder()
    signal.signal(signal.SIGTERM, _stop)
    start = time.perf_counter()
    done = 0
    try:
        for n in range(1, args.inputs + 1):
            name = plan.choices(chosen, weights)[0]
            seed = plan.getrandbits(48)
            check = SURFACES[name][1]
            t0 = time.perf_counter()
            signal.setitimer(signal.ITIMER_REAL, args.timeout)
            try:
                outcome = check(random.Random(seed))
            except Hang:
                outcome = "HANG"
                failures.append({"surface": name, "seed": seed, "outcome": outcome})
            except Exception as exc:
                outcome = "CRASH" if not isinstance(exc, AssertionError) else "MISMATCH"
                failures.append(
                    {
                        "surface": name,
                        "seed": seed,
                        "outcome": outcome,
                        "error": traceback.format_exception_only(exc)[-1].strip()[:300],
                    }
                )
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            elapsed = time.perf_counter() - t0
            if elapsed > slowest[0]:
                slowest = (elapsed, f"{name}:{seed}")
            outcomes[f"{name}/{outcome}"] += 1
            done = n
            if outcome in ("HANG", "CRASH", "MISMATCH"):
                print(json.dumps(failures[-1]), flush=True)
            if args.progress and n % args.progress == 0:
                rate = n / (time.perf_counter() - start)
                print(f"# {n} inputs, {len(failures)} failures, {rate:.0f}/s", flush=True)
    except Stop:
        print(f"# stopped (SIGTERM) after {done} inputs", flush=True)
    total = time.perf_counter() - start
    summary = {
        "inputs": done,
        "planned": args.inputs,
        "seed": args.seed,
        "seconds": round(total, 1),
        "inputs_per_second": round(done / total) if total else 0,
        "failures": len(failures),
        "slowest": {"seconds": round(slowest[0], 3), "input": slowest[1]},
        "outcomes": dict(sorted(outcomes.items())),
    }
    print(json.dumps(summary))
    return 1 if failures or done < args.inputs else 0


if __name__ == "__main__":
    sys.exit(main())
