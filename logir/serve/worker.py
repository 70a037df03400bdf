"""One thread that runs the server's searches in order, off the event loop, with a deadline each.

The event loop hands each job to the worker and waits for it at most ``timeout`` seconds. A job
still queued at its deadline is dropped unstarted; one already running is left to finish (Python
cannot stop a thread), its client is answered 503 at once and later jobs queue behind it, each
with its own deadline. The thread is a daemon, so a job that never ends cannot keep the process
from exiting on SIGTERM.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

from logir.errors import LogirError

T = TypeVar("T")


class Unavailable(LogirError):
    """The server cannot answer this request now: too many waiting, or past its deadline."""

    def __init__(self, message: str, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Worker:
    """A daemon thread running submitted jobs one at a time, first in first out."""

    def __init__(self, name: str = "logir-worker", max_waiting: int = 16) -> None:
        self.max_waiting = max_waiting
        self.waiting = 0  # requests submitted and not yet answered (read and written by the loop)
        self._jobs: queue.SimpleQueue[tuple[Future[Any], Callable[[], Any]] | None] = (
            queue.SimpleQueue()
        )
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    def submit(self, job: Callable[[], T]) -> Future[T]:
        """Queue ``job``; its future is cancelled instead of run when cancelled before it starts."""
        future: Future[T] = Future()
        self._jobs.put((future, job))
        return future

    async def run(self, job: Callable[[], T], timeout: float) -> T:
        """``job()``'s result, or Unavailable when ``max_waiting`` requests are ahead or the job
        has not finished ``timeout`` seconds after it was asked for (queueing included)."""
        if self.waiting >= self.max_waiting:
            raise Unavailable(
                f"server busy: {self.waiting} requests are already waiting; try again shortly"
            )
        started = threading.Event()

        def tracked() -> T:
            started.set()
            return job()

        future = self.submit(tracked)
        self.waiting += 1
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), timeout)
        except TimeoutError:
            future.cancel()  # dropped if still queued; a running job finishes in the background
            if not started.is_set():
                raise Unavailable(
                    f"server busy: the request did not start within {timeout:g} s; "
                    "try again shortly"
                ) from None
            raise Unavailable(
                f"the request took longer than the server's limit of {timeout:g} s; "
                "simplify the query (fewer terms, smaller k or depth) or try again",
                retry_after=max(1, round(timeout)),
            ) from None
        finally:
            self.waiting -= 1

    def close(self) -> None:
        """Let the thread end once the jobs queued before this call are done."""
        self._jobs.put(None)

    def _serve(self) -> None:
        while True:
            item = self._jobs.get()
            if item is None:
                return
            future, job = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = job()
            except BaseException as exc:  # handed to the waiting request, which reports it
                future.set_exception(exc)
            else:
                future.set_result(result)
            del future, job, item  # hold no result between jobs
