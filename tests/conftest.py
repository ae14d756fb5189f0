"""Shared fixtures: the standard map and the backends that are built."""

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
