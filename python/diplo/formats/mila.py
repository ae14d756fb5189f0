"""Import and export of the MILA engine's saved games (PyPI ``diplomacy`` 1.1.2).

MILA saves a game as ``{"id", "map", "rules", "phases": [...]}``; each phase has ``name``
(``S1901M``, ``F1901R``, ``W1901A``, and ``COMPLETED`` once the game has ended), ``state``,
``orders`` (per power, ``None`` for the phase still being played), ``results`` (per unit, MILA's
labels) and ``messages``. This module reads and writes that format without needing the
``diplomacy`` package; see ``docs/game-files.md`` for the mapping and its limits.

MILA's notation is ours for units, coasts and the short order forms (``A PAR - BUR``,
``A LON - BEL VIA``, ``F NTH C A LON - BEL``, ``A PAR S A MAR``, ``A PAR R BUR``, ``A PAR D``,
``A PAR B``, ``WAIVE``); its states mark the dislodged units of a retreat phase with ``*``
(``*A GAL``) and list their retreat options under ``retreats``.

:func:`game_from_mila` replays MILA's orders with diplo's engine. MILA does not rule every case
as the DATC does (convoy intent, waives, ... see the corpus README and ``tests/test_mila.py``),
so a replay may reach a board MILA did not: with ``strict`` (the default) that raises
:class:`MilaError` naming the phase; with ``strict=False`` diplo's rulings are kept and the replay
goes on (orders that no longer fit are ruled illegal, and so ignored) until diplo's game reaches a
phase other than MILA's next one, where the import stops. The phases that diverged are listed in
``game.meta["mila"]["divergent_phases"]``, the MILA phase where it stopped (if it did) in
``game.meta["mila"]["stopped_at"]``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..api.game import Game, PhaseRecord
from ..model.backend import Backend
from ..model.limits import clip, show
from ..model.map import Map, MapError, map_named, standard_map
from ..model.orders import format_order
from ..model.position import Dislodged, Phase, Piece, Position, PositionError, parse_piece
from ..model.results import PhaseOutcome, Result
from ..model.rules import Rules
from ..reference.adjustments import adjustment_counts, build_sites

__all__ = [
    "MILA_MAP_NAMES",
    "MilaError",
    "game_from_mila",
    "game_to_mila",
    "mila_phase",
    "mila_phase_name",
    "mila_results",
    "phase_to_mila",
    "position_from_mila",
    "position_to_mila",
]

COMPLETED = "COMPLETED"

#: The names MILA knows the shipped maps by (diplo's name -> MILA's).
MILA_MAP_NAMES = {
    "standard": "standard",
    "pure": "pure",
    "ancmed": "ancmed",
    "fleet_rome": "standard_fleet_rome",
    "france_austria": "standard_france_austria",
    "germany_italy": "standard_germany_italy",
}
_FROM_MILA = {mila: ours for ours, mila in MILA_MAP_NAMES.items()}


def mila_phase(name: object) -> Phase:
    """A MILA phase name read: MILA writes years below 1000 with four digits (``S0001M``),
    diplo without leading zeros (``S1M``); :meth:`Phase.parse` reads both (and refuses other
    leading zeros, ``S00001M``)."""
    return Phase.parse(str(name))


def mila_phase_name(phase: Phase) -> str:
    """A phase named as MILA names it (four-digit years)."""
    return f"{phase.season}{phase.year:04d}{phase.kind}"


class MilaError(ValueError):
    """A MILA saved game that cannot be read, or that diplo's engine does not replay alike."""

    def __init__(self, message: str) -> None:
        super().__init__(clip(message))


# --------------------------------------------------------------------------- positions


