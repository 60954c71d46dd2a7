"""Several referees (replicas) over one shared store, in one process: fast and exact.

Every scenario runs twice: over a ``MemoryStore(shared=True)``, which stands in for
PostgreSQL (``replica()`` is a second connection to the same data, and every append is
announced to every replica's listener), and over a real PostgreSQL schema, each referee
with its own ``PostgresStore`` (skipped without a server, except where
``BHABHI_REQUIRE_POSTGRES=1``).  Separate processes killed with SIGKILL are in
``test_replicas_processes.py``.  What must hold (issue 5): any replica serves any table; of
two replicas racing for a table exactly one append wins and the other answers correctly;
watchers on every replica get every event, without gap or duplicate; a clock fires once;
a game played across replicas equals the same game played on one referee.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import grpc
import pytest
from bhabhi.referee.v1 import referee_pb2 as pb
from postgres_helpers import PostgresUnavailable, fresh_postgres_schema, skip_or_fail
from server_helpers import (
    Player,
    Referee,
    Seated,
    action_message,
    bearer,
    check_refusal,
    legal,
    pick_action,
    pick_seat,
    referee,
    refusal_of,
    run_async,
    without_time_left,
)

from referee.server.store import Store
from referee.server.store.memory import MemoryStore
from referee.server.store.postgres import PostgresStore
from referee.server.table import replicas as tables

DEAL = [  # bhabho, 4 seats: 13 cards each, A♠ with seat 0
    "AS 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC",
    "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
    "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AC",
]


BACKENDS = ["memory", "postgres"]


class Stores:
    """New store objects, each a replica's own connection to one shared database."""

    def __init__(self, backend: str, stack: contextlib.ExitStack) -> None:
        self.hub: MemoryStore | None = None
        self.url = ""
        if backend == "memory":
            self.hub = MemoryStore(shared=True)
        else:
            try:
                self.url = stack.enter_context(fresh_postgres_schema())
            except PostgresUnavailable as error:
                skip_or_fail(error)

    def new(self) -> Store:
        if self.hub is not None:
            return self.hub.replica()
        return PostgresStore(self.url, pool_size=4)


@contextlib.asynccontextmanager
async def replicas(backend: str, count: int, **flags: Any) -> AsyncIterator[list[Referee]]:
    with contextlib.ExitStack() as schemas:
        stores = Stores(backend, schemas)
        async with contextlib.AsyncExitStack() as stack:
            yield [
                await stack.enter_async_context(referee(store=stores.new(), **flags))
                for _ in range(count)
            ]


async def spread_table(
    refs: list[Referee],
    *,
    seats: int = 4,
    turn_time: float = 0.0,
    deal: list[str] | None = None,
    hands: int = 0,
) -> Seated:
    """A table created on the first replica, seat k joined through replica k mod n."""
    request = pb.CreateTableRequest(ruleset_id="bhabho", seat_count=seats, hands=hands)
    if turn_time:
        request.turn_time.FromNanoseconds(int(turn_time * 1e9))
    for cards in deal or ():
        request.test_deal.add(cards=cards.split())
    created = await refs[0].tables.CreateTable(request)
    table_id = created.table.table_id
    players = []
    for seat in range(seats):
        stubs = refs[seat % len(refs)].connect()
        joined = await stubs.tables.JoinTable(
            pb.JoinTableRequest(table_id=table_id, player_name=f"p{seat}", seat=seat)
        )
        players.append(Player(stubs, table_id, seat, joined.seat_token))
    seated = Seated(refs[-1], table_id, players)
    await seated.start()
    return seated


