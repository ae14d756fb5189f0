"""MILA's map query API (``diplomacy.Map``) for the drop-in.

:class:`Map` reads a map in MILA's ``.map`` format itself (the file of the installed ``diplomacy``
package when there is one, or a path) and answers MILA's queries about it as MILA does: ``locs``,
``loc_type``, ``area_type``, ``loc_abut``/``abut_list``, ``abuts``, ``is_valid_unit``,
``loc_coasts``/``find_coasts``, ``default_coast``, ``loc_name``, ``scs``, ``homes``, ``centers``,
``units``, ``powers``, ``first_year``, ``victory``, ``phase`` and the phase arithmetic. It is
pure data: maps over the engine's location limit (``modern``, ``world``, ...) answer too.
Without MILA's files a shipped diplo map is described in the same shapes from diplo's own data
(the lists then in diplo's order, not the file's).

Of MILA's word-level helpers only the map's own names are offered: ``aliases`` holds the names
and aliases the map file gives (MILA adds its built-in order vocabulary), and :meth:`Map.norm`
only upper-cases and spaces out punctuation.

:func:`mila_map_for` finds the diplo map a MILA game plays on (diplo's name or MILA's).
"""

from __future__ import annotations

import copy as _copy
import functools
import importlib.util
import json
from collections.abc import Callable, Iterable
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

from ..formats.mila import MILA_MAP_NAMES
from ..model.calendar import STANDARD
from ..model.map import SHIPPED_MAPS, MapError, map_named, standard_map
from ..model.map import Map as _DiploMap
from ..model.variants import load_mila_map

__all__ = [
    "Map",
    "mila_map_file",
    "mila_map_for",
    "reader_facts",
    "shipped_mila_maps",
    "shut_locations",
]

_FROM_MILA: Final = {mila: ours for ours, mila in MILA_MAP_NAMES.items()}
_SEASON_WORDS: Final = {"S": "SPRING", "F": "FALL", "W": "WINTER"}
_KIND_WORDS: Final = {"M": "MOVEMENT", "R": "RETREATS", "A": "ADJUSTMENTS"}
_SEQUENCE: Final = ("SM", "SR", "FM", "FR", "WA")
_TERRAINS: Final = ("WATER", "LAND", "COAST", "PORT", "SHUT")
#: The most ``MAP``/``USE`` inclusions followed (MILA's own variants use one).
_MAX_DEPTH: Final = 8


#: The fields of :class:`_Reader` that the shipped facts keep (``data/mila_maps.json``).
_READER_FIELDS: Final = (
    "locs", "loc_type", "loc_abut", "loc_name", "aliases", "homes", "centers", "units",
    "pow_name", "own_word", "abbrev", "rules", "owns", "dummies", "phase", "victory", "files",
)  # fmt: skip


def reader_facts(path: Path) -> dict[str, Any]:
    """The tables diplo's reader makes of a MILA ``.map`` file (what ``data/mila_maps.json``
    keeps per map; ``tools/mila_map_facts.py``)."""
    reader = _Reader()
    reader.read(path)
    return {key: getattr(reader, key) for key in _READER_FIELDS}


@lru_cache(maxsize=1)
def _shipped_facts() -> dict[str, Any]:
    """The facts of MILA's own maps shipped with diplo (``data/mila_maps.json``), by MILA's
    map name; empty when the file is absent."""
    try:
        text = resources.files("diplo").joinpath("data/mila_maps.json").read_text("utf-8")
    except (FileNotFoundError, OSError):
        return {}
    maps = json.loads(text).get("maps", {})
    return maps if isinstance(maps, dict) else {}


def shipped_mila_maps() -> tuple[str, ...]:
    """The names of MILA's maps whose facts diplo ships (MILA's 14)."""
    return tuple(sorted(_shipped_facts()))


