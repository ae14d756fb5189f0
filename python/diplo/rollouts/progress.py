"""A one-line progress bar for a terminal: games done, games per second, time left."""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["Progress"]


class Progress:
    """Redraws one line on ``stream`` (default stderr) when it is a terminal; silent otherwise.

    ``skipped`` games (already on disk) count as done but not in the rate."""

    def __init__(
        self, total: int, skipped: int = 0, stream: TextIO | None = None, width: int = 30
    ) -> None:
        self.total = total
        self.done = skipped
        self.fresh = 0
        self.width = width
        self.stream = sys.stderr if stream is None else stream
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.start = time.monotonic()
        self._last = 0.0

    def advance(self, games: int) -> None:
        self.done += games
        self.fresh += games
        now = time.monotonic()
        if self.enabled and (now - self._last >= 0.1 or self.done >= self.total):
            self._last = now
            self.stream.write("\r" + self.line(now - self.start))
            self.stream.flush()

    def line(self, elapsed: float) -> str:
        rate = self.fresh / elapsed if elapsed > 0 else 0.0
        left = self.total - self.done
        eta = _clock(left / rate) if rate > 0 else "?"
        filled = self.width * self.done // self.total if self.total else self.width
        bar = "#" * filled + "." * (self.width - filled)
        return f"[{bar}] {self.done}/{self.total} games  {rate:.1f} games/s  {eta} left "

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


def _clock(seconds: float) -> str:
    s = int(seconds + 0.5)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
