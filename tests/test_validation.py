"""Order validation: every reason code, on positions built by hand."""

from __future__ import annotations

import pytest

from diplo.model.map import standard_map
from diplo.model.orders import Hold, Move, SupportHold, Unit
from diplo.model.position import Dislodged, Phase, Piece, Position
from diplo.reference.validation import validate, validate_order

M = standard_map()


def position(
    phase: str = "S1901M", centers: dict[str, str] | None = None, **units: str
) -> Position:
    """``position(ENGLAND="F NTH, A LON", FRANCE="A BEL")``."""
    pieces = {}
    for power, text in units.items():
        for item in text.split(","):
            kind, loc = item.split()
            piece = Piece(power, kind, loc)  # type: ignore[arg-type]
            pieces[piece.province] = piece
    return Position(M, Phase.parse(phase), pieces, centers or {})


def rule(pos: Position, power: str, text: str) -> tuple[bool, str, str]:
    r = validate_order(pos, power, text)
    return r.legal, r.code, r.canonical


@pytest.mark.parametrize(
    ("units", "power", "text", "code"),
    [
        ({"ENGLAND": "F NTH"}, "ENGLAND", "F NTH - PIC", "not_adjacent"),  # DATC 6.A.1
        ({"ENGLAND": "A LVP"}, "ENGLAND", "A LVP - IRI", "army_to_sea"),  # DATC 6.A.2
        ({"GERMANY": "F KIE"}, "GERMANY", "F KIE - MUN", "fleet_to_land"),  # DATC 6.A.3
        ({"GERMANY": "F KIE"}, "GERMANY", "F KIE - KIE", "move_to_self"),  # DATC 6.A.4
        ({"ENGLAND": "F LON"}, "GERMANY", "F LON - NTH", "foreign_unit"),  # DATC 6.A.6
        ({"ENGLAND": "F LON, F NTH"}, "ENGLAND", "F NTH C A LON - BEL", "convoy_of_fleet"),  # 6.A.7
        ({"ENGLAND": "F LON"}, "ENGLAND", "F LON - BEL VIA", "convoy_of_fleet"),
        ({"ITALY": "A ROM"}, "ITALY", "A VEN - TRI", "no_unit"),
        ({"FRANCE": "F POR"}, "FRANCE", "F POR - SPA", "coast_needed"),  # DATC 6.B.1
        ({"FRANCE": "F GAS"}, "FRANCE", "F GAS - SPA/SC", "bad_coast"),  # DATC 6.B.3
        ({"ITALY": "A ROM, F NAP"}, "ITALY", "F NAP S A ROM - TYS", "impossible_move"),
        ({"ITALY": "A VEN, F ROM"}, "ITALY", "F ROM S A VEN - APU", "cannot_support"),
        ({"AUSTRIA": "A VIE, A BUD"}, "AUSTRIA", "A VIE S A BUD - SER", "cannot_support"),
        ({"ITALY": "F TYS"}, "ITALY", "F TYS S A ROM", "no_supported_unit"),
        ({"ENGLAND": "F LON, A YOR"}, "ENGLAND", "F LON C A YOR - BEL", "convoy_not_at_sea"),
        ({"ENGLAND": "A LVP"}, "ENGLAND", "A LVP R YOR", "wrong_phase"),
        ({"ENGLAND": "A LVP"}, "ENGLAND", "FRANCE: A LVP H", "wrong_power"),
        ({"ENGLAND": "A LVP"}, "ENGLAND", "A LVP flies to the moon", "unparsable"),
        # DATC 6.D.32: no fleet in the North Sea, so Yorkshire cannot go to Holland at all.
        ({"GERMANY": "A YOR"}, "GERMANY", "A YOR - HOL", "not_adjacent"),
        # DATC 4.E.1, 6.D.32: "via convoy" with no fleet that could ever carry the army.
        ({"ENGLAND": "A LON"}, "ENGLAND", "A LON - WAL VIA", "no_convoy_route"),
        # DATC 6.G.19: the fleet in the Western Mediterranean is needed by no convoy route.
        (
            {"FRANCE": "A MAR, F WES", "ITALY": "F LYO"},
            "FRANCE",
            "F WES C A MAR - SPA",
            "convoy_impossible",
        ),
        # DATC 6.D.34: no support into the supporter's own province.
        ({"ITALY": "A PRU", "RUSSIA": "A LVN"}, "ITALY", "A PRU S A LVN - PRU", "cannot_support"),
        # DATC 6.D.31: the only route runs through the supporting fleet.
        (
            {"AUSTRIA": "A RUM", "TURKEY": "F BLA"},
            "TURKEY",
            "F BLA S A RUM - ARM",
            "impossible_move",
        ),
    ],
)
def test_illegal_orders(units: dict[str, str], power: str, text: str, code: str) -> None:
    legal, got, _ = rule(position("S1901M", None, **units), power, text)
    assert (legal, got) == (False, code)


