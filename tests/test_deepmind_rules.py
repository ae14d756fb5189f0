"""DeepMind's states under a chosen ruling (``rules=``/``edition=``, the DATC's by default), the
one convention of a build phase's legal actions (a power owed builds with no site lists
nothing, as DeepMind's conversion of MILA's possible orders gives), too many legal actions as a
``ValueError``, and the differential check against MILA (``tools/deepmind_diff.py``) at a small
budget."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason='diplo.env needs pip install "diplo[env]"')

from diplo.engine.codes import encode_order  # noqa: E402
from diplo.env.deepmind import (  # noqa: E402
    BatchedDiplomacyState,
    DiplomacyState,
    ReferenceDiplomacyState,
    action_of_order,
)
from diplo.model.map import standard_map  # noqa: E402
from diplo.model.orders import Move, SupportMove, Unit, Waive  # noqa: E402
from diplo.model.position import Phase, Piece, Position  # noqa: E402
from diplo.model.rules import EDITIONS, Rules  # noqa: E402
from processes import PYTHONPATH as UNDER_TEST  # noqa: E402
from tool_modules import load_tool  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SNAPSHOT = Path(os.environ.get("DIPLO_DEEPMIND") or ROOT.parent / "shared" / "deepmind-diplomacy")
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


class _One:
    """A batched state of one game, read as the one-game states are."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.batched = BatchedDiplomacyState(1, *args, **kwargs)
        self.batched.reset()
        self.rules = self.batched.rules

    def legal_actions(self) -> list[list[int]]:
        return self.batched.legal_actions_of(0)

    def observation(self) -> Any:
        return self.batched.observation(0)

    def step(self, actions: Any) -> None:
        self.batched.step_lists([actions])

    @property
    def game(self) -> Any:
        return self.batched.game(0)


STATES = pytest.mark.parametrize("State", [DiplomacyState, ReferenceDiplomacyState, _One])


@STATES
def test_the_default_ruling_is_the_datc_and_edition_sets_another(State: Any) -> None:
    assert State().rules == standard_map().rules and State().rules.edition == "2023"
    for edition in EDITIONS:
        state = State(edition=edition)
        assert state.rules == Rules.from_json({"edition": edition}, standard_map().rules)
        assert state.game.rules == state.rules
    mine = Rules(edition="1982", year_limit=1950)
    assert State(rules=mine).rules == mine
    # edition= replaces the edition's options and keeps the position's others.
    limited = Position.initial(standard_map(), rules=Rules(year_limit=1950))
    assert State(limited, edition="mila").rules == Rules(edition="mila", year_limit=1950)


def _convoy_start(rules: Rules | None = None) -> Position:
    """Spring 1901: France's A PIC beside F ENG, nothing else near."""
    start = Position.initial(standard_map())
    units = {p: u for p, u in start.units.items() if u.power != "FRANCE"}
    units["PIC"] = Piece("FRANCE", "A", "PIC")
    units["ENG"] = Piece("FRANCE", "F", "ENG")
    return start.with_changes(units=units, rules=rules)


@STATES
def test_the_ruling_chosen_rules_the_game(State: Any) -> None:
    """An army ordered by convoy to a neighbour with no convoy order: the DATC keeps it home,
    MILA's ruling (convoy_fallback="land") moves it overland."""
    game_map = standard_map()
    via = action_of_order(Move(Unit("A", "PIC"), "BEL", via=True), game_map, "M")
    assert via & 0xFF == 1  # their convoy-to
    moved = {}
    for edition in ("2023", "mila"):
        state = State(_convoy_start(), edition=edition)
        france = state.legal_actions()[POWERS.index("FRANCE")]
        assert via in france
        state.step([[via] if p == "FRANCE" else [] for p in POWERS])
        moved[edition] = state.game.position().units.get("BEL")
    assert moved == {"2023": None, "mila": Piece("FRANCE", "A", "BEL")}


@STATES
def test_bad_rulings_are_refused(State: Any) -> None:
    for bad in ("x", "MILA", ["mila"], 1971, {"edition": "mila"}):
        with pytest.raises(ValueError, match="edition must be one of"):
            State(edition=bad)
    with pytest.raises(TypeError, match=r"rules must be a diplo\.model\.rules\.Rules"):
        State(rules="mila")
    with pytest.raises(ValueError, match="not both"):
        State(rules=Rules(edition="mila"), edition="mila")
    with pytest.raises(TypeError, match="position must be"):
        State("S1901M", edition="mila")


def _no_site_position(rules: Rules | None = None) -> Position:
    """A build phase: France owns SPA too but its three homes hold its units (owed 1, no site);
    England's F LON went to the Channel and it owns NWY (owed 1, LON vacant); Russia lost SEV
    (one removal)."""
    start = Position.initial(standard_map())
    units = dict(start.units)
    del units["LON"]
    units["ENG"] = Piece("ENGLAND", "F", "ENG")
    centers = dict(start.centers, SPA="FRANCE", NWY="ENGLAND")
    del centers["SEV"]
    return start.with_changes(
        phase=Phase(1901, "W", "A"), units=units, centers=centers, rules=rules
    )


