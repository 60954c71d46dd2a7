"""Checking uploaded rulesets off the event loop, within a CPU budget.

A ruleset upload is a request whose cost the client chooses: a large or hostile file could
hold the event loop, and with it every table, for as long as it takes to read.  So checking
runs in worker processes (``workers``), at most ``Limits.validation_workers`` at a time with
at most ``Limits.validation_queue`` waiting (more are refused with ``validation_busy`` and
told when to retry), and each check stops itself after ``Limits.validation_cpu_seconds`` of
CPU time (``ruleset_too_costly``).  The loader's own structural limits refuse most hostile
files long before that.
"""

from __future__ import annotations

from typing import Any

from referee.reasons import Reason
from referee.ruleset.loader import resolve_text
from referee.ruleset.model import Ruleset
from referee.ruleset.problems import Problem
from referee.server.errors import Refusal
from referee.server.limits import Limits
from referee.server.table.workers import OverBudget, Workers

MAX_NAME = 200
"""The upload's file name is repeated in every problem: a longer one is cut."""


def check_in_worker(
    text: str, name: str, registered: dict[str, str]
) -> tuple[dict[str, Any] | None, list[Problem]]:
    """(resolved mapping, or None if there is a problem other than a warning; every problem
    and warning, as ``bhabhi rules validate`` reports them): run in a worker process."""
    resolved, problems = resolve_text(text, name, registered, clauses=True)
    valid = not any(not problem.warning for problem in problems)  # warnings do not count
    return (dict(resolved) if valid else None), list(problems)


class RulesetChecker:
    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.workers = Workers(
            limits.validation_workers, limits.validation_queue, Reason.VALIDATION_BUSY
        )

    @property
    def asking(self) -> int:
        """Checks running or waiting for a worker."""
        return self.workers.asking

    async def check(
        self, text: str, name: str, registered: dict[str, str]
    ) -> tuple[Ruleset | None, list[Problem]]:
        budget = self.limits.validation_cpu_seconds
        try:
            resolved, problems = await self.workers.run(
                budget, check_in_worker, text, name[:MAX_NAME], registered
            )
        except OverBudget:
            raise Refusal(Reason.RULESET_TOO_COSTLY, limit=f"{budget:g}") from None
        if resolved is None:
            return None, problems
        return Ruleset.from_mapping(resolved), problems  # warnings only, if any

    def close(self) -> None:
        self.workers.close()
