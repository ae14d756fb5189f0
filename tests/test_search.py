"""The search API: pickling and deep copies of games, the board hash, candidate order sets."""

from __future__ import annotations

import copy
import json
import pickle
import random
import subprocess
import sys

import pytest

from diplo.api.game import Game, GameOverError
from diplo.engine.codes import CodeGame
from diplo.model.map import Map, map_named, standard_map
from diplo.model.position import Position


def _random_play(seed: int, max_year: int = 1908, game_map: str = "standard") -> list[CodeGame]:
    """Every state of a random game (a clone per phase, the start first)."""
    rng = random.Random(seed)
    game = CodeGame(Position.initial(map_named(game_map)), max_year)
    states = [game.clone()]
    while not game.is_over:
        game.set_orders([rng.choice(codes) for codes in game.legal_orders()])
        game.process()
        states.append(game.clone())
    return states


def _same(a: CodeGame, b: CodeGame) -> None:
    assert a.phase == b.phase
    assert a.is_over == b.is_over and a.winner == b.winner and a.max_year == b.max_year
    assert a.position() == b.position()
    assert a.position().rules == b.position().rules
    assert a.hash == b.hash


def _continue_alike(a: CodeGame, b: CodeGame, seed: int, phases: int = 6) -> None:
    """Plays the same random orders on both for a few phases: they stay the same game."""
    rng = random.Random(seed)
    for _ in range(phases):
        if a.is_over:
            break
        orders = [rng.choice(codes) for codes in a.legal_orders()]
        assert a.legal_orders() == b.legal_orders()
        a.set_orders(orders)
        b.set_orders(orders)
        # The same results: each phase's outcome is the caller's, equal for equal games.
        assert a.process() == b.process()
        _same(a, b)
    _same(a, b)


def test_fast_game_pickles_and_deep_copies_at_every_phase_kind() -> None:
    kinds: set[str] = set()
    for seed in range(6):
        for state in _random_play(seed):
            kinds.add(state.phase[-1])
            for copied in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
                _same(copied, state)
                assert copied._core is not state._core
            _continue_alike(pickle.loads(pickle.dumps(state)), state.clone(), seed)
    assert kinds == {"M", "R", "A"}


def test_pending_orders_and_the_end_travel_in_a_pickle() -> None:
    game = _random_play(3, 1902)[-1]
    assert game.is_over
    back = pickle.loads(pickle.dumps(game))
    _same(back, game)
    with pytest.raises(GameOverError):
        back.process()
    live = CodeGame()
    live.set_orders([live.legal_orders()[0][1]])
    back = pickle.loads(pickle.dumps(live))
    done = back.process()
    assert done == live.process() and done.result_codes() == [0]
    _same(back, live)


def test_a_shipped_map_travels_by_name_and_a_pickle_is_compact() -> None:
    game = _random_play(1, 1903)[-3]
    data = pickle.dumps(game)
    assert len(data) < 1000  # the map by name, the state in a few hundred bytes
    assert pickle.loads(data).map is game.map
    other = _random_play(2, 3, "ancmed")[-2]  # (ancmed starts in year 1)
    assert pickle.loads(pickle.dumps(other)).map is other.map


def test_a_map_of_ones_own_travels_by_its_contents() -> None:
    data = json.loads(json.dumps(_map_data()))
    data["name"] = "my-standard"
    mine = Map.from_dict(data)
    game = CodeGame(Position.initial(mine), 1903)
    back = pickle.loads(pickle.dumps(game))
    assert back.map.name == "my-standard"
    _continue_alike(back, game, 5)


def _map_data() -> dict[str, object]:
    from importlib import resources

    text = resources.files("diplo").joinpath("data/standard.json").read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def test_a_damaged_state_is_a_clear_error_never_a_crash() -> None:
    from diplo import _core
    from diplo.engine.codes import code_map

    game = _random_play(4, 1903)[5]
    state = game._core.state_bytes()
    table = code_map(game.map)
    assert _core.CodeGame.from_state_bytes(table, state).hash == game.hash
    with pytest.raises(ValueError, match="bad magic"):
        _core.CodeGame.from_state_bytes(table, b"XYZ" + state[3:])
    with pytest.raises(ValueError, match="version 9"):
        _core.CodeGame.from_state_bytes(table, state[:3] + b"\x09" + state[4:])
    with pytest.raises(ValueError, match="follow the end"):
        _core.CodeGame.from_state_bytes(table, state + b"\x00")
    for cut in range(len(state)):
        with pytest.raises(ValueError, match="bad CodeGame state"):
            _core.CodeGame.from_state_bytes(table, state[:cut])
    with pytest.raises(ValueError, match="map with"):
        _core.CodeGame.from_state_bytes(code_map(map_named("ancmed")), state)
    rng = random.Random(0)
    accepted = 0
    for _ in range(3000):
        damaged = bytearray(state)
        for _ in range(rng.randint(1, 3)):
            damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        try:
            back = _core.CodeGame.from_state_bytes(table, bytes(damaged))
        except ValueError as exc:
            assert str(exc).startswith("bad CodeGame state: ")
        else:
            accepted += 1  # a change that is still a position the engine could hold
            assert back.full_hash() == back.hash
    assert accepted < 3000
    # The pickle's outer parts are checked too.
    from diplo.engine import codes

    with pytest.raises(ValueError, match="version"):
        codes._unpickle_fast_game(2, game.map, game.rules.to_json(), state)
    with pytest.raises(ValueError, match="expected a Map"):
        codes._unpickle_fast_game(1, "standard", game.rules.to_json(), state)
    with pytest.raises(ValueError, match="rules"):
        codes._unpickle_fast_game(1, game.map, {"nonsense": 1}, state)


