"""The order model for every phase, the parser of the notations people send, and the formatter.

One model serves movement, retreat and adjustment phases. The parser accepts the short form
(``A PAR - BUR``, ``F NTH C A LON - BEL``), full names and the DATC's prose
(``F North Sea Convoys A London - Belgium``), case-insensitively, with or without a power prefix
(``England: ...``). It only reads text: whether an order makes sense on the board is
:mod:`diplo.reference.validation`'s business, so ``A Moscow - Munich`` parses fine and is ruled
illegal later.
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Literal, TypeAlias
from weakref import WeakKeyDictionary

from . import vocabulary
from .limits import ORDER_LIMIT, show
from .map import Map, MapError
from .wording import suggestions

UnitType: TypeAlias = Literal["A", "F"]


class OrderParseError(ValueError):
    """Text that is not an order. The message names the text and what was wrong."""

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"cannot parse order {show(text)}: {reason}")
        self.text = text
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit as an order names it: type (``None`` when the designation is omitted) and location."""

    type: UnitType | None
    loc: str

    def __str__(self) -> str:
        return self.loc if self.type is None else f"{self.type} {self.loc}"

    @property
    def province(self) -> str:
        return self.loc.split("/", 1)[0]


@dataclass(frozen=True, slots=True)
class Hold:
    unit: Unit


@dataclass(frozen=True, slots=True)
class Move:
    unit: Unit
    dest: str
    via: bool = False


@dataclass(frozen=True, slots=True)
class SupportHold:
    unit: Unit
    supported: Unit


@dataclass(frozen=True, slots=True)
class SupportMove:
    unit: Unit
    supported: Unit
    dest: str


@dataclass(frozen=True, slots=True)
class Convoy:
    unit: Unit
    army: Unit
    dest: str


@dataclass(frozen=True, slots=True)
class Retreat:
    unit: Unit
    dest: str


@dataclass(frozen=True, slots=True)
class Disband:
    unit: Unit


@dataclass(frozen=True, slots=True)
class Build:
    unit: Unit


@dataclass(frozen=True, slots=True)
class Waive:
    pass


Order: TypeAlias = (
    Hold | Move | SupportHold | SupportMove | Convoy | Retreat | Disband | Build | Waive
)
UnitOrder: TypeAlias = Hold | Move | SupportHold | SupportMove | Convoy | Retreat | Disband | Build

#: The orders of each phase kind (DATC 6.H.1-6.H.3, 4.E.1: any other is refused as ``wrong_phase``).
MovementOrder: TypeAlias = Hold | Move | SupportHold | SupportMove | Convoy
RetreatOrder: TypeAlias = Retreat | Disband
AdjustmentOrder: TypeAlias = Build | Disband | Waive


def order_unit(order: Order) -> Unit | None:
    """The unit an order is for (``None`` for a waive)."""
    return None if isinstance(order, Waive) else order.unit


# --------------------------------------------------------------------------- formatting


def format_order(order: Order) -> str:
    """The canonical short form: ``A PAR - BUR``, ``F NTH C A LON - BEL``, ``WAIVE``."""
    if isinstance(order, Waive):
        return "WAIVE"
    unit = str(order.unit)
    if isinstance(order, Hold):
        return f"{unit} H"
    if isinstance(order, Move):
        return f"{unit} - {order.dest}" + (" VIA" if order.via else "")
    if isinstance(order, SupportHold):
        return f"{unit} S {order.supported}"
    if isinstance(order, SupportMove):
        return f"{unit} S {order.supported} - {order.dest}"
    if isinstance(order, Convoy):
        return f"{unit} C {order.army} - {order.dest}"
    if isinstance(order, Retreat):
        return f"{unit} R {order.dest}"
    if isinstance(order, Disband):
        return f"{unit} D"
    return f"{unit} B"


# --------------------------------------------------------------------------- parsing

