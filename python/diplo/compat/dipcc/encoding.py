"""dipcc's encoders as NumPy: the board state, orders to vocabulary indices and back.

The layouts are dipcc's (``dipcc/cc/encoding_v1.cc``, ``encoding_v2.cc``, ``orders_encoder.cc``
and ``thread_pool.cc`` in facebookresearch/diplomacy_cicero), so the arrays are the ones its
``ThreadPool`` fills, ready for ``torch.from_numpy`` without a copy:

* the board state, ``(81, width)`` float32 per game, one row per location in dipcc's ``LOCS``
  order: input version 1 is 35 channels (unit type, owner, "no unit", buildable, removable,
  the same for dislodged units, area type, centre owner), versions 2 and 3 are 38 (without the
  "no unit" channels, with the home centres of each power);
* an action, ``(2, 100)`` int64: the vocabulary index of each order and the location index of
  its unit, sorted by (order index, location index), zero-padded
  (``encode_orders_single_strict``/``_tolerant``, and dipcc's ``x_prev_orders``);
* decoding ``(batch, 7, n)`` vocabulary indices (-1 pads) back to each power's orders, a
  combined build (``A MOS B;A SEV B``) split into its orders, sorted by location.

The order vocabulary is the caller's, as with dipcc's ``ThreadPool`` (Cicero passes
``ORDER_VOCABULARY_TO_IDX`` from ``fairdiplomacy.utils.order_idxs``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from ...engine.dipcc import CoreDipccEncoder
from .board import BUILD as _BUILD
from .board import (
    FLEET,
    LOC_INDEX,
    LOCS,
    POWERS,
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    DipccOrder,
    board,
    pack_orders,
    parse_order,
)
from .core import board_encoder as _board_encoder
from .core import board_tables as _board_tables
from .game import Game, PhaseData, packed_game, state_of
from .jsonio import read_state
from .state import State

__all__ = [
    "EOS_IDX",
    "MAX_INPUT_VERSION",
    "ReferenceThreadPool",
    "ThreadPool",
    "board_state_enc_width",
    "encode_board_state",
    "encode_board_state_from_json",
    "encode_board_state_from_phase",
    "encode_board_state_pperm_matrices",
    "encode_board_states",
    "encoding_sc_ownership_idxs",
    "encoding_unit_ownership_idxs",
    "max_input_version",
    "pack_game",
    "reference_board_state",
]

#: The highest input version dipcc encodes (``encoding.h``).
MAX_INPUT_VERSION = 3
#: The padding of index arrays.
EOS_IDX = -1
#: The width of an encoded action (``PREV_ORDERS_WIDTH``).
ORDERS_WIDTH = 100
_N_LOCS = len(LOCS)
#: The steps of one power's candidates (``OrdersEncoder::MAX_SEQ_LEN``) and of all powers'.
_MAX_SEQ_LEN = 17
_N_SCS = 34
_COAST = re.compile(r"/[A-Z]{2}")

# Channel offsets by input version: (army, fleet, unit none, owner, buildable, removable,
# dislodged army, dislodged fleet, dislodged none, dislodged owner, land, water, coast, centre
# owner (8: seven powers and none), home (7) or None).
_V1 = dict(army=0, fleet=1, none=2, owner=3, owner_none=10, build=11, remove=12, d_army=13,
           d_fleet=14, d_none=15, d_owner=16, d_owner_none=23, land=24, water=25, coast=26,
           sc=27, home=None)  # fmt: skip
_V2 = dict(army=0, fleet=1, none=None, owner=2, owner_none=None, build=9, remove=10, d_army=11,
           d_fleet=12, d_none=None, d_owner=13, d_owner_none=None, land=20, water=21, coast=22,
           sc=23, home=31)  # fmt: skip


def max_input_version() -> int:
    return MAX_INPUT_VERSION


def _check_version(input_version: object) -> int:
    if isinstance(input_version, bool) or input_version not in (1, 2, 3):
        raise ValueError(f"Unknown input version {input_version!r} (dipcc's are 1, 2 and 3)")
    return int(input_version)


def board_state_enc_width(input_version: int) -> int:
    """The channels per location of a board-state encoding: 35 (version 1) or 38."""
    return 35 if _check_version(input_version) == 1 else 38


def _layout(input_version: int) -> dict[str, int | None]:
    return _V1 if input_version == 1 else _V2


def encoding_unit_ownership_idxs(input_version: int) -> list[int]:
    """The channels of a unit's owner, one per power in dipcc's order."""
    start = _layout(_check_version(input_version))["owner"]
    assert start is not None
    return [start + i for i in range(len(POWERS))]


def encoding_sc_ownership_idxs(input_version: int) -> list[int]:
    """The channels of a centre's owner, one per power in dipcc's order."""
    start = _layout(_check_version(input_version))["sc"]
    assert start is not None
    return [start + i for i in range(len(POWERS))]


@lru_cache(maxsize=4)
def _static(input_version: int) -> np.ndarray:
    """The channels that depend on the map only: area type and (versions 2, 3) home centres."""
    lay = _layout(input_version)
    b = board()
    out = np.zeros((_N_LOCS, board_state_enc_width(input_version)), dtype=np.float32)
    for i in range(_N_LOCS):
        code = i + 1
        if code in b.water:
            out[i, lay["water"]] = 1
        elif b.adjacent[FLEET][code] or any(b.adjacent[FLEET][c] for c in b.coasts[code]):
            out[i, lay["coast"]] = 1
        else:
            out[i, lay["land"]] = 1
    if lay["home"] is not None:
        for p, power in enumerate(POWERS):
            for home in b.homes[power]:
                out[home - 1, lay["home"] + p] = 1
    out.setflags(write=False)
    return out


def encode_board_state(
    game: Game | PhaseData, input_version: int, out: np.ndarray | None = None
) -> np.ndarray:
    """dipcc's board-state encoding of ``game``'s current phase (or a ``PhaseData``'s):
    ``(81, width)`` float32, made by the engine (:func:`reference_board_state` is the readable
    reference it is held to)."""
    version = _check_version(input_version)
    state = state_of(game)
    blob = _board_blob(state)
    if out is None:
        out = np.empty((_N_LOCS, _WIDTHS[version]), dtype=np.float32)
        _board_encoder().board_states(blob, 1, version, out[np.newaxis])
        return out
    staged = np.empty((1, _N_LOCS, _WIDTHS[version]), dtype=np.float32)
    _board_encoder().board_states(blob, 1, version, staged)
    out[...] = staged[0]
    return out


def reference_board_state(game: Game | PhaseData, input_version: int) -> np.ndarray:
    """The readable reference of :func:`encode_board_state`, in Python and NumPy."""
    return _encode_state(state_of(game), _check_version(input_version), None)


def encode_board_state_from_phase(phase: PhaseData, input_version: int) -> np.ndarray:
    """pydipcc's name for the encoding of a ``PhaseData``'s board."""
    if not isinstance(phase, PhaseData):
        raise TypeError(f"expected a PhaseData, got {type(phase).__name__}")
    return encode_board_state(phase, input_version)


def encode_board_state_from_json(state_json: str, input_version: int) -> np.ndarray:
    """The encoding of a phase's ``state`` object of dipcc's JSON (checked as ``from_json``)."""
    return _encode_state(read_state(state_json), _check_version(input_version), None)


def encode_board_state_pperm_matrices(pperms: Any, input_version: int) -> np.ndarray:
    """For each permutation of the seven powers (a row of ``pperms``, ``(B, 7)``), the
    ``(width, width)`` matrix that permutes the powers' channels of a board-state encoding
    (input versions 2 and 3 only, as dipcc)."""
    version = _check_version(input_version)
    if version == 1:
        raise RuntimeError("PowerPermutation not supported for input_version 1")
    perms = np.asarray(pperms)
    if perms.ndim != 2 or perms.shape[1] != len(POWERS):
        raise ValueError(f"pperms must have the shape (batch, 7), got {perms.shape}")
    if any(sorted(row) != list(range(7)) for row in perms.tolist()):
        raise ValueError("each row of pperms must be a permutation of 0..6")
    width = board_state_enc_width(version)
    lay = _layout(version)
    blocks = [lay["owner"], lay["d_owner"], lay["sc"], lay["home"]]
    out = np.zeros((len(perms), width, width), dtype=np.float32)
    out[:, np.arange(width), np.arange(width)] = 1
    for k, row in enumerate(perms.tolist()):
        for start in blocks:
            assert start is not None
            block = slice(start, start + len(POWERS))
            out[k, block, block] = 0
            for p, q in enumerate(row):
                out[k, start + p, start + q] = 1
    return out


def _encode_state(state: Any, version: int, out: np.ndarray | None) -> np.ndarray:
    lay = _layout(version)
    if out is None:
        out = np.array(_static(version))
    else:
        out[...] = _static(version)
    b = board()
    winter = state.phase.season == "W"
    filled = np.zeros(_N_LOCS, dtype=bool)
    for code, (power, utype) in state.units.items():
        removable = float(winter and state.n_builds(power) < 0)
        for c in {code, b.root[code]}:
            i = c - 1
            out[i, lay["army"] if utype == 1 else lay["fleet"]] = 1
            out[i, lay["owner"] + POWERS.index(power)] = 1  # type: ignore[operator]
            out[i, lay["remove"]] = removable
            filled[i] = True
    if lay["none"] is not None:
        out[~filled, lay["none"]] = 1
        out[~filled, lay["owner_none"]] = 1
    if state.phase.kind == "A":
        for orders in state.possible_orders().values():
            if orders and orders[0].kind == _BUILD:
                out[orders[0].unit_loc - 1, lay["build"]] = 1
    filled[:] = False
    for power, utype, code in state.dislodged:
        for c in {code, b.root[code]}:
            i = c - 1
            out[i, lay["d_army"] if utype == 1 else lay["d_fleet"]] = 1
            out[i, lay["d_owner"] + POWERS.index(power)] = 1  # type: ignore[operator]
            filled[i] = True
    if lay["d_none"] is not None:
        out[~filled, lay["d_none"]] = 1
        out[~filled, lay["d_owner_none"]] = 1
    sc = lay["sc"]
    assert sc is not None
    for center in b.centers:
        if b.root[center] != center:
            continue
        owner = state.centers.get(center)
        offset = 7 if owner is None else POWERS.index(owner)
        for c in b.coasts[center]:
            out[c - 1, sc + offset] = 1
    return out


def encode_board_states(games: Sequence[Game | PhaseData], input_version: int) -> np.ndarray:
    """The board states of many games as one ``(batch, 81, width)`` float32 array (the engine,
    the GIL released)."""
    version = _check_version(input_version)
    out = np.empty((len(games), _N_LOCS, board_state_enc_width(version)), dtype=np.float32)
    blob = b"".join(_board_blob(state_of(game)) for game in games)
    _board_encoder().board_states(blob, len(games), version, out)
    return out


# ---------------------------------------------------------------------- the engine's side

_WIDTHS = {1: 35, 2: 38, 3: 38}


def _with_length(game: bytes) -> bytes:
    return len(game).to_bytes(4, "little") + game


def _board_blob(state: State) -> bytes:
    """A board alone as a packed game of a batch (no history)."""
    return state.packed_alone()


def pack_game(game: Game) -> bytes:
    """A game as the engine's encoders read it, with its length first (a batch's entry)."""
    return _with_length(packed_game(game))


def engine_vocabulary(to_idx: Mapping[str, int]) -> list[tuple[list[DipccOrder], int]]:
    """The vocabulary entries the engine can match, parsed: those written as dipcc writes an
    order (a combined build: its orders sorted as texts, joined by ``;``). An entry written
    otherwise never equals an order's text, so the Python reference never matches it either."""
    out: list[tuple[list[DipccOrder], int]] = []
    for text, idx in to_idx.items():
        try:
            parts = [parse_order(part) for part in text.split(";")]
        except ValueError:
            continue
        if ";".join(sorted(str(o) for o in parts)) != text:
            continue
        out.append((parts, idx))
    return out


