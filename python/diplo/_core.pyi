"""Typed stub of the Rust core (``diplo._core``, built from ``rust/src/bindings/``): the game
engine behind every front end (docs/design.md, "One engine, two readable front ends").

Provinces and locations are indices into ``Map.locations`` (provinces first, then coasts), so a
province's index is also its location index. Outcome codes index ``RESULT_NAMES``: 0 ok,
1 bounce, 2 cut, 3 dislodged, 4 no_convoy, 5 void (docs/design.md, "Outcomes").
"""

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Final, final

__all__ = [
    "CODE_LAYOUT",
    "EXPLAIN_NAMES",
    "ORDER_KINDS",
    "REASON_NAMES",
    "RESULT_NAMES",
    "ActionError",
    "CodeGame",
    "CodeMap",
    "DeepMindEnv",
    "DipccEncoder",
    "GameOverError",
    "InUseError",
    "MilaBoard",
    "MilaCheck",
    "MilaTables",
    "Outcome",
    "RolloutPlayer",
    "VectorEnv",
    "Verdict",
    "__version__",
    "_mila_forget",
    "_panic_for_test",
    "_panic_in_next_call",
    "mila_codes",
    "mila_copy",
    "mila_play",
    "mila_turn",
    "pack_orders",
    "process_batch",
]

__version__: Final[str]
#: The resolver's result codes by number: ok, bounce, cut, dislodged, no_convoy, void (the engine
#: adds 6, illegal).
RESULT_NAMES: Final[list[str]]
#: The order kinds by the kind number in bits 0-3 of a ``u64`` order code (the
#: ``diplo.model.orders`` class names): Hold, Move, SupportHold, SupportMove, Convoy, Retreat,
#: Disband, Build, Waive.
ORDER_KINDS: Final[list[str]]
#: The bit fields of an order code: ``kind_mask``; the index fields' ``field_width`` and
#: ``field_mask``; ``loc_shift`` (a waive's power at ``power_shift``, the same field),
#: ``a_shift``, ``b_shift``; the flag bits ``via_shift`` and ``fleet_shift``; ``used_mask``.
CODE_LAYOUT: Final[dict[str, int]]

class GameOverError(RuntimeError):
    """An action that needs a running game was asked of a game that has ended."""

class InUseError(RuntimeError):
    """An object of the core (a CodeGame, a RolloutPlayer, a VectorEnv, a DeepMindEnv) asked for
    by one call while another holds it."""

    #: The object's place in the list the refusing call was given (process_batch's games).
    index: int | None

class ActionError(ValueError):
    """An entry of an action table outside the action space."""

    #: The entry's place: (game, power, slot).
    index: tuple[int, int, int]

def _panic_for_test(message: str) -> None:
    """Panics inside the guard every entry point uses; raises ``RuntimeError`` (tests only)."""

# --------------------------------------------------------------------------- the code API
# Wrapped by ``diplo.engine.codes`` (documented there): call that module, not these directly.

@final
class CodeMap:
    """A map compiled for the code API, interned by its data (at most 1,024 locations, compiled
    at the narrowest set width that holds them).

    ``province_kind``: 0 land, 1 coast, 2 sea; ``homes``: per power its home centres;
    ``name_rank``: per province its rank by English name (the civil-disorder tie-break);
    ``order_classes``: the ``diplo.model.orders`` classes in ``ORDER_KINDS`` order, by which order
    objects are told apart (by identity; without them the core reads no order object);
    ``ports``: the coastal provinces whose fleets may convoy; ``calendar``: the years from a
    Spring to its Fall and from a Fall to the next Spring (default ``(0, 1)``,
    ``diplo.model.calendar``); ``neutral``: the neutral powers (``Map.neutral``), ``rebuild``
    those of them that rebuild their armies; ``start_armies``: the year of the first phase, an
    adjustment in which every build left unordered is an army (``Map.start_armies``). Raises
    ``ValueError`` on a map that does not fit the encoding or does not check (or has more
    chains of seas than the engine lists convoys over, or is one map more than the 1,024 one
    process compiles).

    Threads: immutable; share it freely.
    """

    def __new__(
        cls,
        locations: list[str],
        powers: list[str],
        loc_province: list[int],
        province_kind: list[int],
        army_adj: list[list[int]],
        fleet_adj: list[list[int]],
        centers: list[int],
        homes: list[list[int]],
        name_rank: list[int],
        victory: int = 0,
        *,
        order_classes: Sequence[type] | None = None,
        ports: list[int] | None = None,
        calendar: tuple[int, int] | None = None,
        neutral: list[int] | None = None,
        rebuild: list[int] | None = None,
        start_armies: int | None = None,
    ) -> CodeMap: ...
    @property
    def num_locations(self) -> int: ...
    @property
    def num_provinces(self) -> int: ...
    @property
    def num_powers(self) -> int: ...
    # The engine behind the object API (diplo.engine):
    def encode_objects(self, items: list[object]) -> list[int]:
        """Codes of order objects read by their fields; -1 where the caller must rule."""
    def submit_orders(
        self, orders: object, power_index: dict[str, int]
    ) -> tuple[list[int], bytes, list[int]] | None:
        """A phase's orders as (codes, power bytes, missing): ``missing`` the indices of the
        orders left to the parser or the model's intake (code 0; 255: a power the map does not
        have); None when the orders are not a dict of lists or tuples."""
    def read_position(self, doc: object) -> CodeGame | None:
        """A game at a canonical adjudicate document's position, or None."""
    def parse_canonical(self, text: str) -> int | None:
        """The code of a text in the canonical short form, or None."""

