"""``diplo compare``: every installed engine side by side in one run.

For diplo (its own document path, ``python -m diplo.apps.peers diplo``) and every peer
(:mod:`diplo.apps.peers`: MILA, pydip, the Rust ``diplomacy`` crate, dipcc) and every command
given with ``--engine``:

* DATC v3.0 per section: passed, failed (with the case ids), not expressible;
* agreement with each other engine on one shared set of positions (full-board movement phases
  of random self-play and every phase of whole self-play games): phases compared, differing,
  and per kind of difference the smallest example;
* µs per full-board movement phase and per whole self-play game (each engine's adapter timing
  itself in its own process, document in and document out, no JSON text), with the ratio to
  diplo; and diplo's code path (``CodeGame``) in this process, with the limit rows: the Rust-only
  resolver and ``Game`` on the same phases (``cargo bench --bench limit``, when the source tree
  and cargo are there).

An engine that is missing, crashes, hangs (``--per-case`` seconds a document) or prints garbage
is reported by name; it never stops the run or the other engines' figures.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .external import EngineError, ExternalEngine, engine_summary, resolve_command, run_datc
from .peers import PEERS, missing_reason, source_tree

SECTIONS = ("6.A", "6.B", "6.C", "6.D", "6.E", "6.F", "6.G", "6.H", "6.I", "6.J")
ROOT = source_tree()


@dataclass
class EngineRow:
    """One engine's figures in the comparison."""

    name: str
    command: str | None = None
    missing: str | None = None
    problems: list[str] = field(default_factory=list)
    datc: dict[str, Any] | None = None
    sections: dict[str, dict[str, Any]] = field(default_factory=dict)
    outputs: list[dict[str, Any]] = field(default_factory=list)
    movement_us: float | None = None
    game_us: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "missing": self.missing,
            "problems": self.problems,
            "datc": self.datc,
            "sections": self.sections,
            "us_per_movement_phase": self.movement_us,
            "us_per_game": self.game_us,
        }


# --------------------------------------------------------------------------- inputs


def shared_positions(
    movement: int, games: int, seed: int, max_year: int
) -> tuple[list[dict[str, Any]], list[list[dict[str, Any]]]]:
    """Documents of ``movement`` full-board movement phases, and of every phase of ``games``
    self-play games (one list per game), from diplo's random self-play (``diplo play``)."""
    from .bench.inputs import prepare_movement_phases
    from .play import play_game

    phases = prepare_movement_phases(movement, seed, max_year)
    moves = [{**p.position.to_json(), "orders": p.texts()} for p in phases]
    played = []
    for g in range(games):
        game = play_game(seed + 1000 + g, max_year, None)
        played.append([{**r.position.to_json(), "orders": dict(r.orders)} for r in game.history])
    return moves, played


# --------------------------------------------------------------------------- agreement


def _view(output: Mapping[str, Any]) -> dict[str, Any] | None:
    """What two engines must agree on: per given order legality and success, the dislodged
    units, the board after, the centres and the next phase (``None``: no ruling)."""
    if "results" not in output or not isinstance(output.get("next"), Mapping):
        return None
    try:
        given = [r for r in output["results"] if r.get("given", True)]
        nxt = output["next"]
        return {
            "legality": [bool(r["legal"]) for r in given],
            "success": [bool(r["legal"]) and bool(r["success"]) for r in given],
            "dislodged": sorted(
                f"{p} {u}" for p, units in (output.get("dislodged") or {}).items() for u in units
            ),
            "board after": sorted(
                f"{p} {u}" for p, units in (nxt.get("units") or {}).items() for u in units
            ),
            "centres": sorted(
                f"{p} {c}" for p, cs in (nxt.get("centers") or {}).items() for c in cs
            ),
            "next phase": nxt.get("phase"),
        }
    except (KeyError, TypeError, AttributeError):
        return None


