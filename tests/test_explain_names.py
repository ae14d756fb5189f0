"""One table of why codes: every name the engine exports for its retreat and adjustment rulings
(``diplo._core.EXPLAIN_NAMES``, defined once in ``rust/src/engine/phases.rs``) has a sentence in
``diplo.model.outcome``, and every sentence there has a name the engine exports. Plus the two
rulings the generated cross-check (``tests/test_engine.py``) seldom or never reaches, ruled by
both backends: a three-way retreat clash and civil disorder of units on home centres."""

from __future__ import annotations

import pytest

from diplo.api.phase import process_phase
from diplo.model.map import standard_map
from diplo.model.outcome import RULING_SENTENCES, RulingFacts, explain_ruling
from diplo.model.position import Dislodged, Phase, Piece, Position
from diplo.model.rules import Rules


def test_every_engine_why_has_a_sentence_and_back() -> None:
    from diplo import _core

    names = _core.EXPLAIN_NAMES
    assert isinstance(names, list)  # a list, as every table the core exports
    assert len(set(names)) == len(names), "a why name is exported twice"
    assert set(names) == set(RULING_SENTENCES)


def test_the_engine_adapter_reads_the_same_table() -> None:
    from diplo import _core
    from diplo.engine.objects import EXPLAIN_NAMES

    assert tuple(_core.EXPLAIN_NAMES) == EXPLAIN_NAMES


@pytest.mark.parametrize("why", sorted(RULING_SENTENCES))
def test_every_sentence_words_its_facts(why: str) -> None:
    facts = RulingFacts(
        why,
        "ENGLAND",
        "F LON",
        "F LON D",
        "NTH",
        "YOR",
        2,
        False,
        [("FRANCE", "A PIC")],
    )
    sentence = explain_ruling(facts)
    assert sentence.endswith(".")
    assert sentence[0].isupper()


def _both(position: Position, orders: dict[str, list[str]]) -> list[str]:
    ref = process_phase(position, orders, "python")
    eng = process_phase(position, orders, "rust")
    assert eng.results == ref.results
    assert eng.next == ref.next
    return [r.reason for r in eng.results]


def test_a_three_way_retreat_clash_names_the_rivals_in_order_given() -> None:
    # The generated cross-check rarely has three units retreating to one province.

    dislodged = {
        "BUR": Dislodged(Piece("FRANCE", "A", "BUR"), ("PAR", "GAS")),
        "PIC": Dislodged(Piece("ENGLAND", "A", "PIC"), ("PAR", "BRE")),
        "GAS": Dislodged(Piece("GERMANY", "A", "GAS"), ("PAR", "MAR")),
    }
    units = {"MUN": Piece("AUSTRIA", "A", "MUN")}
    position = Position(standard_map(), Phase(1901, "S", "R"), units, {}, dislodged)
    orders = {"GERMANY": ["A GAS R PAR"], "FRANCE": ["A BUR R PAR"], "ENGLAND": ["A PIC R PAR"]}
    reasons = _both(position, orders)
    assert reasons[1] == (
        "A BUR R PAR failed and A BUR is disbanded: Germany A GAS and England A PIC also retreat "
        "to PAR, and units retreating to the same province are all disbanded (DATC 6.H.7)."
    )


def test_civil_disorder_of_units_standing_on_home_centres() -> None:
    # Only a hand-written position has units on home centres another power owns; the older
    # rulebooks' rule then removes units at distance 0.

    units = {
        "PAR": Piece("FRANCE", "A", "PAR"),
        "MAR": Piece("FRANCE", "A", "MAR"),
        "BRE": Piece("FRANCE", "F", "BRE"),
    }
    centers = {"PAR": "GERMANY", "MAR": "GERMANY", "BRE": "GERMANY", "BEL": "FRANCE"}
    for rules, start in (
        (Rules(civil_disorder="home"), "F BRE disbanded by the civil-disorder rule: it stands on"),
        (Rules(), "F BRE disbanded by the civil-disorder rule: 2 moves from the nearest owned"),
    ):
        position = Position(standard_map(), Phase(1901, "W", "A"), units, centers, rules=rules)
        reasons = _both(position, {})
        assert reasons[0].startswith(start)