@final
class CodeGame:
    """A game on the code API. Units ``(power, is_fleet, loc)``, centres ``(province, power)``,
    dislodged ``((power, is_fleet, loc), options)``; raises ``ValueError`` on a bad position.

    Threads: one thread at a time. A call made while another call holds the game (another
    thread's ``process_batch``, or a call re-entered from an item's ``__index__``) raises
    ``InUseError`` (a ``RuntimeError``, mapped in the core, never PyO3's own borrow error)."""

    def __new__(
        cls,
        map: CodeMap,
        year: int,
        season: str,
        kind: str,
        units: list[tuple[int, int, int]],
        centers: list[tuple[int, int]],
        dislodged: list[tuple[tuple[int, int, int], list[int]]],
        max_year: int | None = None,
        rules: Mapping[str, str | int | bool | None] | None = None,
    ) -> CodeGame: ...
    @property
    def phase(self) -> str: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def winner(self) -> str | None: ...
    @property
    def max_year(self) -> int | None: ...
    def legal_orders(self) -> list[list[int]]: ...
    def listed_orders(self) -> list[list[int]]: ...
    def slots(self) -> list[tuple[str, str]]: ...
    def set_orders(self, orders: Sequence[int]) -> None: ...
    def process(self) -> Outcome:
        """Rules on the phase and moves on: the phase's results (the game keeps none)."""
    def state(
        self,
    ) -> tuple[
        int,
        str,
        str,
        list[tuple[int, bool, int]],
        list[tuple[int, int]],
        list[tuple[int, bool, int, list[int]]],
    ]:
        """``(year, season, kind, units, centers, dislodged)``; dislodged entries are
        ``(power, is_fleet, loc, options)``."""
    def clone(self) -> CodeGame: ...
    # The engine behind the object API (diplo.engine): a phase with the submitting powers,
    # ruled and explained (its Verdict); what validation makes of one code.
    def run(self, codes: list[int], powers: bytes) -> Verdict:
        """Plays the phase on ``codes`` given by ``powers`` (a power index per code, 255: the
        owner) and returns its ruling; ``ValueError`` for a phase past year 9999 (the game
        unchanged)."""
    def run_orders(
        self, map: CodeMap, orders: object, power_index: dict[str, int]
    ) -> tuple[Verdict | None, bytes, list[int] | None, list[int]] | None:
        """``CodeMap.submit_orders`` and ``run`` in one call: ``(verdict, powers, None, [])``
        when the core read every order; else ``(None, powers, codes, missing)``, nothing played
        (``submit_orders``' answer); None when the orders are not a dict of lists."""
    def judge(self, code: int, power: int = 255) -> tuple[int, int]:
        """``(reason, normal form)`` of ``code`` given by ``power`` in this phase, nothing
        played: the reason an index of ``REASON_NAMES`` (0: legal), the normal form 0 when
        refused."""
    def judge_all(self, codes: list[int], powers: bytes) -> list[int]:
        """Per code given by ``powers`` (as ``run`` takes them), the reason ``run`` would give
        it (an index of ``REASON_NAMES``, 0: legal), nothing played and no game cloned."""
    def texts(self, codes: list[int]) -> list[str]: ...
    def legal_texts(
        self,
    ) -> tuple[list[list[int]], list[list[str]], list[tuple[str, str]]]: ...
    def legal_by_power(self) -> dict[str, dict[str, list[str]]]:
        """Every power's legal order texts, keyed as diplo.api.legal keys them."""
    def legal_of(self, power: int) -> dict[str, list[str]]:
        """One power's entry of legal_by_power (by index), made afresh."""
    def orderable(self) -> list[str]:
        """The powers with a slot other than a waive, in map order."""
    def position_json(self) -> dict[str, Any]:
        """The position as Position.to_json writes it."""
    def position_json_text(self, phase: str | None) -> str:
        """json.dumps of position_json with this phase (None: null), on a plain-named map."""
    # Search (rust/src/engine/search.rs, zobrist.rs).
    @property
    def hash(self) -> int:
        """The board hash (64 bits), kept as the game is played."""
    def full_hash(self) -> int:
        """The board hash worked out from scratch."""
    def state_bytes(self) -> bytes:
        """The compact, versioned state (without the map)."""
    @staticmethod
    def from_state_bytes(
        map: CodeMap, data: bytes, rules: dict[str, Any] | None = None
    ) -> CodeGame:
        """The game of state_bytes on ``map``, under ``rules`` (``Rules.to_json()``) when given;
        ValueError for damaged bytes or rules that do not match them."""
    def __copy__(self) -> CodeGame: ...
    def __deepcopy__(self, _memo: Any) -> CodeGame: ...
    def play_candidates(
        self, candidates: Sequence[Sequence[int]]
    ) -> tuple[list[int], list[list[int]], list[CodeGame]]:
        """Per candidate order set: next hash, centres per power, the game."""
    def _poison(self) -> None:
        """Tests only: the next processing of this game panics inside the core."""

