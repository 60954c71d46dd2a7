"""``bhabhi play``: one person against bots, in plain lines on a terminal.

Plain ``print`` and ``readline`` rather than curses, so it works the same in tmux, over
ssh, and with a script piped into it.  Two things arrive at any time: the table's events
and the player's lines.  Both go into one queue, read by one loop, so nothing on the screen
interleaves mid-line and every action is decided on the view the player was shown
(``expected_seq`` is that view's seq; a table that moved on meanwhile gets a fresh look
rather than a move meant for another position).

On a clocked table the line above the prompt is the turn clock.  Input is a blocking
``readline`` whose echo the terminal owns, so the prompt line is never touched: on a
terminal a task rewrites the clock line in place (save the cursor, one line up, rewrite,
restore) for as long as nothing else was printed below it.  Elsewhere (a pipe, a file) the
time left is printed once and not animated.
"""

from __future__ import annotations

import asyncio
import math
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from bhabhi.referee.v1 import referee_pb2 as pb

from bhabhi_client.bots import run_bot, take_target
from bhabhi_client.cards import Card, CardSyntaxError, format_action, parse_action
from bhabhi_client.client import Client, SeatHandle, StreamItem, event_kind
from bhabhi_client.errors import RefereeError
from bhabhi_client.rules import RulesProfile
from bhabhi_client.transcript import Narrator, Style

URGENT_SECONDS = 10
"""Under this many seconds left, the person's own clock turns urgent."""
WAIT_GRACE = 2.0
"""Seconds of waiting for another seat before its clock is shown (a bot is quicker)."""

BOT_NAMES = ("Asha", "Bilal", "Chen", "Dara", "Emil", "Farah", "Gita", "Hugo", "Ines")

HELP = """\
Type a card to play it: 7h, 10S, qd (rank then suit; ♣♦♥♠ work too).
  p, pickup   pick up the trick (when you cannot follow and the rules say so)
  t, take     take your neighbour's whole hand (when the rules allow it)
  v, view     show the table again        log   the last events again
  rules       the ruleset and its key options
  ?, help     this text                  q     quit (the table stays)
Legal cards are shown in [brackets]."""


@dataclass
class _Line:
    text: str


@dataclass
class _Eof:
    pass


@dataclass
class _StreamEnd:
    error: BaseException | None = None


_Input = StreamItem | _Line | _Eof | _StreamEnd


@dataclass
class GameOptions:
    language: str = "en"
    auto: bool = False
    """Answer every turn with the first legal card (a pickup or take when there is none):
    how the tests drive a whole hand through the real input path."""
    out: TextIO = field(default_factory=lambda: sys.stdout)
    style: Style | None = None
    animate: bool | None = None
    """Redraw the turn clock in place once a second; None: when ``out`` is a terminal."""


# --- the turn clock ---------------------------------------------------------------------------


def format_time_left(left: float) -> str:
    """``27 s`` or ``1:05``, rounded up: ``0 s`` only once the time is up."""
    seconds = max(0, math.ceil(left))
    return f"{seconds // 60}:{seconds % 60:02d}" if seconds >= 60 else f"{seconds} s"


def clock_line(
    deadline: float | None,
    now: float,
    *,
    seat: int,
    me: int,
    name: str = "",
    style: Style | None = None,
) -> str:
    """The clock of the seat the game waits for, at ``now`` (on the referee's clock, like
    the absolute ``deadline``); empty when there is no clock.  The person's own turn is
    bold, and under ten seconds loud enough to be seen without colour."""
    style = style or Style()
    if deadline is None or seat < 0:
        return ""
    left = deadline - now
    if seat == me:
        if left <= 0:
            return style.paint("Clock: your time is up; the referee plays for you.", "bold", "red")
        if math.ceil(left) < URGENT_SECONDS:
            return style.paint(
                f"Clock: HURRY, only {format_time_left(left)} left for your move!", "bold", "red"
            )
        return style.paint(f"Clock: {format_time_left(left)} left for your move.", "bold")
    who = name or f"Seat {seat}"
    if left <= 0:
        return style.paint(f"Clock: {who}'s time is up.", "dim")
    return style.paint(f"Clock: {who} has {format_time_left(left)} left to play.", "dim")