class ReferenceThreadPool:
    """dipcc's ``ThreadPool`` in Python and NumPy: the readable reference of
    :class:`ThreadPool`, whose encoders run in the engine; its encoders and decoders over the
    caller's vocabulary.

    ``ThreadPool(n_threads, order_vocabulary_to_idx, max_order_cands)`` as dipcc's (the thread
    count is accepted; the work runs in the calling thread): ``encode_inputs_multi``,
    ``encode_inputs_all_powers_multi``, ``encode_inputs_state_only_multi``,
    ``encode_orders_single_strict``, ``encode_orders_single_tolerant``, ``decode_order_idxs``,
    ``decode_order_idxs_all_powers``, ``process_multi`` (``docs/dipcc-compat.md``).
    """

    def __init__(
        self, n_threads: int, order_vocabulary_to_idx: Mapping[str, int], max_order_cands: int
    ) -> None:
        if not isinstance(order_vocabulary_to_idx, Mapping):
            raise TypeError("order_vocabulary_to_idx must be a mapping of order text to index")
        self.n_threads = int(n_threads)
        self.max_order_cands = int(max_order_cands)
        self._to_idx = dict(order_vocabulary_to_idx)
        size = max(self._to_idx.values(), default=-1) + 1
        vocabulary = [""] * size
        for text, idx in self._to_idx.items():
            if not isinstance(idx, int) or idx < 0:
                raise ValueError(f"order vocabulary: bad index {idx!r} for {text!r}")
            vocabulary[idx] = text
        self._vocabulary = vocabulary

    # ------------------------------------------------------------------ orders to indices

    def _encode(self, orders: Sequence[str], game: Game | None) -> np.ndarray:
        if isinstance(orders, str):
            raise TypeError("orders must be a list of order texts, not a str")
        parsed = [parse_order(text) for text in orders]
        state = None if game is None else state_of(game)
        out = np.zeros((2, ORDERS_WIDTH), dtype=np.int64)
        self._encode_into([(order, state) for order in parsed], out)
        return out

    def _encode_into(self, orders: Sequence[tuple[DipccOrder, Any]], out: np.ndarray) -> None:
        """dipcc's action encoding of ``orders`` (each with the board a coastless support is
        looked up on, or ``None``) into ``out``, a zeroed ``(2, 100)`` int64 array."""
        pairs: list[tuple[int, int]] = []
        for order, state in orders:
            idx = self._to_idx.get(str(order))
            if idx is not None:
                pairs.append((idx, order.unit_loc - 1))
                continue
            # tolerant: a support naming a fleet on a coast by its province
            if state is None or order.kind not in (SUPPORT_HOLD, SUPPORT_MOVE):
                continue
            found = state.unit_in(order.target_loc)
            if found is None or found[2] != FLEET or found[0] == order.target_loc:
                continue
            alternative = order._replace(target_type=found[2], target_loc=found[0])
            idx = self._to_idx.get(str(alternative))
            if idx is not None:
                pairs.append((idx, alternative.unit_loc - 1))
        if len(pairs) >= ORDERS_WIDTH:
            raise RuntimeError("orders exceeds max size")
        pairs.sort()
        if pairs:
            out[:, : len(pairs)] = np.array(pairs, dtype=np.int64).T

    # ------------------------------------------------------------------ candidate orders

    def _index(self, order: DipccOrder) -> int:
        """dipcc's ``smarter_order_index``: the order's index, or that of the order with every
        coast left out, or -1."""
        text = str(order)
        idx = self._to_idx.get(text)
        if idx is None:
            idx = self._to_idx.get(_COAST.sub("", text), -1)
        return idx

    def _in_vocabulary(self, orders: Sequence[DipccOrder], buggy: bool) -> list[int]:
        """dipcc's ``filter_orders_in_vocab``: the indices of the orders found, duplicates kept
        under input versions 1 and 2 (the "buggy duplicates"), dropped under 3."""
        idxs = [i for i in (self._index(o) for o in orders) if i != -1]
        if not buggy:
            idxs = list(dict.fromkeys(idxs))
        return idxs

    def _actual_locs(self, state: Any, roots: Sequence[int]) -> list[int]:
        """The orderable provinces as the locations their units' orders are listed under (a
        coast for a fleet on one), sorted in dipcc's order."""
        b = board()
        possible = state.possible_orders()
        locs: list[int] = []
        for root in roots:
            coasts = b.coasts[root]
            if len(coasts) == 1:
                locs.append(root)
                continue
            for c in coasts:
                if possible.get(c):
                    locs.append(c)
                    break
        return sorted(locs)

    def _adjustment(
        self, power: str, state: Any, actions: np.ndarray, loc_idxs: np.ndarray, buggy: bool
    ) -> None:
        b = board()
        roots = state.orderable().get(power, [])
        if not roots:
            return
        locs = self._actual_locs(state, roots)
        possible = state.possible_orders()
        n_builds = state.n_builds(power)
        if n_builds > 0:
            n_builds = min(n_builds, len(locs))
            idxs = []
            for combo in itertools.combinations(locs, n_builds):
                choices = [[o for c in b.coasts[loc] for o in possible.get(c, [])] for loc in combo]
                for pick in itertools.product(*choices):
                    text = ";".join(sorted(str(o) for o in pick))
                    if text not in self._to_idx:
                        raise ValueError(f"the order vocabulary has no {text!r}")
                    idxs.append(self._to_idx[text])
            self._put(actions, 0, sorted(idxs))
        elif n_builds < 0:
            idxs = sorted(i for loc in locs for i in self._in_vocabulary(possible[loc], buggy))
            for row in range(-n_builds):
                self._put(actions, row, idxs)
        else:
            return
        for loc in locs:
            loc_idxs[b.root[loc] - 1] = -2

    def _put(self, actions: np.ndarray, row: int, idxs: Sequence[int]) -> None:
        if len(idxs) > actions.shape[-1]:
            raise ValueError(
                f"{len(idxs)} candidate orders exceed max_order_cands={actions.shape[-1]}"
            )
        if row >= actions.shape[0]:
            raise ValueError(f"more than {actions.shape[0]} orderable locations")
        actions[row, : len(idxs)] = idxs

    def _valid_orders(
        self, power: str, state: Any, actions: np.ndarray, loc_idxs: np.ndarray, buggy: bool
    ) -> None:
        """dipcc's ``encode_valid_orders``: one power's candidates per orderable location."""
        if state.phase.kind == "A":
            self._adjustment(power, state, actions, loc_idxs, buggy)
            return
        roots = state.orderable().get(power, [])
        possible = state.possible_orders()
        root = board().root
        for step, loc in enumerate(self._actual_locs(state, roots)):
            idxs = sorted(self._in_vocabulary(possible[loc], buggy))
            self._put(actions, step, idxs)
            if idxs:
                loc_idxs[root[loc] - 1] = step

    def _valid_orders_all_powers(
        self, state: Any, actions: np.ndarray, loc_idxs: np.ndarray, powers: np.ndarray, buggy: bool
    ) -> None:
        """dipcc's ``encode_valid_orders_all_powers``: outside adjustments one sequence of every
        orderable location of every power, with the power of each step."""
        if state.phase.kind == "A":
            for p, power in enumerate(POWERS):
                self._adjustment(power, state, actions[p], loc_idxs[p], buggy)
                powers[p, :] = p
            return
        owner: dict[int, int] = {}
        for power, roots in state.orderable().items():
            for r in roots:
                owner[r] = POWERS.index(power)
        possible = state.possible_orders()
        root = board().root
        for step, loc in enumerate(self._actual_locs(state, list(owner))):
            self._put(actions[0], step, sorted(self._in_vocabulary(possible[loc], buggy)))
            loc_idxs[0, root[loc] - 1] = step
            powers[0, step] = owner[root[loc]]

    def encode_inputs_multi(
        self, games: Sequence[Game], input_version: int
    ) -> dict[str, np.ndarray]:
        """The state-only fields plus, per power, its candidate orders: ``x_possible_actions``
        ``(B, 7, 17, max_order_cands)`` int32 (vocabulary indices per orderable location, in
        dipcc's order; in adjustments the combined builds in row 0, or the disbands repeated
        once per unit owed) and ``x_loc_idxs`` ``(B, 7, 81)`` int8 (each orderable province's
        step, -2 in adjustments, -1 elsewhere)."""
        version = _check_version(input_version)
        fields = self.encode_inputs_state_only_multi(games, version)
        batch = len(games)
        actions = np.full((batch, 7, _MAX_SEQ_LEN, self.max_order_cands), -1, dtype=np.int32)
        loc_idxs = np.full((batch, 7, _N_LOCS), -1, dtype=np.int8)
        for k, game in enumerate(games):
            state = state_of(game)
            for p, power in enumerate(POWERS):
                self._valid_orders(power, state, actions[k, p], loc_idxs[k, p], version < 3)
        fields["x_loc_idxs"] = loc_idxs
        fields["x_possible_actions"] = actions
        return fields

    def encode_inputs_all_powers_multi(
        self, games: Sequence[Game], input_version: int
    ) -> dict[str, np.ndarray]:
        """As :meth:`encode_inputs_multi` for a network that decodes every power at once:
        outside adjustments every power's candidates in one sequence of up to 34 steps in row
        0, with ``x_power`` ``(B, 7, 34)`` int64 naming each step's power."""
        version = _check_version(input_version)
        fields = self.encode_inputs_state_only_multi(games, version)
        batch = len(games)
        actions = np.full((batch, 7, _N_SCS, self.max_order_cands), -1, dtype=np.int32)
        loc_idxs = np.full((batch, 7, _N_LOCS), -1, dtype=np.int8)
        powers = np.full((batch, 7, _N_SCS), -1, dtype=np.int64)
        for k, game in enumerate(games):
            self._valid_orders_all_powers(
                state_of(game), actions[k], loc_idxs[k], powers[k], version < 3
            )
        fields["x_loc_idxs"] = loc_idxs
        fields["x_possible_actions"] = actions
        fields["x_power"] = powers
        return fields

    # ------------------------------------------------------------------ whole inputs

    def encode_inputs_state_only_multi(
        self, games: Sequence[Game], input_version: int
    ) -> dict[str, np.ndarray]:
        """The inputs a value head reads, for a batch of games (dipcc's
        ``encode_inputs_state_only_multi``): ``x_board_state`` and ``x_prev_state`` ``(B, 81,
        width)`` float32 (the board now and at the last movement phase, zeros before one),
        ``x_prev_orders`` ``(B, 2, 100)`` int64 (the orders of the phases since that movement
        phase, that one included), ``x_season`` ``(B, 3)``, ``x_year_encoded`` ``(B, 1)``
        (years after 1901 over ten, at most 5), ``x_in_adj_phase`` ``(B,)``,
        ``x_build_numbers`` ``(B, 7)`` (builds owed, negative for disbands, in adjustments),
        ``x_scoring_system`` ``(B, 2)``, all float32 but the orders."""
        version = _check_version(input_version)
        batch = len(games)
        width = board_state_enc_width(version)
        fields: dict[str, np.ndarray] = {
            "x_board_state": np.zeros((batch, _N_LOCS, width), dtype=np.float32),
            "x_prev_state": np.zeros((batch, _N_LOCS, width), dtype=np.float32),
            "x_prev_orders": np.zeros((batch, 2, ORDERS_WIDTH), dtype=np.int64),
            "x_season": np.zeros((batch, 3), dtype=np.float32),
            "x_year_encoded": np.zeros((batch, 1), dtype=np.float32),
            "x_in_adj_phase": np.zeros((batch,), dtype=np.float32),
            "x_build_numbers": np.zeros((batch, 7), dtype=np.float32),
            "x_scoring_system": np.zeros((batch, 2), dtype=np.float32),
        }
        for k, game in enumerate(games):
            if not isinstance(game, Game):
                raise TypeError(f"expected diplo.compat.dipcc Games, got {type(game).__name__}")
            state = state_of(game)
            _encode_state(state, version, fields["x_board_state"][k])
            history = game.played_phases()
            movement = [i for i, (phase, _, _) in enumerate(history) if phase.kind == "M"]
            if movement:
                last = movement[-1]
                _encode_state(history[last][1], version, fields["x_prev_state"][k])
                since = [
                    (order, past)
                    for _, past, orders in reversed(history[last:])
                    for given in orders.values()
                    for order in given
                ]
                self._encode_into(since, fields["x_prev_orders"][k])
            season = state.phase.season
            fields["x_season"][k, 0 if season == "S" else 1 if season == "F" else 2] = 1
            fields["x_year_encoded"][k, 0] = min(max(0.1 * (state.phase.year - 1901), 0.0), 5.0)
            if state.phase.kind == "A":
                fields["x_in_adj_phase"][k] = 1
                fields["x_build_numbers"][k] = [state.n_builds(p) for p in POWERS]
            fields["x_scoring_system"][k, game.get_scoring_system()] = 1
        return fields

    def encode_orders_single_strict(self, orders: Sequence[str], input_version: int) -> np.ndarray:
        """Orders to a ``(2, 100)`` int64 array: the vocabulary indices (row 0) and the unit's
        location index (row 1) of each order found in the vocabulary, sorted; an order not in it
        is left out, a malformed one raises ``ValueError`` (as dipcc)."""
        _check_version(input_version)
        return self._encode(orders, None)

    def encode_orders_single_tolerant(
        self, game: Game, orders: Sequence[str], input_version: int
    ) -> np.ndarray:
        """As the strict encoding, but a support naming a fleet on a coast by its province
        (``F BLA S F BUL``) is found under the coast the game's board puts the fleet on."""
        _check_version(input_version)
        if not isinstance(game, Game):
            raise TypeError(f"expected a diplo.compat.dipcc Game, got {type(game).__name__}")
        return self._encode(orders, game)

    # ------------------------------------------------------------------ indices to orders

    def decode_order_idxs(self, order_idxs: Any) -> list[list[list[str]]]:
        """``(batch, 7, n)`` vocabulary indices (``-1`` pads) to each power's orders, combined
        builds split, each power's orders sorted by their unit's location."""
        idxs = np.asarray(order_idxs)
        if idxs.ndim != 3 or idxs.shape[1] != len(POWERS):
            raise ValueError(f"order_idxs must have the shape (batch, 7, n), got {idxs.shape}")
        out: list[list[list[str]]] = []
        for per_game in idxs.tolist():
            powers: list[list[str]] = []
            for row in per_game:
                orders: list[str] = []
                for idx in row:
                    if idx == EOS_IDX:
                        continue
                    if not 0 <= idx < len(self._vocabulary) or not self._vocabulary[idx]:
                        raise ValueError(f"order index {idx} is not in the vocabulary")
                    orders.extend(self._vocabulary[idx].split(";"))
                orders.sort(key=_unit_location)
                powers.append(orders)
            out.append(powers)
        return out

    def decode_order_idxs_all_powers(
        self,
        order_idxs: Any,
        x_in_adj_phase: Any,
        x_power: Any,
        batch_repeat_interleave: int,
    ) -> list[list[list[str]]]:
        """The all-powers decoding: outside adjustment phases the orders decoded in the first
        power's row belong to the powers ``x_power[game, 0]`` names, in turn."""
        decoded = self.decode_order_idxs(order_idxs)
        in_adj = np.asarray(x_in_adj_phase, dtype=np.float32)
        powers = np.asarray(x_power)
        repeat = int(batch_repeat_interleave)
        for k, per_power in enumerate(decoded):
            game = k // repeat
            if in_adj[game] > 0.5:
                continue
            joint, per_power[0] = per_power[0], []
            for n, order in enumerate(joint):
                power = int(powers[game, 0, n])
                if power == -1:
                    break
                per_power[power].append(order)
        return decoded

    def process_multi(self, games: Sequence[Game]) -> None:
        """Process every game (dipcc spreads them over its threads)."""
        for game in games:
            game.process()


