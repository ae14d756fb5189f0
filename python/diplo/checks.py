"""The one consistency check of a :class:`~diplo.position.Position`, and the limits of inputs.

Every way into the engine builds a ``Position`` (the constructor, ``Position.from_json``, the
JSON contract, ``FastGame(position)``, game files, the MILA import), and the constructor runs
:func:`check_position`, so no part of the engine ever holds a board it has not checked. What it
checks:

* the phase is a real phase of a year from :data:`MIN_YEAR` to :data:`MAX_YEAR`;
* every unit is a piece of a known power, keyed by its own province (so one unit per province),
  of a type that fits the terrain (an army on land or a coast, never at sea or on a named coast;
  a fleet at sea or on a coast, on one of its coasts where the province has several);
* every owned centre is a supply centre of the map, owned by a known power;
* dislodged units exist only in retreat phases, fit the terrain like any unit, and each of their
  retreat options is a location the unit could move to by itself and that is empty on the board
  (an option outside that set would move an army to sea or put two units in one province).

The error names the entry point (``"FastGame(position)"``, ``"game file: initial"``...) and what is
wrong. Messages never echo more than :data:`ECHO_LIMIT` characters of an input, and show JSON's
values as JSON writes them (``null``, ``true``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from .map import Map

if TYPE_CHECKING:
    from .position import Position

__all__ = [
    "DOCUMENT_LIMIT",
    "ECHO_LIMIT",
    "MAX_YEAR",
    "MIN_YEAR",
    "ORDER_LIMIT",
    "check_max_year",
    "check_position",
    "clip",
    "show",
]

#: The years a position may be in. A phase whose next phase would fall after ``MAX_YEAR`` is
#: refused when processed, so every ``next`` the engine writes is an input it accepts.
MIN_YEAR = 1
MAX_YEAR = 9999
#: The longest order text read, in characters (the longest real order is under 100); a longer
#: one is ruled illegal unread, which keeps parsing linear in the input.
ORDER_LIMIT = 500
#: The largest adjudicate document (one file, or one ``--jsonl`` line), in bytes.
DOCUMENT_LIMIT = 4 * 1024 * 1024
#: At most this many characters of an input are quoted in an error message.
ECHO_LIMIT = 60


def show(value: object, limit: int = ECHO_LIMIT) -> str:
    """An input value for an error message, cut to ``limit`` characters: a string quoted as
    Python does (``'PAR'``), other JSON values as JSON writes them (``null``, ``true``, ``[1]``),
    anything else by its ``repr``."""
    if isinstance(value, str):
        text = repr(value[: limit + 2])
    else:
        try:
            text = json.dumps(value, ensure_ascii=True)
        except (TypeError, ValueError, RecursionError):
            text = _safe_repr(value)
    if len(text) > limit:
        text = f"{text[: limit - 3]}... ({_size(value)})"
    return text


def clip(message: str, limit: int = 500) -> str:
    """An error message cut to ``limit`` characters, saying how long it was."""
    if len(message) <= limit:
        return message
    return f"{message[: limit - 40]}... (message of {len(message)} characters cut)"


def _safe_repr(value: object) -> str:
    try:
        return repr(value)[:ECHO_LIMIT]
    except Exception:  # a hostile __repr__ is no reason to lose the real error
        return f"<{type(value).__name__}>"


def _size(value: object) -> str:
    if isinstance(value, str):
        return f"{len(value)} characters"
    if isinstance(value, list | dict):
        return f"{len(value)} items"
    return type(value).__name__


def check_max_year(max_year: object, first_year: int, where: str) -> int | None:
    """``max_year`` for a game starting in ``first_year``: ``None`` or an int from the first year
    to ``MAX_YEAR - 1`` (a game ended by ``max_year`` shows its final board in the year after);
    raises ``ValueError`` naming ``where`` otherwise. ``Game`` and ``FastGame`` both use it."""
    if max_year is None:
        return None
    if not isinstance(max_year, int) or isinstance(max_year, bool):
        raise ValueError(f"{where}: max_year must be an int or None, got {show(max_year)}")
    if max_year > MAX_YEAR - 1:
        raise ValueError(
            f"{where}: max_year {show(max_year)} is after {MAX_YEAR - 1}, the last year a game "
            "can be limited to"
        )
    if max_year < first_year:
        raise ValueError(
            f"{where}: max_year {max_year} is before {first_year}, the first year of the game"
        )
    return max_year


def check_position(position: Position, where: str = "Position") -> None:
    """Raise :class:`~diplo.position.PositionError` naming ``where`` unless ``position`` is a
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
    from .position import Phase, Piece

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
    from .position import Dislodged, Phase, Piece, PositionError

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
            if target in units:
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
