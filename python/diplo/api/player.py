"""A player that orders at random among the legal orders: a baseline bot and a test driver.

Every choice is drawn from :func:`diplo.api.legal.legal_orders`, so every order it gives is legal.
Units and sites are visited in sorted order and each list of options is sorted, so a player
seeded alike and asked about the same positions in the same sequence gives the same orders.
"""

from __future__ import annotations

import random

from ..model.orders import Build, Disband, Order, Waive
from ..model.position import Position
from ..reference.adjustments import adjustment_counts, centre_surplus
from ..reference.legal import legal_orders

__all__ = ["RandomPlayer"]


class RandomPlayer:
    """Orders every unit uniformly at random among its legal orders.

    ``seed`` is an integer (the player owns its generator) or a :class:`random.Random` (shared
    with the caller, who then decides the sequence of draws).

    Adjustments respect the counts: a power that may build chooses how many of its allowed builds
    to make (uniformly from none to all), at distinct sites chosen at random, each a random legal
    build there, and waives the rest explicitly (DATC 4.D.7); a power that must disband removes
    exactly the number owed, chosen at random among its units.
    """

    def __init__(self, seed: int | random.Random) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def orders(self, position: Position, power: str) -> list[Order]:
        """One order per orderable unit of ``power`` (movement and retreat phases), or the
        adjustment orders of ``power`` (winter)."""
        legal = legal_orders(position, power)
        if position.phase.kind == "A":
            return self._adjustments(position, power, legal)
        rng = self.rng
        return [rng.choice(legal[key]) for key in sorted(legal)]

    def _adjustments(
        self, position: Position, power: str, legal: dict[str, list[Order]]
    ) -> list[Order]:
        rng = self.rng
        owed = centre_surplus(position, power)
        if owed < 0:
            # Exactly the number owed, among the units listed with their disband.
            units = sorted(k for k, v in legal.items() if isinstance(v[0], Disband))
            return [legal[prov][0] for prov in sorted(rng.sample(units, -owed))]
        if owed == 0:
            return []
        sites = sorted(k for k, v in legal.items() if isinstance(v[0], Build))
        allowed = adjustment_counts(position)[power]  # capped by the build sites
        count = rng.randint(0, allowed)
        chosen: list[Order] = [rng.choice(legal[site]) for site in sorted(rng.sample(sites, count))]
        chosen.extend(Waive() for _ in range(allowed - count))
        return chosen
