"""The DATC v3.0 conformance runner behind ``diplo datc`` and ``tests/test_datc.py``.

It reads the fixture ``diplo/data/datc_cases.json``, shipped in the package (made by
``tools/datc.py`` from the DATC text and the hand-written expectations) and plays every case on
each *path* into the adjudicator:

- ``python``: the object API (:func:`diplo.api.phase.process_phase`) on the pure-Python
  reference backend;
- ``rust``: the same object API on the Rust backend;
- ``codes``: :class:`diplo.engine.codes.CodeGame`, fed the same positions and the same orders as
codes.

Each path is compared with what the DATC says: every order's legality and success, the dislodged
units and the board after each phase. A code names no power (an order belongs to its unit's
owner), so an order the DATC gives to another power's unit, or a build in another power's home
centre, cannot be said on the code API: such an order is *not expressible* there. It is left out,
the rest of the case is still checked, and the case reports which orders were left out and why;
nothing is skipped silently.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeAlias

from ..api.backends import available_backends
from ..api.phase import process_phase
from ..engine.codes import MOVE, RESULT_CODES, CodeGame, encode_order, location_of
from ..model.map import Map, standard_map
from ..model.orders import (
    Build,
    Order,
    OrderParseError,
    Waive,
    format_order,
    order_unit,
    parse_power_order,
)
from ..model.position import Dislodged, Phase, Piece, Position, parse_piece
from ..model.results import PhaseOutcome
from ..model.rules import Rules

DATC_VERSION = "3.0"

# Cases that do not pass yet, with the reason. Each one counts against the goal of zero.
XFAIL: dict[str, str] = {}

DEFAULT_PHASE = {"M": "S1901M", "R": "F1901R", "A": "W1901A"}

Json: TypeAlias = dict[str, Any]
ConformancePath: TypeAlias = Literal["python", "rust", "codes"]
#: Every path into the adjudicator, in report order.
PATHS: tuple[ConformancePath, ...] = ("python", "rust", "codes")


def available_paths() -> list[ConformancePath]:
    """The paths that are built: ``python`` always; ``rust`` and ``codes`` with the core."""
    built = available_backends()
    return [p for p in PATHS if p == "python" or "rust" in built]


@dataclass(frozen=True)
class CaseResult:
    case_id: str
    title: str
    passed: bool
    problems: tuple[str, ...]
    # Orders of the case this path cannot express, each with the reason; checked without them.
    not_expressible: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Observed:
    """What one path ruled on one order: legality, success, and the result's code and reason."""

    legal: bool
    success: bool
    code: str
    reason: str


@dataclass(frozen=True)
class PhaseRuling:
    """One phase as a path ruled it. ``results`` is aligned with the expected orders; ``None``
    marks an order the path cannot express."""

    results: list[_Observed | None]
    dislodged: set[tuple[str, str]]
    units: set[tuple[str, str]]


def find_fixture() -> Path:
    """The DATC fixture shipped in the package (``diplo/data/datc_cases.json``), so that
    ``diplo datc`` runs from an installed wheel anywhere; the DATC text itself is not needed."""
    fixture = Path(str(resources.files("diplo") / "data" / "datc_cases.json"))
    if not fixture.is_file():
        raise FileNotFoundError(f"the DATC fixture is missing from the package: {fixture}")
    return fixture


def load_cases(path: Path | None = None) -> list[dict[str, Any]]:
    """The DATC cases of the fixture (``tools/datc.py`` writes it); ``ValueError`` naming what
    is wrong when the file is not a non-empty list of cases, each an object with a string
    ``id`` and ``title``."""
    fixture = path or find_fixture()
    cases = json.loads(fixture.read_text(encoding="utf-8"))
    if not isinstance(cases, list) or not cases:
        raise ValueError(f"{fixture}: a DATC fixture is a non-empty list of cases")
    for number, case in enumerate(cases, 1):
        if not isinstance(case, dict) or not all(
            isinstance(case.get(key), str) for key in ("id", "title")
        ):
            raise ValueError(
                f"{fixture}: case {number} is not an object with a string 'id' and 'title'"
            )
    return cases


