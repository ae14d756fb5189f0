"""The colours of a picture: the board's fills, the powers' colours, and the measures that check
them (WCAG contrast against the sea and the land, CIE76 colour difference between powers).

Every power's colour is dark enough to stand out on the sea and on the land (a contrast ratio of
3:1 or more, WCAG's bar for graphical objects), and the standard map's seven are far apart from
each other (``tests/test_render_pictures.py`` measures both).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

__all__ = [
    "FAIL",
    "INK",
    "LAND",
    "NEUTRAL_COLOUR",
    "POWER_COLOURS",
    "SEA",
    "SPARE_COLOURS",
    "VOID",
    "contrast_ratio",
    "delta_e",
    "ink_on",
    "lab",
    "power_colour",
    "relative_luminance",
    "tint",
]

SEA = "#b9d9ee"
LAND = "#efe6cf"
VOID = "#cfc8b8"
INK = "#24303a"
FAIL = "#d0021b"

#: The standard map's powers, in their usual hues, each dark enough for a unit on the sea.
POWER_COLOURS: dict[str, str] = {
    "AUSTRIA": "#c62828",
    "ENGLAND": "#1c2b80",
    "FRANCE": "#0277bd",
    "GERMANY": "#5d4037",
    "ITALY": "#2e7d32",
    "RUSSIA": "#a0289a",
    "TURKEY": "#8d6e00",
}

#: The colours of other maps' powers, in map order (again from the first past the last).
SPARE_COLOURS: tuple[str, ...] = (
    "#b84a00",
    "#00796b",
    "#c2185b",
    "#0d47a1",
    "#4e7a27",
    "#5e35b1",
    "#7a5c3e",
    "#00838f",
    "#827717",
    "#3f51b5",
    "#880e4f",
    "#6a1b9a",
)


#: A neutral power's colour (godip's Neutral, or a power no player controls: see
#: ``Map.uncontrolled``): a plain grey, no player's hue.
NEUTRAL_COLOUR = "#6e6e6e"


def power_colour(power: str, powers: Sequence[str], neutral: Collection[str] = frozenset()) -> str:
    """The colour of a power: grey for a ``neutral`` one, the usual one on the standard board,
    else a fixed spare one (in the order of the map's other players)."""
    if power in neutral:
        return NEUTRAL_COLOUR
    if power in POWER_COLOURS:
        return POWER_COLOURS[power]
    others = [p for p in powers if p not in POWER_COLOURS and p not in neutral]
    index = others.index(power) if power in others else len(others)
    return SPARE_COLOURS[index % len(SPARE_COLOURS)]


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def tint(colour: str, amount: float) -> str:
    """``colour`` mixed with white (amount 0 = colour, 1 = white)."""
    mix = [round(c + (255 - c) * amount) for c in _rgb(colour)]
    return "#" + "".join(f"{c:02x}" for c in mix)


def ink_on(colour: str) -> str:
    """The colour of a letter written on ``colour``: ink on a light one, white on a dark one."""
    r, g, b = _rgb(colour)
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def relative_luminance(colour: str) -> float:
    """WCAG 2's relative luminance of an sRGB ``#rrggbb`` colour (0 black, 1 white)."""
    r, g, b = (_linear(c) for c in _rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: str, b: str) -> float:
    """WCAG 2's contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    light, dark = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def lab(colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* of an sRGB colour (D65 white)."""
    r, g, b = (_linear(c) for c in _rgb(colour))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a: str, b: str) -> float:
    """CIE76 colour difference: the distance of two colours in L*a*b* (about 2.3 is just
    noticeable; over 30, two different colours at a glance)."""
    return math.dist(lab(a), lab(b))
