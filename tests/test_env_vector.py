"""diplo.env.DiplomacyVectorEnv: the same games as CodeGame for the same actions, masks that are
the code API's legal lists, observations inside their spaces on every shipped map, refused
actions that change nothing, and the PettingZoo environment on the same core."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from diplo import _core

pytest.importorskip("pettingzoo", reason='diplo.env needs pip install ".[env]"')
np = pytest.importorskip("numpy", reason='diplo.env needs pip install ".[env]"')

from diplo.engine.codes import ActionError, CodeGame, InUseError, kind_of, location_of  # noqa: E402
from diplo.env import (  # noqa: E402
    BoardEncoder,
    DiplomacyEnv,
    DiplomacyVectorEnv,
    EnvError,
    UniformPolicy,
    uniform_actions,
)
from diplo.model.map import SHIPPED_MAPS  # noqa: E402
from diplo.model.position import Position  # noqa: E402
from diplo.model.variants import load_map  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _grouped(game: CodeGame, powers: list[str]) -> list[list[list[int]]]:
    """The code API's legal lists per power, in slot order."""
    out: list[list[list[int]]] = [[] for _ in powers]
    for (power, _key), options in zip(game.slots(), game.legal_orders(), strict=True):
        out[powers.index(power)].append(options)
    return out


def _board_without_prev(env: DiplomacyVectorEnv, board: Any) -> Any:
    return board[:, : env.layout["prev_kind"]]


def test_it_plays_the_same_games_as_fastgame() -> None:
    env = DiplomacyVectorEnv(6, max_year=1903, threads=2)
    powers = env.powers
    encoder = BoardEncoder(env.map)
    obs, infos = env.reset(seed=[5, 6, 7, 8, 9, 10])
    twins = [CodeGame(max_year=1903) for _ in range(6)]
    policy = UniformPolicy()
    finished = 0
    restarted = [False] * 6
    for _step in range(40):
        actions = policy(obs, infos, env.seeds)
        codes = [env.codes(i, actions[i]) for i in range(6)]
        before = [[len(t.position().centers_of(p)) for p in powers] for t in twins]
        obs, rewards, terminated, truncated, infos = env.step(actions)
        assert not truncated.any()
        for i, twin in enumerate(twins):
            if restarted[i]:
                # The game ended in the last step: this step started it again, action ignored.
                twins[i] = twin = CodeGame(max_year=1903)
                assert infos["steps"][i] == 0 and not terminated[i]
                assert not rewards[i].any()
            else:
                twin.set_orders(codes[i])
                twin.process()
                after = [len(twin.position().centers_of(p)) for p in powers]
                change = np.array(after, dtype=np.float32) - np.array(before[i])
                if twin.is_over:
                    finished += 1
                    alive = [k for k, n in enumerate(after) if n]
                    change[alive] += 10.0 / len(alive)
                assert rewards[i] == pytest.approx(change)
            restarted[i] = bool(terminated[i])
            assert bool(terminated[i]) == twin.is_over
            assert env.game(i).position().to_json() == twin.position().to_json()
            expected = encoder.encode(twin.state_indices())
            assert (
                _board_without_prev(env, obs["board"][i])
                == expected[0][:, : env.layout["prev_kind"]]
            ).all()
            assert (obs["phase"][i] == expected[1]).all()
            lists = _grouped(twin, powers) if not twin.is_over else [[] for _ in powers]
            assert env.legal_codes(i) == lists
            for p, slots in enumerate(lists):
                counts = obs["legal_counts"][i, p]
                assert counts[: len(slots)].tolist() == [len(o) for o in slots]
                assert not counts[len(slots) :].any()
            centres = [len(twin.position().centers_of(p)) for p in powers]
            assert infos["centres"][i].tolist() == centres
        assert env.observation_space.contains(obs)
    assert finished >= 6


def test_masks_are_exactly_the_legal_lists() -> None:
    env = DiplomacyVectorEnv(3, max_year=1905)
    obs, infos = env.reset(seed=1)
    policy = UniformPolicy()
    for _ in range(12):
        masks = env.action_masks()
        for i in range(3):
            game = env.game(i)
            lists = _grouped(game, env.powers)
            for p, slots in enumerate(lists):
                for s in range(env.max_slots):
                    n = len(slots[s]) if s < len(slots) else 0
                    assert masks[i, p, s, :n].all() and not masks[i, p, s, n:].any()
            keys = [[k for (pw, k) in game.slots() if pw == p] for p in env.powers]
            assert env.slot_keys(i) == keys
        obs, _r, _t, _u, infos = env.step(policy(obs, infos, env.seeds))


