"""The rulebook as a value: the options a game is played under.

:class:`Rules` holds every choice the rules leave open that diplo supports. The defaults are the
DATC v3.0 preferences, which follow the 2023 rulebook; a house rule is a different value, never a
fork. A position carries its rules (``Position.rules``), so everything that rules on a position
reads them from there, and so do the game file and the JSON contract (an optional ``"rules"``
object, ``docs/rules-and-variants.md``). The Rust engine has the same value with the same meaning
(``rust/src/engine/rules.rs``); the cross-check tests hold the two together.

Each option is read in one place per language:

* ``civil_disorder`` -- :func:`diplo.reference.adjustments.civil_disorder_disbands`: the units of a
power
  that owes disbands and orders too few are removed farthest first, the distance counted over
  every border to the nearest supply centre the power *owns* (``"owned"``, the 2023 rulebook,
  DATC 4.D.8 and 6.J.11) or to the nearest of its *home* centres (``"home"``, the older
  rulebooks, as DATC 6.J.11 describes).
* ``disorder_tie`` -- the same function: of the units as far as each other, fleets go before
  armies (DATC 6.J.7), then in the alphabetical order of their provinces' English names
  (``"name"``, DATC 6.J.4 and 6.J.6) or of the abbreviations the map gives their locations,
  compared letter by letter in lower case (``"abbreviation"``: godip's ``phase/phase.go``,
  ``remoteUnitSlice.Less``, orders them by its province ids, which are the abbreviations of the
  maps imported from godip).
* ``build_sites`` -- :func:`diplo.reference.adjustments.build_sites`: a power builds in its vacant,
owned
  home centres (``"home"``), in any vacant centre it owns (``"any"``, the "build anywhere"
  variant rule, MILA's ``BUILD_ANY``) or in any vacant centre it owns that is a home centre of
  some power, its own or another's (``"any_home"``, godip's ``AnyHomeCenter`` of twentytwenty:
  never in a centre that is nobody's home).
* ``victory_centers`` -- :meth:`Rules.victory`: the centres a power needs after a Fall turn to win
  alone; ``None`` takes the map's count (18 on the standard map).
* ``victory_lead`` -- :meth:`Rules.winner`: whether the power with the victory count must also own
  strictly more centres than every other power (``True``: godip's ``SCCountWinner``, so a tie at
  the top wins nobody); ``False`` (the rulebook): the victory count alone wins, the larger of two
  powers that both reach it (the first in map order when they have as many).
* ``victory_margin_year`` -- :meth:`Rules.winner`: ``None`` (the rulebook), or a year ``Y``: a
  power owning strictly more centres than every other also wins, whatever its count, when its
  lead over the next power is greater than ``Y`` minus the current year (godip's twentytwenty,
  ``Y`` = 2020: a lead of more than 19 in 2001, of more than 0 from 2020 on).
  :meth:`Rules.victory_text` says in a sentence why a power won (``Game.end_text``).
* ``year_limit`` -- the last year played: the game ends in a draw when a phase of a later year
  would come next (``None``: no limit).

The rulebook editions (DATC chapter 4): ``edition`` names a rulebook and sets the choices the
DATC ties to it (:data:`EDITIONS`, read from the one table of them, ``diplo/data/editions.json``,
which the Rust engine is built from too); an option given explicitly overrides
the edition's. The movement choices are read by the resolver, one decision each
(``diplo.reference.resolver``; ``rust/src/resolver``):

* ``adjacent_convoy`` (4.A.3) -- when an army ordered to a neighbouring province goes by convoy:
  ``"intent"`` (1982, 2000, 2023: ordered "via convoy", or a fleet of its own power ordered to
  convoy it; no fallback to the land route, 6.G.8), ``"explicit"`` (the DPTG: only "via
  convoy"), ``"opposite"`` (1971: whoever's fleet convoys it, but only when the unit in the
  destination moves the opposite way: a swap).
* ``convoy_disruption`` (4.A.1) -- a multi-route convoy fails when ``"all"`` its routes are
  broken (1982 onwards) or when ``"any"`` of them is (1971).
* ``paradox`` (4.A.2) -- the convoy paradox rule: ``"szykman"`` (the DATC's preference, with
  2000 and 2023), ``"1971"`` (a convoyed army does not cut the support of a fleet attacking one
  of its convoying fleets), ``"1982"`` (a convoyed army does not cut a support of an action in
  a sea holding a convoying fleet) or ``"2000"`` (the 2000 and 2023 rulebooks' text: a convoyed
  army does not cut a support of an attack on a fleet every route of it needs). Where the
  rule gives no answer, Szykman's decides.

``edition="mila"`` is today's rulings but where MILA (``diplomacy`` 1.1.2) departs from the DATC
(``docs/mila-compat.md``), each departure an option of its own: ``convoy_fallback="land"`` (an
army convoyed to a neighbour moves overland when its convoy orders form no route, or, not
ordered "via convoy", when its convoy is disrupted; the 1971 edition reads 6.G.4 so too),
``support_coast="any"`` (a fleet's move support counts whatever coast it names),
``own_support="convoyed"`` (a power's support of an attack on its own unit counts when the attack
is convoyed "via convoy" or beyond the army's neighbours), ``head_to_head_own_support="void"`` (in a
head-to-head battle a power's support of the foreign attack on its own unit gives that attack no
defence either, unless both moves have as many supports: MILA voids the support, where DATC 6.E.12
counts it for all but dislodging), ``convoyed_attack_from="sea"`` (a
convoyed attack does not cut a support to hold a fleet every route of it needs, nor break it by
dislodging its unit: ``Game._resolve_moves`` step 9),
``retreat_after_convoy="any"`` (a unit dislodged by a convoyed attack lists every place it could
move to among its retreat options, occupied provinces included, and may retreat to any of them
that is vacant, a standoff's included; the rulebook, ``"vacant"``: only to a vacant province no
standoff left empty, DATC 6.H.6), ``convoy_broken_by="any_support"`` (a convoying fleet stops
convoying when a foreign attack on it would dislodge it counting every support it has, those of
the fleet's own power included, though such an attack does not dislodge the fleet: MILA's
``Game._check_disruptions`` compares the raw strengths of ``Game._strengths``; and when the unit
at the army's destination supports the fleet to hold, an attack as strong as all else in the
fleet's sea is enough, MILA's paradox check ``Game._detect_paradox``; an army whose routes
that first check broke, though a later round lets it move, no longer moves via convoy: it meets
a unit moving the other way head to head, ``Game._is_moving_via_convoy``; and an army convoyed
by intent to a neighbour does not fall back overland when the unit at its destination, or one
its support and convoy orders lead to, supports a move into a broken fleet's province, MILA's
second paradox check; the rulebook,
``"dislodgement"``: only a fleet actually dislodged breaks its convoy, DATC 5.B.3, 6.D.12) and
``waive="free"`` (a waive never uses up a build); in civil disorder, besides the home centres,
``disorder_distance="fleet_moves"`` (a fleet's distance counts only the moves a fleet can make,
``Game._get_distance_to_home``; the rulebook, ``"any_border"``: every border whatever the unit
type, DATC 6.J.6) and ``disorder_tie="abbreviation"`` (MILA removes the first unit by its text,
``"A NAF"`` before ``"A NAP"``); and ``port_convoy="first"`` (a fleet in a port, a coastal
province whose fleet may convoy, carries an army only as the first fleet of its chain: MILA's
``utils/convoy_paths.py``, ``_get_convoy_paths``, takes a port reached from a sea as a
destination; and a support of a convoyed move is possible when a chain runs from the destination
back to the army without the supporter, as ``Game.get_all_possible_orders`` reads it, a chain
from a port holding a fleet passing back through that fleet too (``_get_convoy_paths`` queues its
start as a carrier); the maps' rule, ``"anywhere"``: as a fleet at sea, anywhere in the chain);
and ``convoyed_support="any_route"`` (a support of an army's convoyed move is legal when any chain
of the fleets on the board, the supporter's own included, runs from the army to the destination:
``Game._valid_order`` asks ``_has_convoy_path('A', army, dest)``; so a fleet may support a move
only it could carry, which then has no convoy and the support is void; the rulebook,
``"unneeded"``: only when a chain without the supporting fleet carries it, DATC 6.D.31, read from
the destination back under ``port_convoy="first"`` as MILA lists such supports).

``edition="godip"`` is today's rulings but where godip (the judge behind Diplicity) departs from
them: ``victory_lead=True`` (``variants/common/common.go``, ``SCCountWinner``),
``civil_disorder="home"`` (``phase/phase.go``, ``SortedUnits``: the units farthest from the
nation's home centres go first; twentytwenty's recorded games tell the two rules apart),
``disorder_tie="abbreviation"`` (the same sort's tie-break, by godip's province ids) and
``convoy_fallback="via"`` (``orders/convoy.go``, ``MustConvoy``: an army ordered "via convoy" to a
neighbouring province whose convoy orders form no route moves overland, as DATC v2.4's 6.G.8
preferred; one convoyed by its own fleet's order never falls back) and
``convoy_chains="any_fleets"`` (``orders/convoy.go``, ``convoy.Validate`` and ``MustConvoy`` with
``ViaNation``: a fleet at sea may be ordered to convoy an army wherever any chain of fleets joins
the army to its destination, on a route or not, and its order shows its power's army's intent
to go by convoy when chains of any fleets, whatever their orders, join the army to the fleet
and the fleet to the destination; the rulebook, ``"route"``: only a fleet on a route of the army
may convoy it, DATC 6.G.19, 4.E.1, and its power's legal convoy order shows the intent).

``edition="dipcc"`` is today's rulings but where dipcc (Meta's engine behind Cicero,
``docs/dipcc-compat.md``) departs from them: ``adjacent_convoy="explicit"`` (``process_m`` takes a
plain move to a neighbour as a land move; only "VIA" convoys it), ``convoy_fallback="via_always"``
(an army ordered "VIA" to a neighbouring province moves overland whenever its convoy does not
carry it: its convoy orders form no route, a convoying fleet is dislodged, or a paradox stops
it; ``via_adj`` in ``process_m`` and ``_disable_convoy_fleet``), ``civil_disorder="home"`` and
``disorder_tie="abbreviation"`` (``do_civil_disorder``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any, Literal, NamedTuple, TypeAlias

from .limits import show
from .wording import power_name

__all__ = [
    "DATC_DEPARTURES",
    "DEFAULT_RULES",
    "EDITIONS",
    "AdjacentConvoy",
    "BuildSites",
    "CivilDisorder",
    "ConvoyBrokenBy",
    "ConvoyChains",
    "ConvoyDisruption",
    "ConvoyFallback",
    "ConvoyedAttackFrom",
    "ConvoyedSupport",
    "Departure",
    "DisorderDistance",
    "DisorderTie",
    "Edition",
    "HeadToHeadOwnSupport",
    "OwnSupport",
    "Paradox",
    "PortConvoy",
    "RetreatAfterConvoy",
    "Rules",
    "RulesError",
    "SupportCoast",
    "Waive",
    "datc_departures",
]

CivilDisorder: TypeAlias = Literal["owned", "home"]
DisorderTie: TypeAlias = Literal["name", "abbreviation"]
BuildSites: TypeAlias = Literal["home", "any", "any_home"]
Edition: TypeAlias = Literal["1971", "1982", "2000", "2023", "dptg", "mila", "godip", "dipcc"]
AdjacentConvoy: TypeAlias = Literal["intent", "explicit", "opposite"]
ConvoyDisruption: TypeAlias = Literal["all", "any"]
Paradox: TypeAlias = Literal["szykman", "1971", "1982", "2000"]
ConvoyFallback: TypeAlias = Literal["none", "land", "via", "via_always"]
SupportCoast: TypeAlias = Literal["match", "any"]
OwnSupport: TypeAlias = Literal["never", "convoyed"]
HeadToHeadOwnSupport: TypeAlias = Literal["counts", "void"]
ConvoyedAttackFrom: TypeAlias = Literal["army", "sea"]
RetreatAfterConvoy: TypeAlias = Literal["vacant", "any"]
ConvoyBrokenBy: TypeAlias = Literal["dislodgement", "any_support"]
DisorderDistance: TypeAlias = Literal["any_border", "fleet_moves"]
PortConvoy: TypeAlias = Literal["anywhere", "first"]
ConvoyChains: TypeAlias = Literal["route", "any_fleets"]
ConvoyedSupport: TypeAlias = Literal["unneeded", "any_route"]
Waive: TypeAlias = Literal["uses_build", "free"]


def _read_editions() -> tuple[Mapping[str, Mapping[str, str | bool]], dict[str, tuple[str, ...]]]:
    """The editions (each with every choice it makes: its own, else the default edition's) and
    the names each option takes, from the one table of them, ``diplo/data/editions.json``,
    which the Rust engine is built from as well (``rust/build.rs``)."""
    doc = json.loads(resources.files("diplo.data").joinpath("editions.json").read_text("utf-8"))
    rows = {row["name"]: row["choices"] for row in doc["editions"]}
    today = rows[doc["default"]]
    editions = {name: MappingProxyType({**today, **choices}) for name, choices in rows.items()}
    for name, choices in rows.items():
        unknown = set(choices) - set(today)
        if unknown:  # held by tests/test_rules.py; a typo would be an option no edition sets
            raise ValueError(f"editions.json: {name} sets {sorted(unknown)}, not in the default")
    values = {key: tuple(names) for key, names in doc["values"].items()}
    return MappingProxyType(editions), values


#: The choices each rulebook edition makes (DATC v3.0 chapter 4, listed with their sections in
#: ``docs/rules-and-variants.md``), from the one table of them, ``diplo/data/editions.json``
#: (each edition's notes say where its choices come from). An option a rules object names
#: explicitly overrides its edition's.
EDITIONS: Mapping[str, Mapping[str, str | bool]]
EDITIONS, _VALUES = _read_editions()
_CHOICES: Mapping[str, tuple[str, ...]] = {"edition": tuple(EDITIONS), **_VALUES}
_CIVIL_DISORDER = _CHOICES["civil_disorder"]
_BUILD_SITES = _CHOICES["build_sites"]
#: Every option by its JSON name; ``edition`` first, so that reading the options in this order
#: (as the Rust engine does) applies the edition before the options that override it.
_KEYS = (
    "edition",
    "civil_disorder",
    "disorder_tie",
    "build_sites",
    "victory_centers",
    "victory_lead",
    "victory_margin_year",
    "year_limit",
    "adjacent_convoy",
    "convoy_disruption",
    "paradox",
    "convoy_fallback",
    "support_coast",
    "own_support",
    "head_to_head_own_support",
    "convoyed_attack_from",
    "retreat_after_convoy",
    "convoy_broken_by",
    "waive",
    "disorder_distance",
    "port_convoy",
    "convoy_chains",
    "convoyed_support",
)
_TIED = frozenset(k for choices in EDITIONS.values() for k in choices)
#: The value of an edition-tied field not given: the edition's choice (filled in on creation).
_FROM_EDITION: Any = None
#: The last year limit: ``diplo.model.limits.MAX_YEAR - 1``, as for ``max_year`` (a game ended by
#: its limit shows its final board in the year after). Not imported from ``diplo.model.limits``,
#: which reads maps, which carry rules; ``tests/test_rules.py`` holds the two together.
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

    civil_disorder: CivilDisorder = _FROM_EDITION
    build_sites: BuildSites = "home"
    victory_centers: int | None = None
    victory_lead: bool = _FROM_EDITION
    victory_margin_year: int | None = None
    year_limit: int | None = None
    edition: Edition = "2023"
    adjacent_convoy: AdjacentConvoy = _FROM_EDITION
    convoy_disruption: ConvoyDisruption = _FROM_EDITION
    paradox: Paradox = _FROM_EDITION
    convoy_fallback: ConvoyFallback = _FROM_EDITION
    support_coast: SupportCoast = _FROM_EDITION
    own_support: OwnSupport = _FROM_EDITION
    head_to_head_own_support: HeadToHeadOwnSupport = _FROM_EDITION
    convoyed_attack_from: ConvoyedAttackFrom = _FROM_EDITION
    retreat_after_convoy: RetreatAfterConvoy = _FROM_EDITION
    convoy_broken_by: ConvoyBrokenBy = _FROM_EDITION
    waive: Waive = _FROM_EDITION
    disorder_tie: DisorderTie = _FROM_EDITION
    disorder_distance: DisorderDistance = _FROM_EDITION
    port_convoy: PortConvoy = _FROM_EDITION
    convoy_chains: ConvoyChains = _FROM_EDITION
    convoyed_support: ConvoyedSupport = _FROM_EDITION

    def __post_init__(self) -> None:
        # (a list or an object is no edition: checked before the lookup it cannot hash for)
        if not isinstance(self.edition, str) or self.edition not in EDITIONS:
            raise RulesError(
                f"rules: edition must be one of {', '.join(map(repr, EDITIONS))}, "
                f"got {show(self.edition)}"
            )
        for key, value in EDITIONS[self.edition].items():
            if getattr(self, key) is None:
                object.__setattr__(self, key, value)
        for key in _TIED - {"civil_disorder", "victory_lead"}:
            if getattr(self, key) not in _CHOICES[key]:
                raise RulesError(
                    f"rules: {key} must be one of {', '.join(map(repr, _CHOICES[key]))}, "
                    f"got {getattr(self, key)!r}"
                )
        if self.civil_disorder not in _CIVIL_DISORDER:
            raise RulesError(
                f"rules: civil_disorder must be 'owned' (2023) or 'home' (older rulebooks), "
                f"got {self.civil_disorder!r}"
            )
        if self.build_sites not in _BUILD_SITES:
            raise RulesError(
                f"rules: build_sites must be 'home', 'any' or 'any_home', got {self.build_sites!r}"
            )
        if not isinstance(self.victory_lead, bool):
            raise RulesError(
                f"rules: victory_lead must be true or false, got {self.victory_lead!r}"
            )
        _count(self.victory_centers, "victory_centers", 1, 1000)
        _count(self.year_limit, "year_limit", 1, LAST_YEAR_LIMIT)
        _count(self.victory_margin_year, "victory_margin_year", 0, LAST_YEAR_LIMIT)

    def victory(self, map_victory: int) -> int:
        """The centres a power needs to win alone, given the map's own count."""
        return map_victory if self.victory_centers is None else self.victory_centers

    def winner(self, counts: Mapping[str, int], map_victory: int, year: int) -> str | None:
        """The power that wins alone with ``counts`` centres per power after the Fall turn of
        ``year``, or ``None``: the one with the most among those with the victory count (the
        first of them in ``counts`` on a tie), and under ``victory_lead`` only when no other
        power has as many; failing that, under ``victory_margin_year`` the power with strictly
        more centres than every other when its lead is greater than that year minus ``year``.
        """
        needed = self.victory(map_victory)
        best: str | None = None
        for power, count in counts.items():
            if count >= needed and (best is None or count > counts[best]):
                best = power
        if best is not None and not self.victory_lead:
            return best
        if best is not None and self._lead(counts, best) > 0:
            return best
        if self.victory_margin_year is None or not counts:
            return None
        leader = max(counts, key=counts.__getitem__)
        lead = self._lead(counts, leader)
        return leader if lead > 0 and lead > self.victory_margin_year - year else None

    @staticmethod
    def _lead(counts: Mapping[str, int], power: str) -> int:
        """How many more centres ``power`` owns than the next power (0 or less: no lead)."""
        others = [n for p, n in counts.items() if p != power]
        return counts[power] - max(others, default=0)

    def victory_text(
        self, winner: str, counts: Mapping[str, int], map_victory: int, year: int
    ) -> str:
        """The sentence saying why ``winner`` won alone with ``counts`` centres per power after
        the Fall turn of ``year``."""
        n = counts.get(winner, 0)
        centres = f"{n} supply centre{'s' if n != 1 else ''}"
        needed = f"the {self.victory(map_victory)} needed after a Fall turn to win alone"
        if not self.victory_lead and n >= self.victory(map_victory):
            return f"{power_name(winner)} owns {centres}, at least {needed}."
        runner = max((p for p in counts if p != winner), key=lambda p: counts[p], default=None)
        second = (
            f"the next, {power_name(runner)}, has {counts[runner]}"
            if runner is not None and counts[runner] > 0
            else "no other power owns a centre"
        )
        if n >= self.victory(map_victory):
            return (
                f"{power_name(winner)} owns {centres}, at least {needed}, and, as victory_lead "
                f"asks, more than any other power ({second})."
            )
        margin = self.victory_margin_year
        lead = self._lead(counts, winner)
        return (
            f"{power_name(winner)} owns {centres}, fewer than {needed}, but more than any other "
            f"power ({second}), and its lead of {lead} is more than {margin} minus the year "
            f"{year}, as victory_margin_year asks."
        )

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
        kept = base.to_json()
        if "edition" in doc:
            # A new edition brings its own choices; only the options the document names
            # override them (and those the editions leave alone are kept from the base).
            kept = {k: v for k, v in kept.items() if k not in _TIED}
        return cls(**{**kept, **{str(k): v for k, v in doc.items()}})

    @classmethod
    def parse(cls, text: str, base: Rules | None = None) -> Rules:
        """Read the CLI form: ``key=value`` pairs separated by commas, e.g.
        ``edition=1982,build_sites=any,victory_centers=10,victory_lead=true`` or
        ``victory_margin_year=2020`` (``none`` for no value);
        options not named keep their value in ``base`` (default: the defaults)."""
        doc: dict[str, Any] = {}
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, sep, value = part.partition("=")
            if not sep:
                raise RulesError(f"rules: expected key=value, got {part!r}")
            key, value = key.strip(), value.strip()
            if key == "victory_lead":
                flag = value.lower()
                if flag not in ("true", "false"):
                    raise RulesError(f"rules: victory_lead must be true or false, got {value!r}")
                doc[key] = flag == "true"
            elif key in ("victory_centers", "year_limit", "victory_margin_year"):
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


class Departure(NamedTuple):
    """DATC cases an edition rules otherwise than the DATC's preferred rulings, and why."""

    #: The edition's choices that rule the cases otherwise (today's values make them pass).
    options: tuple[str, ...]
    #: Why, in a few words (the DATC section or the source of the ruling).
    reason: str
    #: The DATC v3.0 case ids.
    cases: tuple[str, ...]


_HOME_DISORDER = Departure(
    ("civil_disorder",),
    "civil disorder disbands the units farthest from the home centres (4.D.8, before 2023)",
    ("6.J.6", "6.J.10", "6.J.11"),
)

#: Each edition's documented departures from the DATC's preferred rulings, the cases they decide
#: otherwise (``diplo datc --edition NAME`` reports them as departures, not failures; every
#: other case must pass). The one table of them, beside :data:`EDITIONS`; held to the suite by
#: ``tests/test_round_five_rules.py`` (each case fails under its edition and passes with the
#: named options at today's values).
DATC_DEPARTURES: Mapping[str, tuple[Departure, ...]] = {
    "1971": (
        Departure(
            ("convoy_disruption",),
            "a convoy fails when any of its routes is broken (4.A.1, 1971)",
            ("6.F.9", "6.F.10", "6.F.11", "6.F.13", "6.F.20"),
        ),
        Departure(("paradox",), "the 1971 convoy paradox rule (4.A.2)", ("6.F.16", "6.F.17")),
        Departure(
            ("convoy_disruption", "paradox"),
            "a convoy fails when any route is broken, and the 1971 paradox rule (4.A.1, 4.A.2)",
            ("6.F.19",),
        ),
        Departure(
            ("adjacent_convoy",),
            "an army goes to a neighbour by convoy only to swap places (4.A.3, 1971)",
            ("6.G.2", "6.G.7", "6.G.13", "6.G.19", "6.G.20", "6.H.11"),
        ),
        Departure(
            ("adjacent_convoy", "convoy_fallback"),
            "an army goes to a neighbour by convoy only to swap places, else overland "
            "(4.A.3, 6.G.4, 1971)",
            ("6.G.8", "6.G.11"),
        ),
        _HOME_DISORDER,
    ),
    "1982": (
        Departure(
            ("paradox",),
            "the 1982 convoy paradox rule (4.A.2)",
            (
                "6.F.16",
                "6.F.17",
                "6.F.18",
                "6.F.19",
                "6.F.20",
                "6.F.21",
                "6.F.23",
                "6.F.24",
                "6.F.25",
            ),
        ),
        _HOME_DISORDER,
    ),
    "2000": (
        Departure(
            ("paradox",), "the 2000 rulebook's convoy paradox rule (4.A.2)", ("6.F.16", "6.F.17")
        ),
        _HOME_DISORDER,
    ),
    "2023": (),
    "dptg": (
        Departure(
            ("adjacent_convoy",),
            "only an army ordered 'via convoy' goes to a neighbour by convoy (4.A.3, the DPTG)",
            ("6.G.1", "6.G.5", "6.G.6", "6.G.9", "6.G.11"),
        ),
    ),
    "mila": (
        Departure(
            ("support_coast",),
            "a fleet's move support counts whatever coast it names (MILA, docs/mila-compat.md)",
            ("6.B.9",),
        ),
        Departure(
            ("convoy_fallback",),
            "an army convoyed to a neighbour with no convoy route moves overland (MILA, "
            "docs/mila-compat.md)",
            ("6.G.8",),
        ),
        Departure(
            ("convoyed_support",),
            "a support of a convoyed move is legal when any chain of fleets carries the army, "
            "the supporting fleet's own too; the move then has no convoy and the support is "
            "void (MILA's Game._valid_order, _has_convoy_path; docs/mila-compat.md)",
            ("6.D.31",),
        ),
        _HOME_DISORDER,
    ),
    "godip": (
        Departure(
            ("convoy_fallback",),
            "an army ordered 'via convoy' to a neighbour with no convoy route moves overland "
            "(godip's orders/convoy.go, DATC v2.4's 6.G.8)",
            ("6.G.8",),
        ),
        Departure(
            ("convoy_chains",),
            "a convoy order is legal wherever any chain of fleets carries the army, and shows "
            "intent when chains of any fleets join the army to the fleet and the fleet to the "
            "destination (godip's orders/convoy.go, MustConvoy)",
            ("6.F.12", "6.G.7", "6.G.19"),
        ),
        _HOME_DISORDER,
    ),
    "dipcc": (
        Departure(
            ("adjacent_convoy",),
            "only an army ordered 'via convoy' goes to a neighbour by convoy (dipcc's process_m, "
            "docs/dipcc-compat.md)",
            ("6.G.1", "6.G.5", "6.G.6", "6.G.9", "6.G.11"),
        ),
        Departure(
            ("convoy_fallback",),
            "an army ordered 'via convoy' to a neighbour moves overland whenever its convoy does "
            "not carry it (dipcc's via_adj, docs/dipcc-compat.md)",
            ("6.G.8", "6.G.20", "6.H.12"),
        ),
        _HOME_DISORDER,
    ),
}


def datc_departures(edition: str) -> dict[str, str]:
    """The DATC cases ``edition`` documents as ruled otherwise (:data:`DATC_DEPARTURES`), each
    with its reason."""
    return {case: d.reason for d in DATC_DEPARTURES.get(edition, ()) for case in d.cases}