def position_from_mila(
    state: Mapping[str, Any],
    phase: str | Phase | None = None,
    game_map: Map | None = None,
    *,
    rules: Rules | None = None,
) -> Position:
    """The position of a MILA phase state (``Game.get_state()`` or a saved phase's ``state``),
    under ``rules`` (default: the map's).

    ``phase`` defaults to the state's ``name``. Units marked ``*`` are the dislodged units of a
    retreat phase; their options are read from ``retreats`` as given (MILA's lists are kept even
    where they differ from diplo's, as the JSON contract does for a retreat-phase document).
    After a convoyed attack MILA's list also names occupied provinces, where MILA's orders never
    let the unit go: they are kept under rules that list them too
    (``retreat_after_convoy="any"``, ``edition=mila``) and left out under any other.
    A dislodged unit without options (MILA removes those at once) is left out.
    """
    game_map = standard_map() if game_map is None else game_map
    rules = game_map.rules if rules is None else rules
    if not isinstance(state, Mapping):
        raise MilaError(f"a MILA state must be an object, not {show(state)}")
    name = state.get("name") if phase is None else phase
    try:
        parsed = name if isinstance(name, Phase) else mila_phase(name)
        units: dict[str, Piece] = {}
        dislodged: dict[str, Dislodged] = {}
        retreats = state.get("retreats") or {}
        for power, texts in (state.get("units") or {}).items():
            _check_power(power, game_map)
            for text in texts:
                if text.startswith("*"):
                    piece = parse_piece(power, text[1:], game_map)
                    options = (retreats.get(power) or {}).get(text[1:]) or []
                    if options:
                        locs = tuple(game_map.lookup(o) for o in options)
                        dislodged[piece.province] = Dislodged(piece, locs)
                    continue
                piece = parse_piece(power, text, game_map)
                if piece.province in units:
                    raise PositionError(f"two units in {piece.province}")
                units[piece.province] = piece
        centers: dict[str, str] = {}
        for power, provinces in (state.get("centers") or {}).items():
            _check_power(power, game_map)
            for prov in provinces:
                centers[game_map.province_of(game_map.lookup(prov))] = power
        if parsed.kind != "R":
            dislodged = {}
        elif rules.retreat_after_convoy != "any":
            province_of = game_map.province_of
            dislodged = {
                prov: Dislodged(d.piece, tuple(o for o in d.options if province_of(o) not in units))
                for prov, d in dislodged.items()
            }
        return Position(game_map, parsed, units, centers, dislodged, "MILA import", rules=rules)
    except (PositionError, ValueError, TypeError, AttributeError, KeyError) as exc:
        # A MILA file is input: any value of the wrong shape is a malformed file.
        raise MilaError(f"{show(name)}: bad MILA state: {exc}") from exc


def _check_power(power: str, game_map: Map) -> None:
    if power not in game_map.powers:
        raise PositionError(f"unknown power {power!r}")


def mila_builds(position: Position) -> dict[str, dict[str, Any]]:
    """A MILA state's ``builds`` for ``position``: per power, in an adjustment phase, the builds
    allowed or the disbands owed (negative) and the usable build sites; else none."""
    builds: dict[str, dict[str, Any]] = {p: {"count": 0, "homes": []} for p in position.map.powers}
    if position.phase.kind == "A":
        for p, count in adjustment_counts(position).items():
            builds[p] = {"count": count, "homes": build_sites(position, p) if count > 0 else []}
    return builds


def position_to_mila(
    position: Position,
    *,
    name: str | None = None,
    civil_disorder: Iterable[str] = (),
    note: str = "",
) -> dict[str, Any]:
    """A MILA phase state for ``position`` (``name`` overrides the phase name: ``COMPLETED``).

    ``influence`` (which MILA uses to colour the map) is given as the centres owned plus the
    provinces holding the power's units; ``builds`` holds, in an adjustment phase, the builds
    allowed (centres minus units, capped by the vacant owned home centres, as MILA counts) or the
    disbands owed (negative), and the usable build sites.
    """
    game_map = position.map
    powers = game_map.powers
    units: dict[str, list[str]] = {p: [] for p in powers}
    for piece in position.units.values():
        units[piece.power].append(str(piece))
    retreats: dict[str, dict[str, list[str]]] = {p: {} for p in powers}
    for d in position.dislodged.values():
        units[d.piece.power].append(f"*{d.piece}")
        retreats[d.piece.power][str(d.piece)] = list(d.options)
    centers = {p: position.centers_of(p) for p in powers}
    influence = {
        p: sorted(set(centers[p]) | {x.province for x in position.units_of(p)}) for p in powers
    }
    builds = mila_builds(position)
    disorder = set(civil_disorder)
    return {
        "name": name or mila_phase_name(position.phase),
        "units": {p: sorted(u) for p, u in units.items()},
        "retreats": retreats,
        "centers": centers,
        "homes": {p: list(game_map.homes.get(p, ())) for p in powers},
        "influence": influence,
        "civil_disorder": {p: int(p in disorder) for p in powers},
        "builds": builds,
        "note": note,
    }