def test_previous_orders_are_on_the_board() -> None:
    env = DiplomacyVectorEnv(1, max_year=1902)
    obs, infos = env.reset(seed=3)
    assert not obs["board"][0, :, env.layout["prev_kind"] :].any()
    actions = UniformPolicy()(obs, infos, env.seeds)
    codes = env.codes(0, actions[0])
    twin = env.game(0)
    twin.set_orders(codes)
    done = twin.process()
    obs, *_ = env.step(actions)
    board = obs["board"][0]
    lay = env.layout
    ordered = {location_of(c): c for c in codes}
    held = {location_of(c) for c, _r, _ok in done.implied_results()}
    success = dict(zip([location_of(c) for c in codes], done.result_success(), strict=True))
    for row in range(lay["locations"]):
        kinds = board[row, lay["prev_kind"] : lay["prev_kind"] + 8]
        if row in ordered:
            assert kinds.tolist() == [int(k == kind_of(ordered[row])) for k in range(8)]
            assert board[row, lay["prev_success"]] == int(success[row])
        elif row in held:
            assert kinds.tolist() == [1] + [0] * 7  # an implied hold
        else:
            assert not kinds.any()
    shift, field = _core.CODE_LAYOUT["a_shift"], _core.CODE_LAYOUT["field_mask"]
    moves = {(c >> shift) & field for c in codes if kind_of(c) == 1}
    targets = set(np.flatnonzero(board[:, lay["prev_target"]]).tolist())
    assert targets == moves


def test_thread_count_changes_nothing() -> None:
    runs = []
    for threads in (1, 2):
        env = DiplomacyVectorEnv(40, max_year=1904, threads=threads)
        obs, infos = env.reset(seed=11)
        history = []
        for _ in range(30):
            obs, rewards, term, _trunc, infos = env.step(UniformPolicy()(obs, infos, env.seeds))
            history.append((obs["board"].copy(), rewards.copy(), term.copy()))
        runs.append(history)
    for (b1, r1, t1), (b2, r2, t2) in zip(*runs, strict=True):
        assert (b1 == b2).all() and (r1 == r2).all() and (t1 == t2).all()


def test_out_of_space_actions_are_refused_and_change_nothing() -> None:
    env = DiplomacyVectorEnv(2, max_year=1903)
    obs, _infos = env.reset(seed=0)
    board = obs["board"].copy()
    shape = env.action_space.shape
    good = np.zeros(shape, dtype=np.int64)
    bad: list[tuple[Any, str]] = [
        (np.full(shape, 600), r"actions\[0, 0, 0\] = 600 is outside -1\.\.512"),
        (np.full(shape, -2), r"= -2 is outside -1\.\.512"),
        (np.full(shape, 2**63, dtype=np.uint64), "outside the action space"),
        (np.full(shape, np.nan), "must be integers"),
        (good.astype(np.float64), "must be integers"),
        (good.astype(bool), "must be integers"),
        (good[:1], "expected shape"),
        ([[0] * 18] * 7, "expected shape"),
        ("0", "must be integers"),
    ]
    for action, message in bad:
        with pytest.raises(ValueError, match=message):
            env.step(action)
        assert (env._buffers["board"] == board).all()
        assert env.game(0).phase == "S1901M"
    env.step(good.astype(np.int32))  # any integer dtype inside the space
    assert env.game(0).phase == "F1901M"
    pz = DiplomacyEnv(max_year=1901)
    pz.reset()
    for action in ([600] * 18, [-2] * 18, [float("nan")] * 18, [0.5] * 18, [2**70] * 18):
        with pytest.raises(ValueError, match="FRANCE: a"):
            pz.step({"FRANCE": action})
        assert pz.game.phase == "S1901M"


