"""Order intake of a drop-in game: possible orders, orders given, kept and read."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final

from ...engine import mila as engine
from ...engine.codes import WAIVE, encode_order, kind_of, location_of
from ...model.map import MapError
from ...model.orders import OrderParseError, format_order, parse_order
from ...model.vocabulary import KEYWORDS
from .base import Face, State
from .names import SlotKind, pairs, support_text
from .turn import Turn

__all__ = ["OrderIntake"]

# The slots of entries kept under no province (see :class:`SlotKind`).
_waive_slot = SlotKind.WAIVE.slot
_unread_slot = SlotKind.UNREAD.slot
_void_slot = SlotKind.VOID.slot
#: What MILA's order cleaning reads as no word (a coast's ``/`` and a move's ``-`` are words).
_PUNCTUATION = re.compile(r"[^\w/\-]+")


class OrderIntake:
    """MILA's order calls: the order intake of :class:`diplo.compat.mila.Game`, over its board
    part ``state`` (which keeps the orders, :attr:`State.orders`)."""

    #: Its fields (see :data:`diplo.compat.mila.game.CARRIED`): the links to the game and its
    #: board part; nothing a copy carries; nothing worked out.
    LINKS: Final = ("_game", "_state")
    KEPT: Final = ()
    MADE: Final = ()
    __slots__ = LINKS + KEPT + MADE

    def __init__(self, state: State, game: Face) -> None:
        self._state = state
        self._game = game

    def get_orderable_locations(self, power_name: str | None = None) -> Any:
        """The provinces a power can order in this phase (all powers: a dict): its units, its
        dislodged units, its free home centres when it may build, its units when it must
        disband."""
        state = self._state
        if state.loaded or state.orders_loaded:
            state.sync()
        if power_name is not None:
            name = state.power_name(power_name)
            return [] if state.done else list(state.turn.orderable[name])
        if state.done:
            return {p: [] for p in state.model_map.powers}
        turn = state.turn
        spare = turn.spare
        if spare is not None:
            turn.spare = None
            return spare
        return {p: list(v) for p, v in turn.orderable.items()}

    def set_orders(self, power_name: str, orders: str | Sequence[str], replace: bool) -> None:
        """Give ``power_name``'s orders (see :meth:`diplo.compat.mila.Game.set_orders`, which
        takes a bot's listed texts itself and hands the others here)."""
        state = self._state
        power = power_name if power_name in state.powers else state.power_name(power_name)
        kind = type(orders)
        texts: Sequence[str]
        if kind is list:
            texts = orders
        elif kind is str:
            texts = [orders]  # type: ignore[list-item]
        elif isinstance(orders, str):
            texts = [str(orders)]
        elif isinstance(orders, Sequence):
            texts = list(orders)
        else:
            raise TypeError(
                f"set_orders: orders must be a string or a list, got {type(orders).__name__}"
            )
        if state.loaded or state.orders_loaded:
            state.sync()
        if state.done:
            if any(texts):
                state.note_error(f"{power}: the game is done, orders are not taken")
            return
        self.take_orders(power, texts, replace)

    def take_orders(
        self, power: str, texts: Sequence[str], replace: bool, quiet: bool = False
    ) -> None:
        """Keep ``texts`` as ``power``'s orders (see :meth:`set_orders`); all or nothing."""
        state = self._state
        turn = state.turn
        codes = turn.codes[power]
        province = state.tables.province
        before = state.orders.get(power)
        kept = {} if before is None else dict(before)
        if turn.kind == "M" and "NO_CHECK" not in self._game.rules:
            # The bot's path: listed texts, one per unit.
            for text in texts:
                try:
                    code = codes.get(text)
                except TypeError:  # an unhashable item (a list, a dict): no order
                    raise TypeError(
                        f"set_orders: every order must be a string, got {type(text).__name__}"
                    ) from None
                if code is None:
                    if not text:
                        continue
                    if type(text) is not str:
                        raise TypeError(f"set_orders: every order must be a string, got {text!r}")
                    code = self.read(power, text, turn, quiet)
                    if code is None:
                        continue
                    text = turn.text(code)
                slot = province[location_of(code)]
                if replace or slot not in kept:
                    kept[slot] = (text, code)
            state.orders[power] = kept
            return
        adjustment = turn.kind == "A"
        this_call: set[int] = set()
        no_check = turn.kind == "M"
        # MILA's intake (edition=mila): an order not legal now is void at once, takes no unit
        # or site and is not listed, so a legal one after it for the same unit or site is
        # kept; of two legal orders in one call for one unit or site the first is kept.
        milas = state.milas_intake
        for text in texts:
            if not text:
                continue
            if type(text) is not str:
                raise TypeError(f"set_orders: every order must be a string, got {text!r}")
            code = None if no_check else codes.get(text)
            if code is None:
                if no_check:
                    slot = self._unchecked_slot(text, len(kept))
                    if not replace:
                        slot = _unread_slot(len(kept))
                    kept[slot] = (" ".join(text.split()), None)
                    continue
                code = self.read(power, text, turn, quiet or not milas)
                if code is None and milas:
                    kept[_void_slot(len(kept))] = (f"VOID {self._void_text(text)}", None)
                    continue
                if code is None:
                    self._take_void_adjustment(power, text, kept, this_call, replace, quiet)
                    continue
                text = turn.text(code)
            # What the order is for: its unit's (or build site's) province; each waive its own.
            waive = kind_of(code) == WAIVE
            slot = _waive_slot(len(kept)) if waive else province[location_of(code)]
            if slot in this_call and (adjustment or milas):
                kept[_void_slot(len(kept))] = (f"VOID {text}", None)  # MILA: a second order, void
                continue
            if slot in kept and not replace:
                continue
            this_call.add(slot)
            kept[slot] = (text, code)
        state.orders[power] = kept

    def _take_void_adjustment(
        self,
        power: str,
        text: str,
        kept: dict[int, tuple[str, int | None]],
        this_call: set[int],
        replace: bool,
        quiet: bool,
    ) -> None:
        """An adjustment (retreat) order that is not legal now but is a build or a disband (a
        retreat or a disband): MILA keeps it (listed by ``get_orders``) and rules it void when
        processing."""
        state = self._state
        cleaned = " ".join(text.upper().split())
        try:
            order = parse_order(cleaned, state.model_map)
            words = format_order(order).split()
        except (OrderParseError, ValueError) as exc:
            if not quiet:
                state.note_error(f"{power}: {text!r} dropped: {exc}")
            return
        kinds = ("B", "D") if state.turn.kind == "A" else ("R", "D")
        if state.turn.kind == "R" and len(words) >= 3 and words[2] not in kinds:
            kept[_void_slot(len(kept))] = (
                f"VOID {' '.join(words)}",
                None,
            )  # MILA: void, not listed
            return
        if len(words) not in (3, 4) or words[2] not in kinds:
            if not quiet:
                why = "not an adjustment order" if kinds[0] == "B" else "not a retreat order"
                state.note_error(f"{power}: {text!r} dropped: {why}")
            return
        slot = state.tables.province[state.model_map.location_index[words[1]]]
        shown = " ".join(words)
        if slot in this_call:
            kept[_void_slot(len(kept))] = (f"VOID {shown}", None)
        elif slot not in kept or replace:
            this_call.add(slot)
            kept[slot] = (shown, None)

    def _milas_words(self, text: str) -> str:
        """An order as MILA reads it past words it does not know: punctuation is no word, and
        the words after the last one the order language or the map knows are dropped
        (``A PAR-BUR (Occupied!)`` is ``A PAR - BUR``, as MILA's order cleaning reads it; a
        known word in the note, such as ``(hold)``, leaves the order unreadable, as in MILA)."""
        words = _PUNCTUATION.sub(" ", text.replace("-", " - ")).split()
        lookup = self._state.model_map.lookup
        while words:
            word = words[-1]
            if word.lower() in KEYWORDS or word == "WAIVE":
                break
            try:
                lookup(word)
                break
            except (MapError, ValueError):
                words.pop()
        return " ".join(words)

    def _void_text(self, text: str) -> str:
        """An order MILA voids on intake, as its ``VOID`` entry names it: the unit first, in
        the canonical form when the order reads, else as given (upper case, one space)."""
        cleaned = " ".join(text.upper().split())
        try:
            return format_order(parse_order(cleaned, self._state.model_map))
        except (OrderParseError, ValueError):
            return cleaned

    def _unchecked_slot(self, text: str, count: int) -> int:
        """The slot of an order kept unchecked (``NO_CHECK``): its unit's province when readable."""
        state = self._state
        words = text.upper().split()
        loc = words[1] if len(words) > 1 and words[0] in ("A", "F") else words[0]
        try:
            return state.tables.province[
                state.model_map.location_index[state.model_map.lookup(loc)]
            ]
        except (MapError, KeyError, ValueError):
            return _unread_slot(count)

    def read(self, power: str, text: str, turn: Turn, quiet: bool = False) -> int | None:
        """The code of an order written otherwise than listed, or ``None`` (noted in ``error``).
        Read as the engine's validation reads it (DATC 4.B: a coast left out where only one can
        be meant, a wrong coast of the ordered unit, an army ordered to a coast); a refusal is
        worded as for every front end (:mod:`diplo.model.refusals`)."""
        state = self._state
        cleaned = " ".join(text.upper().split())
        try:
            order = parse_order(cleaned, state.model_map)
            code = encode_order(order, state.model_map, power)
        except (OrderParseError, ValueError) as exc:
            trimmed = self._milas_words(cleaned) if state.milas_intake else cleaned
            try:
                if trimmed == cleaned:
                    raise
                order = parse_order(trimmed, state.model_map)
                code = encode_order(order, state.model_map, power)
            except (OrderParseError, ValueError):
                if not quiet:
                    state.note_error(f"{power}: {text!r} dropped: {exc}")
                return None
        legal = turn.legal[power]
        if code in legal:
            return code
        normal, why = engine.read_refusal(state.core, turn.position, power, order, code)
        if normal is not None and normal in legal:
            return normal
        if not quiet:
            why = why or f"not a legal order of {power} here"
            state.note_error(f"{power}: {text!r} dropped: {why}")
        return None

    def get_orders(self, power_name: str | None = None) -> Any:
        """The orders kept so far for this phase, of a power (all powers: a dict); waives are
        not listed (as MILA)."""
        state = self._state
        if state.orders_loaded:
            state.sync_orders()
        if power_name is not None:
            return self._orders_of(state.power_name(power_name))
        return {p: self._orders_of(p) for p in state.model_map.powers}

    def _orders_of(self, power: str) -> list[str]:
        state = self._state
        texts = [
            t
            for t, c in pairs(state.orders.get(power, {}))
            if (c is None and not t.startswith("VOID ")) or (c is not None and kind_of(c) != WAIVE)
        ]
        coasts = state.two_coasts
        return texts if coasts is None else [support_text(t, coasts) for t in texts]

    def clear_orders(self, power_name: str | None = None) -> None:
        """Drop the orders given this phase by a power (all powers: every order)."""
        state = self._state
        if state.orders_loaded:
            state.sync_orders()
        if power_name is None:
            state.orders.clear()
        else:
            state.orders.pop(state.power_name(power_name), None)
        state.forget_order_views()
