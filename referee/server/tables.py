"""The referee's use cases: rulesets, tables, seats, actions, events, clocks.

No protobuf here: the gRPC layer (``service.py``) translates.  A table is event-sourced:
every accepted request becomes a command, stored durably (``Store.append``) *before* it is
applied and acknowledged, and replaying a table's commands through the deterministic
engine rebuilds it exactly after a restart, events, clocks and idempotency records
included.

Concurrency: one ``asyncio.Lock`` per table serialises its commands; checking happens
before the command is stored, applying after, and applying a checked command cannot fail,
so the stored log and the state never disagree.

Replicas (a ``shared`` store such as PostgreSQL): several referee processes serve the same
tables with no lock between them.  Each keeps the tables it has touched in memory (loaded
on first use by replaying their commands).  A command is appended with the table's next
number, which the store keeps unique, so of two replicas racing for a table exactly one
wins; the other catches up with the commands it missed and checks the request again
(``_locked``): it applies it, refuses it (a stale ``expected_seq``), or, for a request the
other replica already applied, returns the original answer.  A request refused against a
state that may be old is checked once more after catching up, so that a replica that has
not yet heard of a join or a move never refuses what is right.  The store tells every
replica about every command (``Store.listen``), so watchers anywhere get each event
promptly; a timeout is a command like any other, so whichever replica's clock fires first
wins and the others catch up: a clock is enforced exactly once.  A sweep finds tables
whose clock is overdue because the replica that armed it died.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import hashlib
import hmac
import logging
import math
import secrets
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple, TypeVar

import yaml

from referee.cards import Card, CardSyntaxError, card_str, parse_card
from referee.conformance.export import export_hand
from referee.engine import Action, ActionKind, EngineError, Hand, IllegalActionError, Session
from referee.engine.hand import SeatView
from referee.engine.types import Event, HandOver, HandStarted, Outcome
from referee.ruleset.loader import (
    bundled_ruleset_paths,
    load_ruleset,
    resolve_text,
)
from referee.ruleset.model import Ruleset
from referee.ruleset.problems import Problem
from referee.server.errors import Refusal
from referee.server.limits import Limits, TokenBucket
from referee.server.store import (
    CommandRecord,
    ConflictError,
    RulesetRecord,
    Store,
    StoreError,
    TableRecord,
)

KEEP_FINISHED = 600.0
"""Seconds a finished table stays in memory after its last event (then only in the store)."""

SNAPSHOT_AFTER = 1000
"""A watcher more than this many events behind gets a snapshot instead of the backlog."""

ATTEMPTS = 8
"""How often a request is checked again after other replicas changed its table first."""

SWEEP_EVERY = 1.0
"""Seconds between two looks for overdue turn clocks (replicas only)."""

SWEEP_GRACE = 2.0
"""How overdue a clock must be before a replica that did not arm it steps in: the replica
that armed it normally fires it on time, and a sweep should not race it."""

log = logging.getLogger("bhabhi.referee")
T = TypeVar("T")


# --- referee events (the engine's events plus the table's own) --------------------------


@dataclass(frozen=True, slots=True)
class PlayerJoined(Event):
    kind: ClassVar[str] = "player_joined"
    seat: int
    player_name: str


@dataclass(frozen=True, slots=True)
class PlayerLeft(Event):
    kind: ClassVar[str] = "player_left"
    seat: int


@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    """A hand was dealt; each seat sees only its own cards."""

    kind: ClassVar[str] = "hand_dealt"
    dealer: int
    hand_sizes: tuple[int, ...]
    leader: int
    cards: tuple[tuple[Card, ...], ...]
    """Every seat's cards; ``visible_to`` keeps only the viewer's."""
    seed_commitment: str
    ruleset_hash: str

    def visible_to(self, seat: int | None) -> Event:
        mine = tuple(c if s == seat else () for s, c in enumerate(self.cards))
        return HandDealt(
            self.dealer,
            self.hand_sizes,
            self.leader,
            mine,
            self.seed_commitment,
            self.ruleset_hash,
        )

    def public(self) -> Event:
        return self.visible_to(None)


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """The engine's HandOver, with the hand's seed revealed (fair deal)."""

    kind: ClassVar[str] = "hand_ended"
    outcome: Outcome
    seed: str


@dataclass(frozen=True, slots=True)
class TurnTimedOut(Event):
    kind: ClassVar[str] = "turn_timed_out"
    seat: int
    action: Action


@dataclass(frozen=True, slots=True)
class SessionEnded(Event):
    kind: ClassVar[str] = "session_ended"
    hands_played: int
    bhabhi_counts: tuple[int, ...]
    losers: tuple[int, ...]
    chips: tuple[int, ...]
    pot_left: int


class TableEvent(NamedTuple):
    """One event of a table's log, numbered.

    Immutable, as a frozen dataclass would be, but a NamedTuple: one is made for every
    event, and a frozen dataclass's ``__init__`` (one ``object.__setattr__`` a field) costs
    three times as much."""

    seq: int
    at: float
    hand_number: int
    event: Event
    to_act: tuple[int, ...]
    deadline: float | None
    """Absolute deadline (unix seconds) of the seat the game waits for, if clocked."""


# --- rulesets ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HostedRuleset:
    rules: Ruleset
    origin: str
    """``bundled`` or ``registered``."""
    yaml: str


class Rulesets:
    """Bundled rulesets plus the house variants registered on this referee."""

    def __init__(self) -> None:
        self._hosted: dict[str, HostedRuleset] = {}
        for ruleset_id in sorted(bundled_ruleset_paths()):
            rules = load_ruleset(ruleset_id)
            self._hosted[ruleset_id] = HostedRuleset(rules, "bundled", _dump(rules))

    def all(self) -> list[HostedRuleset]:
        return [self._hosted[k] for k in sorted(self._hosted)]

    def get(self, ruleset_id: str) -> HostedRuleset:
        hosted = self._hosted.get(ruleset_id)
        if hosted is None:
            raise Refusal("ruleset_not_found", ruleset_id=ruleset_id)
        return hosted

    def validate(self, text: str, name: str) -> tuple[Ruleset | None, list[Problem]]:
        """Check uploaded YAML; it may extend a bundled ruleset or a registered one."""
        registered = {
            ruleset_id: hosted.yaml
            for ruleset_id, hosted in self._hosted.items()
            if hosted.origin == "registered"
        }
        resolved, problems = resolve_text(text, name or "upload.yaml", registered)
        if problems:
            return None, problems
        return Ruleset.from_mapping(resolved), []

    def check_new(self, text: str) -> Ruleset:
        rules, problems = self.validate(text, "upload.yaml")
        if rules is None:
            raise Refusal("invalid_ruleset", detail="; ".join(str(p) for p in problems[:5]))
        if self.hosts(rules.id):
            raise Refusal("ruleset_exists", ruleset_id=rules.id)
        return rules

    def hosts(self, ruleset_id: str) -> bool:
        return ruleset_id in self._hosted

    def add(self, rules: Ruleset) -> HostedRuleset:
        hosted = HostedRuleset(rules, "registered", _dump(rules))
        self._hosted[rules.id] = hosted
        return hosted


def _dump(rules: Ruleset) -> str:
    from referee.ruleset.schema import ordered_like_schema

    return yaml.safe_dump(
        ordered_like_schema(dict(rules.source)), sort_keys=False, allow_unicode=True
    )


# --- tables --------------------------------------------------------------------------------


@dataclass
class SeatState:
    player_name: str = ""
    token_hash: str = ""

    @property
    def taken(self) -> bool:
        return bool(self.token_hash)


@dataclass(slots=True)
class Answer:
    """What an action returned, kept for retries with the same request_id."""

    fingerprint: str
    first_seq: int
    last_seq: int


OPEN, PLAYING, FINISHED = "open", "playing", "finished"


@dataclass
class Table:
    table_id: str
    rules: Ruleset
    seat_count: int
    turn_time: float
    hands: int
    created_at: float
    test_deal: list[list[Card]] | None = None
    test_draws: list[Card] | None = None
    test_dealer: int | None = None
    test_hands: list[tuple[list[list[Card]], list[Card] | None]] = field(default_factory=list)
    """Explicit deals (and B8 draws) of the hands after the first (test mode)."""
    seats: list[SeatState] = field(default_factory=list)
    seat_of_token: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    """Credentials already matched against ``seats``, with their seat, so that a seat's
    every action is not hashed again; emptied whenever a seat is taken or left (a stored
    command changes ``seats``), so it holds at most one credential per taken seat.  Never
    stored, and kept out of ``repr`` (a log line must not show a credential)."""
    watchers: int = field(default=0, compare=False)
    """Event streams reading this table's log (``Referee._events``): with none, a new
    event has nobody to wake, and ``changed`` is not notified."""
    status: str = OPEN
    session: Session | None = None
    finished_hands: list[Hand] = field(default_factory=list)
    hand_seeds: list[str] = field(default_factory=list)
    log: list[TableEvent] = field(default_factory=list)
    answers: dict[tuple[int, str], Answer] = field(default_factory=dict)
    commands: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    clock: asyncio.TimerHandle | None = None

    @property
    def last_seq(self) -> int:
        return len(self.log)

    @property
    def hand(self) -> Hand | None:
        return self.session.current if self.session is not None else None

    def config(self) -> dict[str, Any]:
        return {
            "ruleset_id": self.rules.id,
            "ruleset_hash": self.rules.hash,
            "seat_count": self.seat_count,
            "turn_time": self.turn_time,
            "hands": self.hands,
            "test_deal": (
                None
                if self.test_deal is None
                else [[card_str(c) for c in cards] for cards in self.test_deal]
            ),
            "test_draws": (
                None if self.test_draws is None else [card_str(c) for c in self.test_draws]
            ),
            "test_dealer": self.test_dealer,
            "test_hands": [
                {
                    "deal": [[card_str(c) for c in cards] for cards in deal],
                    "draws": None if draws is None else [card_str(c) for c in draws],
                }
                for deal, draws in self.test_hands
            ],
        }

    def test_draws_of(self, number: int) -> list[Card] | None:
        """The explicit draws of hand ``number`` of a test table (None: from the seed)."""
        if number == 0:
            return self.test_draws
        if 0 < number <= len(self.test_hands):
            return self.test_hands[number - 1][1]
        return None

    def deadline(self) -> float | None:
        """The absolute deadline of the seat the game waits for: the last event's time plus
        the turn time, so that it survives a restart unchanged."""
        if not self.turn_time:  # first: most tables have no clock
            return None
        hand = self.hand
        if hand is None or hand.is_over or not self.log:
            return None
        return self.log[-1].at + self.turn_time


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def fingerprint(action: Action) -> str:
    return str(action)


class Referee:
    """Every table of one referee process, over one store."""

    def __init__(
        self,
        store: Store,
        *,
        test_mode: bool = False,
        allow_register: bool = False,
        clock: Callable[[], float] = time.time,
        limits: Limits | None = None,
        monotonic: Callable[[], float] = time.monotonic,
        keep_finished: float = KEEP_FINISHED,
    ) -> None:
        self.store = store
        self.test_mode = test_mode
        self.allow_register = allow_register
        self.now = clock
        self.limits = limits or Limits()
        self._monotonic = monotonic
        """The rate limit's clock: unlike ``now`` it never jumps back."""
        self._buckets: dict[tuple[str, int], TokenBucket] = {}
        self._streams: dict[str, int] = {}
        """Open event streams by credential (spectators: by client address)."""
        self.keep_finished = keep_finished
        self._retirer: asyncio.Task[None] | None = None
        self.rulesets = Rulesets()
        self.tables: dict[str, Table] = {}
        """The tables this referee holds: all of them with a private store, those it has
        touched with a shared one."""
        self.closing = False
        self._timeouts: set[asyncio.Task[None]] = set()
        self._loading: dict[str, asyncio.Future[Table]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._to_act_key: tuple[int, int, int] | None = None
        self._to_act: tuple[int, ...] = ()
        self.on_commit: list[Callable[[str], None]] = []
        """Called with the kind of every command this referee stored (metrics)."""

    # --- life cycle ---------------------------------------------------------------------

    async def start(self) -> None:
        """Open the store and rebuild every unfinished table from its commands (with a
        shared store: load tables when first used, and follow what other replicas
        append)."""
        await self.store.open()
        await self._load_rulesets()
        self._retirer = asyncio.ensure_future(self._retire_finished())
        if self.store.shared:
            self.store.listen(self._on_command)
            self._sweeper = asyncio.ensure_future(self._sweep())
            return
        # Finished sessions are not replayed (nor read): they are read back when asked for.
        for table_record in await self.store.load_tables(unfinished=True):
            table = self._table_from_config(
                table_record.table_id, table_record.config, table_record.created_at
            )
            for command in await self.store.load_commands(table.table_id):
                self._apply(table, command)
            self.tables[table.table_id] = table
            if table.status == FINISHED:  # stored before the store knew: it will next time
                await self._record_finish(table)
        self._retire(self.now())
        for table in self.tables.values():
            async with table.lock:
                await self._deal_if_due(table)
            self._arm_clock(table)

    async def drain(self) -> None:
        """Refuse new actions and end every event stream (with ``unavailable``, so that a
        watcher resumes later or elsewhere) while the calls in progress finish."""
        self.closing = True
        for table in self.tables.values():
            async with table.changed:
                table.changed.notify_all()

    async def stop(self) -> None:
        await self.drain()
        for task in (self._sweeper, self._retirer):
            if task is not None:
                task.cancel()
        for table in self.tables.values():
            if table.clock is not None:
                table.clock.cancel()
        await self.store.close()

    async def _load_rulesets(self) -> None:
        """Host the registered rulesets this referee does not know yet (all at start; with
        replicas, those registered elsewhere since)."""
        for record in await self._stored(self.store.load_rulesets()):
            if self.rulesets.hosts(record.ruleset_id):
                continue
            rules, _ = self.rulesets.validate(record.yaml, record.ruleset_id)
            if rules is not None and not self.rulesets.hosts(rules.id):
                self.rulesets.add(rules)

    async def ruleset(self, ruleset_id: str) -> HostedRuleset:
        """A hosted ruleset; with replicas, one registered on another replica too."""
        try:
            return self.rulesets.get(ruleset_id)
        except Refusal:
            if not self.store.shared:
                raise
        await self._load_rulesets()
        return self.rulesets.get(ruleset_id)

    @staticmethod
    async def _stored(pending: Awaitable[T]) -> T:
        """A store call; a store that cannot answer is a refusal the client may retry.  A
        ConflictError (a command number or an id already taken) passes: its caller knows
        what it means."""
        try:
            return await pending
        except ConflictError:
            raise
        except StoreError as error:
            raise Refusal("store_unavailable", detail=str(error)) from error

    # --- rulesets -----------------------------------------------------------------------

    async def register_ruleset(self, text: str) -> HostedRuleset:
        if not self.allow_register:
            raise Refusal("register_not_allowed")
        rules = self.rulesets.check_new(text)
        try:
            await self._stored(self.store.put_ruleset(RulesetRecord(rules.id, text, self.now())))
        except ConflictError as error:  # registered meanwhile (here or on another replica)
            raise Refusal("ruleset_exists", ruleset_id=rules.id) from error
        return self.rulesets.add(rules)

    # --- tables -------------------------------------------------------------------------

    async def get_table(self, table_id: str, *, fresh: bool = False) -> Table:
        """A table by id, loaded from the store if it is not held here (a finished table
        let go of, or with a shared store one this replica has not used yet); with
        ``fresh`` and a shared store, brought up to date first (a read must show what
        another replica acknowledged)."""
        table = self.tables.get(table_id)
        if table is not None:
            if fresh and self.store.shared:
                async with table.lock:
                    await self._catch_up(table)
            return table
        loading = self._loading.get(table_id)
        if loading is None:
            loading = asyncio.ensure_future(self._load_table(table_id))
            self._loading[table_id] = loading
            loading.add_done_callback(lambda _: self._loading.pop(table_id, None))
        return await asyncio.shield(loading)

    async def _load_table(self, table_id: str) -> Table:
        record = await self._stored(self.store.load_table(table_id))
        if record is None:
            raise Refusal("table_not_found", table_id=table_id)
        await self.ruleset(record.config["ruleset_id"])
        table = self._table_from_config(table_id, record.config, record.created_at)
        for command in await self._stored(self.store.load_commands(table_id)):
            self._apply(table, command)
        self.tables[table_id] = table
        # Commands committed while this one loaded were announced before the table was
        # held here, so nobody followed them: look once more, now that the table is held.
        async with table.lock:
            await self._catch_up(table)
        self._arm_clock(table)
        if table.status == FINISHED:  # the hint may be missing (its writer died): again
            await self._record_finish(table)
        return table

    async def list_tables(self, *, open_only: bool) -> list[Table]:
        """Open tables first, oldest first; unless ``open_only``, then the tables in play,
        and the finished ones still held (for ``keep_finished`` seconds after their last
        event).  With a shared store, the open tables and those in play of every replica,
        loaded here to be listed."""
        if self.store.shared:
            records = []
            for wanted in [OPEN] if open_only else [OPEN, PLAYING]:
                records += await self._stored(self.store.load_tables(status=wanted))
            for record in records:
                if record.table_id not in self.tables:
                    try:
                        await self.get_table(record.table_id)
                    except Refusal:
                        continue  # its ruleset is unknown here; it cannot be served
        found = [t for t in self.tables.values() if not open_only or t.status == OPEN]
        found.sort(key=lambda t: (t.status != OPEN, t.created_at))
        return found

    async def create_table(
        self,
        ruleset_id: str,
        seat_count: int,
        *,
        turn_time: float = 0.0,
        hands: int = 0,
        test_deal: list[list[str]] | None = None,
        test_draws: list[str] | None = None,
        test_dealer: int | None = None,
        test_hands: list[tuple[list[list[str]], list[str]]] | None = None,
    ) -> Table:
        hosted = await self.ruleset(ruleset_id)
        rules = hosted.rules
        most = self.limits.max_tables
        if most and sum(1 for t in self.tables.values() if t.status != FINISHED) >= most:
            raise Refusal("too_many_tables", limit=most)
        if not rules.players.allows(seat_count):
            raise Refusal(
                "players_not_allowed",
                detail=f"ruleset {rules.id!r} allows {_allowed(rules)} players, not {seat_count}",
            )
        if turn_time < 0 or turn_time > 86_400:
            raise Refusal("bad_table_settings", detail="turn_time must be 0 to 86400 seconds")
        if hands < 0 or hands > 100_000:
            raise Refusal("bad_table_settings", detail="hands must be 0 to 100000")
        explicit = test_deal or test_draws or test_dealer is not None or test_hands
        if explicit and not self.test_mode:
            raise Refusal("test_mode_required")
        if explicit and not test_deal:
            raise Refusal(
                "bad_table_settings", detail="test_draws, test_dealer and test_hands need test_deal"
            )
        if test_dealer is not None and not 0 <= test_dealer < seat_count:
            raise Refusal(
                "bad_table_settings", detail=f"test_dealer must be a seat, 0 to {seat_count - 1}"
            )
        config: dict[str, Any] = {
            "ruleset_id": rules.id,
            "ruleset_hash": rules.hash,
            "seat_count": seat_count,
            "turn_time": turn_time,
            "hands": hands,
            "test_deal": test_deal or None,
            "test_draws": test_draws or None,
            "test_dealer": test_dealer,
            "test_hands": [
                {"deal": deal, "draws": draws or None} for deal, draws in (test_hands or [])
            ],
        }
        table_id = uuid.uuid4().hex[:16]
        table = self._table_from_config(table_id, config, self.now())  # checks the deal
        if table.test_deal is not None:
            try:
                Hand(
                    rules,
                    seat_count,
                    deal=table.test_deal,
                    draws=table.test_draws,
                    dealer=table.test_dealer,
                )
                for deal, draws in table.test_hands:
                    Hand(rules, seat_count, deal=deal, draws=draws)
            except EngineError as error:
                raise Refusal("bad_table_settings", detail=str(error)) from error
        try:
            await self.store.create_table(TableRecord(table_id, config, table.created_at))
        except StoreError as error:
            raise Refusal("store_unavailable", detail=str(error)) from error
        self.tables[table_id] = table
        return table

    def _table_from_config(
        self, table_id: str, config: dict[str, Any] | Any, created_at: float
    ) -> Table:
        rules = self.rulesets.get(config["ruleset_id"]).rules

        def cards(words: list[str]) -> list[Card]:
            try:
                return [parse_card(w) for w in words]
            except CardSyntaxError as error:
                raise Refusal("bad_table_settings", detail=str(error)) from error

        deal = config.get("test_deal")
        draws = config.get("test_draws")
        table = Table(
            table_id=table_id,
            rules=rules,
            seat_count=config["seat_count"],
            turn_time=float(config.get("turn_time") or 0.0),
            hands=int(config.get("hands") or 0),
            created_at=created_at,
            test_deal=None if not deal else [cards(h) for h in deal],
            test_draws=None if not draws else cards(draws),
            test_dealer=config.get("test_dealer"),
            test_hands=[
                (
                    [cards(h) for h in entry["deal"]],
                    None if not entry.get("draws") else cards(entry["draws"]),
                )
                for entry in config.get("test_hands") or []
            ],
        )
        table.seats = [SeatState() for _ in range(table.seat_count)]
        return table

    async def join(
        self, table_id: str, player_name: str, wanted: int | None
    ) -> tuple[Table, int, str]:
        table = await self.get_table(table_id)

        async def attempt() -> tuple[Table, int, str]:
            if table.status != OPEN:
                raise Refusal("table_not_open")
            seat = wanted
            if seat is None:
                free = [s for s, state in enumerate(table.seats) if not state.taken]
                if not free:
                    raise Refusal("table_full")
                seat = free[0]
            elif not 0 <= seat < table.seat_count:
                raise Refusal("unknown_seat")
            elif table.seats[seat].taken:
                raise Refusal("seat_taken", seat=seat)
            name = (player_name or f"Player {seat}").strip()[:40]
            token = f"{table_id}.{seat}.{secrets.token_urlsafe(24)}"
            await self._commit(
                table,
                "join",
                {"seat": seat, "player_name": name, "token_hash": token_hash(token)},
            )
            return table, seat, token

        return await self._locked(table, attempt)

    async def leave(self, table_id: str, token: str | None) -> Table:
        table = await self.get_table(table_id)

        async def attempt() -> Table:
            seat = self.seat_of(table, token)
            if table.status != OPEN:
                raise Refusal("table_not_open")
            await self._commit(table, "leave", {"seat": seat})
            return table

        return await self._locked(table, attempt)

    async def start_table(self, table_id: str, token: str | None) -> Table:
        table = await self.get_table(table_id)

        async def attempt() -> Table:
            self.seat_of(table, token)
            if table.status != OPEN:
                raise Refusal("table_not_open")
            free = sum(1 for s in table.seats if not s.taken)
            if free:
                raise Refusal("table_not_full", free=free)
            # The first hand's seed travels with the start: starting and dealing are one
            # durable command, as a hand's last move and the next deal are.
            await self._commit(table, "start", {"next_seed": secrets.token_hex(32)})
            return table

        await self._locked(table, attempt)
        self._arm_clock(table)
        return table

    def _screen(self, table: Table, token: str | None) -> int | None:
        """Refuse a stranger before looking at the request; the credential's seat.  With
        replicas a credential unknown here (None) may belong to a join made elsewhere: the
        check under the table's lock, after catching up, decides."""
        try:
            return self.seat_of(table, token)
        except Refusal as refusal:
            if refusal.reason != "bad_credential" or not self.store.shared:
                raise
        return None

    def seat_of(self, table: Table, token: str | None) -> int:
        """The seat a credential stands for; the only way a request gets a seat."""
        if not token:
            raise Refusal("unauthenticated")
        known = table.seat_of_token.get(token)
        if known is not None:
            return known
        digest = token_hash(token)
        for seat, state in enumerate(table.seats):
            if state.taken and hmac.compare_digest(state.token_hash, digest):
                table.seat_of_token[token] = seat
                return seat
        raise Refusal("bad_credential")

    # --- play ---------------------------------------------------------------------------

    async def act(
        self,
        table_id: str,
        token: str | None,
        action_words: tuple[str, str],
        request_id: str,
        expected_seq: int,
    ) -> tuple[list[TableEvent], int, int]:
        """Apply one action of the credential's seat; returns (events, seat, last_seq)."""
        table = await self.get_table(table_id)
        known = self._screen(table, token)
        if not request_id:
            raise Refusal("missing_request_id")
        if known is not None:
            self._throttle(table, known)
        if len(request_id) > 128:
            raise Refusal("bad_action", detail="request_id longer than 128 characters")
        action = _parse_action(*action_words)

        async def attempt() -> tuple[list[TableEvent], int, int]:
            # A seat's credential never changes once the table plays, and only then can
            # an action be applied: the seat found above holds.
            seat = known if known is not None else self.seat_of(table, token)
            earlier = table.answers.get((seat, request_id))
            if earlier is not None:
                if earlier.fingerprint != fingerprint(action):
                    raise Refusal("request_id_reused")
                events = table.log[earlier.first_seq - 1 : earlier.last_seq]
                return events, seat, earlier.last_seq
            if self.closing:
                raise Refusal("unavailable")
            hand = table.hand
            if table.status == FINISHED:
                raise Refusal("hand_over")  # the last hand is over, and with it the session
            if table.status != PLAYING or hand is None:
                raise Refusal("table_not_playing")
            last = table.last_seq
            if expected_seq != last:
                raise Refusal("stale_seq", last_seq=last, expected_seq=expected_seq)
            verified = self._check(hand, seat, action)
            self._check_draws(table, hand, seat, action)
            await self._commit(
                table,
                "action",
                {
                    "seat": seat,
                    "action": str(action),
                    "request_id": request_id,
                    "next_seed": secrets.token_hex(32),
                },
                verified=verified,
            )
            return table.log[last:], seat, table.last_seq  # the events of this move

        answer = await self._locked(table, attempt)
        self._arm_clock(table)
        return answer

    def _throttle(self, table: Table, seat: int) -> None:
        """Refuse a seat acting faster than ``limits.actions_per_second`` (after a burst),
        telling it how long to wait.  (A credential this replica does not know yet, from a
        join made on another replica, is not throttled on its first action here.)"""
        rate = self.limits.actions_per_second
        if not rate:
            return
        key = (table.table_id, seat)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(
                rate, self.limits.action_burst, self._monotonic()
            )
        wait = bucket.take(self._monotonic())
        if wait:
            raise Refusal("rate_limited", rate=f"{rate:g}", retry_ms=max(1, math.ceil(wait * 1000)))

    def _check(self, hand: Hand, seat: int, action: Action) -> bool:
        """Refuse an illegal action; True if the action is legal as it stands, False if it
        is an illegal play the rules punish (C12) rather than refuse."""
        try:
            hand.verify(seat, action)
        except IllegalActionError as error:
            if error.reason.value == "must_follow_suit" and hand.book.illegal_play_penalty:
                return False  # C12 penalty: the engine applies it as a pickup
            view = hand.view(seat)
            params: dict[str, Any] = {
                "turn": hand.to_move,
                "card": "" if action.card is None else card_str(action.card),
                "suit": "" if view.led_suit is None else "CDHS"[view.led_suit],
                "required": "" if hand.forced_lead < 0 else card_str(hand.forced_lead),
            }
            raise Refusal(
                error.reason.value,
                detail=str(error),
                legal_actions=[str(a) for a in view.legal_actions],
                **params,
            ) from error
        return True

    def _check_draws(self, table: Table, hand: Hand, seat: int, action: Action) -> None:
        """A test deal's explicit B8 draws may name a card that is not in the waste pile when
        the draw comes, which the engine finds only while applying the action.  Try it on a
        copy first: a command that cannot be applied must never be stored (replaying the
        log would fail, and the referee could not restart)."""
        if table.test_draws is None and not table.test_hands:
            return  # not a test table with draws (the commonest case, decided at once)
        if table.test_draws_of(len(table.hand_seeds) - 1) is None:
            return
        try:
            copy.deepcopy(hand).apply(seat, action)
        except EngineError as error:
            raise Refusal("bad_table_settings", detail=str(error)) from error

    async def view(self, table_id: str, token: str | None) -> tuple[SeatView | None, int, Table]:
        table = await self.get_table(table_id, fresh=True)
        seat = self.seat_of(table, token) if token else None
        hand = table.hand
        if hand is None and table.finished_hands:
            hand = table.finished_hands[-1]
        return (None if hand is None else hand.view(seat)), table.last_seq, table

    async def watch(
        self, table_id: str, token: str | None, after_seq: int, *, client: str = ""
    ) -> AsyncIterator[tuple[str, Any]]:
        """Yield ("snapshot", (seq, view, table)) once if far behind, then ("event", e).

        ``client`` (the caller's address) is whom a spectator's streams count against."""
        table = await self.get_table(table_id, fresh=True)
        seat = self.seat_of(table, token) if token else None
        if after_seq < 0 or after_seq > table.last_seq:
            raise Refusal("bad_after_seq", after_seq=after_seq, last_seq=table.last_seq)
        watcher = f"seat:{token}" if token else f"spectator:{client}"
        most = self.limits.max_streams_per_credential
        if most and self._streams.get(watcher, 0) >= most:
            raise Refusal("too_many_streams", limit=most)
        self._streams[watcher] = self._streams.get(watcher, 0) + 1
        try:
            async for item in self._events(table, token, seat, after_seq):
                yield item
        finally:
            left = self._streams.pop(watcher) - 1
            if left:
                self._streams[watcher] = left

    async def _events(
        self, table: Table, token: str | None, seat: int | None, after_seq: int
    ) -> AsyncIterator[tuple[str, Any]]:
        table.watchers += 1
        try:
            position = after_seq
            if table.last_seq - after_seq > SNAPSHOT_AFTER:
                view, seq, _ = await self.view(table.table_id, token)
                yield "snapshot", (seq, view, table)
                position = seq
            while True:
                while position < table.last_seq:
                    item = table.log[position]
                    position += 1
                    yield "event", _for_seat(item, seat)
                if self.closing:
                    raise Refusal("unavailable")
                async with table.changed:
                    if position >= table.last_seq and not self.closing:
                        await table.changed.wait()
        finally:
            table.watchers -= 1

    async def export(self, table_id: str, hand_number: int) -> str:
        table = await self.get_table(table_id, fresh=True)
        if not 0 <= hand_number < len(table.hand_seeds):
            raise Refusal("hand_not_found", hand_number=hand_number)
        if hand_number >= len(table.finished_hands):
            raise Refusal("hand_not_over", hand_number=hand_number)
        hand = table.finished_hands[hand_number]
        registered = self.rulesets.get(table.rules.id).origin == "registered"
        case = export_hand(
            hand,
            name=f"table {table.table_id} hand {hand_number}",
            description=f"Hand {hand_number} of table {table.table_id}, exported by the referee.",
            generated=True,
            # Only this referee knows a registered variant: the case carries it, to replay.
            ruleset_source=dict(table.rules.source) if registered else None,
        )
        return yaml.safe_dump(case, sort_keys=False, allow_unicode=True)

    # --- commands -----------------------------------------------------------------------

    async def _commit(
        self, table: Table, kind: str, payload: dict[str, Any], *, verified: bool = False
    ) -> None:
        """Store the command durably, then apply it: the only way state changes.

        Raises ConflictError when another replica took the number first (``_locked``
        catches up and checks again); any other store failure is a refusal to retry."""
        record = CommandRecord(table.table_id, table.commands + 1, kind, payload, self.now())
        # Hints for the store's table row: the status when the kind decides it (open tables
        # are listed across replicas), and when to look at the table if nothing else
        # happens (the turn clock this command may start; idle wake-ups are cleared).
        status = OPEN if kind in ("join", "leave") else PLAYING if kind == "start" else None
        clocked = table.turn_time > 0 and kind not in ("join", "leave")
        await self._stored(
            self.store.append(
                record,
                table_status=status,
                wake_at=record.at + table.turn_time if clocked else None,
            )
        )
        for hook in self.on_commit:
            hook(kind)
        was = table.status
        self._apply(table, record, verified=verified)
        if table.watchers:
            async with table.changed:
                table.changed.notify_all()
        if table.status == FINISHED and was != FINISHED:
            await self._record_finish(table)

    async def _record_finish(self, table: Table) -> None:
        """Tell the store the session is over (a hint: the command that ended it is stored
        already, so a failure here is only logged; the next replica to load the table
        writes it again)."""
        try:
            await self.store.finish_table(table.table_id)
        except StoreError as error:
            log.warning("cannot record the end of table %s: %s", table.table_id, error)

    async def _retire_finished(self) -> None:
        """Let go of finished tables now and then, so that a referee running for weeks
        holds the games in play, not every game it ever refereed."""
        every = min(60.0, max(0.05, self.keep_finished / 4))
        while not self.closing:
            await asyncio.sleep(every)
            self._retire(self.now())

    def _retire(self, now: float) -> None:
        """Drop finished tables whose last event is ``keep_finished`` seconds old.  A
        finished table never changes again, so a call still holding it (a watcher) reads
        the same as a fresh copy; a later request loads it from the store."""
        for table_id, table in list(self.tables.items()):
            if table.status != FINISHED:
                continue
            last = table.log[-1].at if table.log else table.created_at
            if now - last >= self.keep_finished:
                del self.tables[table_id]
                for seat in range(table.seat_count):
                    self._buckets.pop((table_id, seat), None)

    async def _locked(self, table: Table, attempt: Callable[[], Awaitable[T]]) -> T:
        """Run ``attempt`` (check, then commit) under the table's lock.

        With replicas the state held here may be behind the store: when another replica
        took the next command number first, or when the check refused something, catch up
        and check again; only a refusal against the latest state stands."""
        for _ in range(ATTEMPTS):
            async with table.lock:
                try:
                    return await attempt()
                except ConflictError:
                    await self._catch_up(table)
                except Refusal:
                    if not self.store.shared or not await self._catch_up(table):
                        raise
        raise Refusal("table_busy")

    async def _catch_up(self, table: Table) -> bool:
        """Apply the commands other replicas stored since (hold the table's lock); True if
        there were any."""
        commands = await self._stored(self.store.load_commands(table.table_id, table.commands))
        for command in commands:
            self._apply(table, command)
        if commands:
            async with table.changed:
                table.changed.notify_all()
            self._arm_clock(table)
        return bool(commands)

    # --- replicas -----------------------------------------------------------------------

    def _on_command(self, table_id: str, number: int, command: CommandRecord | None) -> None:
        """The store's news of a command committed by any replica (this one included)."""
        if not table_id:  # the store may have missed news: catch up every table held here
            for table in list(self.tables.values()):
                self._spawn(self._follow(table, 0, None))
            return
        held = self.tables.get(table_id)
        if held is not None and number > held.commands:
            self._spawn(self._follow(held, number, command))

    async def _follow(self, table: Table, number: int, command: CommandRecord | None) -> None:
        async with table.lock:
            if number and number <= table.commands:
                return  # applied meanwhile (our own command, or an earlier catch-up)
            if command is not None and number == table.commands + 1:
                self._apply(table, command)  # carried by the news: no need to read it
                async with table.changed:
                    table.changed.notify_all()
                self._arm_clock(table)
                return
            try:
                await self._catch_up(table)
            except Refusal as refusal:  # the store is away; the next news or request retries
                log.warning("cannot follow table %s: %s", table.table_id, refusal)

    async def _sweep(self) -> None:
        """Fire the clocks of tables whose wake-up is overdue (their replica may be dead)."""
        while not self.closing:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                due = await self.store.due_tables(self.now() - SWEEP_GRACE)
                for table_id, wake_at in due:
                    table = await self.get_table(table_id, fresh=True)
                    if table.deadline() is None:
                        await self.store.clear_wake(table_id, wake_at)
                    elif table.clock is None:
                        self._arm_clock(table)
            except (Refusal, StoreError) as error:
                log.warning("clock sweep: %s", error)

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._timeouts.add(task)
        task.add_done_callback(self._timeouts.discard)

    def _apply(self, table: Table, command: CommandRecord, *, verified: bool = False) -> None:
        """Apply a stored command; deterministic, so replaying the log rebuilds the table.

        ``verified``: the action was checked against this very state a moment ago (under
        the table's lock, before it was stored), so the engine need not check it again."""
        table.commands = command.number
        p, at = command.payload, command.at
        if command.kind == "join":
            table.seats[p["seat"]] = SeatState(p["player_name"], p["token_hash"])
            table.seat_of_token.clear()
            self._emit(table, at, PlayerJoined(p["seat"], p["player_name"]))
        elif command.kind == "leave":
            table.seats[p["seat"]] = SeatState()
            table.seat_of_token.clear()
            self._emit(table, at, PlayerLeft(p["seat"]))
        elif command.kind == "start":
            table.status = PLAYING
            table.session = Session(
                table.rules,
                table.seat_count,
                seed="unused",  # every hand is dealt from its own committed seed
                hands=table.hands or None,
                first_dealer=table.test_dealer,  # C5: the deal moves on from a test dealer too
                record=True,
            )
            if "next_seed" in p:  # (older logs deal in a "deal" command of their own)
                self._deal_next(table, at, p["next_seed"])
        elif command.kind == "deal":
            self._deal(table, at, p)
        elif command.kind in ("action", "timeout"):
            hand = table.hand
            assert hand is not None
            action = Action.parse(p["action"])
            first = table.last_seq + 1
            if command.kind == "timeout":
                self._emit(table, at, TurnTimedOut(p["seat"], action))
            for event in hand.apply(p["seat"], action, verified=verified):
                self._emit(table, at, event)
            if hand.is_over:
                self._hand_over(table, at)
                if "next_seed" in p:
                    # The seed of the next hand travels with the move that may end this one,
                    # so that the move and the next deal are one durable command: the last
                    # move of a hand waits for one commit, not two. (Older logs without it
                    # are dealt by _deal_if_due.)
                    self._deal_next(table, at, p["next_seed"])
            if command.kind == "action":  # after _hand_over: a retry gets SessionEnded too
                table.answers[(p["seat"], p["request_id"])] = Answer(
                    fingerprint(action), first, table.last_seq
                )
        else:  # pragma: no cover - a store written by a newer referee
            raise EngineError(f"unknown command {command.kind!r}")

    def _deal(self, table: Table, at: float, p: dict[str, Any] | Any) -> None:
        session = table.session
        assert session is not None
        number = session.hands_played + (
            1 if session.current is not None and session.current.is_over else 0
        )
        test = p.get("test")
        if test is True or test == 0:
            hand = session.next_hand(
                deal=table.test_deal, draws=table.test_draws, dealer=table.test_dealer
            )
            seed = ""
        elif isinstance(test, int) and test > 0:
            deal, draws = table.test_hands[test - 1]
            hand = session.next_hand(deal=deal, draws=draws, dealer=session.dealer_of(number))
            seed = ""
        else:
            seed = p["seed"]
            hand = session.next_hand(seed=seed, dealer=session.dealer_of(number))
        table.hand_seeds.append(seed)
        events = hand.events or []
        started = events[0] if events else None
        assert isinstance(started, HandStarted)
        commitment = "" if not seed else "sha256:" + hashlib.sha256(seed.encode()).hexdigest()
        dealt = HandDealt(
            started.dealer,
            started.hand_sizes,
            started.leader,
            hand.deal,
            commitment,
            table.rules.hash,
        )
        self._emit(table, at, dealt)
        for event in events[1:]:
            self._emit(table, at, event)
        if hand.is_over:
            self._hand_over(table, at)

    def _hand_over(self, table: Table, at: float) -> None:
        hand = table.hand
        assert hand is not None and hand.outcome is not None
        table.finished_hands.append(hand)
        if table.log and isinstance(table.log[-1].event, HandOver):
            last = table.log.pop()
            table.log.append(
                TableEvent(
                    last.seq,
                    last.at,
                    last.hand_number,
                    HandEnded(hand.outcome, table.hand_seeds[-1]),
                    (),
                    None,
                )
            )
        session = table.session
        assert session is not None
        if session.is_over:
            result = session.finish()
            table.status = FINISHED
            self._emit(
                table,
                at,
                SessionEnded(
                    result.hands_played,
                    result.bhabhi_counts,
                    result.losers,
                    result.chips,
                    result.pot_left,
                ),
            )

    def _deal_next(self, table: Table, at: float, seed: str) -> None:
        if self._deal_due(table):
            self._deal(table, at, _next_deal(table, seed))

    async def _deal_if_due(self, table: Table) -> None:
        """Deal the next hand when the table is playing and no hand is in progress."""
        if self._deal_due(table):
            await self._commit(table, "deal", _next_deal(table, secrets.token_hex(32)))

    @staticmethod
    def _deal_due(table: Table) -> bool:
        session = table.session
        if table.status != PLAYING or session is None or session.is_over:
            return False
        return session.current is None or session.current.is_over

    def _emit(self, table: Table, at: float, event: Event) -> None:
        hand = table.hand
        to_act: tuple[int, ...] = ()
        if hand is not None:
            # Events are emitted after the command was applied, so they share the state:
            # compute who may act once per command, not once per event.
            key = (id(hand), len(hand.history), hand.phase)
            if self._to_act_key != key:
                self._to_act_key, self._to_act = key, hand.seats_to_act()
            to_act = self._to_act
        table.log.append(
            TableEvent(table.last_seq + 1, at, len(table.hand_seeds) - 1, event, to_act, None)
        )
        deadline = table.deadline()  # the clock this event starts, if the table has one
        if deadline is not None:
            table.log[-1] = table.log[-1]._replace(deadline=deadline)

    # --- turn clocks --------------------------------------------------------------------

    def _arm_clock(self, table: Table) -> None:
        if table.clock is not None:
            table.clock.cancel()
            table.clock = None
        deadline = table.deadline()
        if deadline is None or self.closing:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, deadline - self.now())
        seq = table.last_seq
        table.clock = loop.call_later(delay, self._fire, table, seq)

    def _fire(self, table: Table, seq: int) -> None:
        table.clock = None
        self._spawn(self._time_out(table, seq))

    async def _time_out(self, table: Table, seq: int) -> None:
        """The seat the game waits for ran out of time: play the ruleset's default action
        (the lowest legal card; a pickup when that is all it may do)."""
        async with table.lock:
            hand = table.hand
            if self.closing or hand is None or hand.is_over or table.last_seq != seq:
                return
            seat = hand.to_move
            assert seat is not None
            action = default_action(hand, seat)
            try:
                self._check_draws(table, hand, seat, action)
            except Refusal:
                return  # the test draws cannot follow this action; the seat must choose
            try:
                await self._commit(
                    table,
                    "timeout",
                    {"seat": seat, "action": str(action), "next_seed": secrets.token_hex(32)},
                )
            except ConflictError:  # another replica moved first (its clock, or a move)
                with contextlib.suppress(Refusal):  # if the store is away, news will come
                    await self._catch_up(table)
            except Refusal as refusal:  # the store is away: try again shortly
                log.warning("turn clock of table %s: %s", table.table_id, refusal)
                loop = asyncio.get_running_loop()
                table.clock = loop.call_later(SWEEP_EVERY, self._fire, table, seq)
                return
        self._arm_clock(table)


