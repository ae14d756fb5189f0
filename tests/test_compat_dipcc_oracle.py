"""diplo.compat.dipcc against dipcc itself, played side by side.

Needs dipcc's Game built by ``tools/build_dipcc.sh`` (the module ``dipcc_core`` on the path:
``PYTHONPATH=OUT_DIR``); skipped by name otherwise. Seeded random games are played on both
engines with the same orders (drawn from dipcc's possible orders, some "VIA" left off so that
dipcc's implicit convoys are exercised, some adjustments left unordered so that civil disorder
runs), and every phase is compared: its name, the possible orders (lists and their order), the
orderable locations, the board dictionary, the board-state encodings of input versions 1 to 3
(bit for bit), the staged orders and the whole JSON document.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
from typing import Any

import numpy as np
import pytest

from diplo.compat.dipcc import Game, encode_board_state

dipcc_core = pytest.importorskip(
    "dipcc_core", reason="dipcc's Game not built: see tools/build_dipcc.sh"
)

GAMES = int(os.environ.get("DIPCC_ORACLE_GAMES", "4"))


def _doc(text: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(text)
    doc["id"] = "-"
    return doc


def _merged(possible: dict[str, list[str]]) -> dict[str, list[str]]:
    """The lists as compared: under a split-coast province's name dipcc joins its coasts' lists
    in its hash map's order (``py_get_all_possible_orders``), which only a winter with builds
    on several coasts of one province shows (docs/dipcc-compat.md); those are compared as sets."""
    return {
        loc: sorted(orders) if loc in ("STP", "SPA", "BUL") else list(orders)
        for loc, orders in possible.items()
    }


def _play(seed: int) -> None:
    rng = random.Random(seed)
    theirs, ours = dipcc_core.Game(), Game()
    while True:
        where = f"seed {seed}, {theirs.current_short_phase}"
        assert ours.current_short_phase == theirs.current_short_phase, where
        if theirs.is_game_done:
            assert ours.is_game_done
            return
        possible = theirs.get_all_possible_orders()
        assert _merged(ours.get_all_possible_orders()) == _merged(possible), where
        orderable = theirs.get_orderable_locations()
        assert ours.get_orderable_locations() == dict(orderable), where
        assert ours.get_state() == theirs.get_state(), where
        assert ours.get_scores() == theirs.get_scores(), where  # single precision, exactly
        for version in (1, 2, 3):  # bit for bit
            mine = encode_board_state(ours, version)
            assert np.array_equal(mine, dipcc_core.encode_board_state(theirs, version)), where
        for power, locs in orderable.items():
            orders = [rng.choice(possible[loc]) for loc in locs if possible[loc]]
            orders = [o[:-4] if o.endswith(" VIA") and rng.random() < 0.3 else o for o in orders]
            if theirs.current_short_phase.endswith("A") and rng.random() < 0.3:
                orders = orders[: rng.randint(0, len(orders))]
            rng.shuffle(orders)
            theirs.set_orders(power, orders)
            ours.set_orders(power, orders)
        assert ours.get_orders() == theirs.get_orders(), where
        assert _doc(ours.to_json()) == _doc(theirs.to_json()), where
        theirs.process()
        ours.process()


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_game_matches_dipcc(seed: int) -> None:
    _play(seed)


def test_dipcc_reads_diplos_json_and_diplo_reads_dipccs() -> None:
    ours = Game()
    ours.set_orders("FRANCE", ["A PAR - BUR", "F BRE - MAO"])
    ours.add_message("FRANCE", "ENGLAND", "hello", 100)
    ours.process()
    ours.set_orders("ENGLAND", ["F LON - ENG"])
    text = ours.to_json()
    theirs = dipcc_core.Game.from_json(text)
    assert theirs.to_json() == text  # byte for byte
    assert Game.from_json(theirs.to_json()).to_json() == text


def test_every_datc_case_first_phase_gives_dipccs_board() -> None:
    # The first phase of each DATC v3.0 case (its units, centres and orders) on dipcc and on
    # the drop-in (edition="dipcc"): the same board after, case by case.
    from diplo.apps.conformance import explicit_cases, load_cases
    from diplo.compat.dipcc.board import POWERS

    differ = []
    for case in explicit_cases(load_cases()):
        start = case["phases"][0]["start"]
        units: dict[str, list[str]] = {p: [] for p in POWERS}
        for power, unit in start["units"]:
            units[power].append(unit)
        centers: dict[str, list[str]] = {}
        for center, power in start["centers"]:
            centers.setdefault(power, []).append(center)
        name = start["phase"]
        state = {"name": name, "units": units, "centers": centers, "retreats": {}}
        if start["dislodged"]:
            continue  # no case starts in a retreat phase today
        text = json.dumps({"id": "datc", "phases": [{"name": name, "state": state, "orders": {}}]})
        theirs, ours = dipcc_core.Game.from_json(text), Game.from_json(text)
        for order in case["phases"][0]["orders"]:
            if order["text"].startswith("WAIVE"):
                continue
            for game in (theirs, ours):
                with contextlib.suppress(ValueError):  # not dipcc's notation: both refuse it
                    game.set_orders(order["power"], [order["text"]])
        theirs.process()
        ours.process()
        if ours.get_state()["units"] != theirs.get_state()["units"] or (
            ours.current_short_phase != theirs.current_short_phase
        ):
            differ.append(case["id"])
    assert differ == []
