"""The reproducers of issues 13 and 20, one test each: bad input gets a clear error naming what
was wrong, never a traceback, a hang, or a silently changed game; a rejected call leaves state as
it was."""

from __future__ import annotations

import copy
import io
import json
import os
import select
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from diplo.api.backends import backend_for
from diplo.api.game import Game
from diplo.api.phase import process_phase
from diplo.apps import adjudicate as adjudicate_command
from diplo.apps import cli
from diplo.apps.common import INTERNAL_ERROR
from diplo.apps.play import play_game
from diplo.engine import codes as fast
from diplo.engine.codes import CodeGame, encode_order, process_batch
from diplo.formats import gamefile, mila
from diplo.formats.contract import DocumentError, adjudicate_document
from diplo.model import orders
from diplo.model.limits import DOCUMENT_LIMIT, MAX_YEAR, ORDER_LIMIT
from diplo.model.map import Map, MapError, standard_map
from diplo.model.orders import OrderParseError, format_order, parse_order
from diplo.model.position import Dislodged, Phase, Piece, Position, PositionError
from diplo.model.variants import load_map, load_mila_map
from diplo.rollouts.run import run_rollouts

ROOT = Path(__file__).resolve().parent.parent
M = standard_map()


def diplo(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "diplo.apps.cli", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=300,
    )


def code(text: str) -> int:
    return encode_order(parse_order(text, M), M)


# The occupied retreat of the issue: English F BRE on the board, French A PIC dislodged with
# options [BRE, BEL].
OCCUPIED_RETREAT = {
    "phase": "F1901R",
    "units": {"ENGLAND": ["F BRE"], "GERMANY": ["A PIC"]},
    "dislodged": {"FRANCE": {"A PIC": ["BRE", "BEL"]}},
    "orders": {"FRANCE": ["A PIC R BRE"]},
}


# --------------------------------------------------------------------------- silent corruption


def test_an_occupied_retreat_option_is_refused_at_every_entry() -> None:
    with pytest.raises(PositionError, match="cannot retreat to BRE: ENGLAND F BRE stands there"):
        Position.from_json(OCCUPIED_RETREAT, M)
    with pytest.raises(PositionError, match=r"^Position: dislodged A PIC cannot retreat to BRE"):
        Position(
            M,
            Phase(1901, "F", "R"),
            {"BRE": Piece("ENGLAND", "F", "BRE"), "PIC": Piece("GERMANY", "A", "PIC")},
            {},
            {"PIC": Dislodged(Piece("FRANCE", "A", "PIC"), ("BRE", "BEL"))},
        )
    # The JSON contract takes retreat options as given (adjudicate-json.md): the occupied one is
    # left out, so the retreat into BRE is ruled illegal, the unit disbands and F BRE stays.
    for backend in ("rust", "python"):
        out = adjudicate_document(OCCUPIED_RETREAT, backend)
        (result,) = [r for r in out["results"] if r["order"] == "A PIC R BRE"]
        assert not result["legal"] and result["code"] == "illegal"
        assert "cannot retreat to BRE" in result["reason"]
        assert "ENGLAND" in out["next"]["units"] and "F BRE" in out["next"]["units"]["ENGLAND"]
        assert "FRANCE" not in out["next"]["units"]
    # An option the unit could never reach is refused by the contract too.
    with pytest.raises(DocumentError, match="cannot move there"):
        adjudicate_document(
            {**OCCUPIED_RETREAT, "dislodged": {"FRANCE": {"A PIC": ["BRE", "NTH"]}}}
        )
    # The core refuses it too, whoever calls it.
    index = M.location_index
    with pytest.raises(ValueError, match="option BRE holds a unit"):
        fast._core.CodeGame(  # type: ignore[attr-defined]
            fast.code_map(M),
            1901,
            "F",
            "R",
            [(1, 1, index["BRE"])],
            [],
            [((2, 0, index["PIC"]), [index["BRE"], index["BEL"]])],
        )


