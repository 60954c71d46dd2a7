"""Helpers for the referee's gRPC tests: an in-process referee on a loopback port, seat
clients, refusal decoding, a random player, and the truth a finished hand reveals.

Everything runs in-process on ``127.0.0.1`` with port 0, except ``ServerProcess``, which
runs ``bhabhi serve`` as a subprocess for the tests that kill or signal it.  The tests are
plain functions wrapped by ``run_async``: each runs in a fresh event loop, with a deadline,
so that a hung stream fails the test instead of hanging the suite.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import random
import re
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import yaml
from bhabhi.referee.v1 import referee_pb2 as pb
from bhabhi.referee.v1 import referee_pb2_grpc as rpc
from bhabhi_client.cards import format_action, parse_action
from google.protobuf.message import Message
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from referee.cards import Card, card_str, cards_in, parse_card
from referee.conformance.runner import EngineAdapter, case_ruleset, run_case
from referee.engine import Action, Hand
from referee.engine.types import CardPlayed, IllegalPlayPenalised
from referee.ops.drill import Replica as ServingReplica
from referee.reasons import Reason
from referee.server.app import RefereeServer, Tls, create_server
from referee.server.errors import LANGUAGES, MESSAGES
from referee.server.limits import Limits
from referee.server.store import Store
from referee.server.store.memory import MemoryStore

ROOT = Path(__file__).resolve().parents[1]
DOMAIN = "referee.bhabhi"
TEST_DEADLINE = 45.0
"""No single server test may take longer than this (a hung stream fails instead)."""

Metadata = tuple[tuple[str, str], ...]

GERMAN: Metadata = (("accept-language", "de"),)


def run_async(
    test: Callable[..., Coroutine[Any, Any, None]],
) -> Callable[..., None]:
    """Run an ``async def`` test in a fresh event loop (pytest-asyncio is not a dependency).

    ``functools.wraps`` keeps the signature, so pytest still injects fixtures.
    """
    return run_async_within(TEST_DEADLINE)(test)


def run_async_within(
    seconds: float,
) -> Callable[[Callable[..., Coroutine[Any, Any, None]]], Callable[..., None]]:
    """``run_async`` with a deadline of its own, for a test that plays a whole hand with a
    searching bot: it is CPU-bound, and on a loaded machine takes several times as long
    (the deadline only stops a hung test; no test asserts on time)."""

    def decorate(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
        @functools.wraps(test)
        def wrapper(*args: Any, **kwargs: Any) -> None:
            async def bounded() -> None:
                await asyncio.wait_for(test(*args, **kwargs), seconds)

            asyncio.run(bounded())

        return wrapper

    return decorate


# --- the referee and its clients ----------------------------------------------------------


@dataclass
class Stubs:
    """The three services over one channel."""

    channel: grpc.aio.Channel
    rulesets: rpc.RulesetServiceAsyncStub
    tables: rpc.TableServiceAsyncStub
    play: rpc.PlayServiceAsyncStub

    @classmethod
    def over(cls, channel: grpc.aio.Channel) -> Stubs:
        return cls(
            channel,
            rpc.RulesetServiceStub(channel),
            rpc.TableServiceStub(channel),
            rpc.PlayServiceStub(channel),
        )


class Referee:
    """A running referee (in-process or not) and the channels opened to it."""

    def __init__(self, port: int, server: RefereeServer | None = None) -> None:
        self.port = port
        self.server = server
        self.target = f"127.0.0.1:{port}"
        self._channels: list[grpc.aio.Channel] = []
        main = self.connect()
        self.channel = main.channel
        self.rulesets = main.rulesets
        self.tables = main.tables
        self.play = main.play

    def connect(self) -> Stubs:
        """A new client: its own channel (its own connection)."""
        channel = grpc.aio.insecure_channel(self.target)
        self._channels.append(channel)
        return Stubs.over(channel)

    async def close(self) -> None:
        for channel in self._channels:
            await channel.close()
        self._channels.clear()

    @property
    def running(self) -> RefereeServer:
        assert self.server is not None, "not an in-process referee"
        return self.server


TEST_LIMITS = Limits(
    tables_per_minute=0, uploads_per_minute=0, actions_per_second=0, min_turn_time=0.1
)
"""The defaults, but for what a test needs: many tables created and rulesets sent at once from
one address, a seat that acts as fast as the test loop runs (a whole hand on a quiet machine
can pass 100 actions a second; the tests of that limit set it themselves), and turn clocks
short enough to run out during a test."""


@contextlib.asynccontextmanager
async def referee(
    *,
    store: Store | None = None,
    db: Path | None = None,
    test_mode: bool = False,
    allow_register: bool = False,
    tls: Tls | None = None,
    limits: Limits | None = None,
    keep_finished: float = 600.0,
) -> AsyncIterator[Referee]:
    """An in-process referee on 127.0.0.1:0 (a MemoryStore unless ``db`` names a file)."""
    if store is None and db is None:
        store = MemoryStore()
    server, port = await create_server(
        "127.0.0.1:0",
        store=store,
        db=db,
        test_mode=test_mode,
        allow_register=allow_register,
        tls=tls,
        limits=TEST_LIMITS if limits is None else limits,
        keep_finished=keep_finished,
    )
    ref = Referee(port, server)
    try:
        yield ref
    finally:
        await ref.close()
        await server.stop(0)


def bearer(token: str) -> Metadata:
    return (("authorization", f"Bearer {token}"),)


@dataclass
class Player:
    """One seat's client: its own channel, its credential."""

    stubs: Stubs
    table_id: str
    seat: int
    token: str

    @property
    def md(self) -> Metadata:
        return bearer(self.token)

    async def view(self) -> pb.GetViewResponse:
        return await self.stubs.play.GetView(
            pb.GetViewRequest(table_id=self.table_id), metadata=self.md
        )

    async def submit(
        self,
        action: pb.Action,
        expected_seq: int,
        request_id: str = "",
        *,
        extra: Metadata = (),
    ) -> pb.SubmitActionResponse:
        return await self.stubs.play.SubmitAction(
            pb.SubmitActionRequest(
                table_id=self.table_id,
                action=action,
                request_id=request_id or f"r{random.getrandbits(64):x}",
                expected_seq=expected_seq,
            ),
            metadata=self.md + extra,
        )

    def watch(self, after_seq: int = 0) -> Any:
        """The WatchTable call (iterate it; ``cancel()`` it to disconnect)."""
        return self.stubs.play.WatchTable(
            pb.WatchTableRequest(table_id=self.table_id, after_seq=after_seq), metadata=self.md
        )


