"""Three ``bhabhi serve`` processes over one PostgreSQL schema, one of them killed.

As a site would run them: every replica a separate process on its own port, clients of one
table spread over all three, each client failing over to another replica when its own stops
answering (retrying with the same request_id, resuming its stream after the last seq it
saw).  Mid-game one replica is killed with SIGKILL and later restarted on its port.  Then:
every acknowledged action is in the record exactly once, every record replays on the
in-process engine (the conformance runner), every spectator stream is gapless and without
duplicates, and no game is stuck.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import grpc
from bhabhi.referee.v1 import referee_pb2 as pb
from postgres_helpers import PostgresUnavailable, fresh_postgres_schema, skip_or_fail
from server_helpers import (
    ServerProcess,
    Stubs,
    action_message,
    bearer,
    legal,
    pick_action,
    replay_case,
    without_time_left,
)

T = TypeVar("T")
TABLES = 6
REPLICAS = 3
DEADLINE = 240.0
RETRYABLE = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Client:
    """One participant's connection to the replicas: its own replica first, then the next
    ones, as a client behind a load balancer would be moved on."""

    targets: list[str]
    home: int
    channels: dict[int, grpc.aio.Channel] = field(default_factory=dict)
    failovers: int = 0

    def stubs(self) -> Stubs:
        index = self.home % len(self.targets)
        if index not in self.channels:
            self.channels[index] = grpc.aio.insecure_channel(self.targets[index])
        return Stubs.over(self.channels[index])

    async def call(self, make: Callable[[Stubs], Awaitable[T]]) -> T:
        for _ in range(60):
            try:
                return await make(self.stubs())
            except grpc.aio.AioRpcError as error:
                if error.code() not in RETRYABLE:
                    raise
                self.home += 1  # this replica is away: the next one
                self.failovers += 1
                await asyncio.sleep(0.05)
        raise AssertionError("no replica answered")

    async def rpc(self, service: str, method: str, request: Any, token: str = "") -> Any:
        """``stubs.<service>.<method>(request)`` with failover, as ``token``'s seat."""
        metadata = bearer(token) if token else ()
        return await self.call(
            lambda s: getattr(getattr(s, service), method)(request, metadata=metadata, timeout=5)
        )

    async def close(self) -> None:
        for channel in self.channels.values():
            await channel.close()


@dataclass
class Game:
    table_id: str
    seats: list[tuple[Client, str]]
    spectator: Client
    acknowledged: dict[str, pb.SubmitActionResponse] = field(default_factory=dict)
    events: list[pb.Event] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)

    async def watch(self) -> None:
        """Spectate to the end, resuming after the last seq seen on whichever replica."""
        while True:
            try:
                after = self.events[-1].seq if self.events else 0
                stream = self.spectator.stubs().play.WatchTable(
                    pb.WatchTableRequest(table_id=self.table_id, after_seq=after)
                )
                async for item in stream:
                    if item.HasField("event"):
                        self.events.append(without_time_left(item.event))
                        if item.event.HasField("session_over"):
                            return
            except grpc.aio.AioRpcError as error:
                if error.code() not in RETRYABLE:
                    raise
                self.spectator.home += 1
                await asyncio.sleep(0.05)

    async def play(self, rng: random.Random, moves: list[int]) -> None:
        count = 0
        while True:
            spectator = await self.spectator.rpc(
                "play", "GetView", pb.GetViewRequest(table_id=self.table_id)
            )
            if not spectator.view.to_act:
                return
            seat = spectator.view.turn
            client, token = self.seats[seat]
            view = await client.rpc(
                "play", "GetView", pb.GetViewRequest(table_id=self.table_id), token
            )
            if view.view.turn != seat or view.seq != spectator.seq:
                continue  # the table moved on between the two looks: look again
            request = pb.SubmitActionRequest(
                table_id=self.table_id,
                action=action_message(pick_action(legal(view.view), rng, 0.0)),
                request_id=f"{self.table_id}-{count}",
                expected_seq=view.seq,
            )
            answer = await client.rpc("play", "SubmitAction", request, token)
            self.acknowledged[request.request_id] = answer
            count += 1
            moves[0] += 1


