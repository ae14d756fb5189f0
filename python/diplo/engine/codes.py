"""The code API: whole games on encoded orders, for bots that adjudicate millions of phases.

The string/object API (:func:`diplo.api.phase.process_phase`, :class:`diplo.api.game.Game`) stays
the reference. This module is a second implementation of the same meaning, in the Rust core, on
integer orders; ``tests/test_codes.py`` holds the two to identical rulings, positions and game
ends.

Encoded orders
    One ``int`` (a ``u64``) per order; the layout is the core's, read from
    ``_core.CODE_LAYOUT``::

        bits  0-3   kind: 0 hold, 1 move, 2 support hold, 3 support move, 4 convoy,
                          5 retreat, 6 disband, 7 build, 8 waive
        bits  4-10  the ordered unit's LOCATION (index of ``Map.locations``; a fleet on a split
                    coast is on its coast). Build: the build location (``STP/NC`` for a fleet
                    there). Waive: the POWER index (position in ``Map.powers``)
        bits 11-17  a: move / retreat destination location; support hold: the supported unit's
                    province; support move: the moving unit's province; convoy: the army's
                    province
        bits 18-24  b: support move: the destination as written, a coast or a province (a coast
                    in the support of a fleet's move must match it, DATC 6.B.9); convoy: the
                    destination province
        bit  25     move: "via convoy"
        bit  26     build: a fleet (else an army)
        bits 27-29, 30-32, 33-35: the high 3 bits of the location, a and b

    An index has ten bits, so a map may have up to 1,024 locations; on a map of at most 128
    (the standard map) the high bits are zero and every code is below ``2**27``. Unused fields
    and bits 36-63 are zero; a code breaking that, or naming an index the map does
    not have, is *malformed*: :func:`decode_order` refuses it and a game rules it illegal. A code
    carries no unit type (validation ignores a wrong one, DATC 4.C.2), so it means an order for
    whatever unit stands at that location; its meaning is exactly the normalised
    :class:`~diplo.model.orders.Order` :mod:`diplo.reference.validation` gives it in the position
    where it is played. The codes :meth:`CodeGame.legal_orders` lists are those normal forms, and a
    submitted code is legal exactly when its normal form is listed. :func:`encode_order` and
    :func:`decode_order` translate between codes and orders.

    What any ``int`` in :meth:`CodeGame.set_orders` means, on both paths alike (held together by
    ``tests/test_fuzz.py``): a malformed code (including one outside ``0..2**64``) is ruled
    ``illegal``; a well-formed code not in its unit's legal list (no unit there, an order of
    another phase kind, an impossible move) is ruled ``illegal``, as the reference rules its
    decoded order; either way its unit is unordered (it holds, or is disbanded in a retreat
    phase). Only an argument that is not a sequence of ``int`` raises, and then nothing changes.

Batches
    :func:`process_batch` processes many independent games at once, the GIL released, on several
    threads. Their orders come as a list of code lists, or (faster: nothing is converted per
    code while the GIL is held) flat: one buffer of ``u64`` codes and one of ``u32`` offsets,
    game ``i`` getting ``codes[offsets[i]:offsets[i + 1]]``. :func:`pack_orders` turns code
    lists into that form once, for orders that are reused or built elsewhere.

Slots
    :meth:`CodeGame.legal_orders` returns one list per orderable slot and :meth:`CodeGame.slots`
    names them ``(power, key)``, in the same order:

    * movement: every unit, by province (in ``Map.locations`` order); key = its province;
    * retreat: every dislodged unit, by province: its retreats and its disband;
    * adjustment, per power in map order: a power that may build gets one slot per build site
      (owned, vacant home centre), by province, listing the builds there, and then one slot keyed
      by its own name with its waive alone (also when it has no vacant site); a power that must
      disband gets one slot per unit, by province, listing the disband.

    Every slot's list is exactly the :func:`diplo.api.legal.legal_orders` entry of its key: one
    shape for both APIs. Choosing one order from every slot and submitting them in slot order never
    voids a chosen build by a chosen waive: a power's waive comes after all its builds, where it
    can only use up a build left over (DATC 4.D.7; the first builds and waives are used, later
    ones are void, DATC 4.D.4).

Results
    :meth:`CodeGame.process` returns the phase's :data:`Outcome`, a value (the game keeps no
    results): its ``result_codes()`` gives one code per submitted order, 0 ok, 1 bounce, 2 cut,
    3 dislodged, 4 no_convoy, 5 void, 6 illegal (:data:`RESULT_CODES`), and its
    ``result_success()`` the DATC success flag, as :func:`~diplo.api.phase.process_phase` reports
    them for the same orders. Orders are given by their unit's owner (a build by the power whose
    home centre it is; a waive names its power), so no order is ever "foreign". Its
    ``implied_results()`` lists what happened without an order, as ``(code, result, success)``:
    holds of unordered units and disbands of dislodged units without a legal order (by
    province), then per power in map order the waives of unused builds and the disbands of the
    civil-disorder rule (in removal order). A :data:`Verdict` has the same three methods.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any, Final, Literal, NamedTuple, TypeAlias, cast, overload

from .. import _core
from ..model.limits import check_max_year, show
from ..model.map import Map, MapError, standard_map
from ..model.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    Waive,
)
from ..model.position import Dislodged, Phase, Piece, Position, check_position
from ..model.rules import Rules, RulesError
from .compile import code_map
from .compile import encode_position as _encode_position

__all__ = [
    "BUILD",
    "CONVOY",
    "DISBAND",
    "FLEET",
    "HOLD",
    "MAX_THREADS",
    "MOVE",
    "ORDER_KINDS",
    "RESULT_CODES",
    "RETREAT",
    "SUPPORT_HOLD",
    "SUPPORT_MOVE",
    "VIA",
    "WAIVE",
    "ActionError",
    "Candidates",
    "CodeGame",
    "CodeState",
    "CoreGame",
    "CorePlayer",
    "CoreVectorEnv",
    "FastGame",
    "FastState",
    "GameOverError",
    "InUseError",
    "Outcome",
    "Threaded",
    "Verdict",
    "code_map",
    "core_of",
    "decode_order",
    "encode_order",
    "fast_map",
    "game_of",
    "kind_of",
    "location_of",
    "pack_orders",
    "position_from_state",
    "process_batch",
    "rollout_player",
    "vector_env",
    "waive_code",
]

#: The core's objects, by the names the applications may use (``diplo.engine`` is the one
#: module that imports the compiled core): a code game's state (what a :class:`CodeGame`
#: holds), the engine's random player and its vectorised environment.
CoreGame: TypeAlias = _core.CodeGame
#: One phase's ruling, as ``CoreGame.run`` returns it (``rust/src/bindings/verdict.rs``).
Verdict: TypeAlias = _core.Verdict
#: One phase's results, as :meth:`CodeGame.process` returns them (``rust/src/bindings/outcome.rs``):
#: ``result_codes()``, ``result_success()`` and ``implied_results()``, as a :data:`Verdict` has.
Outcome: TypeAlias = _core.Outcome
CorePlayer: TypeAlias = _core.RolloutPlayer
CoreVectorEnv: TypeAlias = _core.VectorEnv
#: Raised by the core (and :class:`diplo.api.game.Game`) for an action on a game that has ended.
GameOverError = _core.GameOverError
#: Raised by the core (a ``RuntimeError``) for a call on a :class:`CodeGame` another call holds:
#: a :func:`process_batch` running on another thread, or a call re-entered from an order item's
#: ``__index__``. ``index``: the game's place in the batch that refused it, else ``None``.
InUseError = _core.InUseError
#: Raised by the core (a ``ValueError``) for an entry of an action table outside the action
#: space; ``index``: its place, ``(game, power, slot)``.
ActionError = _core.ActionError
#: The order kinds in code order (a code's kind indexes it: :func:`kind_of`).
ORDER_KINDS: tuple[str, ...] = tuple(_core.ORDER_KINDS)

# The code layout is the core's (``rust/src/engine/encode.rs``), read from its one exported
# table, never written out again here.
_LAYOUT = _core.CODE_LAYOUT
_KINDS = _core.ORDER_KINDS
HOLD: Final = _KINDS.index("Hold")
MOVE: Final = _KINDS.index("Move")
SUPPORT_HOLD: Final = _KINDS.index("SupportHold")
SUPPORT_MOVE: Final = _KINDS.index("SupportMove")
CONVOY: Final = _KINDS.index("Convoy")
RETREAT: Final = _KINDS.index("Retreat")
DISBAND: Final = _KINDS.index("Disband")
BUILD: Final = _KINDS.index("Build")
WAIVE: Final = _KINDS.index("Waive")
#: The move is ordered "via convoy".
VIA: Final = 1 << _LAYOUT["via_shift"]
#: The build is a fleet.
FLEET: Final = 1 << _LAYOUT["fleet_shift"]

_KIND = _LAYOUT["kind_mask"]
_LOC = _LAYOUT["loc_shift"]
_POWER = _LAYOUT["power_shift"]
_A = _LAYOUT["a_shift"]
_B = _LAYOUT["b_shift"]
_LOC_HIGH = _LAYOUT["loc_high_shift"]
_POWER_HIGH = _LOC_HIGH
_A_HIGH = _LAYOUT["a_high_shift"]
_B_HIGH = _LAYOUT["b_high_shift"]
_LOW_WIDTH = _LAYOUT["low_width"]
_LOW = _LAYOUT["low_mask"]
_HIGH = _LAYOUT["field_mask"] >> _LOW_WIDTH
_FIELD = _LAYOUT["field_mask"]
_USED = _LAYOUT["used_mask"]


def _put(i: int, low: int, high: int) -> int:
    """Index ``i`` in the field whose low bits start at ``low`` and high bits at ``high``."""
    return (i & _LOW) << low | (i >> _LOW_WIDTH) << high


def _get(code: int, low: int, high: int) -> int:
    """The index in the field whose low bits start at ``low`` and high bits at ``high``."""
    return (code >> low & _LOW) | (code >> high & _HIGH) << _LOW_WIDTH


#: Result codes, indexed by the integers of ``Outcome.result_codes()``.
RESULT_CODES: Final = (*_core.RESULT_NAMES, "illegal")


def kind_of(code: int) -> int:
    """The order kind of a code (an index of ``_core.ORDER_KINDS``)."""
    return code & _KIND


def location_of(code: int) -> int:
    """The location index of the ordered unit (a build's location; meaningless for a waive)."""
    return _get(code, _LOC, _LOC_HIGH)


def waive_code(power: int) -> int:
    """The code of a waive by the power of index ``power``."""
    return WAIVE | _put(power, _POWER, _POWER_HIGH)


#: A code game's raw state, as ``_core.CodeGame.state()`` returns it: ``(year, season, kind,
#: units, centers, dislodged)``, units ``(power, is_fleet, loc)``, centres ``(province, power)``,
#: dislodged units ``(power, is_fleet, loc, options)``, all as map indexes.
CodeState = tuple[
    int,
    str,
    str,
    list[tuple[int, bool, int]],
    list[tuple[int, int]],
    list[tuple[int, bool, int, list[int]]],
]

# --------------------------------------------------------------------------- codes and orders


def encode_order(order: Order, game_map: Map, power: str | None = None) -> int:
    """The code of ``order`` (see the module documentation).

    ``power`` is needed only for a :class:`~diplo.model.orders.Waive` (the code names the power). An
    untyped build follows DATC 4.C.3: an army inland, a fleet where a coast is named. Raises
    ``ValueError`` for a place the map does not know, an index that does not fit the encoding,
    a waive without its power, an untyped build that could be either, or a non-order.
    """
    index = game_map.location_index

    def at(loc: str) -> int:
        i = index.get(loc)
        if i is None or i > _FIELD:
            raise ValueError(f"cannot encode {order!r}: unknown or too large location {loc!r}")
        return i

    def province(loc: str) -> int:
        try:
            return at(game_map.province_of(loc))
        except MapError as exc:
            raise ValueError(f"cannot encode {order!r}: {exc}") from None

    if isinstance(order, Waive):
        if power is None or power not in game_map.powers:
            raise ValueError(f"a waive is encoded with its power; got power {power!r}")
        return waive_code(game_map.powers.index(power))
    if not isinstance(
        order, Hold | Move | SupportHold | SupportMove | Convoy | Retreat | Disband | Build
    ):
        raise ValueError(f"not an order: {order!r}")
    here = _put(at(order.unit.loc), _LOC, _LOC_HIGH)
    if isinstance(order, Hold):
        return HOLD | here
    if isinstance(order, Move):
        return MOVE | here | _put(at(order.dest), _A, _A_HIGH) | (VIA if order.via else 0)
    if isinstance(order, SupportHold):
        return SUPPORT_HOLD | here | _put(province(order.supported.loc), _A, _A_HIGH)
    if isinstance(order, SupportMove):
        supported = _put(province(order.supported.loc), _A, _A_HIGH)
        return SUPPORT_MOVE | here | supported | _put(at(order.dest), _B, _B_HIGH)
    if isinstance(order, Convoy):
        army = _put(province(order.army.loc), _A, _A_HIGH)
        return CONVOY | here | army | _put(province(order.dest), _B, _B_HIGH)
    if isinstance(order, Retreat):
        return RETREAT | here | _put(at(order.dest), _A, _A_HIGH)
    if isinstance(order, Disband):
        return DISBAND | here
    unit_type = order.unit.type
    if unit_type is None:
        loc = order.unit.loc
        if game_map.is_land(game_map.province_of(loc)):
            unit_type = "A"
        elif game_map.coast_of(loc) is not None:
            unit_type = "F"
        else:
            raise ValueError(f"cannot encode {order!r}: say whether to build an army or a fleet")
    return BUILD | here | (FLEET if unit_type == "F" else 0)


def _well_formed(code: int, game_map: Map) -> bool:
    if not isinstance(code, int) or isinstance(code, bool) or code < 0 or code & ~_USED:
        return False
    kind, loc = code & _KIND, _get(code, _LOC, _LOC_HIGH)
    a, b = _get(code, _A, _A_HIGH), _get(code, _B, _B_HIGH)
    via, fleet = bool(code & VIA), bool(code & FLEET)
    locations, provinces = len(game_map.locations), len(game_map.provinces)
    if kind > WAIVE:
        return False
    if kind == WAIVE:
        return loc < len(game_map.powers) and a == b == 0 and not via and not fleet
    if loc >= locations or (fleet and kind != BUILD) or (via and kind != MOVE):
        return False
    if kind in (HOLD, DISBAND, BUILD):
        return a == b == 0
    if kind in (MOVE, RETREAT):
        return a < locations and b == 0
    if kind == SUPPORT_HOLD:
        return a < provinces and b == 0
    if kind == SUPPORT_MOVE:
        return a < provinces and b < locations
    return a < provinces and b < provinces


def decode_order(code: int, game_map: Map, position: Position | None = None) -> Order:
    """The order a code names (see the module documentation).

    Without ``position`` unit types are left out (``Unit(None, loc)``), which validation accepts
    for whatever unit stands there (DATC 4.C.1). With it, types come from the units in the
    position and a supported or convoyed unit is named as it stands (``F SPA/NC``), so a legal
    code decodes to exactly the normalised order validation gives it. Builds are always typed.
    ``encode_order(decode_order(c, ...), ...) == c`` for every well-formed code (waives given
    their power). Raises ``ValueError`` for a malformed code.
    """
    if not _well_formed(code, game_map):
        raise ValueError(f"malformed order code {code!r}")
    locations = game_map.locations
    kind = code & 0xF
    loc = _get(code, _LOC, _LOC_HIGH)
    a = locations[_get(code, _A, _A_HIGH)]
    b = locations[_get(code, _B, _B_HIGH)]
    if kind == WAIVE:
        return Waive()
    where = locations[loc]
    if kind == BUILD:
        return Build(Unit("F" if code & FLEET else "A", where))

    def ordered() -> Unit:
        if position is None:
            return Unit(None, where)
        prov = game_map.province_of(where)
        piece = position.units.get(prov)
        if position.phase.kind == "R":
            dislodged = position.dislodged.get(prov)
            if dislodged is not None:
                piece = dislodged.piece
        unit_type: UnitType | None = piece.type if piece is not None else None
        return Unit(unit_type, where)

    def named(prov: str) -> Unit:
        piece = position.units.get(prov) if position is not None else None
        return piece.unit if piece is not None else Unit(None, prov)

    unit = ordered()
    if kind == HOLD:
        return Hold(unit)
    if kind == MOVE:
        return Move(unit, a, bool(code & VIA))
    if kind == SUPPORT_HOLD:
        return SupportHold(unit, named(a))
    if kind == SUPPORT_MOVE:
        return SupportMove(unit, named(a), b)
    if kind == CONVOY:
        return Convoy(unit, named(a), b)
    if kind == RETREAT:
        return Retreat(unit, a)
    return Disband(unit)


# --------------------------------------------------------------------------- games


class CodeGame:
    """A game on the code API: the state lives in the Rust core, orders are codes.

    ``position`` is where the game starts (default: the opening position of the standard map),
    under the position's rules (``position.rules``); with ``max_year`` (or the rules' year limit,
    whichever is earlier) the game ends once a phase of a later year would come next, as
    :class:`diplo.api.game.Game` does. Processing a finished game raises
    :class:`diplo.api.game.GameOverError`; a bad argument raises ``ValueError``.
    """

    __slots__ = ("_core", "_last", "_map", "_rules")

    def __init__(self, position: Position | None = None, max_year: int | None = None) -> None:
        if position is None:
            position = Position.initial(standard_map())
        elif not isinstance(position, Position):
            raise ValueError(f"expected a Position, got {type(position).__name__}")
        check_position(position, "CodeGame(position)")
        max_year = check_max_year(max_year, position.phase.year, "CodeGame")
        position.map.calendar.check_start(position.phase.year, "CodeGame")
        self._map: Map = position.map
        self._rules: Rules = position.rules
        self._core: _core.CodeGame = _core.CodeGame(
            code_map(position.map), *_encode_position(position), max_year, position.rules.to_json()
        )
        #: The last phase this wrapper processed, for the deprecated ``result_codes`` and kin
        #: only (the engine keeps no results).
        self._last: Outcome | None = None

    @property
    def map(self) -> Map:
        return self._map

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def phase(self) -> str:
        """The current phase, e.g. ``"S1901M"`` (the final one once the game is over)."""
        return self._core.phase

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (solo victory or ``max_year``)."""
        return self._core.is_over

    @property
    def winner(self) -> str | None:
        """The power that won alone (the victory count of the rules or the map), or ``None``."""
        return self._core.winner

    @property
    def max_year(self) -> int | None:
        return self._core.max_year

    def legal_orders(self) -> list[list[int]]:
        """Every legal order of every orderable slot, as codes: one list per slot (see the module
        documentation), in the order of :meth:`slots`. Empty once the game is over."""
        return self._core.legal_orders()

    def listed_orders(self) -> list[list[int]]:
        """:meth:`legal_orders` as MILA's possible orders list them: the same but under
        ``convoyed_support="any_route"`` (MILA's edition), which leaves out the supports of
        convoyed moves MILA takes but does not list (a fleet's support of a move only it could
        carry; ``Game.get_all_possible_orders`` reads a chain without the supporter)."""
        return self._core.listed_orders()

    def slots(self) -> list[tuple[str, str]]:
        """``(power, key)`` per slot, in the order of :meth:`legal_orders`: the key is the
        province of the unit, dislodged unit or build site, or the power's own name for the waive
        of a power with no build site."""
        return self._core.slots()

    def set_orders(self, orders: Sequence[int]) -> None:
        """The orders of every power for this phase, as codes, in any order and any number
        (replacing any set before). Codes are ruled on when the phase is processed: an illegal
        one is refused (its unit holds / is disbanded), two different orders to one unit are both
        refused (DATC 4.D.3), builds beyond the allowed count are void (DATC 4.D.4). Raises
        ``ValueError`` when ``orders`` is not a sequence of ints."""
        self._core.set_orders(orders)

    def process(self) -> Outcome:
        """Rule on the phase and move on to the next one with something to decide; returns the
        phase's results, an :data:`Outcome` (see "Results" in the module documentation: the
        game keeps none). Raises ``ValueError`` (the game unchanged) when that phase would fall
        after the last year, :data:`diplo.model.limits.MAX_YEAR`, as
        :func:`diplo.api.phase.process_phase` does."""
        outcome = self._core.process()
        self._last = outcome
        return outcome

    def _deprecated(self, name: str) -> Outcome | None:
        warnings.warn(
            f"CodeGame.{name}() is deprecated: read the Outcome that CodeGame.process() returns",
            DeprecationWarning,
            stacklevel=3,
        )
        return self._last

    def result_codes(self) -> list[int]:
        """Deprecated (``DeprecationWarning``): ``process().result_codes()``. The results of the
        last phase this object processed (empty before any, and in a copy or an unpickled game)."""
        last = self._deprecated("result_codes")
        return [] if last is None else last.result_codes()

    def result_success(self) -> list[bool]:
        """Deprecated (``DeprecationWarning``): ``process().result_success()``, as
        :meth:`result_codes`."""
        last = self._deprecated("result_success")
        return [] if last is None else last.result_success()

    def implied_results(self) -> list[tuple[int, int, bool]]:
        """Deprecated (``DeprecationWarning``): ``process().implied_results()``, as
        :meth:`result_codes`."""
        last = self._deprecated("implied_results")
        return [] if last is None else last.implied_results()

    def position(self) -> Position:
        """The current state as an immutable :class:`~diplo.model.position.Position` (retreat
        options in location order)."""
        return position_from_state(self._map, self._core.state(), self._rules)

    def state_indices(self) -> CodeState:
        """The current state as map indices, without building a :class:`Position` (for encoders
        that read the board every phase): ``(year, season, kind, units, centers, dislodged)``,
        units ``(power, is_fleet, location)``, centres ``(province, power)``, dislodged units
        ``(power, is_fleet, location, retreat options)``; locations and provinces index
        ``Map.locations``, powers ``Map.powers``."""
        return self._core.state()

    def clone(self) -> CodeGame:
        """An independent copy (state, year limit and end; results are the outcomes
        :meth:`process` returned, not the game's)."""
        return game_of(self._core.clone(), self._map, self._rules)

    # ------------------------------------------------------------------ search

    @property
    def hash(self) -> int:
        """The board hash: 64 bits (an int in ``0 .. 2**64 - 1``), kept by the engine as the
        game is played, the same for the same position whatever the history, in every process
        and run (``docs/search.md`` lists what it covers)."""
        return self._core.hash

    def play_candidates(self, candidates: Sequence[Sequence[int]]) -> Candidates:
        """Plays each order set of ``candidates`` (code lists, as :meth:`set_orders` takes)
        from this position, in the engine with the GIL released, leaving this game unchanged:
        per candidate the next position's :attr:`hash`, the centres each power owns there (map
        order) and the game to continue from (equal to playing the candidate on a clone).
        Raises ``ValueError`` for a malformed candidate (no game played) and
        :class:`diplo.api.game.GameOverError` once the game is over."""
        hashes, centers, cores = self._core.play_candidates(candidates)
        games = [game_of(core, self._map, self._rules) for core in cores]
        return Candidates(hashes, centers, games)

    def __copy__(self) -> CodeGame:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, object]) -> CodeGame:
        return self.clone()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as ``(version, map, rules, state)``: a shipped map by its name (another map
        by its contents), the rules as their JSON, the state as the engine's compact bytes
        (``rust/src/engine/search.rs``), so a process pool or Ray can ship games."""
        return (
            _unpickle_fast_game,
            (PICKLE_VERSION, self._map, self._rules.to_json(), self._core.state_bytes()),
        )

    def __repr__(self) -> str:
        return repr(self._core)


class Candidates(NamedTuple):
    """What :meth:`CodeGame.play_candidates` returns: per candidate (in order) the next
    position's hash, the centres per power (map order) and the game."""

    hashes: list[int]
    centers: list[list[int]]
    games: list[CodeGame]


