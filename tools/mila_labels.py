"""Differential of result labels: seeded random games played on MILA (PyPI ``diplomacy``
1.1.2) and on the drop-in ``diplo.compat.mila`` under MILA's ruling (its default, named here so
that ``DIPLO_MILA_RULING`` does not change it: ``Rules(edition="mila")``) with the same
orders, comparing every phase's ``result_history`` unit by unit and counting each kind of
difference (``drop-in labels -> MILA labels`` per order kind).

    PYTHONPATH=python python3 tools/mila_labels.py --games 20 --seed 0 [--examples 3]

Orders are picked as the corpus bot picks them (``tests/mila_games.py``): for each power in
sorted order, each of its orderable locations in sorted order, one of MILA's possible orders
chosen with ``random.Random(seed)``. A game stops at its end (a win, or MILA's draw after 100
years) or at the year given by ``--until``, or when the boards part (counted, never expected
under ``edition="mila"``). Needs the ``compare`` extra."""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from typing import Any


def _kind(order: str | None) -> str:
    """The kind of an order, for counting: ``S-`` (support of a move), ``S`` (of a hold),
    ``-``, ``C``, ``H``, ``R``, ``B``, ``D`` or ``?`` (no order)."""
    if order is None:
        return "?"
    words = order.split()
    if len(words) < 3:
        return words[-1] if words else "?"
    if words[2] == "S":
        return "S-" if "-" in words[3:] else "S"
    return words[2]


def _orders_by_unit(orders: dict[str, list[str]]) -> dict[str, str]:
    return {" ".join(o.split()[:2]): o for texts in orders.values() for o in texts or []}


def play(seed: int, until: int, examples: list[str], limit: int) -> tuple[Counter[str], int, int]:
    """One game: (differences per kind, phases played, phases where the results differ)."""
    from diplomacy import Game as MilaGame

    from diplo.compat.mila import Game

    rng = random.Random(seed)
    mila = MilaGame()
    ours = Game(ruling="mila")
    counts: Counter[str] = Counter()
    phases = differing = 0
    while not mila.is_game_done:
        phase = mila.get_current_phase()
        if int(phase[1:-1]) > until:
            break
        orderable = mila.get_orderable_locations()
        possible = mila.get_all_possible_orders()
        given: dict[str, list[str]] = {}
        for power in sorted(mila.powers):
            chosen = [
                rng.choice(sorted(possible[loc]))
                for loc in sorted(orderable.get(power, []))
                if possible.get(loc)
            ]
            if chosen:
                given[power] = chosen
                mila.set_orders(power, chosen)
                ours.set_orders(power, chosen)
        mila.process()
        ours.process()
        phases += 1
        want = {str(u): [str(r) for r in rs] for u, rs in mila.result_history[phase].items()}
        have = {str(u): [str(r) for r in rs] for u, rs in ours.result_history[phase].items()}
        by_unit = _orders_by_unit(given)
        found = False
        for unit in sorted(set(want) | set(have)):
            if want.get(unit) != have.get(unit):
                found = True
                key = f"{_kind(by_unit.get(unit))}: {have.get(unit)} -> {want.get(unit)}"
                if counts[key] < limit:
                    examples.append(f"seed {seed} {phase} {unit}: {key}\n  orders: {given}")
                counts[key] += 1
        mila_orders = {p: list(o or []) for p, o in mila.order_history[phase].items()}
        our_orders = {p: list(o or []) for p, o in ours.order_history[phase].items()}
        for power in sorted(set(mila_orders) | set(our_orders)):
            want_orders, have_orders = mila_orders.get(power, []), our_orders.get(power, [])
            if want_orders != have_orders:
                found = True
                extra = sorted(set(have_orders) - set(want_orders))
                key = f"order text: {extra} -> {sorted(set(want_orders) - set(have_orders))}"
                key = key if extra else "order list order"
                if counts[key] < limit:
                    examples.append(f"seed {seed} {phase} {power}: {key}")
                counts[key] += 1
        differing += found
        if _board(mila.get_state()) != _board(ours.get_state()):
            if mila.is_game_done and not ours.is_game_done:
                counts["end: MILA draws entering the phase, the drop-in plays it"] += 1
            else:
                counts["boards part"] += 1
                break
    if mila.is_game_done:
        while not ours.is_game_done:  # the phase MILA did not play: no orders
            ours.process()
        last = str(mila.result_history.last_key())
        entry = dict(ours.result_history).get(last)
        kind = f"{last[0]}{last[-1]}"
        if entry is None:
            counts[
                f"end: no {kind} entry (MILA's draw entry: orders [] per power, results {{}})"
            ] += 1
        elif dict(mila.result_history[last]) != entry or dict(mila.order_history[last]) != dict(
            ours.order_history[last]
        ):
            counts[f"end: the {kind} entry differs"] += 1
            examples.append(f"seed {seed} {last}: the last entry differs")
        if list(mila.outcome) != list(ours.outcome):
            ended = f"{mila.outcome[0][0]}{mila.outcome[0][-1]}"
            key = f"end: outcome {ended} (MILA) {ours.outcome[0][0]}{ours.outcome[0][-1]} (here)"
            key += "" if mila.outcome[1:] == ours.outcome[1:] else ", other powers"
            counts[key] += 1
    return counts, phases, differing


def _board(state: dict[str, Any]) -> tuple[Any, ...]:
    return (
        state["name"],
        {p: sorted(u) for p, u in state["units"].items()},
        {p: sorted(c) for p, c in state["centers"].items()},
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument("--until", type=int, default=2000, help="the last year played")
    parser.add_argument("--examples", type=int, default=0, help="examples printed per kind")
    args = parser.parse_args(argv)
    total: Counter[str] = Counter()
    phases = differing = 0
    examples: list[str] = []
    for seed in range(args.seed, args.seed + args.games):
        counts, played, bad = play(seed, args.until, examples, args.examples)
        total += counts
        phases += played
        differing += bad
        print(f"seed {seed}: {played} phases, {bad} differ, {sum(counts.values())} differences")
    print(f"{args.games} games, {phases} phases, {differing} phases with a difference")
    for key, n in total.most_common():
        print(f"{n:6d}  {key}")
    for line in examples:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
