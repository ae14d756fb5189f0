"""The ``diplo`` command line: ``adjudicate``, ``datc``, ``play`` and ``bench``.

Every command that rules on orders takes ``--backend rust|python`` (default: the fastest built).
Errors in the input are reported as one clear line on stderr with a non-zero exit status.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from .adjudicate import DocumentError, adjudicate_document
from .backend import check_backend


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


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="diplo", description="A Diplomacy adjudicator following the DATC v3.0."
    )
    sub = parser.add_subparsers(dest="command", required=True)

    adj = sub.add_parser(
        "adjudicate", help="rule on one phase given as JSON (see the JSON contract)"
    )
    adj.add_argument("file", nargs="?", default="-", help="input document, '-' for stdin")
    adj.add_argument("--jsonl", action="store_true", help="one document per line in and out")
    adj.add_argument("--backend", choices=("rust", "python"), default=None)
    adj.add_argument("--indent", type=int, default=None, help="pretty-print the output")
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
    datc.add_argument("--fixture", type=Path, default=None, help="path to tests/datc/cases.json")
    datc.add_argument("--json", action="store_true", help="print the JSON report")
    datc.add_argument("-v", "--verbose", action="store_true", help="list every case")
    datc.set_defaults(handler=_datc)

    _add_optional_commands(sub)
    return parser


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
    except ValueError as exc:
        return _fail(str(exc))
    source: TextIO
    if args.file == "-":
        source = sys.stdin
    else:
        try:
            source = open(args.file, encoding="utf-8")  # noqa: SIM115
        except OSError as exc:
            return _fail(f"cannot read {args.file}: {exc.strerror}")
    with source:
        if args.jsonl:
            return _adjudicate_lines(source, backend, args.indent)
        text = source.read()
    try:
        doc = json.loads(text)
        out = adjudicate_document(doc, backend)
    except json.JSONDecodeError as exc:
        return _fail(f"bad JSON: {exc.msg} at line {exc.lineno} column {exc.colno}")
    except DocumentError as exc:
        return _fail(f"bad document: {exc}")
    print(json.dumps(out, indent=args.indent))
    return 0


def _adjudicate_lines(source: TextIO, backend: str, indent: int | None) -> int:
    status = 0
    for number, line in enumerate(source, start=1):
        if not line.strip():
            continue
        try:
            out: dict[str, Any] = adjudicate_document(json.loads(line), backend)
        except json.JSONDecodeError as exc:
            out = {"error": f"line {number}: bad JSON: {exc.msg} at column {exc.colno}"}
            status = 1
        except DocumentError as exc:
            out = {"error": f"line {number}: bad document: {exc}"}
            status = 1
        sys.stdout.write(json.dumps(out, indent=indent) + "\n")
    return status


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
    except (OSError, ValueError) as exc:
        return _fail(str(exc))
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
        results = run_all(cases, path)
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
