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


class _OverBudget(Exception):
    pass


def _over_budget(_signum: int, _frame: object) -> None:
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
    """(resolved mapping or None, problems, over budget): run in a worker process."""
    signal.signal(signal.SIGPROF, _over_budget)
    signal.setitimer(signal.ITIMER_PROF, cpu_seconds)  # CPU time, not wall time
    try:
        resolved, problems = resolve_text(text, name, registered)
        return (None if problems else dict(resolved)), list(problems), False
    except _OverBudget:
        return None, [], True
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)


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
        budget = self.limits.validation_cpu_seconds
        loop = asyncio.get_running_loop()
        try:
            async with self._slots:
                resolved, problems, over = await loop.run_in_executor(
                    self._workers(), check_in_worker, text, name[:MAX_NAME], registered, budget
                )
        except BrokenProcessPool as error:  # a worker died (killed from outside): start anew
            log.warning("ruleset check worker died: %s", error)
            self._pool = None
            raise Refusal(Reason.VALIDATION_BUSY, limit=most, retry_ms=RETRY_MS) from None
        finally:
            self.asking -= 1
        if over:
            raise Refusal(Reason.RULESET_TOO_COSTLY, limit=f"{budget:g}")
        if resolved is None:
            return None, problems
        return Ruleset.from_mapping(resolved), []

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