# --------------------------------------------------------------------------- results


def mila_results(record: PhaseRecord) -> dict[str, list[str]]:
    """MILA's result labels for a processed phase, keyed by unit (``WAIVE`` for waives).

    Movement: ``[]`` for success, else ``bounce``, ``cut``, ``no convoy`` or ``void``, with
    ``dislodged`` added for a dislodged unit. Retreat: ``[]`` retreated, ``['disband']``, or
    ``['bounce', 'disband']``. Adjustment: ``['']`` done, ``['void']`` not. Orders diplo ruled
    illegal get no label of their own (MILA refuses them on entry); their units show the
    implied hold.
    """
    outcome = record.outcome
    kind = record.position.phase.kind
    dislodged = {str(d.piece) for d in outcome.dislodged.values()}
    labels: dict[str, list[str]] = {}
    for result in outcome.results:
        if not result.legal:
            continue
        if result.unit is None:
            if result.given and result.order == "WAIVE":
                labels.setdefault("WAIVE", []).append("void")
            continue
        if kind == "M":
            labels[result.unit] = _movement_labels(result, result.unit in dislodged)
        elif kind == "R":
            labels[result.unit] = _retreat_labels(result)
        else:
            labels[result.unit] = [""] if result.success else ["void"]
    return labels


def _movement_labels(result: Result, dislodged: bool) -> list[str]:
    order_kind = result.order.split()[2] if len(result.order.split()) > 2 else "H"
    code = result.code
    if code == "dislodged":
        base = {"-": ["bounce"], "S": ["cut"]}.get(order_kind, [])
    else:
        base = {
            "ok": [],
            "bounce": ["bounce"],
            "cut": ["cut"],
            "no_convoy": ["no convoy"],
            "void": ["void"],
        }.get(code, [])
    return base + (["dislodged"] if dislodged else [])


def _retreat_labels(result: Result) -> list[str]:
    if result.code == "bounce":
        return ["bounce", "disband"]
    if result.order.endswith(" D"):
        return ["disband"]
    return []


# --------------------------------------------------------------------------- export


def phase_to_mila(record: PhaseRecord, civil_disorder: Iterable[str] = ()) -> dict[str, Any]:
    """One processed phase of a MILA saved game: the state it started from, the orders MILA
    would have accepted (the legal ones, in short form), MILA-style labels, no messages."""
    orders: dict[str, list[str]] = {p: [] for p in record.position.map.powers}
    for result in record.outcome.results:
        if result.given and result.legal and result.power is not None:
            orders[result.power].append(result.order)
    return {
        "name": mila_phase_name(record.phase),
        "state": position_to_mila(record.position, civil_disorder=civil_disorder),
        "orders": orders,
        "results": mila_results(record),
        "messages": [],
    }


