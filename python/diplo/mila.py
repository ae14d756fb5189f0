"""An alias kept from earlier releases: :mod:`diplo.mila` is now :mod:`diplo.formats.mila`.

Code written against the old module runs unchanged; new code imports the new home.
"""

from __future__ import annotations

from .formats.mila import *  # noqa: F403
