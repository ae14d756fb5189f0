"""A rollout's game file written from the engine's own rulings, as the game is played.

Each phase is played with :meth:`diplo._core.CodeGame.run` (the engine records why each result
is what it is) and its entry of the game file (``docs/game-files.md``) is written straight from
the engine's rows, in the model's words: the same functions the object API's engine backend
words its results with (:mod:`diplo.engine.objects`), so the file is the one
:func:`diplo.formats.gamefile.to_json` writes for the same game, byte for byte
(``tests/test_rollouts.py`` holds the two together), without making a
:class:`~diplo.api.game.Game`, a position or a result object per phase.

The same pass collects the training rows of the dataset (:mod:`diplo.rollouts.dataset`): one
per order given, with its code, text, result and reason.

A phase whose orders the engine does not take exactly as given (a code that is not the normal
form of a legal order: only a policy of one's own can give one) is not written here:
:class:`EngineWriter` reports it (``exact`` false) and the caller writes that game through the
object API instead.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from json.encoder import py_encode_basestring
from typing import Any
from weakref import WeakKeyDictionary

from .._version import __version__
from ..engine.codes import (
    ORDER_KINDS,
    RESULT_CODES,
    CoreGame,
    Verdict,
    position_from_state,
    rollout_player,
)
from ..engine.compile import tables
from ..engine.objects import (
    EnginePhaseOutcome,
    EnginePosition,
    Submission,
    implied_hold_text,
    plain_names,
    ruling_facts,
)
from ..formats.gamefile import FORMAT, VERSION
from ..model.map import SHIPPED_MAPS, Map, map_named
from ..model.outcome import explain_ruling, explain_tail
from ..model.position import Position
from ..model.results import legal_result_text
from ..model.rules import Rules
from .dataset import OrderRows, table_of_buffers

__all__ = [
    "EngineGames",
    "EngineWriter",
    "OrderRows",
    "head_text",
    "row_of",
    "status_of",
    "word_tail",
]


class EngineWriter:
    """Plays one game phase by phase on the engine and writes its game file as it goes.

    ``core`` is the game (a ``CoreGame`` at its first phase); :meth:`play` rules on one
    phase's ``(power, code)`` orders; :meth:`text` is the finished file. ``rows`` (when given)
    collects the dataset's rows of game ``game_seed``.
    """

    __slots__ = (
        "_entries",
        "_files",
        "_initial",
        "_map",
        "_plain",
        "_rules",
        "_tables",
        "_tails",
        "_years",
        "core",
        "exact",
        "rows",
        "seed",
    )

    def __init__(
        self,
        game_map: Map,
        rules: Rules,
        core: CoreGame,
        initial: Position,
        seed: int,
        rows: OrderRows | None = None,
        files: bool = True,
    ) -> None:
        self._map = game_map
        self._rules = rules
        self._tables = tables(game_map)
        self._plain = plain_names(game_map)
        self._initial = initial
        self._entries: list[str] = []
        tails = _TAILS.get(game_map)
        if tails is None:
            tails = _TAILS[game_map] = {}
        self._tails = tails
        self._files = files
        #: The year of every phase played, in order.
        self._years: list[int] = []
        self.core = core
        self.seed = seed
        self.rows = rows
        #: False once a phase had an order the engine took otherwise than given.
        self.exact = True

    def play(self, chosen: Sequence[tuple[str, int]]) -> None:
        """Rule on the current phase with ``chosen`` (``(power, code)`` per order) and write
        its entry. Powers with nothing to order (a waive the code API lists for a power
        without a build site) give no orders, as on the object API."""
        self.play_codes([p for p, _ in chosen], [c for _, c in chosen])

    def play_codes(self, given_by: Sequence[str], given: Sequence[int]) -> None:
        """:meth:`play` with the orders as two lists: the powers and their codes."""
        t = self._tables
        core = self.core
        phase = core.phase
        kind = phase[-1]
        # Movement and retreats: every power with a slot has something to order; adjustments:
        # not a power whose only slot is the waive of a power without a build site.
        index = t.power_index
        by_power: dict[str, list[int]] = {}
        for power, code in zip(given_by, given, strict=True):
            codes_of = by_power.get(power)
            if codes_of is None:
                by_power[power] = [code]
            else:
                codes_of.append(code)
        if kind == "A":
            orderable = set(core.orderable())
            powers_given = [p for p in t.powers if p in by_power and p in orderable]
        else:
            powers_given = [p for p in t.powers if p in by_power]
        codes = [c for p in powers_given for c in by_power[p]]
        owners = [p for p in powers_given for _ in by_power[p]]
        powers = bytes([index[p] for p in owners])
        verdict = core.run(codes, powers)
        self._years.append(int(phase[1:-1]))
        reasons = verdict.reasons()
        normal = verdict.normal_forms()
        if self.exact and (any(reasons) or normal != codes):
            self.exact = False
        rows = self.rows
        if not self._files and rows is None:
            return
        texts = verdict.texts(normal)
        if rows is not None:
            n = len(codes)
            rows.game.extend([self.seed] * n)
            rows.phase.extend([phase] * n)
            rows.power.extend(owners)
            # A refused code has no text (its normal form is 0, as is a hold in location 0).
            rows.order.extend(t if not r else "" for t, r in zip(texts, reasons, strict=True))
            rows.code.extend(codes)
            rows.success.extend(verdict.result_success())
            rows.result.extend(verdict.result_codes())
            rows.reason.extend(reasons)
        if not self.exact or not self._files:
            return
        orders: dict[str, list[str]] = {}
        k = 0
        for p in powers_given:
            n = len(by_power[p])
            orders[p] = texts[k : k + n]
            k += n
        winner = core.winner
        if self._plain and kind == "M":
            ruled = self._movement_text(verdict, owners, winner)
        elif self._plain:
            ruled = self._ruling_text(verdict, owners, winner)
        else:
            ruled = self._ruled_text(verdict, orders, codes, powers, winner)
        dumps = json.dumps if self._plain else _dumps
        tail = "}" if winner is None else f", {_dumps({'winner': winner})[1:-1]}}}"
        self._entries.append(f'{{"phase": "{phase}", "orders": {dumps(orders)}, {ruled}{tail}')

    def _movement_text(self, verdict: Verdict, owners: list[str], winner: str | None) -> str:
        """``"results": ..., "dislodged": ..., "next": ...`` of a movement phase whose orders
        are all legal, on a plain-named map: what ``EnginePhaseOutcome.to_json_text`` writes.
        The engine writes the results' JSON around their sentences' tails
        (``Verdict.movement_json``); each tail is worded once per facts (:func:`_tail`)."""
        core = self.core
        index = self._tables.power_index
        parts, keys = verdict.movement_json(bytes([index[p] for p in owners]))
        tails = self._tails
        if len(tails) > _CACHE_LIMIT:
            tails.clear()
        pieces = [""] * (2 * len(keys) + 1)
        pieces[0::2] = parts
        pieces[1::2] = [tails.get(k) or _tail(self._tables, tails, k) for k in keys]
        gone = verdict.gone()
        if gone:
            t = self._tables
            locations = t.locations
            names = t.powers
            by_power: dict[str, dict[str, list[str]]] = {}
            for power_i, fleet, loc_i, options in gone:
                unit = ("F " if fleet else "A ") + locations[loc_i]
                by_power.setdefault(names[power_i], {})[unit] = [locations[o] for o in options]
            dislodged = json.dumps({p: by_power[p] for p in names if p in by_power})
        else:
            dislodged = "{}"
        nxt = core.position_json_text(None if winner is not None else core.phase)
        return f'"results": [{"".join(pieces)}], "dislodged": {dislodged}, "next": {nxt}'

    def _ruling_text(self, verdict: Verdict, owners: list[str], winner: str | None) -> str:
        """The same for a retreat or adjustment phase whose orders are all legal, on a
        plain-named map: each result's JSON as ``json.dumps`` writes ``Result.to_json()`` in a
        game file, its sentence the model's (``explain_ruling`` of the engine's facts)."""
        core = self.core
        n = len(owners)
        parts = []
        for k, row in enumerate(verdict.phase_rows()):
            assert row is not None  # every order is legal (else the object API writes it)
            code, ok, unit, raw = row
            facts = ruling_facts(raw)
            power = owners[k] if k < n else facts.power
            reason = _string(explain_ruling(facts))
            parts.append(legal_result_text(power, unit, facts.order, k < n, ok, code, reason, None))
        nxt = core.position_json_text(None if winner is not None else core.phase)
        return f'"results": [{", ".join(parts)}], "dislodged": {{}}, "next": {nxt}'

    def _ruled_text(
        self,
        verdict: Verdict,
        orders: dict[str, list[str]],
        codes: list[int],
        powers: bytes,
        winner: str | None,
    ) -> str:
        """``"results": ..., "dislodged": ..., "next": ...`` of any phase, through the object
        API's engine outcome (the results it words, the JSON it writes)."""
        t = self._tables
        core = self.core
        game_map = self._map
        rules = self._rules
        position = position_from_state(game_map, verdict.state(), rules)
        nxt = EnginePosition(game_map, t.phase(core.phase), core, rules)
        sub = Submission(orders)
        sub.codes = codes
        sub.powers = powers
        sub.quick = True
        outcome = EnginePhaseOutcome(position, nxt, winner, verdict, sub, orders)
        ruled = outcome.to_json_text() if self._plain else _dumps(outcome.to_json())
        head = f'{{"phase": "{verdict.phase}", '
        assert ruled.startswith(head) and ruled.endswith("}")
        return ruled[len(head) : -1]

    def _status(self, max_year: int | None) -> dict[str, Any]:
        return status_of(self._map, self.core, max_year)

    def summary_row(self, game: str, max_year: int | None, name: str = "") -> dict[str, Any]:
        """The game's summary row (:func:`diplo.rollouts.summary.summary_row` of its file)."""
        years = set(self._years)
        return row_of(
            game,
            self.seed,
            self._status(max_year),
            (len(self._years), len(years), max(years) if years else None),
            name,
        )

    def text(self, meta: dict[str, Any], max_year: int | None) -> str:
        """The finished game's file (``json.dumps(gamefile.to_json(game), ensure_ascii=False)``
        and a newline, for the same game played to ``max_year``)."""
        head = head_text(self._map, self._rules, self._initial)
        return (
            f"{head}, "
            f'"phases": [{", ".join(self._entries)}], '
            f'"status": {_dumps(self._status(max_year))}, "meta": {_meta_text(meta)}}}\n'
        )


