"""Two threads on one object of the core: what a call made while another thread's call holds
the object raises (the environments' steps run with the GIL released)."""

from __future__ import annotations

import threading
from collections.abc import Callable


def refused_while_running(
    run: Callable[[], object], peek: Callable[[], object], most: int = 500
) -> Exception:
    """Calls ``run`` on another thread, again and again (at most ``most`` times) until ``peek``,
    called meanwhile on this thread, raises; returns what it raised. Fails when ``peek`` never
    raises, or when ``run`` does."""
    refused: list[Exception] = []
    failed: list[BaseException] = []
    done = threading.Event()

    def runs() -> None:
        try:
            for _ in range(most):
                if refused:
                    return
                run()
        except BaseException as exc:
            failed.append(exc)
        finally:
            done.set()

    worker = threading.Thread(target=runs)
    worker.start()
    while not done.is_set() and not refused:
        try:
            peek()
        except Exception as exc:
            refused.append(exc)
    worker.join()
    assert not failed, failed
    assert refused, f"no call was refused in {most} runs"
    return refused[0]
