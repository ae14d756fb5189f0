"""``diplo datc``: the DATC v3.0 conformance suite on every path (``diplo.apps.conformance``)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ..model.rules import EDITIONS, Rules, datc_departures
from ..model.wording import fail as _fail
from .common import describe as _describe

EDITION_NAMES = tuple(EDITIONS)


def register(sub: Any) -> None:
    """Add ``diplo datc`` to the command line."""
    datc = sub.add_parser(
        "datc",
        help="run the DATC v3.0 conformance suite",
        description=(
            "Run every case of the DATC v3.0 (the Diplomacy Adjudicator Test Cases) on each path "
            "diplo rules by: the object API on the python and rust backends, and the code API "
            "(CodeGame). Prints the passed count per path; exit status 1 if any case fails (under "
            "--edition, a case the edition documents as ruled otherwise is a departure, not a "
            "failure)."
        ),
    )
    datc.add_argument(
        "--backend",
        choices=("rust", "python"),
        default=None,
        help="only the object API on this backend",
    )
    datc.add_argument(
        "--path",
        choices=("python", "rust", "codes", "fast"),
        action="append",
        default=None,
        help="only this path (repeatable): the object API on the python or rust backend, "
        "or CodeGame (codes; fast is its old name); default every path that is built",
    )
    datc.add_argument(
        "--fixture",
        type=Path,
        default=None,
        help="a DATC fixture (default: the one shipped in the package)",
    )
    datc.add_argument(
        "--edition",
        choices=EDITION_NAMES,
        default=None,
        help="play every case under this edition's rulings (default: today's, 2023); the "
        "expectations stay the DATC's preferred rulings: a case the edition documents as ruled "
        "otherwise is reported as a departure with its reason (the exit status counts only "
        "unexpected failures), any other difference fails (the cases whose notes name an "
        "edition still run under that one)",
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


def _datc(args: argparse.Namespace) -> int:
    from .conformance import (
        DATC_VERSION,
        XFAIL,
        available_paths,
        load_cases,
        load_edition_cases,
        run_all,
        run_edition_cases,
        summary,
    )

    try:
        cases = load_cases(args.fixture)
    except json.JSONDecodeError as exc:
        return _fail(f"cannot read the DATC fixture: not JSON: {exc.msg} at line {exc.lineno}")
    except ValueError as exc:  # the shape of the fixture, said by load_cases
        return _fail(f"cannot read the DATC fixture: {exc}")
    except (OSError, RecursionError) as exc:
        return _fail(f"cannot read the DATC fixture: {_describe(exc)}")
    built = available_paths()
    paths: list[str] = list(built)
    if args.backend is not None or args.path:
        named = ["codes" if p == "fast" else p for p in args.path or []]
        wanted = [*([args.backend] if args.backend else []), *named]
        missing = [p for p in wanted if p not in built]
        if missing:
            return _fail(
                f"the {missing[0]} path is not built (install diplo with its compiled core)"
            )
        paths = [p for p in built if p in wanted]
    # "backends" keeps its meaning (the object API per backend); "paths" has every path run.
    report: dict[str, Any] = {"datc_version": DATC_VERSION, "backends": {}, "paths": {}}
    rules = None
    departures: dict[str, str] = {}
    if args.edition is not None:
        rules = Rules(edition=args.edition)
        report["edition"] = args.edition
        departures = datc_departures(args.edition)
    failed_any = False
    for path in paths:
        try:
            results = run_all(cases, path, rules=rules)
        except (KeyError, TypeError, AttributeError, IndexError) as exc:
            return _fail(f"malformed DATC fixture: {_describe(exc)}")
        entry = summary(results, departures)
        report["paths"][path] = entry
        if path in ("python", "rust"):
            report["backends"][path] = entry
        failed_any = failed_any or bool(entry["failed"])
        editions: list[Any] = []
        if args.fixture is None:
            # The cases whose notes rule them under another rulebook, under that edition.
            editions = run_edition_cases(load_edition_cases(cases), path)
            entry["editions"] = summary(editions)
            failed_any = failed_any or bool(entry["editions"]["failed"])
        if args.json:
            continue
        title = _PATH_TITLES[path]
        under = f" under edition={args.edition}" if args.edition else ""
        departs = entry["departs"]
        documented = f", {len(departs)} depart as the edition documents" if departs else ""
        print(
            f"DATC v{DATC_VERSION}, {title}{under}: {entry['passed']} of {entry['total']} "
            f"passed{documented}"
        )
        sections: dict[str, list[bool]] = {}
        for r in results:
            sections.setdefault(r.case_id.rsplit(".", 1)[0], []).append(r.passed)
        line = "  ".join(f"{s} {sum(v)}/{len(v)}" for s, v in sections.items())
        print(f"  {line}")
        if editions:
            by: dict[str, list[bool]] = {}
            for r in editions:
                by.setdefault(r.case_id.split("@")[1], []).append(r.passed)
            line = "  ".join(f"{e} {sum(v)}/{len(v)}" for e, v in by.items())
            print(f"  under other editions (the case notes' rulings; godip's its own): {line}")
            results = [*results, *editions]
        partial = entry["not_expressible"]
        if partial:
            print(
                f"  {len(partial)} cases have orders this path cannot express; "
                "they are checked without them:"
            )
        for r in results:
            if not r.passed or args.verbose or r.not_expressible:
                if r.case_id in departs:
                    print(f"  departs {r.case_id} {r.title} (documented: {departs[r.case_id]})")
                    if args.verbose:
                        for problem in r.problems:
                            print(f"        {problem}")
                    continue
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
    "codes": "CodeGame (order codes)",
}
