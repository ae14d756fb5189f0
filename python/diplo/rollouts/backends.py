"""Where the games of a rollout are played: a process pool here, or Ray.

A backend runs :func:`~diplo.rollouts.play.play_task` (or another function) on every task and
hands each result to ``on_done`` in the calling process, as tasks finish, taking tasks from
their iterator only as room frees up (a bounded number in flight: the parent's memory does not
grow with the number of games). On ``KeyboardInterrupt`` it stops
the workers (batches being played are dropped; finished ones were already handed over) and lets
the interrupt go on.
"""

from __future__ import annotations

import logging
import multiprocessing
import signal
import socket
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, as_completed, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any, TypeVar

from .play import RolloutError, play_task

__all__ = [
    "BACKENDS",
    "default_backend",
    "local_pool",
    "ray_available",
    "run_local",
    "run_ray",
    "shutdown_workers",
    "start_workers",
]

BACKENDS = ("local", "ray")

Task = TypeVar("Task")
Result = TypeVar("Result")
OnDone = Callable[[int, Result], None]


def ray_available() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def default_backend() -> str:
    """``ray`` when Ray is installed (``pip install "diplo[ray]"``), else ``local``."""
    return "ray" if ray_available() else "local"


@contextmanager
def _handing_over() -> Iterator[None]:
    """Holds Ctrl-C back while a result is handed over (its files written and its rows
    recorded together): the interrupt arrives once it is done, never half-way."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    old = mask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, old)


def _start_worker() -> None:
    # Ctrl-C reaches the whole process group; the parent decides what stops.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


#: The local pool kept between runs (one at a time), by its number of workers: a process that
#: runs rollouts again (a training loop, the benchmark's rounds) starts its workers once.
_KEPT: dict[int, ProcessPoolExecutor] = {}


def local_pool(workers: int) -> ProcessPoolExecutor:
    """The kept pool of ``workers`` processes (started fresh: spawned, no fork of a process
    whose fast path may already hold batch threads), made when there is none of that size or
    the kept one is broken; another kept pool is shut down."""
    pool = _KEPT.get(workers)
    if pool is not None and not getattr(pool, "_broken", False):
        return pool
    shutdown_workers()
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker)
    _KEPT[workers] = pool
    return pool


def start_workers(workers: int, dataset: bool = False, timeout: float = 120.0) -> None:
    """Starts the kept pool of ``workers`` processes now and returns once every one has started
    (imported the games' modules, and pyarrow with ``dataset``), so that the next run does not
    wait for them."""
    import time

    pool = local_pool(workers)
    seen: set[int] = set()
    end = time.monotonic() + timeout
    while len(seen) < workers and time.monotonic() < end:
        seen.update(f.result() for f in [pool.submit(_started, dataset) for _ in range(workers)])


def _started(dataset: bool) -> int:
    """A worker's answer to :func:`start_workers`: its process id, after a short pause (so that
    one worker does not answer for all)."""
    import os
    import time

    if dataset:
        import pyarrow.parquet  # noqa: F401

    time.sleep(0.05)
    return os.getpid()


def shutdown_workers() -> None:
    """Stops the kept pool's workers (the interpreter does it at exit)."""
    for pool in _KEPT.values():
        pool.shutdown(wait=False, cancel_futures=True)
    _KEPT.clear()


def _drop(pool: ProcessPoolExecutor) -> None:
    for n, kept in list(_KEPT.items()):
        if kept is pool:
            del _KEPT[n]
    pool.shutdown(wait=False, cancel_futures=True)


def run_local(
    tasks: Iterable[Task],
    workers: int,
    on_done: OnDone[Result],
    fn: Callable[[Task], Result] | None = None,
    window: int | None = None,
    held: Callable[[], int] = lambda: 0,
) -> None:
    """A pool of ``workers`` processes (:func:`local_pool`: kept from run to run) running ``fn``
    (default :func:`~diplo.rollouts.play.play_task`) on each task; ``on_done(k, result)`` gets
    the result of the ``k``-th task, as tasks finish. Tasks are taken from ``tasks`` only as
    room frees up: at most ``window`` (default twice the workers) are in flight or ``held`` by
    the caller (results it keeps until earlier ones arrive), so the parent's memory does not
    grow with the number of tasks. On Ctrl-C the tasks not started are dropped and those being
    played are finished and handed over (a second Ctrl-C stops at once); the pool is then
    shut down, as it is after any error.

    A worker that dies (killed, or a ``__main__`` that cannot be imported again: a script must
    guard its top level with ``if __name__ == "__main__":``) raises :class:`RolloutError`."""
    run: Callable[[Any], Any] = play_task if fn is None else fn
    limit = 2 * workers if window is None else window
    stream = enumerate(tasks)
    first = next(stream, None)
    if first is None:
        return
    pool = local_pool(workers)
    inflight: dict[Future[Any], int] = {}
    pending: list[tuple[int, Task]] = [first]

    def top_up() -> None:
        while not inflight or len(inflight) + held() < limit:
            item = pending.pop() if pending else next(stream, None)
            if item is None:
                return
            # A task handed to a worker is recorded at once, Ctrl-C held back between the two:
            # local workers write their games themselves, so a task submitted but not recorded
            # would leave files on disk that no summary row names.
            with _handing_over():
                inflight[pool.submit(run, item[1])] = item[0]

    try:
        try:
            top_up()
            while inflight:
                done, _ = wait(list(inflight), return_when=FIRST_COMPLETED)
                with _handing_over():
                    for future in done:
                        k = inflight.pop(future)
                        on_done(k, future.result())
                top_up()
        except KeyboardInterrupt:
            for future in inflight:
                future.cancel()
            rest = {f: k for f, k in inflight.items() if not f.cancelled()}
            for future in as_completed(rest):
                if future.exception() is None:
                    with _handing_over():
                        on_done(rest[future], future.result())
            raise
    except BrokenProcessPool as exc:
        _drop(pool)
        raise RolloutError(
            f"a worker process died ({exc}); a script using the local backend must be "
            'importable again by its workers: guard its top level with if __name__ == "__main__":'
        ) from None
    except BaseException:
        _drop(pool)
        raise


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
    tasks: Iterable[Task],
    workers: int,
    on_done: OnDone[Result],
    address: str | None = None,
    fn: Callable[[Task], Result] | None = None,
    window: int | None = None,
    held: Callable[[], int] = lambda: 0,
) -> None:
    """Ray tasks, at most ``workers`` at a time (one CPU each), taken from ``tasks`` as room
    frees up (``window`` and ``held`` as for :func:`run_local`). Without ``address`` Ray starts
    embedded with ``workers`` CPUs (unless it is already running in this process); with it, the
    run joins that cluster (``"auto"``, ``"ray://host:10001"``, ...)."""
    import ray

    run: Callable[[Any], Any] = play_task if fn is None else fn
    limit = workers if window is None else min(window, workers)
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
        remote: Any = ray.remote(num_cpus=1, max_retries=0)(run)
        stream = enumerate(tasks)
        pending: dict[Any, int] = {}
        try:
            while True:
                while not pending or len(pending) + held() < limit:
                    item = next(stream, None)
                    if item is None:
                        break
                    pending[remote.remote(item[1])] = item[0]
                if not pending:
                    break
                ready, _ = ray.wait(list(pending), num_returns=1)
                with _handing_over():
                    k = pending.pop(ready[0])
                    on_done(k, ray.get(ready[0]))
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
    finally:
        if started:
            ray.shutdown()
