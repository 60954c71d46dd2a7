"""The referee: every table of one process, over one store; the use cases the gRPC layer
calls, in a few lines each.

No protobuf here.  Each request is screened (credential, limits), checked against the
table's state by the engine, turned into a typed command, stored durably and only then
applied and acknowledged (``Ledger.commit``).  Decisions about the game are the engine's
(``Hand.judge``, ``Hand.default_action``); what is the referee's own is who may act for a
seat, in what order, how often, and what each seat may see.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import secrets
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import yaml

from referee.cards import CardSyntaxError, card_str
from referee.engine import Action, EngineError, Hand
from referee.engine.hand import SeatView
from referee.engine.record import export_hand
from referee.engine.types import Verdict
from referee.reasons import Reason
from referee.ruleset.model import Ruleset
from referee.server.errors import Refusal
from referee.server.limits import MAX_SEED, Limits
from referee.server.store import ConflictError, RulesetRecord, Store, TableRecord
from referee.server.table import access, names
from referee.server.table.analysis import Analyst
from referee.server.table.apply import deal_due, next_deal
from referee.server.table.clocks import TurnClocks
from referee.server.table.commands import Close, Join, Leave, Move, Resume, Start
from referee.server.table.events import HandDealt, TableEvent, for_seat
from referee.server.table.ledger import Ledger, stored_call
from referee.server.table.listing import Page, page_of
from referee.server.table.replicas import Follower
from referee.server.table.rulesets import HostedRuleset, Rulesets, players_refusal
from referee.server.table.seatbots import MAX_BOT_DELAY, STRATEGIES, SeatBots, bot_name
from referee.server.table.state import FINISHED, OPEN, PLAYING, Table, table_config
from referee.server.table.trial import try_on_copy
from referee.server.table.validation import RulesetChecker
from referee.server.table.waiting import SeatOffer, WaitingBots, checked_key
from referee.server.table.workers import Workers

KEEP_FINISHED = 600.0
"""Seconds a finished table stays in memory after its last event (then only in the store)."""

log = logging.getLogger("bhabhi.referee")


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
        self.keep_finished = keep_finished
        self.closing = False
        self.rulesets = Rulesets()
        self.ledger = Ledger(store, self.rulesets, clock, min_turn_time=self.limits.min_turn_time)
        # A conformance run (test mode) creates a table, and may register a ruleset, per case.
        lifted = dataclasses.replace(self.limits, tables_per_minute=0, uploads_per_minute=0)
        self.gate = access.Gate(lifted if test_mode else self.limits, monotonic)
        self.bot_workers = Workers(
            self.limits.bot_workers, self.limits.bot_queue, Reason.UNAVAILABLE
        )
        self.clocks = TurnClocks(
            self.ledger,
            clock,
            self._spawn,
            abandon_after_rounds=self.limits.abandon_after_rounds,
            bots=SeatBots(self.bot_workers, self.limits.bot_think),
        )
        self.follower = Follower(self.ledger, self.clocks, clock, self._spawn)
        self.checker = RulesetChecker(self.limits)
        self.analyst = Analyst(self.limits)
        self.waiting = WaitingBots()
        self.ledger.on_change.append(self.clocks.arm)
        self._tasks: set[asyncio.Task[None]] = set()
        self._housekeeper: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None

    @property
    def tables(self) -> dict[str, Table]:
        return self.ledger.tables

    @property
    def on_commit(self) -> list[Callable[[str], None]]:
        return self.ledger.on_commit

    # --- life cycle ---------------------------------------------------------------------

    async def start(self) -> None:
        """Open the store and rebuild every unfinished table from its commands (with a
        shared store: load tables when first used, and follow what other replicas
        append)."""
        await self.store.open()
        await self.ledger.load_rulesets()
        self._housekeeper = asyncio.ensure_future(self._housekeeping())
        if self.store.shared:
            self.store.listen(self.follower.on_command)
            self._sweeper = asyncio.ensure_future(self.follower.sweep())
            return
        # Finished sessions are not replayed (nor read): they are read back when asked for.
        for record in await self.store.load_tables(unfinished=True):
            try:
                table = self.ledger.rebuild(record.table_id, record.config, record.created_at)
            except Refusal as refusal:  # its registered ruleset no longer loads here
                log.warning("table %s is not served: %s", record.table_id, refusal)
                continue
            self.ledger.replay(table, await self.store.load_commands(table.table_id))
            self.tables[table.table_id] = table
            if table.status == FINISHED:  # stored before the store knew: it will next time
                await self.ledger.record_finish(table)
        await self._tidy(self.now())
        for table in list(self.tables.values()):
            async with table.lock:
                if deal_due(table):  # older logs deal in a command of their own
                    await self.ledger.commit(table, next_deal(table, secrets.token_hex(32)))
            self.clocks.arm(table)

    async def drain(self) -> None:
        """Refuse new actions and end every event stream (with ``unavailable``, so that a
        watcher resumes later or elsewhere) while the calls in progress finish."""
        self.closing = True
        self.follower.closing = True
        self.clocks.stop(list(self.tables.values()))  # a draining referee plays for nobody
        self.waiting.drain()
        for table in self.tables.values():
            async with table.changed:
                table.changed.notify_all()

    async def stop(self) -> None:
        await self.drain()
        for task in (self._sweeper, self._housekeeper):
            if task is not None:
                task.cancel()
        self.clocks.stop(list(self.tables.values()))
        self.checker.close()
        self.analyst.close()
        self.bot_workers.close()
        await self.store.close()

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- rulesets -----------------------------------------------------------------------

    async def ruleset(self, ruleset_id: str) -> HostedRuleset:
        """A hosted ruleset; with replicas, one registered on another replica too."""
        await self.ledger.load_rulesets_for(ruleset_id)
        return self.rulesets.get(ruleset_id)

    async def rulebook(
        self, ruleset_id: str, language: str, format: str
    ) -> tuple[HostedRuleset, str]:
        """A hosted ruleset's rulebook (see ``Rulesets.rulebook``); with replicas, of one
        registered on another replica too."""
        await self.ledger.load_rulesets_for(ruleset_id)
        # Off the event loop: the first book reads the conformance cases for its examples.
        return await asyncio.to_thread(self.rulesets.rulebook, ruleset_id, language, format)

    async def validate_ruleset(
        self, text: str, name: str, *, client: str = ""
    ) -> tuple[Ruleset | None, list[Any]]:
        """Check uploaded YAML off the event loop, within the limits' CPU budget; ``client``
        (the caller's address) is whom the limit on uploads counts against."""
        self.gate.throttle_upload(client)
        return await self.checker.check(text, name or "upload.yaml", self.rulesets.registered())

    async def analyze_ruleset(
        self,
        ruleset_id: str,
        players: list[int],
        hands: int,
        seed: str,
        *,
        skill: bool,
        confirm: bool,
        client: str = "",
    ) -> tuple[HostedRuleset, dict[str, Any]]:
        """``bhabhi analyze``'s document for a hosted ruleset, within the limits
        (``analysis``); ``client`` (the caller's address) may have one analysis at a time."""
        hosted = await self.ruleset(ruleset_id)
        asked = self.analyst.settle(
            hosted.rules, players, hands, seed, skill=skill, confirm=confirm
        )
        return hosted, await self.analyst.analyze(hosted.rules, asked, client=client)

    async def register_ruleset(self, text: str, *, client: str = "") -> HostedRuleset:
        if not self.allow_register:
            raise Refusal(Reason.REGISTER_NOT_ALLOWED)
        checked = await self.validate_ruleset(text, "upload.yaml", client=client)
        rules = self.rulesets.check_new(*checked)
        try:
            await stored_call(self.store.put_ruleset(RulesetRecord(rules.id, text, self.now())))
        except ConflictError as error:  # registered meanwhile, here or on another replica
            raise Refusal(Reason.RULESET_EXISTS, ruleset_id=rules.id) from error
        if self.rulesets.hosts(rules.id):  # registered here while this one was checked
            raise Refusal(Reason.RULESET_EXISTS, ruleset_id=rules.id)
        return self.rulesets.add(rules, text)

    # --- tables -------------------------------------------------------------------------

    async def get_table(self, table_id: str, *, fresh: bool = False) -> Table:
        return await self.ledger.get(table_id, fresh=fresh)

    async def list_tables(
        self,
        *,
        open_only: bool,
        ruleset_id: str = "",
        page_size: int = 0,
        page_token: str = "",
    ) -> Page:
        """One page of the tables: open ones first, oldest first; unless ``open_only``,
        then those in play, and the finished ones still held.  With a shared store, the
        open tables and those in play of every replica, loaded here to be listed."""
        if self.store.shared:
            records = []
            for wanted in [OPEN] if open_only else [OPEN, PLAYING]:
                records += await stored_call(self.store.load_tables(status=wanted))
            for record in records:
                if record.table_id not in self.tables:
                    try:
                        await self.get_table(record.table_id)
                    except Refusal:
                        continue  # its ruleset is unknown here; it cannot be served
        return page_of(
            list(self.tables.values()),
            open_only=open_only,
            ruleset_id=ruleset_id,
            page_size=page_size,
            page_token=page_token,
        )

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
        deal_seed: str = "",
        bots: dict[int, str] | None = None,
        bot_delay: float | None = None,
        client: str = "",
        token: str | None = None,
    ) -> Table:
        """A new open table; the limit on creating tables counts against ``client`` (the
        caller's address) and, when the call carries one, the seat credential ``token`` (a
        bot that moves between addresses keeps its credential).  ``deal_seed``: the
        session's hands are dealt from it (duplicate deals at several tables); no test mode
        is needed, since the table says publicly that it is seeded.  ``bots``: the seats
        the referee plays with its own bots (``seatbots``), taken at once; ``bot_delay``
        their pause before each move (None: 1 s)."""
        rules = (await self.ruleset(ruleset_id)).rules
        limits = self.limits
        most = limits.max_tables
        if most and sum(1 for t in self.tables.values() if t.status != FINISHED) >= most:
            raise Refusal(Reason.TOO_MANY_TABLES, limit=most)
        if not rules.players.allows(seat_count):
            raise players_refusal(rules, seat_count)
        if turn_time and not limits.min_turn_time <= turn_time <= limits.max_turn_time:
            raise Refusal(
                Reason.BAD_TABLE_SETTINGS,
                detail=f"turn_time must be 0 (no clock) or {limits.min_turn_time:g} to "
                f"{limits.max_turn_time:g} seconds, not {turn_time:g}",
            )
        if not 0 <= hands <= limits.max_hands:
            raise Refusal(
                Reason.BAD_TABLE_SETTINGS,
                detail=f"hands must be 0 (one session hand by hand) to {limits.max_hands}",
            )
        explicit = test_deal or test_draws or test_dealer is not None or test_hands
        if explicit and not self.test_mode:
            raise Refusal(Reason.TEST_MODE_REQUIRED)
        if explicit and not test_deal:
            raise Refusal(
                Reason.BAD_TABLE_SETTINGS,
                detail="test_draws, test_dealer and test_hands need test_deal",
            )
        if test_dealer is not None and not 0 <= test_dealer < seat_count:
            raise Refusal(
                Reason.BAD_TABLE_SETTINGS,
                detail=f"test_dealer must be a seat, 0 to {seat_count - 1}",
            )
        if len(deal_seed) > MAX_SEED:
            raise Refusal(
                Reason.BAD_TABLE_SETTINGS,
                detail=f"deal_seed must be at most {MAX_SEED} characters, not {len(deal_seed)}",
            )
        bots = bots or {}
        _check_bots(bots, seat_count)
        delay = 1.0 if bot_delay is None else bot_delay
        if not 0 <= delay <= MAX_BOT_DELAY:
            raise Refusal(
                Reason.BAD_TABLE_SETTINGS,
                detail=f"bot_delay must be 0 to {MAX_BOT_DELAY:g} seconds, not {delay:g}",
            )
        self.gate.throttle_create(client)
        if token:
            self.gate.throttle_create(f"credential:{access.token_hash(token)}")
        config = table_config(
            rules,
            seat_count,
            turn_time=turn_time,
            hands=hands,
            test_deal=test_deal,
            test_draws=test_draws,
            test_dealer=test_dealer,
            test_hands=test_hands,
            deal_seed=deal_seed,
            bots=bots,
            bot_delay=delay,
        )
        table_id = uuid.uuid4().hex[:16]
        table = self.ledger.rebuild(table_id, config, self.now())  # checks the cards
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
                raise Refusal(Reason.BAD_TABLE_SETTINGS, detail=str(error)) from error
        try:
            await stored_call(
                self.store.create_table(TableRecord(table_id, config, table.created_at))
            )
        except ConflictError as error:  # 64 random bits taken already: vanishingly rare
            raise Refusal(Reason.STORE_UNAVAILABLE, detail="table id taken; retry") from error
        self.tables[table_id] = table
        if bots:
            await self.ledger.locked(table, functools.partial(self._seat_bots, table))
        return table

    async def _seat_bots(self, table: Table) -> None:
        """Take the seats of the referee's bots, each under a credential nobody is given:
        the referee plays them through the turn clocks, never by credential."""
        for seat, strategy in sorted(table.bots.items()):
            if not table.seats[seat].taken:
                unknown = access.token_hash(secrets.token_urlsafe(24))
                await self.ledger.commit(table, Join(seat, bot_name(strategy), unknown))

    async def join(
        self, table_id: str, player_name: str, wanted: int | None
    ) -> tuple[Table, int, str]:
        table = await self.get_table(table_id)
        name = names.player_name(player_name)

        async def attempt() -> tuple[Table, int, str]:
            if table.status != OPEN:
                raise Refusal(Reason.TABLE_NOT_OPEN)
            seat = wanted
            if seat is None:
                free = [s for s, state in enumerate(table.seats) if not state.taken]
                if not free:
                    raise Refusal(Reason.TABLE_FULL)
                seat = free[0]
            elif not 0 <= seat < table.seat_count:
                raise Refusal(Reason.UNKNOWN_SEAT)
            elif table.seats[seat].taken:
                raise Refusal(Reason.SEAT_TAKEN, seat=seat)
            token = access.new_credential(table_id, seat)
            shown = name or f"Player {seat}"
            await self.ledger.commit(table, Join(seat, shown, access.token_hash(token)))
            return table, seat, token

        return await self.ledger.locked(table, attempt)

    async def leave(self, table_id: str, token: str | None) -> Table:
        table = await self.get_table(table_id)

        async def attempt() -> Table:
            seat = access.seat_of(table, token)
            if table.status != OPEN:
                raise Refusal(Reason.TABLE_NOT_OPEN)
            await self.ledger.commit(table, Leave(seat))
            return table

        return await self.ledger.locked(table, attempt)

    async def start_table(self, table_id: str, token: str | None) -> Table:
        table = await self.get_table(table_id)

        async def attempt() -> Table:
            access.seat_of(table, token)
            if table.status != OPEN:
                raise Refusal(Reason.TABLE_NOT_OPEN)
            free = sum(1 for s in table.seats if not s.taken)
            if free:
                raise Refusal(Reason.TABLE_NOT_FULL, free=free)
            # The first hand's seed travels with the start: starting and dealing are one
            # durable command, as a hand's last move and the next deal are.
            await self.ledger.commit(table, Start(secrets.token_hex(32)))
            return table

        await self.ledger.locked(table, attempt)
        self.clocks.arm(table)
        return table

    def seat_of(self, table: Table, token: str | None) -> int:
        return access.seat_of(table, token)

    def _screen(self, table: Table, token: str | None) -> int | None:
        """Refuse a stranger before looking at the request; the credential's seat.  With
        replicas a credential unknown here (None) may belong to a join made elsewhere: the
        check under the table's lock, after catching up, decides."""
        try:
            return access.seat_of(table, token)
        except Refusal as refusal:
            if refusal.reason is not Reason.BAD_CREDENTIAL or not self.store.shared:
                raise
        return None

    # --- play ---------------------------------------------------------------------------

    async def act(
        self,
        table_id: str,
        token: str | None,
        action: Action | Refusal,
        request_id: str,
        expected_seq: int,
    ) -> tuple[list[TableEvent], int, int]:
        """Apply one action of the credential's seat; returns (events, seat, last_seq).

        ``action`` a Refusal: the request named no action (``bad_action``, saying why),
        refused only after the credential, so that a bad request learns nothing about a
        table it may not play at."""
        table = await self.get_table(table_id)
        known = self._screen(table, token)
        if not request_id:
            raise Refusal(Reason.MISSING_REQUEST_ID)
        if known is not None:
            self.gate.throttle_action(table.table_id, known)
        if len(request_id) > MAX_REQUEST_ID:
            raise Refusal(
                Reason.BAD_ACTION, detail=f"request_id longer than {MAX_REQUEST_ID} characters"
            )
        if isinstance(action, Refusal):
            raise action

        async def attempt() -> tuple[list[TableEvent], int, int]:
            # Found again under the lock: after a catch-up (replicas) the seat a credential
            # stood for may have been given up and taken by someone else.
            return await self._move(
                table, access.seat_of(table, token), action, request_id, expected_seq
            )

        answer = await self.ledger.locked(table, attempt)
        self.clocks.arm(table)
        return answer

    async def _move(
        self, table: Table, seat: int, action: Action, request_id: str, expected_seq: int
    ) -> tuple[list[TableEvent], int, int]:
        """Check and commit one action of ``seat`` (under the table's lock): the one path of
        ``act`` and ``replay_test_actions``."""
        earlier = table.answers.get((seat, request_id))
        if earlier is not None:
            if earlier.fingerprint != str(action):
                raise Refusal(Reason.REQUEST_ID_REUSED)
            events = table.log[earlier.first_seq - 1 : earlier.last_seq]
            return events, seat, earlier.last_seq
        if self.closing:
            raise Refusal(Reason.UNAVAILABLE)
        hand = table.hand
        if table.status == FINISHED:
            raise Refusal(Reason.HAND_OVER)  # the last hand is over, and the session
        if table.status != PLAYING or hand is None:
            raise Refusal(Reason.TABLE_NOT_PLAYING)
        if table.played_by_referee(seat):
            # H27: whatever becomes of this action, the seat's player is back; stored
            # first, so that a stale or refused action still ends the referee's play
            await self.ledger.commit(table, Resume(seat))
        last = table.last_seq
        if expected_seq != last:
            raise Refusal(Reason.STALE_SEQ, last_seq=last, expected_seq=expected_seq)
        verified = _judge(hand, seat, action)
        try:
            try_on_copy(table, hand, seat, action)
        except EngineError as error:
            raise Refusal(Reason.BAD_TABLE_SETTINGS, detail=str(error)) from error
        move = Move(seat, action, request_id, secrets.token_hex(32))
        await self.ledger.commit(table, move, verified=verified)
        return table.log[last:], seat, table.last_seq  # the events of this move

    async def view(self, table_id: str, token: str | None) -> tuple[SeatView | None, int, Table]:
        table = await self.get_table(table_id, fresh=True)
        seat = access.seat_of(table, token) if token else None
        hand = _shown_hand(table)
        return (None if hand is None else hand.view(seat)), table.last_seq, table

    # --- test mode: a case's actions in one call ------------------------------------------

    async def replay_test_actions(
        self,
        table_id: str,
        token: str | None,
        actions: list[tuple[int, Action | Refusal]],
        expected_seq: int,
        after_seq: int,
    ) -> TestReplay:
        """Apply ``actions`` (seat, action) in order, each as that seat's ``act`` would, and
        after each one take every seat's events and view: a conformance run's whole case in
        one request.  Test mode only, and only at a table with a test deal, because the
        answer holds every seat's cards; the credential is any seat's of the table."""
        if not self.test_mode:
            raise Refusal(Reason.TEST_MODE_REQUIRED)
        table = await self.get_table(table_id, fresh=True)
        caller = access.seat_of(table, token)
        if table.test_deal is None:
            raise Refusal(Reason.TEST_MODE_REQUIRED)
        if len(actions) > MAX_TEST_ACTIONS:
            raise Refusal(
                Reason.BAD_REQUEST,
                type_name="ReplayTestActionsRequest",
                detail=f"more than {MAX_TEST_ACTIONS} actions",
            )
        if after_seq < 0 or after_seq > table.last_seq:
            raise Refusal(Reason.BAD_AFTER_SEQ, after_seq=after_seq, last_seq=table.last_seq)
        self.gate.throttle_action(table.table_id, caller)  # once a call: it is one request
        if expected_seq != table.last_seq:  # the whole call: a retry applies nothing
            raise Refusal(Reason.STALE_SEQ, last_seq=table.last_seq, expected_seq=expected_seq)
        replay = TestReplay(table, table.log[after_seq:], _every_view(table))
        expected = expected_seq
        for seat, action in actions:
            try:
                if not 0 <= seat < len(table.seats):
                    raise Refusal(Reason.UNKNOWN_SEAT, seat=seat)
                if isinstance(action, Refusal):
                    raise action
                request_id = uuid.uuid4().hex
                events, _, last = await self.ledger.locked(
                    table,
                    functools.partial(self._move, table, seat, action, request_id, expected),
                )
                self.clocks.arm(table)
                replay.steps.append(TestStep(events, None, _every_view(table), last))
            except Refusal as refusal:
                replay.steps.append(TestStep([], refusal, _every_view(table), table.last_seq))
            expected = table.last_seq
        return replay

    async def watch(
        self, table_id: str, token: str | None, after_seq: int, *, client: str = ""
    ) -> AsyncIterator[TableEvent]:
        """Every event after ``after_seq`` as the credential's seat (or a spectator) sees
        it, then each new one as it happens; the stream ends once the session is over and
        every event was sent.  ``client`` (the caller's address) is whom a spectator's
        streams count against."""
        table = await self.get_table(table_id, fresh=True)
        seat = access.seat_of(table, token) if token else None
        if after_seq < 0 or after_seq > table.last_seq:
            raise Refusal(Reason.BAD_AFTER_SEQ, after_seq=after_seq, last_seq=table.last_seq)
        with self.gate.stream(f"seat:{token}" if token else f"spectator:{client}"):
            table.watchers += 1
            try:
                position = after_seq
                while True:
                    while position < table.last_seq:
                        item = table.log[position]
                        position += 1
                        yield for_seat(item, seat)
                    if table.status == FINISHED:
                        return  # nothing will ever happen here again
                    if self.closing:
                        raise Refusal(Reason.UNAVAILABLE)
                    async with table.changed:
                        if position >= table.last_seq and not self.closing:
                            await table.changed.wait()
            finally:
                table.watchers -= 1

    # --- bots already connected ---------------------------------------------------------

    async def await_seats(self, key: str, *, client: str = "") -> AsyncIterator[SeatOffer | None]:
        """Wait under ``key`` for the seats handed to it (``waiting.WaitingBots.wait``);
        counted against ``client``'s address as a spectator's event stream is."""
        with self.gate.stream(f"spectator:{client}"):
            async for offer in self.waiting.wait(key):
                yield offer

    async def hand_seat(self, table_id: str, token: str | None, key: str) -> Table:
        """Hand the credential's seat to the bot waiting under ``key``."""
        checked_key(key)
        table = await self.get_table(table_id)

        async def attempt() -> int:
            seat = access.seat_of(table, token)
            if table.status == FINISHED:
                raise Refusal(Reason.TABLE_NOT_PLAYING)
            return seat

        seat = await self.ledger.locked(table, attempt)
        assert token is not None  # seat_of refused it otherwise
        name = table.seats[seat].player_name
        self.waiting.hand(key, SeatOffer(table_id, seat, token, table.rules.id, name))
        return table

    async def export(self, table_id: str, hand_number: int) -> str:
        table = await self.get_table(table_id, fresh=True)
        if not 0 <= hand_number < len(table.hand_seeds):
            raise Refusal(Reason.HAND_NOT_FOUND, hand_number=hand_number)
        if hand_number >= len(table.finished_hands):
            raise Refusal(Reason.HAND_NOT_OVER, hand_number=hand_number)
        hand = table.finished_hands[hand_number]
        registered = self.rulesets.get(table.rules.id).origin == "registered"
        dealt = next(
            item.event
            for item in table.log
            if item.hand_number == hand_number and isinstance(item.event, HandDealt)
        )
        assert isinstance(dealt, HandDealt)
        case = export_hand(
            hand,
            name=f"table {table.table_id} hand {hand_number}",
            description=f"Hand {hand_number} of table {table.table_id}, exported by the referee.",
            generated=True,
            # Only this referee knows a registered variant: the case carries it, to replay.
            ruleset_source=dict(table.rules.source) if registered else None,
            # The commitment the players were shown at the deal, to check against the seed.
            seed_commitment=dealt.seed_commitment or None,
        )
        return yaml.safe_dump(case, sort_keys=False, allow_unicode=True)

    # --- housekeeping -------------------------------------------------------------------

    async def _housekeeping(self) -> None:
        """Now and then: let go of finished tables nobody reads, and close open tables that
        nobody joined or left for a while."""
        settings = [s for s in (self.keep_finished, self.limits.open_table_seconds) if s > 0]
        every = min(60.0, max(0.05, min(settings, default=240.0) / 4))
        while not self.closing:
            await asyncio.sleep(every)
            await self._tidy(self.now())

    async def _tidy(self, now: float) -> None:
        """Close open tables idle for ``open_table_seconds`` (a stored command, so every
        replica agrees), and drop finished tables whose last event is ``keep_finished``
        seconds old.  A finished table never changes again, so a call still holding it (a
        watcher) reads the same as a fresh copy; a later request loads it from the store."""
        idle = self.limits.open_table_seconds
        for table_id, table in list(self.tables.items()):
            if self.closing:
                return
            if idle and table.status == OPEN and now - table.last_at >= idle:
                try:
                    await self.ledger.locked(table, functools.partial(self._close_idle, table, now))
                except Refusal as refusal:
                    log.warning("cannot close idle table %s: %s", table_id, refusal)
            last = max(table.last_at, table.last_read)  # let go of what nobody reads
            if table.status == FINISHED and now - last >= self.keep_finished:
                self.tables.pop(table_id, None)
                self.gate.forget_table(table)
                self.waiting.forget_table(table_id, table.seat_count)

    async def _close_idle(self, table: Table, now: float) -> None:
        if table.status == OPEN and now - table.last_at >= self.limits.open_table_seconds:
            await self.ledger.commit(table, Close("idle"))


