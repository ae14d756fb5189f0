"""A map's calendar: the years its seasons fall in and what they are called.

Every map plays the same phases, Spring movement and retreats, Fall movement and retreats, then
the Winter adjustments (when a power can build or must disband); centres change hands after the
Fall. What a map may change is when: ``years_to_fall`` years pass from a Spring to its Fall (0
on the standard map) and ``years_to_spring`` from a Fall to the next Spring (1), and what the
seasons are called. godip's hundred plays one season a decade, "Year": a Spring in a year ending
in 5, its Fall five years later, the next Spring five years after that (``years_to_fall=5``,
``years_to_spring=5``, every season named ``Year``), so its adjustments and its centres' changes
of owner fall in the years ending in 0.

A map file gives it as ``"calendar": {"years_to_fall": 5, "years_to_spring": 5, "names":
{"S": "Year", "F": "Year", "W": "Year"}}`` (every key optional). Both engines read the two
numbers (``CodeMap(calendar=...)`` in Rust); the names are for people (phase descriptions).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .limits import MAX_YEAR

__all__ = ["MAX_STEP", "STANDARD", "Calendar", "max_year_of", "read_calendar"]

#: The most years one step of a calendar may take (``MAX_CALENDAR_STEP`` in Rust).
MAX_STEP = 100
_NAME_RE = re.compile(r"[A-Za-z][A-Za-z '-]{0,19}")
_SEASONS = ("S", "F", "W")


@dataclass(frozen=True)
class Calendar:
    """When a map's seasons fall (see the module docstring)."""

    years_to_fall: int = 0
    years_to_spring: int = 1
    #: The names of the Spring, the Fall and the Winter.
    names: tuple[str, str, str] = ("Spring", "Fall", "Winter")

    def season_name(self, season: str) -> str:
        """What the map calls a season (``S``, ``F`` or ``W``)."""
        return self.names[_SEASONS.index(season)]

    @property
    def last_year(self) -> int:
        """The last year a game on this calendar plays: every phase of it and of the years
        before has its next phase within :data:`~diplo.model.limits.MAX_YEAR` (9998 on the
        standard calendar, whose final board is then the Spring of 9999). A game not ended
        sooner ends there as a draw, as at a ``max_year`` (``Game``, ``CodeGame`` and the
        engine's games alike)."""
        return MAX_YEAR - max(self.years_to_fall, self.years_to_spring)

    def check_start(self, year: int, where: str) -> None:
        """Refuse (``ValueError`` naming ``where``) a game starting in ``year`` when that is
        after :attr:`last_year`: it could play nothing."""
        if year > self.last_year:
            raise ValueError(
                f"{where}: the position is in {year}, after {self.last_year}, the last year a "
                f"game on this map plays (every phase's next must stay within {MAX_YEAR})"
            )

    def fall_year(self, spring_year: int) -> int:
        """The year of the Fall after a Spring of ``spring_year``."""
        return spring_year + self.years_to_fall

    def spring_year(self, fall_year: int) -> int:
        """The year of the Spring after a Fall (or Winter) of ``fall_year``."""
        return fall_year + self.years_to_spring

    @property
    def is_standard(self) -> bool:
        return self == STANDARD

    def to_json(self) -> dict[str, Any]:
        return {
            "years_to_fall": self.years_to_fall,
            "years_to_spring": self.years_to_spring,
            "names": dict(zip(_SEASONS, self.names, strict=True)),
        }


#: The standard calendar: Spring and Fall of one year, then the next year's Spring.
STANDARD = Calendar()


def read_calendar(raw: object) -> Calendar:
    """A calendar from a map file's ``calendar`` value; ``ValueError`` naming the field."""
    if raw is None:
        return STANDARD
    if not isinstance(raw, Mapping):
        raise ValueError("'calendar' must be an object")
    unknown = sorted(str(k) for k in raw if k not in ("years_to_fall", "years_to_spring", "names"))
    if unknown:
        raise ValueError(f"calendar: unknown key(s) {', '.join(map(repr, unknown))}")
    steps = []
    for key, default in (("years_to_fall", 0), ("years_to_spring", 1)):
        value = raw.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_STEP:
            raise ValueError(f"calendar: {key!r} must be a number of years from 0 to {MAX_STEP}")
        steps.append(value)
    if steps == [0, 0]:
        raise ValueError("calendar: 'years_to_fall' and 'years_to_spring' cannot both be 0")
    names_raw = raw.get("names", {})
    if not isinstance(names_raw, Mapping):
        raise ValueError("calendar: 'names' must map S, F and W to season names")
    names = dict(zip(_SEASONS, STANDARD.names, strict=True))
    for key, name in names_raw.items():
        if key not in names:
            raise ValueError(f"calendar: names: {key!r} is not a season (S, F or W)")
        if not isinstance(name, str) or not _NAME_RE.fullmatch(name):
            raise ValueError(
                f"calendar: names: the name of {key} must be letters, spaces, ' or - "
                "(at most 20, starting with a letter)"
            )
        names[key] = name
    return Calendar(steps[0], steps[1], (names["S"], names["F"], names["W"]))


def max_year_of(years: int, first: int, calendar: Calendar = STANDARD) -> int:
    """The last year played by a game of ``years`` years (each a Spring and its Fall, as the
    map's calendar places them: ten calendar years each on godip's hundred) from ``first``
    (``--years``); raises ``ValueError`` naming ``--years`` when that is past the last year a
    game can be limited to."""
    cycle = calendar.years_to_fall + calendar.years_to_spring
    last = first + (years - 1) * cycle + calendar.years_to_fall
    if last > MAX_YEAR - 1:
        most = max(0, (MAX_YEAR - 1 - first - calendar.years_to_fall) // cycle + 1)
        raise ValueError(
            f"--years {years}: from {first} that plays to {last}, after {MAX_YEAR - 1} (the last "
            f"year a game can be limited to): at most {most} years"
        )
    return last
