"""The diplo game file: save, load (replayed and checked, or trusted), round trips."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest

from diplo.api.game import Game
from diplo.formats import gamefile
from diplo.formats.gamefile import GameFileError
from test_game import play_random


def _ruling_view(doc: dict[str, Any]) -> dict[str, Any]:
    """The document with each phase's implied results in a fixed order (the engine promises
    none) and without the prose of the reasons, for comparisons."""
    out = copy.deepcopy(doc)
    for entry in out["phases"]:
        given = [r for r in entry["results"] if r["given"]]
        implied = sorted(
            (r for r in entry["results"] if not r["given"]), key=lambda r: json.dumps(r)
        )
        entry["results"] = given + implied
        for result in entry["results"]:
            result.pop("reason", None)
    return out


@pytest.fixture(scope="module")
def played() -> Game:
    game = Game(backend="python", max_year=1905)
    game.meta["title"] = "a random game"
    play_random(game, 5, until=lambda g: g.phase == g.phase.parse("S1903M"))
    game.resign("ITALY")
    return play_random(game, 6)


def test_document_shape(played: Game) -> None:
    doc = gamefile.to_json(played)
    assert doc["format"] == "diplo-game" and doc["version"] == 1 and doc["map"] == "standard"
    assert doc["initial"]["phase"] == "S1901M"
    first = doc["phases"][0]
    assert set(first) >= {"phase", "orders", "results", "dislodged", "next"}
    assert first["phase"] == "S1901M" and first["next"]["phase"] == "F1901M"
    status = doc["status"]
    assert status["over"] and status["end"] == "max_year" and status["draw"]
    assert status["resigned"] == {"ITALY": "S1903M"}
    assert status["max_year"] == 1905
    assert doc["meta"]["title"] == "a random game"
    assert doc["meta"]["generator"].startswith("diplo ")
    json.dumps(doc)  # plain JSON


def test_round_trip_replayed(played: Game, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    gamefile.save(played, path)
    loaded = gamefile.load(path, backend="python")
    assert _ruling_view(gamefile.to_json(loaded)) == _ruling_view(gamefile.to_json(played))
    assert loaded.position.to_json() == played.position.to_json()
    assert loaded.resigned == played.resigned
    assert loaded.end_reason == "max_year" and loaded.meta["title"] == "a random game"


def test_round_trip_trusted(played: Game) -> None:
    doc = json.loads(json.dumps(gamefile.to_json(played)))
    loaded = gamefile.from_json(doc, verify=False)
    assert gamefile.to_json(loaded) == gamefile.to_json(played)
    assert [r.phase for r in loaded.history] == [r.phase for r in played.history]


def test_round_trip_on_every_backend(backend: str) -> None:
    game = play_random(Game(backend=backend, max_year=1903), 8)
    buffer = io.StringIO()
    gamefile.save(game, buffer)
    buffer.seek(0)
    loaded = gamefile.load(buffer, backend=backend)
    assert _ruling_view(gamefile.to_json(loaded)) == _ruling_view(gamefile.to_json(game))


def test_a_game_in_progress_keeps_its_pending_orders_and_draw_votes() -> None:
    game = Game(backend="python")
    play_random(game, 2, until=lambda g: len(g.history) >= 3)
    game.set_orders("FRANCE", ["A PAR H", "nonsense"])
    game.propose_draw("ENGLAND")
    game.vote_draw("GERMANY", False)
    doc = gamefile.to_json(game)
    assert doc["status"]["phase"] == str(game.phase) and not doc["status"]["over"]
    loaded = gamefile.from_json(doc, backend="python")
    assert loaded.orders == {"FRANCE": ["A PAR H", "nonsense"]}
    assert loaded.draw_votes == {"ENGLAND": True, "GERMANY": False}
    assert not loaded.is_over


def test_an_agreed_draw_survives_the_round_trip() -> None:
    game = Game(backend="python")
    game.process()
    for power in game.voters():
        game.propose_draw(power)
    assert game.end_reason == "draw_vote"
    loaded = gamefile.from_json(gamefile.to_json(game), backend="python")
    assert loaded.end_reason == "draw_vote" and loaded.draw


def test_a_tampered_ruling_is_named_by_phase(played: Game) -> None:
    doc = gamefile.to_json(played)
    entry = doc["phases"][4]
    given = next(r for r in entry["results"] if r["given"] and r["legal"])
    given["success"] = not given["success"]
    with pytest.raises(GameFileError, match=f"^{entry['phase']}: the stored ruling differs"):
        gamefile.from_json(doc, backend="python")
    # Trusted, the file loads as written.
    loaded = gamefile.from_json(doc, verify=False)
    assert len(loaded.history) == len(played.history)


def test_a_tampered_board_is_named_by_phase(played: Game) -> None:
    doc = gamefile.to_json(played)
    entry = doc["phases"][2]
    units = entry["next"]["units"]
    power = next(iter(units))
    units[power] = units[power][1:]
    with pytest.raises(GameFileError, match=f"^{entry['phase']}: .*next.units"):
        gamefile.from_json(doc, backend="python")


def test_the_reason_prose_is_not_compared(played: Game) -> None:
    doc = gamefile.to_json(played)
    for entry in doc["phases"]:
        for result in entry["results"]:
            result["reason"] = "reworded"
    loaded = gamefile.from_json(doc, backend="python")
    assert len(loaded.history) == len(played.history)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other"), "not a diplo game file"),
        (lambda d: d.update(version=2), "unsupported game file version"),
        (lambda d: d.update(map="mars"), "unknown map"),
        (lambda d: d["phases"][1].update(phase="S1905M"), "S1905M: expected phase F1901M"),
        (lambda d: d["initial"].update(phase="X"), "initial position"),
        (lambda d: d["status"].update(resigned={"ATLANTIS": "S1901M"}), "unknown power"),
        (lambda d: d["phases"][0]["orders"].update(PRUSSIA=["A BER H"]), "S1901M: unknown power"),
    ],
)
def test_malformed_files_are_refused_clearly(played: Game, change: Any, message: str) -> None:
    doc = gamefile.to_json(played)
    change(doc)
    with pytest.raises(GameFileError, match=message):
        gamefile.from_json(doc, backend="python")


def test_not_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{nope", encoding="utf-8")
    with pytest.raises(GameFileError, match="not valid JSON"):
        gamefile.load(path)


def test_round_trip_with_the_project_random_player() -> None:
    player = pytest.importorskip("diplo.api.player")
    game = Game(backend="python", max_year=1903)
    seed = 0
    while not game.is_over:
        for power in game.orderable_powers():
            seed += 1
            game.set_orders(power, player.RandomPlayer(seed).orders(game.position, power))
        game.process()
    loaded = gamefile.from_json(json.loads(json.dumps(gamefile.to_json(game))), backend="python")
    assert _ruling_view(gamefile.to_json(loaded)) == _ruling_view(gamefile.to_json(game))
