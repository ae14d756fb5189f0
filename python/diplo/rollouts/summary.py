"""The summary table of a rollout: one row per game, written as Parquet and CSV.

A row is what the game file's document says (:func:`summary_row`); a resumed run derives the
rows of the games already on disk from the games as the engine verified them
(:mod:`diplo.rollouts.verify`), never from what a file claims. The tables are written as a
stream (:func:`write_tables`): the rows are never all in memory at once, however many games.
CSV cells that a spreadsheet would read as a formula (starting with ``=``, ``+``, ``-``, ``@``,
a tab or a carriage return) are written with a leading ``'``.

Columns: ``game_id``, ``seed``, ``winner`` (empty for none), ``draw``, ``end`` (``solo``,
``max_year``), ``phases`` (processed phases), ``years`` (years with a processed phase),
``final_year``, ``file`` (relative to the output folder), then ``centers_<POWER>`` per power of
the map (final supply-centre counts).
"""

from __future__ import annotations

import contextlib
import csv
import heapq
import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from ..model.position import Phase

__all__ = [
    "RowSpill",
    "columns",
    "columns_for",
    "csv_cell",
    "merged",
    "read_csv_rows",
    "summary_row",
    "write_csv",
    "write_parquet",
    "write_tables",
]

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


def columns_for(powers: Sequence[str]) -> list[str]:
    """The columns of a rollout's summary on a map with ``powers``."""
    return [*_FIXED, *sorted(f"centers_{p}" for p in powers)]


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A value as a CSV cell: empty for ``None``; a text a spreadsheet would take for a formula
    gets a leading ``'`` (numbers are written as they are)."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


_INTS = frozenset({"seed", "phases", "years", "final_year"})


def read_csv_rows(path: Path) -> list[dict[str, Any]]:
    """The rows of a summary CSV, typed as :func:`summary_row` makes them."""
    out = []
    with path.open(newline="", encoding="utf-8") as f:
        for raw in csv.DictReader(f):
            row: dict[str, Any] = {}
            for key, text in raw.items():
                if text == "":
                    row[key] = None if key != "file" else ""
                elif key in _INTS or key.startswith("centers_"):
                    row[key] = int(text)
                elif key == "draw":
                    row[key] = text == "True"
                else:
                    row[key] = text[1:] if text.startswith("'") else text
            out.append(row)
    return out


class RowSpill:
    """Rows in seed order kept on disk (JSON lines in a temporary file), so that the parent of
    a rollout holds none of them in memory."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._out: IO[str] | None = path.open("w", encoding="utf-8")
        self.count = 0

    def add(self, row: Mapping[str, Any]) -> None:
        assert self._out is not None
        self._out.write(json.dumps(row) + "\n")
        self.count += 1

    def close(self) -> None:
        if self._out is not None:
            self._out.close()
            self._out = None

    def __iter__(self) -> Iterator[dict[str, Any]]:
        self.close()
        with self.path.open(encoding="utf-8") as f:
            for line in f:
                yield json.loads(line)

    def remove(self) -> None:
        self.close()
        self.path.unlink(missing_ok=True)


def merged(*spills: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Rows of several seed-ordered streams, in seed order."""
    return heapq.merge(*spills, key=lambda r: r["seed"])


def write_tables(
    rows: Iterable[Mapping[str, Any]],
    names: Sequence[str],
    csv_path: Path,
    parquet_path: Path | None,
    chunk: int = 8192,
) -> int:
    """Write ``rows`` (with columns ``names``) as CSV and, unless ``parquet_path`` is ``None``,
    Parquet, in one pass and chunk by chunk (raises ``ImportError`` for Parquet without
    pyarrow, before writing anything). Returns the number of rows."""
    writer: Any = None
    schema: Any = None
    ptmp: Path | None = None
    if parquet_path is not None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        schema = _schema(names)
        ptmp = _atomic(parquet_path)
        writer = pq.ParquetWriter(ptmp, schema)
    tmp = _atomic(csv_path)
    count = 0
    batch: list[dict[str, Any]] = []
    try:
        with tmp.open("w", newline="", encoding="utf-8") as out:
            table = csv.writer(out)
            table.writerow(names)
            for row in rows:
                table.writerow([csv_cell(row.get(k)) for k in names])
                count += 1
                if writer is not None:
                    batch.append({k: row.get(k) for k in names})
                    if len(batch) >= chunk:
                        writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                        batch.clear()
        if writer is not None:
            if batch or count == 0:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
            writer.close()
            writer = None
            assert parquet_path is not None and ptmp is not None
            ptmp.replace(parquet_path)
        tmp.replace(csv_path)
    except BaseException:
        # A failed write (a full disk, a file-size limit) leaves no temporary file behind.
        if writer is not None:
            with contextlib.suppress(Exception):  # the write's own error is the one to report
                writer.close()
        for left in (tmp, ptmp):
            if left is not None:
                left.unlink(missing_ok=True)
        raise
    return count


def _schema(names: Sequence[str]) -> Any:
    import pyarrow as pa

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
    return pa.schema([(n, types.get(n, pa.int32())) for n in names])


def _atomic(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def write_csv(rows: Sequence[Mapping[str, Any]], path: Path) -> None:
    names = columns(rows)
    tmp = _atomic(path)
    try:
        with tmp.open("w", newline="", encoding="utf-8") as out:
            writer = csv.DictWriter(out, fieldnames=names)
            writer.writeheader()
            for row in rows:
                writer.writerow({k: csv_cell(row.get(k)) for k in names})
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_parquet(rows: Sequence[Mapping[str, Any]], path: Path) -> None:
    """Raises ``ImportError`` without pyarrow (``pip install ".[rollouts]"``)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    names = columns(rows)
    schema = _schema(names)
    table = pa.Table.from_pylist([{k: r.get(k) for k in names} for r in rows], schema=schema)
    tmp = _atomic(path)
    try:
        pq.write_table(table, tmp)
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