#: The version of a pickled :class:`CodeGame` (the tuple of ``__reduce__``; the engine's bytes
#: carry their own version too).
PICKLE_VERSION = 1


def _unpickle_fast_game(
    version: object, game_map: object, rules: object, state: object
) -> CodeGame:
    """A :class:`CodeGame` from its pickled parts; anything damaged is a ``ValueError`` naming
    what is wrong (never a crash, never a changed game)."""
    if version != PICKLE_VERSION:
        raise ValueError(
            f"pickled CodeGame version {show(version)} is not supported (this diplo reads "
            f"version {PICKLE_VERSION})"
        )
    if not isinstance(game_map, Map):
        raise ValueError(f"pickled CodeGame: expected a Map, got {type(game_map).__name__}")
    if not isinstance(state, bytes):
        raise ValueError(f"pickled CodeGame: the state must be bytes, got {type(state).__name__}")
    try:
        parsed = Rules.from_json(rules)
    except (RulesError, TypeError) as exc:
        raise ValueError(f"pickled CodeGame: {exc}") from None
    # The bytes keep only some options; the edition and the movement options come with them.
    core = _core.CodeGame.from_state_bytes(code_map(game_map), state, parsed.to_json())
    return game_of(core, game_map, parsed)


def position_from_state(game_map: Map, state: CodeState, rules: Rules | None = None) -> Position:
    """The :class:`~diplo.model.position.Position` of a code game's raw state
    (``_core.CodeGame.state``, kept by callers that need the position of a past phase only now and
    then), under ``rules`` (default: the map's)."""
    year, season, kind, units, centers, dislodged = state
    locations = game_map.locations
    powers = game_map.powers
    pieces: dict[str, Piece] = {}
    for power, fleet, loc in units:
        piece = Piece(powers[power], "F" if fleet else "A", locations[loc])
        pieces[piece.province] = piece
    owners = {locations[prov]: powers[power] for prov, power in centers}
    gone: dict[str, Dislodged] = {}
    for power, fleet, loc, options in dislodged:
        piece = Piece(powers[power], "F" if fleet else "A", locations[loc])
        gone[piece.province] = Dislodged(piece, tuple(locations[o] for o in options))
    phase = Phase(year, season, kind)  # type: ignore[arg-type]
    return Position(
        game_map, phase, pieces, owners, gone, "CodeGame.position", rules=rules or game_map.rules
    )


