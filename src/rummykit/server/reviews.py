"""Reviews of finished tables for the browser (GET /api/tables/{id}/review?seat=S): each one
computed once, in worker processes (the hard bot's rollouts are heavy: the event loop and
the tables' threads must not wait for them), its progress kept for the page to poll, the
result kept for the next reader (a shared link). One review runs at a time; a few more
may wait their turn; beyond that the server says it is busy."""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any


class Busy(Exception):
    """Too many reviews are waiting: ask again later."""


@dataclass
class Job:
    """One review: ``status`` is "queued", "working", "done" or "failed"."""

    key: tuple[str, int, int]
    record: dict[str, Any]
    status: str = "queued"
    done: int = 0
    total: int | None = None
    result: dict[str, Any] | None = None
    error: str = ""
    waiting: threading.Event = field(default_factory=threading.Event)

    def public(self, ahead: int = 0) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "done": self.done, "total": self.total}
        if self.status == "queued":
            out["ahead"] = ahead
        if self.status == "failed":
            out["error"] = self.error
        return out


def default_workers() -> int:
    """Processes for reviews: every core but one (the tables keep one), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


class Reviews:
    """The server's reviews: ``get(key, record)`` starts one or tells where it stands.
    ``settings``: the review's (samples, horizon, ...); ``keep``: finished reviews kept;
    ``queue``: reviews that may wait at once."""

    def __init__(self, workers: int | None = None, keep: int = 32, queue: int = 8, **settings: Any):
        self.workers = workers or default_workers()
        self.keep = keep
        self.queue_limit = queue
        self.settings = settings
        self._jobs: OrderedDict[tuple[str, int, int], Job] = OrderedDict()
        self._queue: list[Job] = []
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._pool: Executor | None = None
        self._thread: threading.Thread | None = None
        self._stopped = False

    def get(self, key: tuple[str, int, int], record: Callable[[], dict[str, Any]],
            retry: bool = False) -> tuple[Job, int]:
        """The job for ``key`` (a table, a seat, its finished deals), started from
        ``record()`` (the game's record) if it was not: (the job, how many reviews are ahead of it).  Busy
        when the queue is full.  A failed review stays failed, for the page to say so,
        until asked again with ``retry`` (before, the next poll started it again and the
        page, polling, never saw the failure)."""
        with self._lock:
            job = self._jobs.get(key)
            if job is not None and (job.status != "failed" or not retry):
                self._jobs.move_to_end(key)
                return job, self._ahead(job)
            if len(self._queue) >= self.queue_limit:
                raise Busy(f"the server is reviewing {len(self._queue)} other games; try again in a minute")
            job = Job(key, record())
            self._jobs[key] = job
            self._queue.append(job)
            self._trim()
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="reviews", daemon=True)
                self._thread.start()
            self._wake.notify()
            return job, self._ahead(job)

    def _ahead(self, job: Job) -> int:
        return self._queue.index(job) if job in self._queue else 0

    def _trim(self) -> None:
        """Forget the oldest finished reviews beyond ``keep`` (never one waiting or working)."""
        done = [k for k, j in self._jobs.items() if j.status in ("done", "failed")]
        for k in done[: max(0, len(done) - self.keep)]:
            del self._jobs[k]

    def _run(self) -> None:
        from ..players.review import review

        while True:
            with self._lock:
                while not self._queue and not self._stopped:
                    self._wake.wait()
                if self._stopped:
                    return
                job = self._queue[0]
                job.status = "working"

            def progress(done: int, total: int, job: Job = job) -> None:
                job.done, job.total = done, total

            try:
                if self._pool is None:  # worker processes, even one: the rollouts never hold our GIL
                    self._pool = ProcessPoolExecutor(self.workers, mp_context=get_context("spawn"))
                got = review(job.record, job.key[1], progress=progress, executor=self._pool, **self.settings)
                result, status, error = got.as_dict(), "done", ""
            except Exception as e:  # a review that fails says so; the server goes on
                result, status, error = None, "failed", f"the review failed: {e}"
            with self._lock:
                job.result, job.status, job.error = result, status, error
                job.record = {}
                self._queue.pop(0)
                self._trim()
                job.waiting.set()

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            self._wake.notify_all()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
