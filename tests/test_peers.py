"""The peer engines behind the JSON contract (diplo.apps.peers) and `diplo compare`: each
adapter's conversion both ways, unsupported documents listed as not expressible, and a
crashing, hanging, garbage-printing or missing engine reported by name."""

from __future__ import annotations

import json
import shlex
import sys
from typing import Any, ClassVar

import pytest

from diplo.apps import compare, external
from diplo.apps.conformance import load_cases
from diplo.apps.peers import PEERS, make_adapter, missing_reason, peer_command
from diplo.apps.peers.__main__ import answer

PYTHON = shlex.quote(sys.executable)
# A supported attack dislodges F NTH (which may retreat), a bounce, and an illegal order.
MOVES: dict[str, Any] = {
    "phase": "F1901M",
    "units": {
        "ENGLAND": ["F NTH", "A YOR"],
        "GERMANY": ["F HEL", "F DEN", "A KIE"],
        "FRANCE": ["A BUR", "A PIC"],
    },
    "centers": {"ENGLAND": ["LON"], "GERMANY": ["KIE", "DEN"], "FRANCE": ["PAR"]},
    "orders": {
        "GERMANY": ["F HEL - NTH", "F DEN S F HEL - NTH", "A KIE - MUN"],
        "FRANCE": ["A BUR - BEL", "A PIC - BEL"],
        "ENGLAND": ["F NTH H", "A YOR - PAR"],
    },
}


def installed(name: str) -> bool:
    return missing_reason(name) is None


def given(out: dict[str, Any], text: str) -> dict[str, Any]:
    return next(r for r in out["results"] if r["order"] == text)


@pytest.mark.parametrize("name", ["diplo", "mila", "pydip"])
def test_adapter_rules_a_movement_phase_and_its_retreat(name: str) -> None:
    if not installed(name):
        pytest.skip(missing_reason(name) or "")
    adapter = make_adapter(name)
    out = adapter.adjudicate(MOVES)
    assert given(out, "F HEL - NTH")["success"] is True
    assert given(out, "F DEN S F HEL - NTH")["success"] is True
    assert given(out, "A BUR - BEL")["success"] is False  # a bounce
    assert given(out, "A PIC - BEL")["success"] is False
    assert given(out, "A YOR - PAR")["legal"] is False  # not adjacent, no convoy
    assert given(out, "F NTH H")["success"] is False  # dislodged
    options = out["dislodged"]["ENGLAND"]["F NTH"]
    assert "NWG" in options and "HEL" not in options  # not where the attack came from
    nxt = out["next"]
    assert nxt["phase"] == "F1901R"
    assert "F NTH" in nxt["units"]["GERMANY"] and "A MUN" in nxt["units"]["GERMANY"]
    # The retreat phase, fed back: the unit retreats, then the winter (England owes a disband).
    retreat = {**nxt, "orders": {"ENGLAND": ["F NTH R NWG"]}}
    after = adapter.adjudicate(retreat)
    assert given(after, "F NTH R NWG")["success"] is True
    assert "F NWG" in after["next"]["units"]["ENGLAND"]
    assert after["next"]["phase"] == "W1901A"
    assert "MUN" in after["next"]["centers"]["GERMANY"]


def test_the_rust_crate_rules_a_movement_phase_and_cannot_express_a_retreat() -> None:
    if not installed("diplomacy-crate"):
        pytest.skip(missing_reason("diplomacy-crate") or "")
    adapter = make_adapter("diplomacy-crate")
    # Orders in the DATC's words reach the binary in the short form.
    doc = {
        **MOVES,
        "orders": {
            **MOVES["orders"],
            "GERMANY": [
                "F Heligoland Bight - North Sea",
                "F Denmark Supports F Heligoland Bight - North Sea",
                "A KIE - MUN",
            ],
        },
    }
    out = adapter.adjudicate(doc)
    assert given(out, "F HEL - NTH")["success"] is True
    assert given(out, "F DEN S F HEL - NTH")["success"] is True
    assert given(out, "A BUR - BEL")["success"] is False
    assert given(out, "A YOR - PAR")["legal"] is False
    assert "NWG" in out["dislodged"]["ENGLAND"]["F NTH"]
    assert out["next"]["phase"] == "F1901R"
    assert "A MUN" in out["next"]["units"]["GERMANY"]
    retreat = {**out["next"], "orders": {"ENGLAND": ["F NTH R NWG"]}}
    assert "retreat phase" in answer(adapter, json.dumps(retreat), 1)["unsupported"]


@pytest.mark.parametrize("name", ["mila", "pydip", "diplomacy-crate"])
def test_adapter_says_what_it_cannot_express(name: str) -> None:
    if not installed(name):
        pytest.skip(missing_reason(name) or "")
    adapter = make_adapter(name)
    other_map = json.dumps({**MOVES, "map": "ancmed"})
    assert "unsupported" in answer(adapter, other_map, 1)
    rules = json.dumps({**MOVES, "rules": {"edition": "1982"}})
    assert "unsupported" in answer(adapter, rules, 1)
    assert answer(adapter, "{not json", 3)["error"].startswith("line 3: bad JSON")