def status_of(game_map: Map, core: CoreGame, max_year: int | None) -> dict[str, Any]:
    """A game file's ``status`` of the finished game ``core`` (a rollout's: no resignations or
    draw votes)."""
    powers = game_map.powers
    _year, _season, _kind, units, centers, dislodged = core.state()
    counts = dict.fromkeys(powers, 0)
    alive: set[int] = set()
    for _prov, power in centers:
        counts[powers[power]] += 1
        alive.add(power)
    alive.update(u[0] for u in units)
    alive.update(d[0] for d in dislodged)
    over = core.is_over
    winner = core.winner
    end = None if not over else "solo" if winner is not None else "max_year"
    return {
        "phase": None if over else core.phase,
        "over": over,
        "end": end,
        "winner": winner,
        "draw": end == "max_year",
        "max_year": max_year,
        "centers": counts,
        "survivors": [p for i, p in enumerate(powers) if i in alive],
        "resigned": {},
        "draw_votes": None,
        "pending_orders": {},
    }


def row_of(
    game: str,
    seed: int,
    status: dict[str, Any],
    phases: tuple[int, int, int | None],
    name: str = "",
) -> dict[str, Any]:
    """A game's summary row (:func:`diplo.rollouts.summary.summary_row` of its file) from its
    ``status`` and ``phases``: the count of its phases, of its distinct years, and its last
    year."""
    count, years, final = phases
    row: dict[str, Any] = {
        "game_id": game,
        "seed": seed,
        "winner": status["winner"],
        "draw": status["draw"],
        "end": status["end"],
        "phases": count,
        "years": years,
        "final_year": final,
        "file": f"games/{name}" if name else "",
    }
    for power, count_of in status["centers"].items():
        row[f"centers_{power}"] = count_of
    return row


