"""``diplo.compat.mila.Map`` answers MILA's map queries as MILA's ``diplomacy.Map`` does, for every
location of every map MILA ships (14, several over the engine's location limit), when the
``compare`` extra is installed."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import pytest

diplomacy = pytest.importorskip("diplomacy", reason="MILA (the 'compare' extra) is not installed")

from diplo.compat.mila import Map  # noqa: E402
from processes import PYTHONPATH as UNDER_TEST  # noqa: E402

MAPS = sorted(p.stem for p in (Path(diplomacy.__file__).parent / "maps").glob("*.map"))
TABLES = (
    "locs", "loc_type", "loc_abut", "loc_name", "loc_coasts", "homes", "scs", "centers", "units",
    "powers", "pow_name", "own_word", "abbrev", "first_year", "victory", "phase", "rules",
    "dummies",
)  # fmt: skip


def _mila_map(name: str) -> Any:
    """MILA's map: its cached one when a MILA game made it (MILA's ``use_cache=False`` then gives
    an empty object), else a fresh one without the convoy paths (which take minutes to make)."""
    from diplomacy.engine.map import MAP_CACHE

    if name in MAP_CACHE:
        return MAP_CACHE[name]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return diplomacy.Map(name, use_cache=False)


def test_every_shipped_map_is_covered() -> None:
    assert len(MAPS) == 14


@pytest.mark.parametrize("hidden", [False, True], ids=["files", "shipped-facts"])
@pytest.mark.parametrize("name", MAPS)
def test_map_queries_answer_as_mila(
    name: str, hidden: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With MILA's files hidden the map is made from the facts diplo ships
    # (data/mila_maps.json, issue 47): every table and query is MILA's all the same.
    from diplo.compat import _map

    theirs = _mila_map(name)
    if hidden:
        monkeypatch.setattr(_map, "mila_map_file", lambda _name: None)
        assert name in _map.shipped_mila_maps()
    ours = Map(name)
    for table in TABLES:
        assert getattr(ours, table) == getattr(theirs, table), table
    locs = theirs.locs
    for index, loc in enumerate(locs):
        for q in (loc, loc.upper(), loc.lower()):
            assert ours.area_type(q) == theirs.area_type(q), q
            assert ours.find_coasts(q) == theirs.find_coasts(q), q
            for incl in (False, True):
                assert ours.abut_list(q, incl) == theirs.abut_list(q, incl), q
            for unit_type in "AF?":
                for no_coast in (0, 1):
                    unit = f"{unit_type} {q}"
                    assert bool(ours.is_valid_unit(unit, no_coast)) == bool(
                        theirs.is_valid_unit(unit, no_coast)
                    ), unit
        others = {x.upper() for x in theirs.abut_list(loc, incl_no_coast=True)}
        others |= {locs[(index * 7 + k) % len(locs)].upper() for k in (1, 2)}
        for other in others:
            for unit_type in "AF?":
                for order in "-SC":
                    query = (unit_type, loc, order, other)
                    assert bool(ours.abuts(*query)) == bool(theirs.abuts(*query)), query
        assert ours.default_coast(["F", loc.upper(), "-", "SPA"]) == theirs.default_coast(
            ["F", loc.upper(), "-", "SPA"]
        )


@pytest.mark.parametrize("name", ["standard", "ancmed", "pure"])
def test_without_milas_files_a_shipped_map_answers_alike(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Without MILA's files or the facts diplo ships of MILA's maps (data/mila_maps.json),
    # the drop-in describes diplo's own map in MILA's shapes: the
    # same locations (standard's impassable SWI too), the same adjacency answers (lists in
    # diplo's order), the same full names (less diplo's own spelling of one).
    from diplo.compat import _map

    files = Map(name)
    monkeypatch.setattr(_map, "mila_map_file", lambda _name: None)
    monkeypatch.setattr(_map, "_shipped_facts", dict)  # the facts of MILA's maps absent too
    own = Map(name)
    assert own.files == [] and files.files
    assert (own.powers, own.first_year, own.phase) == (files.powers, files.first_year, files.phase)
    assert sorted(own.scs) == sorted(files.scs)
    assert sorted(own.locs) == sorted(files.locs)
    spelled = {"HELGOLAND BIGHT": "HELIGOLAND BIGHT"}  # MILA's spelling -> diplo's
    assert {spelled.get(k, k): v for k, v in files.loc_name.items()} == own.loc_name
    for full, loc in files.loc_name.items():
        assert own.aliases.get(own.norm(spelled.get(full, full))) == loc, full
    for loc in files.locs:
        assert own.area_type(loc) == files.area_type(loc), loc
        assert sorted(own.abut_list(loc)) == sorted(files.abut_list(loc)), loc
        for other in files.locs:
            for unit_type in "AF":
                for order in "-SC":
                    query = (unit_type, loc, order, other)
                    assert bool(own.abuts(*query)) == bool(files.abuts(*query)), query


@pytest.mark.parametrize("files", [True, False])
def test_possible_orders_list_every_location_of_the_map(
    files: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # MILA's get_all_possible_orders has a key for every location of its map, the impassable
    # Switzerland included (with no orders); so does the drop-in, with or without MILA's files.
    from diplo.compat import _map
    from diplo.compat.mila import Game

    if not files:
        monkeypatch.setattr(_map, "mila_map_file", lambda _name: None)
    game = Game()
    possible = game.get_all_possible_orders()
    assert sorted(possible) == sorted(loc.upper() for loc in game.map.locs)
    assert possible["SWI"] == [] and possible["MUN"]
    game.set_orders("GERMANY", ["A MUN - BUR"])
    game.process()
    assert game.get_all_possible_orders()["SWI"] == []
    pure = Game(map_name="pure")
    assert "SWI" not in pure.get_all_possible_orders()


def test_an_unknown_map_without_mila_says_what_works() -> None:
    # The drop-in takes no 'maps': a map diplo does not ship needs MILA's package or a path.
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['diplomacy'] = None\n"
        "from diplo.compat.mila import Game, MilaError\n"
        "print(Game('modern').map_name)\n"
        "try:\n    Game('nowhere')\nexcept MilaError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "pass others in 'maps'" not in out.stdout
    assert out.stdout.splitlines()[0] == "modern"  # MILA's map, from the facts diplo ships
    assert "'nowhere': give the path of a MILA .map file, or one of MILA's maps (ancmed," in (
        out.stdout
    )


def test_every_mila_map_answers_as_mila_s_with_no_mila_installed(tmp_path: Path) -> None:
    """Issue 47: in a process where ``diplomacy`` cannot be imported (MILA absent), a drop-in
    game on each of MILA's 14 maps is made from the facts diplo ships, plays a phase, and its
    ``game.map`` gives every table MILA's gives, in MILA's order."""
    import json
    import os
    import subprocess
    import sys

    code = (
        "import json, sys; sys.modules['diplomacy'] = None\n"
        "from diplo.compat.mila import Game\n"
        "from diplo.compat._map import shipped_mila_maps\n"
        f"tables = {list(TABLES)!r}\n"
        "out = {}\n"
        "for name in shipped_mila_maps():\n"
        "    game = Game(name)\n"
        "    game.process()\n"
        "    out[name] = {t: getattr(game.map, t) for t in tables}\n"
        "    out[name]['_files'] = game.map.files\n"
        "    out[name]['_phase'] = game.get_current_phase()\n"
        "print(json.dumps(out))\n"
    )
    root = UNDER_TEST  # the diplo under test
    env = {**os.environ, "PYTHONPATH": str(root) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env=env
    )
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout)
    assert sorted(seen) == MAPS
    for name in MAPS:
        theirs = _mila_map(name)
        for table in TABLES:
            mine = seen[name][table]
            want = json.loads(json.dumps(getattr(theirs, table)))
            assert mine == want, (name, table)
        assert seen[name]["_files"] == [f"{name}.map"] or seen[name]["_files"][0] == f"{name}.map"
        assert seen[name]["_phase"][0] == "F"
