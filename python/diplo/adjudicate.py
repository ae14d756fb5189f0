"""A public alias of the first layout: :mod:`diplo.adjudicate`
is now :mod:`diplo.model.results`, :mod:`diplo.api.phase`, :mod:`diplo.formats.contract`.

Code written against the old path (the README documented it before the layers) runs unchanged;
nothing inside the project imports it (`tools/check_imports.py`); new code imports the new home.
"""

from __future__ import annotations

from .api.phase import *  # noqa: F403
from .formats.contract import *  # noqa: F403
from .model.results import *  # noqa: F403
