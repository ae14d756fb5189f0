"""An alias kept from earlier releases: :mod:`diplo.variants` is now :mod:`diplo.model.variants`.

Code written against the old module runs unchanged; new code imports the new home.
"""

from __future__ import annotations

from .model.variants import *  # noqa: F403