def timed_out_line(event: pb.Event, narrator: Narrator, style: Style | None = None) -> str:
    """The log line of a ``turn_timed_out`` event: whose time ran out, what was played."""
    style = style or Style()
    e = event.turn_timed_out
    who = "you" if e.seat == narrator.me else narrator.name(e.seat)
    if e.action.kind == pb.ACTION_KIND_PLAY:
        what = f"played {style.card(e.action.card)}"
    elif e.action.kind == pb.ACTION_KIND_PICK_UP:
        what = "picked up the trick"
    else:
        what = f"played {format_action(e.action)}"
    return style.paint(f"Out of time: the referee {what} for {who}.", "bold", "yellow")


@dataclass
class _Clock:
    """What the game knows of the turn clock, from the latest event."""

    deadline: float | None = None
    """Absolute, in unix seconds on the referee's clock; None when no clock runs."""
    seat: int = -1
    """The seat the game waits for; -1 while unknown."""
    offset: float = 0.0
    """The referee's clock minus ours (from ``turn_deadline - time_left`` on arrival)."""
    since: float = 0.0
    """When (our clock) this deadline was learned."""
    live: bool = False
    """The clock line is the line just above the cursor, so it may be redrawn there."""
    drawn: str = ""
    announced: float | None = None
    """The deadline whose clock was last printed for another seat."""


