"""The drop-in's fast paths give what the long ways give: the state dictionary made from the raw
state (``board_doc``) and its copy (``copy_board``), the kept hash, the map's kept answers."""

from __future__ import annotations

import copy
import json
import pickle
import random

from diplo.compat import mila
from diplo.compat.mila.copies import copy_board, copy_tree
from diplo.compat.mila.docs import board_doc
from diplo.compat.mila.game import parts_of
from diplo.compat.mila.turn import tables_of
from diplo.engine import mila as engine
from diplo.engine.codes import position_from_state
from diplo.formats.mila import mila_builds, position_to_mila
from diplo.model.map import standard_map


def _games(seeds: range, max_year: int) -> list[mila.Game]:
    """Every phase of random games played by the corpus bot (copies, one per phase), under
    diplo's rulings (the seeds reach every kind of phase there)."""
    out = []
    for seed in seeds:
        game, rng = mila.Game(ruling="datc"), random.Random(seed)
        while not game.is_game_done and int(game.get_current_phase()[1:5]) <= max_year:
            out.append(copy.deepcopy(game))
            possible = game.get_all_possible_orders()
            for power, locs in sorted(game.get_orderable_locations().items()):
                orders = [rng.choice(sorted(possible[x])) for x in sorted(locs) if possible[x]]
                game.set_orders(power, orders)
            game.process()
    return out


def test_board_doc_is_position_to_mila_key_for_key_in_order() -> None:
    game_map = standard_map()
    kinds = set()
    for game in _games(range(3), 1906):
        state = engine.state_of(parts_of(game).state.core)
        name = game.get_current_phase()
        kinds.add(state[2])
        position = position_from_state(game_map, state)
        builds = mila_builds(position) if state[2] == "A" else None
        fast = board_doc(tables_of(game_map), state, name, builds)
        slow = position_to_mila(position, name=name)
        # The drop-in's influence is MILA's, from the game's history (compat/mila/order.py):
        # the board's dictionary leaves it empty.
        slow["influence"] = {p: [] for p in slow["influence"]}
        assert json.dumps(fast) == json.dumps(slow)  # dicts in the same order too
        assert json.dumps(copy_board(fast)) == json.dumps(copy_tree(fast))
    assert kinds == {"M", "R", "A"}


def test_get_state_and_the_kept_hash_follow_the_board() -> None:
    game = mila.Game()
    first = game.get_state()
    again = game.get_state()
    assert first == {**again, "timestamp": first["timestamp"]}
    again["units"]["FRANCE"].append("A XXX")  # a copy: the game is not changed
    again["retreats"]["FRANCE"]["A PAR"] = ["BUR"]
    assert game.get_state()["units"] == first["units"]
    assert game.get_state()["retreats"]["FRANCE"] == {}
    start = game.get_hash()
    game.set_units("FRANCE", ["A BUR"])  # an edit: a new board, a new hash
    assert game.get_hash() != start
    assert "A BUR" in game.get_state()["units"]["FRANCE"]
    game.clear_units("FRANCE")
    moved = game.get_hash()
    france = game.get_power("FRANCE")
    assert france is not None
    france.units.append("A PAR")  # the power objects' lists: no cache
    assert game.get_hash() != moved
    restored = pickle.loads(pickle.dumps(game))
    assert restored.get_hash() == game.get_hash()
    assert restored.get_state()["units"] == game.get_state()["units"]
    assert "_hash_kept" not in game.__getstate__() and "map" not in game.__getstate__()


def test_the_maps_kept_answers_are_its_answers() -> None:
    fresh = mila.Map()
    kept = mila.Game().map
    queries = [
        (kind, loc, order, other)
        for kind in ("A", "F", "?", "a")
        for loc in ("PAR", "STP/SC", "bre", "BUL/EC", "XXX")
        for order in ("-", "S", "C")
        for other in ("BUR", "BOT", "GAS", "BUL", "BLA", "MAO", "pic")
    ]
    for _ in range(2):  # asked anew, then answered from what was kept
        for query in queries:
            assert kept.abuts(*query) == mila.Map.abuts(fresh, *query)
        for text in ("a par - bur", "F STP/SC S A MOS", "A  PAR-BUR", "F (BRE) - MAO"):
            assert kept.norm(text) == mila.Map.norm(fresh, text)
    assert copy.deepcopy(kept).abuts("A", "PAR", "-", "BUR") == 1
    assert pickle.loads(pickle.dumps(kept)).norm("a par") == "A PAR"