@dataclass
class Seated:
    """A table and a client per seat."""

    ref: Referee
    table_id: str
    players: list[Player]

    async def table(self) -> pb.Table:
        return (await self.ref.tables.GetTable(pb.GetTableRequest(table_id=self.table_id))).table

    async def spectate(self) -> pb.GetViewResponse:
        return await self.ref.play.GetView(pb.GetViewRequest(table_id=self.table_id))

    async def start(self) -> pb.Table:
        response = await self.players[0].stubs.tables.StartTable(
            pb.StartTableRequest(table_id=self.table_id), metadata=self.players[0].md
        )
        return response.table

    def spectator_watch(self, after_seq: int = 0) -> Any:
        return self.ref.play.WatchTable(
            pb.WatchTableRequest(table_id=self.table_id, after_seq=after_seq)
        )


async def seat_table(
    ref: Referee,
    ruleset_id: str,
    seats: int,
    *,
    start: bool = True,
    turn_time: float = 0.0,
    hands: int = 0,
    deal: Sequence[str] | None = None,
    draws: Sequence[str] = (),
    dealer: int | None = None,
) -> Seated:
    """Create a table, seat a client (own channel) in every seat, and start it.

    ``deal`` is one string of cards per seat (test mode only).
    """
    request = pb.CreateTableRequest(ruleset_id=ruleset_id, seat_count=seats, hands=hands)
    if turn_time:
        request.turn_time.FromNanoseconds(int(turn_time * 1e9))
    for cards in deal or ():
        request.test_deal.add(cards=cards.split())
    request.test_draws.extend(draws)
    if dealer is not None:
        request.test_dealer = dealer
    created = await ref.tables.CreateTable(request)
    table_id = created.table.table_id
    players = []
    for seat in range(seats):
        stubs = ref.connect()
        joined = await stubs.tables.JoinTable(
            pb.JoinTableRequest(table_id=table_id, player_name=f"player {seat}", seat=seat)
        )
        assert joined.seat == seat
        players.append(Player(stubs, table_id, seat, joined.seat_token))
    seated = Seated(ref, table_id, players)
    if start:
        await seated.start()
    return seated


