"""Analysing a hosted ruleset for a client (AnalyzeRuleset): ``bhabhi analyze``, bounded.

The referee does not analyse a variant its own way: the worker calls the same
``referee.analysis.report.analyze`` as the command line, so a client gets the very document
``bhabhi analyze --json`` writes for the same ruleset, counts, hands and seed (the hands
played by the fast random playout, as the command's default).  An analysis plays hundreds
of hands, seconds of CPU, so it is the referee's most costly request and is bounded four
ways: the hands asked for (``Limits.analysis_max_hands``), the CPU time one analysis may use
(``Limits.analysis_cpu_seconds``, then ``analysis_too_costly``), the analyses run at once
and waiting (``Limits.analysis_workers``, ``Limits.analysis_queue``, then ``analysis_busy``)
and one analysis at a time per client address (``analysis_busy`` too), so that one client
cannot keep the workers from everyone else.  They run in worker processes at the lowest
priority (``workers``): the tables are served first.  The same request twice is answered
from memory: the document is a function of its arguments alone.
"""

from __future__ import annotations

import asyncio
import functools
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.analysis.report import DEFAULT_SEED, analyze
from referee.reasons import Reason
from referee.ruleset.model import Ruleset
from referee.server.errors import Refusal
from referee.server.limits import MAX_SEED, Limits
from referee.server.table.rulesets import players_refusal
from referee.server.table.workers import OverBudget, Workers

DEFAULT_HANDS = 200
"""Hands per player count when the request says 0: enough for every warning's test (a
seat's rate to a few percent), a few seconds of CPU for a bundled ruleset."""
CLIENT_RETRY_MS = 5000
"""How long a client whose analysis is still running is told to wait: a bundled ruleset's
default analysis takes some seconds."""
KEPT = 32
"""Documents kept to answer the same request again (each some tens of kilobytes)."""


@dataclass(frozen=True, slots=True)
class Asked:
    """One analysis, settled: what the worker plays, and the key of its document."""

    ruleset_hash: str
    counts: tuple[int, ...]
    hands: int
    seed: str
    skill: bool
    confirm: bool


def analyze_in_worker(source: Mapping[str, Any], asked: Asked) -> dict[str, Any]:
    """The analysis document of the resolved ruleset ``source``: run in a worker process."""
    rules = Ruleset.from_mapping(source)
    document, _timing = analyze(
        rules,
        asked.counts,
        asked.hands,
        asked.seed,
        ["random"],
        skill=asked.skill,
        confirm=asked.confirm,
    )
    return document


class Analyst:
    """The referee's analyses: settled, bounded, run in workers, remembered."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.workers = Workers(limits.analysis_workers, limits.analysis_queue, Reason.ANALYSIS_BUSY)
        self._kept: OrderedDict[Asked, dict[str, Any]] = OrderedDict()
        self._running: dict[Asked, asyncio.Future[dict[str, Any]]] = {}
        """The analyses being played, by request: the same request waits for the same job."""
        self._clients: set[str] = set()
        """Client addresses with an analysis running or waiting."""

    def settle(
        self,
        rules: Ruleset,
        players: Sequence[int],
        hands: int,
        seed: str,
        *,
        skill: bool,
        confirm: bool,
    ) -> Asked:
        """The request's analysis with its defaults filled in; refuses what cannot be
        played (``players_not_allowed``) or is beyond the limits (``bad_analysis_request``),
        before any worker is asked."""
        allowed = rules.players.counts
        refused = [n for n in players if n not in allowed]
        if refused:
            raise players_refusal(rules, refused[0])
        most = self.limits.analysis_max_hands
        if not 0 <= hands <= most:
            raise Refusal(
                Reason.BAD_ANALYSIS_REQUEST,
                detail=f"hands must be 0 (the default, {min(DEFAULT_HANDS, most)}) to {most} "
                f"a player count, not {hands}",
            )
        if len(seed) > MAX_SEED:
            raise Refusal(
                Reason.BAD_ANALYSIS_REQUEST,
                detail=f"seed must be at most {MAX_SEED} characters, not {len(seed)}",
            )
        return Asked(
            rules.hash,
            tuple(sorted(set(players))) or tuple(allowed),
            hands or min(DEFAULT_HANDS, most),
            seed or DEFAULT_SEED,
            skill,
            confirm,
        )

    async def analyze(self, rules: Ruleset, asked: Asked, *, client: str = "") -> dict[str, Any]:
        """The document of ``asked`` (from ``settle``) for ``rules``: the one kept from the
        same request, or the one being played for it, or played now in a worker.  A client
        counts as analysing until its job ends, not until its call does: one that gives up
        and asks again does not hold two workers."""
        kept = self._kept.get(asked)
        if kept is not None:
            self._kept.move_to_end(asked)
            return kept
        job = self._running.get(asked)
        if job is None:
            if client and client in self._clients:
                raise Refusal(
                    Reason.ANALYSIS_BUSY,
                    limit=self.limits.analysis_workers,
                    retry_ms=CLIENT_RETRY_MS,
                )
            job = asyncio.ensure_future(self._play(rules, asked))
            self._running[asked] = job
            if client:
                self._clients.add(client)
            job.add_done_callback(functools.partial(self._ended, asked, client))
        return await asyncio.shield(job)

    async def _play(self, rules: Ruleset, asked: Asked) -> dict[str, Any]:
        budget = self.limits.analysis_cpu_seconds
        try:
            document = await self.workers.run(budget, analyze_in_worker, dict(rules.source), asked)
        except OverBudget:
            raise Refusal(Reason.ANALYSIS_TOO_COSTLY, limit=f"{budget:g}") from None
        self._kept[asked] = document
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        return document

    def _ended(self, asked: Asked, client: str, job: asyncio.Future[dict[str, Any]]) -> None:
        self._running.pop(asked, None)
        self._clients.discard(client)
        if not job.cancelled():
            job.exception()  # retrieved: a refusal nobody waited for is not an error

    def close(self) -> None:
        for job in self._running.values():
            job.cancel()
        self.workers.close()
