"""The DATC v3.0 conformance runner behind ``diplo datc`` and ``tests/test_datc.py``.

It reads the fixture ``diplo/data/datc_cases.json``, shipped in the package (made by
``tools/datc.py`` from the DATC text and the hand-written expectations), plays every case through
:func:`diplo.adjudicate.process_phase` with the chosen backend, and compares every order's legality
and success, the dislodged units and the board after each phase with what the DATC says.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from .adjudicate import PhaseOutcome, process_phase
from .map import Map, standard_map
from .orders import OrderParseError, order_unit, parse_power_order
from .position import Dislodged, Phase, Piece, Position, parse_piece

DATC_VERSION = "3.0"

# Cases that do not pass yet, with the reason. Each one counts against the goal of zero.
XFAIL: dict[str, str] = {}

DEFAULT_PHASE = {"M": "S1901M", "R": "F1901R", "A": "W1901A"}


@dataclass(frozen=True)
class CaseResult:
    case_id: str
    title: str
    passed: bool
    problems: tuple[str, ...]


def find_fixture() -> Path:
    """The DATC fixture shipped in the package (``diplo/data/datc_cases.json``), so that
    ``diplo datc`` runs from an installed wheel anywhere; the DATC text itself is not needed."""
    fixture = Path(str(resources.files("diplo") / "data" / "datc_cases.json"))
    if not fixture.is_file():
        raise FileNotFoundError(f"the DATC fixture is missing from the package: {fixture}")
    return fixture


def load_cases(path: Path | None = None) -> list[dict[str, Any]]:
    fixture = path or find_fixture()
    cases: list[dict[str, Any]] = json.loads(fixture.read_text(encoding="utf-8"))
    return cases


def run_case(case: Mapping[str, Any], backend: str, game_map: Map | None = None) -> CaseResult:
    """Play one DATC case and list every way the ruling differs from the expectation."""
    game_map = game_map or standard_map()
    expected = case.get("expected")
    if not expected:
        return CaseResult(case["id"], case["title"], False, ("the fixture has no expectation",))
    problems: list[str] = []
    try:
        _play(case, expected, backend, game_map, problems)
    except Exception as exc:  # a crash is a failure of the case, reported, never hidden
        problems.append(f"crashed: {type(exc).__name__}: {exc}")
    return CaseResult(case["id"], case["title"], not problems, tuple(problems))


def run_all(
    cases: Iterable[Mapping[str, Any]], backend: str, game_map: Map | None = None
) -> list[CaseResult]:
    return [run_case(c, backend, game_map) for c in cases]


def _play(
    case: Mapping[str, Any],
    expected: Mapping[str, Any],
    backend: str,
    game_map: Map,
    problems: list[str],
) -> None:
    blocks: list[list[list[str]]] = case["blocks"]
    phases: list[dict[str, Any]] = expected["phases"]
    previous: PhaseOutcome | None = None
    for number, spec in enumerate(phases):
        block = blocks[number] if number < len(blocks) else []
        kind = spec["kind"]
        setup = spec.get("setup") or (expected.get("setup") if number == 0 else None)
        if previous is None or spec.get("setup"):
            position = _initial_position(setup or {}, kind, block, game_map)
        else:
            position = _following_position(previous, kind)
        orders = _orders(block, spec["orders"])
        outcome = process_phase(position, orders, backend)
        _compare(number, spec, orders, outcome, problems)
        previous = outcome


def _initial_position(
    setup: Mapping[str, Any], kind: str, block: Sequence[Sequence[str]], game_map: Map
) -> Position:
    phase = Phase.parse(setup.get("phase", DEFAULT_PHASE[kind]))
    units: dict[str, Piece] = {}
    if kind == "M":
        for power, text in block:
            piece = _ordered_piece(power, text, game_map)
            if piece is not None:
                units[piece.province] = piece
    for power, texts in (setup.get("units") or {}).items():
        for text in texts:
            piece = parse_piece(power, text, game_map)
            units[piece.province] = piece
    centers = {c: p for p, cs in (setup.get("centers") or {}).items() for c in cs}
    dislodged: dict[str, Dislodged] = {}
    for power, entries in (setup.get("dislodged") or {}).items():
        for text, options in entries.items():
            piece = parse_piece(power, text, game_map)
            dislodged[piece.province] = Dislodged(piece, tuple(options))
    return Position(game_map, phase, units, centers, dislodged)


def _ordered_piece(power: str, text: str, game_map: Map) -> Piece | None:
    """The unit a DATC order implies: the ordered unit, owned by the block's power."""
    try:
        _, order = parse_power_order(text, game_map)
    except OrderParseError:
        return None
    unit = order_unit(order)
    if unit is None or unit.type is None:
        return None
    return Piece(power, unit.type, unit.loc)


