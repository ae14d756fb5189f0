"""Issue 47, item 4: the names real clients call, each held to MILA's behaviour where MILA has
it (when the ``compare`` extra is installed): MILA's module paths (``diplomacy.engine.renderer``
and the others, by ``install()`` or ``python -m diplo.compat.mila.run``), unknown keywords to
``Game(...)``, ``Game.lost``, ``Game._abuts``, ``Game._get_convoy_destinations``,
``Map.dest_with_coasts``, ``Power.abbrev``, the AI_Diplomacy fork's
``Game._generate_phase_summary`` and its per-phase save keys, and no stale per-phase key on a
resumed save."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from diplo.compat import mila as drop
from processes import PYTHONPATH as UNDER_TEST

PYTHON = UNDER_TEST  # the diplo under test: installed in CI, the source tree in development


def _mila() -> Any:
    return pytest.importorskip("diplomacy", reason="MILA (the 'compare' extra) is not installed")


def _step(games: list[Any], rng: random.Random) -> None:
    """One phase of seeded random orders (MILA's possible orders of the first game) on all."""
    first = games[0]
    possible = first.get_all_possible_orders()
    for power, locs in sorted(first.get_orderable_locations().items()):
        orders = [rng.choice(sorted(possible[loc])) for loc in locs if possible[loc]]
        for game in games:
            game.set_orders(power, orders)
    for game in games:
        game.process()


# ---------------------------------------------------------------- module paths


HARNESS = """
import sys
from diplomacy import Game, Map, Message
from diplomacy.engine.game import Game as G2
from diplomacy.engine.message import GLOBAL
from diplomacy.engine.renderer import Renderer
from diplomacy.utils.export import to_saved_game_format, load_saved_games_from_disk
game = Game()
svg = Renderer(game).render(incl_orders=True)
print(type(game).__module__, G2 is Game, GLOBAL, svg.lstrip().startswith("<"), sys.argv[1:])
"""


def test_a_harness_runs_unchanged_on_mila_s_module_paths(tmp_path: Path) -> None:
    script = tmp_path / "harness.py"
    script.write_text(HARNESS)
    env = {**os.environ, "PYTHONPATH": PYTHON + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run(
        [sys.executable, "-m", "diplo.compat.mila.run", str(script), "x"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["diplo.compat.mila", "True", "GLOBAL", "True", "['x']"]


def test_install_answers_mila_s_paths_and_uninstall_puts_them_back() -> None:
    before = sys.modules.get("diplomacy")
    drop.install()
    try:
        import diplomacy.engine.renderer as renderer
        import diplomacy.utils.export as export

        assert renderer.Renderer is drop.Renderer
        assert export.to_saved_game_format is drop.to_saved_game_format
        drop.install()  # twice: nothing changes
        assert sys.modules["diplomacy"].Game is drop.Game
    finally:
        drop.uninstall()
    assert sys.modules.get("diplomacy") is before
    with pytest.raises(TypeError, match="Renderer: expected"):
        drop.Renderer(42)


# ---------------------------------------------------------------- Game(...), Power.abbrev


def test_unknown_keywords_are_ignored_as_mila_ignores_them() -> None:
    ours = drop.Game(map="ancmed", colour="blue")
    assert ours.map_name == "standard"  # MILA's Game(map=...) plays standard too
    diplomacy = _mila()
    assert diplomacy.Game(map="ancmed", colour="blue").map_name == ours.map_name


@pytest.mark.parametrize("name", ["standard", "ancmed", "modern", "pure"])
def test_power_abbrev_is_mila_s(name: str) -> None:
    ours = drop.Game(name)
    assert all(len(p.abbrev) == 1 for p in ours.powers.values())
    theirs = _mila().Game(map_name=name)
    assert {n: p.abbrev for n, p in ours.powers.items()} == {
        n: p.abbrev for n, p in theirs.powers.items()
    }


# ---------------------------------------------------------------- map and board queries


@pytest.mark.parametrize("name", ["standard", "ancmed", "pure"])
def test_dest_with_coasts_is_mila_s(name: str) -> None:
    ours = drop.Map(name)
    assert ours.dest_with_coasts["SPA"] if name == "standard" else ours.dest_with_coasts
    theirs = _mila().Game(map_name=name).map
    assert set(ours.dest_with_coasts) == set(theirs.dest_with_coasts)
    for loc, near in theirs.dest_with_coasts.items():
        assert sorted(set(near)) == ours.dest_with_coasts[loc], loc


def test_abuts_convoys_and_lost_centres_are_mila_s_phase_by_phase() -> None:
    """A seeded game played on both: every phase, ``_abuts`` for each unit and neighbour,
    ``_get_convoy_destinations`` for every coastal location (army) and every fleet at sea
    (convoyer, with and without a fleet left out) and ``lost`` are MILA's."""
    diplomacy = _mila()
    theirs, ours = diplomacy.Game(), drop.Game()  # the drop-in as it comes: MILA's ruling
    rng = random.Random(4)
    coasts = [
        loc.upper()
        for loc in ours.map.locs
        if ours.map.area_type(loc) in ("COAST", "PORT") and "/" not in loc
    ]
    convoys_seen = 0
    lost_seen = 0
    while ours.get_current_phase() != "S1908M" and not ours.is_game_done:
        _step([theirs, ours], rng)
        assert ours.get_current_phase() == theirs.get_current_phase()
        assert {c: p.name for c, p in ours.lost.items()} == {
            c: p.name for c, p in theirs.lost.items()
        }, ours.get_current_phase()
        lost_seen += len(ours.lost)
        for start in coasts:
            want = set(theirs._get_convoy_destinations("A", start))
            assert ours._get_convoy_destinations("A", start) == sorted(want), start
            convoys_seen += len(want)
        fleets = [
            u[2:]
            for p in theirs.powers.values()
            for u in p.units
            if u[0] == "F" and theirs.map.area_type(u[2:]) in ("WATER", "PORT")
        ]
        for fleet in fleets:
            for left_out in (None, [f for f in fleets if f != fleet][:1]):
                want = set(theirs._get_convoy_destinations("F", fleet, True, left_out))
                got = ours._get_convoy_destinations("F", fleet, True, left_out)
                assert got == sorted(want), (fleet, left_out)
        for power in theirs.powers.values():
            for unit in power.units:
                kind, loc = unit.split()
                for near in theirs.map.dest_with_coasts[loc]:
                    for order in "-SC":
                        assert ours._abuts(kind, loc, order, near) == theirs._abuts(
                            kind, loc, order, near
                        ), (unit, order, near)
    assert convoys_seen > 0 and lost_seen > 0
    assert ours._get_convoy_destinations("F", "NTH") == []  # a fleet is not convoyed
    assert ours._get_convoy_destinations("A", "NTH", True) == []  # nor an army a convoyer


# ---------------------------------------------------------------- the fork and resumed saves


def test_the_fork_s_summary_method_is_called_and_may_be_replaced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = drop.Game()
    assert game._generate_phase_summary("S1901M") is None  # nothing without a callback
    game.process()
    assert game.phase_summaries == {}
    calls: list[str] = []

    def narrate(self: Any, phase_key: str, summary_callback: Any = None) -> str:
        calls.append(phase_key)
        assert summary_callback is None
        data = self.get_phase_from_history(phase_key)
        return f"{phase_key}: {len(data.orders)} powers"

    monkeypatch.setattr(drop.Game, "_generate_phase_summary", narrate)  # as narrative.py does
    game.process()
    assert calls == ["F1901M"] and game.phase_summaries == {"F1901M": "F1901M: 7 powers"}
    saved = drop.to_saved_game_format(game)
    assert [p["summary"] for p in saved["phases"]] == ["", "F1901M: 7 powers", ""]
    assert all(p["statistical_summary"] is None for p in saved["phases"])
    monkeypatch.undo()
    answered = drop.Game()
    answered.process(phase_summary_callback=lambda system, user: "quiet")
    assert answered.phase_summaries == {"S1901M": "quiet"}


def test_a_resumed_save_keeps_no_stale_phase_key() -> None:
    """AI_Diplomacy's resume: each save adds ``config`` to the phase just finished and merges
    the other keys it added before; after a resume the drop-in's save, as MILA's, has
    ``config`` only where the harness puts it."""
    game = drop.Game()
    _step([game], random.Random(1))
    saved = drop.to_saved_game_format(game)
    saved["phases"][0].update(config={"model": "x"}, state_agents={"FRANCE": {}})
    resumed = drop.from_saved_game_format(json.loads(json.dumps(saved)))
    again = drop.to_saved_game_format(resumed)
    assert all("config" not in p and "state_agents" not in p for p in again["phases"])
    diplomacy = pytest.importorskip("diplomacy")
    from diplomacy.utils.export import from_saved_game_format, to_saved_game_format

    milas = to_saved_game_format(from_saved_game_format(json.loads(json.dumps(saved))))
    assert [set(p) for p in milas["phases"]] == [set(p) for p in again["phases"]]
    assert isinstance(diplomacy.Game(), diplomacy.Game)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["nowhere.py"], "no such script: nowhere.py"),
        (["-m", "no_such_module_here"], "no module named no_such_module_here"),
        (["-m", "no.such.package"], "no module named no.such.package"),
        (["-m"], "-m needs a module name"),
    ],
)
def test_the_runner_refuses_what_it_cannot_run(args: list[str], said: str) -> None:
    env = {**os.environ, "PYTHONPATH": PYTHON + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run(
        [sys.executable, "-m", "diplo.compat.mila.run", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr
