"""Variants: the shipped maps, the MILA ``.map`` reader, and (with the ``compare`` extra) the
check of every shipped map against its published MILA file and the differential against MILA on
every playable MILA map.

``DIPLO_MILA_VARIANT_GAMES`` sets how many random MILA games per map the differential plays
(default 1) and ``DIPLO_MILA_VARIANT_YEARS`` how many years each (default 3, counting the map's
first); the closing note of issue 10 gives the figures of a longer run.
"""

from __future__ import annotations

import collections
import functools
import importlib.util
import json
import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from diplo.api.backends import backend_for
from diplo.api.game import Game
from diplo.api.legal import legal_order_texts
from diplo.api.phase import process_phase
from diplo.engine.codes import CodeGame, decode_order, process_batch
from diplo.formats.mila import position_from_mila
from diplo.model.map import SHIPPED_MAPS, Map, MapError, map_named, standard_map
from diplo.model.orders import Build, Order, Waive
from diplo.model.position import Phase, Piece, Position
from diplo.model.variants import load_map, load_mila_map, mila_map_data

ROOT = Path(__file__).resolve().parents[1]
HAVE_MILA = importlib.util.find_spec("diplomacy") is not None
needs_mila = pytest.mark.skipif(not HAVE_MILA, reason="the compare extra (MILA) is not installed")
VARIANT_GAMES = int(os.environ.get("DIPLO_MILA_VARIANT_GAMES", "1"))
VARIANT_YEARS = int(os.environ.get("DIPLO_MILA_VARIANT_YEARS", "3"))


def mila_dir() -> Path:
    import diplomacy

    return Path(diplomacy.__file__).parent / "maps"


def mila_files() -> list[str]:
    if not HAVE_MILA:
        return []
    return sorted(p.name for p in mila_dir().glob("*.map"))


def mila_has_convoy_cache(filename: str) -> bool:
    """Whether MILA has its convoy-path table for a map (shipped, or built before in
    ``~/.cache/diplomacy``). For the others (colonial, empire, known_world_901, world) MILA works
    the table out on first use, with a process pool, for minutes: there the differential's random
    games leave convoys out (MILA lists no convoy without its table) unless
    ``DIPLO_MILA_UNCACHED=1`` lets MILA build it."""
    return filename[:-4] in _mila_convoy_cache()


def _without_mila_convoy_table(name: str) -> None:
    """MILA plays ``name`` with an empty convoy-path table (in memory only): its possible orders
    then hold no convoy, and nothing is built or written to disk."""
    from diplomacy.engine import map as mila_map

    # MILA reads the table by number of fleets: every count has no path.
    mila_map.CONVOYS_PATH_CACHE.setdefault(name, collections.defaultdict(list))


@functools.cache
def _mila_convoy_cache() -> frozenset[str]:
    from diplomacy.utils import convoy_paths

    return frozenset(convoy_paths.get_convoy_paths_cache())


# --------------------------------------------------------------------------- shipped maps


@pytest.mark.parametrize("name", SHIPPED_MAPS)
def test_shipped_map_loads_with_what_makes_the_variant(name: str) -> None:
    game_map = map_named(name)
    assert game_map.name == name and load_map(name) is game_map
    # Every player has home centres; a neutral power (Map.neutral) has none.
    assert game_map.players and all(game_map.homes[p] for p in game_map.players)
    assert not any(game_map.homes[p] for p in game_map.neutral)
    assert game_map.victory <= len(game_map.centers)
    assert name == "standard" or game_map.source
    assert Map.from_dict(game_map.to_dict()).to_dict() == game_map.to_dict()


