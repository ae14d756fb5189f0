"""Retreat options and the retreat phase (DATC v3.0 section 6.H, issue 4.A.5)."""

from __future__ import annotations

import pytest

from diplo.model.map import Map, standard_map
from diplo.model.orders import Disband, Retreat, Unit
from diplo.model.position import Dislodged, Phase, Piece, Position
from diplo.reference.retreats import NO_RETREAT_REASON, resolve_retreats, retreat_options


@pytest.fixture(scope="module")
def game_map() -> Map:
    return standard_map()


def piece(power: str, text: str) -> Piece:
    unit_type, loc = text.split()
    assert unit_type in ("A", "F")
    return Piece(power, "A" if unit_type == "A" else "F", loc)


def board(*pieces: Piece) -> dict[str, Piece]:
    return {p.province: p for p in pieces}


# --------------------------------------------------------------------------- retreat_options


def test_army_options_are_army_neighbours_in_location_order(game_map: Map) -> None:
    options = retreat_options(game_map, piece("ITALY", "A VEN"), set(), set(), None, False)
    assert options == ("APU", "PIE", "ROM", "TRI", "TUS", "TYR")


def test_army_never_gets_a_coast_or_a_sea(game_map: Map) -> None:
    # An army next to Spain retreats to the province, not to a coast of it; no sea is offered.
    options = retreat_options(game_map, piece("ENGLAND", "A POR"), set(), set(), None, False)
    assert options == ("SPA",)


def test_fleet_options_list_each_reachable_coast_separately(game_map: Map) -> None:
    options = retreat_options(game_map, piece("ENGLAND", "F POR"), set(), set(), None, False)
    # Coast locations come after every province in the map's location order.
    assert options == ("MAO", "SPA/NC", "SPA/SC")


def test_coast_options_sort_after_every_province(game_map: Map) -> None:
    # The map's location order (the Rust core's numbering): provinces first, then coasts.
    options = retreat_options(game_map, piece("FRANCE", "F WES"), set(), set(), None, False)
    assert options == ("LYO", "MAO", "NAF", "TUN", "TYS", "SPA/SC")


def test_fleet_options_only_the_coast_it_can_reach(game_map: Map) -> None:
    options = retreat_options(game_map, piece("FRANCE", "F GAS"), set(), set(), None, False)
    assert options == ("BRE", "MAO", "SPA/NC")


def test_fleet_on_a_split_coast_moves_from_its_own_coast(game_map: Map) -> None:
    north = retreat_options(game_map, piece("RUSSIA", "F STP/NC"), set(), set(), None, False)
    south = retreat_options(game_map, piece("RUSSIA", "F STP/SC"), set(), set(), None, False)
    assert north == ("BAR", "NWY")
    assert south == ("BOT", "FIN", "LVN")


def test_occupied_provinces_are_excluded(game_map: Map) -> None:
    occupied = {"TYR", "ROM", "VEN"}
    options = retreat_options(game_map, piece("ITALY", "A VEN"), occupied, set(), None, False)
    assert options == ("APU", "PIE", "TRI", "TUS")


def test_attacker_origin_excluded_datc_6_h_5(game_map: Map) -> None:
    # Russia: F CON S F BLA - ANK, F BLA - ANK; Turkey: F ANK H. Ankara may not go to the Black Sea.
    occupied = {"CON", "ANK"}
    options = retreat_options(game_map, piece("TURKEY", "F ANK"), occupied, set(), "BLA", False)
    assert options == ("ARM",)


def test_contested_province_excluded_datc_6_h_6(game_map: Map) -> None:
    # A TRI - VIE dislodges A VIE; A MUN - BOH and A SIL - BOH stand off.
    occupied = {"BUD", "VIE", "MUN", "SIL"}
    options = retreat_options(game_map, piece("ITALY", "A VIE"), occupied, {"BOH"}, "TRI", False)
    assert "BOH" not in options
    assert options == ("GAL", "TYR")


def test_dislodged_unit_does_not_make_attackers_area_contested_datc_6_h_9(game_map: Map) -> None:
    # F HEL - KIE (supported by F DEN) dislodges F KIE; A BER - PRU succeeds, so Berlin is empty.
    occupied = {"KIE", "DEN", "PRU", "SIL"}
    options = retreat_options(game_map, piece("GERMANY", "F KIE"), occupied, set(), "HEL", False)
    assert options == ("BAL", "BER", "HOL")


