"""diplo.env: PettingZoo's own conformance and seed tests, and the meaning of observations,
actions and rewards held to the code API and the object API."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason='diplo.env needs pip install ".[env]"')
np = pytest.importorskip("numpy", reason='diplo.env needs pip install ".[env]"')

from pettingzoo.test import parallel_api_test  # noqa: E402
from pettingzoo.test.seed_test import parallel_seed_test  # noqa: E402

from diplo.engine.codes import CodeGame  # noqa: E402
from diplo.env import CentreReward, DiplomacyEnv, EnvError  # noqa: E402
from diplo.model.position import Position  # noqa: E402


def _random_actions(env: DiplomacyEnv, infos: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    out = {}
    for agent in env.agents:
        counts = infos[agent]["legal_counts"]
        picks = [rng.randrange(k) for k in counts] + [0] * (env.max_slots - len(counts))
        out[agent] = np.array(picks, dtype=np.int64)
    return out


def test_pettingzoo_parallel_api() -> None:
    parallel_api_test(DiplomacyEnv(max_year=1903), num_cycles=200)


def test_pettingzoo_seed_test() -> None:
    parallel_seed_test(lambda: DiplomacyEnv(max_year=1903))


def _decode_board(env: DiplomacyEnv, board: Any) -> dict[str, Any]:
    enc, locations, powers = env.encoder, env.map.locations, env.map.powers
    units, dislodged, centres = {}, {}, {}
    for row, loc in enumerate(locations):
        cells = board[row]
        if cells[0] or cells[1]:
            owner = powers[int(np.argmax(cells[enc.owner : enc.owner + len(powers)]))]
            units[loc] = (owner, "F" if cells[1] else "A")
        if cells[enc.dislodged] or cells[enc.dislodged + 1]:
            span = cells[enc.dislodged_owner : enc.dislodged_owner + len(powers)]
            dislodged[loc] = (
                powers[int(np.argmax(span))],
                "F" if cells[enc.dislodged + 1] else "A",
            )
        owned = cells[enc.centre_owner : enc.centre_owner + len(powers)]
        if owned.any():
            assert cells[enc.centre] == 1
            centres[loc] = powers[int(np.argmax(owned))]
    return {"units": units, "dislodged": dislodged, "centres": centres}


def _expected(position: Position) -> dict[str, Any]:
    return {
        "units": {p.loc: (p.power, p.type) for p in position.units.values()},
        "dislodged": {
            d.piece.loc: (d.piece.power, d.piece.type) for d in position.dislodged.values()
        },
        "centres": dict(position.centers),
    }


def test_a_random_game_means_what_the_fast_path_says() -> None:
    env = DiplomacyEnv(max_year=1905)
    obs, infos = env.reset(seed=3)
    twin = CodeGame(max_year=1905)
    rng = random.Random(3)
    total = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    seen_kinds = set()
    while env.agents:
        position = env.game.position()
        seen_kinds.add(position.phase.kind)
        for agent in env.agents:
            assert env.observation_space(agent).contains(obs[agent])
            assert _decode_board(env, obs[agent]["board"]) == _expected(position)
            phase = obs[agent]["phase"]
            assert phase[0] == position.phase.year - 1901
            assert phase[1 + "SFW".index(position.phase.season)] == 1
            assert phase[4 + "MRA".index(position.phase.kind)] == 1
            masks = obs[agent]["action_mask"]
            counts = infos[agent]["legal_counts"]
            assert [int(m.sum()) for m in masks[: len(counts)]] == counts
            assert all(not m.any() for m in masks[len(counts) :])
        slots = [p for p, _ in env.game.slots()]
        assert sum(len(infos[a]["slots"]) for a in env.agents) == len(slots)
        actions = _random_actions(env, infos, rng)
        codes = [infos[a]["legal_codes"][s][int(i)] for a, act in actions.items()
                 for s, i in enumerate(act[: len(infos[a]["legal_counts"])])]  # fmt: skip
        before = {p: len(position.centers_of(p)) for p in env.possible_agents}
        obs, rewards, terminated, truncated, infos = env.step(actions)
        twin.set_orders(codes)
        twin.process()
        after = env.game.position()
        assert after.to_json() == twin.position().to_json()
        for agent, reward in rewards.items():
            change = len(after.centers_of(agent)) - before[agent]
            end = 10.0 / len([p for p in env.possible_agents if after.centers_of(p)])
            assert reward == pytest.approx(change + (end if twin.is_over else 0.0))
            total[agent] += reward
        assert not any(truncated.values())
        assert all(terminated.values()) == twin.is_over
        steps += 1
    assert {"M", "A"} <= seen_kinds and twin.is_over and steps >= 10
    owned = len(twin.position().centers)
    assert sum(total.values()) == pytest.approx(owned - 22 + 10.0)  # centres gained, the draw


def test_masked_out_choices_order_nothing() -> None:
    env = DiplomacyEnv(max_year=1901)
    env.reset()
    start = env.game.position()
    last = env.max_orders - 1  # no unit has that many orders: masked out everywhere
    env.step({a: np.full(env.max_slots, last) for a in env.agents})
    assert env.game.phase == "F1901M"
    assert env.game.position().units == start.units  # everybody held


def test_custom_reward_and_errors() -> None:
    env = DiplomacyEnv(max_year=1901, reward=CentreReward(win=0.0, draw=0.0))
    with pytest.raises(EnvError, match="reset"):
        env.step({})
    _obs, infos = env.reset()
    with pytest.raises(ValueError, match="an action has 18 entries, got 2"):
        env.step({"FRANCE": [0, 0]})
    with pytest.raises(ValueError, match="unknown agent 'MORDOR'"):
        env.step({"MORDOR": [0] * env.max_slots})
    rng = random.Random(1)
    while env.agents:
        before = env.game.position()
        _obs, rewards, *_, infos = env.step(_random_actions(env, infos, rng))
    after = env.game.position()
    assert env.game.is_over and before.phase.year == 1901
    # No end bonus: the last step's rewards are its centre changes alone.
    assert rewards == {
        p: float(len(after.centers_of(p)) - len(before.centers_of(p))) for p in env.possible_agents
    }
    with pytest.raises(EnvError, match="the game is over"):
        env.step({})
    with pytest.raises(EnvError, match=r"legal orders, more than max_orders=2"):
        DiplomacyEnv(max_orders=2).reset()
    with pytest.raises(ValueError, match="max_orders must be a positive int"):
        DiplomacyEnv(max_orders=0)
