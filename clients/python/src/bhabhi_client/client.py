"""A small typed client of the referee over ``grpc.aio``.

The generated stubs already type every message; what a program still has to get right is
around them, and lives here once: a deadline on every call (a dead referee must not hang a
bot), keep-alive pings (a half-open connection is noticed instead of waiting forever for
the next event), the seat credential as ``authorization`` metadata, decoding refusals into
``RefereeError``, retrying an action with the *same* request id (the referee applies a
request id once, so a retry after a lost answer cannot play a card twice), and an event
stream that survives a dropped connection by resuming after the last event it delivered.

Messages are the generated protobuf types (``bhabhi.referee.v1.referee_pb2``): a second,
hand-written copy of every message would only drift from the ``.proto``.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from types import TracebackType
from typing import Any, Final, TypeVar

import grpc
import grpc.aio
from bhabhi.referee.v1 import referee_pb2 as pb
from bhabhi.referee.v1 import referee_pb2_grpc as pb_grpc
from google.protobuf import duration_pb2

from bhabhi_client.cards import parse_action
from bhabhi_client.errors import RefereeError

ANALYSIS_TIMEOUT: Final = 180.0
"""The deadline of an AnalyzeRuleset call: a referee's analysis may use 120 s of CPU by
default, at the lowest priority, and wait for a worker."""

KEEPALIVE_OPTIONS: Final[tuple[tuple[str, int], ...]] = (
    ("grpc.keepalive_time_ms", 20_000),
    ("grpc.keepalive_timeout_ms", 10_000),
    ("grpc.keepalive_permit_without_calls", 1),
    ("grpc.http2.max_pings_without_data", 0),
)
"""Ping an idle connection every 20 s and give up on it after 10 s without an answer.

This matches the referee's own settings (it pings at the same rate and accepts pings every
5 s, ``grpc.http2.min_ping_interval_without_data_ms``).  A server that accepts fewer pings answers
with GOAWAY ``too_many_pings``, which the event stream survives by reconnecting.
"""

BOT_STRATEGIES: Final = {
    "random": pb.BOT_STRATEGY_RANDOM,
    "heuristic": pb.BOT_STRATEGY_HEURISTIC,
    "strong": pb.BOT_STRATEGY_STRONG,
}
"""The referee's own bots, by the names the client's strategies have (an unknown name is
sent as unspecified, which the referee refuses)."""

SHORTEST_BOT_KEY: Final = 16
LONGEST_BOT_KEY: Final = 128


def valid_bot_key(key: str) -> bool:
    """Whether a bot may wait under ``key`` (``AwaitSeats``: 16 to 128 printable ASCII
    characters, no spaces), checked here so that a typo is told before anything is played."""
    printable = all("!" <= ch <= "~" for ch in key)
    return printable and SHORTEST_BOT_KEY <= len(key) <= LONGEST_BOT_KEY


WATCH_RECONNECT_CODES: Final = frozenset(
    {
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.INTERNAL,
        grpc.StatusCode.CANCELLED,
    }
)
"""A watch that ends with one of these lost its connection (or its deadline), not its table."""

RATE_LIMITED_RETRIES: Final = 100
"""How often an action refused with ``rate_limited`` is sent again (after the wait the
referee asks for) before the refusal reaches the caller: a bot outrunning the limit is
slowed down to it rather than stopped."""

_Response = TypeVar("_Response")
StreamItem = pb.Event | pb.Snapshot
"""What an event stream yields: the next event, or a snapshot of the state at a seq."""


def new_request_id() -> str:
    """A request id unique per seat (random, so two processes of one seat never collide)."""
    return uuid.uuid4().hex


def event_kind(event: pb.Event) -> str:
    """The name of the event's ``kind`` oneof field (``card_played``…), "" when unset."""
    return event.WhichOneof("kind") or ""