def game_to_mila(game: Game, game_id: str | None = None) -> dict[str, Any]:
    """The game as a MILA saved game (a JSON-ready dict).

    Every processed phase gets the state it started from, the orders MILA would have accepted
    (the legal ones, in short form) and MILA-style labels; then comes the current phase with
    ``None`` orders, or ``COMPLETED`` with the final board when the game is over (its ``note``
    names the winner or the drawing powers, ``Victory by: FRA``, as MILA does).
    """
    powers = game.map.powers
    resigned = game.resigned
    phases: list[dict[str, Any]] = []
    for record in game.history:
        phase = record.position.phase
        disorder = [p for p, when in resigned.items() if when.sequence() <= phase.sequence()]
        phases.append(phase_to_mila(record, civil_disorder=disorder))
    if game.is_over:
        if game.winner is not None:
            note = f"Victory by: {game.winner[:3]}"
        else:
            note = "Victory by: " + ", ".join(p[:3] for p in game.survivors)
        state = position_to_mila(
            game.position, name=COMPLETED, civil_disorder=list(resigned), note=note
        )
        phases.append(
            {
                "name": COMPLETED,
                "state": state,
                "orders": dict.fromkeys(powers),
                "results": {},
                "messages": [],
            }
        )
    else:
        pending = game.orders
        current: dict[str, list[str] | None] = dict.fromkeys(powers)
        for power, items in pending.items():
            current[power] = [i if isinstance(i, str) else format_order(i) for i in items]
        phases.append(
            {
                "name": mila_phase_name(game.phase),
                "state": position_to_mila(game.position, civil_disorder=list(resigned)),
                "orders": current,
                "results": {},
                "messages": [],
            }
        )
    mila_meta = game.meta.get("mila") if isinstance(game.meta.get("mila"), Mapping) else {}
    assert isinstance(mila_meta, Mapping)
    return {
        "id": game_id or str(mila_meta.get("id") or game.meta.get("id") or "diplo-game"),
        "map": MILA_MAP_NAMES.get(game.map.name, game.map.name),
        "rules": list(mila_meta.get("rules", ["NO_PRESS"])),
        "phases": phases,
    }


# --------------------------------------------------------------------------- import


def game_from_mila(
    data: Mapping[str, Any],
    *,
    backend: Backend | str | None = None,
    strict: bool = True,
    maps: Mapping[str, Map] | None = None,
    rules: Rules | None = None,
    fix: str | None = None,
) -> Game:
    """A :class:`Game` replayed by diplo's engine from a MILA saved game (see the module doc),
    under ``rules`` (default: the map's; ``Rules(edition="mila")`` to replay MILA's rulings).
    ``fix`` is the remedy a refusal of a phase ruled otherwise names (default: this function's
    ``strict=False``), for a caller that offers another.

    A power MILA marks in civil disorder from some phase to the end of the game, and that gives
    no order from then on, resigns at that phase. A ``COMPLETED`` game that MILA ended with
    several powers in its ``Victory by`` note ends here as an agreed draw.
    """
    try:
        return _replay_mila(data, backend, strict, maps, rules, fix)
    except (TypeError, AttributeError, KeyError, IndexError, RecursionError) as exc:
        # A MILA file is input: a value of the wrong shape anywhere is a malformed file.
        raise MilaError(f"malformed MILA saved game: {type(exc).__name__}: {exc}") from exc


