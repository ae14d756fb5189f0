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

from diplo.api.backends import backend_for
from diplo.api.game import Game
from diplo.api.legal import legal_order_texts
from diplo.api.phase import process_phase
from diplo.apps.conformance import load_cases, run_case, summary
from diplo.apps.play import play_game
from diplo.compat.mila import Game as MilaGame
from diplo.compat.mila.saved import RULING_KEY, from_saved_game_format, to_saved_game_format
from diplo.engine.codes import CodeGame, encode_order
from diplo.formats import gamefile
from diplo.formats.contract import DocumentError, adjudicate_document
from diplo.formats.gamefile import GameFileError
from diplo.formats.mila import MilaError
from diplo.model.limits import SUGGESTED_ORDERS
from diplo.model.map import Map, MapError, map_named, standard_map
from diplo.model.orders import Build, OrderParseError, Unit, parse_order
from diplo.model.position import Phase, Position
from diplo.model.rules import DATC_DEPARTURES, EDITIONS, Rules, RulesError, datc_departures
from diplo.model.variants import load_map
from processes import PYTHONPATH as UNDER_TEST

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
        env={**os.environ, "PYTHONPATH": UNDER_TEST},
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


# --------------------------------------------------------------------------- neutral slots


@pytest.mark.parametrize(
    ("name", "rebuilds"),
    [("westernworld901", True), ("sengoku", True), ("unconstitutional", False)],
)
def test_a_neutral_power_has_no_order_slot_in_an_adjustment(name: str, rebuilds: bool) -> None:
    """A neutral power orders nothing: no build site, no waive, not orderable, on both backends
    and the code API, whether or not it raises its armies again by itself."""
    game_map = map_named(name)
    start = Position.initial(game_map)
    neutral = sorted(p for p, piece in start.units.items() if piece.power == "NEUTRAL")
    assert neutral and all(start.centers.get(p) == "NEUTRAL" for p in neutral)
    vacant = neutral[0]  # its army gone, the centre still neutral's
    units = {p: u for p, u in start.units.items() if p != vacant}
    year = start.phase.year
    position = Position(game_map, Phase(year, "W", "A"), units, start.centers, rules=start.rules)
    said = {}
    for backend in BACKENDS:
        assert "NEUTRAL" not in backend_for(backend, game_map).orderable_powers(position)
        listed = legal_order_texts(position, None, backend)
        assert vacant not in listed and "NEUTRAL" not in listed, backend
        assert legal_order_texts(position, "NEUTRAL", backend) == {}
        outcome = process_phase(position, {"NEUTRAL": [f"A {vacant} B", "WAIVE"]}, backend)
        given = [r for r in outcome.results if r.given]
        assert [r.legal for r in given] == [False, False]
        assert all("neutral units hold and are never ordered" in r.reason for r in given)
        raised = outcome.next.units.get(vacant)
        assert (raised is not None and raised.power == "NEUTRAL") is rebuilds
        said[backend] = outcome
    assert said["rust"] == said["python"]
    # The code API: no slot, and a build code for the neutral centre is refused.
    game = CodeGame(position)
    assert all(power != "NEUTRAL" and key != vacant for power, key in game.slots())
    build = encode_order(Build(Unit("A", vacant)), game_map, "NEUTRAL")
    assert build not in {c for codes in game.legal_orders() for c in codes}
    game.set_orders([build])
    assert game.process().result_codes()[0] != 0  # refused
    raised = game.position().units.get(vacant)
    assert (raised is not None and raised.power == "NEUTRAL") is rebuilds


@pytest.mark.parametrize(
    ("name", "seed", "years"),
    [
        ("westernworld901", 2, 5),  # the W904A
        ("westernworld901", 5, 6),
        ("sengoku", 2, 6),
        ("sengoku", 7, 6),
        ("unconstitutional", 2, 6),
        ("unconstitutional", 4, 6),
    ],
)
def test_a_seed_plays_the_same_game_on_both_backends_on_maps_with_neutrals(
    name: str, seed: int, years: int
) -> None:
    game_map = map_named(name)
    godip = Rules.from_json({"edition": "godip"}, game_map.rules)
    last = Position.initial(game_map).phase.year + years - 1
    games = {
        backend: gamefile.to_json(play_game(seed, last, backend, game_map=game_map, rules=godip))
        for backend in BACKENDS
    }
    assert games["rust"]["phases"] == games["python"]["phases"]
    assert games["rust"] == games["python"]
    # the game reached an adjustment where neutral had a vacant centre of its own (the case)
    assert any(p["phase"].endswith("A") for p in games["rust"]["phases"])