MAX_REQUEST_ID = 128
"""The longest request_id accepted (characters)."""


MAX_TEST_ACTIONS = 1000
"""Actions in one ``ReplayTestActions`` call (its answer holds every seat's view after each)."""


def _check_bots(bots: dict[int, str], seat_count: int) -> None:
    """Refuse bots in seats a table has not, of a strategy the referee has not, or in
    every seat: a table of bots alone would play for nobody, on the referee's CPU."""
    for seat, strategy in bots.items():
        if not 0 <= seat < seat_count:
            raise Refusal(
                Reason.BAD_TABLE_SETTINGS,
                detail=f"a bot's seat must be 0 to {seat_count - 1}, not {seat}",
            )
        if strategy not in STRATEGIES:
            raise Refusal(
                Reason.BAD_TABLE_SETTINGS,
                detail=f"a bot plays {', '.join(STRATEGIES)}, not {strategy or 'unspecified'}",
            )
    if len(bots) >= seat_count:
        raise Refusal(Reason.BAD_TABLE_SETTINGS, detail="at least one seat is for a person")


@dataclasses.dataclass
class TestStep:
    """One action of a test replay: the events it caused (none when refused), the refusal,
    every seat's view after it (hand number, view; None between hands), and the last seq."""

    events: list[TableEvent]
    refusal: Refusal | None
    views: tuple[int, list[SeatView | None]]
    last_seq: int


