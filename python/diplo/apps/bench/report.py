"""The report of a ``diplo bench`` run: the JSON document and the text table."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .deepmind import DEEPMIND_STEPS
from .measure import MIN_RUN_SECONDS, Measurement
from .mila_calls import DEEPCOPY_EVERY, bounds, call_ratios, call_rows
from .settings import DESCRIPTIONS, REFERENCE, Settings
from .vector import VECTOR_STEPS


def ratios(workload: str, results: dict[str, Measurement]) -> dict[str, float]:
    """Each engine's µs per phase divided by the reference engine's (``"mila/diplo-rust"``)."""
    if workload == "mila-calls":
        return call_ratios(results)
    ref = REFERENCE[workload]
    if ref not in results:
        return {}
    base = results[ref].us_per_phase
    return {
        f"{name}/{ref}": round(m.us_per_phase / base, 3)
        for name, m in results.items()
        if name != ref and base > 0
    }


@dataclass
class Report:
    """What a run measured: per workload, per engine."""

    settings: Settings
    workloads: dict[str, dict[str, Measurement]] = field(default_factory=dict)
    movement_units: list[int] = field(default_factory=list)
    fast_path: bool = False
    #: The mila-calls workload: phases the drop-in ruled otherwise and was set to MILA's state.
    call_resets: int = 0

    def to_json(self) -> dict[str, Any]:
        """The ``diplo bench --json`` report; ``ratios`` and ``settings`` are extra keys."""
        return {
            "workloads": {
                w: {name: m.to_json() for name, m in results.items()}
                for w, results in self.workloads.items()
            },
            "ratios": {w: ratios(w, results) for w, results in self.workloads.items()},
            "settings": {
                **asdict(self.settings),
                "movement_units": self.movement_units,
                "fast_path": self.fast_path,
            },
        }

    def table(self) -> str:
        """The text ``diplo bench`` prints: µs per phase per engine and the ratios."""
        s = self.settings
        units = self.movement_units
        details = {
            "movement": f"{len(units)} phases of {min(units, default=0)}-{max(units, default=0)}"
            f" units x {s.rounds} rounds",
            "strings": f"{len(units)} phases x {s.rounds} rounds",
            "jsonl": f"{len(units)} documents per run x {s.rounds} rounds (µs per document)",
            "selfplay": f"{s.games} games (seeds {s.seed}-{s.seed + s.games - 1}) to {s.max_year}"
            ", one per round",
            "batch": f"{s.batch_size} phases per call x {s.rounds} rounds",
            "mila-api": f"{s.games} games (seeds {s.seed}-{s.seed + s.games - 1}) to {s.max_year}",
            "rollouts": f"{s.rollout_games} games per engine x {s.rollout_rounds} rounds to "
            f"{s.max_year} (µs per game per core)",
            "deepmind": f"one game per run to {s.max_year} (batched: {s.deepmind_games} games x "
            f"{DEEPMIND_STEPS} steps, µs per game's phase) x {s.rounds} rounds; picking the "
            "random actions is not timed",
            "vector": f"{s.vector_envs} games x {VECTOR_STEPS} steps per run (the env, CodeGame "
            f"and MILA: one game per run) to {s.max_year} x {s.rounds} rounds",
        }
        lines: list[str] = []
        for workload, results in self.workloads.items():
            if workload == "mila-calls":
                lines += _mila_calls_lines(results, s, self.call_resets)
                continue
            ref = REFERENCE[workload]
            base = results[ref].us_per_phase if ref in results else None
            checked = any(m.digests for m in results.values())
            lines.append(f"{workload}: {DESCRIPTIONS[workload]}")
            lines.append(f"  {details[workload]}")
            if checked:
                lines.append(
                    "  every engine plays each seed's canonical game: one random stream, one "
                    "choice per slot in the order"
                )
                lines.append(
                    "  of diplo's object API (powers in map order, provinces sorted, each list in "
                    "text order)"
                )
            head = f"÷ {ref}" if base else ""
            final = f"{'final positions':>18}" if checked else ""
            lines.append(
                f"  {'engine':<22}{'µs/phase':>10}{'phases/run':>11}{'runs':>6}{'phases':>9}"
                f"{'seconds':>10}{final}  {head}"
            )
            per_run: set[float] = set()
            for name, m in results.items():
                ratio = f"{m.us_per_phase / base:8.2f}" if base else ""
                each = m.phases / m.runs if m.runs else 0.0
                per_run.add(round(each, 1))
                digest = f"{m.final_positions or '-':>18}" if checked else ""
                lines.append(
                    f"  {name:<22}{m.us_per_phase:>10.1f}{each:>11.1f}{m.runs:>6}{m.phases:>9}"
                    f"{m.seconds:>10.3f}{digest}  {ratio}"
                )
            rounds = max((len(m.rounds) for m in results.values()), default=0)
            lines.append(
                "  phases/run: one run's work, the same for engines that did the same work; runs: "
                f"over {rounds} rounds,"
            )
            lines.append(
                f"  a fast engine repeating its run in a round to last {MIN_RUN_SECONDS * 1000:.0f}"
                " ms or more; phases, seconds: totals over all runs"
            )
            if checked:
                lines += _same_games_lines(results)
            if len(per_run) > 1:
                lines.append(
                    "  not the same phases/run on every engine (the same seeds): compare µs per "
                    "phase, not seconds"
                )
            if workload == "vector":
                lines.extend(_vector_summary(results))
            if workload == "mila-api":
                lines.extend(_mila_api_summary(results))
            if workload == "deepmind":
                lines.extend(_deepmind_summary(results))
            lines.append("")
        return "\n".join(lines)


def _same_games_lines(results: dict[str, Measurement]) -> list[str]:
    """What the ``final positions`` column shows: whether every engine ended every round where
    the others did, and what the replaying engines (``mila``) had to be helped with."""
    digests = {name: m.final_positions for name, m in results.items() if m.digests}
    lines: list[str] = []
    if len(set(digests.values())) == 1 and len(digests) == len(results):
        lines.append(
            "  final positions: a digest of the positions every round's game ended in: the same "
            "games on every engine"
        )
    else:
        differ = ", ".join(f"{name} {d or '-'}" for name, d in digests.items())
        lines.append(f"  final positions differ: NOT the same games on every engine ({differ})")
    for name, m in results.items():
        if m.resets is None:
            continue
        if not m.resets:
            lines.append(
                f"  {name} replays the canonical games, listing its own possible orders every "
                "phase: it ruled every phase as diplo did"
            )
            continue
        others = m.resets - m.departures
        explained = f"all {m.resets}" if not others else f"{m.departures}; {others} not"
        lines.append(
            f"  {name} replays the canonical games: it lists its own possible orders every phase "
            "and takes the"
        )
        lines.append(
            f"  canonical choice out of its list; it ruled {m.resets} of its {m.phases} phases "
            f"otherwise than diplo ({explained}"
        )
        lines.append(
            "  as diplo rules under edition=mila: its departures from the DATC, "
            "docs/mila-compat.md) and after"
        )
        lines.append("  each was set to the canonical next position, untimed")
    return lines


def _deepmind_summary(results: dict[str, Measurement]) -> list[str]:
    """The deepmind workload's two targets (issue 30), from this one run: the single state at
    least 100 x the MILA baseline, the batched state on 2 threads at least 10 x the single."""
    out = []
    pairs = (
        ("diplo-single", "mila-deepmind", 100),
        ("diplo-batched-1thread", "diplo-single", 10),
        ("diplo-batched-2threads", "diplo-single", 10),
    )
    for fast, slow, target in pairs:
        if fast in results and slow in results:
            times = results[slow].us_per_phase / results[fast].us_per_phase
            out.append(
                f"  {fast} plays {times:.1f} x {slow}'s phases per second (target {target} x)"
            )
    us = {name: m.us_per_phase for name, m in results.items()}
    single, engine = us.get("diplo-single"), us.get("diplo-batched-1thread")
    if single is None or engine is None:
        return out
    # The one-game state is the engine's work (a batched game's phase on one thread) plus its
    # Python calls: what bounds each ratio.
    out.append(
        f"  where diplo-single's {single:.1f} µs go: {engine:.1f} in the engine (a batched "
        f"game's phase) + {single - engine:.1f} in Python (the calls, lists and arrays)"
    )
    out.append(
        f"  bound: batched on T threads plays at most T x {single / engine:.1f} x diplo-single's "
        f"phases per second (2 threads: {2 * single / engine:.1f} x)"
    )
    if "mila-deepmind" in us:
        out.append(
            f"  bound: with no Python at all, diplo-single would play "
            f"{us['mila-deepmind'] / engine:.0f} x mila-deepmind's phases per second"
        )
    return out


def _vector_summary(results: dict[str, Measurement]) -> list[str]:
    """The vector workload's headline: the 2-thread environment's phases per second as a
    multiple of the PettingZoo environment's and of MILA's, from this one run."""
    fast = results.get("diplo-vector-2threads")
    if fast is None:
        return []
    others = [name for name in ("diplo-env", "mila") if name in results]
    if not others:
        return []
    times = ", ".join(
        f"{results[name].us_per_phase / fast.us_per_phase:.1f} x {name}'s" for name in others
    )
    return [f"  diplo-vector-2threads plays {times} phases per second"]


def _mila_api_summary(results: dict[str, Measurement]) -> list[str]:
    """The mila-api workload's headline: MILA's time per phase as a multiple of the drop-in's,
    and of the API at no cost (``api-floor``): about the most any implementation could show."""
    mila = results.get("mila")
    if mila is None:
        return []
    lines = []
    compat = results.get("diplo-compat")
    if compat is not None:
        lines.append(f"  MILA ÷ diplo-compat: {mila.us_per_phase / compat.us_per_phase:.1f}")
    floor = results.get("api-floor")
    if floor is not None:
        lines.append(
            f"  MILA ÷ api-floor: {mila.us_per_phase / floor.us_per_phase:.1f}, about the most "
            "any implementation of MILA's API could show"
        )
        lines.append(
            "  under this loop (api-floor: the bot's loop on the drop-in's phases, recorded and "
            "handed out as the API"
        )
        lines.append("  must, a new dict of new lists per call, with no rule applied)")
    return lines


def _mila_calls_lines(results: dict[str, Measurement], s: Settings, resets: int) -> list[str]:
    """The mila-calls table: per call, µs on the drop-in and on MILA, their ratio, the target."""
    games = min(s.call_rounds, 3)
    lines = [
        f"mila-calls: {DESCRIPTIONS['mila-calls']}",
        f"  {games} games (seeds {s.seed}-{s.seed + games - 1}) to {s.max_year} played on MILA, "
        f"replayed by both x {s.call_rounds} rounds; deepcopy every {DEEPCOPY_EVERY} phases",
        f"  {'call':<26}{'diplo-compat µs':>16}{'mila µs':>12}{'mila ÷ diplo':>14}{'target':>8}",
    ]
    for call, mine, mila, ratio, target in call_rows(results):
        miss = "" if ratio >= target else "  below target"
        aim = f"{target:>8.0f}" if target else f"{'-':>8}"  # a reference row has none
        lines.append(f"  {call:<26}{mine:>16.2f}{mila:>12.2f}{ratio:>14.1f}{aim}{miss}")
    lines.append(
        "  µs per call (map queries: per query; harness-loop: per phase, each side playing its own "
        "random game of the seed),"
    )
    lines.append(
        f"  medians over the rounds; the drop-in ruled {resets} phases otherwise than MILA and "
        "was set to MILA's state (untimed)"
    )
    most = bounds(results)
    if most:
        said = ", ".join(f"{call} {ratio:.1f}x" for call, ratio in most.items())
        lines.append(
            f"  bounds (MILA ÷ its reference row: the most any drop-in could show): {said}"
        )
    lines.append("")
    return lines