def test_no_coastal_crawl_datc_6_h_15(game_map: Map) -> None:
    # F SPA/SC - POR dislodges F POR: neither coast of Spain is open, only the Mid-Atlantic.
    options = retreat_options(
        game_map, piece("ENGLAND", "F POR"), {"POR", "MAO"}, set(), "SPA/SC", False
    )
    assert options == ()
    options = retreat_options(game_map, piece("ENGLAND", "F POR"), {"POR"}, set(), "SPA", False)
    assert options == ("MAO",)


def test_contested_for_both_coasts_datc_6_h_16(game_map: Map) -> None:
    # F MAO - SPA/NC and F GAS - SPA/NC stand off; F TYS - WES dislodges F WES.
    occupied = {"MAO", "GAS", "WES", "TUN"}
    options = retreat_options(game_map, piece("FRANCE", "F WES"), occupied, {"SPA"}, "TYS", False)
    assert "SPA/SC" not in options
    assert options == ("LYO", "NAF")


def test_convoyed_attacker_leaves_its_origin_open_datc_6_h_11(game_map: Map) -> None:
    # A GAS - MAR via convoy (MAO, WES, LYO), A BUR S; Italy's A MAR is dislodged.
    occupied = {"MAR", "BUR", "MAO", "WES", "LYO"}
    marseilles = piece("ITALY", "A MAR")
    assert retreat_options(game_map, marseilles, occupied, set(), "GAS", True) == (
        "GAS",
        "PIE",
        "SPA",
    )
    # The same attack over the border closes Gascony (DATC 6.H.5).
    assert retreat_options(game_map, marseilles, occupied, set(), "GAS", False) == ("PIE", "SPA")


def test_convoyed_swap_attempt_datc_6_h_12(game_map: Map) -> None:
    # A EDI - LVP via convoy succeeds; A LVP - EDI via convoy fails; A CLY supported Edinburgh.
    occupied = {"LVP", "CLY", "IRI", "ENG", "NTH", "NWG", "NAO", "BRE", "MAO"}
    options = retreat_options(game_map, piece("ENGLAND", "A LVP"), occupied, set(), "EDI", True)
    assert options == ("EDI", "WAL", "YOR")


def test_no_retreat_by_convoy_datc_6_h_13(game_map: Map) -> None:
    # A PAR - PIC (supported) dislodges A PIC; F ENG offered a convoy to London: no use in retreat.
    occupied = {"PIC", "ENG", "BRE"}
    options = retreat_options(game_map, piece("ENGLAND", "A PIC"), occupied, set(), "PAR", False)
    assert "LON" not in options
    assert options == ("BEL", "BUR")


def test_retreat_options_is_pure(game_map: Map) -> None:
    occupied = {"TYR"}
    contested = {"ROM"}
    before = (set(occupied), set(contested))
    first = retreat_options(game_map, piece("ITALY", "A VEN"), occupied, contested, "APU", False)
    second = retreat_options(game_map, piece("ITALY", "A VEN"), occupied, contested, "APU", False)
    assert first == second == ("PIE", "TRI", "TUS")
    assert (occupied, contested) == before


# --------------------------------------------------------------------------- resolve_retreats


def retreat_position(
    game_map: Map, units: list[Piece], dislodged: list[tuple[Piece, tuple[str, ...]]]
) -> Position:
    return Position(
        game_map,
        Phase.parse("F1901R"),
        board(*units),
        {},
        {p.province: Dislodged(p, options) for p, options in dislodged},
    )


def test_two_retreats_to_same_province_both_disbanded_datc_6_h_7(game_map: Map) -> None:
    vie = piece("ITALY", "A VIE")
    boh = piece("ITALY", "A BOH")
    position = retreat_position(
        game_map,
        [piece("AUSTRIA", "A VIE"), piece("AUSTRIA", "A BUD"), piece("GERMANY", "A BOH")],
        [(vie, ("GAL", "TYR")), (boh, ("TYR",))],
    )
    result = resolve_retreats(
        position,
        {"VIE": Retreat(vie.unit, "TYR"), "BOH": Retreat(boh.unit, "TYR")},
    )
    assert {p: (o.code, o.success) for p, o in result.outcomes.items()} == {
        "BOH": ("bounce", False),
        "VIE": ("bounce", False),
    }
    assert "A BOH" in result.outcomes["VIE"].reason
    assert "A VIE" in result.outcomes["BOH"].reason
    assert "TYR" not in result.units
    assert result.units == dict(position.units)