class Client:
    """A connection to one referee; use as ``async with Client("host:50051") as client``.

    ``timeout`` is the deadline of every unary call, in seconds.  ``language`` picks the
    LocalizedMessage of refusals (``en``, ``de``, ``pl``).  ``credentials`` turns on TLS.
    """

    def __init__(
        self,
        target: str,
        *,
        credentials: grpc.ChannelCredentials | None = None,
        timeout: float = 5.0,
        language: str = "en",
        watch_timeout: float = 300.0,
        retries: int = 5,
        backoff: float = 0.1,
        reconnect_attempts: int = 10,
        options: Sequence[tuple[str, Any]] = (),
    ) -> None:
        self.target = target
        self.credentials = credentials
        self.timeout = timeout
        self.language = language
        self.watch_timeout = watch_timeout
        """Deadline of one WatchTable call; the stream renews itself when it is reached."""
        self.retries = retries
        self.backoff = backoff
        self.reconnect_attempts = reconnect_attempts
        self._options = [*KEEPALIVE_OPTIONS, *options]
        self._channel: grpc.aio.Channel | None = None
        self._rulesets: pb_grpc.RulesetServiceAsyncStub | None = None
        self._tables: pb_grpc.TableServiceAsyncStub | None = None
        self._play: pb_grpc.PlayServiceAsyncStub | None = None

    async def __aenter__(self) -> Client:
        self.open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    def open(self) -> None:
        """Create the channel (it connects lazily, on the first call)."""
        if self._channel is not None:
            return
        if self.credentials is None:
            channel = grpc.aio.insecure_channel(self.target, options=self._options)
        else:
            channel = grpc.aio.secure_channel(self.target, self.credentials, options=self._options)
        self._channel = channel
        self._rulesets = pb_grpc.RulesetServiceStub(channel)
        self._tables = pb_grpc.TableServiceStub(channel)
        self._play = pb_grpc.PlayServiceStub(channel)

    async def close(self) -> None:
        if self._channel is not None:
            channel, self._channel = self._channel, None
            await channel.close()

    # --- plumbing ---------------------------------------------------------------------------

    @property
    def rulesets_stub(self) -> pb_grpc.RulesetServiceAsyncStub:
        assert self._rulesets is not None, "use the client inside `async with` (or call open())"
        return self._rulesets

    @property
    def tables_stub(self) -> pb_grpc.TableServiceAsyncStub:
        assert self._tables is not None, "use the client inside `async with` (or call open())"
        return self._tables

    @property
    def play_stub(self) -> pb_grpc.PlayServiceAsyncStub:
        assert self._play is not None, "use the client inside `async with` (or call open())"
        return self._play

    def _metadata(self, token: str | None) -> tuple[tuple[str, str], ...]:
        """The seat credential, and the language for the status message itself (the
        LocalizedMessage details carry every language anyway)."""
        language = ("accept-language", self.language)
        return (("authorization", f"Bearer {token}"), language) if token else (language,)

    def error(self, error: grpc.RpcError) -> RefereeError:
        return RefereeError.from_rpc_error(error, language=self.language)

    async def _call(
        self,
        method: grpc.aio.UnaryUnaryMultiCallable[Any, _Response],
        request: Any,
        token: str | None = None,
        *,
        timeout: float | None = None,
    ) -> _Response:
        try:
            return await method(
                request, timeout=timeout or self.timeout, metadata=self._metadata(token)
            )
        except grpc.RpcError as error:
            raise self.error(error) from None

    # --- rulesets ---------------------------------------------------------------------------

    async def list_rulesets(self) -> list[pb.RulesetSummary]:
        response = await self._call(self.rulesets_stub.ListRulesets, pb.ListRulesetsRequest())
        return list(response.rulesets)

    async def get_ruleset(self, ruleset_id: str) -> pb.GetRulesetResponse:
        """The summary and the resolved YAML (``RulesProfile.from_yaml`` reads it)."""
        return await self._call(self.rulesets_stub.GetRuleset, pb.GetRulesetRequest(id=ruleset_id))

    async def get_rulebook(
        self,
        ruleset_id: str,
        language: str = "en",
        format: pb.RulebookFormat.ValueType = pb.RULEBOOK_FORMAT_TEXT,
    ) -> pb.GetRulebookResponse:
        """The rulebook the referee writes for a hosted ruleset, in ``language``."""
        request = pb.GetRulebookRequest(ruleset_id=ruleset_id, language=language, format=format)
        return await self._call(self.rulesets_stub.GetRulebook, request)

    async def analyze_ruleset(
        self,
        ruleset_id: str,
        players: Sequence[int] = (),
        *,
        hands: int = 0,
        seed: str = "",
        skill: bool = True,
        confirm: bool = True,
        timeout: float = ANALYSIS_TIMEOUT,
    ) -> pb.AnalyzeRulesetResponse:
        """What the variant is like, played by the referee (``bhabhi analyze``'s figures and
        warnings; ``json.loads(response.json)`` is its whole document): every player count
        the ruleset allows unless ``players`` says, 200 hands each unless ``hands`` says.
        An analysis takes seconds, not milliseconds: it has a deadline of its own."""
        request = pb.AnalyzeRulesetRequest(
            ruleset_id=ruleset_id,
            players=list(players),
            hands=hands,
            seed=seed,
            no_skill=not skill,
            no_confirm=not confirm,
        )
        return await self._call(self.rulesets_stub.AnalyzeRuleset, request, timeout=timeout)

    async def validate_ruleset(self, yaml: str, name: str = "") -> pb.ValidateRulesetResponse:
        return await self._call(
            self.rulesets_stub.ValidateRuleset, pb.ValidateRulesetRequest(yaml=yaml, name=name)
        )

    async def register_ruleset(self, yaml: str) -> pb.RulesetSummary:
        response = await self._call(
            self.rulesets_stub.RegisterRuleset, pb.RegisterRulesetRequest(yaml=yaml)
        )
        return response.ruleset

    # --- tables -----------------------------------------------------------------------------

    async def create_table(
        self,
        ruleset_id: str,
        seats: int,
        *,
        turn_time: float | timedelta | None = None,
        hands: int = 0,
        test_deal: Sequence[Sequence[str]] | None = None,
        test_draws: Sequence[str] = (),
        test_dealer: int | None = None,
        deal_seed: str = "",
        bots: Mapping[int, str] | None = None,
        bot_delay: float | None = None,
    ) -> pb.Table:
        """Open a table; ``turn_time`` in seconds (None: no clock), ``hands`` 0 for the
        ruleset's session.  ``deal_seed``: deal the hands from it (tables with the same
        deal seed are dealt the same hands; the table is then listed as ``seeded``).
        ``bots``: seats the referee plays with its own bots, seat to ``random``,
        ``heuristic`` or ``strong``, with ``bot_delay`` seconds before each move (None:
        the referee's 1 s).  The ``test_*`` arguments work only on a referee in test
        mode."""
        request = pb.CreateTableRequest(
            ruleset_id=ruleset_id, seat_count=seats, hands=hands, deal_seed=deal_seed
        )
        if turn_time:
            duration = duration_pb2.Duration()
            if isinstance(turn_time, timedelta):
                duration.FromTimedelta(turn_time)
            else:
                duration.FromNanoseconds(round(turn_time * 1e9))
            request.turn_time.CopyFrom(duration)
        for cards in test_deal or ():
            request.test_deal.add(cards=list(cards))
        request.test_draws.extend(test_draws)
        if test_dealer is not None:
            request.test_dealer = test_dealer
        for seat, strategy in (bots or {}).items():
            request.bots.add(seat=seat, strategy=BOT_STRATEGIES.get(strategy, 0))
        if bot_delay is not None:
            request.bot_delay.FromNanoseconds(round(bot_delay * 1e9))
        response = await self._call(self.tables_stub.CreateTable, request)
        return response.table

    async def list_tables(
        self, open_only: bool = False, *, ruleset_id: str = "", page_size: int = 0
    ) -> list[pb.Table]:
        """Every table listed (open ones first), read a page at a time."""
        found: list[pb.Table] = []
        token = ""
        while True:
            request = pb.ListTablesRequest(
                open_only=open_only, ruleset_id=ruleset_id, page_size=page_size, page_token=token
            )
            response = await self._call(self.tables_stub.ListTables, request)
            found += response.tables
            token = response.next_page_token
            if not token:
                return found

    async def get_table(self, table_id: str) -> pb.Table:
        response = await self._call(
            self.tables_stub.GetTable, pb.GetTableRequest(table_id=table_id)
        )
        return response.table

    async def join(self, table_id: str, name: str, seat: int | None = None) -> SeatHandle:
        """Take a seat (the first free one when ``seat`` is None)."""
        request = pb.JoinTableRequest(table_id=table_id, player_name=name)
        if seat is not None:
            request.seat = seat
        response = await self._call(self.tables_stub.JoinTable, request)
        return SeatHandle(self, table_id, response.seat, response.seat_token, name)

    async def resume(self, table_id: str, token: str, name: str = "") -> SeatHandle:
        """A handle for a seat taken earlier (by this or another process) from its token."""
        response = await self._call(
            self.play_stub.GetView, pb.GetViewRequest(table_id=table_id), token
        )
        return SeatHandle(self, table_id, response.view.seat, token, name)

    # --- watching ---------------------------------------------------------------------------

    async def spectator_view(self, table_id: str) -> pb.GetViewResponse:
        """What anyone may see of the table, with the seq it reflects."""
        return await self._call(self.play_stub.GetView, pb.GetViewRequest(table_id=table_id))

    def watch(self, table_id: str, after_seq: int = 0) -> AsyncIterator[StreamItem]:
        """The public events of a table (see ``SeatHandle.events``)."""
        return self._watch(table_id, after_seq, None)

    async def export_hand(self, table_id: str, hand_number: int) -> str:
        """A finished hand as a conformance case (YAML), hidden cards included."""
        response = await self._call(
            self.play_stub.ExportHand,
            pb.ExportHandRequest(table_id=table_id, hand_number=hand_number),
        )
        return response.case_yaml

    async def _watch(
        self, table_id: str, after_seq: int, token: str | None
    ) -> AsyncIterator[StreamItem]:
        """Events after ``after_seq``, resumed after the last one delivered when the stream
        drops; it ends after SessionOver or TableClosed, or when the table is finished and
        nothing follows (the referee then ends the stream with OK).

        A stream may begin with a snapshot (the watcher was too far behind): it is yielded
        and the seq moves to it.  An event at or below the last delivered seq (a server
        replaying after a reconnect) is skipped, so nothing is delivered twice.
        """
        last = after_seq
        delivered = False
        failures = 0
        while True:
            request = pb.WatchTableRequest(table_id=table_id, after_seq=last)
            call = self.play_stub.WatchTable(
                request, timeout=self.watch_timeout, metadata=self._metadata(token)
            )
            try:
                async for item in call:
                    if item.HasField("snapshot"):
                        snapshot = item.snapshot
                        if delivered and snapshot.seq <= last:
                            continue
                        last, delivered, failures = snapshot.seq, True, 0
                        yield snapshot
                        if snapshot.table.status == pb.TABLE_STATUS_FINISHED:
                            return
                    elif item.HasField("event"):
                        event = item.event
                        if event.seq <= last:
                            continue
                        last, delivered, failures = event.seq, True, 0
                        yield event
                        if event.HasField("session_over") or event.HasField("table_closed"):
                            return
            except grpc.RpcError as rpc_error:
                error = self.error(rpc_error)
                if error.code not in WATCH_RECONNECT_CODES:
                    raise error from None
                if error.code is not grpc.StatusCode.DEADLINE_EXCEEDED:  # not a planned renewal
                    failures += 1
                    if failures > self.reconnect_attempts:
                        raise error from None
                    await asyncio.sleep(self._delay(failures))
                continue
            finally:
                call.cancel()
            # The referee closed the stream (it does when it shuts down): over if the table
            # is, else resume once it is back.
            try:
                table = await self.get_table(table_id)
            except RefereeError as error:
                if not error.transient:
                    raise
            else:
                if table.status == pb.TABLE_STATUS_FINISHED and table.last_seq <= last:
                    return
            failures += 1
            if failures > self.reconnect_attempts:
                raise RefereeError(
                    grpc.StatusCode.UNAVAILABLE,
                    f"the referee keeps closing the event stream of table {table_id}",
                )
            await asyncio.sleep(self._delay(failures))

    async def await_seats(
        self, bot_key: str, *, on_waiting: Callable[[], None] | None = None
    ) -> AsyncGenerator[SeatHandle]:
        """Wait under ``bot_key`` for the seats handed to this bot (``HandSeat``), each as
        a handle, for as long as the caller reads (docs/referee.md, "Seats for bots already
        connected").  A wait that drops (the referee draining or restarting, the connection
        lost) is taken up again, and so is ``bot_already_waiting`` right after a drop,
        while the referee has not yet heard that the old wait is gone.  ``on_waiting`` is
        called each time the referee says the bot is waiting: seats handed before that may
        not have reached it."""
        request = pb.AwaitSeatsRequest(bot_key=bot_key)
        failures = 0
        while True:
            call = self.tables_stub.AwaitSeats(request, metadata=self._metadata(None))
            try:
                async for item in call:
                    if item.HasField("waiting"):
                        failures = 0
                        if on_waiting is not None:
                            on_waiting()
                        continue
                    offer = item.seat
                    yield SeatHandle(
                        self, offer.table_id, offer.seat, offer.seat_token, offer.player_name
                    )
            except grpc.RpcError as rpc_error:
                error = self.error(rpc_error)
                dropped = error.code in WATCH_RECONNECT_CODES
                if not dropped and error.reason != "bot_already_waiting":
                    raise error from None
            else:  # the referee ended the stream with OK, which it never does
                error = RefereeError(grpc.StatusCode.UNAVAILABLE, "the wait for seats ended")
            finally:
                call.cancel()
            failures += 1
            if failures > self.reconnect_attempts:
                raise error
            await asyncio.sleep(self._delay(failures))

    def _delay(self, attempt: int) -> float:
        return float(min(self.backoff * 2 ** (attempt - 1), 2.0))

    async def _submit(
        self, table_id: str, token: str, action: pb.Action, expected_seq: int, request_id: str
    ) -> pb.SubmitActionResponse:
        request = pb.SubmitActionRequest(
            table_id=table_id, action=action, request_id=request_id, expected_seq=expected_seq
        )
        attempt = slowed = 0
        while True:
            try:
                return await self.play_stub.SubmitAction(
                    request, timeout=self.timeout, metadata=self._metadata(token)
                )
            except grpc.RpcError as rpc_error:
                error = self.error(rpc_error)
                if error.reason == "rate_limited" and slowed < RATE_LIMITED_RETRIES:
                    # Nothing was applied: wait as long as the referee asked, then again.
                    slowed += 1
                    await asyncio.sleep(error.retry_after or self._delay(1))
                    continue
                attempt += 1
                if not error.transient or attempt > self.retries:
                    raise error from None
                await asyncio.sleep(self._delay(attempt))