@pytest.mark.parametrize("max_orders", [40, 512])
def test_the_engine_alone_decides_an_entry_at_the_edges(max_orders: int) -> None:
    # -1 orders nothing (as an entry past its slot's count does); K, K + 1 and -2 are refused,
    # before anything is played, by the vector env, the parallel env and env.codes alike: one
    # check (the engine's), the Python side only shaping the arrays.
    position = Position.initial(load_map("standard"))
    env = DiplomacyVectorEnv(2, max_year=1901, max_orders=max_orders, position=position)
    choices = env.max_orders
    shape = env.action_space.shape
    assert shape is not None
    pz = DiplomacyEnv(max_year=1901, max_orders=choices)
    for bad in (choices, choices + 1, -2):
        env.reset(seed=0)
        pz.reset()
        table = np.zeros(shape, dtype=np.int64)
        table[1, 3, 2] = bad
        with pytest.raises(ActionError, match=rf"= {bad} is outside -1\.\.{choices}") as caught:
            env.step(table)
        assert caught.value.index == (1, 3, 2)  # the entry's place, not read from the text
        with pytest.raises(ValueError, match=rf"= {bad} is outside -1\.\.{choices}"):
            env.codes(1, np.full(shape[1:], bad))
        with pytest.raises(ValueError, match=rf"FRANCE: actions\[0, 2, 0\] = {bad} is outside"):
            pz.step({"FRANCE": [bad] * pz.max_slots})
        assert env.game(0).phase == "S1901M" and pz.game.phase == "S1901M"
    env.reset(seed=0)
    assert env.codes(0, np.full(shape[1:], -1)) == []
    env.step(np.full(shape, -1))  # every unit holds
    game = env.game(0)
    assert game.phase == "F1901M"
    assert game.position() == Position.initial(load_map("standard")).with_changes(
        phase=game.position().phase
    )
    pz.step({"FRANCE": [-1] * pz.max_slots, "ENGLAND": np.full(pz.max_slots, -1)})
    assert pz.game.phase == "F1901M"


#: The maps whose units reach more legal orders than the default ``max_orders`` (512): on
#: twentytwenty's oceans a fleet has more (Canada's in the Arctic Ocean had 564 in a random game).
MAX_ORDERS = {"twentytwenty": 2048}


@pytest.mark.parametrize("name", SHIPPED_MAPS)
def test_observations_stay_in_their_space_on_every_map(name: str) -> None:
    game_map = load_map(name)
    max_orders = MAX_ORDERS.get(name, 512)
    env = DiplomacyVectorEnv(4, game_map, max_year=None, threads=2, max_orders=max_orders)
    obs, infos = env.reset(seed=2)
    assert env.observation_space.contains(obs)
    assert (obs["phase"][:, 0] == 0).all()  # the first year (ancmed's is 1)
    policy = UniformPolicy()
    for step in range(40):
        actions = policy(obs, infos, env.seeds)
        if step % 4 == 0:
            # The counts are worked out without the lists, and a choice is made when played:
            # both must be the code API's lists, on every map (ports, coasts, convoys).
            i = step // 4 % env.num_envs
            game = env.game(i)
            lists = _grouped(game, env.powers) if not game.is_over else [[] for _ in env.powers]
            counts = obs["legal_counts"][i]
            assert [counts[p, : len(s)].tolist() for p, s in enumerate(lists)] == [
                [len(o) for o in s] for s in lists
            ]
            assert env.legal_codes(i) == lists
            twin = None if game.is_over else env.game(i)
            if twin is not None:
                twin.set_orders(env.codes(i, actions[i]))
                twin.process()
        else:
            twin = None
        obs, _r, _t, _u, infos = env.step(actions)
        assert env.observation_space.contains(obs)
        if twin is not None:  # the game played the codes its action names
            assert env.game(i).position().to_json() == twin.position().to_json()
    pz = DiplomacyEnv(game_map, max_year=None, max_orders=max_orders)
    pz_obs, _ = pz.reset()
    for agent, o in pz_obs.items():
        assert pz.observation_space(agent).contains(o)


def test_the_pettingzoo_env_plays_the_vector_env_games() -> None:
    vec = DiplomacyVectorEnv(1, max_year=1904)
    pz = DiplomacyEnv(max_year=1904)
    obs, infos = vec.reset(seed=[42])
    pz_obs, _ = pz.reset(seed=42)
    while pz.agents:
        for agent in pz.agents:
            assert (pz_obs[agent]["board"] == obs["board"][0]).all()
            assert (pz_obs[agent]["phase"] == obs["phase"][0]).all()
        actions = uniform_actions(obs["legal_counts"], vec.seeds, infos["episodes"], infos["steps"])
        pz_actions = {a: actions[0, vec.powers.index(a)] for a in pz.agents}
        pz_obs, pz_rewards, pz_term, _trunc, _ = pz.step(pz_actions)
        obs, rewards, term, _t, infos = vec.step(actions)
        for agent, reward in pz_rewards.items():
            assert reward == pytest.approx(float(rewards[0, vec.powers.index(agent)]))
        assert all(pz_term.values()) == bool(term[0])
    assert pz.game.position().to_json() == vec.game(0).position().to_json()


