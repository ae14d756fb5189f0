"""A differential check of diplo's DeepMind form (``diplo.env.deepmind.DiplomacyState``) against
MILA (PyPI ``diplomacy`` 1.1.2) seen through DeepMind's own conversion (``mila_actions`` of their
repository), phase by phase over seeded random MILA games.

Usage::

    PYTHONPATH=python python3 tools/deepmind_diff.py [--games 100] [--first-seed 1000]
        [--max-year 1910] [--orders mila|diplo] [--edition EDITION ...] [--deepmind PATH]
        [--examples 5] [--json]

The MILA side is the protocol written on MILA the straightforward way (``diplo bench``'s
baseline, ``python/diplo/apps/bench/deepmind_mila.py``): the board from ``Game.get_state()``, the
legal actions from ``get_all_possible_orders()`` through their ``mila_action_to_action``. Each
game is played on MILA with one random action per ordered province, drawn (``--orders``) from
MILA's legal actions or from diplo's (those MILA does not list are dropped), shaped as their
agents give them (in a build phase as many actions as the build number: builds at distinct sites,
waives, removals; in other phases one per unit). Every
phase is compared twice, per edition (``--edition``, default: ``default``, the states' own
default, and ``mila``):

* **followed**: a ``DiplomacyState`` stepped with the same actions from the start, as an agent
  would play it. A phase agrees when the season, the board, the build numbers (with their
  quirk), the last actions and every power's set of legal actions agree. Once the boards part
  (a different ruling) or MILA's actions are not legal in diplo's game, the game is *parted*:
  it is not stepped on, and its remaining phases count as disagreeing.
* **equal boards**: a ``DiplomacyState`` made afresh from MILA's position of the phase
  (``diplo.formats.mila.position_from_mila``): the season, the board, the legal action sets and,
  in a build phase, the build numbers are compared. Every difference is counted by kind and a
  few are shown.

Exit status: 0 when every phase agrees on equal boards for every edition asked, 1 otherwise, 2
when MILA or DeepMind's code is missing or an argument is bad (a message says which).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

#: DeepMind's snapshot beside the checkout unless ``--deepmind`` or ``DIPLO_DEEPMIND`` says
#: otherwise.
DEFAULT_SNAPSHOT = Path(__file__).resolve().parents[1].parent / "shared" / "deepmind-diplomacy"
#: The waive's order code (bits 0-7 of their action).
WAIVE = 13
#: The editions compared by default: the states' own default and MILA's ruling.
DEFAULT_EDITIONS = ("default", "mila")


def _fail(message: str) -> None:
    print(f"deepmind_diff: {message}", file=sys.stderr)
    raise SystemExit(2)


def _pick(legal: list[list[int]], numbers: list[int], rng: random.Random) -> list[list[int]]:
    """Random actions shaped as their agents give them: in a movement or retreat phase one per
    ordered province; in a build phase as many as the power's build number says (each a build
    at a distinct site or a waive, or a removal), nothing for a power whose number is 0."""
    out = []
    for actions, n in zip(legal, numbers, strict=True):
        groups: dict[int, list[int]] = {}
        waives = []
        for a in sorted(actions):
            if a & 0xFF == WAIVE:
                waives.append(a)
            else:
                groups.setdefault((a >> 9) & 0x7F, []).append(a)
        keys = sorted(groups)
        if n == 0 and not waives:
            out.append([rng.choice(groups[k]) for k in keys])  # not a build phase
            continue
        sites = rng.sample(keys, min(abs(n), len(keys)))
        out.append([rng.choice(groups[k] + (waives if n > 0 else [])) for k in sites])
    return out


class Tally:
    """The figures of one edition."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.phases = 0
        self.followed = 0  # phases that agree, followed
        self.equal = 0  # phases that agree on equal boards
        self.parted = 0  # games whose followed state parted from MILA
        self.kinds: Counter[str] = Counter()  # differences on equal boards, by kind
        self.power_phases: Counter[str] = Counter()  # power-phases whose legal sets differ
        self.no_site = 0  # power-phases owed builds with no site (MILA lists nothing)
        self.examples: list[str] = []

    def as_json(self) -> dict[str, Any]:
        return {
            "edition": self.name,
            "phases": self.phases,
            "followed_agree": self.followed,
            "equal_boards_agree": self.equal,
            "games_parted": self.parted,
            "no_site_power_phases": self.no_site,
            "differences": dict(self.kinds),
            "legal_power_phases": dict(self.power_phases),
            "examples": self.examples,
        }