def test_pydip_cannot_express_two_orders_for_one_unit() -> None:
    if not installed("pydip"):
        pytest.skip(missing_reason("pydip") or "")
    doc = {**MOVES, "orders": {"FRANCE": ["A BUR - BEL", "A BUR - MUN"]}}
    assert (
        "one command per unit" in answer(make_adapter("pydip"), json.dumps(doc), 1)["unsupported"]
    )


def test_a_case_an_engine_cannot_express_is_never_passed() -> None:
    cases = [c for c in load_cases() if c["id"].startswith("6.A.")]
    every = (
        f'{PYTHON} -c "import sys\nfor l in sys.stdin: print(\'{{\\"unsupported\\": \\"no\\"}}\')"'
    )
    run = external.run_datc(cases, every)
    entry = external.engine_summary(run)
    assert entry["passed"] == 0 and entry["failed"] == []
    assert sorted(entry["not_expressible"]) == sorted(c["id"] for c in cases)


def test_missing_peers_are_named_with_how_to_get_them() -> None:
    assert set(PEERS) == {"mila", "pydip", "diplomacy-crate", "dipcc"}
    if not installed("dipcc"):
        assert "diplomacy_cicero" in (missing_reason("dipcc") or "")
        with pytest.raises(external.EngineError, match="dipcc is missing"):
            external.ExternalEngine("dipcc").adjudicate([MOVES])
    with pytest.raises(ValueError, match="unknown peer"):
        missing_reason("godot")
    assert "diplo.apps.peers mila" in peer_command("mila") if installed("mila") else True


def test_compare_runs_every_installed_engine_and_names_the_broken_ones() -> None:
    crash = f"{PYTHON} -c 'import sys; sys.exit(3)'"
    garbage = f"{PYTHON} -c 'print(\"hello\")'"
    settings = compare.Settings(
        engines=("mila", "pydip", "diplomacy-crate", "dipcc"),
        commands=(crash, garbage),
        movement=3,
        games=1,
        max_year=1902,
        rounds=1,
        per_case=20.0,
        limit=False,
    )
    report = compare.run_compare(settings)
    engines = report["engines"]
    assert engines["diplo"]["datc"]["passed"] == 164
    for name in ("mila", "pydip", "diplomacy-crate"):
        if not installed(name):
            assert engines[name]["missing"]
            continue
        d = engines[name]["datc"]
        assert d["total"] == 164
        assert d["passed"] + len(d["failed"]) + len(d["not_expressible"]) == 164
        assert sum(s["passed"] for s in engines[name]["sections"].values()) == d["passed"]
        pair = report["agreement"][f"diplo vs {name}"]
        docs = report["settings"]["movement_phases"] + report["settings"]["game_phases"]
        assert pair["compared"] + pair["not_ruled_by_both"] == docs
        for kind in pair["kinds"].values():
            assert kind["example"]["document"]["phase"]
        assert engines[name]["us_per_movement_phase"] > 0
        assert report["ratios_to_diplo"][name]["movement"] > 0
    if not installed("dipcc"):
        assert "diplomacy_cicero" in engines["dipcc"]["missing"]
    for broken in ("engine-1", "engine-2"):
        assert engines[broken]["problems"], broken
        assert engines[broken]["us_per_movement_phase"] is None
        assert engines[broken]["datc"]["passed"] == 0
    text = compare.table(report)
    assert "engine-1" in text and "engine-2" in text and "diplo" in text
    picture = compare.svg(report)
    assert picture.startswith("<svg") and "diplo" in picture


def test_a_hanging_engine_is_cut_off_per_document() -> None:
    hang = f"{PYTHON} -c 'import time; time.sleep(60)'"
    settings = compare.Settings(
        engines=(),
        commands=(hang,),
        movement=2,
        games=0,
        rounds=1,
        per_case=1.5,
        limit=False,
        datc=False,
    )
    report = compare.run_compare(settings)
    row = report["engines"]["engine-1"]
    assert any("took more than" in p for p in row["problems"])
    assert report["engines"]["diplo"]["us_per_movement_phase"] > 0


def test_the_picture_escapes_its_text() -> None:
    report = {
        "engines": {"a<b&c": {"us_per_movement_phase": 5.0, "us_per_game": 50.0}},
        "limits": {"us_per_movement_phase": {"rust Game": 2.0}},
    }
    picture = compare.svg(report)
    assert "a&lt;b&amp;c" in picture and "a<b" not in picture


