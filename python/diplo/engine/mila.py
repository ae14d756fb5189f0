"""The MILA drop-in's door to the engine: every call :mod:`diplo.compat.mila` makes into the
compiled core goes through here, so that the drop-in, like every other front end, comes
through :mod:`diplo.engine`.

What the drop-in asks the engine:

* a phase as a bot sees it (:func:`turn`: the possible orders in MILA's text, per location;
  the orderable locations; a :data:`MilaCheck` and a ``{text: entry}`` lookup that read a bot's
  orders in one dict lookup each), and the long ways of reading orders (:func:`listed_codes`,
  :func:`legal_codes`);
* why an order written otherwise than listed is refused, or what it means
  (:func:`read_refusal`: the engine's validation asked, nothing played, worded by
  :mod:`diplo.model.refusals`, as for every front end);
* MILA's lists of a board kept in MILA's order, and its state dictionary made in one call
  (:data:`MilaBoard`, over one map's :data:`MilaTables`);
* to play the phase (:func:`play`): the engine rules it once, explained, and hands back its
  :data:`Verdict` (the state it was ruled from, the rulings, the state reached), read by
  :func:`ruling` into the :class:`~diplo.model.results.Result` rows every backend returns (the
  same facts and sentences as :mod:`diplo.engine.objects`), so the drop-in's result labels come
  from the ruling that moved the game and no phase is ruled twice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from .. import _core
from ..model.limits import check_max_year
from ..model.map import Map
from ..model.orders import Order, parse_order
from ..model.outcome import RulingFacts, explain_facts, explain_ruling
from ..model.position import Dislodged, Piece, Position, check_position
from ..model.refusals import implied_hold_reason, refusal_message
from ..model.results import Result
from .codes import CodeState, encode_order
from .compile import code_map, encode_position

__all__ = [
    "EngineGame",
    "MilaBoard",
    "MilaCheck",
    "MilaTables",
    "Verdict",
    "legal_codes",
    "listed_codes",
    "new_game",
    "play",
    "read_refusal",
    "rule_kept",
    "ruling",
    "state_after",
    "state_copy",
    "state_of",
    "turn",
    "unretreated",
]

#: The engine's game (one phase's board).
EngineGame = _core.CodeGame
#: One phase's ruling (the state it was ruled from, the rulings, the state reached).
Verdict = _core.Verdict
#: Which listed texts each power may give in one phase (``_core.MilaCheck``).
MilaCheck = _core.MilaCheck
#: One map's MILA facts for the engine's lists and state dictionaries (its centres in MILA's
#: order, retreat options' ranks, Zobrist numbers, homes; ``rust/src/bindings/mila_board.rs``).
MilaTables = _core.MilaTables
#: One board's lists in MILA's order (``rust/src/engine/mila_lists.rs``): ``after`` a phase
#: played, ``state`` (``get_state``'s dictionary), ``hash`` (MILA's Zobrist hash), ``lists``.
MilaBoard = _core.MilaBoard
#: A copy of a tree of dicts and lists of strings and numbers sharing no dict or list with it,
#: made in one call; ``None`` (nothing made) when it holds anything else.
state_copy = _core.mila_copy
#: A phase's possible orders (location -> sorted texts), orderable locations (power -> keys), its
#: :data:`MilaCheck`, the map's ``{text: (text, code, slot, text id)}`` and a spare copy of the
#: orderable locations (see ``rust/src/bindings/mila.rs``).
Turn = tuple[
    dict[str, list[str]],
    dict[str, list[str]],
    MilaCheck,
    dict[str, tuple[str, int, int, int]],
    dict[str, list[str]],
]

_REASON_NAMES: tuple[str, ...] = tuple(_core.REASON_NAMES)
_EXPLAIN_NAMES: tuple[str, ...] = tuple(_core.EXPLAIN_NAMES)


def new_game(position: Position, max_year: int | None = None) -> EngineGame:
    """The engine's game at ``position``, under its rules (``ValueError`` for a position the
    engine cannot hold, or a bad ``max_year``)."""
    check_position(position, "the drop-in's position")
    max_year = check_max_year(max_year, position.phase.year, "the drop-in's game")
    return _core.CodeGame(
        code_map(position.map), *encode_position(position), max_year, position.rules.to_json()
    )


#: The phase as a bot sees it (see :data:`Turn`); texts and lists shared per map. (The core's
#: functions are named here, not wrapped: the drop-in calls them on every phase.)
turn = _core.mila_turn
#: Per power, ``{text: code}`` of its listed orders.
listed_codes = _core.mila_codes


def legal_codes(game: EngineGame, powers: Sequence[str]) -> dict[str, set[int]]:
    """Per power (of ``powers``), every legal code of the phase (the plain forms included)."""
    legal: dict[str, set[int]] = {p: set() for p in powers}
    for (power, _key), codes in zip(game.slots(), game.legal_orders(), strict=True):
        legal[power].update(codes)
    return legal


def read_refusal(
    game: EngineGame, position: Position, power: str, order: Order, code: int
) -> tuple[int | None, str]:
    """What the engine makes of ``order`` (encoded ``code``) given by ``power`` in this phase:
    ``(normal form, "")`` when it is legal (a coast left out where only one can be meant, a
    wrong coast of the ordered unit, an army ordered to a coast: DATC 4.B), else ``(None, why)``
    with the refusal in the model's words. The engine's validation is asked; nothing is played."""
    reason, normal = game.judge(code, position.map.powers.index(power))
    if reason == 0:
        return normal, ""
    return None, refusal_message(_REASON_NAMES[reason], power, order, position)


#: Play the phase on the drop-in's kept orders (power -> slot -> entry, the code second; read in
#: the map's order of powers), ruled once and explained; returns its :data:`Verdict` (read by
#: :func:`ruling`), or ``None`` (nothing done) when an order was kept unread (its code
#: ``None``). Orders the phase's ``MilaCheck`` lists are taken as listed; any other order makes
#: the engine check them all.
play = _core.mila_play


def ruling(
    game_map: Map, verdict: Verdict, powers: Sequence[str]
) -> tuple[list[Result], dict[str, Dislodged]]:
    """The results of the phase ruled in ``verdict`` (by :func:`play`): per
    submitted code (given by ``powers[i]``) its result, refused ones left out, then what was
    done without an order (holds, disbands, waives of unused builds, civil disorder); and the
    units dislodged (province -> unit and options). The words are the model's, as
    :mod:`diplo.engine.objects` gives them."""
    results: list[Result] = []
    given = len(powers)
    new = tuple.__new__
    if verdict.phase[-1] == "M":
        rows = verdict.movement_rows()
        for power, row in zip(powers, rows[:given], strict=True):
            if row is None:
                continue  # refused (the drop-in keeps legal orders only)
            text, unit, kind, code, ok, origin, by, attack, opposition, via, szykman = row
            reason = explain_facts(text, kind, code, origin, by, attack, opposition, via, szykman)
            results.append(new(Result, (power, unit, text, True, True, ok, code, reason, origin)))
        for power, unit, _prov, code, ok, origin in rows[given:]:
            reason = implied_hold_reason(unit, None, origin)
            held = (power, unit, f"{unit} H", False, True, ok, code, reason, origin)
            results.append(new(Result, held))
        locations, names = game_map.locations, game_map.powers
        dislodged: dict[str, Dislodged] = {}
        for power_i, fleet, loc_i, options in verdict.gone():
            piece = Piece(names[power_i], "F" if fleet else "A", locations[loc_i])
            dislodged[piece.province] = Dislodged(piece, tuple(locations[o] for o in options))
        return results, dislodged
    phase_rows = verdict.phase_rows()
    for i, row in enumerate(phase_rows):
        if row is None:
            continue
        code, ok, unit, raw = row
        why, *fields = raw
        facts = RulingFacts(_EXPLAIN_NAMES[why], *cast("list[Any]", fields))
        reason = explain_ruling(facts)
        power = powers[i] if i < given else facts.power
        results.append(
            new(Result, (power, unit, facts.order, i < given, True, ok, code, reason, None))
        )
    return results, {}


def unretreated(game_map: Map, verdict: Verdict) -> list[str]:
    """The units (``"A WAR"``) that the phase ruled in ``verdict`` dislodged with nowhere to
    retreat (a movement phase's; none for the others)."""
    locations = game_map.locations
    return [
        f"{'F' if fleet else 'A'} {locations[loc]}"
        for _power, fleet, loc, options in verdict.gone()
        if not options
    ]


def state_of(game: EngineGame | Verdict) -> CodeState:
    """The engine's raw state of the game's phase (of a verdict: the state it was ruled
    from)."""
    return game.state()


def state_after(verdict: Verdict) -> CodeState:
    """The engine's raw state the phase ruled in ``verdict`` led to."""
    return verdict.after_state()


def rule_kept(position: Position, orders: Mapping[str, Sequence[str]]) -> Verdict:
    """For a phase kept without its ruling (a game pickled by an earlier release of the
    drop-in, which worked results out only when asked): the ruling of the kept orders (each a
    listed text or the plain form of one) at ``position``, explained, for :func:`ruling`
    (``powers``: each power once per order, in ``orders``' order)."""
    game_map = position.map
    before = new_game(position)
    listed = listed_codes(before)
    codes: list[int] = []
    powers = bytearray()
    for power, texts in orders.items():
        for text in texts:
            code = listed.get(power, {}).get(text)
            if code is None:
                code = encode_order(parse_order(text, game_map), game_map, power)
            codes.append(code)
            powers.append(game_map.powers.index(power))
    return before.run(codes, bytes(powers))
