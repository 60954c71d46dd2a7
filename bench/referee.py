"""``python -m bench.referee``: validated, durable moves per second, against a bare gRPC echo.

What runs, all on this machine, over loopback:

* the referee, ``bhabhi serve`` in its own process, on a fresh SQLite store in a temporary
  folder (WAL, ``synchronous=FULL``): every move is committed to disk before it is
  acknowledged.  Its limit on ``CreateTable`` per client address is off
  (``--tables-per-minute 0``): the load generators set up every table from one address;
* ``--clients`` load-generator processes, each with its own asyncio loop and ``--channels``
  gRPC channels (separate TCP connections).  Together they set up ``--tables`` four-seat
  ``bhabho`` tables without turn clocks (create, four joins, start) and play them with random
  legal moves, one driver per table taking its four seats' turns.  Each seat keeps its own
  cards, from ``GetView`` once per hand (the deal is in no action's answer) and from the
  events of ``SubmitAction`` answers (cards played, picked up, drawn); what is public (whose
  turn it is, the trick, the last seq, sent as ``expected_seq``) the four share, read from
  the answer of whoever acted, as each would read it from its own event stream.  An event
  that hides a change to another seat's cards (a draw from the waste pile) sends that seat
  to ``GetView`` before it plays.  No ``WatchTable`` stream is open: this measures the action
  path, not the fan-out to watchers.  Every request has a fresh request id.  When a table's
  session ends a new table replaces it, so that ``--tables`` stay in play;
* and ``bench.echo`` in its own process, driven by the same load generator shape: as many
  processes, channels, "tables" and calls in flight, requests of the same size with the
  same credential metadata, answered at once.

Both servers run side by side, pinned to the same CPU, but only one is loaded at a time:
each phase is split into ``--rounds`` windows per server, the referee's and the echo's
alternating (each after a warm-up), and each server's windows add up to ``--seconds``.  On
a shared machine the speed of a core drifts by tens of per cent within a minute; measured
one after the other, the two servers would be compared on different machines.

Two phases:

* **closed loop**: ``--concurrency`` calls in flight in all (split over the processes),
  every table taking its turn as soon as a slot is free (all tables move, round robin).
  This is the most the server does: moves/s, and the ratio referee/echo;
* **paced**: every table waits a random think time (exponential) between its moves, the
  mean chosen so that the tables offer ``--pace`` (a quarter) of the referee's closed-loop
  rate, to both servers, without a cap on calls in flight.  This is the latency a player
  sees at that load; the latency goal is judged here (the referee's p99 at most
  ``TARGET_P99_RATIO`` times the echo's at the same offered rate), since in a closed loop
  the latency is only the queue the benchmark chose (Little's law: concurrency /
  throughput).

Then ``bench.uploads`` (``--uploads-seconds``, 0 to leave it out): the p99 of a ``GetView``
on a fresh referee while hostile ruleset uploads run, against the same without them.

Latency is the time of one ``SubmitAction`` seen by the load generator, so it includes the
client's own gRPC work.  The machine's cores are shared by the server and the load
generators (the header says how many there are); the CPU time each side spent per move is
printed so that the comparison holds on any machine.

Errors are counted by reason; ``stale_seq`` apart (it is the expected refusal of racing
players; with one driver per table it should not happen at all).  After the run the store
is read back: it must hold at least every acknowledged move.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import multiprocessing
import multiprocessing.connection
import os
import platform
import random
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from array import array
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import grpc
from bhabhi.referee.v1 import referee_pb2 as pb
from bhabhi.referee.v1 import referee_pb2_grpc as rpc
from bhabhi_client.errors import RefereeError

from referee.ops.drill import free_port

if TYPE_CHECKING:
    from bench.uploads import Outcome

RULESET = "bhabho"
SEATS = 4
TARGET_RATIO = 0.5
"""The referee's closed-loop moves/s at least this times the echo's."""
TARGET_P99_RATIO = 3.0
"""The referee's paced p99 at most this times the echo's at the same offered rate."""
TARGET_TABLES = 1_000
CALL_TIMEOUT = 60.0
SETUP_CONCURRENCY = 16
"""Tables each load-generator process sets up at once."""
CHANNEL_OPTIONS: Sequence[tuple[str, Any]] = (
    ("grpc.use_local_subchannel_pool", 1),  # one TCP connection per channel, not one shared
    ("grpc.max_receive_message_length", 64 << 20),
)


# --- what goes to and comes back from a load-generator process ---------------------------


@dataclass(frozen=True, slots=True)
class WorkerPlan:
    target: str
    mode: str
    """``referee`` or ``echo``."""
    index: int
    tables: int
    channels: int
    hands: int
    seed: int
    cpus: tuple[int, ...] | None
    """The CPUs this process may run on (``--pin``), or None for any."""


@dataclass(frozen=True, slots=True)
class Phase:
    name: str
    slots: int
    """Calls in flight allowed in this process."""
    think: float
    """Mean think time of a table between its moves (s); 0 for the closed loop."""
    measure_from: float
    """Wall clock (``time.time()``): moves acknowledged from here on count."""
    until: float
    """Wall clock: the window ends, and the tables stop moving."""


@dataclass(slots=True)
class Report:
    """One process's account of one phase (or of the setup)."""

    latencies: array[int] = field(default_factory=lambda: array("q"))
    """Microseconds, of each move acknowledged inside the window."""
    moves: int = 0
    """Acknowledged inside the window."""
    moves_total: int = 0
    """Acknowledged since the process started (for the durability check)."""
    stale: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    views: int = 0
    replaced: int = 0
    in_play_min: int = 0
    in_play_end: int = 0
    moved: int = 0
    """Tables with at least one move acknowledged inside the window."""
    cpu: float = 0.0
    """User + system CPU seconds of this process inside the window."""
    setup_seconds: float = 0.0