def head_text(game_map: Map, rules: Rules, initial: Position) -> str:
    """The start of a game file (format, map, rules, initial position), without its closing
    brace: the same for every game of a rollout."""
    key = (id(game_map), id(rules), id(initial))
    kept = _HEADS.get(key)
    if kept is not None and kept[0] is initial:
        return kept[1]
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION, "map": game_map.name}
    if not _shipped(game_map):
        # As gamefile.to_json: a map read from a file travels with the game.
        doc["map_data"] = game_map.to_dict()
    doc["rules"] = rules.to_json()
    doc["initial"] = initial.to_json()
    head = _dumps(doc)[:-1]
    if len(_HEADS) > 16:
        _HEADS.clear()
    _HEADS[key] = (initial, head)
    return head


def _meta_text(meta: dict[str, Any]) -> str:
    return _dumps({"generator": f"diplo {__version__}", **meta})


class EngineGames:
    """Random games of the default policy played and written whole by the engine
    (:func:`diplo.engine.codes.rollout_player`: the same random numbers as
    ``random.Random(seed)``, so the same games as :class:`~diplo.rollouts.policy.RandomPolicy`
    on the code API, and the same files as :class:`EngineWriter`), on a map whose names need no
    JSON escape (:func:`usable`). The sentences are worded here, once each, by the model (the
    engine keeps them)."""

    def __init__(self, game_map: Map, max_year: int | None) -> None:
        from ..engine.codes import CodeGame

        initial = Position.initial(game_map)
        start = CodeGame(initial, max_year)
        t = tables(game_map)
        self.map = game_map
        self.max_year = max_year
        self._head = head_text(game_map, start.rules, initial).encode("utf-8")
        self._player = rollout_player(start, lambda key: word_tail(t, key), _word_ruling)

    @staticmethod
    def usable(game_map: Map, seed: int) -> bool:
        """Whether games of ``game_map`` and ``seed`` can be played here."""
        return plain_names(game_map) and -(1 << 63) < seed < 1 << 63

    def play(
        self, seed: int, files: bool, dataset: bool, meta: dict[str, Any], name: str
    ) -> tuple[bytes, dict[str, Any]] | None:
        """The game of ``seed``: its file (``b""`` without ``files``) and summary row; its
        dataset rows are kept for :meth:`take_rows`. ``None`` when the engine cannot write it
        (then nothing was kept: play it on the code API)."""
        got = self._player.play(seed, files, dataset)
        if got is None:
            return None
        phases, count, years, final, core = got
        status = status_of(self.map, core, self.max_year)
        game = str(meta["rollout"]["id"])
        if phases is None:
            return b"", row_of(game, seed, status, (count, years, final))
        data = b"".join(
            (
                self._head,
                b', "phases": [',
                phases,
                b'], "status": ',
                _dumps(status).encode("utf-8"),
                b', "meta": ',
                _meta_text(meta).encode("utf-8"),
                b"}\n",
            )
        )
        return data, row_of(game, seed, status, (count, years, final), name)

    def take_rows(self) -> Any:
        """The dataset rows of the games played since the last call, as a pyarrow table."""
        rows, buffers = self._player.take_dataset()
        return table_of_buffers(rows, buffers)