_NATIVE = "<" if sys.byteorder == "little" else ">"
#: Buffer formats read as native ``u32`` / ``u64`` values (besides byte buffers of whole values).
_FORMATS = {
    4: frozenset({"I", "@I", "=I", _NATIVE + "I", "L", "@L", "=L", _NATIVE + "L"}),
    8: frozenset({"Q", "@Q", "=Q", _NATIVE + "Q", "L", "@L", "=L", _NATIVE + "L"}),
}
_TYPECODES = {4: "I", 8: "Q"}
_BYTE_FORMATS = frozenset({"B", "b", "c", "@B", "=B", "@b", "=b"})


def _flat_bytes(what: str, buffer: object, size: int) -> bytes:
    """A flat buffer of unsigned ``size``-byte values (4: ``u32``, 8: ``u64``) as ``bytes``
    (unchanged when it already is), or ``ValueError`` naming the problem."""
    name = f"u{8 * size}"
    code = _TYPECODES[size]
    if type(buffer) is bytes:
        return buffer
    try:
        view = memoryview(buffer)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(
            f"{what} must be a buffer of {name} values (bytes, array({code!r}), memoryview), "
            f"got {type(buffer).__name__}"
        ) from None
    with view:
        if view.ndim != 1:
            raise ValueError(f"{what} must be one-dimensional, got {view.ndim} dimensions")
        if view.itemsize == size and view.format in _FORMATS[size]:
            return view.tobytes()
        if view.format in _BYTE_FORMATS:
            if view.nbytes % size:
                raise ValueError(
                    f"{what}: {view.nbytes} bytes is not a whole number of {name} values "
                    f"({size} bytes each)"
                )
            return view.tobytes()
        raise ValueError(
            f"{what} must hold native-endian {name} values (format {code!r}), got format "
            f"{view.format!r} with {view.itemsize}-byte items"
        )


