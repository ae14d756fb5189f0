"""A drop-in for the MILA engine's ``diplomacy.Game`` (PyPI ``diplomacy`` 1.1.2), ruled by diplo.

Most Python Diplomacy bots, analysis tools and agent harnesses are written against MILA's
``Game``. This module offers that API, with MILA's order notation, state dictionaries, press,
histories, map queries and saved games, played on diplo's engine (:mod:`diplo.engine.mila`), so
that such code switches engines by changing its imports::

    from diplo.compat.mila import Game, Message, GLOBAL, Map   # was: from diplomacy import ...

    game = Game()
    while not game.is_game_done:
        possible = game.get_all_possible_orders()
        for power, locs in game.get_orderable_locations().items():
            game.set_orders(power, [sorted(possible[loc])[0] for loc in locs if possible[loc]])
        game.process()

``docs/mila-compat.md`` lists what is offered and where it differs from MILA. In short:

* A drop-in of MILA rules as MILA unless told otherwise: a new game's ruling is MILA's
  (``Rules(edition="mila")`` on the map's rules); diplo's rulings by the DATC v3.0 are asked for
  by name, ``Game(ruling="datc")``, or with no code change ``DIPLO_MILA_RULING=datc`` or
  :func:`set_default_ruling` (``ruling=`` also takes a :class:`diplo.model.rules.Rules`); a
  saved game is replayed under the ruling it records, MILA's when it records none. The places
  where MILA departs from the DATC are named in ``docs/mila-compat.md`` and in
  ``tests/test_compat_mila_suite.py``.
* Power objects (``game.powers``, ``game.get_power``) are MILA's live objects: edits of their
  ``units``, ``centers``, ``retreats`` and ``orders`` change the game, as in MILA. The board is
  kept in the engine's codes; MILA's lists are made when first asked for in a phase.
* Possible orders are diplo's legal orders in MILA's text; result labels are plain strings (MILA's
  ``StringableCode`` objects compare equal to them).
* Games copy (``copy.deepcopy``) and pickle, which MILA's cannot.

The drop-in is a package, one module per concern (``docs/design.md``, "The MILA drop-in"):
:mod:`~diplo.compat.mila.names` (MILA's names, exceptions, slot kinds),
:mod:`~diplo.compat.mila.turn` (one phase as a bot sees it), :mod:`~diplo.compat.mila.powers`,
the parts of a game (:mod:`~diplo.compat.mila.base`, the board part: the engine's game and
MILA's lists; :mod:`~diplo.compat.mila.board`; :mod:`~diplo.compat.mila.intake`, order intake;
:mod:`~diplo.compat.mila.history`, processing and histories; :mod:`~diplo.compat.mila.press`),
:mod:`~diplo.compat.mila.records`, :mod:`~diplo.compat.mila.labels` (MILA's result labels),
:mod:`~diplo.compat.mila.game` (``Game``, made of those parts) and
:mod:`~diplo.compat.mila.saved` (saved games). Everything a user imports is here.
"""

from __future__ import annotations

from ...formats.mila import MilaError
from .._map import Map
from .._press import GLOBAL, OBSERVER, OMNISCIENT, SYSTEM, GamePhaseData, History, Message
from .base import map_named
from .game import Game
from .modules import install, uninstall
from .names import DEFAULT_RULES as DEFAULT_RULES
from .names import DRAW_AFTER_YEARS as DRAW_AFTER_YEARS
from .names import ERROR_LIMIT as ERROR_LIMIT
from .names import GamePhaseException, MapPowerException
from .names import SlotKind as SlotKind
from .powers import Power, power_of
from .records import Record
from .renderer import Renderer
from .ruling import default_ruling, set_default_ruling
from .saved import (
    from_saved_game_format,
    is_valid_saved_game,
    load_saved_games_from_disk,
    save_game,
    to_saved_game_format,
)

__all__ = [
    "GLOBAL",
    "OBSERVER",
    "OMNISCIENT",
    "SYSTEM",
    "Game",
    "GamePhaseData",
    "GamePhaseException",
    "History",
    "Map",
    "MapPowerException",
    "Message",
    "MilaError",
    "Power",
    "Renderer",
    "default_ruling",
    "from_saved_game_format",
    "install",
    "is_valid_saved_game",
    "load_saved_games_from_disk",
    "save_game",
    "set_default_ruling",
    "to_saved_game_format",
    "uninstall",
]

# The names pickles of earlier releases refer to (the drop-in was one module then).
_Record = Record
_power_of = power_of
_map_named = map_named
