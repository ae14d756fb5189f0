"""Instructions the engine executes per phase, counted by valgrind's callgrind: a measure of a
regression that the load of a shared machine does not move (wall-clock times there move by a
factor of three between hours).

    python tools/instructions.py TREE [TREE ...] [--phases 400]

Each TREE is a checkout with its core built into ``python/diplo/`` (``cargo build --release
--features python`` and the ``.so`` copied there). In each, the same seeded random games are
played on the code API (``diplo.FastGame``, the name every tree has at the package's top) until
``--phases`` movement phases were ruled, asking for the legal orders and then processing every
phase; the table gives, per tree, the instructions inside the engine's ``process`` and
``legal_orders`` entry points (inclusive), per movement phase, and their ratio to the first tree.
Needs valgrind (Debian's package).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

GAMES = """
import random, sys
from diplo import FastGame
rng = random.Random(7)
phases, limit = 0, int(sys.argv[1])
while phases < limit:
    game = FastGame(None, 1906)
    while not game.is_over and phases < limit:
        game.set_orders([rng.choice(options) for options in game.legal_orders()])
        phases += game.phase.endswith("M")
        game.process()
"""

#: The engine's entry points as the bindings name them (any release): the Python methods.
ENTRY = re.compile(r"__pymethod_(process|legal_orders)__")


def count(tree: Path, phases: int) -> dict[str, int]:
    """Inclusive instructions of each entry point, playing the games in ``tree``."""
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / "callgrind.out"
        script = Path(work) / "games.py"
        script.write_text(GAMES)
        env = {**os.environ, "PYTHONPATH": str(tree / "python")}
        python = os.path.realpath(sys.executable)  # not a shim: valgrind follows no script
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", python, str(script),
             str(phases)],
            check=True, cwd=tree, env=env, capture_output=True,
        )  # fmt: skip
        report = subprocess.run(
            ["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(out)],
            check=True, capture_output=True, text=True,
        ).stdout  # fmt: skip
    found: dict[str, int] = {}
    for line in report.splitlines():
        match = ENTRY.search(line)
        if match:
            found[match.group(1)] = max(
                found.get(match.group(1), 0), int(line.split()[0].replace(",", ""))
            )
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("trees", nargs="+", type=Path)
    parser.add_argument("--phases", type=int, default=400)
    args = parser.parse_args()
    rows = [(tree, count(tree, args.phases)) for tree in args.trees]
    first = rows[0][1]
    print(f"{'tree':40} {'process':>12} {'legal_orders':>14} {'both':>12}  per movement phase")
    for tree, found in rows:
        cells = []
        for key in ("process", "legal_orders", "both"):
            n = sum(found.values()) if key == "both" else found.get(key, 0)
            base = sum(first.values()) if key == "both" else first.get(key, 0)
            ratio = f"{n / base:.3f}" if base else "-"
            cells.append(f"{n / args.phases:>8.0f} {ratio}")
        print(f"{tree!s:40} " + "  ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