class TerminalGame:
    """The screen and the input loop of one seat."""

    def __init__(
        self,
        handle: SeatHandle,
        rules: RulesProfile,
        options: GameOptions,
        *,
        table: pb.Table | None = None,
    ) -> None:
        self.handle = handle
        self.rules = rules
        self.options = options
        self.out = options.out
        self.style = options.style or Style.for_stream(options.out)
        isatty = getattr(options.out, "isatty", None)
        self.animate = options.animate if options.animate is not None else bool(isatty and isatty())
        self.turn_time = table.turn_time.ToNanoseconds() / 1e9 if table is not None else 0.0
        self.clock = _Clock()
        self.prompt_open = False
        """The prompt was printed and no line ended it yet."""
        self.stdin: TextIO | None = None
        self.narrator = Narrator(me=handle.seat, style=self.style, sort_key=rules.sort_key)
        if table is not None:
            self.narrator.learn(table)
        self.log: deque[str] = deque(maxlen=40)
        self.view: pb.SeatView | None = None
        self.seq = 0
        self.latest = 0
        """The seq of the latest event shown."""
        self.waiting = False
        """True while the view shown is the table's latest and it waits for this seat."""
        self.prompted = -1
        self.hint_seq = -1
        self.queue: asyncio.Queue[_Input] = asyncio.Queue()

    # --- output -------------------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        if self.prompt_open:  # what arrives while the prompt waits goes below it
            print(file=self.out)
            self.prompt_open = False
        self.clock.live = False
        print(text, file=self.out, flush=True)

    def _prompt(self) -> None:
        self._show_clock()
        print(self.style.paint("Your move> ", "bold"), end="", file=self.out, flush=True)
        self.prompt_open = True

    # --- the turn clock -------------------------------------------------------------------------

    def clock_text(self, now: float | None = None) -> str:
        """The clock line at ``now`` (our clock; default: now); empty without a clock."""
        clock = self.clock
        local = time.time() if now is None else now
        return clock_line(
            clock.deadline,
            local + clock.offset,
            seat=clock.seat,
            me=self.handle.seat,
            name=self.narrator.name(clock.seat) if clock.seat >= 0 else "",
            style=self.style,
        )

    def _show_clock(self, now: float | None = None) -> None:
        text = self.clock_text(now)
        if text:
            self.say(text)
            self.clock.live, self.clock.drawn = True, text

    def _learn_clock(self, item: StreamItem, to_act: Sequence[int]) -> None:
        """The deadline an event carries, and (when one seat may act) whose it is."""
        clock = self.clock
        if isinstance(item, pb.Snapshot) or not item.HasField("turn_deadline"):
            clock.deadline, clock.seat = None, -1
            return
        deadline = item.turn_deadline.ToNanoseconds() / 1e9
        if deadline != clock.deadline:  # one command's events share their deadline
            clock.deadline, clock.seat, clock.since = deadline, -1, time.time()
        if len(to_act) == 1:
            clock.seat = to_act[0]

    async def _find_clock_seat(self) -> None:
        """Before a trick several seats may act (a take); the clock is the leader's, which
        only the view says."""
        try:
            response = await self.handle.view()
        except RefereeError:
            return  # no clock line this turn rather than no game
        if response.HasField("view") and self.clock.seat < 0:
            self.clock.seat = response.view.turn

    def tick(self, now: float | None = None) -> None:
        """Keep the clock on screen current: on a terminal redraw the live clock line when
        its text changes; print another seat's clock once when it keeps the game waiting."""
        clock = self.clock
        if clock.deadline is None:
            return
        local = time.time() if now is None else now
        if clock.live:
            text = self.clock_text(local)
            if self.animate and text != clock.drawn:
                # Save the cursor, go up to the clock line, rewrite it, come back: the
                # prompt and whatever the player has typed after it stay as they are.
                self.out.write(f"\0337\033[1A\r{text}\033[K\0338")
                self.out.flush()
                clock.drawn = text
            return
        waited = local - clock.since
        others = clock.seat >= 0 and clock.seat != self.handle.seat
        if others and clock.announced != clock.deadline and waited >= WAIT_GRACE:
            clock.announced = clock.deadline
            self._show_clock(local)

    def _tick_delay(self) -> float:
        """Until the seconds shown change (a little after), at most a quarter second."""
        if self.clock.deadline is None:
            return 0.25
        left = self.clock.deadline - (time.time() + self.clock.offset)
        return min(0.25, left % 1.0 + 0.01) if left > 0 else 0.25

    async def _ticker(self) -> None:
        while True:
            await asyncio.sleep(self._tick_delay())
            self.tick()

    def render(self, view: pb.SeatView) -> list[str]:
        """The table as the player sees it: the others, the trick, the hand, what is legal."""
        s, n = self.style, self.narrator
        lines = [
            s.paint(
                f"── hand {view.hand_number + 1} · trick {view.trick_number + 1} · "
                f"{self.rules.title_in(self.options.language)} "
                f"· waste {view.waste_size} ──",
                "dim",
            )
        ]
        seat = view.seat
        for step in range(1, view.players):
            other = (seat + step * self.rules.step) % view.players
            label = f"{n.name(other)} (seat {other})"
            if view.out[other]:
                status = s.paint("safe", "green")
            else:
                count = view.hand_sizes[other]
                status = f"{count:2d} card{'s' if count != 1 else ''}"
                known = list(view.known_cards[other].cards) if other < len(view.known_cards) else []
                if known:
                    status += f"   known: {s.cards(known)}"
            lines.append(f"  {label:<22} {status}")
        if view.trick:
            played = " · ".join(f"{n.name(p.seat)} {s.card(p.card)}" for p in view.trick)
            lines.append(f"Trick (led {s.suit(view.led_suit)}): {played}")
        elif view.turn == seat:
            lines.append("You lead this trick.")
        if view.trump:
            lines.append(f"Trumps: {s.suit(view.trump)}")
        legal_cards = {a.card for a in view.legal_actions if a.kind == pb.ACTION_KIND_PLAY}
        lines.append(f"Your hand ({len(view.hand)}): {self._hand_line(view.hand, legal_cards)}")
        may = []
        if legal_cards and view.turn == seat:
            may.append("play a [card]")
        if any(a.kind == pb.ACTION_KIND_PICK_UP for a in view.legal_actions):
            may.append("pick up (p)")
        if any(a.kind == pb.ACTION_KIND_TAKE_HAND for a in view.legal_actions):
            may.append(f"take {self._take_note(view)} (t)")
        if may:
            lines.append(f"You may {', or '.join(may)}.")
        return lines

    def _hand_line(self, hand: Sequence[str], legal: set[str]) -> str:
        """Held as a person holds cards: by suit, weakest first, legal ones in brackets."""
        groups: dict[str, list[str]] = {}
        for card in sorted(hand, key=self.rules.sort_key):
            groups.setdefault(Card.parse(card).suit, []).append(card)
        parts = []
        for suit in "CDHS":
            if suit in groups:
                shown = " ".join(self._rank(card, card in legal) for card in groups[suit])
                parts.append(f"{self.style.suit(suit)} {shown}")
        return "   ".join(parts) or "(no cards)"

    def _rank(self, card: str, legal: bool) -> str:
        parsed = Card.parse(card)
        text = parsed.rank + (f"/{parsed.pack}" if parsed.pack > 1 else "")
        colours = ("red",) if parsed.red else ()
        if legal:
            return self.style.paint(f"[{text}]", "bold", *colours)
        return self.style.paint(text, *colours)

    def _take_note(self, view: pb.SeatView) -> str:
        """Whose hand a take would take: ``Asha's 3 cards``."""
        target = take_target(list(view.out), view.seat, self.rules.take_step)
        if target < 0:
            return "a hand"
        count = view.hand_sizes[target]
        return f"{self.narrator.name(target)}'s {count} card{'s' if count != 1 else ''}"

    def _worth_a_hint(self, view: pb.SeatView) -> bool:
        """Out of turn, a take is worth pointing out only when the neighbour is nearly out."""
        if not any(a.kind == pb.ACTION_KIND_TAKE_HAND for a in view.legal_actions):
            return False
        target = take_target(list(view.out), view.seat, self.rules.take_step)
        return target >= 0 and view.hand_sizes[target] <= 2

    # --- the loop -------------------------------------------------------------------------------

    async def run(self, stdin: TextIO | None = None) -> int:
        """Play until the session is over (0) or the player quits (0); 1 if the referee fails."""
        loop = asyncio.get_running_loop()

        def put(item: _Input) -> None:
            if isinstance(item, _Line):
                self.clock.live = False  # the Enter moved the cursor off the prompt line
            loop.call_soon_threadsafe(self.queue.put_nowait, item)

        self.stdin = stdin or sys.stdin
        _start_reader(self.stdin, put)
        events = asyncio.create_task(self._pump())
        ticker = asyncio.create_task(self._ticker()) if self.turn_time > 0 else None
        clocked = f"; {self.turn_time:g} s for each move" if self.turn_time else ""
        self.say(
            f"{self.rules.title_in(self.options.language)}: you are seat {self.handle.seat}"
            f"{clocked}. Type ? for help."
        )
        try:
            while True:
                item = await self.queue.get()
                if isinstance(item, _StreamEnd):
                    if item.error is not None:
                        self.say(f"The game cannot go on: {item.error}")
                        return 1
                    return 0
                if isinstance(item, _Eof):
                    if self.options.auto:
                        continue
                    self.say("(end of input: leaving the game)")
                    return 0
                if isinstance(item, _Line):
                    self.prompt_open = self.clock.live = False  # its Enter ended the line
                    if not await self.command(item.text):
                        return 0
                    continue
                await self.show(item)
        finally:
            events.cancel()
            if ticker is not None:
                ticker.cancel()

    def bot_ended(self, task: asyncio.Task[Any]) -> None:
        """A bot's task ended: the game cannot go on if it failed."""
        if not task.cancelled() and task.exception() is not None:
            self.queue.put_nowait(_StreamEnd(task.exception()))

    async def _pump(self) -> None:
        try:
            async for item in self.handle.events():
                if isinstance(item, pb.Event) and item.HasField("time_left"):
                    # The deadline is on the referee's clock; the time left when sent tells
                    # how far ours is from it (network latency aside).
                    sent = item.turn_deadline.ToNanoseconds() - item.time_left.ToNanoseconds()
                    self.clock.offset = sent / 1e9 - time.time()
                self.queue.put_nowait(item)
        except RefereeError as error:
            self.queue.put_nowait(_StreamEnd(error))
            return
        self.queue.put_nowait(_StreamEnd())

    async def show(self, item: StreamItem) -> None:
        """Narrate one event; when the table waits for this seat, show it and prompt."""
        if isinstance(item, pb.Event) and event_kind(item) == "turn_timed_out":
            lines = [timed_out_line(item, self.narrator, self.style)]
            if item.turn_timed_out.seat == self.handle.seat and self.stdin is not None:
                _discard_typed(self.stdin)  # half a move for a position that is gone
        else:
            lines = self.narrator.describe(item)
        for line in lines:
            self.log.append(line)
            self.say(line)
        self.latest = item.seq
        self.waiting = False
        if isinstance(item, pb.Snapshot):
            to_act = list(item.view.to_act) if item.HasField("view") else []
        else:
            to_act = list(item.to_act)
        self._learn_clock(item, to_act)
        if isinstance(item, pb.Event) and event_kind(item) == "session_over":
            return
        if self.handle.seat in to_act:
            await self.look()
        if self.clock.deadline is not None and self.clock.seat < 0:
            await self._find_clock_seat()

    async def look(self, *, again: bool = False) -> None:
        """Fetch the view; show it and prompt when it is this seat's turn and nothing newer
        is still to be narrated (the view would be ahead of the log)."""
        response = await self.handle.view()
        if response.HasField("view") and self.clock.deadline is not None and self.clock.seat < 0:
            self.clock.seat = response.view.turn
        if not response.HasField("view") or (response.seq > self.latest and not again):
            return
        self.view, self.seq = response.view, response.seq
        view = response.view
        self.waiting = view.seat in view.to_act
        if view.turn != view.seat:
            if not again and response.seq > self.hint_seq and self._worth_a_hint(view):
                self.hint_seq = response.seq
                note = f"(you may take {self._take_note(view)} now: type t)"
                self.say(self.style.paint(note, "cyan"))
            elif again:
                for line in self.render(view):
                    self.say(line)
                self._show_clock()
            return
        if response.seq <= self.prompted and not again:
            return
        self.prompted = response.seq
        for line in self.render(view):
            self.say(line)
        self._prompt()
        if self.options.auto:
            choice = _first_legal(view)
            if choice:
                self.prompt_open = False  # the answer goes after the prompt, as if typed
                self.say(choice)
                await self.command(choice)

    async def command(self, text: str) -> bool:
        """Handle one line; False to quit."""
        word = text.strip()
        lower = word.lower()
        if lower in ("q", "quit", "exit"):
            self.say(f"Leaving; the table {self.handle.table_id} goes on without you.")
            return False
        if lower in ("?", "h", "help"):
            self.say(HELP)
        elif lower == "rules":
            self.show_rules()
        elif lower == "log":
            for line in self.log:
                self.say(line)
        elif lower in ("", "v", "view"):
            await self.look(again=True)
            return True
        else:
            await self.act(word)
            return True
        if self._my_turn:
            self._prompt()  # the table still waits for this seat
        return True

    @property
    def _my_turn(self) -> bool:
        return self.waiting and self.view is not None and self.view.turn == self.view.seat

    def show_rules(self) -> None:
        language = self.options.language
        self.say(self.style.paint(f"{self.rules.title_in(language)} ({self.rules.id})", "bold"))
        description = self.rules.description_in(language)
        if description:
            self.say(description)
        for line in self.rules.summary_lines():
            self.say(f"  • {line}")

    async def act(self, text: str) -> None:
        try:
            action = parse_action(text)
        except CardSyntaxError as error:
            self.say(self.style.paint(str(error), "yellow"))
            if self._my_turn:
                self._prompt()
            return
        if not self.waiting:
            self.say(self.style.paint("It is not your turn: wait for the table.", "yellow"))
            return
        try:  # decided on the view shown: if the table moved on since, the referee says so
            await self.handle.act(action, expected_seq=self.seq)
        except RefereeError as error:
            self.say(
                self.style.paint(f"Refused: {error.localized(self.options.language)}", "yellow")
            )
            if error.legal_actions:
                legal = ", ".join(self.style.card(a) for a in error.legal_actions)
                self.say(f"Legal now: {legal}")
            if error.reason == "stale_seq" or error.transient:
                await self.look(again=True)
            else:
                self._prompt()


