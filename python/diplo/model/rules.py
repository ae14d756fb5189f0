"""The rulebook as a value: the options a game is played under.

:class:`Rules` holds every choice the rules leave open that diplo supports. The defaults are the
DATC v3.0 preferences, which follow the 2023 rulebook; a house rule is a different value, never a
fork. A position carries its rules (``Position.rules``), so everything that rules on a position
reads them from there, and so do the game file and the JSON contract (an optional ``"rules"``
object, ``docs/rules-and-variants.md``). The Rust engine has the same value with the same meaning
(``rust/src/engine/rules.rs``); the cross-check tests hold the two together.

Each option is read in one place per language:

* ``civil_disorder`` -- :func:`diplo.adjustments.civil_disorder_disbands`: the units of a power
  that owes disbands and orders too few are removed farthest first, the distance counted over
  every border to the nearest supply centre the power *owns* (``"owned"``, the 2023 rulebook,
  DATC 4.D.8 and 6.J.11) or to the nearest of its *home* centres (``"home"``, the older
  rulebooks, as DATC 6.J.11 describes).
* ``build_sites`` -- :func:`diplo.adjustments.build_sites`: a power builds in its vacant, owned
  home centres (``"home"``) or in any vacant centre it owns (``"any"``, the "build anywhere"
  variant rule, MILA's ``BUILD_ANY``).
* ``victory_centers`` -- :meth:`Rules.victory`: the centres a power needs after a Fall turn to win
  alone; ``None`` takes the map's count (18 on the standard map).
* ``year_limit`` -- the last year played: the game ends in a draw when a phase of a later year
  would come next (``None``: no limit).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

__all__ = ["DEFAULT_RULES", "BuildSites", "CivilDisorder", "Rules", "RulesError"]

CivilDisorder: TypeAlias = Literal["owned", "home"]
BuildSites: TypeAlias = Literal["home", "any"]

_CIVIL_DISORDER = ("owned", "home")
_BUILD_SITES = ("home", "any")
_KEYS = ("civil_disorder", "build_sites", "victory_centers", "year_limit")
#: The last year limit: ``diplo.checks.MAX_YEAR - 1``, as for ``max_year`` (a game ended by its
#: limit shows its final board in the year after). Not imported from ``diplo.checks``, which
#: reads maps, which carry rules; ``tests/test_rules.py`` holds the two together.
LAST_YEAR_LIMIT = 9_998


class RulesError(ValueError):
    """A rules object that names an unknown option or gives an option a bad value."""


def _count(value: object, what: str, low: int, high: int) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise RulesError(f"rules: {what} must be an integer from {low} to {high} or null")
    return value


@dataclass(frozen=True, slots=True)
class Rules:
    """The options a game is played under (see the module documentation)."""

    civil_disorder: CivilDisorder = "owned"
    build_sites: BuildSites = "home"
    victory_centers: int | None = None
    year_limit: int | None = None

    def __post_init__(self) -> None:
        if self.civil_disorder not in _CIVIL_DISORDER:
            raise RulesError(
                f"rules: civil_disorder must be 'owned' (2023) or 'home' (older rulebooks), "
                f"got {self.civil_disorder!r}"
            )
        if self.build_sites not in _BUILD_SITES:
            raise RulesError(
                f"rules: build_sites must be 'home' or 'any', got {self.build_sites!r}"
            )
        _count(self.victory_centers, "victory_centers", 1, 1000)
        _count(self.year_limit, "year_limit", 1, LAST_YEAR_LIMIT)

    def victory(self, map_victory: int) -> int:
        """The centres a power needs to win alone, given the map's own count."""
        return map_victory if self.victory_centers is None else self.victory_centers

    @property
    def is_default(self) -> bool:
        return self == DEFAULT_RULES

    def to_json(self) -> dict[str, Any]:
        """Every option, defaults included (so a saved game says what it was played under)."""
        return {key: getattr(self, key) for key in _KEYS}

    @classmethod
    def from_json(cls, doc: object, base: Rules | None = None) -> Rules:
        """Read a ``"rules"`` object; absent keys keep their value in ``base`` (default: the
        defaults), unknown keys are refused (an unknown key is almost always a misspelt option
        that would otherwise be ignored). ``None`` is ``base``."""
        base = DEFAULT_RULES if base is None else base
        if doc is None:
            return base
        if not isinstance(doc, Mapping):
            raise RulesError("'rules' must be an object")
        unknown = sorted(str(k) for k in doc if k not in _KEYS)
        if unknown:
            raise RulesError(
                f"rules: unknown option(s) {', '.join(map(repr, unknown))} "
                f"(known: {', '.join(_KEYS)})"
            )
        return cls(**{**base.to_json(), **{str(k): v for k, v in doc.items()}})

    @classmethod
    def parse(cls, text: str, base: Rules | None = None) -> Rules:
        """Read the CLI form: ``key=value`` pairs separated by commas, e.g.
        ``civil_disorder=home,build_sites=any,victory_centers=10`` (``none`` for no value);
        options not named keep their value in ``base`` (default: the defaults)."""
        doc: dict[str, Any] = {}
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, sep, value = part.partition("=")
            if not sep:
                raise RulesError(f"rules: expected key=value, got {part!r}")
            key, value = key.strip(), value.strip()
            if key in ("victory_centers", "year_limit"):
                if value.lower() in ("none", "null", ""):
                    doc[key] = None
                else:
                    try:
                        doc[key] = int(value)
                    except ValueError:
                        raise RulesError(
                            f"rules: {key} must be an integer, got {value!r}"
                        ) from None
            else:
                doc[key] = value
        return cls.from_json(doc, base)


DEFAULT_RULES = Rules()
