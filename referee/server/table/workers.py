"""Worker processes for the requests whose cost the client chooses, within a CPU budget.

A ruleset upload (``validation``) and an analysis of a hosted ruleset (``analysis``) are
the requests a client can make as costly as it likes: on the event loop either would hold
every table for as long as it takes.  So they run in worker processes (a worker's CPU is
not the loop's GIL), at the lowest priority (nice 19, SCHED_BATCH), a bounded number at a
time with a bounded number waiting (more are refused with the pool's ``busy`` reason and
told when to retry), and each job stops itself after its CPU time (``OverBudget``, which
the caller turns into its own refusal).

Workers are started with ``spawn`` on the first job (about 0.3 s; then a few milliseconds
a job), so a program that embeds the referee must guard its main module with
``if __name__ == "__main__":``, as ``multiprocessing`` requires; ``bhabhi serve`` and
``python -m referee`` do.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from referee.reasons import Reason
from referee.server.errors import Refusal

RETRY_MS = 200
"""How long a client refused as busy is told to wait."""

T = TypeVar("T")

log = logging.getLogger("bhabhi.referee")


class OverBudget(Exception):
    """A job used up its CPU time (raised by ``Workers.run`` in the referee's process)."""


class _Stop(BaseException):
    """Raised in a worker when its job used up its CPU time (a BaseException, so that no
    ``except Exception`` in the job's code can swallow it)."""


_working = False
"""True while a worker runs a job: the budget's signal interrupts only that."""


def _over_budget(_signum: int, _frame: object) -> None:
    if _working:
        raise _Stop


def _yield_to_the_referee() -> None:
    """Run a worker at the lowest priority (nice 19, SCHED_BATCH where there is one): a
    job is background work, and on a busy machine the referee's event loop, which serves
    every table, must get the CPU first; a job then takes longer, never the tables."""
    os.nice(19)
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_BATCH"):
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))


def within_budget(cpu_seconds: float, job: Callable[..., T], *args: Any) -> tuple[T | None, bool]:
    """(``job(*args)``, False), or (None, True) when it used up ``cpu_seconds`` of CPU
    time (not wall time: a worker kept waiting by a busy machine is not charged): run in a
    worker process."""
    global _working
    signal.signal(signal.SIGPROF, _over_budget)
    _working = True
    signal.setitimer(signal.ITIMER_PROF, cpu_seconds)
    try:
        try:
            return job(*args), False
        finally:
            _working = False  # a signal from here on raises nothing
            signal.setitimer(signal.ITIMER_PROF, 0)
    except _Stop:
        return None, True


class Workers:
    """``size`` worker processes, at most ``queue`` jobs waiting; ``busy`` is the refusal
    of a job beyond them."""

    def __init__(self, size: int, queue: int, busy: Reason) -> None:
        self.size = size
        self.queue = queue
        self.busy = busy
        self._pool: ProcessPoolExecutor | None = None
        self._slots = asyncio.Semaphore(size)
        self.asking = 0
        """Jobs running or waiting for a worker."""

    def _refusal(self) -> Refusal:
        return Refusal(self.busy, limit=self.size, retry_ms=RETRY_MS)

    def _workers(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: the referee's process has gRPC's threads, which a fork
            # would copy in whatever state they are in.
            self._pool = ProcessPoolExecutor(
                max_workers=self.size,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_yield_to_the_referee,
            )
        return self._pool

    async def run(self, cpu_seconds: float, job: Callable[..., T], *args: Any) -> T:
        """``job(*args)`` in a worker (``job`` and its arguments are pickled: a module's
        function and plain data); raises ``OverBudget`` when it used up ``cpu_seconds``, and
        the ``busy`` refusal when every worker and queue place is taken or the workers
        cannot be started or died."""
        if self.asking >= self.size + self.queue:
            raise self._refusal()
        self.asking += 1
        try:
            await self._slots.acquire()
        except BaseException:  # cancelled while waiting: it never held a worker
            self.asking -= 1
            raise
        freed = False

        def free(_job: object = None) -> None:
            """The worker is free when its job is done, not when its caller gives up (a
            running job cannot be cancelled), so the slot is given back then."""
            nonlocal freed
            if not freed:
                freed = True
                self.asking -= 1
                self._slots.release()

        try:
            pool = self._workers()
            future = asyncio.get_running_loop().run_in_executor(
                pool, within_budget, cpu_seconds, job, *args
            )
        except (OSError, RuntimeError) as error:  # the workers cannot be started
            free()
            log.warning("cannot start a worker: %s", error)
            raise self._refusal() from None
        future.add_done_callback(free)
        try:
            result, over = await asyncio.shield(future)
        except BrokenProcessPool as error:  # a worker died (killed from outside): start anew
            log.warning("worker died: %s", error)
            if self._pool is pool:
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise self._refusal() from None
        if over:
            raise OverBudget
        return result  # type: ignore[return-value]  # not over budget: the job's own

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
