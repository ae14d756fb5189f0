"""godip's twentytwenty: builds in any owned home centre of any power (``build_sites="any_home"``,
godip's ``AnyHomeCenter``) and a victory by a lead over the second power
(``victory_margin_year``), on the Python reference, the object API on the Rust core and the code
API alike. The scenarios are those of godip's own ``variants/twentytwenty/twentytwenty_test.go``
(map facts: Munich is a German home, Paris a neutral centre, Lyon no centre; 98 centres, 63 of
them homes; the USA, China and Russia start with 4)."""

from __future__ import annotations

import json
import pickle

import pytest

from diplo.api.game import Game
from diplo.api.legal import legal_order_texts
from diplo.api.phase import process_phase
from diplo.engine.codes import CodeGame, decode_order
from diplo.formats.contract import DocumentError, adjudicate_document
from diplo.model.map import map_named
from diplo.model.orders import format_order
from diplo.model.position import Phase, Position
from diplo.model.rules import DEFAULT_RULES, Rules, RulesError
from diplo.reference.adjustments import adjustment_counts, build_sites
from diplo.reference.legal import legal_orders

MAP = map_named("twentytwenty")
#: godip's TestTwentyLeadAtStartWins: twenty neutral centres for the USA (godip's test names
#: Panama, which is no centre, where godip's SetSC makes one: Turkmenistan here).
TWENTY = "GRD MEX TUR COL DOM ALG MAU SEN GIN COT CHA CAR DRC ANG ZAM PAI NOW SWE FIN HUN".split()
#: godip's TestMoreThanHalfWins: 49 centres for the USA, 48 for Russia (Munich is left over).
USA_49 = (
    "CHO CAP UZB ANT PHI LON MOM YEM LAH MAN ROE ATL MAC ALM ALE PAI ANC ANK CHA LAG REC MAU BHU "
    "TOK ALG TAI BEI HAT GRD DUB NOW VLA SER MUM ABU HUN SAP ISL BUE OMS PAM MAD ZAM IST KAN ASW "
    "CAD YUM SEN"
).split()
RUSSIA_48 = (
    "RIO KAR BRI DOM BAD MEN DRC IQA PET SYD RMA GRC NAG CAI CHM SWE DUR WAS GIN MEX RIY MIL DIY "
    "BAR NED MOS HAM CAR NAI TUR COT MAR VAN BNA EDI COM OMA ANG OKL BAO FIN BEN COL PRE NAP MOT "
    "IRK BNK"
).split()


def test_the_map_is_godips_twentytwenty() -> None:
    assert MAP.first_phase == "S2001M" and MAP.victory == 49 and len(MAP.powers) == 20
    assert MAP.rules == Rules(
        build_sites="any_home", civil_disorder="home", victory_lead=True, victory_margin_year=2020
    )
    homes = {h for hs in MAP.homes.values() for h in hs}
    assert (len(MAP.centers), len(homes)) == (98, 63)
    start = Position.initial(MAP)
    assert set(start.centers) == homes and len(start.units) == 63
    assert sorted(USA_49 + RUSSIA_48 + ["MUN"]) == sorted(MAP.centers)


# --------------------------------------------------------------------------- the build rule


def _winter(**owned: str) -> Position:
    """The start, in the winter of 2001, with ``owned`` centres changed hands and Germany's army
    in Munich gone (so that the UK, owning Munich, has a surplus and Munich is vacant)."""
    start = Position.initial(MAP)
    return start.with_changes(
        phase=Phase.parse("W2001A"),
        units={p: u for p, u in start.units.items() if p != "MUN"},
        centers={**start.centers, **owned},
    )


def test_a_captured_foreign_home_centre_is_a_build_site(backend: str) -> None:
    """godip's TestBuildInCapturedHomeCenter: the UK builds in Munich, Germany's home."""
    position = _winter(MUN="UK")
    assert build_sites(position, "UK") == ["MUN"]
    assert adjustment_counts(position)["UK"] == 1
    assert {format_order(o) for o in legal_orders(position)["MUN"]} == {"A MUN B"}
    listed = legal_order_texts(position, "UK", backend)
    assert listed["MUN"] == ["A MUN B"] and "PAI" not in listed
    outcome = process_phase(position, {"UK": ["A MUN B"]}, backend)
    assert outcome.results[0].legal and outcome.results[0].success
    assert str(outcome.next.units["MUN"]) == "A MUN" and outcome.next.units["MUN"].power == "UK"
    # The code API offers the same site, then the waive.
    game = CodeGame(position)
    assert ("UK", "MUN") in game.slots()
    texts = {_text(c, position) for codes in game.legal_orders() for c in codes}
    assert "A MUN B" in texts and "A PAI B" not in texts
    # The other build rules: not under "home" (no home of the UK's), and so under "any".
    assert build_sites(position.with_changes(rules=DEFAULT_RULES), "UK") == []
    assert build_sites(position.with_changes(rules=Rules(build_sites="any")), "UK") == ["MUN"]


