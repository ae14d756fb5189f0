"""The engine's MILA lists and state dictionaries (``rust/src/engine/mila_lists.rs``,
``diplo.compat.mila.boards``) held to the Python reference (``diplo.compat.mila.order`` and
``diplo.compat.mila.zobrist``): two drop-in games play the same random orders, one through the
engine's lists, the other kept in Python; every phase kind, three maps, and what passes between
the two forms (``set_state``, copies, pickles, saves, lists the map cannot hold)."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest

from diplo.compat import mila as drop
from diplo.compat.mila import base as base_module
from diplo.compat.mila.copies import copy_tree
from diplo.compat.mila.game import parts_of
from diplo.compat.mila.order import Lists
from diplo.compat.mila.records import Record
from diplo.engine import mila as engine

#: Maps, the last year played and the seeded games (enough for a retreat on each).
MAPS = [("standard", 1912, 2), ("ancmed", 1910, 2), ("pure", 1910, 8)]


def _python_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Games made from here keep their lists in Python (the reference path)."""
    monkeypatch.setattr(base_module, "engine_board", lambda made, lists: None)
    monkeypatch.setattr(base_module, "initial_board", lambda *args: None)  # a new game's too


def _without_time(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "timestamp"}


def _play_phase(games: list[Any], rng: random.Random) -> None:
    first = games[0]
    possible = first.get_all_possible_orders()
    for power, locs in sorted(first.get_orderable_locations().items()):
        orders = [rng.choice(sorted(possible[x])) for x in sorted(locs) if possible[x]]
        for game in games:
            game.set_orders(power, orders)
    for game in games:
        game.process()