_HOLD = vocabulary.HOLD
_MOVE = vocabulary.MOVE
_SUPPORT = vocabulary.SUPPORT
_CONVOY = vocabulary.CONVOY
_RETREAT = vocabulary.RETREAT
_DISBAND = vocabulary.DISBAND
_BUILD = vocabulary.BUILD
_ARMY = vocabulary.ARMY
_FLEET = vocabulary.FLEET
_KEYWORDS = vocabulary.KEYWORDS
_DASHES = re.compile(r"\s*(?:->|=>|[-\u2010-\u2015\u2212>])\s*")
_NAME_KEYS: WeakKeyDictionary[Map, frozenset[str]] = WeakKeyDictionary()
# (no bracket inside: a run of "(" without ")" is then scanned once, not once per bracket)
_COAST_PAREN = re.compile(r"\s*\(\s*([^()]*?)\s*\)")


def _tokens(body: str, game_map: Map) -> list[str]:
    """Split an order into keyword tokens and location words.

    Dashes become ``-`` tokens unless they sit inside a known name (``Mid-Atlantic``). A coast in
    brackets is glued to its province so that the map's ``lookup`` sees ``spa(nc)`` as one word.
    """
    text = _COAST_PAREN.sub(lambda m: "(" + m.group(1).replace(" ", "_") + ")", body.lower())
    out: list[str] = []
    for word in text.split():
        out.extend(_split_dashes(word, game_map))
    return [t.replace("_", " ") for t in out]


def _split_dashes(word: str, game_map: Map) -> list[str]:
    """Split one word at the dashes that mean "moves to", keeping those inside a name.

    "PAR-BUR" is a move; "Mid-Atlantic" is a name; "Spain(nc)-Mid-Atlantic" is both: a dash
    splits the word when what stands before it is a location (tried only for prefixes as long as
    a location can be written, so that a word of many dashes costs time linear in its length).
    """
    word = _DASHES.sub("-", word)
    out: list[str] = []
    trailing = 0
    while word:
        core = word.strip("-")
        if "-" in core and _starts_a_name(core, game_map):
            # "Mid-Atlantic" (possibly followed by "Ocean"): the dash belongs to the name; dashes
            # after it are tokens of their own.
            if word.endswith("-"):
                word = word[:-1]
                trailing += 1
                continue
            out.append(word)
            break
        if word.startswith("-"):
            out.append("-")
            word = word[1:]
            continue
        cut = next(
            (
                i
                for i, char in enumerate(word[:_LONGEST_LOCATION])
                if char == "-" and _is_location(word[:i], game_map)
            ),
            None,
        )
        if cut is None:
            out.append(word)
            break
        out.extend((word[:cut], "-"))
        word = word[cut + 1 :]
    out.extend("-" * trailing)
    return out


#: No location is written in more characters than this within one word (``st.petersburg(nc)``).
_LONGEST_LOCATION = 64


def _name_keys(game_map: Map) -> frozenset[str]:
    keys = _NAME_KEYS.get(game_map)
    if keys is None:
        keys = frozenset(
            _compact(text)
            for p in game_map.provinces.values()
            for text in (p.abbr, p.name, *p.aliases)
        )
        _NAME_KEYS[game_map] = keys
    return keys


