"""One board picture as SVG text: provinces, centres, units, orders, failures, phase and counts.

Written as plain text (no drawing library). Every unit and order is a ``<g>`` carrying ``data-``
attributes (power, unit, order, code) so a program can read a picture back.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from typing import Any, get_args

from ..model.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    OrderParseError,
    Retreat,
    SupportHold,
    SupportMove,
    parse_order,
)
from ..model.outcome import Code
from ..model.position import Dislodged, Position
from ..model.wording import phase_words
from .colours import (
    FAIL,
    INK,
    LAND,
    PATTERNS,
    POWER_COLOURS,
    SEA,
    Paint,
    ink_on,
    power_colour,
    power_paints,
    tint,
)
from .geometry import (
    ASIDE,
    DOT,
    UNIT_R,
    Geometry,
    Label,
    geometry_for,
    place_labels,
)
from .markup import escape
from .panel import Drawn as _Drawn
from .panel import cross as _cross
from .panel import panel as _panel
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

__all__ = [
    "CENTRES_WHEN",
    "POWER_COLOURS",
    "RESULT_CODES",
    "SCHEMATIC_NOTE",
    "SEA",
    "board_svg",
    "escape",
    "phase_name",
    "power_colour",
]

#: Every code a result may carry (the JSON contract's); anything else is not drawn as a code.
RESULT_CODES: frozenset[str] = frozenset(get_args(Code))

#: What a picture is of (the header's second line says it; the svg's ``data-centres`` names it).
CENTRES_WHEN: dict[str, tuple[str, str]] = {
    "after": ("Units before the orders; supply centres after the phase", "after the phase"),
    "before": ("Units and supply centres before the orders", "before the orders"),
    "position": ("Units and supply centres of this position", "of this position"),
}
#: What a picture drawn from a map's adjacencies (no geometry file) says of itself.
SCHEMATIC_NOTE = "Schematic layout: positions are not geography"

PANEL = 230.0
HEADER = 62.0


def phase_name(phase: Any, seasons: tuple[str, str, str] | None = None) -> str:
    """``S1901M`` -> ``Spring 1901, movement`` (:func:`diplo.model.wording.phase_words`; in the
    map's names of its seasons when given, ``Map.calendar.names``)."""
    return phase_words(phase, seasons)


def board_svg(
    position: Position,
    results: Sequence[Mapping[str, Any]] = (),
    dislodged: Mapping[str, Dislodged] | None = None,
    *,
    title: str | None = None,
    geometry: Geometry | None = None,
    id_prefix: str = "",
    centers_after: Mapping[str, str] | None = None,
) -> str:
    """The board of ``position`` with the ``results`` of its phase (JSON contract entries).

    ``dislodged`` are the units dislodged by this (movement) phase, drawn with their retreat
    options; in a retreat phase the position's own dislodged units are drawn. Results that carry
    no code (orders not yet adjudicated) are drawn as plain orders. ``id_prefix`` keeps the
    ids of markers and patterns apart when several pictures share one HTML page.

    ``centers_after`` (the supply centres after the phase, province to owner) are drawn instead
    of the position's own: the picture of a ruling shows the centres the ruling leaves, whatever
    it was drawn from (an output document knows no others). The header's second line says which
    centres a picture shows, and says of a schematic (a map drawn from its adjacencies) that it
    is no geography.
    """
    if centers_after is not None:
        position = position.with_changes(centers=dict(centers_after), where="centers_after")
    when = "after" if centers_after is not None else "before" if results else "position"
    game_map = position.map
    geo = geometry or geometry_for(game_map)
    powers = game_map.powers
    paints = power_paints(powers, game_map.uncontrolled)
    colour = {p: paint.colour for p, paint in paints.items()}
    bodies, areas = _fills(paints)
    width = geo.width + PANEL
    heading = wrap_title(title or phase_name(position.phase, position.map.calendar.names), width)
    top = TITLE_LINE * (len(heading) - 1)  # how much lower than one line's header the rest is
    note, note_row = _schematic_note(geo, top, CENTRES_WHEN[when][0])
    header = HEADER + top + note_row
    height = geo.height + header
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_f(width)} {_f(height)}" '
        f'width="{_f(width)}" height="{_f(height)}" font-family="DejaVu Sans, Verdana, sans-serif"'
        f' class="diplo-board" data-phase="{escape(position.phase)}" '
        f'data-map="{escape(game_map.name)}" data-centres="{when}" '
        f'data-layout="{"schematic" if geo.schematic else "geography"}">',
        _defs(colour, paints),
        f'<rect width="{_f(width)}" height="{_f(height)}" fill="#fbfaf6"/>',
        _title(heading),
        f'<text x="14" y="{_f(50 + top)}" font-size="12.5" fill="#4d5a64" class="caption">'
        f"{escape(CENTRES_WHEN[when][0])}</text>",
        note,
        f'<g transform="translate(0,{_f(header)})" class="map">',
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
        spill=geo.spill_labels,
    )
    out.append(_provinces(position, geo, colour, labels, areas))
    out.append(_order_layer(position, geo, drawn, colour, dislodged_now, paths, lines))
    out.append(_unit_layer(position, geo, paints, bodies, drawn, dislodged_now))
    out.append(_failure_layer(position, geo, drawn, dislodged_now, paths))
    out.append("</g>")
    refused = [
        str(r.get("order")) for r in results if isinstance(r, Mapping) and r.get("legal") is False
    ]
    # The panel lists what this phase did: a retreat phase's units were dislodged before it.
    out.append(
        _panel(
            position,
            geo.width + 14,
            header + 10,
            colour,
            drawn,
            dict(dislodged or {}),
            refused,
            results,
            CENTRES_WHEN[when][1],
            bodies,
        )
    )
    out.append("</svg>")
    text = "\n".join(s for s in out if s)
    if id_prefix:
        text = text.replace('id="', f'id="{id_prefix}').replace("url(#", f"url(#{id_prefix}")
    return text


