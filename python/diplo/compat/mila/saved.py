"""Saved games: MILA's ``diplomacy.utils.export`` (to and from its saved-game documents, one
a line in a ``.jsonl`` file), for the drop-in's games."""

from __future__ import annotations

import copy as _copy
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from ...formats.mila import COMPLETED, MilaError, game_from_mila, position_to_mila
from ...model.map import MapError
from ...model.rules import Rules, RulesError
from .._map import mila_map_for
from .._press import History, Message
from .copies import copy_tree
from .game import Game, parts_of
from .names import shown_orders
from .order import lists_of
from .ruling import MILA, ruling_named

__all__ = [
    "from_saved_game_format",
    "is_valid_saved_game",
    "load_saved_games_from_disk",
    "save_game",
    "to_saved_game_format",
]
_SAVED_KEYS: Final = frozenset({"id", "map", "rules", "phases"})
#: The key of a saved game that records the ruling it was played under (``Rules.to_json()``;
#: MILA reads no key it does not know, so its own loader ignores it).
RULING_KEY: Final = "diplo_ruling"
#: The fork's (AI_Diplomacy's) top-level additions, read into the game's attributes.
_FORK_KEYS: Final = ("phase_summaries", "power_model_map")
#: The drop-in's key for the orders of the powers that waived (phase -> power -> the orders kept,
#: waives in their place): MILA's saves list no waive (their ``orders`` leave them out, as the
#: drop-in's do), and a replay needs them where they were to use each build as the game did.
WAIVES_KEY: Final = "diplo_waives"
#: The rules MILA's saved games leave out (``diplomacy.utils.export.RULES_TO_SKIP``): about how
#: a game is run on a server, not about the board.
RULES_TO_SKIP: Final = ("SOLITAIRE", "NO_DEADLINE", "CD_DUMMIES", "ALWAYS_WAIT", "IGNORE_ERRORS")


def _ruling_of(data: Mapping[str, Any], ruling: Rules | str | None) -> Rules:
    """The ruling to replay a saved game under: ``ruling`` when given (a :class:`Rules`, or a
    name, ``"datc"`` or ``"mila"``, read on the save's map), else the one the save records, else
    MILA's (a save that records none is MILA's own, or the drop-in's from before it recorded
    one: :mod:`~diplo.compat.mila.ruling`)."""
    if ruling is not None and not isinstance(ruling, (Rules, str)):
        raise TypeError(
            "ruling must be a diplo.model.rules.Rules or a name ('mila', 'datc'), "
            f"got {type(ruling).__name__}"
        )
    if isinstance(ruling, Rules):
        return ruling
    recorded = data.get(RULING_KEY)
    if ruling is None and recorded is not None:
        try:
            return Rules.from_json(recorded)
        except RulesError as exc:
            raise MilaError(f"saved game: {RULING_KEY!r} is not a ruling: {exc}") from None
    try:  # the map's own rules (MILA's build-anywhere maps), as a new game's
        base = mila_map_for(str(data.get("map", "standard"))).rules
    except MapError:
        base = Rules()  # the replay names what is wrong with the map
    named = ruling_named(MILA if ruling is None else ruling, base, source="ruling")
    return base if named is None else named


