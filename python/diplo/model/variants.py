"""Variants: the maps shipped with diplo, a reader for the MILA engine's ``.map`` files, and the
command line's options that choose a variant (``--map NAME|FILE``, ``--rules``, ``--years`` /
``--max-year``), read the same way by every subcommand that has them.

The shipped maps (:data:`diplo.model.map.SHIPPED_MAPS`, the table in
``docs/rules-and-variants.md``) are data files in ``diplo/data``, checked on load like any map:
``standard``, five variants read from MILA's map files (``pure``, ``fleet_rome``,
``france_austria``, ``germany_italy``, ``ancmed``) and godip's variants. :func:`load_map` takes a
shipped name, a diplo map file (``.json``) or a MILA map file (``.map``).

:func:`load_mila_map` reads the map format of the MILA engine (PyPI ``diplomacy``; the DPjudge
format it inherits) into a checked :class:`~diplo.model.map.Map`. What it reads:

* ``# comment`` lines and blank lines;
* ``Full Name = abbr alias ...``: a location's English name and its aliases;
* ``LAND|WATER|COAST|PORT|SHUT LOC ABUTS LOC ...``: a location, its terrain and its neighbours.
  An upper-case neighbour is reachable by both unit types (as the terrain allows), a lower-case
  one by armies only, a capitalised one (``Xyz``) by fleets only; a province with coasts is
  declared in lower case (``bul``) and its coasts as ``BUL/EC``. ``SHUT`` (impassable) locations
  are left out of the board. A ``PORT`` is a coastal province whose fleets may also convoy, such
  as ancmed's Baleares (``"port": true`` in diplo's map format);
* ``POWER (ADJECTIVE[:letter]) HOME ...`` followed by its starting units ``A LOC`` / ``F LOC``;
  ``UNOWNED|NEUTRAL|CENTERS CENTRE ...``: centres nobody owns at the start;
* ``UNPLAYED POWER, ...``: powers taken out of an included map (their home centres stay centres
  only where an ``UNOWNED`` line lists them, as in MILA);
* ``MAP|USE file``: another map file of the same directory, read in place (how MILA's
  ``standard_fleet_rome.map`` builds on ``standard.map``); each file is read at most once per
  map (a second include of it is refused), and all of them together hold at most
  ``MAX_MAP_BYTES``;
* ``BEGIN SPRING 1901 MOVEMENT``: the first phase; ``VICTORY n``: the centres for a solo win
  (default, as in MILA: more than half of them); ``RULE[S] BUILD_ANY``: the build-anywhere rule;
  ``DUMMY`` (after a power's lines: that power), ``DUMMY|DUMMIES POWER ...``, ``DUMMIES ALL``
  and ``DUMMIES ALL EXCEPT POWER ...``: powers no player controls (``"dummy": true``: the
  rulings count them as any power, as MILA does; ``diplo play`` leaves them unordered and
  pictures show them as neutral).

An adjacency only one end lists is one-way, as MILA reads it (a unit may move from the end that
lists it; diplo's ``army_one_way`` and ``fleet_one_way``). Anything else (``DROP``, ``AMEND``,
``OWNS``, ``INHABITS``, ``HOME``, renamed powers, other ``RULE`` names) is refused with a
:class:`~diplo.model.map.MapError` naming the file and line. Adjacencies are facts about the
published variant; the reader only changes their notation.
"""

from __future__ import annotations

import argparse
import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .limits import show
from .map import MAP_ALIASES, MAX_MAP_BYTES, SHIPPED_MAPS, Map, MapError, map_named, shipped_name
from .position import Position
from .rules import Rules
from .vocabulary import KEYWORDS

__all__ = [
    "MAP_HELP",
    "MAX_INCLUDE_DEPTH",
    "add_map_argument",
    "add_variant_arguments",
    "add_year_arguments",
    "first_year",
    "load_map",
    "load_mila_map",
    "map_argument",
    "mila_map_data",
    "variant_arguments",
]

#: How deeply ``MAP``/``USE`` lines may include other files (MILA's own variants use one level).
MAX_INCLUDE_DEPTH = 8