def test_the_variants_differ_where_they_should() -> None:
    standard = standard_map()
    assert map_named("fleet_rome").starting_units["ITALY"] == (
        ("F", "NAP"),
        ("F", "ROM"),
        ("A", "VEN"),
    )
    assert map_named("france_austria").powers == ("AUSTRIA", "FRANCE")
    assert map_named("germany_italy").powers == ("GERMANY", "ITALY")
    for name in ("fleet_rome", "france_austria", "germany_italy"):
        variant = map_named(name)
        assert variant.centers == standard.centers and variant.victory == 18
        for loc in standard.locations:
            assert variant.fleet_neighbours(loc) == standard.fleet_neighbours(loc)
    pure = map_named("pure")
    assert len(pure.provinces) == 7 and pure.victory == 4
    for prov in pure.provinces:
        assert pure.army_neighbours(prov) == set(pure.provinces) - {prov}
    ancmed = map_named("ancmed")
    assert len(ancmed.powers) == 5 and ancmed.first_phase == "S1M"
    assert str(Position.initial(ancmed).phase) == "S1M"


def _power_of(code: int, position: Position) -> str:
    game_map = position.map
    order = decode_order(code, game_map)
    if isinstance(order, Waive):
        return game_map.powers[code >> 4 & 0x7F]
    prov = game_map.province_of(order.unit.loc)
    if isinstance(order, Build):
        return position.centers[prov]
    if position.phase.kind == "R":
        return position.dislodged[prov].piece.power
    return position.units[prov].power


@pytest.mark.parametrize("name", SHIPPED_MAPS)
def test_fast_path_and_reference_play_every_shipped_map_alike(name: str) -> None:
    game_map = map_named(name)
    rng = random.Random(7)
    position = Position.initial(game_map)
    last = position.phase.year + 4
    game = CodeGame(position, max_year=last)
    while not game.is_over:
        codes = [rng.choice(options) for options in game.legal_orders()]
        orders: dict[str, list[str | Order]] = {}
        for code in codes:
            orders.setdefault(_power_of(code, position), []).append(decode_order(code, game_map))
        game.set_orders(codes)
        game.process()
        outcome = process_phase(position, orders, "python")
        position = outcome.next
        assert game.position() == position, f"{name} {outcome.phase}"
        assert game.winner == outcome.winner


@pytest.mark.parametrize("name", SHIPPED_MAPS)
def test_process_batch_runs_on_every_shipped_map(name: str) -> None:
    game_map = map_named(name)
    games = [CodeGame(Position.initial(game_map)) for _ in range(4)]
    single = [CodeGame(Position.initial(game_map)) for _ in range(4)]
    rng = random.Random(3)
    for _ in range(6):
        orders = [[rng.choice(o) for o in g.legal_orders()] for g in games]
        process_batch(games, orders, threads=2)
        for g, codes in zip(single, orders, strict=True):
            g.set_orders(codes)
            g.process()
    assert [g.position() for g in games] == [g.position() for g in single]


@pytest.mark.parametrize(
    ("name", "year"), [("pure", None), ("ancmed", 10), ("france_austria", 1904)]
)
def test_diplo_play_on_a_variant_is_the_same_on_both_backends(name: str, year: int | None) -> None:
    outputs = []
    for backend in ("rust", "python"):
        args = [
            sys.executable,
            "-m",
            "diplo.apps.cli",
            "play",
            "--map",
            name,
            "--seed",
            "1",
            "--quiet",
        ]
        args += ["--backend", backend] + ([] if year is None else ["--max-year", str(year)])
        done = subprocess.run(args, capture_output=True, text=True, check=False, timeout=600)
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    assert "wins in" in outputs[0] or "Draw among" in outputs[0]


def test_diplo_play_refuses_a_bad_map_or_rules_in_one_line() -> None:
    for extra in (
        ["--map", "nosuch"],
        ["--rules", "civil=home"],
        ["--map", "pure", "--max-year", "5"],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "diplo.apps.cli", "play", "--quiet", *extra],
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
        assert done.returncode == 2 and done.stderr.startswith("diplo: "), done.stderr
        assert "Traceback" not in done.stderr


def test_a_game_on_a_variant_saves_and_loads() -> None:
    from diplo.formats import gamefile

    game = Game(map=map_named("pure"), backend="python", max_year=1903)
    while not game.is_over:
        game.process()
    data = gamefile.to_json(game)
    assert data["map"] == "pure"
    back = gamefile.from_json(data)
    assert back.map is game.map and back.position == game.position