def _following_position(previous: PhaseOutcome, kind: str) -> Position:
    nxt = previous.next
    if kind == "R":
        # Every dislodged unit may be ordered, even one with nowhere to go: its order is then
        # ruled illegal, which is what the DATC cases check.
        phase = previous.phase
        return nxt.with_changes(
            phase=Phase(phase.year, phase.season, "R"), dislodged=previous.dislodged
        )
    if kind == "A" and nxt.phase.kind != "A":
        return nxt.with_changes(phase=Phase(previous.phase.year, "W", "A"))
    return nxt


def _orders(
    block: Sequence[Sequence[str]], expected: Sequence[Sequence[str]]
) -> dict[str, list[str]]:
    orders: dict[str, list[str]] = {}
    for power, text, _ in expected:
        orders.setdefault(power, []).append(text)
    del block
    return orders


def _compare(
    number: int,
    spec: Mapping[str, Any],
    orders: Mapping[str, list[str]],
    outcome: PhaseOutcome,
    problems: list[str],
) -> None:
    where = f"phase {number + 1} ({spec['kind']})"
    given = [r for r in outcome.results if r.given]
    # Results come per power in dict order; map each expected line to its result.
    slots: dict[str, int] = {}
    offset = 0
    for power, texts in orders.items():
        slots[power] = offset
        offset += len(texts)
    seen: dict[str, int] = {}
    for power, text, want in spec["orders"]:
        index = slots[power] + seen.get(power, 0)
        seen[power] = seen.get(power, 0) + 1
        result = given[index]
        if want == "illegal":
            if result.legal:
                got = f"{result.code}: {result.reason}"
                problems.append(f"{where}: {power} {text!r} should be illegal; got {got}")
        elif want == "ok":
            if not (result.legal and result.success):
                problems.append(
                    f"{where}: {power} {text!r} should succeed; got {result.code}: {result.reason}"
                )
        elif want == "fail":
            if result.success:
                problems.append(
                    f"{where}: {power} {text!r} should fail; got {result.code}: {result.reason}"
                )
        else:
            problems.append(f"{where}: unknown expected outcome {want!r}")
    if spec["kind"] == "M":
        dislodged = {(d.piece.power, str(d.piece)) for d in outcome.dislodged.values()}
        want_dislodged = {(p, u) for p, units in spec.get("dislodged", {}).items() for u in units}
        if dislodged != want_dislodged:
            problems.append(
                f"{where}: dislodged {sorted(dislodged)} but expected {sorted(want_dislodged)}"
            )
    got_units = {(p.power, str(p)) for p in outcome.next.units.values()}
    want_units = {(p, u) for p, units in spec.get("units_after", {}).items() for u in units}
    if got_units != want_units:
        extra = sorted(got_units - want_units)
        missing = sorted(want_units - got_units)
        problems.append(f"{where}: board after differs: unexpected {extra}, missing {missing}")


def summary(results: Sequence[CaseResult]) -> dict[str, Any]:
    """The per-backend entry of the ``diplo datc --json`` report."""
    failed = [r.case_id for r in results if not r.passed and r.case_id not in XFAIL]
    xfailed = {r.case_id: XFAIL[r.case_id] for r in results if not r.passed and r.case_id in XFAIL}
    return {
        "total": len(results),
        "passed": sum(1 for r in results if r.passed),
        "failed": failed,
        "xfailed": xfailed,
    }


__all__ = [
    "DATC_VERSION",
    "XFAIL",
    "CaseResult",
    "find_fixture",
    "load_cases",
    "run_all",
    "run_case",
    "summary",
]
