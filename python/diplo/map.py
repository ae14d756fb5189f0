"""An alias kept from earlier releases: :mod:`diplo.map` is now :mod:`diplo.model.map`.

Code written against the old module runs unchanged; new code imports the new home.
"""

from __future__ import annotations

from .model.map import *  # noqa: F403
