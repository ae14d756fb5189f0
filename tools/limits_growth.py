"""Worst-case inputs at every documented limit, measured at doubling sizes: time and peak memory
must grow linearly with the input (``docs/fuzzing.md``, "Growth at the limits").

For each workload the input doubles from a small size up to its limit (or until one measurement
takes ``--budget`` seconds); the growth exponent is the slope of log(cost) against log(size)
over the larger half of the sizes: 1 is linear, 2 quadratic. A workload fails when its time
exponent exceeds ``--max-exponent`` (default 1.3) or its memory exponent (Python's peak, by
tracemalloc) exceeds it. Exits 1 if any fails. A benchmark-style check, not a test: run it on a
quiet machine (timings of a shared machine are noisy; the exponent tolerates some noise).

    python tools/limits_growth.py [--budget 2] [--only NAME,...]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from diplo.apps.adjudicate import _decode, _InputError, run_jsonl
from diplo.formats import gamefile
from diplo.formats.contract import DocumentError, adjudicate_document
from diplo.model.limits import DOCUMENT_LIMIT, ECHO_LIMIT, ORDER_LIMIT
from diplo.model.map import MAX_MAP_BYTES, MapError, standard_map
from diplo.model.orders import OrderParseError, parse_order
from diplo.model.position import Position
from diplo.model.variants import load_mila_map

M = standard_map()
OPENING = Position.initial(M).to_json()
RETREAT = {
    "phase": "F1901R",
    "units": {"ENGLAND": ["F BRE"], "GERMANY": ["A PIC"]},
    "dislodged": {"FRANCE": {"A PIC": ["BRE", "BEL"]}},
}


def conflicting(n: int, backend: str) -> Callable[[], object]:
    """``n`` orders to one unit, four different ones (DATC 4.D.3: the multiple-order check)."""
    orders = ["A PAR H", "A PAR - BUR", "A PAR - PIC", "A PAR - GAS"] * (n // 4)
    doc = {**OPENING, "orders": {"FRANCE": orders}}
    return lambda: adjudicate_document(doc, backend)


def retreats(n: int) -> Callable[[], object]:
    """``n`` retreat orders to one dislodged unit, in a retreat phase."""
    orders = ["A PIC R BEL", "A PIC D", "A PIC R BRE"] * (n // 3)
    doc = {**RETREAT, "orders": {"FRANCE": orders}}
    return lambda: adjudicate_document(doc, "rust")


def garbage(n: int) -> Callable[[], object]:
    """``n`` distinct orders that do not parse, each near the order limit."""
    orders = [f"A PAR - {'(' * (ORDER_LIMIT - 20)}{k}" for k in range(n)]
    doc = {**OPENING, "orders": {"FRANCE": orders}}
    return lambda: adjudicate_document(doc, "rust")


def order_text(n: int) -> Callable[[], object]:
    """Order texts of ``n`` characters (dashes and brackets: the parser's worst case), up to
    the order limit, 200 of them."""
    texts = [("a-(" * n)[:n] + str(k) for k in range(200)]

    def run() -> None:
        for text in texts:
            with contextlib.suppress(OrderParseError):
                parse_order(text, M)

    return run


def jsonl(n: int) -> Callable[[], object]:
    """A stream of ``n`` movement documents through ``diplo adjudicate --jsonl``."""
    line = json.dumps({**OPENING, "orders": {"FRANCE": ["A PAR - BUR", "F BRE - MAO"]}})
    data = ("\n".join([line] * n) + "\n").encode()

    def run() -> None:
        with contextlib.redirect_stdout(io.StringIO()):
            run_jsonl(io.BytesIO(data), "rust")

    return run


def game_file(n: int) -> Callable[[], object]:
    """A game file with ``n`` pending orders (conflicting ones), loaded."""
    from diplo.api.game import Game

    data = gamefile.to_json(Game())
    data["status"]["pending_orders"] = {"FRANCE": ["A PAR H", "A PAR - BUR"] * (n // 2)}
    return lambda: gamefile.from_json(data)


def echo(n: int) -> Callable[[], object]:
    """A refused value of ``n`` characters: the message quotes at most the echo limit."""
    doc = {**OPENING, "phase": "S" * n}

    def run() -> None:
        try:
            adjudicate_document(doc)
        except DocumentError as exc:
            assert len(str(exc)) < 4 * ECHO_LIMIT + 200, len(str(exc))

    return run


def nesting(n: int) -> Callable[[], object]:
    """A document of ``n`` nested arrays (refused as nested too deeply)."""
    data = b"[" * n + b"]" * n

    def run() -> None:
        with contextlib.suppress(_InputError):
            _decode(data)

    return run


_FOLDER = tempfile.mkdtemp(prefix="diplo-growth-")


def mila_map(n: int) -> Callable[[], object]:
    """A MILA map file: the standard map plus ``n`` alias lines (names read and checked)."""
    try:
        import diplomacy
    except ImportError:
        raise SystemExit("mila_map needs the compare extra (diplomacy)") from None
    source = Path(diplomacy.__file__).parent / "maps" / "standard.map"
    path = Path(_FOLDER) / f"grown{n}.map"
    lines = [f"Paris = par zp{k}" for k in range(n)]
    path.write_text(source.read_text() + "\n" + "\n".join(lines) + "\n")

    def run() -> None:
        with contextlib.suppress(MapError):
            load_mila_map(path)

    return run


#: name -> (make the input of size n, first size, limit, what the size counts)
WORKLOADS: dict[str, tuple[Callable[[int], Callable[[], object]], int, int, str]] = {
    "conflicting_orders_rust": (
        lambda n: conflicting(n, "rust"),
        500,
        DOCUMENT_LIMIT // 14,
        "orders",
    ),
    "conflicting_orders_python": (
        lambda n: conflicting(n, "python"),
        500,
        DOCUMENT_LIMIT // 14,
        "orders",
    ),
    "retreat_orders": (retreats, 300, DOCUMENT_LIMIT // 12, "orders"),
    "unparsable_orders": (garbage, 25, DOCUMENT_LIMIT // ORDER_LIMIT, "orders"),
    "order_text": (order_text, 16, ORDER_LIMIT, "characters"),
    "jsonl_stream": (jsonl, 20, 10**6, "lines"),
    "game_file_pending": (game_file, 500, DOCUMENT_LIMIT // 14, "orders"),
    "echoed_value": (echo, 10_000, DOCUMENT_LIMIT, "characters"),
    "nested_json": (nesting, 10_000, DOCUMENT_LIMIT // 2, "levels"),
    "mila_map_aliases": (mila_map, 200, MAX_MAP_BYTES // 20, "lines"),
}


def measure(make: Callable[[int], Callable[[], object]], n: int) -> tuple[float, int]:
    """(seconds, the best of 3; Python's peak memory in bytes) of the workload at size n."""
    run = make(n)
    run()  # warm: caches, tables
    best = math.inf
    for _ in range(3):
        t0 = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - t0)
    tracemalloc.start()
    run()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return best, peak


def slope(points: list[tuple[int, float]]) -> float:
    """Least-squares slope of log(cost) against log(size)."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(max(c, 1e-9)) for _, c in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / den


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=2.0, help="seconds of the largest size")
    parser.add_argument("--max-exponent", type=float, default=1.3)
    parser.add_argument("--only", default=None, help="comma-separated workload names")
    args = parser.parse_args()
    names = list(WORKLOADS) if args.only is None else args.only.split(",")
    failed = []
    for name in names:
        make, n, limit, unit = WORKLOADS[name]
        rows: list[tuple[int, float, int]] = []
        while n <= limit:
            seconds, peak = measure(make, n)
            rows.append((n, seconds, peak))
            if seconds > args.budget:
                break
            n *= 2
        if len(rows) < 3:
            print(f"FAIL {name:28} too slow to measure growth: {rows}", flush=True)
            failed.append(name)
            continue
        top = rows[len(rows) // 2 :] if len(rows) >= 6 else rows[-3:]
        t_exp = slope([(n, s) for n, s, _ in top])
        m_exp = slope([(n, float(p)) for n, _, p in top])
        ok = t_exp <= args.max_exponent and m_exp <= args.max_exponent
        if not ok:
            failed.append(name)
        sizes = f"{rows[0][0]}..{rows[-1][0]} {unit}"
        last = rows[-1]
        print(
            f"{'ok  ' if ok else 'FAIL'} {name:28} {sizes:28} time x^{t_exp:.2f} "
            f"memory x^{m_exp:.2f}  (largest: {last[1] * 1000:.1f} ms, {last[2] / 1e6:.1f} MB)",
            flush=True,
        )
    print(f"{len(names) - len(failed)} of {len(names)} workloads grow linearly")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
