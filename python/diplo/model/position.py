"""Phases and positions.

A :class:`Position` is immutable: processing a phase builds a new one and never touches the old,
so callers may keep any position they were handed (the game history is a list of them).
Its JSON form is the input document of ``../shared/spec/adjudicate-json.md`` without ``orders``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import InitVar, dataclass, field
from types import MappingProxyType
from typing import Any, Literal, TypeAlias
from weakref import WeakKeyDictionary

from .display import svg_of
from .limits import MAX_YEAR, MIN_YEAR, show
from .map import Map, MapError, power_named
from .orders import Unit, UnitType
from .rules import Rules, RulesError

Season: TypeAlias = Literal["S", "F", "W"]
PhaseKind: TypeAlias = Literal["M", "R", "A"]


class PositionError(ValueError):
    """A malformed position document; the message names what is wrong."""


# ASCII digits only: a phase written with other digits (full-width, Arabic-Indic) is refused.
# A year is written without leading zeros (diplo's names, ``S1M``) or with exactly four digits
# (MILA's names, ``S0001M``); both read the same phase, which diplo writes in its own form.
_PHASE = re.compile(r"^([SFW])(0|[1-9][0-9]{0,5}|0[0-9]{3})([MRA])$", re.ASCII)
_ZEROS = re.compile(r"^[SFW]0[0-9]+[MRA]$", re.ASCII)


@dataclass(frozen=True, slots=True, order=True)
class Phase:
    year: int
    season: Season
    kind: PhaseKind

    @classmethod
    def parse(cls, text: str) -> Phase:
        """Read a phase name: diplo's (``S1901M``, ``F1R``) or MILA's, whose years have four
        digits (``S0001M``); anything else is a :class:`PositionError` naming the text."""
        match = _PHASE.match(text.strip().upper()) if isinstance(text, str) else None
        if not match:
            if isinstance(text, str) and _ZEROS.match(text.strip().upper()):
                raise PositionError(
                    f"bad phase {show(text)}: a year with leading zeros must have four digits "
                    f"(as MILA writes them, e.g. S0001M)"
                )
            raise PositionError(f"bad phase {show(text)} (expected e.g. S1901M, F1901R, W1901A)")
        season, year, kind = match.group(1), int(match.group(2)), match.group(3)
        if not MIN_YEAR <= year <= MAX_YEAR:
            raise PositionError(f"bad phase {show(text)}: the year must be {MIN_YEAR}..{MAX_YEAR}")
        valid = {("S", "M"), ("S", "R"), ("F", "M"), ("F", "R"), ("W", "A")}
        if (season, kind) not in valid:
            raise PositionError(f"bad phase {show(text)}: no {kind} phase in that season")
        return cls(year, season, kind)  # type: ignore[arg-type]

    def __str__(self) -> str:
        return f"{self.season}{self.year}{self.kind}"

    def sequence(self) -> int:
        """A number that grows with every phase of the game: for ordering and comparing."""
        step = {("S", "M"): 0, ("S", "R"): 1, ("F", "M"): 2, ("F", "R"): 3, ("W", "A"): 4}
        return self.year * 5 + step[(self.season, self.kind)]


@dataclass(frozen=True, slots=True)
class Piece:
    """A unit on the board: its owner, type and exact location (a coast for split-coast fleets)."""

    power: str
    type: UnitType
    loc: str

    @property
    def province(self) -> str:
        return self.loc.split("/", 1)[0]

    @property
    def unit(self) -> Unit:
        return Unit(self.type, self.loc)

    def __str__(self) -> str:
        return f"{self.type} {self.loc}"


@dataclass(frozen=True, slots=True)
class Dislodged:
    """A dislodged unit waiting for the retreat phase, with the locations it may retreat to."""

    piece: Piece
    options: tuple[str, ...]


def _frozen(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class Position:
    """The board at the start of a phase.

    ``units`` maps a province to the piece standing in it; ``centers`` maps each owned supply
    centre to its owner; ``dislodged`` (retreat phases only) maps a province to the dislodged
    piece that was there. ``rules`` are the rules the game is played under (default: the map's,
    which are the DATC defaults unless the variant says otherwise); like the map, they are the
    board's context and play no part in comparing positions.
    """

    map: Map = field(repr=False, compare=False)
    phase: Phase
    units: Mapping[str, Piece]
    centers: Mapping[str, str]
    dislodged: Mapping[str, Dislodged] = field(default_factory=dict)
    #: The entry point named in an error (``diplo.model.position.check_position``).
    where: InitVar[str] = "Position"
    rules: Rules = field(default=None, compare=False, kw_only=True)  # type: ignore[assignment]

    def __post_init__(self, where: str) -> None:
        object.__setattr__(self, "units", _frozen(self.units))
        object.__setattr__(self, "centers", _frozen(self.centers))
        object.__setattr__(self, "dislodged", _frozen(self.dislodged))
        if self.rules is None:
            object.__setattr__(self, "rules", self.map.rules)
        elif not isinstance(self.rules, Rules):
            raise TypeError(
                f"rules must be a diplo.model.rules.Rules, got {type(self.rules).__name__}"
            )
        check_position(self, where)

    def __getstate__(self) -> dict[str, Any]:
        # What the engine keeps on a position (``_engine``: its state; ``_legal``: legal
        # orders) is rebuilt on demand, never pickled or copied. The read-only boards travel as
        # plain dicts (a mapping proxy cannot be pickled) and are frozen again on the way in.
        return {
            k: dict(v) if type(v) is MappingProxyType else v
            for k, v in self.__dict__.items()
            if not k.startswith("_")
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        for key, value in state.items():
            frozen = key in ("units", "centers", "dislodged")
            object.__setattr__(self, key, _frozen(value) if frozen else value)

    # ---------------------------------------------------------------- queries

    def unit_at(self, province: str) -> Piece | None:
        return self.units.get(province)

    def units_of(self, power: str) -> list[Piece]:
        return [p for p in self.units.values() if p.power == power]

    def centers_of(self, power: str) -> list[str]:
        return sorted(c for c, owner in self.centers.items() if owner == power)

    def with_changes(
        self,
        *,
        phase: Phase | None = None,
        units: Mapping[str, Piece] | None = None,
        centers: Mapping[str, str] | None = None,
        dislodged: Mapping[str, Dislodged] | None = None,
        where: str = "Position.with_changes",
        rules: Rules | None = None,
    ) -> Position:
        return Position(
            self.map,
            self.phase if phase is None else phase,
            self.units if units is None else units,
            self.centers if centers is None else centers,
            self.dislodged if dislodged is None else dislodged,
            where,
            rules=self.rules if rules is None else rules,
        )

    # ---------------------------------------------------------------- construction

    @classmethod
    def initial(
        cls, game_map: Map, year: int | None = None, rules: Rules | None = None
    ) -> Position:
        """The map's first phase (spring 1901 on the standard map; ``year`` overrides the year):
        every power with its starting centres (its homes unless the map says otherwise) and
        units, under ``rules`` (default: the map's)."""
        units: dict[str, Piece] = {}
        for power, starting in game_map.starting_units.items():
            for unit_type, loc in starting:
                piece = Piece(power, unit_type, loc)
                units[piece.province] = piece
        centers = {c: power for power, owned in game_map.starting_centers.items() for c in owned}
        first = Phase.parse(game_map.first_phase)
        if year is not None:
            first = Phase(year, first.season, first.kind)
        return cls(game_map, first, units, centers, {}, rules=rules or game_map.rules)

    @classmethod
    def from_json(
        cls,
        doc: Mapping[str, Any],
        game_map: Map,
        where: str = "position document",
        *,
        occupied_options: bool = False,
    ) -> Position:
        """Read the position part of an adjudicate input document (see the JSON contract); the
        board is then checked as every position is (:func:`diplo.model.position.check_position`),
        errors naming ``where``.

        A retreat option that names a province a unit stands in is refused, unless
        ``occupied_options`` is true: then the option is left out (the JSON contract takes such a
        document, and a retreat there is ruled illegal as not among the unit's options). Under
        rules that list such options (``retreat_after_convoy="any"``, MILA's) it is kept (and a
        retreat there is illegal all the same). An option the unit could never move to is
        refused either way.
        """
        try:
            phase, units, centers, dislodged = _read_position(doc, game_map)
            # Options the document leaves out keep the map's values.
            rules = Rules.from_json(doc.get("rules"), game_map.rules)
            if occupied_options and rules.retreat_after_convoy != "any":
                dislodged = {
                    prov: Dislodged(
                        d.piece,
                        tuple(o for o in d.options if game_map.province_of(o) not in units),
                    )
                    for prov, d in dislodged.items()
                }
        except (PositionError, RulesError) as exc:
            raise PositionError(f"{where}: {exc}") from None
        return cls(game_map, phase, units, centers, dislodged, where, rules=rules)

    def _repr_svg_(self) -> str | None:
        """The board as SVG, so a notebook shows the position as a picture (drawn by
        :mod:`diplo.render`, which registers itself in :mod:`diplo.model.display`)."""
        return svg_of(self)

    def to_json(self) -> dict[str, Any]:
        """The position as a JSON document (short forms, powers in map order, sorted lists)."""
        out: dict[str, Any] = {
            "phase": str(self.phase),
            "units": _group(self.map, ((p.power, str(p)) for p in self.units.values())),
            "centers": _group(self.map, ((o, c) for c, o in self.centers.items())),
        }
        dislodged: dict[str, dict[str, list[str]]] = {}
        for d in sorted(self.dislodged.values(), key=lambda d: d.piece.loc):
            dislodged.setdefault(d.piece.power, {})[str(d.piece)] = list(d.options)
        out["dislodged"] = {p: dislodged[p] for p in self.map.powers if p in dislodged}
        if self.rules != self.map.rules:
            out["rules"] = self.rules.to_json()
        return out


def _read_position(
    doc: Mapping[str, Any], game_map: Map
) -> tuple[Phase, dict[str, Piece], dict[str, str], dict[str, Dislodged]]:
    if not isinstance(doc, Mapping):
        raise PositionError(f"the document must be a JSON object, not {show(doc)}")
    if "phase" not in doc:
        raise PositionError("missing 'phase'")
    phase = Phase.parse(doc["phase"])
    units: dict[str, Piece] = {}
    for power, texts in _power_items(doc.get("units", {}), "units", game_map):
        for text in _list(texts, f"units.{power}"):
            piece = parse_piece(power, text, game_map)
            if piece.province in units:
                other = units[piece.province]
                if other == piece:
                    raise PositionError(f"unit {show(text)} of {power} is listed twice")
                raise PositionError(
                    f"province {piece.province} has two units: "
                    f"{other.power} {other} and {power} {piece}"
                )
            units[piece.province] = piece
    centers: dict[str, str] = {}
    for power, texts in _power_items(doc.get("centers", {}), "centers", game_map):
        for text in _list(texts, f"centers.{power}"):
            prov = _province(text, game_map, f"centers.{power}")
            if prov not in game_map.centers:
                raise PositionError(f"centers.{power}: {prov} is not a supply centre")
            if prov in centers and centers[prov] != power:
                raise PositionError(f"centre {prov} is owned by both {centers[prov]} and {power}")
            centers[prov] = power
    dislodged: dict[str, Dislodged] = {}
    raw = doc.get("dislodged", {}) or {}
    for power, entries in _power_items(raw, "dislodged", game_map):
        if not isinstance(entries, Mapping):
            raise PositionError(f"dislodged.{power} must map units to retreat lists")
        for text, options in entries.items():
            piece = parse_piece(power, text, game_map)
            if piece.province in dislodged:
                raise PositionError(f"two dislodged units in {piece.province}")
            locs = tuple(
                _location(o, game_map, f"dislodged.{power}.{text}")
                for o in _list(options, f"dislodged.{power}.{text}")
            )
            dislodged[piece.province] = Dislodged(piece, locs)
    return phase, units, centers, dislodged


def parse_piece(power: str, text: str, game_map: Map) -> Piece:
    """Read a unit of a position document (``A PAR``, ``F STP/SC``), strictly."""
    if not isinstance(text, str):
        raise PositionError(f"{power}: a unit must be a string like 'A PAR', not {show(text)}")
    parts = text.split(" ")
    if len(parts) != 2 or parts[0].upper() not in ("A", "F"):
        raise PositionError(f"{power}: bad unit {show(text)} (expected e.g. 'A PAR' or 'F STP/SC')")
    unit_type: UnitType = "A" if parts[0].upper() == "A" else "F"
    loc = _location(parts[1], game_map, f"{power} unit {show(text)}")
    prov = game_map.province_of(loc)
    if unit_type == "A":
        if game_map.is_sea(prov):
            raise PositionError(f"{power}: bad unit {show(text)}: an army cannot stand at sea")
        if loc != prov:
            raise PositionError(
                f"{power}: bad unit {show(text)}: an army stands on a province, not a coast"
            )
    else:
        if game_map.is_land(prov):
            raise PositionError(f"{power}: bad unit {show(text)}: a fleet cannot stand inland")
        if loc == prov and game_map.coasts_of(prov):
            raise PositionError(
                f"{power}: bad unit {show(text)}: a fleet in {prov} must name its coast"
            )
    return Piece(power, unit_type, loc)


def _power_items(raw: Any, key: str, game_map: Map) -> Iterable[tuple[str, Any]]:
    if raw is None:
        return []
    if not isinstance(raw, Mapping):
        raise PositionError(f"'{key}' must be an object keyed by power")
    items = []
    for name, value in raw.items():
        power = power_named(name, game_map)
        if power is None:
            raise PositionError(f"{key}: unknown power {show(name)}")
        items.append((power, value))
    return items


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise PositionError(f"{where} must be a list")
    return value


def _location(text: Any, game_map: Map, where: str) -> str:
    """A location of a position document, written as the map writes it (``PAR``, ``STP/NC``, any
    case): names, punctuation and stray characters are refused, not guessed at."""
    if not isinstance(text, str):
        raise PositionError(
            f"{where}: expected a location like 'PAR' or 'STP/NC', got {show(text)}"
        )
    loc = text.upper()
    if loc in game_map.location_index:
        return loc
    prov, slash, coast = loc.partition("/")
    if slash and prov in game_map.provinces:
        coasts = ", ".join(game_map.coasts_of(prov)) or "none"
        raise PositionError(
            f"{where}: unknown coast {show(coast)} of {prov} (its coasts: {coasts})"
        )
    try:
        known = game_map.lookup(text) if len(text) <= 40 else None
    except MapError:
        known = None
    if known is not None and text.isprintable():
        raise PositionError(f"{where}: write {show(text)} as the map's abbreviation, {known}")
    raise PositionError(f"{where}: unknown province {show(text)}")


def _province(text: Any, game_map: Map, where: str) -> str:
    return game_map.province_of(_location(text, game_map, where))


def _group(game_map: Map, pairs: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = {}
    for power, item in pairs:
        grouped.setdefault(power, []).append(item)
    return {p: sorted(grouped[p]) for p in game_map.powers if p in grouped}


# --------------------------------------------------------------------------- the invariant


def check_position(position: Position, where: str = "Position") -> None:
    """Raise :class:`~diplo.model.position.PositionError` naming ``where`` unless ``position`` is a
    consistent board (see the module documentation)."""
    if not _plainly_valid(position):
        _explain(position, where)


_Tables = tuple[frozenset[str], frozenset[tuple[str, str]], dict[str, str], frozenset[str]]
_TABLES: WeakKeyDictionary[Map, _Tables] = WeakKeyDictionary()


def _tables(game_map: Map) -> _Tables:
    """Per map: its powers, the (type, location) pairs a unit may stand on, the province of each
    location, and its supply centres."""
    tables = _TABLES.get(game_map)
    if tables is None:
        fits = set()
        for loc in game_map.locations:
            prov = game_map.province_of(loc)
            if loc == prov and not game_map.is_sea(prov):
                fits.add(("A", loc))
            if not game_map.is_land(prov) and (loc != prov or not game_map.coasts_of(prov)):
                fits.add(("F", loc))
        tables = (
            frozenset(game_map.powers),
            frozenset(fits),
            {loc: game_map.province_of(loc) for loc in game_map.locations},
            frozenset(game_map.centers),
        )
        _TABLES[game_map] = tables
    return tables


def _plainly_valid(position: Position) -> bool:
    """The common case, quickly: a board without dislodged units that passes every check.
    ``False`` sends the position through :func:`_explain`, which finds and names the problem."""
    if position.dislodged:
        return False
    phase = position.phase
    if (
        type(phase) is not Phase
        or (phase.season, phase.kind) not in _PHASES
        or type(phase.year) is not int
        or not MIN_YEAR <= phase.year <= MAX_YEAR
    ):
        return False
    powers, fits, province_of, centers = _tables(position.map)
    try:
        for prov, piece in position.units.items():
            if (
                type(piece) is not Piece
                or piece.power not in powers
                or (piece.type, piece.loc) not in fits
                or province_of[piece.loc] != prov
            ):
                return False
        return all(c in centers and o in powers for c, o in position.centers.items())
    except TypeError:  # an unhashable value where a name belongs
        return False


def _explain(position: Position, where: str) -> None:
    def fail(message: str) -> PositionError:
        return PositionError(f"{where}: {message}")

    game_map = position.map
    phase = position.phase
    if not isinstance(phase, Phase):
        raise fail(f"phase must be a Phase, got {show(phase)}")
    if (phase.season, phase.kind) not in _PHASES:
        raise fail(f"no {phase.kind} phase in season {show(phase.season)}")
    if not isinstance(phase.year, int) or not MIN_YEAR <= phase.year <= MAX_YEAR:
        raise fail(f"year {show(phase.year)} is outside {MIN_YEAR}..{MAX_YEAR}")
    units = position.units
    for prov, piece in units.items():
        if not isinstance(piece, Piece):
            raise fail(f"units[{show(prov)}] is not a Piece: {show(piece)}")
        _check_piece(piece, game_map, fail, "unit")
        if piece.province != prov:
            raise fail(f"unit {piece} is filed under {show(prov)}, not its province")
    for prov, owner in position.centers.items():
        if prov not in game_map.centers:
            raise fail(f"{show(prov)} is not a supply centre")
        if owner not in game_map.powers:
            raise fail(f"centre {prov} is owned by unknown power {show(owner)}")
    if position.dislodged and phase.kind != "R":
        raise fail(f"dislodged units are only held in retreat phases, not {phase}")
    for prov, entry in position.dislodged.items():
        if not isinstance(entry, Dislodged) or not isinstance(entry.piece, Piece):
            raise fail(f"dislodged[{show(prov)}] is not a Dislodged: {show(entry)}")
        piece = entry.piece
        _check_piece(piece, game_map, fail, "dislodged unit")
        if piece.province != prov:
            raise fail(f"dislodged {piece} is filed under {show(prov)}, not its province")
        if not isinstance(entry.options, tuple):
            raise fail(f"dislodged {piece}: options must be a tuple of locations")
        if piece.type == "A":
            reach = game_map.army_neighbours(piece.province)
        else:
            reach = game_map.fleet_neighbours(piece.loc)
        seen: set[str] = set()
        for option in entry.options:
            if not isinstance(option, str) or option not in game_map.location_index:
                raise fail(f"dislodged {piece}: unknown retreat location {show(option)}")
            if option not in reach:
                raise fail(f"dislodged {piece} cannot retreat to {option}: it cannot move there")
            target = game_map.province_of(option)
            # MILA's retreat lists (``retreat_after_convoy="any"``) name occupied provinces,
            # which the retreat rule then never allows; under every other rule none is listed.
            if target in units and position.rules.retreat_after_convoy != "any":
                raise fail(
                    f"dislodged {piece} cannot retreat to {option}: "
                    f"{units[target].power} {units[target]} stands there"
                )
            if option in seen:
                raise fail(f"dislodged {piece}: {option} is listed twice among its options")
            seen.add(option)


_PHASES = frozenset({("S", "M"), ("S", "R"), ("F", "M"), ("F", "R"), ("W", "A")})


def _check_piece(piece: Any, game_map: Any, fail: Any, what: str) -> None:
    if piece.power not in game_map.powers:
        raise fail(f"{what} {show(str(piece))}: unknown power {show(piece.power)}")
    if piece.type not in ("A", "F"):
        raise fail(f"{what} of {piece.power}: unit type {show(piece.type)} is not A or F")
    loc = piece.loc
    if not isinstance(loc, str) or loc not in game_map.location_index:
        raise fail(f"{what} of {piece.power}: unknown location {show(loc)}")
    prov = game_map.province_of(loc)
    if piece.type == "A":
        if game_map.is_sea(prov):
            raise fail(f"{piece.power} {piece}: an army cannot stand at sea")
        if loc != prov:
            raise fail(f"{piece.power} {piece}: an army stands on a province, not a coast")
    else:
        if game_map.is_land(prov):
            raise fail(f"{piece.power} {piece}: a fleet cannot stand inland")
        if loc == prov and game_map.coasts_of(prov):
            raise fail(f"{piece.power} {piece}: a fleet in {prov} must stand on one of its coasts")
