"""``bhabhi drill``: several referee replicas on PostgreSQL, one killed mid-game; is anything lost?

What a site would do before trusting replicas, as one command: start ``--replicas``
``bhabhi serve`` processes on one PostgreSQL schema (a fresh one, dropped afterwards, unless
``--db`` names one), create ``--tables`` four-seat tables, and play them with random legal
moves through clients spread over every replica (seat s of table t talks to replica
(t + s) mod n; a spectator per table watches on another).  A client whose replica stops
answering moves on to the next replica and sends the same request again, with the same
request_id; a spectator resumes its stream after the last seq it saw.  After
``--kill-after`` moves one replica is killed with SIGKILL; after ``--restart-after`` moves it
is started again on its port.  When every session is over:

* every spectator stream holds seqs 1, 2, 3 … without a gap or a duplicate;
* every acknowledged move's events are in the stream at the seqs its answer gave;
* every hand's record (``ExportHand``) replays on the in-process engine through the
  conformance runner, and holds exactly one step per acknowledged move: nothing lost,
  nothing applied twice;
* no game is stuck: every session ended within ``--deadline`` seconds.

The exit code is 0 only if every check holds.  The tests run it small
(``tests/test_replicas_processes.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import socket
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import grpc
import yaml

if TYPE_CHECKING:
    from referee.cli import Subparsers

T = TypeVar("T")
RETRYABLE = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED}
LISTENING = re.compile(r"listening on [^ ]*:(\d+)")
DEFAULT_SERVER = "postgresql://127.0.0.1:5432/test"


def register(subparsers: Subparsers) -> None:
    drill = subparsers.add_parser(
        "drill",
        help="play games on several referee replicas over PostgreSQL while one is killed",
        description=(__doc__ or "").split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    drill.add_argument(
        "--postgres",
        default=os.environ.get("BHABHI_TEST_POSTGRES", DEFAULT_SERVER),
        help=f"PostgreSQL server; a fresh schema is created and dropped ({DEFAULT_SERVER})",
    )
    drill.add_argument(
        "--db", default="", help="use this database URL as it is (its schema is kept)"
    )
    drill.add_argument("--replicas", type=int, default=3, help="referee processes (3)")
    drill.add_argument("--tables", type=int, default=12, help="four-seat tables (12)")
    drill.add_argument("--hands", type=int, default=1, help="hands per session (1)")
    drill.add_argument("--kill-after", type=int, default=300, help="moves before the kill (300)")
    drill.add_argument(
        "--restart-after", type=int, default=800, help="moves before the restart (800)"
    )
    drill.add_argument("--seed", type=int, default=1)
    drill.add_argument("--deadline", type=float, default=300.0, help="seconds in all (300)")
    drill.set_defaults(func=_main)


def _main(args: argparse.Namespace) -> int:
    if args.replicas < 2:
        print("bhabhi drill: error: --replicas must be at least 2 (one is killed)")
        return 2
    if args.tables < 1 or args.hands < 1 or not 0 < args.kill_after < args.restart_after:
        print("bhabhi drill: error: need tables >= 1, hands >= 1, 0 < kill-after < restart-after")
        return 2
    try:
        report = asyncio.run(
            asyncio.wait_for(
                drill(
                    args.db or None,
                    postgres=args.postgres,
                    replicas=args.replicas,
                    tables=args.tables,
                    hands=args.hands,
                    kill_after=args.kill_after,
                    restart_after=args.restart_after,
                    seed=args.seed,
                    out=print,
                ),
                args.deadline,
            )
        )
    except TimeoutError:
        print(f"bhabhi drill: FAILED: not done within {args.deadline:g} s (a game is stuck?)")
        return 1
    except DrillError as error:
        print(f"bhabhi drill: error: {error}")
        return 1
    return 0 if report.passed else 1


class DrillError(Exception):
    """The drill could not run (no PostgreSQL, a replica that would not start)."""


@dataclass
class Report:
    tables: int = 0
    moves: int = 0
    events: int = 0
    failovers: int = 0
    killed_at: int = 0
    restarted_at: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


# --- replicas --------------------------------------------------------------------------------


class Replica:
    """``bhabhi serve`` in a subprocess, on ``port`` (0: a free one, read from what it
    prints once it listens), with more ``flags`` (a ``--port`` among them wins), in ``cwd``.
    Everything it prints is kept in ``output``."""

    def __init__(
        self, db: str, port: int = 0, *flags: str, cwd: str | os.PathLike[str] | None = None
    ) -> None:
        self.db = db
        self.port = port
        self.flags = flags
        self.cwd = cwd
        self.process: asyncio.subprocess.Process | None = None
        self.output: list[str] = []
        self._drainer: asyncio.Task[None] | None = None

    async def start(self, timeout: float = 60.0) -> int:
        """Start it and wait until it listens; the port it listens on."""
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "referee",
            "serve",
            "--port",
            str(self.port),
            "--db",
            self.db,
            *self.flags,
            cwd=self.cwd,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        assert self.process.stdout is not None
        while True:
            line = await asyncio.wait_for(self.process.stdout.readline(), timeout)
            if not line:
                raise DrillError(f"bhabhi serve ended at start: {''.join(self.output)[-2000:]}")
            text = line.decode(errors="replace")
            self.output.append(text)
            found = LISTENING.search(text)
            if found:
                self.port = int(found.group(1))
                break
        # Keep reading what it prints, so that a full pipe never stalls it.
        self._drainer = asyncio.ensure_future(self._drain())
        return self.port

    async def _drain(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        while line := await self.process.stdout.readline():
            self.output.append(line.decode(errors="replace"))

    async def exited(self, timeout: float = 10.0) -> int:
        """Its exit code, once it has ended and all it printed is in ``output``."""
        assert self.process is not None
        if self._drainer is not None:
            await asyncio.wait_for(self._drainer, timeout)
        return await asyncio.wait_for(self.process.wait(), timeout)

    async def kill(self) -> None:
        assert self.process is not None
        self.process.kill()  # SIGKILL: no drain, requests in flight cut off
        await self.process.wait()

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), 15)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# --- clients ---------------------------------------------------------------------------------


@dataclass
class Client:
    """One participant: its own replica first, then the next ones, as a client behind a
    load balancer would be moved on when its replica goes away."""

    targets: list[str]
    home: int
    report: Report
    channels: dict[int, grpc.aio.Channel] = field(default_factory=dict)

    def stubs(self, service: str) -> Any:
        from bhabhi.referee.v1 import referee_pb2_grpc as rpc

        index = self.home % len(self.targets)
        if index not in self.channels:
            self.channels[index] = grpc.aio.insecure_channel(self.targets[index])
        return getattr(rpc, f"{service}Stub")(self.channels[index])

    async def call(self, service: str, method: str, request: Any, token: str = "") -> Any:
        """``method(request)`` as ``token``'s seat, moving on to the next replica (and
        sending the same request again) while the one it talks to does not answer."""
        metadata = (("authorization", f"Bearer {token}"),) if token else ()
        for _ in range(200):
            try:
                stub = self.stubs(service)
                return await getattr(stub, method)(request, metadata=metadata, timeout=10)
            except grpc.aio.AioRpcError as error:
                if error.code() not in RETRYABLE:
                    raise
                self.home += 1
                self.report.failovers += 1
                await asyncio.sleep(0.05)
        raise DrillError(f"no replica answered {method}")

    async def close(self) -> None:
        for channel in self.channels.values():
            await channel.close()


@dataclass
class Game:
    table_id: str
    seats: list[tuple[Client, str]]
    spectator: Client
    answers: dict[str, Any] = field(default_factory=dict)
    """request_id -> SubmitActionResponse, of every acknowledged move."""
    events: list[Any] = field(default_factory=list)
    hands: int = 0

    async def watch(self) -> None:
        """Spectate to the session's end, resuming after the last seq seen."""
        from bhabhi.referee.v1 import referee_pb2 as pb

        while True:
            after = self.events[-1].seq if self.events else 0
            stream = self.spectator.stubs("PlayService").WatchTable(
                pb.WatchTableRequest(table_id=self.table_id, after_seq=after)
            )
            try:
                async for item in stream:
                    if item.HasField("event"):
                        self.events.append(item.event)
                        if item.event.HasField("session_over"):
                            return
            except grpc.aio.AioRpcError as error:
                if error.code() not in RETRYABLE:
                    raise
                self.spectator.home += 1
                self.spectator.report.failovers += 1
                await asyncio.sleep(0.05)

    async def play(self, rng: random.Random, moved: Callable[[], Awaitable[None]]) -> None:
        from bhabhi.referee.v1 import referee_pb2 as pb

        count = 0
        while True:
            spectator = await self.spectator.call(
                "PlayService", "GetView", pb.GetViewRequest(table_id=self.table_id)
            )
            if not spectator.view.to_act:
                return
            seat = spectator.view.turn
            client, token = self.seats[seat]
            view = await client.call(
                "PlayService", "GetView", pb.GetViewRequest(table_id=self.table_id), token
            )
            if view.view.turn != seat or view.seq != spectator.seq:
                continue  # the table moved on between the two looks
            choices = [a for a in view.view.legal_actions if a.kind != pb.ACTION_KIND_TAKE_HAND]
            if not choices:
                continue
            request = pb.SubmitActionRequest(
                table_id=self.table_id,
                action=rng.choice(choices),
                request_id=f"{self.table_id}-{count}",
                expected_seq=view.seq,
            )
            self.answers[request.request_id] = await client.call(
                "PlayService", "SubmitAction", request, token
            )
            count += 1
            await moved()