_TERRAIN = {"LAND": "land", "WATER": "sea", "COAST": "coast", "PORT": "port", "SHUT": "shut"}
_SEASONS = {"SPRING": "S", "FALL": "F", "AUTUMN": "F", "WINTER": "W"}
_KINDS = {"MOVEMENT": "M", "RETREATS": "R", "RETREAT": "R", "ADJUSTMENTS": "A", "ADJUSTMENT": "A"}
_KNOWN_RULES = {"BUILD_ANY": ("build_sites", "any")}
_UNSUPPORTED = frozenset(
    {"DROP", "AMEND", "OWNS", "INHABITS", "HOME", "HOMES", "UNITS", "NEWYEAR", "IFYEARDIV"}
)
_LOC_RE = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:/[A-Za-z]{2})?")
_ALIAS_RE = re.compile(r"[A-Za-z][A-Za-z .'-]*")


def load_map(name_or_path: str | Path) -> Map:
    """A shipped map by name (``"ancmed"``), or a map file: a MILA ``.map`` file or a diplo map
    (``.json``). Raises :class:`MapError` naming what is wrong."""
    if not isinstance(name_or_path, str | Path):
        raise MapError(f"a map is a shipped map's name or a file path, not {show(name_or_path)}")
    text = str(name_or_path)
    if isinstance(name_or_path, str) and shipped_name(text) is not None:
        return map_named(name_or_path)
    if "\x00" in text:
        raise MapError(f"unknown map {show(text)}: a file path holds no NUL character")
    path = Path(name_or_path)
    if path.exists() and not path.is_file():
        # A FIFO, a device or a folder: reading it could block forever or mean nothing.
        raise MapError(f"map {show(text)}: not a regular file (a map is read from a file)")
    if path.suffix.lower() == ".map":
        return load_mila_map(path)
    if path.suffix.lower() == ".json" or path.exists():
        return Map.load(path)
    close = difflib.get_close_matches(text.lower(), [*SHIPPED_MAPS, *MAP_ALIASES], n=3, cutoff=0.6)
    hint = f"; close names: {', '.join(close)}" if close else ""
    raise MapError(
        f"unknown map {text!r}: neither a shipped map ({', '.join(SHIPPED_MAPS)}) nor a file" + hint
    )


def load_mila_map(path: str | Path) -> Map:
    """Read a MILA ``.map`` file into a checked map (see the module documentation)."""
    data = mila_map_data(path)
    try:
        return Map.from_dict(data)
    except MapError as exc:
        raise MapError(f"{Path(path).name}: {exc}") from None


@dataclass
class _Location:
    declared: str  # as written: "bul" (a split province), "BUL/EC", "PAR"
    terrain: str  # land, sea, coast, port (a coast whose fleets may convoy), shut
    abuts: list[str]
    where: str  # file:line


@dataclass
class _Power:
    adjective: str
    homes: list[str]
    units: list[str] = field(default_factory=list)