@final
class Outcome:
    """One phase's results, as ``CodeGame.process`` returns them (immutable; the same three
    methods as ``Verdict``'s)."""

    def result_codes(self) -> list[int]:
        """Per submitted code, its result (an index of ``RESULT_NAMES``; 6: illegal)."""
    def result_success(self) -> list[bool]:
        """Per submitted code, whether it succeeded (the DATC sense)."""
    def implied_results(self) -> list[tuple[int, int, bool]]:
        """What the phase did without an order: ``(code, result, success)``."""
    def __eq__(self, value: object, /) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]

@final
class RolloutPlayer:
    """Random games (diplo.rollouts' default policy, ``random.Random(seed)``'s draws) played
    and written whole by the engine (rust/src/bindings/rollout.rs)."""

    def __new__(
        cls,
        start: CodeGame,
        word_tail: Callable[[int], str],
        word_ruling: Callable[[tuple[Any, ...]], str],
    ) -> RolloutPlayer: ...
    def play(
        self, seed: int, files: bool, dataset: bool
    ) -> tuple[bytes | None, int, int, int | None, CodeGame] | None:
        """``(phases, count, years, final_year, game)``, or None: play it on the code API."""
    def take_dataset(self) -> tuple[int, list[bytes]]:
        """The dataset's rows since the last call as Arrow buffers (rows, then 11 buffers)."""

@final
class VectorEnv:
    """N games of one map stepped together (diplo.env.vector): NumPy buffers filled in place,
    the GIL released, the games spread over ``threads`` threads."""

    def __new__(
        cls,
        start: CodeGame,
        num_envs: int,
        first_year: int,
        slots: int,
        choices: int,
        win: float = 10.0,
        draw: float = 10.0,
        threads: int = 1,
        keep_lists: bool = False,
    ) -> VectorEnv: ...
    @property
    def num_envs(self) -> int: ...
    def threads(self, count: int | None = None) -> int:
        """The threads a call spreads the games over, set to ``count`` first when given
        (``InUseError`` while another thread's call holds the environment)."""
    def layout(self) -> dict[str, int]:
        """The board columns' starts by name, and ``locations``, ``powers``, ``channels``."""
    def buffers(self) -> dict[str, Any]:
        """The output NumPy arrays by name (the same arrays after every call)."""
    def reset(self) -> None: ...
    def step(self, actions: Any) -> int:
        """``actions``: ``int64[num_envs, powers, slots]``; returns the phases played."""
    def check_actions(self, actions: Any) -> None:
        """``ValueError`` for an action ``step`` refuses (every entry in ``-1..choices``)."""
    def legal_codes(self, i: int) -> list[list[list[int]]]: ...
    def slot_keys(self, i: int) -> list[list[str]]: ...
    def game(self, i: int) -> CodeGame:
        """A copy of game ``i``."""
    def _poison(self, i: int) -> None:
        """Tests only: the next step of game ``i`` panics inside the core."""

