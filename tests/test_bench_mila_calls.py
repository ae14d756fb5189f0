"""``diplo bench --workloads mila-calls``: every call a harness makes per phase, on the drop-in and
on MILA, and the harness loop; the report's shape only, never its timings."""

from __future__ import annotations

import json
import sys

import pytest

from diplo.apps import bench
from diplo.apps.bench.mila_calls import CALLS, HARNESS, SIDES, record_games, replay, sides

TINY = ["--workloads", "mila-calls", "--call-rounds", "1", "--max-year", "1901"]

needs_both = pytest.mark.skipif(
    bench.mila_module() is None,
    reason="needs the MILA engine (compare extra)",
)


@needs_both
def test_json_report_has_a_row_for_every_call_on_both_engines(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from diplo.apps.cli import main

    assert main(["bench", *TINY, "--json"]) == 0
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert set(report["workloads"]) == {"mila-calls"}
    rows = report["workloads"]["mila-calls"]
    names = {f"{side}:{call}" for side in SIDES for call in (*CALLS, HARNESS)}
    assert set(rows) == names
    for entry in rows.values():
        assert entry["phases"] > 0 and entry["seconds"] > 0 and entry["us_per_phase"] > 0
    # The ratios are MILA's time over the drop-in's, per call.
    ratios = report["ratios"]["mila-calls"]
    assert set(ratios) == {f"mila/diplo-compat:{call}" for call in (*CALLS, HARNESS)}
    assert all(value > 0 for value in ratios.values())
    assert report["settings"]["call_rounds"] == 1
    assert "mila-calls: diplo-compat and mila x 1 rounds to 1901" in err


@needs_both
def test_text_report_prints_one_line_per_call() -> None:
    report = bench.run_benchmarks(
        bench.Settings(workloads=("mila-calls",), max_year=1901, call_rounds=1)
    )
    lines = report.table().splitlines()
    assert lines[0].startswith("mila-calls: ")
    for call in (*CALLS, HARNESS):
        (row,) = [line for line in lines if line.split()[:1] == [call]]
        assert len(row.split()) in (5, 7)  # name, two times, ratio, target (and "below target")


@needs_both
def test_both_engines_replay_the_same_states() -> None:
    import diplomacy

    from diplo.compat import mila as compat

    (game,) = record_games(diplomacy, [4], 1902, "standard")
    assert len(game) >= 5 and all(phase.abuts and phase.phrases for phase in game)
    ours, theirs = (replay(side, game, "standard") for side in sides(compat, diplomacy))
    assert theirs.resets == 0  # MILA replays its own game
    assert ours.calls == theirs.calls  # the same calls and queries on both
    assert ours.calls["process"] == len(game)
    assert ours.calls["get_orderable_locations"] == 7 * len(game)


def test_without_mila_the_workload_says_it_cannot_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from diplo.apps.cli import main

    monkeypatch.setitem(sys.modules, "diplomacy", None)  # as without the compare extra
    assert main(["bench", *TINY, "--engines", "diplo-rust", "mila"]) == 0
    out, err = capsys.readouterr()
    assert "bench: mila-calls omitted: the MILA engine is not installed" in err
    assert "mila-calls" not in out
