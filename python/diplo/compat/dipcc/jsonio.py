"""dipcc's JSON game format, written as dipcc writes it and read with every field checked.

Writing (``Game::to_json``, ``GameState::to_json`` in dipcc's ``game.cc``/``game_state.cc``): one
line, keys sorted (nlohmann's objects are sorted maps), no spaces, UTF-8 unescaped. The document
holds ``version`` ``"1.0"``, ``id``, ``map``, ``scoring_system`` (its name), ``is_full_press``,
``phases`` (every played phase, then the current one) and ``metadata`` (when there is any). A
played phase has ``name``, ``state``, ``orders`` (every power, each list sorted by the unit's
location), ``messages``, ``results`` (``{}``) and ``logs``; the current phase's ``orders`` hold
only the powers with staged orders, as staged.

Reading (``Game(const std::string&)``): both of dipcc's layouts (``phases``, or MILA's older
``state_history``/``order_history``/``message_history``). Where dipcc would half-load, crash or
silently misread a document, this reader refuses the whole of it with :class:`DipccJsonError`,
naming the field (``phases[2].state.units.FRANCE[1]``) and what is wrong with it.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, NoReturn

from .board import LOC_INDEX, LOCS, POWERS, DipccOrder, board, format_order, parse_order
from .record import SCORING_STRINGS, GameRecord, gen_game_id, state_dict
from .state import PhaseName, State

__all__ = ["DipccJsonError", "read_state", "record_from_json", "record_to_json"]


class DipccJsonError(RuntimeError, ValueError):
    """A dipcc JSON document that cannot be read; the message names the field.

    A ``RuntimeError`` as dipcc's own refusals are, and a ``ValueError``."""


def _dump(doc: Any) -> str:
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _state_json(state: State) -> dict[str, Any]:
    full = state_dict(state)
    doc: dict[str, Any] = {
        "builds": full["builds"],
        "homes": full["homes"],
        "name": full["name"],
        "retreats": full["retreats"],
        "units": full["units"],
    }
    centers = {p: c for p, c in full["centers"].items() if c}
    if centers:
        doc["centers"] = centers
    return doc