# --- the load generator --------------------------------------------------------------------


class Counters:
    """What the tables of one process share while a phase runs."""

    def __init__(self, worker: int, hands: int) -> None:
        self.worker = worker
        self.hands = hands
        """Hands per session of the tables set up (0: the ruleset's)."""
        self.requests = 0
        self.report = Report()
        self.in_play = 0
        self.moved: set[int] = set()
        self.moves_total = 0

    def request_id(self) -> str:
        self.requests += 1
        return f"b{self.worker}.{self.requests:x}"

    def refused(self, error: grpc.aio.AioRpcError) -> str:
        reason = reason_of(error)
        if reason == "stale_seq":
            self.report.stale += 1
        else:
            self.report.errors[reason] += 1
        return reason


def reason_of(error: grpc.aio.AioRpcError) -> str:
    """The referee's reason for a refusal, or the status code's name (``deadline_exceeded``)."""
    return RefereeError.from_rpc_error(error).reason or error.code().name.lower()


def suit_of(card: str) -> str:
    return card.split("/", 1)[0][-1]


class Player:
    """One seat: its credential and the cards it knows it holds."""

    def __init__(self, seat: int, token: str) -> None:
        self.seat = seat
        self.metadata = (("authorization", f"Bearer {token}"),)
        self.hand: set[str] = set()
        self.legal: list[str] | None = None
        """The cards the last ``GetView`` allowed, while nothing happened since."""
        self.stale = True
        """Something happened to this seat's cards that its view did not show."""


class RefereeTable:
    """A bhabho table played by four virtual players, each keeping its own view."""

    def __init__(
        self, key: int, tables: rpc.TableServiceAsyncStub, play: rpc.PlayServiceAsyncStub
    ) -> None:
        self.key = key
        self.tables = tables
        self.play = play
        self.rng = random.Random(key)
        self.table_id = ""
        self.players: list[Player] = []
        self.last_seq = 0
        self.leader = -1
        self.trick: list[str] = []
        self.to_act: tuple[int, ...] = ()
        self.hand_over = False
        self.finished = True
        """No table yet, or its session is over: ``prepare`` sets up a new one."""

    async def set_up(self, counters: Counters) -> None:
        created = await self.tables.CreateTable(
            pb.CreateTableRequest(ruleset_id=RULESET, seat_count=SEATS, hands=counters.hands),
            timeout=CALL_TIMEOUT,
        )
        self.table_id = created.table.table_id
        self.players = []
        for seat in range(SEATS):
            joined = await self.tables.JoinTable(
                pb.JoinTableRequest(table_id=self.table_id, player_name=f"bot {seat}", seat=seat),
                timeout=CALL_TIMEOUT,
            )
            self.players.append(Player(joined.seat, joined.seat_token))
        await self.tables.StartTable(
            pb.StartTableRequest(table_id=self.table_id),
            metadata=self.players[0].metadata,
            timeout=CALL_TIMEOUT,
        )
        self.finished = False
        counters.in_play += 1
        await self.look(counters, self.players)

    async def look(self, counters: Counters, players: Sequence[Player]) -> None:
        """``GetView`` for these seats: their cards, and the table's position."""
        for player in players:
            answer = await self.play.GetView(
                pb.GetViewRequest(table_id=self.table_id),
                metadata=player.metadata,
                timeout=CALL_TIMEOUT,
            )
            counters.report.views += 1
            view = answer.view
            player.hand = set(view.hand)
            player.stale = False
            player.legal = (
                [a.card for a in view.legal_actions if a.kind == pb.ACTION_KIND_PLAY]
                if view.turn == player.seat
                else None
            )
            self.last_seq = answer.seq
            self.leader = view.leader
            self.trick = [played.card for played in view.trick]
            self.to_act = tuple(view.to_act)
        self.hand_over = False

    def turn(self) -> int:
        if self.trick:
            return self.to_act[0] if self.to_act else -1
        return self.leader

    async def prepare(self, counters: Counters) -> tuple[pb.SubmitActionRequest, Any]:
        if self.finished:
            replacing = bool(self.table_id)
            await self.set_up(counters)
            counters.report.replaced += replacing
        if self.hand_over:
            await self.look(counters, self.players)
        seat = self.turn()
        if not 0 <= seat < SEATS:  # the driver lost track: ask the referee
            await self.look(counters, self.players)
            seat = self.turn()
            if not 0 <= seat < SEATS:
                raise RuntimeError(f"table {self.table_id}: nobody to move at {self.last_seq}")
        player = self.players[seat]
        if player.stale:
            await self.look(counters, [player])
        card = self.choose(player)
        request = pb.SubmitActionRequest(
            table_id=self.table_id,
            action=pb.Action(kind=pb.ACTION_KIND_PLAY, card=card),
            request_id=counters.request_id(),
            expected_seq=self.last_seq,
        )
        return request, player.metadata

    def choose(self, player: Player) -> str:
        """A random legal card: the view's list if fresh, else follow suit if possible."""
        if player.legal:
            return self.rng.choice(player.legal)
        cards = sorted(player.hand)
        if self.trick:
            led = suit_of(self.trick[0])
            following = [c for c in cards if suit_of(c) == led]
            if following:
                cards = following
        return self.rng.choice(cards)  # a tochoo (or the first trick's discard) when void

    async def absorb(self, counters: Counters, response: pb.SubmitActionResponse) -> None:
        for player in self.players:
            player.legal = None
        for event in response.events:
            self._apply(event)
        self.last_seq = response.last_seq
        if self.finished:
            counters.in_play -= 1

    def _apply(self, event: pb.Event) -> None:
        self.to_act = tuple(event.to_act)
        kind = event.WhichOneof("kind")
        players = self.players
        if kind == "card_played":
            played = event.card_played
            players[played.seat].hand.discard(played.card)
            self.trick.append(played.card)
        elif kind == "trick_ended":
            self.trick = []
            if event.trick_ended.next_leader >= 0:
                self.leader = event.trick_ended.next_leader
        elif kind == "picked_up":
            picked = event.picked_up
            players[picked.seat].hand.update(picked.cards)
            if picked.from_waste:
                players[picked.seat].stale = True
        elif kind == "waste_drawn":
            drawn = event.waste_drawn
            if drawn.card:
                players[drawn.seat].hand.add(drawn.card)
            else:  # another seat drew: only its own view shows the card
                players[drawn.seat].stale = True
        elif kind in ("trick_to_waste", "player_out"):
            pass
        elif kind == "hand_over":
            self.hand_over = True
        elif kind == "session_over":
            self.finished = True
        else:  # a hand taken, a trump, a penalty: not in this bench's play; look again
            for player in players:
                player.stale = True

    async def recover(self, counters: Counters) -> None:
        with contextlib.suppress(grpc.aio.AioRpcError):
            await self.look(counters, self.players)


