"""The victory rule option ``victory_lead`` (godip's ``SCCountWinner``) and the ``godip`` edition:
a power with the victory count wins alone only with more centres than every other power. On the
Python reference, the object API on the Rust core and the code API alike, and the two engines held
together on random Fall turns."""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest

from diplo.api.game import Game
from diplo.api.phase import process_phase
from diplo.engine.codes import CodeGame, decode_order
from diplo.formats.contract import adjudicate_document
from diplo.model.map import standard_map
from diplo.model.orders import format_order
from diplo.model.position import Position
from diplo.model.rules import DEFAULT_RULES, EDITIONS, Rules, RulesError

LEAD = Rules(victory_centers=10, victory_lead=True)
COUNT = Rules(victory_centers=10)
GODIP = Rules(edition="godip", victory_centers=10)
FRENCH = ["PAR", "MAR", "BRE", "SPA", "POR", "HOL", "DEN", "SWE", "NWY"]
GERMAN = ["BER", "KIE", "MUN", "LON", "LVP", "EDI", "TUN", "NAP", "ROM", "VEN"]


def _fall(german: list[str], rules: Rules) -> Position:
    """France (nine centres) takes Belgium, its tenth, while Germany holds ``german``."""
    doc = {
        "phase": "F1905M",
        "units": {"FRANCE": ["A BUR"], "GERMANY": ["A RUH"]},
        "centers": {"FRANCE": FRENCH, "GERMANY": german},
    }
    return Position.from_json(doc, standard_map()).with_changes(rules=rules)


ORDERS = {"FRANCE": ["A BUR - BEL"], "GERMANY": ["A RUH H"]}


def _codes(position: Position) -> list[int]:
    """The codes of :data:`ORDERS` in ``position``."""
    by_text = {
        format_order(decode_order(c, position.map, position)): c
        for codes in CodeGame(position).legal_orders()
        for c in codes
    }
    return [by_text["A BUR - BEL"], by_text["A RUH H"]]


def _code_winner(position: Position) -> tuple[str | None, bool]:
    game = CodeGame(position)
    game.set_orders(_codes(position))
    game.process()
    return game.winner, game.is_over


# --------------------------------------------------------------------------- the rule


@pytest.mark.parametrize("rules", [LEAD, GODIP], ids=["victory_lead", "godip"])
def test_a_tie_at_the_top_wins_nobody_under_victory_lead(rules: Rules, backend: str) -> None:
    position = _fall(GERMAN, rules)  # France 10, Germany 10: both have the count
    outcome = process_phase(position, ORDERS, backend)
    assert outcome.winner is None and not outcome.game_over
    # The game goes on: both powers have builds to make.
    assert str(outcome.next.phase) == "W1905A"
    assert outcome.next.centers["BEL"] == "FRANCE"
    assert _code_winner(position) == (None, False)


def test_a_tie_at_the_top_wins_by_the_count_alone_without_it(backend: str) -> None:
    # The rulebook's rule: the count wins; of two powers with as many, the first in map order
    # (France before Germany), on every backend.
    outcome = process_phase(_fall(GERMAN, COUNT), ORDERS, backend)
    assert outcome.winner == "FRANCE"
    assert _code_winner(_fall(GERMAN, COUNT)) == ("FRANCE", True)


@pytest.mark.parametrize("rules", [LEAD, COUNT, GODIP], ids=["victory_lead", "count", "godip"])
def test_a_power_strictly_ahead_wins_under_both(rules: Rules, backend: str) -> None:
    position = _fall(GERMAN[:9], rules)  # France 10, Germany 9
    outcome = process_phase(position, ORDERS, backend)
    assert outcome.winner == "FRANCE"
    assert _code_winner(position) == ("FRANCE", True)


def test_the_lead_does_not_lower_the_count(backend: str) -> None:
    # Alone at the top with nine centres is no win when ten are needed.
    position = _fall(GERMAN[:5], LEAD).with_changes(rules=Rules(victory_centers=11))
    assert process_phase(position, ORDERS, backend).winner is None


