"""DeepMind's released no-press agents playing on diplo: their own network code
(github.com/deepmind/diplomacy, ``network/``) driving a :class:`DiplomacyState` through their own
game runner (``environment/game_runner.py``).

Their code is not shipped with diplo (it is theirs, Apache-2.0): give the folder of a copy of
their repository. It needs the ``deepmind`` extra (``pip install ".[deepmind]"`` from the
checkout: JAX, dm-haiku, dm-tree, dm-env, ml-collections, dill, absl-py, immutabledict).

* :func:`load_their_code` imports their modules from that folder. Their modules import each
  other as ``diplomacy.environment`` and ``diplomacy.network``, the package name of MILA: they
  are imported under it for the import only, and any MILA modules already imported are put back
  afterwards, so MILA and their code live side by side. Their code calls ``np.cast``, which
  NumPy 2 removed: when it is missing it is restored (``np.cast[dtype](x)`` is
  ``np.asarray(x, dtype)``).
* :func:`network_policy` builds their ``Policy`` over their ``SequenceNetworkHandler`` with
  the network of their ``network/config.py``: parameters read from their released file (a
  ``dill`` pickle, e.g. ``fppi2_params.npz`` or ``sl_params.npz`` from their README) or, with
  none, initialised at random from ``seed`` (what the tests and the example without a download
  use: such a network plays legal, aimless orders).
* :func:`play` runs their ``run_game`` on a :class:`DiplomacyState` and returns their
  ``DiplomacyTrajectory``.

What their network reads of the state (``docs/deepmind.md``): ``observation()``'s ``season``
(their ``Season`` values), ``board`` (81 areas by their feature vector), ``build_numbers`` and
``last_actions``; the board of the last movement phase it keeps itself from earlier
observations; ``legal_actions()`` per power as plain lists, including the index in bits 48-63
of every action.
"""

from __future__ import annotations

import copy
import importlib
import os
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .single import DiplomacyState

__all__ = [
    "TheirCode",
    "TheirEnvironment",
    "load_their_code",
    "load_their_environment",
    "network_policy",
    "play",
]

#: Their modules a game needs, by the name :class:`TheirCode` gives them.
_MODULES = {
    "game_runner": "environment.game_runner",
    "observation_utils": "environment.observation_utils",
    "config": "network.config",
    "network": "network.network",
    "parameter_provider": "network.parameter_provider",
    "network_policy": "network.network_policy",
}
_EXTRA = 'pip install ".[deepmind]" from the checkout'


@dataclass(frozen=True)
class TheirCode:
    """DeepMind's modules, imported from ``path`` by :func:`load_their_code`."""

    path: Path
    game_runner: types.ModuleType
    observation_utils: types.ModuleType
    config: types.ModuleType
    network: types.ModuleType
    parameter_provider: types.ModuleType
    network_policy: types.ModuleType


@contextmanager
def _their_package(path: Path) -> Iterator[None]:
    """``diplomacy`` names their folder while the block runs; MILA's modules come back after."""
    ours = {k: v for k, v in sys.modules.items() if k == "diplomacy" or k.startswith("diplomacy.")}
    for key in ours:
        del sys.modules[key]
    package = types.ModuleType("diplomacy")
    package.__path__ = [str(path)]
    sys.modules["diplomacy"] = package
    try:
        yield
    finally:
        for key in [k for k in sys.modules if k == "diplomacy" or k.startswith("diplomacy.")]:
            del sys.modules[key]
        sys.modules.update(ours)


def _restore_np_cast() -> None:
    import numpy as np

    if hasattr(np, "cast"):
        return

    class _Cast:
        """NumPy 1's ``np.cast``: ``np.cast[dtype](x)``."""

        def __getitem__(self, dtype: Any) -> Any:
            return lambda x: np.asarray(x, dtype=dtype)

    np.cast = _Cast()  # type: ignore[attr-defined]


def load_their_code(path: str | os.PathLike[str]) -> TheirCode:
    """Their modules from the folder ``path`` (a copy of github.com/deepmind/diplomacy). A folder
    without their files is a ``ValueError`` naming what is missing; a missing dependency an
    ``ImportError`` saying how to install the extra."""
    root = Path(path)
    missing = [m for m in _MODULES.values() if not (root / f"{m.replace('.', '/')}.py").is_file()]
    if missing:
        raise ValueError(
            f"{root} is not a copy of DeepMind's diplomacy repository: no {', '.join(missing)}"
        )
    _restore_np_cast()
    with _their_package(root):
        try:
            loaded = {k: importlib.import_module(f"diplomacy.{m}") for k, m in _MODULES.items()}
        except ImportError as exc:
            raise ImportError(
                f"DeepMind's code needs {exc.name or 'a module'} ({_EXTRA})", name=exc.name
            ) from exc
    return TheirCode(path=root, **loaded)


