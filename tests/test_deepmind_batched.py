"""DeepMind's protocol batched on the engine (``diplo.env.deepmind.batched``): every game's
observation, legal actions and returns equal those of the Python reference state
(``ReferenceDiplomacyState``) and of the one-game ``DiplomacyState`` given the same actions,
step after step, through every phase kind, the games' ends and the restarts; bad actions are
refused naming the game, the power and the action, every game left as it was."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason='diplo.env needs pip install ".[env]"')

from diplo.env.deepmind import (  # noqa: E402
    NO_ACTION,
    BatchedDiplomacyState,
    DiplomacyState,
    ReferenceDiplomacyState,
    possible_actions,
)

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
WAIVE = 13


def _pick(legal: list[list[int]], rng: random.Random) -> list[list[int]]:
    """A random legal action for most ordered provinces of each power; some waives; sometimes
    a unit left without an action (it holds, or is disbanded)."""
    out = []
    for actions in legal:
        groups: dict[int, list[int]] = {}
        for a in actions:
            groups.setdefault(-1 if a & 0xFF == WAIVE else (a >> 9) & 0x7F, []).append(a)
        mine = [rng.choice(g) for k, g in groups.items() if rng.random() < 0.9]
        rng.shuffle(mine)
        out.append(mine)
    return out


def _same(batched: BatchedDiplomacyState, i: int, state: Any) -> None:
    mine, theirs = batched.observation(i), state.observation()
    assert mine.season == theirs.season
    assert mine.board.dtype == theirs.board.dtype and mine.board.shape == (81, 35)
    assert np.array_equal(mine.board, theirs.board), np.argwhere(mine.board != theirs.board)[:5]
    assert mine.build_numbers.tolist() == theirs.build_numbers.tolist()
    assert mine.last_actions == theirs.last_actions
    assert batched.legal_actions_of(i) == state.legal_actions()
    assert batched.returns[i].tolist() == pytest.approx(state.returns().tolist())
    assert batched.game(i).position() == state.game.position()


@pytest.mark.parametrize("threads", [1, 2])
def test_batched_games_equal_the_single_state(threads: int) -> None:
    games, last_year = 6, 1906
    rng = random.Random(threads)
    batched = BatchedDiplomacyState(games, max_year=last_year, threads=threads)
    batched.reset()
    assert batched.episodes.tolist() == [1] * games and batched.steps.tolist() == [0] * games
    references = [ReferenceDiplomacyState(max_year=last_year) for _ in range(games)]
    singles = [DiplomacyState(max_year=last_year) for _ in range(games)]
    kinds: set[str] = set()
    seen = {"builds": 0, "removals": 0, "kept": 0, "restarts": 0, "waives": 0}
    for _ in range(70):
        for i in range(games):
            _same(batched, i, references[i])
            _same(batched, i, singles[i])
            assert bool(batched.terminated[i]) == references[i].is_terminal()
            position = references[i].game.position()
            kinds.add(position.phase.kind)
            numbers = batched.build_numbers[i]
            if position.phase.kind == "A":
                seen["builds"] += int((numbers > 0).any())
                seen["removals"] += int((numbers < 0).any())
            else:
                seen["kept"] += int((numbers < 0).any())
        chosen, restarted = [], set()
        for i in range(games):
            if references[i].is_terminal():
                # Ended in the last step: this step starts it again, whatever it is given.
                references[i] = ReferenceDiplomacyState(max_year=last_year)
                singles[i] = DiplomacyState(max_year=last_year)
                chosen.append([batched.legal_actions_of(i)[0][:1]] + [[]] * 6)
                restarted.add(i)
                continue
            actions = _pick(references[i].legal_actions(), rng)
            seen["waives"] += sum(a & 0xFF == WAIVE for acts in actions for a in acts)
            chosen.append(actions)
        played = batched.step(batched.actions_array(chosen))
        stepped = 0
        for i in set(range(games)) - restarted:
            references[i].step(chosen[i])
            singles[i].step(chosen[i])
            stepped += 1
        seen["restarts"] += len(restarted)
        assert played == stepped
    assert kinds == {"M", "R", "A"}
    assert seen["builds"] and seen["removals"] and seen["kept"] and seen["waives"]
    assert seen["restarts"] >= games


def _snapshot(batched: BatchedDiplomacyState) -> Any:
    arrays: list[Any] = [
        batched.board,
        batched.season,
        batched.build_numbers,
        batched.last_actions,
        batched.last_counts,
        batched.legal_actions,
        batched.legal_counts,
        batched.returns,
        batched.steps,
    ]
    positions = [batched.game(i).position() for i in range(batched.num_games)]
    return [a.copy() for a in arrays], positions


def _assert_unchanged(batched: BatchedDiplomacyState, before: Any) -> None:
    arrays, positions = _snapshot(batched)
    for a, b in zip(arrays, before[0], strict=True):
        assert np.array_equal(a, b)
    assert positions == before[1]


def test_bad_actions_refused_every_game_unchanged() -> None:
    rng = random.Random(5)
    batched = BatchedDiplomacyState(3, max_year=1910)
    batched.reset()
    tried: set[str] = set()
    while tried != {"M", "R", "A"}:
        kinds = {batched.game(i).position().phase.kind for i in range(3)}
        for kind in kinds - tried:
            g = next(i for i in range(3) if batched.game(i).position().phase.kind == kind)
            tried.add(kind)
            _try_refusals(batched, g, rng)
        chosen = [_pick(batched.legal_actions_of(i), rng) for i in range(3)]
        batched.step(batched.actions_array(chosen))


def _try_refusals(batched: BatchedDiplomacyState, g: int, rng: random.Random) -> None:
    """Every refusal, aimed at game ``g`` (the other games given good actions)."""
    n = batched.num_games
    good = [_pick(batched.legal_actions_of(i), rng) for i in range(n)]
    array = batched.actions_array(good)
    legal = batched.legal_actions_of(g)
    owner = next(p for p, acts in enumerate(legal) if acts)
    other = next(p for p in range(7) if p != owner)
    foreign = next(a for a in legal[owner] if a not in legal[other])
    anywhere = {a for acts in legal for a in acts}
    not_now = next(a for a in possible_actions() if a not in anywhere)
    free = int(np.argmax(array[g, other] == NO_ACTION))

    def put(p: int, value: Any, dtype: Any = np.int64) -> Any:
        out = array.astype(dtype)
        out[g, p, free if p == other else int(np.argmax(array[g, p] == NO_ACTION))] = value
        return out

    cases: list[tuple[Any, str]] = [
        (array[:, :6], "expected shape"),
        (array[:-1], "expected shape"),
        (put(other, foreign), f"game {g}: {POWERS[other]}: action {foreign} is an order for"),
        (put(4, not_now), f"game {g}: ITALY: action {not_now} is not legal now"),
        (put(3, 0x7F), f"game {g}: GERMANY: action 127 is not in DeepMind's list"),
        (put(3, -2), f"game {g}: GERMANY: action -2 is not in DeepMind's list"),
        (put(3, 5 << 48 | foreign & 0xFFFFFFFF), f"game {g}: GERMANY: action"),
        (put(6, np.nan, np.float64), f"game {g}: TURKEY: action nan is not an int"),
        (put(6, 1.5, np.float64), f"game {g}: TURKEY: action 1.5 is not an int"),
        (array.astype(np.float64), "is not an int (actions must be an integer array"),
        (array.astype(bool), "is not an int (actions must be an integer array"),
    ]
    units = [a for a in legal[owner] if a & 0xFF != WAIVE]
    same = [a for a in units if (a >> 9) & 0x7F == (units[0] >> 9) & 0x7F]
    if len(same) > 1:
        twice = array.copy()
        twice[g, owner] = NO_ACTION
        twice[g, owner, :2] = same[:2]
        cases.append((twice, f"game {g}: {POWERS[owner]}: action {same[1]} is a second order"))
    before = _snapshot(batched)
    for bad, text in cases:
        with pytest.raises(ValueError, match=text.replace("(", r"\(")):
            batched.check_actions(bad)
        with pytest.raises(ValueError, match=text.replace("(", r"\(")):
            batched.step(bad)
        _assert_unchanged(batched, before)
    batched.check_actions(array)  # the good actions pass, still


def test_reset_autoreset_and_threads_agree() -> None:
    """A finished game is started again by the next step; two thread counts play alike."""
    one = BatchedDiplomacyState(8, max_year=1901, threads=1)
    two = BatchedDiplomacyState(8, max_year=1901, threads=2)
    with pytest.raises(RuntimeError, match="reset"):
        one.step(np.full((8, 7, one.max_orders), NO_ACTION, dtype=np.int64))
    one.reset()
    two.reset()
    rng = random.Random(0)
    ended = 0
    for _ in range(12):
        chosen = one.actions_array([_pick(one.legal_actions_of(i), rng) for i in range(8)])
        before = one.terminated.copy()
        assert one.step(chosen) == two.step(chosen)
        for a, b in zip(_snapshot(one)[0], _snapshot(two)[0], strict=True):
            assert np.array_equal(a, b)
        for i in np.flatnonzero(before):
            # Restarted: the start, a new episode, no last actions.
            assert one.steps[i] == 0 and one.last_counts[i] == 0 and one.season[i] == 0
            assert one.returns[i].tolist() == [0.0] * 7
        ended += int(one.terminated.sum())
        for i in np.flatnonzero(one.terminated):
            assert one.returns[i].sum() == pytest.approx(1.0)
    assert ended and one.episodes.max() > 1


def test_a_call_while_another_thread_steps_raises_in_use_error() -> None:
    """As the vector env: a call on a ``BatchedDiplomacyState`` while another thread's step
    holds it raises ``InUseError``, and the games play on."""
    from diplo.engine.codes import InUseError
    from in_use import refused_while_running

    batched = BatchedDiplomacyState(300, threads=1)
    batched.reset()
    none = np.full((300, 7, batched.max_orders), NO_ACTION, dtype=np.int64)
    refused = refused_while_running(lambda: batched.step(none), lambda: batched.num_games)
    assert isinstance(refused, InUseError), refused
    assert "DeepMindEnv is in use by another thread" in str(refused)
    assert "borrowed" not in str(refused)
    assert batched.num_games == 300 and batched.threads == 1
    batched.threads = 3
    assert batched.threads == 3
    batched.step(none)
