"""Running the workloads a :class:`~.settings.Settings` asks for (:func:`run_benchmarks`)."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from ...formats.mila import MILA_MAP_NAMES
from ...model.variants import load_map
from .engines import MILA_MISSING, codes_module, mila_module, optional_module
from .inputs import MovementPhase, prepare_movement_phases
from .measure import Measurement, measure
from .mila_api import mila_api_engines
from .mila_calls import measure_mila_calls
from .movement import (
    batch_engines,
    external_engines,
    jsonl_engines,
    movement_engines,
    strings_engines,
)
from .report import Report
from .selfplay import selfplay_engines
from .settings import Settings
from .vector import vector_engines, vector_work

Note = Callable[[str], None]


def _runnable_peers(commands: tuple[str, ...], say: Note) -> tuple[str, ...]:
    """The external commands, less the peers named that cannot run here (each said, by name)."""
    from ..peers import PEERS, missing_reason

    out = []
    for command in commands:
        why = missing_reason(command) if command in PEERS else None
        if why is None:
            out.append(command)
        else:
            say(f"engine {command} omitted: {why}")
    return tuple(out)


def run_benchmarks(settings: Settings, note: Note | None = None) -> Report:
    """Run the workloads of ``settings``; ``note`` is told what is left out and what runs."""
    say = note or (lambda _text: None)
    fast = codes_module()
    mila = mila_module() if "mila" in settings.engines else None
    if "mila" in settings.engines and mila is None:
        say(f"mila omitted: {MILA_MISSING}")
    if fast is None:
        say(
            "diplo.engine.codes is not built: diplo-rust is process_phase(..., 'rust'), "
            "the object API"
        )
    report = Report(settings, fast_path=fast is not None)
    game_map = None if settings.map is None else load_map(settings.map)
    mila_map = "standard" if settings.map is None else MILA_MAP_NAMES.get(settings.map)
    if mila_map is None and settings.map is not None and settings.map.endswith(".map"):
        mila_map = settings.map  # MILA reads its own format from a path
    if mila is not None and mila_map is None:
        say(f"mila omitted: MILA does not know the map {settings.map}")
        mila = None
    phases: list[MovementPhase] = []
    if {"movement", "strings", "jsonl", "batch"} & set(settings.workloads):
        say(f"preparing {settings.phases} movement phases from random self-play")
        phases = prepare_movement_phases(
            settings.phases, settings.seed, settings.max_year, game_map=game_map
        )
        report.movement_units = [p.units for p in phases]
    if "movement" in settings.workloads:
        engines = movement_engines(phases, settings.engines, fast, mila, mila_map or "standard")
        external = _runnable_peers(settings.external, say)
        if external:
            engines += external_engines(phases, external)
            for i, command in enumerate(external, start=1):
                say(f"external-{i} is {command!r}; diplo-jsonl is diplo adjudicate --jsonl")
        say(f"movement: {len(engines)} engines x {settings.rounds} rounds")
        report.workloads["movement"] = measure(engines, settings.rounds)
    if "strings" in settings.workloads:
        engines = strings_engines(phases, settings.engines, mila)
        say(f"strings: {len(engines)} engines x {settings.rounds} rounds")
        report.workloads["strings"] = measure(engines, settings.rounds)
    if "jsonl" in settings.workloads:
        engines = jsonl_engines(phases, settings.engines)
        say(f"jsonl: {len(engines)} engines x {settings.rounds} rounds")
        report.workloads["jsonl"] = measure(engines, settings.rounds)
    if "selfplay" in settings.workloads:
        engines = selfplay_engines(
            settings.seed,
            settings.max_year,
            settings.engines,
            fast,
            mila,
            game_map=game_map,
            mila_map=mila_map or "standard",
        )
        say(f"selfplay: {len(engines)} engines x {settings.games} games to {settings.max_year}")
        report.workloads["selfplay"] = measure(engines, settings.games)
    if "mila-api" in settings.workloads:
        engines = mila_api_engines(settings.seed, settings.max_year, settings.engines, mila)
        if engines:
            say(f"mila-api: {len(engines)} engines x {settings.games} games to {settings.max_year}")
            report.workloads["mila-api"] = measure(engines, settings.games)
        else:
            say("mila-api omitted: neither diplo.compat.mila nor MILA can run here")
    if "mila-calls" in settings.workloads:
        _run_mila_calls(settings, report, mila, mila_map or "standard", say)
    if "batch" in settings.workloads:
        if fast is None:
            say("batch omitted: diplo.engine.codes (and its process_batch) is not built")
        elif "diplo-rust" not in settings.engines:
            say("batch omitted: diplo-rust is not among the engines asked for")
        else:
            engines = batch_engines(phases, settings.batch_size, fast)
            say(f"batch: {settings.batch_size} phases per call x {settings.rounds} rounds")
            report.workloads["batch"] = measure(engines, settings.rounds)
    if "rollouts" in settings.workloads:
        if fast is None:
            say("rollouts omitted: diplo rollouts needs the code API (diplo.engine.codes)")
        else:
            from ...rollouts.bench import measure_rollouts

            say(f"rollouts: 3 engines x {settings.rollout_rounds} rounds")
            measured = measure_rollouts(
                settings.seed,
                settings.max_year,
                settings.rollout_games,
                settings.rollout_rounds,
                settings.map or "standard",
            )
            report.workloads["rollouts"] = {
                # One run per round: the table's phases/run is games per run.
                name: Measurement(games, seconds, rounds, len(rounds))
                for name, (games, seconds, rounds) in measured.items()
            }
    if "vector" in settings.workloads:
        if fast is None:
            say("vector omitted: diplo.engine.codes is not built")
        elif optional_module("diplo.env") is None:
            say("vector omitted: diplo.env needs the env extra (pip install '.[env]')")
        else:
            engines = vector_engines(
                settings.seed,
                settings.max_year,
                settings.vector_envs,
                fast,
                game_map,
                mila,
                mila_map or "standard",
                settings.max_orders,
            )
            say(f"vector: {settings.vector_envs} games x {settings.rounds} rounds")
            slots, orders = vector_work(
                settings.seed,
                settings.max_year,
                settings.vector_envs,
                game_map,
                settings.max_orders,
            )
            say(f"vector: per game and step, {slots:.1f} slots with {orders:.0f} legal orders")
            report.workloads["vector"] = measure(engines, settings.rounds)
    if "deepmind" in settings.workloads:
        _run_deepmind(settings, report, mila, say)
    return report


def _run_deepmind(settings: Settings, report: Report, mila: ModuleType | None, say: Note) -> None:
    """The deepmind workload, or why it cannot run here (the baseline alone may be left out)."""
    if codes_module() is None or optional_module("diplo.env") is None:
        say("deepmind omitted: it needs diplo.engine.codes built and the env extra (NumPy)")
        return
    from .deepmind import deepmind_engines

    if settings.map is not None:
        say("deepmind: DeepMind's encoding is the standard map's: --map is not used")
    engines, notes = deepmind_engines(
        settings.seed, settings.max_year, settings.deepmind_games, mila
    )
    for text in notes:
        say(text)
    say(f"deepmind: {len(engines)} engines x {settings.rounds} rounds to {settings.max_year}")
    report.workloads["deepmind"] = measure(engines, settings.rounds)


def _run_mila_calls(
    settings: Settings, report: Report, mila: ModuleType | None, mila_map: str, say: Note
) -> None:
    """The mila-calls workload, or why it cannot run here."""
    compat = optional_module("diplo.compat.mila")
    if mila is None or compat is None or "diplo-rust" not in settings.engines:
        why = (
            MILA_MISSING
            if mila is None and "mila" in settings.engines
            else "it needs both mila and diplo-rust (the drop-in) among the engines, built"
        )
        say(f"mila-calls omitted: {why}")
        return
    say(f"mila-calls: diplo-compat and mila x {settings.call_rounds} rounds to {settings.max_year}")
    measured, resets = measure_mila_calls(
        compat, mila, settings.seed, settings.max_year, settings.call_rounds, mila_map
    )
    report.workloads["mila-calls"] = measured
    report.call_resets = resets.get("diplo-compat", 0)
