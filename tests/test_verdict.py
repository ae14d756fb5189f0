"""A phase's ruling is a value (issue 45): ``_core.Verdict``, returned by ``CodeGame.run`` and
``mila_play``, carries the reasons of every phase kind, never changes, and reading a reason
plays nothing again."""

from __future__ import annotations

from typing import Any

import pytest

from diplo import _core
from diplo.api.phase import process_phase
from diplo.engine import mila as engine_mila
from diplo.engine import objects
from diplo.engine.codes import encode_order
from diplo.engine.compile import engine_game
from diplo.model.map import standard_map
from diplo.model.orders import parse_order
from diplo.model.position import Position
from diplo.reference.validation import validate

M = standard_map()
REASONS = _core.REASON_NAMES
WHY = _core.EXPLAIN_NAMES


def _position(doc: dict[str, Any]) -> Position:
    return Position.from_json(doc, M)


def _run(position: Position, orders: dict[str, list[str]]) -> _core.Verdict:
    """The engine's verdict of ``orders`` (texts) in ``position``, on a copy of its game."""
    codes, powers = [], bytearray()
    for power, texts in orders.items():
        for text in texts:
            codes.append(encode_order(parse_order(text, M), M, power))
            powers.append(M.powers.index(power))
    return engine_game(position).clone().run(codes, bytes(powers))


def _reference_reasons(position: Position, orders: dict[str, list[str]]) -> list[str]:
    return [r.code for r in validate(position, orders).rulings]


MOVEMENT = {
    "phase": "S1901M",
    "units": {"FRANCE": ["A PAR", "A MAR", "F BRE"], "GERMANY": ["A MUN", "A RUH"]},
    "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["MUN"]},
}
MOVEMENT_ORDERS = {
    "FRANCE": ["A PAR - BUR", "A MAR - BUR", "F BRE - PIE", "A MAR H"],
    "GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR", "A PAR - GAS"],
}


def test_a_movement_verdict_carries_each_codes_reason_result_and_facts() -> None:
    position = _position(MOVEMENT)
    verdict = _run(position, MOVEMENT_ORDERS)
    assert verdict.phase == "S1901M"
    reasons = [REASONS[r] for r in verdict.reasons()]
    # The engine's reasons are validation's (the reference), order by order.
    assert reasons == _reference_reasons(position, MOVEMENT_ORDERS)
    assert reasons[2] != "ok"  # a fleet cannot reach Piedmont from Brest
    assert reasons[6] == "foreign_unit"  # Germany ordering a French army
    assert reasons[1] == reasons[3] == "multiple_orders"  # A MAR given two orders
    codes = verdict.result_codes()
    assert codes[0] == 1 and codes[4] == 0  # PAR bounced, MUN moved in with support
    rows = verdict.movement_rows()
    assert rows[0][0] == "A PAR - BUR" and rows[0][3] == "bounce"
    assert rows[4][0] == "A MUN - BUR" and rows[4][3] == "ok" and rows[4][7] == 2
    assert rows[2] is None  # refused: no row
    # Then the implied holds (A MAR's two orders void, F BRE's refused): MAR and BRE held.
    assert [r[2] for r in rows[len(codes) :]] == ["BRE", "MAR"]
    # The states ruled from and reached.
    assert verdict.state() == engine_game(position).state()
    after = verdict.after_state()
    assert (0, False, M.locations.index("BUR")) not in after[3]
    assert (M.powers.index("GERMANY"), False, M.locations.index("BUR")) in after[3]
    # The object API reads the same verdict: its results are the reference's.
    ruled = process_phase(position, MOVEMENT_ORDERS)
    assert ruled.results == process_phase(position, MOVEMENT_ORDERS, backend="python").results


def _retreat_position() -> Position:
    doc = {
        "phase": "F1901M",
        "units": {"FRANCE": ["A BUR", "A PIC"], "GERMANY": ["A MUN", "A RUH", "A KIE"]},
        "centers": {"FRANCE": ["PAR"], "GERMANY": ["MUN", "KIE"]},
    }
    orders = {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]}
    outcome = process_phase(_position(doc), orders)
    assert str(outcome.next.phase) == "F1901R"
    return outcome.next


def test_a_retreat_verdict_says_why_each_retreat_was_ruled() -> None:
    position = _retreat_position()
    orders = {"FRANCE": ["A BUR - MUN", "A BUR - PAR"]}
    verdict = _run(position, orders)
    assert [REASONS[r] for r in verdict.reasons()] == _reference_reasons(position, orders)
    assert REASONS[verdict.reasons()[0]] != "ok"  # the attacker's origin (DATC 6.H.5 & co.)
    rows = verdict.phase_rows()
    assert rows[0] is None
    assert rows[1] is not None
    code, ok, unit, facts = rows[1]
    assert (code, ok, unit, WHY[facts[0]], facts[4]) == ("ok", True, "A BUR", "retreated", "PAR")
    # No retreat given: the unit is disbanded, and the verdict says why.
    silent = _run(position, {})
    [row] = silent.phase_rows()
    assert row is not None
    code, ok, unit, facts = row
    assert (unit, WHY[facts[0]]) == ("A BUR", "no_retreat")
    assert silent.implied_results()[0][1:] == (0, True)