@dataclass
class Watcher:
    """A spectator's WatchTable stream, read in the background."""

    call: Any
    events: list[pb.Event] = field(default_factory=list)
    reader: asyncio.Future[None] | None = None

    @classmethod
    def start(cls, ref: Referee, table_id: str, after_seq: int = 0) -> Watcher:
        watcher = cls(
            ref.play.WatchTable(pb.WatchTableRequest(table_id=table_id, after_seq=after_seq))
        )
        watcher.reader = asyncio.ensure_future(watcher._read())
        return watcher

    async def _read(self) -> None:
        async for item in self.call:
            if item.HasField("event"):
                self.events.append(without_time_left(item.event))

    async def until(self, seq: int, timeout: float = 10.0) -> list[pb.Event]:
        """Every event up to ``seq``, once it arrived; then the stream is closed."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while (not self.events or self.events[-1].seq < seq) and loop.time() < end:
            await asyncio.sleep(0.01)
        self.call.cancel()
        assert self.events and self.events[-1].seq >= seq, f"stream stuck before {seq}"
        return [e for e in self.events if e.seq <= seq]


def comparable(events: list[pb.Event]) -> list[pb.Event]:
    """Events without what depends on the wall clock or the deal's random seed."""
    out = []
    for event in events:
        copy = pb.Event()
        copy.CopyFrom(event)
        copy.ClearField("time")
        copy.ClearField("turn_deadline")
        out.append(copy)
    return out


async def play_random(
    seated: Seated, rng: random.Random, limit: int = 400
) -> list[tuple[int, str]]:
    """Random legal moves, each sent through the seat's own replica; the moves made."""
    moves: list[tuple[int, str]] = []
    for _ in range(limit):
        spectator = (await seated.spectate()).view
        if not spectator.to_act:
            break
        player = seated.players[pick_seat(spectator.to_act, spectator.turn, rng, 0.1)]
        view = await player.view()
        text = pick_action(legal(view.view), rng, 0.1)
        await player.submit(action_message(text), view.seq)
        moves.append((player.seat, text))
    return moves


@pytest.mark.parametrize("backend", BACKENDS)
@run_async
async def test_a_game_across_three_replicas_equals_the_game_on_one(backend: str) -> None:
    rng = random.Random(5)
    async with replicas(backend, 3, test_mode=True) as refs:
        seated = await spread_table(refs, deal=DEAL, hands=1)
        watchers = [Watcher.start(ref, seated.table_id) for ref in refs]
        moves = await play_random(seated, rng)
        last = (await seated.spectate()).seq
        # Every replica's watcher gets every event, once, in order.
        streams = [await watcher.until(last) for watcher in watchers]
        assert [e.seq for e in streams[0]] == list(range(1, last + 1))
        assert streams[1] == streams[0] and streams[2] == streams[0]
    async with referee(test_mode=True) as single:
        alone = await spread_table([single], deal=DEAL, hands=1)
        for seat, text in moves:
            player = alone.players[seat]
            await player.submit(action_message(text), (await player.view()).seq)
        alone_events = await Watcher.start(single, alone.table_id).until(last)
        assert comparable(alone_events) == comparable(streams[0])


@pytest.mark.parametrize("backend", BACKENDS)
@run_async
async def test_two_replicas_racing_for_a_table_one_wins_the_other_answers_stale(
    backend: str,
) -> None:
    async with replicas(backend, 2) as refs:
        seated = await spread_table(refs)
        view = await seated.spectate()
        mover = seated.players[view.view.turn]
        card = legal((await mover.view()).view)[0]
        twin = Player(refs[1 - refs.index(_home(refs, mover))].connect(), *_who(mover))
        first = mover.submit(action_message(card), view.seq, "one")
        second = twin.submit(action_message(card), view.seq, "two")
        results = await asyncio.gather(first, second, return_exceptions=True)
        won = [r for r in results if isinstance(r, pb.SubmitActionResponse)]
        lost = [r for r in results if isinstance(r, grpc.aio.AioRpcError)]
        assert len(won) == 1 and len(lost) == 1, results
        check_refusal(
            await refusal_of(_raise(lost[0])),
            grpc.StatusCode.ABORTED,
            "stale_seq",
            "en",
        )
        # The same request sent to both replicas at once is applied once, answered twice.
        view = await seated.spectate()
        mover = seated.players[view.view.turn]
        twin = Player(refs[1 - refs.index(_home(refs, mover))].connect(), *_who(mover))
        card = legal((await mover.view()).view)[0]
        answers = await asyncio.gather(
            mover.submit(action_message(card), view.seq, "same"),
            twin.submit(action_message(card), view.seq, "same"),
        )
        assert answers[0] == answers[1]
        after = await seated.spectate()
        assert after.seq == answers[0].last_seq