@lru_cache(maxsize=64)
def mila_map_for(name: str) -> _DiploMap:
    """The diplo map of a MILA map name (``"standard_fleet_rome"``) or of a diplo name
    (``"fleet_rome"``), or of a MILA map diplo does not ship, read from MILA's ``.map`` file
    (installed, or a path) by :func:`diplo.model.variants.load_mila_map`; :class:`MapError` else."""
    try:
        return map_named(_FROM_MILA.get(name, name))
    except MapError:
        path = mila_map_file(name)
        if path is None and name in _shipped_facts():  # MILA's map, from the shipped facts
            return _DiploMap.from_dict(_shipped_facts()[name]["map"])
        if path is None:
            # The drop-in takes no 'maps': say what does work for a map diplo does not ship.
            raise MapError(
                f"unknown map {name!r}: give the path of a MILA .map file, or one of MILA's "
                f"maps ({', '.join(shipped_mila_maps())}) or diplo's ({', '.join(SHIPPED_MAPS)})"
            ) from None
        return load_mila_map(path)


def mila_map_file(name: str) -> Path | None:
    """The ``.map`` file of a MILA map name in the installed ``diplomacy`` package (not imported),
    or the path itself when ``name`` is one; ``None`` when there is none."""
    if name.endswith(".map") and Path(name).is_file():
        return Path(name)
    try:
        spec = importlib.util.find_spec("diplomacy")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for root in spec.submodule_search_locations:
        path = Path(root) / "maps" / f"{name}.map"
        if path.is_file():
            return path
    return None


