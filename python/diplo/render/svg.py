"""One board picture as SVG text: provinces, centres, units, orders, failures, phase and counts.

Written as plain text (no drawing library). Every unit and order is a ``<g>`` carrying ``data-``
attributes (power, unit, order, code) so a program can read a picture back.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from html import escape as _html_escape
from typing import Any, get_args

from ..model.orders import (
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
    parse_order,
)
from ..model.outcome import Code
from ..model.position import Dislodged, Position
from ..model.wording import phase_words
from .geometry import (
    ASIDE,
    DOT,
    UNIT_R,
    Geometry,
    Label,
    geometry_for,
    place_labels,
)
from .paths import (
    HEAD_R,
)
from .paths import (
    along as _along,
)
from .paths import (
    bend as _bend,
)
from .paths import (
    clearing_control as _clearing_control,
)
from .paths import (
    curve as _curve,
)
from .paths import (
    head as _head,
)
from .paths import (
    line as _line,
)
from .paths import (
    number as _f,
)
from .paths import (
    point_at as _at,
)
from .paths import (
    points as _pts,
)
from .voronoi import Point

__all__ = ["POWER_COLOURS", "RESULT_CODES", "board_svg", "escape", "phase_name", "power_colour"]

#: Every code a result may carry (the JSON contract's); anything else is not drawn as a code.
RESULT_CODES: frozenset[str] = frozenset(get_args(Code))

# Characters XML 1.0 does not allow even escaped (C0 controls but tab and newlines, lone
# surrogates, U+FFFE/U+FFFF): they would make the picture ill-formed, so they become U+FFFD.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def escape(value: object) -> str:
    """``value`` as text safe inside an XML/HTML element or a quoted attribute: markup
    characters escaped, characters XML cannot hold replaced."""
    return _html_escape(_NOT_XML.sub("\ufffd", str(value)), quote=True)


POWER_COLOURS: dict[str, str] = {
    "AUSTRIA": "#d8433a",
    "ENGLAND": "#3b4fb8",
    "FRANCE": "#43b3e6",
    "GERMANY": "#505050",
    "ITALY": "#3a9a48",
    "RUSSIA": "#9a5bc4",
    "TURKEY": "#f0c020",
}
_SPARE = ("#e07b28", "#2aa198", "#c2185b", "#8d6e63", "#7cb342", "#5c6bc0", "#ffb300", "#00897b")

SEA = "#b9d9ee"
LAND = "#efe6cf"
VOID = "#cfc8b8"
INK = "#24303a"
FAIL = "#d0021b"
PANEL = 230.0
HEADER = 44.0


def power_colour(power: str, powers: Sequence[str]) -> str:
    """The colour of a power: the usual one on the standard board, a fixed spare one otherwise."""
    if power in POWER_COLOURS:
        return POWER_COLOURS[power]
    others = [p for p in powers if p not in POWER_COLOURS]
    index = others.index(power) if power in others else len(others)
    return _SPARE[index % len(_SPARE)]


def phase_name(phase: Any, seasons: tuple[str, str, str] | None = None) -> str:
    """``S1901M`` -> ``Spring 1901, movement`` (:func:`diplo.model.wording.phase_words`; in the
    map's names of its seasons when given, ``Map.calendar.names``)."""
    return phase_words(phase, seasons)


def _tint(colour: str, amount: float) -> str:
    """``colour`` mixed with white (amount 0 = colour, 1 = white)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    mix = [round(c + (255 - c) * amount) for c in (r, g, b)]
    return "#" + "".join(f"{c:02x}" for c in mix)


def _ink_on(colour: str) -> str:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


@dataclass(frozen=True)
class _Drawn:
    """An order read back from a result, ready to draw."""

    power: str
    order: Order
    text: str
    code: str
    success: bool
    given: bool = True  # False: an order the rules gave (a civil-disorder disband, say)


def board_svg(
    position: Position,
    results: Sequence[Mapping[str, Any]] = (),
    dislodged: Mapping[str, Dislodged] | None = None,
    *,
    title: str | None = None,
    geometry: Geometry | None = None,
    id_prefix: str = "",
) -> str:
    """The board of ``position`` with the ``results`` of its phase (JSON contract entries).

    ``dislodged`` are the units dislodged by this (movement) phase, drawn with their retreat
    options; in a retreat phase the position's own dislodged units are drawn. Results that carry
    no code (orders not yet adjudicated) are drawn as plain orders. ``id_prefix`` keeps the
    ids of markers and patterns apart when several pictures share one HTML page.
    """
    game_map = position.map
    geo = geometry or geometry_for(game_map)
    powers = game_map.powers
    colour = {p: power_colour(p, powers) for p in powers}
    width = geo.width + PANEL
    height = geo.height + HEADER
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_f(width)} {_f(height)}" '
        f'width="{_f(width)}" height="{_f(height)}" font-family="DejaVu Sans, Verdana, sans-serif"'
        f' class="diplo-board" data-phase="{escape(position.phase)}" '
        f'data-map="{escape(game_map.name)}">',
        _defs(colour),
        f'<rect width="{_f(width)}" height="{_f(height)}" fill="#fbfaf6"/>',
        f'<text x="14" y="29" font-size="21" font-weight="bold" fill="{INK}" class="title">'
        f"{escape(title or phase_name(position.phase, position.map.calendar.names))}</text>",
        f'<g transform="translate(0,{_f(HEADER)})" class="map">',
    ]
    drawn = _orders(position, results, colour)
    dislodged_now = dict(position.dislodged)
    if dislodged:
        dislodged_now.update(dislodged)
    spots = _unit_spots(position, geo, drawn, dislodged_now)
    paths = _arrow_paths(position, geo, drawn, dislodged_now, spots)
    lines = _backing_lines(position, geo, drawn, dislodged_now, paths)
    # Names stay clear of the units, the arrows (their heads end where names like to sit) and
    # the lines of supports and convoys.
    heads = [_head(c, b) for _a, c, b in paths.values()]
    shafts = [p for a, c, b in paths.values() for p in _along(a, c, b, 6.0)]
    shafts += [p for a, b, _onto in lines.values() for p in _along(a, _bend(a, b), b, 6.0)]
    labels = place_labels(
        game_map,
        geo.anchors,
        geo.shapes,
        occupied=[(x - UNIT_R, y - UNIT_R, x + UNIT_R, y + UNIT_R) for _p, (x, y) in spots]
        + [(x - HEAD_R, y - HEAD_R, x + HEAD_R, y + HEAD_R) for x, y in heads]
        + [(x - 3, y - 3, x + 3, y + 3) for x, y in shafts],
        prefer=geo.labels,
    )
    out.append(_provinces(position, geo, colour, labels))
    out.append(_order_layer(position, geo, drawn, colour, dislodged_now, paths, lines))
    out.append(_unit_layer(position, geo, colour, drawn, dislodged_now))
    out.append(_failure_layer(position, geo, drawn, dislodged_now, paths))
    out.append("</g>")
    refused = [
        str(r.get("order")) for r in results if isinstance(r, Mapping) and r.get("legal") is False
    ]
    # The panel lists what this phase did: a retreat phase's units were dislodged before it.
    out.append(_panel(position, geo, colour, drawn, dict(dislodged or {}), refused))
    out.append("</svg>")
    text = "\n".join(s for s in out if s)
    if id_prefix:
        text = text.replace('id="', f'id="{id_prefix}').replace("url(#", f"url(#{id_prefix}")
    return text


# --------------------------------------------------------------------------- layers


def _defs(colour: Mapping[str, str]) -> str:
    parts = ["<defs>"]
    for k, c in enumerate(colour.values()):
        parts.append(
            f'<marker id="arrow-{k}" viewBox="0 0 10 10" refX="7" refY="5" '
            f'markerWidth="4.2" markerHeight="4.2" orient="auto-start-reverse">'
            f'<path d="M0,0 L10,5 L0,10 z" fill="{c}" stroke="{INK}" stroke-width="1"/></marker>'
        )
    parts.append(
        '<pattern id="hatch" width="7" height="7" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="7" height="7" fill="#d6cfbf"/>'
        '<line x1="0" y1="0" x2="0" y2="7" stroke="#bdb39f" stroke-width="2"/></pattern>'
    )
    parts.append("</defs>")
    return "".join(parts)


def _unit_spots(
    position: Position, geo: Geometry, drawn: Sequence[_Drawn], dislodged: Mapping[str, Dislodged]
) -> list[tuple[str, Point]]:
    """Where this picture's units stand (those in place, beside them, and built), with the
    province of each."""
    spots = [
        (prov, geo.anchors[piece.loc])
        for prov, piece in position.units.items()
        if prov not in dislodged or prov in position.dislodged
    ]
    spots += [
        (d.order.unit.province, geo.anchors[d.order.unit.loc])
        for d in drawn
        if isinstance(d.order, Build)
    ]
    for prov, gone in dislodged.items():
        x, y = geo.anchors[gone.piece.loc]
        spots.append((prov, (x + ASIDE[0], y + ASIDE[1])))
    return spots


def _provinces(
    position: Position, geo: Geometry, colour: Mapping[str, str], labels: Mapping[str, Label]
) -> str:
    game_map = position.map
    parts = ['<g class="provinces" stroke-linejoin="round">']
    if not geo.schematic:
        parts.append(f'<rect width="{_f(geo.width)}" height="{_f(geo.height)}" fill="{SEA}"/>')
    blocked = " ".join(f"M{_pts(poly)}Z" for poly in geo.impassable)
    if blocked:
        parts.append(f'<path class="impassable" d="{blocked}" fill="url(#hatch)"/>')
    for prov, polys in geo.shapes.items():
        kind = game_map.provinces[prov].kind
        owner = position.centers.get(prov)
        if kind == "sea":
            fill = SEA
        elif owner is not None:
            fill = _tint(colour[owner], 0.45)
        else:
            fill = LAND
        attrs = f'data-province="{escape(prov)}"' + (
            f' data-owner="{escape(owner)}"' if owner else ""
        )
        outline = " ".join(f"M{_pts(poly)}Z" for poly in polys)
        parts.append(
            f'<g class="province" {attrs} fill="{fill}" stroke="{fill}">'
            f'<path d="{outline}" stroke-width="0.8"/></g>'
        )
    style = {
        "sea": 'stroke="#8fb6d3" stroke-width="0.8"',
        "land": 'stroke="#8a7f68" stroke-width="1"',
        "coast": f'stroke="{INK}" stroke-width="1.6"',
    }
    for kind in ("sea", "land", "coast"):
        segments = [b for b in geo.borders if b.kind == kind]
        path = " ".join(f"M{_f(b.a[0])},{_f(b.a[1])}L{_f(b.b[0])},{_f(b.b[1])}" for b in segments)
        parts.append(
            f'<path class="borders-{kind}" d="{path}" fill="none" {style[kind]} '
            'stroke-linecap="round"/>'
        )
    parts.append("</g>")
    # Supply centres and names.
    parts.append('<g class="labels">')
    for prov in game_map.provinces:
        x, y = geo.anchors[prov]
        lx, ly, size = labels[prov]
        sea = game_map.provinces[prov].kind == "sea"
        fill = "#4a7393" if sea else INK
        style_extra = ' font-style="italic"' if sea else ""
        parts.append(
            f'<text class="label" data-province="{escape(prov)}" x="{_f(lx)}" '
            f'y="{_f(ly + 0.36 * size)}" font-size="{_f(size)}" text-anchor="middle" '
            f'fill="{fill}"{style_extra}>{escape(prov)}</text>'
        )
        if prov in game_map.ports:
            # A port (a coast whose fleets may convoy): a small sea-blue anchor ring.
            parts.append(
                f'<g class="port" data-province="{escape(prov)}"><title>port</title>'
                f'<circle cx="{_f(x - 15)}" cy="{_f(y - 12)}" r="3.6" fill="none" '
                f'stroke="#4a7393" stroke-width="1.6"/>'
                f'<path d="M{_f(x - 20)} {_f(y - 9)} Q{_f(x - 15)} {_f(y - 3)} {_f(x - 10)} '
                f'{_f(y - 9)}" fill="none" stroke="#4a7393" stroke-width="1.6"/></g>'
            )
        if prov in game_map.centers:
            owner = position.centers.get(prov)
            dot = colour[owner] if owner else "#ffffff"
            parts.append(
                f'<circle class="center" data-province="{escape(prov)}" cx="{_f(x + DOT[0])}" '
                f'cy="{_f(y + DOT[1])}" r="4.2" fill="{dot}" stroke="{INK}" stroke-width="1.3"/>'
            )
    parts.append("</g>")
    return "\n".join(parts)


def _orders(
    position: Position, results: Sequence[Mapping[str, Any]], colour: Mapping[str, str]
) -> list[_Drawn]:
    drawn: list[_Drawn] = []
    for r in results:
        if not isinstance(r, Mapping) or r.get("legal") is False:
            continue
        text = r.get("order")
        power = r.get("power")
        # Only what a result can be is drawn: a power of the map, an order of it, a known code.
        if not isinstance(text, str) or not isinstance(power, str) or power not in colour:
            continue
        try:
            order = parse_order(text, position.map)
        except (OrderParseError, ValueError):
            continue
        given = r.get("given", True) is not False
        if not given and not isinstance(order, Disband):
            continue  # implied holds and waives: nothing to draw
        code = r.get("code")
        code = code if isinstance(code, str) and code in RESULT_CODES else ""
        drawn.append(_Drawn(power, order, text, code, r.get("success") is True, given))
    return drawn


def _anchor(geo: Geometry, loc: str) -> Point:
    return geo.anchors[loc]


def _toward(a: Point, b: Point, cut_start: float, cut_end: float) -> tuple[Point, Point]:
    """The segment a->b shortened by ``cut_start`` and ``cut_end`` pixels."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    cut_end = min(cut_end, length / 2)
    cut_start = min(cut_start, length / 2)
    start = (a[0] + ux * cut_start, a[1] + uy * cut_start)
    return start, (b[0] - ux * cut_end, b[1] - uy * cut_end)


def _where(position: Position, geo: Geometry, aside: Collection[str], loc: str) -> Point:
    """Where the unit at ``loc`` is drawn: a unit dislodged (by this phase, or waiting to
    retreat) sits off to one side, so the unit that took its place can stand in the middle."""
    prov = position.map.province_of(loc)
    x, y = _anchor(geo, loc)
    if prov in aside:
        return (x + ASIDE[0], y + ASIDE[1])
    return (x, y)


def _move_line(
    position: Position,
    geo: Geometry,
    aside: Collection[str],
    src: str,
    dst: str,
    cut_end: float = 11,
) -> tuple[Point, Point]:
    return _toward(_where(position, geo, aside, src), _anchor(geo, dst), 10, cut_end)


def _arrow_paths(
    position: Position,
    geo: Geometry,
    drawn: Sequence[_Drawn],
    aside: Collection[str],
    spots: Sequence[tuple[str, Point]],
) -> dict[int, tuple[Point, Point, Point]]:
    """Each arrow (moves and retreats, by index in ``drawn``) as ``(start, control, end)``:
    straight, or bent around any unit of another province standing on its straight way."""
    paths: dict[int, tuple[Point, Point, Point]] = {}
    for k, d in enumerate(drawn):
        if isinstance(d.order, Move | Retreat):
            a, b = _move_line(position, geo, aside, d.order.unit.loc, d.order.dest)
            ends = {d.order.unit.province, position.map.province_of(d.order.dest)}
            others = [p for prov, p in spots if prov not in ends]
            paths[k] = (a, _clearing_control(a, b, others), b)
    return paths


def _backing_lines(
    position: Position,
    geo: Geometry,
    drawn: Sequence[_Drawn],
    aside: Collection[str],
    paths: Mapping[int, tuple[Point, Point, Point]],
) -> dict[int, tuple[Point, Point, str]]:
    """Each support and convoy (by index in ``drawn``) as ``(start, end, onto)``: to the unit
    supported to hold (``"hold"``), onto the arrow of the move it backs when that move was ordered
    (``"move"``), else to the place it names (``"place"``: it is drawn failed); its curve is
    :func:`_bend`'s."""
    # Each unit's ordered move: where it goes, and its arrow.
    moves: dict[str, tuple[str, tuple[Point, Point, Point]]] = {}
    for k, d in enumerate(drawn):
        if isinstance(d.order, Move):
            moves[d.order.unit.province] = (position.map.province_of(d.order.dest), paths[k])
    # Where the supports and convoys of an ordered move meet its arrow: apart from each other,
    # in the order their lines come from along the arrow.
    meets = _meeting_points(position, geo, drawn, aside, moves)
    out: dict[int, tuple[Point, Point, str]] = {}
    for k, d in enumerate(drawn):
        o = d.order
        if not isinstance(o, SupportMove | SupportHold | Convoy):
            continue
        start = _where(position, geo, aside, o.unit.loc)
        if isinstance(o, SupportHold):
            target = _where(position, geo, aside, _loc_of(position, o.supported.province))
            a, b = _toward(start, target, 10, 13)
            out[k] = (a, b, "hold")
            continue
        mover = o.supported if isinstance(o, SupportMove) else o.army
        ordered = moves.get(mover.province)
        if ordered is not None and ordered[0] == position.map.province_of(o.dest):
            a, b = _toward(start, meets[k], 10, 2)
            out[k] = (a, b, "move")
        else:
            a, b = _toward(start, _anchor(geo, o.dest), 10, 12)
            out[k] = (a, b, "place")
    return out


def _order_layer(
    position: Position,
    geo: Geometry,
    drawn: Sequence[_Drawn],
    colour: Mapping[str, str],
    aside: Collection[str],
    paths: Mapping[int, tuple[Point, Point, Point]],
    lines: Mapping[int, tuple[Point, Point, str]],
) -> str:
    parts = ['<g class="orders" fill="none" stroke-linecap="round">']
    arrow = {power: k for k, power in enumerate(colour)}
    supports: list[str] = []
    arrows: list[str] = []
    for k, d in enumerate(drawn):
        o = d.order
        c = colour.get(d.power, INK)
        data = (
            f'data-power="{escape(d.power)}" data-order="{escape(d.text)}" '
            f'data-code="{escape(d.code)}" '
            f'data-success="{str(d.success).lower()}"'
        )
        if isinstance(o, Move | Retreat):
            a, control, b = paths[k]
            line = _curve(a, control, b)
            kind = "move" if isinstance(o, Move) else "retreat"
            dash = ' stroke-dasharray="9 4"' if kind == "retreat" else ""
            arrows.append(
                f'<g class="order {kind}" {data}>'
                f'<path d="{line}" stroke="{INK}" stroke-width="6"{dash}/>'
                f'<path d="{line}" stroke="{c}" stroke-width="3.6"{dash} '
                f'marker-end="url(#arrow-{arrow[d.power]})"/></g>'
            )
        elif isinstance(o, SupportMove | SupportHold | Convoy):
            a, b, onto = lines[k]
            if isinstance(o, SupportHold):
                target = _where(position, geo, aside, _loc_of(position, o.supported.province))
                end = f'<circle cx="{_f(target[0])}" cy="{_f(target[1])}" r="13" stroke="{c}"/>'
                kind, dash = "support", "7 4"
            else:
                dest = position.map.province_of(o.dest)
                end = f'<circle cx="{_f(b[0])}" cy="{_f(b[1])}" r="3.2" fill="{c}"/>'
                if onto == "place":
                    end += _cross(b[0], b[1], 4.5, cls="fail unbacked")
                data += f' data-to="{escape(dest)}" data-onto="{onto}"'
                kind, dash = ("convoy", "1.5 5") if isinstance(o, Convoy) else ("support", "7 4")
            curve = _curve(a, _bend(a, b), b)
            width = "3.6" if kind == "convoy" else "2.6"
            supports.append(
                f'<g class="order {kind}" {data}>'
                f'<path d="{curve}" stroke="{INK}" stroke-width="{float(width) + 1.8:.1f}" '
                f'stroke-dasharray="{dash}" opacity="0.55"/>'
                f'<path d="{curve}" stroke="{c}" stroke-width="{width}" '
                f'stroke-dasharray="{dash}"/>{end}</g>'
            )
        elif isinstance(o, Hold):
            x, y = _where(position, geo, aside, o.unit.loc)
            supports.append(
                f'<g class="order hold" {data}><circle cx="{_f(x)}" cy="{_f(y)}" r="13" '
                f'stroke="{c}" stroke-width="2.4"/></g>'
            )
        elif isinstance(o, Build | Disband):
            pass  # drawn with the units
    parts.extend(supports)
    parts.extend(arrows)
    parts.append("</g>")
    return "\n".join(parts)


def _loc_of(position: Position, prov: str) -> str:
    piece = position.units.get(prov)
    return piece.loc if piece is not None else prov


def _meeting_points(
    position: Position,
    geo: Geometry,
    drawn: Sequence[_Drawn],
    aside: Collection[str],
    moves: Mapping[str, tuple[str, tuple[Point, Point, Point]]],
) -> dict[int, Point]:
    """Where each support or convoy of an ordered move meets that move's arrow (by its index
    in ``drawn``): a lone convoy halfway, a lone support two thirds along; several spread from
    0.3 to 0.8, in the order of where their lines start along the arrow."""
    backers: dict[str, list[tuple[float, int]]] = {}
    for k, d in enumerate(drawn):
        o = d.order
        if not isinstance(o, SupportMove | Convoy):
            continue
        mover = o.supported if isinstance(o, SupportMove) else o.army
        ordered = moves.get(mover.province)
        if ordered is None or ordered[0] != position.map.province_of(o.dest):
            continue
        a, _control, b = ordered[1]
        start = _where(position, geo, aside, o.unit.loc)
        dx, dy = b[0] - a[0], b[1] - a[1]
        along = ((start[0] - a[0]) * dx + (start[1] - a[1]) * dy) / ((dx * dx + dy * dy) or 1.0)
        backers.setdefault(mover.province, []).append((along, k))
    out: dict[int, Point] = {}
    for prov, found in backers.items():
        a, control, b = moves[prov][1]
        found.sort()
        if len(found) == 1:
            k = found[0][1]
            shares = [0.5 if isinstance(drawn[k].order, Convoy) else 2 / 3]
        else:
            shares = [0.3 + 0.5 * i / (len(found) - 1) for i in range(len(found))]
        for share, (_start, k) in zip(shares, found, strict=True):
            out[k] = _at(a, control, b, share)
    return out


def _unit_shape(kind: str, x: float, y: float, fill: str, extra: str = "") -> str:
    ink = _ink_on(fill)
    if kind == "A":
        body = (
            f'<circle cx="{_f(x)}" cy="{_f(y)}" r="9.5" fill="{fill}" stroke="{INK}" '
            f'stroke-width="1.6"/>'
        )
    else:
        hull = [
            (x - 12, y - 6),
            (x + 12, y - 6),
            (x + 8, y + 7),
            (x - 8, y + 7),
        ]
        body = (
            f'<polygon points="{_pts(hull)}" fill="{fill}" stroke="{INK}" stroke-width="1.6" '
            'stroke-linejoin="round"/>'
        )
    letter = (
        f'<text x="{_f(x)}" y="{_f(y + 4)}" font-size="11" font-weight="bold" '
        f'text-anchor="middle" fill="{ink}">{kind}</text>'
    )
    return body + letter + extra


def _unit_layer(
    position: Position,
    geo: Geometry,
    colour: Mapping[str, str],
    drawn: Sequence[_Drawn],
    dislodged: Mapping[str, Dislodged],
) -> str:
    parts = ['<g class="units">']
    for prov, piece in position.units.items():
        if prov in dislodged and prov not in position.dislodged:
            continue  # dislodged by this phase: drawn once, aside, below
        x, y = _anchor(geo, piece.loc)
        parts.append(
            f'<g class="unit" data-power="{escape(piece.power)}" data-unit="{escape(piece)}" '
            f'data-province="{escape(prov)}">'
            f"{_unit_shape(piece.type, x, y, colour[piece.power])}</g>"
        )
    for d in drawn:
        if isinstance(d.order, Build):
            x, y = _anchor(geo, d.order.unit.loc)
            ring = (
                f'<circle cx="{_f(x)}" cy="{_f(y)}" r="15" fill="none" stroke="{INK}" '
                'stroke-width="1.6" stroke-dasharray="3 3"/>'
            )
            parts.append(
                f'<g class="unit build" data-power="{escape(d.power)}" '
                f'data-unit="{escape(d.order.unit)}" '
                f'data-order="{escape(d.text)}" data-code="{escape(d.code)}" '
                f'data-success="{str(d.success).lower()}">'
                f"{_unit_shape(d.order.unit.type or 'A', x, y, colour[d.power], ring)}</g>"
            )
    for prov, gone in dislodged.items():
        piece = gone.piece
        x, y = _anchor(geo, piece.loc)
        x, y = x + ASIDE[0], y + ASIDE[1]
        ring = (
            f'<circle cx="{_f(x)}" cy="{_f(y)}" r="13" fill="none" stroke="{FAIL}" '
            'stroke-width="2.2"/>'
        )
        options = " ".join(gone.options)
        parts.append(
            f'<g class="unit dislodged" data-power="{escape(piece.power)}" '
            f'data-unit="{escape(piece)}" '
            f'data-province="{escape(prov)}" data-options="{escape(options)}">'
            f"{_unit_shape(piece.type, x, y, colour[piece.power], ring)}</g>"
        )
    parts.append("</g>")
    return "\n".join(parts)


def _cross(x: float, y: float, size: float = 6.5, cls: str = "fail") -> str:
    s = size
    return (
        f'<g class="{cls}"><path d="M{_f(x - s)},{_f(y - s)}L{_f(x + s)},{_f(y + s)}'
        f'M{_f(x - s)},{_f(y + s)}L{_f(x + s)},{_f(y - s)}" stroke="#ffffff" stroke-width="6" '
        f'stroke-linecap="round"/><path d="M{_f(x - s)},{_f(y - s)}L{_f(x + s)},{_f(y + s)}'
        f'M{_f(x - s)},{_f(y + s)}L{_f(x + s)},{_f(y - s)}" stroke="{FAIL}" stroke-width="3" '
        'stroke-linecap="round"/></g>'
    )


def _failure_layer(
    position: Position,
    geo: Geometry,
    drawn: Sequence[_Drawn],
    dislodged: Mapping[str, Dislodged],
    paths: Mapping[int, tuple[Point, Point, Point]],
) -> str:
    aside = dislodged
    parts = ['<g class="failures">']
    for k, d in enumerate(drawn):
        o = d.order
        if not d.code or d.success:
            continue
        if isinstance(o, Move | Retreat):
            a, control, b = paths[k]
            # The cross sits a little short of the arrow head (apart from other bounces there).
            x, y = _at(a, control, b, max(0.5, 1 - 22 / (math.dist(a, b) or 1.0)))
            parts.append(_cross(x, y, cls=f"fail {escape(d.code)}"))
        elif isinstance(o, SupportMove | SupportHold | Convoy):
            x, y = _where(position, geo, aside, o.unit.loc)
            parts.append(_cross(x + 11, y - 10, 5, cls=f"fail {escape(d.code)}"))
        elif isinstance(o, Disband | Build):
            continue
    for d in drawn:
        if isinstance(d.order, Disband) and d.success:
            x, y = _where(position, geo, aside, d.order.unit.loc)
            parts.append(_cross(x, y, 11, cls="disband"))
    # Retreat options of units dislodged this phase (in the movement picture).
    for prov, gone in dislodged.items():
        if prov in position.dislodged:
            continue  # retreat phase: the retreat orders say it
        x, y = _anchor(geo, gone.piece.loc)
        start = (x + ASIDE[0], y + ASIDE[1])
        for option in gone.options:
            a, b = _toward(start, _anchor(geo, option), 13, 6)
            parts.append(
                f'<path class="retreat-option" data-from="{escape(prov)}" '
                f'data-to="{escape(option)}" '
                f'd="{_line(a, b)}" stroke="{FAIL}" stroke-width="1.6" stroke-dasharray="2 3" '
                'fill="none"/>'
                f'<circle cx="{_f(b[0])}" cy="{_f(b[1])}" r="2.5" fill="{FAIL}"/>'
            )
        if not gone.options:
            parts.append(_cross(start[0], start[1], 9, cls="no-retreat"))
    parts.append("</g>")
    return "\n".join(parts)


def _panel(
    position: Position,
    geo: Geometry,
    colour: Mapping[str, str],
    drawn: Sequence[_Drawn],
    dislodged: Mapping[str, Dislodged],
    refused: Sequence[str],
) -> str:
    game_map = position.map
    x0 = geo.width + 14
    y = HEADER + 10
    parts = [f'<g class="panel" transform="translate({_f(x0)},0)">']
    parts.append(
        f'<text x="0" y="{_f(y + 8)}" font-size="13" font-weight="bold" fill="{INK}">'
        "Supply centres</text>"
    )
    y += 22
    counts = {p: len(position.centers_of(p)) for p in game_map.powers}
    units = {p: len(position.units_of(p)) for p in game_map.powers}
    order = sorted(game_map.powers, key=lambda p: (-counts[p], game_map.powers.index(p)))
    for p in order:
        name = p.title()
        parts.append(
            f'<g class="count" data-power="{p}" data-centers="{counts[p]}" data-units="{units[p]}">'
            f'<rect x="0" y="{_f(y)}" width="14" height="14" rx="3" fill="{colour[p]}" '
            f'stroke="{INK}"/><text x="22" y="{_f(y + 11.5)}" font-size="12.5" fill="{INK}">'
            f"{escape(name)}</text>"
            f'<text x="150" y="{_f(y + 11.5)}" font-size="12.5" font-weight="bold" '
            f'text-anchor="end" fill="{INK}">{counts[p]}</text>'
            f'<text x="200" y="{_f(y + 11.5)}" font-size="11" text-anchor="end" fill="#6b7780">'
            f"{units[p]} u</text></g>"
        )
        y += 21
    neutral = len(game_map.centers) - sum(counts.values())
    parts.append(
        f'<text x="22" y="{_f(y + 11.5)}" font-size="12" fill="#6b7780">unowned</text>'
        f'<text x="150" y="{_f(y + 11.5)}" font-size="12" text-anchor="end" fill="#6b7780">'
        f"{neutral}</text>"
    )
    y += 34
    legend = _legend_for(game_map)
    parts.append(_legend(y, legend))
    y += 20 * len(legend) + 10
    failed = [d for d in drawn if d.code and not d.success and d.code != "ok"]
    disbanded = [d for d in drawn if isinstance(d.order, Disband) and d.success]
    if failed or dislodged or refused or disbanded:
        parts.append(
            f'<text x="0" y="{_f(y)}" font-size="13" font-weight="bold" fill="{INK}">'
            "What failed</text>"
        )
        y += 17
        said = [f"{d.text}: {d.code.replace('_', ' ')}" for d in failed]
        said += [f"{text}: illegal" for text in refused]
        for gone in disbanded:
            why = "ordered" if gone.given else _unordered_disband(position)
            said.append(f"{gone.text} ({why})")
        for out in dislodged.values():
            where = ", ".join(out.options) if out.options else "nowhere, disbanded"
            said.append(f"{out.piece} dislodged, may retreat to {where}")
        lines = [line for text in said for line in _wrap(text)]
        for line in lines[:18]:
            parts.append(
                f'<text x="0" y="{_f(y)}" font-size="10.5" fill="{INK}">{escape(line)}</text>'
            )
            y += 14
        if len(lines) > 18:
            parts.append(
                f'<text x="0" y="{_f(y)}" font-size="10.5" fill="#6b7780">'
                f"and {len(lines) - 18} more</text>"
            )
    parts.append("</g>")
    return "\n".join(parts)


def _wrap(text: str, width: int = 36) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = "   " + word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line]


