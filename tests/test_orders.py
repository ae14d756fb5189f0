"""The order parser and formatter: every notation people send, and parse(format(o)) == o."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from diplo.model.map import Map, standard_map
from diplo.model.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    OrderParseError,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
    format_order,
    parse_order,
    parse_power_order,
)

M = standard_map()


def A(loc: str) -> Unit:
    return Unit("A", loc)


def F(loc: str) -> Unit:
    return Unit("F", loc)


@pytest.mark.parametrize(
    ("text", "order"),
    [
        # The short form.
        ("A PAR - BUR", Move(A("PAR"), "BUR")),
        ("F NTH C A LON - BEL", Convoy(F("NTH"), A("LON"), "BEL")),
        ("A LON - BEL VIA", Move(A("LON"), "BEL", True)),
        ("A MUN S A BER - SIL", SupportMove(A("MUN"), A("BER"), "SIL")),
        ("A MUN S A BER", SupportHold(A("MUN"), A("BER"))),
        ("A PAR H", Hold(A("PAR"))),
        ("F STP/SC - BOT", Move(F("STP/SC"), "BOT")),
        ("A PAR R BUR", Retreat(A("PAR"), "BUR")),
        ("A PAR D", Disband(A("PAR"))),
        ("A PAR B", Build(A("PAR"))),
        ("F STP/SC B", Build(F("STP/SC"))),
        ("WAIVE", Waive()),
        # The DATC's prose.
        ("F North Sea Convoys A London - Belgium", Convoy(F("NTH"), A("LON"), "BEL")),
        ("A Yorkshire Supports A Liverpool", SupportHold(A("YOR"), A("LVP"))),
        ("F Spain(nc) Hold", Hold(F("SPA/NC"))),
        ("F St Petersburg(sc) - Gulf of Bothnia", Move(F("STP/SC"), "BOT")),
        ("F Gulf of Lyon - Spain(sc)", Move(F("LYO"), "SPA/SC")),
        ("F Mid-Atlantic Ocean - North Atlantic Ocean", Move(F("MAO"), "NAO")),
        ("F Norwegian Sea Supports F North Sea - Norway", SupportMove(F("NWG"), F("NTH"), "NWY")),
        ("A Picardy - Belgium via Convoy", Move(A("PIC"), "BEL", True)),
        ("Build F St Petersburg(nc)", Build(F("STP/NC"))),
        ("Build Warsaw", Build(Unit(None, "WAR"))),
        ("Remove F Gulf of Lyon", Disband(F("LYO"))),
        # DATC 4.C.5: nationality in a support order is ignored.
        ("A Ruhr Supports German A Munich", SupportHold(A("RUH"), A("MUN"))),
        # DATC 4.A.6: a convoy path written into the order is ignored.
        ("A Yorkshire - North Sea - Belgium", Move(A("YOR"), "BEL")),
        # DATC 6.F.25 writes the supported unit without its type (and misspells Ruhr).
        ("A Holland Supports Rhur - Belgium", SupportMove(A("HOL"), Unit(None, "RUH"), "BEL")),
        # Case, spacing and dashes.
        ("a par-bur", Move(A("PAR"), "BUR")),
        ("  F  spa/nc  ->  mao ", Move(F("SPA/NC"), "MAO")),
        ("A Munich \u2013 Berlin", Move(A("MUN"), "BER")),
    ],
)
def test_notations(text: str, order: Order) -> None:
    assert parse_order(text, M) == order


def test_power_prefix() -> None:
    assert parse_power_order("England: F North Sea - Picardy", M) == (
        "ENGLAND",
        Move(F("NTH"), "PIC"),
    )
    assert parse_power_order("A PAR H", M) == (None, Hold(A("PAR")))


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty order"),
        ("A PAR", "no order given"),
        ("A XYZ - BUR", "unknown unit location 'xyz'"),
        ("A PAR - MOON", "unknown destination 'moon'"),
        ("F NTH C A LON", "destination"),
        ("A PAR H H", "unexpected"),
        ("Narnia: A PAR H", "unknown power"),
        ("WAIVE now", "nothing may follow"),
    ],
)
def test_parse_errors_name_the_text_and_the_problem(text: str, fragment: str) -> None:
    with pytest.raises(OrderParseError) as info:
        parse_order(text, M)
    assert repr(text) in str(info.value)
    assert fragment in str(info.value)


def test_non_string_is_a_parse_error() -> None:
    with pytest.raises(OrderParseError):
        parse_order(42, M)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- round trip


def _locations(game_map: Map) -> st.SearchStrategy[str]:
    return st.sampled_from(game_map.locations)


LOC = _locations(M)
UNITS = st.builds(Unit, st.sampled_from(["A", "F", None]), LOC)
ORDERS: st.SearchStrategy[Order] = st.one_of(
    st.builds(Hold, UNITS),
    st.builds(Move, UNITS, LOC, st.booleans()),
    st.builds(SupportHold, UNITS, UNITS),
    st.builds(SupportMove, UNITS, UNITS, LOC),
    st.builds(Convoy, UNITS, UNITS, LOC),
    st.builds(Retreat, UNITS, LOC),
    st.builds(Disband, UNITS),
    st.builds(Build, UNITS),
    st.just(Waive()),
)


@given(ORDERS)
def test_parse_format_round_trip(order: Order) -> None:
    assert parse_order(format_order(order), M) == order


@given(ORDERS)
def test_full_names_parse_to_the_same_order(order: Order) -> None:
    # Writing every location by its full English name gives the same order.
    text = format_order(order)
    words = []
    for word in text.split():
        prov, _, coast = word.partition("/")
        if prov in M.provinces:
            name = M.provinces[prov].name
            words.append(f"{name}({coast.lower()})" if coast else name)
        else:
            words.append(word)
    assert parse_order(" ".join(words), M) == order