def _word_ruling(raw: tuple[Any, ...]) -> str:
    """A retreat or adjustment result's sentence as JSON text, from the engine's facts."""
    return _string(explain_ruling(ruling_facts(raw)))


def _shipped(game_map: Map) -> bool:
    """Whether ``game_map`` is the loaded copy of a shipped map (its game files name it only)."""
    return game_map.name in SHIPPED_MAPS and game_map is map_named(game_map.name)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


#: A text as ``json.dumps(text, ensure_ascii=False)`` writes it (the C encoder when built).
_string = getattr(json.encoder, "c_encode_basestring", None) or py_encode_basestring


#: The start of a game file (format, map, rules, initial position) per map, rules and start
#: (by identity: the start is kept with its text, so the ids stay its own).
_HEADS: dict[tuple[int, int, int], tuple[Position, str]] = {}

#: Per map, the tails of movement results' sentences by their facts' key
#: (``CodeGame.movement_json``: the key holds the map's location indices); each is cleared when
#: it grows past the limit.
_TAILS: WeakKeyDictionary[Map, dict[int, str]] = WeakKeyDictionary()
_CACHE_LIMIT = 1 << 17
_KINDS = ORDER_KINDS


def _tail(t: Any, tails: dict[int, str], key: int) -> str:
    """The tail of a movement result's sentence (:func:`word_tail`), remembered in
    :data:`_TAILS`."""
    tail = tails[key] = word_tail(t, key)
    return tail


def word_tail(t: Any, key: int) -> str:
    """The tail of a movement result's sentence (what follows the order's text, or an implied
    hold's unit) from its facts' key (``CodeGame.movement_json``), worded by the model."""
    locations = t.locations

    def place(field: int) -> str | None:
        return None if field == 0 else locations[field - 1]

    origin = place(key >> 7 & 0x7FF)
    if key >> 47 & 1:
        unit = "A X"  # any text: the sentence is cut after it
        return implied_hold_text([], "", unit, origin)[len(unit) :]
    return explain_tail(
        _KINDS[key & 0xF],
        RESULT_CODES[key >> 4 & 0x7],
        origin,
        place(key >> 18 & 0x7FF),
        key >> 29 & 0xFF,
        key >> 37 & 0xFF,
        bool(key >> 45 & 1),
        bool(key >> 46 & 1),
    )
