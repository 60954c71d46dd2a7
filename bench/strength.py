"""``python -m bench.strength``: how strong the strong bot is, measured in the arena.

Each case is one ``bhabhi arena`` league (the command a user runs, with its own referee):
the strong bot against bots of one kind on duplicate deals, so that every deal is played
with the strong bot in every seat and the cards favour nobody.  The figure is the strong
bot's Bhabhi rate with its 95% Wilson interval, beside the fair share (one in the number of
players) and the opponents' own rate.  The issue's goal: against two heuristic bots in
3-player Bhabho, the Bhabhi in at most 15% of hands.

The strong bot searches a fixed number of worlds a decision (``--playouts``), not a time,
so that the table is the same on any machine and in any run: the leagues are seeded, and
the bots' choices are functions of their seeds.  Two leagues run at a time, one a core
(each league's referee and bots share one process).

``BENCH_STRENGTH_DEALS`` (deals a league, default ``DEALS``) and
``BENCH_STRENGTH_PLAYOUTS`` (default ``PLAYOUTS``) make the run longer or shorter;
``BENCH_STRENGTH_CASES`` keeps only the cases whose ``rules:players:opponent`` names
contain one of its comma-separated words (``bhabho:3``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

GOAL = 0.15
"""The strong bot's Bhabhi rate against two heuristic bots in 3-player Bhabho, at most."""
DEALS = {3: 20, 4: 8, 5: 6}
"""Deals a league by players, unless told: 60, 32 and 30 hands."""
PLAYOUTS = 50
"""Worlds a decision: as strong as 100 or 150 (docs/bots.md, "How strong it is"), at a
half or a third of the time."""
SEED = "strength"
TURN_TIME = 60.0
"""The tables' clock: far above a decision's time, so that it never plays for a bot."""


@dataclass(frozen=True, slots=True)
class Case:
    rules: str
    players: int
    opponent: str

    @property
    def name(self) -> str:
        return f"{self.rules}:{self.players}:{self.opponent}"

    @property
    def entrants(self) -> str:
        return ",".join(["strong"] + [self.opponent] * (self.players - 1))


CASES = tuple(
    Case(rules, players, opponent)
    for rules in ("bhabho", "pickup")
    for players in (3, 4, 5)
    for opponent in ("heuristic", "random")
)


@dataclass(frozen=True, slots=True)
class Result:
    case: Case
    hands: int
    bhabhis: int
    rate: float
    ci95: tuple[float, float]
    opponents_rate: float
    failures: int
    seconds: float


def main() -> int:
    deals = os.environ.get("BENCH_STRENGTH_DEALS")
    playouts = int(os.environ.get("BENCH_STRENGTH_PLAYOUTS", PLAYOUTS))
    words = [w for w in os.environ.get("BENCH_STRENGTH_CASES", "").split(",") if w]
    cases = [c for c in CASES if not words or any(w in c.name for w in words)]
    print(
        f"strong bot in the arena: {playouts} worlds a decision, duplicate deals, seed {SEED!r}, "
        f"{len(cases)} leagues, two at a time"
    )
    bhabhi = Path(sys.executable).with_name("bhabhi")
    with tempfile.TemporaryDirectory() as scratch, ThreadPoolExecutor(2) as pool:
        futures = [
            pool.submit(
                _league,
                bhabhi,
                case,
                int(deals) if deals else DEALS[case.players],
                playouts,
                Path(scratch) / f"{case.name.replace(':', '-')}.json",
            )
            for case in cases
        ]
        results = [f.result() for f in futures]
    print(
        f"  {'ruleset':<8} {'players':>7}  {'against':<10} {'hands':>5} {'bhabhi':>6} "
        f"{'rate':>6}  {'95% interval':<16} {'fair':>6} {'theirs':>6} {'failures':>8} "
        f"{'seconds':>7}"
    )
    for r in results:
        lo, hi = r.ci95
        print(
            f"  {r.case.rules:<8} {r.case.players:>7}  {r.case.opponent:<10} {r.hands:>5} "
            f"{r.bhabhis:>6} {r.rate:>6.1%}  [{lo:.1%}, {hi:.1%}]".ljust(68)
            + f" {1 / r.case.players:>6.1%} {r.opponents_rate:>6.1%} {r.failures:>8} "
            f"{r.seconds:>7.0f}"
        )
    goal = next((r for r in results if r.case == Case("bhabho", 3, "heuristic")), None)
    if goal is not None:
        lo, hi = goal.ci95
        verdict = "met" if goal.rate <= GOAL else "NOT met"
        sure = "" if hi <= GOAL else f" (the interval reaches {hi:.1%}: play more deals to be sure)"
        print(
            f"strong against two heuristic, 3-player bhabho: {goal.rate:.1%} "
            f"[{lo:.1%}, {hi:.1%}] (goal <= {GOAL:.0%}): {verdict}{sure}"
        )
    return 0


def _league(bhabhi: Path, case: Case, deals: int, playouts: int, out: Path) -> Result:
    started = time.perf_counter()
    subprocess.run(
        [
            str(bhabhi),
            "arena",
            "--rules",
            case.rules,
            "--players",
            str(case.players),
            "--entrants",
            case.entrants,
            "--deals",
            str(deals),
            "--seed",
            SEED,
            "--playouts",
            str(playouts),
            "--parallel",
            "1",
            "--turn-time",
            str(TURN_TIME),
            "--json",
            str(out),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    seconds = time.perf_counter() - started
    report = json.loads(out.read_text())
    entrants = report["entrants"]
    strong = entrants[0]
    others = entrants[1:]
    their_hands = sum(e["hands"] for e in others)
    return Result(
        case=case,
        hands=strong["hands"],
        bhabhis=strong["bhabhis"],
        rate=strong["bhabhi_rate"],
        ci95=(strong["ci95"][0], strong["ci95"][1]),
        opponents_rate=sum(e["bhabhis"] for e in others) / their_hands if their_hands else 0.0,
        failures=sum(e["failures"] for e in entrants),
        seconds=seconds,
    )


if __name__ == "__main__":
    raise SystemExit(main())