def test_triple_retreat_to_same_area_datc_6_h_8(game_map: Map) -> None:
    nwy = piece("ENGLAND", "F NWY")
    edi = piece("RUSSIA", "F EDI")
    hol = piece("RUSSIA", "F HOL")
    position = retreat_position(
        game_map,
        [piece("RUSSIA", "A NWY"), piece("ENGLAND", "A EDI"), piece("GERMANY", "A HOL")],
        [(nwy, ("NTH", "NWG", "SKA")), (edi, ("NTH", "NWG")), (hol, ("NTH", "HEL"))],
    )
    result = resolve_retreats(
        position,
        {p.province: Retreat(p.unit, "NTH") for p in (nwy, edi, hol)},
    )
    assert all(o.code == "bounce" and not o.success for o in result.outcomes.values())
    assert len(result.outcomes) == 3
    assert "F EDI" in result.outcomes["NWY"].reason and "F HOL" in result.outcomes["NWY"].reason
    assert "NTH" not in result.units


def test_single_retreat_succeeds_datc_6_h_10(game_map: Map) -> None:
    # England's A KIE - BER was illegal and never reaches here; Germany's A PRU - BER succeeds.
    kie = piece("ENGLAND", "A KIE")
    pru = piece("GERMANY", "A PRU")
    position = retreat_position(
        game_map,
        [piece("GERMANY", "A KIE"), piece("GERMANY", "A MUN"), piece("RUSSIA", "A PRU")],
        [(kie, ("DEN", "HOL", "RUH")), (pru, ("BER", "LVN"))],
    )
    result = resolve_retreats(position, {"PRU": Retreat(pru.unit, "BER")})
    assert result.outcomes["PRU"].code == "ok" and result.outcomes["PRU"].success
    assert result.outcomes["KIE"].code == "ok" and result.outcomes["KIE"].success
    assert result.outcomes["KIE"].reason == NO_RETREAT_REASON
    assert result.units["BER"] == Piece("GERMANY", "A", "BER")
    assert result.units["KIE"] == Piece("GERMANY", "A", "KIE")  # the attacker stays
    assert Piece("ENGLAND", "A", "KIE") not in result.units.values()


def test_fleet_retreats_to_a_coast(game_map: Map) -> None:
    por = piece("ENGLAND", "F POR")
    position = retreat_position(
        game_map, [piece("FRANCE", "F POR")], [(por, ("MAO", "SPA/NC", "SPA/SC"))]
    )
    result = resolve_retreats(position, {"POR": Retreat(por.unit, "SPA/NC")})
    assert result.outcomes["POR"].success
    assert result.units["SPA"] == Piece("ENGLAND", "F", "SPA/NC")


def test_retreats_to_two_coasts_of_one_province_collide(game_map: Map) -> None:
    por = piece("ENGLAND", "F POR")
    wes = piece("ITALY", "F WES")
    position = retreat_position(
        game_map,
        [piece("FRANCE", "F POR"), piece("FRANCE", "F WES")],
        [(por, ("SPA/NC",)), (wes, ("SPA/SC",))],
    )
    result = resolve_retreats(
        position, {"POR": Retreat(por.unit, "SPA/NC"), "WES": Retreat(wes.unit, "SPA/SC")}
    )
    assert result.outcomes["POR"].code == result.outcomes["WES"].code == "bounce"
    assert "SPA" not in result.units


def test_disband_and_unordered_unit(game_map: Map) -> None:
    hol = piece("ENGLAND", "A HOL")
    bel = piece("ENGLAND", "A BEL")
    position = retreat_position(
        game_map,
        [piece("GERMANY", "A HOL"), piece("FRANCE", "A BEL")],
        [(hol, ("KIE",)), (bel, ("PIC",))],
    )
    result = resolve_retreats(position, {"HOL": Disband(hol.unit)})
    assert result.outcomes["HOL"].code == "ok" and result.outcomes["HOL"].success
    assert "disbanded" in result.outcomes["HOL"].reason
    assert result.outcomes["BEL"].reason == NO_RETREAT_REASON
    assert result.units == dict(position.units)


def test_order_for_a_unit_that_is_not_dislodged_is_refused(game_map: Map) -> None:
    position = retreat_position(game_map, [piece("FRANCE", "A PAR")], [])
    with pytest.raises(ValueError, match="no dislodged unit"):
        resolve_retreats(position, {"PAR": Retreat(Unit("A", "PAR"), "BUR")})


def test_retreat_outside_the_options_is_refused(game_map: Map) -> None:
    hol = piece("ENGLAND", "A HOL")
    position = retreat_position(game_map, [piece("GERMANY", "A HOL")], [(hol, ("KIE",))])
    with pytest.raises(ValueError, match="not a legal retreat"):
        resolve_retreats(position, {"HOL": Retreat(hol.unit, "BEL")})