# --- the drill -------------------------------------------------------------------------------


async def drill(
    db: str | None,
    *,
    postgres: str = DEFAULT_SERVER,
    replicas: int = 3,
    tables: int = 12,
    hands: int = 1,
    kill_after: int = 300,
    restart_after: int = 800,
    seed: int = 1,
    out: Callable[[str], None] = print,
) -> Report:
    """Run the drill (see the module's docstring); the report says what failed."""
    settings = (replicas, tables, hands, kill_after, restart_after, seed, out)
    if db is not None:
        return await _drill(db, *settings)
    from referee.server.store.postgres import PostgresUnreachable, scratch_schema

    with contextlib.ExitStack() as stack:
        try:
            url = stack.enter_context(scratch_schema(postgres, "bhabhi_drill"))
        except PostgresUnreachable as error:
            raise DrillError(str(error)) from error
        return await _drill(url, *settings)


async def _drill(
    db: str,
    count: int,
    tables: int,
    hands: int,
    kill_after: int,
    restart_after: int,
    seed: int,
    out: Callable[[str], None],
) -> Report:
    from referee.server.store.postgres import redact

    report = Report(tables=tables)
    started = time.monotonic()
    ports = [free_port() for _ in range(count)]
    targets = [f"127.0.0.1:{port}" for port in ports]
    servers = [Replica(db, port) for port in ports]
    clients: list[Client] = []
    out(f"drill: {count} replicas on {redact(db)}, {tables} tables x {hands} hand(s)")
    try:
        await servers[0].start()  # the first creates the schema
        await asyncio.gather(*(server.start() for server in servers[1:]))
        out(f"  replicas listening on {', '.join(targets)}")
        games = await _seat(targets, tables, hands, clients, report)
        victim = 1
        state = {"killed": False, "restarted": False}

        async def moved() -> None:
            report.moves += 1
            if report.moves >= kill_after and not state["killed"]:
                state["killed"] = True
                report.killed_at = report.moves
                out(f"  move {report.moves}: replica {victim} ({targets[victim]}) killed (SIGKILL)")
                await servers[victim].kill()
            elif report.moves >= restart_after and report.killed_at and not state["restarted"]:
                state["restarted"] = True
                report.restarted_at = report.moves
                out(f"  move {report.moves}: replica {victim} restarting on its port")
                servers[victim] = Replica(db, ports[victim])
                await servers[victim].start()

        rng = random.Random(seed)
        watchers = [asyncio.ensure_future(game.watch()) for game in games]
        players = [game.play(random.Random(rng.random()), moved) for game in games]
        await asyncio.gather(*players)
        await asyncio.gather(*watchers)
        report.seconds = time.monotonic() - started
        for game in games:
            await _check(game, report)
        report.events = sum(len(g.events) for g in games)
    finally:
        for client in clients:
            await client.close()
        for server in servers:
            await server.stop()
    out(
        f"  {report.moves} moves acknowledged, {report.events} events watched,"
        f" {report.failovers} failovers, in {report.seconds:.1f} s"
    )
    if report.moves < kill_after:
        report.failures.append(
            f"the games ended after {report.moves} moves, before the kill (--kill-after)"
        )
    for failure in report.failures:
        out(f"  FAILED: {failure}")
    if report.passed:
        out(
            "  passed: no stream with a gap or a duplicate, every acknowledged move in the"
            " record once, every record replays on the engine, no game stuck"
        )
    return report


