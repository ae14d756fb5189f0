"""Validation and the legal-order listing decide with the same functions
(:mod:`diplo.reference.legality`), not with two copies of the rules.

Two kinds of evidence: change one rule and both change with it (a rule made stricter by a test
refuses an order in validation *and* drops it from the listing); and on generated boards every
listed order is an answer some rule gave the listing, which validation then gets from the same
rule, while every order validation accepts is listed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from diplo.model.map import standard_map
from diplo.model.orders import Hold, Order, format_order, parse_order
from diplo.model.position import Dislodged, Phase, Piece, Position
from diplo.reference import legal, legality
from diplo.reference.legal import legal_orders
from diplo.reference.validation import validate_order

from generators import convoy_heavy_position, random_position

M = standard_map()
RULES = (
    "move_rule",
    "support_hold_rule",
    "support_move_rule",
    "convoy_rule",
    "retreat_rule",
    "build_rule",
)


@contextmanager
def _patched(
    monkeypatch: pytest.MonkeyPatch, name: str, wrap: Callable[[Callable[..., Any]], Any]
) -> Iterator[None]:
    """Replace rule ``name`` of :mod:`diplo.reference.legality` for the block; the listing's
    memo of rule answers is emptied on entry and exit so that it asks the rule again."""
    legal._MEMO.clear()
    with monkeypatch.context() as patch:
        patch.setattr(legality, name, wrap(getattr(legality, name)))
        try:
            yield
        finally:
            legal._MEMO.clear()


def _pos(units: dict[str, str], phase: str = "S1901M", **kw: Any) -> Position:
    pieces = {}
    for text, power in units.items():
        kind, loc = text.split()
        piece = Piece(power, kind, loc)  # type: ignore[arg-type]
        pieces[piece.province] = piece
    return Position(M, Phase.parse(phase), pieces, kw.get("centers", {}), kw.get("dislodged", {}))


def _listed(pos: Position, power: str) -> set[str]:
    return {format_order(o) for orders in legal_orders(pos, power).values() for o in orders}


BOARD = _pos(
    {"A LON": "ENGLAND", "F NTH": "ENGLAND", "A YOR": "ENGLAND", "F ENG": "ENGLAND"},
)
# One legal order per rule, on a board where it is legal, with the power giving it.
CASES: list[tuple[str, Position, str, str]] = [
    ("move_rule", BOARD, "ENGLAND", "A LON - NWY"),
    ("support_hold_rule", BOARD, "ENGLAND", "A YOR S A LON"),
    ("support_move_rule", BOARD, "ENGLAND", "F NTH S A YOR - EDI"),
    ("convoy_rule", BOARD, "ENGLAND", "F NTH C A LON - NWY"),
    (
        "retreat_rule",
        _pos(
            {"A PAR": "GERMANY"},
            phase="F1901R",
            dislodged={"BUR": Dislodged(Piece("FRANCE", "A", "BUR"), ("MAR", "GAS"))},
        ),
        "FRANCE",
        "A BUR R MAR",
    ),
    (
        "build_rule",
        _pos({}, phase="W1901A", centers={"LON": "ENGLAND", "EDI": "ENGLAND"}),
        "ENGLAND",
        "F LON B",
    ),
]


# The refusal each stricter rule gives (one the rule could give, so that it has a sentence).
REFUSAL = {
    "move_rule": "not_adjacent",
    "support_hold_rule": "cannot_support",
    "support_move_rule": "cannot_support",
    "convoy_rule": "convoy_impossible",
    "retreat_rule": "bad_retreat",
    "build_rule": "fleet_to_land",
}


@pytest.mark.parametrize(("rule", "pos", "power", "text"), CASES, ids=[c[0] for c in CASES])
def test_one_rule_changed_changes_validation_and_listing_alike(
    monkeypatch: pytest.MonkeyPatch, rule: str, pos: Position, power: str, text: str
) -> None:
    order = parse_order(text, M)
    before = validate_order(pos, power, order)
    assert before.legal, before.message
    canonical = before.canonical
    listed = _listed(pos, power)
    assert canonical in listed

    def stricter(real: Callable[..., Any]) -> Callable[..., Any]:
        # The same rule, except that it refuses exactly this order.
        def rule_fn(*args: Any) -> Any:
            answer = real(*args)
            if not isinstance(answer, str) and format_order(answer) == canonical:
                return REFUSAL[rule]
            return answer

        return rule_fn

    with _patched(monkeypatch, rule, stricter):
        after = validate_order(pos, power, order)
        assert not after.legal and after.code == REFUSAL[rule]
        assert _listed(pos, power) == listed - {canonical}
    assert _listed(pos, power) == listed  # and back


def _recording(calls: list[tuple[str, Order]]) -> Callable[[str], Callable[..., Any]]:
    def for_rule(name: str) -> Callable[..., Any]:
        def wrap(real: Callable[..., Any]) -> Callable[..., Any]:
            def rule_fn(*args: Any) -> Any:
                answer = real(*args)
                if not isinstance(answer, str):
                    calls.append((name, answer))
                return answer

            return rule_fn

        return wrap

    return for_rule


def _boards(seed: int, count: int) -> Iterator[Position]:
    rng = random.Random(seed)
    for i in range(count):
        if i % 2:
            yield convoy_heavy_position(M, rng)
        else:
            yield random_position(M, rng)


@pytest.mark.parametrize("seed", range(4))
def test_every_listed_order_is_a_rules_answer_and_validates_by_the_same_rule(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    calls: list[tuple[str, Order]] = []
    record = _recording(calls)
    with monkeypatch.context() as patch:
        for name in RULES:
            patch.setattr(legality, name, record(name)(getattr(legality, name)))
        for pos in _boards(seed, 6):
            legal._MEMO.clear()
            for power in sorted({p.power for p in pos.units.values()}):
                calls.clear()
                listing = legal_orders(pos, power)
                given = {answer: name for name, answer in calls}
                for orders in listing.values():
                    for order in orders:
                        if isinstance(order, Hold):
                            continue  # a hold is always legal for one's own unit: no rule
                        assert order in given, format_order(order)
                        calls.clear()
                        ruling = validate_order(pos, power, order)
                        assert ruling.legal and ruling.order == order, ruling.message
                        # Validation got the order from the rule that gave it to the listing.
                        assert (given[order], order) in calls, format_order(order)
    legal._MEMO.clear()


@pytest.mark.parametrize("seed", range(3))
def test_every_order_validation_accepts_is_listed(seed: int) -> None:
    # Every order of every kind a unit of the board could be given, to every location: the
    # listing has exactly the normalised forms of those validation accepts.
    for pos in _boards(100 + seed, 2):
        locations = sorted(M.locations)
        units = sorted(pos.units)
        for power in sorted({p.power for p in pos.units.values()}):
            listed = _listed(pos, power)
            accepted: set[str] = set()
            for prov in units:
                piece = pos.units[prov]
                if piece.power != power:
                    continue
                name = str(piece.unit)
                texts = [f"{name} H"]
                texts += [f"{name} - {loc}{via}" for loc in locations for via in ("", " VIA")]
                for other in units:
                    other_name = str(pos.units[other].unit)
                    texts.append(f"{name} S {other_name}")
                    reach = {*M.army_neighbours(other), *M.sea_neighbours(other)}
                    reach |= {M.province_of(n) for n in M.fleet_neighbours(pos.units[other].loc)}
                    for loc in locations:
                        if M.province_of(loc) in reach or pos.units[other].type == "A":
                            texts.append(f"{name} S {other_name} - {loc}")
                            if pos.units[other].type == "A" and M.is_sea(prov):
                                texts.append(f"{name} C {other_name} - {loc}")
                for text in texts:
                    ruling = validate_order(pos, power, text)
                    if ruling.legal:
                        accepted.add(ruling.canonical)
            assert accepted == listed