def agreement(
    docs: Sequence[Mapping[str, Any]],
    a: Sequence[Mapping[str, Any]],
    b: Sequence[Mapping[str, Any]],
) -> dict[str, Any]:
    """How two engines' answers to ``docs`` compare: phases both ruled, phases differing, and
    per kind of difference how many and the smallest example (fewest units)."""
    compared = differing = 0
    kinds: dict[str, dict[str, Any]] = {}
    not_ruled = 0
    for doc, x, y in zip(docs, a, b, strict=True):
        vx, vy = _view(x), _view(y)
        if vx is None or vy is None:
            not_ruled += 1
            continue
        compared += 1
        differ = [k for k in vx if vx[k] != vy[k]]
        if not differ:
            continue
        differing += 1
        size = sum(len(v) for v in (doc.get("units") or {}).values())
        for kind in differ:
            entry = kinds.setdefault(kind, {"phases": 0, "example": None, "_size": 1 << 30})
            entry["phases"] += 1
            if size < entry["_size"]:
                entry["_size"] = size
                entry["example"] = _example(doc, kind, vx[kind], vy[kind])
    for entry in kinds.values():
        entry.pop("_size")
    return {
        "compared": compared,
        "differing": differing,
        "not_ruled_by_both": not_ruled,
        "kinds": kinds,
    }


def _example(doc: Mapping[str, Any], kind: str, x: Any, y: Any) -> dict[str, Any]:
    if kind in ("legality", "success"):
        orders = [f"{p}: {t}" for p, ts in (doc.get("orders") or {}).items() for t in ts]
        where = [i for i, (u, v) in enumerate(zip(x, y, strict=False)) if u != v] or [0]
        shown = [orders[i] for i in where if i < len(orders)]
        return {
            "phase": doc.get("phase"),
            "document": dict(doc),
            "orders": shown,
            "first": [x[i] for i in where if i < len(x)],
            "second": [y[i] for i in where if i < len(y)],
        }
    if isinstance(x, list) and isinstance(y, list):
        return {
            "phase": doc.get("phase"),
            "document": dict(doc),
            "only_first": sorted(set(x) - set(y)),
            "only_second": sorted(set(y) - set(x)),
        }
    return {"phase": doc.get("phase"), "document": dict(doc), "first": x, "second": y}


# --------------------------------------------------------------------------- speed


def engine_timing(
    command: str, docs: Sequence[Mapping[str, Any]], rounds: int, timeout: float
) -> list[float]:
    """Median µs per document as the engine's process times itself (``--bench ROUNDS``)."""
    argv = [*shlex.split(command), "--bench", str(rounds)]
    text = "".join(json.dumps(d) + "\n" for d in docs)
    try:
        proc = subprocess.run(argv, input=text, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise EngineError(f"its timing run took more than {timeout:g} s") from None
    except OSError as exc:
        raise EngineError(f"cannot run it: {exc.strerror}") from None
    try:
        value = json.loads(proc.stdout.strip().splitlines()[-1])
        us = [float(x) for x in value["us"]]
    except (IndexError, ValueError, KeyError, TypeError):
        tail = " | ".join(proc.stderr.strip().splitlines()[-2:])
        raise EngineError(
            f"its timing run printed no timing (exit {proc.returncode}) {tail}"
        ) from None
    if len(us) != len(docs):
        raise EngineError(f"its timing run timed {len(us)} of {len(docs)} documents")
    return us


def code_path_us(movement: int, seed: int, max_year: int, rounds: int) -> dict[str, float]:
    """diplo's code path (``CodeGame``) and object API per full-board movement phase, here."""
    from .bench.engines import codes_module
    from .bench.inputs import prepare_movement_phases
    from .bench.measure import measure
    from .bench.movement import movement_engines

    fast = codes_module()
    phases = prepare_movement_phases(movement, seed, max_year)
    engines = movement_engines(phases, ["diplo-rust", "diplo-rust-objects"], fast)
    measured = measure(engines, rounds)
    names = {"diplo-rust": "diplo code path", "diplo-rust-objects": "diplo object API"}
    return {names.get(k, k): statistics.median(m.rounds) for k, m in measured.items() if m.rounds}


def rust_limit_us(
    docs: Sequence[Mapping[str, Any]], timeout: float
) -> tuple[dict[str, float], str]:
    """The Rust-only resolver and ``Game`` on the same phases (``cargo bench --bench limit``),
    or an empty dict and why not."""
    manifest = ROOT / "Cargo.toml"
    if not (ROOT / "rust" / "benches" / "limit.rs").is_file():
        return {}, "the Rust sources are not here (run from diplo's source tree)"
    phases = []
    for doc in docs:
        units = [[p, u] for p, us in doc["units"].items() for u in us]
        orders = [[p, o] for p, os in doc["orders"].items() for o in os]
        phases.append({"phase": doc["phase"], "units": units, "orders": orders})
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(phases, handle)
    env = dict(os.environ, DIPLO_LIMIT_PHASES=handle.name)
    env.setdefault("CARGO_TARGET_DIR", str(ROOT / "target"))
    try:
        proc = subprocess.run(
            ["cargo", "bench", "--quiet", "--manifest-path", str(manifest), "--bench", "limit"],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
        )
    except FileNotFoundError:
        return {}, "cargo is not installed"
    except subprocess.TimeoutExpired:
        return {}, f"cargo bench --bench limit took more than {timeout:g} s"
    finally:
        Path(handle.name).unlink(missing_ok=True)
    for line in reversed(proc.stdout.splitlines()):
        try:
            value = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict) and "rust Game" in value:
            return {k: float(value[k]) for k in ("rust resolver", "rust Game")}, ""
    tail = " | ".join(proc.stderr.strip().splitlines()[-2:])
    return {}, f"cargo bench --bench limit failed (exit {proc.returncode}): {tail}"


