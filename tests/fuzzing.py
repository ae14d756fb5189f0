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
from diplo.engine.codes import FastGame, process_batch
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
_JUNK = ["", " ", "  ", "\t", "\n", "\r", "\x00", "\x1b", "\u200b", "\ufeff", "１", "é", "ß", "🙂"]


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
    compare_phase: Callable[[FastGame, Position, list[int]], object],
) -> str:
    """Arbitrary codes, legal ones mixed in, ruled alike by the code API and the reference."""
    position = generated_position(rng)
    game = FastGame(position)
    lists = game.legal_orders()
    codes = [rng.choice(options) for options in lists if rng.random() < 0.7]
    for _ in range(rng.randint(0, 12)):
        roll = rng.random()
        if roll < 0.4:
            codes.append(rng.getrandbits(rng.choice([8, 16, 27, 32, 36, 64])))
        elif roll < 0.8:
            kind = rng.randint(0, 8)
            code = kind | rng.randrange(len(M.locations)) << 4
            code |= rng.randrange(len(M.locations)) << 14
            if kind in (3, 4):
                code |= rng.randrange(len(M.provinces)) << 24
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


def _snapshot(game: FastGame) -> tuple[str, dict[str, Any], bool]:
    return game.phase, game.position().to_json(), game.is_over


def check_fast_calls(
    rng: random.Random,
    generated_position: Callable[[random.Random], Position],
    slow_orders: Callable[[list[int], Position], tuple[dict[str, Any], list[int]]],
) -> str:
    """A random sequence of calls on two games; rejected ones change nothing, accepted ones rule
    as the reference does (the pending orders are checked by processing a copy)."""
    games = [FastGame(generated_position(rng), max_year=1906) for _ in range(2)]
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