def pack_orders(orders: Sequence[Sequence[int]]) -> tuple[bytes, bytes]:
    """The flat form of a batch's orders for :func:`process_batch`: ``(codes, offsets)``,
    ``bytes`` of native-endian ``u64`` codes and ``u32`` offsets, game ``i`` getting codes
    ``offsets[i]`` to ``offsets[i + 1]``. A code outside ``0..2**64`` becomes ``2**64 - 1``
    (malformed, so ruled
    illegal, as it is in a list). Raises ``ValueError`` as :meth:`CodeGame.set_orders` does."""
    return _core.pack_orders(orders)


#: The most threads :func:`process_batch` accepts.
MAX_THREADS: Final = 4096


@overload
def process_batch(
    games: Sequence[CodeGame],
    orders: Sequence[Sequence[int]] | object,
    threads: int | None = None,
    *,
    offsets: object | None = None,
    outcomes: Literal[False] = False,
) -> None: ...
@overload
def process_batch(
    games: Sequence[CodeGame],
    orders: Sequence[Sequence[int]] | object,
    threads: int | None = None,
    *,
    offsets: object | None = None,
    outcomes: Literal[True],
) -> list[Outcome]: ...
def process_batch(
    games: Sequence[CodeGame],
    orders: Sequence[Sequence[int]] | object,
    threads: int | None = None,
    *,
    offsets: object | None = None,
    outcomes: bool = False,
) -> list[Outcome] | None:
    """``games[i].set_orders(orders[i])`` then ``games[i].process()`` for every ``i``, with the
    GIL released and the games spread over ``threads`` threads (default: the number of cores
    available to the process, as found on the first call).
    The rulings are the same as processing the games one by one; a game may appear only once.
    With ``outcomes=True`` every game's :data:`Outcome` is returned, in the games' order (the
    games keep none); by default the results are dropped and ``None`` is returned.

    With ``offsets``, the orders are flat: ``orders`` a buffer of ``u64`` codes and ``offsets``
    one of ``len(games) + 1`` ``u32`` offsets into it (the first 0, none below the one before,
    the last the number of codes), game ``i`` getting ``orders[offsets[i]:offsets[i + 1]]``. A
    buffer is ``bytes`` (used as it is: the fastest form, what :func:`pack_orders` returns) or
    anything else with the buffer protocol holding native-endian values (``u64`` codes, such as
    ``array.array('Q')``; ``u32`` offsets, such as ``array.array('I')``), a ``memoryview`` or a
    byte buffer of whole values (copied once).

    Raises ``ValueError`` for bad arguments (checked before any game is touched) and
    :class:`diplo.api.game.GameOverError` when a game is over."""
    if threads is not None and (not isinstance(threads, int) or isinstance(threads, bool)):
        raise ValueError(f"threads must be an int or None, got {show(threads)}")
    if threads is not None and not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"threads must be from 1 to {MAX_THREADS}, got {show(threads)}")
    try:
        cores = [g._core for g in games]
    except (AttributeError, TypeError):
        raise ValueError("games must be a sequence of diplo.engine.codes.CodeGame") from None
    if offsets is None:
        lists = cast("Sequence[Sequence[int]]", orders)
        return _core.process_batch(cores, lists, threads, None, outcomes)
    flat = _flat_bytes("orders", orders, 8)
    return _core.process_batch(cores, flat, threads, _flat_bytes("offsets", offsets, 4), outcomes)