class _Reader:
    """The directives of a MILA map file, read into MILA's tables (see :class:`Map`)."""

    def __init__(self) -> None:
        self.locs: list[str] = []
        self.loc_type: dict[str, str] = {}
        self.loc_abut: dict[str, list[str]] = {}
        self.loc_name: dict[str, str] = {}
        self.aliases: dict[str, str] = {}
        self.homes: dict[str, list[str]] = {}
        self.centers: dict[str, list[str]] = {}
        self.units: dict[str, list[str]] = {}
        self.pow_name: dict[str, str] = {}
        self.own_word: dict[str, str] = {}
        self.abbrev: dict[str, str] = {}
        self.rules: list[str] = []
        self.owns: list[str] = []
        self.dummies: list[str] = []
        self.phase: str | None = None
        self.victory: list[int] | None = None
        self.files: list[str] = []

    def read(self, path: Path, depth: int = 0) -> None:
        if depth > _MAX_DEPTH:
            raise MapError(f"{path.name}: MAP/USE lines nest deeper than {_MAX_DEPTH}")
        self.files.append(path.name)
        power: str | None = None
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            word = line.split()
            if not word or word[0][0] == "#":
                continue
            try:
                power = self._line(path, line, word, power, depth)
            except (IndexError, ValueError, KeyError) as exc:
                raise MapError(
                    f"{path.name}:{number}: cannot read {line.strip()!r} ({exc})"
                ) from None

    def _line(
        self, path: Path, line: str, word: list[str], power: str | None, depth: int
    ) -> str | None:
        up = word[0].upper()
        if up == "VICTORY":
            self.victory = [int(w) for w in word[1:]]
        elif up in ("USE", "USES", "MAP"):
            for name in word[1:]:
                file = name if "." in name else f"{name}.map"
                if file not in self.files:
                    self.read(path.parent / file, depth + 1)
        elif up == "BEGIN":
            self.phase = " ".join(word[1:]).upper()
        elif up in ("RULE", "RULES"):
            self.rules += line.upper().split()[1:]
        elif "=" in line:
            name, _, rest = line.upper().partition("=")
            names = rest.split()
            abbr = names[0]
            self.loc_name[name.strip()] = abbr
            self.aliases[_norm(name)] = abbr
            for alias in names[1:]:
                self.aliases.setdefault(_norm(alias.rstrip("?").replace("+", " ")), abbr)
        elif up in ("OWNS", "CENTERS") and power:
            if power not in self.owns:
                self.owns.append(power)
            self.centers[power] = line.upper().split()[1:]
        elif up in ("A", "F"):
            unit = " ".join(word).upper()
            if power and len(word) == 2:
                for units in self.units.values():
                    for have in [u for u in units if u[2:5] == unit[2:5]]:
                        units.remove(have)
                self.units.setdefault(power, []).append(unit)
        elif up in ("DUMMY", "DUMMIES"):
            self._dummies(word, power)
            if len(word) > 1:
                power = None
        elif up in _TERRAINS and len(word) > 1:
            self._terrain(word)
        elif up == "UNPLAYED":
            names = [_norm(w).replace(" ", "") for w in line.split()[1:] if w.strip(",")]
            goners = [power] if not names and power else names
            if names[:1] == ["ALL"]:
                goners = [p for p in self.homes if p != "UNOWNED"]
            for goner in goners:
                for table in (
                    self.pow_name,
                    self.own_word,
                    self.homes,
                    self.centers,
                    self.units,
                    self.abbrev,
                ):
                    table.pop(goner, None)
                self.owns = [p for p in self.owns if p != goner]
                self.dummies = [p for p in self.dummies if p != goner]
            power = None
        else:
            power = self._power(word)
        return power

    def _dummies(self, word: list[str], power: str | None) -> None:
        """``DUMMY`` (the power being read), ``DUMMY|DUMMIES POWER ...``, ``... ALL`` and
        ``... ALL EXCEPT POWER ...``: MILA's ``Map.dummies``, in the order named."""
        names = [_norm(w).replace(" ", "") for w in word[1:]]
        if not names:
            named = [power] if power else []
        elif names[0] != "ALL":
            named = names
        else:
            kept = set(names[2:]) | {"UNOWNED"}
            self.dummies = []
            named = [p for p in self.homes if p not in kept]
        self.dummies.extend(p for p in dict.fromkeys(named) if p not in self.dummies)

    def _terrain(self, word: list[str]) -> None:
        place, other = word[1], word[1].swapcase()
        if other in self.locs:
            self.locs.remove(other)
            self.loc_type.pop(other, None)
            self.loc_abut.pop(other, None)
        if place in self.locs:
            self.locs.remove(place)
        self.locs.append(place)
        self.loc_type[place] = word[0].upper()
        if len(word) > 2:
            self.loc_abut[place] = []
        for dest in word[3:]:
            if dest[0] == "-":
                self.loc_abut[place] = [
                    s for s in self.loc_abut[place] if not s.upper().startswith(dest[1:].upper())
                ]
            else:
                self.loc_abut[place].append(dest)

    def _power(self, word: list[str]) -> str | None:
        up = word[0].upper()
        if up in ("NEUTRAL", "CENTERS"):
            up = "UNOWNED"
        power = None if up == "UNOWNED" else _norm(up).replace(" ", "")
        key = power or up
        rest = word[1:]
        if power and not self.pow_name.get(power):
            self.pow_name[power] = up
            self.aliases.setdefault(power, power)
        if power and rest and rest[0].startswith("("):
            own = rest[0][1:-1] or power
            if ":" in own:
                owner, letter = own.split(":", 1)
                own = owner or power
                self.abbrev[key] = letter[:1].upper()
            self.own_word[key] = own
            self.aliases.setdefault(_norm(own), power)
            rest = rest[1:]
        else:
            self.own_word.setdefault(key, key)
        self._add_homes(key, rest)
        return power

    def _add_homes(self, power: str, homes: Iterable[str]) -> None:
        self.homes.setdefault(power, [])
        self.homes.setdefault("UNOWNED", [])
        for home in " ".join(homes).upper().split():
            remove = home.startswith("-")
            home = home.lstrip("-")
            if not home:
                continue
            if home in self.homes[power]:
                self.homes[power].remove(home)
            if power != "UNOWNED":
                self.homes["UNOWNED"].append(home)
            if not remove:
                self.homes[power].append(home)


#: The most answers a map keeps per query (``abuts``, ``norm``).
_SEEN_LIMIT = 1 << 16