class _StandInDipcc:
    """A stand-in for dipcc's ``pydipcc`` module (dipcc is built by hand, never here): its
    ``Game`` records what the adapter gives it and answers with a scripted board."""

    given: ClassVar[dict[str, Any]] = {}

    class Game:
        @staticmethod
        def from_json(text: str) -> Any:
            _StandInDipcc.given["saved"] = json.loads(text)
            return _StandInDipcc.Game()

        def __init__(self) -> None:
            self.orders: dict[str, list[str]] = {}

        def set_orders(self, power: str, orders: list[str]) -> None:
            # dipcc drops an order for a location the power cannot order.
            units = _StandInDipcc.given["saved"]["phases"][-1]["state"]["units"][power]
            here = {u.split(" ", 1)[1] for u in units}
            self.orders[power] = [o for o in orders if o.split(" ")[1] in here]

        def get_orders(self) -> dict[str, list[str]]:
            return self.orders

        def process(self) -> None:
            _StandInDipcc.given["orders"] = self.orders

        def get_state(self) -> dict[str, Any]:
            return {
                "name": "F1901R",
                "units": {
                    "GERMANY": ["F NTH", "F DEN", "A MUN"],
                    "FRANCE": ["A BUR", "A PIC"],
                    "ENGLAND": ["A YOR", "*F NTH"],
                },
                "retreats": {"ENGLAND": {"F NTH": ["NWG", "EDI"]}},
                "centers": {"GERMANY": ["KIE", "DEN"], "ENGLAND": ["LON"], "FRANCE": ["PAR"]},
            }


def test_the_dipcc_adapter_converts_both_ways_on_a_stand_in() -> None:
    from diplo.apps.peers.dipcc import DipccAdapter

    adapter = DipccAdapter(_StandInDipcc)  # type: ignore[arg-type]
    doc = {**MOVES, "orders": {**MOVES["orders"], "ENGLAND": ["F NTH H", "A Wales - London"]}}
    out = adapter.adjudicate(doc)
    saved = _StandInDipcc.given["saved"]["phases"][-1]
    assert saved["name"] == "F1901M"
    assert sorted(saved["state"]["units"]["GERMANY"]) == ["A KIE", "F DEN", "F HEL"]
    assert _StandInDipcc.given["orders"]["GERMANY"][0] == "F HEL - NTH"  # the short form
    assert given(out, "F HEL - NTH")["success"] is True  # it stands where it moved
    assert given(out, "A BUR - BEL")["success"] is False  # it did not get there
    assert given(out, "A Wales - London")["legal"] is False  # dipcc dropped it
    assert given(out, "F NTH H")["success"] is False  # dislodged on dipcc's board
    assert out["dislodged"] == {"ENGLAND": {"F NTH": ["EDI", "NWG"]}}
    assert out["next"]["phase"] == "F1901R"
    assert out["next"]["dislodged"] == {"ENGLAND": {"F NTH": ["EDI", "NWG"]}}
    assert "F NTH" not in out["next"]["units"]["ENGLAND"]


def test_agreement_counts_each_kind_of_difference_with_its_smallest_example() -> None:
    small = {**MOVES, "units": {"FRANCE": ["A BUR"]}, "orders": {"FRANCE": ["A BUR - BEL"]}}
    docs = [MOVES, small]

    def ruling(success: bool, units: list[str]) -> dict[str, Any]:
        return {
            "results": [{"legal": True, "success": success, "given": True}],
            "dislodged": {},
            "next": {"phase": "S1902M", "units": {"FRANCE": units}, "centers": {}},
        }

    first = [ruling(True, ["A BEL"]), ruling(True, ["A BEL"])]
    second = [ruling(False, ["A BUR"]), ruling(False, ["A BUR"])]
    report = compare.agreement(docs, first, second)
    assert report["compared"] == 2 and report["differing"] == 2
    assert report["kinds"]["success"]["phases"] == 2
    assert report["kinds"]["success"]["example"]["document"] is not MOVES  # the smaller one
    assert report["kinds"]["success"]["example"]["orders"] == ["FRANCE: A BUR - BEL"]
    assert report["kinds"]["board after"]["example"]["only_first"] == ["FRANCE A BEL"]
    same = compare.agreement(docs, first, first)
    assert same["differing"] == 0 and same["kinds"] == {}
    broken = compare.agreement(docs, first, [{"error": "x"}, {"unsupported": "y"}])
    assert broken["compared"] == 0 and broken["not_ruled_by_both"] == 2


def test_the_compare_command_prints_json_and_draws_its_picture(tmp_path: Any) -> None:
    import subprocess

    picture = tmp_path / "compare.svg"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "diplo",
            "compare",
            "--engines",
            "--no-datc",
            "--no-limit",
            "--movement",
            "1",
            "--games",
            "0",
            "--rounds",
            "1",
            "--json",
            "--plot",
            str(picture),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["engines"]["diplo"]["us_per_movement_phase"] > 0
    assert report["settings"]["movement_phases"] == 1
    assert picture.read_text().startswith("<svg")
    bad = subprocess.run(
        [sys.executable, "-m", "diplo", "compare", "--engines", "godip"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "unknown engine 'godip'" in bad.stderr
