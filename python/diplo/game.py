"""An alias kept from earlier releases: :mod:`diplo.game` is now :mod:`diplo.api.game`.

Code written against the old module runs unchanged; new code imports the new home.
"""

from __future__ import annotations

from .api.game import *  # noqa: F403
