"""MILA's own unit tests of its ``Game`` (``diplomacy/tests/test_game.py`` and ``test_datc.py``,
shipped inside the ``diplomacy`` package) run against the drop-in ``diplo.compat.mila.Game``.

Nothing is copied: the installed test modules are imported and the one name ``Game`` in each is
replaced by the drop-in's (as a user switching engines changes one import). They run twice: on
the drop-in as it comes (MILA's ruling, the default), where every test must pass except those
named in :data:`EXPECTED_FAILURES_MILA`, and on the drop-in under diplo's rulings
(``ruling="datc"``), where every test must pass except those named in
:data:`EXPECTED_FAILURES`, each with its reason: the places where MILA rules otherwise than the
DATC v3.0 (``docs/mila-compat.md``, "Where MILA departs from the DATC") or labels a result
otherwise. A named test that starts passing fails here too, so the lists stay exact. Runs
whenever the ``compare`` extra (MILA) is installed.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import io
from collections.abc import Callable
from typing import Any

import pytest

mila_tests_game = pytest.importorskip("diplomacy.tests.test_game")
mila_tests_datc = pytest.importorskip("diplomacy.tests.test_datc")

from diplo.compat import mila as drop  # noqa: E402
from diplo.model.rules import Rules, RulesError  # noqa: E402

#: Where the civil-disorder rule decides: MILA counts distances from the home centres (the
#: older rulebooks); diplo's default rules follow the 2023 rulebook (distance from any owned
#: centre). ``Rules(civil_disorder="home")`` is MILA's rule.
_CIVIL_DISORDER = (
    "civil disorder: MILA removes the unit farthest from its power's home centres (older "
    "rulebooks); diplo's default counts from the owned centres (2023 rulebook)"
)

#: MILA's tests that fail against the drop-in, and why. Ruling departures first (their names are
#: those of ``docs/mila-compat.md`` and ``tests/test_mila.py``), then result labels.
EXPECTED_FAILURES: dict[str, str] = {
    "test_6_b_9": "support_coast_ignored: MILA counts a support of a move to the other coast "
    "(DATC 6.B.9: the support is void)",
    "test_6_g_8": "convoy_intent_fallback: MILA moves an army ordered VIA overland when no convoy "
    "is there (DATC v3.0 4.A.3: with convoy intent only the convoy route counts)",
    "test_6_j_3": _CIVIL_DISORDER,
    "test_6_j_5": _CIVIL_DISORDER,
    "test_6_j_6": _CIVIL_DISORDER + "; MILA's fleet distances also differ from diplo's",
    "test_6_j_7": _CIVIL_DISORDER,
    "test_6_k_1": _CIVIL_DISORDER,
    "test_6_g_6": "label: MILA labels a convoying fleet off the route the army used 'no convoy'; "
    "diplo's ruling (the army is carried by the other fleets) says the convoy was used",
}
#: MILA's tests that fail against the drop-in as it comes (MILA's ruling), and why: no ruling
#: (6.J.6's fleet distances are MILA's since ``disorder_distance="fleet_moves"``), one label.
EXPECTED_FAILURES_MILA: dict[str, str] = {
    "test_6_g_6": EXPECTED_FAILURES["test_6_g_6"],
}
#: The drop-in under diplo's rulings by the DATC v3.0 (a new game's default is MILA's).
DATC_GAME = functools.partial(drop.Game, ruling="datc")
#: The failures that a game with MILA's civil-disorder rule (``ruling=``) no longer has.
CIVIL_DISORDER_FIXED = {"test_6_j_3", "test_6_j_5", "test_6_j_7", "test_6_k_1"}


def _cases() -> dict[str, Callable[[], Any]]:
    game_tests = {
        n: getattr(mila_tests_game, n) for n in dir(mila_tests_game) if n.startswith("test_")
    }
    datc = mila_tests_datc.TestDATC
    datc_tests = {n: getattr(datc, n) for n in dir(datc) if n.startswith("test_")}
    return {**game_tests, **datc_tests}


CASES = _cases()


def _run(name: str, game: Callable[..., Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Run MILA's test ``name`` with ``Game`` replaced by ``game`` (its prints swallowed)."""
    monkeypatch.setattr(mila_tests_game, "Game", game)
    monkeypatch.setattr(mila_tests_datc, "Game", game)
    test: Callable[..., Any] = CASES[name]
    with contextlib.redirect_stdout(io.StringIO()):
        if name in dir(mila_tests_datc.TestDATC):
            test(mila_tests_datc.TestDATC())
        else:
            test()