# --------------------------------------------------------------------------- the run


@dataclass
class Settings:
    engines: tuple[str, ...] = PEERS
    commands: tuple[str, ...] = ()
    movement: int = 20
    games: int = 2
    max_year: int = 1905
    seed: int = 0
    rounds: int = 5
    per_case: float = 20.0
    limit: bool = True
    datc: bool = True


def run_compare(settings: Settings, say: Any = None) -> dict[str, Any]:
    """The whole comparison as a JSON-ready report."""
    from .conformance import DATC_VERSION, load_cases

    note = say or (lambda _t: None)
    rows: list[EngineRow] = [EngineRow("diplo", resolve_command_or_none("diplo"))]
    for name in settings.engines:
        why = missing_reason(name)
        rows.append(EngineRow(name, None if why else resolve_command(name), missing=why))
    for i, command in enumerate(settings.commands, start=1):
        rows.append(EngineRow(f"engine-{i}", command))
    live = [r for r in rows if r.missing is None]
    for r in rows:
        if r.missing:
            note(f"{r.name} missing: {r.missing}")
    cases = load_cases() if settings.datc else []
    moves, games = shared_positions(
        settings.movement, settings.games, settings.seed, settings.max_year
    )
    docs = moves + [d for g in games for d in g]
    note(f"{len(live)} engines; {len(cases)} DATC cases; {len(docs)} shared positions")
    # One interleaved run: each engine in turn per stage.
    for row in live:
        assert row.command is not None
        if cases:
            try:
                run = run_datc(cases, row.command, per_case=settings.per_case)
            except EngineError as exc:
                row.problems.append(f"DATC: {exc}")
            else:
                row.datc = engine_summary(run)
                row.datc.pop("xfailed", None)
                row.sections = _sections(run)
                unruled = [
                    r.case_id
                    for r in run.results
                    if any("refused the document" in p or "not a ruling" in p for p in r.problems)
                ]
                if unruled:
                    row.problems.append(f"DATC: {len(unruled)} cases not ruled ({unruled[0]}, ...)")
        engine = ExternalEngine(row.command, per_document=settings.per_case)
        try:
            row.outputs = engine.adjudicate_each(docs)
        except EngineError as exc:
            row.problems.append(f"positions: {exc}")
            row.outputs = [{"error": str(exc)}] * len(docs)
        bad = [o for o in row.outputs if _view(o) is None]
        if bad:
            first = bad[0].get("error") or bad[0].get("unsupported") or "no ruling"
            row.problems.append(f"positions: {len(bad)} of {len(docs)} not ruled ({first})")
        note(f"{row.name}: DATC and positions done")
    # The timing, interleaved: in each round every engine in turn (the first rotating) times
    # every document twice in its own process; an engine's figure per document is the median
    # over the rounds, so that a busy machine slows every engine alike.
    timeout = settings.per_case * len(docs) * 2 + 5.0
    timed: list[EngineRow] = []
    for row in live:
        if docs and all(_view(o) is None for o in row.outputs):
            row.problems.append("not timed: it ruled none of the shared positions")
        else:
            timed.append(row)
    samples: dict[str, list[list[float]]] = {r.name: [] for r in timed}
    for turn in range(settings.rounds):
        shift = turn % len(timed) if timed else 0
        for row in [*timed[shift:], *timed[:shift]]:
            assert row.command is not None
            if row.name not in samples:
                continue
            try:
                samples[row.name].append(engine_timing(row.command, docs, 2, timeout))
            except EngineError as exc:
                row.problems.append(f"timing: {exc}")
                del samples[row.name]
    for row in timed:
        if row.name not in samples or not samples[row.name]:
            continue
        us = [statistics.median(per_round) for per_round in zip(*samples[row.name], strict=True)]
        row.movement_us = statistics.median(us[: len(moves)]) if moves else None
        per_game, start = [], len(moves)
        for game in games:
            ruled = all(_view(o) is not None for o in row.outputs[start : start + len(game)])
            if ruled:  # a game counts only when the engine ruled every phase of it
                per_game.append(sum(us[start : start + len(game)]))
            start += len(game)
        row.game_us = statistics.median(per_game) if per_game else None
        if games and not per_game:
            row.problems.append("per game: no game had every phase ruled by this engine")
    note(f"timed {len(samples)} engines in {settings.rounds} interleaved rounds")
    pairs = {}
    for i, a in enumerate(live):
        for b in live[i + 1 :]:
            pairs[f"{a.name} vs {b.name}"] = agreement(docs, a.outputs, b.outputs)
    limits: dict[str, float] = {}
    limit_note = "not asked for (--no-limit)"
    try:
        limits.update(
            code_path_us(settings.movement, settings.seed, settings.max_year, settings.rounds)
        )
    except Exception as exc:  # the Rust core not built: said, not fatal
        limit_note = f"diplo's code path cannot run: {exc}"
    if settings.limit:
        note("the Rust-only limit rows: cargo bench --bench limit")
        rust, why = rust_limit_us(moves, 1800.0)
        limits.update(rust)
        limit_note = why or "measured"
    base = next((r for r in rows if r.name == "diplo"), None)
    ratios = {}
    for row in rows:
        if base is None or row is base:
            continue
        entry = {}
        if row.movement_us and base.movement_us:
            entry["movement"] = round(row.movement_us / base.movement_us, 2)
        if row.game_us and base.game_us:
            entry["game"] = round(row.game_us / base.game_us, 2)
        ratios[row.name] = entry
    code = limits.get("diplo code path")
    rust_game = limits.get("rust Game")
    return {
        "datc_version": DATC_VERSION,
        "engines": {r.name: r.to_json() for r in rows},
        "agreement": pairs,
        "limits": {
            "us_per_movement_phase": limits,
            "note": limit_note,
            "code_path_over_rust_game": (
                round(code / rust_game, 2) if code and rust_game else None
            ),
        },
        "ratios_to_diplo": ratios,
        "settings": {
            "movement_phases": len(moves),
            "games": len(games),
            "game_phases": sum(len(g) for g in games),
            "max_year": settings.max_year,
            "seed": settings.seed,
            "rounds": settings.rounds,
            "per_case_seconds": settings.per_case,
            "python": sys.version.split()[0],
            "machine": _machine(),
        },
    }