@final
class DeepMindEnv:
    """N games in DeepMind's ``DiplomacyState`` protocol (diplo.env.deepmind.batched): their
    observations and legal actions in NumPy buffers filled in place, the GIL released."""

    def __new__(
        cls,
        start: CodeGame,
        num_games: int,
        actions: list[int],
        loc_byte: list[int],
        loc_main: list[int],
        loc_coast: list[int],
        area_kind: list[int],
        theirs: list[int],
        max_actions: int,
        max_orders: int,
        threads: int = 1,
    ) -> DeepMindEnv: ...
    @property
    def num_games(self) -> int: ...
    @property
    def max_actions(self) -> int: ...
    @property
    def max_orders(self) -> int: ...
    def threads(self, count: int | None = None) -> int:
        """The threads a call spreads the games over, set to ``count`` first when given
        (``InUseError`` while another thread's call holds the environment)."""
    def buffers(self) -> dict[str, Any]:
        """The output NumPy arrays by name (the same arrays after every call)."""
    def reset(self) -> None: ...
    def step(self, actions: Any) -> int:
        """``actions``: ``int64[num_games, 7, max_orders]`` (-1: none); returns phases played."""
    def check_actions(self, actions: Any) -> None:
        """``ValueError`` (naming game, power, action) for what ``step`` refuses."""
    def step_lists(self, per_game: Any) -> int:
        """``step`` with per game seven lists of plain ints (no padding; -1 refused);
        ``TypeError`` for anything but lists of exact ints."""
    def legal_actions(self, i: int) -> list[list[int]]: ...
    def game(self, i: int) -> CodeGame:
        """A copy of game ``i``."""

@final
class MilaCheck:
    """Which texts each power may give in the phase :func:`mila_turn` listed (equal for two
    calls on one state)."""

    def __eq__(self, value: object, /) -> bool: ...
    def allows_text(self, slot: int, text_id: int, power: int) -> bool:
        """Whether the text with id ``text_id`` is listed at ``slot`` for the power with index
        ``power`` (the check :meth:`take` makes of each text)."""
    def take(
        self, power: object, texts: list[str], before: dict[int, tuple[Any, ...]] | None
    ) -> dict[int, tuple[Any, ...]] | None:
        """``before`` (or an empty dict) copied, each of ``texts`` put at its slot as its
        ``lookup`` entry; ``None`` unless ``power`` is one of the map's powers and every text is
        in ``lookup`` and listed for it (and, in an adjustment phase, no two texts are for one
        slot)."""

@final
class MilaTables:
    """One map's MILA facts for :class:`MilaBoard`: its centres in MILA's order, the ranks of
    retreat options among each location's neighbours, MILA's Zobrist numbers on the engine's
    indices and the homes per power (``ValueError`` for tables that do not fit the map)."""

    def __new__(
        cls,
        game: CodeGame,
        scs: list[int],
        ranks: list[tuple[list[tuple[int, int]], int]],
        zobrist: tuple[list[int], list[int], list[int], list[int]],
        homes: list[list[int]],
    ) -> MilaTables: ...

