"""The boundary of the Rust core: bad arguments and panics become Python exceptions."""

from __future__ import annotations

from typing import Any

import pytest

from diplo.backend import rust_available

pytestmark = pytest.mark.skipif(not rust_available(), reason="the Rust core is not built")


@pytest.fixture(scope="module")
def core() -> Any:
    from diplo import _core

    return _core


@pytest.fixture(scope="module")
def tiny(core: Any) -> Any:
    # Two land provinces and a sea: 0 - 1 by land, both coastal on sea 2.
    fleet = [[1, 2], [0, 2], [0, 1]]
    return core.CompiledMap([0, 1, 2], [False, False, True], [[1], [0], []], fleet)


def test_a_panic_arrives_as_runtime_error(core: Any) -> None:
    with pytest.raises(RuntimeError, match="internal error in the diplo core: boom"):
        core._panic_for_test("boom")
    # The module still works afterwards.
    assert core.CODES[0] == "ok"


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (([0, 1], [False, False, True], [[1], [0], []], [[1], [0]]), "loc_province"),
        (
            ([0, 1, 2], [False, False, True], [[1], [], []], [[1, 2], [0, 2], [0, 1]]),
            "not symmetric",
        ),
        (
            ([0, 1, 2], [False, False, True], [[7], [0], []], [[1, 2], [0, 2], [0, 1]]),
            "names 7, not a province",
        ),
    ],
)
def test_bad_maps_raise_value_error(core: Any, args: tuple[Any, ...], fragment: str) -> None:
    with pytest.raises(ValueError) as info:
        core.CompiledMap(*args)
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    ("units", "orders"),
    [
        ([(0, 0, 0)], []),  # length mismatch
        ([(0, 0, 0), (1, 0, 0)], [(0, 0, 0, 0), (0, 0, 0, 0)]),  # two units in one province
        ([(0, 0, 99)], [(0, 0, 0, 0)]),  # location out of range
        ([(0, 0, 0)], [(9, 0, 0, 0)]),  # unknown order kind
        ([(0, 0)], [(0, 0, 0, 0)]),  # wrong tuple arity
        ([(0, 0, 0)], [(1, 0, 0, 0)]),  # a move to its own province
        ([(0, 0, -3)], [(0, 0, 0, 0)]),  # negative index
    ],
)
def test_bad_phases_raise_value_error(core: Any, tiny: Any, units: Any, orders: Any) -> None:
    with pytest.raises((ValueError, TypeError)) as info:
        core.resolve_movement(tiny, units, orders)
    assert str(info.value)


def test_a_good_phase_resolves(core: Any, tiny: Any) -> None:
    out = core.resolve_movement(tiny, [(0, 0, 0), (1, 0, 1)], [(1, 1, 0, 0), (0, 0, 0, 0)])
    assert [core.CODES[c] for c in out.codes] == ["bounce", "ok"]
    assert out.success == [False, True]