class ThreadPool(ReferenceThreadPool):
    """dipcc's ``ThreadPool``: its encoders and decoders over the caller's vocabulary.

    ``ThreadPool(n_threads, order_vocabulary_to_idx, max_order_cands)`` as dipcc's:
    ``encode_inputs_multi``, ``encode_inputs_all_powers_multi``,
    ``encode_inputs_state_only_multi``, ``encode_orders_single_strict`` and
    ``encode_orders_single_tolerant`` run in the engine (the games spread over ``n_threads``
    threads, the GIL released), bit for bit :class:`ReferenceThreadPool`'s arrays;
    ``decode_order_idxs``, ``decode_order_idxs_all_powers`` and ``process_multi`` are the
    reference's (``docs/dipcc-compat.md``).
    """

    def __init__(
        self, n_threads: int, order_vocabulary_to_idx: Mapping[str, int], max_order_cands: int
    ) -> None:
        super().__init__(n_threads, order_vocabulary_to_idx, max_order_cands)
        self._engine = CoreDipccEncoder(
            **_board_tables(),
            vocabulary=engine_vocabulary(self._to_idx),
            threads=max(self.n_threads, 1),
        )

    def _fields(
        self, games: Sequence[Game], version: int, candidates: str | None
    ) -> dict[str, np.ndarray]:
        for game in games:
            if not isinstance(game, Game):
                raise TypeError(f"expected diplo.compat.dipcc Games, got {type(game).__name__}")
        batch = len(games)
        width = _WIDTHS[version]
        # the two boards in one allocation: two of 0.8 MB each (64 games) freed together are
        # handed back to the system by glibc's malloc every call and paged in again (more than
        # the encoding itself); one block of both raises its threshold and is reused
        boards = np.empty((2, batch, _N_LOCS, width), dtype=np.float32)
        fields: dict[str, np.ndarray] = {
            "x_board_state": boards[0],
            "x_prev_state": boards[1],
            "x_prev_orders": np.empty((batch, 2, ORDERS_WIDTH), dtype=np.int64),
            "x_season": np.empty((batch, 3), dtype=np.float32),
            "x_year_encoded": np.empty((batch, 1), dtype=np.float32),
            "x_in_adj_phase": np.empty((batch,), dtype=np.float32),
            "x_build_numbers": np.empty((batch, 7), dtype=np.float32),
            "x_scoring_system": np.empty((batch, 2), dtype=np.float32),
        }
        extra: dict[str, np.ndarray] = {}
        if candidates is not None:
            steps = _N_SCS if candidates == "all" else _MAX_SEQ_LEN
            shape = (batch, 7, steps, self.max_order_cands)
            # the engine writes every element (its -1 padding too, in the worker threads)
            extra["x_loc_idxs"] = np.empty((batch, 7, _N_LOCS), dtype=np.int8)
            extra["x_possible_actions"] = np.empty(shape, dtype=np.int32)
            if candidates == "all":
                extra["x_power"] = np.empty((batch, 7, _N_SCS), dtype=np.int64)
        blob = b"".join(pack_game(game) for game in games)
        self._engine.encode(
            blob,
            batch,
            version,
            fields["x_board_state"],
            fields["x_prev_state"],
            fields["x_prev_orders"],
            fields["x_season"],
            fields["x_year_encoded"],
            fields["x_in_adj_phase"],
            fields["x_build_numbers"],
            fields["x_scoring_system"],
            extra.get("x_possible_actions"),
            extra.get("x_loc_idxs"),
            extra.get("x_power"),
        )
        fields.update(extra)
        return fields

    def encode_inputs_state_only_multi(
        self, games: Sequence[Game], input_version: int
    ) -> dict[str, np.ndarray]:
        return self._fields(games, _check_version(input_version), None)

    def encode_inputs_multi(
        self, games: Sequence[Game], input_version: int
    ) -> dict[str, np.ndarray]:
        return self._fields(games, _check_version(input_version), "one")

    def encode_inputs_all_powers_multi(
        self, games: Sequence[Game], input_version: int
    ) -> dict[str, np.ndarray]:
        return self._fields(games, _check_version(input_version), "all")

    def _encode(self, orders: Sequence[str], game: Game | None) -> np.ndarray:
        if isinstance(orders, str):
            raise TypeError("orders must be a list of order texts, not a str")
        packed = pack_orders([parse_order(text) for text in orders])
        state = None if game is None else _board_blob(state_of(game))[4:]
        out = np.empty((2, ORDERS_WIDTH), dtype=np.int64)
        self._engine.encode_orders(packed, state, out)
        return out


def _unit_location(order: str) -> int:
    parts = order.split()
    if len(parts) < 2 or parts[1] not in LOC_INDEX:
        raise ValueError(f"Bad order in vocabulary: {order!r}")
    return LOC_INDEX[parts[1]]