# --------------------------------------------------------------------------- the MILA reader


def _write(tmp_path: Path, text: str, name: str = "test.map") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


TINY = """\
# a small board
BEGIN SPRING 1901 MOVEMENT
VICTORY 2
RED (REDDISH) RA
A RA
BLUE (BLUISH:B) BL
F BL
UNOWNED CE
Red Land = ra red
Blue Land = bl
Centre = ce
The Deep = dp deep
LAND RA ABUTS BL CE
COAST BL ABUTS RA CE DP
COAST CE ABUTS RA BL DP
WATER DP ABUTS BL CE
"""


def test_mila_reader_reads_a_small_map(tmp_path: Path) -> None:
    game_map = load_mila_map(_write(tmp_path, TINY))
    assert game_map.powers == ("RED", "BLUE") and game_map.adjectives["BLUE"] == "Bluish"
    assert game_map.victory == 2 and game_map.first_phase == "S1901M"
    assert game_map.centers == {"RA", "BL", "CE"}
    assert game_map.army_neighbours("RA") == {"BL", "CE"}
    assert game_map.fleet_neighbours("BL") == {"CE", "DP"}
    assert game_map.lookup("the deep") == "DP" and game_map.lookup("red") == "RA"


def test_mila_reader_keeps_an_adjacency_one_end_lists_one_way(tmp_path: Path) -> None:
    # CE no longer lists BL: from BL a unit may go to CE (BL lists it), not back, as MILA reads it.
    text = TINY.replace("COAST CE ABUTS RA BL DP", "COAST CE ABUTS RA DP")
    game_map = load_mila_map(_write(tmp_path, text))
    assert "CE" in game_map.army_neighbours("BL") and "BL" not in game_map.army_neighbours("CE")
    assert "CE" in game_map.fleet_neighbours("BL") and "BL" not in game_map.fleet_neighbours("CE")
    assert game_map.army_neighbours("RA") == {"BL", "CE"}
    data = mila_map_data(_write(tmp_path, text))
    assert data["army_one_way"] == [["BL", "CE"]] and data["fleet_one_way"] == [["BL", "CE"]]
    assert "army_one_way" not in mila_map_data(_write(tmp_path, TINY))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            TINY + "LAND XX ABUTS\nLAND XX ABUTS\n",
            r"test.map:18: XX is already declared at test.map:17",
        ),
        (TINY.replace("LAND RA ABUTS BL CE", "LAND RA ABUTS BL CE ZZ"), r"test.map:13: .*ZZ"),
        (TINY.replace("LAND RA ABUTS BL CE", "LAND RA BORDERS BL"), r"test.map:13: expected ABUTS"),
        (TINY.replace("A RA\n", "A RA\nA\n"), r"test.map:6: a unit line"),
        (TINY.replace("BEGIN SPRING 1901 MOVEMENT", "BEGIN SPRONG 1901"), r"test.map:2: BEGIN"),
        (TINY.replace("VICTORY 2", "VICTORY two"), r"test.map:3: VICTORY"),
        ("A PAR\n" + TINY, r"test.map:1: a starting unit must follow"),
        (TINY + "RULE BUILD_NOWHERE\n", r"test.map:17: rule BUILD_NOWHERE is not supported"),
        (TINY + "DROP CE\n", r"test.map:17: DROP lines are not supported"),
        (TINY + "UNPLAYED GREEN\n", r"test.map:17: UNPLAYED names GREEN"),
        (TINY + "MAP other\n", r"cannot read the map file"),
        (TINY + "MAP ../escape\n", r"test.map:17: MAP names a file outside"),
        (TINY + "LAND H ABUTS\n", r"province H: the abbreviation is an order keyword"),
        (TINY.replace("RED (REDDISH) RA", "RED (REDDISH RA"), r"test.map:4: the adjective"),
    ],
)
def test_mila_reader_errors_name_the_line(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(MapError, match=message):
        load_mila_map(_write(tmp_path, text))


# TINY with a third power, so that ALL and ALL EXCEPT leave someone out.
_THREE = TINY.replace("UNOWNED CE\n", "GREEN (GREENISH) CE\nA CE\n")


@pytest.mark.parametrize(
    ("lines", "dummies"),
    [
        ("", set()),
        ("DUMMY BLUE\n", {"BLUE"}),
        ("DUMMIES RED, GREEN\n", {"RED", "GREEN"}),
        ("DUMMY ALL\n", {"RED", "BLUE", "GREEN"}),
        ("DUMMIES ALL EXCEPT BLUE\n", {"RED", "GREEN"}),
        ("DUMMY RED BLUE\nUNPLAYED RED\nUNOWNED RA\n", {"BLUE"}),
    ],
)
def test_mila_reader_reads_dummies_as_mila_does(
    tmp_path: Path, lines: str, dummies: set[str]
) -> None:
    """``DUMMY`` lines name the powers no player controls; the rulings keep them powers."""
    path = _write(tmp_path, _THREE + lines)
    game_map = load_mila_map(path)
    assert game_map.dummies == dummies and game_map.uncontrolled == dummies
    assert set(game_map.players) == set(game_map.powers)  # still players of the rulings
    assert Map.from_dict(game_map.to_dict()).dummies == dummies
    if HAVE_MILA:
        import diplomacy

        assert set(diplomacy.Map(str(path)).dummies) == dummies


def test_a_bare_dummy_line_marks_the_power_it_follows(tmp_path: Path) -> None:
    text = _THREE.replace("F BL\n", "F BL\nDUMMY\n")
    assert load_mila_map(_write(tmp_path, text)).dummies == {"BLUE"}


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ("DUMMIES\n", r"test.map:18: a bare DUMMY follows a power's lines"),
        ("UNOWNED CE\nDUMMY\n", r"test.map:19: a bare DUMMY follows a power's lines"),
        ("DUMMY PURPLE\n", r"test.map:18: DUMMY names PURPLE, which is not a power"),
        ("DUMMY ALL BLUE\n", r"test.map:18: DUMMY ALL is followed by nothing or EXCEPT"),
        ("DUMMIES ALL EXCEPT\n", r"test.map:18: DUMMIES ALL is followed by nothing or EXCEPT"),
        ("DUMMY ALL EXCEPT PINK\n", r"test.map:18: DUMMY ALL EXCEPT names PINK"),
    ],
)
def test_mila_reader_refuses_bad_dummy_lines(tmp_path: Path, lines: str, message: str) -> None:
    with pytest.raises(MapError, match=message):
        load_mila_map(_write(tmp_path, _THREE + lines))