def test_a_game_says_why_it_was_won(backend: str) -> None:
    game = Game.from_position(_fall(GERMAN[:9], GODIP), backend=backend)
    game.set_orders("FRANCE", ORDERS["FRANCE"])
    game.set_orders("GERMANY", ORDERS["GERMANY"])
    game.process()
    assert game.winner == "FRANCE" and game.end_reason == "solo"
    assert game.end_text == (
        "France owns 10 supply centres, at least the 10 needed after a Fall turn to win alone, "
        "and, as victory_lead asks, more than any other power (the next, Germany, has 9)."
    )
    plain = Game.from_position(_fall(GERMAN, COUNT), backend=backend)
    plain.set_orders("FRANCE", ORDERS["FRANCE"])
    plain.process()
    assert plain.end_text == (
        "France owns 10 supply centres, at least the 10 needed after a Fall turn to win alone."
    )
    assert Game(backend=backend).end_text is None


# --------------------------------------------------------------------------- the value


def test_victory_lead_is_read_and_written_everywhere() -> None:
    assert DEFAULT_RULES.victory_lead is False
    assert all(not Rules(edition=e).victory_lead for e in EDITIONS if e != "godip")  # type: ignore[arg-type]
    godip = Rules(edition="godip")
    assert godip.victory_lead is True
    # godip's edition departs from today's rulings in the victory, the civil-disorder distance
    # and its tie-break, the land route of an unrouted "via convoy" and the chains of fleets a
    # convoy order needs.
    assert godip.civil_disorder == "home"
    today = {
        "edition": "2023",
        "victory_lead": False,
        "civil_disorder": "owned",
        "disorder_tie": "name",
        "convoy_fallback": "none",
        "convoy_chains": "route",
    }
    assert Rules(**{**godip.to_json(), **today}) == DEFAULT_RULES
    assert Rules.from_json(json.loads(json.dumps(LEAD.to_json()))) == LEAD
    assert Rules.parse("victory_lead=true,victory_centers=10") == LEAD
    assert Rules.parse("edition=godip,victory_lead=false").victory_lead is False
    assert Rules.parse("victory_lead=False, edition=godip").victory_lead is False
    # A new edition brings its own victory rule; an explicit one overrides it.
    assert Rules.from_json({"edition": "godip"}, LEAD).victory_lead is True
    assert Rules.from_json({"edition": "mila"}, LEAD).victory_lead is False
    assert CodeGame(_fall(GERMAN, LEAD)).rules == LEAD
    # null is the edition's choice, as for the other options an edition sets.
    assert Rules.from_json({"edition": "godip", "victory_lead": None}).victory_lead is True


@pytest.mark.parametrize("value", [1, 0, "true", "false"])
def test_a_bad_victory_lead_is_refused_by_name(value: object) -> None:
    with pytest.raises(RulesError, match="victory_lead must be true or false"):
        Rules.from_json({"victory_lead": value})


def test_bad_victory_lead_text_is_refused() -> None:
    with pytest.raises(RulesError, match="victory_lead must be true or false, got 'yes'"):
        Rules.parse("victory_lead=yes")


def test_the_json_contract_takes_victory_lead() -> None:
    doc: dict[str, Any] = {**_fall(GERMAN, DEFAULT_RULES).to_json(), "orders": ORDERS}
    doc["rules"] = {"victory_centers": 10}
    assert adjudicate_document(doc)["next"]["phase"] is None  # the game ended: France won
    doc["rules"] = {"victory_centers": 10, "victory_lead": True}
    out = adjudicate_document(doc)
    assert out["next"]["phase"] == "W1905A"
    assert out["next"]["rules"]["victory_lead"] is True
    doc["rules"] = {"edition": "godip", "victory_centers": 10}
    assert adjudicate_document(doc)["next"]["phase"] == "W1905A"


