"""diplo needs its compiled core (``diplo._core``). A source tree put on the path
(``PYTHONPATH=.../python``) after a plain ``pip install .`` has none (pip builds it into the
installed copy only) and hides the installed diplo: imported first by the package, this module
says so and what to do, instead of a circular-import message from the first module that needs
the core."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_PACKAGE = __name__.rpartition(".")[0]

if importlib.util.find_spec(f"{_PACKAGE}._core") is None:
    raise ImportError(
        f"diplo's compiled core (_core) is not in {Path(__file__).parent}: this source tree was "
        "not built in place. Build it there (pip install -e . from the checkout), or run "
        "without PYTHONPATH to use the diplo pip installed.",
        name=f"{_PACKAGE}._core",
    )
