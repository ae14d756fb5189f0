"""The reproducers of issue 13, one test each: bad input gets a clear error naming what was wrong,
never a traceback, a hang, or a silently changed game; a rejected call leaves state as it was."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from diplo.api.game import Game
from diplo.api.phase import process_phase
from diplo.apps import adjudicate as adjudicate_command
from diplo.apps import cli
from diplo.apps.common import INTERNAL_ERROR
from diplo.engine import codes as fast
from diplo.engine.codes import FastGame, encode_order, process_batch
from diplo.formats.contract import DocumentError, adjudicate_document
from diplo.model import orders
from diplo.model.limits import DOCUMENT_LIMIT, MAX_YEAR, ORDER_LIMIT
from diplo.model.map import standard_map
from diplo.model.orders import OrderParseError, parse_order
from diplo.model.position import Dislodged, Phase, Piece, Position, PositionError

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
        fast._core.FastGame(  # type: ignore[attr-defined]
            fast.fast_map(M),
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
        game = FastGame()
        game.set_orders([code("A PAR - BUR")])
        with pytest.raises((ValueError, RuntimeError)):
            game.set_orders(bad)  # type: ignore[arg-type]
        game.process()
        assert game.position().units["BUR"] == Piece("FRANCE", "A", "BUR")
        assert "PAR" not in game.position().units and "MAR" in game.position().units


def test_a_rejected_batch_names_the_game_and_touches_none() -> None:
    g0, g1 = FastGame(), FastGame()
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
    done = FastGame(max_year=1901)
    while not done.is_over:
        done.process()
    fresh = FastGame()
    with pytest.raises(RuntimeError, match=r"games\[1\]: the game is over"):
        process_batch([fresh, done], [[], []])
    assert fresh.phase == "S1901M"


# --------------------------------------------------------------------------- the command line


def jsonl(lines: list[bytes]) -> tuple[list[dict[str, Any]], int]:
    proc = diplo("adjudicate", "--jsonl", stdin=b"\n".join(lines) + b"\n")
    assert b"Traceback" not in proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()], proc.returncode


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
    assert "empty" in errors[3] and "empty" in errors[4]
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
    "phase", ["S１９０１M", "S٠١٩٠١M", "F99999M", "S0M", "S10000M", "S01901M", "S1901M\x00"]
)
def test_phases_outside_the_ascii_year_range_are_refused(phase: str) -> None:
    with pytest.raises(PositionError, match="bad phase"):
        Phase.parse(phase)


# --------------------------------------------------------------------------- next is valid input


def test_the_last_year_is_refused_rather_than_written_as_an_invalid_next() -> None:
    doc = {"phase": f"W{MAX_YEAR}A", "units": {"FRANCE": ["A PAR"]}, "centers": {"FRANCE": ["PAR"]}}
    with pytest.raises(DocumentError, match=f"cannot go past the year {MAX_YEAR}"):
        adjudicate_document(doc)
    position = Position.from_json(doc, M)
    game = FastGame(position)
    with pytest.raises(ValueError, match=f"cannot go past the year {MAX_YEAR}"):
        game.process()
    assert game.position() == position and not game.is_over
    with pytest.raises(ValueError, match="the last year"):
        process_batch([game], [[]])
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
            FastGame(max_year=max_year)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=message):
            Game(max_year=max_year)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="before 1906"):
        FastGame(s1906, max_year=1905)
    with pytest.raises(ValueError, match="before 1906"):
        Game.from_position(s1906, max_year=1905)


def test_batch_threads_are_bounded() -> None:
    game = FastGame()
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
    with pytest.raises(PositionError, match=f"^FastGame: .*{message}"):
        Position(M, Phase(1901, "S", "M"), units, centers, {}, "FastGame")


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