# --------------------------------------------------------------------------- the core, by name


def core_of(game: CodeGame) -> CoreGame:
    """The core's game a :class:`CodeGame` holds (not a copy: what is done to it is done to the
    game), for the applications that drive the engine directly (``diplo.rollouts``)."""
    return game._core


def game_of(core: CoreGame, game_map: Map, rules: Rules) -> CodeGame:
    """A :class:`CodeGame` holding ``core`` (a game of ``game_map`` under ``rules``; not a
    copy)."""
    game = CodeGame.__new__(CodeGame)
    game._core = core
    game._map = game_map
    game._rules = rules
    game._last = None
    return game


def vector_env(
    start: CodeGame,
    num_envs: int,
    first_year: int,
    slots: int,
    choices: int,
    win: float = 10.0,
    draw: float = 10.0,
    threads: int = 1,
    *,
    keep_lists: bool = False,
) -> CoreVectorEnv:
    """The engine's vectorised environment (``rust/src/engine/vector.rs``): ``num_envs`` games
    from ``start``'s phase, ``slots`` slots of ``choices`` choices per power. The engine is the
    one check of an action: every entry in ``-1..choices`` (``-1``, like an entry at or past
    its slot's count, orders nothing), anything else refused with ``ValueError`` before a game
    is played."""
    return _core.VectorEnv(
        start._core, num_envs, first_year, slots, choices, win, draw, threads, keep_lists=keep_lists
    )


