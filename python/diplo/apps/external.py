"""Other resolvers through diplo's suite: ``diplo datc --engine CMD``, ``diplo bench --engine CMD``.

An *external engine* is any command that speaks the JSON contract (``docs/json-contract.md``) in
``--jsonl`` mode: it reads one input document per line on standard input and writes one output
document (or ``{"error": ...}``) per line, in the same order. ``diplo adjudicate --jsonl`` is one;
a converter in front of another adjudicator is another.

:class:`ExternalEngine` runs the command once per batch of documents (all of them on standard
input, so that a process start is paid per batch, not per phase). :func:`run_datc` plays the DATC
fixture through it, phase by phase: the first phase of every case goes in one batch, then the
second phase of the cases that have one (built from the engine's own output, as diplo chains its
own phases), and so on; every output is read back into a ruling and compared with the DATC's
expectations by the same checks as diplo's own run (:mod:`diplo.apps.conformance`), so a failure
says what the engine got wrong, or that its output could not be read.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..formats.gamefile import GameFileError, stored_record
from ..model.map import Map, standard_map
from ..model.position import Dislodged, Phase, Position
from ..model.results import PhaseOutcome
from . import conformance

__all__ = [
    "EngineError",
    "ExternalEngine",
    "ExternalRun",
    "diplo_command",
    "engine_summary",
    "outcome_from_json",
    "resolve_command",
    "run_datc",
]


class EngineError(RuntimeError):
    """The external command could not be run, or did not answer one line per document."""


def diplo_command() -> str:
    """diplo's own command in ``--jsonl`` mode, as an external engine (for comparisons)."""
    return f"{shlex.quote(sys.executable)} -m diplo.apps.cli adjudicate --jsonl"


def resolve_command(text: str) -> str:
    """The command behind ``text``: a peer's name (``mila``, ``pydip``, ``diplomacy-crate``,
    ``dipcc``: :mod:`diplo.apps.peers`) is its adapter's command, anything else is a command.
    Raises :class:`EngineError` naming what is missing when a named peer cannot run here."""
    from .peers import PEERS, peer_command

    if text not in PEERS:
        return text
    try:
        return peer_command(text)
    except LookupError as exc:
        raise EngineError(f"engine {text} is missing: {exc}") from None