def test_an_adjustment_verdict_says_why_each_build_and_disband_was_ruled() -> None:
    doc = {
        "phase": "W1901A",
        "units": {"FRANCE": ["A SPA"], "GERMANY": ["A MUN", "A BER", "A SIL"]},
        "centers": {"FRANCE": ["PAR", "MAR", "BRE", "SPA"], "GERMANY": ["MUN", "BER"]},
    }
    position = _position(doc)
    orders = {"FRANCE": ["A PAR B", "F BRE B", "A BRE B", "A MUN B"]}
    verdict = _run(position, orders)
    reasons = [REASONS[r] for r in verdict.reasons()]
    assert reasons == _reference_reasons(position, orders)
    assert reasons[:3] == ["ok", "ok", "ok"] and reasons[3] != "ok"
    rows = verdict.phase_rows()
    whys = [None if r is None else WHY[r[3][0]] for r in rows]
    # Two builds, a second build in Brest (DATC 4.D.5), a refused build in Munich; then the
    # unused build waived and Germany's disband by civil disorder.
    assert whys[:4] == ["built", "built", "build_same_province", None]
    assert whys[4] == "unused_build"
    assert whys[5] is not None and whys[5].startswith("disorder_")
    assert verdict.after_state()[0:3] == (1902, "S", "M")


def test_a_verdict_is_immutable_and_outlives_the_game_that_made_it() -> None:
    position = _position(MOVEMENT)
    game = engine_game(position).clone()
    codes = [encode_order(parse_order("A PAR - BUR", M), M)]
    verdict = game.run(codes, bytes([M.powers.index("FRANCE")]))
    seen = (verdict.reasons(), verdict.result_codes(), verdict.state(), verdict.movement_rows())
    with pytest.raises(AttributeError):
        verdict.phase = "F1901M"  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        verdict.extra = 1  # type: ignore[attr-defined]
    # The game plays on; the verdict still says what it said.
    game.run([], b"")
    game.run([], b"")
    assert (verdict.reasons(), verdict.result_codes()) == seen[:2]
    assert (verdict.state(), verdict.movement_rows()) == seen[2:]
    assert verdict.phase == "S1901M" and game.phase != "S1901M"


def test_the_units_dislodged_with_nowhere_to_go_are_read_from_the_verdict() -> None:
    doc = {
        "phase": "S1901M",
        "units": {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH", "A MAR", "A PAR", "A BEL"]},
        "centers": {},
    }
    orders = {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]}
    verdict = _run(_position(doc), orders)
    # BUR's neighbours are occupied or the attacker's origin, except GAS and PIC.
    [(_power, fleet, loc, options)] = verdict.gone()
    assert (fleet, M.locations[loc]) == (False, "BUR")
    assert sorted(M.locations[o] for o in options) == ["GAS", "PIC"]
    assert engine_mila.unretreated(M, verdict) == []


class _Spy:
    """A game that writes down every attribute asked of it."""

    def __init__(self, game: Any, calls: list[str]) -> None:
        self._game = game
        self._calls = calls

    def __getattr__(self, name: str) -> Any:
        self._calls.append(name)
        return getattr(self._game, name)


def test_reading_an_untyped_builds_reason_plays_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = {
        "phase": "W1901A",
        "units": {"FRANCE": ["A PAR"]},
        "centers": {"FRANCE": ["PAR", "MAR", "BRE"]},
    }
    position = _position(doc)
    calls: list[str] = []
    monkeypatch.setattr(objects, "engine_game", lambda p: _Spy(engine_game(p), calls))
    orders = {"FRANCE": ["Build Brest", "Build Paris"]}  # untyped: Brest could be A or F
    outcome = process_phase(position, orders)
    calls.clear()
    results = outcome.results  # read now, from the verdict
    assert "run" not in calls and "clone" not in calls
    assert calls == ["judge"]  # Paris: occupied, asked of the engine's validation
    assert results == process_phase(position, orders, backend="python").results


def test_the_drop_ins_refusal_asks_validation_and_plays_nothing() -> None:
    position = _position(MOVEMENT)
    calls: list[str] = []
    game = _Spy(engine_game(position), calls)
    for power, text in [
        ("FRANCE", "F BRE - PIE"),
        ("FRANCE", "A PAR - BUR"),
        ("GERMANY", "A PAR H"),
    ]:
        order = parse_order(text, M)
        code = encode_order(order, M, power)
        calls.clear()
        normal, why = engine_mila.read_refusal(game, position, power, order, code)  # type: ignore[arg-type]
        assert calls == ["judge"]
        [ruling] = validate(position, {power: [text]}).rulings
        assert (normal is not None) == ruling.legal
        assert (why == "") == ruling.legal
        if not ruling.legal:
            assert why == ruling.message


def test_one_order_in_another_notation_leaves_the_others_read_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``process_phase`` reads every text once in the core: when the core reads them all, it
    rules the phase in the same call (``run_orders``: the codes never come to Python); with one
    text the core's reader does not take, nothing is played there, the codes it read come back
    with the one it left to the general parser, and the phase is run on them (``run``): no
    text is read again by the core (no ``submit_orders``)."""
    position = _position(MOVEMENT)
    real_game = objects.engine_game
    calls: list[str] = []

    class _Game:
        def __init__(self, game: Any) -> None:
            self._game = game

        def clone(self) -> Any:
            return _Spy(self._game.clone(), calls)

        def __getattr__(self, name: str) -> Any:
            return getattr(self._game, name)

    monkeypatch.setattr(objects, "engine_game", lambda p: _Game(real_game(p)))
    canonical: dict[str, list[Any]] = {
        "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"],
        "GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"],
    }
    mine = objects.process_phase_engine(position, canonical)
    assert calls == ["run_orders", "winner", "phase"]
    assert mine.results == process_phase(position, canonical, backend="python").results
    calls.clear()
    orders: dict[str, list[Any]] = {
        "FRANCE": ["A PAR - BUR", "army marseilles -> burgundy", "F BRE - MAO"],
        "GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR", "A PAR - GAS", "A MUN HOLDS"],
    }
    mine = objects.process_phase_engine(position, orders)
    assert calls == ["run_orders", "run", "winner", "phase"]
    reference = process_phase(position, orders, backend="python")
    assert mine.results == reference.results
