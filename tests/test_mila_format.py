"""MILA's saved-game format: diplo's games exported and imported (``diplo.formats.mila``), read
by MILA itself, and MILA's own games replayed on diplo. The differential test against the MILA
corpus is in ``tests/test_mila.py``."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from diplo.api.game import Game
from diplo.formats import gamefile
from diplo.formats.mila import (
    MilaError,
    game_from_mila,
    game_to_mila,
    position_from_mila,
    position_to_mila,
)


def _rulings(game: Game) -> list[tuple[str, list[str], dict[str, Any]]]:
    out = []
    for record in game.history:
        results = sorted(
            json.dumps({k: v for k, v in r.to_json().items() if k not in ("reason", "given")})
            for r in record.outcome.results
            if r.legal
        )
        out.append((str(record.phase), results, record.outcome.next.to_json()))
    return out


@pytest.fixture(scope="module")
def played() -> Game:
    from test_game import play_random

    game = Game(backend="python", max_year=1904)
    play_random(game, 30, until=lambda g: g.phase.year >= 1903)
    game.resign("ENGLAND")
    return play_random(game, 31)


def test_positions_round_trip_through_mila_states(played: Game) -> None:
    for record in played.history:
        position = record.position
        state = json.loads(json.dumps(position_to_mila(position)))
        back = position_from_mila(state, game_map=position.map)
        assert back.to_json() == position.to_json()
    retreat = next(r.position for r in played.history if r.phase.kind == "R")
    state = position_to_mila(retreat)
    assert any(u.startswith("*") for us in state["units"].values() for u in us)


def test_export_shape(played: Game) -> None:
    data = game_to_mila(played)
    assert data["map"] == "standard"
    names = [p["name"] for p in data["phases"]]
    assert names[0] == "S1901M" and names[-1] == "COMPLETED"
    assert names[:-1] == [str(r.phase) for r in played.history]
    last = data["phases"][-1]
    assert last["state"]["note"].startswith("Victory by: ")
    for entry in data["phases"][:-1]:
        assert set(entry) == {"name", "state", "orders", "results", "messages"}
        assert set(entry["orders"]) == set(played.map.powers)
    later = [p for p in data["phases"] if p["name"] >= "S1903M" and p["name"][1:5] >= "1903"]
    assert all(p["state"]["civil_disorder"]["ENGLAND"] == 1 for p in later)
    json.dumps(data)


def test_round_trip_without_the_mila_package(played: Game) -> None:
    data = json.loads(json.dumps(game_to_mila(played)))
    back = game_from_mila(data, backend="python")
    assert _rulings(back) == _rulings(played)
    assert back.resigned == played.resigned
    # MILA knows no year limit: a game ended at max_year comes back as an agreed draw.
    assert back.is_over and back.draw and back.end_reason == "draw_vote"
    assert back.meta["mila"]["divergent_phases"] == []
    # and through our own game file as well
    again = gamefile.from_json(gamefile.to_json(back), backend="python")
    assert _rulings(again) == _rulings(played)


def test_a_game_in_progress_exports_its_pending_orders() -> None:
    game = Game(backend="python")
    game.process()
    game.set_orders("FRANCE", ["A PAR - BUR"])
    data = game_to_mila(game)
    assert data["phases"][-1]["name"] == "F1901M"
    assert data["phases"][-1]["orders"]["FRANCE"] == ["A PAR - BUR"]
    back = game_from_mila(data, backend="python")
    assert str(back.phase) == "F1901M" and back.orders == {"FRANCE": ["A PAR - BUR"]}


def test_a_divergent_mila_game_is_refused_or_kept_with_diplo_rulings() -> None:
    data = game_to_mila(Game(backend="python"))
    start = data["phases"][0]
    # A save that moves A PAR to BUR on "A PAR - BUR VIA" with no fleet on the board: diplo
    # refuses that order and the army holds (MILA's own order check refuses it too, 21035).
    played = copy.deepcopy(start)
    played["orders"]["FRANCE"] = ["A PAR - BUR VIA"]
    following = copy.deepcopy(start)
    following["name"] = "F1901M"
    units = following["state"]["units"]["FRANCE"]
    units[units.index("A PAR")] = "A BUR"
    following["orders"] = dict.fromkeys(following["orders"])
    data["phases"] = [played, following]
    with pytest.raises(MilaError, match=r"^S1901M: diplo rules this phase differently"):
        game_from_mila(data, backend="python")
    kept = game_from_mila(data, backend="python", strict=False)
    assert kept.meta["mila"]["divergent_phases"] == ["S1901M"]
    assert kept.position.unit_at("PAR") is not None


def test_malformed_mila_data() -> None:
    with pytest.raises(MilaError):
        game_from_mila({"map": "standard", "phases": []})
    with pytest.raises(MilaError, match="unsupported MILA map"):
        game_from_mila({"map": "world", "phases": [{}]})


# --------------------------------------------------------------------------- with MILA itself


def _mila_random_game(seed: int, last_year: int) -> Any:
    diplomacy = pytest.importorskip("diplomacy")
    rng = random.Random(seed)
    game = diplomacy.Game()
    while not game.is_game_done and int(game.get_current_phase()[1:5]) <= last_year:
        possible = game.get_all_possible_orders()
        for power, locs in sorted(game.get_orderable_locations().items()):
            orders = [rng.choice(sorted(possible[loc])) for loc in sorted(locs) if possible[loc]]
            game.set_orders(power, orders)
        game.process()
    return game


def test_mila_reads_our_export(played: Game) -> None:
    export = pytest.importorskip("diplomacy.utils.export")
    mila_game = export.from_saved_game_format(json.loads(json.dumps(game_to_mila(played))))
    assert mila_game.is_game_done
    history = mila_game.get_phase_history()
    assert [str(p.name) for p in history] == [str(r.phase) for r in played.history]
    for data, record in zip(history, played.history, strict=True):
        ours = position_to_mila(record.position)
        assert {p: sorted(u) for p, u in data.state["units"].items()} == ours["units"]
        assert {p: sorted(c) for p, c in data.state["centers"].items()} == ours["centers"]
    # and MILA's own export of it comes back to the same game
    back = game_from_mila(json.loads(json.dumps(export.to_saved_game_format(mila_game))))
    assert _rulings(back) == _rulings(played)


def test_a_game_played_by_mila_replays_alike(backend: str) -> None:
    export = pytest.importorskip("diplomacy.utils.export")
    # Seed 1, 1901-1906: random MILA orders that meet none of MILA's known differences.
    mila_game = _mila_random_game(1, 1906)
    data = json.loads(json.dumps(export.to_saved_game_format(mila_game)))
    game = game_from_mila(data, backend=backend)
    assert str(game.phase) == mila_game.get_current_phase()
    theirs = position_from_mila(mila_game.get_state(), game_map=game.map)
    assert game.position.to_json() == theirs.to_json()


def test_a_game_played_by_mila_with_a_known_difference(backend: str) -> None:
    export = pytest.importorskip("diplomacy.utils.export")
    # Seed 0 meets convoy_intent_fallback in F1902M: strict import stops there.
    mila_game = _mila_random_game(0, 1903)
    data = json.loads(json.dumps(export.to_saved_game_format(mila_game)))
    with pytest.raises(MilaError, match=r"^F1902M: diplo rules this phase differently"):
        game_from_mila(data, backend=backend)
    kept = game_from_mila(data, backend=backend, strict=False)
    assert kept.meta["mila"]["divergent_phases"][0] == "F1902M"