@pytest.mark.parametrize("backend", BACKENDS)
@run_async
async def test_replicas_that_hear_no_news_still_answer_right(backend: str) -> None:
    """With every notification lost, a replica acts on an old state: its append loses the
    race for the command number, and it catches up and checks again."""
    async with replicas(backend, 2) as (a, b):
        seated = await spread_table([a, b])
        for ref in (a, b):  # news arrives, and is dropped
            ref.running.referee.ledger.follow = _ignore  # type: ignore[method-assign, assignment]
        view = await seated.spectate()
        mover = seated.players[view.view.turn]
        on_a = Player(a.connect(), *_who(mover))
        on_b = Player(b.connect(), *_who(mover))
        card = legal((await on_a.view()).view)[0]
        await b.tables.GetTable(pb.GetTableRequest(table_id=seated.table_id))
        b_table = b.running.referee.tables[seated.table_id]
        answer = await on_a.submit(action_message(card), view.seq, "first")
        assert b_table.last_seq == view.seq  # B has not heard of it
        # B checks the same move against its old state, finds it legal, and loses the race
        # for the command number: it catches up and refuses it as stale.
        refusal = await refusal_of(on_b.submit(action_message(card), view.seq, "again"))
        check_refusal(refusal, grpc.StatusCode.ABORTED, "stale_seq", "en")
        assert b_table.last_seq == answer.last_seq
        # The first request retried on B: the original answer, nothing applied twice.
        assert await on_b.submit(action_message(card), view.seq, "first") == answer


@pytest.mark.parametrize("backend", BACKENDS)
@run_async
async def test_a_replica_that_missed_a_join_does_not_refuse_the_new_seat(backend: str) -> None:
    """Replica B holds the table; a seat joined through A acts through B at once, before
    B heard of the join: B catches up instead of refusing the credential."""
    async with replicas(backend, 2) as refs:
        a, b = refs
        created = await a.tables.CreateTable(
            pb.CreateTableRequest(ruleset_id="bhabho", seat_count=4)
        )
        table_id = created.table.table_id
        await b.tables.GetTable(pb.GetTableRequest(table_id=table_id))  # B now holds it
        tokens = []
        for seat in range(4):
            joined = await a.tables.JoinTable(pb.JoinTableRequest(table_id=table_id, seat=seat))
            tokens.append(joined.seat_token)
        started = await b.tables.StartTable(  # at once: B may not have heard of the joins
            pb.StartTableRequest(table_id=table_id), metadata=bearer(tokens[3])
        )
        assert started.table.status == pb.TABLE_STATUS_PLAYING


@pytest.mark.parametrize("backend", BACKENDS)
@run_async
async def test_open_tables_and_registered_rulesets_are_seen_by_every_replica(backend: str) -> None:
    async with replicas(backend, 2, allow_register=True) as (a, b):
        house = "id: house\nextends: bhabho\ntitle: {en: H, de: H, pl: H}\n"
        await a.rulesets.RegisterRuleset(pb.RegisterRulesetRequest(yaml=house))
        created = await b.tables.CreateTable(
            pb.CreateTableRequest(ruleset_id="house", seat_count=3)
        )
        listed = await a.tables.ListTables(pb.ListTablesRequest(open_only=True))
        assert created.table.table_id in [t.table_id for t in listed.tables]


