"""Replay Cicero's 40 webDiplomacy games through diplo's dipcc drop-in, phase by phase.

The games are ``data/cicero_redacted_games/*.json`` of facebookresearch/diplomacy_cicero (dipcc's
JSON; the README there says how they were played: Cicero on webDiplomacy, 2022). Each played
phase is ruled again from its archived board: a game holding that one phase (its board and the
orders given in it) is read with ``from_json``, processed, and the board it reaches is compared
with the next phase's archived board (``units``, ``centers``, ``retreats``, ``builds`` and the
phase name). With dipcc built (``tools/build_dipcc.sh``, module ``dipcc_core`` on the path) the
same is done on dipcc, so a disagreement says which engine the archive follows.

Usage: python tools/cicero_games.py SOURCES [--json]
  SOURCES  a copy of facebookresearch/diplomacy_cicero (or set DIPCC_SOURCES)
Prints one line per game (phases agreed / played) and every disagreement with both boards.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import sys
from pathlib import Path
from typing import Any

#: The parts of a phase's ``state`` compared (``homes`` never changes; dipcc's ``influence``
#: is not in the files).
KEYS = ("name", "units", "centers", "retreats", "builds")


def games_dir(sources: str | os.PathLike[str]) -> Path:
    return Path(sources) / "data" / "cicero_redacted_games"


def _normal(state: dict[str, Any]) -> dict[str, Any]:
    """A board for comparison: lists as sets, powers without any entry left out."""
    out: dict[str, Any] = {"name": state.get("name")}
    for key in ("units", "centers"):
        out[key] = {p: sorted(v) for p, v in (state.get(key) or {}).items() if v}
    out["retreats"] = {
        p: {u: sorted(d) for u, d in v.items()}
        for p, v in (state.get("retreats") or {}).items()
        if v
    }
    out["builds"] = {
        p: {"count": v.get("count", 0), "homes": sorted(v.get("homes", []))}
        for p, v in (state.get("builds") or {}).items()
        if v.get("count", 0)
    }
    return out


def one_phase_doc(doc: dict[str, Any], i: int) -> str:
    """A dipcc JSON game holding only phase ``i`` of ``doc``, its orders staged."""
    phase = dict(doc["phases"][i])
    phase["messages"] = []
    phase["logs"] = []
    phase["results"] = {}
    small = {k: v for k, v in doc.items() if k != "phases"}
    small["phases"] = [phase]
    return json.dumps(small)


def replay(module: Any, doc: dict[str, Any]) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """Each played phase of ``doc`` ruled on ``module``'s ``Game``: (phase, the board reached,
    the archived next board), normalised."""
    out = []
    phases = doc["phases"]
    for i in range(len(phases) - 1):
        game = module.Game.from_json(one_phase_doc(doc, i))
        game.process()
        out.append((phases[i]["name"], _normal(game.get_state()), _normal(phases[i + 1]["state"])))
    return out


def engines() -> dict[str, Any]:
    found = {"diplo": importlib.import_module("diplo.compat.dipcc")}
    with contextlib.suppress(ImportError):
        found["dipcc"] = importlib.import_module("dipcc_core")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sources", nargs="?", default=os.environ.get("DIPCC_SOURCES"))
    parser.add_argument("--json", action="store_true", help="a JSON report on stdout")
    args = parser.parse_args(argv)
    if not args.sources:
        parser.error("give SOURCES or set DIPCC_SOURCES")
    files = sorted(games_dir(args.sources).glob("game_*.json"))
    if not files:
        parser.error(f"no games in {games_dir(args.sources)}")
    report: dict[str, Any] = {"games": len(files), "engines": {}}
    for name, module in engines().items():
        agreed = played = 0
        differences = []
        per_game = {}
        for path in files:
            doc = json.loads(path.read_text())
            rows = replay(module, doc)
            same = sum(1 for _, got, want in rows if got == want)
            per_game[path.stem] = [same, len(rows)]
            agreed += same
            played += len(rows)
            for phase, got, want in rows:
                if got != want:
                    differences.append(
                        {"game": path.stem, "phase": phase, "got": got, "archived": want}
                    )
        report["engines"][name] = {
            "agreed": agreed,
            "phases": played,
            "per_game": per_game,
            "differences": differences,
        }
    if args.json:
        json.dump(report, sys.stdout, indent=1)
        print()
        return 0
    for name, r in report["engines"].items():
        print(f"{name}: {r['agreed']} of {r['phases']} phases of {len(files)} games as archived")
        for d in r["differences"]:
            print(f"  {d['game']} {d['phase']}:")
            for key in KEYS:
                if d["got"].get(key) != d["archived"].get(key):
                    print(f"    {key}: got {d['got'].get(key)}")
                    print(f"    {key}: archived {d['archived'].get(key)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
