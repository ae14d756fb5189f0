"""External engines: ``diplo datc --engine CMD`` and ``diplo bench --engine CMD``, tested with
diplo's own command as the engine, and with engines that are wrong in known ways."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from diplo.apps.conformance import load_cases
from diplo.apps.external import EngineError, ExternalEngine, diplo_command, run_datc

ROOT = Path(__file__).resolve().parent.parent

# An engine that rules as diplo does, then says every order of every phase succeeded.
OPTIMIST = (
    "import json, sys\n"
    "from diplo.formats.contract import adjudicate_document\n"
    "for line in sys.stdin:\n"
    "    out = adjudicate_document(json.loads(line))\n"
    "    for r in out['results']:\n"
    "        r['success'] = True\n"
    "    print(json.dumps(out))\n"
)


def python_engine(script: str) -> str:
    return f"{shlex.quote(sys.executable)} -c {shlex.quote(script)}"


def test_diplos_own_command_passes_the_whole_fixture() -> None:
    run = run_datc(load_cases(), diplo_command())
    failures = [(r.case_id, r.problems) for r in run.results if not r.passed]
    assert failures == []
    assert len(run.results) == 164
    assert run.phases > 164  # some cases have several phases, chained through the engine
    assert run.seconds > 0


def test_a_wrong_engine_fails_cases_and_says_why() -> None:
    cases = [c for c in load_cases() if c["section"] in ("6.A", "6.F")]
    run = run_datc(cases, python_engine(OPTIMIST))
    failed = {r.case_id: r.problems for r in run.results if not r.passed}
    # 6.A.10: Italy's attack on its own unit in Venice bounces; the optimist says it worked.
    assert "6.A.10" in failed
    assert any("'A Apulia - Venice' should fail; got bounce" in p for p in failed["6.A.10"])
    passed = {r.case_id for r in run.results if r.passed}
    assert passed and failed


def test_an_engine_whose_output_is_not_a_ruling() -> None:
    cases = load_cases()[:3]
    run = run_datc(cases, python_engine("import sys\nfor line in sys.stdin: print(line.strip())"))
    for result in run.results:
        assert not result.passed
        assert "not a ruling" in " ".join(result.problems) or "refused" in " ".join(result.problems)


def test_an_engine_that_does_not_answer_every_line() -> None:
    engine = ExternalEngine(python_engine("import sys; sys.stdin.read(); print('{}')"))
    with pytest.raises(EngineError, match="answered 1 lines for 2 documents"):
        engine.adjudicate([{"phase": "S1901M"}, {"phase": "S1901M"}])
    with pytest.raises(EngineError, match="no such command"):
        ExternalEngine("no-such-engine-here --jsonl").adjudicate([{}])


def test_datc_command_line_reports_the_engine_per_section() -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "diplo.apps.cli",
            "datc",
            "--backend",
            "python",
            "--json",
            "--engine",
            python_engine(OPTIMIST),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert proc.returncode == 1  # the optimist fails cases
    report = json.loads(proc.stdout)
    engines = report["engines"]
    optimist = engines[python_engine(OPTIMIST)]
    assert optimist["total"] == 164 and optimist["failed"]
    assert set(optimist["problems"]) == set(optimist["failed"])
    ours = engines[diplo_command()]
    assert ours["failed"] == [] and ours["passed"] == 164 and ours["seconds"] > 0


def test_bench_times_an_external_engine_beside_diplo() -> None:
    from diplo.apps import bench

    phases = bench.prepare_movement_phases(2, seed=3)
    engines = bench.external_engines(phases, [diplo_command()])
    assert [e.name for e in engines] == ["external-1", "diplo-jsonl"]
    results = bench.measure(engines, rounds=1, min_run=0)
    assert all(m.phases == 2 and m.seconds > 0 for m in results.values())
    broken = bench.external_engines(phases, [python_engine("import sys; sys.stdin.read()")])[0]
    with pytest.raises(bench.BenchError, match="answered 0 lines for 2 documents"):
        broken.run(broken.setup(0))
