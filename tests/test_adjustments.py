"""Builds, disbands, waives and the 2023 civil-disorder rule (DATC v3.0 sections 6.I and 6.J)."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from diplo.model.map import Map, standard_map
from diplo.model.orders import Build, Disband, Unit, Waive
from diplo.model.outcome import Outcome
from diplo.model.position import Phase, Piece, Position
from diplo.reference.adjustments import (
    adjustment_counts,
    build_sites,
    civil_disorder_disbands,
    resolve_adjustments,
)


@pytest.fixture(scope="module")
def game_map() -> Map:
    return standard_map()


def winter(
    game_map: Map, units: dict[str, Iterable[str]], centers: dict[str, Iterable[str]]
) -> Position:
    """A W1901A position from ``{"RUSSIA": ["A LVN", "F SKA"]}`` and ``{"RUSSIA": ["STP"]}``."""
    pieces: dict[str, Piece] = {}
    for power, texts in units.items():
        for text in texts:
            kind, loc = text.split()
            p = Piece(power, "A" if kind == "A" else "F", loc)
            assert p.province not in pieces
            pieces[p.province] = p
    owners = {c: power for power, cs in centers.items() for c in cs}
    return Position(game_map, Phase.parse("W1901A"), pieces, owners)


def build(text: str) -> Build:
    kind, loc = text.split()
    return Build(Unit("A" if kind == "A" else "F", loc))


def disband(text: str) -> Disband:
    kind, loc = text.split()
    return Disband(Unit("A" if kind == "A" else "F", loc))


def codes(outcomes: Iterable[Outcome]) -> list[tuple[str, bool]]:
    return [(o.code, o.success) for o in outcomes]


# --------------------------------------------------------------------------- counts and sites


def test_counts_builds_disbands_and_idle_powers(game_map: Map) -> None:
    position = winter(
        game_map,
        {"FRANCE": ["A PIC"], "RUSSIA": ["A LVN", "A SWE"]},
        {"FRANCE": ["PAR", "BRE", "MAR"], "RUSSIA": ["STP"]},
    )
    counts = adjustment_counts(position)
    assert counts["FRANCE"] == 2
    assert counts["RUSSIA"] == -1
    assert counts["ENGLAND"] == 0
    assert set(counts) == set(game_map.powers)


def test_builds_capped_by_vacant_home_centres(game_map: Map) -> None:
    # Russia owns six centres with two units, but only Moscow and Warsaw are vacant home centres.
    position = winter(
        game_map,
        {"RUSSIA": ["F STP/NC", "F SEV"]},
        {"RUSSIA": ["STP", "SEV", "MOS", "WAR", "SWE", "RUM"]},
    )
    assert build_sites(position, "RUSSIA") == ["MOS", "WAR"]
    assert adjustment_counts(position)["RUSSIA"] == 2


def test_builds_capped_at_zero_without_a_vacant_home_centre(game_map: Map) -> None:
    position = winter(
        game_map,
        {"FRANCE": ["A PAR", "F BRE", "A MAR"]},
        {"FRANCE": ["PAR", "BRE", "MAR", "SPA", "POR"]},
    )
    assert build_sites(position, "FRANCE") == []
    assert adjustment_counts(position)["FRANCE"] == 0
    result = resolve_adjustments(position, [("FRANCE", Waive())])
    assert codes(result.outcomes) == [("void", False)]
    assert "none of the home centres it owns is vacant" in result.outcomes[0].reason
    assert result.implied == []


def test_build_sites_need_ownership_datc_6_i_5(game_map: Map) -> None:
    # Germany lost Berlin to Russia: it may not build there even though Berlin is vacant.
    position = winter(
        game_map,
        {"GERMANY": ["A KIE"], "RUSSIA": ["A PRU"]},
        {"GERMANY": ["KIE", "MUN", "HOL", "DEN"], "RUSSIA": ["BER"]},
    )
    assert build_sites(position, "GERMANY") == ["MUN"]
    assert adjustment_counts(position)["GERMANY"] == 1


# --------------------------------------------------------------------------- builds


def germany_may_build_one(game_map: Map) -> Position:
    return winter(
        game_map,
        {"GERMANY": ["A HOL", "A DEN", "A BEL"]},
        {"GERMANY": ["BER", "KIE", "MUN", "HOL"]},
    )


def test_too_many_builds_first_used_datc_6_i_1(game_map: Map) -> None:
    # Build A Warsaw is illegal (not a home centre) and never reaches here.
    position = germany_may_build_one(game_map)
    orders = [("GERMANY", build("A KIE")), ("GERMANY", build("A MUN"))]
    result = resolve_adjustments(position, orders)
    assert codes(result.outcomes) == [("ok", True), ("void", False)]
    assert "Germany may build only 1 unit" in result.outcomes[1].reason
    assert "A MUN B" in result.outcomes[1].reason
    assert result.units["KIE"] == Piece("GERMANY", "A", "KIE")
    assert "MUN" not in result.units
    assert result.implied == []


def test_waive_uses_up_a_build_datc_4_d_7(game_map: Map) -> None:
    position = germany_may_build_one(game_map)
    result = resolve_adjustments(position, [("GERMANY", Waive()), ("GERMANY", build("A KIE"))])
    assert codes(result.outcomes) == [("ok", True), ("void", False)]
    assert "KIE" not in result.units
    assert result.implied == []


def test_unused_builds_are_implied_waives(game_map: Map) -> None:
    position = winter(
        game_map,
        {"FRANCE": ["A PIC"], "ENGLAND": ["F NTH"]},
        {"FRANCE": ["PAR", "BRE", "MAR"], "ENGLAND": ["LON", "EDI"]},
    )
    result = resolve_adjustments(position, [("FRANCE", build("A PAR"))])
    assert codes(result.outcomes) == [("ok", True)]
    waives = [(power, text) for power, text, _ in result.implied]
    assert waives == [("ENGLAND", "WAIVE"), ("FRANCE", "WAIVE")]
    assert all(o.code == "ok" and o.success for _, _, o in result.implied)
    assert result.units["PAR"] == Piece("FRANCE", "A", "PAR")


def test_implied_waives_count_only_usable_builds(game_map: Map) -> None:
    # Surplus of four, two vacant home centres: two waives, not four.
    position = winter(
        game_map,
        {"RUSSIA": ["F STP/NC", "F SEV"]},
        {"RUSSIA": ["STP", "SEV", "MOS", "WAR", "SWE", "RUM"]},
    )
    result = resolve_adjustments(position, [])
    assert [(p, t) for p, t, _ in result.implied] == [("RUSSIA", "WAIVE")] * 2


def test_two_builds_in_one_province_first_used_datc_6_i_7(game_map: Map) -> None:
    position = winter(
        game_map,
        {"RUSSIA": ["F STP/NC", "A WAR"]},
        {"RUSSIA": ["STP", "SEV", "MOS", "WAR"]},
    )
    assert adjustment_counts(position)["RUSSIA"] == 2
    orders = [("RUSSIA", build("A MOS")), ("RUSSIA", build("A MOS"))]
    result = resolve_adjustments(position, orders)
    assert codes(result.outcomes) == [("ok", True), ("void", False)]
    assert "DATC 4.D.5" in result.outcomes[1].reason
    assert result.units["MOS"] == Piece("RUSSIA", "A", "MOS")
    # The void build did not use up the second build: it is waived.
    assert [(p, t) for p, t, _ in result.implied] == [("RUSSIA", "WAIVE")]


def test_builds_on_a_split_coast_and_interleaved_powers(game_map: Map) -> None:
    position = winter(
        game_map,
        {"RUSSIA": ["A WAR", "A MOS", "F SEV"], "FRANCE": ["A PIC"]},
        {"RUSSIA": ["STP", "SEV", "MOS", "WAR", "RUM"], "FRANCE": ["PAR", "BRE"]},
    )
    orders = [
        ("RUSSIA", build("F STP/SC")),
        ("FRANCE", build("F BRE")),
        ("RUSSIA", build("A STP")),
    ]
    result = resolve_adjustments(position, orders)
    assert codes(result.outcomes) == [("ok", True), ("ok", True), ("void", False)]
    assert result.units["STP"] == Piece("RUSSIA", "F", "STP/SC")
    assert result.units["BRE"] == Piece("FRANCE", "F", "BRE")


def test_disband_while_builds_allowed_is_void(game_map: Map) -> None:
    position = germany_may_build_one(game_map)
    result = resolve_adjustments(position, [("GERMANY", disband("A HOL"))])
    assert codes(result.outcomes) == [("void", False)]
    assert result.units["HOL"] == Piece("GERMANY", "A", "HOL")
    assert [(p, t) for p, t, _ in result.implied] == [("GERMANY", "WAIVE")]


def test_build_while_owing_disbands_is_void(game_map: Map) -> None:
    position = winter(
        game_map,
        {"FRANCE": ["A PAR", "A PIC", "A BUR"]},
        {"FRANCE": ["PAR", "BRE"]},
    )
    result = resolve_adjustments(position, [("FRANCE", Waive()), ("FRANCE", disband("A PIC"))])
    assert codes(result.outcomes) == [("void", False), ("ok", True)]
    assert "owes 1 disband" in result.outcomes[0].reason
    assert "PIC" not in result.units
    assert result.implied == []


# --------------------------------------------------------------------------- disbands


def test_too_many_disbands_first_used_datc_6_j_1(game_map: Map) -> None:
    # Remove F Gulf of Lyon is illegal (no such unit) and never reaches here.
    position = winter(
        game_map,
        {"FRANCE": ["A PAR", "A PIC", "F BRE"]},
        {"FRANCE": ["PAR", "BRE"]},
    )
    orders = [("FRANCE", disband("A PIC")), ("FRANCE", disband("A PAR"))]
    result = resolve_adjustments(position, orders)
    assert codes(result.outcomes) == [("ok", True), ("void", False)]
    assert "DATC 4.D.6" in result.outcomes[1].reason
    assert "PIC" not in result.units
    assert result.units["PAR"] == Piece("FRANCE", "A", "PAR")
    assert result.implied == []


def test_removing_the_same_unit_twice_datc_6_j_2(game_map: Map) -> None:
    # France must disband two; the second "Remove A Paris" uses up nothing, and the civil
    # disorder rule takes one more: Burgundy and Picardy are both one move from Paris, so the
    # alphabetical order removes Burgundy.
    position = winter(
        game_map,
        {"FRANCE": ["A PAR", "A PIC", "A BUR"]},
        {"FRANCE": ["PAR"]},
    )
    orders = [("FRANCE", disband("A PAR")), ("FRANCE", disband("A PAR"))]
    result = resolve_adjustments(position, orders)
    # The repeat reports the first order's outcome (the same order twice counts once, as the JSON
    # contract says) but uses up no disband.
    assert codes(result.outcomes) == [("ok", True), ("ok", True)]
    assert "DATC 6.J.2" in result.outcomes[1].reason
    assert [(p, t) for p, t, _ in result.implied] == [("FRANCE", "A BUR D")]
    assert set(result.units) == {"PIC"}


def test_civil_disorder_settles_only_the_shortfall(game_map: Map) -> None:
    position = winter(
        game_map,
        {"RUSSIA": ["A MOS", "A SWE", "A NWY", "A UKR"]},
        {"RUSSIA": ["MOS", "STP"]},
    )
    result = resolve_adjustments(position, [("RUSSIA", disband("A UKR"))])
    assert codes(result.outcomes) == [("ok", True)]
    # Sweden (2 moves from St Petersburg) before Norway (1 move).
    assert [(p, t) for p, t, _ in result.implied] == [("RUSSIA", "A SWE D")]
    assert set(result.units) == {"MOS", "NWY"}


def test_exclude_skips_units_already_disbanded(game_map: Map) -> None:
    position = winter(
        game_map,
        {"RUSSIA": ["A MOS", "A SWE", "A NWY", "A UKR"]},
        {"RUSSIA": ["MOS"]},
    )
    removed = civil_disorder_disbands(position, "RUSSIA", 2, exclude={"SWE"})
    # Without the exclusion Sweden (3 moves) would go first.
    assert [str(p) for p in removed] == ["A NWY", "A UKR"]


# --------------------------------------------------------------------------- civil disorder


def disorder(
    game_map: Map, power: str, units: list[str], centers: list[str]
) -> list[tuple[str, str]]:
    """Run the phase with no orders; return the implied orders of ``power``."""
    position = winter(game_map, {power: units}, {power: centers})
    result = resolve_adjustments(position, [])
    return [(p, t) for p, t, _ in result.implied if p == power]


def test_two_armies_different_distance_datc_6_j_3(game_map: Map) -> None:
    assert disorder(game_map, "RUSSIA", ["A LVN", "A SWE"], ["STP"]) == [("RUSSIA", "A SWE D")]


def test_two_armies_equal_distance_datc_6_j_4(game_map: Map) -> None:
    assert disorder(game_map, "RUSSIA", ["A LVN", "A UKR"], ["MOS"]) == [("RUSSIA", "A LVN D")]


def test_two_fleets_different_distance_datc_6_j_5(game_map: Map) -> None:
    # Berlin is three from St Petersburg, Skagerrak two (via Norway).
    assert disorder(game_map, "RUSSIA", ["F SKA", "F BER"], ["STP"]) == [("RUSSIA", "F BER D")]


def test_two_fleets_equal_distance_over_land_datc_6_j_6(game_map: Map) -> None:
    # Both three from Munich, counting over land for fleets; Gulf of Bothnia is first by name.
    assert disorder(game_map, "RUSSIA", ["F BOT", "F NTH"], ["MUN"]) == [("RUSSIA", "F BOT D")]


def test_two_fleets_and_army_equal_distance_datc_6_j_7(game_map: Map) -> None:
    # All three are two moves away; fleets go before the army although Bohemia is first by name.
    result = disorder(game_map, "RUSSIA", ["A BOH", "F SKA", "F NTH"], ["STP", "WAR"])
    assert result == [("RUSSIA", "F NTH D")]


def test_fleet_with_shorter_distance_than_army_datc_6_j_8(game_map: Map) -> None:
    assert disorder(game_map, "RUSSIA", ["A TYR", "F BAL"], ["WAR"]) == [("RUSSIA", "A TYR D")]


@pytest.mark.parametrize("fleet", ["F BAL", "F SKA"])
def test_counted_from_both_coasts_datc_6_j_9(game_map: Map, fleet: str) -> None:
    # The Baltic reaches St Petersburg's south coast in two, the Skagerrak its north coast in two.
    result = disorder(game_map, "RUSSIA", ["A GRE", "A SEV", fleet], ["STP", "SEV"])
    assert result == [("RUSSIA", "A GRE D")]


def test_counting_convoying_distance_datc_6_j_10(game_map: Map) -> None:
    # Greece is two from Naples over the Ionian Sea; Piedmont three.
    assert disorder(game_map, "ITALY", ["A GRE", "A PIE"], ["NAP"]) == [("ITALY", "A PIE D")]


def test_distance_to_owned_supply_centre_datc_6_j_11(game_map: Map) -> None:
    assert disorder(game_map, "ITALY", ["A WAR", "A TUS"], ["WAR"]) == [("ITALY", "A TUS D")]


def test_alphabetical_by_english_name_not_abbreviation(game_map: Map) -> None:
    # Norwegian Sea (NWG) is one from Edinburgh, Norway (NWY) one from Sweden. By abbreviation
    # NWG would go first; by English name "Norway" comes before "Norwegian Sea".
    result = disorder(game_map, "ENGLAND", ["F NWG", "F NWY", "A EDI"], ["EDI", "SWE"])
    assert result == [("ENGLAND", "F NWY D")]
    # Marseilles before Mid-Atlantic Ocean, although MAO sorts before MAR.
    result = disorder(game_map, "FRANCE", ["F MAO", "F MAR"], ["SPA"])
    assert result == [("FRANCE", "F MAR D")]


def test_civil_disorder_reason_names_distance_and_centre(game_map: Map) -> None:
    position = winter(game_map, {"RUSSIA": ["A LVN", "A SWE"]}, {"RUSSIA": ["STP"]})
    ((_, text, outcome),) = resolve_adjustments(position, []).implied
    assert text == "A SWE D"
    assert (outcome.code, outcome.success) == ("ok", True)
    assert outcome.reason.startswith("A SWE disbanded by the civil-disorder rule")
    assert "2 moves from the nearest owned centre (STP)" in outcome.reason


def test_power_without_centres_loses_every_unit(game_map: Map) -> None:
    position = winter(
        game_map,
        {"TURKEY": ["A ARM", "F BLA", "A SMY"], "RUSSIA": ["A SEV"]},
        {"RUSSIA": ["SEV", "ANK", "CON"]},
    )
    assert adjustment_counts(position)["TURKEY"] == -3
    result = resolve_adjustments(position, [])
    turkish = [t for p, t, _ in result.implied if p == "TURKEY"]
    # Fleets first, then by English name: Black Sea, then Armenia, Smyrna.
    assert turkish == ["F BLA D", "A ARM D", "A SMY D"]
    assert "owns no supply centre" in result.implied[0][2].reason
    assert all(p.power != "TURKEY" for p in result.units.values())


def test_order_for_a_missing_unit_is_refused(game_map: Map) -> None:
    position = winter(game_map, {"FRANCE": ["A PAR", "A PIC"]}, {"FRANCE": ["PAR"]})
    with pytest.raises(ValueError, match="no unit in BUR"):
        resolve_adjustments(position, [("FRANCE", disband("A BUR"))])