def _replay_mila(
    data: Mapping[str, Any],
    backend: Backend | str | None,
    strict: bool,
    maps: Mapping[str, Map] | None,
    rules: Rules | None = None,
    fix: str | None = None,
) -> Game:
    if rules is not None and not isinstance(rules, Rules):
        raise TypeError(f"rules must be a diplo.model.rules.Rules, got {type(rules).__name__}")
    if not isinstance(data, Mapping):
        raise MilaError("a MILA saved game must be a JSON object")
    try:
        name = data.get("map", "standard")
        game_map = map_named(_FROM_MILA.get(name, name) if isinstance(name, str) else name, maps)
    except MapError as exc:
        raise MilaError(f"unsupported MILA map: {exc}") from exc
    phases = data.get("phases")
    if not isinstance(phases, list) or not phases:
        raise MilaError("a MILA saved game needs a non-empty 'phases' list")
    first = phases[0]
    if not isinstance(first, Mapping) or first.get("name") == COMPLETED:
        raise MilaError("the first MILA phase must be a played phase")
    initial = position_from_mila(first.get("state") or {}, first.get("name"), game_map, rules=rules)
    game = Game.from_position(initial, backend=backend)
    game.meta["mila"] = {"id": data.get("id"), "rules": list(data.get("rules") or [])}
    divergent: list[str] = []
    resign_at = _resignations(phases, game_map)
    for index, entry in enumerate(phases):
        name = entry.get("name")
        if name == COMPLETED:
            if index != len(phases) - 1:
                raise MilaError(
                    f"phases[{index}]: {COMPLETED} must be the last phase "
                    f"({len(phases) - 1 - index} follow it)"
                )
            _complete(game, entry, strict)
            break
        if _drawn_at(phases, index):
            # MILA drew the game as it entered this phase (by agreement, or in its hundredth
            # winter), recording the phase with no orders and not playing it.
            game.meta["mila"]["drawn_at"] = str(name)
            _complete(game, phases[index + 1], strict)
            break
        try:
            phase = mila_phase(name)
        except PositionError as exc:
            raise MilaError(f"phases[{index}]: {exc}") from exc
        if game.is_over or phase != game.phase:
            where = f"the game is over ({game.end_reason})" if game.is_over else str(game.phase)
            if strict:
                raise MilaError(f"{name}: diplo's replay is not at this phase: {where}")
            # Diplo's rulings led elsewhere: MILA's later orders no longer apply.
            game.meta["mila"]["stopped_at"] = str(name)
            break
        for power in resign_at.get(index, ()):
            if power in game.survivors and power not in game.resigned:
                game.resign(power)
        orders = entry.get("orders") or {}
        last = index == len(phases) - 1
        for power, texts in orders.items():
            if not texts:
                continue
            power = str(power).upper()
            if power not in game.orderable_powers():
                if strict:
                    raise MilaError(f"{name}: {power} has orders but nothing to order in diplo")
                continue
            game.set_orders(power, [str(t) for t in texts])
        if last:
            break  # the phase MILA had not processed yet: its orders stay pending
        outcome = game.process()
        ahead = phases[index + 2] if index + 2 < len(phases) else None
        problem = _divergence(outcome, phases[index + 1], game_map, ahead)
        if problem is not None:
            if strict:
                remedy = fix or "game_from_mila(..., strict=False) keeps diplo's rulings"
                raise MilaError(
                    f"{name}: diplo rules this phase differently from MILA: {problem} ({remedy})"
                )
            divergent.append(str(name))
    game.meta["mila"]["divergent_phases"] = divergent
    return game


def _draw_note(entry: Any) -> bool:
    """Whether ``entry`` is a ``COMPLETED`` entry whose note names two or more powers."""
    if not isinstance(entry, Mapping) or entry.get("name") != COMPLETED:
        return False
    note = str((entry.get("state") or {}).get("note") or "")
    return len([w for w in note.partition("Victory by:")[2].split(",") if w.strip()]) > 1


def _drawn_at(phases: list[Any], index: int) -> bool:
    """Whether MILA drew the game on entering phase ``index`` (``Game.draw``: the phase kept
    with no orders and no results, then ``COMPLETED`` naming the drawing powers; a phase played
    has a result for each unit)."""
    if index + 1 >= len(phases) or not _draw_note(phases[index + 1]):
        return False
    return _unplayed(phases[index])


def _unplayed(entry: Mapping[str, Any]) -> bool:
    """Whether a phase entry has no orders and no results (MILA's entry of a drawn phase)."""
    orders, results = entry.get("orders") or {}, entry.get("results") or {}
    return isinstance(orders, Mapping) and not any(orders.values()) and not results


def _resignations(phases: list[Any], game_map: Map) -> dict[int, list[str]]:
    """Phase index -> powers in civil disorder from that phase to the end, giving no orders."""
    out: dict[int, list[str]] = {}
    for power in game_map.powers:
        start: int | None = None
        for index, entry in enumerate(phases):
            state = entry.get("state") or {}
            flag = (state.get("civil_disorder") or {}).get(power, 0)
            ordered = bool((entry.get("orders") or {}).get(power))
            if not flag or ordered:
                start = None
            elif start is None:
                start = index
        if start is not None and phases[start].get("name") != COMPLETED:
            out.setdefault(start, []).append(power)
    return out