@final
class Verdict:
    """One phase's ruling (``CodeGame.run``, ``mila_play``), immutable: the state it was ruled
    from (``state``, ``phase``, ``texts``), the state it led to (``after_state``, ``winner``) and
    per code its reason, normal form, result and facts; the implied results; the units
    dislodged."""

    @property
    def phase(self) -> str: ...
    @property
    def winner(self) -> str | None: ...
    def state(
        self,
    ) -> tuple[
        int,
        str,
        str,
        list[tuple[int, bool, int]],
        list[tuple[int, int]],
        list[tuple[int, bool, int, list[int]]],
    ]:
        """The state the phase was ruled from, as ``CodeGame.state`` gives it."""
    def after_state(
        self,
    ) -> tuple[
        int,
        str,
        str,
        list[tuple[int, bool, int]],
        list[tuple[int, int]],
        list[tuple[int, bool, int, list[int]]],
    ]:
        """The state the phase led to, as ``CodeGame.state`` gives it."""
    def result_codes(self) -> list[int]: ...
    def result_success(self) -> list[bool]: ...
    def implied_results(self) -> list[tuple[int, int, bool]]: ...
    def reasons(self) -> list[int]: ...
    def normal_forms(self) -> list[int]: ...
    def facts(self) -> list[tuple[int, int, int, int, bool, bool]]: ...
    def gone(self) -> list[tuple[int, bool, int, list[int]]]: ...
    def texts(self, codes: list[int]) -> list[str]:
        """The canonical texts of normal-form codes in the state ruled from."""
    def movement_rows(self) -> list[Any]:
        """Per code a row of facts or None, then per implied hold a row (bindings/verdict.rs)."""
    def movement_json(self, owners: bytes) -> tuple[list[str], list[int]]:
        """The results' JSON around their sentences' tails, and the tails' keys."""
    def phase_rows(
        self,
    ) -> list[
        tuple[
            str,
            bool,
            str | None,
            tuple[
                int,
                str,
                str | None,
                str,
                str | None,
                str | None,
                int,
                bool,
                list[tuple[str, str]],
            ],
        ]
        | None
    ]:
        """Retreats or adjustments: per code ``None`` (refused) or
        ``(code, success, unit, facts)``, then per implied result the same; ``facts`` is
        ``(why, power, unit, order, place, other, number, home, rivals)`` with ``why`` an index
        of ``EXPLAIN_NAMES`` (the fields of diplo.model.outcome.RulingFacts)."""

@final
class MilaBoard:
    """One board's lists in MILA's order (never changed)."""

    @staticmethod
    def of_lists(
        tables: MilaTables,
        units: dict[str, list[str]],
        dislodged: dict[str, list[str]],
        centers: dict[str, list[str]],
        influence: dict[str, list[str]],
    ) -> MilaBoard | None:
        """The lists given as texts per power; ``None`` when a power or text is not the map's."""
    def after(self, tables: MilaTables, verdict: Verdict, game: CodeGame) -> MilaBoard:
        """The lists once the phase ruled in ``verdict`` took the game to ``game``."""
    def lists(
        self, tables: MilaTables
    ) -> tuple[
        dict[str, list[str]], dict[str, list[str]], dict[str, list[str]], dict[str, list[str]]
    ]:
        """Per power: units, dislodged units, centres and influence, as texts."""
    def hash(self, tables: MilaTables, game: CodeGame) -> int:
        """MILA's Zobrist hash of ``game``'s board laid out in the lists."""
    def state(self, tables: MilaTables, game: CodeGame, name: str, note: str) -> dict[str, Any]:
        """MILA's state dictionary of ``game``'s board in the lists' order (new each call)."""
    def __copy__(self) -> MilaBoard: ...
    def __deepcopy__(self, memo: Any, /) -> MilaBoard: ...

def mila_copy(value: Any) -> Any:
    """A copy of ``value`` sharing no dict or list with it (exact dicts and lists copied; exact
    strings, ints, floats, bools and ``None`` shared); ``None`` when it holds anything else or is
    nested deeper than 32."""

def mila_turn(
    game: CodeGame,
) -> tuple[
    dict[str, list[str]],
    dict[str, list[str]],
    MilaCheck,
    dict[str, tuple[str, int, int, int]],
    dict[str, list[str]],
]:
    """The phase as MILA's ``Game`` shows it: ``(possible, orderable, check, lookup,
    orderable_again)``: every location -> the sorted texts of the orders listed there (a fleet
    on a split coast under its province and its coast; each list new); power -> the keys it
    orders; which texts each power may give now; the map's ``{text: (text, code, slot, text
    id)}`` (``slot``: the location index of the province ordered); a second ``orderable``. A
    plain army move beyond the neighbours is not listed (MILA lists it with ``VIA``)."""

def mila_codes(game: CodeGame) -> dict[str, dict[str, int]]:
    """Per power, ``{text: code}`` of the orders :func:`mila_turn` lists this phase."""

def _mila_forget(game: CodeGame) -> None:
    """Tests only: forgets every MILA text and listing kept for the game's map."""

