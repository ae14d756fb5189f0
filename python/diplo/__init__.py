"""diplo: a Diplomacy adjudicator that follows the DATC v3.0 (2023 rules)."""

from __future__ import annotations

__version__ = "0.1.0"
