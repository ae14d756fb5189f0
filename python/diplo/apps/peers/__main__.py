"""``python -m diplo.apps.peers NAME``: serve a Python peer (``mila``, ``pydip``, ``diplo``)
in the contract's ``--jsonl`` mode (one document per input line, one answer per output line);
``--bench ROUNDS`` instead reads every document, rules on each ROUNDS times and prints one line
``{"us": [median µs per document]}`` (the conversion both ways included, no JSON text)."""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import time
from typing import Any

from . import make_adapter
from .common import Unsupported


def answer(adapter: Any, line: str, number: int) -> dict[str, Any]:
    try:
        doc = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"line {number}: bad JSON: {exc.msg}"}
    if not isinstance(doc, dict):
        return {"error": f"line {number}: the document must be a JSON object"}
    try:
        out: dict[str, Any] = adapter.adjudicate(doc)
        return out
    except Unsupported as exc:
        return {"unsupported": str(exc)}
    except Exception as exc:  # the peer's failure on one document, reported on its line
        return {"error": f"line {number}: {type(exc).__name__}: {exc}"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m diplo.apps.peers")
    parser.add_argument("name", help="mila, pydip or diplo")
    parser.add_argument("--jsonl", action="store_true", help="(the default mode)")
    parser.add_argument("--bench", type=int, metavar="ROUNDS", default=0)
    args = parser.parse_args(argv)
    try:
        adapter = make_adapter(args.name)
    except (LookupError, ValueError) as exc:
        print(f"diplo: {exc}", file=sys.stderr)
        return 2
    if args.bench:
        docs = [json.loads(line) for line in sys.stdin if line.strip()]
        if hasattr(adapter, "bench"):  # a binary that times itself
            print(adapter.bench(docs, args.bench))
            return 0
        samples: list[list[float]] = [[] for _ in docs]
        for _ in range(args.bench):
            for i, doc in enumerate(docs):
                start = time.perf_counter()
                # A failure is timed all the same: the correctness run reports it.
                with contextlib.suppress(Exception):
                    adapter.adjudicate(doc)
                samples[i].append((time.perf_counter() - start) * 1e6)
        print(json.dumps({"us": [statistics.median(s) for s in samples]}))
        return 0
    for number, line in enumerate(sys.stdin, start=1):
        if not line.strip():
            print("", flush=True)
            continue
        print(json.dumps(answer(adapter, line, number)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
