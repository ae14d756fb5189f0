"""The drop-in's result labels where MILA's way of ruling shows in them (``docs/mila-compat.md``,
"Save and label differences left"): each case is a concrete position played on the drop-in,
under diplo's default rules and under ``Rules(edition="mila")``, and its labels are MILA's, given
here and, when the ``compare`` extra (MILA) is installed, checked against MILA playing the same
position. ``tools/mila_labels.py`` counts what still differs over whole random games."""

from __future__ import annotations

import copy
import importlib.util
from typing import Any, NamedTuple

import pytest

from diplo.compat.mila import Game
from diplo.model.rules import Rules

HAVE_MILA = importlib.util.find_spec("diplomacy") is not None


class Case(NamedTuple):
    """A position (units per power) at ``phase``, the orders of each phase played in turn, and
    the labels MILA gives units of the last phase played."""

    units: dict[str, list[str]]
    orders: list[dict[str, list[str]]]
    labels: dict[str, list[str]]
    phase: str = "S1901M"


CASES: dict[str, Case] = {
    # Found by tools/mila_search.py --labels: a fleet convoying a move that goes by land,
    # dislodged: MILA labels the void convoy before the dislodgement.
    "void_convoy_of_a_dislodged_fleet": Case(
        {"FRANCE": ["A PIC", "F MAO", "F BRE"], "ENGLAND": ["F ENG"]},
        [
            {
                "FRANCE": ["A PIC - BEL", "F MAO - ENG", "F BRE S F MAO - ENG"],
                "ENGLAND": ["F ENG C A PIC - BEL"],
            }
        ],
        {"F ENG": ["no convoy", "void", "dislodged"], "A PIC": []},
    ),
    # Found by tools/mila_search.py --labels: a swap of two units of one power, one of them
    # carried by its own fleet's convoy (intent, no "via"): MILA sees no swap, so the support
    # of the convoyed army into its own power's province is not void.
    "support_of_an_own_convoyed_swap": Case(
        {"TURKEY": ["A BUL", "F CON", "F AEG", "A SMY"]},
        [
            {
                "TURKEY": [
                    "A BUL - CON",
                    "F CON - BUL/EC",
                    "F AEG C A BUL - CON",
                    "A SMY S A BUL - CON",
                ]
            }
        ],
        {"A BUL": [], "F CON": [], "F AEG": [], "A SMY": []},
    ),
    # Found by tools/mila_search.py. A fleet on the army's ordered chain, the chain broken
    # further on (its other fleet dislodged): MILA's "no convoy" only (not "void": the fleet
    # was on a route when the orders were read).
    "fleet_of_a_chain_broken_further_on": Case(
        {"ENGLAND": ["A LVP", "F IRI", "F ENG"], "FRANCE": ["F BRE", "F MAO"]},
        [
            {
                "ENGLAND": ["A LVP - BEL VIA", "F IRI C A LVP - BEL", "F ENG C A LVP - BEL"],
                "FRANCE": ["F BRE S F MAO - ENG", "F MAO - ENG"],
            }
        ],
        {"A LVP": ["no convoy"], "F IRI": ["no convoy"], "F ENG": ["dislodged"]},
    ),
    # A convoying fleet attacked with a support of its own power: MILA's raw count
    # (_check_disruptions) finds it beaten, "disrupted", though it stays and the army lands
    # by its other route.
    "fleet_beaten_with_its_own_power_s_support": Case(
        {"ENGLAND": ["A LON", "F NTH", "F ENG", "F WAL"], "FRANCE": ["F MAO"]},
        [
            {
                "ENGLAND": [
                    "A LON - BEL VIA",
                    "F NTH C A LON - BEL",
                    "F ENG C A LON - BEL",
                    "F WAL S F MAO - ENG",
                ],
                "FRANCE": ["F MAO - ENG"],
            }
        ],
        {"A LON": [], "F NTH": [], "F ENG": ["disrupted"], "F WAL": ["void"], "F MAO": ["bounce"]},
    ),
    # A support of an army's move by convoy when no fleet was ordered to carry it there (the
    # fleet convoys it elsewhere): MILA voids the support (it was "no convoy").
    "support_of_a_convoy_never_ordered": Case(
        {"ENGLAND": ["A WAL"], "GERMANY": ["A DEN", "F NTH"]},
        [
            {
                "ENGLAND": ["A WAL S A DEN - YOR"],
                "GERMANY": ["A DEN - YOR VIA", "F NTH C A DEN - NWY"],
            }
        ],
        {"A WAL": ["void"], "A DEN": ["no convoy"], "F NTH": ["void"]},
    ),
    # The chain was ordered and then broken (its fleet dislodged): "no convoy".
    "support_of_a_broken_convoy": Case(
        {"ENGLAND": ["A LON", "F NTH"], "RUSSIA": ["F SKA"], "GERMANY": ["F HEL", "F DEN"]},
        [
            {
                "ENGLAND": ["A LON - NWY", "F NTH C A LON - NWY"],
                "RUSSIA": ["F SKA S A LON - NWY"],
                "GERMANY": ["F HEL - NTH", "F DEN S F HEL - NTH"],
            }
        ],
        {"A LON": ["no convoy"], "F SKA": ["no convoy"], "F NTH": ["dislodged"]},
    ),
    # The same, the support cut first: it stays "cut".
    "cut_support_of_a_broken_convoy": Case(
        {
            "ENGLAND": ["A LON", "F NTH"],
            "RUSSIA": ["F SKA"],
            "GERMANY": ["F HEL", "F DEN", "F SWE"],
        },
        [
            {
                "ENGLAND": ["A LON - NWY", "F NTH C A LON - NWY"],
                "RUSSIA": ["F SKA S A LON - NWY"],
                "GERMANY": ["F HEL - NTH", "F DEN S F HEL - NTH", "F SWE - SKA"],
            }
        ],
        {"A LON": ["no convoy"], "F SKA": ["cut"], "F SWE": ["bounce"]},
    ),
    # An army whose convoy failed (its fleet not ordered to convoy) and which is then
    # dislodged.
    "dislodged_army_without_its_convoy": Case(
        {"ENGLAND": ["A LON", "F NTH"], "FRANCE": ["A WAL", "F ENG"]},
        [
            {
                "ENGLAND": ["A LON - NWY VIA", "F NTH H"],
                "FRANCE": ["A WAL - LON", "F ENG S A WAL - LON"],
            }
        ],
        {"A LON": ["no convoy", "dislodged"], "A WAL": [], "F ENG": []},
    ),
    # A support of a foreign attack on one's own unit, the attack bounced by an equal hold:
    # MILA keeps the support (6.E.12 of its suite).
    "own_unit_support_of_a_bounced_attack": Case(
        {"AUSTRIA": ["A VIE", "A BUD", "A SER"], "RUSSIA": ["A GAL"]},
        [
            {
                "AUSTRIA": ["A VIE S A GAL - BUD", "A BUD H", "A SER S A BUD"],
                "RUSSIA": ["A GAL - BUD"],
            }
        ],
        {"A VIE": [], "A GAL": ["bounce"], "A SER": []},
    ),
    # ... the attack stronger than all else: the support is void (the unit is dislodged).
    "own_unit_support_of_the_strongest_attack": Case(
        {"AUSTRIA": ["A VIE", "A BUD"], "RUSSIA": ["A GAL", "A RUM"]},
        [
            {
                "AUSTRIA": ["A VIE S A GAL - BUD", "A BUD H"],
                "RUSSIA": ["A GAL - BUD", "A RUM S A GAL - BUD"],
            }
        ],
        {"A VIE": ["void"], "A BUD": ["dislodged"], "A GAL": []},
    ),
    # ... a head-to-head swap the attack wins: void for the swap and again for the dislodging.
    "own_unit_support_of_a_swap": Case(
        {"AUSTRIA": ["A VIE", "A BOH"], "GERMANY": ["A GAL", "A SIL"]},
        [
            {
                "AUSTRIA": ["A VIE S A GAL - BOH", "A BOH - GAL"],
                "GERMANY": ["A GAL - BOH", "A SIL S A GAL - BOH"],
            }
        ],
        {"A VIE": ["void", "void"], "A BOH": ["bounce", "dislodged"], "A GAL": []},
    ),
    # ... the support cut: "cut", not void.
    "own_unit_support_cut": Case(
        {"ENGLAND": ["A LON", "A LVP", "A WAL"], "FRANCE": ["F ENG"]},
        [
            {
                "ENGLAND": ["A LON S A LVP - WAL", "A LVP - WAL", "A WAL - LON VIA"],
                "FRANCE": ["F ENG - LON"],
            }
        ],
        {"A LON": ["cut"], "A LVP": ["bounce"]},  # A WAL: "no convoy" under the DATC
    ),
    # ... a move by convoy ordered VIA: MILA counts that support as any other.
    "own_unit_support_of_a_via_move": Case(
        {"ENGLAND": ["A WAL", "A YOR", "A LON"], "FRANCE": ["F ENG"]},
        [
            {
                "ENGLAND": ["A WAL - LON VIA", "A YOR S A WAL - LON", "A LON H"],
                "FRANCE": ["F ENG C A WAL - LON"],
            }
        ],
        {"A YOR": [], "A WAL": ["bounce"]},
    ),
    # A unit dislodged with nowhere to go and no retreat phase: MILA labels it "disband" in
    # the adjustment phase that follows.
    "disbanded_without_a_retreat_phase": Case(
        {"TURKEY": ["A SMY", "A CON", "A ANK"], "RUSSIA": ["A SYR", "A ARM"]},
        [{"RUSSIA": ["A SYR - SMY", "A ARM S A SYR - SMY"]}, {}],
        {"A SMY": ["disband"]},
        phase="F1901M",
    ),
    # ... and in the retreat phase when another unit retreats.
    "disbanded_in_another_unit_s_retreat_phase": Case(
        {
            "TURKEY": ["A SMY", "A CON", "A ANK", "F BLA"],
            "RUSSIA": ["A SYR", "A ARM", "F SEV", "F RUM"],
        },
        [
            {
                "RUSSIA": [
                    "A SYR - SMY",
                    "A ARM S A SYR - SMY",
                    "F SEV - BLA",
                    "F RUM S F SEV - BLA",
                ]
            },
            {"TURKEY": ["F BLA R BUL/EC"]},
        ],
        {"A SMY": ["disband"], "F BLA": []},
    ),
}


