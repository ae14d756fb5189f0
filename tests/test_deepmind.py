"""DeepMind's unit actions on diplo: every legal order of random games has an action in their
list, and the action names that order again in the position."""

from __future__ import annotations

import importlib
import random
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from diplo.engine.codes import FastGame, decode_order
from diplo.env.deepmind import (
    AREAS,
    PROVINCES,
    ActionError,
    action_of_order,
    action_parts,
    mila_text,
    order_of_action,
    possible_actions,
)
from diplo.model.map import standard_map
from diplo.model.orders import Waive


def test_tables() -> None:
    game_map = standard_map()
    assert len(PROVINCES) == 75 and len(AREAS) == 81
    assert set(AREAS) == set(game_map.locations)
    assert AREAS[72:75] == ("BUL", "BUL/EC", "BUL/SC")
    actions = possible_actions()
    assert all(a >> 48 == i for i, a in enumerate(actions))
    assert action_parts(actions[0]) == (3, (0, 0), (0, 0), (0, 0))  # hold in Bohemia


def test_bad_actions_refused() -> None:
    position = FastGame().position()
    for bad in (-1, 2**70, 0x7F, 1.5, True, (1 << 48) | 3):
        with pytest.raises(ActionError):
            order_of_action(bad, position)  # type: ignore[arg-type]


def test_legal_orders_round_trip() -> None:
    kinds: set[str] = set()
    for seed in range(3):
        _play(random.Random(seed), kinds)
    assert kinds == {"M", "R", "A"}


def _play(rng: random.Random, kinds: set[str]) -> None:
    game = FastGame(max_year=1920)
    while not game.is_over:
        position = game.position()
        kind = position.phase.kind
        kinds.add(kind)
        chosen = []
        for codes in game.legal_orders():
            for code in codes:
                order = decode_order(code, game.map, position)
                action = action_of_order(order, game.map, kind)
                assert action in possible_actions()
                back = order_of_action(action, position)
                if isinstance(order, Waive):
                    assert isinstance(back, Waive)
                else:
                    assert action_of_order(back, game.map, kind) == action
                    assert not isinstance(order, Waive) and not isinstance(back, Waive)
                    assert back.unit.loc == order.unit.loc
            chosen.append(rng.choice(codes))
        game.set_orders(chosen)
        game.process()


SNAPSHOT = Path(__file__).resolve().parent.parent.parent.parent / "shared" / "deepmind-diplomacy"
if not SNAPSHOT.is_dir():
    SNAPSHOT = Path("/work/shared/deepmind-diplomacy")


def _their_mila_actions() -> Any:
    """Their ``mila_actions`` module, loaded from the snapshot under their package name for the
    import only (MILA's name: any MILA modules are put back afterwards)."""
    if not (SNAPSHOT / "environment" / "mila_actions.py").is_file():
        pytest.skip("no DeepMind snapshot at ../shared/deepmind-diplomacy")
    ours = {k: v for k, v in sys.modules.items() if k == "diplomacy" or k.startswith("diplomacy.")}
    for name in ours:
        del sys.modules[name]
    stub = None
    if importlib.util.find_spec("immutabledict") is None:
        stub = types.ModuleType("immutabledict")
        stub.immutabledict = dict  # type: ignore[attr-defined]
        sys.modules["immutabledict"] = stub
    package = types.ModuleType("diplomacy")
    package.__path__ = [str(SNAPSHOT)]
    sys.modules["diplomacy"] = package
    try:
        return importlib.import_module("diplomacy.environment.mila_actions")
    finally:
        for name in [k for k in sys.modules if k == "diplomacy" or k.startswith("diplomacy.")]:
            del sys.modules[name]
        if stub is not None:
            del sys.modules["immutabledict"]
        sys.modules.update(ours)


def test_mila_strings_agree_with_theirs() -> None:
    theirs = _their_mila_actions()
    rng = random.Random(1)
    game = FastGame(max_year=1912)
    checked = 0
    while not game.is_over:
        position = game.position()
        for codes in game.legal_orders():
            for code in codes:
                order = decode_order(code, game.map, position)
                action = action_of_order(order, game.map, position.phase.kind)
                assert mila_text(order, game.map) in theirs.action_to_mila_actions(action)
                checked += 1
        game.set_orders([rng.choice(c) for c in game.legal_orders()])
        game.process()
    assert checked > 5000