@dataclasses.dataclass
class TestReplay:
    """The answer of ``replay_test_actions``: the table, the events before the first action
    (``history``), every seat's view then, and one ``TestStep`` per action."""

    table: Table
    history: list[TableEvent]
    views: tuple[int, list[SeatView | None]]
    steps: list[TestStep] = dataclasses.field(default_factory=list)


def _shown_hand(table: Table) -> Hand | None:
    """The hand a view shows: the one in play, else the last one finished."""
    hand = table.hand
    if hand is None and table.finished_hands:
        hand = table.finished_hands[-1]
    return hand


def _every_view(table: Table) -> tuple[int, list[SeatView | None]]:
    """(hand number, every seat's view) as each seat's ``view`` would answer now."""
    hand = _shown_hand(table)
    views = [None if hand is None else hand.view(seat) for seat in range(len(table.seats))]
    return len(table.hand_seeds) - 1, views


def parse_play(card: str) -> Action:
    """A play action from the card's text; a refusal naming the text if it is no card."""
    try:
        return Action.play(card)
    except CardSyntaxError as error:
        raise Refusal(Reason.BAD_ACTION, detail=str(error)) from error


def _judge(hand: Hand, seat: int, action: Action) -> bool:
    """Refuse an action the rules do not allow; True if it is legal as it stands, False if
    it is an illegal play the rules punish (C12) rather than refuse."""
    judgement = hand.judge(seat, action)
    if judgement.verdict is Verdict.LEGAL:
        return True
    if judgement.verdict is Verdict.PENALISED:
        return False
    assert judgement.reason is not None
    led, forced = judgement.led_suit, judgement.forced_lead
    raise Refusal(
        judgement.reason,
        detail=judgement.message,
        legal_actions=[str(a) for a in judgement.legal_actions],
        turn=judgement.to_move,
        card="" if action.card is None else card_str(action.card),
        suit="" if led is None else "CDHS"[led],
        required="" if forced is None else card_str(forced),
    )
