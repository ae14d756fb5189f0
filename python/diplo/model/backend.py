"""The names of the two backends every front end accepts (the choice itself is
:mod:`diplo.api.backends`)."""

from __future__ import annotations

from typing import Literal, TypeAlias

Backend: TypeAlias = Literal["rust", "python"]
BACKENDS: tuple[Backend, ...] = ("rust", "python")
