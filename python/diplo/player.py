"""An alias kept from earlier releases: :mod:`diplo.player` is now :mod:`diplo.api.player`.

Code written against the old module runs unchanged; new code imports the new home.
"""

from __future__ import annotations

from .api.player import *  # noqa: F403
