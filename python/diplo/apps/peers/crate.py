"""The Rust ``diplomacy`` crate (crates.io, 0.2.0) behind the JSON contract.

Its adapter is a small binary of its own Cargo project, ``tools/peer-diplomacy-crate`` (not
part of diplo's crate nor of the wheel), built with ``cargo build --release --manifest-path
tools/peer-diplomacy-crate/Cargo.toml``. The binary reads orders in diplo's short form only;
this front rewrites each order a document gives into that form (diplo's parser reads the
notations people send; an order it cannot read is passed on as written, and the crate's adapter
rules it illegal), then hands the document to one long-lived binary process, line by line.
Everything else, every ruling, is the binary's (the crate's).
"""

from __future__ import annotations

import contextlib
import json
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ...model.map import Map, power_named, standard_map
from ...model.orders import OrderParseError, format_order, parse_order


def short_form(doc: Mapping[str, Any], game_map: Map) -> dict[str, Any]:
    """``doc`` with its orders in diplo's short form and its powers in upper case."""
    out = dict(doc)
    orders: dict[str, list[str]] = {}
    for key, texts in (doc.get("orders") or {}).items():
        power = power_named(key, game_map) or str(key)
        for text in texts if isinstance(texts, list) else []:
            try:
                said = format_order(parse_order(str(text), game_map))
            except OrderParseError:
                said = str(text)
            orders.setdefault(power, []).append(said)
    out["orders"] = orders
    return out


class CrateAdapter:
    """One long-lived adapter binary, fed documents in the short form."""

    name = "diplomacy-crate"

    def __init__(self, binary: Path, game_map: Map | None = None) -> None:
        self.map = game_map or standard_map()
        self.binary = binary
        self._proc = subprocess.Popen(
            [str(binary)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def adjudicate(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.write(json.dumps(short_form(doc, self.map)) + "\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the crate's adapter ended (exit {self._proc.poll()})")
        value = json.loads(line)
        if not isinstance(value, dict):
            raise RuntimeError(f"the crate's adapter answered {line.strip()!r}")
        return value

    def close(self) -> None:
        """End the binary (it ends by itself when its standard input closes)."""
        if self._proc.poll() is None and self._proc.stdin is not None:
            self._proc.stdin.close()
            self._proc.wait(timeout=10)
        if self._proc.stdout is not None:
            self._proc.stdout.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # at interpreter exit: nothing left to tidy
            self.close()

    def bench(self, docs: list[dict[str, Any]], rounds: int) -> str:
        """The binary's own timing of ``docs`` (``--bench ROUNDS``), as its one line."""
        text = "".join(json.dumps(short_form(d, self.map)) + "\n" for d in docs)
        proc = subprocess.run(
            [str(self.binary), "--bench", str(rounds)], input=text, capture_output=True, text=True
        )
        return proc.stdout.strip()
