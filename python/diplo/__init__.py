"""diplo: a Diplomacy adjudicator that follows the DATC v3.0 (2023 rules).

The everyday API, importable from here::

    import diplo

    position = diplo.Position.initial(diplo.standard_map())
    outcome = diplo.process_phase(position, {"FRANCE": ["A PAR - BUR"]})
    game = diplo.Game(max_year=1905)              # whole games, phase after phase
    options = diplo.legal_orders(game.position)   # every legal order per unit
    fast = diplo.FastGame()                       # the fast path: integer-coded orders

Orders are text in the short form (``A PAR - BUR``) or objects (:func:`parse_order`,
:func:`format_order`). Bad input raises one of the error types below, all subclasses of
``ValueError`` except :class:`GameOverError` (a ``RuntimeError``). The JSON contract of
``diplo adjudicate`` ships in the package: ``diplo/docs/json-contract.md``. Other modules:
:mod:`diplo.gamefile` and :mod:`diplo.mila` (game files), :mod:`diplo.compat.mila` (a drop-in for
MILA's ``Game``), :mod:`diplo.player`, :mod:`diplo.conformance`.
"""

from __future__ import annotations

# First: modules imported below read the version from the package.
from ._version import __version__
from .adjudicate import DocumentError, PhaseOutcome, Result, process_phase
from .fast import FastGame
from .game import Game, GameOverError
from .gamefile import GameFileError
from .legal import legal_orders
from .map import Map, MapError, standard_map
from .mila import MilaError
from .orders import Order, OrderParseError, format_order, parse_order
from .position import Phase, Position, PositionError

__all__ = [
    "DocumentError",
    "FastGame",
    "Game",
    "GameFileError",
    "GameOverError",
    "Map",
    "MapError",
    "MilaError",
    "Order",
    "OrderParseError",
    "Phase",
    "PhaseOutcome",
    "Position",
    "PositionError",
    "Result",
    "__version__",
    "format_order",
    "legal_orders",
    "parse_order",
    "process_phase",
    "standard_map",
]
