"""``diplo.compat.mila.Map`` answers MILA's map queries as MILA's ``diplomacy.Map`` does, for every
location of every map MILA ships (14, several over the engine's location limit), when the
``compare`` extra is installed."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

diplomacy = pytest.importorskip("diplomacy", reason="MILA (the 'compare' extra) is not installed")

from diplo.compat.mila import Map  # noqa: E402

MAPS = sorted(p.stem for p in (Path(diplomacy.__file__).parent / "maps").glob("*.map"))
TABLES = (
    "locs", "loc_type", "loc_abut", "loc_name", "loc_coasts", "homes", "scs", "centers", "units",
    "powers", "pow_name", "own_word", "abbrev", "first_year", "victory", "phase", "rules",
)  # fmt: skip


def test_every_shipped_map_is_covered() -> None:
    assert len(MAPS) == 14


@pytest.mark.parametrize("name", MAPS)
def test_map_queries_answer_as_mila(name: str) -> None:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        theirs = diplomacy.Map(name, use_cache=False)
    ours = Map(name)
    for table in TABLES:
        assert getattr(ours, table) == getattr(theirs, table), table
    locs = theirs.locs
    for index, loc in enumerate(locs):
        for q in (loc, loc.upper(), loc.lower()):
            assert ours.area_type(q) == theirs.area_type(q), q
            assert ours.find_coasts(q) == theirs.find_coasts(q), q
            for incl in (False, True):
                assert ours.abut_list(q, incl) == theirs.abut_list(q, incl), q
            for unit_type in "AF?":
                for no_coast in (0, 1):
                    unit = f"{unit_type} {q}"
                    assert bool(ours.is_valid_unit(unit, no_coast)) == bool(
                        theirs.is_valid_unit(unit, no_coast)
                    ), unit
        others = {x.upper() for x in theirs.abut_list(loc, incl_no_coast=True)}
        others |= {locs[(index * 7 + k) % len(locs)].upper() for k in (1, 2)}
        for other in others:
            for unit_type in "AF?":
                for order in "-SC":
                    query = (unit_type, loc, order, other)
                    assert bool(ours.abuts(*query)) == bool(theirs.abuts(*query)), query
        assert ours.default_coast(["F", loc.upper(), "-", "SPA"]) == theirs.default_coast(
            ["F", loc.upper(), "-", "SPA"]
        )
