"""An alias kept from earlier releases: :mod:`diplo.adjudicate`
is now :mod:`diplo.model.results`, :mod:`diplo.api.phase`, :mod:`diplo.formats.contract`.

Code written against the old module runs unchanged; new code imports the new home.
"""

from __future__ import annotations

from .api.phase import *  # noqa: F403
from .formats.contract import *  # noqa: F403
from .model.results import *  # noqa: F403