def test_autoreset_and_errors() -> None:
    env = DiplomacyVectorEnv(2, max_year=1901)
    with pytest.raises(EnvError, match="reset"):
        env.step(np.zeros(env.action_space.shape, dtype=np.int64))
    obs, infos = env.reset(seed=0)
    start = obs["board"].copy()
    hold = np.zeros(env.action_space.shape, dtype=np.int64)
    terminated = np.zeros(2, dtype=bool)
    steps = 0
    while not terminated.all():
        obs, _r, terminated, _t, infos = env.step(hold)
        steps += 1
    # Every unit holds (choice 0 is the hold): S1901M, F1901M, and no winter (nothing to adjust).
    assert steps == 2 and (infos["episodes"] == 1).all()
    obs, rewards, terminated, _t, infos = env.step(hold)  # the autoreset step
    assert (infos["episodes"] == 2).all() and (infos["steps"] == 0).all()
    assert not rewards.any() and not terminated.any() and infos["phases_played"] == 0
    assert (obs["board"] == start).all()
    with pytest.raises(EnvError, match=r"legal orders, more than max_orders=2"):
        DiplomacyVectorEnv(1, max_orders=2).reset()
    cases: list[dict[str, Any]] = [
        {"num_envs": 0},
        {"num_envs": 1, "threads": 0},
        {"num_envs": 1, "max_orders": True},
    ]
    for bad in cases:
        with pytest.raises(ValueError, match="must be a positive int"):
            DiplomacyVectorEnv(**bad)
    env._core._poison(1)
    with pytest.raises(EnvError, match="deliberate panic"):
        env.step(hold)
    with pytest.raises(EnvError, match="reset"):
        env.step(hold)
    env.reset()
    env.step(hold)


def test_reset_seeds_are_reproducible() -> None:
    def run(seed: int) -> list[Any]:
        env = DiplomacyVectorEnv(8, max_year=1903)
        obs, infos = env.reset(seed=seed)
        out = []
        for _ in range(15):
            obs, *_rest, infos = env.step(UniformPolicy()(obs, infos, env.seeds))
            out.append(obs["board"].copy())
        return out

    a, b, c = run(1), run(1), run(2)
    assert all((x == y).all() for x, y in zip(a, b, strict=True))
    assert any((x != y).any() for x, y in zip(a, c, strict=True))


def test_the_docs_training_loop_runs() -> None:
    text = (ROOT / "docs" / "env.md").read_text(encoding="utf-8")
    blocks = re.findall(r"<!-- tested -->\s*```python\n(.*?)```", text, re.S)
    assert blocks, "docs/env.md has no tested example"
    for block in blocks:
        exec(compile(block, "docs/env.md", "exec"), {})


def test_a_position_start_and_its_phase_year() -> None:
    position = CodeGame(max_year=1902)
    position.set_orders([])
    position.process()
    later = position.position()  # F1901M
    env = DiplomacyVectorEnv(1, position=later, max_year=1902)
    obs, _ = env.reset()
    assert obs["phase"][0].tolist() == [0, 0, 1, 0, 1, 0, 0]
    assert env.game(0).position().to_json() == later.to_json()
    with pytest.raises(ValueError, match="another map"):
        DiplomacyVectorEnv(1, load_map("ancmed"), position=Position.initial(env.map))


