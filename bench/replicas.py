"""``python -m bench.replicas``: durable moves per second with 1, 2 and 3 referee replicas
sharing one PostgreSQL, and where the limit lies.

The load is ``bench.referee``'s (the same load-generator processes and tables: four-seat
``bhabho`` tables without turn clocks, random legal moves, one driver per table, a fresh
request id per move), measured the same way (a closed loop with ``--concurrency`` calls in
flight, then a paced phase at ``--pace`` of that rate for latency).  What changes:

* the store is PostgreSQL (``--postgres``, default the local test server), a fresh schema
  per replica count, dropped afterwards; every move is one committed transaction (with
  ``synchronous_commit`` as the server has it, which is on unless someone turned it off:
  the header says) before it is acknowledged;
* ``N`` referee processes (``bhabhi serve --db postgresql://...``) on their own ports, the
  load-generator processes spread over them (process k talks to replica k mod N): each
  replica serves its share of the tables, and hears (LISTEN/NOTIFY) of every command of
  every replica.

Where the limit lies is read from CPU time: per move, what the referees (all replicas
together), the PostgreSQL server processes and the load generators spent, and how busy the
machine's CPUs were.  On a machine whose every core is busy, more replicas cannot help: the
table says so.  After each run the store is read back: it must hold every acknowledged move.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import psycopg

from bench.referee import Phase as LoadPhase
from bench.referee import (
    Pool,
    Report,
    Result,
    Server,
    WorkerPlan,
    cpus_busy,
    referee_command,
    split,
)
from referee.ops.drill import free_port
from referee.server.store.postgres import redact, scratch_schema

DEFAULT_POSTGRES = "postgresql://127.0.0.1:5432/test"


@dataclass(slots=True)
class Settings:
    replicas: list[int]
    tables: int
    seconds: float
    warmup: float
    clients: int
    channels: int
    concurrency: int
    pace: float
    seed: int
    postgres: str


@dataclass(slots=True)
class Run:
    """One replica count's measurements."""

    replicas: int
    closed: Result
    paced: Result
    referee_cpu: float
    postgres_cpu: float
    busy: float
    acknowledged: int
    stored: int