def _failure(tasks: Sequence[asyncio.Task[Any]]) -> BaseException | None:
    for task in tasks:
        if task.done() and not task.cancelled() and task.exception() is not None:
            return task.exception()
    return None


def _first_legal(view: pb.SeatView) -> str:
    cards = [a.card for a in view.legal_actions if a.kind == pb.ACTION_KIND_PLAY]
    if cards:
        return cards[0]
    for action in view.legal_actions:
        if action.kind == pb.ACTION_KIND_PICK_UP:
            return "pickup"
    return format_action(view.legal_actions[0]) if view.legal_actions else ""


def _discard_typed(stream: TextIO) -> None:
    """Drop what was typed on a terminal but not yet entered, so that it cannot join the
    next line typed (``9`` left over, then ``h``, would play the 9 of hearts)."""
    try:
        import termios
    except ImportError:  # not on this platform
        return
    try:
        if stream.isatty():
            termios.tcflush(stream.fileno(), termios.TCIFLUSH)
    except (OSError, ValueError, termios.error):
        pass


def _start_reader(stream: TextIO, put: Callable[[_Input], object]) -> None:
    """Read lines on a daemon thread: a blocked ``readline`` must never keep the program
    alive after the game ends, and a file, a pipe and a terminal all work the same way."""

    def read() -> None:
        try:
            for line in stream:
                put(_Line(line.rstrip("\n")))
        except (OSError, ValueError):
            pass
        put(_Eof())

    threading.Thread(target=read, name="stdin", daemon=True).start()