def test_a_captured_neutral_centre_is_no_build_site(backend: str) -> None:
    """godip's TestCantBuildInNonHomeCenter and TestCantBuildInNonCenter: Paris (nobody's home)
    and Lyon (no centre) are refused, each with its reason."""
    position = _winter(PAI="UK")
    assert build_sites(position, "UK") == [] and adjustment_counts(position)["UK"] == 0
    assert "PAI" not in legal_orders(position)
    assert "PAI" not in legal_order_texts(position, "UK", backend)
    outcome = process_phase(position, {"UK": ["A PAI B", "A LYO B", "WAIVE"]}, backend)
    paris, lyon, waive = outcome.results[:3]
    assert not paris.legal and paris.reason == (
        "A PAI B: PAI is not a home supply centre of any power: under build_sites=any_home a "
        "power builds only in the home centres it owns, its own or another's."
    )
    assert not lyon.legal and lyon.reason == "A LYO B: LYO is not a supply centre."
    assert waive.legal and not waive.success
    assert waive.reason == (
        "Uk may build no unit: none of the centres it owns that are some power's home is "
        "vacant; this waive is void."
    )
    assert "PAI" not in outcome.next.units
    # Under "any" Paris is a site.
    anywhere = position.with_changes(rules=Rules(build_sites="any"))
    assert build_sites(anywhere, "UK") == ["PAI"]


def _text(code: int, position: Position) -> str:
    return format_order(decode_order(code, position.map, position))


# --------------------------------------------------------------------------- the victory


def _fall(year: int, **owners: list[str]) -> Position:
    """The start in the Fall of ``year``, every unit on its home, ``owners`` owning centres."""
    start = Position.initial(MAP)
    centers = dict(start.centers)
    for power, provinces in owners.items():
        centers.update(dict.fromkeys(provinces, power))
    return start.with_changes(phase=Phase.parse(f"F{year}M"), centers=centers)


def _winners(position: Position, backend: str) -> tuple[str | None, str | None]:
    """The winner after the turn, every unit holding, on ``backend`` and on the code API."""
    outcome = process_phase(position, {}, backend)
    game = CodeGame(position)
    game.process()
    return outcome.winner, game.winner


@pytest.mark.parametrize(
    ("year", "taken", "wins"),
    [
        (2001, 20, True),  # godip's TestTwentyLeadAtStartWins: 24 against 4, 20 > 2020 - 2001
        (2001, 19, False),  # TestNineteenLeadAtStartDoesntWin: a lead of exactly 19
        (2002, 19, True),  # TestNineteenLeadInSecondYearWins
        (2010, 10, False),  # a lead of 10 in 2010: exactly 2020 - 2010
        (2010, 11, True),
        (2020, 1, True),  # TestOneCenterLeadWinsIn2020
        (2019, 1, False),
        (2030, 1, True),  # past 2020 any strict lead wins
        (2030, 0, False),  # a tie at the top (USA, China and Russia, 4 each) never wins
    ],
)
def test_a_lead_greater_than_2020_minus_the_year_wins(
    year: int, taken: int, wins: bool, backend: str
) -> None:
    position = _fall(year, USA=TWENTY[:taken])
    expected = "USA" if wins else None
    assert _winners(position, backend) == (expected, expected)


def test_49_centres_win_and_a_tie_at_the_top_does_not(backend: str) -> None:
    """godip's TestMoreThanHalfWins and TestLessThanHalfDoesntWin, on a board without units."""
    empty = _fall(2001).with_changes(units={})
    assert _winners(empty.with_changes(centers={}), backend) == (None, None)
    half = {**dict.fromkeys(USA_49, "USA"), **dict.fromkeys(RUSSIA_48, "RUSSIA")}
    assert _winners(empty.with_changes(centers=half), backend) == ("USA", "USA")
    fewer = {p: o for p, o in half.items() if p not in ("SEN", "BNK")}  # 48 against 47
    assert _winners(empty.with_changes(centers=fewer), backend) == (None, None)
    tied = {**half, "MUN": "RUSSIA"}  # 49 each
    assert _winners(empty.with_changes(centers=tied), backend) == (None, None)