def test_the_core_imports_without_numpy() -> None:
    """``diplo._core`` links the numpy crate, which imports NumPy only when an environment
    is made: importing diplo (and playing on the code API) must not need it."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "sys.modules['numpy'] = None  # importing NumPy now fails\n"
        "import diplo, diplo._core\n"
        "from diplo.engine.codes import CodeGame\n"
        "g = CodeGame(max_year=1901)\n"
        "g.set_orders([]); g.process()\n"
        "print(g.phase)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "F1901M"


def test_gymnasium_conventions() -> None:
    """What Gymnasium's checker asks of an environment, asked of the vector one (the checker
    itself takes single environments only): spaces, seeded determinism, autoreset mode."""
    from gymnasium.utils.env_checker import data_equivalence
    from gymnasium.vector import AutoresetMode, VectorEnv

    env = DiplomacyVectorEnv(3, max_year=1902, copy=True)
    assert isinstance(env, VectorEnv)
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert env.observation_space.shape is None and env.action_space.shape == (3, 7, 18)
    first = env.reset(seed=9)
    again = env.reset(seed=9)
    assert data_equivalence(first, again)
    sample = env.action_space.sample()
    out = env.step(sample)
    assert env.observation_space.contains(out[0])
    env.reset(seed=9)
    assert data_equivalence(out, env.step(sample))
    env.close()
    assert env.closed


def test_send_and_recv_give_what_step_gives() -> None:
    from gymnasium.utils.env_checker import data_equivalence

    stepped = DiplomacyVectorEnv(5, max_year=1902, copy=True)
    sent = DiplomacyVectorEnv(5, max_year=1902, copy=True)
    a: tuple[Any, ...] = stepped.reset(seed=4)
    b: tuple[Any, ...] = sent.reset(seed=4)
    policy = UniformPolicy()
    for _ in range(12):
        actions = policy(a[0], a[-1], stepped.seeds)
        a = stepped.step(actions)
        sent.send(actions)
        with pytest.raises(EnvError, match="under way"):
            sent.step(actions)
        b = sent.recv()
        assert data_equivalence(a, b)
    with pytest.raises(EnvError, match="no step under way"):
        sent.recv()
    with pytest.raises(ValueError, match=r"= -5 is outside -1\.\."):
        sent.send(np.full(sent.action_space.shape, -5))
    sent.close()


def test_a_start_after_the_last_year_is_refused_and_a_game_ends_there() -> None:
    # A game ends as a draw after the last year its calendar plays within the year range
    # (Calendar.last_year, 9998 on the standard map); a start after it could play nothing and is
    # refused, as by CodeGame and Game (issue 46: it was cut, "truncated", at the first step).
    doc = Position.initial(load_map("standard")).to_json()
    doc["phase"] = "F9999M"
    late = Position.from_json(doc, load_map("standard"))
    with pytest.raises(ValueError, match="the position is in 9999, after 9998, the last year"):
        DiplomacyVectorEnv(2, position=late, max_year=None)
    doc["phase"] = "F9998M"
    start = Position.from_json(doc, load_map("standard"))
    env = DiplomacyVectorEnv(2, position=start, max_year=None)
    env.reset()
    hold = np.zeros(env.action_space.shape, dtype=np.int64)
    _o, _r, terminated, truncated, infos = env.step(hold)  # the Fall of 9998
    while not terminated.all():
        assert not truncated.any()
        _o, _r, terminated, truncated, infos = env.step(hold)
    assert not truncated.any() and infos["phases_played"] == 2
    assert (infos["winner"] == -1).all()


@pytest.mark.parametrize("name", ["modern", "known_world_901"])
def test_wide_maps_play_in_the_vector_env(name: str) -> None:
    """Maps over 128 locations (the engine's wider sets), read from MILA's map files."""
    diplomacy = pytest.importorskip("diplomacy", reason="MILA's map files come with diplomacy")
    path = Path(diplomacy.__file__).parent / "maps" / f"{name}.map"
    game_map = load_map(str(path))
    env = DiplomacyVectorEnv(3, game_map, max_year=None, threads=2)
    obs, infos = env.reset(seed=1)
    assert obs["board"].shape[1:] == (len(game_map.locations), 15 + 4 * len(game_map.powers))
    policy = UniformPolicy()
    for _ in range(6):
        codes = [env.codes(i, a) for i, a in enumerate(policy(obs, infos, env.seeds))]
        twin = env.game(0)
        obs, _r, _t, _u, infos = env.step(policy(obs, infos, env.seeds))
        twin.set_orders(codes[0])
        twin.process()
        assert env.game(0).position().to_json() == twin.position().to_json()
        assert env.observation_space.contains(obs)


def test_the_environments_take_a_map_by_name_and_refuse_anything_else() -> None:
    from diplo.env import DiplomacyEnv
    from diplo.model.map import MapError, map_named

    env = DiplomacyVectorEnv(2, "hundred", max_year=1440)
    assert env.map is map_named("hundred")
    assert DiplomacyEnv("standard").map is map_named("standard")
    with pytest.raises(MapError, match="close names: youngstownredux"):
        DiplomacyVectorEnv(2, "youngstown")
    with pytest.raises(TypeError, match="game_map must be a diplo Map or a map's name, got int"):
        DiplomacyEnv(7)  # type: ignore[arg-type]


def test_a_call_while_another_thread_steps_raises_in_use_error() -> None:
    """A step runs with the GIL released: another thread's call on the environment meanwhile is
    refused with the core's ``InUseError`` (not PyO3's borrow error), and the environment plays
    on unharmed."""
    from in_use import refused_while_running

    env = DiplomacyVectorEnv(300, max_year=None)
    env.reset(seed=1)
    hold = np.zeros(env.action_space.shape, dtype=np.int64)
    refused = refused_while_running(lambda: env.step(hold), lambda: env.threads)
    assert isinstance(refused, InUseError), refused
    assert "VectorEnv is in use by another thread" in str(refused)
    assert "borrowed" not in str(refused)
    assert env.threads == 1
    env.threads = 2
    assert env.threads == 2
    env.step(hold)