def test_a_map_refuses_a_neutral_dummy() -> None:
    data = map_named("westernworld901").to_dict()
    data["powers"]["NEUTRAL"]["dummy"] = True
    with pytest.raises(MapError, match="power NEUTRAL: a neutral power is no player's already"):
        Map.from_dict(data)
    data["powers"]["NEUTRAL"]["dummy"] = "yes"
    with pytest.raises(MapError, match="power NEUTRAL: 'dummy' must be true or false"):
        Map.from_dict(data)


def test_mila_reader_refuses_bad_bytes_and_include_loops(tmp_path: Path) -> None:
    path = tmp_path / "bad.map"
    path.write_bytes(TINY.encode() + b"Caf\xe9 = ce\n")
    with pytest.raises(MapError, match=r"bad.map:17: not UTF-8"):
        load_mila_map(path)
    _write(tmp_path, "MAP loop\n", "loop.map")
    with pytest.raises(MapError, match="includes itself"):
        load_mila_map(tmp_path / "loop.map")
    with pytest.raises(MapError, match="cannot read"):
        load_mila_map(tmp_path / "missing.map")


def test_mila_reader_includes_a_base_map(tmp_path: Path) -> None:
    _write(tmp_path, TINY, "base.map")
    variant = "MAP base\nUNPLAYED BLUE\nUNOWNED BL\nRED (REDDISH) RA\nF CE\n"
    game_map = load_mila_map(_write(tmp_path, variant, "variant.map"))
    assert game_map.powers == ("RED",)
    assert game_map.starting_units["RED"] == (("F", "CE"),)
    # Blue's home stays a centre because the variant lists it as unowned, as MILA reads it.
    assert game_map.centers == {"RA", "BL", "CE"} and game_map.provinces["BL"].home is None


