"""The rules value (``diplo.model.rules.Rules``): every option changes the outcome where the rules
say it should, on the Python reference, the object API on the Rust core and the code API alike."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from typing import Any

import pytest

from diplo.api.game import Game
from diplo.api.legal import legal_order_texts
from diplo.api.phase import process_phase
from diplo.apps.conformance import load_cases, run_case
from diplo.engine.codes import CodeGame, decode_order
from diplo.formats import gamefile
from diplo.formats.contract import DocumentError, adjudicate_document
from diplo.model.map import Map, standard_map
from diplo.model.orders import Build, format_order
from diplo.model.position import Position, PositionError
from diplo.model.rules import DEFAULT_RULES, Rules, RulesError
from diplo.reference.adjustments import adjustment_counts, build_sites
from diplo.reference.legal import legal_orders

OLDER = Rules(civil_disorder="home")
ANYWHERE = Rules(build_sites="any")


def _position(doc: dict[str, Any], rules: Rules = DEFAULT_RULES) -> Position:
    return Position.from_json(doc, standard_map()).with_changes(rules=rules)


def _fast_next(position: Position, orders: list[int] | None = None) -> Position:
    game = CodeGame(position)
    game.set_orders(orders or [])
    game.process()
    return game.position()


def _units(position: Position) -> set[str]:
    return {f"{p.power} {p}" for p in position.units.values()}


# --------------------------------------------------------------------------- the value


def test_defaults_are_the_datc_preferences() -> None:
    rules = Rules()
    assert rules == DEFAULT_RULES and rules.is_default
    assert (rules.civil_disorder, rules.build_sites) == ("owned", "home")
    assert rules.victory(18) == 18 and Rules(victory_centers=10).victory(18) == 10
    assert standard_map().rules == DEFAULT_RULES


def test_rules_read_and_written_as_json() -> None:
    rules = Rules(civil_disorder="home", build_sites="any", victory_centers=12, year_limit=1910)
    assert Rules.from_json(json.loads(json.dumps(rules.to_json()))) == rules
    assert Rules.from_json({}) == DEFAULT_RULES
    assert Rules.parse("civil_disorder=home, victory_centers=12") == Rules(
        civil_disorder="home", victory_centers=12
    )
    assert Rules.parse("year_limit=none", base=Rules(year_limit=1905)).year_limit is None
    assert Rules.parse("build_sites=any", base=OLDER) == Rules("home", "any")


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"civil": "home"}, "unknown option"),
        ({"civil_disorder": "owned_centres"}, "civil_disorder must be"),
        ({"build_sites": 1}, "build_sites must be"),
        ({"victory_centers": 0}, "victory_centers must be"),
        ({"victory_centers": True}, "victory_centers must be"),
        ({"year_limit": "1910"}, "year_limit must be"),
        (["civil_disorder"], "must be an object"),
    ],
)
def test_bad_rules_are_refused_by_name(doc: object, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules.from_json(doc)


def test_bad_rules_text_is_refused() -> None:
    with pytest.raises(RulesError, match="key=value"):
        Rules.parse("home")
    with pytest.raises(RulesError, match="must be an integer"):
        Rules.parse("victory_centers=ten")


# --------------------------------------------------------------------------- civil disorder

# DATC 6.J.11: Italy owns only Warsaw, has armies in Warsaw and Tuscany and must remove one.
J11 = {
    "phase": "W1901A",
    "units": {"ITALY": ["A WAR", "A TUS"]},
    "centers": {"ITALY": ["WAR"]},
}


def test_6j11_distance_to_owned_centres_by_default(backend: str) -> None:
    # DATC 6.J.11 (2023 rules): the army in Tuscany is removed.
    outcome = process_phase(_position(J11), {}, backend)
    assert _units(outcome.next) == {"ITALY A WAR"}
    assert _units(_fast_next(_position(J11))) == {"ITALY A WAR"}


def test_6j11_distance_to_home_centres_under_the_older_rules(backend: str) -> None:
    # DATC 6.J.11: "Under older rulebooks the army in Tuscany was kept."
    outcome = process_phase(_position(J11, OLDER), {}, backend)
    assert _units(outcome.next) == {"ITALY A TUS"}
    implied = [r for r in outcome.results if not r.given]
    assert [r.order for r in implied] == ["A WAR D"]
    assert "home centre" in implied[0].reason
    assert _units(_fast_next(_position(J11, OLDER))) == {"ITALY A TUS"}


def _older_map() -> Map:
    data = standard_map().to_dict()
    data["rules"] = {"civil_disorder": "home"}
    return Map.from_dict(data)


# Under the older rule the distance is to the home centres: 6.J.6 (Russia: the Gulf of Bothnia
# borders St Petersburg, so the North Sea goes), 6.J.10 (Italy: Piedmont borders Venice, so
# Greece goes) and 6.J.11 (Tuscany is next to Rome, so Warsaw goes) come out the other way; every
# other 6.J case is the same under both rules.
OLDER_RULE_BOARDS = {
    "6.J.6": {"RUSSIA F BOT"},
    "6.J.10": {"ITALY A PIE"},
    "6.J.11": {"ITALY A TUS"},
}


@pytest.mark.parametrize("case", [c for c in load_cases() if c["id"].startswith("6.J.")])
def test_6j_cases_under_both_civil_disorder_rules(case: dict[str, Any], backend: str) -> None:
    assert run_case(case, backend).passed  # the DATC's (2023) ruling
    older = run_case(case, backend, _older_map())
    if case["id"] not in OLDER_RULE_BOARDS:
        assert older.passed, older.problems
        return
    assert not older.passed
    setup = case["expected"]["setup"]
    position = Position.from_json(setup, standard_map()).with_changes(rules=OLDER)
    outcome = process_phase(position, {}, backend)
    assert _units(outcome.next) == OLDER_RULE_BOARDS[case["id"]]
    assert _units(_fast_next(position)) == OLDER_RULE_BOARDS[case["id"]]


# --------------------------------------------------------------------------- build sites

# France owns Belgium and its home centres, all occupied: one build owed, no home centre free.
CROWDED = {
    "phase": "W1901A",
    "units": {"FRANCE": ["F BRE", "A MAR", "A PAR"]},
    "centers": {"FRANCE": ["BRE", "MAR", "PAR", "BEL"]},
}


def test_build_sites_home_centres_by_default(backend: str) -> None:
    position = _position(CROWDED)
    assert build_sites(position, "FRANCE") == []
    assert adjustment_counts(position)["FRANCE"] == 0
    outcome = process_phase(position, {"FRANCE": ["A BEL B"]}, backend)
    assert not outcome.results[0].legal
    assert _units(outcome.next) == _units(position)


def test_build_anywhere_builds_in_an_owned_centre(backend: str) -> None:
    position = _position(CROWDED, ANYWHERE)
    assert build_sites(position, "FRANCE") == ["BEL"]
    assert adjustment_counts(position)["FRANCE"] == 1
    assert Build.__name__ in {type(o).__name__ for o in legal_orders(position)["BEL"]}
    outcome = process_phase(position, {"FRANCE": ["F BEL B"]}, backend)
    assert outcome.results[0].legal and outcome.results[0].success
    assert "FRANCE F BEL" in _units(outcome.next)
    # A centre it does not own, and a province that is no centre, are still refused.
    for order in ("A HOL B", "A BUR B"):
        assert not process_phase(position, {"FRANCE": [order]}, backend).results[0].legal
    # The code API offers the same site and carries the build out.
    game = CodeGame(position)
    # Build sites first, then the power's waive in a slot of its own (diplo.engine.codes: slots).
    assert game.slots() == [("FRANCE", "BEL"), ("FRANCE", "FRANCE")]
    texts = {_text(c, position): c for c in game.legal_orders()[0]}
    assert set(texts) == {"A BEL B", "F BEL B"}
    assert [_text(c, position) for c in game.legal_orders()[1]] == ["WAIVE"]
    game.set_orders([texts["F BEL B"]])
    game.process()
    assert "FRANCE F BEL" in _units(game.position())


def _text(code: int, position: Position) -> str:
    return format_order(decode_order(code, position.map, position))


def _codes(game: CodeGame, position: Position, *texts: str) -> list[int]:
    by_text = {_text(c, position): c for codes in game.legal_orders() for c in codes}
    return [by_text[t] for t in texts]


def test_build_anywhere_makes_the_winter_happen(backend: str) -> None:
    # After the Fall France has five centres for four units, every home centre occupied but
    # Holland vacant: no winter by the rulebook, a winter with one build under build anywhere.
    doc = {
        "phase": "F1901M",
        "units": {"FRANCE": ["F BRE", "A MAR", "A PAR", "A RUH"]},
        "centers": {"FRANCE": ["BRE", "MAR", "PAR", "BEL", "HOL"]},
    }
    for rules, phase in ((DEFAULT_RULES, "S1902M"), (ANYWHERE, "W1901A")):
        position = _position(doc, rules)
        outcome = process_phase(position, {"FRANCE": ["A RUH - BEL"]}, backend)
        assert str(outcome.next.phase) == phase, rules
        game = CodeGame(position)
        game.set_orders(_codes(game, position, "A RUH - BEL"))
        game.process()
        assert game.phase == phase


# --------------------------------------------------------------------------- victory


def _nearly_won() -> dict[str, Any]:
    # Russia has ten centres and takes the eleventh (Rumania) in the Fall.
    return {
        "phase": "F1905M",
        "units": {"RUSSIA": ["A UKR"], "TURKEY": ["A CON"]},
        "centers": {
            "RUSSIA": ["MOS", "SEV", "STP", "WAR", "SWE", "NWY", "DEN", "BER", "KIE", "MUN"],
            "TURKEY": ["ANK", "CON", "SMY"],
        },
    }


@pytest.mark.parametrize("victory", [None, 11, 12])
def test_victory_count_from_the_rules(victory: int | None, backend: str) -> None:
    rules = Rules(victory_centers=victory)
    position = _position(_nearly_won(), rules)
    outcome = process_phase(position, {"RUSSIA": ["A UKR - RUM"]}, backend)
    won = victory is not None and victory <= 11
    assert outcome.winner == ("RUSSIA" if won else None)
    game = CodeGame(position)
    game.set_orders(_codes(game, position, "A UKR - RUM"))
    game.process()
    assert game.winner == ("RUSSIA" if won else None)
    assert game.is_over == won


def test_victory_count_from_the_map() -> None:
    data = standard_map().to_dict()
    data["victory"] = 11
    small = Map.from_dict(data)
    doc = _nearly_won()
    position = Position.from_json(doc, small)
    outcome = process_phase(position, {"RUSSIA": ["A UKR - RUM"]}, "python")
    assert outcome.winner == "RUSSIA"
    # the rules' count wins over the map's
    outcome = process_phase(
        position.with_changes(rules=Rules(victory_centers=12)), {"RUSSIA": ["A UKR - RUM"]}
    )
    assert outcome.winner is None


def test_year_limit_ends_the_game() -> None:
    game = Game(backend="python", rules=Rules(year_limit=1902))
    assert game.rules.year_limit == 1902
    while not game.is_over:
        game.process()
    assert game.end_reason == "max_year" and game.draw
    assert game.history[-1].phase.year == 1902
    fast = CodeGame(Position.initial(standard_map(), rules=Rules(year_limit=1902)))
    assert fast.max_year == 1902
    while not fast.is_over:
        fast.process()
    assert fast.phase.endswith("1903M")
    # the earlier of max_year and the limit
    start = Position.initial(standard_map(), rules=Rules(year_limit=1902))
    assert CodeGame(start, max_year=1901).max_year == 1901


# --------------------------------------------------------------------------- carried everywhere


def test_the_json_contract_takes_rules() -> None:
    plain = adjudicate_document(dict(J11))
    older = adjudicate_document({**J11, "rules": {"civil_disorder": "home"}})
    assert plain["next"]["units"] == {"ITALY": ["A WAR"]}
    assert older["next"]["units"] == {"ITALY": ["A TUS"]}
    assert older["next"]["rules"]["civil_disorder"] == "home"
    # the next position is an input the engine accepts, rules and all
    again = adjudicate_document({**older["next"], "orders": {}})
    assert again["next"]["rules"] == older["next"]["rules"]
    with pytest.raises(DocumentError, match="unknown option"):
        adjudicate_document({**J11, "rules": {"civil_disorder": "home", "typo": 1}})


def test_game_files_keep_the_rules() -> None:
    game = Game(backend="python", max_year=1902, rules=Rules(build_sites="any"))
    while not game.is_over:
        game.process()
    buffer = io.StringIO()
    gamefile.save(game, buffer)
    data = json.loads(buffer.getvalue())
    assert data["rules"]["build_sites"] == "any"
    back = gamefile.from_json(data, backend="python")
    assert back.rules == game.rules
    assert back.position.rules == game.rules


def test_positions_carry_rules_through_phases() -> None:
    game = Game(backend="python", rules=OLDER)
    game.process()
    assert game.position.rules == OLDER
    assert CodeGame(game.position).position().rules == OLDER
    assert CodeGame(game.position).clone().rules == OLDER


def test_options_left_out_keep_the_maps_values() -> None:
    data = standard_map().to_dict()
    data["rules"] = {"build_sites": "any"}
    anywhere = Map.from_dict(data)
    doc = {**J11, "rules": {"civil_disorder": "home"}}
    position = Position.from_json(doc, anywhere)
    assert position.rules == Rules(civil_disorder="home", build_sites="any")
    assert Position.from_json({**J11, "rules": None}, anywhere).rules == anywhere.rules
    assert Position.from_json(J11, anywhere).rules == anywhere.rules


def test_the_year_limit_ends_where_max_year_does() -> None:
    from diplo.model.limits import MAX_YEAR
    from diplo.model.rules import LAST_YEAR_LIMIT

    assert LAST_YEAR_LIMIT == MAX_YEAR - 1
    assert Rules(year_limit=LAST_YEAR_LIMIT).year_limit == LAST_YEAR_LIMIT
    with pytest.raises(RulesError, match="year_limit"):
        Rules(year_limit=LAST_YEAR_LIMIT + 1)


# --------------------------------------------------------------------------- rulebook editions

from diplo.apps.conformance import available_paths, load_edition_cases  # noqa: E402
from diplo.model.rules import EDITIONS  # noqa: E402

EDITION_CASES = load_edition_cases()
MOVEMENT_OPTIONS = {
    "adjacent_convoy": ("intent", "explicit", "opposite"),
    "convoy_disruption": ("all", "any"),
    "paradox": ("szykman", "1971", "1982", "2000"),
    "convoy_fallback": ("none", "land", "via"),
    "support_coast": ("match", "any"),
    "own_support": ("never", "convoyed"),
    "head_to_head_own_support": ("counts", "void"),
    "convoyed_attack_from": ("army", "sea"),
    "retreat_after_convoy": ("vacant", "any"),
    "convoy_broken_by": ("dislodgement", "any_support"),
}


def test_an_edition_is_its_chapter_4_choices() -> None:
    assert Rules() == Rules(edition="2023") == DEFAULT_RULES
    old = Rules(edition="1971")
    assert (old.adjacent_convoy, old.convoy_disruption, old.paradox) == ("opposite", "any", "1971")
    assert old.convoy_fallback == "land" and Rules(edition="2000").convoy_fallback == "none"
    assert old.civil_disorder == "home" and not old.is_default
    for name, choices in EDITIONS.items():
        rules = Rules(edition=name)  # type: ignore[arg-type]
        assert {k: getattr(rules, k) for k in choices} == dict(choices)
    assert Rules(edition="dptg").adjacent_convoy == "explicit"
    assert Rules(edition="2000").paradox == "2000"


def test_an_explicit_option_overrides_its_edition() -> None:
    assert Rules(edition="1982", paradox="szykman").paradox == "szykman"
    assert Rules.parse("edition=1971,civil_disorder=owned").civil_disorder == "owned"
    assert Rules.parse("civil_disorder=owned,edition=1971").civil_disorder == "owned"
    # A new edition replaces the base's edition choices, keeps its other options.
    base = Rules(civil_disorder="home", build_sites="any", victory_centers=10)
    rules = Rules.from_json({"edition": "dptg"}, base)
    assert (rules.civil_disorder, rules.build_sites, rules.victory_centers) == ("owned", "any", 10)
    assert Rules.from_json(json.loads(json.dumps(rules.to_json()))) == rules
    assert next(iter(rules.to_json())) == "edition"  # read first, so the options after it win


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"edition": "1983"}, "edition must be one of"),
        ({"edition": 2023}, "edition must be one of"),
        ({"paradox": "none"}, "paradox must be one of"),
        ({"adjacent_convoy": "via"}, "adjacent_convoy must be one of"),
        ({"convoy_disruption": True}, "convoy_disruption must be one of"),
    ],
)
def test_bad_editions_and_movement_options_are_refused(doc: object, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules.from_json(doc)


def _edition_params() -> list[Any]:
    return [
        pytest.param(case, path, id=f"{path}-{case['id']}")
        for path in available_paths()
        for case in EDITION_CASES
    ]


@pytest.mark.parametrize(("case", "path"), _edition_params())
def test_datc_cases_under_the_edition_their_notes_name(case: dict[str, Any], path: str) -> None:
    result = run_case(case, path, rules=Rules(edition=case["edition"]))
    assert result.passed, f"{case['id']}:\n" + "\n".join(result.problems)


def test_the_edition_cases_cover_every_edition_and_differ_from_today() -> None:
    # The DATC's notes name none of MILA's or godip's rulings; the godip entries are the cases
    # godip rules otherwise, each with godip's reason (docs/rules-and-variants.md).
    assert {c["edition"] for c in EDITION_CASES} == set(EDITIONS) - {"2023", "mila"}
    godip = {c["id"] for c in EDITION_CASES if c["edition"] == "godip"}
    assert godip == {
        "6.F.12@godip",
        "6.G.7@godip",
        "6.G.8@godip",
        "6.G.19@godip",
        "6.J.6@godip",
        "6.J.10@godip",
        "6.J.11@godip",
    }
    # Exactly the cases edition=godip fails under today's expectations.
    base = {c["id"]: c for c in load_cases()}
    fails = {
        i for i, c in base.items() if not run_case(c, "python", rules=Rules(edition="godip")).passed
    }
    assert {g.split("@")[0] for g in godip} == fails
    # Most notes give another answer than today's: run under today's rules, those cases fail
    # (6.F.17 under 1971, 1982 and 2000, the 6.G swaps under 1971 and the DPTG, ...).
    failing = [c["id"] for c in EDITION_CASES if not run_case(c, "python").passed]
    assert len(failing) >= 25, failing
    assert {"6.F.17@1971", "6.F.17@1982", "6.F.17@2000", "6.G.1@dptg", "6.J.11@1971"} <= set(
        failing
    )
    # (6.F.12 and 6.G.7 differ under godip only in a convoy order's legality, legal and void
    # there, illegal by the DATC: an outcome 'fail' cannot tell the two apart.)
    assert godip - {"6.F.12@godip", "6.G.7@godip"} <= set(failing)


def _movement_phase(seed: int) -> tuple[Position, dict[str, list[str]]]:
    import random

    from generators import convoy_heavy_position, random_orders, random_position

    rng = random.Random(seed)
    game_map = standard_map()
    if rng.random() < 0.6:
        position = convoy_heavy_position(game_map, rng)
    else:
        position = random_position(game_map, rng, count=rng.randint(20, 34))
    if rng.random() < 0.5:
        rules = Rules(edition=rng.choice(list(EDITIONS)))  # type: ignore[arg-type]
    else:
        rules = Rules(**{k: rng.choice(v) for k, v in MOVEMENT_OPTIONS.items()})  # type: ignore[arg-type]
    # A Fall turn may end the game: under either victory rule (tests/test_victory.py has ties),
    # and sometimes by a lead over the second (victory_margin_year, tests/test_twentytwenty.py).
    margin = position.phase.year + rng.randint(-1, 4) if rng.random() < 0.3 else None
    rules = replace(rules, victory_lead=rng.random() < 0.5, victory_margin_year=margin)
    orders = {p: [str(o) for o in os] for p, os in random_orders(game_map, position, rng).items()}
    return position.with_changes(rules=rules), orders


@pytest.mark.parametrize("seed", range(400))
def test_both_engines_rule_alike_under_every_movement_option(seed: int) -> None:
    position, orders = _movement_phase(seed)
    ref = process_phase(position, orders, "python")
    eng = process_phase(position, orders, "rust")
    where = (position.rules, position.to_json(), orders)
    assert eng.to_json() == ref.to_json(), where
    assert eng.next.to_json() == ref.next.to_json(), where
    fast = CodeGame(position)
    assert fast.rules == position.rules


def test_the_contract_and_the_cli_take_an_edition() -> None:
    doc = {
        # DATC 6.G.1: a swap by convoy; under the DPTG only "via convoy" convoys a neighbour.
        "phase": "S1901M",
        "units": {"ENGLAND": ["A NWY", "F SKA"], "RUSSIA": ["A SWE"]},
        "orders": {"ENGLAND": ["A NWY - SWE", "F SKA C A NWY - SWE"], "RUSSIA": ["A SWE - NWY"]},
    }
    today = adjudicate_document(doc)
    assert sorted(today["next"]["units"]["ENGLAND"]) == ["A SWE", "F SKA"]
    dptg = adjudicate_document({**doc, "rules": {"edition": "dptg"}})
    assert sorted(dptg["next"]["units"]["ENGLAND"]) == ["A NWY", "F SKA"]
    assert dptg["next"]["rules"]["edition"] == "dptg"
    with pytest.raises(DocumentError, match="edition must be one of"):
        adjudicate_document({**doc, "rules": {"edition": "1999"}})


# --------------------------------------------------------------------------- MILA's rulings

MILA = Rules(edition="mila")


def _ruled(doc: dict[str, Any], rules: Rules, backend: str) -> dict[str, Any]:
    position = Position.from_json(doc, standard_map()).with_changes(rules=rules)
    orders = {p: list(os) for p, os in doc.get("orders", {}).items()}
    out = process_phase(position, orders, backend).to_json()
    fast = _fast_json(position, orders)
    assert fast is None or fast == out["next"], (rules, doc)
    return out


def _fast_json(position: Position, orders: dict[str, list[str]]) -> dict[str, Any] | None:
    from diplo.engine.codes import encode_order
    from diplo.model.orders import parse_order

    codes = []
    for power, texts in orders.items():
        for text in texts:
            codes.append(encode_order(parse_order(text, position.map), position.map, power))
    return _fast_next(position, codes).to_json()


def _board(out: dict[str, Any]) -> set[str]:
    return {f"{p} {u}" for p, us in out["next"]["units"].items() for u in us}


def _code(out: dict[str, Any], unit: str) -> str:
    return str(next(r["code"] for r in out["results"] if r["unit"] == unit))


def test_mila_is_todays_rulings_with_its_departures() -> None:
    assert {k: getattr(MILA, k) for k in MOVEMENT_OPTIONS} == {
        "adjacent_convoy": "intent",
        "convoy_disruption": "all",
        "paradox": "szykman",
        "convoy_fallback": "land",
        "support_coast": "any",
        "own_support": "convoyed",
        "head_to_head_own_support": "void",
        "convoyed_attack_from": "sea",
        "retreat_after_convoy": "any",
        "convoy_broken_by": "any_support",
    }
    assert MILA.waive == "free" and MILA.civil_disorder == "home"
    assert Rules().waive == "uses_build" and Rules(edition="1971").convoy_fallback == "land"
    assert Rules(edition="mila", waive="uses_build").waive == "uses_build"


def test_mila_moves_overland_when_the_convoy_orders_form_no_route(backend: str) -> None:
    # convoy_intent_fallback (DATC 6.G.8 family): "via convoy", and the fleet does not convoy.
    doc = {
        "phase": "S1901M",
        "units": {"FRANCE": ["A PIC", "F ENG"]},
        "orders": {"FRANCE": ["A PIC - BEL VIA", "F ENG H"]},
    }
    assert _board(_ruled(doc, DEFAULT_RULES, backend)) == {"FRANCE A PIC", "FRANCE F ENG"}
    assert _board(_ruled(doc, MILA, backend)) == {"FRANCE A BEL", "FRANCE F ENG"}


def test_mila_falls_back_after_a_disruption(backend: str) -> None:
    # fallback_after_disruption (DATC 6.G.3 family): an own fleet's convoy, the fleet dislodged.
    doc = {
        "phase": "S1901M",
        "units": {"FRANCE": ["A PIC", "F ENG"], "ENGLAND": ["F LON", "F NTH"]},
        "orders": {
            "FRANCE": ["A PIC - BEL", "F ENG C A PIC - BEL"],
            "ENGLAND": ["F LON - ENG", "F NTH S F LON - ENG"],
        },
    }
    today = _ruled(doc, DEFAULT_RULES, backend)
    assert "FRANCE A PIC" in _board(today) and _code(today, "A PIC") == "no_convoy"
    mila = _ruled(doc, MILA, backend)
    assert "FRANCE A BEL" in _board(mila) and _code(mila, "A PIC") == "ok"
    # With "via convoy" MILA does not fall back either.
    orders = {
        "FRANCE": ["A PIC - BEL VIA", "F ENG C A PIC - BEL"],
        "ENGLAND": ["F LON - ENG", "F NTH S F LON - ENG"],
    }
    via = {**doc, "orders": orders}
    assert "FRANCE A PIC" in _board(_ruled(via, MILA, backend))


def test_mila_breaks_a_convoy_on_an_attack_its_own_power_supports(backend: str) -> None:
    # convoy_broken_by="any_support" (MILA's Game._check_disruptions, found by
    # tools/mila_search.py: tests/mila_cases/standard-convoy-s101-S1903M.json). England's own
    # F NWY supports the German attack on its convoying F NTH: by DATC 6.D.12 that support
    # cannot dislodge F NTH (2 against 1 without it), so the convoy stands and A BRE lands;
    # MILA counts it in the fleet's sea and the convoy fails, though F NTH stays.
    doc: dict[str, Any] = {
        "phase": "S1903M",
        "units": {
            "ENGLAND": ["A BRE", "F NTH", "F NWY"],
            "FRANCE": ["F ENG"],
            "GERMANY": ["F HEL"],
        },
        "orders": {
            "ENGLAND": ["A BRE - YOR VIA", "F NTH C A BRE - YOR", "F NWY S F HEL - NTH"],
            "FRANCE": ["F ENG C A BRE - YOR"],
            "GERMANY": ["F HEL - NTH"],
        },
    }
    today = _ruled(doc, DEFAULT_RULES, backend)
    assert {"ENGLAND A YOR", "ENGLAND F NTH", "GERMANY F HEL"} <= _board(today)
    mila = _ruled(doc, MILA, backend)
    assert {"ENGLAND A BRE", "ENGLAND F NTH", "GERMANY F HEL"} <= _board(mila)
    assert _code(mila, "A BRE") == "no_convoy" and _code(mila, "F HEL") == "bounce"
    assert _board(_ruled(doc, replace(MILA, convoy_broken_by="dislodgement"), backend)) == (
        _board(today)
    )
    # Without England's support the attack beats nothing: the convoy stands under MILA's too.
    alone = {**doc, "orders": {**doc["orders"], "ENGLAND": doc["orders"]["ENGLAND"][:2]}}
    assert "ENGLAND A YOR" in _board(_ruled(alone, MILA, backend))


def test_mila_breaks_a_convoy_its_destination_guards(backend: str) -> None:
    # convoy_broken_by="any_support", MILA's paradox check (Game._detect_paradox in
    # _check_disruptions; found by tools/mila_search.py on the world map:
    # tests/mila_cases/world-convoy-s301173-S2007M.json, checked against MILA here too). The
    # Russian fleet in Norway, where the army goes, supports the convoying fleet to hold; its
    # support is cut by A SWE anyway, so by the DATC F NTH holds (1 against 1), the convoy
    # stands and A LON dislodges F NWY. MILA calls it a paradox as soon as the attack on the
    # fleet is as strong as all else there: the convoy fails, A LON stays.
    doc: dict[str, Any] = {
        "phase": "S1901M",
        "units": {
            "ENGLAND": ["A LON", "F NTH", "F NWG"],
            "GERMANY": ["F HEL", "A SWE"],
            "RUSSIA": ["F NWY"],
        },
        "orders": {
            "ENGLAND": ["A LON - NWY VIA", "F NTH C A LON - NWY", "F NWG S A LON - NWY"],
            "GERMANY": ["F HEL - NTH", "A SWE - NWY"],
            "RUSSIA": ["F NWY S F NTH"],
        },
    }
    today = _ruled(doc, DEFAULT_RULES, backend)
    assert "ENGLAND A NWY" in _board(today) and "F NWY" in today["next"]["dislodged"]["RUSSIA"]
    mila = _ruled(doc, MILA, backend)
    assert {"ENGLAND A LON", "RUSSIA F NWY", "ENGLAND F NTH"} <= _board(mila)
    assert _code(mila, "A LON") == "no_convoy" and not mila["next"]["dislodged"]
    # Without the guard's support the attack (1 against 1) breaks nothing under MILA's too.
    free = {**doc, "orders": {**doc["orders"], "RUSSIA": ["F NWY H"]}}
    assert "ENGLAND A NWY" in _board(_ruled(free, MILA, backend))


def _ancmed(doc: dict[str, Any], rules: Rules) -> Position:
    from diplo.model.map import map_named

    return Position.from_json(doc, map_named("ancmed")).with_changes(rules=rules)


def test_mila_s_port_fleet_carries_only_first_in_a_chain() -> None:
    # port_convoy="first" (MILA's utils/convoy_paths.py, _get_convoy_paths: a port reached from
    # a sea is a destination, never a carrier; found by tools/mila_search.py:
    # tests/mila_cases/ancmed_age_of_empires-convoy-s100581-S0010M.json). The Balearic Islands
    # are ancmed's port: Corsica - Ligurian Sea - Baleares - Saguntum is a route by the map's
    # rule either way, under MILA's only from Saguntum (the port's fleet first).
    there: dict[str, Any] = {
        "phase": "S0010M",
        "units": {"ROME": ["A COR", "F LIG", "F BAL"]},
        "orders": {"ROME": ["A COR - SAG VIA", "F LIG C A COR - SAG", "F BAL C A COR - SAG"]},
    }
    back: dict[str, Any] = {
        "phase": "S0010M",
        "units": {"ROME": ["A SAG", "F LIG", "F BAL"]},
        "orders": {"ROME": ["A SAG - COR VIA", "F LIG C A SAG - COR", "F BAL C A SAG - COR"]},
    }
    for rules, carried in ((DEFAULT_RULES, True), (MILA, False)):
        for doc, army, moves in ((there, "A COR", carried), (back, "A SAG", True)):
            position = _ancmed(doc, rules)
            orders = doc["orders"]
            results = [process_phase(position, orders, b).to_json() for b in ("python", "rust")]
            assert results[0] == results[1], (rules.edition, orders)
            units = {u for us in results[0]["next"]["units"].values() for u in us}
            assert (army in units) != moves, (rules.edition, orders, units)
            # The legal orders, the reference's and the engine's alike: the move and the
            # convoys only where a chain carries the army.
            lists = [legal_order_texts(position, backend=b) for b in ("python", "rust")]
            assert lists[0] == lists[1], rules.edition
            listed = {o for os in lists[0].values() for o in os}
            assert set(orders["ROME"]) <= listed if moves else not set(orders["ROME"]) & listed
    # A support of a convoyed move, by the DATC's rule (6.D.31: a route without the supporting
    # fleet) with port_convoy="first" alone (MILA's listing: read from the destination back to
    # the army, tests/test_mila_search.py holds the drop-in's lists to MILA): no chain runs
    # from Carthage back to A TAR (the port only first), one runs from Saguntum back to A ROM
    # by F BAL and F LIG, without the supporter F BER. A chain from the port itself may pass
    # back through the port's own fleet (MILA queues the start as a carrier): from the
    # Balearic Islands by F LIG, then F BAL, to Saguntum (without the supporter F BER), or by
    # F BER, then F BAL, to Tarraco (without F LIG); not by F BAL alone. Under MILA's edition
    # (convoyed_support="any_route", Game._valid_order: any route from the army, the
    # supporter's fleet too) all five are legal, as MILA takes them (checked against MILA).
    back_routes = [
        (
            {"CARTHAGE": ["F BAL", "A TAR"], "ROME": ["F BER"], "EGYPT": ["A MAU"]},
            "A MAU S A TAR - CAR",
            (True, True, False),
        ),
        (
            {"CARTHAGE": ["F BAL", "F BER"], "ROME": ["F LIG", "A ROM"]},
            "F BER S A ROM - SAG",
            (True, True, True),
        ),
        (
            {"CARTHAGE": ["F LIG"], "ROME": ["F BER", "A SAG", "F BAL"]},
            "F BER S A SAG - BAL",
            (True, True, True),
        ),
        (
            {"CARTHAGE": ["F BER"], "ROME": ["F LIG", "A TAR", "F BAL"]},
            "F LIG S A TAR - BAL",
            (True, True, True),
        ),
        ({"ROME": ["F BER", "A SAG", "F BAL"]}, "F BER S A SAG - BAL", (False, True, False)),
    ]
    # (legal under the DATC's editions, the port a carrier anywhere; under MILA's; under
    # port_convoy="first" with the DATC's convoyed_support)
    by_listing = Rules(edition="mila", convoyed_support="unneeded")
    for back_units, support, (by_default, by_mila, by_back) in back_routes:
        for rules in (DEFAULT_RULES, MILA, by_listing):
            position = _ancmed({"phase": "S0010M", "units": back_units}, rules)
            lists = [legal_order_texts(position, backend=b) for b in ("python", "rust")]
            assert lists[0] == lists[1], rules.edition
            listed = {o for os in lists[0].values() for o in os}
            expected = {DEFAULT_RULES: by_default, MILA: by_mila}.get(rules, by_back)
            assert (support in listed) == expected, (rules.edition, support)
            # Validation agrees with the listing, on both backends.
            power = next(p for p, us in back_units.items() if support[:5] in us)
            codes = {
                _code(process_phase(position, {power: [support]}, b).to_json(), support[:5])
                for b in ("python", "rust")
            }
            assert len(codes) == 1 and ("illegal" in codes) != expected, codes
    assert Rules(edition="mila", port_convoy="anywhere").port_convoy == "anywhere"
    assert {Rules(edition=e).port_convoy for e in EDITIONS if e != "mila"} == {"anywhere"}  # type: ignore[arg-type]


def test_mila_takes_a_support_of_a_convoyed_move_by_any_route() -> None:
    # convoyed_support="any_route" (MILA's Game._valid_order: _has_convoy_path('A', army, dest),
    # any chain of the fleets on the board from the army, the supporter's fleet too; each ruling
    # here checked against MILA 1.1.2 by tests/test_mila_search.py and by hand). Both backends'
    # rulings, results and legal orders alike; the DATC's rule (6.D.31, a chain without the
    # supporting fleet) for every other edition, and with the option set back under MILA's.
    from diplo.model.map import map_named

    datc = Rules(edition="mila", convoyed_support="unneeded")
    tricky: dict[str, Any] = {  # DATC 6.D.31: only F BLA could carry A RUM to Armenia
        "phase": "S1901M",
        "units": {"AUSTRIA": ["A RUM"], "TURKEY": ["F BLA"]},
        "orders": {"AUSTRIA": ["A RUM - ARM"], "TURKEY": ["F BLA S A RUM - ARM"]},
    }
    # ancmed: A TAR reaches Carthage by F BAL (the port, first) and F BER, no chain runs back.
    port: dict[str, Any] = {
        "phase": "F0009M",
        "units": {
            "CARTHAGE": ["F BAL", "A TAR", "F BER"],
            "ROME": ["A CAR"],
            "EGYPT": ["A MAU", "A NUM"],
        },
        "orders": {
            "CARTHAGE": ["F BAL C A TAR - CAR", "F BER C A TAR - CAR", "A TAR - CAR VIA"],
            "EGYPT": ["A MAU S A TAR - CAR"],
        },
    }
    # ancmed: a chain back from Saguntum to Corsica by F BAL and F LIG, none forward.
    refused: dict[str, Any] = {
        "phase": "S0010M",
        "units": {"ROME": ["A COR", "F LIG", "F BAL"], "CARTHAGE": ["A TAR"]},
        "orders": {"CARTHAGE": ["A TAR S A COR - SAG"]},
    }
    cases = [
        # (board, map, the support, the unit whose place shows the ruling, where it ends per
        # rules: DATC's editions, MILA's, MILA's with the DATC's convoyed_support)
        (tricky, "standard", "F BLA S A RUM - ARM", "AUSTRIA A RUM", (True, True, True)),
        (port, "ancmed", "A MAU S A TAR - CAR", "CARTHAGE A CAR", (True, True, False)),
        (refused, "ancmed", "A TAR S A COR - SAG", "CARTHAGE A TAR", (True, True, True)),
    ]
    legal_by = {
        "F BLA S A RUM - ARM": (False, True, False),
        "A MAU S A TAR - CAR": (True, True, False),
        "A TAR S A COR - SAG": (True, False, True),
    }
    for doc, name, support, shown, ends in cases:
        rulings = zip((DEFAULT_RULES, MILA, datc), legal_by[support], ends, strict=True)
        for rules, legal, end in rulings:
            position = Position.from_json(doc, map_named(name)).with_changes(rules=rules)
            outs = [process_phase(position, doc["orders"], b).to_json() for b in ("python", "rust")]
            assert outs[0] == outs[1], (rules.edition, support)
            assert (_code(outs[0], support[:5]) != "illegal") == legal, (rules, support)
            assert (shown in _board(outs[0])) == end, (rules, support, _board(outs[0]))
            lists = [legal_order_texts(position, backend=b) for b in ("python", "rust")]
            assert lists[0] == lists[1], (rules, support)
            assert (support in {o for os in lists[0].values() for o in os}) == legal
    assert {Rules(edition=e).convoyed_support for e in EDITIONS if e != "mila"} == {"unneeded"}  # type: ignore[arg-type]
    assert MILA.convoyed_support == "any_route"


def test_godip_s_convoy_orders_and_intent_go_by_chains_of_any_fleets() -> None:
    # convoy_chains="any_fleets" (godip's orders/convoy.go, convoy.Validate and MustConvoy with
    # ViaNation; the last recorded godip game that differed, empiresandcoalitions F1811M, is
    # tests/test_godip_games.py). DATC 6.G.19's board: France's F WES is on no route from
    # Marseilles to Spain, but the Italian F LYO joins them, so godip takes the French order
    # (and with it France's intent: chains join MAR to WES and WES to SPA) and the armies swap.
    # 6.G.7's: Russia's F BOT may convoy (the English F SKA joins SWE to NWY), but no chain
    # joins BOT to Norway, so it shows no intent and the armies bounce.
    swap: dict[str, Any] = {
        "phase": "S1901M",
        "units": {"FRANCE": ["A MAR", "F WES"], "ITALY": ["F LYO", "A SPA"]},
        "orders": {
            "FRANCE": ["A MAR - SPA", "F WES C A MAR - SPA"],
            "ITALY": ["F LYO C A MAR - SPA", "A SPA - MAR"],
        },
    }
    bounce: dict[str, Any] = {
        "phase": "S1901M",
        "units": {"ENGLAND": ["F SKA", "F NWY"], "RUSSIA": ["A SWE", "F BOT"]},
        "orders": {
            "ENGLAND": ["F SKA C A SWE - NWY", "F NWY - SWE"],
            "RUSSIA": ["A SWE - NWY", "F BOT C A SWE - NWY"],
        },
    }
    godip = Rules(edition="godip")
    for rules, any_chain in (
        (DEFAULT_RULES, False),
        (godip, True),
        (replace(godip, convoy_chains="route"), False),
    ):
        for doc, fleet, moved in ((swap, "F WES", "FRANCE A SPA"), (bounce, "F BOT", None)):
            out = [_ruled(doc, rules, b) for b in ("python", "rust")]
            assert out[0] == out[1], (rules.convoy_chains, doc["orders"])
            if moved is not None:
                assert (moved in _board(out[0])) == any_chain
            else:
                assert _board(out[0]) == {f"{p} {u}" for p, us in doc["units"].items() for u in us}
            # The fleet's order: illegal by the DATC; under godip legal, and void where it
            # shows no intent.
            want = "illegal" if not any_chain else ("ok" if moved else "void")
            assert _code(out[0], fleet) == want
            position = Position.from_json(doc, standard_map()).with_changes(rules=rules)
            lists = [legal_order_texts(position, backend=b) for b in ("python", "rust")]
            assert lists[0] == lists[1], rules.convoy_chains
            listed = {o for os in lists[0].values() for o in os}
            order = next(o for p in doc["orders"].values() for o in p if o.startswith(fleet))
            assert (order in listed) == any_chain


def test_mila_measures_a_fleet_s_disorder_distance_along_its_moves(backend: str) -> None:
    # disorder_distance="fleet_moves" (MILA's Game._get_distance_to_home, found by
    # tools/mila_search.py: tests/mila_cases/standard-edge-s1087-W1911A.json). France owes one
    # disband. Over every border F SPA/NC and F MAO are both one from a home centre (Spain
    # borders Marseilles, the Mid-Atlantic Brest) and F MAO goes first by name; along a fleet's
    # moves F SPA/NC is two away (by Gascony or the Mid-Atlantic) and goes.
    doc = {
        "phase": "W1911A",
        "units": {"FRANCE": ["A PAR", "A PIC", "F SPA/NC", "F MAO"]},
        "centers": {"FRANCE": ["MAR", "PAR", "SPA"]},
        "orders": {},
    }
    home = Rules(civil_disorder="home")
    assert _board(_ruled(doc, home, backend)) == {"FRANCE A PAR", "FRANCE A PIC", "FRANCE F SPA/NC"}
    mila = _ruled(doc, MILA, backend)
    assert _board(mila) == {"FRANCE A PAR", "FRANCE A PIC", "FRANCE F MAO"}
    alone = _ruled(doc, replace(home, disorder_distance="fleet_moves"), backend)
    assert _board(alone) == _board(mila) and alone["results"] == mila["results"]
    assert _board(_ruled(doc, replace(MILA, disorder_distance="any_border"), backend)) == (
        _board(_ruled(doc, home, backend))
    )
    # The sentence names the distance the rule counted: two, where every border counts one.
    (disband,) = [r for r in mila["results"] if r["unit"] == "F SPA/NC"]
    assert "2 moves from the nearest home centre (BRE)" in disband["reason"], disband


def test_mila_breaks_a_civil_disorder_tie_by_the_unit_s_text(backend: str) -> None:
    # MILA removes "A NAF" before "A NAP" (its PriorityDict orders units by their text); the
    # DATC (6.J.4) goes by the English names, Naples before North Africa.
    doc = {
        "phase": "W1901A",
        "units": {"RUSSIA": ["A NAF", "A NAP"]},
        "centers": {"RUSSIA": ["MOS"]},
        "orders": {},
    }
    assert _board(_ruled(doc, Rules(civil_disorder="home"), backend)) == {"RUSSIA A NAF"}
    assert _board(_ruled(doc, MILA, backend)) == {"RUSSIA A NAP"}


def test_mila_counts_a_support_naming_the_other_coast(backend: str) -> None:
    # support_coast_ignored (DATC 6.B.9).
    doc = {
        "phase": "S1901M",
        "units": {"FRANCE": ["F POR", "F MAO"], "ITALY": ["A SPA"]},
        "orders": {"FRANCE": ["F POR - SPA/NC", "F MAO S F POR - SPA/SC"]},
    }
    assert "FRANCE F POR" in _board(_ruled(doc, DEFAULT_RULES, backend))
    assert "FRANCE F SPA/NC" in _board(_ruled(doc, MILA, backend))


def test_mila_counts_own_support_of_a_convoyed_attack(backend: str) -> None:
    # own_support_counts_for_convoyed_attack (DATC 6.D.12; the corpus README's repro).
    doc = {
        "phase": "S1901M",
        "units": {"RUSSIA": ["A RUM", "F BLA"], "TURKEY": ["F ARM", "A SYR"]},
        "orders": {
            "RUSSIA": ["A RUM - ARM VIA", "F BLA C A RUM - ARM"],
            "TURKEY": ["F ARM H", "A SYR S A RUM - ARM"],
        },
    }
    assert not _ruled(doc, DEFAULT_RULES, backend)["dislodged"]
    assert "RUSSIA A ARM" in _board(_ruled(doc, MILA, backend))


HEAD_TO_HEAD: dict[str, Any] = {
    "phase": "S1901M",
    "units": {"AUSTRIA": ["A VIE", "A BUD", "A TRI", "A BOH"], "RUSSIA": ["A GAL"]},
    "orders": {
        "AUSTRIA": [
            "A VIE - GAL",
            "A BUD S A VIE - GAL",
            "A TRI S A GAL - VIE",
            "A BOH S A GAL - VIE",
        ],
        "RUSSIA": ["A GAL - VIE"],
    },
}


def test_mila_voids_own_support_in_a_head_to_head_defence(backend: str) -> None:
    # head_to_head_own_support_void (DATC 6.E.12: the support may not dislodge Austria's own
    # unit but defends the Russian move, so both bounce; MILA voids it and GAL is dislodged).
    today = _ruled(HEAD_TO_HEAD, DEFAULT_RULES, backend)
    assert not today["dislodged"] and "RUSSIA A GAL" in _board(today)
    mila = _ruled(HEAD_TO_HEAD, MILA, backend)
    assert "AUSTRIA A GAL" in _board(mila) and "A GAL" in str(mila["dislodged"])
    alone = Rules(head_to_head_own_support="void")
    assert "AUSTRIA A GAL" in _board(_ruled(HEAD_TO_HEAD, alone, backend))


def test_mila_bounces_a_head_to_head_of_as_many_supports(backend: str) -> None:
    # MILA bounces both moves when both have as many supports, whatever their owners: VIE and
    # GAL have one each (GAL's is Austria's own), and both bounce, as under the DATC.
    doc = {
        "phase": "S1901M",
        "units": {"AUSTRIA": ["A VIE", "A BUD", "A TRI"], "RUSSIA": ["A GAL", "A UKR"]},
        "orders": {
            "AUSTRIA": ["A VIE - GAL", "A BUD S A VIE - GAL", "A TRI S A GAL - VIE"],
            "RUSSIA": ["A GAL - VIE", "A UKR H"],
        },
    }
    for rules in (DEFAULT_RULES, MILA):
        out = _ruled(doc, rules, backend)
        assert not out["dislodged"] and "RUSSIA A GAL" in _board(out), rules.edition


@pytest.mark.parametrize(
    "russia",
    [["A GAL - VIE"], ["A GAL - VIE", "A UKR H"], ["A GAL - VIE", "A UKR S A GAL - VIE"]],
)
@pytest.mark.parametrize("backend", ["python", "rust"])
def test_mila_itself_rules_head_to_head_own_support_as_its_edition(
    backend: str, russia: list[str]
) -> None:
    diplomacy = pytest.importorskip("diplomacy")
    units = {"AUSTRIA": ["A VIE", "A BUD", "A TRI", "A BOH"], "RUSSIA": ["A GAL", "A UKR"]}
    orders: dict[str, list[str]] = {**HEAD_TO_HEAD["orders"], "RUSSIA": russia}
    game = diplomacy.Game()
    game.clear_units()
    for power, listed in units.items():
        game.set_units(power, listed)
    for power, listed in orders.items():
        game.set_orders(power, listed)
    game.process()
    theirs = {f"{p} {u.lstrip('*')}" for p, us in game.get_state()["units"].items() for u in us}
    ours = _ruled({"phase": "S1901M", "units": units, "orders": orders}, MILA, backend)
    dislodged = {f"{p} {u}" for p, us in ours["dislodged"].items() for u in us}
    assert _board(ours) | dislodged == theirs
    retreats = {p: r for p, r in game.get_state()["retreats"].items() if r}
    assert ours["dislodged"] == retreats


def test_mila_convoyed_attack_comes_from_the_sea(backend: str) -> None:
    # convoyed_attack_comes_from_the_army (DATC 4.A.4): the support given to SKA.
    doc = {
        "phase": "S1901M",
        "units": {"ENGLAND": ["A NWY", "F SKA"], "RUSSIA": ["F SWE"]},
        "orders": {"ENGLAND": ["A NWY - SWE", "F SKA C A NWY - SWE"], "RUSSIA": ["F SWE S F SKA"]},
    }
    assert _code(_ruled(doc, DEFAULT_RULES, backend), "F SWE") == "cut"
    assert _code(_ruled(doc, MILA, backend), "F SWE") == "ok"


def test_mila_waives_use_no_build(backend: str) -> None:
    # waive_after_builds (DATC 4.D.4, 4.D.7): one build, WAIVE then A PAR B.
    doc = {
        "phase": "W1901A",
        "units": {"FRANCE": ["A MAR", "F BRE"]},
        "centers": {"FRANCE": ["PAR", "MAR", "BRE"]},
        "orders": {"FRANCE": ["WAIVE", "A PAR B"]},
    }
    assert "FRANCE A PAR" not in _board(_ruled(doc, DEFAULT_RULES, backend))
    assert "FRANCE A PAR" in _board(_ruled(doc, MILA, backend))


# A convoyed attack dislodges Turkey's A ARM. Its neighbours: ANK and SEV held, SYR held (its move
# bounced), SMY left empty by a standoff. MILA 1.1.2 itself, given these orders, lists all four in
# its state (``retreats``), offers ``A ARM R SMY`` and ``A ARM D`` and refuses ``A ARM R ANK``.
CONVOYED_DISLODGEMENT: dict[str, Any] = {
    "phase": "S1901M",
    "units": {
        "RUSSIA": ["A RUM", "F BLA", "A SEV"],
        "TURKEY": ["A ARM", "F ANK", "A CON", "A SYR"],
    },
    "orders": {
        "RUSSIA": ["A RUM - ARM VIA", "F BLA C A RUM - ARM", "A SEV S A RUM - ARM"],
        "TURKEY": ["A ARM H", "F ANK H", "A CON - SMY", "A SYR - SMY"],
    },
}


def _options(out: dict[str, Any]) -> list[str]:
    return list(out["next"]["dislodged"].get("TURKEY", {}).get("A ARM", []))


def test_mila_lists_every_retreat_after_a_convoyed_attack(backend: str) -> None:
    # retreat_options_after_convoyed_attack: today the unit has no retreat (SMY is a standoff's,
    # DATC 6.H.6) and is disbanded at once; MILA lists every neighbour, occupied ones included.
    today = _ruled(CONVOYED_DISLODGEMENT, DEFAULT_RULES, backend)
    assert today["next"]["phase"] == "F1901M" and not today["next"]["dislodged"]
    mila = _ruled(CONVOYED_DISLODGEMENT, MILA, backend)
    assert mila["next"]["phase"] == "S1901R"
    assert _options(mila) == ["ANK", "SEV", "SMY", "SYR"]
    # The option alone, on today's other rulings, does the same; a plain attack is unchanged.
    alone = Rules(retreat_after_convoy="any")
    assert _options(_ruled(CONVOYED_DISLODGEMENT, alone, backend)) == ["ANK", "SEV", "SMY", "SYR"]
    plain = {**CONVOYED_DISLODGEMENT, "units": {**CONVOYED_DISLODGEMENT["units"]}}
    plain["orders"] = {**plain["orders"], "RUSSIA": ["A RUM - ARM", "A SEV S A RUM - ARM"]}
    plain["units"]["RUSSIA"] = ["A RUM", "A SEV"]
    assert not _ruled(plain, MILA, backend)["next"]["dislodged"]


def _retreat_phase(rules: Rules, backend: str) -> Position:
    position = Position.from_json(CONVOYED_DISLODGEMENT, standard_map()).with_changes(rules=rules)
    orders = {p: list(os) for p, os in CONVOYED_DISLODGEMENT["orders"].items()}
    return process_phase(position, orders, backend).next


@pytest.mark.parametrize("order", ["A ARM R SMY", "A ARM R ANK", "A ARM R SYR", "A ARM D"])
def test_mila_never_retreats_where_a_unit_stands(backend: str, order: str) -> None:
    from diplo.api.legal import legal_order_texts

    position = _retreat_phase(MILA, backend)
    assert sorted(legal_order_texts(position, "TURKEY", backend=backend)["ARM"]) == [
        "A ARM D",
        "A ARM R SMY",
    ]
    out = process_phase(position, {"TURKEY": [order]}, backend)
    (result,) = [r for r in out.results if r.unit == "A ARM" and r.given]
    turkey = {str(p) for p in out.next.units.values() if p.power == "TURKEY"}
    if order == "A ARM R SMY":
        assert result.legal and result.success and "A SMY" in turkey
    else:
        assert "A ARM" not in turkey and len(out.next.units) == 6
        if order != "A ARM D":
            assert not result.legal and "may retreat to SMY" in (result.reason or "")
    # The code API rules alike, from the same retreat phase.
    from diplo.engine.codes import encode_order
    from diplo.model.orders import parse_order

    code = encode_order(parse_order(order, position.map), position.map, "TURKEY")
    assert _fast_next(position, [code]).to_json() == out.next.to_json()


def test_mila_keeps_a_unit_whose_listed_retreats_are_all_occupied(backend: str) -> None:
    # MILA 1.1.2: with SMY held too, the state still lists ANK, SEV, SMY and SYR, so the unit is
    # not removed at once: a retreat phase follows in which it may only disband.
    doc = {**CONVOYED_DISLODGEMENT, "units": {**CONVOYED_DISLODGEMENT["units"]}}
    doc["units"]["TURKEY"] = ["A ARM", "F ANK", "A SMY", "A SYR"]
    doc["orders"] = {**doc["orders"], "TURKEY": ["A ARM H"]}
    assert not _ruled(doc, DEFAULT_RULES, backend)["next"]["dislodged"]
    mila = _ruled(doc, MILA, backend)
    assert mila["next"]["phase"] == "S1901R" and _options(mila) == ["ANK", "SEV", "SMY", "SYR"]
    position = Position.from_json(mila["next"], standard_map())
    assert position.rules == MILA
    out = process_phase(position, {}, backend)
    assert str(out.next.phase) == "F1901M"
    assert {str(p) for p in out.next.units.values() if p.power == "TURKEY"} == {
        "F ANK",
        "A SMY",
        "A SYR",
    }


def test_an_occupied_option_is_a_bad_position_but_under_milas_lists() -> None:
    doc = {
        "phase": "S1901R",
        "units": {"RUSSIA": ["A ARM"], "TURKEY": ["F ANK"]},
        "dislodged": {"TURKEY": {"A ARM": ["ANK", "SMY"]}},
    }
    with pytest.raises(PositionError, match="F ANK stands there"):
        Position.from_json(doc, standard_map())
    kept = Position.from_json({**doc, "rules": {"edition": "mila"}}, standard_map())
    assert kept.dislodged["ARM"].options == ("ANK", "SMY")
    # The contract's reading leaves the occupied option out under any other rules.
    read = Position.from_json(doc, standard_map(), occupied_options=True)
    assert read.dislodged["ARM"].options == ("SMY",)
    # The engine takes MILA's list only with MILA's rules.
    assert CodeGame(kept).position().dislodged["ARM"].options == ("ANK", "SMY")


def test_milas_own_retreat_lists_agree() -> None:
    diplomacy = pytest.importorskip("diplomacy")
    game = diplomacy.Game()
    game.clear_units()
    for power, units in CONVOYED_DISLODGEMENT["units"].items():
        game.set_units(power, units)
    for power, orders in CONVOYED_DISLODGEMENT["orders"].items():
        game.set_orders(power, orders)
    game.process()
    ours = _ruled(CONVOYED_DISLODGEMENT, MILA, "python")
    assert game.get_current_phase() == ours["next"]["phase"]
    assert sorted(game.get_state()["retreats"]["TURKEY"]["A ARM"]) == _options(ours)
    assert sorted(game.get_all_possible_orders()["ARM"]) == ["A ARM D", "A ARM R SMY"]


def _retreat_phase_listing_occupied(seed: int) -> tuple[Position, dict[str, list[str]]] | None:
    """A retreat phase under MILA's retreat lists reached from a generated movement phase, with
    random retreat orders that aim at every listed option (occupied ones too) or disband."""
    import random

    position, orders = _movement_phase(seed)
    rules = replace(position.rules, retreat_after_convoy="any")
    nxt = process_phase(position.with_changes(rules=rules), orders, "python").next
    if not nxt.dislodged:
        return None
    rng = random.Random(seed)
    retreats: dict[str, list[str]] = {}
    for d in nxt.dislodged.values():
        choice = rng.choice([*d.options, None])
        order = f"{d.piece} D" if choice is None else f"{d.piece} R {choice}"
        retreats.setdefault(d.piece.power, []).append(order)
    return nxt, retreats


def test_both_engines_rule_milas_retreat_lists_alike() -> None:
    from diplo.engine.codes import encode_order
    from diplo.model.orders import parse_order

    listed = 0
    for seed in range(2000):
        phase = _retreat_phase_listing_occupied(seed)
        if phase is None:
            continue
        position, orders = phase
        listed += any(
            position.map.province_of(o) in position.units
            for d in position.dislodged.values()
            for o in d.options
        )
        ref = process_phase(position, orders, "python")
        eng = process_phase(position, orders, "rust")
        where = (position.to_json(), orders)
        assert eng.to_json() == ref.to_json(), where
        # The engine read from the document the reference wrote, and the code API, alike.
        again = Position.from_json(position.to_json(), position.map)
        assert process_phase(again, orders, "rust").to_json() == ref.to_json(), where
        codes = [
            encode_order(parse_order(t, position.map), position.map, p)
            for p, ts in orders.items()
            for t in ts
        ]
        assert _fast_next(position, codes).to_json() == ref.next.to_json(), where
    assert listed >= 5, listed  # the generated phases do list occupied provinces


def test_a_pickled_fast_game_keeps_its_edition() -> None:
    import pickle

    # The engine's state bytes keep only the adjustment options; the edition rides beside them.
    doc = {"phase": "S1901M", "units": {"FRANCE": ["A BEL"], "ENGLAND": ["F NTH"]}}
    position = Position.from_json(doc, standard_map()).with_changes(rules=MILA)
    from diplo.engine.codes import encode_order
    from diplo.model.orders import parse_order

    code = encode_order(parse_order("A BEL - HOL VIA", position.map), position.map, "FRANCE")
    for game in (CodeGame(position), pickle.loads(pickle.dumps(CodeGame(position)))):
        assert game.rules == MILA
        game.set_orders([code])
        game.process()
        # convoy_intent_fallback: MILA moves the army overland.
        assert "HOL" in game.position().units
    # A retreat phase whose MILA list names an occupied province pickles too.
    retreat = _retreat_phase(MILA, "python")
    back = pickle.loads(pickle.dumps(CodeGame(retreat)))
    assert back.position().to_json() == retreat.to_json() and back.rules == MILA
    # Rules that contradict the options the bytes keep are refused, naming why.
    from diplo import _core
    from diplo.engine.codes import code_map

    data = CodeGame(position)._core.state_bytes()
    with pytest.raises(ValueError, match="do not match"):
        _core.CodeGame.from_state_bytes(
            code_map(position.map), data, Rules(edition="mila", civil_disorder="owned").to_json()
        )
