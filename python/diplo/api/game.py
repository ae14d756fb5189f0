"""The game: a phase machine over immutable positions, with history, resignation and draws.

A :class:`Game` holds the current :class:`~diplo.model.position.Position`, the orders submitted for
it, and the record of every phase played. :meth:`Game.process` rules on the current phase with
:func:`diplo.api.phase.process_phase` and moves on to the next position.

Positions are immutable. :meth:`Game.process` never changes a position: it builds a new one, so a
caller may keep any position it was handed (``game.position``, ``record.position``,
``outcome.next``) and it stays exactly as it was, whatever the game does afterwards.

How a game ends
    * **Solo victory**: after a Fall turn is complete, a power owning the victory count of supply
      centres or more wins (``winner``; :attr:`PhaseOutcome.winner`): the rules' count, by default
      the map's (18 on the standard map).
    * **Year limit**: with ``max_year`` set (or the rules' ``year_limit``, whichever is earlier),
      the game ends after the last phase of that year is processed (the next phase would fall in
      a later year); the surviving powers draw. Without either, the last year is the last one
      the map's calendar plays within the year range (``Calendar.last_year``: 9998 on the
      standard map, the final board in the Spring of 9999), so every game ends; a position after
      it is refused.
    * **Draw by agreement**: a proposed draw passes when every *voter* accepts it (see below).

Civil disorder and resignation
    :meth:`Game.resign` puts a power into civil disorder for the rest of the game. It stays on the
    board and takes no more orders; the engine treats it exactly as a power that sent no orders,
    which is what :func:`~diplo.api.phase.process_phase` already does with missing orders:

    * movement: every unit holds (and may receive hold support from others, DATC 4.D.9);
    * retreat: every dislodged unit is disbanded;
    * adjustment: every build is waived; a power owing disbands loses the units chosen by the
      civil-disorder rule of the 2023 rulebook (DATC 4.D.8: farthest from an owned supply centre
      first, fleets before armies on equal distance, then alphabetically).

    A resigned power still counts as a survivor while it has units or centres: it shares a draw
    (draws include all survivors) and its centres must still be taken by someone.

Draws
    The *voters* are the surviving powers (units or supply centres on the board) that have not
    resigned. :meth:`Game.propose_draw` opens a proposal for the current phase with the proposer's
    vote in favour; :meth:`Game.vote_draw` records (or changes) a voter's vote. The draw passes,
    and the game ends at once, when every voter has accepted. A refusal does not close the
    proposal (a power may change its mind), but the proposal lapses when the phase is processed.
    If a voter resigns while a proposal is open, its vote is dropped and the remaining voters
    decide.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..engine.codes import GameOverError  # the core's (which raises it too), re-exported
from ..model.backend import Backend
from ..model.limits import check_max_year
from ..model.map import Map, map_named, power_named, standard_map
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
    Waive,
    format_order,
)
from ..model.position import Phase, Position
from ..model.results import PhaseOutcome
from ..model.rules import Rules
from .backends import backend_for, check_backend
from .phase import check_order_list, process_phase

__all__ = ["Game", "GameOverError", "PhaseRecord"]


@dataclass(frozen=True)
class PhaseRecord:
    """One processed phase: the position it started from, the orders given, and the ruling.

    ``orders`` holds the orders as submitted (text as given; an :class:`~diplo.model.orders.Order`
    object in its canonical short form), per power in the map's order, only for powers that
    submitted something. Replaying them on ``position`` gives ``outcome`` again.
    """

    position: Position
    orders: Mapping[str, tuple[str, ...]]
    outcome: PhaseOutcome

    def __reduce__(self) -> tuple[Any, ...]:
        # The orders travel as a plain dict (a mapping proxy cannot be pickled); the outcome as
        # its plain form (an engine outcome reduces to its results).
        orders = self.orders
        if type(orders) is MappingProxyType:
            return (_record, (self.position, dict(orders), self.outcome))
        return (PhaseRecord, (self.position, orders, self.outcome))

    @property
    def phase(self) -> Phase:
        return self.position.phase


def _record(
    position: Position, orders: dict[str, tuple[str, ...]], outcome: PhaseOutcome
) -> PhaseRecord:
    """A pickled phase record whose orders were read-only: read-only again."""
    return PhaseRecord(position, MappingProxyType(orders), outcome)


#: The version of a pickled :class:`Game`'s state (its attributes by name): a later diplo that
#: changes them reads the older versions or refuses them by this number.
PICKLE_VERSION = 1


def _unpickle_game(version: object, state: object) -> Game:
    """A game from :meth:`Game.__reduce__`'s state; a state of another version or shape is a
    ``ValueError`` naming what is wrong."""
    if version != PICKLE_VERSION:
        raise ValueError(
            f"pickled Game state version {version!r} is not supported (this diplo reads "
            f"version {PICKLE_VERSION})"
        )
    if not isinstance(state, dict):
        raise ValueError(f"pickled Game state must be a dict, got {type(state).__name__}")
    missing = sorted(_GAME_STATE - state.keys())
    extra = sorted(state.keys() - _GAME_STATE)
    if missing or extra:
        raise ValueError(f"pickled Game state: missing {missing}, unknown {extra}")
    if not isinstance(state["_position"], Position) or not isinstance(state["_history"], list):
        raise ValueError("pickled Game state: _position or _history of the wrong type")
    game = Game.__new__(Game)
    game.__dict__.update(state)
    _check_restored(game)
    return game


_END_REASONS = (None, "solo", "draw_vote", "max_year")


def _check_restored(game: Game) -> None:
    """A restored game is one a played game could be (issue 31): its history a chain from its
    initial position to its position, its end the one that history and its last year make."""
    d = game.__dict__
    history, position = d["_history"], d["_position"]
    if not all(isinstance(r, PhaseRecord) for r in history):
        raise ValueError("pickled Game state: _history holds something other than PhaseRecord")
    if not isinstance(d["_initial"], Position) or d["_initial"].map != position.map:
        raise ValueError("pickled Game state: _initial is not a position of the game's map")
    chain = [d["_initial"], *(r.outcome.next for r in history)]
    for k, record in enumerate(history):
        if record.position != chain[k]:
            raise ValueError(f"pickled Game state: phase {k + 1} of the history does not follow")
    if chain[-1] != position:
        raise ValueError("pickled Game state: the position is not where the history leads")
    reason, winner = d["_end_reason"], d["_winner"]
    if reason not in _END_REASONS or d["_draw"] is not (reason in ("draw_vote", "max_year")):
        raise ValueError(f"pickled Game state: the end {reason!r} and the draw flag disagree")
    won = history[-1].outcome.winner if history else None
    if (reason == "solo") != (winner is not None) or winner != won:
        raise ValueError(
            f"pickled Game state: winner {winner!r}, but the history's last phase makes {won!r}"
        )
    max_year = d["_max_year"]
    if max_year is not None and (not isinstance(max_year, int) or isinstance(max_year, bool)):
        raise ValueError(f"pickled Game state: max_year {max_year!r} is not a year")
    last = game._last_year()
    past = last is not None and position.phase.year > last
    if past != (reason == "max_year") and reason in (None, "max_year"):
        raise ValueError(
            f"pickled Game state: {position.phase} with the last year {last} and the end "
            f"{reason!r} disagree"
        )


_GAME_STATE = frozenset(
    {
        "_backend",
        "_draw",
        "_end_reason",
        "_engine",
        "_history",
        "_initial",
        "_max_year",
        "_orders",
        "_position",
        "_proposal",
        "_resigned",
        "_winner",
        "meta",
    }
)


class Game:
    """A game of Diplomacy, phase after phase (see the module documentation for the rules).

    ``map`` is a :class:`~diplo.model.map.Map` or a shipped map's name (``"hundred"``, in any
    case; default: the standard map), ``backend`` the movement
    resolver (``"rust"``, ``"python"`` or ``None`` for the fastest built), ``max_year`` the last
    year to play (``None``: play until a solo victory or an agreed draw).

    Positions are immutable and :meth:`process` never mutates a position a caller holds.
    """

    def __init__(
        self,
        map: Map | str | None = None,
        backend: Backend | str | None = None,
        max_year: int | None = None,
        rules: Rules | None = None,
    ) -> None:
        if map is None:
            game_map = standard_map()
        elif isinstance(map, Map):
            game_map = map
        elif isinstance(map, str):
            game_map = map_named(map)  # a MapError naming the shipped maps for any other name
        else:
            raise TypeError(
                f"map must be a diplo Map or a shipped map's name, got {type(map).__name__}"
            )
        if rules is not None and not isinstance(rules, Rules):
            raise TypeError(f"rules must be a diplo.model.rules.Rules, got {type(rules).__name__}")
        self._init(Position.initial(game_map, rules=rules), backend, max_year)

    @classmethod
    def from_position(
        cls,
        position: Position,
        backend: Backend | str | None = None,
        max_year: int | None = None,
    ) -> Game:
        """A game that starts from ``position`` (any phase) with an empty history."""
        game = cls.__new__(cls)
        game._init(position, backend, max_year)
        return game

    def _init(
        self, position: Position, backend: Backend | str | None, max_year: int | None
    ) -> None:
        if not isinstance(position, Position):
            raise TypeError(f"expected a Position, got {type(position).__name__}")
        if backend is not None:
            check_backend(backend)
        max_year = check_max_year(max_year, position.phase.year, "Game")
        position.map.calendar.check_start(position.phase.year, "Game")
        check_max_year(position.rules.year_limit, position.phase.year, "rules year_limit")
        self._backend: Backend | str | None = backend
        #: Whether the phases run in the Rust engine (kept in the pickled state; the backend that
        #: rules is asked again of ``backend_for`` at each call, which answers at once).
        self._engine = backend_for(backend, position.map).name == "rust"
        self._max_year = max_year
        self._initial = position
        self._position = position
        self._history: list[PhaseRecord] = []
        self._orders: dict[str, list[str | Order]] = {}
        self._resigned: dict[str, Phase] = {}
        self._proposal: dict[str, bool] | None = None
        self._winner: str | None = None
        self._draw = False
        self._end_reason: str | None = None
        #: Free-form data about the game (title, players, ...), saved in game files.
        self.meta: dict[str, Any] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (and deep-copied) as its versioned state: the positions and rulings of its
        history in their plain form, a shipped map by its name (:class:`~diplo.model.map.Map`)."""
        return (_unpickle_game, (PICKLE_VERSION, dict(self.__dict__)))

    # ------------------------------------------------------------------ state

    @property
    def map(self) -> Map:
        return self._position.map

    @property
    def backend(self) -> Backend | str | None:
        return self._backend

    @property
    def rules(self) -> Rules:
        """The rules the game is played under (carried by its positions)."""
        return self._position.rules

    def _last_year(self) -> int:
        """The last year played: ``max_year``, the rules' year limit or the last year the map's
        calendar plays within the year range (``Calendar.last_year``), whichever is earliest."""
        limits = [y for y in (self._max_year, self.rules.year_limit) if y is not None]
        return min(limits, default=self.map.calendar.last_year)

    @property
    def max_year(self) -> int | None:
        return self._max_year

    @property
    def initial_position(self) -> Position:
        """The position the game started from."""
        return self._initial

    @property
    def position(self) -> Position:
        """The current position (after the game ended: the final board)."""
        return self._position

    @property
    def phase(self) -> Phase:
        """The phase of the current position (no further phase is played once the game is over)."""
        return self._position.phase

    @property
    def history(self) -> list[PhaseRecord]:
        """Every processed phase, oldest first (a new list; the records are immutable)."""
        return list(self._history)

    @property
    def is_over(self) -> bool:
        return self._end_reason is not None

    @property
    def winner(self) -> str | None:
        """The power that won a solo victory, or ``None``."""
        return self._winner

    @property
    def draw(self) -> bool:
        """Whether the game ended in a draw (by agreement or at ``max_year``)."""
        return self._draw

    @property
    def end_reason(self) -> str | None:
        """``"solo"``, ``"draw_vote"``, ``"max_year"``, or ``None`` while the game goes on."""
        return self._end_reason

    @property
    def end_text(self) -> str | None:
        """Why the game ended, in a sentence (``None`` while it goes on): for a solo, the centres
        the winner owns and what the rules ask (:meth:`~diplo.model.rules.Rules.victory_text`)."""
        if self._end_reason is None:
            return None
        if self._winner is not None:
            return self.rules.victory_text(
                self._winner, self.centers, self.map.victory, self._position.phase.year
            )
        if self._end_reason == "max_year":
            return f"The last year, {self._last_year()}, was played: the game is a draw."
        return "Every power still voting agreed a draw."

    @property
    def centers(self) -> dict[str, int]:
        """Supply centres owned, per power of the map (in map order, zeros included)."""
        counts = dict.fromkeys(self.map.powers, 0)
        for owner in self._position.centers.values():
            counts[owner] = counts.get(owner, 0) + 1
        return counts

    @property
    def survivors(self) -> list[str]:
        """Powers with units or supply centres on the board (including resigned ones; never a
        neutral power, which plays no part in a draw)."""
        position = self._position
        alive = {p.power for p in position.units.values()}
        alive.update(d.piece.power for d in position.dislodged.values())
        alive.update(position.centers.values())
        return [p for p in self.map.players if p in alive]

    @property
    def survivors_played(self) -> list[str]:
        """The survivors some player controls: what a draw is said to be among, for people (a
        power no player controls, ``Map.dummies``, is a survivor of the rulings but is shown as
        neutral)."""
        return [p for p in self.survivors if p not in self.map.dummies]

    @property
    def resigned(self) -> Mapping[str, Phase]:
        """Resigned powers and the phase in which each resigned."""
        return MappingProxyType(dict(self._resigned))

    @property
    def orders(self) -> dict[str, list[str | Order]]:
        """The orders submitted so far for the current phase (a copy)."""
        return {p: list(o) for p, o in self._orders.items()}

    def orderable_powers(self) -> list[str]:
        """The powers that have something to order in the current phase, in map order.

        Movement: powers with units. Retreat: powers with dislodged units. Adjustment: powers
        that may build (an owned, vacant home centre and fewer units than centres) or must
        disband. Resigned powers are never orderable, and nobody is once the game is over.
        """
        if self.is_over:
            return []
        position = self._position
        resigned = self._resigned
        orderable = backend_for(self._backend, position.map).orderable_powers(position)
        return [p for p in orderable if p not in resigned]

    # ------------------------------------------------------------------ orders

    def _power(self, power: str) -> str:
        if not isinstance(power, str):
            raise ValueError(f"a power is named by a string, not {power!r}")
        name = power_named(power, self.map)
        if name is None:
            known = ", ".join(self.map.powers)
            raise ValueError(f"unknown power {power!r} (the powers are {known})")
        return name

    def set_orders(self, power: str, orders: Sequence[str | Order]) -> None:
        """Replace ``power``'s orders for the current phase.

        The power name is checked (any case): an unknown power, a resigned power, or one with
        nothing to order in this phase raises ``ValueError``. The orders themselves are never
        rejected here: an order that cannot be parsed or is illegal is ruled on (and reported)
        when the phase is processed, and its unit is treated as unordered.
        """
        self._require_running()
        name = self._power(power)
        if name in self._resigned:
            raise ValueError(f"{name} has resigned and takes no more orders")
        if name not in self.orderable_powers():
            raise ValueError(f"{name} has nothing to order in {self.phase}")
        check_order_list(name, orders)
        self._orders[name] = [item if type(item) is str else _as_order(item) for item in orders]

    def clear_orders(self, power: str | None = None) -> None:
        """Forget the orders of ``power`` (or of every power) for the current phase."""
        if power is None:
            self._orders.clear()
        else:
            self._orders.pop(self._power(power), None)

    # ------------------------------------------------------------------ processing

    def process(self) -> PhaseOutcome:
        """Rule on the current phase, record it, and move on to the next position.

        Powers without orders (absent or resigned) are handled as the rules say for missing
        orders. Returns the phase's :class:`~diplo.model.results.PhaseOutcome`; the game may be over
        afterwards (``is_over``), by a solo victory or at the end of ``max_year``.
        """
        self._require_running()
        position = self._position
        orders = {p: list(self._orders[p]) for p in self.map.powers if self._orders.get(p)}
        outcome = process_phase(position, orders, self._backend)
        recorded = {
            p: tuple([o if type(o) is str else _order_text(o) for o in os])
            for p, os in orders.items()
        }
        self._append_record(PhaseRecord(position, MappingProxyType(recorded), outcome))
        return outcome

    def _append_record(self, record: PhaseRecord) -> None:
        """Add a processed phase and move on to its next position, ending the game if it ends
        (:func:`append_record`)."""
        self._require_running()
        if record.position.phase != self._position.phase:
            raise ValueError(f"a record of {record.phase} cannot follow {self.phase}")
        outcome = record.outcome
        self._history.append(record)
        self._position = outcome.next
        self._orders = {}
        self._proposal = None
        if outcome.winner is not None:
            self._winner = outcome.winner
            self._end_reason = "solo"
        elif (last := self._last_year()) is not None and outcome.next.phase.year > last:
            self._draw = True
            self._end_reason = "max_year"

    def phase_results(self, phase: str | Phase) -> PhaseOutcome:
        """The ruling of an already processed phase (``"S1901M"`` or a :class:`Phase`).

        Raises ``KeyError`` when that phase was not played (skipped phases never are).
        """
        wanted = Phase.parse(phase) if isinstance(phase, str) else phase
        for record in self._history:
            if record.position.phase == wanted:
                return record.outcome
        raise KeyError(f"phase {wanted} was not played in this game")

    # ------------------------------------------------------------------ resignation, draws

    def resign(self, power: str) -> None:
        """Put ``power`` into civil disorder for the rest of the game (see the module doc).

        Its orders for the current phase are dropped, and its draw vote if it had one. Raises
        ``ValueError`` for an unknown power, one that has already resigned, or one that is no
        longer on the board.
        """
        self._require_running()
        name = self._power(power)
        if name in self._resigned:
            raise ValueError(f"{name} has already resigned")
        if name not in self.survivors:
            raise ValueError(f"{name} has been eliminated and cannot resign")
        self._resigned[name] = self.phase
        self._orders.pop(name, None)
        if self._proposal is not None:
            self._proposal.pop(name, None)
            self._check_draw()

    def voters(self) -> list[str]:
        """The powers that vote on a draw: survivors that have not resigned."""
        return [p for p in self.survivors if p not in self._resigned]

    @property
    def draw_votes(self) -> dict[str, bool]:
        """The votes on the open draw proposal (empty when none is open)."""
        return dict(self._proposal) if self._proposal is not None else {}

    @property
    def draw_proposed(self) -> bool:
        return self._proposal is not None

    def propose_draw(self, power: str) -> bool:
        """Open a draw proposal with ``power`` voting for it; returns whether the draw passed.

        ``power`` must be a voter. Proposing while a proposal is open counts as a vote for it.
        """
        self._require_running()
        name = self._voter(power)
        if self._proposal is None:
            self._proposal = {}
        return self.vote_draw(name, True)

    def vote_draw(self, power: str, accept: bool) -> bool:
        """Record ``power``'s vote on the open proposal; returns whether the draw passed.

        Raises ``ValueError`` when no proposal is open or ``power`` is not a voter.
        """
        self._require_running()
        name = self._voter(power)
        if self._proposal is None:
            raise ValueError("no draw has been proposed in this phase")
        self._proposal[name] = bool(accept)
        return self._check_draw()

    def _voter(self, power: str) -> str:
        name = self._power(power)
        if name in self._resigned:
            raise ValueError(f"{name} has resigned and does not vote on draws")
        if name not in self.survivors:
            raise ValueError(f"{name} has been eliminated and does not vote on draws")
        return name

    def _check_draw(self) -> bool:
        proposal = self._proposal
        if proposal is None:
            return False
        voters = self.voters()
        if voters and all(proposal.get(p) is True for p in voters):
            self._draw = True
            self._end_reason = "draw_vote"
            self._orders = {}
            return True
        return False

    # ------------------------------------------------------------------ internals

    def _require_running(self) -> None:
        if self.is_over:
            raise GameOverError(f"the game is over ({self._end_reason})")

    def __repr__(self) -> str:
        state = f"over: {self._end_reason}" if self.is_over else str(self.phase)
        return f"<Game {self.map.name} {state}, {len(self._history)} phases played>"


def _as_order(item: object) -> str | Order:
    """An order as submitted: text and order objects are kept; anything else becomes its
    ``repr`` text, so that it is ruled on at processing (unparsable) rather than rejected."""
    if type(item) is str:
        return item
    if isinstance(item, str | Hold | Move | SupportHold | SupportMove | Convoy):
        return item
    if isinstance(item, Retreat | Disband | Build | Waive):
        return item
    return repr(item)


def _order_text(order: str | Order) -> str:
    return order if isinstance(order, str) else format_order(order)


def append_record(game: Game, record: PhaseRecord) -> None:
    """Add a phase ruled elsewhere to ``game`` and move on to its next position, ending the game
    if it ends: :meth:`Game.process` does it with its own ruling; :mod:`diplo.formats.gamefile`
    rebuilds a game from a file without replaying it (``verify=False``). Raises ``ValueError``
    when the record is not of the game's current phase, :class:`GameOverError` on a finished
    game."""
    game._append_record(record)