@pytest.fixture(autouse=True)
def _no_default(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The drop-in as it comes: no ruling chosen by the environment or the setter."""
    from diplo.compat.mila import ruling as default

    monkeypatch.delenv(default.ENV_VAR, raising=False)
    default.reset_default_ruling()
    yield
    default.reset_default_ruling()


def test_the_suites_are_whole() -> None:
    # 23 tests of test_game.py and 160 DATC cases: a MILA release that renames them shows here.
    assert len(CASES) == 183
    assert set(EXPECTED_FAILURES) <= set(CASES)
    assert set(EXPECTED_FAILURES_MILA) <= set(EXPECTED_FAILURES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_mila_suite_against_the_drop_in(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The drop-in as a harness gets it, with no ruling chosen: MILA's.
    assert drop.Game().ruling == Rules(edition="mila")
    if name in EXPECTED_FAILURES_MILA:
        with pytest.raises(AssertionError):
            _run(name, drop.Game, monkeypatch)
    else:
        _run(name, drop.Game, monkeypatch)


@pytest.mark.parametrize("name", sorted(CASES))
def test_mila_suite_against_the_drop_in_under_the_datc(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert DATC_GAME().ruling is None  # diplo's rulings
    if name in EXPECTED_FAILURES:
        with pytest.raises(AssertionError):
            _run(name, DATC_GAME, monkeypatch)
    else:
        _run(name, DATC_GAME, monkeypatch)


#: MILA's two other DATC files: the same cases with the rule ``NO_CHECK`` (orders kept unchecked
#: and ruled void at processing) and with ``set_orders(..., expand=False)``. Their expected
#: failures under diplo's rulings are the DATC ones above (with ``expand=False`` MILA's 6.B.9
#: passes too).
VARIANTS = {
    "test_datc_no_check": set(EXPECTED_FAILURES),
    "test_datc_no_expand": set(EXPECTED_FAILURES) - {"test_6_b_9"},
}
#: Their expected failures on the drop-in as it comes (MILA's ruling): those of
#: :data:`EXPECTED_FAILURES_MILA`, and with ``expand=False`` 6.B.9, which MILA then rules as the
#: DATC does (an order it does not expand keeps the coast its support names), where MILA's
#: edition counts the support whatever coast it names (``support_coast="any"``).
VARIANTS_MILA = {
    "test_datc_no_check": set(EXPECTED_FAILURES_MILA),
    "test_datc_no_expand": set(EXPECTED_FAILURES_MILA) | {"test_6_b_9"},
}


def _variant_cases() -> list[tuple[str, str]]:
    out = []
    for module_name in VARIANTS:
        module = pytest.importorskip(f"diplomacy.tests.{module_name}")
        cls = next(getattr(module, n) for n in dir(module) if n.startswith("TestDATC"))
        out += [(module_name, n) for n in dir(cls) if n.startswith("test_")]
    return sorted(out)


@pytest.mark.parametrize("ruling", ["default", "datc"])
@pytest.mark.parametrize(("module_name", "name"), _variant_cases())
def test_milas_variant_suites_against_the_drop_in(
    module_name: str, name: str, ruling: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = importlib.import_module(f"diplomacy.tests.{module_name}")
    cls = next(getattr(module, n) for n in dir(module) if n.startswith("TestDATC"))
    game, expected = (drop.Game, VARIANTS_MILA) if ruling == "default" else (DATC_GAME, VARIANTS)
    for patched in (module, mila_tests_datc):
        if hasattr(patched, "Game"):  # test_datc_no_expand uses test_datc's
            monkeypatch.setattr(patched, "Game", game)
    test = getattr(cls(), name)
    with contextlib.redirect_stdout(io.StringIO()):
        if name in expected[module_name]:
            with pytest.raises(AssertionError):
                test()
        else:
            test()


@pytest.mark.parametrize("name", sorted(CIVIL_DISORDER_FIXED))
def test_the_ruling_reaches_the_engine(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # A rules value passed to the drop-in rules the game: MILA's civil-disorder rule makes
    # MILA's civil-disorder cases pass.
    game = functools.partial(drop.Game, ruling=Rules(civil_disorder="home"))
    _run(name, game, monkeypatch)


def _mila_edition() -> Rules:
    try:
        return Rules(edition="mila")
    except (TypeError, RulesError) as exc:
        pytest.skip(f"Rules has no MILA ruling mode yet (edition='mila': {exc})")


#: The ruling departures among the expected failures: MILA's ruling mode must pass them.
RULING_DEPARTURES = {"test_6_b_9", "test_6_g_8"}


def test_a_game_in_milas_ruling_mode_passes_milas_tests(monkeypatch: pytest.MonkeyPatch) -> None:
    # In MILA's ruling mode (the drop-in's default: no ruling given) the ruling departures are
    # MILA's: its tests of them pass, and every test that passes in diplo's mode still passes.
    # (Labels and the civil-disorder distances are not rulings of that mode; those tests may
    # still fail.)
    rules = _mila_edition()
    game = drop.Game
    assert game().ruling == rules
    failed = []
    for name in sorted((set(CASES) - set(EXPECTED_FAILURES)) | RULING_DEPARTURES):
        try:
            _run(name, game, monkeypatch)
        except AssertionError:
            failed.append(name)
    assert not failed, f"MILA's ruling mode fails {failed}"
