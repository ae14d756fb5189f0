"""godip's own rule choices as options (``edition=godip``, ``docs/rules-and-variants.md``):
its civil-disorder tie-break by province id (``disorder_tie="abbreviation"``) and its reading of
"via convoy" (``convoy_fallback="via"``), each changing the outcome where godip's rule says it
should, on the Python reference, the object API on the Rust core and the code API alike."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from diplo.api.phase import process_phase
from diplo.engine.codes import CodeGame, encode_order
from diplo.formats.contract import adjudicate_document
from diplo.model.map import standard_map
from diplo.model.orders import parse_order
from diplo.model.position import Position
from diplo.model.rules import Rules, RulesError

PATHS = ("python", "rust", "codes")


def _position(doc: dict[str, Any], rules: Rules) -> Position:
    return Position.from_json(doc, standard_map()).with_changes(rules=rules)


def _after(position: Position, orders: dict[str, list[str]], path: str) -> set[str]:
    """The units after the phase, ruled on ``path``."""
    if path == "codes":
        game = CodeGame(position)
        game.set_orders(
            [
                encode_order(parse_order(text, position.map), position.map, power)
                for power, texts in orders.items()
                for text in texts
            ]
        )
        game.process()
        after = game.position()
    else:
        after = process_phase(position, orders, path).next
    return {f"{p.power} {p}" for p in after.units.values()}


# --------------------------------------------------------------------------- civil disorder

# Italy owns Rome alone and keeps fleets in London and Liverpool, each five borders from Rome: one
# must go. By English name Liverpool comes first; by abbreviation (godip's ids, "lon" and "lvp"
# on its classical map too) London does.
TIE = {"phase": "W1901A", "units": {"ITALY": ["F LON", "F LVP"]}, "centers": {"ITALY": ["ROM"]}}


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(
    ("tie", "kept"), [("name", "ITALY F LON"), ("abbreviation", "ITALY F LVP")]
)
def test_the_civil_disorder_tie_break(path: str, tie: str, kept: str) -> None:
    position = _position(TIE, Rules(disorder_tie=tie))  # type: ignore[arg-type]
    assert _after(position, {}, path) == {kept}


def test_godip_breaks_the_tie_by_abbreviation_and_the_others_by_name() -> None:
    assert Rules(edition="godip").disorder_tie == "abbreviation"
    # MILA too, by the unit's text (tests/test_mila_search.py holds it to MILA).
    assert Rules(edition="mila").disorder_tie == "abbreviation"
    others = ("1971", "1982", "2000", "2023", "dptg")
    assert {Rules(edition=e).disorder_tie for e in others} == {"name"}  # type: ignore[arg-type]
    assert Rules().disorder_tie == "name"
    assert Rules.parse("edition=godip,disorder_tie=name").disorder_tie == "name"
    with pytest.raises(RulesError, match="disorder_tie must be one of"):
        Rules(disorder_tie="id")  # type: ignore[arg-type]


def test_the_contract_reads_the_tie_break_and_says_why() -> None:
    doc = {**TIE, "orders": {}, "rules": {"disorder_tie": "abbreviation"}}
    out = adjudicate_document(doc)
    assert out["next"]["units"] == {"ITALY": ["F LVP"]}
    assert out["next"]["rules"]["disorder_tie"] == "abbreviation"


def test_a_code_game_keeps_the_tie_break_in_its_bytes() -> None:
    from diplo import _core
    from diplo.engine.codes import code_map

    table = code_map(standard_map())
    ruled = {}
    for tie in ("name", "abbreviation"):
        game = CodeGame(_position(TIE, Rules(disorder_tie=tie)))
        assert pickle.loads(pickle.dumps(game)).rules.disorder_tie == tie
        data = game._core.state_bytes()
        # Read without the rules beside them, the bytes still break the tie as they say.
        alone = _core.CodeGame.from_state_bytes(table, data)
        alone.process()
        game.process()
        assert alone.state_bytes() == game._core.state_bytes()
        ruled[tie] = alone.state_bytes()
        other = Rules(disorder_tie="name" if tie == "abbreviation" else "abbreviation")
        with pytest.raises(ValueError, match="do not match"):
            _core.CodeGame.from_state_bytes(table, data, other.to_json())
    assert ruled["name"] != ruled["abbreviation"]


# --------------------------------------------------------------------------- "via convoy"

# DATC 6.G.8: "via convoy" and no fleet convoys; DATC v2.4 (and godip) took the land route.
G8 = (
    {"phase": "S1901M", "units": {"FRANCE": ["A BEL"], "ENGLAND": ["F NTH", "A HOL"]}},
    {"FRANCE": ["A BEL - HOL VIA"], "ENGLAND": ["F NTH - HEL", "A HOL - KIE"]},
)
# An army convoyed by its own fleet's order (no "via convoy") whose convoy is disrupted: MILA
# takes the land route, godip does not (its MustConvoy holds it to the convoy).
DISRUPTED = (
    {"phase": "S1901M", "units": {"ENGLAND": ["A PIC", "F ENG"], "FRANCE": ["F BRE", "F MAO"]}},
    {
        "ENGLAND": ["A PIC - BEL", "F ENG C A PIC - BEL"],
        "FRANCE": ["F BRE - ENG", "F MAO S F BRE - ENG"],
    },
)
# Its own fleet ordered to convoy, but the fleets ordered form no route (F NWG holds): MILA takes
# the land route, godip does not.
UNROUTED = (
    {"phase": "S1901M", "units": {"ENGLAND": ["A LVP", "F NAO", "F NWG"]}},
    {"ENGLAND": ["A LVP - EDI", "F NAO C A LVP - EDI", "F NWG H"]},
)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(
    ("case", "fallback", "army"),
    [
        (G8, "none", "FRANCE A BEL"),
        (G8, "land", "FRANCE A HOL"),
        (G8, "via", "FRANCE A HOL"),
        (DISRUPTED, "none", "ENGLAND A PIC"),
        (DISRUPTED, "land", "ENGLAND A BEL"),
        (DISRUPTED, "via", "ENGLAND A PIC"),
        (UNROUTED, "none", "ENGLAND A LVP"),
        (UNROUTED, "land", "ENGLAND A EDI"),
        (UNROUTED, "via", "ENGLAND A LVP"),
    ],
)
def test_the_fallback_of_an_army_convoyed_to_a_neighbour(
    case: tuple[dict[str, Any], dict[str, list[str]]], fallback: str, army: str, path: str
) -> None:
    doc, orders = case
    position = _position(doc, Rules(convoy_fallback=fallback))  # type: ignore[arg-type]
    assert army in _after(position, orders, path)


def test_godip_s_edition_takes_the_land_route_only_for_via_convoy() -> None:
    assert Rules(edition="godip").convoy_fallback == "via"
    assert Rules(edition="mila").convoy_fallback == "land"
    assert Rules().convoy_fallback == "none"
    doc, orders = G8
    out = process_phase(_position(doc, Rules(edition="godip")), orders, "python")
    move = next(r for r in out.results if r.given and r.order.startswith("A BEL"))
    assert move.success and "moved" in move.reason


def test_older_state_bytes_know_no_tie_break() -> None:
    from diplo import _core
    from diplo.engine.codes import code_map

    table = code_map(standard_map())
    data = CodeGame(_position(TIE, Rules(disorder_tie="abbreviation")))._core.state_bytes()
    # civil_disorder at byte 22: bit 0 home, bit 1 the abbreviation tie-break (from version 4).
    assert data[3] == 4 and data[22] == 2
    v3 = data[:3] + b"\x03" + data[4:]
    with pytest.raises(ValueError, match="civil_disorder 2 is not 0, 1 or"):
        _core.CodeGame.from_state_bytes(table, v3)
    plain = data[:22] + b"\x00" + data[23:]
    assert _core.CodeGame.from_state_bytes(table, data[:3] + b"\x03" + plain[4:]).state_bytes() == (
        plain
    )