def test_the_kept_hash_is_the_hash_worked_out_from_scratch_after_every_phase() -> None:
    for seed in range(20):
        for state in _random_play(seed, 1912):
            assert state.hash == state._core.full_hash()
            assert 0 <= state.hash < 2**64
            # The same position with no history: the same hash.
            if not state.is_over:
                assert CodeGame(state.position(), state.max_year).hash == state.hash


def test_the_same_position_by_two_histories_has_one_hash() -> None:
    a, b = CodeGame(), CodeGame()
    # a: every unit holds twice; b: A PAR - BUR then back, F BRE - MAO then back.
    for game, first, second in (
        (a, [], []),
        (b, ["A PAR - BUR", "F BRE - MAO"], ["A BUR - PAR", "F MAO - BRE"]),
    ):
        for texts in (first, second):
            codes = _codes_of(game, texts)
            game.set_orders(codes)
            game.process()
    assert a.phase == b.phase == "S1902M"
    assert a.position() == b.position()
    assert a.hash == b.hash
    assert a.hash != CodeGame().hash  # another phase


def _codes_of(game: CodeGame, texts: list[str]) -> list[int]:
    from diplo.engine.codes import encode_order
    from diplo.model.orders import parse_order

    return [encode_order(parse_order(t, game.map), game.map) for t in texts]


def test_no_two_generated_positions_share_a_hash() -> None:
    seen: dict[int, str] = {}
    positions = 0
    for seed in range(300):
        for state in _random_play(seed, 1910):
            text = json.dumps(state.position().to_json(), sort_keys=True)
            positions += 1
            assert seen.setdefault(state.hash, text) == text, f"collision at seed {seed}"
    assert positions > 8000 and len(seen) > 8000


def test_what_is_hashed_changes_the_hash() -> None:
    start = Position.initial(standard_map())
    base = CodeGame(start).hash
    units = dict(start.units)
    units.pop("PAR")
    centers = dict(start.centers)
    centers["PAR"] = "GERMANY"
    fleet = start.with_changes(units={**start.units, "LON": start.units["LON"]})
    assert CodeGame(fleet).hash == base
    variants = [
        start.with_changes(units=units),
        start.with_changes(centers=centers),
        start.with_changes(phase=start.phase.__class__(1902, "S", "M")),
        start.with_changes(phase=start.phase.__class__(1901, "F", "M")),
    ]
    hashes = {CodeGame(p).hash for p in variants}
    assert base not in hashes and len(hashes) == len(variants)


def test_the_hash_depends_on_the_whole_map_not_only_its_names() -> None:
    import json
    from importlib.resources import files

    doc = json.loads(files("diplo.data").joinpath("standard.json").read_text())
    start = Position.initial(standard_map())
    base = CodeGame(start).hash
    # Two maps that share every name: one edge fewer, or one centre fewer, each seeds its own keys.
    fewer_edges = {**doc, "army_edges": [e for e in doc["army_edges"] if e != ["BOH", "GAL"]]}
    assert len(fewer_edges["army_edges"]) == len(doc["army_edges"]) - 1
    provinces = [{**p, "center": False} if p["abbr"] == "BEL" else p for p in doc["provinces"]]
    fewer_centres = {**doc, "provinces": provinces}
    hashes = {base}
    for changed in (fewer_edges, fewer_centres):
        other = Map.from_dict(changed)
        position = Position.initial(other)
        assert position.units.keys() == start.units.keys()
        hashes.add(CodeGame(position).hash)
    assert len(hashes) == 3
    # The same map read twice hashes alike.
    assert CodeGame(Position.initial(Map.from_dict(doc))).hash == base


def test_retreat_options_are_part_of_the_hash() -> None:
    for seed in range(40):
        for state in _random_play(seed, 1906):
            pos = state.position()
            if pos.phase.kind != "R" or state.is_over:
                continue
            prov, gone = next((k, d) for k, d in pos.dislodged.items() if d.options)
            fewer = {**pos.dislodged, prov: gone.__class__(gone.piece, gone.options[1:])}
            changed = pos.with_changes(dislodged=fewer)
            assert CodeGame(changed).hash != state.hash
            return
    pytest.fail("no retreat phase with options in the generated games")


def test_the_hash_is_the_same_in_another_process() -> None:
    games = _random_play(7, 1904)
    mine = [g.hash for g in games]
    code = (
        "import random, sys; sys.path[:0] = []\n"
        "from tests.test_search import _random_play\n"
        "print([g.hash for g in _random_play(7, 1904)])\n"
    )
    env_seed = {"PYTHONHASHSEED": "12345"}
    import os

    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **env_seed},
        cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
    ).stdout
    assert json.loads(out) == mine