@dataclass
class _Reader:
    locations: dict[str, _Location] = field(default_factory=dict)  # keyed by upper case
    names: list[tuple[str, list[str], str]] = field(default_factory=list)
    powers: dict[str, _Power] = field(default_factory=dict)
    unowned: list[str] = field(default_factory=list)
    victory: int | None = None
    first_phase: str | None = None
    rules: dict[str, Any] = field(default_factory=dict)
    current: str | None = None
    first_power: str | None = None  # where the first line read as a power's is ("bad.map:1")
    files: list[Path] = field(default_factory=list)
    #: Every file read so far (each is read once: an include of one already read is refused,
    #: so the expansion stays linear in the files' size), and their bytes in all.
    seen: set[Path] = field(default_factory=set)
    total: int = 0
    dummies: dict[str, str] = field(default_factory=dict)  # power -> where it was named

    def read(self, path: Path, depth: int) -> None:
        if depth > MAX_INCLUDE_DEPTH:
            raise MapError(f"{path.name}: included more than {MAX_INCLUDE_DEPTH} files deep")
        try:
            resolved = path.resolve()
            with path.open("rb") as handle:
                raw = handle.read(MAX_MAP_BYTES + 1)
        except OSError as exc:
            raise MapError(f"{path}: cannot read the map file ({exc.strerror or exc})") from None
        if resolved in self.files:
            raise MapError(f"{path.name}: includes itself (through {self.files[-1].name})")
        if resolved in self.seen:
            raise MapError(
                f"{path.name}: included a second time (through {self.files[-1].name}); "
                "each map file is read once"
            )
        if len(raw) > MAX_MAP_BYTES:
            raise MapError(f"{path.name}: larger than {MAX_MAP_BYTES} bytes, not a map file")
        self.total += len(raw)
        if self.total > MAX_MAP_BYTES:
            raise MapError(
                f"{path.name}: the map's files are larger than {MAX_MAP_BYTES} bytes in all"
            )
        self.seen.add(resolved)
        self.files.append(resolved)
        for number, line_bytes in enumerate(raw.split(b"\n"), 1):
            where = f"{path.name}:{number}"
            try:
                line = line_bytes.decode("utf-8")
            except UnicodeDecodeError:
                raise MapError(f"{where}: not UTF-8 text") from None
            self._line(line.strip(), where, path, depth)
        self.files.pop()

    def _line(self, line: str, where: str, path: Path, depth: int) -> None:
        if not line or line.startswith("#"):
            return
        if "=" in line:
            name, _, aliases = line.partition("=")
            if not name.strip():
                raise MapError(f"{where}: a name line needs a name before '='")
            self.names.append((name.strip(), aliases.split(), where))
            return
        words = line.split()
        head = words[0].upper()
        if head in _TERRAIN:
            self._location(words, where)
        elif head in ("A", "F"):
            self._unit(words, where)
        elif head in ("MAP", "USE", "USES"):
            if len(words) != 2:
                raise MapError(f"{where}: {head} takes one file name")
            name = words[1] if words[1].lower().endswith(".map") else words[1] + ".map"
            if "/" in name or "\\" in name or name.startswith("."):
                raise MapError(f"{where}: {head} names a file outside the map's directory")
            self.read(path.parent / name, depth + 1)
            self.current = None
        elif head == "VICTORY":
            try:
                counts = [int(w) for w in words[1:]]
            except ValueError:
                raise MapError(f"{where}: VICTORY takes numbers of centres") from None
            if not counts or counts[0] < 1:
                raise MapError(f"{where}: VICTORY takes a positive number of centres")
            self.victory = counts[0]
        elif head == "BEGIN":
            self._begin(words, where)
        elif head in ("RULE", "RULES"):
            for rule in words[1:]:
                known = _KNOWN_RULES.get(rule.upper())
                if known is None:
                    raise MapError(
                        f"{where}: rule {rule} is not supported "
                        f"(supported: {', '.join(_KNOWN_RULES)})"
                    )
                self.rules[known[0]] = known[1]
        elif head in ("DUMMY", "DUMMIES"):
            self._dummies(words, where)
        elif head == "UNPLAYED":
            self._unplayed(words, where)
        elif head in ("UNOWNED", "NEUTRAL", "CENTERS"):
            self.unowned.extend(w.upper() for w in words[1:])
            self.current = None
        elif head in _UNSUPPORTED or "->" in words:
            raise MapError(f"{where}: {words[0]} lines are not supported by diplo's reader")
        else:
            self._power(words, where)

    def _location(self, words: list[str], where: str) -> None:
        terrain = _TERRAIN[words[0].upper()]
        if len(words) < 2:
            raise MapError(f"{where}: {words[0]} needs a location")
        declared = words[1]
        if _LOC_RE.fullmatch(declared) is None:
            raise MapError(f"{where}: bad location {declared!r}")
        if len(words) > 2 and words[2].upper() != "ABUTS":
            raise MapError(f"{where}: expected ABUTS after {declared}, got {words[2]!r}")
        abuts = words[3:]
        for loc in abuts:
            if _LOC_RE.fullmatch(loc) is None:
                raise MapError(f"{where}: bad neighbour {loc!r}")
        key = declared.upper()
        if key in self.locations:
            raise MapError(
                f"{where}: {declared} is already declared at {self.locations[key].where}"
            )
        self.locations[key] = _Location(declared, terrain, abuts, where)

    def _unit(self, words: list[str], where: str) -> None:
        if self.current is None:
            raise MapError(f"{where}: a starting unit must follow its power's line")
        if len(words) != 2 or _LOC_RE.fullmatch(words[1]) is None:
            raise MapError(f"{where}: a unit line is like 'A PAR' or 'F STP/SC'")
        self.powers[self.current].units.append(f"{words[0].upper()} {words[1].upper()}")

    def _begin(self, words: list[str], where: str) -> None:
        if len(words) != 4:
            raise MapError(f"{where}: BEGIN is like 'BEGIN SPRING 1901 MOVEMENT'")
        season = _SEASONS.get(words[1].upper())
        kind = _KINDS.get(words[3].upper())
        if season is None or kind is None or not words[2].isdigit() or len(words[2]) > 4:
            raise MapError(f"{where}: BEGIN is like 'BEGIN SPRING 1901 MOVEMENT'")
        self.first_phase = f"{season}{int(words[2])}{kind}"

    def _dummies(self, words: list[str], where: str) -> None:
        head = words[0].upper()
        names = [_power_name(w) for w in words[1:] if w.strip(",")]
        if not names:
            if head == "DUMMIES" or self.current is None:
                raise MapError(f"{where}: a bare DUMMY follows a power's lines; else name powers")
            self.dummies.setdefault(self.current, where)
            return
        self.current = None
        if names[0] == "ALL":
            if names[1:2] not in ([], ["EXCEPT"]) or names[1:] == ["EXCEPT"]:
                raise MapError(f"{where}: {head} ALL is followed by nothing or EXCEPT and powers")
            kept = set(names[2:])
            for name in kept - set(self.powers):
                raise MapError(f"{where}: {head} ALL EXCEPT names {name}, which is not a power")
            self.dummies = {p: where for p in self.powers if p not in kept}
            return
        for name in names:
            self.dummies.setdefault(name, where)

    def _unplayed(self, words: list[str], where: str) -> None:
        names = [_power_name(w) for w in words[1:] if w.strip(",")]
        if not names:
            raise MapError(f"{where}: UNPLAYED names the powers to take out")
        if names[0] == "ALL":
            raise MapError(f"{where}: UNPLAYED ALL is not supported by diplo's reader")
        for name in names:
            if self.powers.pop(name, None) is None:
                raise MapError(f"{where}: UNPLAYED names {name}, which is not a power")
            self.dummies.pop(name, None)
        self.current = None

    def _power(self, words: list[str], where: str) -> None:
        name = _power_name(words[0])
        rest = words[1:]
        adjective = name.title()
        if rest and rest[0].startswith("("):
            if not rest[0].endswith(")"):
                raise MapError(f"{where}: the adjective of {name} is not closed by ')'")
            word = rest[0][1:-1].split(":", 1)[0].replace("+", " ")
            adjective = (word.title() if word.isupper() else word) or adjective
            rest = rest[1:]
        self.powers[name] = _Power(adjective, [w.upper() for w in rest])
        self.current = name
        if self.first_power is None:
            self.first_power = f"{where} {' '.join(words)[:60]!r}"

    # ------------------------------------------------------------------ to diplo's map data

    def data(self, title: str, label: str | None = None) -> dict[str, Any]:
        label = label or title
        if not self.locations:
            guess = f" ({self.first_power} was read as a power's line)" if self.first_power else ""
            raise MapError(
                f"{label}: no locations (LAND/WATER/COAST lines), so not a MILA map file{guess}"
            )
        if not self.powers:
            raise MapError(f"{label}: no powers (a line naming a power, then its units)")
        locs = {k: v for k, v in self.locations.items() if v.terrain != "shut"}
        provinces = [k for k in locs if "/" not in k]
        coasts: dict[str, list[str]] = {p: [] for p in provinces}
        for key, loc in locs.items():
            if "/" in key:
                prov, coast = key.split("/")
                if prov not in coasts:
                    raise MapError(f"{loc.where}: coast {loc.declared} of an undeclared province")
                if locs[prov].terrain not in ("coast", "port"):
                    raise MapError(f"{loc.where}: coast {loc.declared} of a {locs[prov].terrain}")
                coasts[prov].append(coast)

        def fleet_stands(key: str) -> bool:
            loc = locs.get(key)
            if loc is None or loc.terrain in ("land", "shut"):
                return False
            return "/" in key or not coasts.get(key)

        army: dict[tuple[str, str], str] = {}
        fleet: dict[tuple[str, str], str] = {}
        for key, loc in locs.items():
            for entry in loc.abuts:
                target = entry.upper()
                prov = target.split("/")[0]
                if target not in self.locations and prov not in self.locations:
                    raise MapError(f"{loc.where}: {loc.declared} abuts unknown {entry}")
                if prov not in locs:
                    continue  # SHUT
                # Army: from a province, to a province that is not a sea; "Xyz" is fleets only.
                fleet_only = entry == entry.title() != target
                land_route = "sea" not in (loc.terrain, locs[prov].terrain)
                if "/" not in key and land_route and not fleet_only:
                    army[(key, prov)] = loc.where
                # Fleet: from and to places a fleet can stand; lower case is armies only.
                if entry[0].isupper() and fleet_stands(key) and fleet_stands(target):
                    fleet[(key, target)] = loc.where
        names = self._names(provinces)
        for dummy, named in self.dummies.items():
            if dummy not in self.powers:
                raise MapError(f"{named}: DUMMY names {dummy}, which is not a power")
        centres = set(self.unowned)
        for power in self.powers.values():
            centres.update(power.homes)
        for c in sorted(centres):
            if c not in coasts:
                raise MapError(f"{title}: supply centre {c} is not a province")

        def pairs(edges: dict[tuple[str, str], str]) -> list[list[str]]:
            """The adjacencies both ends list, once each."""
            seen: set[frozenset[str]] = set()
            out: list[list[str]] = []
            for a, b in edges:
                if (b, a) in edges and frozenset((a, b)) not in seen:
                    seen.add(frozenset((a, b)))
                    out.append([a, b])
            return out

        def one_way(edges: dict[tuple[str, str], str]) -> list[list[str]]:
            """The adjacencies only their start lists (MILA reads ``abuts`` from the start)."""
            return [[a, b] for a, b in edges if (b, a) not in edges]

        data: dict[str, Any] = {
            "name": title,
            "source": f"MILA map file {title}.map (PyPI diplomacy 1.1.2), read by diplo",
            "first_phase": self.first_phase or "S1901M",
            "powers": {
                p: {
                    "adjective": v.adjective,
                    "homes": v.homes,
                    "units": v.units,
                    **({"dummy": True} if p in self.dummies else {}),
                }
                for p, v in self.powers.items()
            },
            "provinces": [
                {
                    "abbr": p,
                    "name": names[p][0],
                    "type": "coast" if locs[p].terrain == "port" else locs[p].terrain,
                    "center": p in centres,
                    "coasts": coasts[p],
                    "aliases": names[p][1],
                    **({"port": True} if locs[p].terrain == "port" else {}),
                }
                for p in provinces
            ],
            "army_edges": pairs(army),
            "fleet_edges": pairs(fleet),
        }
        for key, edges in (("army_one_way", army), ("fleet_one_way", fleet)):
            if one_way(edges):
                data[key] = one_way(edges)
        if self.victory is not None:
            data["victory"] = self.victory
        if self.rules:
            data["rules"] = dict(self.rules)
        return data

    def _names(self, provinces: list[str]) -> dict[str, tuple[str, list[str]]]:
        """Per province: its English name and its usable aliases (those that are plain words,
        not order keywords, and name no other province)."""
        by_alias: dict[str, str] = {}
        for name, aliases, _ in self.names:
            for alias in aliases:
                if alias.upper() in self.locations and "/" not in alias:
                    by_alias.setdefault(name, alias.upper())
        out: dict[str, tuple[str, list[str]]] = {}
        taken: set[str] = set()
        for p in provinces:
            taken.add(_compact(p))
        for name, _aliases, _ in self.names:
            prov = by_alias.get(name)
            if prov is None or prov not in provinces or prov in out:
                continue
            if _compact(name) in taken or _compact(name) in KEYWORDS or not _compact(name):
                continue
            taken.add(_compact(name))
            out[prov] = (name, [])
        for name, aliases, _ in self.names:
            prov = by_alias.get(name)
            if prov is None or prov not in out:
                continue
            for alias in aliases:
                key = _compact(alias)
                if _ALIAS_RE.fullmatch(alias) is None or not key or key in taken or key in KEYWORDS:
                    continue
                taken.add(key)
                out[prov][1].append(alias)
        for p in provinces:
            out.setdefault(p, (p, []))
        return out


