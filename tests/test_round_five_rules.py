"""Issue 46 (round five), the rules and engine items: each hostile input gets a clear refusal or
the same game on every backend."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from diplo.api.game import Game
from diplo.api.phase import process_phase
from diplo.apps.conformance import load_cases, run_case, summary
from diplo.compat.mila import Game as MilaGame
from diplo.compat.mila.saved import RULING_KEY, from_saved_game_format, to_saved_game_format
from diplo.engine.codes import CodeGame
from diplo.formats import gamefile
from diplo.formats.contract import DocumentError, adjudicate_document
from diplo.formats.gamefile import GameFileError
from diplo.formats.mila import MilaError
from diplo.model.limits import SUGGESTED_ORDERS
from diplo.model.map import MapError, standard_map
from diplo.model.orders import OrderParseError, parse_order
from diplo.model.position import Position
from diplo.model.rules import DATC_DEPARTURES, EDITIONS, Rules, RulesError, datc_departures
from diplo.model.variants import load_map

ROOT = Path(__file__).resolve().parent.parent
M = standard_map()
BACKENDS = ("rust", "python")

# --------------------------------------------------------------------------- orders not a list


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("A PAR - BUR", r"not one string \(for one order write \['A PAR - BUR'\]\)"),
        (None, "not null"),
        (5, "not 5"),
        (b"A PAR H", "not b'A PAR H'"),
        ({"A PAR H": 1}, "not {"),
    ],
)
def test_orders_that_are_not_a_list_are_refused_on_every_entry(
    backend: str, given: Any, said: str
) -> None:
    position = Position.initial(M)
    with pytest.raises(
        ValueError, match=f"the orders of 'FRANCE' must be a list of orders, {said}"
    ):
        process_phase(position, {"FRANCE": given}, backend)
    game = Game(backend=backend)
    with pytest.raises(
        ValueError, match=f"the orders of 'FRANCE' must be a list of orders, {said}"
    ):
        game.set_orders("france", given)
    assert game.orders == {}
    # a tuple is a list of orders
    outcome = process_phase(position, {"FRANCE": ("A PAR - BUR",)}, backend)
    assert outcome.next.units["BUR"].power == "FRANCE"


def test_orders_not_keyed_by_power_are_refused() -> None:
    with pytest.raises(ValueError, match="orders must be a mapping of power to a list of orders"):
        process_phase(Position.initial(M), [("FRANCE", ["A PAR H"])])  # type: ignore[arg-type]


def test_a_document_with_one_string_for_a_power_is_refused() -> None:
    with pytest.raises(DocumentError, match="must be a list of order strings"):
        adjudicate_document({"phase": "S1901M", "orders": {"FRANCE": "A PAR - BUR"}})


# --------------------------------------------------------------------------- bounded suggestions


def test_suggestions_stop_after_the_first_unreadable_orders_of_a_phase() -> None:
    position = Position.initial(M)
    texts = [f"A PARX{'Q' * (i % 3)} - BUR" for i in range(SUGGESTED_ORDERS + 15)]
    # a readable order between them counts for nothing
    orders = {"FRANCE": ["A MAR - PIE", *texts], "ITALY": ["A ROMQ - APU"]}
    said = {}
    for backend in BACKENDS:
        outcome = process_phase(position, orders, backend)
        reasons = [r.reason for r in outcome.results if r.given]
        said[backend] = reasons
        assert outcome.results[0].legal
        refused = reasons[1:]
        suggested = ["did you mean" in r for r in refused]
        assert suggested == [True] * SUGGESTED_ORDERS + [False] * (len(refused) - SUGGESTED_ORDERS)
        assert all("unknown unit location" in r for r in refused)
    assert said["rust"] == said["python"]
    # One order alone keeps its suggestion.
    with pytest.raises(OrderParseError, match="did you mean"):
        parse_order("A PARX - BUR", M)


# --------------------------------------------------------------------------- edition not a name

EDITION_WORDS = "rules: edition must be one of '1971'"


@pytest.mark.parametrize("edition", [["2023"], {"name": "2023"}, 1982, None])
def test_an_edition_that_is_not_a_name_is_refused_everywhere(edition: Any, tmp_path: Path) -> None:
    with pytest.raises(RulesError, match=EDITION_WORDS):
        Rules.from_json({"edition": edition})
    with pytest.raises(RulesError, match=EDITION_WORDS):
        Rules(edition=edition)
    # the JSON contract, and a line of --jsonl through the command line
    document = {"phase": "S1901M", "orders": {}, "rules": {"edition": edition}}
    with pytest.raises(DocumentError, match=EDITION_WORDS):
        adjudicate_document(document)
    done = subprocess.run(
        [sys.executable, "-m", "diplo", "adjudicate", "--jsonl"],
        input=json.dumps(document) + "\n",
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "python")},
        timeout=120,
    )
    assert EDITION_WORDS in done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    # a map file
    data = json.loads((ROOT / "python/diplo/data/standard.json").read_text())
    data["rules"] = {"edition": edition}
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    with pytest.raises(MapError, match=EDITION_WORDS):
        load_map(path)
    # a game file's rules
    saved = gamefile.to_json(Game())
    saved["rules"] = {"edition": edition}
    with pytest.raises(GameFileError, match=EDITION_WORDS):
        gamefile.from_json(saved)
    # a MILA save's recorded ruling
    mila_save = to_saved_game_format(MilaGame())
    mila_save[RULING_KEY] = {"edition": edition}
    with pytest.raises(MilaError, match=EDITION_WORDS):
        from_saved_game_format(mila_save)
    # a pickled code game
    rebuild, (version, game_map, _rules, state) = CodeGame().__reduce__()
    with pytest.raises(ValueError, match=EDITION_WORDS):
        rebuild(version, game_map, {"edition": edition}, state)


# --------------------------------------------------------------------------- documented departures


def test_every_documented_departure_is_true_and_every_other_case_passes() -> None:
    """The table of departures (model.rules.DATC_DEPARTURES) holds exactly the cases each
    edition rules otherwise, each for the options it names: a case listed fails under its
    edition and passes with those options at today's values; a case not listed passes."""
    cases = load_cases()
    today = Rules()
    for edition in EDITIONS:
        rules = Rules.from_json({"edition": edition})
        listed = {c: d for d in DATC_DEPARTURES[edition] for c in d.cases}
        assert set(datc_departures(edition)) == set(listed)
        for case in cases:
            departure = listed.get(case["id"])
            result = run_case(case, "rust", rules=rules)
            if departure is None:
                assert result.passed, (edition, case["id"], result.problems)
                continue
            assert not result.passed, (edition, case["id"], "documented but passes")
            reset = Rules.from_json({k: getattr(today, k) for k in departure.options}, rules)
            assert run_case(case, "rust", rules=reset).passed, (edition, case["id"])


def test_datc_exit_status_counts_only_unexpected_failures() -> None:
    cases = [c for c in load_cases() if c["id"] in ("6.A.1", "6.G.8")]
    godip = datc_departures("godip")
    results = [run_case(c, "rust", rules=Rules(edition="godip")) for c in cases]
    entry = summary(results, godip)
    assert entry["failed"] == [] and list(entry["departs"]) == ["6.G.8"]
    # without the table the same case is a failure
    assert summary(results)["failed"] == ["6.G.8"]
