"""Board pictures: SVG of a position or a phase, and an HTML page stepping through a game.

Importing the package registers its drawers with :mod:`diplo.model.display`, so a
:class:`~diplo.model.position.Position` or a :class:`~diplo.model.results.PhaseOutcome` shows as
a board in a notebook (``import diplo`` does it).
"""

from __future__ import annotations

from ..model import display
from ..model.position import Position
from ..model.results import PhaseOutcome
from .frames import frame_of_outcome
from .svg import board_svg


def _outcome_svg(outcome: PhaseOutcome) -> str:
    return frame_of_outcome(outcome).svg()


display.register(Position, board_svg)
display.register(PhaseOutcome, _outcome_svg)
