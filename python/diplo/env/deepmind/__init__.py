"""DeepMind's no-press agents' formats (github.com/deepmind/diplomacy) on diplo: their unit
actions and area tables, the conversion between their actions and diplo's orders, and their
``DiplomacyState`` protocol on the engine, for one game (:class:`DiplomacyState`) or many in one
call (:class:`BatchedDiplomacyState`), with the Python reference both are tested against
(:class:`ReferenceDiplomacyState`). See :mod:`diplo.env.deepmind.actions`,
:mod:`diplo.env.deepmind.single`, :mod:`diplo.env.deepmind.batched` and
:mod:`diplo.env.deepmind.state`."""

from __future__ import annotations

from .actions import (
    AREAS,
    PROVINCES,
    ActionError,
    action_of_order,
    action_parts,
    mila_text,
    order_of_action,
    possible_actions,
)
from .batched import NO_ACTION, BatchedDiplomacyState
from .single import DiplomacyState
from .state import Observation, ReferenceDiplomacyState, Season

__all__ = [
    "AREAS",
    "NO_ACTION",
    "PROVINCES",
    "ActionError",
    "BatchedDiplomacyState",
    "DiplomacyState",
    "Observation",
    "ReferenceDiplomacyState",
    "Season",
    "action_of_order",
    "action_parts",
    "mila_text",
    "order_of_action",
    "possible_actions",
]
