#!/usr/bin/env python3
"""Write the shipped variant maps (``python/diplo/data/*.json``) from their published sources.

The adjacencies of a variant are facts of its published map; diplo takes them from the map files
the MILA engine ships (PyPI ``diplomacy`` 1.1.2, the ``compare`` extra), read by
``diplo.model.variants.load_mila_map``:

* ``pure``, ``ancmed``: MILA's ``pure.map`` and ``ancmed.map`` as read;
* ``fleet_rome``, ``france_austria``, ``germany_italy``: the standard board of
  ``diplo/data/standard.json`` (its names and aliases) with the powers, homes, starting units and
  victory count of MILA's ``standard_*.map`` file for the variant.

    python tools/variants.py            # rewrite the data files
    python tools/variants.py --check    # exit 1 when a data file differs from its source

``tests/test_variants.py`` makes the same comparison whenever MILA is installed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
DATA = REPO_ROOT / "python" / "diplo" / "data"

# shipped name -> (MILA file, source note)
VARIANTS = {
    "pure": ("pure.map", "Pure: seven one-province powers, every province adjacent to every other"),
    "fleet_rome": ("standard_fleet_rome.map", "Standard with an Italian fleet in Rome"),
    "france_austria": (
        "standard_france_austria.map",
        "Classic France-Austria (webDiplomacy): France and Austria alone on the standard board",
    ),
    "germany_italy": (
        "standard_germany_italy.map",
        "Classic Germany-Italy (webDiplomacy): Germany and Italy alone on the standard board",
    ),
    "ancmed": (
        "ancmed.map",
        "Ancient Mediterranean: five powers around the Mediterranean; Baleares is a port (a "
        "coastal province whose fleets may convoy), as MILA's file makes it",
    ),
}
ON_STANDARD = ("fleet_rome", "france_austria", "germany_italy")


def mila_maps_dir() -> Path:
    import diplomacy  # the compare extra

    return Path(diplomacy.__file__).parent / "maps"


def variant_data(name: str) -> dict[str, Any]:
    """The data file of a shipped variant, built from its source."""
    from diplo.model.variants import mila_map_data

    filename, note = VARIANTS[name]
    mila = mila_map_data(mila_maps_dir() / filename)
    source = f"{note}. Adjacencies, powers and units as in MILA's {filename} (diplomacy 1.1.2)."
    if name in ON_STANDARD:
        data: dict[str, Any] = json.loads((DATA / "standard.json").read_text(encoding="utf-8"))
        data["powers"] = mila["powers"]
        centres = {c for p in mila["powers"].values() for c in p["homes"]}
        centres |= {p["abbr"] for p in mila["provinces"] if p["center"]}
        assert centres == {p["abbr"] for p in data["provinces"] if p["center"]}, name
    else:
        data = mila
    out = {"name": name, "source": source, "first_phase": mila["first_phase"]}
    out["victory"] = mila.get("victory", _default_victory(data))
    out.update({k: v for k, v in data.items() if k not in out and k != "source"})
    return out


def _default_victory(data: dict[str, Any]) -> int:
    return sum(1 for p in data["provinces"] if p["center"]) // 2 + 1


def dumps(data: dict[str, Any]) -> str:
    """The layout of ``standard.json``: one province per line, edges six to a line."""
    lines = ["{"]
    items = list(data.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if key == "powers":
            lines.append('  "powers": {')
            powers = list(value.items())
            for j, (power, entry) in enumerate(powers):
                tail = "," if j < len(powers) - 1 else ""
                lines.append(f"    {json.dumps(power)}: {json.dumps(entry)}{tail}")
            lines.append("  }" + comma)
        elif key == "provinces":
            lines.append('  "provinces": [')
            for j, entry in enumerate(value):
                tail = "," if j < len(value) - 1 else ""
                lines.append(f"    {json.dumps(entry, ensure_ascii=False)}{tail}")
            lines.append("  ]" + comma)
        elif key.endswith("_edges"):
            lines.append(f"  {json.dumps(key)}: [")
            chunks = [value[k : k + 6] for k in range(0, len(value), 6)]
            for j, chunk in enumerate(chunks):
                tail = "," if j < len(chunks) - 1 else ""
                lines.append("    " + ", ".join(json.dumps(e) for e in chunk) + tail)
            lines.append("  ]" + comma)
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    stale = []
    for name in VARIANTS:
        text = dumps(variant_data(name))
        path = DATA / f"{name}.json"
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(REPO_ROOT)}")
    if stale:
        print(f"stale: {', '.join(stale)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