def mila_play(
    game: CodeGame, check: MilaCheck, orders: dict[str, dict[int, tuple[Any, ...]]]
) -> Verdict | None:
    """Plays the phase on the orders kept by ``diplo.compat.mila`` (power -> slot -> entry, the
    code second), read in the map's order of powers; returns its ruling (``Verdict``), or
    ``None`` (nothing done) when an order was kept unread (its code ``None``). Orders that
    ``check`` lists for their power are taken as listed; any other makes the engine check them
    all."""

def process_batch(
    games: Sequence[CodeGame],
    orders: Sequence[Sequence[int]] | bytes,
    threads: int | None = None,
    offsets: bytes | None = None,
    outcomes: bool = False,
) -> list[Outcome] | None:
    """With ``offsets``, ``orders`` is ``bytes`` of native-endian ``u64`` codes and ``offsets``
    ``bytes`` of native-endian ``u32`` values: game ``i`` gets codes ``offsets[i]`` to
    ``offsets[i + 1]``. With ``outcomes``, every game's ``Outcome`` in order, else None.

    Threads: releases the GIL while it processes, holding every game of the batch; several
    threads may call it at once on different games. At interpreter exit a daemon thread inside
    it parks rather than take the GIL back."""

def _panic_in_next_call() -> None:
    """The next guarded call of the code API panics on entry and raises ``RuntimeError``
    (tests only)."""

def pack_orders(orders: Sequence[Sequence[int]]) -> tuple[bytes, bytes]:
    """``(codes, offsets)``, the flat form of ``orders`` for ``process_batch``."""

#: The engine's reason codes for refused orders, by index (0 "ok"), as diplo.reference.validation
#: names them.
REASON_NAMES: Final[list[str]]

#: The why codes of the engine's retreat and adjustment rulings, by index: the keys of
#: diplo.model.outcome.RULING_SENTENCES.
EXPLAIN_NAMES: Final[list[str]]

@final
class DipccEncoder:
    """dipcc's encoders (Cicero's ``pydipcc.ThreadPool``) over packed games, writing NumPy
    arrays in place, the GIL released (diplo.engine.dipcc, diplo.compat.dipcc.encoding)."""

    def __new__(
        cls,
        names: Sequence[str],
        root: Sequence[int],
        coasts: Sequence[Sequence[int]],
        water: Sequence[int],
        centers: Sequence[int],
        army_adjacent: Sequence[Sequence[int]],
        fleet_adjacent: Sequence[Sequence[int]],
        army_adjacent_all: Sequence[Sequence[int]],
        fleet_adjacent_all: Sequence[Sequence[int]],
        homes: Sequence[Sequence[int]],
        army_builds: Sequence[Sequence[int]],
        fleet_builds: Sequence[Sequence[int]],
        vocabulary: Sequence[tuple[Sequence[tuple[int, int, int, int, int, int, bool]], int]],
        threads: int,
    ) -> DipccEncoder: ...
    def board_states(self, packed: bytes, n: int, version: int, out: Any) -> None: ...
    def encode(
        self,
        packed: bytes,
        n: int,
        version: int,
        board_state: Any,
        prev_state: Any,
        prev_orders: Any,
        season: Any,
        year: Any,
        in_adj: Any,
        builds: Any,
        scoring: Any,
        actions: Any = None,
        loc_idxs: Any = None,
        powers: Any = None,
    ) -> None: ...
    def encode_orders(self, orders: bytes, state: bytes | None, out: Any) -> None: ...
    def possible_orders(
        self, packed: bytes, with_tuples: bool = True
    ) -> tuple[
        list[tuple[int, list[tuple[int, int, int, int, int, int, bool]], list[str]]],
        list[list[int]],
        list[int],
        bytes,
    ]: ...
    def rule_orders(self, packed: bytes, orders: bytes) -> bytes: ...
    def rule_staged(
        self, packed: bytes, listed: bytes | None, staged: bytes, engine: bytes
    ) -> tuple[bytes, list[int]]: ...
    def engine_game(self, template: CodeGame, packed: bytes, engine: bytes) -> CodeGame: ...
    def step(
        self,
        game: CodeGame,
        packed: bytes,
        listed: bytes | None,
        staged: dict[str, Iterable[tuple[int, int, int, int, int, int, bool]]],
        names: list[str],
        engine: bytes,
        dipcc: bytes,
        pieces: list[tuple[str, int]],
        powers: list[str],
        influence: dict[int, str],
    ) -> tuple[
        CodeGame, str, bytes, bytes, dict[int, tuple[str, int]], list[tuple[int, bytes]]
    ]: ...
