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
import os
import socket
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from .play import RolloutError, play_task
from .signals import holding_signals, polled, start_worker, stop_requests

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
    """``ray`` when Ray is installed (``pip install ".[ray]"``), else ``local``."""
    return "ray" if ray_available() else "local"


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
    # Each worker ends when this process dies, however it dies (diplo.rollouts.signals).
    watch = (os.getpid(), threading.current_thread() is threading.main_thread())
    pool = ProcessPoolExecutor(
        workers, mp_context=context, initializer=start_worker, initargs=watch
    )
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


#: How long the local backend's loop waits for a result before it looks for a stop request.
POLL_SECONDS = 0.2


def _loop(
    pool: ProcessPoolExecutor,
    inflight: dict[Future[Any], int],
    top_up: Callable[[], None],
    on_done: OnDone[Any],
) -> None:
    """Hands over results as tasks finish. A stop request (a signal counted by the run's
    :class:`~diplo.rollouts.signals.Stopper`, or Ctrl-C raising where it lands when there is
    none) drops the tasks not started and hands over those being played as they finish; a
    second one ends the workers at once. Then ``KeyboardInterrupt`` is raised."""
    try:
        top_up()
        while inflight:
            if stop_requests():
                raise KeyboardInterrupt
            done, _ = wait(list(inflight), timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
            with holding_signals():
                for future in done:
                    k = inflight.pop(future)
                    on_done(k, future.result())
            top_up()
    except KeyboardInterrupt:
        first = stop_requests()  # 0: Ctrl-C raised where it landed (no Stopper counts them)
        for future in inflight:
            future.cancel()
        rest = {f: k for f, k in inflight.items() if not f.cancelled()}
        try:
            while rest:
                if first and stop_requests() > first:
                    _end_workers(pool)
                    break
                done, _ = wait(list(rest), timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
                for future in done:
                    k = rest.pop(future)
                    if future.exception() is None:
                        with holding_signals():
                            on_done(k, future.result())
        except KeyboardInterrupt:
            _end_workers(pool)  # a second Ctrl-C where no Stopper counts them
        raise


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """Ends the pool's workers now (SIGTERM: each finishes writing the batch it is writing,
    if any, so that only whole batches are on disk)."""
    # Python 3.11's pool, finding its workers gone, sets an exception on every pending task,
    # and one already cancelled makes its thread die with a traceback on stderr
    # (InvalidStateError): the cancelled ones are taken out first.
    pending: Any = getattr(pool, "_pending_work_items", None)
    if isinstance(pending, dict):
        for key, item in list(pending.items()):
            future = getattr(item, "future", None)
            if future is not None and future.cancelled():
                pending.pop(key, None)
    processes: dict[int, Any] = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        process.terminate()


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
            with holding_signals():
                inflight[pool.submit(run, item[1])] = item[0]

    try:
        with polled():
            _loop(pool, inflight, top_up, on_done)
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
                with holding_signals():
                    k = pending.pop(ready[0])
                    on_done(k, ray.get(ready[0]))
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
    finally:
        if started:
            ray.shutdown()