def _norm(phrase: str) -> str:
    text = phrase.upper().replace("/", " /").replace(" / ", "")
    for token in ".:-+,":
        text = text.replace(token, " ")
    for token in "|*?!~()[]=_^":
        text = text.replace(token, f" {token} ")
    return " ".join(text.split())


class Map:
    """MILA's ``diplomacy.Map`` over a map: a MILA map name (``"standard"``,
    ``"standard_fleet_rome"``, ``"modern"``, ...), diplo's name of a shipped map, or the path of
    a ``.map`` file. Raises :class:`diplo.model.map.MapError` for a name with neither."""

    def __init__(self, name: str = "standard") -> None:
        if not isinstance(name, str):
            raise TypeError(f"Map: name must be a string, got {type(name).__name__}")
        self.name = name
        mila_name = MILA_MAP_NAMES.get(name, name)
        path = mila_map_file(mila_name)
        reader = _Reader()
        #: When the seasons fall: a MILA file's are the standard ones, a diplo map's its own
        #: (godip's hundred: a Spring every ten years, its Fall five years later).
        self._calendar = STANDARD
        shipped = _shipped_facts().get(mila_name) if path is None else None
        if path is not None:
            reader.read(path)
        elif shipped is not None:  # MILA's own map, from the facts diplo ships
            for key in _READER_FIELDS:
                setattr(reader, key, _copy.deepcopy(shipped["tables"][key]))
        else:
            game_map = mila_map_for(name)
            self._calendar = game_map.calendar
            _describe(game_map, reader)
        self._finish(reader)
        self.error: list[str] = []
        #: The answers of ``abuts`` (unit type -> location -> order type -> other location)
        #: and ``norm`` given so far (a harness asks the same ones every phase), at most
        #: :data:`_SEEN_LIMIT` each.
        self._abuts_seen: dict[str, dict[str, dict[str, dict[str, int]]]] = {}
        self._norms_seen: dict[str, str] = {}
        self.abuts = self._seen_abuts()  # type: ignore[method-assign,assignment]
        self.norm = self._seen_norm()  # type: ignore[method-assign,assignment]

    def _seen_abuts(self) -> Callable[[str, str, str, str], int]:
        """:meth:`abuts` answering again from the answers given (an instance's attribute: a
        plain function, no method bound per call). Every location's neighbours are answered
        here, as the map is made (as MILA's ``Map`` makes its ``abuts_cache``), so that the
        first call a harness makes costs what the others do."""
        seen, anew = self._abuts_seen, self._abuts_full
        kept = [0]
        answer = self._abuts_anew
        for loc in self.loc_coasts:
            for near in {n.upper() for n in self.abut_list(loc, incl_no_coast=True)}:
                for order in "-SC":
                    army = answer("A", loc, order, near)
                    fleet = answer("F", loc, order, near)
                    for unit_type, known in (("A", army), ("F", fleet), ("?", army or fleet)):
                        by_loc = seen.setdefault(unit_type, {}).setdefault(loc, {})
                        by_loc.setdefault(order, {})[near] = known
                        kept[0] += 1

        def keep(unit_type: str, unit_loc: str, order_type: str, other_loc: str) -> int:
            known = anew(unit_type, unit_loc, order_type, other_loc)
            if kept[0] < _SEEN_LIMIT and all(
                type(x) is str for x in (unit_type, unit_loc, order_type, other_loc)
            ):
                by_loc = seen.setdefault(unit_type, {}).setdefault(unit_loc, {})
                by_loc.setdefault(order_type, {})[other_loc] = known
                kept[0] += 1
            return known

        def abuts(unit_type: str, unit_loc: str, order_type: str, other_loc: str) -> int:
            try:
                return seen[unit_type][unit_loc][order_type][other_loc]
            except (KeyError, TypeError):  # TypeError: an unhashable argument
                pass
            return keep(unit_type, unit_loc, order_type, other_loc)

        abuts.__doc__ = Map.abuts.__doc__
        return abuts

    def _seen_norm(self) -> Callable[[str], str]:
        """:meth:`norm` answering again from the answers given."""
        seen = self._norms_seen

        def norm(phrase: str) -> str:
            done = seen.get(phrase)
            if done is None:
                done = _norm(phrase)
                if len(seen) < _SEEN_LIMIT and type(phrase) is str:
                    seen[phrase] = done
            return done

        norm.__doc__ = Map.norm.__doc__
        return norm

    def _finish(self, r: _Reader) -> None:
        self.locs = r.locs
        self.loc_type = r.loc_type
        self.loc_abut = r.loc_abut
        self.loc_name = r.loc_name
        self.aliases = r.aliases
        self.pow_name = r.pow_name
        self.own_word = r.own_word
        self.abbrev = r.abbrev
        self.rules = r.rules
        self.units = r.units
        self.dummies = r.dummies
        self.victory = r.victory
        self.files = r.files
        self.unit_names = {"A": "ARMY", "F": "FLEET"}
        homes = r.homes
        self.powers: list[str] = sorted(p for p in homes if p != "UNOWNED")
        scs: list[str] = []
        for power, places in homes.items():
            for site in places:
                if site not in scs:
                    scs.append(site)
                if power != "UNOWNED" and site in homes.get("UNOWNED", []):
                    homes["UNOWNED"].remove(site)
        for owned in r.centers.values():
            scs.extend(c for c in owned if c not in scs)
        centers = dict(r.centers)
        for power in self.powers:
            if power not in r.owns:
                centers[power] = homes[power][:]
        homes.pop("UNOWNED", None)
        self.homes = homes
        self.scs = scs
        self.centers = centers
        self.phase = r.phase or "SPRING 1901 MOVEMENT"
        self.first_year = int(self.phase.split()[1])
        self.loc_coasts: dict[str, list[str]] = {}
        for loc in self.locs:
            self.loc_coasts[loc.upper()] = [
                other.upper() for other in self.locs if loc.upper()[:3] == other.upper()[:3]
            ]
        self._upper_types = {k.upper(): v for k, v in self.loc_type.items()}

    @functools.cached_property
    def dest_with_coasts(self) -> dict[str, list[str]]:
        """Location -> every location next to it, each coast of a neighbour included (MILA's
        ``Map.dest_with_coasts``; MILA lists them in no set order, here sorted)."""
        out: dict[str, list[str]] = {}
        for loc in self.locs:
            near = {n.upper() for n in self.abut_list(loc.upper(), incl_no_coast=True)}
            out[loc.upper()] = sorted({c for n in near for c in self.find_coasts(n)})
        return out

    # ------------------------------------------------------------------ locations

    def area_type(self, loc: str) -> str | None:
        """``'WATER'``, ``'COAST'``, ``'PORT'``, ``'LAND'``, ``'SHUT'``, or ``None``."""
        return self.loc_type.get(loc.upper()) or self.loc_type.get(loc.lower())

    def find_coasts(self, loc: str) -> list[str]:
        """The province's locations, coasts included (``['BUL/EC', 'BUL/SC', 'BUL']``)."""
        return self.loc_coasts.get(loc.upper(), [])

    def abut_list(self, site: str, incl_no_coast: bool = False) -> list[str]:
        """The neighbours of ``site`` as the map file writes them (upper case: both unit types,
        lower case: armies only, capitalised: fleets only); with ``incl_no_coast`` a coast's
        province is added after its coasts."""
        abuts = self.loc_abut.get(site, None)
        if abuts is None:
            abuts = self.loc_abut.get(site.lower(), [])
        if incl_no_coast:
            abuts = abuts[:]
            for loc in list(abuts):
                if "/" in loc and loc[:3] not in abuts:
                    abuts.append(loc[:3])
        return abuts

    def is_valid_unit(
        self, unit: str, no_coast_ok: int | bool = 0, shut_ok: int | bool = 0
    ) -> bool:
        """Whether ``unit`` (``"A PAR"``, ``"F STP/SC"``) can stand where it is written."""
        words = str(unit).upper().split()
        if len(words) != 2:
            return False
        unit_type, loc = words
        area = self.area_type(loc)
        if area == "SHUT":
            return bool(shut_ok)
        if unit_type == "?":
            return area is not None
        if unit_type == "A":
            return "/" not in loc and area in ("LAND", "COAST", "PORT")
        return (
            unit_type == "F"
            and area in ("WATER", "COAST", "PORT")
            and bool(no_coast_ok or loc.lower() not in self.loc_abut)
        )

    def abuts(self, unit_type: str, unit_loc: str, order_type: str, other_loc: str) -> int:
        """1 when a ``unit_type`` unit (``'A'``, ``'F'``, ``'?'`` for either) at ``unit_loc``
        can move to (``'-'``), support into (``'S'``) or convoy to (``'C'``) ``other_loc``,
        else 0."""
        return self._abuts_anew(unit_type, unit_loc, order_type, other_loc)

    def _abuts_full(self, unit_type: str, unit_loc: str, order_type: str, other_loc: str) -> int:
        """:meth:`abuts` worked out (``'?'`` for either unit type), nothing kept."""
        return Map.abuts(self, unit_type, unit_loc, order_type, other_loc)

    def _abuts_anew(self, unit_type: str, unit_loc: str, order_type: str, other_loc: str) -> int:
        if unit_type == "?":
            return self._abuts("A", unit_loc, order_type, other_loc) or self._abuts(
                "F", unit_loc, order_type, other_loc
            )
        return self._abuts(unit_type, unit_loc, order_type, other_loc)

    def _abuts(self, unit_type: str, unit_loc: str, order_type: str, other_loc: str) -> int:
        unit_loc, other_loc = unit_loc.upper(), other_loc.upper()
        if not self.is_valid_unit(f"{unit_type} {unit_loc}"):
            return 0
        if "/" in other_loc:
            if order_type == "S":
                other_loc = other_loc[:3]
            elif unit_type == "A":
                return 0
        written = None
        for place in self.abut_list(unit_loc):
            if other_loc in (place.upper(), place.upper()[:3]):
                written = place
                break
        if written is None:
            return 0
        other_type = self.area_type(other_loc)
        if other_type == "SHUT":
            return 0
        if unit_type == "F":
            if (
                other_type == "LAND"
                or written[0] != written.upper()[0]
                or (order_type != "S" and other_loc not in self.loc_type)
            ):
                return 0
        elif order_type != "C" and (other_type == "WATER" or written == written.title()):
            return 0
        return 1

    def default_coast(self, word: list[str]) -> list[str]:
        """``['F', 'GRE', '-', 'BUL']`` with the one coast the fleet can reach
        (``['F', 'GRE', '-', 'BUL/SC']``); unchanged when there is none or more than one."""
        if len(word) == 4 and word[0] == "F" and word[2] == "-" and "/" not in word[3]:
            dest, single = word[3], None
            for place in self.abut_list(word[1]):
                up = place.upper()
                if dest == up:
                    return word
                if dest == up[:3]:
                    if single:
                        return word
                    single = up
            word[3] = single or dest
        return word

    def norm(self, phrase: str) -> str:
        """The phrase upper-cased with punctuation spaced out (MILA's also applies its order
        vocabulary, which is not offered)."""
        return _norm(phrase)

    def norm_power(self, power: str) -> str:
        return _norm(power).replace(" ", "")

    # ------------------------------------------------------------------ phases

    @staticmethod
    def phase_abbr(phase: str, default: str = "?????") -> str:
        """``'SPRING 1901 MOVEMENT'`` -> ``'S1901M'``."""
        words = str(phase).split()
        if len(words) == 3:
            return f"{words[0][0]}{words[1]}{words[2][0]}".upper()
        return default

    def phase_long(self, phase_abbr: str, default: str = "?????") -> str:
        """``'S1901M'`` -> ``'SPRING 1901 MOVEMENT'``."""
        text = str(phase_abbr).upper()
        try:
            return f"{_SEASON_WORDS[text[0]]} {int(text[1:-1])} {_KIND_WORDS[text[-1]]}"
        except (KeyError, ValueError, IndexError):
            return default

    def compare_phases(self, phase1: str, phase2: str) -> int:
        """-1, 0 or 1 as ``phase1`` comes before, with or after ``phase2`` (short or long names,
        ``FORMING`` first and ``COMPLETED`` last)."""
        a, b = _phase_key(phase1), _phase_key(phase2)
        return (a > b) - (a < b)

    def find_next_phase(self, phase: str, phase_type: str | None = None, skip: int = 0) -> str:
        """The phase after ``phase`` (long name), of ``phase_type`` when given, ``skip`` such
        phases further on."""
        return self._step(phase, phase_type, skip, 1)

    def find_previous_phase(self, phase: str, phase_type: str | None = None, skip: int = 0) -> str:
        return self._step(phase, phase_type, skip, -1)

    def _step(self, phase: str, phase_type: str | None, skip: int, sign: int) -> str:
        short = self.phase_abbr(phase, "") if " " in str(phase) else str(phase).upper()
        if len(short) < 3 or f"{short[0]}{short[-1]}" not in _SEQUENCE:
            return str(phase)
        year, at = int(short[1:-1]), _SEQUENCE.index(f"{short[0]}{short[-1]}")
        to_fall, to_spring = self._calendar.years_to_fall, self._calendar.years_to_spring
        left = skip
        while True:
            at += sign
            if at == len(_SEQUENCE):
                at, year = 0, year + to_spring
            elif at < 0:
                at, year = len(_SEQUENCE) - 1, year - to_spring
            elif (sign, at) in ((1, 2), (-1, 1)):
                # Between the Spring and the Fall (SR -> FM and back).
                year += sign * to_fall
            code = _SEQUENCE[at]
            if phase_type is None or code[1] == phase_type:
                if left == 0:
                    return self.phase_long(f"{code[0]}{year}{code[1]}")
                left -= 1

    def __repr__(self) -> str:
        return f"<diplo.compat.mila.Map {self.name}>"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Map, (self.name,))