def postgres_cpu_seconds() -> float:
    """User + system CPU of every PostgreSQL server process on this machine (Linux /proc)."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            text = (entry / "stat").read_text()
            name = text[text.index("(") + 1 : text.rindex(")")]
            if name == "postgres" or name.startswith("postgres:"):
                fields = text.rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def stored_actions(url: str) -> int:
    with psycopg.connect(url, connect_timeout=5) as db:
        row = db.execute("SELECT count(*) FROM commands WHERE kind = 'action'").fetchone()
    return int(row[0]) if row else 0


def measure(
    pool: Pool, servers: Sequence[Server], settings: Settings, think: float, concurrency: int
) -> tuple[Result, float, float, float]:
    """One phase on every load generator at once; (result, referees' CPU, PostgreSQL's
    CPU, busy CPU seconds of the whole machine) in the window."""
    start = time.time() + 0.3
    measure_from = start + settings.warmup
    until = measure_from + settings.seconds
    shares = split(concurrency, len(pool.conns))
    phases = [LoadPhase("referee", max(1, s), think, measure_from, until) for s in shares]
    for conn, phase in zip(pool.conns, phases, strict=True):
        conn.send(phase)
    time.sleep(max(0.0, measure_from - time.time()))
    referees_before = [s.cpu_seconds() or 0.0 for s in servers]
    postgres_before, busy_before = postgres_cpu_seconds(), cpus_busy(None) or 0.0
    time.sleep(max(0.0, until - time.time()))
    referees_after = [s.cpu_seconds() or 0.0 for s in servers]
    postgres_after, busy_after = postgres_cpu_seconds(), cpus_busy(None) or 0.0
    reports: list[Report] = pool.gather()
    referee_cpu = sum(referees_after) - sum(referees_before)
    result = Result("referee", settings.seconds, reports, referee_cpu, None, False)
    return result, referee_cpu, postgres_after - postgres_before, busy_after - busy_before


def run_replicas(settings: Settings, count: int) -> Run:
    with scratch_schema(settings.postgres, "bhabhi_bench") as url:
        ports = [free_port() for _ in range(count)]
        servers: list[Server] = []
        try:
            for k, port in enumerate(ports):
                servers.append(Server(referee_command(port, url), port, None))
                if k == 0:
                    time.sleep(0.5)  # the first creates the schema; the others find it
            clients = max(settings.clients, count)
            shares = split(settings.tables, clients)
            pool = Pool(
                [
                    WorkerPlan(
                        servers[k % count].target,
                        "referee",
                        k,
                        n,
                        settings.channels,
                        0,
                        settings.seed,
                        None,
                    )
                    for k, n in enumerate(shares)
                ]
            )
            try:
                pool.gather()
                closed, referee_cpu, postgres_cpu, busy = measure(
                    pool, servers, settings, 0.0, settings.concurrency
                )
                think = settings.tables / max(1.0, settings.pace * closed.rate)
                paced, *_ = measure(pool, servers, settings, think, settings.tables)
                paced.offered = settings.tables / think
            finally:
                pool.close()
        finally:
            for server in servers:
                server.stop()
        acknowledged = sum(r.moves_total for r in paced.reports)
        return Run(
            count,
            closed,
            paced,
            referee_cpu,
            postgres_cpu,
            busy,
            acknowledged,
            stored_actions(url),
        )


def run(settings: Settings) -> int:
    try:
        with psycopg.connect(settings.postgres, connect_timeout=5) as db:
            version = db.execute("SHOW server_version").fetchone()
            synchronous = db.execute("SHOW synchronous_commit").fetchone()
            fsync = db.execute("SHOW fsync").fetchone()
    except psycopg.Error as error:
        reason = " ".join(str(error).split())
        print(
            f"bench.replicas: skipped: PostgreSQL not reachable at {redact(settings.postgres)}:"
            f" {reason} (give --postgres URL)"
        )
        return 0
    cpus = os.cpu_count() or 1
    print(
        f"bhabhi replicas bench: {settings.tables:,} four-seat tables, "
        f"{settings.seconds:g} s per phase, replicas {settings.replicas}, on {cpus} CPUs shared "
        f"by the referees, PostgreSQL and the load generators"
    )
    print(
        f"  PostgreSQL {version[0] if version else '?'} at {redact(settings.postgres)}: "
        f"synchronous_commit={synchronous[0] if synchronous else '?'}, "
        f"fsync={fsync[0] if fsync else '?'}",
        flush=True,
    )
    runs = []
    for count in settings.replicas:
        runs.append(run_replicas(settings, count))
        print(f"  {count} replica(s): {runs[-1].closed.rate:,.0f} moves/s", flush=True)
    print()
    print(
        f"  {'replicas':>8} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'(paced at)':>10}"
        f" {'referees':>9} {'postgres':>9} {'clients':>8} {'CPUs busy':>9} {'errors':>6}"
        f" {'durable':>8}"
    )
    for r in runs:
        moves = r.closed.moves or 1
        per = 1e6 / moves
        durable = "ok" if r.stored >= r.acknowledged else "MISSING"
        errors = sum(r.closed.errors.values()) + sum(r.paced.errors.values())
        print(
            f"  {r.replicas:>8} {r.closed.rate:>8,.0f} {r.paced.percentile(0.5):>7.2f}"
            f" {r.paced.percentile(0.99):>7.2f} {r.paced.offered or 0:>9,.0f}/s"
            f" {r.referee_cpu * per:>6,.0f} us {r.postgres_cpu * per:>6,.0f} us"
            f" {r.closed.client_cpu * per:>5,.0f} us {r.busy / settings.seconds / cpus:>9.0%}"
            f" {errors:>6} {durable:>8}"
        )
    print(
        f"  moves/s: closed loop; latency: paced at {settings.pace:g} of that rate; CPU per move"
        " in the closed loop: all referee processes, all PostgreSQL processes, the load"
        " generators; CPUs busy: the whole machine"
    )
    print("where the limit lies: " + verdict(runs, cpus, settings.seconds))
    return 0


def verdict(runs: Sequence[Run], cpus: int, seconds: float) -> str:
    busiest = max(runs, key=lambda r: r.busy)
    share = busiest.busy / seconds / cpus
    first, last = runs[0], runs[-1]
    scaling = last.closed.rate / first.closed.rate if first.closed.rate else math.nan
    parts = [
        f"{last.replicas} replicas give {scaling:.2f}x the moves/s of {first.replicas}",
    ]
    if share >= 0.9:
        costs = {
            "the referees": last.referee_cpu,
            "PostgreSQL": last.postgres_cpu,
            "the load generators": last.closed.client_cpu,
        }
        top = max(costs, key=lambda k: costs[k])
        parts.append(
            f"the machine's {cpus} CPUs are {share:.0%} busy, so the limit here is CPU: "
            f"{top} take the most per move; on separate machines (a replica per machine, "
            "PostgreSQL on its own) each replica adds what its CPU adds, until PostgreSQL's "
            "commits (one WAL flush per group of concurrent commits) are the limit"
        )
    else:
        parts.append(
            f"the CPUs are only {share:.0%} busy: the limit is latency (commit waits, "
            "calls in flight); raise --concurrency to load it further"
        )
    return "; ".join(parts)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.replicas",
        description="Durable moves per second with several referee replicas on PostgreSQL.",
    )
    parser.add_argument(
        "--replicas", default="1,2,3", help="replica counts to measure, comma-separated (1,2,3)"
    )
    parser.add_argument("--tables", type=int, default=300, help="tables in play (300)")
    parser.add_argument("--seconds", type=float, default=6.0, help="window of each phase (6)")
    parser.add_argument("--warmup", type=float, default=1.0, help="before each window (1)")
    parser.add_argument("--clients", type=int, default=3, help="load-generator processes (3)")
    parser.add_argument("--channels", type=int, default=2, help="gRPC channels per process (2)")
    parser.add_argument(
        "--concurrency", type=int, default=48, help="calls in flight in the closed loop (48)"
    )
    parser.add_argument("--pace", type=float, default=0.5, help="paced load (0.5 of closed)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--postgres",
        default=os.environ.get("BHABHI_BENCH_POSTGRES", DEFAULT_POSTGRES),
        help=f"PostgreSQL server URL; a fresh schema is used and dropped ({DEFAULT_POSTGRES})",
    )
    parser.add_argument("--quick", action="store_true", help="60 tables, 2 s windows")
    args = parser.parse_args(argv)
    if args.quick:
        args.tables, args.seconds, args.warmup = min(args.tables, 60), 2.0, 0.5
    try:
        counts = [int(c) for c in args.replicas.split(",") if c.strip()]
    except ValueError:
        parser.error(f"--replicas: comma-separated numbers, not {args.replicas!r}")
    if not counts or min(counts) < 1:
        parser.error("--replicas: at least one count, each at least 1")
    if args.tables < max(args.clients, max(counts)):
        parser.error("need at least one table per load-generator process")
    return run(
        Settings(
            replicas=counts,
            tables=args.tables,
            seconds=args.seconds,
            warmup=args.warmup,
            clients=args.clients,
            channels=args.channels,
            concurrency=args.concurrency,
            pace=args.pace,
            seed=args.seed,
            postgres=args.postgres,
        )
    )


if __name__ == "__main__":
    sys.exit(main())
