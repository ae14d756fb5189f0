"""The colours of a picture: the board's fills, the powers' colours, and the measures that check
them (WCAG contrast against the sea and the land, CIEDE2000 colour difference between powers).

Every power's colour is dark enough to stand out on the sea and on the land (a contrast ratio of
3:1 or more, WCAG's bar for graphical objects). Any two powers of one map are told apart: their
colours are at least :data:`MIN_DELTA_E` apart (CIEDE2000), or they wear different patterns
(:func:`power_paints`; a map of more powers than such colours, ``chaos``'s 34, needs patterns).
``tests/test_render_pictures.py`` measures all of it on every shipped map and MILA's maps.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

__all__ = [
    "FAIL",
    "INK",
    "LAND",
    "MIN_DELTA_E",
    "NEUTRAL_COLOUR",
    "PATTERNS",
    "POWER_COLOURS",
    "SEA",
    "SPARE_COLOURS",
    "VOID",
    "Paint",
    "ciede2000",
    "contrast_ratio",
    "delta_e",
    "ink_on",
    "lab",
    "power_colour",
    "power_paints",
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
#: ``Map.uncontrolled``): a plain grey, no player's hue, 20 or more (CIEDE2000) from the standard
#: map's colours.
NEUTRAL_COLOUR = "#747474"


#: More colours for maps of many powers, after the spare ones and the standard map's: each dark
#: enough for the sea and the land, chosen to stand far from those before them.
MORE_COLOURS: tuple[str, ...] = ("#303818", "#906880", "#005060", "#780000", "#483050", "#8868b8")

#: The least CIEDE2000 difference between the colours of two powers of one map that wear the same
#: pattern (about 2 is just noticeable; 20 tells two owners apart at a glance on a board).
MIN_DELTA_E = 20.0

#: The patterns a power's areas (its centres' provinces, its units) may wear, in the order they
#: are handed out: a map whose powers need more colours than :data:`MIN_DELTA_E` allows gives
#: the next ones stripes, then dots, and so on (``svg`` draws them).
PATTERNS: tuple[str, ...] = ("plain", "stripes", "dots", "bars", "checks", "rings")


@dataclass(frozen=True)
class Paint:
    """How a power is drawn: its colour, and the pattern its areas wear (0: plain)."""

    colour: str
    pattern: int = 0


def power_paints(powers: Sequence[str], neutral: Collection[str] = frozenset()) -> dict[str, Paint]:
    """Every power's paint on a map of ``powers``: grey for a ``neutral`` one, the usual colour
    for a power of the standard board, and for each other power, in map order, the first colour
    of :data:`SPARE_COLOURS`, :data:`POWER_COLOURS` and :data:`MORE_COLOURS` that is at least
    :data:`MIN_DELTA_E` from every colour already worn with the same pattern on this map (grey
    counts), trying the plain pattern first, then each next one of :data:`PATTERNS`. Past the
    last pattern (a map of about 50 powers) the colours repeat with it."""
    out: dict[str, Paint] = {}
    worn: dict[int, list[tuple[float, float, float]]] = {0: []}
    if any(p in neutral for p in powers):
        worn[0].append(lab(NEUTRAL_COLOUR))
    for power in powers:
        if power in neutral:
            out[power] = Paint(NEUTRAL_COLOUR)
        elif power in POWER_COLOURS:
            out[power] = Paint(POWER_COLOURS[power])
            worn[0].append(lab(POWER_COLOURS[power]))
    choices = [*SPARE_COLOURS, *POWER_COLOURS.values(), *MORE_COLOURS]
    last = len(PATTERNS) - 1
    for power in powers:
        if power in out:
            continue
        pattern = 0
        while power not in out:
            here = worn.setdefault(pattern, [])
            for colour in choices:
                mine = lab(colour)
                if pattern == last or all(ciede2000(mine, other) >= MIN_DELTA_E for other in here):
                    out[power] = Paint(colour, pattern)
                    here.append(mine)
                    break
            pattern += 1
    return {p: out[p] for p in powers}


def power_colour(power: str, powers: Sequence[str], neutral: Collection[str] = frozenset()) -> str:
    """The colour of a power on a map of ``powers`` (:func:`power_paints`; a power not of the
    map gets the one it would get as the map's next)."""
    if power in powers:
        return power_paints(powers, neutral)[power].colour
    return power_paints([*powers, power], neutral)[power].colour


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


def ciede2000(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """The CIEDE2000 colour difference of two L*a*b* colours (:func:`lab`), with the parametric
    factors 1 (CIE 142-2001; Sharma, Wu and Dalal's notes on its computation)."""
    l1, a1, b1 = a
    l2, a2, b2 = b
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0.0
    dl, dc = l2 - l1, c2 - c1
    dh = 0.0
    if c1 * c2:
        dh = h2 - h1
        dh = dh - 360 if dh > 180 else dh + 360 if dh < -180 else dh
    dh_big = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    if not c1 * c2:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    rotation = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    rc = 2 * math.sqrt(c_mean**7 / (c_mean**7 + 25**7))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc = 1 + 0.045 * c_mean
    sh = 1 + 0.015 * c_mean * t
    rt = -math.sin(math.radians(2 * rotation)) * rc
    return math.sqrt(
        (dl / sl) ** 2 + (dc / sc) ** 2 + (dh_big / sh) ** 2 + rt * (dc / sc) * (dh_big / sh)
    )
