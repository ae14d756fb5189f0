"""What one unreadable order costs: a document of N orders no map can read (``A xkqzv - BUR``,
a misspelt place each) through ``process_phase`` on each backend.

    python benches/unreadable_orders.py [--orders 100000]

The first :data:`diplo.model.limits.SUGGESTED_ORDERS` unreadable orders of a phase name the
nearest places (``did you mean ...?``, a comparison with every name of the map, about 0.5 ms
each); the rest are refused without, at the cost of reading them. Prints µs per order (wall
clock) and how many refusals carry a suggestion; nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import time

from diplo.api.phase import process_phase
from diplo.model.map import standard_map
from diplo.model.position import Position


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--orders", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    # Near names of real places (PARX, BURQ...), so suggestions exist.
    places = ["PAR", "BUR", "MAR", "GAS", "PIC", "BRE", "RUH", "MUN"]
    texts = []
    for _ in range(args.orders):
        texts.append(f"A {rng.choice(places).lower()}{rng.choice('xqz')} - BUR")
    position = Position.initial(standard_map())
    for backend in ("rust", "python"):
        start = time.perf_counter()
        outcome = process_phase(position, {"FRANCE": texts}, backend)
        reasons = [r.reason for r in outcome.results if r.given]
        elapsed = time.perf_counter() - start
        suggested = sum("did you mean" in r for r in reasons)
        print(
            f"{backend:6} {args.orders} unreadable orders: {elapsed:.2f} s, "
            f"{elapsed / args.orders * 1e6:.1f} us an order, {suggested} with suggestions"
        )


if __name__ == "__main__":
    main()