@pytest.mark.parametrize(
    ("units", "power", "text", "canonical"),
    [
        # DATC 4.B.2, 6.B.2: one reachable coast is taken when none is written.
        ({"FRANCE": "F GAS"}, "FRANCE", "F GAS - SPA", "F GAS - SPA/NC"),
        # DATC 4.C.2 / 4.B.5: a wrong unit type or coast of the ordered unit is ignored.
        ({"FRANCE": "F GAS"}, "FRANCE", "A GAS H", "F GAS H"),
        ({"FRANCE": "F SPA/SC"}, "FRANCE", "F SPA/NC - LYO", "F SPA/SC - LYO"),  # DATC 6.B.10
        # DATC 4.B.6: a coast on an army's destination is irrelevant.
        ({"FRANCE": "A GAS"}, "FRANCE", "A GAS - SPA/NC", "A GAS - SPA"),
        # DATC 6.B.4: support to a coast the supporter cannot reach is fine.
        ({"FRANCE": "F GAS, F MAR"}, "FRANCE", "F MAR S F GAS - SPA/NC", "F MAR S F GAS - SPA/NC"),
        # A convoyed move over a sea with a fleet in it, and the convoy itself.
        ({"ENGLAND": "A LON, F NTH"}, "ENGLAND", "A LON - NWY", "A LON - NWY"),
        ({"ENGLAND": "A LON, F NTH"}, "ENGLAND", "F NTH C A LON - NWY", "F NTH C A LON - NWY"),
        ({"ENGLAND": "A LON, F ENG"}, "ENGLAND", "A LON - WAL VIA", "A LON - WAL VIA"),
    ],
)
def test_legal_orders_are_normalised(
    units: dict[str, str], power: str, text: str, canonical: str
) -> None:
    assert rule(position("S1901M", None, **units), power, text) == (True, "ok", canonical)


def test_two_different_orders_void_both_and_the_unit_holds() -> None:
    # DATC 4.D.3 (preferred c): both orders are void; the unit holds and may receive support.
    pos = position(GERMANY="A MUN, A BOH")
    v = validate(pos, {"GERMANY": ["A MUN - BUR", "A MUN - RUH", "A BOH S A MUN"]})
    assert [r.code for r in v.rulings] == ["multiple_orders", "multiple_orders", "ok"]
    assert "MUN" not in v.orders
    assert v.orders["BOH"] == SupportHold(Unit("A", "BOH"), Unit("A", "MUN"))


def test_the_same_order_twice_counts_once() -> None:
    pos = position(GERMANY="A MUN")
    v = validate(pos, {"GERMANY": ["A MUN - BUR", "A Munich - Burgundy"]})
    assert [r.legal for r in v.rulings] == [True, True]
    assert v.orders == {"MUN": Move(Unit("A", "MUN"), "BUR")}


def test_an_illegal_order_beside_a_legal_one_is_simply_ignored() -> None:
    # DATC 4.E.1 / 4.D.3: an illegal order is not an order, so no multiple-order conflict.
    pos = position(GERMANY="A HOL, F KIE")
    v = validate(pos, {"GERMANY": ["A HOL S F KIE", "A HOL - PIC"]})
    assert [r.legal for r in v.rulings] == [True, False]
    assert v.orders["HOL"] == SupportHold(Unit("A", "HOL"), Unit("F", "KIE"))


def test_foreign_order_leaves_the_owners_order_standing() -> None:
    # DATC 6.A.6: Germany's order for the English fleet is refused; England's order stands.
    pos = position(ENGLAND="F LON")
    v = validate(pos, {"GERMANY": ["F LON - NTH"], "ENGLAND": ["F LON - ENG"]})
    assert [r.code for r in v.rulings] == ["foreign_unit", "ok"]
    assert v.orders == {"LON": Move(Unit("F", "LON"), "ENG")}


