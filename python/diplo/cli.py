"""The ``diplo`` command line: ``adjudicate``, ``datc``, ``play`` and ``bench``.

Every command that rules on orders takes ``--backend rust|python`` (default: the fastest built).
Errors in the input are reported as one clear line on stderr with a non-zero exit status.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, BinaryIO

from .adjudicate import DocumentError, adjudicate_document, adjudicate_document_text
from .backend import check_backend
from .checks import DOCUMENT_LIMIT
from .map import Map, MapError
from .rules import Rules, RulesError
from .variants import add_variant_arguments, variant_arguments


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        return handler(args)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # no traceback ever reaches a user: a bug is one line, exit 3
        print(f"diplo: internal error: {_describe(exc)}", file=sys.stderr)
        return INTERNAL_ERROR


#: The exit status of an unexpected exception (a bug in diplo: there should be none).
INTERNAL_ERROR = 3


def _describe(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    if len(text) > 200:
        text = text[:197] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


@cache
def _parser() -> argparse.ArgumentParser:
    """The command line's parser, built once per process (about 2 ms with every command's
    options: the start-up cost of each ``main`` call of a program that calls it often)."""
    parser = argparse.ArgumentParser(
        prog="diplo",
        description="A Diplomacy adjudicator following the DATC v3.0.",
        epilog=f"The JSON contract (diplo adjudicate's documents): {contract_path()}",
    )
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", required=True)

    adj = sub.add_parser(
        "adjudicate",
        help="rule on one phase given as JSON (see the JSON contract)",
        description="Rule on one phase given as a JSON document; print the ruling and the next "
        "position as JSON.",
        epilog=f"The documents are described in the JSON contract, shipped with the package: "
        f"{contract_path()}",
    )
    adj.add_argument("file", nargs="?", default="-", help="input document, '-' for stdin")
    adj.add_argument("--jsonl", action="store_true", help="one document per line in and out")
    adj.add_argument("--backend", choices=("rust", "python"), default=None)
    adj.add_argument(
        "--indent", type=int, default=None, help="pretty-print the output (not with --jsonl)"
    )
    add_variant_arguments(adj)
    adj.set_defaults(handler=_adjudicate)

    datc = sub.add_parser("datc", help="run the DATC v3.0 conformance suite")
    datc.add_argument(
        "--backend",
        choices=("rust", "python"),
        default=None,
        help="only the object API on this backend",
    )
    datc.add_argument(
        "--path",
        choices=("python", "rust", "fast"),
        action="append",
        default=None,
        help="only this path (repeatable): the object API on the python or rust backend, "
        "or FastGame; default every path that is built",
    )
    datc.add_argument(
        "--fixture",
        type=Path,
        default=None,
        help="a DATC fixture (default: the one shipped in the package)",
    )
    datc.add_argument("--json", action="store_true", help="print the JSON report")
    datc.add_argument("-v", "--verbose", action="store_true", help="list every case")
    datc.add_argument(
        "--engine",
        metavar="CMD",
        action="append",
        default=[],
        help="also run the suite through this command, which must speak the JSON contract in "
        "--jsonl mode (e.g. 'diplo adjudicate --jsonl'); repeatable. Its failures are listed per "
        "section with the reason, and it is timed beside diplo's own command",
    )
    datc.set_defaults(handler=_datc)

    _add_optional_commands(sub)
    return parser


def contract_path() -> Path:
    """Where the JSON contract (``docs/json-contract.md``) is in the installed package."""
    return Path(str(resources.files("diplo") / "docs" / "json-contract.md"))


def _version() -> str:
    from . import __version__
    from .conformance import DATC_VERSION

    return f"diplo {__version__} (DATC v{DATC_VERSION}, Python {sys.version.split()[0]})"


def _add_optional_commands(sub: Any) -> None:
    """Commands that live in their own modules register themselves here."""
    for module_name in ("diplo.play_cli", "diplo.bench", "diplo.render.cli", "diplo.rollouts.cli"):
        try:
            module = __import__(module_name, fromlist=["register"])
        except ImportError:
            continue
        module.register(sub)


# --------------------------------------------------------------------------- adjudicate


def _adjudicate(args: argparse.Namespace) -> int:
    try:
        backend = check_backend(args.backend)
        game_map, rules = variant_arguments(args)
    except (ValueError, MapError, RulesError) as exc:
        return _fail(str(exc))
    if args.jsonl and args.indent is not None:
        return _fail("--indent cannot be used with --jsonl (one output line per input line)")
    if args.indent is not None and not 0 <= args.indent <= 16:
        return _fail(f"--indent must be from 0 to 16, got {args.indent}")
    rule = _Variant(game_map, rules)
    source: BinaryIO
    if args.file == "-":
        source = sys.stdin.buffer
    else:
        try:
            source = open(args.file, "rb")  # noqa: SIM115
        except OSError as exc:
            return _fail(f"cannot read {args.file}: {exc.strerror}")
    with source:
        if args.jsonl:
            return _adjudicate_lines(source, backend, rule)
        data = source.read(DOCUMENT_LIMIT + 1)
    if len(data) > DOCUMENT_LIMIT:
        return _fail(f"the document is larger than the limit of {DOCUMENT_LIMIT} bytes")
    try:
        out = rule.adjudicate(_decode(data), backend)
    except _InputError as exc:
        return _fail(str(exc))
    except DocumentError as exc:
        return _fail(f"bad document: {exc}")
    print(json.dumps(out, indent=args.indent))
    return 0


class _Variant:
    """``--map`` and ``--rules`` of ``diplo adjudicate``: the map and rules of documents that
    name none (a document's own ``"map"`` and ``"rules"`` win)."""

    def __init__(self, game_map: Map | None, rules: Rules | None) -> None:
        self.maps = None if game_map is None else {game_map.name: game_map}
        self.map_name = None if game_map is None else game_map.name
        self.rules = None if rules is None else rules.to_json()

    def adjudicate(self, doc: Any, backend: str) -> dict[str, Any]:
        if isinstance(doc, dict):
            if self.map_name is not None and "map" not in doc:
                doc = {**doc, "map": self.map_name}
            if self.rules is not None and "rules" not in doc:
                doc = {**doc, "rules": self.rules}
        return adjudicate_document(doc, backend, self.maps)

    def adjudicate_text(self, doc: Any, backend: str) -> str:
        """:meth:`adjudicate` as one JSON line (``json.dumps`` of it, byte for byte)."""
        if isinstance(doc, dict):
            if self.map_name is not None and "map" not in doc:
                doc = {**doc, "map": self.map_name}
            if self.rules is not None and "rules" not in doc:
                doc = {**doc, "rules": self.rules}
        return adjudicate_document_text(doc, backend, self.maps)


class _InputError(ValueError):
    """Input that is not a JSON document (encoding, syntax, depth, numbers)."""


def _decode(data: bytes) -> Any:
    """One JSON document from raw bytes, or :class:`_InputError` saying why not."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _InputError(
            f"not UTF-8: byte 0x{data[exc.start]:02x} at offset {exc.start}"
        ) from None
    if not text or text.isspace():  # (no copy of the line, as strip() made)
        raise _InputError("empty input (expected one JSON document)")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _InputError(f"bad JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise _InputError("bad JSON: nested too deeply") from None
    except ValueError as exc:
        if "digits" in str(exc):  # Python reads integers of at most 4,300 digits
            raise _InputError("bad JSON: a number of more than 4300 digits") from None
        raise _InputError(f"bad JSON: {_describe(exc)}") from None


def _adjudicate_lines(source: BinaryIO, backend: str, rule: _Variant) -> int:
    """One output line per input line, whatever the line holds; errors name the line."""
    status = 0
    pending: list[str] = []  # output lines not written yet: written in batches
    size = 0
    write = sys.stdout.write
    adjudicate = rule.adjudicate_text
    for number, line in _lines(source, DOCUMENT_LIMIT):
        try:
            if line is None:
                raise _InputError(f"the line is longer than the limit of {DOCUMENT_LIMIT} bytes")
            text = adjudicate(_decode(line), backend)
        except _InputError as exc:
            text = json.dumps({"error": f"line {number}: {exc}"})
            status = max(status, 1)
        except DocumentError as exc:
            text = json.dumps({"error": f"line {number}: bad document: {exc}"})
            status = max(status, 1)
        except Exception as exc:  # a bug: reported on its line, the stream goes on
            text = json.dumps({"error": f"line {number}: internal error: {_describe(exc)}"})
            status = INTERNAL_ERROR
        pending.append(text)
        size += len(text)
        if size >= _OUTPUT_BATCH:
            pending.append("")
            write("\n".join(pending))
            pending.clear()
            size = 0
    if pending:
        pending.append("")
        write("\n".join(pending))
    return status


#: Characters of output lines gathered before one write (about 16 movement documents).
_OUTPUT_BATCH = 1 << 17


def _lines(source: BinaryIO, limit: int) -> Iterator[tuple[int, bytes | None]]:
    """``(number, line)`` per line split at LF only (a CR inside a line stays in it; a CRLF end
    is dropped), or ``(number, None)`` for a line longer than ``limit`` bytes, skipped in
    bounded chunks."""
    number = 0
    while True:
        line = source.readline(limit + 1)
        if not line:
            return
        number += 1
        if line.endswith(b"\n"):
            line = line[:-1]
            if line.endswith(b"\r"):
                line = line[:-1]
        elif len(line) > limit:
            while True:
                rest = source.readline(1 << 16)
                if not rest or rest.endswith(b"\n"):
                    break
            yield number, None
            continue
        yield number, line


def _fail(message: str) -> int:
    print(f"diplo: {message}", file=sys.stderr)
    return 2


# --------------------------------------------------------------------------- datc


def _datc(args: argparse.Namespace) -> int:
    from .conformance import (
        DATC_VERSION,
        XFAIL,
        available_paths,
        load_cases,
        run_all,
        summary,
    )

    try:
        cases = load_cases(args.fixture)
    except (OSError, ValueError, RecursionError) as exc:
        return _fail(f"cannot read the DATC fixture: {_describe(exc)}")
    built = available_paths()
    paths: list[str] = list(built)
    if args.backend is not None or args.path:
        wanted = [*([args.backend] if args.backend else []), *(args.path or [])]
        missing = [p for p in wanted if p not in built]
        if missing:
            return _fail(
                f"the {missing[0]} path is not built (install diplo with its compiled core)"
            )
        paths = [p for p in built if p in wanted]
    # "backends" keeps its meaning (the object API per backend); "paths" has every path run.
    report: dict[str, Any] = {"datc_version": DATC_VERSION, "backends": {}, "paths": {}}
    failed_any = False
    for path in paths:
        try:
            results = run_all(cases, path)
        except (KeyError, TypeError, AttributeError, IndexError) as exc:
            return _fail(f"malformed DATC fixture: {_describe(exc)}")
        entry = summary(results)
        report["paths"][path] = entry
        if path in ("python", "rust"):
            report["backends"][path] = entry
        failed_any = failed_any or bool(entry["failed"])
        if args.json:
            continue
        title = _PATH_TITLES[path]
        print(f"DATC v{DATC_VERSION}, {title}: {entry['passed']} of {entry['total']} passed")
        sections: dict[str, list[bool]] = {}
        for r in results:
            sections.setdefault(r.case_id.rsplit(".", 1)[0], []).append(r.passed)
        line = "  ".join(f"{s} {sum(v)}/{len(v)}" for s, v in sections.items())
        print(f"  {line}")
        partial = entry["not_expressible"]
        if partial:
            print(
                f"  {len(partial)} cases have orders this path cannot express; "
                "they are checked without them:"
            )
        for r in results:
            if not r.passed or args.verbose or r.not_expressible:
                mark = "ok  " if r.passed else ("XFAIL" if r.case_id in XFAIL else "FAIL")
                print(f"  {mark} {r.case_id} {r.title}")
                for problem in r.problems:
                    print(f"        {problem}")
                for order in r.not_expressible:
                    print(f"        not expressible: {order}")
    if args.engine:
        from .external import datc_engines

        report["engines"], engine_failed = datc_engines(cases, args.engine, args.json, args.verbose)
        failed_any = failed_any or engine_failed
    if args.json:
        print(json.dumps(report, indent=1))
    return 1 if failed_any else 0


_PATH_TITLES = {
    "python": "object API, python backend",
    "rust": "object API, rust backend",
    "fast": "FastGame (order codes)",
}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
