"""Make ``python/diplo/data/mila_maps.json``: the facts of the 14 maps MILA 1.1.2 ships, so that
the drop-in answers MILA's map queries (``Game.map``, ``Map(name)``) and plays those maps with
no MILA installed (issue 47).

For each map it keeps what diplo's own readers make of MILA's ``.map`` file: the tables of MILA's
map queries (``diplo.compat._map``'s reader: locations, terrains, adjacency in the file's order,
names, powers, homes, centres, units, phase, victory, rules) and the diplo map
(``diplo.model.variants.mila_map_data``). Generated data, not MILA's files:
``tests/test_compat_mila_map.py`` holds every table and query of the shipped facts to MILA's own
answers, with MILA's files hidden. Run with MILA installed (the ``compare`` extra)::

    PYTHONPATH=python python3 tools/mila_map_facts.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))

from diplo.compat._map import reader_facts  # noqa: E402
from diplo.model.variants import mila_map_data  # noqa: E402

OUT = ROOT / "python" / "diplo" / "data" / "mila_maps.json"


def main() -> int:
    try:
        import diplomacy
    except ImportError:
        print("MILA (the 'compare' extra) is needed to make the facts", file=sys.stderr)
        return 2
    folder = Path(diplomacy.__file__).parent / "maps"
    from importlib.metadata import version

    facts: dict[str, object] = {"source": f"MILA diplomacy {version('diplomacy')}", "maps": {}}
    maps = facts["maps"]
    assert isinstance(maps, dict)
    for path in sorted(folder.glob("*.map")):
        maps[path.stem] = {"tables": reader_facts(path), "map": mila_map_data(path)}
    OUT.write_text(json.dumps(facts, separators=(",", ":"), sort_keys=False) + "\n")
    print(f"{OUT.relative_to(ROOT)}: {len(maps)} maps, {OUT.stat().st_size // 1024} kB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