def resolve_command_or_none(name: str) -> str | None:
    from .peers import peer_command

    return peer_command(name)


def _sections(run: Any) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for r in run.results:
        section = r.case_id.rsplit(".", 1)[0]
        entry = out.setdefault(
            section, {"total": 0, "passed": 0, "failed": [], "not_expressible": []}
        )
        entry["total"] += 1
        if r.case_id in run.unsupported:
            entry["not_expressible"].append(r.case_id)
        elif r.passed:
            entry["passed"] += 1
        else:
            entry["failed"].append(r.case_id)
    return out


def _machine() -> str:
    import platform

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


# --------------------------------------------------------------------------- output


def table(report: Mapping[str, Any]) -> str:
    """The report as text for a terminal."""
    lines = [f"DATC v{report['datc_version']} (passed/total per section; n/e: not expressible)"]
    head = f"{'engine':16} " + " ".join(f"{s:>6}" for s in SECTIONS) + f" {'all':>8} {'n/e':>4}"
    lines.append(head)
    for name, e in report["engines"].items():
        if e["missing"]:
            lines.append(f"{name:16} missing: {e['missing']}")
            continue
        if not e["datc"]:
            lines.append(f"{name:16} no DATC figures: {'; '.join(e['problems']) or '-'}")
            continue
        cells = []
        for s in SECTIONS:
            sec = e["sections"].get(s)
            cells.append(f"{sec['passed']}/{sec['total']}" if sec else "-")
        d = e["datc"]
        lines.append(
            f"{name:16} "
            + " ".join(f"{c:>6}" for c in cells)
            + f" {d['passed']:>4}/{d['total']:<3} {len(d['not_expressible']):>4}"
        )
    for name, e in report["engines"].items():
        if e["datc"] and e["datc"]["failed"]:
            lines.append(f"  {name} failed: {' '.join(e['datc']['failed'])}")
        if e["datc"] and e["datc"]["not_expressible"]:
            lines.append(f"  {name} not expressible: {' '.join(e['datc']['not_expressible'])}")
    s = report["settings"]
    lines.append("")
    lines.append(
        f"Agreement on {s['movement_phases']} full-board movement phases and the "
        f"{s['game_phases']} phases of {s['games']} self-play games (phases compared, differing)"
    )
    for pair, a in report["agreement"].items():
        kinds = ", ".join(f"{k} {v['phases']}" for k, v in a["kinds"].items())
        extra = f"; not ruled by both {a['not_ruled_by_both']}" if a["not_ruled_by_both"] else ""
        lines.append(
            f"  {pair:28} {a['compared']:>5} compared, {a['differing']:>5} differ"
            + (f" ({kinds})" if kinds else "")
            + extra
        )
    lines.append("")
    lines.append(
        "Speed: µs per full-board movement phase and per self-play game (document in, "
        "document out, timed by each engine's own process), ratio to diplo"
    )
    for name, e in report["engines"].items():
        if e["missing"]:
            lines.append(f"  {name:16} missing")
            continue
        r = report["ratios_to_diplo"].get(name, {})
        mv, gm = e["us_per_movement_phase"], e["us_per_game"]
        if mv is None:
            lines.append(f"  {name:16} no timing: {'; '.join(e['problems']) or '-'}")
            continue
        x_mv = f"x{r['movement']}" if "movement" in r else ""
        x_gm = f"x{r['game']}" if "game" in r else ""
        per_game = f"{gm:>12.1f} µs/game" if gm else f"{'no whole game':>20}"
        lines.append(f"  {name:16} {mv:>10.1f} µs/phase {x_mv:>8} {per_game} {x_gm:>8}")
    lim = report["limits"]
    lines.append("Limit rows (same movement phases):")
    for name, us in lim["us_per_movement_phase"].items():
        lines.append(f"  {name:24} {us:>8.2f} µs/phase")
    if lim["code_path_over_rust_game"] is not None:
        lines.append(
            f"  diplo's code path over the Rust-only Game: x{lim['code_path_over_rust_game']}"
        )
    lines.append(f"  ({lim['note']})")
    for name, e in report["engines"].items():
        for p in e["problems"]:
            lines.append(f"problem: {name}: {p}")
    lines.append(f"machine: {s['machine']}; python {s['python']}")
    return "\n".join(lines)


