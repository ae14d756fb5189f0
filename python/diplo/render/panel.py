"""The panel beside a board picture: the powers with their centres and units (neutral powers
apart, unranked), the builds a power waived, the legend, and what the phase did wrong in words.

Only the powers the shown document concerns are listed: a power with no centre, no unit and no
order in it is left out (a two-power position lists two powers, not the map's seven).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..model.orders import Disband, Order
from ..model.position import Dislodged, Position
from ..model.wording import count, power_name
from .colours import FAIL, INK
from .markup import escape
from .paths import number as _f

__all__ = ["Drawn", "cross", "panel", "waives"]

GREY = "#6b7780"


@dataclass(frozen=True)
class Drawn:
    """An order read back from a result, ready to draw."""

    power: str
    order: Order
    text: str
    code: str
    success: bool
    given: bool = True  # False: an order the rules gave (a civil-disorder disband, say)


def cross(x: float, y: float, size: float = 6.5, cls: str = "fail") -> str:
    """A red cross (white-edged) centred on ``(x, y)``."""
    s = size
    d = (
        f"M{_f(x - s)},{_f(y - s)}L{_f(x + s)},{_f(y + s)}"
        f"M{_f(x - s)},{_f(y + s)}L{_f(x + s)},{_f(y - s)}"
    )
    return (
        f'<g class="{cls}"><path d="{d}" stroke="#ffffff" stroke-width="6" '
        f'stroke-linecap="round"/><path d="{d}" stroke="{FAIL}" stroke-width="3" '
        'stroke-linecap="round"/></g>'
    )


def waives(results: Sequence[Mapping[str, Any]], powers: Sequence[str]) -> dict[str, list[int]]:
    """Per power, the builds it waived: ``[ordered, unordered]`` (a ``WAIVE`` order given, and
    a build the power did not order, which the rules waive for it)."""
    out: dict[str, list[int]] = {}
    for r in results:
        if not isinstance(r, Mapping) or r.get("legal") is False:
            continue
        power = r.get("power")
        if r.get("order") != "WAIVE" or not isinstance(power, str) or power not in powers:
            continue
        out.setdefault(power, [0, 0])[0 if r.get("given", True) is not False else 1] += 1
    return out


def _shown_powers(
    position: Position, results: Sequence[Mapping[str, Any]], dislodged: Mapping[str, Dislodged]
) -> list[str]:
    """The powers the picture concerns, in map order: those with a centre, a unit (standing,
    dislodged) or an order (even a refused one) in it."""
    concerned = set(position.centers.values())
    concerned |= {piece.power for piece in position.units.values()}
    concerned |= {d.piece.power for d in (*position.dislodged.values(), *dislodged.values())}
    concerned |= {str(r.get("power")) for r in results if isinstance(r, Mapping)}
    return [p for p in position.map.powers if p in concerned]


def _row(
    p: str,
    y: float,
    colour: str,
    centres: int,
    swatch: str,
    units: int,
    neutral: bool,
    waived: list[int],
) -> tuple[str, float]:
    name = power_name(p)
    if neutral and "neutral" not in name.lower():
        name += " (neutral)"
    ink = GREY if neutral else INK
    # A long name in smaller type, so it ends before the count (at 150, from 22: about 0.62 em
    # a letter).
    size = min(12.5, 110 / (0.62 * max(len(name), 1)))
    cls = "count neutral" if neutral else "count"
    flag = ' data-neutral="true"' if neutral else ""
    parts = [
        f'<g class="{cls}" data-power="{p}" data-centers="{centres}" data-units="{units}"{flag}>'
        f'<rect x="0" y="{_f(y)}" width="14" height="14" rx="3" fill="{swatch}" '
        f'stroke="{INK}"/><text x="22" y="{_f(y + 11.5)}" font-size="{_f(size)}" fill="{ink}">'
        f"{escape(name)}</text>"
        f'<text x="150" y="{_f(y + 11.5)}" font-size="12.5" font-weight="bold" '
        f'text-anchor="end" fill="{ink}">{centres}</text>'
        f'<text x="200" y="{_f(y + 11.5)}" font-size="11" text-anchor="end" fill="{GREY}">'
        f"{units} u</text></g>"
    ]
    y += 21
    ordered, unordered = waived
    for n, given, words in (
        (ordered, "true", f"waives {count(ordered, 'build')}"),
        (unordered, "false", f"{count(unordered, 'build')} not ordered: waived"),
    ):
        if not n:
            continue
        # The sign of a build that is not there: the build's dashed ring, struck through.
        parts.append(
            f'<g class="waive" data-power="{p}" data-waived="{n}" data-given="{given}">'
            f'<circle cx="7" cy="{_f(y + 5)}" r="6" fill="none" stroke="{colour}" '
            'stroke-width="1.6" stroke-dasharray="3 2"/>'
            f'<path d="M2,{_f(y + 10)}L12,{_f(y)}" stroke="{colour}" stroke-width="1.6"/>'
            f'<text x="22" y="{_f(y + 9)}" font-size="11" fill="{INK}">{escape(words)}</text></g>'
        )
        y += 16
    return "".join(parts), y


def panel(
    position: Position,
    x0: float,
    y: float,
    colour: Mapping[str, str],
    drawn: Sequence[Drawn],
    dislodged: Mapping[str, Dislodged],
    refused: Sequence[str],
    results: Sequence[Mapping[str, Any]],
    centres_when: str,
    swatch: Mapping[str, str] | None = None,
) -> str:
    """The panel at ``(x0, y)``. ``position`` carries the centres drawn (``centres_when`` says
    which: "after the phase", ...); ``dislodged`` are the units this phase dislodged; ``swatch``
    is how each power's square is filled (its colour, or its pattern: default the colour)."""
    game_map = position.map
    parts = [f'<g class="panel" transform="translate({_f(x0)},0)">']
    parts.append(
        f'<text x="0" y="{_f(y + 8)}" font-size="13" font-weight="bold" fill="{INK}">'
        "Supply centres</text>"
        f'<text class="centres-when" x="0" y="{_f(y + 23)}" font-size="11" fill="{GREY}">'
        f"{escape(centres_when)}</text>"
    )
    y += 36
    shown = _shown_powers(position, results, dislodged)
    counts = {p: len(position.centers_of(p)) for p in shown}
    units = {p: len(position.units_of(p)) for p in shown}
    waived = waives(results, shown)
    # Players ranked by centres; the neutral powers after them, unranked (they play for nobody).
    players = sorted(
        (p for p in shown if p not in game_map.uncontrolled),
        key=lambda p: (-counts[p], game_map.powers.index(p)),
    )
    for p in [*players, *(p for p in shown if p in game_map.uncontrolled)]:
        row, y = _row(
            p,
            y,
            colour[p],
            counts[p],
            (swatch or colour)[p],
            units[p],
            p in game_map.uncontrolled,
            waived.get(p, [0, 0]),
        )
        parts.append(row)
    unowned = len(game_map.centers) - len(position.centers)
    parts.append(
        f'<text class="unowned" x="22" y="{_f(y + 11.5)}" font-size="12" fill="{GREY}">unowned'
        f'</text><text x="150" y="{_f(y + 11.5)}" font-size="12" text-anchor="end" '
        f'fill="{GREY}">{unowned}</text>'
    )
    y += 34
    legend = _legend_for(game_map)
    parts.append(_legend(y, legend))
    y += 20 * len(legend) + 10
    parts.append(_failures(position, y, drawn, dislodged, refused))
    parts.append("</g>")
    return "\n".join(parts)


