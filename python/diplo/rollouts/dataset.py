"""The training dataset of a rollout: one row per order given, as Parquet (needs pyarrow:
``pip install ".[rollouts]"``), so that training on millions of games needs no JSON.

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

__all__ = [
    "COLUMNS",
    "OrderRows",
    "part_name",
    "pyarrow_available",
    "settings_of",
    "table_of_buffers",
    "table_of_rows",
    "to_parquet",
]


class OrderRows:
    """The dataset's columns for the orders of some games (see :mod:`diplo.rollouts.dataset`):
    plain lists, one entry per order given."""

    __slots__ = ("code", "game", "order", "phase", "power", "reason", "result", "success")

    def __init__(self) -> None:
        self.game: list[int] = []
        self.phase: list[str] = []
        self.power: list[str] = []
        self.order: list[str] = []
        self.code: list[int] = []
        self.success: list[bool] = []
        self.result: list[int] = []
        self.reason: list[int] = []

    def __len__(self) -> int:
        return len(self.code)


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


def table_of_rows(rows: OrderRows) -> Any:
    """The rows as a pyarrow table (raises ``ImportError`` without pyarrow)."""
    import pyarrow as pa

    return pa.Table.from_arrays(
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


def table_of_buffers(rows: int, buffers: list[bytes]) -> Any:
    """The rows the engine collected (``_core.RolloutPlayer.take_dataset``: ``rows`` rows as
    Arrow buffers) as a pyarrow table."""
    import pyarrow as pa

    game, po, pd, wo, wd, oo, od, code, success, result, reason = map(pa.py_buffer, buffers)

    def fixed(kind: Any, data: Any) -> Any:
        return pa.Array.from_buffers(kind, rows, [None, data])

    def strings(offsets: Any, data: Any) -> Any:
        return pa.Array.from_buffers(pa.string(), rows, [None, offsets, data])

    table = pa.Table.from_arrays(
        [
            fixed(pa.int64(), game),
            strings(po, pd),
            strings(wo, wd),
            strings(oo, od),
            fixed(pa.uint64(), code),
            fixed(pa.bool_(), success),
            fixed(pa.int8(), result),
            fixed(pa.int8(), reason),
        ],
        schema=schema(),
    )
    table.validate(full=True)
    return table


#: The key of a part's Parquet metadata naming the run's map and year limit (JSON).
SETTINGS_KEY = b"diplo.rollout"


def to_parquet(rows: OrderRows | Any, settings: tuple[str, int | None] | None = None) -> bytes:
    """The rows (an :class:`OrderRows`, or a pyarrow table of the dataset's schema) as the
    bytes of one Parquet file (raises ``ImportError`` without pyarrow); ``settings``, the run's
    map name and year limit, go in its metadata (:func:`settings_of` reads them)."""
    import json

    import pyarrow as pa
    import pyarrow.parquet as pq

    table = table_of_rows(rows) if isinstance(rows, OrderRows) else rows
    if settings is not None:
        said = json.dumps({"map": settings[0], "max_year": settings[1]})
        table = table.replace_schema_metadata({SETTINGS_KEY: said.encode("utf-8")})
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd")
    return bytes(sink.getvalue().to_pybytes())


def settings_of(schema: Any) -> tuple[str, int | None] | None:
    """The map name and year limit a part's schema says it was made with (``None``: it does
    not say, or not readably)."""
    import json

    raw = (schema.metadata or {}).get(SETTINGS_KEY)
    if raw is None:
        return None
    try:
        said = json.loads(raw)
        name, year = said["map"], said["max_year"]
    except (ValueError, TypeError, KeyError):
        return None
    if not isinstance(name, str) or not (year is None or type(year) is int):
        return None
    return name, year


def part_name(first: int, last: int) -> str:
    """The name of the dataset file of a batch of games (its first and last seeds)."""
    return f"part-{_seed(first)}-{_seed(last)}.parquet"


def _seed(seed: int) -> str:
    return f"{seed:08d}" if seed >= 0 else f"m{-seed:08d}"
