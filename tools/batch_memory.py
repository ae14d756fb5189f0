"""Memory of ``process_batch`` over many batches: resident memory before and after, per batch.

Two Python threads call ``process_batch`` at once (so one of them runs on threads started for
its batch rather than on the pool), on games of several maps mixed in each batch; then games of
many distinct maps (custom maps made for the run) are processed one after another. Prints the
growth of resident memory per batch and per distinct map; a leak shows as a steady growth per
batch (``docs/fuzzing.md``, "Memory").

    python tools/batch_memory.py [--batches 3000] [--maps 300]
"""

from __future__ import annotations

import argparse
import json
import resource
import threading

from diplo.engine.codes import CodeGame, process_batch
from diplo.model.map import Map, map_named
from diplo.model.position import Position


def rss_kib() -> int:
    """The resident set size now (Linux: /proc/self/statm), in KiB."""
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * resource.getpagesize() // 1024


def mixed_games() -> list[CodeGame]:
    maps = [map_named(n) for n in ("standard", "pure", "fleet_rome", "ancmed")]
    return [CodeGame(Position.initial(maps[i % len(maps)])) for i in range(8)]


def drive(batches: int) -> None:
    games = mixed_games()
    for k in range(batches):
        if k % 20 == 0:
            games = mixed_games()  # (before the year limit of a long run)
        process_batch(games, [[o[0] for o in g.legal_orders()] for g in games], threads=3)


def renamed(base: Map, k: int) -> Map:
    """``base`` with its first power renamed: a distinct map for the engine."""
    text = json.dumps(base.to_dict())
    old = json.dumps(next(iter(base.to_dict()["powers"])))
    return Map.from_dict(json.loads(text.replace(old, json.dumps(f"P{k}X"))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batches", type=int, default=3000)
    parser.add_argument("--maps", type=int, default=300)
    args = parser.parse_args()
    drive(200)  # warm up: pools, buffers, caches
    before = rss_kib()
    workers = [threading.Thread(target=drive, args=(args.batches,)) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    after = rss_kib()
    total = 2 * args.batches
    print(
        f"concurrent mixed-map batches: {total} batches, RSS {before} -> {after} KiB, "
        f"{(after - before) * 1024 / total:.0f} bytes per batch"
    )
    base = map_named("pure")
    for k in range(20):
        game = CodeGame(Position.initial(renamed(base, k)))
        process_batch([game], [[o[0] for o in game.legal_orders()]])
    before = rss_kib()
    for k in range(20, 20 + args.maps):
        game = CodeGame(Position.initial(renamed(base, k)))
        process_batch([game], [[o[0] for o in game.legal_orders()]])
        del game
    after = rss_kib()
    print(
        f"distinct maps: {args.maps} maps played once each, RSS {before} -> {after} KiB, "
        f"{(after - before) / args.maps:.1f} KiB per map"
    )


if __name__ == "__main__":
    main()