#: The title's type size, and how far apart its lines are when it is wrapped.
TITLE_SIZE = 21.0
TITLE_LINE = 25.0
#: A letter's width at most, in ems: DejaVu Sans Bold's widest capitals and digits are under
#: 0.84 em, its mean over words well under 0.7 em; the caption's regular type under 0.6 em.
BOLD_EM = 0.7
REGULAR_EM = 0.6


def wrap_title(title: str, width: float) -> list[str]:
    """``title`` in lines that fit a canvas ``width`` wide (14 units of margin each side, at
    :data:`BOLD_EM` a letter), broken between words; a word longer than a line is cut."""
    room = max(8, int((width - 28) / (BOLD_EM * TITLE_SIZE)))
    lines: list[str] = []
    line = ""
    for word in title.split():
        while len(word) > room:
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:room])
            word = word[room:]
        if line and len(line) + 1 + len(word) > room:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line or not lines:
        lines.append(line)
    return lines


def _title(lines: Sequence[str]) -> str:
    """The title: one line as one text, a wrapped one as a line (``tspan``) per line."""
    if len(lines) == 1:
        return (
            f'<text x="14" y="29" font-size="{_f(TITLE_SIZE)}" font-weight="bold" fill="{INK}" '
            f'class="title">{escape(lines[0])}</text>'
        )
    spans = "".join(
        f'<tspan x="14" y="{_f(29 + TITLE_LINE * k)}">{escape(line)}</tspan>'
        for k, line in enumerate(lines)
    )
    return (
        f'<text x="14" y="29" font-size="{_f(TITLE_SIZE)}" font-weight="bold" fill="{INK}" '
        f'class="title">{spans}</text>'
    )


def _schematic_note(geo: Geometry, top: float, caption: str) -> tuple[str, float]:
    """A schematic's notice (and how much taller it makes the header): a dark label on the
    caution colour, so it is not taken for a map of real places. It sits at the right of the
    caption's line, under the title's last line; on a canvas too narrow for both, on a line of
    its own below the caption."""
    if not geo.schematic:
        return "", 0.0
    w = 12.0 + 8.0 * len(SCHEMATIC_NOTE)  # DejaVu Sans Bold at 12.5 px: under 8 px a letter
    x = geo.width - w
    y = 36 + top
    row = 0.0
    if 14 + REGULAR_EM * 12.5 * len(caption) + 12 > x:
        x, y, row = 14.0, 60 + top, 24.0
    return (
        f'<g class="schematic-note"><rect x="{_f(x)}" y="{_f(y)}" width="{_f(w)}" height="20" '
        f'rx="4" fill="#fff3c4" stroke="#8a6d00"/><text x="{_f(x + w / 2)}" y="{_f(y + 14.5)}" '
        f'font-size="12.5" font-weight="bold" text-anchor="middle" fill="{INK}">'
        f"{escape(SCHEMATIC_NOTE)}</text></g>",
        row,
    )


# --------------------------------------------------------------------------- layers


def _fills(paints: Mapping[str, Paint]) -> tuple[dict[str, str], dict[str, str]]:
    """How each power's units (and panel square) and its centres' provinces are filled: the
    colour (its light tint for a province), or the power's pattern (:func:`_pattern`)."""
    bodies: dict[str, str] = {}
    areas: dict[str, str] = {}
    for k, (power, paint) in enumerate(paints.items()):
        if paint.pattern:
            bodies[power], areas[power] = f"url(#paint-{k})", f"url(#area-{k})"
        else:
            bodies[power], areas[power] = paint.colour, tint(paint.colour, 0.45)
    return bodies, areas


