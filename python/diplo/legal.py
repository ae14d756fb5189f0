"""An alias kept from earlier releases: :mod:`diplo.legal` is now :mod:`diplo.api.legal`.

Code written against the old module runs unchanged; new code imports the new home.
"""

from __future__ import annotations

from .api.legal import *  # noqa: F403
