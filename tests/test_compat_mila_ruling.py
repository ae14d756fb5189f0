"""The drop-in through the front door: each phase is ruled once, by the engine, and its results
are read from that ruling; orders written otherwise than listed are read by the engine's
validation; the kinds of slot are named."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest

from diplo.api.game import PhaseRecord
from diplo.api.phase import process_phase
from diplo.compat.mila import Game, SlotKind
from diplo.compat.mila.game import parts_of
from diplo.compat.mila.labels import mila_labels
from diplo.engine import mila as door
from diplo.engine.codes import position_from_state


def _play(game: Game, seed: int, phases: int) -> Game:
    rng = random.Random(seed)
    for _ in range(phases):
        if game.is_game_done:
            break
        possible = game.get_all_possible_orders()
        for power, locs in sorted(game.get_orderable_locations().items()):
            game.set_orders(
                power, [rng.choice(sorted(possible[loc])) for loc in locs if possible[loc]]
            )
        game.process()
    return game


def test_each_phase_is_ruled_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Playing and then reading every history plays each phase once in the engine, and never
    calls the object API's ruling or the reference's validation."""
    played: list[str] = []
    real_play = door.play

    def counting_play(game: Any, check: Any, orders: Any) -> Any:
        played.append(game.phase)
        return real_play(game, check, orders)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the drop-in ruled a phase a second time")

    monkeypatch.setattr(door, "play", counting_play)
    monkeypatch.setattr("diplo.api.phase.process_phase", refuse)
    monkeypatch.setattr("diplo.engine.objects.process_phase_engine", refuse)
    monkeypatch.setattr("diplo.reference.validation.validate_order", refuse)
    game = _play(Game(ruling="datc"), 7, 30)  # under diplo's rulings seed 7 has every kind
    results = game.result_history
    assert len(played) == len(results) == 30
    assert {name[-1] for name in results} == {"M", "R", "A"}
    assert any(labels for phase in results.values() for labels in phase.values())
    assert game.get_order_status()  # the last phase's, read from the game that played it
    assert len(played) == 30


@pytest.mark.parametrize("seed", [0, 1, 2, 47])
def test_results_equal_a_ruling_by_the_object_api(seed: int) -> None:
    """MILA's labels read from the engine's ruling equal those worked out from a second,
    independent ruling of the same orders by :func:`diplo.api.phase.process_phase` (what the
    drop-in did before), phase by phase, dislodged units included (seed 47 loses a unit with
    nowhere to retreat before an adjustment phase, which labels it ``disband``)."""
    game = _play(Game(ruling="datc"), seed, 40)  # the reference below rules as diplo does
    for copy_of in (game, copy.deepcopy(game)):
        popped: list[str] = []  # lost with nowhere to retreat by the movement phase before
        for record in parts_of(copy_of).history.records:
            assert record.state is not None
            position = position_from_state(parts_of(copy_of).state.model_map, record.state, None)
            orders = {p: tuple(t) for p, t in record.orders.items() if t}
            outcome = process_phase(position, {p: list(t) for p, t in orders.items()})
            want, dislodged = mila_labels(
                PhaseRecord(position, orders, outcome), record.voids, popped
            )
            assert copy_of.result_history[record.name] == want, record.name
            assert record.dislodged == dislodged, record.name
            popped = (
                [str(d.piece) for d in outcome.dislodged.values() if not d.options]
                if record.name.endswith("M")
                else []
            )


def test_the_last_ruling_stays_true_after_the_game_plays_on() -> None:
    """The last phase's ruling lives in the game that played it until that game plays on;
    read after, from a copy or a pickle, every phase's results are the same."""
    game = _play(Game(), 4, 9)
    copied = copy.deepcopy(game)
    _play(game, 5, 3)  # the original plays on: the copy's last ruling is its own
    reference = _play(Game(), 4, 9)
    want = dict(reference.result_history)
    assert dict(copied.result_history) == want
    assert {k: game.result_history[k] for k in want} == want
    assert dict(pickle.loads(pickle.dumps(game)).result_history) == dict(game.result_history)


def test_a_record_pickled_without_its_results_is_ruled_from_its_orders() -> None:
    """A game pickled by an earlier release kept processed phases without their results: on
    loading, the engine rules the kept orders, with the labels of the game's own ruling."""
    game = _play(Game(), 11, 12)
    want = dict(game.result_history)
    state = game.__getstate__()
    for record in state["_records"]:
        record.results = None
        record.dislodged = None
    old = Game.__new__(Game)
    old.__setstate__(state)
    assert dict(old.result_history) == want


def test_an_order_written_otherwise_is_read_by_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """A coast left out where only one can be meant is the engine's normal form; a refused
    order is noted with the engine's reason in the model's words."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the drop-in asked the reference")

    monkeypatch.setattr("diplo.reference.validation.validate_order", refuse)
    game = Game()
    game.set_units("FRANCE", ["F GAS"], reset=True)
    game.set_orders("FRANCE", ["f gas -  spa"])
    assert game.get_orders("FRANCE") == ["F GAS - SPA/NC"] and not game.error
    game.set_orders("ENGLAND", ["A LVP - MUN"])
    assert game.get_orders("ENGLAND") == []
    assert game.error == [
        "ENGLAND: 'A LVP - MUN' dropped: A LVP - MUN: MUN is not next to LVP "
        "and no convoy could carry an army there."
    ]
    game.set_orders("ENGLAND", ["A PAR - BUR"])  # a French unit
    assert game.get_orders("ENGLAND") == [] and "A PAR - BUR" in game.error[-1]
    game.process()
    assert game.result_history["S1901M"]["F GAS"] == []


def test_slot_kinds_never_meet() -> None:
    """Every kind of slot under no province gives each entry its own negative slot."""
    seen: dict[int, tuple[SlotKind, int]] = {}
    for n in range(3000):
        for kind in SlotKind:
            slot = kind.slot(n)
            assert slot < 0 and slot not in seen
            assert SlotKind.of(slot) is kind
            seen[slot] = (kind, n)
    assert SlotKind.of(0) is None and SlotKind.of(74) is None


def test_void_second_orders_and_waives_keep_their_slots() -> None:
    """In an adjustment phase MILA keeps a second order for one site as void, and each waive
    on its own: both under slots of their kind."""
    game = Game()
    game.set_current_phase("W1901A")
    game.set_centers("FRANCE", ["SPA", "POR"])
    game.clear_units("FRANCE")
    game.set_orders("FRANCE", ["A PAR B", "F BRE B", "A PAR B", "WAIVE", "WAIVE"])
    kept = parts_of(game).state.orders["FRANCE"]
    kinds = [SlotKind.of(slot) for slot in kept]
    assert kinds.count(SlotKind.WAIVE) == 2
    assert SlotKind.VOID in kinds
    assert game.get_orders("FRANCE") == ["A PAR B", "F BRE B"]
