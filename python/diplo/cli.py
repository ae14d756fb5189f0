"""A public alias of the first layout: :mod:`diplo.cli` is now :mod:`diplo.apps.cli`.

Code written against the old path (the README documented it before the layers) runs unchanged;
nothing inside the project imports it (`tools/check_imports.py`); new code imports the new home.
"""

from __future__ import annotations

from .apps.cli import *  # noqa: F403
from .apps.cli import entry as entry
from .apps.cli import main as main

if __name__ == "__main__":  # pragma: no cover  (python -m diplo.cli, as before)
    import sys

    sys.exit(entry())
