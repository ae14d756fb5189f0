"""Issue 47, item 1, with issue 46's MILA saves: a new drop-in game rules as MILA unless told
otherwise, the ruling is chosen with no code change (``DIPLO_MILA_RULING``,
``set_default_ruling``), a save that records no ruling (MILA's own) loads under MILA's ruling,
every load path verifies every phase and either reproduces the file's game or refuses it naming
the phase and a fix the drop-in has, and a harness with only its imports switched plays and
resumes as MILA does, phase for phase."""

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
from diplo.compat.mila import ruling as default
from diplo.model.rules import Rules
from processes import PYTHONPATH as UNDER_TEST

MILA = Rules(edition="mila")
PYTHON = UNDER_TEST  # the diplo under test: installed in CI, the source tree in development


@pytest.fixture(autouse=True)
def _no_default(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.delenv(default.ENV_VAR, raising=False)
    default.reset_default_ruling()
    yield
    default.reset_default_ruling()


def _orders(game: Any, rng: random.Random) -> dict[str, list[str]]:
    possible = game.get_all_possible_orders()
    return {
        power: [rng.choice(sorted(possible[loc])) for loc in locs if possible[loc]]
        for power, locs in sorted(game.get_orderable_locations().items())
    }


def _play(game: Any, seed: int, phases: int) -> Any:
    rng = random.Random(seed)
    for _ in range(phases):
        if game.is_game_done:
            break
        for power, texts in _orders(game, rng).items():
            game.set_orders(power, texts)
        game.process()
    return game


def _boards(game: Any) -> list[tuple[str, Any, Any]]:
    """Every phase's name, units and centres (lists sorted), then the current one's."""
    out = []
    for name, state in game.state_history.items():
        out.append((str(name), _sorted(state["units"]), _sorted(state["centers"])))
    state = game.get_state()
    out.append((game.get_current_phase(), _sorted(state["units"]), _sorted(state["centers"])))
    return out


def _sorted(table: dict[str, list[str]]) -> dict[str, list[str]]:
    return {p: sorted(v) for p, v in table.items()}


# ---------------------------------------------------------------- the default, without code


def test_the_environment_chooses_the_ruling_of_a_new_game(monkeypatch: pytest.MonkeyPatch) -> None:
    assert drop.Game().ruling == MILA  # MILA's unless told
    assert drop.Game(ruling="datc").ruling is None  # diplo's (the DATC), asked for by name
    assert drop.Game(ruling=Rules()).ruling == Rules()
    monkeypatch.setenv(default.ENV_VAR, "")
    assert drop.Game().ruling == MILA
    monkeypatch.setenv(default.ENV_VAR, "mila")
    assert drop.Game().ruling == MILA
    assert drop.Game(ruling=Rules()).ruling == Rules()  # a ruling given wins
    assert drop.Game(ruling="datc").ruling is None
    monkeypatch.setenv(default.ENV_VAR, "edition=mila,civil_disorder=owned")
    assert drop.Game().ruling == Rules(edition="mila", civil_disorder="owned")
    monkeypatch.setenv(default.ENV_VAR, "datc")
    assert drop.Game().ruling is None
    assert drop.Game(ruling="mila").ruling == MILA  # a ruling given wins
    assert drop.Game(ruling=MILA).ruling == MILA
    monkeypatch.setenv(default.ENV_VAR, "milla")
    with pytest.raises(drop.MilaError, match="DIPLO_MILA_RULING='milla' names no ruling"):
        drop.Game()
    monkeypatch.setenv(default.ENV_VAR, "edition=nope")
    with pytest.raises(drop.MilaError, match="DIPLO_MILA_RULING"):
        drop.Game()


def test_the_module_setter_wins_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(default.ENV_VAR, "datc")
    drop.set_default_ruling("mila")
    assert drop.Game().ruling == MILA
    with pytest.raises(drop.MilaError):
        drop.set_default_ruling("nope")
    with pytest.raises(TypeError):
        drop.set_default_ruling(3)  # type: ignore[arg-type]
    assert drop.Game().ruling == MILA  # a refused value changed nothing
    drop.set_default_ruling(None)
    assert drop.Game().ruling is None
    default.reset_default_ruling()
    monkeypatch.setenv(default.ENV_VAR, "mila")
    assert drop.Game().ruling == MILA


def test_a_game_made_under_the_default_plays_as_mila_where_the_datc_departs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seed 7 departs at once under the DATC (a waive in W1901A): under the default, MILA's
    ruling, the drop-in's game is MILA's, phase for phase; asked for, diplo's departs."""
    diplomacy = pytest.importorskip("diplomacy", reason="MILA (the 'compare' extra) is absent")
    theirs = _boards(_play(diplomacy.Game(), 7, 8))
    assert _boards(_play(drop.Game(), 7, 8)) == theirs
    assert _boards(_play(drop.Game(ruling="datc"), 7, 8)) != theirs
    monkeypatch.setenv(default.ENV_VAR, "datc")
    assert _boards(_play(drop.Game(), 7, 8)) != theirs
    drop.set_default_ruling("mila")
    assert _boards(_play(drop.Game(), 7, 8)) == theirs


def test_milas_ruling_keeps_the_maps_own_rules() -> None:
    """The default (and ``ruling="mila"``) is MILA's edition on the map's own rules: on
    ``modern``, one of MILA's build-anywhere maps (``BUILD_ANY``), a power builds in a centre
    that is nobody's home, as in MILA; ``Rules(edition="mila")`` given as a value replaces the
    map's rules, so builds at home only there. A bad name is refused, naming it."""
    made = {
        "default": drop.Game("modern"),
        "mila": drop.Game("modern", ruling="mila"),
        "datc": drop.Game("modern", ruling="datc"),
        "value": drop.Game("modern", ruling=MILA),
    }
    assert made["default"].ruling == made["mila"].ruling == Rules(edition="mila", build_sites="any")
    assert made["datc"].ruling is None and made["value"].ruling == MILA
    games: dict[str, Any] = dict(made)
    try:
        import diplomacy
    except ImportError:
        pass
    else:
        games["MILA"] = diplomacy.Game(map_name="modern")
    built = {}
    for name, game in games.items():
        homes = game.get_centers("FRANCE")
        game.clear_units()
        game.set_centers("FRANCE", [*homes, "IRE"])  # Ireland: a centre of no power's home
        game.set_current_phase("W1994A")
        game.set_orders("FRANCE", ["A IRE B"])
        game.process()
        built[name] = game.get_units("FRANCE")
    assert built.pop("value") == []
    assert all(units == ["A IRE"] for units in built.values()), built
    with pytest.raises(drop.MilaError, match="Game: ruling='nope' names no ruling"):
        drop.Game(ruling="nope")
    with pytest.raises(TypeError, match="ruling must be"):
        drop.Game(ruling=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="ruling must be"):
        drop.from_saved_game_format({"phases": []}, ruling=3)  # type: ignore[arg-type]


# ---------------------------------------------------------------- saves: MILA's and the drop-in's


def _milas_save(seed: int, phases: int) -> dict[str, Any]:
    diplomacy = pytest.importorskip("diplomacy", reason="MILA (the 'compare' extra) is absent")
    from diplomacy.utils.export import to_saved_game_format

    return dict(to_saved_game_format(_play(diplomacy.Game(), seed, phases)))


def test_a_save_mila_wrote_loads_as_recorded_on_every_path(tmp_path: Path) -> None:
    """Issue 46: MILA writes games whose DATC replay departs (seeds 0, 5, 7); each load path
    reproduces each phase as MILA recorded it, or refuses the save naming the phase and a fix
    the drop-in has; none hands back another game."""
    diplomacy = pytest.importorskip("diplomacy", reason="MILA (the 'compare' extra) is absent")
    from diplomacy.utils.export import from_saved_game_format as mila_load

    path = tmp_path / "games.jsonl"
    saves = [_milas_save(seed, 14) for seed in (0, 5, 7)]
    path.write_text("".join(json.dumps(s) + "\n" for s in saves))
    loaded = drop.load_saved_games_from_disk(str(path))
    assert len(loaded) == 3
    for save, ours in zip(saves, loaded, strict=True):
        theirs = mila_load(save)
        assert ours.ruling == MILA  # no ruling recorded: MILA's
        assert _boards(ours) == _boards(theirs)
        assert _boards(drop.from_saved_game_format(save)) == _boards(theirs)
        assert drop.is_valid_saved_game(save)
        # Under diplo's ruling the same file is refused, never changed.
        with pytest.raises(drop.MilaError) as refused:
            drop.from_saved_game_format(save, ruling=Rules())
        text = str(refused.value)
        assert "rules this phase differently from MILA" in text
        assert "ruling=diplo.model.rules.Rules(edition='mila')" in text
        assert "game_from_mila" not in text  # a fix the drop-in does not have
        phase = text.split(":", 1)[0]
        assert phase in theirs.state_history  # names a phase of the save
    with pytest.raises(drop.MilaError, match=r"games\.jsonl:1: .*differently from MILA"):
        drop.load_saved_games_from_disk(str(path), ruling=Rules())
    assert isinstance(diplomacy.Game(), diplomacy.Game)


def test_a_drop_in_save_records_its_ruling_and_loads_under_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The drop-in always writes the ruling (diplo's too), so a save it made under the DATC
    loads back under the DATC whatever the default, and one that records none under MILA's."""
    game = _play(drop.Game(ruling="datc"), 7, 8)  # departs from MILA under the DATC
    saved = json.loads(json.dumps(drop.to_saved_game_format(game)))
    assert Rules.from_json(saved["diplo_ruling"]) == Rules()
    ours = drop.to_saved_game_format(_play(drop.Game(), 7, 8))  # the default: MILA's
    assert Rules.from_json(ours["diplo_ruling"]) == MILA
    assert drop.from_saved_game_format(ours).ruling == MILA
    monkeypatch.setenv(default.ENV_VAR, "mila")
    back = drop.from_saved_game_format(saved)
    assert back.ruling == Rules() and _boards(back) == _boards(game)
    unrecorded = {k: v for k, v in saved.items() if k != "diplo_ruling"}
    with pytest.raises(drop.MilaError, match=r"ruling=diplo\.model\.rules\.Rules\(\)"):
        drop.from_saved_game_format(unrecorded)
    assert _boards(drop.from_saved_game_format(unrecorded, ruling=Rules())) == _boards(game)
    assert _boards(drop.from_saved_game_format(unrecorded, ruling="datc")) == _boards(game)


def test_one_hostile_line_costs_only_itself(tmp_path: Path) -> None:
    """Issue 46: whatever a line holds, ``on_error='warn'``/``'ignore'`` skip it and load the
    others; ``'raise'`` names the line."""
    good = drop.to_saved_game_format(_play(drop.Game(), 3, 3))
    hostile = [
        "[" * 100_000 + "]" * 100_000,  # too deep for the JSON reader
        "not json",
        "null",
        '"a string"',
        '{"phases": 5}',
        '{"map": ["standard"], "phases": []}',
        '{"map": {"a": 1}, "phases": [{"name": "S1901M", "state": {"units": 7}}]}',
        json.dumps({**good, "diplo_ruling": {"edition": ["mila"]}}),
        json.dumps({**good, "phases": [{**good["phases"][0], "orders": {"FRANCE": 5}}]}),
        "\udcff",
    ]
    path = tmp_path / "games.jsonl"
    lines = [json.dumps(good)]
    for line in hostile:
        lines += [line, json.dumps(good)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogateescape")
    assert len(drop.load_saved_games_from_disk(str(path), on_error="ignore")) == len(hostile) + 1
    with pytest.warns(UserWarning) as warned:
        kept = drop.load_saved_games_from_disk(str(path), on_error="warn")
    assert len(kept) == len(hostile) + 1 and len(warned) == len(hostile)
    assert all(_boards(g) == _boards(kept[0]) for g in kept)
    with pytest.raises(drop.MilaError, match=r"games\.jsonl:2: "):
        drop.load_saved_games_from_disk(str(path))


# ---------------------------------------------------------------- a harness, imports switched

HARNESS = """
import json, random, sys
{imports}

def orders(game, rng):
    possible = game.get_all_possible_orders()
    return {{p: [rng.choice(sorted(possible[l])) for l in locs if possible[l]]
            for p, locs in sorted(game.get_orderable_locations().items())}}

def board(game):
    state = game.get_state()
    return [game.get_current_phase(), {{p: sorted(u) for p, u in state["units"].items()}},
            {{p: sorted(c) for p, c in state["centers"].items()}}]

def play(game, rng, phases, out):
    for _ in range(phases):
        if game.is_game_done:
            break
        for power, texts in orders(game, rng).items():
            game.set_orders(power, texts)
        game.process()
        out.append(board(game))

out = []
# A new game, as a harness starts one: its ruling is the environment's.
play(Game(), random.Random(0), 12, out)
# A run resumed from MILA's save, then played on and saved again, then resumed again.
(game,) = load_saved_games_from_disk(sys.argv[1])
out.append(board(game))
play(game, random.Random(1), 6, out)
to_saved_game_format(game, output_path=sys.argv[2], output_mode="w")
(game,) = load_saved_games_from_disk(sys.argv[2])
out.append(board(game))
play(game, random.Random(2), 6, out)
print(json.dumps(out))
"""
MILA_IMPORTS = (
    "from diplomacy import Game\n"
    "from diplomacy.utils.export import load_saved_games_from_disk, to_saved_game_format"
)
DROP_IN_IMPORTS = (
    "from diplo.compat.mila import Game, load_saved_games_from_disk, to_saved_game_format"
)


def _run_harness(imports: str, tmp_path: Path, ruling: str | None) -> list[Any]:
    env = {k: v for k, v in os.environ.items() if k != default.ENV_VAR}
    env["PYTHONPATH"] = PYTHON + os.pathsep + env.get("PYTHONPATH", "")
    if ruling is not None:
        env[default.ENV_VAR] = ruling
    script = tmp_path / "harness.py"
    script.write_text(HARNESS.format(imports=imports))
    done = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "mila.jsonl"), str(tmp_path / "again.jsonl")],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return list(json.loads(done.stdout))


def test_a_harness_with_its_imports_switched_plays_and_resumes_as_mila(tmp_path: Path) -> None:
    """Issue 47's done-test: one harness script, run on MILA and on the drop-in with only its
    import line switched: a new game, a MILA-made save resumed and played on (its DATC replay
    departs: seed 7), saved and resumed again, give MILA's boards phase for phase (MILA's
    ruling is the drop-in's default). With diplo's ruling chosen by the environment
    (``DIPLO_MILA_RULING=datc``) the new game departs, while the resumed save still plays as
    MILA (it records no ruling: MILA's)."""
    save = _milas_save(7, 10)
    (tmp_path / "mila.jsonl").write_text(json.dumps(save) + "\n")
    theirs = _run_harness(MILA_IMPORTS, tmp_path, None)
    assert len(theirs) > 20
    ours = _run_harness(DROP_IN_IMPORTS, tmp_path, None)
    assert ours == theirs
    datc = _run_harness(DROP_IN_IMPORTS, tmp_path, "datc")
    assert datc[:12] != theirs[:12]  # seed 0 departs under the DATC (W1902A)
    assert datc[12:] == theirs[12:]


# ---------------------------------------------------------------- copies of hostile trees


class _Meddler:
    """A key whose hash adds an entry to the dict it is a key of (issue 46)."""

    def __init__(self) -> None:
        self.target: dict[Any, Any] | None = None

    def __hash__(self) -> int:
        if self.target is not None:
            self.target[len(self.target)] = [1]
        return 7

    def __eq__(self, other: object) -> bool:
        return other is self


def test_the_core_copy_refuses_what_code_could_change_and_the_copy_takes_it() -> None:
    from diplo import _core
    from diplo.compat.mila.copies import copy_tree

    key = _Meddler()
    doc: dict[Any, Any] = {"a": [1, [2]], key: [3, [4]]}
    key.target = doc
    assert _core.mila_copy(doc) is None  # no PanicException: left to the long way
    made = copy_tree(doc)
    assert made["a"] == [1, [2]] and made["a"] is not doc["a"] and made["a"][1] is not doc["a"][1]
    assert made[key] == [3, [4]] and made[key][1] is not doc[key][1]
    assert _core.mila_copy({"units": {"FRANCE": ["A PAR"]}}) == {"units": {"FRANCE": ["A PAR"]}}


def test_a_cycle_is_copied_as_deepcopy_copies_it() -> None:
    from diplo import _core
    from diplo.compat.mila.copies import copy_tree

    ring: list[Any] = ["x"]
    ring.append(ring)
    tree = {"state": {"note": ring}}
    assert _core.mila_copy(tree) is None
    made = copy_tree(tree)
    copied = made["state"]["note"]
    assert copied is not ring and copied[1] is copied and copied[0] == "x"
    deep: Any = []
    node = deep
    for _ in range(200):  # deeper than the copy's own way goes: deepcopy's
        node.append([])
        node = node[0]
    made_deep = copy_tree(deep)
    assert made_deep == deep and made_deep[0] is not deep[0]


def _without_times(doc: dict[str, Any]) -> list[Any]:
    out = []
    for phase in doc["phases"]:
        state = {k: v for k, v in phase["state"].items() if k != "timestamp"}
        out.append((phase["name"], state, phase["orders"], phase["results"]))
    return out


@pytest.mark.parametrize("played", [0, 5])
def test_a_game_set_at_completed_saves_a_document_that_loads_back(played: int) -> None:
    """Issue 46: a game put at ``COMPLETED`` by ``set_state`` (at its start, and after five
    played phases with a board set by hand) saves a document the drop-in loads back to the
    same game, and MILA loads too."""
    game = _play(drop.Game(), 1, played)
    state = game.get_state()
    state["name"] = "COMPLETED"
    state["units"]["FRANCE"] = ["A PIC"]
    game.set_state(state, clear_history=False)
    assert game.is_game_done
    saved = json.loads(json.dumps(drop.to_saved_game_format(game)))
    assert [p["name"] for p in saved["phases"]][-1] == "COMPLETED"
    back = drop.from_saved_game_format(saved)
    assert back.is_game_done and back.get_current_phase() == "COMPLETED"
    assert back.get_state()["units"]["FRANCE"] == ["A PIC"]
    assert _without_times(drop.to_saved_game_format(back)) == _without_times(saved)
    diplomacy = pytest.importorskip("diplomacy", reason="MILA (the 'compare' extra) is absent")
    from diplomacy.utils.export import from_saved_game_format as mila_load
    from diplomacy.utils.export import to_saved_game_format as mila_save

    theirs = mila_load(saved)
    assert theirs.is_game_done and theirs.get_state()["units"]["FRANCE"] == ["A PIC"]
    mila_made = json.loads(json.dumps(mila_save(theirs)))  # MILA's own save of such a game
    ours = drop.from_saved_game_format(mila_made)
    assert ours.is_game_done and _boards(ours) == _boards(theirs)
    assert isinstance(diplomacy.Game(), diplomacy.Game)