def _next_deal(table: Table, seed: str) -> dict[str, Any]:
    """The payload of the next deal: a test table's explicit hands first, then ``seed``."""
    number = len(table.hand_seeds)
    if number == 0 and table.test_deal is not None:
        return {"test": True}
    if 0 < number <= len(table.test_hands):
        return {"test": number}
    return {"seed": seed}


def default_action(hand: Hand, seat: int) -> Action:
    """The lowest legal card by strength (never taking a hand); else a pickup."""
    legal = [a for a in hand.legal_actions(seat) if a.kind is not ActionKind.TAKE_HAND]
    cards = [a for a in legal if a.kind is ActionKind.PLAY and a.card is not None]
    if cards:
        strength = hand.book.strength
        return min(cards, key=lambda a: (strength[a.card or 0], a.card or 0))
    return legal[0]


def _for_seat(item: TableEvent, seat: int | None) -> TableEvent:
    shown = item.event.visible_to(seat)
    if shown is item.event:
        return item
    return TableEvent(item.seq, item.at, item.hand_number, shown, item.to_act, item.deadline)


def _parse_action(kind: str, card: str) -> Action:
    if kind == "play":
        try:
            return Action.play(card)
        except CardSyntaxError as error:
            raise Refusal("bad_action", detail=str(error)) from error
    if kind == "pick_up":
        return Action(ActionKind.PICK_UP)
    if kind == "take_hand":
        return Action(ActionKind.TAKE_HAND)
    if not kind:
        raise Refusal("bad_action", detail="action.kind is not set")
    raise Refusal("bad_action", detail=f"unknown action kind {kind!r}")


def _allowed(rules: Ruleset) -> str:
    counts = [n for n in range(rules.players.min, rules.players.max + 1) if rules.players.allows(n)]
    return ", ".join(str(n) for n in counts)


__all__ = [
    "HandDealt",
    "HandEnded",
    "PlayerJoined",
    "PlayerLeft",
    "Referee",
    "Refusal",
    "SessionEnded",
    "Table",
    "TableEvent",
    "TurnTimedOut",
]
