"""Shared fixtures: the standard map, the backends that are built, and no MILA ruling chosen by
the environment."""

from __future__ import annotations

import pytest

from diplo.api.backends import available_backends
from diplo.model.map import Map, standard_map


@pytest.fixture(scope="session")
def game_map() -> Map:
    return standard_map()


BACKENDS = available_backends()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(autouse=True)
def _no_mila_ruling_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The MILA drop-in's default ruling as it ships (MILA's), whatever the shell exports: a
    test that wants another sets ``DIPLO_MILA_RULING`` itself."""
    monkeypatch.delenv("DIPLO_MILA_RULING", raising=False)