def test_rules_winner_reads_the_margin_and_the_year() -> None:
    rules = Rules(victory_lead=True, victory_margin_year=2020)
    assert rules.winner({"A": 24, "B": 4, "C": 4}, 49, 2001) == "A"
    assert rules.winner({"A": 23, "B": 4, "C": 4}, 49, 2001) is None
    assert rules.winner({"A": 5, "B": 5}, 49, 2050) is None
    assert rules.winner({"A": 5, "B": 4}, 49, 2050) == "A"
    assert rules.winner({"A": 49, "B": 48}, 49, 2001) == "A"
    assert rules.winner({"A": 49, "B": 49}, 49, 2001) is None
    # Without the margin, the lead alone never wins.
    assert Rules(victory_lead=True).winner({"A": 24, "B": 4}, 49, 2001) is None


def test_a_game_says_why_it_was_won_by_the_lead(backend: str) -> None:
    game = Game.from_position(_fall(2001, USA=TWENTY), backend=backend)
    game.process()
    assert game.winner == "USA" and game.end_reason == "solo"
    assert game.end_text == (
        "Usa owns 24 supply centres, fewer than the 49 needed after a Fall turn to win alone, "
        "but more than any other power (the next, China, has 4), and its lead of 20 is more "
        "than 2020 minus the year 2001, as victory_margin_year asks."
    )


# --------------------------------------------------------------------------- the options


def test_the_options_are_read_and_written_everywhere() -> None:
    rules = Rules.parse("build_sites=any_home,victory_margin_year=2020")
    assert (rules.build_sites, rules.victory_margin_year) == ("any_home", 2020)
    assert Rules.parse("victory_margin_year=none", rules).victory_margin_year is None
    assert Rules.from_json(rules.to_json()) == rules
    assert DEFAULT_RULES.to_json()["victory_margin_year"] is None
    with pytest.raises(RulesError, match="build_sites must be 'home', 'any' or 'any_home'"):
        Rules.parse("build_sites=anyhome")
    with pytest.raises(RulesError, match="victory_margin_year must be an integer"):
        Rules.parse("victory_margin_year=soon")
    for bad in (-1, True, "2020"):
        with pytest.raises(RulesError, match="victory_margin_year must be an integer from 0"):
            Rules.from_json({"victory_margin_year": bad})


def test_the_json_contract_takes_the_options() -> None:
    position = _fall(2001, USA=TWENTY)
    doc = json.loads(json.dumps(position.to_json()))
    doc["map"] = "twentytwenty"
    doc["orders"] = {}
    assert adjudicate_document(doc)["next"]["phase"] is None  # the game ended: the USA won
    doc["rules"] = {"victory_margin_year": 2021}  # a lead of 20 is not more than 20
    out = adjudicate_document(doc)
    # No winter: the USA's new centres are nobody's home, so no power can build.
    assert out["next"]["phase"] == "S2002M"
    assert out["next"]["rules"]["victory_margin_year"] == 2021
    assert out["next"]["rules"]["build_sites"] == "any_home"
    doc["rules"] = {"victory_margin_year": "2020"}
    with pytest.raises(DocumentError, match="victory_margin_year must be an integer"):
        adjudicate_document(doc)


def test_the_state_bytes_keep_the_options() -> None:
    from diplo import _core
    from diplo.engine.codes import code_map

    position = _fall(2001, USA=TWENTY)
    back = pickle.loads(pickle.dumps(CodeGame(position)))
    assert back.rules == MAP.rules
    back.process()
    assert back.winner == "USA"
    data = CodeGame(position)._core.state_bytes()
    table = code_map(MAP)
    # civil_disorder (1: home) at byte 22, build_sites (2: any_home) at 23, victory_margin_year + 1
    # at 33-36.
    assert (
        data[3] == 4 and data[22:24] == b"\x01\x02" and data[33:37] == (2021).to_bytes(4, "little")
    )
    alone = _core.CodeGame.from_state_bytes(table, data)
    alone.process()
    assert alone.winner == "USA"
    with pytest.raises(ValueError, match="do not match"):
        _core.CodeGame.from_state_bytes(table, data, Rules(build_sites="any_home").to_json())
    # Version 2 knows no any_home.
    old = data[:3] + b"\x02" + data[4:33] + data[37:]
    with pytest.raises(ValueError, match="build_sites 2 is not 0, 1 or"):
        _core.CodeGame.from_state_bytes(table, old)


def test_the_winners_sentence_names_two_word_powers_as_sentences_do() -> None:
    rules = MAP.rules
    counts = {"SOUTH_AFRICA": 30, "SPAIN": 5}
    assert rules.victory_text("SOUTH_AFRICA", counts, 49, 2005) == (
        "South Africa owns 30 supply centres, fewer than the 49 needed after a Fall turn to win "
        "alone, but more than any other power (the next, Spain, has 5), and its lead of 25 is "
        "more than 2020 minus the year 2005, as victory_margin_year asks."
    )