@pytest.mark.parametrize("backend", BACKENDS)
@run_async
async def test_every_replica_lists_the_tables_played_on_another(backend: str) -> None:
    async with replicas(backend, 2) as (a, b):
        seated = await spread_table([a])  # started: no longer open
        listed = await b.tables.ListTables(pb.ListTablesRequest())
        assert [(t.table_id, t.status) for t in listed.tables] == [
            (seated.table_id, pb.TABLE_STATUS_PLAYING)
        ]
        assert not (await b.tables.ListTables(pb.ListTablesRequest(open_only=True))).tables


@pytest.mark.parametrize("backend", BACKENDS)
@run_async
async def test_a_finished_table_is_listed_by_no_replica_but_read_by_any(backend: str) -> None:
    """The replica that ends a session tells the store: a replica that did not play the
    table does not list it (nor load it to find out), those that did let go of it after
    ``keep_finished``, and any of them reads it by id."""
    async with replicas(backend, 3, test_mode=True, keep_finished=0.2) as (a, b, c):
        seated = await spread_table([a, b], deal=["AS", "", "", ""], hands=1)
        assert (await seated.table()).status == pb.TABLE_STATUS_FINISHED
        assert not (await c.tables.ListTables(pb.ListTablesRequest())).tables
        assert seated.table_id not in c.running.referee.tables
        for _ in range(100):
            if all(seated.table_id not in r.running.referee.tables for r in (a, b)):
                break
            await asyncio.sleep(0.05)
        for ref in (a, b):
            assert seated.table_id not in ref.running.referee.tables
            assert not (await ref.tables.ListTables(pb.ListTablesRequest())).tables
        read = await c.tables.GetTable(pb.GetTableRequest(table_id=seated.table_id))
        assert read.table.status == pb.TABLE_STATUS_FINISHED
        assert read.table == (await seated.table())


@pytest.mark.parametrize("backend", BACKENDS)
@run_async
async def test_a_turn_clock_fires_once_across_replicas(backend: str) -> None:
    async with replicas(backend, 3) as refs:
        seated = await spread_table(refs, turn_time=0.3)
        for ref in refs:  # every replica holds the table and arms its clock
            await ref.tables.GetTable(pb.GetTableRequest(table_id=seated.table_id))
        start = (await seated.spectate()).seq
        await asyncio.sleep(1.0)  # about three clocks run out
        last = (await seated.spectate()).seq
        events = await Watcher.start(refs[0], seated.table_id, start).until(last)
        timeouts = [e for e in events if e.HasField("turn_timed_out")]
        # 1.0 s of 0.3 s clocks: three run out (one more or less by scheduling), each once:
        # a clock fired twice would show as two timeouts in a row within one turn time.
        assert 2 <= len(timeouts) <= 4, timeouts
        times = [e.time.ToMilliseconds() for e in timeouts]
        assert all(b - a >= 250 for a, b in itertools.pairwise(times)), times


@pytest.mark.parametrize("backend", BACKENDS)
@run_async
async def test_the_clock_of_a_dead_replica_fires_elsewhere(
    backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tables, "SWEEP_EVERY", 0.1)
    monkeypatch.setattr(tables, "SWEEP_GRACE", 0.2)
    with contextlib.ExitStack() as schemas:
        await _dead_replica(Stores(backend, schemas))


async def _dead_replica(stores: Stores) -> None:
    async with referee(store=stores.new()) as survivor:
        async with referee(store=stores.new()) as doomed:
            seated = await spread_table([doomed], turn_time=0.3)
            seq = (await seated.spectate()).seq
        # The doomed replica is gone, its clock with it; the survivor never touched the table.
        await asyncio.sleep(1.2)
        view = await survivor.play.GetView(pb.GetViewRequest(table_id=seated.table_id))
        assert view.seq > seq


def _home(refs: list[Referee], player: Player) -> Referee:
    return refs[player.seat % len(refs)]


def _who(player: Player) -> tuple[str, int, str]:
    return player.table_id, player.seat, player.token


async def _raise(error: BaseException) -> None:
    raise error


async def _ignore(*_: object) -> None:
    return None
