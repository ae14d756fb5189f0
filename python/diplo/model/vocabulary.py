"""The words of the order language (lower case), shared by the order parser and the map loader:
a province may not be named like one of them, or its own orders could not be read."""

from __future__ import annotations

HOLD = frozenset({"h", "hold", "holds", "stand", "stands"})
MOVE = frozenset({"-", "move", "moves", "to", "m"})
SUPPORT = frozenset({"s", "support", "supports", "sup"})
CONVOY = frozenset({"c", "convoy", "convoys"})
RETREAT = frozenset({"r", "retreat", "retreats"})
DISBAND = frozenset({"d", "disband", "disbands", "remove", "removes"})
BUILD = frozenset({"b", "build", "builds"})
ARMY = frozenset({"a", "army"})
FLEET = frozenset({"f", "fleet"})
#: Every keyword of an order, ``via`` included (``waive`` is a whole order, not a keyword).
KEYWORDS = HOLD | MOVE | SUPPORT | CONVOY | RETREAT | DISBAND | BUILD | ARMY | FLEET | {"via"}
