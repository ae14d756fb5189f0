"""DeepMind's no-press agent playing a game of Diplomacy on diplo (``docs/deepmind.md``).

    pip install ".[deepmind]"   # from the checkout
    python examples/deepmind_play.py --deepmind PATH/TO/deepmind-diplomacy [--params FILE]

``--deepmind`` is a copy of github.com/deepmind/diplomacy (their code is theirs and is not
shipped with diplo). ``--params`` is one of their released parameter files (``sl_params.npz``
or ``fppi2_params.npz``, linked from their README); without it the network's parameters are
drawn at random (``--seed``), which plays legal but aimless orders. ``--small`` uses a small
network of their architecture (for a quick run: the full one takes about half a minute to
compile and 0.5 to 1 s a phase on a CPU). Prints each phase's orders and the returns.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from diplo.env.deepmind import DiplomacyState, order_of_action
from diplo.env.deepmind.agents import load_their_code, network_policy, play
from diplo.model.orders import format_order

#: A small network of their architecture (the sizes of their tests), for a quick run.
SMALL: dict[str, Any] = {
    "shared_filter_size": 16,
    "player_filter_size": 16,
    "num_shared_cores": 2,
    "num_player_cores": 2,
    "value_mlp_hidden_layer_sizes": (16,),
    "rnn_kwargs": {"filter_size": 16, "num_cores": 2},
}


class PrintedState(DiplomacyState):
    """A state that prints every phase's orders as their network gives them."""

    def step(self, actions_per_player: Sequence[Sequence[int]]) -> None:
        position = self.game.position()
        orders = [
            f"{power}: " + ", ".join(format_order(order_of_action(a, position)) for a in actions)
            for power, actions in zip(self.powers, actions_per_player, strict=True)
            if actions
        ]
        super().step(actions_per_player)
        print(position.phase, "; ".join(orders), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--deepmind", required=True, help="a copy of DeepMind's repository")
    parser.add_argument("--params", default=None, help="their parameter file (else random)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-year", type=int, default=1905, help="the last year played")
    parser.add_argument("--small", action="store_true", help="a small network, for a quick run")
    args = parser.parse_args(argv)
    code = load_their_code(args.deepmind)
    policy = network_policy(
        code, args.params, seed=args.seed, network_kwargs=SMALL if args.small else None
    )
    state = PrintedState(max_year=args.max_year)
    trajectory = play(code, policy, state)
    print("returns:", [round(float(r), 3) for r in trajectory.returns])
    return 0


if __name__ == "__main__":
    sys.exit(main())
