"""The reference resolver on its own, and the object API on the DATC positions.

- ``resolver``: the reference's movement resolver alone (no validation, no next position) on the
  prepared full-board phases (:func:`diplo.resolver.resolve_movement`). The engine's resolver has
  no Python entry of its own: it is timed alone by ``cargo bench`` (``rust/benches/resolve.rs``)
  and with everything else by the ``movement`` workloads.
- ``datc``: every DATC movement position through :func:`diplo.api.phase.process_phase` on each
  backend (validation, resolution, results and next position in the object API).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from diplo.api.backends import available_backends
from diplo.api.phase import process_phase
from diplo.apps import bench
from diplo.apps.conformance import DEFAULT_PHASE, load_cases
from diplo.model.map import standard_map
from diplo.model.orders import Order
from diplo.model.position import Phase, Piece, Position, parse_piece
from diplo.reference.resolver import resolve_movement
from diplo.reference.validation import validate

ROOT = Path(__file__).resolve().parent.parent
Prepared = list[tuple[Position, dict[str, Order]]]


@pytest.fixture(scope="session")
def effective(movement_phases: list[bench.MovementPhase]) -> Prepared:
    out: Prepared = []
    for phase in movement_phases:
        validated = validate(phase.position, phase.orders)
        out.append((phase.position, validated.orders))
    return out


@pytest.fixture(scope="session")
def datc_positions() -> list[tuple[Position, dict[str, list[str]]]]:
    game_map = standard_map()
    out = []
    for case in load_cases():
        expected = case["expected"]
        if expected["phases"][0]["kind"] != "M":
            continue
        setup = expected.get("setup") or {}
        units: dict[str, Piece] = {}
        orders: dict[str, list[str]] = {}
        for power, text, _ in expected["phases"][0]["orders"]:
            orders.setdefault(power, []).append(text)
        position = Position(game_map, Phase.parse(setup.get("phase", DEFAULT_PHASE["M"])), {}, {})
        from diplo.apps.conformance import _ordered_piece  # the harness's own reading of a case

        for power, text in case["blocks"][0]:
            piece = _ordered_piece(power, text, game_map)
            if piece is not None:
                units[piece.province] = piece
        for power, texts in (setup.get("units") or {}).items():
            for text in texts:
                piece = parse_piece(power, text, game_map)
                units[piece.province] = piece
        out.append((position.with_changes(units=units), orders))
    return out


def _pedantic(benchmark: BenchmarkFixture, run: Callable[[], int], rounds: int) -> None:
    counts: list[int] = []
    benchmark.pedantic(lambda: counts.append(run()), rounds=rounds, iterations=1, warmup_rounds=1)
    benchmark.extra_info["phases_per_call"] = counts[-1]
    if benchmark.stats is not None:
        benchmark.extra_info["us_per_phase"] = round(
            benchmark.stats.stats.median * 1e6 / counts[-1], 3
        )


@pytest.mark.benchmark(group="resolver")
def test_resolver_alone(benchmark: BenchmarkFixture, effective: Prepared) -> None:
    game_map = standard_map()

    def run() -> int:
        for position, orders in effective:
            resolve_movement(game_map, position.units, orders)
        return len(effective)

    _pedantic(benchmark, run, 20)


@pytest.mark.benchmark(group="datc")
@pytest.mark.parametrize("backend", available_backends())
def test_datc_positions(benchmark: BenchmarkFixture, datc_positions: Any, backend: str) -> None:
    def run() -> int:
        for position, orders in datc_positions:
            process_phase(position, orders, backend)
        return len(datc_positions)

    _pedantic(benchmark, run, 20)
