"""``python -m diplo``: the ``diplo`` command line."""

from __future__ import annotations

import sys

from .apps.cli import entry

sys.exit(entry())
