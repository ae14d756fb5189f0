"""What one picture shows: the board at the start of a phase, and the ruling of that phase.

A frame is built from whatever the caller has: a :class:`~diplo.model.position.Position`, a
processed phase (:class:`~diplo.model.results.PhaseOutcome`), a game, or one of the JSON documents
(a position or input document, a contract output, a game file).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..api.game import Game
from ..formats.contract import DocumentError, adjudicate_document
from ..model.map import Map, MapError, map_named
from ..model.orders import Build, Disband, OrderParseError, Retreat, parse_order
from ..model.position import Dislodged, Phase, Piece, Position, PositionError, parse_piece
from ..model.results import PhaseOutcome
from ..model.wording import power_name
from .svg import RESULT_CODES, board_svg, phase_name

__all__ = ["Frame", "RenderError", "frame_of_outcome", "frames_from_document", "frames_of_game"]


class RenderError(ValueError):
    """Input that cannot be drawn; the message says what is wrong."""


@dataclass(frozen=True)
class Frame:
    """The board at the start of a phase, with the results of its orders (JSON contract entries)
    and the units the phase dislodged. A frame without results shows the position alone.

    ``centers_after`` are the supply centres after the phase (province to owner): a ruling's
    picture draws those, whatever it was made from (an input document, an output document, a
    game), so one phase always shows the same centres, and says so."""

    position: Position
    results: tuple[Mapping[str, Any], ...] = ()
    dislodged: Mapping[str, Dislodged] = field(default_factory=dict)
    note: str | None = None  # e.g. "Game over: FRANCE wins"
    centers_after: Mapping[str, str] | None = None

    @property
    def phase(self) -> Phase:
        return self.position.phase

    @property
    def title(self) -> str:
        name = phase_name(self.phase, self.position.map.calendar.names)
        return f"{name} ({self.note})" if self.note else name

    def svg(self, id_prefix: str = "") -> str:
        return board_svg(
            self.position,
            self.results,
            self.dislodged,
            title=self.title,
            id_prefix=id_prefix,
            centers_after=self.centers_after if self.results else None,
        )


# --------------------------------------------------------------------------- from objects


def frames_of_game(game: Game) -> list[Frame]:
    """One frame per processed phase, then the board the game stands at now."""
    frames = [
        Frame(
            r.position,
            tuple(x.to_json() for x in r.outcome.results),
            r.outcome.dislodged,
            centers_after=r.outcome.next.centers,
        )
        for r in game.history
    ]
    note = None
    if game.is_over:
        if game.winner:
            note = f"game over: {power_name(game.winner)} wins"
        elif game.draw and game.survivors_played:
            # The players still standing (no neutral power nor one nobody plays).
            among = ", ".join(power_name(p) for p in game.survivors_played)
            note = f"game over: draw among {among}"
        else:
            note = "game over"
    last = game.history[-1].outcome.next if game.history else game.position
    frames.append(Frame(last if game.is_over else game.position, note=note))
    return frames


def frame_of_outcome(outcome: PhaseOutcome) -> Frame:
    """The frame of a processed phase, its starting board rebuilt from the ruling."""
    doc = outcome.to_json()
    return _frame_of_output(doc, outcome.next.map)


# --------------------------------------------------------------------------- from documents


def frames_from_document(
    doc: Any, maps: Mapping[str, Map] | None = None, *, verify: bool = True
) -> list[Frame]:
    """Frames for a JSON document of any kind diplo reads.

    - a game file (``"format": "diplo-game"``): one frame per phase and the final board (with
      ``verify=False`` its rulings are taken as the file has them, not replayed);
    - a MILA saved game (``{"id", "map", "phases": [...]}``): the same, replayed by
      :func:`diplo.formats.mila.game_from_mila` so that every phase is the board the save
      records (under the map's rules, or under MILA's ruling where only that reproduces the
      save; a save that neither reproduces is refused, naming the phase);
    - a contract output (has ``results``): the phase it ruled on, its board rebuilt from the
      results and the next position;
    - a position or input document: the position; with ``orders`` the phase is adjudicated and
      the picture shows the ruling.
    """
    if not isinstance(doc, Mapping):
        raise RenderError("the document must be a JSON object")
    _check_text(doc)
    if doc.get("format") == "diplo-game":
        from ..formats.gamefile import GameFileError, from_json

        try:
            game = from_json(doc, maps=maps, verify=verify)
        except GameFileError as exc:
            raise RenderError(f"bad game file: {exc}") from exc
        return frames_of_game(game)
    if "format" not in doc and isinstance(doc.get("phases"), list):
        return frames_of_game(_mila_game(doc, maps))
    game_map = _map(doc, maps)
    if "results" in doc:
        return [_frame_of_output(doc, game_map)]
    try:
        position = Position.from_json(doc, game_map)
    except PositionError as exc:
        raise RenderError(f"bad position: {exc}") from exc
    if not doc.get("orders"):
        return [Frame(position)]
    try:
        out = adjudicate_document(doc, maps=maps)
    except DocumentError as exc:
        raise RenderError(f"bad document: {exc}") from exc
    try:
        after = Position.from_json(out["next"], game_map).centers
    except (PositionError, KeyError, TypeError) as exc:
        raise RenderError(f"bad document: its ruling gives no next position: {exc}") from exc
    return [
        Frame(
            position,
            tuple(out["results"]),
            _dislodged(out.get("dislodged"), game_map),
            centers_after=after,
        )
    ]


def _mila_game(doc: Mapping[str, Any], maps: Mapping[str, Map] | None) -> Game:
    """The game a MILA saved game records, replayed and checked phase by phase: under the map's
    rules first, then under MILA's own ruling (``Rules(edition="mila")``), which a save MILA
    ruled may need. Either way every phase drawn is the one the save holds."""
    from ..formats.mila import MilaError, game_from_mila
    from ..model.rules import Rules

    try:
        return game_from_mila(doc, maps=maps)
    except MilaError as first:
        try:
            game_map = map_named(doc.get("map", "standard"), maps)
            mila = Rules.parse("edition=mila", game_map.rules)
            return game_from_mila(doc, maps=maps, rules=mila)
        except (MilaError, MapError, ValueError):
            raise RenderError(
                f"a MILA saved game that diplo does not replay as recorded, under the map's "
                f"rules nor under MILA's: {_mila_reason(first)}"
            ) from first


def _mila_reason(exc: Exception) -> str:
    """The problem a :class:`MilaError` names, without its advice to Python callers."""
    text = str(exc)
    cut = text.find(" (game_from_mila(")
    return text[:cut] if cut >= 0 else text


def _check_text(doc: Any) -> None:
    """Every string of ``doc`` (keys too) is Unicode text: JSON may spell a lone surrogate
    (``"\\ud800"``), which no page or picture can hold. One pass, no recursion."""
    stack: list[tuple[Any, str]] = [(doc, "")]
    while stack:
        value, where = stack.pop()
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise RenderError(
                    f"{where or 'the document'}: not Unicode text (a lone surrogate)"
                ) from None
        elif isinstance(value, Mapping):
            for key, item in value.items():
                stack.append((key, f"{where}.{key!r}" if where else repr(key)))
                stack.append((item, f"{where}.{key}" if where else str(key)))
        elif isinstance(value, list):
            stack.extend((item, f"{where}[{i}]") for i, item in enumerate(value))


def _map(doc: Mapping[str, Any], maps: Mapping[str, Map] | None) -> Map:
    try:
        return map_named(doc.get("map", "standard"), maps)
    except MapError as exc:
        raise RenderError(str(exc)) from exc


def _dislodged(raw: Any, game_map: Map) -> dict[str, Dislodged]:
    out: dict[str, Dislodged] = {}
    if not raw:
        return out
    if not isinstance(raw, Mapping):
        raise RenderError("'dislodged' must be an object keyed by power")
    for power, units in raw.items():
        if not isinstance(units, Mapping):
            raise RenderError(f"dislodged.{power} must map units to retreat lists")
        for text, options in units.items():
            if not isinstance(options, list):
                raise RenderError(f"dislodged.{power}.{text} must be a list of provinces")
            try:
                piece = parse_piece(str(power), text, game_map)
                locs = tuple(game_map.lookup(o) for o in options)
            except (PositionError, MapError, TypeError) as exc:
                raise RenderError(f"dislodged.{power}: {exc}") from exc
            out[piece.province] = Dislodged(piece, locs)
    return out


def _frame_of_output(doc: Mapping[str, Any], game_map: Map) -> Frame:
    """Rebuild the board a contract output ruled on: its results name every unit that had an
    order (every unit in a movement phase), the next position the rest."""
    try:
        phase = Phase.parse(str(doc.get("phase")))
    except PositionError as exc:
        raise RenderError(f"bad output document: {exc}") from exc
    results = doc.get("results")
    if not isinstance(results, list):
        raise RenderError("bad output document: 'results' must be a list of objects")
    for index, result in enumerate(results):
        _check_result(result, index, game_map)
    raw_next = doc.get("next")
    if not isinstance(raw_next, Mapping):
        raise RenderError("bad output document: 'next' is missing")
    nxt = dict(raw_next)
    if nxt.get("phase") is None:
        nxt["phase"] = str(phase)
    try:
        after = Position.from_json(nxt, game_map)
    except PositionError as exc:
        raise RenderError(f"bad output document: next: {exc}") from exc
    ordered: dict[str, Piece] = {}
    for r in results:
        if r.get("legal") is False:
            continue  # a refused order may name a unit that is not there (or not its power's)
        unit, power = r.get("unit"), r.get("power")
        if isinstance(unit, str) and isinstance(power, str):
            try:
                piece = parse_piece(power, unit, game_map)
            except PositionError:
                continue
            ordered.setdefault(piece.province, piece)
    units: dict[str, Piece] = {}
    dislodged_now: dict[str, Dislodged] = {}
    if phase.kind == "M":
        units = ordered
    elif phase.kind == "R":
        arrived = {_dest(r, game_map) for r in results if r.get("success")}
        units = {p: u for p, u in after.units.items() if p not in arrived}
        dislodged_now = {
            p: Dislodged(u, _options(results, u, game_map)) for p, u in ordered.items()
        }
    else:
        built = {_dest(r, game_map) for r in results if r.get("success")}
        units = {p: u for p, u in after.units.items() if p not in built}
        for r in results:
            text = r.get("order")
            if r.get("success") and isinstance(text, str) and text.endswith(" D"):
                gone = ordered.get(_province(text, game_map) or "")
                if gone is not None:
                    units[gone.province] = gone
    centers = dict(after.centers)
    try:
        before = Position(game_map, phase, units, centers, dislodged_now)
    except PositionError as exc:
        raise RenderError(f"bad output document: its results make no board: {exc}") from exc
    moved = _dislodged(doc.get("dislodged"), game_map) if phase.kind == "M" else {}
    return Frame(before, tuple(results), moved, centers_after=after.centers)


_RESULT_TYPES: dict[str, tuple[type, ...]] = {
    "unit": (str, type(None)),
    "order": (str,),
    "given": (bool,),
    "legal": (bool,),
    "success": (bool,),
    "reason": (str,),
    "dislodged_by": (str, type(None)),
}


def _check_result(result: Any, index: int, game_map: Map) -> None:
    """A stored result is drawn only when it is one diplo could have written: a power of the
    map, a known code, each field of its type (a stranger's document is never copied as it is)."""
    where = f"bad output document: results[{index}]"
    if not isinstance(result, Mapping):
        raise RenderError(f"{where} must be an object")
    power = result.get("power")
    if not isinstance(power, str) or power not in game_map.powers:
        raise RenderError(
            f"{where}.power must be one of the map's powers ({', '.join(game_map.powers)})"
        )
    code = result.get("code")
    if code is not None and (not isinstance(code, str) or code not in RESULT_CODES):
        raise RenderError(f"{where}.code must be one of {', '.join(sorted(RESULT_CODES))}")
    if not isinstance(result.get("order"), str):
        raise RenderError(f"{where}.order must be a string")
    for key, types in _RESULT_TYPES.items():
        if key in result and not isinstance(result[key], types):
            names = " or ".join("null" if t is type(None) else t.__name__ for t in types)
            raise RenderError(f"{where}.{key} must be {names}")


def _parsed(text: Any, game_map: Map) -> Any:
    if not isinstance(text, str):
        return None
    try:
        return parse_order(text, game_map)
    except (OrderParseError, ValueError):
        return None


def _dest(result: Mapping[str, Any], game_map: Map) -> str | None:
    order = _parsed(result.get("order"), game_map)
    if isinstance(order, Retreat):
        return game_map.province_of(order.dest)
    if isinstance(order, Build):
        return order.unit.province
    return None


def _province(text: str, game_map: Map) -> str | None:
    order = _parsed(text, game_map)
    return order.unit.province if isinstance(order, Disband) else None


def _options(results: Sequence[Mapping[str, Any]], piece: Piece, game_map: Map) -> tuple[str, ...]:
    """The retreat options a retreat phase offered are not in its output; show where it went."""
    for r in results:
        order = _parsed(r.get("order"), game_map)
        if isinstance(order, Retreat) and order.unit.province == piece.province:
            return (order.dest,)
    return ()