@dataclass(frozen=True, slots=True)
class SeatHandle:
    """A seat at a table: every call it makes carries the seat's credential."""

    client: Client
    table_id: str
    seat: int
    token: str
    name: str = ""

    async def start(self) -> pb.Table:
        """Deal the first hand (any seated player may, once every seat is taken)."""
        response = await self.client._call(
            self.client.tables_stub.StartTable,
            pb.StartTableRequest(table_id=self.table_id),
            self.token,
        )
        return response.table

    async def leave(self) -> pb.Table:
        """Give the seat up (only before the table starts)."""
        response = await self.client._call(
            self.client.tables_stub.LeaveTable,
            pb.LeaveTableRequest(table_id=self.table_id),
            self.token,
        )
        return response.table

    async def hand_to(self, bot_key: str) -> pb.Table:
        """Give this seat to the bot waiting under ``bot_key``: it receives the seat's
        credential (which this handle keeps), or ``bot_not_waiting`` is raised."""
        response = await self.client._call(
            self.client.tables_stub.HandSeat,
            pb.HandSeatRequest(table_id=self.table_id, bot_key=bot_key),
            self.token,
        )
        return response.table

    async def view(self) -> pb.GetViewResponse:
        """What this seat may see now, and the seq to pass as ``expected_seq``."""
        return await self.client._call(
            self.client.play_stub.GetView, pb.GetViewRequest(table_id=self.table_id), self.token
        )

    async def act(
        self, action: pb.Action | str, *, expected_seq: int, request_id: str | None = None
    ) -> pb.SubmitActionResponse:
        """Play ``action`` (a ``pb.Action`` or text: ``7h``, ``pickup``, ``take``).

        Transient failures are retried with the same request id, which the referee answers
        with its first answer, so an action whose acknowledgement was lost is not applied
        twice.  A refusal raises ``RefereeError`` (``stale_seq`` when the table moved on
        since ``expected_seq``).
        """
        if isinstance(action, str):
            action = parse_action(action)
        return await self.client._submit(
            self.table_id, self.token, action, expected_seq, request_id or new_request_id()
        )

    def events(self, after_seq: int = 0) -> AsyncIterator[StreamItem]:
        """This seat's events after ``after_seq``, as an endless (reconnecting) iterator
        that ends with the session; see ``Client._watch``."""
        return self.client._watch(self.table_id, after_seq, self.token)
