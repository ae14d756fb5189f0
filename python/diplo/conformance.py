"""An alias kept from earlier releases: :mod:`diplo.conformance`
is now :mod:`diplo.apps.conformance`.

Code written against the old module runs unchanged; new code imports the new home.
"""

from __future__ import annotations

from .apps.conformance import *  # noqa: F403
