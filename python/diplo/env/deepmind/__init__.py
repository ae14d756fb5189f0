"""DeepMind's no-press agents' formats (github.com/deepmind/diplomacy) on diplo: their unit
actions and area tables, the conversion between their actions and diplo's orders, and their
``DiplomacyState`` protocol on a CodeGame. See :mod:`diplo.env.deepmind.actions` and
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
from .state import DiplomacyState, Observation, Season

__all__ = [
    "AREAS",
    "PROVINCES",
    "ActionError",
    "DiplomacyState",
    "Observation",
    "Season",
    "action_of_order",
    "action_parts",
    "mila_text",
    "order_of_action",
    "possible_actions",
]
