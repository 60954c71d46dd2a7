"""``python -m bench.uploads``: the p99 of a ``GetView`` while hostile ruleset uploads run.

A ruleset upload is the one request whose cost the client chooses.  The referee checks it in
worker processes, within a CPU budget, a few at a time, and refuses more with
``validation_busy``; what stays on its event loop is receiving the upload and handing it
over.  This measures what that leaves for the other players:

* a fresh referee (``bhabhi serve`` on a SQLite file in a temporary folder) with ``--tables``
  four-seat ``bhabho`` tables started, nobody moving;
* a prober process asks for a seat's view (``GetView``, each seat of each table in turn)
  ``--rate`` times a second on a fixed schedule, whatever the answers' speed (an open loop:
  a slow answer delays no later probe, so a stall is not hidden); latency is from the call
  to its answer, as the load generator of ``bench.referee`` measures a move;
* ``--attackers`` processes, each sending ``ValidateRuleset`` back to back, one call at a
  time, with the same 258 kB ruleset of 20,000 plain keys: under the 256 KiB size limit,
  far over the 1,000 values allowed, so each is answered with a ``too_many_nodes`` problem
  once a worker has read 1,000 values.  Refusals are counted by reason; ``validation_busy``
  is expected (more uploads at once than the workers and their queue take).  Each attacker
  sends one upload before the first window, so that the referee has started its workers;
* windows without the attack and with it alternate, ``--rounds`` of each (quiet first in
  even rounds), so that a drift in the machine's speed touches both alike; each kind's
  windows add up to ``--seconds``, each after ``--warmup`` (the attack already running).

The goal: the p99 during the attack at most ``TARGET_RATIO`` times the p99 without it.

With ``--pin`` (the default) the referee runs on the first CPU and the prober and attackers
on the others; the referee's validation workers inherit its CPU, so they take turns with its
event loop as on a one-core server.  The server CPU printed is the referee's and its
workers'.  ``python -m bench.referee`` runs this after its own phases, and judges the goal
with its own.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing.connection
import os
import signal
import sys
import tempfile
import time
from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from bhabhi.referee.v1 import referee_pb2 as pb
from bhabhi.referee.v1 import referee_pb2_grpc as rpc

from bench.referee import (
    CALL_TIMEOUT,
    CHANNEL_OPTIONS,
    Counters,
    Pool,
    RefereeTable,
    Server,
    percentile,
    process_cpu_seconds,
    reason_of,
    referee_command,
    split_cpus,
)
from referee.ops.drill import free_port

TARGET_RATIO = 3.0
"""GetView's p99 during the attack at most this times its p99 without it."""
HOSTILE_KEYS = 20_000


def hostile_ruleset() -> str:
    """20,000 plain keys (258 kB): within the size limit, 40 times the values allowed (a key
    and its value are two)."""
    return "id: x\n" + "".join(f"k{i}: {i}\n" for i in range(HOSTILE_KEYS))


@dataclass(frozen=True, slots=True)
class ProbePlan:
    target: str
    tables: int
    rate: float
    cpus: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class AttackPlan:
    target: str
    index: int
    cpus: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class Window:
    attack: bool
    start: float
    """Wall clock (``time.time()``): probes (and the attack) start."""
    measure_from: float
    """Probes from here on count."""
    until: float
    """Probes stop; the attack stops once its calls in flight are answered."""


@dataclass(slots=True)
class ProbeReport:
    latencies: array[int] = field(default_factory=lambda: array("q"))
    """Microseconds, of each GetView answered that was sent inside the window."""
    errors: Counter[str] = field(default_factory=Counter)
    cpu: float = 0.0
    """The prober's CPU seconds in the window (with the warm-up)."""
    tables: int = 0
    """Tables set up and started (the report sent after setting up)."""


@dataclass(slots=True)
class AttackReport:
    answers: Counter[str] = field(default_factory=Counter)
    """Answered uploads, by their first problem's code (``valid`` without one)."""
    refused: Counter[str] = field(default_factory=Counter)
    """Refused uploads, by reason."""
    cpu: float = 0.0


