"""DeepMind's formats on diplo: every legal order of random games has an action in their list,
and the action names that order again in the position; their ``DiplomacyState`` plays the same
games as a CodeGame given the converted orders, with their observation and refusals."""

from __future__ import annotations

import importlib
import os
import random
import re
import sys
import types
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason='diplo.env needs pip install ".[env]"')
pytest.importorskip("pettingzoo", reason='diplo.env needs pip install ".[env]"')

from diplo.api.game import GameOverError  # noqa: E402
from diplo.engine.codes import CodeGame, decode_order, encode_order  # noqa: E402
from diplo.env.deepmind import (  # noqa: E402
    AREAS,
    PROVINCES,
    ActionError,
    DiplomacyState,
    ReferenceDiplomacyState,
    Season,
    action_of_order,
    action_parts,
    mila_text,
    order_of_action,
    possible_actions,
)
from diplo.model.map import standard_map  # noqa: E402
from diplo.model.orders import Waive, format_order  # noqa: E402


def test_tables() -> None:
    game_map = standard_map()
    assert len(PROVINCES) == 75 and len(AREAS) == 81
    assert set(AREAS) == set(game_map.locations)
    assert AREAS[72:75] == ("BUL", "BUL/EC", "BUL/SC")
    actions = possible_actions()
    assert all(a >> 48 == i for i, a in enumerate(actions))
    assert action_parts(actions[0]) == (3, (0, 0), (0, 0), (0, 0))  # hold in Bohemia


def test_bad_actions_refused() -> None:
    position = CodeGame().position()
    for bad in (-1, 2**70, 0x7F, 1.5, True, (1 << 48) | 3):
        with pytest.raises(ActionError):
            order_of_action(bad, position)  # type: ignore[arg-type]


def test_legal_orders_round_trip() -> None:
    kinds: set[str] = set()
    for seed in range(3):
        _play(random.Random(seed), kinds)
    assert kinds == {"M", "R", "A"}


def _play(rng: random.Random, kinds: set[str]) -> None:
    game = CodeGame(max_year=1920)
    while not game.is_over:
        position = game.position()
        kind = position.phase.kind
        kinds.add(kind)
        chosen = []
        for codes in game.legal_orders():
            for code in codes:
                order = decode_order(code, game.map, position)
                action = action_of_order(order, game.map, kind)
                assert action in possible_actions()
                back = order_of_action(action, position)
                if isinstance(order, Waive):
                    assert isinstance(back, Waive)
                else:
                    assert action_of_order(back, game.map, kind) == action
                    assert not isinstance(order, Waive) and not isinstance(back, Waive)
                    assert back.unit.loc == order.unit.loc
            chosen.append(rng.choice(codes))
        game.set_orders(chosen)
        game.process()


#: DeepMind's snapshot beside the project (``DIPLO_DEEPMIND`` names another place, e.g. from a
#: worktree); the two tests that run their code skip without it.
SNAPSHOT = Path(
    os.environ.get("DIPLO_DEEPMIND")
    or Path(__file__).resolve().parents[2] / "shared" / "deepmind-diplomacy"
)


def _their_module(name: str) -> Any:
    """Their module ``diplomacy.environment.NAME``, loaded from the snapshot under their package
    name for the import only (MILA's name: any MILA modules are put back afterwards)."""
    assert (SNAPSHOT / "environment" / f"{name}.py").is_file(), name
    ours = {k: v for k, v in sys.modules.items() if k == "diplomacy" or k.startswith("diplomacy.")}
    for key in ours:
        del sys.modules[key]
    stub = None
    if importlib.util.find_spec("immutabledict") is None:
        stub = types.ModuleType("immutabledict")
        stub.immutabledict = dict  # type: ignore[attr-defined]
        sys.modules["immutabledict"] = stub
    package = types.ModuleType("diplomacy")
    package.__path__ = [str(SNAPSHOT)]
    sys.modules["diplomacy"] = package
    try:
        return importlib.import_module(f"diplomacy.environment.{name}")
    finally:
        for key in [k for k in sys.modules if k == "diplomacy" or k.startswith("diplomacy.")]:
            del sys.modules[key]
        if stub is not None:
            del sys.modules["immutabledict"]
        sys.modules.update(ours)