def _failures(
    position: Position,
    y: float,
    drawn: Sequence[Drawn],
    dislodged: Mapping[str, Dislodged],
    refused: Sequence[str],
) -> str:
    failed = [d for d in drawn if d.code and not d.success and d.code != "ok"]
    disbanded = [d for d in drawn if isinstance(d.order, Disband) and d.success]
    if not (failed or dislodged or refused or disbanded):
        return ""
    parts = [
        f'<text x="0" y="{_f(y)}" font-size="13" font-weight="bold" fill="{INK}">What failed</text>'
    ]
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
        parts.append(f'<text x="0" y="{_f(y)}" font-size="10.5" fill="{INK}">{escape(line)}</text>')
        y += 14
    if len(lines) > 18:
        parts.append(
            f'<text x="0" y="{_f(y)}" font-size="10.5" fill="{GREY}">'
            f"and {len(lines) - 18} more</text>"
        )
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


#: The key to a port's sign (drawn beside the province's name).
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
            parts.append(cross(20, yy, 5, cls="key"))
        elif shape == "big-cross":
            parts.append(cross(20, yy, 8, cls="key"))
        else:
            spots = {"y": yy, "y0": yy - 4, "y1": yy + 4, "p1": yy - 1, "p2": yy + 5}
            parts.append(shape.format(**{k: _f(v) for k, v in spots.items()}))
        parts.append(f'<text x="48" y="{_f(yy + 4)}" stroke="none">{escape(label)}</text>')
    parts.append("</g>")
    return "".join(parts)
