"""The boundary of the Rust core: bad arguments and panics become Python exceptions (the game
engine's own calls are tested in ``tests/test_fast.py`` and ``tests/test_engine.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from diplo.backend import rust_available

pytestmark = pytest.mark.skipif(not rust_available(), reason="the Rust core is not built")


@pytest.fixture(scope="module")
def core() -> Any:
    from diplo import _core

    return _core


def test_a_panic_arrives_as_runtime_error(core: Any) -> None:
    with pytest.raises(RuntimeError, match="internal error in the diplo core: boom"):
        core._panic_for_test("boom")
    # The module still works afterwards.
    assert core.CODES[0] == "ok"


def tiny_map(army: list[list[int]], fleet: list[list[int]], provinces: list[int]) -> list[Any]:
    """Arguments of ``FastMap``: two coastal provinces and a sea (0 - 1 by land, both on 2)."""
    return [["A", "B", "S"], ["P"], provinces, [1, 1, 2], army, fleet, [0], [[0]], [0, 1, 2]]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (tiny_map([[1], [0], []], [[1, 2], [0, 2], [0, 1]], [0, 1]), "location names"),
        (tiny_map([[1], [], []], [[1, 2], [0, 2], [0, 1]], [0, 1, 2]), "not symmetric"),
        (tiny_map([[7], [0], []], [[1, 2], [0, 2], [0, 1]], [0, 1, 2]), "names 7, not a province"),
    ],
)
def test_bad_maps_raise_value_error(core: Any, args: list[Any], fragment: str) -> None:
    with pytest.raises(ValueError) as info:
        core.FastMap(*args)
    assert fragment in str(info.value)


def test_a_good_map_compiles(core: Any) -> None:
    table = core.FastMap(*tiny_map([[1], [0], []], [[1, 2], [0, 2], [0, 1]], [0, 1, 2]))
    assert (table.num_provinces, table.num_locations, table.num_powers) == (3, 3, 1)
