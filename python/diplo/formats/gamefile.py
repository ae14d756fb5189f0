"""The diplo game file: a whole game as one JSON document (``docs/game-files.md``).

Every phase entry is the output document of the JSON contract
(``../shared/spec/adjudicate-json.md``) plus the orders that produced it, so a file can be read
and checked by anything that speaks the contract. :func:`load` replays the orders with the
engine and checks every stored ruling against the engine's; ``verify=False`` trusts the file and
rebuilds the game from it without running the engine.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

from .._version import __version__
from ..api.game import Game, PhaseRecord, append_record
from ..model.backend import Backend
from ..model.limits import clip, show
from ..model.map import SHIPPED_MAPS, Map, MapError, map_named
from ..model.orders import format_order
from ..model.position import Dislodged, Phase, Position, PositionError, parse_piece
from ..model.results import PhaseOutcome, Result
from ..model.rules import Rules, RulesError

__all__ = [
    "FORMAT",
    "VERSION",
    "GameFileError",
    "from_json",
    "load",
    "save",
    "to_json",
]

FORMAT = "diplo-game"
VERSION = 1

# The keys of a result that make up the ruling. ``reason`` is prose: it may be reworded between
# versions of diplo without the ruling changing, so it is not compared.
_RULING_KEYS = ("power", "unit", "order", "given", "legal", "success", "code", "dislodged_by")


class GameFileError(ValueError):
    """A game file that cannot be read, or whose rulings the engine does not reproduce.

    The message names the phase (``S1903M: ...``) when the problem is in one phase.
    """

    def __init__(self, message: str) -> None:
        super().__init__(clip(message))


# --------------------------------------------------------------------------- writing


def to_json(game: Game) -> dict[str, Any]:
    """The game as a JSON-ready document (format ``diplo-game``, version 1)."""
    phases: list[dict[str, Any]] = []
    for record in game.history:
        entry: dict[str, Any] = {"phase": str(record.phase), "orders": _orders_json(record)}
        out = record.outcome.to_json()
        entry["results"] = out["results"]
        entry["dislodged"] = out["dislodged"]
        entry["next"] = out["next"]
        if record.outcome.winner is not None:
            entry["winner"] = record.outcome.winner
        phases.append(entry)
    pending = game.orders
    status: dict[str, Any] = {
        "phase": None if game.is_over else str(game.phase),
        "over": game.is_over,
        "end": game.end_reason,
        "winner": game.winner,
        "draw": game.draw,
        "max_year": game.max_year,
        "centers": game.centers,
        "survivors": game.survivors,
        "resigned": {p: str(phase) for p, phase in game.resigned.items()},
        "draw_votes": game.draw_votes if game.draw_proposed else None,
        "pending_orders": {
            p: [o if isinstance(o, str) else format_order(o) for o in pending[p]]
            for p in game.map.powers
            if p in pending
        },
    }
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION, "map": game.map.name}
    if not _is_shipped(game.map):
        # A map read from a file (a MILA .map, a diplo .json) travels with the game, so that
        # the file can be read and drawn where that map file is not.
        doc["map_data"] = game.map.to_dict()
    return {
        **doc,
        "rules": game.rules.to_json(),
        "initial": game.initial_position.to_json(),
        "phases": phases,
        "status": status,
        "meta": {"generator": f"diplo {__version__}", **game.meta},
    }


def save(game: Game, target: str | Path | IO[str], *, indent: int | None = 1) -> None:
    """Write the game to a path or an open text file."""
    text = json.dumps(to_json(game), indent=indent, ensure_ascii=False) + "\n"
    if isinstance(target, str | Path):
        Path(target).write_text(text, encoding="utf-8")
    else:
        target.write(text)


def _orders_json(record: PhaseRecord) -> dict[str, list[str]]:
    return {p: list(os) for p, os in record.orders.items()}


# --------------------------------------------------------------------------- reading


def load(
    source: str | Path | IO[str],
    *,
    verify: bool = True,
    backend: Backend | str | None = None,
    maps: Mapping[str, Map] | None = None,
) -> Game:
    """Read a game file from a path or an open text file (see :func:`from_json`)."""
    where = str(source) if isinstance(source, str | Path) else getattr(source, "name", "<stream>")
    try:
        if isinstance(source, str | Path):
            text = Path(source).read_text(encoding="utf-8")
        else:
            text = source.read()
    except UnicodeDecodeError as exc:
        raise GameFileError(f"{where}: not UTF-8 (byte {exc.start})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise GameFileError(f"{where}: not valid JSON ({exc})") from exc
    except RecursionError:
        raise GameFileError(f"{where}: not valid JSON (nested too deeply)") from None
    except ValueError as exc:  # a number of more than 4300 digits
        raise GameFileError(f"{where}: not valid JSON ({str(exc)[:80]})") from None
    return from_json(data, verify=verify, backend=backend, maps=maps)


def from_json(
    data: Mapping[str, Any],
    *,
    verify: bool = True,
    backend: Backend | str | None = None,
    maps: Mapping[str, Map] | None = None,
) -> Game:
    """Rebuild a game from its document.

    A game file is input: a value of the wrong shape anywhere raises :class:`GameFileError`.

    With ``verify`` (the default) every phase is replayed with the engine, and a stored ruling
    (results without their ``reason`` prose, dislodged units, next position, winner) that differs
    from the engine's raises :class:`GameFileError` naming the phase. With ``verify=False`` the
    stored rulings are taken as they are, without running the engine (fast; the file is trusted).
    ``maps`` supplies maps other than ``standard`` by name.
    """
    try:
        return _read_game(data, verify, backend, maps)
    except (TypeError, AttributeError, KeyError, IndexError, RecursionError) as exc:
        raise GameFileError(f"malformed game file: {type(exc).__name__}: {exc}") from exc


def _read_game(
    data: Mapping[str, Any],
    verify: bool,
    backend: Backend | str | None,
    maps: Mapping[str, Map] | None,
) -> Game:
    if not isinstance(data, Mapping):
        raise GameFileError("a game file must be a JSON object")
    if data.get("format") != FORMAT:
        raise GameFileError(f"not a diplo game file (format {show(data.get('format'))})")
    if data.get("version") != VERSION:
        raise GameFileError(f"unsupported game file version {show(data.get('version'))}")
    game_map = _map(data.get("map", "standard"), maps, data.get("map_data"))
    status = data.get("status") or {}
    if not isinstance(status, Mapping):
        raise GameFileError("'status' must be an object")
    try:
        initial = Position.from_json(
            _object(data.get("initial"), "initial"), game_map, "initial position"
        )
    except PositionError as exc:
        raise GameFileError(f"game file: {exc}") from exc
    if "rules" in data:
        try:
            initial = initial.with_changes(rules=Rules.from_json(data["rules"]))
        except RulesError as exc:
            raise GameFileError(f"game file: {exc}") from exc
    max_year = status.get("max_year")
    if max_year is not None and not isinstance(max_year, int):
        raise GameFileError(f"status.max_year must be a year, not {max_year!r}")
    try:
        game = Game.from_position(initial, backend=backend, max_year=max_year)
    except ValueError as exc:
        raise GameFileError(str(exc)) from exc
    resigned = _resignations(status, game_map)
    phases = data.get("phases", [])
    if not isinstance(phases, list):
        raise GameFileError("'phases' must be a list")
    for index, raw in enumerate(phases):
        entry = _object(raw, f"phases[{index}]")
        try:
            phase = Phase.parse(str(entry.get("phase")))
        except PositionError as exc:
            raise GameFileError(f"phases[{index}]: {exc}") from exc
        if game.is_over:
            raise GameFileError(f"{phase}: the game was already over ({game.end_reason})")
        if phase != game.phase:
            raise GameFileError(f"{phase}: expected phase {game.phase} here")
        _resign_now(game, resigned)
        orders = _entry_orders(entry, phase)
        if verify:
            _replay(game, phase, orders, entry)
        else:
            append_record(game, stored_record(game.position, orders, entry, phase))
    if not game.is_over:
        _resign_now(game, resigned)
    _restore_status(game, status, resigned)
    meta = data.get("meta") or {}
    if isinstance(meta, Mapping):
        game.meta.update({k: v for k, v in meta.items() if k != "generator"})
    return game


def _is_shipped(game_map: Map) -> bool:
    if game_map.name not in SHIPPED_MAPS:
        return False
    return game_map is map_named(game_map.name)


def _map(name: Any, maps: Mapping[str, Map] | None, data: Any = None) -> Map:
    """The game's map: one of ``maps`` by name, a shipped map, or the file's own ``map_data``
    (written for a map that is not shipped)."""
    if data is None or (maps is not None and isinstance(name, str) and name in maps):
        try:
            return map_named(name, maps)
        except MapError as exc:
            raise GameFileError(str(exc)) from exc
    try:
        game_map = Map.from_dict(data) if isinstance(data, Mapping) else None
    except MapError as exc:
        raise GameFileError(f"map_data: {exc}") from exc
    if game_map is None:
        raise GameFileError("map_data must be a map object (docs/design.md, Map)")
    if game_map.name != name:
        raise GameFileError(f"map_data is the map {show(game_map.name)}, not {show(name)}")
    return game_map


def _object(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise GameFileError(f"{where} must be an object")
    return value


def _resignations(status: Mapping[str, Any], game_map: Map) -> dict[str, Phase]:
    raw = status.get("resigned") or {}
    if not isinstance(raw, Mapping):
        raise GameFileError("status.resigned must map powers to phases")
    out: dict[str, Phase] = {}
    for power, when in raw.items():
        if power not in game_map.powers:
            raise GameFileError(f"status.resigned: unknown power {power!r}")
        try:
            out[power] = Phase.parse(when)
        except PositionError as exc:
            raise GameFileError(f"status.resigned.{power}: {exc}") from exc
    return out


def _resign_now(game: Game, resigned: Mapping[str, Phase]) -> None:
    for power, when in resigned.items():
        if when == game.phase and power not in game.resigned:
            try:
                game.resign(power)
            except ValueError as exc:
                raise GameFileError(f"{when}: cannot resign {power}: {exc}") from exc


def _entry_orders(entry: Mapping[str, Any], phase: Phase) -> dict[str, list[str]]:
    raw = entry.get("orders") or {}
    if not isinstance(raw, Mapping):
        raise GameFileError(f"{phase}: 'orders' must be an object keyed by power")
    out: dict[str, list[str]] = {}
    for power, texts in raw.items():
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            raise GameFileError(f"{phase}: orders.{power} must be a list of strings")
        out[str(power)] = list(texts)
    return out


def _replay(
    game: Game, phase: Phase, orders: Mapping[str, list[str]], entry: Mapping[str, Any]
) -> None:
    for power, texts in orders.items():
        if not texts:
            continue
        try:
            game.set_orders(power, texts)
        except ValueError as exc:
            raise GameFileError(f"{phase}: {exc}") from exc
    outcome = game.process()
    problem = _difference(outcome, entry)
    if problem is not None:
        raise GameFileError(
            f"{phase}: the stored ruling differs from the engine's: {problem} "
            "(load with verify=False to take the file as it is)"
        )


def _difference(outcome: PhaseOutcome, entry: Mapping[str, Any]) -> str | None:
    """The first way the stored ruling differs from ``outcome``, or ``None``."""
    ours = outcome.to_json()
    stored = entry.get("results")
    if not isinstance(stored, list):
        return "'results' is missing"
    if not all(isinstance(r, Mapping) for r in stored):
        return "a result entry is not an object"
    # Given orders are reported in input order; the implied ones (units nobody ordered) come in
    # no promised order, so they are compared as a set.
    mine_given = [_ruling(r) for r in ours["results"] if r.get("given", True)]
    theirs_given = [_ruling(r) for r in stored if r.get("given", True)]
    for a, b in zip(mine_given, theirs_given, strict=False):
        if a != b:
            changed = [k for k in _RULING_KEYS if a[k] != b[k]]
            return (
                f"result for {a['order']!r}: stored { ({k: b[k] for k in changed}) }, "
                f"engine { ({k: a[k] for k in changed}) }"
            )
    if len(mine_given) != len(theirs_given):
        return f"{len(theirs_given)} given orders stored, the engine rules on {len(mine_given)}"
    mine_implied = sorted(_key(r) for r in ours["results"] if not r.get("given", True))
    theirs_implied = sorted(_key(r) for r in stored if not r.get("given", True))
    if mine_implied != theirs_implied:
        extra = [dict(k) for k in theirs_implied if k not in mine_implied]
        lacking = [dict(k) for k in mine_implied if k not in theirs_implied]
        return f"implied results: stored {extra}, engine {lacking}"
    if "dislodged" in entry and _norm(entry["dislodged"]) != _norm(ours["dislodged"]):
        return f"dislodged units: stored {entry['dislodged']}, engine {ours['dislodged']}"
    stored_next = entry.get("next")
    if not isinstance(stored_next, Mapping):
        return "'next' is missing"
    for key in ("phase", "units", "centers", "dislodged"):
        if _norm(stored_next.get(key)) != _norm(ours["next"].get(key)):
            return f"next.{key}: stored {stored_next.get(key)}, engine {ours['next'].get(key)}"
    if entry.get("winner") != outcome.winner:
        return f"winner: stored {entry.get('winner')}, engine {outcome.winner}"
    return None


def _ruling(result: Mapping[str, Any]) -> dict[str, Any]:
    return {k: result.get(k) for k in _RULING_KEYS}


def _key(result: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple((k, json.dumps(result.get(k))) for k in _RULING_KEYS)


def _norm(value: Any) -> Any:
    """Lists compared as sets where order carries no meaning (units, centres, options)."""
    if isinstance(value, Mapping):
        return {k: _norm(v) for k, v in value.items() if v not in ({}, [])}
    if isinstance(value, list):
        # By their JSON text: a damaged file may mix types that do not compare.
        return sorted((_norm(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    return value


def stored_record(
    position: Position, orders: Mapping[str, list[str]], entry: Mapping[str, Any], phase: Phase
) -> PhaseRecord:
    """A phase record rebuilt from the file alone (``verify=False``)."""
    game_map = position.map
    try:
        results = [_result(r) for r in entry.get("results") or []]
        dislodged: dict[str, Dislodged] = {}
        raw_dislodged = entry.get("dislodged") or {}
        for power, units in _object(raw_dislodged, "dislodged").items():
            for text, options in _object(units, f"dislodged.{power}").items():
                piece = parse_piece(power, text, game_map)
                locs = tuple(game_map.lookup(o) for o in options)
                dislodged[piece.province] = Dislodged(piece, locs)
        index = game_map.location_index
        dislodged = dict(sorted(dislodged.items(), key=lambda kv: index[kv[0]]))
        raw_next = dict(_object(entry.get("next"), "next"))
        winner = entry.get("winner")
        if raw_next.get("phase") is None:
            if winner is None:
                raise GameFileError(f"{phase}: next.phase is null but no winner is named")
            # A solo ends the game after the Fall turn; the board is that of the winter.
            raw_next["phase"] = str(Phase(phase.year, "W", "A"))
        nxt = Position.from_json(raw_next, game_map, "next position")
        if "rules" not in raw_next:
            nxt = nxt.with_changes(rules=position.rules)
    except (PositionError, ValueError, KeyError, TypeError) as exc:
        if isinstance(exc, GameFileError):
            raise
        raise GameFileError(f"{phase}: {exc}") from exc
    outcome = PhaseOutcome(phase, results, dislodged, nxt, winner)
    recorded = {p: tuple(orders[p]) for p in game_map.powers if orders.get(p)}
    return PhaseRecord(position, recorded, outcome)


def _result(raw: Any) -> Result:
    if not isinstance(raw, Mapping):
        raise ValueError(f"bad result entry {raw!r}")
    return Result(
        raw.get("power"),
        raw.get("unit"),
        str(raw["order"]),
        bool(raw.get("given", True)),
        bool(raw["legal"]),
        bool(raw["success"]),
        str(raw["code"]),
        str(raw.get("reason", "")),
        raw.get("dislodged_by"),
    )


def _restore_status(game: Game, status: Mapping[str, Any], resigned: Mapping[str, Phase]) -> None:
    missing = [p for p in resigned if p not in game.resigned]
    if missing and not game.is_over:
        raise GameFileError(f"status.resigned: {', '.join(missing)} never came to resign")
    if game.is_over:
        _check_end(game, status)
        return
    pending = status.get("pending_orders") or {}
    for power, texts in _object(pending, "status.pending_orders").items():
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            # (a string would otherwise become one order per character)
            raise GameFileError(f"status.pending_orders.{show(power)} must be a list of strings")
        try:
            game.set_orders(power, list(texts))
        except ValueError as exc:
            raise GameFileError(f"status.pending_orders: {exc}") from exc
    votes = status.get("draw_votes")
    if votes is not None:
        votes = _object(votes, "status.draw_votes")
        try:
            ordered = sorted(votes.items(), key=lambda kv: not kv[1])  # a yes vote opens it
            for power, accept in ordered:
                if game.draw_proposed:
                    game.vote_draw(power, bool(accept))
                else:
                    game.propose_draw(power)
                    if not accept:
                        game.vote_draw(power, False)
        except ValueError as exc:
            raise GameFileError(f"status.draw_votes: {exc}") from exc
    _check_end(game, status)


def _check_end(game: Game, status: Mapping[str, Any]) -> None:
    end = status.get("end")
    if "end" in status and end != game.end_reason:
        raise GameFileError(
            f"status.end is {end!r} but the phases give {game.end_reason!r} (at {game.phase})"
        )
    if "winner" in status and status.get("winner") != game.winner:
        raise GameFileError(f"status.winner is {status.get('winner')!r}, not {game.winner!r}")