def _pattern(pattern_id: str, kind: str, ground: str, mark: str) -> str:
    """One of :data:`PATTERNS` as an SVG pattern: ``mark`` on ``ground``, an 8-unit tile."""
    shape = {
        "stripes": f'<rect width="3" height="8" fill="{mark}"/>',
        "dots": f'<circle cx="4" cy="4" r="2" fill="{mark}"/>',
        "bars": f'<rect width="8" height="3" fill="{mark}"/>',
        "checks": f'<rect width="4" height="4" fill="{mark}"/>'
        f'<rect x="4" y="4" width="4" height="4" fill="{mark}"/>',
        "rings": f'<circle cx="4" cy="4" r="2.3" fill="none" stroke="{mark}" stroke-width="1.2"/>',
    }[kind]
    turn = ' patternTransform="rotate(45)"' if kind in ("stripes", "checks") else ""
    return (
        f'<pattern id="{pattern_id}" class="power-pattern" data-pattern="{kind}" width="8" '
        f'height="8" patternUnits="userSpaceOnUse"{turn}><rect width="8" height="8" '
        f'fill="{ground}"/>{shape}</pattern>'
    )


def _defs(colour: Mapping[str, str], paints: Mapping[str, Paint]) -> str:
    parts = ["<defs>"]
    for k, c in enumerate(colour.values()):
        parts.append(
            f'<marker id="arrow-{k}" viewBox="0 0 10 10" refX="7" refY="5" '
            f'markerWidth="4.2" markerHeight="4.2" orient="auto-start-reverse">'
            f'<path d="M0,0 L10,5 L0,10 z" fill="{c}" stroke="{INK}" stroke-width="1"/></marker>'
        )
    for k, paint in enumerate(paints.values()):
        if paint.pattern:
            kind = PATTERNS[paint.pattern]
            light = tint(paint.colour, 0.45)
            parts.append(_pattern(f"paint-{k}", kind, paint.colour, tint(paint.colour, 0.7)))
            parts.append(_pattern(f"area-{k}", kind, light, tint(paint.colour, 0.15)))
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
    position: Position,
    geo: Geometry,
    colour: Mapping[str, str],
    labels: Mapping[str, Label],
    areas: Mapping[str, str],
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
            fill = edge = SEA
        elif owner is not None:
            fill, edge = areas[owner], tint(colour[owner], 0.45)
        else:
            fill = edge = LAND
        attrs = f'data-province="{escape(prov)}"' + (
            f' data-owner="{escape(owner)}"' if owner else ""
        )
        outline = " ".join(f"M{_pts(poly)}Z" for poly in polys)
        parts.append(
            f'<g class="province" {attrs} fill="{fill}" stroke="{edge}">'
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


def _unit_shape(
    kind: str, x: float, y: float, colour: str, extra: str = "", fill: str | None = None
) -> str:
    """A unit of ``colour``, its body filled with ``fill`` (default the colour: a power's
    pattern otherwise), its letter in ink that reads on the colour."""
    ink = ink_on(colour)
    fill = fill or colour
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
    paints: Mapping[str, Paint],
    bodies: Mapping[str, str],
    drawn: Sequence[_Drawn],
    dislodged: Mapping[str, Dislodged],
) -> str:
    def shape(kind: str, x: float, y: float, power: str, extra: str = "") -> str:
        return _unit_shape(kind, x, y, paints[power].colour, extra, bodies[power])

    def paint_of(power: str) -> str:
        paint = paints[power]
        return f'data-colour="{paint.colour}" data-pattern="{PATTERNS[paint.pattern]}"'

    parts = ['<g class="units">']
    for prov, piece in position.units.items():
        if prov in dislodged and prov not in position.dislodged:
            continue  # dislodged by this phase: drawn once, aside, below
        x, y = _anchor(geo, piece.loc)
        parts.append(
            f'<g class="unit" data-power="{escape(piece.power)}" data-unit="{escape(piece)}" '
            f'data-province="{escape(prov)}" {paint_of(piece.power)}>'
            f"{shape(piece.type, x, y, piece.power)}</g>"
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
                f'data-success="{str(d.success).lower()}" {paint_of(d.power)}>'
                f"{shape(d.order.unit.type or 'A', x, y, d.power, ring)}</g>"
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
            f'data-province="{escape(prov)}" data-options="{escape(options)}" '
            f"{paint_of(piece.power)}>"
            f"{shape(piece.type, x, y, piece.power, ring)}</g>"
        )
    parts.append("</g>")
    return "\n".join(parts)


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