@dataclass(frozen=True)
class TheirEnvironment:
    """DeepMind's environment utilities alone (no network, no JAX), imported from ``path`` by
    :func:`load_their_environment`: what a state written on MILA needs (``diplo bench``'s
    baseline)."""

    path: Path
    mila_actions: types.ModuleType
    observation_utils: types.ModuleType
    action_utils: types.ModuleType


def load_their_environment(path: str | os.PathLike[str]) -> TheirEnvironment:
    """Their ``environment/mila_actions.py``, ``observation_utils.py`` and ``action_utils.py``
    from the folder ``path``, imported as :func:`load_their_code` imports (MILA's modules put
    back after). They need NumPy and ``immutabledict`` only."""
    root = Path(path)
    names = ("mila_actions", "observation_utils", "action_utils")
    missing = [n for n in names if not (root / "environment" / f"{n}.py").is_file()]
    if missing:
        raise ValueError(
            f"{root} is not a copy of DeepMind's diplomacy repository: no "
            + ", ".join(f"environment/{n}.py" for n in missing)
        )
    with _their_package(root):
        try:
            loaded = {n: importlib.import_module(f"diplomacy.environment.{n}") for n in names}
        except ImportError as exc:
            raise ImportError(
                f"DeepMind's code needs {exc.name or 'a module'} ({_EXTRA})", name=exc.name
            ) from exc
    return TheirEnvironment(path=root, **loaded)


class _Parameters:
    """Their parameter provider's interface (``params_for_actor``) over parameters in memory."""

    def __init__(self, params: Any, state: Any) -> None:
        self._learner = (params, state, 0)

    def params_for_actor(self) -> tuple[Any, Any, Any]:
        return self._learner


def network_policy(
    code: TheirCode,
    parameters: str | os.PathLike[str] | None = None,
    *,
    seed: int = 0,
    temperature: float = 0.1,
    network_kwargs: dict[str, Any] | None = None,
) -> Any:
    """Their ``network_policy.Policy`` for all seven powers, with the network of their config
    (``network_kwargs`` replaces some of its arguments, a dict merged into a dict, e.g. smaller
    filters for a quick test)
    and the parameters of the file ``parameters`` (their ``ParameterProvider``), or random ones
    drawn from ``seed`` when ``None``; ``temperature`` is their sampling temperature (0.1 in
    their paper's evaluation)."""
    import jax

    config = code.config.get_config()
    network_cls = config.network_class
    kwargs = dict(config.network_kwargs)
    for key, value in (network_kwargs or {}).items():
        # A dict merges into the dict it replaces (``rnn_kwargs``: the decoder's).
        kept = kwargs.get(key)
        kwargs[key] = {**kept, **value} if isinstance(value, dict) and kept else value
    provider: Any
    if parameters is not None:
        with open(parameters, "rb") as f:
            provider = code.parameter_provider.ParameterProvider(f)
    else:
        # The batch-norm averages exist only once a training network has run: initialise as
        # one (the same parameters), then play with the network as configured.
        training = copy.copy(kwargs)
        training["is_training"] = True
        params, state = network_cls.initial_inference_params_and_state(
            training, jax.random.PRNGKey(seed), 7
        )
        provider = _Parameters(params, state)
    handler = code.parameter_provider.SequenceNetworkHandler(
        network_cls=network_cls,
        network_config=kwargs,
        rng_seed=seed,
        parameter_provider=provider,
    )
    return code.network_policy.Policy(handler, 7, temperature)


def play(
    code: TheirCode,
    policy: Any,
    state: DiplomacyState | None = None,
    max_length: int | None = None,
) -> Any:
    """Their ``run_game``: ``policy`` plays every power on ``state`` (a new game when ``None``)
    for at most ``max_length`` phases (to the end when ``None``: give the state a year limit).
    Returns their ``DiplomacyTrajectory``; ``state`` is left where the game stopped."""
    return code.game_runner.run_game(
        state=DiplomacyState() if state is None else state,
        policies=[policy],
        slots_to_policies=[0] * 7,
        max_length=max_length,
    )
