"""The training dataset of a rollout: one row per order given, as Parquet (needs pyarrow:
``pip install "diplo[rollouts]"``), so that training on millions of games needs no JSON.

Layout: ``DIR/dataset/part-<first seed>-<last seed>.parquet``, one file per batch of games
(written whole under a temporary name, then renamed, like the game files). Read the whole set
with ``pyarrow.dataset.dataset("DIR/dataset")`` or ``pandas.read_parquet("DIR/dataset")``.

Columns:

* ``game`` (int64): the game's seed (its id is ``game-<seed, 8 digits>``, its file
  ``games/<id>.json``);
* ``phase`` (string): ``S1901M``, ...;
* ``power`` (string): the power that gave the order;
* ``order`` (string): the order's canonical text (``A PAR - BUR``; empty when the engine
  refused the code: only a policy of one's own gives such codes);
* ``code`` (uint64): the order's code (:mod:`diplo.engine.codes`);
* ``success`` (bool): whether it succeeded, in the DATC's sense;
* ``result`` (int8): its result code, an index of :data:`diplo.engine.codes.RESULT_CODES`
  (``ok``, ``bounce``, ...; ``illegal`` last);
* ``reason`` (int8): why the engine refused it, an index of ``diplo._core.REASON_NAMES``
  (0, ``ok``, for a legal order).

Rows come in game order, then phase order, then per phase power by power in map order (the
order of the game file's ``orders``).
"""

from __future__ import annotations

from typing import Any

from .write import OrderRows

__all__ = ["COLUMNS", "pyarrow_available", "to_parquet"]

COLUMNS = ("game", "phase", "power", "order", "code", "success", "result", "reason")


def pyarrow_available() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def schema() -> Any:
    import pyarrow as pa

    return pa.schema(
        [
            ("game", pa.int64()),
            ("phase", pa.string()),
            ("power", pa.string()),
            ("order", pa.string()),
            ("code", pa.uint64()),
            ("success", pa.bool_()),
            ("result", pa.int8()),
            ("reason", pa.int8()),
        ]
    )


def to_parquet(rows: OrderRows) -> bytes:
    """The rows as the bytes of one Parquet file (raises ``ImportError`` without pyarrow)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_arrays(
        [
            pa.array(rows.game, pa.int64()),
            pa.array(rows.phase, pa.string()),
            pa.array(rows.power, pa.string()),
            pa.array(rows.order, pa.string()),
            pa.array(rows.code, pa.uint64()),
            pa.array(rows.success, pa.bool_()),
            pa.array(rows.result, pa.int8()),
            pa.array(rows.reason, pa.int8()),
        ],
        schema=schema(),
    )
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd")
    return bytes(sink.getvalue().to_pybytes())


def part_name(first: int, last: int) -> str:
    """The name of the dataset file of a batch of games (its first and last seeds)."""
    return f"part-{_seed(first)}-{_seed(last)}.parquet"


def _seed(seed: int) -> str:
    return f"{seed:08d}" if seed >= 0 else f"m{-seed:08d}"
