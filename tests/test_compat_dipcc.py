"""diplo.compat.dipcc: pydipcc's Game on diplo.

The tests of dipcc's own ``unit_tests/test_pydipcc.py`` (facebookresearch/diplomacy_cicero) are
written here anew, checking the same facts, except those on the encoders (not offered yet) and
those that need dipcc's data files: they run against a fetched copy of the repository when
``DIPCC_SOURCES`` names it (``tools/build_dipcc.sh`` says how) and are skipped by name otherwise.
Departures from dipcc are named in ``docs/dipcc-compat.md``.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from diplo.compat.dipcc import DipccJsonError, Game, Timestamp, format_order, parse_order
from diplo.compat.dipcc.board import LOCS, POWERS

DIPCC_SOURCES = os.environ.get("DIPCC_SOURCES")
DATA = Path(DIPCC_SOURCES) / "unit_tests" / "data" if DIPCC_SOURCES else None
needs_data = pytest.mark.skipif(
    DATA is None or not DATA.is_dir(),
    reason="dipcc's test data: set DIPCC_SOURCES to a copy of facebookresearch/diplomacy_cicero",
)


def _data(name: str) -> str:
    assert DATA is not None
    return (DATA / name).read_text()


def _messages_in(game: Game, phase: str) -> int:
    return sum(len(p.messages) for p in game.get_all_phases() if p.name == phase)


# --------------------------------------------------------------------------- TestPydipcc


def test_from_json_inplace() -> None:
    game = Game()
    game.set_orders("RUSSIA", ["F SEV - BLA"])
    game.process()
    other = Game()
    other.from_json_inplace(game.to_json())
    assert other.current_short_phase == game.current_short_phase == "F1901M"
    assert "F BLA" in other.get_units()["RUSSIA"]


def test_rollback_keeps_or_drops_the_phase_orders() -> None:
    game = Game()
    game.set_orders("RUSSIA", ["F SEV - BLA"])
    game.process()
    assert game.rolled_back_to_phase_end("S1901M").get_orders()["RUSSIA"] == ["F SEV - BLA"]
    assert len(game.rolled_back_to_phase_start("S1901M").get_orders()) == 0
    assert game.current_short_phase == "F1901M"  # the original is untouched


def test_add_message_and_duplicate_timestamp() -> None:
    game = Game()
    game.add_message("FRANCE", "AUSTRIA", "blast from the past", Timestamp.from_centis(12345))
    assert list(game.messages) == [12345]
    with pytest.raises(RuntimeError, match="duplicate"):
        game.add_message("FRANCE", "AUSTRIA", "again", Timestamp.from_centis(12345))
    game.add_message("FRANCE", "AUSTRIA", "again", 12345, increment_on_collision=True)
    assert list(game.messages) == [12345, 12346]


def test_delete_message_at_timestamp() -> None:
    game = Game()
    assert game.get_last_message_timestamp() == 0
    game.add_message("FRANCE", "AUSTRIA", "blast from the past", Timestamp.from_centis(12345))
    game.add_message("AUSTRIA", "FRANCE", "back at ya", Timestamp.from_centis(34567))
    assert game.get_last_message_timestamp() == 34567
    game.delete_message_at_timestamp(Timestamp.from_centis(12345))
    assert list(game.messages) == [34567]
    game.add_message("FRANCE", "AUSTRIA", "added back", Timestamp.from_centis(12345))
    assert sorted(game.messages) == [12345, 34567]
    game.process()
    assert game.get_last_message_timestamp() == 34567
    assert len(game.get_phase_history()[-1].messages) == 2
    game.delete_message_at_timestamp(34567)
    assert len(game.messages) == 0
    assert list(game.get_phase_history()[-1].messages) == [12345]
    assert game.get_last_message_timestamp() == 12345
    game.delete_message_at_timestamp(12345)
    assert len(game.get_phase_history()[-1].messages) == 0
    assert game.get_last_message_timestamp() == 0


def test_influence() -> None:
    game = Game()
    assert set(game.get_state()["influence"]["FRANCE"]) == {"PAR", "MAR", "BRE"}
    game.set_orders("FRANCE", ["A PAR - BUR"])
    game.process()
    assert set(game.get_state()["influence"]["FRANCE"]) == {"PAR", "MAR", "BRE", "BUR"}
    game.set_orders("FRANCE", ["A BUR - BEL"])
    game.set_orders("GERMANY", ["A MUN - BUR"])
    game.process()
    assert set(game.get_state()["influence"]["FRANCE"]) == {"PAR", "MAR", "BRE", "BEL"}
    assert "BUR" in game.get_state()["influence"]["GERMANY"]


def test_clear_orders() -> None:
    game = Game()
    game.set_orders("FRANCE", ["A PAR - BUR"])
    game.set_orders("GERMANY", ["A MUN - RUH"])
    assert game.get_orders() == {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - RUH"]}
    game.clear_orders()
    assert game.get_orders() == {}


def test_message_times_are_timestamps_and_survive_json() -> None:
    game = Game()
    game.add_message("FRANCE", "AUSTRIA", "blast from the past", Timestamp.from_centis(12345))
    for g in (game, Game.from_json(game.to_json())):
        [(stamp, message)] = g.messages.items()
        assert stamp.to_centis() == 12345
        assert message["time_sent"].to_centis() == 12345
        assert message == {
            "sender": "FRANCE",
            "recipient": "AUSTRIA",
            "phase": "S1901M",
            "message": "blast from the past",
            "time_sent": 12345,
        }


def test_metadata_survives_json() -> None:
    game = Game()
    game.set_metadata("foo", "bar")
    assert Game.from_json(game.to_json()).get_metadata("foo") == "bar"


def test_clone_n_times() -> None:
    game = Game()
    game.game_id = "a_game"
    games = game.clone_n_times(5)
    assert [g.game_id for g in games] == [f"a_game_{i}" for i in range(5)]
    games[0].set_orders("FRANCE", ["A PAR - BUR"])
    games[0].process()
    assert game.current_short_phase == games[1].current_short_phase == "S1901M"
    assert "A BUR" in games[0].get_units()["FRANCE"]


# --------------------------------------------------------------------------- TestEncoding
# (the facts that are not about the encoders)


def test_json_idempotence() -> None:
    game = Game()
    game.set_orders("RUSSIA", ["F SEV - BLA"])
    game.add_message("ENGLAND", "FRANCE", "hi", Timestamp.from_centis(12345))
    game.process()
    game.set_orders("RUSSIA", ["F BLA - RUM"])
    game.add_message("FRANCE", "ENGLAND", "yo", Timestamp.from_centis(12345))
    game.add_log("a log line")
    game.set_metadata("k", "v")
    first = game.to_json()
    again = Game.from_json(first)
    assert again.to_json() == first
    assert again.get_orders() == {"RUSSIA": ["F BLA - RUM"]}
    assert again.get_logs() == {"F1901M": ["a log line"]}


def test_alive_powers() -> None:
    game = Game()
    assert game.get_alive_powers() == list(POWERS)
    assert game.get_alive_power_ids() == list(range(7))


def test_set_orders_build() -> None:
    game = Game()
    game.set_orders("GERMANY", ["F KIE - HOL"])
    assert game.get_orders()["GERMANY"] == ["F KIE - HOL"]
    game.process()
    assert game.get_orders().get("GERMANY", []) == []
    assert "F KIE" not in game.get_units()["GERMANY"]
    game.process()
    assert game.current_short_phase == "W1901A"
    game.set_orders("GERMANY", ["A KIE B"])
    assert game.get_orders()["GERMANY"] == ["A KIE B"]
    game.process()
    assert "A KIE" in game.get_units()["GERMANY"]
    assert game.current_short_phase == "S1902M"


def test_phase_of_last_message_and_rollback_to_timestamps() -> None:
    game = Game()
    assert game.phase_of_last_message_at_or_before(0) == "S1901M"
    game.add_message("FRANCE", "ENGLAND", "hey", Timestamp.from_centis(1000))
    game.add_message("FRANCE", "ENGLAND", "hey", Timestamp.from_centis(1001))
    game.process()
    game.add_message("ENGLAND", "FRANCE", "not bad", Timestamp.from_centis(2000))
    game.process()
    game.add_message("FRANCE", "ENGLAND", "ok cool", Timestamp.from_centis(3000))
    for stamp, phase in [(0, "S1901M"), (1999, "S1901M"), (2000, "F1901M"), (3000, "S1902M")]:
        assert game.phase_of_last_message_at_or_before(stamp) == phase
    game.set_orders("GERMANY", ["F KIE - HOL"])
    game.add_message("TURKEY", "TURKEY", "hello me", Timestamp.from_centis(3100))
    game.process()
    game.process()
    game.add_message("TURKEY", "TURKEY", "hello me again", Timestamp.from_centis(3200))
    assert game.phase_of_last_message_at_or_before(4000) == "W1902A"
    game.process()
    assert game.get_current_phase() == "S1903M"

    copy = game.rolled_back_to_timestamp_start(1000)
    assert copy.get_current_phase() == "S1901M" and _messages_in(copy, "S1901M") == 0
    copy = game.rolled_back_to_timestamp_end(1000)
    assert copy.get_current_phase() == "S1901M" and _messages_in(copy, "S1901M") == 1
    copy = game.rolled_back_to_timestamp_end(1001)
    assert _messages_in(copy, "S1901M") == 2 and _messages_in(copy, "F1901M") == 0
    copy = game.rolled_back_to_timestamp_start(2000)
    assert copy.get_current_phase() == "F1901M" and _messages_in(copy, "F1901M") == 0
    copy = game.rolled_back_to_timestamp_end(2000)
    assert copy.get_current_phase() == "F1901M" and _messages_in(copy, "F1901M") == 1
    assert "F HOL" not in copy.get_state()["units"]["GERMANY"]
    copy = game.rolled_back_to_timestamp_end(3199)
    assert copy.get_current_phase() == "S1902M"
    assert _messages_in(copy, "S1902M") == 2 and _messages_in(copy, "W1902A") == 0
    assert len(copy.get_staged_phase_data().orders) == 0
    copy = game.rolled_back_to_timestamp_start(3200)
    assert copy.get_current_phase() == "W1902A" and _messages_in(copy, "W1902A") == 0
    assert "F HOL" in copy.get_state()["units"]["GERMANY"]
    copy = game.rolled_back_to_timestamp_start(100000)
    assert copy.get_current_phase() == "W1902A" and _messages_in(copy, "W1902A") == 1


def test_phase_data_getters() -> None:
    game = Game()
    game.set_orders("AUSTRIA", ["A BUD - SER"])
    game.add_message("RUSSIA", "TURKEY", "ahoy", Timestamp.from_centis(0))
    game.process()
    game.set_orders("ENGLAND", ["F LON - ENG"])
    game.add_message("TURKEY", "RUSSIA", "hey", Timestamp.from_centis(10))
    game.process()
    assert game.get_current_phase() == "W1901A"
    game.set_orders("AUSTRIA", ["A BUD B"])
    game.add_message("AUSTRIA", "AUSTRIA", "i love builds!", Timestamp.from_centis(20))
    game.process()
    game.set_orders("GERMANY", ["A MUN - BOH"])
    game.add_message("FRANCE", "ENGLAND", "it's S1902M", Timestamp.from_centis(30))
    assert len(game.get_phase_history()) == 3
    assert len(game.get_all_phases()) == 4
    assert game.get_all_phase_names() == ["S1901M", "F1901M", "W1901A", "S1902M"]
    for i in range(3):
        assert game.get_phase_history()[i].to_dict() == game.get_all_phases()[i].to_dict()
    assert game.get_all_phases()[3].to_dict() == game.get_staged_phase_data().to_dict()
    assert "A MUN - BOH" in game.get_staged_phase_data().orders["GERMANY"]
    assert "GERMANY" not in game.get_phase_data().orders
    assert game.get_staged_phase_data().messages[30]["message"] == "it's S1902M"
    assert len(game.get_phase_data().messages) == 0


def test_set_all_orders_replaces_every_staged_order() -> None:
    game = Game()
    game.set_orders("AUSTRIA", ["A BUD - SER"])
    game.set_orders("RUSSIA", ["A WAR - PRU", "F STP/SC - FIN"])
    game.set_all_orders(
        {
            "ENGLAND": ("F EDI - NTH",),
            "RUSSIA": ("F STP/SC - FIN",),
            "ITALY": ("A VEN - TYR", "F NAP - ION", "A ROM - APU"),
        }
    )
    orders = game.get_staged_phase_data().orders
    assert "AUSTRIA" not in orders
    assert orders["RUSSIA"] == ["F STP/SC - FIN"]
    assert orders["ENGLAND"] == ["F EDI - NTH"]
    # sorted by the unit's location in dipcc's order: NAP, ROM, VEN
    assert orders["ITALY"] == ["F NAP - ION", "A ROM - APU", "A VEN - TYR"]


def test_set_orders_for_another_powers_unit_or_no_unit_is_dropped() -> None:
    game = Game()
    game.set_orders("FRANCE", ["A PAR - BUR", "F SEV - BLA"])
    assert game.get_orders()["FRANCE"] == ["A PAR - BUR"]
    assert game.get_orders().get("TURKEY", []) == []
    game = Game()
    game.set_orders("FRANCE", ["A BUR - PAR"])
    assert game.get_orders().get("FRANCE", []) == []


def test_board_and_order_history_hashes() -> None:
    def play(first: tuple[str, str], second: tuple[str, str]) -> Game:
        game = Game()
        game.set_orders(first[0], [first[1]])
        game.process()
        game.set_orders(second[0], [second[1]])
        game.process()
        return game

    a = play(("AUSTRIA", "A BUD - SER"), ("ENGLAND", "F LON - ENG"))
    same = play(("AUSTRIA", "A BUD - SER"), ("ENGLAND", "F LON - ENG"))
    swapped = play(("ENGLAND", "F LON - ENG"), ("AUSTRIA", "A BUD - SER"))
    assert a.compute_board_hash() == same.compute_board_hash() == swapped.compute_board_hash()
    assert a.compute_order_history_hash() == same.compute_order_history_hash()
    assert a.compute_order_history_hash() != swapped.compute_order_history_hash()
    assert a.compute_board_hash() != Game().compute_board_hash()


# --------------------------------------------------------------------------- TestActionSorting


def test_orders_sorted_by_location_in_json_history_and_get_orders() -> None:
    game = Game()
    game.set_orders("RUSSIA", ["F SEV - BLA", "A WAR - UKR", "A MOS - STP", "F STP/SC - BOT"])
    expected = ["F STP/SC - BOT", "A MOS - STP", "A WAR - UKR", "F SEV - BLA"]
    assert game.get_orders()["RUSSIA"] == expected
    game.process()
    assert game.get_phase_history()[0].orders["RUSSIA"] == expected
    assert json.loads(game.to_json())["phases"][0]["orders"]["RUSSIA"] == expected


# --------------------------------------------------------------------------- TestScoring


def test_scoring_systems() -> None:
    game = Game()
    assert game.get_scoring_system() == Game.SCORING_SOS == 0
    squares = [9, 9, 9, 9, 9, 16, 9]
    assert game.get_scores() == pytest.approx([s / sum(squares) for s in squares])
    assert game.get_scores(Game.SCORING_DSS) == pytest.approx([1 / 7] * 7)
    game.set_scoring_system(Game.SCORING_DSS)
    assert game.get_scores() == pytest.approx([1 / 7] * 7)
    again = Game.from_json(game.to_json())
    assert again.get_scoring_system() == Game.SCORING_DSS
    assert json.loads(game.to_json())["scoring_system"] == "draw_size"
    assert game.get_phase_data().get_scores(Game.SCORING_SOS) == pytest.approx(
        [s / sum(squares) for s in squares]
    )


# --------------------------------------------------------------------------- TestMatchingWebdip


def _trivial_r_phase_game() -> Game:
    game = Game()
    game.set_all_orders(
        {
            "RUSSIA": ("A MOS - UKR", "A WAR - GAL"),
            "TURKEY": ("A CON - BUL", "A SMY - CON"),
            "AUSTRIA": ("A BUD - RUM", "F TRI - ADR", "A VIE - TRI"),
        }
    )
    game.process()
    game.set_all_orders(
        {
            "RUSSIA": ("F SEV S A UKR - RUM", "A UKR - RUM"),
            "TURKEY": ("A BUL - SER", "A CON - BUL"),
            "AUSTRIA": ("A TRI - BUD",),
        }
    )
    game.process()
    return game


def test_trivial_retreat_phase_is_played() -> None:
    game = _trivial_r_phase_game()
    assert game.current_short_phase == "F1901R"
    assert game.get_all_possible_orders()["RUM"] == ["A RUM D"]
    assert "A RUM" in game.get_state()["retreats"]["AUSTRIA"]
    again = Game.from_json(game.to_json())
    assert again.get_all_possible_orders()["RUM"] == ["A RUM D"]
    game.process()
    assert game.current_short_phase == "W1901A"
    assert "*A RUM" not in game.get_units()["AUSTRIA"]


def test_winter_with_nothing_to_do_is_skipped() -> None:
    game = Game()
    game.process()
    game.process()
    assert game.current_short_phase == "S1902M"


def test_support_to_a_coast_the_mover_does_not_name() -> None:
    game = Game()
    game.set_orders("ITALY", ["F NAP - ION"])
    game.set_orders("RUSSIA", ["F SEV - BLA"])
    game.process()
    game.set_orders("ITALY", ["F ION - GRE"])
    game.process()
    game.process()
    game.set_orders("RUSSIA", ["F BLA S F GRE - BUL"])
    game.set_orders("ITALY", ["F GRE - BUL/EC"])
    game.process()
    assert "F GRE" in game.get_units()["ITALY"]


# --------------------------------------------------------------------------- TestFields


def test_fields() -> None:
    assert json.loads(Game(is_full_press=True).to_json())["is_full_press"] is True
    assert Game.from_json(Game(is_full_press=False).to_json()).is_full_press is False
    assert Game().map_name == "standard"
    doc = json.loads(Game().to_json())
    assert doc["map"] == "standard" and doc["version"] == "1.0"
    doc["map"] = "fva"
    assert Game.from_json(json.dumps(doc)).map_name == "fva"
    assert Game.from_json(json.dumps(doc)).game_id == doc["id"]
    for value, expected in [(1, 1), ("sum_of_squares", 0), ("draw_size", 1)]:
        doc["scoring_system"] = value
        assert Game.from_json(json.dumps(doc)).get_scoring_system() == expected
    doc["scoring_system"] = "bad_value"
    with pytest.raises(RuntimeError, match="scoring_system"):
        Game.from_json(json.dumps(doc))


# --------------------------------------------------------------------------- TestStalemate


def test_stalemate_after_one_quiet_year() -> None:
    game = Game()
    game.set_draw_on_stalemate_years(1)
    assert game.get_consecutive_years_without_sc_change() == 0
    game.process()
    assert game.get_current_phase() == "F1901M"
    game.process()
    assert game.get_current_phase() == "COMPLETED"
    assert game.is_game_done
    assert game.get_consecutive_years_without_sc_change() == 1
    assert game.any_sc_occupied_by_new_power() is False


def test_stalemate_waits_for_a_quiet_year_after_a_gain() -> None:
    game = Game()
    game.set_draw_on_stalemate_years(1)
    game.process()
    game.set_all_orders({"AUSTRIA": ("A BUD - RUM",)})
    game.process()
    assert game.get_current_phase() == "W1901A"
    assert game.get_consecutive_years_without_sc_change() == 0
    game.process()
    assert game.get_current_phase() == "S1902M"
    game.process()
    game.process()
    assert game.get_current_phase() == "W1902A"
    game.process()
    assert game.get_current_phase() == "COMPLETED"
    assert game.get_consecutive_years_without_sc_change() == 1


def test_some_game_getters() -> None:
    game = Game()
    assert game.get_unit_power_at("STP") == "RUSSIA"
    assert game.get_unit_power_at("STP/SC") == "RUSSIA"
    assert game.get_unit_power_at("STP/NC") is None
    assert game.get_unit_type_at("STP") == "F"
    assert game.get_unit_power_at("BUR") is None
    assert game.get_unit_power_at("XYZ") is None
    assert game.get_supply_center_power("STP/NC") == "RUSSIA"
    assert game.get_supply_center_power("BEL") is None
    assert game.get_supply_center_power("BUR") is None
    assert game.is_supply_center("BEL") and not game.is_supply_center("BUR")
    assert Game.is_water("NTH") and not Game.is_water("LON")
    assert Game.is_coast("LON") and Game.is_coast("STP/NC") and not Game.is_coast("PAR")
    assert game.current_year == 1901 and game.phase == "SPRING 1901 MOVEMENT"
    assert game.phase_type == "M"
    assert game.get_next_phase("S1901M") is None
    game.process()
    assert game.get_next_phase("S1901M") == "F1901M"
    assert game.get_prev_phase("F1901M") == "S1901M"
    assert game.get_prev_phase("S1901M") is None


# --------------------------------------------------------------------------- lists and orders


def test_orderable_locations_sorted_by_the_units_location() -> None:
    # dipcc sorts by the coast a fleet stands on: STP/SC comes after PRU, before MOS
    assert Game().get_orderable_locations()["RUSSIA"] == ["STP", "MOS", "WAR", "SEV"]


def test_possible_orders_of_a_coastal_fleet_are_listed_under_both_names() -> None:
    orders = Game().get_all_possible_orders()
    assert orders["STP/SC"] == orders["STP"]
    assert orders["STP/NC"] == []
    assert orders["STP"][0] == "F STP/SC H"
    assert set(orders) == set(LOCS)
    # hold, then moves, then supports: dipcc's order of order types
    kinds = [o.split()[2] for o in orders["PAR"]]
    assert kinds == sorted(kinds, key=["H", "-", "S"].index)


def test_convoy_and_via_orders() -> None:
    game = Game()
    game.set_orders("ENGLAND", ["F LON - NTH", "A LVP - YOR"])
    game.process()
    orders = game.get_all_possible_orders()
    assert "A YOR - NWY VIA" in orders["YOR"]
    assert "A YOR - LON VIA" in orders["YOR"]  # a neighbour by convoy too
    assert "F NTH C A YOR - NWY" in orders["NTH"]
    assert "F EDI S A YOR - NWY" not in orders["EDI"]  # EDI does not border NWY
    # an order naming no VIA for a move only a convoy makes is taken as one (implicit via)
    game.set_orders("ENGLAND", ["F NTH C A YOR - NWY", "A YOR - NWY"])
    game.process()
    assert "A NWY" in game.get_units()["ENGLAND"]


def test_order_text_round_trip_and_refusals() -> None:
    for text in ["A PAR - BUR", "A LON - NWY VIA", "F STP/NC B", "F BLA S F BUL", "A WAL R LON"]:
        assert format_order(parse_order(text)) == text
    for bad in ["A PAR", "X PAR H", "A PAR - BURG", "A PAR S A BUR - ", "F NTH C A YOR", "a par h"]:
        with pytest.raises(ValueError):
            parse_order(bad)
    game = Game()
    with pytest.raises(ValueError, match="Can't parse order"):
        game.set_orders("FRANCE", ["A PAR - BUR", "A PAR TO BUR"])
    assert game.get_orders() == {}  # refused whole
    with pytest.raises(RuntimeError, match="power_from_str"):
        game.set_orders("FRANKREICH", ["A PAR - BUR"])


def test_game_ends_in_1935_winter() -> None:
    game = Game()
    while not game.is_game_done:
        game.process()
    assert game.current_short_phase == "COMPLETED"
    assert game.get_all_phase_names()[-2] == "F1935M"
    with pytest.raises(RuntimeError, match="COMPLETED"):
        game.process()


# --------------------------------------------------------------------------- bad JSON


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(phases=[]), "phases"),
        (lambda d: d.pop("phases"), "phases"),
        (lambda d: d.update(is_full_press="yes"), "is_full_press"),
        (lambda d: d["phases"][0]["state"]["units"]["FRANCE"].append("A XYZ"), "units.FRANCE[3]"),
        (lambda d: d["phases"][0]["state"]["units"]["FRANCE"].append("A NTH"), "units.FRANCE[3]"),
        (lambda d: d["phases"][0]["state"]["units"]["GERMANY"].append("A PAR"), "units.GERMANY[3]"),
        (lambda d: d["phases"][0]["state"]["centers"]["FRANCE"].append("BUR"), "centers.FRANCE[3]"),
        (lambda d: d["phases"][0]["state"].update(name="F1901M"), "state.name"),
        (lambda d: d["phases"][0].update(name="S1901X"), "phases[0].name"),
        (lambda d: d["phases"][0]["orders"].update(PRUSSIA=[]), "orders"),
        (lambda d: d["phases"][0]["orders"].update(FRANCE=["A PAR TO BUR"]), "orders.FRANCE[0]"),
        (lambda d: d["phases"][0]["messages"].append({"time_sent": -1}), "time_sent"),
        (lambda d: d.update(metadata={"k": 1}), "metadata.k"),
    ],
)
def test_bad_json_is_refused_naming_the_field(change: object, field: str) -> None:
    game = Game()
    game.add_message("FRANCE", "ENGLAND", "hi", 5)
    doc = json.loads(game.to_json())
    change(doc)  # type: ignore[operator]
    with pytest.raises(DipccJsonError, match=field.replace("[", r"\[").replace("]", r"\]")):
        Game.from_json(json.dumps(doc))


def test_not_json_and_not_an_object() -> None:
    with pytest.raises(DipccJsonError, match="not JSON"):
        Game.from_json("{")
    with pytest.raises(DipccJsonError, match="document"):
        Game.from_json("[]")


def test_written_json_is_dipccs_layout() -> None:
    game = Game()
    game.set_orders("FRANCE", ["A PAR - BUR"])
    text = game.to_json()
    assert " " not in text.replace("A PAR - BUR", "").replace("A ", "").replace("F ", "")
    doc = json.loads(text)
    assert list(doc) == sorted(doc)
    [current] = doc["phases"]
    assert current["orders"] == {"FRANCE": ["A PAR - BUR"]}
    assert current["results"] == {} and current["logs"] == [] and current["messages"] == []
    assert set(current["state"]) == {"builds", "centers", "homes", "name", "retreats", "units"}


# --------------------------------------------------------------------------- dipcc's own data


@needs_data
def test_double_convoy_unresolved_support() -> None:
    game = Game.from_json(_data("double_convoy_unresolve_support.json"))
    game.process()
    assert game.current_short_phase == "S1908R"
    assert game.get_units() == {
        "AUSTRIA": [],
        "ENGLAND": ["A YOR", "F LON", "F NTH", "A WAL", "F DEN", "A NWY"],
        "FRANCE": ["F ENG", "A BEL", "A HOL", "F SPA/SC", "A MAR", "A MUN", "*A WAL", "*F NTH"],
        "GERMANY": ["A KIE"],
        "ITALY": ["F WES", "A PIE", "F ION", "F AEG", "F SMY"],
        "RUSSIA": ["F FIN", "A BER", "A MOS", "A TYR", "A GAL", "A TRI", "A BUD", "A SER"],
        "TURKEY": ["F SEV", "F BLA", "A GRE", "F CON", "F BUL/SC", "*A SER"],
    }


@needs_data
@pytest.mark.parametrize(
    "name",
    [
        "benchmark_game.json",
        "buggyordersgame.json",
        "double_convoy_unresolve_support.json",
        "game_100012_anonymized.json",
        "game_1_anonymized_truncated.json",
        "game_fva_order_idx_with_coasts_test.json",
        "game_no_press_from_selfplay_long.json",
        "test_game_russia_four_builds.json",
    ],
)
def test_dipcc_game_files_load_and_write_stably(name: str) -> None:
    text = _data(name)
    if text.startswith("version https://git-lfs"):
        pytest.skip(f"{name} is a Git LFS pointer in this copy")
    game = Game.from_json(text)
    once = game.to_json()
    assert Game.from_json(once).to_json() == once


@needs_data
def test_scores_of_a_long_selfplay_game() -> None:
    game = Game.from_json(_data("game_no_press_from_selfplay_long.json"))
    phase = game.get_phase_history()[77]
    assert phase.name == "S1918M"
    sos = [64 / 276, 81 / 276, 0.0, 1 / 276, 0.0, 81 / 276, 49 / 276]
    assert phase.get_scores(Game.SCORING_SOS) == pytest.approx(sos)
    assert phase.get_scores(Game.SCORING_DSS) == pytest.approx([0.2, 0.2, 0, 0.2, 0, 0.2, 0.2])
    back = game.rolled_back_to_phase_start("S1918M")
    assert back.get_alive_powers() == ["AUSTRIA", "ENGLAND", "GERMANY", "RUSSIA", "TURKEY"]
    assert back.get_scores() == pytest.approx(sos)


# --------------------------------------------------------------------------- the encoders


def _vocabulary(*games: Game) -> dict[str, int]:
    texts = {o for g in games for orders in g.get_all_possible_orders().values() for o in orders}
    texts |= {"A NAP B;A VEN B;F ROM B", "A MOS B;A SEV B;A WAR B;F STP/NC B"}
    # Cicero's vocabulary names a supported fleet on a coast by its coast only
    texts = {t for t in texts if not re.search(r" S F (BUL|SPA|STP)( |$)", t)}
    return {t: i for i, t in enumerate(sorted(texts))}


def test_board_state_widths_and_versions() -> None:
    from diplo.compat.dipcc.encoding import board_state_enc_width, max_input_version

    assert max_input_version() == 3
    assert [board_state_enc_width(v) for v in (1, 2, 3)] == [35, 38, 38]
    with pytest.raises(ValueError, match="input version"):
        board_state_enc_width(4)


def test_board_state_encoding_of_spring_1901() -> None:
    from diplo.compat.dipcc.encoding import (
        encode_board_state,
        encode_board_states,
        encoding_sc_ownership_idxs,
        encoding_unit_ownership_idxs,
    )

    game = Game()
    v1 = encode_board_state(game, 1)
    assert v1.shape == (81, 35) and v1.dtype == np.float32
    par, nth = LOCS.index("PAR"), LOCS.index("NTH")
    stp, stp_sc, stp_nc = LOCS.index("STP"), LOCS.index("STP/SC"), LOCS.index("STP/NC")
    france, russia = POWERS.index("FRANCE"), POWERS.index("RUSSIA")
    assert v1[par, 0] == 1 and v1[par, encoding_unit_ownership_idxs(1)[france]] == 1
    assert v1[nth, 2] == 1 and v1[nth, 10] == 1 and v1[nth, 25] == 1  # no unit; water
    # the fleet on St Petersburg's south coast marks the coast and the province, not the north
    assert v1[stp_sc, 1] == v1[stp, 1] == 1 and v1[stp_nc, 1] == 0 and v1[stp_nc, 2] == 1
    # a centre's owner on every coast of it
    sc = encoding_sc_ownership_idxs(1)[russia]
    assert v1[stp, sc] == v1[stp_nc, sc] == v1[stp_sc, sc] == 1
    assert v1[LOCS.index("BEL"), 34] == 1  # neutral centre
    assert v1.sum(axis=1).min() > 0
    v2 = encode_board_state(game, 2)
    assert v2.shape == (81, 38)
    assert v2[par, 31 + france] == 1 and v2[LOCS.index("BUR"), 31:].sum() == 0  # home centres
    assert np.array_equal(encode_board_states([game, game], 3), np.stack([v2, v2]))


def test_buildable_and_removable_channels() -> None:
    from diplo.compat.dipcc.encoding import encode_board_state

    game = Game()
    game.set_orders("GERMANY", ["F KIE - HOL", "A MUN - RUH"])
    game.process()
    game.set_orders("GERMANY", ["A RUH - BEL"])
    game.process()
    assert game.current_short_phase == "W1901A"
    v2 = encode_board_state(game, 2)
    assert v2[LOCS.index("KIE"), 9] == 1 and v2[LOCS.index("MUN"), 9] == 1
    assert v2[LOCS.index("BER"), 9] == 0  # occupied
    assert v2[:, 10].sum() == 0  # nobody disbands


def test_encode_orders_strict_and_tolerant() -> None:
    from diplo.compat.dipcc.encoding import ThreadPool

    game = Game()
    game.set_orders("TURKEY", ["F ANK - BLA"])
    game.set_orders("RUSSIA", ["F SEV - RUM"])
    game.process()
    game.set_orders("TURKEY", ["F BLA - BUL/EC"])
    game.process()
    game.process()  # winter
    assert "F BUL/EC" in game.get_units()["TURKEY"] and "F RUM" in game.get_units()["RUSSIA"]
    vocab = _vocabulary(Game(), game)
    pool = ThreadPool(0, vocab, 469)
    assert "F RUM S F BUL/EC" in vocab and "F RUM S F BUL" not in vocab
    orders = ["F RUM S F BUL", "A WAR - UKR", "A MOS H", "F RUM S F CON - ARM"]
    strict = pool.encode_orders_single_strict(orders, 2)
    tolerant = pool.encode_orders_single_tolerant(game, orders, 2)
    assert strict.shape == (2, 100) and strict.dtype == np.int64
    want = sorted(
        [(vocab["A WAR - UKR"], LOCS.index("WAR")), (vocab["A MOS H"], LOCS.index("MOS"))]
    )
    assert [tuple(c) for c in strict[:, :2].T] == want and not strict[:, 2:].any()
    want_t = sorted([*want, (vocab["F RUM S F BUL/EC"], LOCS.index("RUM"))])
    assert [tuple(c) for c in tolerant[:, :3].T] == want_t and not tolerant[:, 3:].any()
    with pytest.raises(ValueError, match="Can't parse order"):
        pool.encode_orders_single_strict(["A WAR TO UKR"], 2)
    with pytest.raises(RuntimeError, match="max size"):
        pool.encode_orders_single_strict(["A WAR H"] * 100, 2)


def test_decode_order_idxs() -> None:
    from diplo.compat.dipcc.encoding import EOS_IDX, ThreadPool

    vocab = _vocabulary(Game())
    pool = ThreadPool(0, vocab, 469)
    idxs = np.full((1, 7, 17), EOS_IDX, dtype=np.int64)
    italy = POWERS.index("ITALY")
    idxs[0, italy, 0] = vocab["A NAP B;A VEN B;F ROM B"]
    decoded = pool.decode_order_idxs(idxs)
    assert decoded[0][italy] == ["A NAP B", "F ROM B", "A VEN B"]  # NAP < ROM < VEN in LOCS
    assert all(decoded[0][p] == [] for p in range(7) if p != italy)
    with pytest.raises(ValueError, match="shape"):
        pool.decode_order_idxs(np.zeros((1, 6, 3), dtype=np.int64))


def test_decode_order_idxs_all_powers() -> None:
    from diplo.compat.dipcc.encoding import EOS_IDX, ThreadPool

    vocab = _vocabulary(Game())
    pool = ThreadPool(0, vocab, 469)
    joint = ["F EDI - NTH", "A PAR - BUR", "F SEV - BLA"]
    owners = [POWERS.index("ENGLAND"), POWERS.index("FRANCE"), POWERS.index("RUSSIA")]
    idxs = np.full((2, 7, 34), EOS_IDX, dtype=np.int64)
    x_power = np.full((2, 7, 34), -1, dtype=np.int64)
    for k in range(2):
        idxs[k, 0, :3] = [vocab[o] for o in joint]
        x_power[k, 0, :3] = owners
    out = pool.decode_order_idxs_all_powers(idxs, np.zeros(1), x_power, 2)
    for k in range(2):
        assert out[k][POWERS.index("FRANCE")] == ["A PAR - BUR"]
        assert out[k][POWERS.index("RUSSIA")] == ["F SEV - BLA"]
        assert out[k][0] == []
    in_adj = pool.decode_order_idxs_all_powers(idxs, np.ones(1), x_power, 2)
    assert in_adj[0][0] == ["F EDI - NTH", "A PAR - BUR", "F SEV - BLA"]


def test_board_state_from_json_phase_and_power_permutations() -> None:
    from diplo.compat.dipcc.encoding import (
        encode_board_state,
        encode_board_state_from_json,
        encode_board_state_from_phase,
        encode_board_state_pperm_matrices,
    )

    game = Game()
    game.set_orders("FRANCE", ["A PAR - BUR"])
    game.process()
    state = json.dumps(json.loads(game.to_json())["phases"][-1]["state"])
    assert np.array_equal(encode_board_state_from_json(state, 2), encode_board_state(game, 2))
    first = game.get_phase_history()[0]
    assert np.array_equal(encode_board_state_from_phase(first, 1), encode_board_state(Game(), 1))
    with pytest.raises(DipccJsonError, match=r"state\.units"):
        encode_board_state_from_json('{"name": "S1901M", "units": {"FRANCE": ["A XYZ"]}}', 1)
    swap = list(range(7))
    france, germany = POWERS.index("FRANCE"), POWERS.index("GERMANY")
    swap[france], swap[germany] = germany, france
    matrices = encode_board_state_pperm_matrices(np.array([list(range(7)), swap]), 2)
    assert matrices.shape == (2, 38, 38) and np.array_equal(matrices[0], np.eye(38))
    board_now = encode_board_state(game, 2)
    moved = board_now @ matrices[1]
    for start in (2, 13, 23, 31):  # unit, dislodged unit, centre and home owners
        assert np.array_equal(moved[:, start + germany], board_now[:, start + france])
        assert np.array_equal(moved[:, start + france], board_now[:, start + germany])
    with pytest.raises(RuntimeError, match="input_version 1"):
        encode_board_state_pperm_matrices(np.array([swap]), 1)


def test_state_only_inputs_and_previous_orders() -> None:
    from diplo.compat.dipcc.encoding import ThreadPool, encode_board_state

    game = Game()
    orders = {"RUSSIA": ["F SEV - BLA"], "GERMANY": ["F KIE - HOL"]}
    before = encode_board_state(game, 2)
    for power, given in orders.items():
        game.set_orders(power, given)
    game.process()
    pool = ThreadPool(0, _vocabulary(Game()), 469)
    fields = pool.encode_inputs_state_only_multi([game, Game()], 2)
    flat = [o for given in orders.values() for o in given]
    # dipcc's test_encode_orders: the previous orders are the strict and tolerant encodings
    assert np.array_equal(fields["x_prev_orders"][0], pool.encode_orders_single_strict(flat, 2))
    assert np.array_equal(
        fields["x_prev_orders"][0], pool.encode_orders_single_tolerant(game, flat, 2)
    )
    assert not fields["x_prev_orders"][1].any() and not fields["x_prev_state"][1].any()
    assert np.array_equal(fields["x_prev_state"][0], before)
    assert np.array_equal(fields["x_board_state"][0], encode_board_state(game, 2))
    assert fields["x_season"].tolist() == [[0, 1, 0], [1, 0, 0]]
    assert fields["x_year_encoded"].tolist() == [[0.0], [0.0]]
    assert fields["x_scoring_system"].tolist() == [[1, 0], [1, 0]]
    assert fields["x_in_adj_phase"].tolist() == [0, 0]
    # into the winter: the fall's orders and the build numbers
    game.set_orders("GERMANY", ["F HOL - BEL", "A MUN - RUH"])
    game.process()
    assert game.current_short_phase == "W1901A"
    fields = pool.encode_inputs_state_only_multi([game], 3)
    assert fields["x_in_adj_phase"].tolist() == [1]
    assert fields["x_build_numbers"][0, POWERS.index("GERMANY")] == 1  # Belgium
    assert fields["x_season"].tolist() == [[0, 0, 1]]
    fall = pool.encode_orders_single_strict(["F HOL - BEL", "A MUN - RUH"], 3)
    assert np.array_equal(fields["x_prev_orders"][0], fall)
    game.set_orders("GERMANY", ["A KIE B"])
    game.process()
    fields = pool.encode_inputs_state_only_multi([game], 1)
    # in spring the previous orders run from the last movement phase (fall) through the winter
    both = pool.encode_orders_single_strict(["F HOL - BEL", "A MUN - RUH", "A KIE B"], 1)
    assert np.array_equal(fields["x_prev_orders"][0], both)
    assert fields["x_year_encoded"][0, 0] == np.float32(0.1)


def test_candidate_orders_of_spring_1901() -> None:
    from diplo.compat.dipcc.encoding import EOS_IDX, ThreadPool

    vocab = _vocabulary(Game())
    pool = ThreadPool(0, vocab, 469)
    game = Game()
    one = pool.encode_inputs_multi([game], 1)
    allp = pool.encode_inputs_all_powers_multi([game], 1)
    actions = one["x_possible_actions"][0]
    assert actions.shape == (7, 17, 469) and actions.dtype == np.int32
    russia = POWERS.index("RUSSIA")
    # Russia's steps in dipcc's order of its units' locations: STP/SC, MOS, WAR, SEV
    steps = one["x_loc_idxs"][0, russia]
    assert [int(steps[LOCS.index(x)]) for x in ("STP", "MOS", "WAR", "SEV")] == [0, 1, 2, 3]
    names = {i: t for t, i in vocab.items()}
    assert {names[i] for i in actions[russia, 0] if i != EOS_IDX} == set(
        Game().get_all_possible_orders()["STP/SC"]
    )
    # all powers: one sequence of the 22 units in row 0, the same candidates
    assert (allp["x_possible_actions"][0, 1:] == EOS_IDX).all()
    assert (allp["x_power"][0, 1:] == EOS_IDX).all()
    powers = allp["x_power"][0, 0]
    assert (powers[:22] >= 0).all() and (powers[22:] == EOS_IDX).all()
    seen = [0] * 7
    for step, power in enumerate(powers[:22]):
        assert (allp["x_possible_actions"][0, 0, step] == actions[power, seen[power]]).all()
        seen[power] += 1
    assert allp["x_loc_idxs"][0, 0].max() == 21


def _cicero_vocabulary() -> dict[str, int]:
    assert DIPCC_SOURCES is not None
    path = Path(DIPCC_SOURCES) / "fairdiplomacy" / "models" / "order_vocab_by_unit.json"
    by_unit = json.loads(path.read_text())
    ordered = [o for unit in sorted(by_unit) for o in sorted(by_unit[unit])]
    return {o: i for i, o in enumerate(ordered)}


@needs_data
def test_russia_four_builds_and_all_powers_in_adjustments() -> None:
    from diplo.compat.dipcc.encoding import ThreadPool

    vocab = _cicero_vocabulary()
    pool = ThreadPool(0, vocab, 469)
    game = Game.from_json(_data("test_game_russia_four_builds.json"))
    assert game.current_short_phase.endswith("A")
    assert vocab["A MOS B;A SEV B;A WAR B;F STP/NC B"] == 13201
    one = pool.encode_inputs_multi([game], 1)
    assert 13201 in one["x_possible_actions"][0, POWERS.index("RUSSIA")]
    allp = pool.encode_inputs_all_powers_multi([game], 1)
    for key, value in one.items():
        other = allp[key]
        if other.ndim >= 3 and other.shape[2] == 34:
            assert (other[:, :, 17:] == -1).all()
            other = other[:, :, :17]
        assert np.array_equal(other, value), key


@needs_data
def test_duplicate_coastal_orders_in_versions_1_and_2_only() -> None:
    from diplo.compat.dipcc.encoding import ThreadPool

    pool = ThreadPool(0, _cicero_vocabulary(), 469)
    game = Game.from_json(_data("buggyordersgame.json"))
    rows = {
        v: pool.encode_inputs_multi([game], v)["x_possible_actions"][0][-1, 1] for v in (1, 2, 3)
    }
    assert [(rows[v] == 6484).sum() for v in (1, 2, 3)] == [3, 3, 1]
    others = {v: rows[v][(rows[v] != 6484) & (rows[v] != -1)] for v in (1, 2, 3)}
    assert np.array_equal(others[1], others[3]) and np.array_equal(others[2], others[3])
    assert len(others[3]) == 40


def _json_paths(doc: object, prefix: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    out = [prefix]
    if isinstance(doc, dict):
        for key, value in doc.items():
            out += _json_paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            out += _json_paths(value, (*prefix, i))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_mutated_documents_are_read_or_refused_whole(seed: int) -> None:
    import copy
    import random

    game = Game()
    game.set_orders("FRANCE", ["A PAR - BUR"])
    game.add_message("FRANCE", "ENGLAND", "hi", 5)
    game.process()
    game.set_orders("ENGLAND", ["F LON - ENG"])
    game.add_log("a line")
    game.set_metadata("k", "v")
    bases = [json.loads(game.to_json()), json.loads(_trivial_r_phase_game().to_json())]
    values: list[object] = [None, 0, -1, 1.5, True, "", "XYZ", "S1901M", [], {}, ["A PAR"]]
    values += [{"FRANCE": []}, "A PAR", 10**30, "COMPLETED", [None]]
    rng = random.Random(seed)
    read = refused = 0
    for _ in range(150):
        doc = copy.deepcopy(rng.choice(bases))
        paths = _json_paths(doc)
        for _ in range(rng.randint(1, 3)):
            path = rng.choice(paths[1:])
            parent: Any = doc
            try:
                for key in path[:-1]:
                    parent = parent[key]
                if rng.random() < 0.3 and isinstance(parent, dict):
                    del parent[path[-1]]
                else:
                    parent[path[-1]] = copy.deepcopy(rng.choice(values))
            except (KeyError, IndexError, TypeError):
                pass
        try:
            loaded = Game.from_json(json.dumps(doc))
        except DipccJsonError:
            refused += 1
            continue
        read += 1
        loaded.get_all_possible_orders()
        loaded.get_orderable_locations()
        if not loaded.is_game_done:
            loaded.process()
        assert Game.from_json(loaded.to_json()).to_json() == loaded.to_json()
    assert read > 10 and refused > 10


# --------------------------------------------------------------------------- diplo's side


def test_each_order_reaches_the_engine_as_diplo_reads_its_text() -> None:
    """``process`` hands the engine each dipcc order's code made by the engine from the order's
    fields (``DipccEncoder.rule_staged``), not from its text: for every possible order (and each
    move's "VIA" form) of seeded random games' boards, the code is that of the order diplo's own
    parser reads from dipcc's text (``model_order`` is that order)."""
    import random

    from diplo.compat.dipcc.board import board as dipcc_board
    from diplo.compat.dipcc.game import state_of
    from diplo.compat.dipcc.state import model_order
    from diplo.engine.codes import encode_order
    from diplo.model.map import standard_map
    from diplo.model.orders import parse_order as read_text

    game_map = standard_map()
    home_of = {h: p for p in POWERS for h in dipcc_board().homes[p]}
    kinds: set[int] = set()
    checked = 0
    for seed in range(20):
        rng = random.Random(seed)
        game = Game()
        while game.current_year < 1906 and (kinds != set(range(1, 9)) or checked < 1000):
            state = state_of(game)
            possible = game.get_all_possible_orders()
            owner = {code: power for code, (power, _) in state.units.items()}
            owner.update({loc: power for (power, _, loc) in state.dislodged})
            for orders in state.possible_orders().values():
                for order in orders:
                    power = owner.get(order.unit_loc)
                    if power is None:  # a build: the home centre's power
                        power = home_of[dipcc_board().root[order.unit_loc]]
                    _, codes = state._ruled({power: [order]})
                    want = encode_order(model_order(order), game_map)
                    assert want == encode_order(read_text(format_order(order), game_map), game_map)
                    assert codes == [want], str(order)
                    kinds.add(order.kind)
                    checked += 1
            for power, locs in game.get_orderable_locations().items():
                game.set_orders(power, [rng.choice(possible[loc]) for loc in locs])
            game.process()
    assert kinds == set(range(1, 9)) and checked > 1000


@pytest.mark.parametrize(
    ("sequence", "moved"),
    [
        ((["A PAR - BUR"],), True),
        ((["A PAR - MOS"],), False),  # impossible: the unit holds
        ((["A PAR - MOS"], ["A PAR - BUR"]), True),  # a unit's last order counts
        ((["A PAR - BUR"], ["A PAR - MOS"]), False),
        ((["A PAR - BUR", "A PAR - MOS"],), False),
        ((["A PAR - MOS", "A PAR - BUR"],), True),
    ],
)
def test_copies_of_one_board_each_rule_on_their_own_orders(
    sequence: tuple[list[str], ...], moved: bool
) -> None:
    """A board keeps each order's ruling for its copies: however copies of one board were
    ruled before, each copy's own orders decide (the last order of a unit counts, an impossible
    one makes it hold)."""
    base = Game()
    for staged in (["A PAR - MOS"], ["A PAR - BUR"], ["A PAR - MOS", "A PAR - BUR"]):
        earlier = Game(base)
        earlier.set_orders("FRANCE", staged)
        earlier.process()
    game = Game(base)
    for orders in sequence:
        game.set_orders("FRANCE", orders)
    game.process()
    units = game.get_units()["FRANCE"]
    assert ("A BUR" in units) is moved and ("A PAR" in units) is not moved
    assert base.current_short_phase == "S1901M" and "A PAR" in base.get_units()["FRANCE"]


def test_a_board_keeps_the_engine_game_that_made_it_only_when_it_is_the_same() -> None:
    """A movement or adjustment phase reached by the engine keeps the engine's game after the
    phase before (not one made afresh from the board): in seeded random games each such game,
    and the one a board read from JSON makes from dipcc's codes, is the one made afresh from
    diplo's position (board, hash, legal orders, end) and rules the next orders to the same
    bytes."""
    import random

    from diplo.compat.dipcc.game import state_of
    from diplo.engine.codes import CodeGame, core_of

    kept = 0
    kinds: set[str] = set()
    for seed in range(3):
        rng = random.Random(seed)
        game = Game()
        while game.current_year < 1908:
            state = state_of(game)
            engine = state._memo.get("engine")
            possible = game.get_all_possible_orders()
            for power, locs in game.get_orderable_locations().items():
                game.set_orders(power, [rng.choice(possible[loc]) for loc in locs])
            if engine is not None:
                kept += 1
                kinds.add(state.phase.kind)
                ours = engine[1].clone()
                fresh = core_of(CodeGame(state._position(str(state.phase))))
                read = state_of(Game.from_json(game.to_json()))._engine_game()
                for g in (ours, fresh, read):
                    assert g.phase == game.current_short_phase
                    assert (g.state(), g.hash, g.legal_orders()) == (
                        fresh.state(),
                        fresh.hash,
                        fresh.legal_orders(),
                    )
                    assert (g.max_year, g.is_over, g.winner) == (None, False, None)
                codes = [code for _, code in state._rulings(game._data.staged)]
                for g in (ours, fresh, read):
                    g.set_orders(codes)
                    g.process()
                assert ours.state_bytes() == fresh.state_bytes() == read.state_bytes()
            game.process()
    assert kept > 20 and kinds == {"M", "A"}


def test_a_played_game_pickles_and_plays_on_the_same() -> None:
    """A game whose boards keep what was worked out of them (possible orders, rulings, the
    engine's game) pickles; the copy reads back the same and plays on the same."""
    import pickle

    game = Game()
    game.set_orders("FRANCE", ["A PAR - BUR", "F BRE - MAO"])
    game.set_orders("GERMANY", ["A MUN - BUR"])
    game.process()
    game.get_all_possible_orders()
    copy = pickle.loads(pickle.dumps(game))
    assert copy.to_json() == game.to_json()
    for g in (game, copy):
        g.set_orders("FRANCE", ["F MAO - SPA/NC", "A PAR - PIC"])
        g.process()
    assert copy.to_json() == game.to_json()
    assert copy.get_all_possible_orders() == game.get_all_possible_orders()


def _seeded_adjustment_orders(
    rng: Any, possible: dict[str, list[str]], locs: list[str]
) -> list[str]:
    """A power's orders of an adjustment phase, drawn to reach every rule: none (civil
    disorder, builds waived), every possible order (more builds than owed, an army and a fleet
    on one site, more disbands than owed), or one random order per location and some waives."""
    way = rng.randrange(3)
    if way == 0:
        return []
    if way == 1:
        return [o for loc in locs for o in possible[loc]]
    picked = [rng.choice(possible[loc]) for loc in locs if possible[loc] and rng.random() < 0.7]
    return picked + ["WAIVE"] * rng.randrange(3)


def test_retreats_and_adjustments_on_the_engine_as_by_the_rules_written_here() -> None:
    """Retreats and adjustments are processed by the engine's game kept from the phase before;
    phase by phase in seeded games they give what dipcc's retreat rule written here
    (``_process_retreats_here``) and the object API's adjustments (``process_phase`` on a
    ``Position``, ``_process_adjustments_by_objects``) give: the same next phase, units,
    centres, influence and dislodged units, with civil disorder, waives, builds beyond the
    sites and the owed, and retreat phases where nobody can retreat."""
    import random

    from diplo.compat.dipcc.game import state_of

    def board(s: Any) -> tuple[Any, ...]:
        return (str(s.phase), s.units, s.centers, s.influence, s.dislodged)

    seen = {"R-engine": 0, "R-here": 0, "R-nowhere": 0, "A": 0, "A-disorder": 0}
    for seed in range(40):
        rng = random.Random(seed)
        game = Game()
        while not game.is_game_done and game.current_year < 1912:
            state = state_of(game)
            kind = state.phase.kind
            possible = game.get_all_possible_orders()
            for power, locs in game.get_orderable_locations().items():
                if kind == "A":
                    game.set_orders(power, _seeded_adjustment_orders(rng, possible, locs))
                else:
                    game.set_orders(power, [rng.choice(possible[loc]) for loc in locs])
            staged = game._data.staged
            if kind == "R":
                engine = state._memo.get("engine_retreat")
                on_engine = engine is not None and engine[0] == str(state.phase)
                seen["R-engine" if on_engine else "R-here"] += 1
                if not any(state.dislodged.values()):
                    seen["R-nowhere"] += 1
                want = board(state._process_retreats_here(staged))
                read = Game.from_json(game.to_json())  # no engine game: ruled here
                read.process()
                assert board(state_of(read)) == want, (seed, str(state.phase))
            elif kind == "A":
                seen["A"] += 1
                if any(state.n_builds(p) < 0 for p in POWERS) and any(
                    len(staged.get(p, [])) < -state.n_builds(p) for p in POWERS
                ):
                    seen["A-disorder"] += 1
                want = board(state._process_adjustments_by_objects(staged))
            else:
                want = None
            game.process()
            if want is not None:
                assert board(state_of(game)) == want, (seed, str(state.phase))
    assert seen["R-engine"] > 10 and seen["A-disorder"] > 10, seen


def test_a_winter_is_skipped_exactly_when_it_has_no_possible_order() -> None:
    """``State.anything_to_adjust`` (the counts and the home centres) is whether dipcc's
    possible orders of the winter are not all empty, on every winter of seeded games (and on
    winters made of their spring boards: many with nothing to do)."""
    import random

    from diplo.compat.dipcc.game import state_of
    from diplo.compat.dipcc.state import PhaseName

    told = {True: 0, False: 0}
    for seed in range(10):
        rng = random.Random(seed)
        game = Game()
        while not game.is_game_done and game.current_year < 1910:
            state = state_of(game)
            winter = state.copy()
            winter.forget_orders()
            winter.phase = PhaseName("W", state.phase.year, "A")
            winter.dislodged = {}
            want = any(winter.possible_orders().values())
            assert winter.anything_to_adjust() is want, (seed, str(state.phase))
            told[want] += 1
            possible = game.get_all_possible_orders()
            for power, locs in game.get_orderable_locations().items():
                game.set_orders(power, [rng.choice(possible[loc]) for loc in locs])
            game.process()
    assert min(told.values()) > 10, told


@pytest.mark.parametrize("season", ["S", "F"])
def test_a_retreat_phase_with_nowhere_to_go_keeps_the_engine_game_past_it(season: str) -> None:
    """A unit dislodged with nowhere to go: dipcc plays a retreat phase (the unit can only
    disband), the engine none; the retreat is ruled here and the engine's game, already past
    it, is kept for the phase after, which plays as on a game read from JSON (no game kept)."""
    from diplo.compat.dipcc.board import LOC_INDEX
    from diplo.compat.dipcc.game import state_of
    from diplo.compat.dipcc.state import PhaseName, State

    units = {"SMY": ("TURKEY", 1), "CON": ("RUSSIA", 1), "ANK": ("RUSSIA", 1)}
    units |= {"ARM": ("RUSSIA", 1), "SYR": ("RUSSIA", 1), "PAR": ("FRANCE", 1)}
    centers = {"SMY": "TURKEY", "CON": "RUSSIA", "ANK": "RUSSIA", "PAR": "FRANCE"}
    centers |= {"MOS": "RUSSIA", "SEV": "RUSSIA", "BRE": "FRANCE"}
    state = State(
        PhaseName(season, 1902, "M"),
        {LOC_INDEX[loc]: unit for loc, unit in units.items()},
        {LOC_INDEX[loc]: power for loc, power in centers.items()},
        {LOC_INDEX[loc]: power for loc, (power, _) in units.items()},
    )
    game = Game()
    game._data.state = state
    game.set_orders("RUSSIA", ["A CON - SMY", "A ANK S A CON - SMY", "A ARM H", "A SYR H"])
    game.process()
    retreat = state_of(game)
    assert game.current_short_phase == f"{season}1902R"
    assert retreat.dislodged == {("TURKEY", 1, LOC_INDEX["SMY"]): ()}
    phase, engine = retreat._memo["engine_retreat"]
    assert phase == engine.phase != game.current_short_phase  # the engine played no retreat
    game.set_orders("TURKEY", ["A SMY D"])
    read = Game.from_json(game.to_json())
    for g in (game, read):
        g.process()
    after = state_of(game)
    assert "engine" in after._memo and "engine" not in state_of(read)._memo
    assert game.to_json() == read.to_json()
    assert "TURKEY" not in {p for p, *_ in state_of(game).units.values()}
    possible = game.get_all_possible_orders()
    for g in (game, read):
        for power, locs in g.get_orderable_locations().items():
            g.set_orders(power, [possible[loc][-1] for loc in locs if possible[loc]])
        g.process()
    assert game.to_json() == read.to_json()


@pytest.mark.parametrize(
    ("where", "change", "message"),
    [
        ("units", ("FRANCE", "A PAR"), r"units\.FRANCE\[3\]: a second unit in PAR"),
        ("units", ("RUSSIA", "F STP/NC"), r"units\.RUSSIA\[4\]: a second unit in STP"),
        ("units", ("FRANCE", "A NTH"), r"FRANCE\[3\]: 'A NTH': an army cannot stand there"),
        ("units", ("FRANCE", 5), r"units\.FRANCE\[3\]: expected a string, got a number"),
        ("units", ("SPAIN", []), r"state\.units: unknown power 'SPAIN'"),
        ("centers", ("FRANCE", "PAR"), r"centers\.FRANCE\[3\]: PAR is owned twice"),
        ("centers", ("FRANCE", "MOS"), r"centers\.RUSSIA\[1\]: MOS is owned twice"),
        ("centers", ("FRANCE", "BUR"), r"centers\.FRANCE\[3\]: 'BUR' is not a supply centre"),
        ("centers", ("FRANCE", "STP/NC"), r"FRANCE\[3\]: 'STP/NC' is not a supply centre"),
        ("centers", ("FRANCE", None), r"centers\.FRANCE\[3\]: unknown location None"),
    ],
)
def test_a_board_read_from_json_names_its_wrong_unit_or_centre(
    where: str, change: tuple[str, Any], message: str
) -> None:
    """A board's units and centres are read from tables of the valid ones; any other entry
    (or a province taken or owned twice) is refused naming the entry, as read one by one."""
    game = Game()
    game.set_orders("FRANCE", ["A PAR - BUR"])
    game.process()
    doc = json.loads(game.to_json())
    entries = doc["phases"][0]["state"][where]
    power, entry = change
    if isinstance(entry, list):
        entries[power] = entry
    else:
        entries[power].append(entry)
    with pytest.raises(DipccJsonError, match=message):
        Game.from_json(json.dumps(doc))
    starred = json.loads(game.to_json())
    starred["phases"][0]["state"]["units"]["FRANCE"].append("*A PIC")  # a dislodged mark
    assert (
        Game.from_json(json.dumps(starred)).get_phase_history()[0].state["units"]
        == (game.get_phase_history()[0].state["units"])
    )