def test_mila_strings_agree_with_theirs() -> None:
    if not SNAPSHOT.is_dir():
        pytest.skip(f"no DeepMind snapshot at {SNAPSHOT} (../shared/deepmind-diplomacy)")
    theirs = _their_module("mila_actions")
    rng = random.Random(1)
    game = CodeGame(max_year=1912)
    checked = 0
    while not game.is_over:
        position = game.position()
        for codes in game.legal_orders():
            for code in codes:
                order = decode_order(code, game.map, position)
                action = action_of_order(order, game.map, position.phase.kind)
                assert mila_text(order, game.map) in theirs.action_to_mila_actions(action)
                checked += 1
        game.set_orders([rng.choice(c) for c in game.legal_orders()])
        game.process()
    assert checked > 5000


# --------------------------------------------------------------------------- DiplomacyState

#: The engine's state and the Python reference: every test of the protocol runs on both.
STATES = pytest.mark.parametrize("State", [DiplomacyState, ReferenceDiplomacyState])

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
SEASONS = {"SM": 0, "SR": 1, "FM": 2, "FR": 3, "WA": 4}


def _expected_numbers(position: Any) -> list[int]:
    """Build numbers counted in the test: centres minus units, builds capped by the vacant
    owned home centres."""
    out = []
    for power in POWERS:
        n = len(position.centers_of(power)) - len(position.units_of(power))
        homes = [
            h
            for h in position.map.homes[power]
            if position.centers.get(h) == power and h not in position.units
        ]
        out.append(min(n, len(homes)) if n > 0 else n)
    return out


def _check_board(board: Any, position: Any) -> None:
    game_map = position.map
    assert board.shape == (81, 35) and str(board.dtype) == "float32"
    occupied: set[int] = set()
    for piece in position.units.values():
        areas = {AREAS.index(game_map.province_of(piece.loc)), AREAS.index(piece.loc)}
        for area in areas:
            occupied.add(area)
            assert board[area, 0 if piece.type == "A" else 1] == 1
            assert board[area, 3 + POWERS.index(piece.power)] == 1
            assert board[area, 3:11].sum() == 1 and board[area, 2] == 0
    for area in set(range(81)) - occupied:
        assert board[area, 2] == 1 and board[area, 10] == 1 and board[area, 0:2].sum() == 0
    dislodged: set[int] = set()
    for d in position.dislodged.values():
        for area in {AREAS.index(d.piece.province), AREAS.index(d.piece.loc)}:
            dislodged.add(area)
            assert board[area, 13 if d.piece.type == "A" else 14] == 1
            assert board[area, 16 + POWERS.index(d.piece.power)] == 1
    for area in set(range(81)) - dislodged:
        assert board[area, 15] == 1 and board[area, 23] == 1
    for area, loc in enumerate(AREAS):
        province = game_map.province_of(loc)
        kind = 26 if "/" in loc else 25 if game_map.is_sea(loc) else 24
        assert board[area, 24:27].tolist() == [float(k == kind) for k in (24, 25, 26)]
        if province in game_map.centers:
            owner = position.centers.get(province)
            assert board[area, 27 + (POWERS.index(owner) if owner else 7)] == 1
            assert board[area, 27:35].sum() == 1
        else:
            assert board[area, 27:35].sum() == 0


