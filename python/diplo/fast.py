"""An alias kept from earlier releases: :mod:`diplo.fast` is now :mod:`diplo.engine.codes`.

Code written against the old module runs unchanged; new code imports the new home.
"""

from __future__ import annotations

from .engine.codes import *  # noqa: F403
