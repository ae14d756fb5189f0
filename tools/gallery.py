"""The pictures of ``docs/render.md``'s gallery, drawn from documents ruled here, so the gallery
stays true to what diplo draws.

    python tools/gallery.py            # (re)write docs/gallery/*.svg
    python tools/gallery.py --check    # exit 1 if a committed picture differs from a fresh one

Four scenes: a movement phase with supports, a convoy, bounces, a void support and a
dislodgement; the retreat that follows it; a winter with builds and a civil-disorder disband;
and a variant (Ancient Mediterranean) with its opening moves. ``tests/test_render_readback.py``
reads every picture back (names inside their provinces and clear of units, no two units on one
another) and checks that the committed files are the ones this script writes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from diplo.formats.contract import adjudicate_document
from diplo.render.frames import frames_from_document

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "docs" / "gallery"

MOVEMENT: dict[str, Any] = {
    "phase": "F1901M",
    "units": {
        "ENGLAND": ["A YOR", "F NTH", "F ENG", "F NWG"],
        "FRANCE": ["A BEL", "A BUR", "F BRE", "A MAR"],
        "GERMANY": ["A HOL", "A RUH", "A MUN", "F KIE"],
        "ITALY": ["A VEN", "A ROM", "F NAP"],
        "AUSTRIA": ["A VIE", "A BUD", "F TRI"],
        "RUSSIA": ["A MOS", "A WAR", "F STP/SC", "F SEV"],
        "TURKEY": ["A CON", "A SMY", "F ANK"],
    },
    "centers": {
        "ENGLAND": ["LON", "EDI", "LVP"],
        "FRANCE": ["PAR", "BRE", "MAR"],
        "GERMANY": ["BER", "KIE", "MUN"],
        "ITALY": ["ROM", "NAP", "VEN"],
        "AUSTRIA": ["VIE", "BUD", "TRI"],
        "RUSSIA": ["MOS", "WAR", "STP", "SEV"],
        "TURKEY": ["CON", "ANK", "SMY"],
    },
    "orders": {
        # A convoyed attack on BEL with two supports; BUR's support of BEL is cut from RUH.
        "ENGLAND": ["A YOR - BEL VIA", "F NTH C A YOR - BEL", "F ENG S A YOR - BEL", "F NWG H"],
        "FRANCE": ["A BEL H", "A BUR S A BEL", "F BRE - MAO", "A MAR - PIE"],
        "GERMANY": ["A HOL S A YOR - BEL", "A RUH - BUR", "A MUN S A RUH - BUR", "F KIE - DEN"],
        "ITALY": ["A VEN - PIE", "A ROM - APU", "F NAP - ION"],
        # Two bounces: VIE and WAR in GAL; and a support of a move nobody ordered.
        "AUSTRIA": ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"],
        "RUSSIA": ["A WAR - GAL", "A MOS - UKR", "F STP/SC S A MOS - LVN", "F SEV - BLA"],
        "TURKEY": ["A CON - BUL", "A SMY - ARM", "F ANK - BLA"],
    },
}

WINTER: dict[str, Any] = {
    "phase": "W1901A",
    "units": {
        "ENGLAND": ["F NTH", "F NWY", "A BEL"],
        "FRANCE": ["A BUR", "F MAO", "A PIC", "A GAS"],
        "GERMANY": ["A DEN", "A RUH", "F HOL"],
    },
    "centers": {
        "ENGLAND": ["LON", "EDI", "LVP", "NWY", "BEL"],
        "FRANCE": ["PAR", "MAR"],
        "GERMANY": ["BER", "KIE", "MUN", "DEN", "HOL"],
    },
    # England builds two; Germany builds one and waives; France gives no order and is two
    # units over: civil disorder disbands the two farthest from its centres.
    "orders": {"ENGLAND": ["F LON B", "A LVP B"], "GERMANY": ["A BER B", "WAIVE"]},
}

VARIANT: dict[str, Any] = {
    "orders": {
        "ROME": ["F NEA - ION", "A ROM - APU", "A RAV - VEN"],
        "CARTHAGE": ["F THA - GOT", "A CAR - MAU", "A CIR - NUM"],
        "GREECE": ["F SPA - MES", "A ATH - EPI", "A MAC - ILL"],
        "EGYPT": ["F ALE - EGY", "A MEM - CYR", "A THB - SIN"],
        "PERSIA": ["F SID - SYR", "A ANT - CAP", "A DAM - ARA"],
    },
}


def _ancmed_opening() -> dict[str, Any]:
    from diplo.model.map import shipped_map
    from diplo.model.position import Position

    position = Position.initial(shipped_map("ancmed")).to_json()
    return {**position, "map": "ancmed", "orders": VARIANT["orders"]}


def pictures() -> dict[str, str]:
    """Each gallery picture's SVG text, by file name."""
    out: dict[str, str] = {}
    (movement,) = frames_from_document(MOVEMENT)
    out["movement.svg"] = movement.svg()
    ruled = adjudicate_document(MOVEMENT)
    retreat_doc = {**ruled["next"], "orders": {"FRANCE": ["A BEL R PIC"]}}
    (retreat,) = frames_from_document(retreat_doc)
    out["retreat.svg"] = retreat.svg()
    (winter,) = frames_from_document(WINTER)
    out["winter.svg"] = winter.svg()
    (variant,) = frames_from_document(_ancmed_opening())
    out["variant-ancmed.svg"] = variant.svg()
    return {name: svg + "\n" for name, svg in out.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    stale = []
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name, svg in pictures().items():
        path = FOLDER / name
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != svg:
                stale.append(name)
        else:
            path.write_text(svg, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    if stale:
        print(f"stale gallery pictures: {', '.join(stale)} (run python tools/gallery.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