def _check_adjustment_flags(board: Any, position: Any, numbers: list[int]) -> None:
    """Buildable: the vacant owned home centres of a power that may build; removable: the
    units of a power that must remove; neither outside a build phase."""
    game_map = position.map
    buildable: set[int] = set()
    removable: set[int] = set()
    if position.phase.kind == "A":
        for power, n in zip(POWERS, numbers, strict=True):
            if n > 0:
                for home in game_map.homes[power]:
                    if position.centers.get(home) == power and home not in position.units:
                        buildable |= {i for i, a in enumerate(AREAS) if a.split("/")[0] == home}
            elif n < 0:
                for piece in position.units_of(power):
                    removable |= {AREAS.index(piece.province), AREAS.index(piece.loc)}
    assert {int(i) for i in board[:, 11].nonzero()[0]} == buildable
    assert {int(i) for i in board[:, 12].nonzero()[0]} == removable


def _actions_of_slots(game: CodeGame, rng: random.Random) -> list[list[int]]:
    """One random legal order per slot, as DeepMind actions grouped by power; none for a
    power whose only choice is the waive (it has no action in their protocol)."""
    position = game.position()
    out: list[list[int]] = [[] for _ in POWERS]
    for (power, _), codes in zip(game.slots(), game.legal_orders(), strict=True):
        order = decode_order(rng.choice(codes), game.map, position)
        out[POWERS.index(power)].append(action_of_order(order, game.map, position.phase.kind))
    return [[] if _only_waives(acts) else acts for acts in out]


def _only_waives(actions: Any) -> bool:
    """True for a list of waives only (an empty list included)."""
    return all(a & 0xFF == WAIVE_CODE for a in actions)


#: The waive's order code in their actions (bits 0-7).
WAIVE_CODE = 13


@STATES
def test_state_follows_fast_game(State: Any) -> None:
    seen = {"zeroed": 0, "kept": 0, "kinds": set(), "no_site": 0}
    for seed in range(3):
        rng = random.Random(seed)
        state = State(max_year=1916)
        reference = CodeGame(max_year=1916)
        last_numbers = [0] * 7
        while not state.is_terminal():
            position = reference.position()
            assert state.game.position() == position
            kind = position.phase.kind
            seen["kinds"].add(kind)  # type: ignore[attr-defined]
            legal = state.legal_actions()
            assert len(legal) == 7 and all(type(a) is int for acts in legal for a in acts)
            wanted: list[set[int]] = [set() for _ in POWERS]
            for (power, _), codes in zip(reference.slots(), reference.legal_orders(), strict=True):
                for code in codes:
                    order = decode_order(code, reference.map, position)
                    wanted[POWERS.index(power)].add(action_of_order(order, reference.map, kind))
            if kind == "A":
                # The convention: a power owed builds with no site to build on (its only legal
                # order the waive) lists nothing, as DeepMind's conversion of MILA's lists.
                numbers = _expected_numbers(position)
                for i, acts in enumerate(wanted):
                    if acts and _only_waives(acts):
                        assert numbers[i] == 0 and len(position.centers_of(POWERS[i])) > len(
                            position.units_of(POWERS[i])
                        )
                        wanted[i] = set()
                        seen["no_site"] += 1  # type: ignore[operator]
            assert [set(a) for a in legal] == wanted
            assert all(len(a) == len(set(a)) for a in legal)

            observation = state.observation()
            assert observation.season == SEASONS[position.phase.season + kind]
            assert isinstance(observation.season, Season)
            _check_board(observation.board, position)
            numbers = observation.build_numbers.tolist()
            _check_adjustment_flags(observation.board, position, _expected_numbers(position))
            if kind == "A":
                assert numbers == _expected_numbers(position)
                last_numbers = numbers
            else:
                assert numbers == [min(n, 0) for n in last_numbers]
                seen["zeroed"] += any(n > 0 for n in last_numbers)  # type: ignore[operator]
                seen["kept"] += any(n < 0 for n in last_numbers)  # type: ignore[operator]
            assert state.returns().tolist() == [0.0] * 7

            actions = _actions_of_slots(reference, rng)
            codes = [
                encode_order(order_of_action(a, position), reference.map, power)
                for power, acts in zip(POWERS, actions, strict=True)
                for a in acts
            ]
            state.step(actions)
            reference.set_orders(codes)
            reference.process()
            assert state.observation().last_actions == [a for acts in actions for a in acts]
            assert state.is_terminal() == reference.is_over
        assert state.game.position() == reference.position()
        returns = state.returns()
        assert returns.shape == (7,) and np.isclose(returns.sum(), 1.0)
        with pytest.raises(GameOverError):
            state.step([[] for _ in POWERS])
    assert seen["kinds"] == {"M", "R", "A"}
    assert seen["zeroed"] and seen["kept"] and seen["no_site"]