def _messages_json(messages: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    return [dict(messages[t]) for t in sorted(messages)]


def record_to_json(g: GameRecord) -> str:
    """A game as dipcc's JSON text."""
    phases: list[dict[str, Any]] = []
    for phase in sorted(g.history, key=lambda p: p.key):
        orders: dict[str, list[str]] = {p: [] for p in POWERS}
        for power, given in g.order_history.get(phase, {}).items():
            orders[power] = [format_order(o) for o in sorted(given, key=lambda o: o.unit_loc)]
        phases.append(
            {
                "name": str(phase),
                "state": _state_json(g.history[phase]),
                "orders": orders,
                "messages": _messages_json(g.messages.get(phase, {})),
                "results": {},
                "logs": list(g.logs.get(phase, [])),
            }
        )
    current = g.state.phase
    staged = {p: [format_order(o) for o in given] for p, given in g.staged.items() if given}
    phases.append(
        {
            "name": str(current),
            "state": _state_json(g.state),
            "orders": staged,
            "results": {},
            "messages": _messages_json(g.messages.get(current, {})),
            "logs": list(g.logs.get(current, [])),
        }
    )
    doc: dict[str, Any] = {
        "version": "1.0",
        "id": g.game_id,
        "map": g.map_name,
        "scoring_system": SCORING_STRINGS[g.scoring],
        "is_full_press": g.is_full_press,
        "phases": phases,
    }
    if g.metadata:
        doc["metadata"] = dict(g.metadata)
    return _dump(doc)


# ---------------------------------------------------------------------- reading


class _Reader:
    """Checks a parsed document field by field; every failure names its path."""

    def fail(self, where: str, what: str) -> NoReturn:
        raise DipccJsonError(f"dipcc JSON: {where}: {what}")

    def obj(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(where, f"expected an object, got {_kind(value)}")
        return value

    def lst(self, value: Any, where: str) -> list[Any]:
        if not isinstance(value, list):
            self.fail(where, f"expected a list, got {_kind(value)}")
        return value

    def text(self, value: Any, where: str) -> str:
        if not isinstance(value, str):
            self.fail(where, f"expected a string, got {_kind(value)}")
        return value

    def power(self, value: Any, where: str) -> str:
        if value not in POWERS:
            self.fail(where, f"unknown power {value!r} (the powers are {', '.join(POWERS)})")
        return str(value)

    def loc(self, value: Any, where: str) -> int:
        code = LOC_INDEX.get(value) if isinstance(value, str) else None
        if code is None:
            self.fail(where, f"unknown location {value!r}")
        return code

    def unit(self, value: Any, where: str) -> tuple[int, int]:
        text = self.text(value, where)
        if len(text) < 5 or text[0] not in "AF" or text[1] != " ":
            self.fail(where, f"bad unit {text!r} (expected e.g. 'A PAR', 'F STP/SC')")
        code = self.loc(text[2:], where)
        utype = 1 if text[0] == "A" else 2
        b = board()
        if not b.adjacent[utype][code]:
            self.fail(
                where, f"{text!r}: {'an army' if utype == 1 else 'a fleet'} cannot stand there"
            )
        return utype, code

    def phase(self, value: Any, where: str) -> PhaseName:
        try:
            return PhaseName.parse(value, where)
        except ValueError:
            self.fail(where, f"bad phase name {value!r} (expected e.g. 'S1901M' or 'COMPLETED')")

    def order(self, value: Any, where: str) -> DipccOrder:
        text = self.text(value, where)
        try:
            return parse_order(text)
        except ValueError as exc:
            self.fail(where, str(exc))


def _kind(value: Any) -> str:
    return {
        dict: "an object",
        list: "a list",
        str: "a string",
        bool: "a boolean",
        int: "a number",
        float: "a number",
        type(None): "null",
    }.get(type(value), type(value).__name__)


def _read_board_quickly(state: State, units: dict[str, Any], centers: dict[str, Any]) -> bool:
    """A board's units and centres read into ``state`` when every entry is a valid one (looked
    up in tables of them) and no province is taken or owned twice; ``False`` (``state`` then
    half-filled) for anything else, which :func:`_read_board` reads, naming what is wrong."""
    by_power = _units_by_power()
    board_units = state.units
    influence = state.influence
    provinces: set[int] = set()
    n = 0
    for power, texts in units.items():
        table = by_power.get(power)
        if table is None or not isinstance(texts, list):
            return False
        n += len(texts)
        for text in texts:
            unit = table.get(text) if isinstance(text, str) else None
            if unit is None:
                return False
            code, piece, province = unit
            provinces.add(province)
            board_units[code] = piece
            influence[code] = power
    if not n == len(provinces) == len(board_units):
        return False
    centers_of = _centers()
    owned = state.centers
    n = 0
    for power, texts in centers.items():
        if power not in POWERS or not isinstance(texts, list):
            return False
        for text in texts:
            center = centers_of.get(text) if isinstance(text, str) else None
            if center is None:
                return False
            owned[center] = power
        n += len(texts)
    return n == len(owned)


def _read_board(
    r: _Reader, state: State, units: dict[str, Any], centers: dict[str, Any], where: str
) -> None:
    """:func:`_read_board_quickly`, entry by entry, failing on the first wrong one."""
    b = board()
    root = b.root
    units_of = _units()
    provinces: set[int] = set()
    for power, texts in units.items():
        r.power(power, f"{where}.units")
        for i, text in enumerate(r.lst(texts, f"{where}.units.{power}")):
            unit: tuple[int, int] | None = units_of.get(text) if isinstance(text, str) else None
            if unit is None:
                at = f"{where}.units.{power}[{i}]"
                if isinstance(text, str) and text.startswith("*"):
                    r.unit(text[1:], at)
                    continue
                unit = r.unit(text, at)
            utype, code = unit
            if root[code] in provinces:
                at = f"{where}.units.{power}[{i}]"
                r.fail(at, f"a second unit in {LOCS[root[code] - 1]}")
            provinces.add(root[code])
            state.units[code] = (power, utype)
            state.influence[code] = power
    centers_of = _centers()
    for power, texts in centers.items():
        r.power(power, f"{where}.centers")
        for i, text in enumerate(r.lst(texts, f"{where}.centers.{power}")):
            center = centers_of.get(text) if isinstance(text, str) else None
            if center is None or center in state.centers:
                at = f"{where}.centers.{power}[{i}]"
                center = r.loc(text, at)
                if center not in b.centers or root[center] != center:
                    r.fail(at, f"{text!r} is not a supply centre")
                r.fail(at, f"{text} is owned twice")
            state.centers[center] = power


@lru_cache(maxsize=1)
def _units_by_power() -> dict[str, dict[str, tuple[int, tuple[str, int], int]]]:
    """Per power, every unit it may have on a board by its text (``A PAR``, ``F STP/SC``):
    its location, the board's ``(power, type)`` (made once) and its province."""
    root = board().root
    return {
        power: {
            text: (code, (power, utype), root[code]) for text, (utype, code) in _units().items()
        }
        for power in POWERS
    }


def _read_state(r: _Reader, doc: Any, where: str, name: PhaseName) -> State:
    doc = r.obj(doc, where)
    own = r.phase(doc.get("name"), f"{where}.name")
    if own != name:
        r.fail(f"{where}.name", f"{own} contradicts the phase's name {name}")
    state = State(name)
    units = r.obj(doc.get("units", {}), f"{where}.units")
    centers = r.obj(doc.get("centers", {}), f"{where}.centers")
    if not _read_board_quickly(state, units, centers):
        state = State(name)
        _read_board(r, state, units, centers, where)
    b = board()
    if name.kind == "R":
        retreats = r.obj(doc.get("retreats", {}), f"{where}.retreats")
        for power, units in retreats.items():
            r.power(power, f"{where}.retreats")
            for unit_text, dests in r.obj(units, f"{where}.retreats.{power}").items():
                at = f"{where}.retreats.{power}.{unit_text}"
                utype, code = r.unit(unit_text, at)
                options: list[int] = []
                for i, dest in enumerate(r.lst(dests, at)):
                    d = r.loc(dest, f"{at}[{i}]")
                    if d not in b.adjacent[utype][code]:
                        r.fail(f"{at}[{i}]", f"{unit_text} cannot retreat to {dest}")
                    options.append(d)
                state.dislodged[(power, utype, code)] = tuple(sorted(set(options)))
    return state


@lru_cache(maxsize=1)
def _units() -> dict[str, tuple[int, int]]:
    """Every unit a board may hold, by its text (``A PAR``, ``F STP/SC``): (type, location)."""
    b = board()
    return {
        f"{'AF'[utype - 1]} {loc}": (utype, code)
        for utype in (1, 2)
        for code, loc in enumerate(LOCS, start=1)
        if b.adjacent[utype][code]
    }


@lru_cache(maxsize=1)
def _centers() -> dict[str, int]:
    """Every supply centre by its name."""
    b = board()
    return {LOCS[code - 1]: code for code in b.centers if b.root[code] == code}


def _read_orders(r: _Reader, doc: Any, where: str) -> dict[str, list[DipccOrder]]:
    out: dict[str, list[DipccOrder]] = {}
    for power, orders in r.obj(doc, where).items():
        r.power(power, where)
        if orders is None:  # dipcc reads a null list as empty
            continue
        given = r.lst(orders, f"{where}.{power}")
        try:
            out[power] = [parse_order(text) for text in given]
        except (TypeError, ValueError):  # name the order that is wrong
            out[power] = [r.order(text, f"{where}.{power}[{i}]") for i, text in enumerate(given)]
    return out


def _read_messages(r: _Reader, doc: Any, where: str, phase: PhaseName) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for i, msg in enumerate(r.lst(doc, where)):
        at = f"{where}[{i}]"
        msg = r.obj(msg, at)
        time = msg.get("time_sent")
        if isinstance(time, bool) or not isinstance(time, int) or time < 0:
            r.fail(f"{at}.time_sent", f"expected a whole number >= 0, got {time!r}")
        if time in out:
            r.fail(f"{at}.time_sent", f"duplicate message timestamp {time} in {phase}")
        recipient = msg.get("recipient")
        if recipient != "ALL":
            r.power(recipient, f"{at}.recipient")
        said = r.phase(msg.get("phase"), f"{at}.phase")
        out[time] = {
            "sender": r.power(msg.get("sender"), f"{at}.sender"),
            "recipient": recipient,
            "phase": str(said),
            "message": r.text(msg.get("message"), f"{at}.message"),
            "time_sent": time,
        }
    return out


def record_from_json(text: str) -> GameRecord:
    """Read dipcc's JSON text into a new game record, or raise :class:`DipccJsonError`."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise TypeError(f"from_json takes a str, got {type(text).__name__}")
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise DipccJsonError(f"dipcc JSON: not JSON: {exc}") from None
    r = _Reader()
    doc = r.obj(doc, "document")
    game = GameRecord(state=State(PhaseName("S", 1901, "M")))
    game_id = doc.get("id")
    if game_id is None:
        game_id = doc.get("game_id")
    game.game_id = gen_game_id() if game_id is None else r.text(game_id, "id")
    scoring = doc.get("scoring_system")
    if scoring is not None:
        if isinstance(scoring, str):
            if scoring not in SCORING_STRINGS:
                r.fail("scoring_system", f"invalid scoring_system string: {scoring}")
            game.scoring = SCORING_STRINGS.index(scoring)
        elif isinstance(scoring, int) and not isinstance(scoring, bool) and scoring in (0, 1):
            game.scoring = scoring
        else:
            r.fail(
                "scoring_system", f"expected 'sum_of_squares', 'draw_size', 0 or 1, got {scoring!r}"
            )
    if doc.get("map") is not None:
        game.map_name = r.text(doc["map"], "map")
    if doc.get("is_full_press") is not None:
        if not isinstance(doc["is_full_press"], bool):
            r.fail("is_full_press", f"expected a boolean, got {_kind(doc['is_full_press'])}")
        game.is_full_press = doc["is_full_press"]

    states: dict[PhaseName, State] = {}
    orders: dict[PhaseName, dict[str, list[DipccOrder]]] = {}
    messages: dict[PhaseName, dict[int, dict[str, Any]]] = {}
    logs: dict[PhaseName, list[str]] = {}

    def add(name: PhaseName, state: State, where: str) -> None:
        # dipcc keeps the last entry of a phase named twice (its crash dumps write the phase
        # being processed twice); a repeat is taken only when it shows the same board.
        old = states.get(name)
        if old is not None and (
            old.units != state.units
            or old.centers != state.centers
            or old.dislodged != state.dislodged
        ):
            r.fail(where, f"phase {name} appears twice with different boards")
        states[name] = state

    if "phases" in doc:
        for i, entry in enumerate(r.lst(doc["phases"], "phases")):
            at = f"phases[{i}]"
            entry = r.obj(entry, at)
            name = r.phase(entry.get("name"), f"{at}.name")
            add(name, _read_state(r, entry.get("state"), f"{at}.state", name), f"{at}.name")
            orders[name] = _read_orders(r, entry.get("orders", {}), f"{at}.orders")
            if "messages" in entry:
                messages[name] = _read_messages(r, entry["messages"], f"{at}.messages", name)
            if entry.get("logs"):
                logs[name] = [
                    r.text(x, f"{at}.logs[{k}]")
                    for k, x in enumerate(r.lst(entry["logs"], f"{at}.logs"))
                ]
    elif "state_history" in doc:
        history = r.obj(doc["state_history"], "state_history")
        order_history = r.obj(doc.get("order_history", {}), "order_history")
        message_history = r.obj(doc.get("message_history", {}), "message_history")
        for key, value in history.items():
            name = r.phase(key, f"state_history.{key}")
            add(name, _read_state(r, value, f"state_history.{key}", name), f"state_history.{key}")
            orders[name] = _read_orders(r, order_history.get(key, {}), f"order_history.{key}")
            if key in message_history:
                messages[name] = _read_messages(
                    r, message_history[key], f"message_history.{key}", name
                )
    else:
        r.fail("document", "no 'phases' (nor 'state_history'): a game needs at least one phase")
    if not states:
        r.fail("phases", "empty: a game needs at least one phase")
    ordered = sorted(states, key=lambda p: p.key)
    if any(p.kind == "C" for p in ordered[:-1]):
        r.fail("phases", "COMPLETED must be the last phase")
    current = ordered[-1]
    game.state = states.pop(current)
    game.history = states
    game.staged = orders.pop(current, {})
    game.order_history = {p: orders.get(p, {}) for p in states}
    game.messages = messages
    game.logs = logs
    metadata = doc.get("metadata")
    if metadata is not None:
        for key, value in r.obj(metadata, "metadata").items():
            game.metadata[key] = r.text(value, f"metadata.{key}")
    return game


def read_state(text: str | dict[str, Any]) -> State:
    """One phase's ``state`` object of dipcc's JSON (text or parsed), checked as
    :func:`record_from_json` checks it."""
    r = _Reader()
    if isinstance(text, (str, bytes, bytearray)):
        try:
            doc = json.loads(text)
        except ValueError as exc:
            raise DipccJsonError(f"dipcc JSON: not JSON: {exc}") from None
    else:
        doc = text
    doc = r.obj(doc, "state")
    return _read_state(r, doc, "state", r.phase(doc.get("name"), "state.name"))