BHABHO_DEAL = ["AS 2H 3H", "KS 4H 5D", "QS 6H 7D", "JS 8H 9C"]
"""Bhabho, four seats, clockwise: seat 0 holds the A of spades and leads (B1); every seat
holds a spade to follow with."""

# --- actions -------------------------------------------------------------------------------

PICKUP = pb.Action(kind=pb.ACTION_KIND_PICK_UP)
TAKE = pb.Action(kind=pb.ACTION_KIND_TAKE_HAND)


def play(card: str) -> pb.Action:
    return pb.Action(kind=pb.ACTION_KIND_PLAY, card=card)


def action_text(action: pb.Action) -> str:
    """The engine's notation: a card, ``pickup``, ``take``, or a house rule's decision
    (``take:3``, ``pass``, ``agree`` ... as the client writes them)."""
    if action.kind == pb.ACTION_KIND_PLAY:
        return action.card
    if action.kind == pb.ACTION_KIND_PICK_UP:
        return "pickup"
    if action.kind == pb.ACTION_KIND_TAKE_HAND and not action.HasField("seat"):
        return "take"
    return format_action(action)


_DECISION_WORDS = frozenset({"take", "pass", "challenge", "agree", "refuse", "trump", "draw"})


def action_message(text: str) -> pb.Action:
    if text == "pickup":
        return PICKUP
    if text == "take":
        return TAKE
    if text.partition(":")[0] in _DECISION_WORDS:  # a house rule's: take:3, pass, agree
        return parse_action(text)
    return play(text)


def legal(view: pb.SeatView) -> list[str]:
    return [action_text(a) for a in view.legal_actions]


def pick_seat(to_act: Sequence[int], turn: int, rng: random.Random, take_rate: float) -> int:
    """Who acts: usually the seat the game waits for; at ``take_rate`` another seat that may
    act (before a trick under B9, to take a hand)."""
    others = [s for s in to_act if s != turn]
    if others and (turn not in to_act or rng.random() < take_rate):
        return rng.choice(others)
    return turn


def pick_action(legal_actions: Sequence[str], rng: random.Random, take_rate: float) -> str:
    """A random legal action; a hand is taken (B9) at ``take_rate``, or when that is all."""
    actions = [a for a in legal_actions if a != "take"]
    if "take" in legal_actions and (not actions or rng.random() < take_rate):
        return "take"
    return actions[rng.randrange(len(actions))]


async def random_step(
    seated: Seated, rng: random.Random, *, take_rate: float = 0.1
) -> tuple[Player, pb.Action, int, pb.SubmitActionResponse] | None:
    """One random legal action (``pick_seat``, ``pick_action``), as the clients would
    decide it from their views; None once nobody may act (the session is over)."""
    spectator = (await seated.spectate()).view
    if not spectator.to_act:
        return None
    seat = pick_seat(spectator.to_act, spectator.turn, rng, take_rate)
    player = seated.players[seat]
    view = await player.view()
    action = action_message(pick_action(legal(view.view), rng, take_rate))
    response = await player.submit(action, view.seq)
    return player, action, view.seq, response


def without_time_left(event: pb.Event) -> pb.Event:
    """The event without ``time_left``, which depends on when it was sent."""
    copy = pb.Event()
    copy.CopyFrom(event)
    copy.ClearField("time_left")
    return copy


async def drain_stream(call: Any, until_seq: int) -> list[pb.WatchTableResponse]:
    """Read a WatchTable stream (with ``read()``, so that it can be read on afterwards)
    until an event with seq ``until_seq`` (or a later one)."""
    received: list[pb.WatchTableResponse] = []
    if until_seq <= 0:
        return received
    while True:
        item = await call.read()
        if item is grpc.aio.EOF:
            break
        received.append(item)
        if item.WhichOneof("item") == "event" and item.event.seq >= until_seq:
            break
        if item.WhichOneof("item") == "snapshot" and item.snapshot.seq >= until_seq:
            break
    return received


