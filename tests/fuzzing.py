"""Fuzzing surfaces shared by ``tests/test_fuzz.py`` (hypothesis, fixed seeds, small budget, in CI)
and ``tools/fuzz_long.py`` (the documented long run): each ``check_*`` function takes a
``random.Random`` (hypothesis supplies one through ``st.randoms``), builds one hostile input,
feeds it to one surface and raises ``AssertionError`` on anything but a correct answer or the
surface's documented error.

Surfaces:

* ``check_parser``: order text (keywords, names, dashes, brackets, coasts, unicode, control
  characters, long runs) -> an order that formats and parses back to itself, or
  ``OrderParseError``;
* ``check_contract``: real documents (DATC v3.0 phases and self-play phases of every kind)
  mutated structurally (values replaced by hostile ones, keys dropped or renamed, units moved,
  lists duplicated, deep nesting, huge numbers) -> a ruling on which both backends agree and whose
  ``next`` is accepted input, or ``DocumentError``;
* ``check_game_file``: a saved game (and its MILA export) mutated the same way -> a ``Game``
  (replayed and verified) or ``GameFileError`` / ``MilaError``, nothing else;
* ``check_fast_codes``: a generated position and arbitrary codes -> the code API and the
  reference rule alike (results, implied orders, next position);
* ``check_fast_calls``: a random sequence of valid and invalid calls on games -> every rejected
  call leaves every game exactly as it was, and the accepted ones rule as the reference does.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from functools import cache
from typing import Any

from diplo.api.backends import available_backends
from diplo.api.game import Game, GameOverError
from diplo.api.phase import process_phase
from diplo.api.player import RandomPlayer
from diplo.apps import conformance
from diplo.engine.codes import CodeGame, process_batch
from diplo.formats import gamefile, mila
from diplo.formats.contract import DocumentError, adjudicate_document
from diplo.model.map import standard_map
from diplo.model.orders import OrderParseError, format_order, parse_order, parse_power_order
from diplo.model.position import Position

M = standard_map()

# --------------------------------------------------------------------------- the parser

_WORDS = [
    *(p.abbr for p in M.provinces.values()),
    *(p.name for p in M.provinces.values()),
    *M.locations,
    *("A", "F", "H", "S", "C", "R", "D", "B", "-", "->", "VIA", "via convoy", "by convoy"),
    *("WAIVE", "Build", "Remove", "supports", "convoys", "moves to", "holds", "retreat"),
    *("England:", "FRANCE:", "Narnia:", "German", "(nc)", "(south coast)", "/SC", "/XX"),
    *("north coast", "Mid-Atlantic", "St. Petersburg", "–", "—", "−", "=>", ":", "(", ")"),
]
_JUNK = [
    *("", " ", "  ", "\t", "\n", "\r", "\x00", "\x1b", "\u200b", "\ufeff", "１", "é", "ß", "🙂"),
    *("\ud800", "\udfff"),  # lone surrogates: valid JSON ("\ud800"), no UTF-8
]


def _real_order(rng: random.Random) -> str:
    """A well-formed order in one of the notations people send."""
    loc = rng.choice(M.locations)
    other = rng.choice(M.locations)
    third = rng.choice(M.locations)
    unit = f"{rng.choice(['A', 'F', 'Army', 'Fleet', ''])} {loc}".strip()
    shape = rng.choice(
        [
            f"{unit} H",
            f"{unit} - {other}",
            f"{unit}-{other}",
            f"{unit} -> {other} via",
            f"{unit} S {other}",
            f"{unit} S A {other} - {third}",
            f"{unit} C A {other} - {third}",
            f"{unit} R {other}",
            f"{unit} D",
            f"Build {unit}",
            f"{unit} B",
            "WAIVE",
            f"{rng.choice(M.powers).title()}: {unit} holds",
        ]
    )
    if rng.random() < 0.3:
        name = M.provinces[M.province_of(loc)].name
        shape = shape.replace(loc, name, 1)
    return shape


def order_text(rng: random.Random) -> str:
    """An order-like string: real orders (some slightly damaged), words and separators, junk, and
    now and then a long run."""
    roll = rng.random()
    if roll < 0.45:
        text = _real_order(rng)
        if rng.random() < 0.4:
            text = _edit_string(text, rng)
        return text
    if roll < 0.05:
        unit = rng.choice(["-", "a-", " ", "(", "-(", "a", "–"])
        return unit * rng.randint(1, 700)
    if roll < 0.1:
        return "".join(chr(rng.randint(0, 0x2FF)) for _ in range(rng.randint(0, 40)))
    parts = []
    for _ in range(rng.randint(0, 9)):
        r = rng.random()
        if r < 0.8:
            parts.append(rng.choice(_WORDS))
        else:
            parts.append(rng.choice(_JUNK))
        parts.append(rng.choice([" ", " ", " ", "", "-", "  "]))
    text = "".join(parts)
    if rng.random() < 0.3:
        text = text.lower() if rng.random() < 0.5 else text.upper()
    return text


def check_parser(rng: random.Random) -> str:
    text = order_text(rng)
    try:
        _, order = parse_power_order(text, M)
    except OrderParseError:
        return "refused"
    # What was read is an order the canonical form reads back as the same order.
    assert parse_order(format_order(order), M) == order, (text, order)
    return "parsed"


# --------------------------------------------------------------------------- the contract


@cache
def seed_documents() -> tuple[str, ...]:
    """Real documents as JSON text: every phase of the DATC v3.0 cases, and the phases of three
    short self-play games (movement, retreat and adjustment phases, with the orders the players
    gave)."""
    docs: list[dict[str, Any]] = []
    for case in conformance.load_cases():
        for position, orders, _ in conformance.reference_phases(case, M):
            docs.append({**position.to_json(), "orders": orders})
    for seed in range(3):
        game = Game(max_year=1903)
        player = RandomPlayer(random.Random(seed))
        while not game.is_over:
            position = game.position
            orders = {}
            for power in game.orderable_powers():
                given = [format_order(o) for o in player.orders(position, power)]
                orders[power] = given
                game.set_orders(power, given)
            docs.append({**position.to_json(), "orders": orders})
            game.process()
    return tuple(json.dumps(d) for d in docs)


def _hostile(rng: random.Random) -> Any:
    return rng.choice(
        [
            None,
            True,
            False,
            0,
            -1,
            2**70,
            1e308,
            float("nan") if rng.random() < 0.1 else 1.5,
            "",
            " ",
            "\x00",
            "S1901M",
            "F99999M",
            "A PAR",
            "F STP/XC",
            "PAR",
            "NTH",
            "A P.A.R!!!",
            "x" * rng.randint(100, 5000),
            "-" * rng.randint(100, 2000),
            [],
            {},
            [None],
            {"FRANCE": None},
            _nested(rng.randint(1, 60)),
        ]
    )


def _nested(depth: int) -> Any:
    value: Any = "A PAR"
    for _ in range(depth):
        value = [value]
    return value


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _paths(v, (*prefix, i))
    return out


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def mutate(doc: dict[str, Any], rng: random.Random) -> Any:
    """One to four structural mutations of ``doc`` (a copy is changed)."""
    doc = copy.deepcopy(doc)
    for _ in range(rng.choice([1, 1, 1, 2, 3, 4])):
        paths = _paths(doc)
        if rng.random() < 0.5:
            # Orders are never a reason to refuse a document: aim there often.
            paths = [p for p in paths if p[:1] == ("orders",)] or paths
        path = rng.choice(paths)
        roll = rng.random()
        if not path:
            if roll < 0.05:
                return _hostile(rng)
            continue
        parent = _get(doc, path[:-1])
        key = path[-1]
        value = parent[key]
        if roll < 0.35:
            parent[key] = _hostile(rng)
        elif roll < 0.5 and isinstance(parent, dict):
            del parent[key]
        elif roll < 0.6 and isinstance(parent, dict):
            new = rng.choice(
                [str(key).lower(), "NARNIA", str(key) + " ", "dislodged", "centers", "units"]
            )
            parent[new] = parent.pop(key)
        elif roll < 0.7 and isinstance(parent, list):
            parent.append(copy.deepcopy(value))
        elif roll < 0.85 and isinstance(value, str):
            parent[key] = _edit_string(value, rng)
        elif roll < 0.95 and isinstance(parent, list) and isinstance(value, str):
            parent[key] = f"{rng.choice('AF')} {rng.choice(M.locations)}"
        else:
            parent[key] = _nested(rng.randint(1, 5)) if rng.random() < 0.5 else [value, value]
    return doc


def _edit_string(text: str, rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.3 and text:
        i = rng.randrange(len(text))
        return text[:i] + text[i + 1 :]
    if roll < 0.6:
        i = rng.randint(0, len(text))
        return text[:i] + rng.choice([*_JUNK, *_WORDS, "/", "-", "9"]) + text[i:]
    if roll < 0.8:
        return rng.choice(M.locations)
    return text.swapcase()


def check_contract(rng: random.Random) -> str:
    seeds = seed_documents()
    doc = mutate(json.loads(rng.choice(seeds)), rng)
    outputs = []
    for backend in available_backends():
        try:
            outputs.append(adjudicate_document(doc, backend))
        except DocumentError as exc:
            message = str(exc)
            assert "Traceback" not in message and len(message) < 1000, message
            outputs.append({"error": message})
    # The backends agree, on refusals too.
    first = json.dumps(outputs[0], sort_keys=True)
    for other in outputs[1:]:
        assert json.dumps(other, sort_keys=True) == first, doc
    out = outputs[0]
    if "error" in out:
        return "refused"
    nxt = out["next"]
    if nxt["phase"] is not None:
        # ``next`` is always input the engine accepts.
        position = Position.from_json(nxt, M)
        assert position.to_json() == {k: nxt[k] for k in position.to_json()}
        if position.phase.year < 9999:
            adjudicate_document({**nxt, "orders": {}})
    return "ruled"


# --------------------------------------------------------------------------- game files


@cache
def seed_games() -> tuple[str, str]:
    """A short self-play game as a game file and as a MILA saved game (JSON text)."""
    game = Game(max_year=1902)
    player = RandomPlayer(random.Random(5))
    while not game.is_over:
        for power in game.orderable_powers():
            game.set_orders(power, player.orders(game.position, power))
        game.process()
    return json.dumps(gamefile.to_json(game)), json.dumps(mila.game_to_mila(game))


def check_game_file(rng: random.Random) -> str:
    ours, theirs = seed_games()
    if rng.random() < 0.5:
        doc = mutate(json.loads(ours), rng)
        try:
            gamefile.from_json(doc, verify=rng.random() < 0.5)
        except gamefile.GameFileError as exc:
            assert len(str(exc)) < 2000, str(exc)[:200]
            return "refused"
        return "loaded"
    doc = mutate(json.loads(theirs), rng)
    try:
        mila.game_from_mila(doc)
    except mila.MilaError as exc:
        assert len(str(exc)) < 2000, str(exc)[:200]
        return "refused"
    return "imported"


# --------------------------------------------------------------------------- the code API


def check_fast_codes(
    rng: random.Random,
    generated_position: Callable[[random.Random], Position],
    compare_phase: Callable[[CodeGame, Position, list[int]], object],
) -> str:
    """Arbitrary codes, legal ones mixed in, ruled alike by the code API and the reference."""
    position = generated_position(rng)
    game = CodeGame(position)
    lists = game.legal_orders()
    codes = [rng.choice(options) for options in lists if rng.random() < 0.7]
    for _ in range(rng.randint(0, 12)):
        roll = rng.random()
        if roll < 0.4:
            codes.append(rng.getrandbits(rng.choice([8, 16, 27, 32, 36, 64])))
        elif roll < 0.8:
            kind = rng.randint(0, 8)
            code = kind | rng.randrange(len(M.locations)) << 4
            code |= rng.randrange(len(M.locations)) << 11
            if kind in (3, 4):
                code |= rng.randrange(len(M.provinces)) << 18
            codes.append(code)
        else:
            codes.append(rng.choice([-1, 2**32, 2**64, 2**100, 15, 0xFFFFFFFF]))
    rng.shuffle(codes)
    compare_phase(game, position, codes)
    return position.phase.kind


_BAD_ARGUMENTS: list[Callable[[list[int]], object]] = [
    lambda codes: [*codes, None],
    lambda codes: [*codes, 1.5],
    lambda codes: [*codes, "A PAR H"],
    lambda codes: [*codes, True],
    lambda codes: "A PAR - BUR",
    lambda codes: None,
    lambda codes: 7,
    lambda codes: _raising(codes),
]


def _raising(codes: list[int]) -> Any:
    yield from codes
    raise RuntimeError("a generator that breaks")


def _snapshot(game: CodeGame) -> tuple[str, dict[str, Any], bool]:
    return game.phase, game.position().to_json(), game.is_over


def check_fast_calls(
    rng: random.Random,
    generated_position: Callable[[random.Random], Position],
    slow_orders: Callable[[list[int], Position], tuple[dict[str, Any], list[int]]],
) -> str:
    """A random sequence of calls on two games; rejected ones change nothing, accepted ones rule
    as the reference does (the pending orders are checked by processing a copy)."""
    games = [CodeGame(generated_position(rng), max_year=1906) for _ in range(2)]
    pending: list[list[int]] = [[], []]
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(2)
        game = games[i]
        if game.is_over:
            try:
                game.set_orders([])
            except GameOverError:
                continue
            raise AssertionError("a finished game took orders")
        lists = game.legal_orders()
        codes = [rng.choice(options) for options in lists if rng.random() < 0.8]
        before = [_snapshot(g) for g in games]
        roll = rng.random()
        if roll < 0.3:
            game.set_orders(codes)
            pending[i] = codes
        elif roll < 0.55:
            bad = rng.choice(_BAD_ARGUMENTS)(codes)
            try:
                game.set_orders(bad)  # type: ignore[arg-type]
            except (ValueError, RuntimeError):
                pass
            else:
                raise AssertionError(f"set_orders accepted {bad!r}")
            assert [_snapshot(g) for g in games] == before
        elif roll < 0.75:
            other = rng.randrange(2)
            lists_arg: list[Any] = [codes, codes]
            if other == i:
                lists_arg[1 - i] = rng.choice(_BAD_ARGUMENTS)(codes)
            else:
                lists_arg[i] = rng.choice(_BAD_ARGUMENTS)(codes)
            bad_index = next(
                k
                for k in range(2)
                if not (isinstance(lists_arg[k], list) and lists_arg[k] == codes)
            )
            try:
                process_batch(games, lists_arg, threads=rng.randint(1, 3))
            except (ValueError, RuntimeError) as exc:
                if isinstance(exc, ValueError) and "games[" in str(exc):
                    assert f"games[{bad_index}]" in str(exc), (exc, bad_index)
            else:
                raise AssertionError("process_batch accepted a bad order list")
            assert [_snapshot(g) for g in games] == before
        else:
            position = game.position()
            orders, _ = slow_orders(pending[i], position)
            try:
                expected = process_phase(position, orders, "rust").next
            except ValueError:
                expected = None
            game.process()
            pending[i] = []
            if expected is not None:
                assert game.position() == expected
    return "calls"


# --------------------------------------------------------------------------- the JSONL stream


def check_jsonl(rng: random.Random) -> str:
    """A stream of lines for ``diplo adjudicate --jsonl`` (mutated documents, broken JSON, bytes
    that are not UTF-8, lone surrogates, blank and CRLF lines), ruled in this process: one JSON
    answer line per input line, each the ruling :func:`adjudicate_document` gives or an error
    naming its line (a blank line: a blank answer), never an internal error."""
    import contextlib
    import io

    from diplo.apps.adjudicate import run_jsonl

    seeds = seed_documents()
    lines: list[bytes] = []
    docs: list[Any] = []
    for _ in range(rng.randint(1, 4)):
        roll = rng.random()
        doc: Any = None
        if roll < 0.6:
            doc = mutate(json.loads(rng.choice(seeds)), rng)
            line = json.dumps(doc).encode()
        elif roll < 0.7:
            line = rng.choice([b"", b" ", b"{", b"[]", b"null", b"\xff\xfe", b'"\\ud800"'])
        elif roll < 0.85:
            doc = json.loads(rng.choice(seeds))
            doc.setdefault("orders", {})["FRANCE"] = [rng.choice(["\ud800", "A PAR\udfff H"])]
            line = json.dumps(doc).encode()
        else:
            line = _edit_string(rng.choice(seeds), rng).encode("utf-8", "surrogatepass")
            line = line.replace(b"\n", b" ")  # (one line: a LF would make two)
            doc = None
        if rng.random() < 0.1:
            line += b"\r"
        lines.append(line)
        docs.append(doc)
    backend = rng.choice(["rust", "python", None])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        run_jsonl(io.BytesIO(b"\n".join(lines) + b"\n"), backend)
    answers = out.getvalue().split("\n")
    assert answers[-1] == "", answers[-1][:200]
    answers = answers[:-1]
    assert len(answers) == len(lines), (len(answers), len(lines))
    for number, (answer, doc, line) in enumerate(zip(answers, docs, lines, strict=True), 1):
        if not line.strip():
            # A blank line (only white space) gets a blank answer, and is no error.
            assert answer == "", (number, answer[:200])
            continue
        parsed = json.loads(answer)
        if "error" in parsed:
            assert parsed["error"].startswith(f"line {number}: "), parsed
            assert "internal error" not in parsed["error"], parsed["error"]
        elif doc is not None and rng.random() < 0.3:
            assert parsed == adjudicate_document(doc, backend), number
    return "streamed"


# --------------------------------------------------------------------------- the PettingZoo env


def _env_action(rng: random.Random, masks: Any, slots: int) -> Any:
    import numpy as np

    roll = rng.random()
    if roll < 0.5:  # a legal choice per slot (masked-out entries order nothing)
        return np.array(
            [rng.choice(np.flatnonzero(m).tolist() or [0]) for m in masks], dtype=np.int64
        )
    if roll < 0.7:
        return np.array([rng.randint(-5, 600) for _ in range(slots)])
    return rng.choice(
        [
            None,
            5,
            "A PAR H",
            [],
            [0] * (slots + 1),
            [1.5] * slots,
            [True] * slots,
            [None] * slots,
            [2**70] * slots,
            [float("nan")] * slots,
            np.zeros((slots, 2), dtype=np.int64),
            np.zeros(slots, dtype=np.float64),
            {"a": 1},
            [[0]] * slots,
            ["0"] * slots,
        ]
    )


def check_env(rng: random.Random) -> str:
    """The PettingZoo env under arbitrary actions: a step either plays (observations in their
    spaces, masks matching the legal codes, finite rewards, terminations that end the agents)
    or is refused with ``ValueError`` / ``EnvError`` and changes nothing."""
    import math

    from diplo.env import DiplomacyEnv, EnvError

    env = DiplomacyEnv(max_year=rng.choice([1901, 1902, 1903]))
    obs, infos = env.reset(seed=rng.randint(0, 9))
    steps = 0
    for _ in range(rng.randint(1, 10)):
        if not env.agents:
            obs, infos = env.reset()
        before = (env.game.phase, env.game.state_indices(), list(env.agents))
        actions: Any = {
            agent: _env_action(rng, obs[agent]["action_mask"], env.max_slots)
            for agent in env.agents
            if rng.random() < 0.9
        }
        if rng.random() < 0.05:
            actions[rng.choice(["NARNIA", "france", 7, None])] = [0] * env.max_slots
        if rng.random() < 0.03:
            actions = rng.choice([None, [], "FRANCE", 5])
        try:
            obs, rewards, terms, truncs, infos = env.step(actions)
        except (ValueError, EnvError) as exc:
            message = str(exc)
            assert len(message) < 500 and "Traceback" not in message, message
            assert (env.game.phase, env.game.state_indices(), list(env.agents)) == before
            continue
        steps += 1
        for agent in obs:
            space = env.observation_space(agent)
            assert space.contains(obs[agent]), agent
            counts = [int(m.sum()) for m in obs[agent]["action_mask"]]
            legal = infos[agent]["legal_codes"]
            assert counts[: len(legal)] == [len(o) for o in legal], agent
            assert not any(counts[len(legal) :]), agent
        assert all(isinstance(r, float) and math.isfinite(r) for r in rewards.values()), rewards
        assert set(terms) == set(truncs) == set(rewards)
        assert env.agents == [a for a in terms if not terms[a]]
        if env.game.is_over:
            assert env.agents == []
    return f"steps {min(steps, 3)}+" if steps >= 3 else f"steps {steps}"


# --------------------------------------------------------------------------- the vectorised env


def _vector_action(rng: random.Random, env: Any) -> Any:
    import numpy as np

    shape = (env.num_envs, len(env.powers), env.max_slots)
    roll = rng.random()
    if roll < 0.5:  # a legal choice per slot (0 where a slot has nothing to order)
        counts = env._buffers["legal_counts"]
        return np.array(
            [[[rng.randrange(max(int(c), 1)) for c in row] for row in game] for game in counts],
            dtype=np.int64,
        )
    if roll < 0.7:
        return np.array(
            [[[rng.randint(-5, 600) for _ in range(shape[2])] for _ in range(shape[1])]] * shape[0]
        )
    return rng.choice(
        [
            None,
            5,
            "A PAR H",
            [],
            np.zeros(shape[1:], dtype=np.int64),
            np.zeros((shape[0] + 1, *shape[1:]), dtype=np.int64),
            np.zeros(shape, dtype=np.float64) + 0.5,
            np.full(shape, np.nan),
            np.full(shape, 2**40, dtype=np.int64),
            np.zeros(shape, dtype=np.bool_),
            np.zeros(shape, dtype=np.int64).tolist(),
            {"a": 1},
        ]
    )


def check_vector_env(rng: random.Random) -> str:
    """The vectorised env under arbitrary actions: a step either plays (observations in their
    space, legal counts matching each game's legal codes, finite rewards) or is refused with
    ``ValueError`` / ``EnvError`` and changes no game."""
    import numpy as np

    from diplo.env import DiplomacyVectorEnv, EnvError

    env = DiplomacyVectorEnv(
        rng.randint(1, 3),
        max_year=rng.choice([1901, 1902, 1903]),
        threads=rng.choice([1, 2]),
        copy=True,
    )
    env.reset(seed=rng.randint(0, 9))
    steps = 0
    try:
        for _ in range(rng.randint(1, 8)):
            before = [env.game(i).state_indices() for i in range(env.num_envs)]
            actions = _vector_action(rng, env)
            try:
                obs, rewards, terms, truncs, _infos = env.step(actions)
            except (ValueError, EnvError) as exc:
                message = str(exc)
                assert len(message) < 500 and "Traceback" not in message, message
                assert [env.game(i).state_indices() for i in range(env.num_envs)] == before
                continue
            steps += 1
            assert env.observation_space.contains(obs)
            assert np.isfinite(rewards).all(), rewards
            assert terms.shape == truncs.shape == (env.num_envs,)
            for i in range(env.num_envs):
                counts = obs["legal_counts"][i]
                for p, slots in enumerate(env.legal_codes(i)):
                    assert [int(c) for c in counts[p][: len(slots)]] == [len(o) for o in slots]
                    assert not counts[p][len(slots) :].any()
    finally:
        env.close()
    return f"steps {min(steps, 3)}+" if steps >= 3 else f"steps {steps}"


# --------------------------------------------------------------------------- the MILA drop-in


_MILA_POWERS: list[Any] = ["FRANCE", "england", "Russia", "NARNIA", "", "FRA", None, 7, "TURKEY"]


def _mila_orders(rng: random.Random, game: Any) -> Any:
    possible = game.get_all_possible_orders()
    listed = [o for opts in possible.values() for o in opts]
    roll = rng.random()
    if roll < 0.5 and listed:
        return [rng.choice(listed) for _ in range(rng.randint(0, 6))]
    if roll < 0.7:
        return [order_text(rng) for _ in range(rng.randint(0, 4))]
    if roll < 0.8 and listed:
        return rng.choice(listed)  # one order as a string
    return rng.choice([[], None, 5, [None], [1.5], ["\ud800"], [_nested(30)], ("A PAR H",)])


def _mila_snapshot(game: Any) -> Any:
    state = game.get_state()
    state.pop("timestamp", None)
    return json.dumps(state, sort_keys=True), json.dumps(game.get_orders(), sort_keys=True)


def check_mila_dropin(rng: random.Random) -> str:
    """``diplo.compat.mila.Game`` under random call sequences with arbitrary arguments: a call
    either works (the orders kept are possible orders; the state reads back) or raises
    ``MilaError`` / ``ValueError`` (``TypeError`` saying what an argument must be) and changes
    nothing."""
    from diplo.compat.mila import Game as MilaGame
    from diplo.compat.mila import MilaError as DropInError
    from diplo.formats.mila import position_from_mila

    game = MilaGame()
    calls = 0
    for _ in range(rng.randint(1, 14)):
        power = rng.choice(_MILA_POWERS)
        roll = rng.random()
        before = _mila_snapshot(game)
        try:
            if roll < 0.35:
                game.set_orders(power, _mila_orders(rng, game), replace=rng.random() < 0.7)
            elif roll < 0.5:
                game.process()
            elif roll < 0.6:
                getter = rng.choice(
                    [
                        game.get_units,
                        game.get_centers,
                        game.get_orderable_locations,
                        game.get_orders,
                    ]
                )
                getter(power) if rng.random() < 0.8 else getter()
            elif roll < 0.65:
                game.clear_orders(power if rng.random() < 0.7 else None)
            elif roll < 0.72:
                game.get_power(power)
            elif roll < 0.85:
                state = game.get_state()
                if rng.random() < 0.7:
                    state = mutate(state, rng)
                game.set_state(state, clear_history=rng.random() < 0.3)
            elif roll < 0.9:
                _ = game.result_history, game.order_history, game.outcome
            else:
                _ = game.phase, game.phase_type, game.is_game_done, game.powers
        except (DropInError, ValueError, KeyError, TypeError) as exc:
            if isinstance(exc, KeyError):
                raise AssertionError(f"KeyError, not a clear error: {exc!r}") from None
            message = str(exc)
            # The drop-in raises TypeError, as MILA does, for an argument of the wrong type,
            # saying what it must be; any other TypeError is a bug.
            assert not isinstance(exc, TypeError) or " must be " in message, message
            assert len(message) < 1000 and "Traceback" not in message, message[:200]
            assert _mila_snapshot(game) == before, "a refused call changed the game"
            continue
        calls += 1
        # What the game says of itself holds together.
        state = game.get_state()
        position_from_mila(state)
        if not game.is_game_done:
            possible = game.get_all_possible_orders()
            listed = {o for opts in possible.values() for o in opts}
            for orders in game.get_orders().values():
                assert set(orders) <= listed, (orders, game.phase)
    return "calls"


# --------------------------------------------------------------------------- rollouts


@cache
def _rollout_seed_folder() -> str:
    """A folder with two rollouts (seeds 0 and 1, standard map, to 1902), made once."""
    import tempfile

    from diplo.rollouts.run import run_rollouts

    root = tempfile.mkdtemp(prefix="diplo-fuzz-rollouts-")
    run_rollouts(2, root, workers=1, backend="local", max_year=1902, progress=False)
    return root


def check_rollouts(rng: random.Random) -> str:
    """``run_rollouts`` with arbitrary options and output folders (existing games, mutated or
    truncated game files, junk, a file where a folder goes): a report whose every row has its
    game file, which loads; or ``ValueError`` / ``RolloutError`` / ``OSError``, clearly."""
    import gzip
    import shutil
    import tempfile
    from pathlib import Path

    from diplo.rollouts.play import RolloutError
    from diplo.rollouts.run import run_rollouts

    base = Path(_rollout_seed_folder())
    work = Path(tempfile.mkdtemp(prefix="diplo-fuzz-"))
    try:
        out = work / "out"
        roll = rng.random()
        if roll < 0.7:
            shutil.copytree(base, out)
            files = sorted((out / "games").iterdir())
            for _ in range(rng.randint(0, 2)):
                if not files:
                    break
                victim = rng.choice(files)
                files.remove(victim)  # each file damaged once (a truncated one no longer parses)
                what = rng.random()
                if what < 0.5:
                    victim.write_text(json.dumps(mutate(json.loads(victim.read_text()), rng)))
                elif what < 0.7:
                    victim.write_bytes(victim.read_bytes()[: rng.randint(0, 200)])
                elif what < 0.8:
                    (out / "games" / f"game-{rng.randint(0, 99):06d}.json").write_bytes(b"\xff")
                else:
                    (out / "games" / "notes.txt").write_text("junk")
        elif roll < 0.8:
            out.write_text("a file where the folder goes")
        elif roll < 0.9:
            out = work / "a" / "b" / "ü ∂ 🙂"
        hostile: dict[str, list[Any]] = {
            "games": [-1, 2.5, None, True],
            "first_seed": [-3, 2**70, "0", None],
            "max_year": [1900, 10**6, "1902", 1.5],
            "map_name": ["narnia", "../standard", "", None, "standard\x00"],
            "batch_size": [0, -1, True, 2.0],
            "workers": [0, -2, 1.0, "1"],
        }
        options: dict[str, Any] = {
            "games": rng.choice([0, 1, 2, 2]),
            "first_seed": 0,
            "max_year": 1902,
            "map_name": "standard",
            "batch_size": rng.choice([1, 2, 50]),
            "workers": 1,
        }
        for key, values in hostile.items():
            if rng.random() < 0.08:
                options[key] = rng.choice(values)
        if options["games"] == 2 and rng.random() < 0.8:
            options["first_seed"] = rng.choice([0, 1])  # at most one new game: workers start slowly
        on_disk = {p.name for p in (out / "games").iterdir()} if (out / "games").is_dir() else set()
        try:
            report = run_rollouts(
                options["games"],
                out,
                workers=options["workers"],
                backend="local",
                first_seed=options["first_seed"],
                map_name=options["map_name"],
                max_year=options["max_year"],
                batch_size=options["batch_size"],
                progress=False,
                compress=rng.random() < 0.2,
            )
        except (ValueError, RolloutError, OSError) as exc:
            message = str(exc)
            assert "Traceback" not in message and len(message) < 2000, message[:300]
            return "refused"
        played_now = {r["seed"] for r in report.rows if r["file"][len("games/") :] not in on_disk}
        for row in report.rows:
            path = out / str(row["file"])
            assert path.exists(), (row["file"], sorted(p.name for p in (out / "games").iterdir()))
            # A game played now replays and verifies; one resumed from the folder was read as
            # it is (a stored ruling is not replayed on resume).
            raw = path.read_bytes()
            doc = json.loads(gzip.decompress(raw) if path.name.endswith(".gz") else raw)
            gamefile.from_json(doc, verify=row["seed"] in played_now)
        return "played" if report.played else "resumed"
    finally:
        shutil.rmtree(work, ignore_errors=True)
