"""godip's recorded games (``tests/godip_games``) replay phase for phase on both backends.

The records are godip's ``variants/*/games/*.txt`` (most of them real vDiplomacy games),
converted by ``tools/godip_games.py``; ``tests/godip_replay.py`` says how a game is replayed.
"""

from __future__ import annotations

from typing import Any

import pytest

from diplo.model.map import SHIPPED_MAPS
from diplo.model.position import Position
from diplo.model.variants import load_map
from godip_replay import DATA, Board, load, map_of, phase_of, replay, start, variants
from tool_modules import load_tool

#: Variants whose games cannot be replayed yet, each with what diplo lacks to play it.
PENDING: dict[str, str] = {}  # none left: every recorded variant ships

GAMES = [
    (variant, number)
    for variant in variants()
    if variant not in PENDING
    for number in range(len(load(variant)["games"]))
]


def test_every_recorded_variant_is_replayed_or_named_pending() -> None:
    recorded = set(variants())
    assert len(recorded) == 9, sorted(recorded)
    assert set(PENDING) <= recorded
    for variant in recorded - set(PENDING):
        assert variant in SHIPPED_MAPS, f"{variant} is replayed but not shipped"
    for variant in PENDING:
        assert variant not in SHIPPED_MAPS, f"{variant} ships: replay its games (drop PENDING)"


#: Recorded phases diplo rules otherwise than godip under ``edition=godip``, with the reason:
#: (variant, game, phase reached) -> why. None left: the last, empiresandcoalitions 1811 (godip
#: takes Britain's A EDI - IRE as convoyed because Britain ordered F ARC C A EDI - IRE and chains
#: of fleets join EDI to ARC and ARC to IRE through Denmark's F NOA, whatever its order), is
#: ``convoy_chains="any_fleets"`` (test_the_godip_edition_is_what_godip_s_games_need).
DEPARTURES: dict[tuple[str, str, str], str] = {}


@pytest.mark.parametrize("backend", ["python", "rust"])
@pytest.mark.parametrize(("variant", "number"), GAMES)
def test_recorded_game_replays_phase_for_phase(variant: str, number: int, backend: str) -> None:
    game = load(variant)["games"][number]
    found = replay(game, map_of(variant), backend, "edition=godip")
    named = {phase for (v, name, phase) in DEPARTURES if (v, name) == (variant, game["name"])}
    assert {phase for phase, _ in found.disagreements} == named, found.disagreements
    assert found.checked + found.skipped == len(game["phases"]) - 1
    assert found.skipped <= 4 * len(named)


def test_the_godip_edition_is_what_godip_s_games_need() -> None:
    # Under today's rules the civil-disorder disbands of 1803 and 1812 differ: godip counts the
    # distance from the home centres (civil_disorder=home), the 2023 rule from owned ones.
    game = load("empiresandcoalitions")["games"][0]
    today = replay(game, map_of("empiresandcoalitions"), "rust")
    assert [phase for phase, _ in today.disagreements] == [
        "1804 Spring Movement",
        "1811 Fall Adjustment",
        "1813 Spring Movement",
    ]
    godip = replay(game, map_of("empiresandcoalitions"), "rust", "civil_disorder=home")
    assert [phase for phase, _ in godip.disagreements] == ["1811 Fall Adjustment"]
    # 1811: godip's convoy intent through chains of any fleets (convoy_chains="any_fleets"):
    # Britain's F ARC C A EDI - IRE, on no route, makes A EDI - IRE a convoy that fails, so
    # Denmark's F NOA - IRE is not stood off.
    chains = "civil_disorder=home,convoy_chains=any_fleets"
    assert replay(game, map_of("empiresandcoalitions"), "rust", chains).disagreements == []
    assert replay(game, map_of("empiresandcoalitions"), "python", chains).disagreements == []


def test_replays_cover_the_shipped_variants_games() -> None:
    phases = sum(len(load(v)["games"][n]["phases"]) for v, n in GAMES)
    assert {v for v, _ in GAMES} == {
        "ancientmediterranean",
        "coldwar",
        "empiresandcoalitions",
        "hundred",
        "northseawars",
        "pure",
        "twentytwenty",
        "westernworld901",
        "youngstownredux",
    }
    assert phases == 800 + 59 + 49 + 7 + 43


def test_a_changed_record_is_a_disagreement() -> None:
    # The replay can fail: take one unit out of a record and the comparison names it.
    game = load("pure")["games"][0]
    changed = dict(game, phases=[dict(p) for p in game["phases"]])
    second = changed["phases"][1]
    second["units"] = {**second["units"], "TURKEY": []}
    found = replay(changed, map_of("pure"), "rust")
    assert found.disagreements
    phase, what = found.disagreements[0]
    assert phase == second["godip_phase"]
    assert what == "units: diplo has [('TURKEY', 'A CON')], godip []"


def test_record_positions_read_as_diplo_positions() -> None:
    record = load("coldwar")["games"][0]["phases"][0]
    position = start(record, load_map("coldwar"))
    assert isinstance(position, Position)
    assert str(position.phase) == "S1960M" == str(phase_of(record["godip_phase"]))
    assert Board.of_position(position) == Board.of_record(record)
    assert (DATA / "coldwar.json").is_file()


def _converter() -> Any:
    return load_tool("godip_games")


RECORD = """PHASE 1901 Spring Movement
POSITIONS
\tEngland: army lon
\tEngland: fleet nth
\tFrance: army col/wc
\tFrance: supply par
ORDERS
\tnth convoy lon move bel
\tlon move bel
\tcol/wc support eas move tam
\tpar hold
PHASE 1901 Spring Retreat
POSITIONS
\tEngland: army bel
\tFrance: fleet/dislodged bel
ORDERS
\tbel move pic
\tremove lon
PHASE 1901 Fall Adjustment
POSITIONS
\tFrance: supply par
ORDERS
\tbuild Fleet par
"""


def test_the_converter_reads_godip_records_and_their_quirks() -> None:
    tool = _converter()
    phases = tool.parse_game(RECORD, "game_1.txt")
    assert [p.godip_phase for p in phases] == [
        "1901 Spring Movement",
        "1901 Spring Retreat",
        "1901 Fall Adjustment",
    ]
    retreat, builds = (tool.phase_json(p, "game_1.txt") for p in phases[1:])
    # An order for a unit the record does not have cannot be given to a power.
    with pytest.raises(tool.RecordError, match="no unit at par"):
        tool.phase_json(phases[0], "game_1.txt")
    phases[0].order_lines.remove("par hold")
    first = tool.phase_json(phases[0], "game_1.txt")
    # An army keeps no coast; a support of a unit not there names no unit type (it is
    # refused on replay, as godip refuses it).
    assert first["units"] == {"ENGLAND": ["A LON", "F NTH"], "FRANCE": ["A COL"]}
    assert first["orders"] == {
        "ENGLAND": ["F NTH C A LON - BEL", "A LON - BEL"],
        "FRANCE": ["A COL S EAS - TAM"],
    }
    # A retreat is "R"; a "remove" of a unit the record does not list as dislodged is moot.
    assert retreat["dislodged"] == {"FRANCE": ["F BEL"]}
    assert retreat["orders"] == {"FRANCE": ["F BEL R PIC"]}
    assert builds["orders"] == {"FRANCE": ["F PAR B"]}
    with pytest.raises(tool.RecordError, match="line outside POSITIONS"):
        tool.parse_game("PHASE 1901 Spring Movement\n\tlon hold\n", "bad.txt")
