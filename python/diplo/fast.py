"""A public alias of the first layout: :mod:`diplo.fast` is now :mod:`diplo.engine.codes`.

Code written against the old path (the README documented it before the layers) runs unchanged;
nothing inside the project imports it (`tools/check_imports.py`); new code imports the new home.
"""

from __future__ import annotations

from .engine.codes import *  # noqa: F403
