"""Checking uploaded rulesets off the event loop, within a CPU budget.

A ruleset upload is the one request whose cost the client chooses: a large or hostile file
could hold the event loop, and with it every table, for as long as it takes to read.  So
checking runs in worker processes (never on the loop, and a worker's CPU is not the loop's
GIL), at most ``Limits.validation_workers`` at a time with at most
``Limits.validation_queue`` waiting (more are refused with ``validation_busy`` and told
when to retry), and each check stops itself after
``Limits.validation_cpu_seconds`` of CPU time (``ruleset_too_costly``).  The loader's own
structural limits refuse most hostile files long before that.

Workers are started with ``spawn`` on the first upload (about 0.3 s; then a few
milliseconds a check), so a program that embeds the referee must guard its main module
with ``if __name__ == "__main__":``, as ``multiprocessing`` requires; ``bhabhi serve`` and
``python -m referee`` do.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from referee.reasons import Reason
from referee.ruleset.loader import resolve_text
from referee.ruleset.model import Ruleset
from referee.ruleset.problems import Problem
from referee.server.errors import Refusal
from referee.server.limits import Limits

RETRY_MS = 200
"""How long a client refused with ``validation_busy`` is told to wait."""

MAX_NAME = 200
"""The upload's file name is repeated in every problem: a longer one is cut."""


log = logging.getLogger("bhabhi.referee")


class _OverBudget(BaseException):
    """Raised in a worker when its check used up its CPU time (a BaseException, so that no
    ``except Exception`` in the loader can swallow it)."""


_checking = False
"""True while a worker runs a check: the budget's signal interrupts only that."""


def _over_budget(_signum: int, _frame: object) -> None:
    if _checking:
        raise _OverBudget


def _yield_to_the_referee() -> None:
    """Run a worker at the lowest priority (nice 19, SCHED_BATCH where there is one): a
    check is background work, and on a busy machine the referee's event loop, which serves
    every table, must get the CPU first; a check then takes longer, never the tables."""
    os.nice(19)
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_BATCH"):
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))


def check_in_worker(
    text: str, name: str, registered: dict[str, str], cpu_seconds: float
) -> tuple[dict[str, Any] | None, list[Problem], bool]:
    """(resolved mapping, or None if there is a problem other than a warning; every problem
    and warning, as ``bhabhi rules validate`` reports them; over budget): run in a worker
    process."""
    global _checking
    signal.signal(signal.SIGPROF, _over_budget)
    _checking = True
    signal.setitimer(signal.ITIMER_PROF, cpu_seconds)  # CPU time, not wall time
    try:
        try:
            resolved, problems = resolve_text(text, name, registered, clauses=True)
        finally:
            _checking = False  # a signal from here on raises nothing
            signal.setitimer(signal.ITIMER_PROF, 0)
    except _OverBudget:
        return None, [], True
    valid = not any(not problem.warning for problem in problems)  # warnings do not count
    return (dict(resolved) if valid else None), list(problems), False


class RulesetChecker:
    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._pool: ProcessPoolExecutor | None = None
        self._slots = asyncio.Semaphore(limits.validation_workers)
        self.asking = 0
        """Checks running or waiting for a worker."""

    def _workers(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: the referee's process has gRPC's threads, which a fork
            # would copy in whatever state they are in.
            self._pool = ProcessPoolExecutor(
                max_workers=self.limits.validation_workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_yield_to_the_referee,
            )
        return self._pool

    async def check(
        self, text: str, name: str, registered: dict[str, str]
    ) -> tuple[Ruleset | None, list[Problem]]:
        most = self.limits.validation_workers
        if self.asking >= most + self.limits.validation_queue:
            raise Refusal(Reason.VALIDATION_BUSY, limit=most, retry_ms=RETRY_MS)
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

        budget = self.limits.validation_cpu_seconds
        try:
            pool = self._workers()
            job = asyncio.get_running_loop().run_in_executor(
                pool, check_in_worker, text, name[:MAX_NAME], registered, budget
            )
        except (OSError, RuntimeError) as error:  # the workers cannot be started
            free()
            log.warning("cannot start a ruleset check: %s", error)
            raise Refusal(Reason.VALIDATION_BUSY, limit=most, retry_ms=RETRY_MS) from None
        job.add_done_callback(free)
        try:
            resolved, problems, over = await asyncio.shield(job)
        except BrokenProcessPool as error:  # a worker died (killed from outside): start anew
            log.warning("ruleset check worker died: %s", error)
            if self._pool is pool:
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise Refusal(Reason.VALIDATION_BUSY, limit=most, retry_ms=RETRY_MS) from None
        if over:
            raise Refusal(Reason.RULESET_TOO_COSTLY, limit=f"{budget:g}")
        if resolved is None:
            return None, problems
        return Ruleset.from_mapping(resolved), problems  # warnings only, if any

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