# --- refusals ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Refused:
    """A refusal as the client sees it, decoded from ``grpc-status-details-bin``."""

    code: grpc.StatusCode
    message: str
    reason: str
    domain: str
    metadata: dict[str, str]
    localized: dict[str, str]


def decode(error: grpc.aio.AioRpcError) -> Refused:
    status = rpc_status.from_call(error)  # also checks code and message match the trailer
    assert status is not None, f"no rich status in {error!r}"
    info = error_details_pb2.ErrorInfo()
    infos = 0
    localized: dict[str, str] = {}
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            detail.Unpack(info)
            infos += 1
        elif detail.Is(error_details_pb2.LocalizedMessage.DESCRIPTOR):
            message = error_details_pb2.LocalizedMessage()
            detail.Unpack(message)
            assert message.locale not in localized, f"two messages in {message.locale}"
            localized[message.locale] = message.message
    assert infos == 1, f"{infos} ErrorInfo details in {error!r}"
    return Refused(
        code=error.code(),
        message=error.details() or "",
        reason=info.reason,
        domain=info.domain,
        metadata=dict(info.metadata),
        localized=localized,
    )


async def refusal_of(call: Awaitable[object]) -> Refused:
    try:
        result = await call
    except grpc.aio.AioRpcError as error:
        return decode(error)
    raise AssertionError(f"expected a refusal, got {result!r}")


_reasons_seen: contextvars.ContextVar[set[str] | None] = contextvars.ContextVar(
    "reasons_seen", default=None
)
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def check_refusal(refused: Refused, code: grpc.StatusCode, reason: str, language: str) -> None:
    """Code, reason, domain, three filled-in localized messages, the status message in
    ``language``; then count ``reason`` as covered by the running test."""
    assert (refused.code, refused.reason) == (code, reason), refused
    assert refused.domain == DOMAIN
    assert set(refused.localized) == set(LANGUAGES), refused.localized
    templates = dict(zip(LANGUAGES, MESSAGES[Reason(reason)][1:], strict=True))
    for lang, text in refused.localized.items():
        assert text.strip(), f"empty {lang} message for {reason}"
        assert not PLACEHOLDER.search(text), f"unfilled placeholder in {text!r}"
        if templates[lang] != templates["en"]:
            assert text != refused.localized["en"], f"{lang} message of {reason} is English"
    assert refused.message == refused.localized[language], (refused.message, language)
    assert refused.metadata.get("message") == refused.localized["en"]
    seen = _reasons_seen.get()
    if seen is not None:
        seen.add(reason)


async def refused(
    call: Callable[[Metadata], Awaitable[object]],
    code: grpc.StatusCode,
    reason: str,
) -> Refused:
    """Make the call twice, plainly and with ``accept-language: de``; both must be refused
    with ``code`` and ``reason``, the status message in English and then German, every
    language among the details.  Returns the English refusal."""
    english = await refusal_of(call(()))
    check_refusal(english, code, reason, "en")
    german = await refusal_of(call(GERMAN))
    check_refusal(german, code, reason, "de")
    assert german.localized == english.localized
    return english


@contextlib.contextmanager
def reasons_seen() -> Any:
    """Collect the refusal reasons checked (by ``refused``/``check_refusal``) inside."""
    seen: set[str] = set()
    token = _reasons_seen.set(seen)
    try:
        yield seen
    finally:
        _reasons_seen.reset(token)


# --- the truth about a finished hand ---------------------------------------------------------


@dataclass
class State:
    """The engine's state after a step, and what each seat may have learnt so far."""

    hands: list[int]
    known: list[int]
    seen: int
    """Cards that were ever face up on the table (played to a trick)."""
    held: list[int]
    """Per seat, every card it ever held."""
    legal: list[list[str]]
    view_hands: list[list[str]]