# --------------------------------------------------------------------------- ports reached by land

PORT_MAP = {
    "name": "portland",
    "powers": {
        "RED": {"adjective": "Red", "homes": ["XXX"], "units": ["A XXX"]},
        "BLUE": {"adjective": "Blue", "homes": ["YYY"], "units": ["F PPP", "F SEA"]},
    },
    "provinces": [
        {"abbr": "XXX", "name": "Xland", "type": "coast", "center": True},
        {"abbr": "PPP", "name": "Port", "type": "coast", "port": True, "center": True},
        {"abbr": "YYY", "name": "Yland", "type": "coast", "center": True},
        {"abbr": "ZZZ", "name": "Zland", "type": "coast"},
        {"abbr": "SEA", "name": "Sea", "type": "sea"},
    ],
    # XXX reaches the port PPP over land only; PPP's fleet edge goes to SEA.
    "army_edges": [["XXX", "PPP"], ["PPP", "ZZZ"], ["YYY", "ZZZ"]],
    "fleet_edges": [["PPP", "SEA"], ["SEA", "YYY"], ["SEA", "ZZZ"]],
}


def test_a_convoy_never_boards_at_a_port_over_land(tmp_path: Path) -> None:
    """A convoy crosses every border of its route by sea: an army that reaches a port over land
    only is not carried by its fleet. Both backends list, validate and resolve it so."""
    path = tmp_path / "portland.json"
    path.write_text(json.dumps(PORT_MAP))
    game_map = load_map(path)
    assert game_map.sea_neighbours("XXX") == frozenset()
    position = Position.initial(game_map)
    orders = {"RED": ["A XXX - YYY"], "BLUE": ["F PPP C A XXX - YYY", "F SEA C A XXX - YYY"]}
    said = {}
    for backend in BACKENDS:
        listed = legal_order_texts(position, None, backend)
        assert not any("C A XXX" in o or "VIA" in o for os in listed.values() for o in os)
        outcome = process_phase(position, orders, backend)
        given = [r for r in outcome.results if r.given]
        assert [r.legal for r in given] == [False, False, False]
        assert outcome.next.units["XXX"].power == "RED"
        said[backend] = outcome
    assert said["rust"] == said["python"]
    # With a fleet edge from XXX to the port, the same convoy carries the army on both.
    boarded = json.loads(json.dumps(PORT_MAP))
    boarded["fleet_edges"].append(["XXX", "PPP"])
    path.write_text(json.dumps(boarded))
    position = Position.initial(load_map(path))
    for backend in BACKENDS:
        outcome = process_phase(position, orders, backend)
        assert all(r.legal for r in outcome.results if r.given)
        assert outcome.next.units["YYY"].power == "RED", backend


# --------------------------------------------------------------------------- the last year


