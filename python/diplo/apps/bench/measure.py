"""Timing: an engine's work on a workload, run in interleaved rounds (:func:`measure`)."""

from __future__ import annotations

import gc
import hashlib
import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any


class BenchError(RuntimeError):
    """The benchmark cannot run as asked (an engine that does not accept its inputs)."""


@dataclass(frozen=True)
class Engine:
    """One engine on one workload.

    ``setup(round)`` builds, outside the timer, the input of one timed run; ``run(input)`` is the
    timed work and returns the number of phases it processed.
    """

    name: str
    setup: Callable[[int], Any]
    run: Callable[[Any], int]
    #: Asked after each timed run, outside the timer (workloads whose engines play the same
    #: games): what the run left to check, see :class:`RunCheck`.
    check: Callable[[Any], RunCheck] | None = None


@dataclass(frozen=True)
class RunCheck:
    """What a run of a self-play engine leaves: the digest of its final position
    (:func:`position_digest`), the seconds of the run that were not its work (taken off its
    time) and how many times it was set to the recorded position after ruling a phase otherwise
    (``None``: an engine that plays its games rather than replaying them), and of those resets
    how many diplo reproduces under ``Rules(edition="mila")`` (MILA's known departures from the
    DATC, ``docs/mila-compat.md``)."""

    digest: str
    untimed: float = 0.0
    resets: int | None = None
    #: Of the resets, those where diplo under ``edition=mila`` rules as MILA did.
    departures: int = 0


#: A timed run lasts at least this long: shorter ones repeat the engine's run within the round.
MIN_RUN_SECONDS = 0.02
MAX_REPEATS = 1000


def measure(
    engines: Sequence[Engine], rounds: int, min_run: float = MIN_RUN_SECONDS
) -> dict[str, Measurement]:
    """Time every engine ``rounds`` times, taking turns (the first of each turn rotates).

    A fast engine starts each of its turns cold (the other engines have just filled the caches
    and the allocator with their own data; the code API runs at half speed for its first
    milliseconds), so a run that would last less than ``min_run`` is repeated within the turn
    (fresh inputs each time, all built before the clock starts), as often as an untimed warm-up
    run says is needed. The garbage collector runs as it would in a program.
    """
    out = {e.name: Measurement() for e in engines}
    gc.collect()
    repeats = {e.name: _repeats_needed(e, min_run) for e in engines}
    clock = time.perf_counter
    for r in range(rounds):
        shift = r % len(engines) if engines else 0
        for engine in [*engines[shift:], *engines[:shift]]:
            works = [engine.setup(r) for _ in range(repeats[engine.name])]
            start = clock()
            phases = sum(engine.run(work) for work in works)
            elapsed = clock() - start
            m = out[engine.name]
            if engine.check is not None:
                checks = [engine.check(work) for work in works]
                if len({c.digest for c in checks}) > 1:
                    raise BenchError(f"{engine.name} played round {r}'s game two ways")
                if checks[0].digest:  # "": a run that leaves nothing to compare
                    m.digests.append(checks[0].digest)
                elapsed -= sum(c.untimed for c in checks)
                if checks[0].resets is not None:
                    m.resets = (m.resets or 0) + sum(c.resets or 0 for c in checks)
                    m.departures += sum(c.departures for c in checks)
            del works
            if phases < 1:
                raise BenchError(f"{engine.name} processed no phase")
            m.phases += phases
            m.runs += repeats[engine.name]
            m.seconds += elapsed
            m.rounds.append(elapsed * 1e6 / phases)
    return out


def _repeats_needed(engine: Engine, min_run: float) -> int:
    """Warm the engine up (untimed) and return how many runs last ``min_run``."""
    elapsed = 0.0
    for _ in range(2):  # the first run is the coldest: measure again when it was short
        work = engine.setup(0)
        start = time.perf_counter()
        engine.run(work)
        elapsed = time.perf_counter() - start
        if elapsed >= min_run:
            break
    return max(1, min(MAX_REPEATS, math.ceil(min_run / max(elapsed, 1e-9))))


@dataclass
class Measurement:
    """Totals of one engine on one workload, and its microseconds per phase in each round."""

    phases: int = 0
    seconds: float = 0.0
    rounds: list[float] = field(default_factory=list)
    runs: int = 0  # the engine's runs of the workload, over all rounds (repeats included)
    #: Engines with a :class:`RunCheck`: the digest of each round's final position, in order.
    digests: list[str] = field(default_factory=list)
    #: A replaying engine's resets over all runs (:class:`RunCheck`), else ``None``; of those,
    #: the known departures of MILA's from the DATC.
    resets: int | None = None
    departures: int = 0

    @property
    def final_positions(self) -> str | None:
        """One digest of the final positions of every round (``None`` when not checked)."""
        if not self.digests:
            return None
        return hashlib.sha256(" ".join(self.digests).encode()).hexdigest()[:16]

    @property
    def us_per_phase(self) -> float:
        return statistics.median(self.rounds)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "phases": self.phases,
            "seconds": round(self.seconds, 6),
            "us_per_phase": round(self.us_per_phase, 3),
        }
        if self.digests:
            out["final_positions"] = self.final_positions
        if self.resets is not None:
            out["resets"] = self.resets
        return out
