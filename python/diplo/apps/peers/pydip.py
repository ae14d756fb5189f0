"""pydip 0.1.8 (PyPI ``pydip``) behind the JSON contract, in process.

pydip names territories by their full names: an army stands on the land territory
(``Spain``), a fleet on a coast (``Brest Coast``, ``Spain North Coast``) or a sea. It asserts
(``AssertionError``) when a command is not one its rules allow: the adapter reports such an
order as illegal, with pydip's refusal. Rulings come from ``resolve_turn`` (the board after and
the retreat options), ``resolve_retreats`` and ``calculate_adjustments`` /
``resolve_adjustment``; the success of each order is pydip's own resolution of it
(``pydip.turn.resolve.resolution_map``, which ``resolve_turn`` fills and returns no other way).

Not expressible in pydip: another map or rule options; two orders for one unit (pydip keeps
one command per unit and no ruling for the other).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from ...model.map import Map, standard_map
from ...model.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    OrderParseError,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
    format_order,
    order_unit,
    parse_order,
)
from ...model.position import Position
from .common import Ruling, Unsupported, following_phase, grouped, read_document, result_entry

INSTALL = "pip install '.[peers]' in diplo's checkout (or pip install pydip==0.1.8)"

# diplo's province names that pydip spells otherwise; BUL/EC is pydip's "North Coast".
_NAMES = {
    "EAS": "Eastern Mediterranean Sea",
    "HEL": "Helgoland Bight",
    "STP": "St. Petersburg",
    "WES": "Western Mediterranean Sea",
}
_COASTS = {"NC": "North Coast", "SC": "South Coast", "EC": "North Coast"}


def _refusal(exc: Exception) -> str:
    if isinstance(exc, AssertionError):
        return f"pydip refuses it{': ' + str(exc) if str(exc) else ' (an assertion of its rules)'}"
    return f"pydip cannot take it: {exc}"


def available() -> str | None:
    """``None`` when pydip can be imported, else why not and how to install it."""
    try:
        importlib.import_module("pydip.turn.resolve")
    except ImportError:
        return f"pydip is not installed ({INSTALL})"
    return None


class PydipAdapter:
    """One contract document at a time through pydip."""

    name = "pydip"

    def __init__(self, game_map: Map | None = None) -> None:
        self.map = game_map or standard_map()
        from pydip.map.predefined import vanilla_dip
        from pydip.player import helpers
        from pydip.player.command import adjustment_command, command, retreat_command
        from pydip.player.player import Player
        from pydip.player.unit import Unit, UnitTypes
        from pydip.turn import adjustment, resolve, retreat

        self._vanilla = vanilla_dip
        self._helpers = helpers
        self._cmd = command
        self._rcmd = retreat_command
        self._acmd = adjustment_command
        self._Player = Player
        self._Unit = Unit
        self._types = {"A": UnitTypes.TROOP, "F": UnitTypes.FLEET}
        self._letters = {UnitTypes.TROOP: "A", UnitTypes.FLEET: "F"}
        self._resolve = resolve
        self._retreat = retreat
        self._adjustment = adjustment
        self._game_map = vanilla_dip.generate_map()
        self._supply = vanilla_dip.generate_supply_center_map()
        self._homes = {
            p.upper(): set(v) for p, v in vanilla_dip.generate_home_territories().items()
        }
        self._land: dict[str, str] = {}  # province -> pydip land or sea name
        self._loc: dict[str, str] = {}  # pydip name -> diplo location (fleets on coasts)
        for prov, info in self.map.provinces.items():
            name = _NAMES.get(prov, info.name)
            if name not in self._game_map.name_map:
                raise RuntimeError(f"pydip has no territory named {name!r} ({prov})")
            self._land[prov] = name
            self._loc[name] = prov
            if info.kind == "coast":
                if info.coasts:
                    for coast in info.coasts:
                        self._loc[f"{name} {_COASTS[coast]}"] = f"{prov}/{coast}"
                else:
                    self._loc[f"{name} Coast"] = prov
        self._prov_of = {name: self.map.province_of(loc) for name, loc in self._loc.items()}

    # ------------------------------------------------------------------ names

    def _where(self, unit_type: str, loc: str) -> str:
        """pydip's territory for a unit of ``unit_type`` at diplo's location ``loc``."""
        prov = self.map.province_of(loc)
        name = self._land[prov]
        if unit_type == "A" or self.map.provinces[prov].kind != "coast":
            return name
        if "/" in loc:
            return f"{name} {_COASTS[loc.split('/')[1]]}"
        if self.map.provinces[prov].coasts:
            return name  # a fleet named without its coast: pydip finds no such fleet
        return f"{name} Coast"

    def _unit_text(self, unit: Any) -> str:
        return f"{self._letters[unit.unit_type]} {self._loc[unit.position]}"

    # ------------------------------------------------------------------ the phase

    def adjudicate(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        position, orders = read_document(doc, self.map)
        kind = position.phase.kind
        if kind == "M":
            return self._movement(position, orders).to_json()
        if kind == "R":
            return self._retreats(position, orders).to_json()
        return self._adjustments(position, orders).to_json()

    def _players(self, position: Position, with_dislodged: bool = False) -> dict[str, Any]:
        players = {}
        for power in self.map.powers:
            config = [
                {"territory_name": self._where(p.type, p.loc), "unit_type": self._types[p.type]}
                for p in position.units_of(power)
            ]
            if with_dislodged:
                config += [
                    {
                        "territory_name": self._where(d.piece.type, d.piece.loc),
                        "unit_type": self._types[d.piece.type],
                    }
                    for d in position.dislodged.values()
                    if d.piece.power == power
                ]
            players[power] = self._Player(power, self._game_map, config)
        return players

    def _board_unit(self, players: Mapping[str, Any], prov: str) -> Any | None:
        for player in players.values():
            for unit in player.units:
                if self._prov_of[unit.position] == prov:
                    return unit
        return None

    def _parse(self, text: str) -> Order:
        return parse_order(text, self.map)

    def _command(self, players: Mapping[str, Any], power: str, order: Order) -> Any:
        """pydip's command for ``order`` (an ``AssertionError`` when pydip refuses it)."""
        cmd = self._cmd
        unit = order_unit(order)
        if unit is None:
            raise AssertionError("the order names no unit")
        board = self._board_unit(players, self.map.province_of(unit.loc))
        if board is None:
            raise AssertionError(f"no unit in {unit.loc}")
        letter = unit.type or self._letters[board.unit_type]
        mine = self._Unit(self._types[letter], self._where(letter, unit.loc))
        player = players[power]
        if isinstance(order, Hold):
            return cmd.HoldCommand(player, mine)
        if isinstance(order, Move):
            dest = self._where(letter, order.dest)
            territory = self._game_map.name_map[dest]
            direct = self._helpers.unit_can_enter(self._game_map, mine, territory)
            if (order.via or not direct) and letter == "A":
                return cmd.ConvoyMoveCommand(player, mine, dest)
            return cmd.MoveCommand(player, mine, dest)
        if isinstance(order, SupportHold | SupportMove | Convoy):
            target = order.supported if not isinstance(order, Convoy) else order.army
            other = self._board_unit(players, self.map.province_of(target.loc))
            if other is None:
                raise AssertionError(f"no unit in {target.loc} to support or convoy")
            if isinstance(order, SupportHold):
                return cmd.SupportCommand(player, mine, other, other.position)
            letter = self._letters[other.unit_type]
            dest = self._where(letter, order.dest)
            dest_prov = self.map.province_of(order.dest)
            if letter == "F" and "/" not in order.dest and self.map.provinces[dest_prov].coasts:
                # A fleet's move supported to a split-coast province named without its coast:
                # pydip needs a coast; any coast the fleet can enter stands for the province.
                for coast in self._game_map.name_map[dest].coasts:
                    if self._helpers.unit_can_enter(self._game_map, other, coast):
                        dest = coast.name
                        break
            if isinstance(order, Convoy):
                return cmd.ConvoyTransportCommand(player, mine, other, dest)
            return cmd.SupportCommand(player, mine, other, dest)
        raise AssertionError(f"{format_order(order)} is not a movement-phase order")

    def _movement(self, position: Position, orders: list[tuple[str, str]]) -> Ruling:
        players = self._players(position)
        commands: list[Any] = []
        entries: list[tuple[str, str, Any, str | None, str]] = []  # power, text, cmd, unit, why
        ordered: set[str] = set()
        for power, text in orders:
            unit_text: str | None = None
            try:
                order = self._parse(text)
                unit = order_unit(order)
                unit_text = None if unit is None else str(unit)
                command = self._command(players, power, order)
            except (OrderParseError, AssertionError, KeyError, ValueError) as exc:
                entries.append((power, text, None, unit_text, _refusal(exc)))
                continue
            where = command.unit.position
            if where in ordered:
                raise Unsupported("two orders for one unit: pydip keeps one command per unit")
            ordered.add(where)
            commands.append(command)
            entries.append((power, text, command, unit_text, ""))
        for player in players.values():
            for unit in player.units:
                if unit.position not in ordered:
                    commands.append(self._cmd.HoldCommand(player, unit))
        after = self._resolve.resolve_turn(self._game_map, commands)
        resolution = self._resolve.resolution_map  # pydip's ruling on each command
        counted = self._counted(commands)
        dislodged: dict[str, dict[str, list[str]]] = {p: {} for p in self.map.powers}
        units: list[tuple[str, str]] = []
        for power, result in after.items():
            for unit, options in result.items():
                if options is None:
                    units.append((power, self._unit_text(unit)))
                else:
                    dislodged[power][self._unit_text(unit)] = sorted(self._loc[o] for o in options)
        gone = {u for v in dislodged.values() for u in v}
        results = []
        for power, text, command, unit_text, why in entries:
            if command is None:
                results.append(result_entry(power, unit_text, text, False, False, "illegal", why))
                continue
            here = self._unit_text(command.unit)
            is_move = isinstance(command, self._cmd.ConvoyMoveCommand) or (
                isinstance(command, self._cmd.MoveCommand)
                and not isinstance(command, self._cmd.HoldCommand)
            )
            if is_move:
                ok = bool(resolution[command.unit.position])
            elif isinstance(command, self._cmd.SupportCommand | self._cmd.ConvoyTransportCommand):
                ok = bool(resolution[command.unit.position]) and here not in gone
                if not any(command is c for c in counted):
                    ok = False  # pydip counts it for no order given: void
            else:
                ok = here not in gone
            code = "ok" if ok else ("dislodged" if here in gone else "bounce")
            results.append(result_entry(power, here, text, True, ok, code, f"pydip: {code}"))
        retreats = any(opts for v in dislodged.values() for opts in v.values())
        centers = self._owned(position)
        nxt_units = grouped(self.map, units)
        adjust = False
        if position.phase.season == "F" and not retreats:
            centers, adjust = self._fall_ownership(position, nxt_units)
        return Ruling(
            position.phase,
            results,
            {p: v for p, v in dislodged.items()},
            following_phase(position.phase, retreats, adjust),
            nxt_units,
            centers,
        )

    def _counted(self, commands: list[Any]) -> list[Any]:
        """The supports and convoys pydip counts for some order: those its ``CommandMap`` files
        under a command's own (source, destination), as its adjudication looks them up."""
        from pydip.turn.command_map import CommandMap

        table = CommandMap(self._game_map, commands)
        out: list[Any] = []
        for c in commands:
            if isinstance(c, self._cmd.ConvoyMoveCommand):
                out += table.get_convoy_transports(c.unit.position, c.destination)
                out += table.get_supports(c.unit.position, c.destination)
            elif isinstance(c, self._cmd.MoveCommand):
                out += table.get_supports(c.unit.position, c.destination)
            else:
                out += table.get_supports(c.unit.position, c.unit.position)
        return out

    def _owned(self, position: Position) -> dict[str, list[str]]:
        return {p: sorted(position.centers_of(p)) for p in self.map.powers}

    def _ownership(self, centers: Mapping[str, list[str]]) -> Any:
        from pydip.map.map import OwnershipMap

        owned = {p: {self._land[c] for c in centers.get(p, [])} for p in self.map.powers}
        return OwnershipMap(self._supply, owned, {p: set(self._homes[p]) for p in owned})

    def _pydip_units(self, units: Mapping[str, list[str]]) -> dict[str, set[Any]]:
        out: dict[str, set[Any]] = {}
        for power in self.map.powers:
            out[power] = set()
            for text in units.get(power, []):
                letter, loc = text.split(" ", 1)
                out[power].add(self._Unit(self._types[letter], self._where(letter, loc)))
        return out

    def _fall_ownership(
        self, position: Position, units: Mapping[str, list[str]]
    ) -> tuple[dict[str, list[str]], bool]:
        """pydip's centre owners after the Fall turn and whether anyone builds or disbands."""
        ownership, counts = self._adjustment.calculate_adjustments(
            self._ownership(self._owned(position)), self._pydip_units(units)
        )
        centers = {
            p: sorted(self._prov_of[t] for t in ownership.owned_territories[p])
            for p in self.map.powers
        }
        return centers, any(counts.values())

    def _retreats(self, position: Position, orders: list[tuple[str, str]]) -> Ruling:
        players = self._players(position, with_dislodged=True)
        retreat_map: dict[str, dict[Any, Any]] = {p: {} for p in self.map.powers}
        for power in self.map.powers:
            for piece in position.units_of(power):
                u = self._Unit(self._types[piece.type], self._where(piece.type, piece.loc))
                retreat_map[power][u] = None
        for d in position.dislodged.values():
            u = self._Unit(self._types[d.piece.type], self._where(d.piece.type, d.piece.loc))
            retreat_map[d.piece.power][u] = {self._where(d.piece.type, o) for o in d.options}
        commands: list[Any] = []
        entries: list[tuple[str, str, Any, str | None, str]] = []
        ordered: set[Any] = set()
        for power, text in orders:
            unit_text: str | None = None
            try:
                order = self._parse(text)
                unit = order_unit(order)
                unit_text = None if unit is None else str(unit)
                if unit is None or unit.type is None:
                    raise AssertionError("the order names no unit")
                mine = self._Unit(self._types[unit.type], self._where(unit.type, unit.loc))
                if isinstance(order, Retreat | Move):  # a move in a retreat phase retreats
                    dest = self._where(unit.type, order.dest)
                    command = self._rcmd.RetreatMoveCommand(retreat_map, players[power], mine, dest)
                elif isinstance(order, Disband):
                    command = self._rcmd.RetreatDisbandCommand(retreat_map, players[power], mine)
                else:
                    raise AssertionError("not a retreat-phase order")
            except (OrderParseError, AssertionError, KeyError, ValueError) as exc:
                entries.append((power, text, None, unit_text, _refusal(exc)))
                continue
            if mine in ordered:
                raise Unsupported("two orders for one unit: pydip keeps one command per unit")
            ordered.add(mine)
            commands.append(command)
            entries.append((power, text, command, unit_text, ""))
        for power, units in retreat_map.items():
            for u, options in units.items():
                if options is not None and u not in ordered:
                    commands.append(
                        self._rcmd.RetreatDisbandCommand(retreat_map, players[power], u)
                    )
        after = self._retreat.resolve_retreats(retreat_map, commands)
        final = {(p, self._unit_text(u)) for p, us in after.items() for u in us}
        results = []
        for power, text, command, unit_text, why in entries:
            if command is None:
                results.append(result_entry(power, unit_text, text, False, False, "illegal", why))
                continue
            if isinstance(command, self._rcmd.RetreatMoveCommand):
                there = f"{self._letters[command.unit.unit_type]} {self._loc[command.destination]}"
                ok = (power, there) in final
            else:
                ok = True
            code = "ok" if ok else "bounce"
            results.append(result_entry(power, unit_text, text, True, ok, code, f"pydip: {code}"))
        units = grouped(self.map, final)
        centers = self._owned(position)
        adjust = False
        if position.phase.season == "F":
            centers, adjust = self._fall_ownership(position, units)
        return Ruling(
            position.phase,
            results,
            {p: {} for p in self.map.powers},
            following_phase(position.phase, False, adjust),
            units,
            centers,
        )

    def _adjustments(self, position: Position, orders: list[tuple[str, str]]) -> Ruling:
        players = self._players(position)
        centers = self._owned(position)
        ownership = self._ownership(centers)
        current = {p: set(pl.units) for p, pl in players.items()}
        # The owners are the document's (the Fall turn set them); pydip's count of builds (+)
        # or disbands (-) is its calculate_adjustments' own: centres owned less units.
        counts = {p: len(ownership.owned_territories[p]) - len(current[p]) for p in self.map.powers}
        commands: list[Any] = []
        entries: list[tuple[str, str, Any, str | None, str]] = []
        for power, text in orders:
            unit_text: str | None = None
            try:
                order = self._parse(text)
                if isinstance(order, Waive):
                    entries.append((power, text, "waive", None, ""))
                    continue
                unit = order_unit(order)
                unit_text = None if unit is None else str(unit)
                if unit is None or unit.type is None:
                    raise AssertionError("the order names no unit")
                mine = self._Unit(self._types[unit.type], self._where(unit.type, unit.loc))
                if isinstance(order, Build):
                    command = self._acmd.AdjustmentCreateCommand(ownership, players[power], mine)
                elif isinstance(order, Disband):
                    command = self._acmd.AdjustmentDisbandCommand(players[power], mine)
                else:
                    raise AssertionError("not an adjustment-phase order")
            except (OrderParseError, AssertionError, KeyError, ValueError) as exc:
                entries.append((power, text, None, unit_text, _refusal(exc)))
                continue
            commands.append(command)
            entries.append((power, text, command, unit_text, ""))
        after = self._adjustment.resolve_adjustment(ownership, counts, current, commands)
        final = {(p, self._unit_text(u)) for p, us in after.items() for u in us}
        results = []
        for power, text, command, unit_text, why in entries:
            if command is None:
                results.append(result_entry(power, unit_text, text, False, False, "illegal", why))
                continue
            if command == "waive":
                results.append(result_entry(power, None, text, True, True, "ok", "pydip: waive"))
                continue
            there = (power, self._unit_text(command.unit))
            built = isinstance(command, self._acmd.AdjustmentCreateCommand)
            ok = (there in final) if built else (there not in final)
            code = "ok" if ok else "void"
            results.append(result_entry(power, unit_text, text, True, ok, code, f"pydip: {code}"))
        return Ruling(
            position.phase,
            results,
            {p: {} for p in self.map.powers},
            following_phase(position.phase, False, False),
            grouped(self.map, final),
            {
                p: sorted(self._prov_of[t] for t in ownership.owned_territories[p])
                for p in self.map.powers
            },
        )