def _with_waives(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """The save with the waives it records (:data:`WAIVES_KEY`) put back into its phases'
    orders, for the replay; a record that is not phase -> power -> orders, or whose orders are
    not the phase's with waives added, refuses the save."""
    table = data.get(WAIVES_KEY)
    if table is None:
        return data
    if not isinstance(table, Mapping) or not all(
        isinstance(phase, str)
        and isinstance(counts, Mapping)
        and all(
            isinstance(p, str)
            and isinstance(texts, list)
            and all(isinstance(t, str) for t in texts)
            and "WAIVE" in texts
            for p, texts in counts.items()
        )
        for phase, counts in table.items()
    ):
        raise MilaError(
            f"saved game: {WAIVES_KEY!r} must map phase names to {{power: orders with waives}}"
        )
    phases = data.get("phases")
    if not isinstance(phases, list):
        return data
    names = {p.get("name") for p in phases if isinstance(p, Mapping)}
    if not set(table) <= names:
        missing = sorted(set(table) - names)
        raise MilaError(f"saved game: {WAIVES_KEY!r} names phases the save lacks: {missing}")
    out = dict(data)
    out["phases"] = [
        _phase_with_waives(p, table[p["name"]])
        if isinstance(p, Mapping) and p.get("name") in table
        else p
        for p in phases
    ]
    return out


def _phase_with_waives(entry: Mapping[str, Any], kept: Mapping[str, list[str]]) -> dict[str, Any]:
    orders = entry.get("orders")
    if orders is not None and not isinstance(orders, Mapping):
        return dict(entry)  # refused by the replay, naming the phase
    given = dict(orders or {})
    for power, texts in kept.items():
        if [t for t in texts if t != "WAIVE"] != list(given.get(power) or []):
            raise MilaError(
                f"saved game: {WAIVES_KEY!r}: the orders of {power} in {entry.get('name')} "
                "are not the phase's orders with waives"
            )
        given[power] = list(texts)
    return {**entry, "orders": given}


def _text_table(data: Mapping[str, Any], key: str) -> dict[str, str]:
    table = data.get(key)
    if table is None:
        return {}
    if not isinstance(table, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in table.items()
    ):
        raise MilaError(f"saved game: {key!r} must map names to strings")
    return dict(table)


def to_saved_game_format(
    game: Game, output_path: str | None = None, output_mode: str = "a"
) -> dict[str, Any]:
    """``game`` as a MILA saved game (``diplomacy.utils.export.to_saved_game_format``): one entry
    per processed phase (state, orders, results, messages), then the current phase with its
    orders so far, or ``COMPLETED`` with the final board; keys it was read with that MILA does
    not know (top-level and per phase) come back as they were. As MILA's, the ``rules`` leave out
    :data:`RULES_TO_SKIP` and every phase's state names the game (``game_id``, ``map``,
    ``rules``). With ``output_path`` the game is
    also written there as one JSON line (``output_mode`` ``'a'`` appends, ``'w'`` replaces)."""
    if not isinstance(game, Game):
        raise TypeError(
            f"to_saved_game_format: expected a diplo.compat.mila.Game, got {type(game).__name__}"
        )
    if output_mode not in ("a", "w"):
        raise ValueError(f"output_mode must be 'a' or 'w', got {output_mode!r}")
    state, history = parts_of(game).state, parts_of(game).history
    state.sync()
    phases: list[dict[str, Any]] = []
    waives: dict[str, dict[str, list[str]]] = {}
    # A game of the AI_Diplomacy fork (summaries or a model table): its phases carry the
    # fork's keys, as its saves do (MILA's carry none).
    fork = bool(game.phase_summaries or game.power_model_map)
    for record in history.records:
        kept = {p: list(o) for p, o in record.orders.items() if "WAIVE" in o}
        if kept:
            waives[record.name] = kept
        kept_entry = record.saved
        if kept_entry is None:
            kept_entry = record.saved = {
                "state": history.phase_state(record),
                "orders": copy_tree(shown_orders(record.orders, state.two_coasts)),
                "results": copy_tree(history.results(record)),
            }
        entry: dict[str, Any] = {"name": record.name}
        entry.update(copy_tree(kept_entry))  # the phase's state, orders and results, one copy
        entry["messages"] = [m.to_dict() for m in record.messages.values()]
        if fork:  # the fork's per-phase keys, in every phase as the fork writes them
            entry["summary"] = game.phase_summaries.get(record.name, "")
            entry["statistical_summary"] = (record.extra or {}).get("statistical_summary")
        phases.append(entry)
    current = game.get_state()
    current.pop("phase", None)  # the fork's key of get_state, not of a save
    pending = game.get_orders()
    last_extra = history.extra.get("__current_phase__", {})
    # As MILA's: a power's orders not given are None, an eliminated power's (no unit, no
    # centre, no unit dislodged) are [] (MILA counts them given, empty), in every phase and at
    # the end.
    units, centers = current.get("units", {}), current.get("centers", {})
    out = {p for p in pending if not units.get(p) and not centers.get(p)}
    done = game.is_game_done
    entry = {
        "name": game.get_current_phase(),
        "state": current,
        "orders": {
            p: [] if p in out else (None if done else (pending[p] or None)) for p in pending
        },
        "results": {},
        "messages": [m.to_dict() for m in game.messages.values()],
    }
    entry.update(_copy.deepcopy(last_extra))
    if fork:
        entry["summary"] = game.phase_summaries.get(entry["name"], "")
        entry["statistical_summary"] = None
    phases.append(entry)
    # As MILA writes them: the rules filtered, and every phase's state naming its game.
    rules = [rule for rule in game.rules if rule not in RULES_TO_SKIP]
    for entry in phases:
        entry["state"].update(game_id=game.game_id, map=game.map_name, rules=list(rules))
    doc: dict[str, Any] = {"id": game.game_id, "map": game.map_name, "rules": rules}
    doc.update({k: _copy.deepcopy(v) for k, v in history.extra.items() if k != "__current_phase__"})
    for key in _FORK_KEYS:
        if getattr(game, key):
            doc[key] = dict(getattr(game, key))
    # Always recorded (diplo's too): a save that records none is read as MILA's own.
    ruling = state.ruling if state.ruling is not None else state.model_map.rules
    doc[RULING_KEY] = ruling.to_json()
    if waives:
        doc[WAIVES_KEY] = waives
    doc["phases"] = phases
    if output_path is not None:
        with open(output_path, output_mode, encoding="utf-8") as handle:
            handle.write(json.dumps(doc) + "\n")
    return doc


def save_game(game: Game, output_path: str, output_mode: str = "a") -> dict[str, Any]:
    """Write ``game`` to ``output_path`` as one line of JSON (MILA's ``.jsonl`` of saved games)."""
    return to_saved_game_format(game, output_path=output_path, output_mode=output_mode)


def from_saved_game_format(
    data: Mapping[str, Any], strict: bool = True, ruling: Rules | str | None = None
) -> Game:
    """A :class:`Game` from a MILA saved game (``diplomacy.utils.export.from_saved_game_format``),
    its orders replayed by diplo under ``ruling`` (a :class:`Rules` or a name, ``"datc"`` for
    diplo's rulings; default: the ruling the save records, which the drop-in writes as
    ``diplo_ruling``, else MILA's, ``Rules(edition="mila")`` on the map's rules: a save that
    records none is MILA's own), its messages, summaries and unknown keys kept. Every phase is
    verified against the state the save records next: where diplo rules a phase otherwise,
    ``strict`` (the default) raises :class:`MilaError` naming the phase, the ruling and the fix;
    ``strict=False`` keeps diplo's rulings, so hands back a game other than the file's, and
    stops where the save's later orders no longer apply (see
    :func:`diplo.formats.mila.game_from_mila`)."""
    if not isinstance(data, Mapping):
        raise MilaError(f"a saved game must be an object, got {type(data).__name__}")
    rules = _ruling_of(data, ruling)
    phases = data.get("phases")
    if isinstance(phases, list) and phases and _set_completed(phases[-1]):
        return _load_set_completed(data, phases, strict, rules)
    for key in _FORK_KEYS:  # checked before the replay
        _text_table(data, key)
    try:
        replayed = game_from_mila(_with_waives(data), strict=strict, rules=rules, fix=_fix(rules))
    except MilaError as exc:
        raise MilaError(f"{exc} (replayed under edition {rules.edition})") from None
    map_name = str(data.get("map", "standard"))
    game = Game(
        map_name,
        str(data.get("id") or "") or None,
        list(data.get("rules") or []) or None,
        ruling=rules,
    )
    game.set_state(position_to_mila(replayed.initial_position), clear_history=True)
    saved = [p for p in data.get("phases") or [] if isinstance(p, Mapping)]
    first = saved[0].get("state") if saved else None
    if isinstance(first, Mapping) and first.get("name") == game.get_current_phase():
        # MILA's order of the first board's lists (and its influence), as the save gives them.
        state = parts_of(game).state
        state.mila_lists = lists_of(first, state.tables.powers)
        state.doc_cache = None
    by_name = {str(p.get("name")): p for p in saved}
    for record in replayed.history:
        for power, texts in record.orders.items():
            game.set_orders(power, list(texts))
        entry = by_name.get(game.get_current_phase(), {})
        for message in _messages_of(entry):
            game.add_message(message)
        game.process()
        kept = parts_of(game).history.records[-1]
        kept.extra = _fork_phase_keys(entry)
        if isinstance(entry.get("summary"), str) and entry["summary"]:
            game.phase_summaries.setdefault(kept.name, entry["summary"])
    if replayed.is_over and not game.is_game_done:
        drawn = replayed.meta.get("mila", {}).get("drawn_at")
        if drawn is not None and drawn == game.get_current_phase():
            # Drawn as MILA entered this phase: kept with no orders, its messages, not played.
            for message in _messages_of(by_name.get(drawn, {})):
                game.add_message(message)
            game.draw()
        else:
            records = parts_of(game).history.records
            last_name = records[-1].name if records else game.get_current_phase()
            parts_of(game).state.finish(parts_of(game).state.survivors(), last_name)
    for power, items in replayed.orders.items():
        game.set_orders(power, [str(i) for i in items])
    last = saved[-1] if saved else {}
    if not game.is_game_done or str(last.get("name")) == COMPLETED:
        for message in (
            _messages_of(last) if str(last.get("name")) == game.get_current_phase() else []
        ):
            game.add_message(message)
    _keep_extras(game, data)
    return game


def _set_completed(entry: object) -> bool:
    """Whether ``entry`` is a ``COMPLETED`` entry no end of the game explains (its note names
    no winner or drawing powers): a game put there by ``set_state``, as MILA lets it be."""
    if not isinstance(entry, Mapping) or entry.get("name") != COMPLETED:
        return False
    state = entry.get("state")
    note = state.get("note") if isinstance(state, Mapping) else None
    return "Victory by:" not in str(note or "")


def _load_set_completed(
    data: Mapping[str, Any], phases: list[Any], strict: bool, rules: Rules
) -> Game:
    """A save whose game was put at ``COMPLETED`` by ``set_state`` (MILA loads its own such
    saves): the phases before it replayed and verified as any save's, the last of them played
    (its next board is the one set by hand, so there is nothing to verify it against), then
    the board set as saved."""
    last = phases[-1]
    state = last.get("state")
    if not isinstance(state, Mapping):
        raise MilaError(f"{COMPLETED}: the state must be an object, got {type(state).__name__}")
    if len(phases) > 1:
        game = from_saved_game_format(
            {**data, "phases": phases[:-1], RULING_KEY: rules.to_json()}, strict=strict
        )
        game.process()
    else:
        game = Game(
            str(data.get("map", "standard")),
            str(data.get("id") or "") or None,
            list(data.get("rules") or []) or None,
            ruling=rules,
        )
    game.set_state(state, clear_history=False)
    game.messages = History()
    for message in _messages_of(last):
        game.add_message(message)
    if len(phases) == 1:
        _keep_extras(game, data)
    else:
        parts_of(game).history.extra.pop("__current_phase__", None)
    return game


def _keep_extras(game: Game, data: Mapping[str, Any]) -> None:
    """The top-level keys of the save MILA does not know and the fork's tables, kept on
    ``game`` for the next save (a phase's own keys are not: see :func:`_fork_phase_keys`)."""
    fork = {key: _text_table(data, key) for key in _FORK_KEYS}
    parts_of(game).history.extra = {
        k: _copy.deepcopy(v)
        for k, v in data.items()
        if k not in _SAVED_KEYS and k not in _FORK_KEYS and k not in (RULING_KEY, WAIVES_KEY)
    }
    game.phase_summaries = {**game.phase_summaries, **fork["phase_summaries"]}
    game.power_model_map = fork["power_model_map"]


def _fork_phase_keys(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The keys of a phase entry the drop-in keeps besides MILA's: the fork's
    ``statistical_summary`` (its ``summary`` goes to ``phase_summaries``). Other keys MILA
    does not know are dropped on loading, as MILA drops them: a harness that adds its own to
    each save (AI_Diplomacy's ``config``, ``state_agents``) adds them again, and one kept from
    an earlier save would stay where MILA's save has none."""
    value = entry.get("statistical_summary")
    return {"statistical_summary": value} if isinstance(value, str) else {}


def _fix(rules: Rules) -> str:
    """The remedy a refusal names: the ruling the save was more likely played under."""
    if rules.edition == "mila":
        return (
            "if the save was played under diplo's ruling, load it with "
            "ruling=diplo.model.rules.Rules() (or the ruling it was played under)"
        )
    return (
        "if MILA made the save, load it with ruling=diplo.model.rules.Rules(edition='mila'); "
        "from_saved_game_format(..., strict=False) keeps diplo's rulings, a game other than "
        "the file's"
    )


def _messages_of(entry: Mapping[str, Any]) -> list[Message]:
    raw = entry.get("messages") or []
    items = raw.values() if isinstance(raw, Mapping) else raw
    out = []
    for item in items:
        msg = item.copy() if isinstance(item, Message) else Message.from_dict(item)
        out.append(msg)
    out.sort(key=lambda m: m.time_sent or 0)
    return out


def load_saved_games_from_disk(
    input_path: str, on_error: str = "raise", ruling: Rules | str | None = None
) -> list[Game]:
    """The games of a ``.jsonl`` file of MILA saved games, one a line
    (``diplomacy.utils.export.load_saved_games_from_disk``), each replayed under ``ruling``
    (default: the one it records, else MILA's; see :func:`from_saved_game_format`) with every
    phase verified against the state the save records next: a game is loaded as the file holds
    it or not at all. ``on_error``: ``'raise'`` (a bad line, or one diplo rules otherwise,
    raises :class:`MilaError` naming the line, the phase and the fix), ``'warn'`` (warn and
    skip the line) or ``'ignore'`` (skip it); whatever is wrong with a line, the other lines
    load."""
    if on_error not in ("raise", "warn", "ignore"):
        raise ValueError(f"on_error must be 'raise', 'warn' or 'ignore', got {on_error!r}")
    path = Path(input_path)
    if not path.exists():
        raise FileNotFoundError(f"no such file: {input_path}")
    games: list[Game] = []
    with path.open(encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                games.append(from_saved_game_format(json.loads(line), ruling=ruling))
            except Exception as exc:
                problem = exc if isinstance(exc, MilaError) else f"{type(exc).__name__}: {exc}"
                if on_error == "raise":
                    raise MilaError(f"{input_path}:{number}: {problem}") from None
                if on_error == "warn":
                    import warnings

                    warnings.warn(f"{input_path}:{number}: {problem}", stacklevel=2)
    return games


def is_valid_saved_game(saved_game: Mapping[str, Any]) -> bool:
    """Whether diplo replays the saved game as saved (MILA's ``is_valid_saved_game``)."""
    try:
        from_saved_game_format(saved_game, strict=True)
    except (MilaError, ValueError, TypeError):
        return False
    return True