def _pair(map_name: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    fast = drop.Game(map_name=map_name)
    with monkeypatch.context() as patch:
        _python_only(patch)
        slow = drop.Game(map_name=map_name)
        slow.get_state()  # would switch to the engine's lists, but cannot
    fast.get_state()
    return fast, slow


@pytest.mark.parametrize(("map_name", "last_year", "games"), MAPS)
def test_engine_lists_give_the_reference_state_every_phase(
    map_name: str, last_year: int, games: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    kinds: set[str] = set()
    for seed in range(games):
        fast, slow = _pair(map_name, monkeypatch)
        rng = random.Random(seed)
        while not fast.is_game_done and int(fast.get_current_phase()[1:5]) <= last_year:
            with monkeypatch.context() as patch:
                _python_only(patch)
                expected = slow.get_state()
                hashed = slow.get_hash()
            assert isinstance(parts_of(slow).state.mila_lists, Lists | Record)
            state = fast.get_state()
            assert isinstance(parts_of(fast).state.mila_lists, engine.MilaBoard)
            assert _without_time(state) == _without_time(expected), state["name"]
            # In order, key by key (dict equality would not see a list's order change).
            for key in ("units", "centers", "influence", "homes"):
                assert list(state[key].items()) == list(expected[key].items())
            assert fast.get_hash() == hashed == state["zobrist_hash"]
            kinds.add(state["name"][-1])
            with monkeypatch.context() as patch:
                _python_only(patch)
                _play_phase([fast, slow], rng)
        # The histories (worked out from the engine's lists on one side, the reference's on the
        # other) agree too.
        with monkeypatch.context() as patch:
            _python_only(patch)
            slow_history = {n: _without_time(s) for n, s in slow.state_history.items()}
        assert {n: _without_time(s) for n, s in fast.state_history.items()} == slow_history
    assert kinds == {"M", "R", "A"}


def test_a_new_dictionary_of_new_lists_each_call() -> None:
    game = drop.Game()
    first, second = game.get_state(), game.get_state()
    assert _without_time(first) == _without_time(second)
    assert first["units"] is not second["units"]
    assert first["units"]["FRANCE"] is not second["units"]["FRANCE"]
    first["units"]["FRANCE"].append("A XXX")
    first["homes"]["FRANCE"].clear()
    first["builds"]["FRANCE"]["homes"].append("PAR")
    again = game.get_state()
    assert "A XXX" not in again["units"]["FRANCE"]
    assert again["homes"]["FRANCE"] == ["BRE", "MAR", "PAR"]
    assert again["builds"]["FRANCE"] == {"count": 0, "homes": []}
    assert again["phase"] == again["name"] == "S1901M"
    assert list(again)[:4] == ["timestamp", "zobrist_hash", "note", "name"]


def test_copies_pickles_and_set_state_keep_the_engine_lists(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fast, slow = _pair("standard", monkeypatch)
    rng = random.Random(5)
    with monkeypatch.context() as patch:
        _python_only(patch)
        for _ in range(6):
            _play_phase([fast, slow], rng)
    state = fast.get_state()
    copied, pickled = copy.deepcopy(fast), pickle.loads(pickle.dumps(fast))
    games = [fast, copied, pickled]
    for game in games:
        assert _without_time(game.get_state()) == _without_time(state)

    def play_and_compare(phases: int) -> None:
        for _ in range(phases):
            with monkeypatch.context() as patch:
                _python_only(patch)
                _play_phase([*games, slow], rng)
                expected = _without_time(slow.get_state())
            for game in games:
                assert _without_time(game.get_state()) == expected

    play_and_compare(4)
    # A state set by hand: its lists as given, kept by the engine from then on.
    moved = copy.deepcopy(fast.get_state())
    for listed in moved["units"].values():
        listed.reverse()
    for game in games:
        game.set_state(copy.deepcopy(moved))
        assert isinstance(parts_of(game).state.mila_lists, engine.MilaBoard)
        assert game.get_state()["units"] == moved["units"]
    with monkeypatch.context() as patch:
        _python_only(patch)
        slow.set_state(copy.deepcopy(moved))
    play_and_compare(4)


def test_lists_the_map_cannot_hold_stay_in_python() -> None:
    game = drop.Game()
    state = game.get_state()
    state["influence"]["FRANCE"].append("XYZ")  # no such location: MILA would keep it
    game.set_state(state)
    kept = game.get_state()
    assert kept["influence"]["FRANCE"][-1] == "XYZ"
    assert not isinstance(parts_of(game).state.mila_lists, engine.MilaBoard)
    game.set_orders("FRANCE", ["A PAR - BUR"])
    game.process()
    after = game.get_state()
    assert after["influence"]["FRANCE"][-2:] == ["XYZ", "BUR"]
    assert after["units"]["FRANCE"][-1] == "A BUR"


def test_engine_tables_refuse_what_does_not_fit_the_map() -> None:
    game = drop.Game()
    core = parts_of(game).state.core
    locations = len(parts_of(game).state.tables.locations)
    powers = len(parts_of(game).state.tables.powers)
    ranks: list[tuple[list[tuple[int, int]], int]] = [([], 0)] * locations
    zobrist = ([0] * 2 * powers * locations, [0] * 2 * powers * locations, [0], [0])
    with pytest.raises(ValueError, match="centres and homes need powers x locations"):
        engine.MilaTables(core, [], ranks, zobrist, [[]] * powers)
    with pytest.raises(ValueError, match="ranks must give each of the"):
        engine.MilaTables(core, [], ranks[1:], zobrist, [[]] * powers)
    with pytest.raises(ValueError, match="names no province of the map"):
        engine.MilaTables(core, [locations], ranks, zobrist, [[]] * powers)
    game.get_state()
    made = parts_of(game).state.engine_tables()
    assert engine.MilaBoard.of_lists(made, {"NOBODY": []}, {}, {}, {}) is None
    assert engine.MilaBoard.of_lists(made, {"FRANCE": ["A PARIS"]}, {}, {}, {}) is None
    assert engine.MilaBoard.of_lists(made, {}, {}, {"RUSSIA": ["STP/NC"]}, {}) is None  # a coast
    assert engine.MilaBoard.of_lists(made, {}, {}, {}, {"RUSSIA": ["STP/NC"]}) is not None
    other = drop.Game(map_name="pure")
    board = parts_of(game).state.mila_lists
    assert isinstance(board, engine.MilaBoard)
    with pytest.raises(ValueError, match="another map"):
        board.state(made, parts_of(other).state.core, "S1901M", "")


def test_the_core_copies_trees_of_dicts_lists_and_scalars() -> None:
    tree: dict[str, Any] = {"a": [1, 2.5, True, None, "x", {"b": [[], {}]}], "c": {}}
    made = engine.state_copy(tree)
    assert made == tree and made is not tree
    assert made["a"] is not tree["a"] and made["a"][5]["b"][0] is not tree["a"][5]["b"][0]
    assert made["a"][4] is tree["a"][4]  # strings are shared
    # Anything else: nothing made (the caller copies it the long way), and copy_tree does.
    odd = {"a": [(1, [2])]}
    assert engine.state_copy(odd) is None
    copied = copy_tree(odd)
    assert copied == odd and copied["a"][0][1] is not odd["a"][0][1]
    deep: list[Any] = []
    for _ in range(40):
        deep = [deep]
    assert engine.state_copy(deep) is None
    assert copy_tree(deep) == deep
    assert engine.state_copy(None) is None and copy_tree(None) is None


class _Text(str):
    """A string of another type: not shared by the core's copy (it gives up on it)."""


def _random_tree(rng: random.Random, depth: int) -> Any:
    roll = rng.random()
    if depth > 3 or roll < 0.35:
        return rng.choice(["x", "A PAR", 7, -1, 2.5, True, False, None, 10**30, "", "é"])
    if roll < 0.37:
        return rng.choice([(1, 2), _Text("odd"), frozenset({1})])  # the long way's
    if roll < 0.68:
        return [_random_tree(rng, depth + 1) for _ in range(rng.randrange(6))]
    keys = ["a", "b", "FRANCE", 1, 2.5, None, True, ("t", 1), _Text("k")]
    weights = [5, 5, 5, 2, 1, 1, 1, 0.2, 0.2]
    return {
        rng.choices(keys, weights)[0]: _random_tree(rng, depth + 1) for _ in range(rng.randrange(6))
    }


def _atomic_only(value: Any) -> bool:
    if isinstance(value, list):
        return all(_atomic_only(v) for v in value)
    if isinstance(value, dict):
        return all(
            type(k) in (str, int, float, bool, type(None)) and _atomic_only(v)
            for k, v in value.items()
        )
    return type(value) in (str, int, float, bool, type(None))


def _same_tree_no_container_shared(made: Any, tree: Any) -> None:
    assert type(made) is type(tree)
    if isinstance(tree, list):
        assert made is not tree and len(made) == len(tree)
        for m, t in zip(made, tree, strict=True):
            _same_tree_no_container_shared(m, t)
    elif isinstance(tree, dict):
        assert made is not tree and list(made) == list(tree)  # the same keys, in order
        for key in tree:
            _same_tree_no_container_shared(made[key], tree[key])
    else:
        assert made is tree  # scalars are shared


def test_the_core_copies_random_trees_or_leaves_them_to_the_long_way() -> None:
    rng = random.Random(45)
    made_count = 0
    for _ in range(3000):
        tree = _random_tree(rng, 0)
        before = copy.deepcopy(tree)
        made = engine.state_copy(tree)
        assert tree == before  # the original is untouched
        if made is None and tree is not None:
            assert not _atomic_only(tree)
            continue
        assert _atomic_only(tree)
        made_count += 1
        _same_tree_no_container_shared(made, tree)
        copied = copy_tree(tree)
        _same_tree_no_container_shared(copied, tree)
    assert made_count > 1000  # most trees are the core's


def test_a_save_is_new_each_call_though_its_played_phases_are_made_once() -> None:
    game = drop.Game()
    rng = random.Random(3)
    for _ in range(4):
        _play_phase([game], rng)
    first = drop.to_saved_game_format(game)
    kept = copy.deepcopy(first)
    entry = first["phases"][0]
    entry["state"]["units"]["FRANCE"].append("A XXX")
    entry["orders"]["FRANCE"].append("A PAR H")
    entry["results"].clear()
    again = drop.to_saved_game_format(game)
    for made, want in zip(again["phases"][:-1], kept["phases"][:-1], strict=True):
        assert made == want
    assert again["phases"][0]["state"] is not first["phases"][0]["state"]