def _power_name(word: str) -> str:
    """A power's name as MILA normalises it: upper case, without '-', '+', ',', '.', ':' or
    spaces (``NEW-YORK`` is ``NEWYORK``)."""
    return re.sub(r"[-+,.: ]", "", word.upper())


def _compact(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def mila_map_data(path: str | Path) -> dict[str, Any]:
    """The diplo map data (what :meth:`Map.from_dict` reads) of a MILA ``.map`` file, unchecked
    beyond the reading itself; :func:`load_mila_map` checks it."""
    p = Path(path)
    reader = _Reader()
    try:
        reader.read(p, 0)
    except RecursionError:
        raise MapError(f"{p.name}: includes nested too deeply") from None
    return reader.data(p.stem, p.name)


# --------------------------------------------------------------- the command line's options


MAP_HELP = (
    f"a shipped map ({', '.join(SHIPPED_MAPS)}), a diplo map file (.json) or a MILA map file (.map)"
)


def add_map_argument(parser: argparse.ArgumentParser, default: str = "standard") -> None:
    """``--map NAME|FILE``: the same option, with the same meaning, on every subcommand."""
    parser.add_argument(
        "--map", default=None, metavar="NAME|FILE", help=f"{MAP_HELP}; default: {default}"
    )


def add_variant_arguments(parser: argparse.ArgumentParser) -> None:
    """``--map NAME|FILE`` and ``--rules KEY=VALUE,...`` for a command."""
    add_map_argument(parser)
    parser.add_argument(
        "--rules",
        default=None,
        metavar="KEY=VALUE,...",
        help="rule options, e.g. edition=1982 or civil_disorder=home,build_sites=any,"
        "victory_centers=10,year_limit=1910 (default: the map's rules, the DATC's unless the "
        "variant says otherwise)",
    )


def map_argument(value: str | None) -> Map | None:
    """The map ``--map`` names (``None`` when not given): a shipped name, a diplo ``.json`` map
    or a MILA ``.map`` file. Raises :class:`~diplo.model.map.MapError` naming what is wrong."""
    return None if value is None else load_map(value)


def variant_arguments(args: argparse.Namespace) -> tuple[Map | None, Rules | None]:
    """The map and rules a command was given (``None``: the defaults). Raises
    :class:`~diplo.model.map.MapError` or :class:`~diplo.model.rules.RulesError` naming what is
    wrong."""
    game_map = map_argument(args.map)
    rules = None
    if args.rules is not None:
        rules = Rules.parse(args.rules, game_map.rules if game_map is not None else Rules())
    return game_map, rules


def add_year_arguments(parser: argparse.ArgumentParser, max_year_help: str) -> None:
    """``--max-year YEAR`` (the last year played; ``max_year_help`` says the command's default)
    and ``--years N``: play N years from the map's first year, so one need not know it (1901 on
    the standard map, 1 on ancmed). The two exclude each other."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--max-year", type=int, default=None, metavar="YEAR", help=max_year_help)
    group.add_argument(
        "--years",
        type=_years,
        default=None,
        metavar="N",
        help="play N years (1 or more) from the map's first year; instead of --max-year",
    )


def _years(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of years, got {text!r}"
        ) from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected 1 year or more, got {text}")
    return value


def first_year(game_map: Map) -> int:
    """The year a game on ``game_map`` starts in (1901 on the standard map, 1 on ancmed)."""
    return Position.initial(game_map).phase.year
