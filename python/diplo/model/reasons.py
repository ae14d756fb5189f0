"""The one table of reasons (``diplo/data/reasons.json``): why an order is refused and why a
retreat or adjustment result is what it is, each a row of code, name and sentences.

Both languages read the same file: this module for the names and the sentences
(:mod:`diplo.model.refusals` and :mod:`diplo.model.outcome` word them), the Rust engine's
``build.rs`` for its constants (``legality::reason`` and ``NAMES``, exported as
``_core.REASON_NAMES``; ``phases::explain`` and ``EXPLAIN_NAMES``, exported as
``_core.EXPLAIN_NAMES``). A code is its row's index and rollout datasets store it, so the tables
are append-only: ``tests/test_reason_table.py`` holds them to their frozen first rows.

A row's ``sentences`` map a *variant* (the context a sentence is said in: the phase kind, the
order's kind, the unit's type, the rule; ``""`` the default) to a template filled by
:meth:`str.format` with named fields.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from types import MappingProxyType
from typing import Any, Final, NamedTuple

__all__ = [
    "PHRASES",
    "REFUSALS",
    "REFUSAL_NAMES",
    "RULINGS",
    "RULING_NAMES",
    "Reason",
    "read_table",
]


class Reason(NamedTuple):
    """One row of the table: its code (``None`` for a refusal only the reference words), its
    name, what it means, and its sentence templates by variant."""

    code: int | None
    name: str
    doc: str
    sentences: Mapping[str, str]


def _rows(raw: Any, section: str, numbered: bool) -> tuple[Reason, ...]:
    if not isinstance(raw, list):
        raise ValueError(f"reasons.json: {section} must be a list")
    rows = []
    for index, entry in enumerate(raw):
        code = entry.get("code") if numbered else None
        if numbered and code != index:
            raise ValueError(f"reasons.json: {section}[{index}] has code {code!r}, not {index}")
        sentences = entry["sentences"]
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in sentences.items()):
            raise ValueError(f"reasons.json: {section}[{index}]: sentences must be texts")
        rows.append(Reason(code, entry["name"], entry["doc"], MappingProxyType(dict(sentences))))
    names = [row.name for row in rows]
    if len(set(names)) != len(names):
        raise ValueError(f"reasons.json: a name is given twice in {section}")
    return tuple(rows)


def read_table(text: str) -> dict[str, Any]:
    """The sections of a reasons table (the text of ``reasons.json``), checked: codes equal to
    their rows' indices, names unique."""
    doc = json.loads(text)
    return {
        "refusals": _rows(doc["refusals"], "refusals", True),
        "unnumbered": _rows(doc["unnumbered"], "unnumbered", False),
        "rulings": _rows(doc["rulings"], "rulings", True),
        "phrases": MappingProxyType(dict(doc["phrases"])),
    }


_TABLE = read_table(resources.files("diplo.data").joinpath("reasons.json").read_text("utf-8"))

#: The refusal reasons the engine numbers, by code (``_core.REASON_NAMES``).
REFUSAL_NAMES: Final[tuple[str, ...]] = tuple(row.name for row in _TABLE["refusals"])
#: Every refusal's sentence templates by name (the numbered ones and the reference's own).
REFUSALS: Final[Mapping[str, Mapping[str, str]]] = MappingProxyType(
    {row.name: row.sentences for row in (*_TABLE["refusals"], *_TABLE["unnumbered"])}
)
#: The why codes of retreat and adjustment results, by code (``_core.EXPLAIN_NAMES``).
RULING_NAMES: Final[tuple[str, ...]] = tuple(row.name for row in _TABLE["rulings"])
#: Every ruling's sentence templates by name.
RULINGS: Final[Mapping[str, Mapping[str, str]]] = MappingProxyType(
    {row.name: row.sentences for row in _TABLE["rulings"]}
)
#: Pieces of text several templates share (named as fields in them).
PHRASES: Final[Mapping[str, str]] = _TABLE["phrases"]
