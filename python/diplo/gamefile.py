"""An alias kept from earlier releases: :mod:`diplo.gamefile` is now :mod:`diplo.formats.gamefile`.

Code written against the old module runs unchanged; new code imports the new home.
"""

from __future__ import annotations

from .formats.gamefile import *  # noqa: F403
