"""The MILA drop-in's ``Game`` is made of parts (``diplo.compat.mila.game.Parts``), each declaring
its fields as links, what a copy and a pickle carry (``KEPT``, the fields of ``CARRIED``) and what
is worked out anew (``MADE``): a field no list names cannot be set (the parts have slots), a kept
field ``CARRIED`` does not name fails here, and a copy or a pickle leaves no field unset and
shares no changeable one with the original."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

from diplo.compat.mila import Game
from diplo.compat.mila.game import CARRIED, Parts, parts_of

#: Kept fields a part carries by itself: the engine's game (cloned by a copy; a pickle keeps its
#: state and year limit).
BY_THE_GAME = {"state": {"core"}}


def _played(seed: int, phases: int) -> Game:
    game = Game()
    rng = random.Random(seed)
    for _ in range(phases):
        possible = game.get_all_possible_orders()
        for power, locs in game.get_orderable_locations().items():
            game.set_orders(power, [rng.choice(possible[loc]) for loc in locs if possible[loc]])
        game.process()
    return game


def test_each_part_declares_every_field_once_and_carried_names_its_kept_ones() -> None:
    game = Game()
    for name, part in zip(Parts._fields, parts_of(game), strict=True):
        kind: Any = type(part)
        declared = [*kind.LINKS, *kind.KEPT, *kind.MADE]
        assert len(declared) == len(set(declared)), kind
        assert set(kind.__slots__) == set(declared), kind
        carried = {field for _, home, field, _ in CARRIED if home == name}
        assert set(kind.KEPT) == carried | BY_THE_GAME.get(name, set()), kind
        for field in declared:  # a new game sets every field
            getattr(part, field)
    keys = [key for key, _, _, _ in CARRIED]
    assert len(keys) == len(set(keys))


def _mutable(value: Any) -> bool:
    return isinstance(value, list | dict | set) or type(value).__name__ in ("Clock", "Lists")


def test_copies_and_pickles_set_every_field_and_share_nothing_changeable() -> None:
    game = _played(3, 7)
    game.get_state()  # the engine's lists and tables made
    france = game.get_power("FRANCE")
    assert france is not None
    france.units.append("A PIC")  # a power object's list edited: kept by copies and pickles
    power, locs = next((p, v) for p, v in game.get_orderable_locations().items() if v)
    given = sorted(game.get_all_possible_orders()[locs[0]])[:1]
    game.set_orders(power, given)
    assert game.get_orders(power) == given
    for other in (copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        for name, mine, theirs in zip(Parts._fields, parts_of(game), parts_of(other), strict=True):
            kind: Any = type(mine)
            for field in (*kind.LINKS, *kind.KEPT, *kind.MADE):
                value = getattr(theirs, field)  # set
                if field in kind.KEPT and _mutable(value):
                    assert value is not getattr(mine, field), (name, field)
            for field in kind.LINKS:  # linked to the copy's game and parts, not the original's
                value = getattr(theirs, field)
                assert value is not game and all(value is not p for p in parts_of(game)), field
        assert other.get_power("FRANCE").units == france.units  # type: ignore[union-attr]
        assert other.get_orders(power) == given
        assert other.get_hash() == game.get_hash()
        assert dict(other.result_history) == dict(game.result_history)
        other.process()  # the copy plays on alone
        assert game.get_current_phase() != other.get_current_phase()
        assert game.get_orders(power) == given


def test_the_game_s_own_attributes_are_mila_s_alone() -> None:
    """The game's ``__dict__`` holds MILA's attributes (and the fork's), nothing of the
    parts: what a pickle keeps of it besides ``CARRIED`` is what a user can read."""
    game = _played(1, 2)
    assert set(vars(game)) == {
        "map_name",
        "game_id",
        "rules",
        "role",
        "deadline",
        "status",
        "n_controls",
        "registration_password",
        "timestamp_created",
        "error",
        "note",
        "messages",
        "phase_summaries",
        "power_model_map",
    }
    pickled = game.__getstate__()
    assert set(pickled) == set(vars(game)) | {key for key, _, _, _ in CARRIED} | {
        "_core_state",
        "_max_year",
        "_lists",
    }