def _complete(game: Game, entry: Mapping[str, Any], strict: bool) -> None:
    """Ends the replay at MILA's ``COMPLETED`` entry: a game diplo has ended stays as it is; a
    note naming two or more powers is an agreed draw, taken only when they are exactly the
    powers still on diplo's board and the entry's board is diplo's."""
    state = entry.get("state") or {}
    note = str(state.get("note") or "")
    named = [w.strip() for w in note.partition("Victory by:")[2].split(",") if w.strip()]
    if game.is_over:
        return
    if len(named) > 1:
        powers = [_mila_power(w, game.map) for w in named]
        problem = _draw_problem(game, powers, state)
        if problem is None:
            for power in game.voters():
                if not game.is_over:
                    game.propose_draw(power)
            return
        if strict:
            raise MilaError(f"{COMPLETED}: MILA's draw ({clip(note)}) {problem}")
        game.meta["mila"]["stopped_at"] = COMPLETED
        return
    if strict:
        raise MilaError(
            f"MILA ended the game ({clip(note) or 'no note'}) where diplo's replay did not"
        )


def _mila_power(word: str, game_map: Map) -> str:
    """The power a MILA note names (its full name or its first three letters, as MILA writes)."""
    upper = word.upper()
    for power in game_map.powers:
        if upper in (power, power[:3]):
            return power
    raise MilaError(f"{COMPLETED}: the note names {show(word)}, not a power of {game_map.name}")


def _draw_problem(game: Game, powers: list[str], state: Mapping[str, Any]) -> str | None:
    """Why MILA's draw of ``powers`` is not the draw diplo's replay would agree, or ``None``."""
    survivors = game.survivors
    if sorted(set(powers)) != sorted(survivors):
        return f"names {', '.join(sorted(set(powers)))}, but the powers on the board are " + (
            ", ".join(survivors) or "none"
        )
    try:
        theirs = position_from_mila(state, game.phase, game.map, rules=game.position.rules)
    except MilaError as exc:
        return f"has a board diplo cannot read: {exc}"
    return _board_difference(game.position, theirs)


def _divergence(
    outcome: PhaseOutcome, following: Mapping[str, Any], game_map: Map, ahead: Any = None
) -> str | None:
    """How diplo's next position differs from the state MILA recorded next, or ``None``
    (``ahead``: the entry after that one; MILA's phase drawn on entering, its hundredth winter,
    may be one diplo skips, and only its board is compared)."""
    name = following.get("name")
    nxt = outcome.next
    drawn = name != COMPLETED and _draw_note(ahead) and _unplayed(following)
    if name != COMPLETED and name != mila_phase_name(nxt.phase) and not drawn:
        return f"next phase {nxt.phase}, MILA {name}"
    if name == COMPLETED and outcome.winner is None:
        return None  # MILA ended the game by agreement after this phase: compared by _complete
    try:
        theirs = position_from_mila(
            following.get("state") or {}, nxt.phase, game_map, rules=nxt.rules
        )
    except MilaError as exc:
        return str(exc)
    return _board_difference(nxt, theirs)


def _board_difference(nxt: Position, theirs: Position) -> str | None:
    """How diplo's board ``nxt`` differs from MILA's ``theirs``, or ``None``."""
    ours_units = sorted(f"{p.power} {p}" for p in nxt.units.values())
    mila_units = sorted(f"{p.power} {p}" for p in theirs.units.values())
    if ours_units != mila_units:
        extra = sorted(set(ours_units) - set(mila_units))
        lacking = sorted(set(mila_units) - set(ours_units))
        return f"units: diplo also has {extra}, MILA also has {lacking}"
    if dict(nxt.centers) != dict(theirs.centers):
        return "supply-centre owners differ"
    ours_dislodged = sorted(f"{d.piece.power} {d.piece}" for d in nxt.dislodged.values())
    mila_dislodged = sorted(f"{d.piece.power} {d.piece}" for d in theirs.dislodged.values())
    if ours_dislodged != mila_dislodged:
        return f"dislodged units: diplo {ours_dislodged}, MILA {mila_dislodged}"
    return None
