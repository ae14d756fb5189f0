"""DeepMind's no-press agents' formats (github.com/deepmind/diplomacy) on diplo: their unit
actions and area tables, and the conversion between their actions and diplo's orders.
See :mod:`diplo.env.deepmind.actions`."""

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

__all__ = [
    "AREAS",
    "PROVINCES",
    "ActionError",
    "action_of_order",
    "action_parts",
    "mila_text",
    "order_of_action",
    "possible_actions",
]