@STATES
@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_a_power_with_no_site_lists_nothing(State: Any, edition: str) -> None:
    state = State(_no_site_position(), edition=edition)
    legal = dict(zip(POWERS, state.legal_actions(), strict=True))
    numbers = dict(zip(POWERS, state.observation().build_numbers.tolist(), strict=True))
    assert numbers == {**dict.fromkeys(POWERS, 0), "ENGLAND": 1, "RUSSIA": -1}
    waive = action_of_order(Waive(), standard_map(), "A")
    assert legal["FRANCE"] == [] and numbers["FRANCE"] == 0
    assert waive in legal["ENGLAND"] and len(legal["ENGLAND"]) == 3  # A LON, F LON, waive
    assert len(legal["RUSSIA"]) == 4 and all(a & 0xFF == 12 for a in legal["RUSSIA"])
    with pytest.raises(ValueError, match="FRANCE: action"):
        state.step([[waive] if p == "FRANCE" else [] for p in POWERS])
    assert state.legal_actions() == list(legal.values())  # refused: nothing changed


@STATES
@pytest.mark.parametrize("edition", ["2023", "mila"])
def test_a_support_only_its_supporter_could_carry_is_no_action(State: Any, edition: str) -> None:
    # DATC 6.D.31's kind: MILA takes F NTH S A LON - BEL (convoyed_support="any_route",
    # Game._valid_order) but does not list it (get_all_possible_orders), so DeepMind's
    # conversion of MILA's possible orders has no such action; the DATC refuses it.
    start = Position.initial(standard_map())
    units = {
        "NTH": Piece("ENGLAND", "F", "NTH"),
        "LON": Piece("ENGLAND", "A", "LON"),
        "BEL": Piece("FRANCE", "A", "BEL"),
    }
    rules = Rules(edition=edition)  # type: ignore[arg-type]
    state = State(start.with_changes(units=units, rules=rules), edition=edition)
    england = dict(zip(POWERS, state.legal_actions(), strict=True))["ENGLAND"]
    support = SupportMove(Unit("F", "NTH"), Unit("A", "LON"), "BEL")
    assert action_of_order(support, standard_map(), "M") not in england
    assert action_of_order(Move(Unit("A", "LON"), "BEL", True), standard_map(), "M") in england
    legal = [c for codes in state.game.legal_orders() for c in codes]
    taken = encode_order(support, standard_map(), "ENGLAND") in legal
    assert taken == (edition == "mila")


def test_too_many_legal_actions_is_a_value_error_naming_phase_and_power() -> None:
    state = BatchedDiplomacyState(3, max_actions=5)
    with pytest.raises(ValueError, match=r"^game 0: S1901M: AUSTRIA has 34 legal actions, more "):
        state.reset()
    with pytest.raises(RuntimeError, match="reset"):
        state.step(np.full((3, 7, state.max_orders), -1, dtype=np.int64))


# ------------------------------------------------------------- the differential against MILA


def test_the_differential_check_agrees_with_mila() -> None:
    """Two seeded MILA games to 1910 (four power-phases owed builds with no site among them):
    under MILA's ruling every phase agrees followed and on equal boards (observation, legal
    actions, build numbers); under the default (the DATC) every phase agrees on equal boards
    (the games part where the rulings do)."""
    pytest.importorskip("diplomacy", reason='needs MILA: pip install ".[compare]"')
    if not (SNAPSHOT / "environment" / "mila_actions.py").is_file():
        pytest.skip(f"no DeepMind snapshot at {SNAPSHOT} (DIPLO_DEEPMIND=PATH)")
    tool = load_tool("deepmind_diff")
    default, mila = tool.run(2, 1004, 1910, "mila", ["default", "mila"], SNAPSHOT, 3)
    assert mila.phases == default.phases > 50
    assert mila.no_site >= 1
    assert mila.equal == mila.followed == mila.phases and mila.parted == 0, mila.examples
    assert default.equal == default.phases, default.examples
    assert not mila.kinds and not default.kinds


def test_the_differential_check_refuses_without_mila_or_their_code(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": UNDER_TEST, "DIPLO_DEEPMIND": str(tmp_path)}
    tool = [sys.executable, str(ROOT / "tools" / "deepmind_diff.py"), "--games", "1"]
    done = subprocess.run(tool, env=env, capture_output=True, text=True, timeout=120)
    if "MILA is not installed" not in done.stderr:
        assert done.returncode == 2 and "no DeepMind snapshot at" in done.stderr
    # MILA hidden: a module named diplomacy that cannot be imported.
    (tmp_path / "diplomacy.py").write_text("raise ImportError('hidden')\n")
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env["PYTHONPATH"]])
    done = subprocess.run(tool, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "MILA is not installed" in done.stderr
    bad = subprocess.run([*tool, "--edition", "x"], env=env, capture_output=True, text=True)
    assert bad.returncode == 2 and "--edition must be" in bad.stderr
