"""A reference policy in NumPy: a uniform choice among each slot's legal orders, for every slot
of every power of every game at once (no Python loop per game or unit).

The draws are counter-based: the choice of game ``i``, power ``p``, slot ``s`` is a hash of the
game's seed, its episode and phase count (SplitMix64's finaliser) and of ``(p, s)`` (one more
multiply-xorshift round), its high 32 bits scaled to the slot's count, so a game's
random play depends on its seed alone, whatever the other games or the number of threads; a
game with the same seed in :class:`~diplo.env.vector.DiplomacyVectorEnv` and in
:class:`~diplo.env.parallel.DiplomacyEnv` plays the same moves.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["UniformPolicy", "uniform_actions"]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_EPISODE = np.uint64(0xD6E8FEB86659FD93)
_STEP = np.uint64(0xA0761D6478BD642F)


def _mix(x: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    x = x ^ (x >> np.uint64(30))
    x = x * _M1
    x = x ^ (x >> np.uint64(27))
    x = x * _M2
    out: npt.NDArray[np.uint64] = x ^ (x >> np.uint64(31))
    return out


def uniform_actions(
    counts: npt.NDArray[np.int16],
    seeds: npt.NDArray[np.uint64],
    episodes: npt.NDArray[np.int32],
    steps: npt.NDArray[np.int32],
) -> npt.NDArray[np.int64]:
    """Actions ``int64[N, P, S]``: per slot a uniform index below its count (0 where the count
    is 0), drawn from each game's ``seeds``, ``episodes`` and ``steps`` (see the module
    documentation)."""
    with np.errstate(over="ignore"):
        key = _mix(
            seeds.astype(np.uint64) * _GOLDEN
            + episodes.astype(np.uint64) * _EPISODE
            + steps.astype(np.uint64) * _STEP
        )
        lanes = _lanes(counts.shape[1:]).reshape(-1)
        flat = counts.reshape(-1)
        # Only the slots with choices (a quarter of them or fewer): the others stay 0.
        where = np.not_equal(flat, 0).nonzero()[0]  # (NumPy's nonzero is fastest on bools)
        game = where // lanes.size
        # One multiply-xorshift round per lane (in place on the chosen lanes only).
        x = key[game]
        x += lanes[where - game * lanes.size]
        x ^= x >> _32
        x *= _M1
        x ^= x >> _29
        # The high 32 bits times the count, shifted down: uniform below the count (Lemire).
        x >>= _32
        x *= flat[where].astype(np.uint64)
        x >>= _32
    out = np.zeros(counts.shape, dtype=np.int64)
    out.reshape(-1)[where] = x.view(np.int64)
    return out


_32 = np.uint64(32)
_29 = np.uint64(29)
_LANES: dict[tuple[int, ...], npt.NDArray[np.uint64]] = {}


def _lanes(shape: tuple[int, ...]) -> npt.NDArray[np.uint64]:
    """A distinct odd multiple of the golden ratio per ``(p, s)`` lane, made once per shape."""
    lanes = _LANES.get(shape)
    if lanes is None:
        with np.errstate(over="ignore"):
            count = int(np.prod(shape))
            lanes = ((np.arange(count, dtype=np.uint64) + np.uint64(1)) * _GOLDEN).reshape(shape)
        _LANES[shape] = lanes
    return lanes


class UniformPolicy:
    """``policy(obs, infos, seeds)`` for :class:`~diplo.env.vector.DiplomacyVectorEnv`: the
    actions of :func:`uniform_actions` for the env's observation and infos."""

    def __call__(
        self,
        obs: dict[str, npt.NDArray[np.generic]],
        infos: dict[str, npt.NDArray[np.generic]],
        seeds: npt.NDArray[np.uint64],
    ) -> npt.NDArray[np.int64]:
        return uniform_actions(
            obs["legal_counts"].astype(np.int16, copy=False),
            seeds,
            infos["episodes"].astype(np.int32, copy=False),
            infos["steps"].astype(np.int32, copy=False),
        )