def _unordered_disband(position: Position) -> str:
    if position.phase.kind == "A":
        return "civil disorder: its disbands were not ordered"
    return "no retreat ordered"


_MOVE = f'<path d="M2,{{y}}L34,{{y}}" stroke="{INK}" stroke-width="3"/>'
_HEAD = f'<path d="M30,{{y0}}L38,{{y}}L30,{{y1}}z" fill="{INK}"/>'
_LEGEND: tuple[tuple[str, str], ...] = (
    ("move", _MOVE + _HEAD),
    (
        "support of a move",
        f'<path d="M2,{{y}}L34,{{y}}" stroke="{INK}" stroke-width="2.6" stroke-dasharray="7 4"/>'
        f'<circle cx="36" cy="{{y}}" r="3.2" fill="{INK}"/>',
    ),
    (
        "hold, support to hold",
        f'<circle cx="12" cy="{{y}}" r="7" fill="none" stroke="{INK}" stroke-width="2.2"/>'
        f'<path d="M20,{{y}}L38,{{y}}" stroke="{INK}" stroke-width="2.2" stroke-dasharray="5 3"/>',
    ),
    (
        "convoy",
        f'<path d="M2,{{y}}L38,{{y}}" stroke="{INK}" stroke-width="3.6" '
        'stroke-dasharray="1.5 5" stroke-linecap="round"/>',
    ),
    (
        "retreat",
        f'<path d="M2,{{y}}L34,{{y}}" stroke="{INK}" stroke-width="3" stroke-dasharray="9 4"/>'
        + _HEAD,
    ),
    (
        "build (dashed ring)",
        f'<circle cx="20" cy="{{y}}" r="8" fill="none" stroke="{INK}" stroke-width="1.6" '
        'stroke-dasharray="3 3"/>',
    ),
    ("failed (bounced, cut, void)", "cross"),
    ("disbanded (big cross)", "big-cross"),
    (
        "dislodged, retreat options",
        f'<circle cx="14" cy="{{y}}" r="7" fill="none" stroke="{FAIL}" stroke-width="2"/>'
        f'<path d="M22,{{y}}L38,{{y}}" stroke="{FAIL}" stroke-width="1.6" '
        'stroke-dasharray="2 3"/>',
    ),
)