# --------------------------------------------------------------------------- against MILA


def _solo_completed_label(
    record: dict[str, Any], game_map: Map, rules: Counter[str]
) -> dict[str, Any]:
    """``solo_completed_label`` -- bookkeeping: a game MILA ends after a Fall turn is named
    ``COMPLETED``; diplo reports the winner and the winter board (``W....A``) as ``next``. When
    diplo names the same winner, MILA's label is read as diplo's."""
    if record["next_phase"] != "COMPLETED" or record.get("outcome") is None:
        return record
    position = position_from_mila(record["state"], record["phase"], game_map)
    outcome = process_phase(position, record["orders"])
    if outcome.winner is None or [outcome.winner] != record["outcome"][1:]:
        return record
    rules["solo_completed_label"] += 1
    return {**record, "next_phase": str(outcome.next.phase)}


@needs_mila
def test_mila_standard_map_is_diplo_standard_map() -> None:
    ours, theirs = standard_map(), load_mila_map(mila_dir() / "standard.map")
    assert theirs.locations == ours.locations or set(theirs.locations) == set(ours.locations)
    for prov in ours.provinces:
        assert theirs.army_neighbours(prov) == ours.army_neighbours(prov)
    for loc in ours.locations:
        assert theirs.fleet_neighbours(loc) == ours.fleet_neighbours(loc)
    assert theirs.homes == ours.homes and theirs.centers == ours.centers
    assert theirs.victory == ours.victory