def _snapshot(state: Any) -> tuple[Any, ...]:
    observation = state.observation()
    return (
        state.game.position(),
        state.legal_actions(),
        observation.last_actions,
        observation.build_numbers.tolist(),
        observation.board.tolist(),
    )


def _refusals(state: Any, rng: random.Random) -> list[tuple[Any, str]]:
    """Bad ``step`` arguments in this phase, each with a text its error must hold."""
    legal = state.legal_actions()
    good = _actions_of_slots(state.game, rng)
    owner = next(i for i, acts in enumerate(legal) if acts)
    other = next(i for i in range(7) if i != owner)
    foreign = next(a for a in legal[owner] if a not in legal[other])
    anywhere = {a for acts in legal for a in acts}
    not_now = next(a for a in possible_actions() if a not in anywhere)

    def with_bad(i: int, *bad: Any) -> list[list[Any]]:
        out: list[list[Any]] = [list(acts) for acts in good]
        out[i] = [*out[i], *bad]
        return out

    cases: list[tuple[Any, str]] = [
        (good[:6], "got 6"),
        ([*good, []], "got 8"),
        (5, "got int"),
        ([*good[:6], 5], "TURKEY: expected a list"),
        (with_bad(other, foreign), f"{POWERS[other]}: action {foreign} is an order for"),
        (with_bad(6, 1.5), "TURKEY: action 1.5 is not an int"),
        (with_bad(6, float("nan")), "TURKEY: action nan is not an int"),
        (with_bad(6, "3"), "TURKEY: action '3' is not an int"),
        (with_bad(6, True), "TURKEY: action True is not an int"),
        (with_bad(6, None), "TURKEY: action None is not an int"),
        (with_bad(3, -1), "GERMANY: action -1"),
        (with_bad(3, 0x7F), "GERMANY: action 127"),
        (with_bad(4, not_now), f"ITALY: action {not_now} is not legal now"),
    ]
    units = [a for a in legal[owner] if a & 0xFF != 13]
    same = [a for a in units if (a >> 9) & 0x7F == (units[0] >> 9) & 0x7F]
    if len(same) > 1:
        twice = [list(acts) for acts in good]
        twice[owner] = [same[0], same[1]]
        cases.append((twice, f"{POWERS[owner]}: action {same[1]} is a second order for"))
    return cases


@STATES
def test_bad_steps_refused_state_unchanged(State: Any) -> None:
    rng = random.Random(3)
    state = State(max_year=1916)
    tried: set[str] = set()
    while not state.is_terminal() and tried != {"M", "R", "A"}:
        kind = state.game.position().phase.kind
        if kind not in tried:
            tried.add(kind)
            before = _snapshot(state)
            for bad, text in _refusals(state, rng):
                with pytest.raises(ValueError, match=re.escape(text)):
                    state.step(bad)
                assert _snapshot(state) == before
        state.step(_actions_of_slots(state.game, rng))
    assert tried == {"M", "R", "A"}


