"""Who gives the orders in a rollout: a policy, called once per game per phase.

Two forms, both picklable so that they travel to worker processes and Ray workers:

* a **code policy**, any callable ``policy(game, legal, rng) -> codes``: ``game`` is the
  :class:`~diplo.engine.codes.CodeGame` being played (read it, never process it), ``legal`` its
  :meth:`~diplo.engine.codes.CodeGame.legal_orders` (one list of codes per slot, in the order of
  ``game.slots()``), ``rng`` the game's own :class:`random.Random`; it returns one code per slot,
  in slot order (a code outside the slot's list is ruled illegal: that unit holds);
* an **order policy**, a callable ``fn(position, legal, rng) -> orders`` wrapped by
  :class:`OrderPolicy`: ``position`` is the :class:`~diplo.model.position.Position`, ``legal`` maps
  each power to ``{key: [Order, ...]}`` (the slots of the code API, decoded), and it returns
  ``{power: [Order, ...]}``, as :class:`diplo.api.player.RandomPlayer` would. Slower (positions and
  orders are built as objects every phase), but in the vocabulary of the object API.

A game's ``rng`` is ``random.Random(seed)``, used by nothing else, so a policy that draws only
from it (or from nothing) gives the same game for the same seed wherever the game is played.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from ..engine.codes import CodeGame, decode_order, encode_order
from ..model.orders import Order
from ..model.position import Position

__all__ = ["CodePolicy", "OrderFn", "OrderPolicy", "PolicyError", "RandomPolicy", "choose"]


class PolicyError(ValueError):
    """A policy answered something that is not orders for the phase it was asked about."""


class CodePolicy(Protocol):
    def __call__(
        self, game: CodeGame, legal: list[list[int]], rng: random.Random
    ) -> Sequence[int]: ...


OrderFn = Callable[
    [Position, dict[str, dict[str, list[Order]]], random.Random], Mapping[str, Sequence[Order]]
]


class RandomPolicy:
    """The default: every slot takes one of its legal codes, uniformly at random.

    Adjustment slots list a power's waive beside its builds, so a random choice per slot never
    orders more than one thing per build site (see :mod:`diplo.engine.codes`)."""

    def __call__(self, game: CodeGame, legal: list[list[int]], rng: random.Random) -> list[int]:
        choice = rng.choice
        return [choice(options) for options in legal]

    def __repr__(self) -> str:
        return "RandomPolicy()"


class OrderPolicy:
    """An order policy (see the module documentation) made usable where a policy is expected."""

    def __init__(self, fn: OrderFn) -> None:
        if not callable(fn):
            raise ValueError(f"an order policy must be callable, got {fn!r}")
        self.fn = fn

    def pairs(
        self, game: CodeGame, legal: list[list[int]], rng: random.Random
    ) -> list[tuple[str, int]]:
        """``(power, code)`` per order the wrapped function gives."""
        position = game.position()
        game_map = game.map
        by_power: dict[str, dict[str, list[Order]]] = {}
        for (power, key), codes in zip(game.slots(), legal, strict=True):
            by_power.setdefault(power, {})[key] = [
                decode_order(c, game_map, position) for c in codes
            ]
        answer = self.fn(position, by_power, rng)
        if not isinstance(answer, Mapping):
            raise PolicyError(f"an order policy returns {{power: [orders]}}, got {answer!r}")
        out: list[tuple[str, int]] = []
        for power, orders in answer.items():
            if power not in by_power:
                raise PolicyError(f"{game.phase}: {power!r} has nothing to order")
            for order in orders:
                try:
                    out.append((power, encode_order(order, game_map, power)))
                except ValueError as exc:
                    raise PolicyError(f"{game.phase}: {power}: {exc}") from None
        return out

    def __repr__(self) -> str:
        return f"OrderPolicy({self.fn!r})"


def choose(
    policy: CodePolicy | OrderPolicy, game: CodeGame, legal: list[list[int]], rng: random.Random
) -> list[tuple[str, int]]:
    """The orders ``policy`` gives for the current phase of ``game``, as ``(power, code)``.

    Raises :class:`PolicyError` when a code policy does not answer one int per slot."""
    if isinstance(policy, OrderPolicy):
        return policy.pairs(game, legal, rng)
    codes = policy(game, legal, rng)
    slots = game.slots()
    if len(codes) != len(slots):
        raise PolicyError(
            f"{game.phase}: the policy gave {len(codes)} codes for {len(slots)} slots "
            "(one code per slot of game.slots(), in that order)"
        )
    out: list[tuple[str, int]] = []
    for (power, _key), code in zip(slots, codes, strict=True):
        try:
            if isinstance(code, bool):
                raise TypeError
            out.append((power, operator.index(code)))
        except TypeError:
            raise PolicyError(
                f"{game.phase}: the policy gave {code!r}, not an order code"
            ) from None
    return out
