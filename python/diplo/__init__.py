"""diplo: a Diplomacy adjudicator that follows the DATC v3.0 (2023 rules).

The everyday API, importable from here::

    import diplo

    position = diplo.Position.initial(diplo.standard_map())
    outcome = diplo.process_phase(position, {"FRANCE": ["A PAR - BUR"]})
    game = diplo.Game(max_year=1905)              # whole games, phase after phase
    options = diplo.legal_orders(game.position)   # every legal order per unit
    codes = diplo.CodeGame()                      # the code API: integer-coded orders
    mila = diplo.Rules(edition="mila")            # the rules a game is played under

Orders are text in the short form (``A PAR - BUR``) or objects (:func:`parse_order`,
:func:`format_order`). Bad input raises one of the error types below, all subclasses of
``ValueError`` except :class:`GameOverError` (a ``RuntimeError``). The JSON contract of
``diplo adjudicate`` ships in the package: ``diplo/docs/json-contract.md``.

The package is layered, each layer importing only the ones before it (``docs/design.md``):
:mod:`diplo.model` (map, orders, positions, rules, results), :mod:`diplo.reference` (the rules in
plain Python) and :mod:`diplo.engine` (the Rust engine) side by side, :mod:`diplo.api` (the one
front door: ``process_phase``, ``Game``, legal orders), :mod:`diplo.formats` (the JSON contract,
game files, MILA's saved games), and the applications (:mod:`diplo.apps`, :mod:`diplo.render`,
:mod:`diplo.rollouts`, :mod:`diplo.env`, :mod:`diplo.compat`).
"""

from __future__ import annotations

# First: the compiled core is there (a clear ImportError if not); modules imported below read
# the version from the package; render registers the board pictures with model.display.
from . import _corecheck, render  # noqa: F401
from ._version import __version__
from .api.game import Game, GameOverError
from .api.legal import legal_order_texts, legal_orders
from .api.phase import process_phase
from .engine.codes import CodeGame, FastGame, process_batch
from .formats.contract import DocumentError
from .formats.gamefile import GameFileError
from .formats.mila import MilaError
from .model.map import Map, MapError, standard_map
from .model.orders import Order, OrderParseError, format_order, parse_order
from .model.position import Phase, Position, PositionError
from .model.results import PhaseOutcome, Result
from .model.rules import Rules, RulesError

__all__ = [
    "CodeGame",
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
    "Rules",
    "RulesError",
    "__version__",
    "format_order",
    "legal_order_texts",
    "legal_orders",
    "parse_order",
    "process_batch",
    "process_phase",
    "standard_map",
]
