"""An alias kept from earlier releases: :mod:`diplo.rules` is now :mod:`diplo.model.rules`.

Code written against the old module runs unchanged; new code imports the new home.
"""

from __future__ import annotations

from .model.rules import *  # noqa: F403