def test_candidates_equal_playing_each_on_a_clone() -> None:
    for seed in range(8):
        rng = random.Random(seed)
        for state in _random_play(seed, 1906)[::3]:
            if state.is_over:
                continue
            before = state.clone()
            legal = state.legal_orders()
            candidates = [[rng.choice(codes) for codes in legal] for _ in range(5)]
            candidates.append([])  # nobody orders anything
            candidates.append([0xFFFF_FFFF, 12345])  # malformed codes: refused, all hold
            out = state.play_candidates(candidates)
            assert len(out.hashes) == len(out.centers) == len(out.games) == len(candidates)
            _same(state, before)  # the position played from is untouched
            for k, orders in enumerate(candidates):
                alone = state.clone()
                alone.set_orders(orders)
                alone.process()
                _same(out.games[k], alone)
                assert out.hashes[k] == alone.hash
                counts = [
                    sum(1 for o in alone.position().centers.values() if o == p)
                    for p in state.map.powers
                ]
                assert out.centers[k] == counts
            # A candidate's game goes on like any other.
            _continue_alike(out.games[0], _replayed(state, candidates[0]), seed)


def _replayed(state: CodeGame, orders: list[int]) -> CodeGame:
    game = state.clone()
    game.set_orders(orders)
    game.process()
    return game


def test_candidates_refuse_bad_input_and_finished_games() -> None:
    game = CodeGame()
    with pytest.raises(ValueError, match=r"candidates\[1\]"):
        game.play_candidates([[], ["A PAR H"]])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="sequence"):
        game.play_candidates("nope")  # type: ignore[arg-type]
    assert game.phase == "S1901M" and game.hash == CodeGame().hash
    assert game.play_candidates([]).games == []
    over = _random_play(0, 1901)[-1]
    with pytest.raises(GameOverError):
        over.play_candidates([[]])


def test_api_game_pickles_and_deep_copies_at_every_phase_kind() -> None:
    kinds: set[str] = set()
    for seed in range(40):
        if kinds == {"M", "R", "A"} and seed >= 2:
            break
        rng = random.Random(seed)
        game = Game(max_year=1906)
        while not game.is_over:
            for copied in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
                assert copied.position == game.position
                assert copied.phase == game.phase
                assert copied.history == game.history
                assert copied.orders == game.orders
                assert copied.map is game.map
            kinds.add(game.phase.kind)
            twin = pickle.loads(pickle.dumps(game))
            orders = _random_object_orders(game, rng)
            for g in (game, twin):
                for power, texts in orders.items():
                    g.set_orders(power, texts)
                g.process()
            assert twin.history == game.history and twin.position == game.position
            assert twin.winner == game.winner and twin.end_reason == game.end_reason
        assert pickle.loads(pickle.dumps(game)).is_over
    assert kinds == {"M", "R", "A"}


def _random_object_orders(game: Game, rng: random.Random) -> dict[str, list[str]]:
    from diplo.api.legal import legal_order_texts

    out: dict[str, list[str]] = {}
    for power in game.orderable_powers():
        options = legal_order_texts(game.position, power)
        out[power] = [rng.choice(texts) for texts in options.values() if texts]
    return out


def test_a_damaged_game_pickle_is_a_clear_error() -> None:
    from diplo.api import game as api

    state = dict(Game().__reduce__()[1][1])
    with pytest.raises(ValueError, match="version"):
        api._unpickle_game(7, state)
    with pytest.raises(ValueError, match="missing"):
        api._unpickle_game(1, {k: v for k, v in state.items() if k != "_history"})
    with pytest.raises(ValueError, match="wrong type"):
        api._unpickle_game(1, {**state, "_history": "x"})


@pytest.mark.parametrize("n", [129, 600])
def test_wide_maps_pickle_hash_and_play_candidates(n: int) -> None:
    wide = _line_map(n)
    game = CodeGame(Position.initial(wide), 1903)
    rng = random.Random(n)
    while not game.is_over:
        assert game.hash == game._core.full_hash()
        back = pickle.loads(pickle.dumps(game))
        _same(back, game)
        orders = [rng.choice(codes) for codes in game.legal_orders()]
        out = game.play_candidates([orders])
        game.set_orders(orders)
        game.process()
        _same(out.games[0], game)
    assert (
        CodeGame(Position.initial(wide)).hash != CodeGame(Position.initial(_line_map(n + 1))).hash
    )


def _line_map(n: int) -> Map:
    """``n`` land provinces in a line, one power with an army on each but the last."""
    provinces = [{"abbr": f"P{i}", "name": f"Province {i}", "type": "land"} for i in range(n)]
    data = {
        "name": f"line{n}",
        "powers": {
            "ONE": {"adjective": "One", "homes": [], "units": [f"A P{i}" for i in range(n - 1)]}
        },
        "provinces": provinces,
        "army_edges": [[f"P{i}", f"P{i + 1}"] for i in range(n - 1)],
        "fleet_edges": [],
    }
    return Map.from_dict(data)