def _describe(game_map: _DiploMap, r: _Reader) -> None:
    """A diplo map in MILA's tables (when MILA's own file is not at hand)."""
    r.phase = (
        f"{_SEASON_WORDS[game_map.first_phase[0]]} {game_map.first_phase[1:-1]} "
        + (_KIND_WORDS[game_map.first_phase[-1]])
    )
    for prov in game_map.provinces:
        coasts = game_map.coasts_of(prov)
        sea, land = game_map.is_sea(prov), game_map.is_land(prov)
        kind = "WATER" if sea else "LAND" if land and not game_map.is_coastal(prov) else "COAST"
        if kind == "COAST" and prov in game_map.ports:
            kind = "PORT"
        army = game_map.army_neighbours(prov) if not sea else frozenset()
        if coasts:  # MILA: the province in lower case, for armies; each coast, for fleets
            name = prov.lower()
            fleet_provs = {
                game_map.province_of(x) for c in coasts for x in game_map.fleet_neighbours(c)
            }
            abuts = sorted(army | fleet_provs)
            for coast in coasts:
                r.locs.append(coast)
                r.loc_type[coast] = "COAST"
                r.loc_abut[coast] = sorted(game_map.fleet_neighbours(coast))
        else:
            name = prov
            fleet = game_map.fleet_neighbours(prov) if kind != "LAND" else frozenset()
            fleet_by_prov: dict[str, list[str]] = {}
            for loc in fleet:
                fleet_by_prov.setdefault(game_map.province_of(loc), []).append(loc)
            abuts = []
            for other in sorted(army | set(fleet_by_prov)):
                locs = sorted(fleet_by_prov.get(other, []))
                coastal = not game_map.is_sea(other) and (
                    game_map.is_coastal(other) or bool(game_map.coasts_of(other))
                )
                if locs:
                    fleet_only = (
                        kind != "WATER"
                        and other not in army
                        and coastal
                        and not game_map.coasts_of(other)
                    )
                    abuts.extend(loc.title() if fleet_only else loc for loc in locs)
                elif kind == "COAST" and coastal:
                    abuts.append(other.lower())  # armies only, between two coastal provinces
                else:
                    abuts.append(other)
        r.locs.insert(len(r.locs) - len(coasts), name)
        r.loc_type[name] = kind
        r.loc_abut[name] = abuts
    _describe_names(game_map, r)
    for power in game_map.powers:
        r.pow_name[power] = power
        r.own_word[power] = game_map.adjectives.get(power, power)
        r._add_homes(power, game_map.homes.get(power, ()))
        r.units[power] = [f"{t} {loc}" for t, loc in game_map.starting_units.get(power, ())]
    r.dummies = [p for p in game_map.powers if p in game_map.dummies]
    neutral = sorted(
        c for c in game_map.centers if not any(c in h for h in game_map.homes.values())
    )
    r._add_homes("UNOWNED", neutral)


