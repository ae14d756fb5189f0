"""How a rollout meets the signals that stop a process: SIGINT (Ctrl-C) and SIGTERM (what
``timeout``, ``docker stop`` and job schedulers send).

In the parent (:class:`Stopper`, for the run of the local backend): SIGTERM stops the run as
Ctrl-C does (``KeyboardInterrupt``: the games finished are kept and the summary is written);
a second signal stops waiting for the batches being played; once the summary is being written
(:meth:`Stopper.finish`) any further signal waits for it to be done. A handler of one's own for
either signal is left alone.

In a worker (:func:`start_worker`): Ctrl-C is ignored (it reaches the whole process group; the
parent decides what stops); SIGTERM ends the worker, but never half-way through writing a batch
(:func:`holding_signals`); and the worker ends when its parent dies, whatever killed it: on
Linux the kernel sends it SIGTERM (``prctl(PR_SET_PDEATHSIG)``), and everywhere a watchdog
thread sees its parent change (``os.getppid()``).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

__all__ = [
    "WATCH_SECONDS",
    "Stopper",
    "holding_signals",
    "polled",
    "start_worker",
    "stop_requests",
    "stopping",
]

#: How often a worker's watchdog looks for its parent.
WATCH_SECONDS = 0.5
#: How long a worker whose parent died may take to finish writing a batch before it is ended.
_GRACE_SECONDS = 10.0
_PR_SET_PDEATHSIG = 1
_STOP = tuple(s for s in (signal.SIGINT, getattr(signal, "SIGTERM", None)) if s is not None)


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


class Stopper:
    """The parent's handler of SIGINT and SIGTERM during a run (see the module documentation).
    A signal raises ``KeyboardInterrupt`` unless the summary is being written or the code
    running looks at :func:`stop_requests` itself (:func:`polled`: the local backend's loop,
    which stops at a point of its choosing rather than wherever the signal lands)."""

    def __init__(self) -> None:
        self.signals = 0
        self.finishing = False
        self.polled = False

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        self.signals += 1
        if not self.finishing and not self.polled:
            raise KeyboardInterrupt

    def finish(self) -> None:
        """From now on signals are only counted: the summary is being written."""
        self.finishing = True


@contextmanager
def stopping() -> Iterator[Stopper]:
    """A :class:`Stopper` handling SIGINT (when its handler is Python's default) and SIGTERM
    (when it has its default action) while the block runs in the main thread; the handlers are
    put back after (but a handler the block put in stays). Inside a block whose Stopper handles
    them, that Stopper is the one used."""
    stopper = Stopper()
    if not _main_thread():
        yield stopper
        return
    if _active and any(signal.getsignal(sig) is _active[-1] for sig in _STOP):
        yield _active[-1]  # an outer block's Stopper handles them (``diplo``'s own, say)
        return
    before: dict[int, Any] = {}
    for sig in _STOP:
        handler = signal.getsignal(sig)
        if (sig == signal.SIGINT and handler is signal.default_int_handler) or (
            sig != signal.SIGINT and handler == signal.SIG_DFL
        ):
            before[sig] = signal.signal(sig, stopper)
    _active.append(stopper)
    try:
        yield stopper
    finally:
        _active.remove(stopper)
        for sig, handler in before.items():
            if signal.getsignal(sig) is stopper:  # unless the block put in a handler of its own
                signal.signal(sig, handler)


#: The stoppers handling the signals now (the innermost last).
_active: list[Stopper] = []


def stop_requests() -> int:
    """How many stopping signals the run has had (0 when no :class:`Stopper` handles them)."""
    return _active[-1].signals if _active else 0


@contextmanager
def polled() -> Iterator[None]:
    """While the block runs, a signal is only counted (the block looks at
    :func:`stop_requests`); without a :class:`Stopper`, signals are handled as they were."""
    if not _active:
        yield
        return
    stopper = _active[-1]
    before = stopper.polled
    stopper.polled = True
    try:
        yield
    finally:
        stopper.polled = before


_depth = 0


@contextmanager
def holding_signals() -> Iterator[None]:
    """Holds SIGINT and SIGTERM back while the block runs (in the main thread, when their
    handlers are Python functions): one arriving is handled by its handler once the block is
    done, never half-way (a batch's files, or a result's files and rows, go together)."""
    global _depth
    if _depth or not _main_thread():
        _depth += 1
        try:
            yield
        finally:
            _depth -= 1
        return
    caught: list[int] = []
    before: dict[int, Callable[[int, FrameType | None], Any]] = {}
    for sig in _STOP:
        handler = signal.getsignal(sig)
        if callable(handler):
            before[sig] = handler
            signal.signal(sig, lambda signum, frame: caught.append(signum))
    _depth = 1
    try:
        yield
    finally:
        _depth = 0
        for sig, handler in before.items():
            signal.signal(sig, handler)
        for sig in dict.fromkeys(caught):
            before[sig](sig, None)


def start_worker(parent: int, pdeathsig: bool) -> None:
    """A local worker's start (the pool's initializer): ``parent`` is the parent's process id;
    ``pdeathsig``: ask Linux to send SIGTERM when the parent goes (only when the pool's workers
    are started by the parent's main thread: the kernel watches the thread that started them)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, _end)
    if pdeathsig and sys.platform.startswith("linux"):
        _set_pdeathsig(signal.SIGTERM)
    if os.getppid() != parent:  # the parent died before the worker was watching
        _end(signal.SIGTERM, None)
    threading.Thread(target=_watch, args=(parent,), name="diplo-parent-watch", daemon=True).start()


def _end(signum: int, frame: FrameType | None) -> None:
    """Ends the worker at once, as the signal's default action does."""
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def _set_pdeathsig(sig: int) -> None:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
    except (OSError, AttributeError):  # no prctl here: the watchdog does it
        pass


def _watch(parent: int) -> None:
    import time

    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    # The parent is gone: end as SIGTERM ends a worker (after its batch's files), then surely.
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(_GRACE_SECONDS)
    os.kill(os.getpid(), getattr(signal, "SIGKILL", signal.SIGTERM))
