"""A public alias of the first layout: :mod:`diplo.position` is now :mod:`diplo.model.position`.

Code written against the old path (the README documented it before the layers) runs unchanged;
nothing inside the project imports it (`tools/check_imports.py`); new code imports the new home.
"""

from __future__ import annotations

from .model.position import *  # noqa: F403
