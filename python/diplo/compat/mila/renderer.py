"""MILA's ``diplomacy.engine.renderer.Renderer`` for a drop-in game: the same call, drawn by
diplo's renderer (:meth:`diplo.compat.mila.Game.render`; MILA's artwork is not used)."""

from __future__ import annotations

from typing import Any

__all__ = ["Renderer"]


class Renderer:
    """``Renderer(game, svg_path=None).render(...)``, as MILA's: the SVG text of ``game``'s
    board. ``svg_path`` (MILA's own artwork) is accepted for MILA's signature and not read."""

    def __init__(self, game: Any, svg_path: str | None = None) -> None:
        if not callable(getattr(game, "render", None)):
            raise TypeError(
                f"Renderer: expected a diplo.compat.mila.Game, got {type(game).__name__}"
            )
        self.game = game
        self.svg_path = svg_path

    def render(
        self,
        incl_orders: bool = True,
        incl_abbrev: bool = False,
        output_format: str = "svg",
        output_path: str | None = None,
    ) -> str:
        """The board as SVG text (see :meth:`diplo.compat.mila.Game.render`)."""
        text: str = self.game.render(
            incl_orders=incl_orders,
            incl_abbrev=incl_abbrev,
            output_format=output_format,
            output_path=output_path,
        )
        return text