def test_messages_name_the_order_and_the_reason() -> None:
    r = validate_order(position(ENGLAND="A LVP"), "ENGLAND", "A LVP - IRI")
    assert r.message.startswith("A LVP - IRI:") and "sea" in r.message


def test_retreat_orders() -> None:
    piece = Piece("FRANCE", "F", "MAO")
    pos = Position(
        M,
        Phase.parse("F1901R"),
        {"BRE": Piece("ENGLAND", "F", "BRE")},
        {},
        {"MAO": Dislodged(piece, ("NAO", "SPA/NC", "SPA/SC"))},
    )
    assert rule(pos, "FRANCE", "F MAO R NAO")[:2] == (True, "ok")
    assert rule(pos, "FRANCE", "F MAO - NAO")[:2] == (True, "ok")  # DATC writes retreats as moves
    assert rule(pos, "FRANCE", "F MAO R SPA")[:2] == (False, "coast_needed")
    assert rule(pos, "FRANCE", "F MAO R IRI")[:2] == (False, "bad_retreat")
    assert rule(pos, "FRANCE", "F MAO S F BRE")[:2] == (False, "wrong_phase")  # DATC 6.H.1
    assert rule(pos, "ENGLAND", "F MAO R NAO")[:2] == (False, "foreign_unit")
    assert rule(pos, "ENGLAND", "F BRE R ENG")[:2] == (False, "not_dislodged")
    assert rule(pos, "FRANCE", "F MAO D")[:2] == (True, "ok")


def test_adjustment_orders() -> None:
    centers = {c: "RUSSIA" for c in ("MOS", "SEV", "STP", "WAR", "RUM")}
    pos = position("W1901A", centers, RUSSIA="A MOS, F SEV")
    assert rule(pos, "RUSSIA", "Build F St Petersburg(nc)") == (True, "ok", "F STP/NC B")
    assert rule(pos, "RUSSIA", "A WAR B") == (True, "ok", "A WAR B")
    assert rule(pos, "RUSSIA", "Build Warsaw") == (True, "ok", "A WAR B")  # DATC 4.C.3
    assert rule(pos, "RUSSIA", "F STP B")[:2] == (False, "coast_needed")  # DATC 4.B.7
    assert rule(pos, "RUSSIA", "Build St Petersburg")[:2] == (False, "unit_type_needed")
    assert rule(pos, "RUSSIA", "F WAR B")[:2] == (False, "fleet_to_land")  # DATC 4.C.4
    assert rule(pos, "RUSSIA", "A MOS B")[:2] == (False, "occupied")
    assert rule(pos, "RUSSIA", "A RUM B")[:2] == (False, "not_home_center")
    assert rule(pos, "RUSSIA", "A MOS D")[:2] == (False, "no_disbands")
    assert rule(pos, "RUSSIA", "WAIVE") == (True, "ok", "WAIVE")
    assert rule(pos, "RUSSIA", "A MOS - UKR")[:2] == (False, "wrong_phase")
    poor = position("W1901A", {"MOS": "RUSSIA"}, RUSSIA="A MOS, F SEV")
    assert rule(poor, "RUSSIA", "A WAR B")[:2] == (False, "no_builds")
    assert rule(poor, "RUSSIA", "F SEV D") == (True, "ok", "F SEV D")
    assert rule(poor, "RUSSIA", "WAIVE")[:2] == (False, "no_builds")


def test_unowned_home_centre() -> None:
    # DATC 6.I.6 family: a home centre owned by someone else cannot be built on.
    pos = position(
        "W1901A",
        {"BER": "RUSSIA", "KIE": "GERMANY", "MUN": "GERMANY", "HOL": "GERMANY"},
        GERMANY="A MUN",
    )
    assert rule(pos, "GERMANY", "A BER B")[:2] == (False, "center_not_owned")
    assert rule(pos, "GERMANY", "F KIE B") == (True, "ok", "F KIE B")


def test_hold_is_always_legal_for_an_own_unit() -> None:
    assert validate(position(ITALY="A ROM"), {"ITALY": ["A ROM H"]}).orders == {
        "ROM": Hold(Unit("A", "ROM"))
    }