@dataclass
class Truth:
    """A finished hand replayed on the engine from the case the referee exported.

    ``states[i]`` is the state after step ``i`` (``states[0]``: just dealt); ``ends[i]``
    is the table seq of the last event of that step, so a message with a seq can be matched
    with the state it was sent in.
    """

    case: dict[str, Any]
    deal: list[list[str]]
    states: list[State]
    ends: list[int]
    step_events: list[dict[str, Any]]
    """Per seq of the hand (from the first), the engine's full event."""
    first_seq: int
    seed: str

    def state_at(self, seq: int) -> State:
        """The state a message with ``seq`` reflects: after the step that ``seq`` ends or
        lies in."""
        for index, end in enumerate(self.ends):
            if seq <= end:
                return self.states[index]
        return self.states[-1]

    def engine_event(self, seq: int) -> dict[str, Any] | None:
        index = seq - self.first_seq
        if 0 <= index < len(self.step_events):
            return self.step_events[index]
        return None

    @property
    def last_seq(self) -> int:
        return self.ends[-1]


def _state(hand: Hand, seen: int, held: list[int]) -> State:
    players = hand.players
    for seat in range(players):
        held[seat] |= hand.hands[seat]
    return State(
        hands=list(hand.hands),
        known=list(hand.known),
        seen=seen,
        held=list(held),
        legal=[[str(a) for a in hand.legal_actions(s)] for s in range(players)],
        view_hands=[[card_str(c) for c in cards_in(hand.hands[s])] for s in range(players)],
    )


def replay_case(case_yaml: str) -> tuple[Hand, dict[str, Any]]:
    """Run an exported case through the conformance runner (schema, every step's events,
    the result) on the engine; return the hand replayed from it, over, and the case."""
    case = yaml.safe_load(case_yaml)
    outcome = run_case(case, EngineAdapter())
    assert outcome.passed, outcome.failures
    hand = _hand_of_case(case)
    for step in case["steps"]:
        events = hand.apply(step["seat"], Action.parse(step["action"]))
        assert [e.to_dict() for e in events] == step["events"], step
    assert hand.is_over and hand.outcome is not None
    assert hand.outcome.to_dict() == case["result"]
    return hand, case


def _hand_of_case(case: dict[str, Any]) -> Hand:
    rules = case_ruleset(case)  # bundled, or inline; checked against the hash
    return Hand(
        rules,
        case["players"],
        deal=[[parse_card(c) for c in cards.split()] for cards in case["deal"]],
        dealer=case["dealer"],
        draws=[parse_card(c) for c in case.get("draws", [])],
    )


def truth_of(case_yaml: str, spectator_events: Sequence[pb.Event], hand_number: int) -> Truth:
    """Replay hand ``hand_number`` of a table from its exported case, and line its steps
    up with the table's seqs using the (public) events a spectator received."""
    case = yaml.safe_load(case_yaml)
    events = [e for e in spectator_events if e.hand_number == hand_number]
    kinds = [e.WhichOneof("kind") for e in events]
    assert kinds[0] == "hand_started", kinds[:3]
    first = events[0].seq
    assert [e.seq for e in events] == list(range(first, first + len(events))), "a gap"
    hand = _hand_of_case(case)
    held = [0] * hand.players
    seen = 0
    initial = hand.events or []
    full: list[dict[str, Any]] = [e.to_dict() for e in initial]
    states = [_state(hand, seen, held)]
    ends = [first + len(initial) - 1]
    for step in case["steps"]:
        position = ends[-1] + 1 - first
        timed_out = position < len(kinds) and kinds[position] == "turn_timed_out"
        if timed_out:
            full.append({"kind": "turn_timed_out", "seat": step["seat"]})
        produced = hand.apply(step["seat"], Action.parse(step["action"]))
        assert [e.to_dict() for e in produced] == step["events"]
        for event in produced:
            if isinstance(event, CardPlayed | IllegalPlayPenalised):
                seen |= 1 << event.card
        full.extend(e.to_dict() for e in produced)
        states.append(_state(hand, seen, held))
        ends.append(ends[-1] + len(produced) + (1 if timed_out else 0))
    assert hand.outcome is not None and hand.outcome.to_dict() == case["result"]
    assert ends[-1] == events[-1].seq or kinds[len(full) :] == ["session_over"], (
        ends[-1],
        kinds[-3:],
    )
    return Truth(
        case=case,
        deal=[cards.split() for cards in case["deal"]],
        states=states,
        ends=ends,
        step_events=full,
        first_seq=first,
        seed=str(case.get("seed", "")),
    )


CARD_TEXT = re.compile(r'"((?:10|[2-9JQKA])[CDHS](?:/\d+)?)"')


