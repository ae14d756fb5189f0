"""The map file's schema: the keys a map file may hold, the forms of its names, and the checks
that refuse a bad entry with a :class:`MapError` naming it (read by :class:`diplo.model.map.Map`).
"""

from __future__ import annotations

import re
import reprlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

__all__ = [
    "ABBR_RE",
    "COAST_RE",
    "FIRST_PHASE_RE",
    "KINDS",
    "POWER_KEYS",
    "POWER_RE",
    "PROVINCE_KEYS",
    "REQUIRED_KEYS",
    "TOP_KEYS",
    "UNIT_RE",
    "MapError",
    "Province",
    "ProvinceKind",
    "UnitType",
    "check_keys",
    "is_str",
    "require",
    "show",
    "str_list",
]

ProvinceKind = Literal["land", "coast", "sea"]
UnitType = Literal["A", "F"]

KINDS: frozenset[str] = frozenset({"land", "coast", "sea"})
ABBR_RE = re.compile(r"[A-Z][A-Z0-9]*")
POWER_RE = re.compile(r"[A-Z][A-Z0-9_-]*")
FIRST_PHASE_RE = re.compile(r"[SF](?:0|[1-9][0-9]{0,3})M|W(?:0|[1-9][0-9]{0,3})A")

# A coast code: two letters (NC, SC, EC, WC) or, for a coast that is no compass point, a word of
# up to eight (godip's vietnamwar: the Mekong's river coast, MEO/RIVER).
COAST_RE = re.compile(r"[A-Z]{2,8}")

UNIT_RE = re.compile(r"([AF]) (\S+)")

REQUIRED_KEYS = frozenset({"name", "powers", "provinces", "army_edges", "fleet_edges"})
#: ``army_one_way`` and ``fleet_one_way`` list edges a unit may cross in one direction only
#: (``[from, to]``), as godip's northseawars has them.
TOP_KEYS = REQUIRED_KEYS | {
    "victory",
    "first_phase",
    "source",
    "rules",
    "army_one_way",
    "fleet_one_way",
    "calendar",
    "start_armies",
}
PROVINCE_KEYS = frozenset({"abbr", "name", "type", "center", "coasts", "aliases", "port"})
#: ``centers``: the centres a power owns at the start when they are not its home centres
#: (godip's empiresandcoalitions: Spain's home Portugal starts neutral).
#: ``neutral``: the power is no player but the board's neutral units (godip's Neutral): they
#: hold, are never ordered, are disbanded when dislodged, build and disband nothing by the count
#: and win nothing; ``rebuild`` (neutral only): at each adjustment an army is raised in every
#: vacant centre the neutral power owns (godip's westernworld901 and sengoku).
#: ``dummy``: no player controls the power (MILA's ``DUMMY``, as known_world_901's
#: NEUTRAL-STATE). The rulings treat it as any power (it owns and counts its centres, may be
#: ordered, is in the draw: what MILA rules); ``diplo play`` gives it no orders and pictures
#: and game summaries show it as neutral.
POWER_KEYS = frozenset({"adjective", "homes", "units", "centers", "neutral", "rebuild", "dummy"})


class MapError(ValueError):
    """A map file that fails its checks, or a name or location the map does not know."""


@dataclass(frozen=True)
class Province:
    """One province. ``home`` is the power whose home centre it is (``None`` if nobody's)."""

    abbr: str
    name: str
    kind: ProvinceKind
    is_center: bool
    home: str | None
    coasts: tuple[str, ...]
    aliases: tuple[str, ...]
    #: A port: a coastal province whose fleet may convoy, as a fleet at sea does (MILA's
    #: ``PORT``, ancmed's Baleares).
    is_port: bool = False


_REPR = reprlib.Repr()
_REPR.maxstring = 40
_REPR.maxother = 40
_REPR.maxlist = _REPR.maxdict = 4
_REPR.maxlevel = 2


def show(value: object) -> str:
    """A short, bounded rendering of a bad value for an error message (never the whole input,
    and safe on deeply nested data)."""
    return _REPR.repr(value)


def is_str(value: object) -> bool:
    return isinstance(value, str)


def require(cond: bool, message: str) -> None:
    if not cond:
        raise MapError(message)


def str_list(value: object, what: str) -> list[str]:
    require(
        isinstance(value, list) and all(isinstance(v, str) for v in value),
        f"{what} must be a list of strings, got {show(value)}",
    )
    assert isinstance(value, list)
    return [str(v) for v in value]


def check_keys(entry: Mapping[str, Any], allowed: frozenset[str], what: str) -> None:
    # An unknown key is almost always a typo ("centre", "coast"); silently ignoring it would drop
    # the data it was meant to carry.
    unknown = sorted(str(k) for k in entry if k not in allowed)
    require(not unknown, f"{what}: unknown key(s) {', '.join(map(repr, unknown))}")
