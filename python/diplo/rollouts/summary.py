"""The summary table of a rollout: one row per game, written as Parquet and CSV.

A row is read off the game file's document alone (:func:`summary_row`), so a resumed run builds
the rows of the games already on disk exactly as it built them when it wrote them.

Columns: ``game_id``, ``seed``, ``winner`` (empty for none), ``draw``, ``end`` (``solo``,
``max_year``), ``phases`` (processed phases), ``years`` (years with a processed phase),
``final_year``, ``file`` (relative to the output folder), then ``centers_<POWER>`` per power of
the map (final supply-centre counts).
"""

from __future__ import annotations

import csv
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..model.position import Phase

__all__ = ["columns", "summary_row", "write_csv", "write_parquet"]

_FIXED = ("game_id", "seed", "winner", "draw", "end", "phases", "years", "final_year", "file")


def summary_row(doc: Mapping[str, Any], name: str) -> dict[str, Any]:
    """The summary row of a rollout's game file document, stored as ``games/<name>``."""
    meta = doc.get("meta") or {}
    rollout = meta.get("rollout") or {}
    status = doc["status"]
    phases = doc.get("phases") or []
    years = {Phase.parse(p["phase"]).year for p in phases}  # (S1M on ancmed, S1901M, S0001M)
    row: dict[str, Any] = {
        "game_id": rollout.get("id"),
        "seed": rollout.get("seed"),
        "winner": status.get("winner"),
        "draw": bool(status.get("draw")),
        "end": status.get("end"),
        "phases": len(phases),
        "years": len(years),
        "final_year": max(years) if years else None,
        "file": f"games/{name}",
    }
    for power, count in status["centers"].items():
        row[f"centers_{power}"] = int(count)
    return row


def columns(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    extra = sorted({k for r in rows for k in r if k not in _FIXED})
    return [*_FIXED, *extra]


def _atomic(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def write_csv(rows: Sequence[Mapping[str, Any]], path: Path) -> None:
    names = columns(rows)
    tmp = _atomic(path)
    with tmp.open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=names)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: ("" if row.get(k) is None else row.get(k)) for k in names})
    tmp.replace(path)


def write_parquet(rows: Sequence[Mapping[str, Any]], path: Path) -> None:
    """Raises ``ImportError`` without pyarrow (``pip install "diplo[rollouts]"``)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    names = columns(rows)
    types = {
        "game_id": pa.string(),
        "seed": pa.int64(),
        "winner": pa.string(),
        "draw": pa.bool_(),
        "end": pa.string(),
        "phases": pa.int32(),
        "years": pa.int32(),
        "final_year": pa.int32(),
        "file": pa.string(),
    }
    schema = pa.schema([(n, types.get(n, pa.int32())) for n in names])
    table = pa.Table.from_pylist([{k: r.get(k) for k in names} for r in rows], schema=schema)
    tmp = _atomic(path)
    pq.write_table(table, tmp)
    tmp.replace(path)