def _late_map(tmp_path: Path, first: str, calendar: dict[str, int] | None = None) -> Path:
    data = json.loads((ROOT / "python/diplo/data/standard.json").read_text())
    data.update(name="late", first_phase=first)
    if calendar is not None:
        data["calendar"] = calendar
    path = tmp_path / f"late-{first}.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("first", "calendar", "last"),
    [("S9999M", None, 9998), ("S9995M", {"years_to_fall": 5, "years_to_spring": 5}, 9994)],
)
def test_a_map_that_starts_after_its_last_year_is_refused(
    tmp_path: Path, first: str, calendar: dict[str, int] | None, last: int
) -> None:
    path = _late_map(tmp_path, first, calendar)
    with pytest.raises(
        MapError, match=f"'first_phase' {first} leaves no year to play: a game ends after {last}"
    ):
        load_map(path)
    done = subprocess.run(
        [sys.executable, "-m", "diplo", "play", "--map", str(path), "--quiet"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": UNDER_TEST},
        timeout=120,
    )
    assert done.returncode == 2 and "leaves no year to play" in done.stderr


@pytest.mark.parametrize(
    ("first", "calendar", "final"),
    [
        ("S9997M", None, "S9999M"),
        ("S9990M", {"years_to_fall": 5, "years_to_spring": 5}, "F9995M"),
        ("F9998M", {"years_to_fall": 0, "years_to_spring": 1}, "S9999M"),
    ],
)
def test_a_game_ends_as_a_draw_after_its_calendars_last_year(
    tmp_path: Path, first: str, calendar: dict[str, int] | None, final: str
) -> None:
    path = _late_map(tmp_path, first, calendar)
    game_map = load_map(path)
    last = game_map.calendar.last_year
    ends = {}
    for backend in BACKENDS:
        game = play_game(3, None, backend, game_map=game_map)
        assert game.is_over and game.draw and game.end_reason == "max_year"
        assert str(game.phase) == final
        assert game.end_text == f"The last year, {last}, was played: the game is a draw."
        ends[backend] = gamefile.to_json(game)
    assert ends["rust"] == ends["python"]
    # the code API ends there too
    code = CodeGame(Position.initial(game_map))
    while not code.is_over:
        code.set_orders([codes[0] for codes in code.legal_orders()])
        code.process()
    assert code.phase == final and code.winner is None and code.max_year is None
    # and the command line: exit 0, a draw
    done = subprocess.run(
        [sys.executable, "-m", "diplo", "play", "--map", str(path), "--quiet"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": UNDER_TEST},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Draw among" in done.stdout


def test_a_position_after_the_last_year_is_refused_by_every_game() -> None:
    doc = Position.initial(M).to_json()
    doc["phase"] = "S9999M"
    late = Position.from_json(doc, M)
    for make in (
        lambda: Game.from_position(late),
        lambda: Game.from_position(late, backend="python"),
        lambda: CodeGame(late),
    ):
        with pytest.raises(ValueError, match="the position is in 9999, after 9998, the last year"):
            make()


# --------------------------------------------------------------------------- the board hash's seed


def _hash_on(doc: dict[str, Any], position: Position) -> int:
    """The board hash of ``position`` moved onto the map ``doc`` describes."""
    other = Map.from_dict(doc)
    return CodeGame(Position.from_json(position.to_json(), other)).hash


def _changed(doc: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(doc))
    out.update(changes)
    return out


def test_the_hash_seed_covers_what_rules_a_game_and_nothing_else() -> None:
    """docs/search.md: the seed is everything of the map that rules a game (the calendar, the
    neutral and rebuild flags, start_armies included); the map's name, its first phase, its
    season names, its dummy powers and its default rules rule nothing and do not change it."""
    world = map_named("westernworld901")
    doc = world.to_dict()
    position = Position.initial(world)
    base = CodeGame(position).hash
    assert _hash_on(doc, position) == base
    no_rebuild = _changed(doc)
    del no_rebuild["powers"]["NEUTRAL"]["rebuild"]
    not_neutral = _changed(doc)
    for key in ("rebuild", "neutral"):
        del not_neutral["powers"]["NEUTRAL"][key]
    slow = _changed(doc, calendar={"years_to_fall": 0, "years_to_spring": 2})
    differ = [_hash_on(d, position) for d in (no_rebuild, not_neutral, slow)]
    assert len({base, *differ}) == 4
    # the same game, whatever the name, first phase, season names, dummy flag or rules
    renamed = _changed(doc, name="elsewhere", first_phase="F950M")
    seasons = _changed(doc, calendar={"names": {"S": "Thaw", "F": "Harvest", "W": "Frost"}})
    dummy = _changed(doc)
    dummy["powers"]["ABBASID_CALIPHATE"]["dummy"] = True
    ruled = _changed(doc, rules={"edition": "godip", "build_sites": "home"})
    for same in (renamed, seasons, dummy, ruled):
        assert _hash_on(same, position) == base
    # start_armies (chaos): the first adjustment's unordered builds are armies
    chaos = map_named("chaos")
    start = Position.initial(chaos)
    plain = _changed(chaos.to_dict())
    del plain["start_armies"]
    assert _hash_on(plain, start) != CodeGame(start).hash