class Threaded:
    """The ``threads`` attribute of a class holding one of the engine's batched environments
    (:data:`CoreVectorEnv` or ``diplo.engine.deepmind.CoreDeepMindEnv``) as ``_core``: the
    native threads its calls spread the games over, the core's own attribute (1 or more, more
    than 256 read as 256; anything else ``ValueError``). One home for the vector env and the
    DeepMind env (``diplo.env.vector``, ``diplo.env.deepmind.batched``)."""

    _core: Any

    @property
    def threads(self) -> int:
        return int(self._core.threads())

    @threads.setter
    def threads(self, threads: int) -> None:
        self._core.threads(threads)


def rollout_player(
    start: CodeGame,
    word_tail: Callable[[int], str],
    word_ruling: Callable[[tuple[Any, ...]], str],
) -> CorePlayer:
    """The engine's player of random games from ``start`` (``diplo.rollouts``' default policy,
    ``random.Random(seed)``'s draws), wording results with the two callbacks."""
    return _core.RolloutPlayer(start._core, word_tail, word_ruling)


# The names of the first releases (the code API was "FastGame" before the engine module was
# `codes`): public aliases, so code written against them runs unchanged. Nothing in the project
# uses them (tests/test_codes.py checks that they name the same objects).
FastGame = CodeGame
FastState = CodeState
fast_map = code_map