#: The key to a port's sign (drawn by :func:`_provinces` beside the province's name).
_PORT = (
    "port: its fleets may convoy",
    '<circle cx="20" cy="{y0}" r="3.6" fill="none" stroke="#4a7393" stroke-width="1.6"/>'
    '<path d="M15 {p1} Q20 {p2} 25 {p1}" fill="none" stroke="#4a7393" stroke-width="1.6"/>',
)


def _legend_for(game_map: Any) -> tuple[tuple[str, str], ...]:
    """The legend's lines: every sign drawn, and the port's on a map that has ports."""
    return (*_LEGEND, _PORT) if game_map.ports else _LEGEND


def _legend(y: float, lines: Sequence[tuple[str, str]] = _LEGEND) -> str:
    parts = [f'<g class="legend" font-size="11" fill="{INK}">']
    for k, (label, shape) in enumerate(lines):
        yy = y + k * 20
        if shape == "cross":
            parts.append(_cross(20, yy, 5, cls="key"))
        elif shape == "big-cross":
            parts.append(_cross(20, yy, 8, cls="key"))
        else:
            spots = {"y": yy, "y0": yy - 4, "y1": yy + 4, "p1": yy - 1, "p2": yy + 5}
            parts.append(shape.format(**{k: _f(v) for k, v in spots.items()}))
        parts.append(f'<text x="48" y="{_f(yy + 4)}" stroke="none">{escape(label)}</text>')
    parts.append("</g>")
    return "".join(parts)
