"""An alias kept from earlier releases: :mod:`diplo.position` is now :mod:`diplo.model.position`.

Code written against the old module runs unchanged; new code imports the new home.
"""

from __future__ import annotations

from .model.position import *  # noqa: F403
