"""Where the games of a rollout are played: a process pool here, or Ray.

A backend runs :func:`~diplo.rollouts.play.play_batch` on every task and hands each finished
batch to ``on_done`` in the calling process, as batches finish. On ``KeyboardInterrupt`` it stops
the workers (batches being played are dropped; finished ones were already handed over) and lets
the interrupt go on.
"""

from __future__ import annotations

import logging
import multiprocessing
import signal
import socket
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from .play import GameTask, PlayedGame, RolloutError, play_batch

__all__ = ["BACKENDS", "default_backend", "ray_available", "run_local", "run_ray"]

BACKENDS = ("local", "ray")

OnDone = Callable[[list[PlayedGame]], None]


def ray_available() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def default_backend() -> str:
    """``ray`` when Ray is installed (``pip install "diplo[ray]"``), else ``local``."""
    return "ray" if ray_available() else "local"


def _ignore_interrupts() -> None:
    # Ctrl-C reaches the whole process group; the parent decides what stops.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_local(tasks: Sequence[GameTask], workers: int, on_done: OnDone) -> None:
    """A pool of ``workers`` processes, started fresh (spawned: no fork of a process whose fast
    path may already hold batch threads). On Ctrl-C the batches not started are dropped and
    those being played are finished and handed over (a second Ctrl-C stops at once).

    A worker that dies (killed, or a ``__main__`` that cannot be imported again: a script must
    guard its top level with ``if __name__ == "__main__":``) raises :class:`RolloutError`."""
    if not tasks:
        return
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_ignore_interrupts)
    futures = [pool.submit(play_batch, task) for task in tasks]
    handed: set[Future[list[PlayedGame]]] = set()
    try:
        try:
            for future in as_completed(futures):
                on_done(future.result())
                handed.add(future)
        except KeyboardInterrupt:
            for future in futures:
                future.cancel()
            rest = [f for f in futures if f not in handed and not f.cancelled()]
            for future in as_completed(rest):
                if future.exception() is None:
                    on_done(future.result())
            raise
    except BrokenProcessPool as exc:
        pool.shutdown(wait=False, cancel_futures=True)
        raise RolloutError(
            f"a worker process died ({exc}); a script using the local backend must be "
            'importable again by its workers: guard its top level with if __name__ == "__main__":'
        ) from None
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)  # every batch is in: this only joins the idle workers


#: How long joining a cluster may take to open a connection before the run gives up.
CONNECT_TIMEOUT = 5.0
_TOKEN_LOGGER = "ray._private.authentication.authentication_token_setup"


class _QuietTokenNotice(logging.Filter):
    """Ray tells every embedded start that token authentication is on (it stays on); that notice
    is not news to a user of ``diplo rollouts``, so it is dropped. Other warnings pass."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "Token authentication is enabled for this Ray cluster" not in record.getMessage()


def check_reachable(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Raise :class:`RolloutError` unless a cluster address ``host:port`` (or
    ``ray://host:port``) accepts a connection within ``timeout`` seconds: Ray itself retries a
    wrong address for minutes. ``auto`` and other forms are left to Ray."""
    text = address.removeprefix("ray://")
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit():
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as exc:
        why = "timed out" if isinstance(exc, TimeoutError) else (exc.strerror or str(exc))
        raise RolloutError(
            f"cannot reach a Ray cluster at {address} ({why}, waited up to {timeout:g} s); "
            "check the address, or leave --address out to run on this machine"
        ) from None


def run_ray(
    tasks: Sequence[GameTask], workers: int, on_done: OnDone, address: str | None = None
) -> None:
    """Ray tasks, at most ``workers`` at a time (one CPU each). Without ``address`` Ray starts
    embedded with ``workers`` CPUs (unless it is already running in this process); with it, the
    run joins that cluster (``"auto"``, ``"ray://host:10001"``, ...)."""
    import ray

    started = False
    if not ray.is_initialized():
        options: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "configure_logging": False,
        }
        if address is None:
            options["num_cpus"] = workers
        else:
            check_reachable(address)
        quiet = _QuietTokenNotice()
        notices = logging.getLogger(_TOKEN_LOGGER)
        notices.addFilter(quiet)
        try:
            ray.init(address=address, **options)
        finally:
            notices.removeFilter(quiet)
        started = True
    try:
        remote = ray.remote(num_cpus=1, max_retries=0)(play_batch)
        queue = list(tasks)
        queue.reverse()
        pending: list[Any] = []
        try:
            while queue or pending:
                while queue and len(pending) < workers:
                    pending.append(remote.remote(queue.pop()))
                ready, pending = ray.wait(pending, num_returns=1)
                on_done(ray.get(ready[0]))
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
    finally:
        if started:
            ray.shutdown()