def run_case(
    case: Mapping[str, Any], path: str, game_map: Map | None = None, rules: Rules | None = None
) -> CaseResult:
    """Play one DATC case on ``path`` (``python``, ``rust`` or ``fast``) and list every way the
    ruling differs from the expectation; under ``rules`` (default: the map's, today's rulings)
    for the cases whose notes rule them under another rulebook edition."""
    if path not in PATHS:
        raise ValueError(f"unknown path {path!r} (expected one of {', '.join(PATHS)})")
    game_map = game_map or standard_map()
    expected = case.get("expected")
    if not expected:
        return CaseResult(case["id"], case["title"], False, ("the fixture has no expectation",))
    problems: list[str] = []
    left_out: list[str] = []
    try:
        _play(case, expected, path, game_map, problems, left_out, rules)
    except Exception as exc:  # a crash is a failure of the case, reported, never hidden
        problems.append(f"crashed: {type(exc).__name__}: {exc}")
    return CaseResult(case["id"], case["title"], not problems, tuple(problems), tuple(left_out))


def run_all(
    cases: Iterable[Mapping[str, Any]],
    path: str,
    game_map: Map | None = None,
    rules: Rules | None = None,
) -> list[CaseResult]:
    """:func:`run_case` for each case, under ``rules`` when given (default: the map's)."""
    return [run_case(c, path, game_map, rules) for c in cases]


