"""The object API on the Rust game engine: :func:`diplo.api.phase.process_phase` with
``backend="rust"``.

One engine rules every phase kind: the game engine (``rust/src/engine/``) validates the
orders, resolves movement, retreats and adjustments (civil disorder included), sequences the
phases, changes centre ownership and ends the game. This module is only the translation between
the object world and the engine:

* orders in: an order string in the canonical short form (what
:func:`~diplo.model.orders.format_order`
  prints and :func:`diplo.api.legal.legal_order_texts` hands out) is read by the core's strict
  reader of that one form (``parse_canonical``: a split on spaces and a table lookup per location);
  an :class:`~diplo.model.orders.Order` object is read field by field in the core; any other
  notation (prose, full names, lower case, power prefixes) goes through
  :func:`~diplo.model.orders.parse_order`, with the same result. What cannot become a code at all
  (unparsable text, an order written for another power, a place the map does not have, an
  untyped build that could be either) is ruled by the model's intake
  (:func:`diplo.model.refusals.read_order`: it is illegal, with the intake's reason, and illegal
  orders take no part);
* positions in: the engine's state is kept on every position it made (and on a position the
  first time it is played), so a game never re-encodes its board;
* results out: :class:`EnginePhaseOutcome` and :class:`EnginePosition` are built lazily from the
  engine's arrays: nothing is turned into Python objects until it is read. The engine hands
  over the facts of every result (movement rows; retreat and adjustment rows with a why code
  and the names and numbers its sentence needs), and the sentences come from the same functions
  as the reference's (:mod:`diplo.model.outcome`, :mod:`diplo.reference.validation`), so both
  backends say the same words (``tests/test_engine.py``) and no phase is ruled twice.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from itertools import count, repeat
from typing import Any, TypeAlias, cast
from weakref import WeakKeyDictionary

from .. import _core
from ..model.limits import MAX_YEAR, MIN_YEAR
from ..model.map import Map
from ..model.orders import (
    Build,
    Hold,
    Order,
    OrderParseError,
    Unit,
    Waive,
    format_order,
    order_unit,
    parse_power_order,
)
from ..model.outcome import RulingFacts, explain_facts, explain_ruling, explain_tail
from ..model.position import Dislodged, Phase, Piece, Position, PositionError
from ..model.refusals import (
    OrderReader,
    implied_hold_reason,
    multiple_orders_message,
    named_piece,
    refusal_message,
)
from ..model.results import (
    PhaseOutcome,
    Result,
    dislodged_json,
    legal_result_text,
    next_json,
)
from ..model.rules import Rules
from .codes import encode_order, location_of, waive_code
from .compile import MapTables, code_map, encode_position, engine_game, tables

__all__ = [
    "EnginePhaseOutcome",
    "EnginePosition",
    "ImpliedHoldRow",
    "MovementRow",
    "Submission",
    "code_map",
    "encode_position",
    "engine_game",
    "engine_reasons",
    "implied_hold_text",
    "legal_order_texts_engine",
    "orderable_powers_engine",
    "plain_names",
    "process_phase_engine",
    "read_position",
    "ruling_facts",
]

REASON_NAMES: tuple[str, ...] = tuple(_core.REASON_NAMES)
_MULTIPLE = REASON_NAMES.index("multiple_orders")
#: The why codes of the engine's retreat and adjustment rows, named as the model's sentences.
EXPLAIN_NAMES: tuple[str, ...] = tuple(_core.EXPLAIN_NAMES)


# --------------------------------------------------------------------------- positions


class EnginePosition(Position):
    """A :class:`~diplo.model.position.Position` whose board lives in the engine: ``units``,
    ``centers`` and ``dislodged`` are read out on first use. Equal to (and pickled as) the plain
    position with the same contents."""

    def __new__(cls, *args: Any, **fields: Any) -> Any:
        if fields:  # dataclasses.replace: a plain position with the new contents
            return Position(**fields)
        return object.__new__(cls)

    def __init__(self, game_map: Map, phase: Phase, core: _core.CodeGame, rules: Rules) -> None:
        object.__setattr__(self, "map", game_map)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "_engine", core)

    def _read(self) -> None:
        t = tables(self.map)
        _year, _season, _kind, units, centers, dislodged = self.__dict__["_engine"].state()
        piece = t.piece
        provinces = t.provinces
        board = {provinces[loc]: piece(power, fleet, loc) for power, fleet, loc in units}
        powers = t.powers
        owners = {provinces[prov]: powers[power] for prov, power in centers}
        gone = {}
        locations = t.locations
        for power, fleet, loc, options in dislodged:
            gone[provinces[loc]] = Dislodged(
                piece(power, fleet, loc), tuple(locations[o] for o in options)
            )
        from types import MappingProxyType

        d = self.__dict__
        d["_units"] = MappingProxyType(board)
        d["_centers"] = MappingProxyType(owners)
        d["_dislodged"] = MappingProxyType(gone)

    @property
    def units(self) -> Mapping[str, Piece]:
        d = self.__dict__
        if "_units" not in d:
            self._read()
        return d["_units"]  # type: ignore[no-any-return]

    @property
    def centers(self) -> Mapping[str, str]:
        d = self.__dict__
        if "_units" not in d:
            self._read()
        return d["_centers"]  # type: ignore[no-any-return]

    @property
    def dislodged(self) -> Mapping[str, Dislodged]:
        d = self.__dict__
        if "_units" not in d:
            self._read()
        return d["_dislodged"]  # type: ignore[no-any-return]

    def to_json(self) -> dict[str, Any]:
        if "_units" in self.__dict__:
            return super().to_json()
        out: dict[str, Any] = self.__dict__["_engine"].position_json()
        out["phase"] = str(self.phase)
        if self.rules != self.map.rules:
            out["rules"] = self.rules.to_json()
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (self.phase, self.units, self.centers, self.dislodged) == (
            other.phase,
            other.units,
            other.centers,
            other.dislodged,
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"Position(phase={self.phase!r}, units={self.units!r}, centers={self.centers!r}, "
            f"dislodged={self.dislodged!r}, rules={self.rules!r})"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            _plain_position,
            (
                self.map,
                self.phase,
                dict(self.units),
                dict(self.centers),
                dict(self.dislodged),
                self.rules,
            ),
        )


def _plain_position(
    game_map: Map,
    phase: Phase,
    units: Mapping[str, Piece],
    centers: Mapping[str, str],
    dislodged: Mapping[str, Dislodged],
    rules: Rules,
) -> Position:
    """An engine position unpickled: the plain position with the same contents and rules."""
    return Position(game_map, phase, units, centers, dislodged, rules=rules)


def read_position(doc: Mapping[str, Any], game_map: Map) -> EnginePosition | None:
    """The position of an adjudicate document written exactly in the canonical form, read by
    the engine (``None`` otherwise: :meth:`Position.from_json` reads it, or says what is
    wrong). Equal to what :meth:`Position.from_json` reads."""
    if doc.get("dislodged"):
        return None  # retreat options are checked against the board by Position.from_json
    if doc.get("rules") is not None or not game_map.rules.is_default:
        return None  # Position.from_json reads (and checks) the rules
    t = tables(game_map)
    try:
        core = t.core_map.read_position(doc)
    except UnicodeEncodeError:  # a lone surrogate: Position.from_json says what is wrong
        return None
    if core is None:
        return None
    try:
        phase = t.phase(doc["phase"])
    except PositionError:
        return None  # (e.g. S00001M): Position.from_json says what is wrong with it
    if not MIN_YEAR <= phase.year <= MAX_YEAR:
        return None
    return EnginePosition(game_map, phase, core, game_map.rules)


# --------------------------------------------------------------------------- orders in


class Submission:
    """The orders of one phase as the engine takes them, and those ruled before it."""

    __slots__ = ("_items", "codes", "orders", "powers", "quick")

    def __init__(self, orders: Mapping[str, Sequence[str | Order]]) -> None:
        self.orders = orders
        #: The codes, when they were made here (read by the core in one call, they stay there:
        #: ``CodeGame.run_orders``); one per power byte of ``powers`` either way.
        self.codes: list[int] = []
        self.powers: bytes = b""
        self._items: list[tuple[str, str | Order, int]] | None = None
        #: Whether every order went to the engine, in input order (``items`` not needed).
        self.quick = False

    @property
    def items(self) -> list[tuple[str, str | Order, int]]:
        """Per input order, in input order: ``(power, item, engine index or -1)``."""
        if self._items is None:
            # Every order went to the engine, in input order.
            flat = [(p, item) for p, given in self.orders.items() for item in given]
            self._items = [(p, item, k) for k, (p, item) in enumerate(flat)]
        return self._items


def _learn(t: MapTables, power: str, text: str) -> int | None:
    """The code of an order text in another notation than the table's, or ``None`` when it
    cannot be one (the model's intake, :func:`~diplo.model.refusals.read_order`, rules on it)."""
    try:
        # No suggestions: only the code is wanted (the refusal is worded by _refused).
        prefix, order = parse_power_order(text, t.map, suggest=False)
    except (OrderParseError, ValueError):
        return None
    if prefix is not None and prefix != power:
        return None
    return _object_code(t, power, order)


def _object_code(t: MapTables, power: str, order: object) -> int | None:
    if isinstance(order, Waive):
        return waive_code(t.power_index[power])
    code = t.core_map.encode_objects([order])[0]
    if code >= 0:
        return code
    # Not read by the core: an untyped build (DATC 4.C.3: typed here where the place says which),
    # or an object of a subclass of an order class.
    try:
        return encode_order(cast(Order, order), t.map, power)  # it refuses a non-order
    except ValueError:
        return None


def _submission(t: MapTables, orders: Mapping[str, Sequence[str | Order]]) -> Submission:
    sub = Submission(orders)
    codes = sub.codes
    powers = bytearray()
    items: list[tuple[str, str | Order, int]] = []
    sub._items = items
    flat: list[tuple[str, int, str | Order]] = []
    objects: list[object] = []
    for power, given in orders.items():
        # A power the map does not have orders nothing: the model's intake rules its orders.
        pi = t.power_index.get(power, -1)
        for item in given:
            flat.append((power, pi, item))
            if not isinstance(item, str | Waive):
                objects.append(item)
    found = iter(t.core_map.encode_objects(objects)) if objects else iter(())
    for power, pi, item in flat:
        code: int | None
        if pi < 0:
            code = None
            if not isinstance(item, str | Waive):
                next(found)
        elif isinstance(item, str):
            try:
                code = t.core_map.parse_canonical(item)
            except UnicodeEncodeError:  # a lone surrogate: the parser here reads what it can
                code = None
            if code is None:
                code = waive_code(pi) if item == "WAIVE" else _learn(t, power, item)
        elif isinstance(item, Waive):
            code = waive_code(pi)
        else:
            code = next(found)
            if code < 0:
                code = _object_code(t, power, item)
        if code is None:
            items.append((power, item, -1))
        else:
            items.append((power, item, len(codes)))
            codes.append(code)
            powers.append(pi)
    sub.powers = bytes(powers)
    return sub


def _completed(
    t: MapTables,
    orders: Mapping[str, Sequence[str | Order]],
    codes: list[int],
    powers: bytes,
    missing: list[int],
) -> Submission:
    """The submission of ``orders`` the core read but for the ``missing`` ones (by their
    index in input order; ``CodeMap.submit_orders``): those are read here (the general parser,
    or nothing for a power the map does not have: the model's intake rules on them), the others
    kept as the core read them, so every text is read once."""
    sub = Submission(orders)
    flat = [(p, item) for p, given in orders.items() for item in given]
    learnt: dict[int, int | None] = {}
    for k in missing:
        power, item = flat[k]
        if powers[k] == _NO_POWER:
            learnt[k] = None
        elif isinstance(item, str):
            learnt[k] = _learn(t, power, item)
        else:
            learnt[k] = _object_code(t, power, item)
    kept: list[int] = []
    kept_powers = bytearray()
    items: list[tuple[str, str | Order, int]] = []
    for k, (power, item) in enumerate(flat):
        code = learnt[k] if k in learnt else codes[k]
        if code is None:
            items.append((power, item, -1))
        else:
            items.append((power, item, len(kept)))
            kept.append(code)
            kept_powers.append(powers[k])
    sub.codes, sub.powers, sub._items = kept, bytes(kept_powers), items
    return sub


#: The power index ``CodeMap.submit_orders`` gives the orders of a power the map does not have.
_NO_POWER = 255


# --------------------------------------------------------------------------- the phase

#: A legal movement order's result as the engine hands it over (``Verdict.movement_rows``,
#: one per code): ``(order, unit, kind, code, success, dislodged_by, by, attack, opposition,
#: convoyed, szykman)``: the normal form's canonical text, the unit's (``A PAR``), the order's
#: class name, the result code and DATC success flag, then the facts of its sentence
#: (:func:`~diplo.model.outcome.explain_facts` takes ``order, kind, code`` and these six). The
#: engine's rows are plain tuples, read by unpacking (no object is made per row: this is the
#: results' read-out path); the type is this layout's one statement, which mypy holds every
#: unpacking to.
MovementRow: TypeAlias = tuple[
    str, str, str, str, bool, str | None, str | None, int, int, bool, bool
]
#: A movement phase's implied hold (the rows after the codes' rows): ``(power, unit,
#: province, code, success, dislodged_by)``.
ImpliedHoldRow: TypeAlias = tuple[str, str, str, str, bool, str | None]


def process_phase_engine(
    position: Position, orders: Mapping[str, Sequence[str | Order]]
) -> EnginePhaseOutcome:
    """Rule on one phase in the engine (see the module documentation)."""
    game_map = position.map
    t = tables(game_map)
    after = engine_game(position).clone()
    sub = Submission(orders)
    try:
        try:
            # Read and, when the core read every order, ruled in one call: the codes stay there.
            ran = after.run_orders(t.core_map, orders, t.power_index)
        except UnicodeEncodeError:  # a text with a lone surrogate: not UTF-8, read here instead
            ran = None
        if ran is None:
            sub = _submission(t, orders)
            verdict = after.run(sub.codes, sub.powers)
        elif ran[0] is None:  # some orders the core left to the general parser or the intake
            _, powers, codes, missing = ran
            assert codes is not None
            sub = _completed(t, orders, codes, powers, missing)
            verdict = after.run(sub.codes, sub.powers)
        else:
            verdict, sub.powers = ran[0], ran[1]
            sub.quick = True
    except ValueError as error:
        # The one refusal of a run here (codes and powers are made together): a phase that
        # would go past MAX_YEAR, in the core's words; a position error, as the reference's.
        raise PositionError(str(error)) from None
    winner = after.winner
    nxt = EnginePosition(game_map, t.phase(after.phase), after, position.rules)
    return EnginePhaseOutcome(position, nxt, winner, verdict, sub, orders)


class EnginePhaseOutcome(PhaseOutcome):
    """A :class:`~diplo.model.results.PhaseOutcome` ruled by the engine: ``results`` and
    ``dislodged`` are read out of the engine on first use. Equal to the plain outcome with the
    same contents."""

    def __new__(cls, *args: Any, **fields: Any) -> Any:
        if fields:  # dataclasses.replace: a plain outcome with the new contents
            return PhaseOutcome(**fields)
        return object.__new__(cls)

    _position: Position
    _verdict: _core.Verdict
    _submission: Submission
    _orders: Mapping[str, Sequence[str | Order]]

    def __init__(
        self,
        position: Position,
        nxt: Position,
        winner: str | None,
        verdict: _core.Verdict,
        submission: Submission,
        orders: Mapping[str, Sequence[str | Order]],
    ) -> None:
        d = self.__dict__
        d["phase"] = position.phase
        d["next"] = nxt
        d["winner"] = winner
        d["_position"] = position
        d["_verdict"] = verdict
        d["_submission"] = submission
        d["_orders"] = orders

    def _read(self) -> None:
        results, dislodged = _build_results(self, False)
        d = self.__dict__
        d["_results"] = results
        d["_dislodged"] = dislodged

    def to_json_text(self) -> str:
        """``json.dumps(self.to_json())``, byte for byte, with the results the engine ruled on
        written straight from its rows (no :class:`~diplo.model.results.Result` made): every string
        in them is made of the map's names, fixed ASCII words and numbers, so on a map whose
        names need no JSON escape (:func:`plain_names`) neither do they. Any other result goes
        through ``json.dumps``."""
        d = self.__dict__
        if "_results" in d or not plain_names(self.next.map):
            return super().to_json_text()
        made, dislodged = _build_results(self, True)
        d["_dislodged"] = dislodged
        dumps = json.dumps
        lines = [r if type(r) is str else dumps(r.to_json()) for r in made]
        return (
            f'{{"phase": "{self.phase}", "results": [{", ".join(lines)}], '
            f'"dislodged": {dumps(dislodged_json(self)) if dislodged else "{}"}, '
            f'"next": {self._next_text()}}}'
        )

    def _next_text(self) -> str:
        """``json.dumps(next_json(self))`` on a plain-named map: written by the engine when
        the next position is its own board under the map's rules."""
        nxt = self.next
        if (
            isinstance(nxt, EnginePosition)
            and "_units" not in nxt.__dict__
            and (nxt.rules is nxt.map.rules or nxt.rules == nxt.map.rules)
        ):
            core: _core.CodeGame = nxt.__dict__["_engine"]
            return core.position_json_text(None if self.game_over else str(nxt.phase))
        return _position_text(next_json(self))

    @property
    def results(self) -> list[Result]:
        d = self.__dict__
        if "_results" not in d:
            self._read()
        return d["_results"]  # type: ignore[no-any-return]

    @property
    def dislodged(self) -> dict[str, Dislodged]:
        d = self.__dict__
        if "_dislodged" not in d:
            self._read()
        return d["_dislodged"]  # type: ignore[no-any-return]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PhaseOutcome):
            return NotImplemented
        return (self.phase, self.results, self.dislodged, self.next, self.winner) == (
            other.phase,
            other.results,
            other.dislodged,
            other.next,
            other.winner,
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"PhaseOutcome(phase={self.phase!r}, results={self.results!r}, "
            f"dislodged={self.dislodged!r}, next={self.next!r}, winner={self.winner!r})"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            PhaseOutcome,
            (self.phase, self.results, self.dislodged, self.next, self.winner),
        )


def implied_hold_text(
    refused: list[tuple[str | None, str]], prov: str, piece: str, dislodged_by: str | None
) -> str:
    """The sentence of an implied hold of ``piece`` in ``prov``: why it held (the last refused
    order of its province in ``refused``, ``(province, reason code)`` pairs) and who dislodged
    it."""
    codes = [code for p, code in refused if p == prov]
    return implied_hold_reason(piece, codes[-1] if codes else None, dislodged_by)


_SAFE_NAME = re.compile(r"[ !#-\[\]-~]*")
_PLAIN_MAPS: WeakKeyDictionary[Map, bool] = WeakKeyDictionary()


def _position_text(doc: dict[str, Any]) -> str:
    """``json.dumps`` of a position document of a map whose names need no escape
    (:func:`plain_names`): its boards (pieces, centres, retreat options per power) are written
    as they are, anything else (the phase, rules) by ``json.dumps``."""
    dumps = json.dumps
    parts = []
    for key, value in doc.items():
        if key in _BOARDS:
            parts.append(f'"{key}": {_board_text(value)}')
        else:
            parts.append(f"{dumps(key)}: {dumps(value)}")
    return "{" + ", ".join(parts) + "}"


_BOARDS = frozenset({"units", "centers", "dislodged"})


def _board_text(value: dict[str, Any]) -> str:
    """``{power: [name, ...]}`` or ``{power: {unit: [name, ...]}}`` of map names as JSON."""
    parts = []
    for key, names in value.items():
        if type(names) is dict:
            parts.append(f'"{key}": {_board_text(names)}')
        elif names:
            parts.append(f'"{key}": ["' + '", "'.join(names) + '"]')
        else:
            parts.append(f'"{key}": []')
    return "{" + ", ".join(parts) + "}"


def plain_names(game_map: Map) -> bool:
    """Whether every location and power name of ``game_map`` is printable ASCII without a
    quote or backslash: what ``json.dumps`` writes as it is (checked once per map)."""
    plain = _PLAIN_MAPS.get(game_map)
    if plain is None:
        names = [*game_map.locations, *game_map.powers]
        plain = _PLAIN_MAPS[game_map] = all(_SAFE_NAME.fullmatch(n) for n in names)
    return plain


def _build_results(
    outcome: EnginePhaseOutcome, as_text: bool
) -> tuple[list[Any], dict[str, Dislodged]]:
    """:func:`build_results`; with ``as_text`` a result made from the engine's row alone is
    its JSON text instead (only map names, fixed words and numbers in it: see
    ``EnginePhaseOutcome.to_json_text``), the others stay results."""
    position: Position = outcome._position
    verdict = outcome._verdict
    sub: Submission = outcome._submission
    t = tables(position.map)
    kind = position.phase.kind
    rows = verdict.movement_rows() if kind == "M" else None
    reasons: list[int] | None = None
    multiple: _MultipleOrders | None = None
    results: list[Any] = []
    refused: list[tuple[str | None, str]] = []
    reader: OrderReader | None = None
    new = tuple.__new__
    if as_text and rows is not None and sub.quick and None not in rows[: len(sub.powers)]:
        # Every order reached the engine and is legal: one line per row, in input order.
        names = t.powers
        # (map stops at the shorter input: the orders' powers, so the implied holds' rows stay)
        results = list(map(_row_json, map(names.__getitem__, sub.powers), rows))
        return _with_implied(t, verdict, rows, len(sub.powers), results, [], True)
    if rows is not None and sub.quick:
        # Every order reached the engine, in input order: the k-th is the k-th code.
        names = t.powers
        order_items: Any = zip(map(names.__getitem__, sub.powers), repeat(None), count())
    else:
        order_items = sub.items
    for power, item, j in order_items:
        if rows is not None and j >= 0:
            row: MovementRow | None = rows[j]
            if row is not None:
                if as_text:
                    results.append(_row_json(power, row))
                    continue
                text, unit, kind_name, code, ok, origin, by, attack, opposition, via, szy = row
                reason = explain_facts(
                    text, kind_name, code, origin, by, attack, opposition, via, szy
                )
                results.append(
                    new(Result, (power, unit, text, True, True, ok, code, reason, origin))
                )
                continue
        if reasons is None:
            reasons = verdict.reasons()
        if j >= 0 and reasons[j] == 0:
            results.append(None)  # legal: filled in below (retreats, adjustments)
            continue
        if j >= 0 and reasons[j] == _MULTIPLE:
            if multiple is None:
                multiple = _MultipleOrders(t, verdict, reasons)
            results.append(multiple.result(j, power))
            refused.append((multiple.province[j], "multiple_orders"))
            continue
        if item is None:
            item = sub.items[j][1]
        if reader is None:
            reader = OrderReader(position.map)
        why = reasons[j] if j >= 0 else -1
        result, prov, code = _refused(position, power, item, why, reader)
        results.append(result)
        refused.append((prov, code))
    if rows is not None:
        return _with_implied(t, verdict, rows, len(sub.powers), results, refused, as_text)
    # Retreats and adjustments: the engine's rulings (why and facts), in the model's words.
    phase_rows = verdict.phase_rows()
    for i, (power, _item, j) in enumerate(sub.items):
        if results[i] is None:
            ruled = phase_rows[j]
            assert ruled is not None  # a legal order has its row
            code, ok, named, raw = ruled
            facts = ruling_facts(raw)
            reason = explain_ruling(facts)
            results[i] = new(
                Result, (power, named, facts.order, True, True, ok, code, reason, None)
            )
    for implied in phase_rows[len(sub.powers) :]:
        assert implied is not None  # every implied result has its row
        code, ok, named, raw = implied
        facts = ruling_facts(raw)
        reason = explain_ruling(facts)
        results.append(
            new(Result, (facts.power, named, facts.order, False, True, ok, code, reason, None))
        )
    return results, {}


def ruling_facts(raw: tuple[Any, ...]) -> RulingFacts:
    """The facts of an engine row (:meth:`Verdict.phase_rows`), its why code named."""
    return RulingFacts(EXPLAIN_NAMES[raw[0]], *raw[1:])


def _row_json(power: str, row: MovementRow) -> str:
    """The JSON text of a legal movement order's result from its engine row (see
    :meth:`Verdict.movement_rows`), as ``json.dumps(result.to_json())`` writes it on a map
    whose names need no escape."""
    text, unit, kind_name, code, ok, origin, by, attack, opposition, via, szy = row
    tail = explain_tail(kind_name, code, origin, by, attack, opposition, via, szy)
    return legal_result_text(power, unit, text, True, ok, code, f'"{text}{tail}"', origin)


def _with_implied(
    t: MapTables,
    verdict: _core.Verdict,
    rows: list[Any],
    given: int,
    results: list[Any],
    refused: list[tuple[str | None, str]],
    as_text: bool,
) -> tuple[list[Any], dict[str, Dislodged]]:
    """A movement phase's results with its implied holds appended (rows after the ``given``
    orders' rows), and its dislodged units."""
    new = tuple.__new__
    implied: list[ImpliedHoldRow] = rows[given:]
    for power, unit, prov, code, ok, origin in implied:
        reason = implied_hold_text(refused, prov, unit, origin)
        result = new(Result, (power, unit, f"{unit} H", False, True, ok, code, reason, origin))
        # A refused order's reason code is in the sentence: json.dumps writes that one.
        if as_text and not any(p == prov for p, _ in refused):
            results.append(
                legal_result_text(power, unit, f"{unit} H", False, ok, code, f'"{reason}"', origin)
            )
        else:
            results.append(result)
    locations = t.locations
    dislodged = {}
    for power_i, fleet, loc_i, options in verdict.gone():
        piece = t.piece(power_i, fleet, loc_i)
        dislodged[piece.province] = Dislodged(piece, tuple(locations[o] for o in options))
    return results, dislodged


def _refused(
    position: Position,
    power: str,
    item: str | Order,
    reason: int,
    reader: OrderReader,
) -> tuple[Result, str | None, str]:
    """The result of an order the engine refused (``reason``, its reason code), or that could
    not become a code (``reason`` -1), with the province of its unit and the reason's name: the
    intake and the sentence are the model's (:mod:`diplo.model.refusals`), the verdict the
    engine's."""
    intake = reader.read(item, power)
    order = intake.order
    text = item if isinstance(item, str) else format_order(item)
    if intake.code is not None:
        unit = None if order is None or isinstance(order, Waive) else str(order.unit)
        prov = None
        if order is None and intake.unit is not None:
            # An unreadable order still names its unit when its start can be read.
            board = named_piece(position, Hold(intake.unit))
            if board is not None:
                unit, prov = str(board), board.province
        canonical = text if order is None else format_order(order)
        result = Result(power, unit, canonical, True, False, False, "illegal", intake.message)
        return result, prov, intake.code
    assert order is not None
    code = REASON_NAMES[reason] if reason >= 0 else _untyped_build_reason(position, power, order)
    piece = named_piece(position, order)
    named = order_unit(order)
    unit = str(piece) if piece is not None else None if named is None else str(named)
    message = refusal_message(code, power, order, position)
    result = Result(power, unit, format_order(order), True, False, False, "illegal", message)
    return result, None if piece is None else piece.province, code


def _untyped_build_reason(position: Position, power: str, order: Order) -> str:
    """Why a build that names no unit type, where the place does not say which (a coastal
    province without a coast: DATC 4.C.3), is refused: for what its army reading is refused
    (the rules before the type; the engine's validation asked, nothing played), else because
    its type is needed."""
    if not isinstance(order, Build) or order.unit.type is not None:
        raise RuntimeError(f"the engine could not encode the order {format_order(order)!r}")
    game_map = position.map
    army = encode_order(Build(Unit("A", order.unit.loc)), game_map)
    reason, _normal = engine_game(position).judge(army, game_map.powers.index(power))
    name = REASON_NAMES[reason]
    return "unit_type_needed" if name == "ok" else name


class _MultipleOrders:
    """The orders of a phase refused because their unit was given different orders (4.D.3),
    grouped by province once per phase: each one's result is then found without rescanning the
    others (a document of thousands of conflicting orders stays linear)."""

    def __init__(self, t: MapTables, verdict: _core.Verdict, reasons: list[int]) -> None:
        normals = verdict.normal_forms()
        provinces = t.provinces
        #: order index -> its unit's province, for every refused-as-multiple order
        self.province: dict[int, str] = {}
        groups: dict[str, list[int]] = {}
        for k, r in enumerate(reasons):
            if r == _MULTIPLE:
                prov = provinces[location_of(normals[k])]
                self.province[k] = prov
                groups.setdefault(prov, []).append(k)
        # index -> (its text, how many different texts its unit was given)
        self._texts: dict[int, tuple[str, int]] = {}
        for same in groups.values():
            texts = verdict.texts([normals[k] for k in same])
            count = len(set(texts))
            for k, text in zip(same, texts, strict=True):
                self._texts[k] = (text, count)

    def result(self, j: int, power: str) -> Result:
        """The result of the ``j``-th order."""
        text, count = self._texts[j]
        unit = text[: text.find(" ", 2)]
        message = multiple_orders_message(text, unit, count)
        return Result(power, unit, text, True, False, False, "illegal", message)


def _legal_by_power(position: Position) -> dict[str, dict[str, list[str]]]:
    """Every power's legal order texts in ``position``, keyed as :mod:`diplo.api.legal` keys them,
    worked out once per position (positions are immutable)."""
    per_power: dict[str, dict[str, list[str]]] | None = position.__dict__.get("_legal")
    if per_power is None:
        # Keys in diplo.api.legal's order: provinces sorted, then the power's waive.
        per_power = engine_game(position).legal_by_power()
        position.__dict__["_legal"] = per_power
    return per_power


def legal_order_texts_engine(position: Position, power: str | None = None) -> dict[str, list[str]]:
    """:func:`diplo.api.legal.legal_order_texts` from the engine (same keys, lists and order)."""
    if power is not None:
        # One power's lists, made for this call (nothing to copy, no other power's texts made).
        index = tables(position.map).power_index.get(power)
        return {} if index is None else engine_game(position).legal_of(index)
    per_power = _legal_by_power(position)
    merged = {key: v.copy() for mine in per_power.values() for key, v in mine.items()}
    powers = position.map.powers
    keys = sorted(k for k in merged if k not in powers)
    keys += [p for p in powers if p in merged]
    return {key: merged[key] for key in keys}


def engine_reasons(
    position: Position, orders: Mapping[str, Sequence[str | Order]]
) -> list[str | None]:
    """Per input order (in input order), the reason code the engine's validation gives it
    (``"ok"`` when legal), or ``None`` for an order that never reached the engine (text that
    does not parse, an order written for another power, ...: the model's intake rules on those).
    For the cross-check of the engine's reasons against :mod:`diplo.reference.validation`."""
    t = tables(position.map)
    sub = _submission(t, orders)
    # Judged, nothing played: no game is cloned and run to learn a reason.
    reasons = engine_game(position).judge_all(sub.codes, sub.powers)
    return [None if j < 0 else REASON_NAMES[reasons[j]] for _p, _i, j in sub.items]


def orderable_powers_engine(position: Position) -> list[str]:
    """The powers with something to order in ``position``'s phase, in map order (as
    :meth:`diplo.api.game.Game.orderable_powers` defines them): those with a unit, dislodged unit or
    build site to order; a power whose only key is the waive of a power with no build site has
    nothing to order."""
    found: list[str] | None = position.__dict__.get("_orderable")
    if found is None:
        found = engine_game(position).orderable()
        position.__dict__["_orderable"] = found
    return found
