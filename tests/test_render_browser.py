"""The game page in a real browser: headless Chromium opens ``diplo view``'s page, draws the board,
clicks "Next", and the screenshots show a board that changed.

Chromium is driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``: JSON
messages ending in a NUL byte on file descriptors 3 and 4), so no driver package is needed.
Skips when no Chromium is installed; ``.ci/run`` installs Debian's ``chromium`` package.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import select
import shutil
import struct
import subprocess
import time
import zlib
from pathlib import Path
from typing import Any

import pytest

from diplo.apps.play import play_game
from diplo.render.frames import frames_of_game
from diplo.render.html import game_page
from diplo.render.svg import SEA

BROWSER = next(
    (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None
)
pytestmark = pytest.mark.skipif(
    BROWSER is None,
    reason="headless Chromium not installed (Debian: apt-get install chromium; .ci/run does it)",
)

WIDTH, HEIGHT = 1400, 1000


class Browser:
    """A headless Chromium and one page, spoken to over the DevTools pipe."""

    def __init__(self, profile: Path) -> None:
        # Both browser-side ends are moved to descriptors >= 10 first, so that handing them over
        # as 3 and 4 cannot overwrite one with the other.
        low_r, self._out = os.pipe()
        self._in, low_w = os.pipe()
        to_browser_r = fcntl.fcntl(low_r, fcntl.F_DUPFD, 10)
        from_browser_w = fcntl.fcntl(low_w, fcntl.F_DUPFD, 10)
        os.close(low_r)
        os.close(low_w)
        assert BROWSER is not None
        args = [
            BROWSER,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
            "--no-first-run",
            "--remote-debugging-pipe",
            f"--user-data-dir={profile}",
            f"--window-size={WIDTH},{HEIGHT}",
        ]
        # The browser reads commands on fd 3 and writes answers on fd 4.
        shell = f'exec "$0" "$@" 3<&{to_browser_r} 4>&{from_browser_w}'
        self.proc = subprocess.Popen(
            ["bash", "-c", shell, *args],  # bash: dash takes only one-digit descriptors
            pass_fds=(to_browser_r, from_browser_w),
            stdout=subprocess.DEVNULL,
            stderr=None if os.environ.get("DIPLO_BROWSER_LOG") else subprocess.DEVNULL,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0
        self.session: str | None = None

    def call(self, method: str, params: dict[str, Any] | None = None, timeout: float = 60) -> Any:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if self.session is not None and not method.startswith("Target."):
            message["sessionId"] = self.session
        os.write(self._out, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read(timeout)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def wait_for(self, event: str, timeout: float = 60) -> None:
        while self._read(timeout).get("method") != event:
            pass

    def _read(self, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._in], [], [], max(left, 0))
            if not ready:
                raise TimeoutError("Chromium did not answer")
            chunk = os.read(self._in, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed the pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        loaded: dict[str, Any] = json.loads(raw)
        return loaded

    def open(self, url: str) -> None:
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        self.call("Page.enable")
        self.call(
            "Emulation.setDeviceMetricsOverride",
            {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False},
        )
        self.call("Page.navigate", {"url": url})
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        return result["result"].get("value")

    def screenshot(self) -> list[list[tuple[int, int, int]]]:
        # Half scale: the test looks at the whole board, not at single pixels.
        clip = {"x": 0, "y": 0, "width": WIDTH, "height": HEIGHT, "scale": 0.5}
        data = self.call("Page.captureScreenshot", {"format": "png", "clip": clip})["data"]
        return decode_png(base64.b64decode(data))

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, TimeoutError, OSError):
            self.call("Browser.close", timeout=10)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._in)
        os.close(self._out)


def decode_png(data: bytes) -> list[list[tuple[int, int, int]]]:
    """Rows of RGB pixels of an 8-bit, non-interlaced RGB or RGBA PNG (what Chromium writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    width = height = channels = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * channels
    rows: list[list[tuple[int, int, int]]] = []
    prev = bytearray(stride)
    at = 0
    for _ in range(height):
        mode, line = raw[at], bytearray(raw[at + 1 : at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = prev[i]
            corner = prev[i - channels] if i >= channels else 0
            if mode == 1:
                line[i] = (line[i] + left) & 0xFF
            elif mode == 2:
                line[i] = (line[i] + up) & 0xFF
            elif mode == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif mode == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                line[i] = (line[i] + pred) & 0xFF
        rows.append([tuple(line[i : i + 3]) for i in range(0, stride, channels)])  # type: ignore[misc]
        prev = line
    return rows


def _share(rows: list[list[tuple[int, int, int]]], colour: str) -> float:
    want = tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))
    hits = sum(
        1
        for row in rows
        for px in row
        if all(abs(a - b) <= 6 for a, b in zip(px, want, strict=True))
    )
    return hits / (len(rows) * len(rows[0]))


def test_game_page_in_headless_chromium(tmp_path: Path) -> None:
    game = play_game(2, 1902, None)
    page = tmp_path / "game.html"
    page.write_text(game_page(frames_of_game(game), "browser test"), encoding="utf-8")
    browser = Browser(tmp_path / "profile")
    try:
        browser.open(page.as_uri())
        assert browser.evaluate("document.body.dataset.frame") == "0"
        first = browser.screenshot()
        # The board is drawn: the sea colour covers a good part of the screen, and the first
        # frame's board is the visible one.
        assert _share(first, SEA) > 0.10
        visible = "document.querySelector('.frame:not([hidden])').dataset.phase"
        assert browser.evaluate(visible) == "S1901M"
        browser.evaluate("document.getElementById('next').click()")
        assert browser.evaluate("document.body.dataset.frame") == "1"
        assert browser.evaluate(visible) == "F1901M"
        second = browser.screenshot()
        assert _share(second, SEA) > 0.10
        changed = sum(
            1
            for r1, r2 in zip(first, second, strict=True)
            for a, b in zip(r1, r2, strict=True)
            if a != b
        )
        assert changed > 0.003 * len(first) * len(first[0]), "the board did not change after Next"
        browser.evaluate("document.getElementById('prev').click()")
        assert browser.evaluate(visible) == "S1901M"
        # The page repaints after the click; on a loaded machine a screenshot can come first, so
        # wait (a bounded number of frames) for the first board to be back. The comparison is a
        # plain bool: pytest's diff of two screenshots' pixel lists would take minutes.
        back = False
        for _ in range(50):
            back = browser.screenshot() == first
            if back:
                break
            time.sleep(0.1)
        assert back, "the first board did not come back after Prev"
    finally:
        browser.close()
