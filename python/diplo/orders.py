"""An alias kept from earlier releases: :mod:`diplo.orders` is now :mod:`diplo.model.orders`.

Code written against the old module runs unchanged; new code imports the new home.
"""

from __future__ import annotations

from .model.orders import *  # noqa: F403