async def play_game(
    client: Client,
    *,
    rules_id: str,
    players: int,
    table_id: str | None,
    name: str,
    seat: int | None,
    hands: int,
    bots: str,
    bot_delay: float,
    options: GameOptions,
    stdin: TextIO | None = None,
    turn_time: float = 0.0,
) -> int:
    """Create (or join) a table, fill the free seats with bots, deal, and play.

    ``turn_time``: seconds for each move at a table created here (0: no clock)."""
    if table_id is None:
        table = await client.create_table(rules_id, players, hands=hands, turn_time=turn_time)
        table_id = table.table_id
    handle = await client.join(table_id, name, seat)
    table = await client.get_table(table_id)
    free = [s.seat for s in table.seats if not s.taken]
    joined = asyncio.Event()
    count = 0

    def on_join(_: SeatHandle) -> None:
        nonlocal count
        count += 1
        if count == len(free):
            joined.set()

    tasks = [
        asyncio.create_task(
            run_bot(
                client,
                table_id,
                BOT_NAMES[i % len(BOT_NAMES)],
                bots,
                seat=s,
                auto_start=False,
                delay=bot_delay,
                on_join=on_join,
            )
        )
        for i, s in enumerate(free)
    ]
    try:
        if tasks:  # wait until every bot sits, or one of them failed to
            waiter = asyncio.create_task(joined.wait())
            await asyncio.wait([waiter, *tasks], return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
            failed = _failure(tasks)
            if failed is not None:
                raise failed
        table = await client.get_table(table_id)
        if table.status == pb.TABLE_STATUS_OPEN:
            table = await handle.start()
        rules = RulesProfile.from_yaml((await client.get_ruleset(table.ruleset.id)).yaml)
        game = TerminalGame(handle, rules, options, table=table)
        for task in tasks:  # a bot that fails would leave the game waiting for it for ever
            task.add_done_callback(game.bot_ended)
        return await game.run(stdin)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