def load_edition_cases(cases: Iterable[Mapping[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The DATC cases whose notes give the answer under another rulebook edition (and the seven
    godip rules otherwise, with godip's ruling and reason), each with
    that answer (``diplo/data/datc_editions.json``: the case's id, the edition and the ruling,
    with the note it comes from): a case of the fixture with its expectation replaced, its id
    written ``6.F.17@1982``, its ``edition`` to be run under (:func:`run_edition_cases`)."""
    base = {c["id"]: c for c in (load_cases() if cases is None else cases)}
    data = Path(str(resources.files("diplo") / "data" / "datc_editions.json"))
    out = []
    for entry in json.loads(data.read_text(encoding="utf-8")):
        case = dict(base[entry["id"]])
        case.update(
            id=f"{entry['id']}@{entry['edition']}",
            edition=entry["edition"],
            expected=entry["expected"],
        )
        out.append(case)
    return out


def run_edition_cases(cases: Iterable[Mapping[str, Any]], path: str) -> list[CaseResult]:
    """:func:`run_case` for each edition case, under the rules of its edition."""
    return [run_case(c, path, rules=Rules(edition=c["edition"])) for c in cases]


def _play(
    case: Mapping[str, Any],
    expected: Mapping[str, Any],
    path: str,
    game_map: Map,
    problems: list[str],
    left_out: list[str],
    rules: Rules | None = None,
) -> None:
    previous: _Previous | None = None
    for number, spec in enumerate(expected["phases"]):
        position = start_position(case, number, previous, game_map)
        if rules is not None:
            position = position.with_changes(rules=rules)
        where = f"phase {number + 1} ({spec['kind']})"
        if path == "codes":
            ruling, nxt, dislodged = _rule_codes(position, spec["orders"], where, left_out)
        else:
            outcome = process_phase(position, case_orders(spec["orders"]), path)
            ruling = object_ruling(spec["orders"], outcome)
            nxt, dislodged = outcome.next, outcome.dislodged
        compare_ruling(where, spec, ruling, problems)
        previous = (position.phase, nxt, dislodged)


# The phase ruled last, the position after it and its dislodged units.
_Previous: TypeAlias = tuple[Phase, Position, dict[str, Dislodged]]


def start_position(
    case: Mapping[str, Any], number: int, previous: _Previous | None, game_map: Map
) -> Position:
    """Where phase ``number`` of a case starts: the position the case sets up (the units its
    orders imply plus the setup), or where the previous phase left off."""
    expected = case["expected"]
    spec = expected["phases"][number]
    blocks: list[list[list[str]]] = case["blocks"]
    block = blocks[number] if number < len(blocks) else []
    kind = spec["kind"]
    setup = spec.get("setup") or (expected.get("setup") if number == 0 else None)
    if previous is None or spec.get("setup"):
        return _initial_position(setup or {}, kind, block, game_map)
    return _following_position(*previous, kind)


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


def _following_position(
    ruled: Phase, nxt: Position, dislodged: Mapping[str, Dislodged], kind: str
) -> Position:
    if kind == "R":
        # Every dislodged unit may be ordered, even one with nowhere to go: its order is then
        # ruled illegal, which is what the DATC cases check.
        return nxt.with_changes(
            phase=Phase(ruled.year, ruled.season, "R"), dislodged=dict(dislodged)
        )
    if kind == "A" and nxt.phase.kind != "A":
        return nxt.with_changes(phase=Phase(ruled.year, "W", "A"))
    return nxt


def case_orders(expected: Sequence[Sequence[str]]) -> dict[str, list[str]]:
    orders: dict[str, list[str]] = {}
    for power, text, _ in expected:
        orders.setdefault(power, []).append(text)
    return orders


def object_ruling(expected: Sequence[Sequence[str]], outcome: PhaseOutcome) -> PhaseRuling:
    """The object API's ruling, lined up with the expected orders."""
    given = [r for r in outcome.results if r.given]
    # Results come per power in dict order; map each expected line to its result.
    slots: dict[str, int] = {}
    offset = 0
    for power, texts in case_orders(expected).items():
        slots[power] = offset
        offset += len(texts)
    seen: dict[str, int] = {}
    results: list[_Observed | None] = []
    for power, _, _ in expected:
        result = given[slots[power] + seen.get(power, 0)]
        seen[power] = seen.get(power, 0) + 1
        results.append(_Observed(result.legal, result.success, result.code, result.reason))
    dislodged = {(d.piece.power, str(d.piece)) for d in outcome.dislodged.values()}
    units = {(p.power, str(p)) for p in outcome.next.units.values()}
    return PhaseRuling(results, dislodged, units)


def _rule_codes(
    position: Position, expected: Sequence[Sequence[str]], where: str, left_out: list[str]
) -> tuple[PhaseRuling, Position, dict[str, Dislodged]]:
    """``CodeGame``'s ruling of one phase, lined up with the expected orders."""
    game = CodeGame(position)
    codes: list[int] = []
    slot: list[int | None] = []  # per expected order, its index among the codes
    for power, text, _ in expected:
        code, why = _fast_code(position, power, text)
        if code is None:
            left_out.append(f"{where}: {power} {text!r}: {why}")
            slot.append(None)
        else:
            slot.append(len(codes))
            codes.append(code)
    game.set_orders(codes)
    outcome = game.process()
    result_codes, success = outcome.result_codes(), outcome.result_success()
    results: list[_Observed | None] = []
    for i in slot:
        if i is None:
            results.append(None)
        else:
            name = RESULT_CODES[result_codes[i]]
            results.append(_Observed(name != "illegal", success[i], name, f"result code {name}"))
    after = game.position()
    units = {(p.power, str(p)) for p in after.units.values()}
    dislodged: dict[str, Dislodged] = {}
    if position.phase.kind == "M":
        # A code reports no dislodgement of its own unit apart from its result, and a unit with
        # nowhere to retreat leaves the board at once; so read it from the boards: a unit that
        # did not move away is dislodged when its province now holds another unit.
        moved_from = {
            _code_loc(code, position)
            for code, rc, ok in zip(codes, result_codes, success, strict=True)
            if ok and code & 0xF == MOVE and RESULT_CODES[rc] == "ok"
        }
        for province, piece in position.units.items():
            if province in moved_from:
                continue
            now = after.units.get(province)
            if now is None or now != piece:
                gone = after.dislodged.get(province)
                dislodged[province] = Dislodged(piece, gone.options if gone else ())
    ruling = PhaseRuling(
        results, {(d.piece.power, str(d.piece)) for d in dislodged.values()}, units
    )
    return ruling, after, dislodged


def _code_loc(code: int, position: Position) -> str:
    """The province of the unit a code orders."""
    game_map = position.map
    return game_map.province_of(game_map.locations[location_of(code)])


def _fast_code(position: Position, power: str, text: str) -> tuple[int | None, str]:
    """The code of ``power``'s order ``text``, or ``None`` and why the code path cannot say it."""
    game_map = position.map
    try:
        _, order = parse_power_order(text, game_map)
    except OrderParseError as exc:
        return None, f"not an order a code can carry ({exc})"
    owner = _owner(position, order, power)
    if owner is not None and owner != power:
        return None, (
            f"a code names no power and would be {owner}'s order; "
            f"an order of {power} for it cannot be given on this path"
        )
    try:
        return encode_order(order, game_map, power), ""
    except ValueError as exc:
        return None, f"cannot be encoded ({exc})"


def _owner(position: Position, order: Order, power: str) -> str | None:
    """The power a code for ``order`` would be read as the order of (``None``: nobody's)."""
    game_map = position.map
    if isinstance(order, Waive):
        return power
    province = game_map.province_of(order.unit.loc)
    if isinstance(order, Build):
        homes = [p for p, hs in game_map.homes.items() if province in hs]
        return homes[0] if homes else None
    if position.phase.kind == "R":
        gone = position.dislodged.get(province)
        return gone.piece.power if gone else None
    piece = position.units.get(province)
    return piece.power if piece else None


def compare_ruling(
    where: str, spec: Mapping[str, Any], ruling: PhaseRuling, problems: list[str]
) -> None:
    for (power, text, want), got in zip(spec["orders"], ruling.results, strict=True):
        if got is None:
            continue  # not expressible on this path: listed in the case's result
        said = f"{got.code}: {got.reason}"
        if want == "illegal":
            if got.legal:
                problems.append(f"{where}: {power} {text!r} should be illegal; got {said}")
        elif want == "ok":
            if not (got.legal and got.success):
                problems.append(f"{where}: {power} {text!r} should succeed; got {said}")
        elif want == "fail":
            if got.success:
                problems.append(f"{where}: {power} {text!r} should fail; got {said}")
        else:
            problems.append(f"{where}: unknown expected outcome {want!r}")
    if spec["kind"] == "M":
        want_dislodged = {(p, u) for p, units in spec.get("dislodged", {}).items() for u in units}
        if ruling.dislodged != want_dislodged:
            problems.append(
                f"{where}: dislodged {sorted(ruling.dislodged)} but expected "
                f"{sorted(want_dislodged)}"
            )
    want_units = {(p, u) for p, units in spec.get("units_after", {}).items() for u in units}
    if ruling.units != want_units:
        extra = sorted(ruling.units - want_units)
        missing = sorted(want_units - ruling.units)
        problems.append(f"{where}: board after differs: unexpected {extra}, missing {missing}")


def summary(
    results: Sequence[CaseResult], departures: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """One path's entry of the ``diplo datc --json`` report.

    ``not_expressible`` (added for the code API, present on every path) maps a case id to the
    orders of the case the path cannot express; such a case is checked without them.
    ``departs`` maps a case that failed as its edition documents (``departures``, case id ->
    reason: :func:`diplo.model.rules.datc_departures`) to the reason; it is not in ``failed``.
    """
    departures = departures or {}
    expected = {**departures, **XFAIL}
    failed = [r.case_id for r in results if not r.passed and r.case_id not in expected]
    xfailed = {r.case_id: XFAIL[r.case_id] for r in results if not r.passed and r.case_id in XFAIL}
    departs = {
        r.case_id: departures[r.case_id]
        for r in results
        if not r.passed and r.case_id in departures and r.case_id not in XFAIL
    }
    return {
        "total": len(results),
        "passed": sum(1 for r in results if r.passed),
        "failed": failed,
        "xfailed": xfailed,
        "departs": departs,
        "not_expressible": {
            r.case_id: list(r.not_expressible) for r in results if r.not_expressible
        },
    }


def reference_phases(
    case: Mapping[str, Any], game_map: Map | None = None
) -> list[tuple[Position, dict[str, list[str]], Mapping[str, Any]]]:
    """Every phase of a case as :func:`run_case` plays it on the reference: the starting
    position, the orders by power, and the phase's expectation."""
    game_map = game_map or standard_map()
    out: list[tuple[Position, dict[str, list[str]], Mapping[str, Any]]] = []
    previous: _Previous | None = None
    for number, spec in enumerate(case["expected"]["phases"]):
        position = start_position(case, number, previous, game_map)
        orders = case_orders(spec["orders"])
        out.append((position, orders, spec))
        outcome = process_phase(position, orders, "python")
        previous = (position.phase, outcome.next, outcome.dislodged)
    return out


def explicit_cases(cases: Iterable[Mapping[str, Any]], game_map: Map | None = None) -> list[Json]:
    """The fixture with everything the harness works out made explicit, for the Rust tests
    (``tests/datc/explicit.json``, written by ``tools/datc_explicit.py``): per phase the whole
    starting position (the units the DATC orders imply plus the setup; for a phase after the
    first, the position the reference reached, as :func:`run_case` continues a case), every order
    in the canonical short form with its code on the code API (``null``, with the reason, when a
    code cannot express it), and the expected results.

    Two things come from the Python reference rather than the DATC: those later starting
    positions (``diplo datc`` checks the reference reaches them correctly), and per order the
    reference's result code (``reference``), against which the Rust test holds the engine code
    by code: a cross-check beyond what the DATC asks, as ``tests/test_datc.py`` does for the
    object API on the Rust backend."""
    game_map = game_map or standard_map()
    out: list[Json] = []
    for case in cases:
        phases: list[Json] = []
        for position, by_power, spec in reference_phases(case, game_map):
            reference = object_ruling(spec["orders"], process_phase(position, by_power, "python"))
            orders: list[Json] = []
            for (power, text, want), ruled in zip(spec["orders"], reference.results, strict=True):
                code, why = _fast_code(position, power, text)
                assert ruled is not None
                orders.append(
                    {
                        "power": power,
                        "text": _short(text, power, game_map),
                        "want": want,
                        "code": code,
                        "not_expressible": why or None,
                        "reference": ruled.code,
                    }
                )
            phases.append(
                {
                    "start": _position_json(position),
                    "orders": orders,
                    "dislodged": sorted(
                        [p, u] for p, units in spec.get("dislodged", {}).items() for u in units
                    ),
                    "units_after": sorted(
                        [p, u] for p, units in spec.get("units_after", {}).items() for u in units
                    ),
                }
            )
        out.append({"id": case["id"], "title": case["title"], "phases": phases})
    return out


def _short(text: str, power: str, game_map: Map) -> str:
    """The canonical short form of a DATC order (a waive names its power), or the text itself
    when it is no order at all."""
    try:
        _, order = parse_power_order(text, game_map)
    except OrderParseError:
        return text
    return f"WAIVE {power}" if isinstance(order, Waive) else format_order(order)


def _position_json(position: Position) -> Json:
    return {
        "phase": str(position.phase),
        "units": sorted([p.power, str(p)] for p in position.units.values()),
        "centers": sorted([c, p] for c, p in position.centers.items()),
        "dislodged": sorted(
            [d.piece.power, str(d.piece), list(d.options)] for d in position.dislodged.values()
        ),
    }


__all__ = [
    "DATC_VERSION",
    "PATHS",
    "XFAIL",
    "CaseResult",
    "ConformancePath",
    "available_paths",
    "explicit_cases",
    "find_fixture",
    "load_cases",
    "load_edition_cases",
    "reference_phases",
    "run_all",
    "run_case",
    "run_edition_cases",
    "summary",
]