def _play(game: Any, case: Case) -> dict[str, list[str]]:
    """Set ``case`` up on ``game`` (the drop-in's or MILA's), play it, and give the last phase's
    labels (as strings)."""
    game.clear_units()
    game.set_current_phase(case.phase)
    for power, units in case.units.items():
        game.set_units(power, units)
    name = case.phase
    for orders in case.orders:
        name = game.get_current_phase()
        for power, texts in orders.items():
            game.set_orders(power, texts)
        game.process()
    return {str(u): [str(x) for x in r] for u, r in game.result_history[name].items()}


def _check(got: dict[str, list[str]], case: Case) -> None:
    for unit, labels in case.labels.items():
        assert got.get(unit) == labels, (unit, got)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("mila_edition", [False, True])
def test_the_drop_in_gives_milas_label(name: str, mila_edition: bool) -> None:
    """The drop-in's labels, under diplo's rules and under MILA's rulings (its default)."""
    case = CASES[name]
    game = Game() if mila_edition else Game(ruling="datc")
    assert (game.ruling == Rules(edition="mila")) is mila_edition
    _check(_play(game, case), case)


@pytest.mark.skipif(not HAVE_MILA, reason="needs the compare extra (PyPI diplomacy)")
@pytest.mark.parametrize("name", sorted(CASES))
def test_mila_gives_the_same_labels(name: str) -> None:
    """MILA playing the same position: the labels above are MILA's, and every other unit of
    the phase is labelled alike on both."""
    from diplomacy import Game as MilaGame

    case = CASES[name]
    mila = _play(MilaGame(), case)
    _check(mila, case)
    assert _play(Game(), case) == mila  # the drop-in as it comes: MILA's ruling


def test_the_disband_label_survives_a_copy() -> None:
    """The phase after a unit was lost with nowhere to go labels it in a copy of the game made
    before that phase was read, as in the game itself."""
    case = CASES["disbanded_without_a_retreat_phase"]
    game = Game(ruling=Rules(edition="mila"))
    game.clear_units()
    game.set_current_phase(case.phase)
    for power, units in case.units.items():
        game.set_units(power, units)
    game.set_orders("RUSSIA", case.orders[0]["RUSSIA"])
    game.process()
    assert game.get_current_phase() == "W1901A"
    copied = copy.deepcopy(game)
    game.process()
    copied.process()
    assert game.result_history["W1901A"]["A SMY"] == ["disband"]
    assert dict(copied.result_history) == dict(game.result_history)
