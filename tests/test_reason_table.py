"""The one table of reasons (``diplo/data/reasons.json``): code, name and sentences of every
refusal and every retreat or adjustment ruling, read by the Python package and turned into the
engine's constants by ``rust/build.rs``.

Append-only: rollout datasets store a refusal's code (``diplo.rollouts.dataset``'s ``reason``
column), so a row once shipped keeps its code and name for ever; the frozen rows are
``tests/fixtures/reason_codes.json`` and the table must start with them unchanged.
"""

from __future__ import annotations

import json
import string
from importlib import resources
from pathlib import Path

import pytest

from diplo.model.reasons import PHRASES, REFUSAL_NAMES, REFUSALS, RULING_NAMES, RULINGS, read_table

FROZEN = json.loads((Path(__file__).parent / "fixtures" / "reason_codes.json").read_text())
TEXT = resources.files("diplo.data").joinpath("reasons.json").read_text("utf-8")


@pytest.mark.parametrize(
    ("section", "names"), [("refusals", REFUSAL_NAMES), ("rulings", RULING_NAMES)]
)
def test_the_table_starts_with_every_frozen_row_unchanged(
    section: str, names: tuple[str, ...]
) -> None:
    frozen = [tuple(row) for row in FROZEN[section]]
    assert len(frozen) >= 25  # the fixture holds the rows that shipped
    current = [(code, name) for code, name in enumerate(names)]
    assert current[: len(frozen)] == frozen, f"{section}: a shipped code was renumbered or renamed"


def test_a_renumbered_or_reordered_table_is_refused_when_read() -> None:
    doc = json.loads(TEXT)
    doc["refusals"][3], doc["refusals"][4] = doc["refusals"][4], doc["refusals"][3]
    with pytest.raises(ValueError, match=r"refusals\[3\] has code 4"):
        read_table(json.dumps(doc))
    doc = json.loads(TEXT)
    doc["rulings"].append(dict(doc["rulings"][0], code=len(doc["rulings"])))
    with pytest.raises(ValueError, match="a name is given twice in rulings"):
        read_table(json.dumps(doc))


def test_the_engine_is_built_from_the_same_table() -> None:
    from diplo import _core

    assert tuple(_core.REASON_NAMES) == REFUSAL_NAMES
    assert tuple(_core.EXPLAIN_NAMES) == RULING_NAMES


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_template_names_only_fields_its_wording_fills() -> None:
    # The fields each side fills (diplo.model.refusals, diplo.model.outcome): a typo in the
    # table fails here, not on the first game that says the sentence.
    refusal_fields = {
        "prov", "owner", "name", "piece", "target", "dst", "src", "loc", "dest", "other_prov",
        "target_prov", "allowed", "occupant", "order", "unit", "count", "neutral",
    }  # fmt: skip
    ruling_fields = {
        "unit", "place", "other", "number", "power", "what", "units", "disbands", "moves",
        "them", "others", *PHRASES,
    }  # fmt: skip
    for name, variants in REFUSALS.items():
        for variant, template in variants.items():
            assert _fields(template) <= refusal_fields, (name, variant)
    for name, variants in RULINGS.items():
        assert "" in variants, name
        for variant, template in variants.items():
            assert _fields(template) <= ruling_fields, (name, variant)
            assert template[0] in "{" or template[0].isupper(), (name, variant)
            assert template.endswith("."), (name, variant)