def legal_difference(
    ours: list[list[int]], theirs: list[list[int]], powers: list[str], kind: str
) -> list[str]:
    out = []
    for power, a, b in zip(powers, ours, theirs, strict=True):
        if set(a) != set(b):
            extra, missing = sorted(set(a) - set(b)), sorted(set(b) - set(a))
            label = "waive" if {x & 0xFF for x in extra + missing} == {WAIVE} else "other"
            out.append(
                f"{power} ({label}): diplo only {[hex(x) for x in extra[:3]]}"
                f"{'...' if len(extra) > 3 else ''}, MILA only {[hex(x) for x in missing[:3]]}"
                f"{'...' if len(missing) > 3 else ''} [{kind}]"
            )
    return out


def compare_forms(
    ours: Any, theirs: Any, legal_ours: Any, legal_theirs: Any, build: bool
) -> list[str]:
    """The kinds of difference between two observations and legal action lists (``season``,
    ``board``, ``build_numbers`` when ``build``, ``legal``); also used by ``mila_search.py``."""
    import numpy as np

    kinds = []
    if int(ours.season) != int(theirs.season.value):
        kinds.append("season")
    if not np.array_equal(ours.board, theirs.board):
        kinds.append("board")
    if build and ours.build_numbers.tolist() != theirs.build_numbers.tolist():
        kinds.append("build_numbers")
    if [set(a) for a in legal_ours] != [set(a) for a in legal_theirs]:
        kinds.append("legal")
    return kinds


def run(
    games: int,
    first_seed: int,
    max_year: int,
    orders: str,
    editions: list[str],
    snapshot: Path,
    examples: int,
) -> list[Tally]:
    """Plays the games and returns one tally per edition."""
    try:
        import diplomacy as mila
    except ImportError:
        _fail('MILA is not installed (PyPI diplomacy 1.1.2: pip install ".[compare]")')
    if not (snapshot / "environment" / "mila_actions.py").is_file():
        _fail(
            f"no DeepMind snapshot at {snapshot} (a copy of github.com/deepmind/diplomacy: "
            "--deepmind PATH or DIPLO_DEEPMIND=PATH)"
        )
    from diplo.apps.bench.deepmind_mila import MilaDiplomacyState
    from diplo.env.deepmind import DiplomacyState
    from diplo.env.deepmind.agents import load_their_environment
    from diplo.formats.mila import position_from_mila
    from diplo.model.map import standard_map
    from diplo.model.position import Position
    from diplo.model.rules import Rules

    theirs = load_their_environment(snapshot)
    game_map = standard_map()

    def rules_of(edition: str) -> Rules:
        return game_map.rules if edition == "default" else Rules(edition=edition)  # type: ignore[arg-type]

    def start(edition: str, position: Position | None = None) -> Any:
        # A position carrying the edition's rules (what every version of the state takes).
        base = Position.initial(game_map) if position is None else position
        if edition != "default":
            base = base.with_changes(rules=rules_of(edition))
        return DiplomacyState(base, max_year)

    tallies = {e: Tally(e) for e in editions}
    for seed in range(first_seed, first_seed + games):
        rng = random.Random(seed)
        reference = MilaDiplomacyState(mila, theirs, max_year)
        powers = reference.powers
        followed: dict[str, Any] = {e: start(e) for e in editions}
        while not reference.is_terminal():
            legal_theirs = reference.legal_actions()
            observed = reference.observation()
            state = reference._game.get_state()
            phase = reference._game.get_current_phase()
            build = phase.endswith("A")
            board = position_from_mila(state, game_map=game_map)
            owed = [  # owed builds, none possible (MILA's count is then 0, its homes none)
                build
                and len(board.centers_of(p)) > len(board.units_of(p))
                and not observed.build_numbers[i]
                for i, p in enumerate(powers)
            ]
            fresh: dict[str, Any] = {}
            for edition in editions:
                tally = tallies[edition]
                tally.phases += 1
                tally.no_site += sum(owed)
                here = position_from_mila(state, game_map=game_map, rules=rules_of(edition))
                fresh[edition] = one = start(edition, here)
                legal_ours = one.legal_actions()
                kinds = compare_forms(one.observation(), observed, legal_ours, legal_theirs, build)
                if not kinds:
                    tally.equal += 1
                for kind in kinds:
                    tally.kinds[kind] += 1
                details = legal_difference(legal_ours, legal_theirs, powers, phase)
                for line in details:
                    tally.power_phases["waive" if "(waive)" in line else "other"] += 1
                if kinds and len(tally.examples) < examples:
                    shown = "; ".join(details[:2]) or ", ".join(kinds)
                    tally.examples.append(f"seed {seed} {phase}: {', '.join(kinds)}: {shown}")
                game = followed[edition]
                if game is not None:
                    observation = game.observation()
                    same = not compare_forms(
                        observation, observed, game.legal_actions(), legal_theirs, True
                    ) and list(observation.last_actions) == list(observed.last_actions)
                    tally.followed += same
            numbers = observed.build_numbers.tolist() if build else [0] * len(powers)
            if orders == "mila":
                chosen = _pick(legal_theirs, numbers, rng)
            else:
                # diplo's legal actions (of the first edition's fresh state), those MILA lists.
                mine = _pick(fresh[editions[0]].legal_actions(), numbers, rng)
                chosen = [
                    [a for a in acts if a in set(ok)]
                    for acts, ok in zip(mine, legal_theirs, strict=True)
                ]
            reference.step(chosen)
            for edition in editions:
                game = followed[edition]
                if game is None:
                    continue
                try:
                    game.step(chosen)
                except ValueError:
                    game = None
                if (
                    game is not None
                    and not reference.is_terminal()
                    and not _same_board(game, reference)
                ):
                    game = None
                if game is None:
                    tallies[edition].parted += 1
                followed[edition] = game
    return [tallies[e] for e in editions]