@dataclass
class ExternalEngine:
    """A command speaking the JSON contract in ``--jsonl`` mode (split as a shell would), or a
    peer's name (:func:`resolve_command`)."""

    command: str
    timeout: float = 600.0
    #: Documents sent so far, and the seconds the command took for them (process starts included).
    documents: int = 0
    seconds: float = 0.0
    #: When set, a batch that fails (a crash, a hang, a wrong number of lines) is played again
    #: one document per process, each within this many seconds, so that every document gets its
    #: own answer (``{"error": ...}`` for those that fail) and the others still count.
    per_document: float | None = None

    def adjudicate_each(self, docs: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """One answer per document, never raising for the engine's faults: a batch first (within
        ``per_document`` seconds a document), then, if it fails, each document alone; after two
        documents in a row fail alone the rest are answered with the same error unplayed."""
        limit = self.per_document or self.timeout
        whole = self.timeout
        self.timeout = min(whole, limit * max(1, len(docs)) + 2.0)
        try:
            return self.adjudicate(docs)
        except EngineError as exc:
            first = str(exc)
        finally:
            self.timeout = whole
        out: list[dict[str, Any]] = []
        self.timeout = limit
        streak: list[str] = []
        try:
            for doc in docs:
                if len(streak) >= 2:
                    out.append(
                        {"error": f"not played: the engine failed alone twice ({streak[-1]})"}
                    )
                    continue
                try:
                    out.extend(self.adjudicate([doc]))
                    streak = []
                except EngineError as exc:
                    out.append({"error": str(exc)})
                    streak.append(str(exc))
        finally:
            self.timeout = whole
        if not out and docs:
            raise EngineError(first)
        return out

    def adjudicate(self, docs: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """One output per document, in order (``{"error": ...}`` for a line that is not JSON).
        Raises :class:`EngineError` when the command cannot start, times out, or answers with
        another number of lines."""
        if not docs:
            return []
        command = resolve_command(self.command)
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise EngineError(f"cannot read the command {self.command!r}: {exc}") from None
        if not argv:
            raise EngineError("the engine command is empty")
        text = "".join(json.dumps(doc) + "\n" for doc in docs)
        start = time.perf_counter()
        try:
            proc = subprocess.run(
                argv, input=text, capture_output=True, text=True, timeout=self.timeout
            )
        except FileNotFoundError:
            raise EngineError(f"cannot run {argv[0]!r}: no such command") from None
        except subprocess.TimeoutExpired:
            raise EngineError(f"{self.command!r} took more than {self.timeout:g} s") from None
        except OSError as exc:
            raise EngineError(f"cannot run {self.command!r}: {exc.strerror}") from None
        self.seconds += time.perf_counter() - start
        self.documents += len(docs)
        lines = [line for line in proc.stdout.splitlines() if line.strip()]
        if len(lines) != len(docs):
            tail = proc.stderr.strip().splitlines()[-3:]
            raise EngineError(
                f"{self.command!r} answered {len(lines)} lines for {len(docs)} documents "
                f"(exit status {proc.returncode})" + (": " + " | ".join(tail) if tail else "")
            )
        out: list[dict[str, Any]] = []
        for number, line in enumerate(lines, start=1):
            try:
                value = json.loads(line)
            except json.JSONDecodeError as exc:
                value = {"error": f"output line {number} is not JSON: {exc.msg}"}
            out.append(value if isinstance(value, dict) else {"error": f"output {value!r}"})
        return out


def outcome_from_json(
    output: Mapping[str, Any], position: Position, orders: Mapping[str, list[str]]
) -> PhaseOutcome:
    """An output document of the contract read back as the ruling of ``position``.

    Raises ``ValueError`` saying what is wrong when it is not a ruling (an ``error`` document,
    missing keys, unknown places, ...)."""
    if "error" in output:
        raise ValueError(f"the engine refused the document: {output['error']}")
    entry = dict(output)
    nxt = entry.get("next")
    if isinstance(nxt, Mapping) and nxt.get("phase") is None:
        # The game ended: the winner is the power with 18 or more centres (contract, "next").
        owners: dict[str, int] = {}
        for power, centres in (nxt.get("centers") or {}).items():
            owners[str(power)] = len(centres)
        entry["winner"] = max(owners, key=lambda p: owners[p]) if owners else None
    try:
        record = stored_record(position, dict(orders), entry, position.phase)
    except GameFileError as exc:
        raise ValueError(f"the engine's output is not a ruling: {exc}") from None
    return record.outcome


@dataclass
class ExternalRun:
    """The DATC run of one external engine: per case, its result; and how long it took."""

    command: str
    results: list[conformance.CaseResult] = field(default_factory=list)
    phases: int = 0
    seconds: float = 0.0
    #: Cases the engine cannot express (it answered ``{"unsupported": why}``), with why: never
    #: counted as passed.
    unsupported: dict[str, str] = field(default_factory=dict)


@dataclass
class _Case:
    case: Mapping[str, Any]
    phases: list[dict[str, Any]]
    problems: list[str] = field(default_factory=list)
    previous: tuple[Phase, Position, dict[str, Dislodged]] | None = None
    stopped: bool = False
    unsupported: str | None = None


def run_datc(
    cases: Sequence[Mapping[str, Any]],
    command: str,
    game_map: Map | None = None,
    per_case: float | None = None,
) -> ExternalRun:
    """Play every DATC case through ``command``, in rounds of one phase per case (see the module
    documentation). Raises :class:`EngineError` when the command does not answer; with
    ``per_case`` (seconds), a case the command crashes or hangs on fails alone, with why."""
    game_map = game_map or standard_map()
    engine = ExternalEngine(command, per_document=per_case)
    states: list[_Case] = []
    for case in cases:
        expected = case.get("expected") or {}
        state = _Case(case, list(expected.get("phases") or []))
        if not state.phases:
            state.problems.append("the fixture has no expectation")
            state.stopped = True
        states.append(state)
    number = 0
    while True:
        batch: list[tuple[_Case, Position, dict[str, list[str]], dict[str, Any]]] = []
        for state in states:
            if state.stopped or number >= len(state.phases):
                continue
            spec = state.phases[number]
            try:
                position = conformance.start_position(state.case, number, state.previous, game_map)
            except Exception as exc:  # the previous output was a ruling but not a usable board
                state.problems.append(f"phase {number + 1}: cannot go on: {exc}")
                state.stopped = True
                continue
            orders = conformance.case_orders(spec["orders"])
            batch.append((state, position, orders, spec))
        if not batch:
            break
        docs = [{**position.to_json(), "orders": orders} for _, position, orders, _ in batch]
        outputs = engine.adjudicate_each(docs) if per_case else engine.adjudicate(docs)
        for (state, position, orders, spec), output in zip(batch, outputs, strict=True):
            where = f"phase {number + 1} ({spec['kind']})"
            if "unsupported" in output:
                state.unsupported = f"{where}: {output['unsupported']}"
                state.stopped = True
                continue
            try:
                outcome = outcome_from_json(output, position, orders)
                ruling = conformance.object_ruling(spec["orders"], outcome)
            except (ValueError, IndexError) as exc:
                reason = exc if isinstance(exc, ValueError) else "the results do not match"
                state.problems.append(f"{where}: {reason}")
                state.stopped = True
                continue
            conformance.compare_ruling(where, spec, ruling, state.problems)
            state.previous = (position.phase, outcome.next, outcome.dislodged)
        number += 1
    run = ExternalRun(command, phases=engine.documents, seconds=engine.seconds)
    for state in states:
        case = state.case
        if state.unsupported is not None:
            run.unsupported[case["id"]] = state.unsupported
            state.problems.append(f"not expressible: {state.unsupported}")
        run.results.append(
            conformance.CaseResult(
                case["id"], case["title"], not state.problems, tuple(state.problems)
            )
        )
    return run


def engine_summary(run: ExternalRun) -> dict[str, Any]:
    """An engine's entry of the report: ``total``, ``passed``, ``failed`` (case ids),
    ``not_expressible`` (case id: why; neither passed nor failed), ``xfailed``."""
    entry = conformance.summary([r for r in run.results if r.case_id not in run.unsupported])
    entry["total"] = len(run.results)
    entry["not_expressible"] = dict(run.unsupported)
    return entry


# --------------------------------------------------------------------------- diplo datc --engine


def datc_engines(
    cases: Sequence[Mapping[str, Any]], commands: Sequence[str], as_json: bool, verbose: bool
) -> tuple[dict[str, Any], bool]:
    """Run ``diplo datc --engine``: each command, then diplo's own command through the same
    harness for the timing; print the text report unless ``as_json``. Returns the ``engines``
    part of the JSON report and whether any external engine failed a case."""
    report: dict[str, Any] = {}
    failed = False
    runs: list[tuple[str, ExternalRun]] = []
    for command in [*commands, diplo_command()]:
        try:
            run = run_datc(cases, command)
        except EngineError as exc:
            print(f"diplo: engine {command!r}: {exc}", file=sys.stderr)
            report[command] = {"error": str(exc)}
            failed = failed or command in commands
            continue
        runs.append((command, run))
        entry = engine_summary(run)
        entry["phases"] = run.phases
        entry["seconds"] = round(run.seconds, 6)
        entry["problems"] = {r.case_id: list(r.problems) for r in run.results if not r.passed}
        report[command] = entry
        if command in commands:
            failed = failed or bool(entry["failed"])
    if not as_json:
        for command, run in runs:
            _print_run(command, run, verbose, reference=command not in commands)
    return report, failed


def _print_run(command: str, run: ExternalRun, verbose: bool, reference: bool) -> None:
    passed = sum(r.passed for r in run.results if r.case_id not in run.unsupported)
    per_phase = run.seconds * 1e6 / run.phases if run.phases else 0.0
    label = "diplo's own command (same harness)" if reference else "engine"
    print(
        f"DATC v{conformance.DATC_VERSION}, {label} {command}: {passed} of {len(run.results)} "
        f"passed; {run.phases} phases in {run.seconds:.2f} s ({per_phase:.0f} µs/phase, "
        "process starts included)"
    )
    sections: dict[str, list[bool]] = {}
    for r in run.results:
        sections.setdefault(r.case_id.rsplit(".", 1)[0], []).append(r.passed)
    print("  " + "  ".join(f"{s} {sum(v)}/{len(v)}" for s, v in sections.items()))
    if run.unsupported:
        print(f"  not expressible in this engine: {len(run.unsupported)} cases")
    for r in run.results:
        if r.case_id in run.unsupported:
            if verbose:
                print(f"  n/e  {r.case_id} {run.unsupported[r.case_id]}")
            continue
        if not r.passed or verbose:
            print(f"  {'ok  ' if r.passed else 'FAIL'} {r.case_id} {r.title}")
            for problem in r.problems:
                print(f"        {problem}")
