"""Replaying godip's recorded games (``tests/godip_games``, written by ``tools/godip_games.py``).

A game is replayed as one chain: its first recorded position is set up, each recorded phase's
orders are ruled, phases godip skipped (nothing recorded between two records) are ruled with no
orders, and the position reached must equal the next record's (units, dislodged units, centre
owners). After a disagreement the chain starts again from the next recorded movement phase, so
that one departure is reported once and does not hide the rest of the game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from diplo import Map, Phase, Position, Rules, process_phase
from diplo.model.variants import load_map

DATA = Path(__file__).parent / "godip_games"

#: godip's season and phase type on the standard calendar -> diplo's season and phase kind.
_CALENDAR = {
    ("Spring", "Movement"): ("S", "M"),
    ("Spring", "Retreat"): ("S", "R"),
    ("Fall", "Movement"): ("F", "M"),
    ("Fall", "Retreat"): ("F", "R"),
    ("Fall", "Adjustment"): ("W", "A"),
}


def variants() -> list[str]:
    return sorted(p.stem for p in DATA.glob("*.json"))


def load(variant: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((DATA / f"{variant}.json").read_text())
    return doc


def phase_of(godip_phase: str, game_map: Map | None = None) -> Phase:
    """diplo's phase for godip's name of it; on a map with a calendar of its own (hundred's
    one "Year" season) the Spring and the Fall are told apart by the year."""
    year, season, kind = godip_phase.split()
    if (season, kind) in _CALENDAR:
        diplo_season, diplo_kind = _CALENDAR[(season, kind)]
        return Phase(int(year), diplo_season, diplo_kind)  # type: ignore[arg-type]
    assert game_map is not None, f"{godip_phase}: a season of a map's own calendar"
    calendar, first = game_map.calendar, Phase.parse(game_map.first_phase)
    cycle = calendar.years_to_fall + calendar.years_to_spring
    spring = (int(year) - first.year) % cycle == 0
    if kind == "Adjustment":
        return Phase(int(year), "W", "A")
    return Phase(int(year), "S" if spring else "F", "M" if kind == "Movement" else "R")


def _unit_set(units: Mapping[str, list[str]]) -> set[tuple[str, str]]:
    return {(power, unit) for power, listed in units.items() for unit in listed}


@dataclass(frozen=True)
class Board:
    """What a record and a position are compared on."""

    phase: str
    units: frozenset[tuple[str, str]]
    dislodged: frozenset[tuple[str, str]]
    centers: frozenset[tuple[str, str]]

    @classmethod
    def of_record(cls, record: Mapping[str, Any], game_map: Map | None = None) -> Board:
        return cls(
            str(phase_of(record["godip_phase"], game_map)),
            frozenset(_unit_set(record["units"])),
            frozenset(_unit_set(record.get("dislodged", {}))),
            frozenset(_unit_set(record["centers"])),
        )

    @classmethod
    def of_position(cls, position: Position) -> Board:
        return cls(
            str(position.phase),
            frozenset((p.power, str(p)) for p in position.units.values()),
            frozenset((d.piece.power, str(d.piece)) for d in position.dislodged.values()),
            frozenset((power, prov) for prov, power in position.centers.items()),
        )

    def differences(self, other: Board) -> str:
        parts = []
        for name in ("units", "dislodged", "centers"):
            mine, theirs = getattr(self, name), getattr(other, name)
            if mine != theirs:
                parts.append(
                    f"{name}: diplo has {sorted(mine - theirs)}, godip {sorted(theirs - mine)}"
                )
        return "; ".join(parts)


def start(record: Mapping[str, Any], game_map: Map, rules: str | None = None) -> Position:
    """The recorded position, under the map's rules or ``rules`` (a rules text such as
    ``edition=godip``)."""
    doc: dict[str, Any] = {
        "phase": str(phase_of(record["godip_phase"], game_map)),
        "units": record["units"],
        "centers": record["centers"],
    }
    if rules is not None:
        doc["rules"] = Rules.parse(rules, game_map.rules).to_json()
    return Position.from_json(doc, game_map, "godip record")


@dataclass
class Replay:
    """What replaying one game found: records compared, and each disagreement."""

    checked: int = 0
    #: Records after a disagreement not compared until the next movement phase restarts the chain.
    skipped: int = 0
    disagreements: list[tuple[str, str]] = field(default_factory=list)


def replay(
    game: Mapping[str, Any], game_map: Map, backend: str, rules: str | None = None
) -> Replay:
    """Replay one recorded game on ``backend`` (see the module docstring), under the map's
    rules or ``rules`` (a rules text)."""
    found = Replay()
    records = game["phases"]
    position: Position | None = None
    for number, record in enumerate(records):
        wanted = Board.of_record(record, game_map)
        target = phase_of(record["godip_phase"], game_map).sequence()
        if position is not None:
            while position.phase.sequence() < target:
                position = process_phase(position, {}, backend).next
            reached = Board.of_position(position)
            found.checked += 1
            if position.phase.sequence() > target:
                # diplo skips a retreat phase in which no unit can retreat (its dislodged units
                # are disbanded at once); godip records it, with the board already without them
                # and, in the fall, the centres not yet changed hands (checked at the next record).
                if reached.units != wanted.units:
                    found.disagreements.append((record["godip_phase"], reached.differences(wanted)))
                    position = None
                continue
            if reached != wanted:
                found.disagreements.append((record["godip_phase"], reached.differences(wanted)))
                position = None
        elif number > 0:
            found.skipped += 1
        if position is None:
            if number > 0 and phase_of(record["godip_phase"], game_map).kind != "M":
                continue
            position = start(record, game_map, rules)
        position = process_phase(position, record["orders"], backend).next
    return found


def map_of(variant: str) -> Map:
    return load_map(variant)