def _compact(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def _starts_a_name(word: str, game_map: Map) -> bool:
    # The whole word, coast included: "spain(nc)-mid-atlantic" starts no name, so it is split.
    key = _compact(word[:_LONGEST_LOCATION])
    return any(name.startswith(key) for name in _name_keys(game_map))


def _is_location(word: str, game_map: Map) -> bool:
    try:
        game_map.lookup(word)
    except MapError:
        return False
    return True


_SKIP_WORDS: WeakKeyDictionary[Map, frozenset[str]] = WeakKeyDictionary()


def _skip_words(game_map: Map) -> frozenset[str]:
    """The nationalities an order may name and the parser skips (powers and adjectives, lower
    case), made once per map."""
    words = _SKIP_WORDS.get(game_map)
    if words is None:
        powers = {p.lower() for p in game_map.powers}
        words = _SKIP_WORDS[game_map] = frozenset(
            powers | {a.lower() for a in game_map.adjectives.values()}
        )
    return words


class _Reader:
    """A cursor over the tokens of one order."""

    def __init__(self, text: str, tokens: list[str], game_map: Map, suggest: bool = True) -> None:
        self.text = text
        self.suggest = suggest
        self.tokens = tokens
        self.pos = 0
        self.map = game_map
        self.skip = _skip_words(game_map)

    def error(self, reason: str) -> OrderParseError:
        return OrderParseError(self.text, reason)

    def peek(self) -> str | None:
        while self.pos < len(self.tokens) and self.tokens[self.pos] in self.skip:
            # DATC 4.C.5/4.C.6: a nationality in a support or convoy order is ignored.
            self.pos += 1
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, words: AbstractSet[str]) -> str | None:
        token = self.peek()
        if token is not None and token in words:
            self.pos += 1
            return token
        return None

    def at_end(self) -> bool:
        return self.peek() is None

    def location(self, what: str) -> str:
        words: list[str] = []
        while True:
            token = self.peek()
            if token is None or (token in _KEYWORDS and words):
                break
            if token in _KEYWORDS:
                break
            words.append(token)
            self.pos += 1
        if not words:
            found = self.peek()
            raise self.error(f"expected {what}, found {found!r}" if found else f"missing {what}")
        phrase = " ".join(words)
        try:
            return self.map.lookup(phrase)
        except MapError as exc:
            raise self.error(_unknown(self.map, what, phrase, self.suggest)) from exc

    def unit(self, what: str) -> Unit:
        unit_type: UnitType | None = None
        if self.take(_ARMY):
            unit_type = "A"
        elif self.take(_FLEET):
            unit_type = "F"
        return Unit(unit_type, self.location(what))


def _unknown(game_map: Map, what: str, phrase: str, suggest: bool) -> str:
    """Why ``phrase`` is no location: an unknown coast of a known province, or no place at all
    (with the nearest names when ``suggest``)."""
    match = re.match(r"^(.*?)\s*(?:/\s*|\(\s*)([^/()]*?)\s*\)?$", phrase)
    if match and ("/" in phrase or "(" in phrase):
        try:
            prov = game_map.province_of(game_map.lookup(match.group(1)))
        except MapError:
            prov = None
        if prov is not None:
            coasts = ", ".join(game_map.coasts_of(prov)) or "none"
            return (
                f"unknown coast {show(match.group(2))} of {prov} in the {what} "
                f"(its coasts: {coasts})"
            )
    if not suggest:
        return f"unknown {what} {show(phrase)}"
    names = [*game_map.locations, *(p.name for p in game_map.provinces.values())]
    return f"unknown {what} {show(phrase)}{suggestions(phrase, names)}"


#: Control characters (NUL, escapes, C1 controls) make an order unreadable, not just wrong.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _split_power(text: str, game_map: Map) -> tuple[str | None, str]:
    match = re.match(r"^\s*([A-Za-z]+)\s*:\s*(.*)$", text, re.S)
    if match:
        word = match.group(1).upper()
        if word in game_map.powers:
            return word, match.group(2)
        raise OrderParseError(text, f"unknown power {match.group(1)!r}")
    return None, text


def parse_power_order(
    text: str, game_map: Map, *, suggest: bool = True
) -> tuple[str | None, Order]:
    """Parse one order, returning the power named by a ``POWER:`` prefix (or ``None``). With
    ``suggest`` false an unknown place is refused without the nearest names (they cost a
    comparison with every name of the map: :data:`~diplo.model.limits.SUGGESTED_ORDERS`)."""
    if not isinstance(text, str):
        raise OrderParseError(show(text), "an order must be a string")
    if len(text) > ORDER_LIMIT:
        # Refused unread: parsing time stays linear in the input.
        raise OrderParseError(text, f"longer than {ORDER_LIMIT} characters")
    control = _CONTROL.search(text)
    if control:
        raise OrderParseError(
            text, f"control character U+{ord(control.group()):04X} at {control.start()}"
        )
    power, body = _split_power(text, game_map)
    tokens = _tokens(body, game_map)
    if not tokens:
        raise OrderParseError(text, "empty order")
    return power, _parse_tokens(_Reader(text, tokens, game_map, suggest))


