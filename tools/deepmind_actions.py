"""Writes python/diplo/data/deepmind_actions.json from a snapshot of github.com/deepmind/diplomacy.

Their action list and province tables are facts (data), read here from their files as text:
``environment/action_list.py`` (every unit action that could ever be legal, by index) and the
two map descriptions in ``environment/province_order.py`` (province ids: the standard map;
area ids: the bicoastal map). Usage: ``python3 tools/deepmind_actions.py [SNAPSHOT]``
(default ``../shared/deepmind-diplomacy``).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "python" / "diplo" / "data" / "deepmind_actions.json"


def _mdf_tags(text: str, name: str) -> list[str]:
    """The first tag of each province line of the MDF string constant ``name``."""
    match = re.search(name + r' = """(.*?)"""', text, re.S)
    if match is None:
        raise SystemExit(f"{name} not found in province_order.py")
    lines = match.group(1).splitlines()[4:-1]
    return [next(w for w in line.split(" ") if w not in ("(", ")", "")) for line in lines]


def main(argv: list[str]) -> int:
    snapshot = (
        Path(argv[1]) if len(argv) > 1 else ROOT.parent.parent / "shared" / "deepmind-diplomacy"
    )
    env = snapshot / "environment"
    listing = (env / "action_list.py").read_text()
    block = listing.split("POSSIBLE_ACTIONS", 1)[1].split("MILA_ACTIONS_LIST", 1)[0]
    actions = [int(h, 16) for h in re.findall(r"0x[0-9a-fA-F]{16}", block)]
    for i, action in enumerate(actions):
        if action >> 48 != i:
            raise SystemExit(f"action {i} carries index {action >> 48}")
    order = (env / "province_order.py").read_text()
    provinces = _mdf_tags(order, "_STANDARD_MAP_MDF_CONTENT")
    areas = _mdf_tags(order, "_BICOASTAL_MAP_MDF_CONTENT")
    data = {
        "source": "github.com/deepmind/diplomacy " + (snapshot / "SNAPSHOT").read_text().split()[0],
        "licence": "Apache-2.0",
        "provinces": provinces,
        "areas": areas,
        "actions": [a & 0xFFFFFFFF for a in actions],
    }
    OUT.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"{OUT}: {len(actions)} actions, {len(provinces)} provinces, {len(areas)} areas")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