def cards_mentioned(message: Message) -> set[Card]:
    """Every card written anywhere in a message (its text format quotes each string)."""
    return {parse_card(text) for text in CARD_TEXT.findall(str(message))}


def secret_from(state: State, viewer: int | None) -> set[Card]:
    """Cards another seat holds that were never face up and the viewer never held: what
    no message to the viewer may name."""
    mask = 0
    for seat, cards in enumerate(state.hands):
        if seat != viewer:
            mask |= cards
    mask &= ~state.seen
    if viewer is not None:
        mask &= ~state.held[viewer]
    return set(cards_in(mask))


@dataclass
class Inbox:
    """Everything one viewer (a seat, or None for a spectator) received, with the seq each
    message reflects."""

    viewer: int | None
    events: list[tuple[str, pb.Event]] = field(default_factory=list)
    """(where from: ``submit`` or ``watch``, event)."""
    views: list[tuple[int, pb.SeatView]] = field(default_factory=list)
    snapshots: list[pb.Snapshot] = field(default_factory=list)


def card_list(mask: int) -> list[str]:
    return [card_str(c) for c in cards_in(mask)]


def collect_stream(call: Any, inbox: Inbox) -> Callable[[], Awaitable[None]]:
    """A coroutine function reading a WatchTable stream into ``inbox`` until SessionOver."""

    async def reader() -> None:
        async for item in call:
            if item.WhichOneof("item") == "snapshot":
                inbox.snapshots.append(item.snapshot)
                continue
            inbox.events.append(("watch", item.event))
            if item.event.WhichOneof("kind") == "session_over":
                return

    return reader


def bhabhi_command() -> list[str]:
    """``bhabhi`` of this interpreter (the venv's), whatever is on PATH."""
    return [sys.executable, "-m", "referee"]


# --- the referee as a process ----------------------------------------------------------------


class ServerProcess:
    """``bhabhi serve --port 0`` in a subprocess (``drill.Replica``), on a SQLite file (or the
    PostgreSQL URL given as a string; then ``cwd`` too), started again on a new port by
    each ``start``.  A ``--port`` among ``flags`` wins over 0."""

    def __init__(self, db: Path | str, *flags: str, cwd: Path | None = None) -> None:
        self.db = db
        self.flags = flags
        if cwd is None:
            assert isinstance(db, Path), "a PostgreSQL URL needs a cwd"
            cwd = db.parent
        self.cwd = cwd
        self.replica: ServingReplica | None = None

    @property
    def output(self) -> list[str]:
        return self.replica.output if self.replica is not None else []

    @property
    def process(self) -> asyncio.subprocess.Process:
        assert self.replica is not None and self.replica.process is not None
        return self.replica.process

    async def start(self, timeout: float = 20.0) -> Referee:
        self.replica = ServingReplica(str(self.db), 0, *self.flags, cwd=self.cwd)
        return Referee(await self.replica.start(timeout))

    def kill(self) -> None:
        self.process.kill()  # SIGKILL: no drain, no cleanup

    def terminate(self) -> None:
        self.process.terminate()  # SIGTERM: drain, then exit

    async def wait(self, timeout: float = 10.0) -> int:
        assert self.replica is not None
        return await self.replica.exited(timeout)

    async def ensure_stopped(self) -> None:
        if self.replica is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()


# --- which refusal reasons the tests reach ---------------------------------------------

DECLARED: dict[str, frozenset[str]] = {}


def covers(
    *reasons: str,
) -> Callable[[Callable[..., Coroutine[Any, Any, None]]], Callable[..., Coroutine[Any, Any, None]]]:
    """Declare the reasons a test reaches; the test fails unless it checks exactly those."""

    def decorate(
        test: Callable[..., Coroutine[Any, Any, None]],
    ) -> Callable[..., Coroutine[Any, Any, None]]:
        DECLARED[test.__name__] = frozenset(reasons)

        @functools.wraps(test)
        async def checked(*args: Any, **kwargs: Any) -> None:
            with reasons_seen() as seen:
                await test(*args, **kwargs)
            assert seen == set(reasons), f"declared {sorted(reasons)}, checked {sorted(seen)}"

        return checked

    return decorate