@pytest.mark.parametrize("backend", ["rust", "python"])
def test_an_occupied_retreat_document_is_one_clear_line_and_the_stream_goes_on(
    backend: str,
) -> None:
    good = {"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}}
    bad = {**OCCUPIED_RETREAT, "dislodged": {"FRANCE": {"A PIC": ["NTH"]}}}
    proc = diplo("adjudicate", "--backend", backend, stdin=json.dumps(OCCUPIED_RETREAT).encode())
    assert proc.returncode == 0, proc.stderr
    assert "F BRE" in json.loads(proc.stdout)["next"]["units"]["ENGLAND"]
    proc = diplo("adjudicate", "--backend", backend, stdin=json.dumps(bad).encode())
    assert proc.returncode == 2 and proc.stdout == b""
    assert proc.stderr.decode().count("\n") == 1 and b"cannot move there" in proc.stderr
    lines = f"{json.dumps(bad)}\n{json.dumps(OCCUPIED_RETREAT)}\n{json.dumps(good)}\n".encode()
    proc = diplo("adjudicate", "--jsonl", "--backend", backend, stdin=lines)
    outputs = [json.loads(line) for line in proc.stdout.splitlines()]
    assert "line 1: bad document" in outputs[0]["error"]
    assert outputs[1]["phase"] == "F1901R" and outputs[2]["phase"] == "S1901M"
    assert proc.returncode == 1 and b"Traceback" not in proc.stderr


def test_unreachable_retreat_options_are_refused() -> None:
    doc = {
        "phase": "F1901R",
        "units": {"GERMANY": ["A BUR"]},
        "dislodged": {"FRANCE": {"A BUR": ["NTH"]}, "ENGLAND": {"F NTH": ["PAR"]}},
    }
    with pytest.raises(PositionError, match="cannot move there"):
        Position.from_json(doc, M)
    # Only retreat phases hold dislodged units.
    with pytest.raises(PositionError, match="only held in retreat phases"):
        Position.from_json({**doc, "phase": "F1901M", "dislodged": {"FRANCE": {"A PAR": []}}}, M)


def test_a_rejected_set_orders_leaves_the_pending_orders_as_they_were() -> None:
    def broken() -> Any:
        yield code("A MAR - BUR")
        raise RuntimeError("the generator broke")

    for bad in ([code("A MAR - BUR"), None], [code("A MAR - BUR"), 1.5], broken(), None):
        game = CodeGame()
        game.set_orders([code("A PAR - BUR")])
        with pytest.raises((ValueError, RuntimeError)):
            game.set_orders(bad)  # type: ignore[arg-type]
        game.process()
        assert game.position().units["BUR"] == Piece("FRANCE", "A", "BUR")
        assert "PAR" not in game.position().units and "MAR" in game.position().units


def test_a_rejected_batch_names_the_game_and_touches_none() -> None:
    g0, g1 = CodeGame(), CodeGame()
    g0.set_orders([code("A PAR - BUR")])
    g1.set_orders([code("A PAR - PIC")])
    with pytest.raises(ValueError, match=r"^games\[1\]: orders\[0\]"):
        process_batch([g0, g1], [[code("A MAR - BUR")], [None]])
    assert g0.phase == g1.phase == "S1901M"
    g0.process()
    g1.process()
    assert g0.position().units["BUR"].loc == "BUR" and "MAR" in g0.position().units
    assert "PIC" in g1.position().units


def test_a_finished_game_in_a_batch_is_named() -> None:
    done = CodeGame(max_year=1901)
    while not done.is_over:
        done.process()
    fresh = CodeGame()
    with pytest.raises(RuntimeError, match=r"games\[1\]: the game is over"):
        process_batch([fresh, done], [[], []])
    assert fresh.phase == "S1901M"


# --------------------------------------------------------------------------- the command line


def jsonl(lines: list[bytes]) -> tuple[list[dict[str, Any]], int]:
    proc = diplo("adjudicate", "--jsonl", stdin=b"\n".join(lines) + b"\n")
    assert b"Traceback" not in proc.stderr
    # A blank input line is answered with a blank line (read here as {}).
    return [json.loads(line) if line else {} for line in proc.stdout.splitlines()], proc.returncode


def test_jsonl_writes_one_line_per_input_line_whatever_it_holds() -> None:
    good = json.dumps({"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}}).encode()
    many_dashes = json.dumps(
        {"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "orders": {"FRANCE": ["-" * 5000]}}
    ).encode()
    lines = [
        good,
        b"\xff\xfe not UTF-8",
        b"",
        b"   \t ",
        good.replace(b", ", b",\r "),  # a bare CR inside a document is JSON whitespace
        b'{"phase": ' + b"1" * 5000 + b"}",
        b"[" * 3000 + b"]" * 3000,
        many_dashes,
        b'{"phase": "S1901M"',
        good + b"\r",  # a CRLF line end
    ]
    outputs, status = jsonl(lines)
    assert len(outputs) == len(lines)
    assert [o.get("phase") for o in outputs] == [
        "S1901M",
        None,
        None,
        None,
        "S1901M",
        None,
        None,
        "S1901M",
        None,
        "S1901M",
    ]
    errors = {i + 1: o["error"] for i, o in enumerate(outputs) if "error" in o}
    for number, error in errors.items():
        assert error.startswith(f"line {number}: "), error
    assert "not UTF-8" in errors[2]
    # Blank lines (JSONL files often end with one) get a blank answer and are no error.
    assert outputs[2] == outputs[3] == {} and 3 not in errors and 4 not in errors
    assert "more than 4300 digits" in errors[6]
    assert "nested too deeply" in errors[7]
    assert "bad JSON" in errors[9]
    assert outputs[7]["results"][0]["code"] == "illegal"
    assert status == 1


def test_jsonl_refuses_indent_and_indent_is_bounded() -> None:
    proc = diplo("adjudicate", "--jsonl", "--indent", "2", stdin=b"{}\n")
    assert proc.returncode == 2 and b"--indent cannot be used with --jsonl" in proc.stderr
    proc = diplo("adjudicate", "--indent", "100000000", stdin=b"{}")
    assert proc.returncode == 2 and b"--indent must be from 0 to 16" in proc.stderr


def test_an_unexpected_exception_is_one_line_and_exit_3(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def boom(*_: object) -> dict[str, Any]:
        raise KeyError("a bug")

    monkeypatch.setattr(adjudicate_command, "adjudicate_document", boom)
    monkeypatch.setattr(adjudicate_command, "adjudicate_document_text", boom)  # what --jsonl calls

    class Stdin:
        buffer = io.BytesIO(b'{"phase": "S1901M"}')

    monkeypatch.setattr(sys, "stdin", Stdin)
    assert cli.main(["adjudicate"]) == INTERNAL_ERROR
    err = capsys.readouterr().err
    assert err == "diplo: internal error: KeyError: 'a bug'\n"
    # In a stream, the line says so and the rest goes on.
    Stdin.buffer = io.BytesIO(b'{"phase": "S1901M"}\n{"phase": "S1901M"}\n')
    assert cli.main(["adjudicate", "--jsonl"]) == INTERNAL_ERROR
    out = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["error"] for line in out] == [
        "line 1: internal error: KeyError: 'a bug'",
        "line 2: internal error: KeyError: 'a bug'",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--max-year", "1800"], "before 1901"),
        (["--max-year", "-5"], "before 1901"),
        (["--max-year", str(2**70)], "after 9998"),
        (["--save", "/nonexistent/dir/g.json"], "does not exist"),
    ],
)
def test_play_refuses_bad_arguments_before_playing(args: list[str], message: str) -> None:
    proc = diplo("play", "--quiet", *args)
    assert proc.returncode == 2 and proc.stdout == b""
    assert message in proc.stderr.decode() and b"Traceback" not in proc.stderr


def test_error_messages_quote_little_and_speak_json() -> None:
    with pytest.raises(DocumentError) as info:
        adjudicate_document({"phase": "S1901M", "units": {"FRANCE": ["A " + "X" * 2_000_000]}})
    assert len(str(info.value)) < 300
    with pytest.raises(DocumentError, match=r"not null$"):
        adjudicate_document({"phase": "S1901M", "units": {"FRANCE": [None]}})
    with pytest.raises(DocumentError, match=r"got true$"):
        adjudicate_document({"phase": "S1901M", "dislodged": {}, "centers": {"FRANCE": [True]}})
    with pytest.raises(DocumentError, match="unknown map null"):
        adjudicate_document({"phase": "S1901M", "map": None})
    out = adjudicate_document(
        {"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "orders": {"FRANCE": [None, True]}}
    )
    assert [r["order"] for r in out["results"][:2]] == ["null", "true"]


# --------------------------------------------------------------------------- parsing


def test_long_runs_of_dashes_are_parse_errors_not_recursion_errors() -> None:
    for text in ("-" * 499, "A PAR " + "-" * 490, "a-" * 249, " " * 499, "-" * 100_000):
        with pytest.raises(OrderParseError):
            parse_order(text, M)


def test_dash_splitting_looks_up_a_bounded_number_of_prefixes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = 0
    real = orders._is_location

    def counting(word: str, game_map: Any) -> bool:
        nonlocal calls
        calls += 1
        return real(word, game_map)

    monkeypatch.setattr(orders, "_is_location", counting)
    with pytest.raises(OrderParseError):
        parse_order("a-" * 249, M)
    assert calls <= 64  # prefixes of at most 64 characters: linear in the input
    assert parse_order("A PAR-BUR", M) == parse_order("A PAR - BUR", M)
    assert parse_order("F Spain(nc)-Mid-Atlantic", M) == parse_order("F SPA/NC - MAO", M)


def test_orders_beyond_the_limit_or_with_control_characters_are_refused() -> None:
    with pytest.raises(OrderParseError, match=f"longer than {ORDER_LIMIT} characters"):
        parse_order("A PAR - BUR" + " " * ORDER_LIMIT, M)
    with pytest.raises(OrderParseError, match="control character U\\+0000"):
        parse_order("A PAR\x00 - BUR", M)
    with pytest.raises(OrderParseError, match="unknown coast 'xc' of SPA in the destination"):
        parse_order("F MAO - SPA/XC", M)


@pytest.mark.parametrize(
    ("unit", "message"),
    [
        ("A P.A.R!!!", "as the map's abbreviation, PAR"),
        ("A PAR\x00", "unknown province"),
        ("A Paris", "as the map's abbreviation, PAR"),
        ("F SPA/XC", "unknown coast 'XC' of SPA"),
        ("F STP/EC", "unknown coast 'EC' of STP"),
        ("A  PAR", "bad unit"),
    ],
)
def test_position_documents_are_read_strictly(unit: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        Position.from_json({"phase": "S1901M", "units": {"FRANCE": [unit]}}, M)


@pytest.mark.parametrize(
    "phase", ["S１９０１M", "S٠١٩٠١M", "F99999M", "S-1M", "S10000M", "S01901M", "S1901M\x00"]
)
def test_phases_outside_the_ascii_year_range_are_refused(phase: str) -> None:
    with pytest.raises(PositionError, match="bad phase"):
        Phase.parse(phase)


def test_year_zero_is_a_year() -> None:
    # godip's northseawars starts in year 0; MILA writes it with four digits.
    assert Phase.parse("S0M") == Phase.parse("S0000M") == Phase(0, "S", "M")
    assert str(Phase(0, "W", "A")) == "W0A"
    with pytest.raises(PositionError, match="four digits"):
        Phase.parse("S00M")


# --------------------------------------------------------------------------- next is valid input


def test_the_last_year_is_refused_rather_than_written_as_an_invalid_next() -> None:
    doc = {"phase": f"W{MAX_YEAR}A", "units": {"FRANCE": ["A PAR"]}, "centers": {"FRANCE": ["PAR"]}}
    with pytest.raises(DocumentError, match=f"cannot go past the year {MAX_YEAR}"):
        adjudicate_document(doc)
    position = Position.from_json(doc, M)
    # A game cannot start there: every game ends after the last year its calendar plays
    # (Calendar.last_year, 9998 here: issue 46), so the engine never meets such a phase.
    with pytest.raises(ValueError, match=f"the position is in {MAX_YEAR}, after 9998"):
        CodeGame(position)
    # Spring of the last year still plays, and its next phase is accepted input.
    spring = Position.from_json({**doc, "phase": f"S{MAX_YEAR}M"}, M)
    out = adjudicate_document({**spring.to_json(), "orders": {}})
    assert Position.from_json(out["next"], M).phase == Phase(MAX_YEAR, "F", "M")


def test_max_year_is_checked_alike_by_game_and_fast_game() -> None:
    s1906 = Position.initial(M).with_changes(phase=Phase(1906, "S", "M"))
    for max_year, message in [
        (1800, "before 1901"),
        (2**63, "after 9998"),
        (-5, "before 1901"),
        ("1910", "must be an int"),
    ]:
        with pytest.raises(ValueError, match=message):
            CodeGame(max_year=max_year)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=message):
            Game(max_year=max_year)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="before 1906"):
        CodeGame(s1906, max_year=1905)
    with pytest.raises(ValueError, match="before 1906"):
        Game.from_position(s1906, max_year=1905)


def test_batch_threads_are_bounded() -> None:
    game = CodeGame()
    for threads in (2**70, 0, -1, fast.MAX_THREADS + 1):
        with pytest.raises(ValueError, match="threads must be from 1"):
            process_batch([game], [[]], threads=threads)
    assert game.phase == "S1901M"


# --------------------------------------------------------------------------- unknown powers


def test_unknown_powers_are_refused_everywhere() -> None:
    position = Position.initial(M)
    with pytest.raises(ValueError, match="unknown power 'NARNIA'"):
        process_phase(position, {"NARNIA": ["A PAR H"]})
    with pytest.raises(ValueError, match="unknown power 'NARNIA'"):
        Game().set_orders("NARNIA", ["A PAR H"])
    with pytest.raises(DocumentError, match="unknown power 'NARNIA'"):
        adjudicate_document({"phase": "S1901M", "orders": {"NARNIA": ["A PAR H"]}})


@pytest.mark.parametrize(
    ("units", "centers", "message"),
    [
        ({"PAR": Piece("FRANCE", "A", ["PAR"])}, {}, "unknown location"),  # type: ignore[arg-type]
        ({"PAR": Piece(["FRANCE"], "A", "PAR")}, {}, "unknown power"),  # type: ignore[arg-type]
        ({"PAR": Piece("FRANCE", "X", "PAR")}, {}, "not A or F"),  # type: ignore[arg-type]
        ({"BUR": Piece("FRANCE", "A", "PAR")}, {}, "filed under 'BUR'"),
        ({"STP": Piece("RUSSIA", "F", "STP")}, {}, "one of its coasts"),
        ({"MUN": Piece("GERMANY", "F", "MUN")}, {}, "cannot stand inland"),
        ({"SPA/NC": Piece("FRANCE", "A", "SPA/NC")}, {}, "not a coast"),
        ({}, {"BUR": "FRANCE"}, "not a supply centre"),
        ({}, {"PAR": "NARNIA"}, "unknown power 'NARNIA'"),
        ({}, {"PAR": ["FRANCE"]}, "unknown power"),
    ],
)
def test_positions_built_in_memory_are_checked(
    units: dict[str, Piece], centers: dict[str, Any], message: str
) -> None:
    with pytest.raises(PositionError, match=message):
        Position(M, Phase(1901, "S", "M"), units, centers)
    with pytest.raises(PositionError, match=f"^CodeGame: .*{message}"):
        Position(M, Phase(1901, "S", "M"), units, centers, {}, "CodeGame")


def test_documents_beyond_the_size_limit_are_refused_and_the_stream_goes_on(
    tmp_path: Path,
) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (DOCUMENT_LIMIT + 1))
    proc = diplo("adjudicate", str(big))
    assert proc.returncode == 2 and b"larger than the limit" in proc.stderr
    good = json.dumps({"phase": "S1901M"}).encode()
    outputs, status = jsonl([b"[" + b" " * DOCUMENT_LIMIT + b"]", good])
    assert "line 1: the line is longer than the limit" in outputs[0]["error"]
    assert outputs[1]["phase"] == "S1901M" and status == 1


# =========================================================================== issue 20
# Hostile input, round two: each reproducer of the issue (outside the pictures), one test.

SURROGATE_DOC = {
    **Position.initial(M).to_json(),
    "orders": {"FRANCE": ["A PAR - BUR\ud800", "\ud800", "F BRE\udfff - MAO"]},
}


def test_a_lone_surrogate_in_an_order_is_ruled_not_an_internal_error() -> None:
    """JSON ``"\\ud800"`` is valid JSON but no UTF-8: the engine cannot take the text, so the
    adapter reads it in Python, and both backends rule alike."""
    text = json.dumps(SURROGATE_DOC).encode()
    plain = diplo("adjudicate", "-", stdin=text)
    assert plain.returncode == 0, plain.stderr
    lines = diplo("adjudicate", "--jsonl", stdin=text + b"\n")
    assert lines.returncode == 0, lines.stdout
    ruled = json.loads(plain.stdout)
    assert json.loads(lines.stdout) == ruled
    assert ruled == adjudicate_document(SURROGATE_DOC, "python")
    assert adjudicate_document(SURROGATE_DOC, "rust") == ruled


@pytest.mark.parametrize("phase", ["S0001M", "S00001M", "S1901M\ud800"])
def test_a_phase_that_cannot_be_read_is_a_bad_document_not_an_internal_error(phase: str) -> None:
    doc = json.dumps({**Position.initial(M).to_json(), "phase": phase}).encode()
    plain = diplo("adjudicate", "-", stdin=doc)
    lines = diplo("adjudicate", "--jsonl", stdin=doc + b"\n")
    for out in (plain.stdout + plain.stderr, lines.stdout):
        assert b"internal error" not in out, out
    if plain.returncode != 0:  # (a phase the model learns to read is ruled instead)
        assert plain.returncode == 2 and b"bad document" in plain.stderr, plain.stderr
        assert json.loads(lines.stdout)["error"].startswith("line 1: bad document")


DAEMON_AT_EXIT = """
import threading, time
from diplo.engine.codes import CodeGame, process_batch
def loop():
    while True:
        games = [CodeGame() for _ in range(48)]
        for _ in range(4):
            process_batch(games, [[o[0] for o in g.legal_orders()] for g in games], threads=2)
threading.Thread(target=loop, daemon=True).start()
time.sleep(0.3)
"""


def test_the_interpreter_exits_cleanly_with_a_daemon_thread_inside_a_batch() -> None:
    """At exit CPython ends daemon threads that ask for the GIL back; a thread inside
    ``process_batch`` then parks instead (the forced unwind would abort the process)."""
    for _ in range(4):
        proc = subprocess.run(
            [sys.executable, "-c", DAEMON_AT_EXIT], capture_output=True, timeout=120, cwd=ROOT
        )
        assert proc.returncode == 0, proc.stderr[-2000:]


def test_a_fast_game_used_by_another_call_gives_a_clear_error() -> None:
    """A CodeGame held by one call (here ``set_orders``, re-entered from an item's
    ``__index__``; across threads, a running ``process_batch``) is refused clearly."""
    game = CodeGame()
    seen: list[Exception] = []

    class Peek:
        def __index__(self) -> int:
            try:
                game.phase  # noqa: B018
            except RuntimeError as exc:
                seen.append(exc)
            return 0

    game.set_orders([Peek()])  # type: ignore[list-item]
    assert len(seen) == 1
    # The core's own error kind, not PyO3's borrow error recognised by its text.
    assert isinstance(seen[0], fast.InUseError) and seen[0].index is None, seen
    assert "in use by another thread" in str(seen[0]), seen
    assert "borrowed" not in str(seen[0])
    assert game.phase == "S1901M"


def test_threads_sharing_a_game_with_a_running_batch_get_the_clear_error() -> None:
    games = [CodeGame() for _ in range(300)]
    errors: list[str] = []
    stop = threading.Event()

    def batches() -> None:
        for _ in range(6):
            process_batch(games, [[o[0] for o in g.legal_orders()] for g in games], threads=2)
        stop.set()

    def reader() -> None:
        while not stop.is_set():
            for g in games[::50]:
                try:
                    g.phase  # noqa: B018
                    g.legal_orders()
                except fast.InUseError as exc:
                    errors.append(str(exc))

    workers = [threading.Thread(target=reader), threading.Thread(target=batches)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert all("in use by another thread" in e for e in errors), set(errors)


def test_a_game_a_batch_cannot_take_is_named_by_its_index() -> None:
    # Given twice (or held by another thread: the core cannot tell which), the second place
    # refuses it: ValueError with that place as its index, and no game of the batch played.
    games = [CodeGame(), CodeGame()]
    orders = [[o[0] for o in g.legal_orders()] for g in games]
    with pytest.raises(ValueError, match=r"games\[2\] appears twice") as caught:
        process_batch([games[0], games[1], games[0]], [*orders, orders[0]])
    assert getattr(caught.value, "index", None) == 2
    assert [g.phase for g in games] == ["S1901M", "S1901M"]


def test_set_orders_refuses_a_list_that_changes_while_it_is_read() -> None:
    game = CodeGame()
    codes = [options[0] for options in game.legal_orders()]

    class Clearing:
        def __init__(self, items: list[Any]) -> None:
            self.items = items

        def __index__(self) -> int:
            self.items.clear()
            return codes[0]

    for call in (
        lambda items: game.set_orders(items),
        lambda items: process_batch([game], [items]),
        lambda items: fast.pack_orders([items]),
    ):
        items: list[Any] = list(codes)
        items.insert(0, Clearing(items))
        with pytest.raises(ValueError, match="changed while they were read"):
            call(items)
    game.process()  # the game was left as it was: it processes its (empty) orders
    assert game.phase == "F1901M"


PANICS = """
import diplo._core as core
from diplo.engine.codes import CodeGame
try:
    core._panic_for_test("boom")
except RuntimeError as exc:
    print(exc)
game = CodeGame()
game._core._poison()
try:
    game.process()
except RuntimeError as exc:
    print(exc)
"""


def test_caught_panics_print_nothing_to_stderr() -> None:
    env = {k: v for k, v in os.environ.items() if k != "DIPLO_PANIC_TRACE"}
    env["RUST_BACKTRACE"] = "1"  # (Rust's own hook would print a backtrace)
    proc = subprocess.run(
        [sys.executable, "-c", PANICS], capture_output=True, timeout=120, cwd=ROOT, env=env
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == b"", proc.stderr[:2000]
    said = proc.stdout.decode().splitlines()
    assert said[0].startswith("internal error in the diplo core: boom (at rust/src/")
    assert said[1].startswith("internal error in the diplo engine: deliberate panic")


# --------------------------------------------------------------------------- silent changes


def played_game() -> Game:
    game = Game(max_year=1902)
    game.set_orders("FRANCE", ["A PAR - BUR", "F BRE - MAO"])
    game.process()
    return game


def test_pending_orders_that_are_a_string_are_refused_not_split() -> None:
    data = gamefile.to_json(played_game())
    data["status"]["pending_orders"] = {"FRANCE": "A BUR - MUN"}
    with pytest.raises(gamefile.GameFileError, match="must be a list of strings"):
        gamefile.from_json(data)
    data["status"]["pending_orders"] = {"FRANCE": ["A BUR - MUN"]}
    assert gamefile.from_json(data).orders == {"FRANCE": ["A BUR - MUN"]}


def drawn_mila() -> dict[str, Any]:
    game = played_game()
    for power in game.voters():
        if not game.is_over:
            game.propose_draw(power)
    assert game.end_reason == "draw_vote"
    return mila.game_to_mila(game)


def test_a_mila_draw_is_taken_when_its_powers_and_board_are_diplos() -> None:
    game = mila.game_from_mila(drawn_mila())
    assert game.end_reason == "draw_vote" and game.winner is None


def completed_note(data: dict[str, Any], note: str) -> dict[str, Any]:
    data["phases"][-1]["state"]["note"] = note
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: completed_note(d, "Victory by: NAR, ZZZ"), "not a power of standard"),
        (lambda d: completed_note(d, "Victory by: FRA, ENG"), "the powers on the board are"),
        (
            lambda d: d["phases"][-1]["state"]["units"]["FRANCE"].append("A PIC"),
            "units: diplo also has",
        ),
        (lambda d: d["phases"].insert(1, copy.deepcopy(d["phases"][-1])), "must be the last"),
    ],
)
def test_a_mila_completed_entry_is_checked_before_it_ends_the_game(
    change: Callable[[dict[str, Any]], object], message: str
) -> None:
    data = drawn_mila()
    change(data)
    with pytest.raises(mila.MilaError, match=message):
        mila.game_from_mila(data)


def test_a_mila_map_may_include_a_file_only_once(tmp_path: Path) -> None:
    """Each level including the next ten times grew ten times per level; now a second include
    of a file is refused at once."""
    source = Path(diplomacy_maps()) / "standard.map"
    (tmp_path / "standard.map").write_bytes(source.read_bytes())
    for level in range(6):
        (tmp_path / f"l{level}.map").write_text(f"USE l{level + 1}\n" * 10)
    (tmp_path / "l6.map").write_text("USE standard\n")
    with pytest.raises(MapError, match="included a second time"):
        load_mila_map(tmp_path / "l0.map")
    (tmp_path / "once.map").write_text("USE standard\n")
    assert len(load_mila_map(tmp_path / "once.map").locations) == 81


def diplomacy_maps() -> Path:
    mila_package = pytest.importorskip("diplomacy")
    return Path(mila_package.__file__).parent / "maps"


# --------------------------------------------------------------------------- super-linear


def test_thousands_of_conflicting_orders_are_all_refused_as_multiple() -> None:
    """The multiple-order check groups the orders once (it rescanned every order for each: 8,000
    orders took 16 s); the ruling is the same on both backends (growth: tools/limits_growth.py)."""
    orders = ["A PAR H", "A PAR - BUR", "A PAR - PIC", "A PAR - GAS"] * 500
    doc = {**Position.initial(M).to_json(), "orders": {"FRANCE": orders}}
    ruled = adjudicate_document(doc, "rust")
    assert ruled == adjudicate_document(doc, "python")
    refused = [r for r in ruled["results"] if r["unit"] == "A PAR" and r["given"]]
    assert len(refused) == 2000
    assert all("was given 4 different orders" in r["reason"] for r in refused)


def grid_map(n: int) -> Map:
    """A custom map: an ``n`` by ``n`` grid of seas full of fleets, four shores at its corners."""
    seas = [f"S{r}X{c}" for r in range(n) for c in range(n)]
    shores = [f"C{k}" for k in range(4)]
    provinces = [
        {"abbr": s, "name": f"Sea {s}", "type": "sea", "center": False, "coasts": [], "aliases": []}
        for s in seas
    ] + [
        {"abbr": s, "name": f"Shore {s}", "type": "coast", "center": True, "coasts": []}
        for s in shores
    ]
    edges = [[f"S{r}X{c}", f"S{r}X{c + 1}"] for r in range(n) for c in range(n - 1)]
    edges += [[f"S{r}X{c}", f"S{r + 1}X{c}"] for r in range(n - 1) for c in range(n)]
    edges += [["C0", "S0X0"], ["C1", f"S0X{n - 1}"], ["C2", f"S{n - 1}X0"]]
    edges += [["C3", f"S{n - 1}X{n - 1}"]]
    half = len(seas) // 2
    return Map.from_dict(
        {
            "name": f"grid{n}",
            "first_phase": "S1901M",
            "powers": {
                "NORTH": {
                    "adjective": "Northern",
                    "homes": ["C0", "C1"],
                    "units": ["A C0", *(f"F {s}" for s in seas[:half])],
                },
                "SOUTH": {
                    "adjective": "Southern",
                    "homes": ["C2", "C3"],
                    "units": ["A C2", *(f"F {s}" for s in seas[half:])],
                },
            },
            "provinces": provinces,
            "army_edges": [["C0", "C1"], ["C2", "C3"]],
            "fleet_edges": edges,
        }
    )


def test_the_engine_plays_a_map_whose_convoy_routes_would_explode() -> None:
    """A grid of seas has millions of minimal convoy routes: beyond ``MAX_SEA_CHAINS`` the
    engine decides convoys by the shortest chains, as the reference does (it refused the map:
    walking every route took 15 s per phase), so it plays the map and agrees with the
    reference; small grids list the routes."""
    big = grid_map(7)
    assert backend_for("rust", big).name == "rust"
    games = [play_game(3, 1902, backend, game_map=big) for backend in ("rust", "python")]
    assert [r.outcome for r in games[0].history] == [r.outcome for r in games[1].history]
    assert games[0].position == games[1].position
    small = CodeGame(Position.initial(grid_map(4)))
    army = next(k for k, (_, key) in enumerate(small.slots()) if key == "C0")
    moves = {format_order(fast.decode_order(c, small.map)) for c in small.legal_orders()[army]}
    assert {"C0 - C3 VIA", "C0 - C2 VIA"} <= moves, moves


# --------------------------------------------------------------------------- the stream


def test_jsonl_answers_each_line_as_it_is_ruled() -> None:
    """A client writes one document, waits for its ruling, writes the next: every answer comes
    while the input is still open (it came only at the end of the input)."""
    doc = json.dumps({**Position.initial(M).to_json(), "orders": {"FRANCE": ["A PAR - BUR"]}})
    proc = subprocess.Popen(
        [sys.executable, "-m", "diplo.apps.cli", "adjudicate", "--jsonl"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for k, line in enumerate([doc, "not json", doc]):
            proc.stdin.write(line.encode() + b"\n")
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], 60)
            assert ready, f"no answer to line {k + 1} within 60 s"
            answer = json.loads(proc.stdout.readline())
            assert ("error" in answer) == (line == "not json"), answer
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
        proc.stdout.close()
        assert proc.stderr is not None
        proc.stderr.close()
    assert proc.returncode == 1


@pytest.mark.parametrize("name", [None, 5, b"standard", "standard\x00"])
def test_a_map_that_is_no_name_or_path_is_a_map_error(name: Any) -> None:
    """``run_rollouts(map_name=None)`` raised ``TypeError`` from pathlib (found by the
    rollouts fuzz surface); every front door that loads a map by name or path says what is
    wrong instead."""
    with pytest.raises(MapError, match="map"):
        load_map(name)
    with pytest.raises(ValueError, match="map"):
        run_rollouts(1, "/nonexistent-never-written", workers=1, backend="local", map_name=name)


def test_jsonl_blank_lines_alone_are_no_failure_and_a_closed_output_is() -> None:
    good = json.dumps({"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}}).encode()
    proc = diplo("adjudicate", "--jsonl", stdin=good + b"\n\n  \n" + good + b"\n\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split(b"\n")[1:3] == [b"", b""] and proc.stdout.count(b"\n") == 5
    # Standard output closed before the answers: they are lost, so the run fails, saying so.
    import subprocess

    reader, writer = os.pipe()
    os.close(reader)
    try:
        closed = subprocess.run(
            [sys.executable, "-m", "diplo", "adjudicate", "--jsonl"],
            input=good + b"\n",
            stdout=writer,
            stderr=subprocess.PIPE,
            timeout=120,
        )
    finally:
        os.close(writer)
    assert closed.returncode == 1
    assert b"standard output was closed" in closed.stderr
    assert b"Traceback" not in closed.stderr


def test_a_rollout_player_re_entered_from_its_wording_is_refused_clearly() -> None:
    """The engine's rollout player, held by ``play`` while a wording callback runs, refuses a
    call from that callback with the core's ``InUseError``, not PyO3's borrow error."""
    seen: list[fast.InUseError] = []
    player: Any = None

    def tail(_key: int) -> str:
        try:
            player.take_dataset()
        except fast.InUseError as exc:
            seen.append(exc)
        return ": held."

    player = fast.rollout_player(CodeGame(), tail, lambda _raw: '"worded."')
    player.play(0, True, False)
    assert seen, "the callback was never called"
    assert all("RolloutPlayer is in use" in str(e) and e.index is None for e in seen)
    assert player.take_dataset()[0] == 0  # usable again once play returns
