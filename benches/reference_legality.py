"""The reference's legal-order listing and convoy questions, timed against a baseline revision
in one run, and the scaling of convoy questions on grids of seas full of fleets.

    python benches/reference_legality.py [--baseline REV] [--rounds 5] [--grid 4,6,8,12,16]

Listing (``diplo.reference.legal.legal_orders``), this checkout beside ``REV`` (default
``main``; its ``diplo/reference`` is loaded from git under another package name, over this
checkout's ``diplo.model``), rounds alternating, best round kept, on:

* ``full board``: the convoy-heavy full board of ``tests/test_legal.py``, the same position
  again and again (warm caches, what a bot asking twice pays);
* ``1903 board``: a board of a random game in 1903, again and again;
* ``game``: every phase of a random game to 1910 once each (new fleet sets, so new convoy
  tables: what a bot playing a game pays).

Grid: an n-by-n grid of seas, every sea a fleet, a coast province on every border sea, one army
on the west coast; the time to list every legal order (which decides every convoy question of
the board) on this checkout only, per n, with the rule the map gets (``chains``: its chordless
chains are listed, at most ``MAX_SEA_CHAINS``; ``shortest``: beyond that bound) and the growth
exponent between sizes (time ~ n^k). No timing is asserted anywhere: this prints figures.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import math
import random
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import diplo.model
from diplo.api.phase import process_phase
from diplo.model.map import Map, standard_map
from diplo.model.position import Phase, Piece, Position
from diplo.reference import convoys
from diplo.reference.legal import legal_orders

ROOT = Path(__file__).resolve().parent.parent
M = standard_map()


def _baseline(rev: str) -> Callable[..., Any]:
    """``legal_orders`` of ``rev``'s reference, imported as package ``diplo_base``."""
    tmp = Path(tempfile.mkdtemp(prefix="diplo_base_"))
    pkg = tmp / "diplo_base"
    (pkg / "reference").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    listing = subprocess.run(
        ["git", "ls-tree", "--name-only", rev, "python/diplo/reference/"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    for path in listing:
        text = subprocess.run(
            ["git", "show", f"{rev}:{path}"], cwd=ROOT, check=True, capture_output=True, text=True
        ).stdout
        (pkg / "reference" / Path(path).name).write_text(text)
    # The baseline's reference reads this checkout's model (one Map, Order, Position class).
    sys.modules["diplo_base.model"] = diplo.model
    for name, module in list(sys.modules.items()):
        if name.startswith("diplo.model."):
            sys.modules["diplo_base.model." + name.split(".", 2)[2]] = module
    sys.path.insert(0, str(tmp))
    base = types.ModuleType("unused")
    del base
    return importlib.import_module("diplo_base.reference.legal").legal_orders  # type: ignore[no-any-return]


def _full_board() -> Position:
    sys.path.insert(0, str(ROOT / "tests"))
    from test_legal import _full_board as board

    return board()


def _game(seed: int, until: int) -> list[Position]:
    rng = random.Random(seed)
    pos = Position.initial(M)
    out = [pos]
    while pos.phase.year < until:
        lists = legal_orders(pos)
        orders: dict[str, list[Any]] = {}
        for key, options in lists.items():
            owner = pos.units[key].power if key in pos.units else None
            if owner is None:
                owner = (
                    key
                    if key in M.powers
                    else next((p for p in M.powers if key in M.homes.get(p, ())), None)
                )
            if owner is None and key in pos.dislodged:
                owner = pos.dislodged[key].piece.power
            if owner is not None:
                orders.setdefault(owner, []).append(rng.choice(options))
        outcome = process_phase(pos, orders, backend="rust")
        if outcome.game_over:
            break
        pos = outcome.next
        out.append(pos)
    return out


def _time(fn: Callable[..., Any], positions: list[Position], repeat: int) -> float:
    started = time.perf_counter()
    for _ in range(repeat):
        for pos in positions:
            fn(pos)
    return (time.perf_counter() - started) / (repeat * len(positions))


def grid_map(n: int) -> tuple[Map, Position]:
    """An n-by-n grid of seas S<rr><cc>, a coast C<k> beside every border sea, one power with a
    fleet in every sea and an army on the first west coast."""
    provinces: list[dict[str, Any]] = []
    fleet_edges: list[list[str]] = []
    army_edges: list[list[str]] = []
    for r in range(n):
        for c in range(n):
            sea = f"S{r:02d}{c:02d}"
            provinces.append({"abbr": sea, "name": f"Sea row {r} col {c}", "type": "sea"})
            if c + 1 < n:
                fleet_edges.append([f"S{r:02d}{c:02d}", f"S{r:02d}{c + 1:02d}"])
            if r + 1 < n:
                fleet_edges.append([f"S{r:02d}{c:02d}", f"S{r + 1:02d}{c:02d}"])
    coasts: list[str] = []
    for r in range(n):
        for c in range(n):
            if r in (0, n - 1) or c in (0, n - 1):
                name = f"C{len(coasts)}"
                coasts.append(name)
                provinces.append(
                    {
                        "abbr": name,
                        "name": f"Coast {name}",
                        "type": "coast",
                        "center": not coasts[1:],
                    }
                )
                fleet_edges.append([name, f"S{r:02d}{c:02d}"])
    for a, b in itertools.pairwise(coasts):
        army_edges.append([a, b])
    game_map = Map.from_dict(
        {
            "name": f"grid{n}",
            "powers": {
                "ONE": {"adjective": "One", "homes": [coasts[0]], "units": [f"A {coasts[0]}"]}
            },
            "provinces": provinces,
            "army_edges": army_edges,
            "fleet_edges": fleet_edges,
        }
    )
    units = {
        f"S{r:02d}{c:02d}": Piece("ONE", "F", f"S{r:02d}{c:02d}")
        for r in range(n)
        for c in range(n)
    }
    units[coasts[0]] = Piece("ONE", "A", coasts[0])
    return game_map, Position(game_map, Phase.parse("S1901M"), units, {coasts[0]: "ONE"})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default="main")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--grid", default="4,5,6,8,12,16")
    args = parser.parse_args()

    base = _baseline(args.baseline)
    full = [_full_board()]
    game = _game(7, 1910)
    board_1903 = [next(p for p in game if p.phase.year == 1903 and p.phase.kind == "M")]
    for fn in (base, legal_orders):  # warm both (map tables), and check they agree
        for pos in (*full, *board_1903, *game):
            fn(pos)
    boards = (*full, *board_1903, *game)
    same = sum(base(pos) == legal_orders(pos) for pos in boards)
    print(f"the two listings agree on {same} of {len(boards)} boards")
    print(f"listing, this checkout against {args.baseline} (best of {args.rounds} rounds):")
    print(f"{'workload':<12} {'baseline ms':>12} {'this ms':>10} {'ratio':>7}")
    for label, positions, repeat in (
        ("full board", full, 20),
        ("1903 board", board_1903, 50),
        ("game", game, 1),
    ):
        times: dict[str, float] = {"base": math.inf, "this": math.inf}
        for _ in range(args.rounds):
            times["base"] = min(times["base"], _time(base, positions, repeat))
            times["this"] = min(times["this"], _time(legal_orders, positions, repeat))
        print(
            f"{label:<12} {times['base'] * 1e3:>12.3f} {times['this'] * 1e3:>10.3f} "
            f"{times['this'] / times['base']:>7.2f}"
        )

    print("\nconvoy questions on an n-by-n grid of seas full of fleets (this checkout):")
    print(f"{'n':>4} {'fleets':>7} {'rule':>9} {'orders':>8} {'seconds':>9} {'exponent':>9}")
    last: tuple[int, float] | None = None
    for n in (int(x) for x in args.grid.split(",")):
        _, pos = grid_map(n)
        started = time.perf_counter()
        listing = legal_orders(pos)
        seconds = time.perf_counter() - started
        count = sum(len(v) for v in listing.values())
        exponent = (
            "" if last is None else f"{math.log(seconds / last[1]) / math.log(n / last[0]):.2f}"
        )
        rule = "chains" if convoys._geometry(pos.map).exact else "shortest"
        print(f"{n:>4} {n * n:>7} {rule:>9} {count:>8} {seconds:>9.3f} {exponent:>9}")
        last = (n, seconds)


if __name__ == "__main__":
    main()