# --- the prober ------------------------------------------------------------------------------


def probe_main(plan: ProbePlan, conn: multiprocessing.connection.Connection) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    if plan.cpus is not None:
        os.sched_setaffinity(0, plan.cpus)
    asyncio.run(_probe(plan, conn))


async def _probe(plan: ProbePlan, conn: multiprocessing.connection.Connection) -> None:
    loop = asyncio.get_running_loop()
    async with grpc.aio.insecure_channel(plan.target, options=CHANNEL_OPTIONS) as channel:
        play = rpc.PlayServiceStub(channel)
        counters = Counters(0, 0)
        tables = [
            RefereeTable(key, rpc.TableServiceStub(channel), play) for key in range(plan.tables)
        ]
        for table in tables:
            await table.set_up(counters)
        seats = [(table.table_id, player.metadata) for table in tables for player in table.players]
        conn.send(ProbeReport(errors=counters.report.errors, tables=counters.in_play))
        while (window := await loop.run_in_executor(None, conn.recv)) is not None:
            conn.send(await _probe_window(play, seats, plan.rate, window))


async def _probe_window(
    play: rpc.PlayServiceAsyncStub,
    seats: Sequence[tuple[str, tuple[tuple[str, str], ...]]],
    rate: float,
    window: Window,
) -> ProbeReport:
    report = ProbeReport()

    async def probe(k: int, measured: bool) -> None:
        table_id, metadata = seats[k % len(seats)]
        started = time.perf_counter_ns()
        try:
            await play.GetView(
                pb.GetViewRequest(table_id=table_id), metadata=metadata, timeout=CALL_TIMEOUT
            )
        except grpc.aio.AioRpcError as error:
            report.errors[reason_of(error)] += 1
            return
        if measured:
            report.latencies.append((time.perf_counter_ns() - started) // 1000)

    cpu = process_cpu_seconds()
    probes: list[asyncio.Task[None]] = []
    k = 0
    while (due := window.start + k / rate) < window.until:
        await asyncio.sleep(max(0.0, due - time.time()))
        probes.append(asyncio.create_task(probe(k, due >= window.measure_from)))
        k += 1
    await asyncio.gather(*probes)
    report.cpu = process_cpu_seconds() - cpu
    return report


# --- the attackers ---------------------------------------------------------------------------


def attack_main(plan: AttackPlan, conn: multiprocessing.connection.Connection) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if plan.cpus is not None:
        os.sched_setaffinity(0, plan.cpus)
    asyncio.run(_attack(plan, conn))


async def _attack(plan: AttackPlan, conn: multiprocessing.connection.Connection) -> None:
    loop = asyncio.get_running_loop()
    request = pb.ValidateRulesetRequest(yaml=hostile_ruleset(), name=f"hostile-{plan.index}.yaml")
    async with grpc.aio.insecure_channel(plan.target, options=CHANNEL_OPTIONS) as channel:
        await channel.channel_ready()
        rulesets = rpc.RulesetServiceStub(channel)
        with contextlib.suppress(grpc.aio.AioRpcError):  # the referee starts its workers
            await rulesets.ValidateRuleset(request, timeout=CALL_TIMEOUT)
        conn.send(AttackReport())
        while (window := await loop.run_in_executor(None, conn.recv)) is not None:
            report = AttackReport()
            cpu = process_cpu_seconds()
            await asyncio.sleep(max(0.0, window.start - time.time()))
            while time.time() < window.until:
                try:
                    answer = await rulesets.ValidateRuleset(request, timeout=CALL_TIMEOUT)
                except grpc.aio.AioRpcError as error:
                    report.refused[reason_of(error)] += 1
                    continue
                report.answers[answer.problems[0].code if answer.problems else "valid"] += 1
            report.cpu = process_cpu_seconds() - cpu
            conn.send(report)


# --- the parent ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Settings:
    tables: int = 4
    attackers: int = 4
    rate: float = 250.0
    seconds: float = 3.0
    """Measured without the attack, and as long again with it."""
    warmup: float = 0.5
    rounds: int = 2
    pin: bool = True


@dataclass(slots=True)
class Side:
    """The windows of one kind (quiet, or under attack), added up."""

    probes: list[ProbeReport] = field(default_factory=list)
    attacks: list[AttackReport] = field(default_factory=list)
    server_cpu: float | None = 0.0
    """The referee's and its workers' CPU seconds in the measured windows."""
    seconds: float = 0.0
    """Measured (the warm-ups left out)."""
    span: float = 0.0
    """From the start of each window to its end, the warm-ups in: what the clients' CPU and
    the uploads are counted over."""

    def p(self, fraction: float) -> float:
        return percentile([v for r in self.probes for v in r.latencies], fraction)

    @property
    def views(self) -> int:
        return sum(len(r.latencies) for r in self.probes)

    @property
    def errors(self) -> Counter[str]:
        return sum((r.errors for r in self.probes), Counter())

    @property
    def answers(self) -> Counter[str]:
        return sum((r.answers for r in self.attacks), Counter())

    @property
    def refused(self) -> Counter[str]:
        return sum((r.refused for r in self.attacks), Counter())

    @property
    def client_cpu(self) -> float:
        return sum(r.cpu for r in self.probes) + sum(r.cpu for r in self.attacks)


@dataclass(slots=True)
class Outcome:
    settings: Settings
    tables: int
    quiet: Side
    attack: Side

    @property
    def ratio(self) -> float:
        quiet = self.quiet.p(0.99)
        return self.attack.p(0.99) / quiet if quiet else float("nan")

    def goal(self) -> tuple[str, str, bool]:
        """(the goal, what was measured, met)."""
        return (
            f"GetView p99 under upload attack <= {TARGET_RATIO:g} x quiet",
            f"{self.ratio:.2f}x ({self.attack.p(0.99):.2f} / {self.quiet.p(0.99):.2f} ms)",
            self.ratio <= TARGET_RATIO,
        )

    def lines(self) -> list[str]:
        s = self.settings
        rows = [
            f"uploads: GetView at {s.rate:g}/s on {self.tables} started tables, quiet and while "
            f"{s.attackers} processes send ValidateRuleset back to back "
            f"({len(hostile_ruleset()):,} bytes, {HOSTILE_KEYS:,} keys), "
            f"{s.rounds} window{'s' if s.rounds > 1 else ''} of {s.seconds / s.rounds:g} s of"
            " each kind, alternating",
            f"  {'':<22} {'GetViews':>8} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7}"
            f" {'server CPU':>10} {'client CPU':>10} {'uploads/s':>9}",
        ]
        for name, side in (("quiet", self.quiet), ("under attack", self.attack)):
            server = "?" if side.server_cpu is None else f"{side.server_cpu / side.seconds:.0%}"
            uploads = sum(side.answers.values()) + sum(side.refused.values())
            rows.append(
                f"  {name:<22} {side.views:>8,} {side.p(0.5):>7.2f} {side.p(0.99):>7.2f}"
                f" {side.p(1.0):>7.2f} {server:>10} {side.client_cpu / side.span:>10.0%}"
                f" {uploads / side.span:>9,.0f}"
            )
        errors = self.quiet.errors + self.attack.errors
        refused = self.attack.refused
        rows.append(
            f"  uploads answered: {dict(self.attack.answers)}; refused: "
            f"{sum(refused.values()):,}"
            + (f" {dict(refused)}" if refused else "")
            + " (validation_busy is expected); GetView errors: "
            f"{sum(errors.values()):,}" + (f" {dict(errors)}" if errors else "")
        )
        rows.append(
            "  CPU: busy share of one CPU (server: the referee and its validation workers;"
            " client: the prober and the attackers, warm-ups in)"
        )
        return rows


def run_uploads(settings: Settings, folder: Path) -> Outcome:
    """Start a referee on a store in ``folder``, measure both kinds of window, stop it."""
    server_cpus, client_cpus = split_cpus(settings.pin)
    port = free_port()
    referee = Server(referee_command(port, folder / "uploads.sqlite3"), port, server_cpus)
    try:
        plan = ProbePlan(referee.target, settings.tables, settings.rate, client_cpus)
        prober = Pool([plan], probe_main)
        attackers = Pool(
            [AttackPlan(referee.target, k, client_cpus) for k in range(settings.attackers)],
            attack_main,
        )
        try:
            set_up: list[ProbeReport] = prober.gather()
            attackers.gather()
            quiet, attack = Side(), Side()
            for round_ in range(settings.rounds):
                for attacking in (False, True) if round_ % 2 == 0 else (True, False):
                    side = attack if attacking else quiet
                    _window(settings, referee, prober, attackers if attacking else None, side)
        finally:
            attackers.close()
            prober.close()
    finally:
        referee.stop()
    return Outcome(settings, set_up[0].tables, quiet, attack)


def _window(
    settings: Settings, referee: Server, prober: Pool, attackers: Pool | None, side: Side
) -> None:
    """One window (under attack when given the attackers), added to ``side``."""
    start = time.time() + 0.3
    measure_from = start + settings.warmup
    seconds = settings.seconds / settings.rounds
    window = Window(attackers is not None, start, measure_from, measure_from + seconds)
    for conn in prober.conns + (attackers.conns if attackers else []):
        conn.send(window)
    time.sleep(max(0.0, measure_from - time.time()))
    before = tree_cpu_seconds(referee.process.pid)
    time.sleep(max(0.0, window.until - time.time()))
    after = tree_cpu_seconds(referee.process.pid)
    side.probes += prober.gather()
    if attackers is not None:
        side.attacks += attackers.gather()
    if before is None or after is None or side.server_cpu is None:
        side.server_cpu = None
    else:
        side.server_cpu += after - before
    side.seconds += seconds
    side.span += window.until - start


def tree_cpu_seconds(pid: int) -> float | None:
    """User + system CPU of a process and every process it started (its validation
    workers), Linux ``/proc``; None elsewhere."""
    stats: dict[int, tuple[int, float]] = {}  # pid: (parent, CPU seconds)
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    try:
        entries = [e for e in Path("/proc").iterdir() if e.name.isdigit()]
    except OSError:
        return None
    for entry in entries:
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            stats[int(entry.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / ticks)
    if pid not in stats:
        return None
    tree, grew = {pid}, True
    while grew:
        more = {child for child, (parent, _) in stats.items() if parent in tree} - tree
        tree |= more
        grew = bool(more)
    return sum(stats[p][1] for p in tree)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.uploads",
        description="GetView latency on a referee while hostile ruleset uploads run.",
    )
    defaults = Settings()
    parser.add_argument("--tables", type=int, default=defaults.tables, help="tables started (4)")
    parser.add_argument(
        "--attackers", type=int, default=defaults.attackers, help="uploading processes (4)"
    )
    parser.add_argument("--rate", type=float, default=defaults.rate, help="GetViews/s (250)")
    parser.add_argument(
        "--seconds", type=float, default=defaults.seconds, help="measured quiet, and attacked (3)"
    )
    parser.add_argument(
        "--rounds", type=int, default=defaults.rounds, help="windows of each kind, alternating (2)"
    )
    parser.add_argument("--warmup", type=float, default=defaults.warmup, help="before each window")
    parser.add_argument(
        "--dir", type=Path, default=None, help="where the temporary store goes (system temp)"
    )
    parser.add_argument(
        "--pin",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="referee on the first CPU, prober and attackers on the others (default: on)",
    )
    parser.add_argument("--quick", action="store_true", help="2 s of each kind")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds = min(args.seconds, 2.0)
    if args.tables < 1 or args.attackers < 1 or args.rate <= 0 or args.rounds < 1:
        parser.error("need a table, an attacker, a rate above 0 and a round")
    settings = Settings(
        args.tables, args.attackers, args.rate, args.seconds, args.warmup, args.rounds, args.pin
    )
    if args.dir is not None:
        args.dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="bhabhi-bench-", dir=args.dir) as folder:
        outcome = run_uploads(settings, Path(folder))
    print("\n".join(outcome.lines()))
    name, value, met = outcome.goal()
    print(f"goal: {name}: {value}, {'met' if met else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