async def start_replicas(url: str, ports: list[int], cwd: Path) -> list[ServerProcess]:
    servers = [ServerProcess(url, "--port", str(port), cwd=cwd) for port in ports]
    await asyncio.gather(*(server.start() for server in servers))
    return servers


def test_three_replicas_one_killed_and_restarted_nothing_lost(tmp_path: Path) -> None:
    # Its own deadline, longer than run_async's: three processes and PostgreSQL share two
    # cores with the rest of the suite; about 10 s on an idle machine.
    asyncio.run(asyncio.wait_for(_three_replicas(tmp_path), DEADLINE))


async def _three_replicas(tmp_path: Path) -> None:
    with contextlib.ExitStack() as stack:
        try:
            url = stack.enter_context(fresh_postgres_schema())
        except PostgresUnavailable as error:
            skip_or_fail(error)
        ports = [free_port() for _ in range(REPLICAS)]
        targets = [f"127.0.0.1:{port}" for port in ports]
        servers = await start_replicas(url, ports, tmp_path)
        clients: list[Client] = []
        try:
            games = await _seat_games(targets, clients)
            moves = [0]
            rng = random.Random(11)
            watchers = [asyncio.ensure_future(game.watch()) for game in games]
            players = [
                asyncio.ensure_future(game.play(random.Random(rng.random()), moves))
                for game in games
            ]
            while moves[0] < 150:
                await asyncio.sleep(0.02)
            servers[1].kill()  # SIGKILL mid-game: no drain, requests in flight cut off
            await servers[1].wait()
            while moves[0] < 400:
                await asyncio.sleep(0.02)
            servers[1] = (await start_replicas(url, [ports[1]], tmp_path))[0]
            await asyncio.wait_for(asyncio.gather(*players), 240)
            await asyncio.wait_for(asyncio.gather(*watchers), 60)
            assert sum(c.failovers for c in clients) > 0, "nobody noticed the kill"
            for game in games:
                await _check_game(game)
        finally:
            for client in clients:
                await client.close()
            for server in servers:
                await server.ensure_stopped()


async def _seat_games(targets: list[str], clients: list[Client]) -> list[Game]:
    games = []
    for t in range(TABLES):
        creator = Client(targets, t)
        clients.append(creator)
        created = await creator.rpc(
            "tables",
            "CreateTable",
            pb.CreateTableRequest(ruleset_id="bhabho", seat_count=4, hands=1),
        )
        table_id = created.table.table_id
        seats = []
        for seat in range(4):
            client = Client(targets, t + seat)  # the seats of one table on every replica
            clients.append(client)
            joined = await client.rpc(
                "tables", "JoinTable", pb.JoinTableRequest(table_id=table_id, seat=seat)
            )
            seats.append((client, joined.seat_token))
        first, token = seats[0]
        await first.rpc("tables", "StartTable", pb.StartTableRequest(table_id=table_id), token)
        spectator = Client(targets, t + 2)
        clients.append(spectator)
        games.append(Game(table_id, seats, spectator))
    return games


async def _check_game(game: Game) -> None:
    seqs = [e.seq for e in game.events]
    assert seqs == list(range(1, len(seqs) + 1)), "a gap or a duplicate in the stream"
    by_seq = {e.seq: e for e in game.events}
    for request_id, answer in game.acknowledged.items():  # every acknowledged move is there
        assert answer.events, request_id
        for event in answer.events:
            assert without_time_left(event).seq == event.seq
            public = by_seq[event.seq]
            assert public.WhichOneof("kind") == event.WhichOneof("kind"), request_id
    client = game.spectator
    exported = await client.rpc(
        "play", "ExportHand", pb.ExportHandRequest(table_id=game.table_id, hand_number=0)
    )
    _, case = replay_case(exported.case_yaml)  # the record replays on the engine
    # Each acknowledged request is one step of the record, none twice, none missing.
    assert len(case["steps"]) == len(game.acknowledged)
