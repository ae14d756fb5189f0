"""A restored state meets every invariant a played state meets (issue 31, item 5): the engine's
state bytes (``CodeGame.from_state_bytes``, and so every pickle of a ``CodeGame``) are refused,
with the fault named, when they hold what no game can reach: a winner without the centres or
outside the winter its Fall turn won, a game over before its last year, a game going on past
its last year, a last year beyond the rules' year limit, an implied result that is no hold,
disband, waive or build on the map. Every state a played game reaches still restores.

The bytes' layout is ``rust/src/engine/search.rs``'s module documentation: the offsets used
here are 10 (u32 year), 16 (u32 last year, 0 for none), 20 (over), 21 (winner, 255 for none)."""

from __future__ import annotations

import pickle
import random
import struct

import pytest

from diplo import _core
from diplo.engine.codes import CodeGame, code_map
from diplo.model.map import standard_map
from diplo.model.position import Position
from diplo.model.rules import Rules

MAP = standard_map()
TABLE = code_map(MAP)


def _patched(data: bytes, offset: int, raw: bytes) -> bytes:
    return data[:offset] + raw + data[offset + len(raw) :]


def _played(rules: Rules, max_year: int | None, seed: int, stop: int | None = None) -> CodeGame:
    """A random game under ``rules`` played to its end (or ``stop`` phases)."""
    game = CodeGame(Position.initial(MAP, rules=rules), max_year)
    rng = random.Random(seed)
    phases = 0
    while not game.is_over and (stop is None or phases < stop):
        game.set_orders([rng.choice(options) for options in game.legal_orders()])
        game.process()
        phases += 1
    return game


def _restores(game: CodeGame) -> None:
    data = game._core.state_bytes()
    back = _core.CodeGame.from_state_bytes(TABLE, data, game.rules.to_json())
    assert back.state_bytes() == data
    assert pickle.loads(pickle.dumps(game))._core.state_bytes() == data


def test_a_won_game_a_game_at_its_limit_and_games_going_on_restore() -> None:
    won = _played(Rules(victory_centers=6), None, 1)
    assert won.winner is not None and won.is_over
    _restores(won)
    ended = _played(Rules(), 1902, 2)
    assert ended.winner is None and ended.is_over
    _restores(ended)
    for stop in range(1, 8):
        _restores(_played(Rules(), 1903, 3, stop))


def test_a_winner_with_three_centres_in_spring_1901_is_refused() -> None:
    data = CodeGame(Position.initial(MAP))._core.state_bytes()
    assert (data[20], data[21]) == (0, 255)
    for over in (0, 1):
        bad = _patched(data, 20, bytes([over, 0]))
        with pytest.raises(ValueError, match="named the winner with 3 centres in S1901M"):
            _core.CodeGame.from_state_bytes(TABLE, bad)


def test_a_winner_other_than_the_one_the_centres_make_is_refused() -> None:
    won = _played(Rules(victory_centers=6), None, 1)
    data = won._core.state_bytes()
    assert won.winner is not None
    index = list(MAP.powers).index(won.winner)
    other = (index + 1) % len(MAP.powers)
    assert data[21] == index
    with pytest.raises(ValueError, match="named the winner"):
        _core.CodeGame.from_state_bytes(
            TABLE, _patched(data, 21, bytes([other])), won.rules.to_json()
        )


def test_last_years_that_contradict_the_game_s_end_are_refused() -> None:
    going = _played(Rules(), 1905, 4, stop=3)
    data = going._core.state_bytes()
    year = struct.unpack_from("<I", data, 10)[0]
    assert struct.unpack_from("<I", data, 16)[0] == 1905 and data[20] == 0
    before = _patched(data, 16, struct.pack("<I", year - 1))
    with pytest.raises(ValueError, match=rf"last year \({year - 1}\) is before the state's year"):
        _core.CodeGame.from_state_bytes(TABLE, before)
    over = _patched(data, 20, b"\x01")
    with pytest.raises(ValueError, match="over with no winner"):
        _core.CodeGame.from_state_bytes(TABLE, over)
    limited = CodeGame(Position.initial(MAP, rules=Rules(year_limit=1903)))._core.state_bytes()
    later = _patched(limited, 16, struct.pack("<I", 1910))
    with pytest.raises(ValueError, match=r"not within the rules' year limit \(1903\)"):
        _core.CodeGame.from_state_bytes(TABLE, later)


def test_implied_results_that_no_phase_implies_are_refused() -> None:
    """A game keeps no results, so its bytes end with two empty lists; bytes written before
    (with the last phase's results) are read all the same, the results checked and dropped,
    and refused when no phase could imply them."""
    game = CodeGame(Position.initial(MAP))
    game.process()  # no orders: every unit holds, each an implied result (not kept)
    data = game._core.state_bytes()
    assert data.endswith(struct.pack("<II", 0, 0))
    hold = MAP.location_index["PAR"] << 4  # A PAR H
    assert hold & 0xF == 0  # a hold

    def older(code: int) -> bytes:
        """``data`` as an older game wrote it: one implied result, ``code`` held with success."""
        return data[:-4] + struct.pack("<IQBB", 1, code, 0, 1)

    back = _core.CodeGame.from_state_bytes(TABLE, older(hold))
    assert back.state_bytes() == data  # read, and the results dropped
    move = hold | 1  # a move with no destination field
    garbage = 1 << 40  # bits no code uses
    far = hold | (1000 << 4)  # a location past the map's
    for code in (move, garbage, far):
        with pytest.raises(ValueError, match=r"implied result code .* is not a hold"):
            _core.CodeGame.from_state_bytes(TABLE, older(code))


def test_a_game_of_the_object_api_restores_only_as_it_could_have_been_played() -> None:
    """``diplo.api.game.Game``'s pickle (and deep copy): the history chains from the initial
    position to the position, and the end is the one the history and the last year make."""
    import copy

    from diplo.api import game as api
    from diplo.apps.play import play_game

    played = play_game(5, 1902, None)
    assert played.end_reason == "max_year"
    assert copy.deepcopy(played).history == played.history
    version, state = played.__reduce__()[1]
    bad_states = {
        "winner": {**state, "_winner": "FRANCE"},
        "the end": {**state, "_end_reason": None, "_draw": False},
        "draw": {**state, "_draw": False},
        "follow": {**state, "_history": state["_history"][1:]},
        "leads": {**state, "_position": state["_history"][-1].position},
        "max_year": {**state, "_max_year": "1902"},
    }
    for words, bad in bad_states.items():
        with pytest.raises(ValueError, match=words):
            api._unpickle_game(version, bad)
    going = play_game(5, 1903, None)
    version, state = going.__reduce__()[1]
    early = {**state, "_end_reason": None, "_draw": False, "_max_year": 1901}
    with pytest.raises(ValueError, match="last year 1901"):
        api._unpickle_game(version, early)
