"""A public alias of the first layout: :mod:`diplo.conformance`
is now :mod:`diplo.apps.conformance`.

Code written against the old path (the README documented it before the layers) runs unchanged;
nothing inside the project imports it (`tools/check_imports.py`); new code imports the new home.
"""

from __future__ import annotations

from .apps.conformance import *  # noqa: F403