def test_the_state_bytes_keep_victory_lead() -> None:
    from diplo import _core
    from diplo.engine.codes import code_map

    position = _fall(GERMAN, LEAD)
    back = pickle.loads(pickle.dumps(CodeGame(position)))
    assert back.rules == LEAD
    data = CodeGame(position)._core.state_bytes()
    table = code_map(position.map)
    # Read without the rules beside them, the bytes still play the lead: no winner on the tie.
    alone = _core.CodeGame.from_state_bytes(table, data)
    alone.set_orders(_codes(position))
    alone.process()
    assert alone.winner is None and not alone.is_over
    with pytest.raises(ValueError, match="do not match"):
        _core.CodeGame.from_state_bytes(table, data, COUNT.to_json())
    # Version 1 (before victory_lead; its byte sits after the year limit, at 32, and version 3's
    # victory_margin_year after it, at 33-36) reads as the rulebook's victory.
    assert data[3] == 4 and data[32] == 1 and data[33:37] == bytes(4)
    v3 = data[:3] + b"\x03" + data[4:]
    assert _core.CodeGame.from_state_bytes(table, v3, LEAD.to_json()).state_bytes() == data
    v2 = data[:3] + b"\x02" + data[4:33] + data[37:]
    assert _core.CodeGame.from_state_bytes(table, v2, LEAD.to_json()).state_bytes() == data
    old = data[:3] + b"\x01" + data[4:32] + data[37:]
    was = _core.CodeGame.from_state_bytes(table, old, COUNT.to_json())
    was.set_orders(_codes(position))
    was.process()
    assert was.winner == "FRANCE"
    with pytest.raises(ValueError, match="do not match"):
        _core.CodeGame.from_state_bytes(table, old, LEAD.to_json())


# --------------------------------------------------------------------------- both engines


def _random_fall(seed: int) -> tuple[Position, dict[str, list[str]]]:
    from generators import random_orders, random_position

    rng = random.Random(seed)
    game_map = standard_map()
    position = random_position(game_map, rng, count=rng.randint(6, 20), phase="F1905M")
    # The centres split between a few powers, so that ties at the top are common.
    powers = rng.sample(list(game_map.powers), rng.randint(2, 4))
    centers = {c: rng.choice(powers) for c in game_map.centers if rng.random() < 0.9}
    rules = Rules(
        victory_centers=rng.randint(6, 14),
        victory_lead=rng.random() < 0.5,
        edition=rng.choice(["2023", "godip"]),
        # Sometimes a strict leader also wins by its lead (godip's twentytwenty): by more than
        # 0 to 4 centres in 1905.
        victory_margin_year=1905 + rng.randint(0, 4) if rng.random() < 0.3 else None,
    )
    orders = random_orders(game_map, position, rng)
    return position.with_changes(centers=centers, rules=rules), orders


def _top(after: Position) -> tuple[int, list[str]]:
    """The most centres a power owns after the turn, and the powers owning as many."""
    counts = dict.fromkeys(after.map.powers, 0)
    for owner in after.centers.values():
        counts[owner] += 1
    top = max(counts.values())
    return top, [p for p, n in counts.items() if n == top]


def _lead(after: Position) -> int:
    """How many more centres the first power owns than the second after the turn."""
    counts = sorted((n for n in _counts(after).values()), reverse=True)
    return counts[0] - counts[1]


def _counts(after: Position) -> dict[str, int]:
    counts = dict.fromkeys(after.map.powers, 0)
    for owner in after.centers.values():
        counts[owner] += 1
    return counts


def test_both_engines_rule_victory_alike_on_random_fall_turns() -> None:
    seen = {"won": 0, "won_on_a_tie": 0, "blocked_by_the_tie": 0, "won_by_the_lead": 0}
    for seed in range(300):
        position, orders = _random_fall(seed)
        ref = process_phase(position, orders, "python")
        eng = process_phase(position, orders, "rust")
        where = (seed, position.rules, position.to_json(), orders)
        assert eng.to_json() == ref.to_json(), where
        assert eng.next.to_json() == ref.next.to_json(), where
        assert eng.winner == ref.winner, where
        # The code API, every unit holding.
        held = process_phase(position, {}, "python")
        fast = CodeGame(position)
        fast.process()
        assert fast.winner == held.winner, where
        if ref.next.phase.season == "F":
            continue  # retreats pending: no victory yet
        top, leaders = _top(ref.next)
        lead = position.rules.victory_lead
        margin = position.rules.victory_margin_year
        if margin is not None and len(leaders) == 1 and _lead(ref.next) > margin - 1905:
            assert ref.winner == leaders[0], where
            seen["won_by_the_lead"] += 1
        elif top < position.rules.victory(position.map.victory):
            assert ref.winner is None, where
        elif len(leaders) == 1:
            assert ref.winner == leaders[0], where
            seen["won"] += 1
        elif lead:
            assert ref.winner is None, where
            seen["blocked_by_the_tie"] += 1
        else:
            assert ref.winner == leaders[0], where  # the first in map order
            seen["won_on_a_tie"] += 1
    # The generated turns reach each case.
    assert min(seen.values()) >= 3, seen