def _same_board(game: Any, reference: Any) -> bool:
    import numpy as np

    return bool(np.array_equal(game.observation().board, reference.observation().board))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="deepmind_diff", description=__doc__.split("\n\n")[0] if __doc__ else None
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--max-year", type=int, default=1910)
    parser.add_argument("--orders", choices=("mila", "diplo"), default="mila")
    parser.add_argument("--edition", action="append", dest="editions")
    parser.add_argument("--deepmind", type=Path, default=None)
    parser.add_argument("--examples", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from diplo.model.rules import EDITIONS

    editions = args.editions or list(DEFAULT_EDITIONS)
    for edition in editions:
        if edition != "default" and edition not in EDITIONS:
            _fail(f"--edition must be 'default' or one of {', '.join(EDITIONS)}, got {edition!r}")
    if args.games < 1 or not 1901 <= args.max_year <= 9999:
        _fail("--games must be at least 1 and --max-year a year from 1901 to 9999")
    snapshot = args.deepmind or Path(os.environ.get("DIPLO_DEEPMIND") or DEFAULT_SNAPSHOT)
    tallies = run(
        args.games,
        args.first_seed,
        args.max_year,
        args.orders,
        editions,
        snapshot,
        args.examples,
    )
    if args.json:
        print(json.dumps([t.as_json() for t in tallies], indent=2))
    else:
        seeds = f"seeds {args.first_seed}-{args.first_seed + args.games - 1}"
        print(f"{args.games} MILA games ({seeds}) to {args.max_year}, orders from {args.orders}")
        for t in tallies:
            print(
                f"{t.name}: {t.phases} phases; followed: {t.followed} agree "
                f"({t.parted} games parted); equal boards: {t.equal} agree "
                f"({t.no_site} power-phases owed builds with no site); "
                f"differences {dict(sorted(t.kinds.items()))}, power-phases whose legal "
                f"actions differ {dict(sorted(t.power_phases.items()))}"
            )
            for line in t.examples:
                print(f"  {line}")
    return 0 if all(t.equal == t.phases for t in tallies) else 1


if __name__ == "__main__":
    raise SystemExit(main())