@STATES
def test_numpy_actions_and_returns(State: Any) -> None:
    state = State(max_year=1901)
    actions = [np.array(acts[:1], dtype=np.int64) for acts in state.legal_actions()]
    state.step(actions)
    assert state.observation().last_actions == [int(a[0]) for a in actions]
    assert all(type(a) is int for a in state.observation().last_actions)
    while not state.is_terminal():
        state.step([[] for _ in POWERS])
    # Nobody won: the survivors (all seven) share 1.
    assert state.returns().tolist() == pytest.approx([1 / 7] * 7)


@STATES
def test_returns_of_a_solo_win(State: Any) -> None:
    """France holds the 17 centres nobody occupies (Germany's units are gone) and takes
    Belgium: the year ends with a solo winner."""
    from diplo.model.position import Phase, Piece, Position

    game_map = standard_map()
    start = Position.initial(game_map)
    units = {k: v for k, v in start.units.items() if v.power != "GERMANY"}
    units["PIC"] = Piece("FRANCE", "A", "PIC")
    others = sorted(game_map.centers - {"BEL"} - set(units) | {"PAR", "MAR", "BRE"})
    centers = {c: "FRANCE" for c in others[:17]}
    position = start.with_changes(phase=Phase(1901, "F", "M"), units=units, centers=centers)
    state = State(position)
    french = state.legal_actions()[POWERS.index("FRANCE")]
    move = next(a for a in french if format_order(order_of_action(a, position)) == "A PIC - BEL")
    assert state.returns().tolist() == [0.0] * 7
    state.step([[move] if p == "FRANCE" else [] for p in POWERS])
    while not state.is_terminal() and state.game.phase != "S1902M":
        assert state.returns().tolist() == [0.0] * 7
        state.step([[] for _ in POWERS])
    assert state.is_terminal(), state.game.phase
    assert state.returns().tolist() == [float(p == "FRANCE") for p in POWERS]


@STATES
def test_their_readers_of_the_observation(State: Any) -> None:
    """Their own ``observation_utils`` readers find in our observations the units, dislodged
    units, centres, build and removal sites of the position."""
    if not SNAPSHOT.is_dir():
        pytest.skip(f"no DeepMind snapshot at {SNAPSHOT} (../shared/deepmind-diplomacy)")
    utils = _their_module("observation_utils")
    rng = random.Random(5)
    state = State(max_year=1912)
    while not state.is_terminal():
        position = state.game.position()
        game_map = position.map
        observation = state.observation()
        theirs = observation._replace(season=utils.Season(int(observation.season)))
        board = observation.board
        for i, power in enumerate(POWERS):
            areas = utils.order_relevant_areas(theirs, i)
            if position.phase.kind == "M":
                wanted = [AREAS.index(p.loc) for p in position.units_of(power)]
                assert sorted(areas) == sorted(wanted)
            elif position.phase.kind == "R":
                mine = [d.piece for d in position.dislodged.values() if d.piece.power == power]
                assert sorted(areas) == sorted(AREAS.index(p.loc) for p in mine)
            else:
                assert len(areas) == abs(int(observation.build_numbers[i]))
            centres = {PROVINCES[p] for p in utils.sc_provinces(i, board)}
            assert centres == set(position.centers_of(power))
            n = int(observation.build_numbers[i])
            if position.phase.kind == "A" and n > 0:
                sites = {PROVINCES[p] for p in utils.build_provinces(i, board)}
                assert sites == {
                    h
                    for h in game_map.homes[power]
                    if position.centers.get(h) == power and h not in position.units
                }
            if position.phase.kind == "A" and n < 0:
                removable = {PROVINCES[p] for p in utils.removable_provinces(i, board)}
                assert removable == {p.province for p in position.units_of(power)}
        for province, piece in position.units.items():
            pid = PROVINCES.index(province)
            assert utils.unit_power(pid, board) == POWERS.index(piece.power)
            assert utils.area_id_for_unit_in_province_id(pid, board) == AREAS.index(piece.loc)
        state.step(_actions_of_slots(state.game, rng))