def _escape(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def svg(report: Mapping[str, Any]) -> str:
    """Bars per engine on a log scale: µs per movement phase (with the limit rows) and per game."""
    import math

    bars: list[tuple[str, str, float]] = []
    for name, e in report["engines"].items():
        if e["us_per_movement_phase"]:
            bars.append(("movement phase", name, e["us_per_movement_phase"]))
    for name, us in report["limits"]["us_per_movement_phase"].items():
        bars.append(("movement phase", name, us))
    for name, e in report["engines"].items():
        if e["us_per_game"]:
            bars.append(("self-play game", name, e["us_per_game"]))
    width, left, row = 760, 200, 22
    height = 60 + row * (len(bars) + 2)
    top = max([b[2] for b in bars] + [10.0])
    low = 0.1
    span = math.log10(top * 2) - math.log10(low)

    def x(v: float) -> float:
        return left + (width - left - 80) * (math.log10(max(v, low)) - math.log10(low)) / span

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        'font-family="sans-serif" font-size="12">',
        '<text x="10" y="20" font-size="14">µs per phase (log scale): diplo and its peers</text>',
    ]
    y = 40
    decade = 0.1
    while decade <= top * 2:
        out.append(
            f'<line x1="{x(decade):.1f}" y1="30" x2="{x(decade):.1f}" y2="{height - 10}" '
            'stroke="#ddd"/>'
        )
        out.append(f'<text x="{x(decade):.1f}" y="{height - 2}" fill="#666">{decade:g}</text>')
        decade *= 10
    group = None
    for kind, name, us in bars:
        if kind != group:
            group = kind
            out.append(f'<text x="10" y="{y + 12}" font-weight="bold">{_escape(kind)}</text>')
            y += row
        out.append(f'<text x="20" y="{y + 12}">{_escape(name)}</text>')
        out.append(
            f'<rect x="{left}" y="{y}" width="{max(1.0, x(us) - left):.1f}" height="{row - 6}" '
            f'fill="{"#c33" if name.startswith(("diplo", "rust")) else "#36c"}"/>'
        )
        out.append(f'<text x="{x(us) + 4:.1f}" y="{y + 12}">{us:.3g}</text>')
        y += row
    out.append("</svg>")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- the command