def unit_named(text: object, game_map: Map) -> Unit | None:
    """The unit an order text starts with (``A PAR`` of ``A PAR - BURG`` or ``A PAR jumps``)
    when that much can be read, even if the rest cannot; ``None`` otherwise. Names the unit of
    an unreadable order."""
    if not isinstance(text, str) or len(text) > ORDER_LIMIT or _CONTROL.search(text):
        return None
    try:
        _, body = _split_power(text, game_map)
        r = _Reader(text, _tokens(body, game_map), game_map)
    except (OrderParseError, ValueError):
        return None
    if r.take(_BUILD) is None:
        r.take(_DISBAND)
    unit_type: UnitType | None = "A" if r.take(_ARMY) else "F" if r.take(_FLEET) else None
    if unit_type is None:
        return None
    words: list[str] = []
    while (token := r.peek()) is not None and token not in _KEYWORDS:
        words.append(token)
        r.pos += 1
    # The longest run of words that names a place: "A PAR jumps" is A PAR.
    for n in range(len(words), 0, -1):
        try:
            return Unit(unit_type, game_map.lookup(" ".join(words[:n])))
        except MapError:
            continue
    return None


def parse_order(text: str, game_map: Map) -> Order:
    """Parse one order in any accepted notation; raises :class:`OrderParseError`."""
    return parse_power_order(text, game_map)[1]


def _parse_tokens(r: _Reader) -> Order:
    if r.peek() == "waive":
        r.pos += 1
        if not r.at_end():
            raise r.error("nothing may follow WAIVE")
        return Waive()
    # Prefix forms of the adjustment orders: "Build A Warsaw", "Remove F Gulf of Lyon".
    if r.take(_BUILD):
        order: Order = Build(r.unit("build location"))
        return _finish(r, order)
    if r.take(_DISBAND):
        return _finish(r, Disband(r.unit("unit to disband")))

    unit = r.unit("unit location")
    if r.at_end():
        raise r.error("no order given for the unit (expected H, -, S, C, R, D or B)")
    if r.take(_HOLD):
        return _finish(r, Hold(unit))
    if r.take(_MOVE):
        r.take({"to"})
        dest = r.location("destination")
        # DATC 4.A.6: a convoy path written into the order (A YOR - NTH - BEL) is ignored;
        # only the final destination counts.
        while r.take({"-"}):
            dest = r.location("destination")
        via = False
        if r.take({"via"}):
            r.take(_CONVOY)
            via = True
        elif r.peek() == "by" and r.pos + 1 < len(r.tokens) and r.tokens[r.pos + 1] in _CONVOY:
            r.pos += 2
            via = True
        return _finish(r, Move(unit, dest, via))
    if r.take(_SUPPORT):
        supported = r.unit("supported unit")
        if r.take(_MOVE):
            r.take({"to"})
            return _finish(r, SupportMove(unit, supported, r.location("supported destination")))
        r.take(_HOLD)
        return _finish(r, SupportHold(unit, supported))
    if r.take(_CONVOY):
        army = r.unit("convoyed army")
        if not r.take(_MOVE):
            raise r.error("a convoy order needs the army's destination (F NTH C A LON - BEL)")
        r.take({"to"})
        return _finish(r, Convoy(unit, army, r.location("convoy destination")))
    if r.take(_RETREAT):
        r.take({"to"})
        return _finish(r, Retreat(unit, r.location("retreat destination")))
    if r.take(_DISBAND):
        return _finish(r, Disband(unit))
    if r.take(_BUILD):
        return _finish(r, Build(unit))
    raise r.error(f"unexpected {r.peek()!r} after the unit")


def _finish(r: _Reader, order: Order) -> Order:
    if not r.at_end():
        raise r.error(f"unexpected {r.peek()!r} at the end")
    return order