class EchoTable:
    """The same load with nobody to referee: requests of the referee's size and shape."""

    CARDS = ("10H", "7C", "QS", "AD", "2H", "10S", "9D", "KC")

    def __init__(self, key: int, play: rpc.PlayServiceAsyncStub) -> None:
        self.key = key
        self.play = play
        self.rng = random.Random(key)
        self.table_id = random.Random(-key).getrandbits(64).to_bytes(8, "big").hex()
        token = f"{self.table_id}.{key % SEATS}.{'x' * 32}"  # the referee's token length
        self.metadata = (("authorization", f"Bearer {token}"),)
        self.last_seq = 40 + key % 100

    async def prepare(self, counters: Counters) -> tuple[pb.SubmitActionRequest, Any]:
        request = pb.SubmitActionRequest(
            table_id=self.table_id,
            action=pb.Action(kind=pb.ACTION_KIND_PLAY, card=self.rng.choice(self.CARDS)),
            request_id=counters.request_id(),
            expected_seq=self.last_seq,
        )
        return request, self.metadata

    async def absorb(self, counters: Counters, response: pb.SubmitActionResponse) -> None:
        self.last_seq = response.last_seq

    async def recover(self, counters: Counters) -> None:
        return None


async def _play(
    driver: RefereeTable | EchoTable,
    counters: Counters,
    phase: Phase,
    slots: asyncio.Semaphore,
) -> None:
    """Move this table again and again until the phase ends."""
    report = counters.report
    rng = random.Random(driver.key ^ 0x5EED)
    while True:
        if phase.think:
            pause = rng.expovariate(1.0 / phase.think)
            left = phase.until - time.time()
            await asyncio.sleep(min(pause, max(left, 0.0)))
        if time.time() >= phase.until:
            return
        try:
            request, metadata = await driver.prepare(counters)
        except grpc.aio.AioRpcError as error:
            counters.refused(error)
            await asyncio.sleep(0.05)
            continue
        refused: grpc.aio.AioRpcError | None = None
        async with slots:
            started_at = time.time()
            started = time.perf_counter_ns()
            try:
                response = await driver.play.SubmitAction(
                    request, metadata=metadata, timeout=CALL_TIMEOUT
                )
            except grpc.aio.AioRpcError as error:
                refused = error
            elapsed = time.perf_counter_ns() - started
        if refused is not None:
            counters.refused(refused)
            await driver.recover(counters)
            continue
        counters.moves_total += 1
        if phase.measure_from <= started_at and started_at + elapsed / 1e9 <= phase.until:
            report.latencies.append(elapsed // 1000)
            report.moves += 1
            counters.moved.add(driver.key)
        await driver.absorb(counters, response)


async def _watch_tables(counters: Counters, phase: Phase) -> None:
    """Sample how many tables are in play during the window."""
    while time.time() < phase.measure_from:
        await asyncio.sleep(0.05)
    report = counters.report
    report.in_play_min = counters.in_play
    while time.time() < phase.until:
        report.in_play_min = min(report.in_play_min, counters.in_play)
        await asyncio.sleep(0.05)


def process_cpu_seconds() -> float:
    """User + system CPU seconds of this process."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def _run_phase(
    drivers: Sequence[RefereeTable | EchoTable], counters: Counters, phase: Phase
) -> Report:
    counters.report = Report()
    counters.moved = set()
    slots = asyncio.Semaphore(phase.slots)
    cpu_task = asyncio.create_task(_cpu_in_window(phase))
    monitor = asyncio.create_task(_watch_tables(counters, phase))
    await asyncio.gather(*(_play(driver, counters, phase, slots) for driver in drivers))
    await monitor
    report = counters.report
    report.cpu = await cpu_task
    report.moved = len(counters.moved)
    report.in_play_end = counters.in_play
    report.moves_total = counters.moves_total
    return report


async def _cpu_in_window(phase: Phase) -> float:
    await asyncio.sleep(max(0.0, phase.measure_from - time.time()))
    before = process_cpu_seconds()
    await asyncio.sleep(max(0.0, phase.until - time.time()))
    return process_cpu_seconds() - before


async def _set_up(drivers: Sequence[RefereeTable], counters: Counters) -> float:
    """Set every table up, a few at a time; returns the seconds it took.  A refusal is
    counted and the table tried again (three times at most)."""
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def one(driver: RefereeTable) -> None:
        async with gate:
            for _ in range(3):
                try:
                    await driver.set_up(counters)
                    return
                except grpc.aio.AioRpcError as error:
                    counters.refused(error)

    started = time.perf_counter()
    await asyncio.gather(*(one(d) for d in drivers))
    return time.perf_counter() - started


def worker_main(plan: WorkerPlan, conn: multiprocessing.connection.Connection) -> None:
    """A load-generator process: set up, then run each phase the parent sends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    if plan.cpus is not None:
        os.sched_setaffinity(0, plan.cpus)
    asyncio.run(_worker(plan, conn))


async def _worker(plan: WorkerPlan, conn: multiprocessing.connection.Connection) -> None:
    loop = asyncio.get_running_loop()
    channels = [
        grpc.aio.insecure_channel(plan.target, options=CHANNEL_OPTIONS)
        for _ in range(plan.channels)
    ]
    try:
        counters = Counters(plan.index, plan.hands)
        drivers: list[RefereeTable | EchoTable] = []
        for k in range(plan.tables):
            channel = channels[k % len(channels)]
            key = plan.seed * 1_000_003 + plan.index * 100_000 + k
            if plan.mode == "referee":
                drivers.append(
                    RefereeTable(key, rpc.TableServiceStub(channel), rpc.PlayServiceStub(channel))
                )
            else:
                drivers.append(EchoTable(key, rpc.PlayServiceStub(channel)))
        for channel in channels:
            await channel.channel_ready()
        setup = Report()
        if plan.mode == "referee":
            tables = [d for d in drivers if isinstance(d, RefereeTable)]
            setup.setup_seconds = await _set_up(tables, counters)
            setup.errors = counters.report.errors
            setup.in_play_end = counters.in_play
            setup.views = counters.report.views
        conn.send(setup)
        while True:
            phase = await loop.run_in_executor(None, conn.recv)
            if phase is None:
                break
            conn.send(await _run_phase(drivers, counters, phase))
    finally:
        for channel in channels:
            await channel.close()
        conn.close()


# --- the parent: servers, phases, the verdict ----------------------------------------------


@dataclass(slots=True)
class Result:
    name: str
    seconds: float
    reports: list[Report]
    server_cpu: float | None
    """CPU seconds the server process used in the window."""
    busy: float | None
    """CPU seconds the server's CPUs (all CPUs, unpinned) were busy or stolen in the window."""
    pinned: bool
    offered: float | None = None
    windows: list[Result] = field(default_factory=list)
    """The alternating windows this result adds up (empty: it is one window)."""

    @classmethod
    def combine(cls, windows: Sequence[Result]) -> Result:
        """One side's windows of one phase, as one result: moves and CPU add up, latencies
        are pooled, table counts are the smallest of any window."""
        first = windows[0]
        cpus = [w.server_cpu for w in windows]
        busies = [w.busy for w in windows]
        return cls(
            first.name,
            sum(w.seconds for w in windows),
            [r for w in windows for r in w.reports],
            None if None in cpus else sum(c for c in cpus if c is not None),
            None if None in busies else sum(b for b in busies if b is not None),
            first.pinned,
            first.offered,
            list(windows),
        )

    @property
    def last_reports(self) -> list[Report]:
        """The reports of the last window (what the processes had done by its end)."""
        return self.windows[-1].reports if self.windows else self.reports

    @property
    def in_play(self) -> int:
        """Tables in play throughout the window (the fewest of any window)."""
        if self.windows:
            return min(w.in_play for w in self.windows)
        return sum(r.in_play_min for r in self.reports)

    @property
    def others(self) -> float | None:
        """The share of the server's CPUs that other processes took (the load generators
        too, when unpinned): a window where this is large measured a crowded machine."""
        if self.busy is None or self.server_cpu is None:
            return None
        ours = self.server_cpu + (0.0 if self.pinned else self.client_cpu)
        return max(0.0, self.busy - ours) / self.seconds

    @property
    def moves(self) -> int:
        return sum(r.moves for r in self.reports)

    @property
    def rate(self) -> float:
        return self.moves / self.seconds

    @property
    def moved_tables(self) -> int:
        """Tables that moved in the window (the fewest of any window)."""
        if self.windows:
            return min(w.moved_tables for w in self.windows)
        return sum(r.moved for r in self.reports)

    @property
    def client_cpu(self) -> float:
        return sum(r.cpu for r in self.reports)

    def percentile(self, fraction: float) -> float:
        """In milliseconds (nearest rank)."""
        return percentile([v for r in self.reports for v in r.latencies], fraction)

    @property
    def stale(self) -> int:
        return sum(r.stale for r in self.reports)

    @property
    def errors(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for r in self.reports:
            total.update(r.errors)
        return total


def percentile(latencies: Sequence[int], fraction: float) -> float:
    """The nearest-rank percentile of latencies in microseconds, in milliseconds (NaN for
    none)."""
    if not latencies:
        return math.nan
    values = sorted(latencies)
    rank = max(0, math.ceil(fraction * len(values)) - 1)
    return values[rank] / 1000


class Pool:
    """Load-generator processes: each runs ``main(plan, conn)``, sends one report once it
    is set up, then one for each phase it is sent, until it is sent None (the protocol of
    ``worker_main``, the default; ``bench.uploads`` has mains of its own)."""

    def __init__(
        self,
        plans: Sequence[Any],
        main: Callable[[Any, multiprocessing.connection.Connection], None] = worker_main,
    ) -> None:
        context = multiprocessing.get_context("spawn")  # no fork after grpc has started
        self.conns: list[multiprocessing.connection.Connection] = []
        self.processes: list[multiprocessing.process.BaseProcess] = []
        for plan in plans:
            parent, child = context.Pipe()
            process = context.Process(target=main, args=(plan, child), daemon=True)
            process.start()
            child.close()
            self.conns.append(parent)
            self.processes.append(process)

    def gather(self) -> list[Any]:
        """One report from each process (a ``Report`` from ``worker_main``'s)."""
        reports: list[Any] = []
        for conn, process in zip(self.conns, self.processes, strict=True):
            try:
                reports.append(conn.recv())
            except EOFError:
                raise SystemExit(
                    f"bench: load generator {process.pid} died (exit code {process.exitcode})"
                ) from None
        return reports

    def run(self, phases: Sequence[Phase]) -> list[Report]:
        for conn, phase in zip(self.conns, phases, strict=True):
            conn.send(phase)
        return self.gather()

    def close(self) -> None:
        for conn in self.conns:
            with contextlib.suppress(OSError, BrokenPipeError):
                conn.send(None)
        for process in self.processes:
            process.join(10)
            if process.is_alive():
                process.kill()


class Server:
    """A server process (the referee or the echo) on a free loopback port."""

    def __init__(self, argv: list[str], port: int, cpus: tuple[int, ...] | None) -> None:
        self.port = port
        self.target = f"127.0.0.1:{port}"
        env = dict(os.environ, BHABHI_DRAIN_SECONDS="1")

        def pin() -> None:  # before exec: every thread the server starts inherits it
            if cpus is not None:
                os.sched_setaffinity(0, cpus)

        # A file, not a pipe: nobody reads stderr while it runs, and a full pipe would stall it.
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - closed by stop()
        self.process = subprocess.Popen(
            argv, stdout=subprocess.DEVNULL, stderr=self.log, env=env, preexec_fn=pin
        )
        channel = grpc.insecure_channel(self.target)
        try:
            deadline = time.monotonic() + 60
            while True:
                if self.process.poll() is not None:
                    self.log.seek(0)
                    error = self.log.read().decode(errors="replace")
                    raise SystemExit(f"bench: {argv[2]} exited at start:\n{error}")
                try:
                    grpc.channel_ready_future(channel).result(timeout=0.5)
                    break
                except grpc.FutureTimeoutError:
                    if time.monotonic() > deadline:
                        raise SystemExit(f"bench: {argv[2]} did not listen within 60 s") from None
        finally:
            channel.close()

    def cpu_seconds(self) -> float | None:
        """User + system CPU of the server process, all threads (Linux ``/proc``)."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        ticks = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / ticks

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def split(total: int, parts: int) -> list[int]:
    return [total // parts + (1 if k < total % parts else 0) for k in range(parts)]


def filesystem_of(path: Path) -> str:
    """The type of the filesystem holding ``path`` (``ext4``, ``tmpfs``…), from /proc/mounts."""
    best, kind = "", "?"
    with contextlib.suppress(OSError):
        for line in Path("/proc/mounts").read_text().splitlines():
            parts = line.split()
            if len(parts) >= 3 and str(path).startswith(parts[1]) and len(parts[1]) > len(best):
                best, kind = parts[1], parts[2]
    return kind


@dataclass(slots=True)
class Settings:
    tables: int
    seconds: float
    warmup: float
    clients: int
    channels: int
    concurrency: int
    pace: float
    hands: int
    seed: int
    folder: Path | None
    pin: bool
    rounds: int = 1
    """Windows per phase and server, the referee's and the echo's alternating."""
    uploads_seconds: float = 0.0
    """``bench.uploads``'s measure, without and with the attack each (0: not run)."""

    def cpus(self) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
        return split_cpus(self.pin)


def split_cpus(pin: bool) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    """(the server's CPUs, the load generators'): with ``pin``, the first CPU for the server
    and the others for the load generators; (None, None) unpinned or on one CPU."""
    if not pin or not hasattr(os, "sched_getaffinity"):
        return None, None
    available = tuple(sorted(os.sched_getaffinity(0)))
    if len(available) < 2:
        return None, None
    return available[:1], available[1:]


def measure(
    pool: Pool,
    server: Server,
    settings: Settings,
    name: str,
    think: float,
    concurrency: int,
    seconds: float,
) -> Result:
    """Run one window on every process at once; the window is the same wall-clock span."""
    start = time.time() + 0.3
    measure_from = start + settings.warmup
    until = measure_from + seconds
    shares = split(concurrency, settings.clients)
    phases = [Phase(name, max(1, share), think, measure_from, until) for share in shares]
    for conn, phase in zip(pool.conns, phases, strict=True):
        conn.send(phase)
    server_cpus, _ = settings.cpus()
    time.sleep(max(0.0, measure_from - time.time()))
    before, busy_before = server.cpu_seconds(), cpus_busy(server_cpus)
    time.sleep(max(0.0, until - time.time()))
    after, busy_after = server.cpu_seconds(), cpus_busy(server_cpus)
    reports = pool.gather()
    cpu = None if before is None or after is None else after - before
    busy = None if busy_before is None or busy_after is None else busy_after - busy_before
    return Result(name, seconds, reports, cpu, busy, server_cpus is not None)


Side = tuple[Pool, Server, str]
"""A server, its load generators, and its name."""


def alternate(
    settings: Settings, referee: Side, echo: Side, think: float, concurrency: int
) -> tuple[Result, Result]:
    """One phase for both servers: ``settings.rounds`` windows each, alternating (referee
    first in even rounds, echo first in odd ones), so that both are measured on the same
    machine: a shared machine's speed drifts within a minute, and one server measured after
    the other would be compared with a different machine.  The idle server's load
    generators wait, so only one server is loaded at a time."""
    seconds = settings.seconds / settings.rounds
    windows: dict[str, list[Result]] = {referee[2]: [], echo[2]: []}
    for round_ in range(settings.rounds):
        order = (referee, echo) if round_ % 2 == 0 else (echo, referee)
        for pool, server, name in order:
            windows[name].append(measure(pool, server, settings, name, think, concurrency, seconds))
    return Result.combine(windows[referee[2]]), Result.combine(windows[echo[2]])


def cpus_busy(cpus: Sequence[int] | None) -> float | None:
    """Seconds these CPUs (all of them for None) were busy or stolen since boot
    (Linux ``/proc/stat``)."""
    try:
        lines = Path("/proc/stat").read_text().splitlines()
    except OSError:
        return None
    wanted = {"cpu"} if cpus is None else {f"cpu{c}" for c in cpus}
    ticks = 0
    for line in lines:
        fields = line.split()
        if fields and fields[0] in wanted:
            user, nice, system, _idle, _iowait, irq, softirq, steal = map(int, fields[1:9])
            ticks += user + nice + system + irq + softirq + steal
    return ticks / os.sysconf("SC_CLK_TCK")


def _count_playing(target: str) -> int:
    """Tables the referee lists as playing, every page of ``ListTables``."""
    playing, token = 0, ""
    with grpc.insecure_channel(target, options=CHANNEL_OPTIONS) as channel:
        tables = rpc.TableServiceStub(channel)
        while True:
            found = tables.ListTables(
                pb.ListTablesRequest(page_size=200, page_token=token), timeout=60
            )
            playing += sum(1 for t in found.tables if t.status == pb.TABLE_STATUS_PLAYING)
            token = found.next_page_token
            if not token:
                return playing


def _stored_actions(path: Path) -> int | None:
    """Action commands in the store after the run; None if it cannot be read."""
    if not path.exists():
        return None
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            row = db.execute("SELECT count(*) FROM commands WHERE kind = 'action'").fetchone()
    except sqlite3.Error:
        return None
    return int(row[0])


def run(settings: Settings) -> int:
    server_cpus, client_cpus = settings.cpus()
    shares = split(settings.tables, settings.clients)
    if settings.folder is not None:
        settings.folder.mkdir(parents=True, exist_ok=True)
    print(
        f"bhabhi referee bench: {settings.tables:,} four-seat {RULESET} tables (no turn clock), "
        f"{settings.clients} load-generator processes x {settings.channels} channels, "
        f"{settings.seconds:g} s per phase and server in {settings.rounds} alternating "
        f"window{'s' if settings.rounds > 1 else ''}, each after {settings.warmup:g} s of warm-up"
    )
    if server_cpus is not None and client_cpus is not None:
        where = (
            f"server pinned to CPU {_cpu_list(server_cpus)}, load generators to CPU "
            f"{_cpu_list(client_cpus)}"
        )
    else:
        where = "shared by the server and the load generators"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else math.nan
    print(
        f"  {os.cpu_count()} CPUs, {where}; load average {load:.2f} before the run; Python "
        f"{platform.python_version()}, grpcio {grpc.__version__}, SQLite {sqlite3.sqlite_version}"
    )
    with tempfile.TemporaryDirectory(prefix="bhabhi-bench-", dir=settings.folder) as folder:
        db = Path(folder) / "bench.sqlite3"
        kind = filesystem_of(db)
        print(
            f"  store: {db} ({kind}), WAL, synchronous=FULL: every move is committed before "
            "it is acknowledged",
            flush=True,
        )
        if kind == "tmpfs":
            print("  WARNING: on tmpfs an fsync costs nothing; use --dir on a real disk")
        port = free_port()
        referee = Server(referee_command(port, db), port, server_cpus)
        try:
            pool = Pool(
                [
                    WorkerPlan(
                        referee.target,
                        "referee",
                        k,
                        n,
                        settings.channels,
                        settings.hands,
                        settings.seed,
                        client_cpus,
                    )
                    for k, n in enumerate(shares)
                ]
            )
            try:
                setup = pool.gather()
                _print_setup(setup)
                port = free_port()
                echo_command = [sys.executable, "-m", "bench.echo", "--port", str(port)]
                echo = Server(echo_command, port, server_cpus)
                try:
                    echo_pool = Pool(
                        [
                            WorkerPlan(
                                echo.target,
                                "echo",
                                k,
                                n,
                                settings.channels,
                                0,
                                settings.seed,
                                client_cpus,
                            )
                            for k, n in enumerate(shares)
                        ]
                    )
                    try:
                        echo_pool.gather()
                        sides: tuple[Side, Side] = (
                            (pool, referee, "referee"),
                            (echo_pool, echo, "echo"),
                        )
                        closed, echo_closed = alternate(settings, *sides, 0.0, settings.concurrency)
                        think = settings.tables / max(1.0, settings.pace * closed.rate)
                        paced, echo_paced = alternate(settings, *sides, think, settings.tables)
                        paced.offered = echo_paced.offered = settings.tables / think
                    finally:
                        echo_pool.close()
                finally:
                    echo.stop()
                playing = _count_playing(referee.target)
            finally:
                pool.close()
        finally:
            referee.stop()
        acknowledged = sum(r.moves_total for r in paced.last_reports)
        stored = _stored_actions(db)
        attack = None
        if settings.uploads_seconds > 0:
            from bench import uploads  # not at the top: it imports this module

            print("then GetView under a ruleset upload attack, on a fresh referee", flush=True)
            attack = uploads.run_uploads(
                uploads.Settings(seconds=settings.uploads_seconds, pin=settings.pin), Path(folder)
            )

    _print_results(
        settings, closed, paced, echo_closed, echo_paced, playing, acknowledged, stored, attack
    )
    if hasattr(os, "getloadavg"):
        print(f"load average {os.getloadavg()[0]:.2f} after the run")
    return 0


def referee_command(port: int, db: Path | str) -> list[str]:
    """``bhabhi serve`` on a loopback port and a store (a file, or a PostgreSQL URL), with
    this Python.  Without the per-address limits on CreateTable and on ruleset uploads: the
    load generators set up every table from one address, far faster than a client is allowed
    to by default, and the upload attack (``bench.uploads``) stands for clients at many
    addresses, the case a per-address limit does not help with."""
    serve = [sys.executable, "-m", "referee", "serve", "--port", str(port), "--db", str(db)]
    return [*serve, "--tables-per-minute", "0", "--uploads-per-minute", "0"]


def _cpu_list(cpus: Sequence[int]) -> str:
    return ",".join(str(c) for c in cpus)


def _print_setup(setup: Sequence[Report]) -> None:
    refusals: Counter[str] = Counter()
    for report in setup:
        refusals.update(report.errors)
    print(
        f"setup: {sum(r.in_play_end for r in setup):,} tables created, joined, started and "
        f"viewed in {max(r.setup_seconds for r in setup):.1f} s"
        + (f" (refusals: {dict(refusals)})" if refusals else ""),
        flush=True,
    )


def _print_results(
    settings: Settings,
    closed: Result,
    paced: Result,
    echo_closed: Result,
    echo_paced: Result,
    playing: int,
    acknowledged: int,
    stored: int | None,
    attack: Outcome | None,
) -> None:
    print()
    print(
        f"  {'':<38} {'moves/s':>8} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7}"
        f" {'server CPU':>17} {'client CPU':>10} {'others':>6}"
    )
    rows = [
        (f"referee, closed loop, {settings.concurrency} in flight", closed),
        (f"echo, closed loop, {settings.concurrency} in flight", echo_closed),
        (f"referee, paced, {paced.offered or 0:,.0f}/s offered", paced),
        (f"echo, paced, {echo_paced.offered or 0:,.0f}/s offered", echo_paced),
    ]
    for label, result in rows:
        server = "?"
        if result.server_cpu is not None:
            server = (
                f"{_per_move(result.server_cpu, result.moves)}"
                f" {result.server_cpu / result.seconds:4.0%}"
            )
        others = "?" if result.others is None else f"{result.others:.0%}"
        print(
            f"  {label:<38} {result.rate:>8,.0f} {result.percentile(0.5):>7.2f}"
            f" {result.percentile(0.95):>7.2f} {result.percentile(0.99):>7.2f}"
            f" {server:>17} {_per_move(result.client_cpu, result.moves):>10} {others:>6}"
        )
    print(
        "  server CPU: per move, and busy share of one CPU (all its threads); client CPU: the"
        " load generators', per move;\n  others: the share of the server's CPU"
        f"{'' if closed.pinned else 's'} taken by other processes"
        f"{'' if closed.pinned else ' (load generators included)'} during the window"
    )
    moved = min(closed.moved_tables, paced.moved_tables)
    in_play = min(closed.in_play, paced.in_play)
    replaced = sum(r.replaced for r in closed.reports + paced.reports)
    print(
        f"tables: {in_play:,} in play throughout each window, {moved:,} moved in each window, "
        f"{replaced:,} replaced when their session ended; the referee lists {playing:,} playing"
    )
    errors = closed.errors + paced.errors
    stale = closed.stale + paced.stale
    views = sum(r.views for r in closed.reports + paced.reports)
    print(
        f"errors: {sum(errors.values()):,}"
        + (f" {dict(errors)}" if errors else "")
        + f"; stale_seq: {stale:,}; GetView calls (one per seat per hand): {views:,}"
        + f"; echo errors: {sum((echo_closed.errors + echo_paced.errors).values()):,}"
    )
    if stored is None:
        print(f"durability: {acknowledged:,} moves acknowledged; the store could not be read")
    else:
        durable = "ok" if stored >= acknowledged else "MISSING MOVES"
        print(
            f"durability: {acknowledged:,} moves acknowledged, {stored:,} action commands in "
            f"the store: {durable}"
        )
    ratio = closed.rate / echo_closed.rate if echo_closed.rate else math.nan
    if closed.server_cpu and echo_closed.server_cpu and closed.moves and echo_closed.moves:
        referee_cost = closed.server_cpu / closed.moves
        echo_cost = echo_closed.server_cpu / echo_closed.moves
        print(
            f"server CPU per move, closed loop: referee {referee_cost * 1e6:,.0f} us, echo "
            f"{echo_cost * 1e6:,.0f} us: a server with a core to itself would reach "
            f"{echo_cost / referee_cost:.2f}x the echo's rate"
        )
    p99, echo_p99 = paced.percentile(0.99), echo_paced.percentile(0.99)
    p99_ratio = p99 / echo_p99 if echo_p99 else math.nan
    goals = [
        (
            f"throughput >= {TARGET_RATIO} x echo (closed loop)",
            f"{ratio:.2f}x ({closed.rate:,.0f} / {echo_closed.rate:,.0f})",
            ratio >= TARGET_RATIO,
        ),
        (
            f"p99 <= {TARGET_P99_RATIO:g} x echo's (paced, {settings.pace:.0%} of max)",
            f"{p99_ratio:.2f}x ({p99:.2f} / {echo_p99:.2f} ms)",
            p99_ratio <= TARGET_P99_RATIO,
        ),
        (
            f"{TARGET_TABLES:,} concurrent four-seat tables",
            f"{min(in_play, playing):,}",
            min(in_play, playing) >= TARGET_TABLES,
        ),
    ]
    if attack is not None:
        print("\n".join(attack.lines()))
        goals.append(attack.goal())
    print("goals:")
    for name, value, met in goals:
        verdict = "met" if met else "NOT met"
        if name.endswith("tables") and settings.tables < TARGET_TABLES:
            verdict = f"not tried (--tables {settings.tables})"
        print(f"  {name:<44} {value:<26} {verdict}")


def _per_move(cpu: float, moves: int) -> str:
    return f"{cpu / moves * 1e6:,.0f} us" if moves else "-"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.referee",
        description="Durable referee moves per second and latency, against a gRPC echo.",
    )
    parser.add_argument("--tables", type=int, default=1_000, help="tables in play (1000)")
    parser.add_argument(
        "--seconds", type=float, default=8.0, help="measured per phase and server (8)"
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=4,
        help="windows those seconds are split into, the referee's and the echo's alternating (4)",
    )
    parser.add_argument("--warmup", type=float, default=1.0, help="before each window (1)")
    parser.add_argument("--clients", type=int, default=4, help="load-generator processes (4)")
    parser.add_argument("--channels", type=int, default=2, help="gRPC channels per process (2)")
    parser.add_argument(
        "--concurrency", type=int, default=32, help="calls in flight in the closed loop (32)"
    )
    parser.add_argument(
        "--pace",
        type=float,
        default=0.25,
        help="paced load offered to both servers, a fraction of the referee's closed loop (0.25)",
    )
    parser.add_argument("--hands", type=int, default=0, help="hands per session (0: ruleset's)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--dir", type=Path, default=None, help="where the temporary store goes (system temp)"
    )
    parser.add_argument(
        "--pin",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="server on the first CPU, load generators on the others (default: on)",
    )
    parser.add_argument(
        "--uploads-seconds",
        type=float,
        default=3.0,
        help="then GetView latency without and with hostile ruleset uploads, this long each"
        " (bench.uploads; 0: not measured) (3)",
    )
    parser.add_argument(
        "--quick", action="store_true", help="100 tables, 2 s in 2 windows, uploads 2 s"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.tables, args.seconds, args.warmup = min(args.tables, 100), 2.0, 0.5
        args.rounds = min(args.rounds, 2)
        args.uploads_seconds = min(args.uploads_seconds, 2.0)
    if args.tables < args.clients or args.clients < 1 or args.channels < 1:
        parser.error("need at least one table per load-generator process")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    settings = Settings(
        tables=args.tables,
        seconds=args.seconds,
        warmup=args.warmup,
        clients=args.clients,
        channels=args.channels,
        concurrency=max(args.concurrency, args.clients),
        pace=args.pace,
        hands=args.hands,
        seed=args.seed,
        folder=args.dir,
        pin=args.pin,
        rounds=args.rounds,
        uploads_seconds=args.uploads_seconds,
    )
    return run(settings)


if __name__ == "__main__":
    sys.exit(main())
