"""Random games ruled by the MILA engine, recorded phase by phase in the corpus format of
``../shared/corpus/README.md`` (the same procedure: every orderable location of every power, in
sorted order, gets a uniformly chosen order among MILA's possible orders). Needs the ``compare``
extra (PyPI ``diplomacy`` 1.1.2); used by the variant differential in ``test_variants.py``."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from diplo.formats.mila import mila_phase


def _subset(state: dict[str, Any], kind: str) -> dict[str, Any]:
    out: dict[str, Any] = {
        "units": {p: list(us) for p, us in state["units"].items()},
        "centers": {p: list(cs) for p, cs in state["centers"].items()},
        "homes": {p: list(hs) for p, hs in state["homes"].items()},
    }
    retreats = {p: dict(r) for p, r in (state.get("retreats") or {}).items() if r}
    if retreats:
        out["retreats"] = retreats
    if kind == "A":
        out["builds"] = {
            p: {"count": b["count"], "homes": list(b["homes"])}
            for p, b in (state.get("builds") or {}).items()
        }
    return out


def mila_records(map_name: str, seed: int, max_year: int) -> Iterator[dict[str, Any]]:
    """The processed phases of one random MILA game on ``map_name`` (a MILA map name or path)."""
    from diplomacy import Game

    rng = random.Random(seed)
    game = Game(map_name=map_name)
    while not game.is_game_done:
        phase = game.get_current_phase()
        if int(phase[1:-1]) > max_year:
            return
        kind = phase[-1]
        state = _subset(game.get_state(), kind)
        orderable = game.get_orderable_locations()
        possible = game.get_all_possible_orders()
        orders: dict[str, list[str]] = {}
        for power in sorted(game.powers):
            chosen = [
                rng.choice(sorted(possible[loc]))
                for loc in sorted(orderable.get(power, []))
                if possible.get(loc)
            ]
            if chosen:
                orders[power] = chosen
                game.set_orders(power, chosen)
        game.process()
        results = game.result_history[phase]
        record: dict[str, Any] = {
            "seed": seed,
            "phase": phase,
            "phase_type": kind,
            "state": state,
            "orders": orders,
            "results": {str(u): [str(r) for r in rs] for u, rs in results.items()},
            "next_phase": game.get_current_phase(),
            "next_state": _subset(game.get_state(), game.get_current_phase()[-1:]),
        }
        if game.is_game_done:
            record["game_done"] = True
            record["outcome"] = list(game.outcome)
        for key in ("phase", "next_phase"):
            if record[key] != "COMPLETED":
                record[key] = str(mila_phase(record[key]))  # diplo's notation: S1M, not S0001M
        yield record