async def _seat(
    targets: list[str], tables: int, hands: int, clients: list[Client], report: Report
) -> list[Game]:
    from bhabhi.referee.v1 import referee_pb2 as pb

    games = []
    for t in range(tables):
        creator = Client(targets, t, report)
        clients.append(creator)
        created = await creator.call(
            "TableService",
            "CreateTable",
            pb.CreateTableRequest(ruleset_id="bhabho", seat_count=4, hands=hands),
        )
        table_id = created.table.table_id
        seats = []
        for seat in range(4):
            client = Client(targets, t + seat, report)
            clients.append(client)
            joined = await client.call(
                "TableService", "JoinTable", pb.JoinTableRequest(table_id=table_id, seat=seat)
            )
            seats.append((client, joined.seat_token))
        first, token = seats[0]
        await first.call(
            "TableService", "StartTable", pb.StartTableRequest(table_id=table_id), token
        )
        spectator = Client(targets, t + 2, report)
        clients.append(spectator)
        games.append(Game(table_id, seats, spectator, hands=hands))
    return games


async def _check(game: Game, report: Report) -> None:
    from bhabhi.referee.v1 import referee_pb2 as pb

    from referee.conformance.runner import EngineAdapter, run_case

    def fail(message: str) -> None:
        report.failures.append(f"table {game.table_id}: {message}")

    seqs = [e.seq for e in game.events]
    if seqs != list(range(1, len(seqs) + 1)):
        fail("the spectator's stream has a gap or a duplicate")
        return
    by_seq = {e.seq: e for e in game.events}
    for request_id, answer in game.answers.items():
        for event in answer.events:
            public = by_seq.get(event.seq)
            if public is None or public.WhichOneof("kind") != event.WhichOneof("kind"):
                fail(f"the events of acknowledged move {request_id} are not in the stream")
                return
    steps = 0
    for number in range(game.hands):
        exported = await game.spectator.call(
            "PlayService",
            "ExportHand",
            pb.ExportHandRequest(table_id=game.table_id, hand_number=number),
        )
        case = yaml.safe_load(exported.case_yaml)
        outcome = run_case(case, EngineAdapter())
        if not outcome.passed:
            fail(f"hand {number}'s record does not replay: {outcome.failures[:2]}")
            return
        steps += len(case["steps"])
    if steps != len(game.answers):
        fail(f"{len(game.answers)} moves acknowledged, {steps} in the record")
