"""The one table of the rulebook editions (``diplo/data/editions.json``): ``diplo.model.rules``
reads it for ``EDITIONS`` and ``rust/build.rs`` makes the engine's ``Edition`` and its choices
from it, so an edition or an option's value is one entry in one place. Here: the table's shape,
Python's reading of it, and the engine taking the same editions with the same choices."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, get_args, get_type_hints

import pytest

from diplo.model.map import standard_map
from diplo.model.position import Position
from diplo.model.rules import DEFAULT_RULES, EDITIONS, Rules, RulesError

DOC: dict[str, Any] = json.loads(
    resources.files("diplo.data").joinpath("editions.json").read_text("utf-8")
)
ROWS = {row["name"]: row["choices"] for row in DOC["editions"]}
TODAY = ROWS[DOC["default"]]


def test_each_edition_is_today_s_choices_but_where_its_row_departs() -> None:
    assert list(EDITIONS) == [row["name"] for row in DOC["editions"]]
    for name, own in ROWS.items():
        assert set(own) <= set(TODAY), name  # a departure names an option today's row sets
        assert dict(EDITIONS[name]) == {**TODAY, **own}, name
        assert all(own[k] != TODAY[k] for k in own) or name == DOC["default"], (
            f"{name} repeats a choice of today's rulings: name only departures"
        )


def test_every_listed_value_is_one_rules_takes_and_no_other() -> None:
    for option, values in DOC["values"].items():
        for value in values:
            given: dict[str, Any] = {option: value}
            assert getattr(Rules(**given), option) == value
        bad: dict[str, Any] = {option: "no such value"}
        with pytest.raises(RulesError, match=option):
            Rules(**bad)
    for name, choices in EDITIONS.items():
        for option, value in choices.items():
            values = DOC["values"].get(option, [True, False])
            assert value in values, (name, option, value)


def test_the_typed_fields_name_the_listed_values() -> None:
    # The literal types of the fields are for the type checker; held to the table here.
    hints = get_type_hints(Rules)
    for option, values in DOC["values"].items():
        assert get_args(hints[option]) == tuple(values), option
    assert get_args(hints["edition"]) == tuple(EDITIONS)


def test_the_default_rules_are_the_default_edition_s() -> None:
    assert DEFAULT_RULES.edition == DOC["default"]
    doc = DEFAULT_RULES.to_json()
    assert {k: doc[k] for k in TODAY} == TODAY


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_the_engine_takes_the_same_editions_with_the_same_choices(edition: str) -> None:
    from diplo import _core
    from diplo.engine.compile import code_map, encode_position

    position = Position.initial(standard_map(), rules=Rules(edition=edition))  # type: ignore[arg-type]
    args = (code_map(position.map), *encode_position(position), None)
    full = _core.CodeGame(*args, position.rules.to_json())  # every option, as Python sends them
    bare = _core.CodeGame(*args, {"edition": edition})  # the engine's own row of the edition
    # The state bytes keep the options a board needs (civil disorder, its tie, the victory).
    assert bare.state_bytes() == full.state_bytes()
    with pytest.raises(ValueError, match="edition must be one of"):
        _core.CodeGame(*args, {"edition": edition + "x"})