#: The words of a coast in MILA's names ("ST PETERSBURG (NORTH COAST)").
_COAST_WORDS: Final = {"NC": "NORTH", "SC": "SOUTH", "EC": "EAST", "WC": "WEST"}

#: MILA's impassable provinces (``SHUT``) of the standard board, which diplo's map leaves out
#: (no unit may enter them): Switzerland and the provinces it touches, as MILA's
#: ``standard.map`` lists them. A fact of MILA's map, so that ``game.map`` answers as MILA's
#: does when its file is not installed.
_STANDARD_SHUT: Final = {"SWI": ("Switzerland", ("MAR", "BUR", "MUN", "TYR", "PIE"))}


@lru_cache(maxsize=64)
def shut_locations(game_map: _DiploMap) -> tuple[str, ...]:
    """MILA's impassable locations of a diplo map (``("SWI",)`` on the standard board, else
    none): listed by MILA's ``get_all_possible_orders`` with no orders."""
    return tuple(_STANDARD_SHUT) if set(game_map.provinces) == _standard_provinces() else ()


@lru_cache(maxsize=1)
def _standard_provinces() -> frozenset[str]:
    return frozenset(standard_map().provinces)


def _describe_names(game_map: _DiploMap, r: _Reader) -> None:
    """MILA's names of a diplo map: ``loc_name`` (each province's and coast's full name) and
    ``aliases`` (those and diplo's aliases, as MILA normalises them), and on the standard board
    the impassable Switzerland."""
    for prov, info in game_map.provinces.items():
        name = info.name.upper()
        r.loc_name[name] = prov
        r.aliases[_norm(name)] = prov
        for alias in info.aliases:
            r.aliases.setdefault(_norm(alias.upper()), prov)
        for coast in info.coasts:
            coast_name = f"{name} ({_COAST_WORDS.get(coast, coast)} COAST)"
            r.loc_name[coast_name] = f"{prov}/{coast}"
            r.aliases.setdefault(_norm(coast_name), f"{prov}/{coast}")
    for prov in shut_locations(game_map):
        full, around = _STANDARD_SHUT[prov]
        r.locs.append(prov)
        r.loc_type[prov] = "SHUT"
        r.loc_abut[prov] = list(around)
        r.loc_name[full.upper()] = prov
        r.aliases[_norm(full.upper())] = prov
        for other in around:
            r.loc_abut[other].append(prov)


@lru_cache(maxsize=512)
def _phase_key(phase: str) -> tuple[int, int]:
    text = str(phase).upper()
    words = text.split()
    if len(words) == 3:
        text = f"{words[0][0]}{words[1]}{words[2][0]}"
    if text == "COMPLETED":
        return (10**9, 0)
    if text == "FORMING":
        return (-(10**9), 0)
    try:
        return (int(text[1:-1]), _SEQUENCE.index(f"{text[0]}{text[-1]}"))
    except ValueError:
        return (0, 0)
