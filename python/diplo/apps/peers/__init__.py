"""Peer engines behind diplo's JSON contract: ``diplo datc --engine NAME``,
``diplo bench --engine NAME`` and ``diplo compare`` drive them by name.

Each peer is a command that speaks the contract in ``--jsonl`` mode: the Python ones
(``mila``, ``pydip``, and ``diplo`` itself, for the same harness) are served by
``python -m diplo.apps.peers NAME``; the Rust ``diplomacy`` crate by a small binary built from
``tools/peer-diplomacy-crate`` (``cargo build --release``) behind the same command; dipcc only
when a user has built it.
A document an engine cannot express is answered ``{"unsupported": why}``: the case is listed as
not expressible, never as passed.
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import dipcc, mila, pydip

__all__ = ["CRATE_BUILD", "PEERS", "make_adapter", "missing_reason", "peer_command", "source_tree"]

#: Every peer by name, in report order.
PEERS = ("mila", "pydip", "diplomacy-crate", "dipcc")


def source_tree() -> Path:
    """diplo's source tree: the checkout this module runs from, else the current directory
    (an installed package runs from site-packages; CI runs it from the checkout)."""
    here = Path(__file__).resolve().parents[4]
    for root in (here, Path.cwd()):
        if (root / "tools" / "peer-diplomacy-crate" / "Cargo.toml").is_file():
            return root
    return here


CRATE_DIR = source_tree() / "tools" / "peer-diplomacy-crate"
CRATE_ENV = "DIPLO_DIPLOMACY_CRATE"
CRATE_BUILD = (
    "the Rust diplomacy crate's adapter is not built: run "
    "`cargo build --release --manifest-path tools/peer-diplomacy-crate/Cargo.toml` in diplo's "
    f"source tree (or set {CRATE_ENV} to the built diplo-peer-diplomacy-crate binary)"
)


def crate_binary() -> Path | None:
    """The built adapter binary of the Rust ``diplomacy`` crate, if any."""
    given = os.environ.get(CRATE_ENV)
    if given:
        return Path(given) if Path(given).is_file() else None
    targets = [CRATE_DIR / "target"]
    if os.environ.get("CARGO_TARGET_DIR"):
        targets.insert(0, Path(os.environ["CARGO_TARGET_DIR"]))
    for target in targets:
        path = target / "release" / "diplo-peer-diplomacy-crate"
        if path.is_file():
            return path
    return None


def missing_reason(name: str) -> str | None:
    """Why the peer ``name`` cannot run here (``None``: it can)."""
    if name == "mila":
        return mila.available()
    if name == "pydip":
        return pydip.available()
    if name == "diplomacy-crate":
        return None if crate_binary() is not None else CRATE_BUILD
    if name == "dipcc":
        return dipcc.available()
    if name == "diplo":
        return None
    raise ValueError(f"unknown peer {name!r} (known: {', '.join(PEERS)})")


def peer_command(name: str) -> str:
    """The command that serves peer ``name`` in ``--jsonl`` mode. Raises ``LookupError`` with
    the reason when it cannot run here."""
    why = missing_reason(name)
    if why is not None:
        raise LookupError(why)
    return f"{shlex.quote(sys.executable)} -m diplo.apps.peers {name}"


def make_adapter(name: str) -> Any:
    """The in-process adapter of a Python peer (``mila``, ``pydip``, ``diplo``)."""
    makers: dict[str, Callable[[], Any]] = {
        "mila": mila.MilaAdapter,
        "pydip": pydip.PydipAdapter,
        "diplo": _DiploAdapter,
        "diplomacy-crate": _crate_adapter,
        "dipcc": dipcc.DipccAdapter,
    }
    if name not in makers:
        raise ValueError(f"{name!r} is no in-process peer (known: {', '.join(makers)})")
    why = missing_reason(name)
    if why is not None:
        raise LookupError(why)
    return makers[name]()


def _crate_adapter() -> Any:
    from .crate import CrateAdapter

    binary = crate_binary()
    if binary is None:
        raise LookupError(CRATE_BUILD)
    return CrateAdapter(binary)


class _DiploAdapter:
    """diplo itself through the same door as the peers (``adjudicate_document``)."""

    name = "diplo"

    def adjudicate(self, doc: Any) -> dict[str, Any]:
        from ...formats.contract import adjudicate_document

        return adjudicate_document(doc)
