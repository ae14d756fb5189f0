"""The boundary of the Rust core: bad arguments and panics become Python exceptions (the game
engine's own calls are tested in ``tests/test_codes.py`` and ``tests/test_engine.py``)."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(scope="module")
def core() -> Any:
    from diplo import _core

    return _core


def test_a_panic_arrives_as_runtime_error(core: Any) -> None:
    with pytest.raises(RuntimeError, match="internal error in the diplo core: boom"):
        core._panic_for_test("boom")
    # The module still works afterwards.
    assert core.RESULT_NAMES[0] == "ok"


def _entry_points() -> dict[str, Any]:
    """One call of each guarded entry point of the core (``rust/src/bindings/``)."""
    from diplo import _core
    from diplo.engine.compile import code_map
    from diplo.model.map import standard_map

    fmap = code_map(standard_map())
    doc = {"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "centers": {}}
    read = fmap.read_position(doc)
    assert read is not None
    game = read
    verdict = game.clone().run([], b"")
    return {
        "CodeMap.encode_objects": lambda: fmap.encode_objects([]),
        "CodeMap.submit_orders": lambda: fmap.submit_orders({}, {}),
        "CodeMap.read_position": lambda: repr(fmap.read_position(doc)),
        "CodeMap.parse_canonical": lambda: fmap.parse_canonical("A PAR H"),
        "CodeGame.phase": lambda: game.phase,
        "CodeGame.winner": lambda: game.winner,
        "CodeGame.state": game.state,
        "CodeGame.legal_texts": game.legal_texts,
        "CodeGame.legal_by_power": game.legal_by_power,
        "CodeGame.texts": lambda: game.texts([0]),
        "CodeGame.judge": lambda: game.judge(0),
        "Verdict.result_codes": verdict.result_codes,
        "Verdict.reasons": verdict.reasons,
        "Verdict.gone": verdict.gone,
        "Verdict.movement_rows": verdict.movement_rows,
        "Verdict.texts": lambda: verdict.texts([0]),
        "CodeGame.position_json": game.position_json,
        "CodeGame.__repr__": lambda: repr(game),
        "process_batch": lambda: _core.process_batch([], []),
        "pack_orders": lambda: _core.pack_orders([[1]]),
        "mila_turn": lambda: _core.mila_turn(game),
        "mila_codes": lambda: _core.mila_codes(game),
        "MilaCheck.take": lambda: _core.mila_turn(game)[2].take("FRANCE", ["A PAR H"], None),
        "mila_play": lambda: repr(_core.mila_play(game.clone(), _core.mila_turn(game)[2], {})),
    }


@pytest.mark.parametrize("name", sorted(_entry_points()))
def test_a_panic_in_any_fast_entry_point_arrives_as_runtime_error(core: Any, name: str) -> None:
    call = _entry_points()[name]
    expected = call()
    core._panic_in_next_call()
    with pytest.raises(RuntimeError, match="internal error in the diplo engine: deliberate"):
        call()
    # Nothing was left half done: the same call answers as before.
    assert call() == expected


def tiny_map(army: list[list[int]], fleet: list[list[int]], provinces: list[int]) -> list[Any]:
    """Arguments of ``CodeMap``: two coastal provinces and a sea (0 - 1 by land, both on 2)."""
    return [["A", "B", "S"], ["P"], provinces, [1, 1, 2], army, fleet, [0], [[0]], [0, 1, 2]]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (tiny_map([[1], [0], []], [[1, 2], [0, 2], [0, 1]], [0, 1]), "location names"),
        (tiny_map([[2], [], []], [[1, 2], [0, 2], [0, 1]], [0, 1, 2]), "touches a sea province"),
        (tiny_map([[7], [0], []], [[1, 2], [0, 2], [0, 1]], [0, 1, 2]), "names 7, not a province"),
    ],
)
def test_bad_maps_raise_value_error(core: Any, args: list[Any], fragment: str) -> None:
    with pytest.raises(ValueError) as info:
        core.CodeMap(*args)
    assert fragment in str(info.value)


def test_a_good_map_compiles(core: Any) -> None:
    table = core.CodeMap(*tiny_map([[1], [0], []], [[1, 2], [0, 2], [0, 1]], [0, 1, 2]))
    assert (table.num_provinces, table.num_locations, table.num_powers) == (3, 3, 1)


def test_the_python_side_reads_the_cores_tables_with_their_meaning() -> None:
    """One table per concept, exported by the core: the order kinds are the model's order
    classes, the result names are the model's result codes, and the code layout the Python
    encoder uses gives the core's own codes."""
    from diplo import _core
    from diplo.engine import codes
    from diplo.engine.compile import _ORDER_CLASSES, code_map
    from diplo.model.map import standard_map
    from diplo.model.orders import parse_order
    from diplo.model.outcome import CORE_CODES

    assert [c.__name__ for c in _ORDER_CLASSES] == list(_core.ORDER_KINDS)
    assert tuple(_core.RESULT_NAMES) == CORE_CODES
    assert (*CORE_CODES, "illegal") == codes.RESULT_CODES
    game_map = standard_map()
    texts = ["A PAR - BUR", "F BRE - MAO", "A MAR S A PAR - BUR", "F NTH C A LON - NWY"]
    orders = [parse_order(t, game_map) for t in texts]
    items: list[object] = list(orders)
    core = code_map(game_map).encode_objects(items)
    assert [codes.encode_order(o, game_map) for o in orders] == core
    assert [codes.kind_of(c) for c in core] == [codes.MOVE, codes.MOVE, codes.SUPPORT_MOVE, 4]
    assert game_map.locations[codes.location_of(core[1])] == "BRE"