@needs_mila
def test_shipped_variants_match_their_published_mila_files() -> None:
    spec = importlib.util.spec_from_file_location("variants_tool", ROOT / "tools" / "variants.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    for name in tool.VARIANTS:
        shipped = map_named(name)
        mila = load_mila_map(mila_dir() / tool.VARIANTS[name][0])
        assert tool.dumps(tool.variant_data(name)) == (
            ROOT / "python" / "diplo" / "data" / f"{name}.json"
        ).read_text(encoding="utf-8"), f"{name}: run tools/variants.py"
        for prov in mila.provinces:
            assert shipped.army_neighbours(prov) == mila.army_neighbours(prov), (name, prov)
        for loc in mila.locations:
            assert shipped.fleet_neighbours(loc) == mila.fleet_neighbours(loc), (name, loc)
        assert shipped.homes == mila.homes and shipped.centers == mila.centers
        assert shipped.starting_units == mila.starting_units or {
            p: set(u) for p, u in shipped.starting_units.items()
        } == {p: set(u) for p, u in mila.starting_units.items()}
        assert shipped.victory == mila.victory and shipped.first_phase == mila.first_phase


@needs_mila
@pytest.mark.parametrize("filename", mila_files())
def test_every_mila_map_loads_and_the_engine_plays_it(filename: str) -> None:
    """Every map MILA ships fits the engine (up to 1,024 locations): a year of random orders
    plays on the engine as on the reference."""
    game_map = load_mila_map(mila_dir() / filename)
    assert mila_map_data(mila_dir() / filename)["name"] == filename[:-4]
    assert backend_for(None, game_map).name == "rust"
    rng = random.Random(len(filename))
    game = CodeGame(Position.initial(game_map))
    position = Position.initial(game_map)
    start = position.phase.year
    while position.phase.year == start:
        lists = game.legal_orders()
        codes = [rng.choice(options) for options in lists if options]
        orders = [decode_order(c, game_map, position) for c in codes]
        by_power: dict[str, list[Order]] = {}
        for (power, _), order in zip(game.slots(), orders, strict=True):
            by_power.setdefault(power, []).append(order)
        game.set_orders(codes)
        game.process()
        position = process_phase(position, by_power, "python").next
        assert game.position() == position, position.phase


@needs_mila
@pytest.mark.parametrize("filename", mila_files())
def test_differential_against_mila_on_every_map(filename: str) -> None:
    from diplo.api.backends import available_backends
    from diplo.model.rules import Rules
    from mila_games import mila_records
    from test_mila import RULING_DEPARTURES, judge

    MILA = {"edition": "mila"}

    convoys = mila_has_convoy_cache(filename) or bool(os.environ.get("DIPLO_MILA_UNCACHED"))
    if not convoys:
        _without_mila_convoy_table(filename[:-4])
    game_map = load_mila_map(mila_dir() / filename)
    first = Position.initial(game_map).phase.year
    phases = exact = 0
    rules: Counter[str] = Counter()
    mila_exact: Counter[str] = Counter()
    mila_departures: Counter[str] = Counter()
    failures: list[str] = []
    for seed in range(VARIANT_GAMES):
        for record in mila_records(filename[:-4], seed, first + VARIANT_YEARS - 1):
            phases += 1
            record = _solo_completed_label(record, game_map, rules)
            verdict = judge(record, game_map, None)
            exact += verdict.exact
            rules.update(verdict.rules)
            failures += [f"seed {seed} {record['phase']}: {d}" for d in verdict.unexplained]
            # Under edition=mila the ruling is MILA's on every backend: labels alone explain
            # what differs.
            for backend in available_backends():
                mila = judge(record, game_map, backend, Rules.from_json(MILA, game_map.rules), True)
                where = f"seed {seed} {record['phase']} (mila, {backend})"
                failures += [f"{where}: {d}" for d in mila.unexplained]
                failures += [f"{where}: needs {r}" for r in sorted(mila.rules & RULING_DEPARTURES)]
                mila_exact[backend] += mila.exact
                mila_departures[backend] += bool(mila.rules & RULING_DEPARTURES)
    summary = (
        f"{filename}: {VARIANT_GAMES} games, {phases} phases, {exact} agree exactly; under "
        f"edition=mila {dict(mila_exact)} exactly, ruling departures {dict(mila_departures)}"
        f"{'' if convoys else ' (no convoys: MILA has no convoy table, DIPLO_MILA_UNCACHED=1)'}; "
        f"phases per named rule: {dict(rules.most_common())}"
    )
    print(summary)
    assert phases > 0
    assert not failures, summary + "\n" + "\n".join(failures[:20])


def test_mila_saved_games_name_variant_maps_as_mila_does() -> None:
    from diplo.formats.mila import game_from_mila, game_to_mila

    game = Game(map=map_named("fleet_rome"), backend="python", max_year=1901)
    while not game.is_over:
        game.process()
    data = game_to_mila(game)
    assert data["map"] == "standard_fleet_rome"
    back = game_from_mila(data, backend="python")
    assert back.map is game.map and back.position == game.position


def _adjudicate_cli(
    args: list[str], document: Mapping[str, Any]
) -> subprocess.CompletedProcess[str]:
    import json

    return subprocess.run(
        [sys.executable, "-m", "diplo.apps.cli", "adjudicate", *args],
        input=json.dumps(document),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_diplo_adjudicate_takes_map_and_rules(tmp_path: Path) -> None:
    import json

    # A pure-map document: named in the document, or given by --map (name or MILA file).
    doc = {"phase": "S1901M", "units": {"FRANCE": ["A PAR"], "ENGLAND": ["A LON"]}}
    doc["orders"] = {"FRANCE": ["A PAR - LON"], "ENGLAND": ["A LON - PAR"]}
    named = _adjudicate_cli([], {**doc, "map": "pure"})
    assert named.returncode == 0, named.stderr
    by_flag = _adjudicate_cli(["--map", "pure"], doc)
    assert by_flag.stdout == named.stdout
    _write(tmp_path, TINY, "tiny.map")
    tiny = {"phase": "S1901M", "units": {"RED": ["A RA"]}, "orders": {"RED": ["A RA - CE"]}}
    done = _adjudicate_cli(["--map", str(tmp_path / "tiny.map")], tiny)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["next"]["units"] == {"RED": ["A CE"]}
    # --rules for documents without their own, DATC 6.J.11 under the older rule.
    j11 = {"phase": "W1901A", "units": {"ITALY": ["A WAR", "A TUS"]}}
    j11["centers"] = {"ITALY": ["WAR"]}
    older = _adjudicate_cli(["--rules", "civil_disorder=home"], j11)
    assert json.loads(older.stdout)["next"]["units"] == {"ITALY": ["A TUS"]}
    assert json.loads(_adjudicate_cli([], j11).stdout)["next"]["units"] == {"ITALY": ["A WAR"]}
    for bad in (["--map", "nosuch"], ["--rules", "build_sites=everywhere"]):
        refused = _adjudicate_cli(bad, j11)
        assert refused.returncode == 2 and refused.stderr.startswith("diplo: ")


def test_mila_saved_games_write_years_below_1000_with_four_digits() -> None:
    from diplo.formats.mila import game_from_mila, game_to_mila

    game = Game(map=map_named("ancmed"), backend="python", max_year=2)
    while not game.is_over:
        game.process()
    data = game_to_mila(game)
    assert data["phases"][0]["name"] == "S0001M"
    back = game_from_mila(data, backend="python")
    assert str(back.history[0].phase) == "S1M" and back.position == game.position


# --------------------------------------------------------------------------- ports


def _ancmed_convoy(game_map: Map) -> Position:
    """Rome's army in Saguntum with fleets in Baleares (a port in MILA's file) and the Ligurian
    Sea: the only route to Etruria runs through the port."""
    units = {
        "SAG": Piece("ROME", "A", "SAG"),
        "BAL": Piece("ROME", "F", "BAL"),
        "LIG": Piece("ROME", "F", "LIG"),
    }
    return Position(game_map, Phase.parse("S1M"), units, {})


CONVOY_THROUGH_BAL = ["A SAG - ETR", "F BAL C A SAG - ETR", "F LIG C A SAG - ETR"]


@pytest.mark.parametrize("backend", ["python", "rust"])
def test_a_fleet_in_a_port_convoys(backend: str) -> None:
    """Ancmed's Baleares is a port, as MILA's map file says: its fleet convoys (both engines
    list the convoy and carry the army), and it stays a coast (an army may stand there)."""
    game_map = map_named("ancmed")
    assert game_map.ports == {"BAL"} and game_map.may_convoy("BAL")
    assert not game_map.may_convoy("SAG") and game_map.may_convoy("LIG")
    assert game_map.provinces["BAL"].kind == "coast"
    position = _ancmed_convoy(game_map)
    legal = legal_order_texts(position, "ROME", backend)
    assert "F BAL C A SAG - ETR" in legal["BAL"]
    assert "A SAG - ETR" in legal["SAG"] and "A SAG - ETR VIA" in legal["SAG"]
    outcome = process_phase(position, {"ROME": CONVOY_THROUGH_BAL}, backend)
    assert [r.code for r in outcome.results] == ["ok", "ok", "ok"]
    assert "ETR" in outcome.next.units and "SAG" not in outcome.next.units
    # The same board without the port: the fleet on the coast cannot convoy, so the army stays.
    data = game_map.to_dict()
    for p in data["provinces"]:
        p.pop("port", None)
    plain = Map.from_dict(data)
    assert not plain.ports and not plain.may_convoy("BAL")
    outcome = process_phase(_ancmed_convoy(plain), {"ROME": CONVOY_THROUGH_BAL}, backend)
    assert [r.legal for r in outcome.results[:3]] == [False, False, False]
    assert "(convoy_not_at_sea)" in outcome.results[3].reason  # F BAL's implied hold
    assert "SAG" in outcome.next.units and "ETR" not in outcome.next.units


def test_ports_in_the_map_format_and_the_mila_reader(tmp_path: Path) -> None:
    game_map = map_named("ancmed")
    back = Map.from_dict(game_map.to_dict())
    assert back.ports == {"BAL"} and back.provinces["BAL"].is_port
    if HAVE_MILA:
        assert load_mila_map(mila_dir() / "ancmed.map").ports == {"BAL"}
    data = game_map.to_dict()
    for p in data["provinces"]:
        if p["abbr"] == "LIG":
            p["port"] = True
    with pytest.raises(MapError, match="province LIG: only a coastal province can be a port"):
        Map.from_dict(data)
    data = game_map.to_dict()
    data["provinces"][0]["port"] = "yes"
    with pytest.raises(MapError, match="'port' must be true or false"):
        Map.from_dict(data)


def test_the_picture_marks_a_port() -> None:
    from diplo.render.svg import board_svg

    svg = board_svg(Position.initial(map_named("ancmed")))
    assert svg.count('class="port"') == 1 and 'data-province="BAL"><title>port' in svg
    assert 'class="port"' not in board_svg(Position.initial(standard_map()))


# --------------------------------------------------------------------------- large maps


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "diplo.apps.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


@needs_mila
@pytest.mark.parametrize("name", ["modern", "world", "known_world_901"])
def test_large_mila_maps_on_every_front_end(name: str) -> None:
    """Maps over 128 locations play on the engine through the CLI (play, adjudicate plain and
    --jsonl) and agree with the reference."""
    path = str(mila_dir() / f"{name}.map")
    game_map = load_mila_map(path)
    assert len(game_map.locations) > 128 and backend_for(None, game_map).name == "rust"
    position = Position.initial(game_map)
    rng = random.Random(5)
    orders: dict[str, list[str]] = {}
    for prov, texts in legal_order_texts(position).items():
        orders.setdefault(position.units[prov].power, []).append(rng.choice(texts))
    doc = json.dumps({**position.to_json(), "orders": orders})
    outputs = []
    for backend in ("rust", "python"):
        plain = _cli("adjudicate", "--map", path, "--backend", backend, "-", stdin=doc)
        assert plain.returncode == 0, plain.stderr
        lines = _cli("adjudicate", "--jsonl", "--map", path, "--backend", backend, stdin=doc)
        assert lines.returncode == 0, lines.stderr
        assert json.loads(lines.stdout) == json.loads(plain.stdout)
        outputs.append(json.loads(plain.stdout))
    assert outputs[0] == outputs[1]
    assert outputs[0]["phase"] == str(position.phase)
    first = position.phase.year
    played = _cli("play", "--map", path, "--max-year", str(first + 1), "--quiet")
    assert played.returncode == 0, played.stderr
    assert "total" in played.stdout


@needs_mila
def test_play_leaves_a_dummy_power_unordered_and_names_it_neutral() -> None:
    """known_world_901's NEUTRAL-STATE is MILA's ``DUMMY``: the rulings count it (it owns, keeps
    and counts its centres, and stays a survivor), but nobody orders it, and ``diplo play``
    leaves it out of the draw's words and lists it after the players."""
    from diplo.apps.play import play_game

    path = str(mila_dir() / "known_world_901.map")
    game_map = load_mila_map(path)
    assert game_map.dummies == {"NEUTRALSTATE"}
    game = play_game(7, 902, None, game_map=game_map)
    given = {r.power for h in game.history for r in h.outcome.results if r.given}
    assert "NEUTRALSTATE" not in given and len(given) == len(game_map.players) - 1
    assert game.draw and "NEUTRALSTATE" in game.survivors
    assert game.centers["NEUTRALSTATE"] > 0
    done = _cli("play", "--map", path, "--max-year", "902", "--seed", "7", "--quiet")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    [draw] = [line for line in lines if line.startswith("Draw among ")]
    assert "Neutralstate" not in draw and draw.count(",") == len(game_map.players) - 2
    rows = [line.split()[0] for line in lines[lines.index(draw) + 2 :]]
    assert rows[-2:] == ["Neutralstate", "total"]