def register(sub: Any) -> None:
    p = sub.add_parser(
        "compare",
        help="every installed engine side by side: DATC, agreement, speed, the limit rows",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    d = Settings()
    p.add_argument(
        "--engines",
        nargs="*",
        default=list(PEERS),
        metavar="NAME",
        help=f"peers to compare with diplo (default all: {', '.join(PEERS)})",
    )
    p.add_argument(
        "--engine",
        metavar="CMD",
        action="append",
        default=[],
        help="also compare this command speaking the JSON contract in --jsonl mode",
    )
    p.add_argument(
        "--movement",
        type=int,
        default=d.movement,
        help=f"full-board movement phases (default {d.movement})",
    )
    p.add_argument(
        "--games", type=int, default=d.games, help=f"self-play games (default {d.games})"
    )
    p.add_argument(
        "--max-year",
        type=int,
        default=d.max_year,
        help=f"last year of the games (default {d.max_year})",
    )
    p.add_argument(
        "--rounds", type=int, default=d.rounds, help=f"timing rounds (default {d.rounds})"
    )
    p.add_argument(
        "--per-case",
        type=float,
        default=d.per_case,
        help=f"seconds an engine may take on one document (default {d.per_case:g})",
    )
    p.add_argument("--seed", type=int, default=d.seed)
    p.add_argument("--no-datc", action="store_true", help="leave the DATC out")
    p.add_argument(
        "--no-limit",
        action="store_true",
        help="leave out the Rust-only limit rows (cargo bench --bench limit)",
    )
    p.add_argument("--json", action="store_true", help="print the JSON report")
    p.add_argument("--plot", metavar="FILE.svg", help="write the speed bars to this SVG file")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    unknown = [e for e in args.engines if e not in PEERS]
    if unknown:
        print(f"diplo: unknown engine {unknown[0]!r} (known: {', '.join(PEERS)})", file=sys.stderr)
        return 2
    if args.movement < 1 or args.games < 0 or args.rounds < 1 or args.per_case <= 0:
        print(
            "diplo: --movement and --rounds must be positive, --games not negative", file=sys.stderr
        )
        return 2
    settings = Settings(
        engines=tuple(args.engines),
        commands=tuple(args.engine),
        movement=args.movement,
        games=args.games,
        max_year=args.max_year,
        seed=args.seed,
        rounds=args.rounds,
        per_case=args.per_case,
        limit=not args.no_limit,
        datc=not args.no_datc,
    )
    start = time.perf_counter()
    report = run_compare(settings, lambda t: print(f"compare: {t}", file=sys.stderr))
    report["settings"]["seconds"] = round(time.perf_counter() - start, 1)
    if args.plot:
        Path(args.plot).write_text(svg(report), encoding="utf-8")
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(table(report))
    return 0
