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
time left is printed once and not animated, and once more when it runs low.

Before a trick in which the person may take a hand (B9), the prompt asks whether to, and
the bots wait for the answer (``TakeWindow``): a bot's lead would otherwise close the
chance before a person has read the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from bhabhi.referee.v1 import referee_pb2 as pb

from bhabhi_client.bots import TakeWindow, run_bot, take_target
from bhabhi_client.cards import Card, CardSyntaxError, format_action, parse_action
from bhabhi_client.client import Client, SeatHandle, StreamItem, event_kind
from bhabhi_client.errors import RefereeError
from bhabhi_client.rules import RulesProfile
from bhabhi_client.transcript import Narrator, Style, printable

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
  rules       the whole rulebook of this table's rules, from the referee
  rules short the ruleset and its key options
  ?, help     this text                  q     quit
Legal cards are shown in [brackets]; your own seat is marked ▶.
Before a trick in which you may take your neighbour's hand, the game asks: type t to
take it, or press Enter to let the leader lead.  The bots wait for your answer (on a
table with a turn clock, until the leader's time runs out: the referee then leads for it).
After each hand the Bhabhi counts so far are shown (and the chips, where the rules have them).
q on a referee this program started ends the game; on another one (--target) the table
goes on, and the command that takes you back to your seat is printed."""


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
    take_offer: bool = False,
) -> str:
    """The clock of the seat the game waits for, at ``now`` (on the referee's clock, like
    the absolute ``deadline``); empty when there is no clock.  The person's own turn is
    bold, and under ten seconds loud enough to be seen without colour.

    ``take_offer``: the person is asked whether to take a hand before ``seat`` (named
    ``name``) leads; the clock is the leader's, and so the time the person has to answer."""
    style = style or Style()
    if deadline is None or seat < 0:
        return ""
    left = deadline - now
    if take_offer:
        who = name or f"Seat {seat}"
        if left <= 0:
            return style.paint(f"Clock: time is up; the referee leads for {who}.", "bold", "red")
        then = f"then the referee leads for {who}"
        if math.ceil(left) < URGENT_SECONDS:
            return style.paint(
                f"Clock: HURRY, only {format_time_left(left)} left to decide; {then}!",
                "bold",
                "red",
            )
        return style.paint(f"Clock: {format_time_left(left)} left to decide; {then}.", "bold")
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
    warned: float | None = None
    """The deadline whose clock was last shown running low for the person's answer."""


class TerminalGame:
    """The screen and the input loop of one seat."""

    def __init__(
        self,
        handle: SeatHandle,
        rules: RulesProfile,
        options: GameOptions,
        *,
        table: pb.Table | None = None,
        window: TakeWindow | None = None,
        remote: str | None = None,
    ) -> None:
        """``window``: the bots' take window, told what the person answers and sees;
        ``remote``: the referee's address when it runs elsewhere (None: in this process,
        so the game ends with the program)."""
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
        self.offer = False
        """The view shown asks whether to take a hand before another seat leads (B9)."""
        self.prompted = -1
        self.window = window
        self.remote = remote
        self.bot_tokens: list[str] = []
        """The credentials of the seats this program's bots play, to hand them back."""
        self.queue: asyncio.Queue[_Input] = asyncio.Queue()
        self.rulebook: str | None = None
        """The rulebook's text, once fetched (a table's ruleset does not change)."""

    # --- output -------------------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        if self.prompt_open:  # what arrives while the prompt waits goes below it
            print(file=self.out)
            self.prompt_open = False
        self.clock.live = False
        print(text, file=self.out, flush=True)

    def _prompt(self, now: float | None = None) -> None:
        self._show_clock(now)
        text = self._take_question() if self.offer else "Your move> "
        print(self.style.paint(text, "bold"), end="", file=self.out, flush=True)
        self.prompt_open = True

    def _take_question(self) -> str:
        """``t to take Asha's hand of 3 cards, Enter to let Bilal lead> ``"""
        view = self.view
        if view is None:
            return "Your move> "
        leader = self.narrator.name(view.turn)
        if not _may_take(view):  # another house rule's optional action (a challenge, H25)
            words = " or ".join(_decisions(view))
            return f"{words}, or Enter to let {leader} go on> "
        return f"t to take {self._take_note(view)}, Enter to let {leader} lead> "

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
            take_offer=self.offer and clock.seat != self.handle.seat,
        )

    def _show_clock(self, now: float | None = None) -> None:
        text = self.clock_text(now)
        if text:
            self.say(text)
            self.clock.live, self.clock.drawn = True, text
            if self._answer_is_urgent(now):
                self.clock.warned = self.clock.deadline

    def _answer_is_urgent(self, now: float | None = None) -> bool:
        """The game waits for the person (a move or a take) and under ten seconds are left."""
        clock = self.clock
        if clock.deadline is None or clock.seat < 0 or not self._prompting:
            return False
        left = clock.deadline - ((time.time() if now is None else now) + clock.offset)
        return left > 0 and math.ceil(left) < URGENT_SECONDS

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
        if clock.live and self.animate:
            text = self.clock_text(local)
            if text != clock.drawn:
                # Save the cursor, go up to the clock line, rewrite it, come back: the
                # prompt and whatever the player has typed after it stay as they are.
                self.out.write(f"\0337\033[1A\r{text}\033[K\0338")
                self.out.flush()
                clock.drawn = text
            return
        if self._prompting:
            # Off a terminal, or with lines printed below the prompt, the clock line is
            # not kept current: say once more, with the prompt, when the time runs low.
            if clock.warned != clock.deadline and self._answer_is_urgent(local):
                self._prompt(local)
            return
        if clock.live:
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
        """The table as the player sees it: every seat in play order from the player's own
        (marked ▶), the trick, the hand, what is legal."""
        s, n = self.style, self.narrator
        lines = [
            s.paint(
                f"── hand {view.hand_number + 1} · trick {view.trick_number + 1} · "
                f"{printable(self.rules.title_in(self.options.language))} "
                f"· waste {view.waste_size} ──",
                "dim",
            )
        ]
        seat = view.seat
        for step in range(view.players):
            other = (seat + step * self.rules.step) % view.players
            label = f"{n.name(other)} (seat {other})"
            if view.out[other]:
                status = s.paint("safe", "green")
            else:
                count = view.hand_sizes[other]
                status = (
                    f"{count:2d} card{'s' if count != 1 else ''}"
                    if count >= 0
                    else " ? cards"  # H29: the ruleset hides the others' hand sizes
                )
                known = list(view.known_cards[other].cards) if other < len(view.known_cards) else []
                if known:
                    status += f"   known: {s.cards(known)}"
            marker = "▶" if other == seat else " "
            lines.append(f"{marker} {label:<22} {status}")
        if view.trick:
            played = " · ".join(f"{n.name(p.seat)} {s.card(p.card)}" for p in view.trick)
            lines.append(f"Trick (led {s.suit(view.led_suit)}): {played}")
        elif view.turn == seat and view.leader == seat:
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
        if _may_take(view):
            may.append(f"take {self._take_note(view)} (t)")
        may.extend(self._decision_notes(view))
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

    def _decision_notes(self, view: pb.SeatView) -> list[str]:
        """The house rules' decisions as typed, a named take with whose hand it is (H23):
        ``take 3 (Chen's hand of 4 cards)``, ``pass``, ``agree``."""
        notes = []
        for typed, action in zip(_decisions(view), _decision_actions(view), strict=True):
            if action.kind == pb.ACTION_KIND_TAKE_HAND and 0 <= action.seat < len(view.hand_sizes):
                count = view.hand_sizes[action.seat]
                whose = f"{self.narrator.name(action.seat)}'s hand of {count} card"
                typed += f" ({whose}{'s' if count != 1 else ''})"
            notes.append(typed)
        return notes

    def _take_note(self, view: pb.SeatView) -> str:
        """Whose hand a take would take: ``Asha's hand of 3 cards``."""
        target = take_target(list(view.out), view.seat, self.rules.take_step)
        if target < 0:
            return "a hand"
        count = view.hand_sizes[target]
        if count < 0:  # H29: hand sizes hidden
            return f"{self.narrator.name(target)}'s hand"
        return f"{self.narrator.name(target)}'s hand of {count} card{'s' if count != 1 else ''}"

    # --- the loop -------------------------------------------------------------------------------

    async def run(self, stdin: TextIO | None = None, *, after_seq: int = 0) -> int:
        """Play until the session is over (0) or the player quits (0); 1 if the referee fails.

        ``after_seq``: narrate the events after it only (taking a seat back mid-session)."""
        loop = asyncio.get_running_loop()

        def put(item: _Input) -> None:
            if isinstance(item, _Line):
                self.clock.live = False  # the Enter moved the cursor off the prompt line
            # The game may have ended (its loop closed) while the reader waited for a line.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self.queue.put_nowait, item)

        self.stdin = stdin or sys.stdin
        _start_reader(self.stdin, put)
        self.latest = after_seq
        events = asyncio.create_task(self._pump(after_seq))
        ticker = asyncio.create_task(self._ticker()) if self.turn_time > 0 else None
        clocked = f"; {self.turn_time:g} s for each move" if self.turn_time else ""
        self.say(
            f"{printable(self.rules.title_in(self.options.language))}: you are seat "
            f"{self.handle.seat}{clocked}. Type ? for help."
        )
        try:
            while True:
                item = await self.queue.get()
                if isinstance(item, _StreamEnd):
                    if item.error is not None:
                        self.say(f"The game cannot go on: {printable(str(item.error))}")
                        return 1
                    return 0
                if isinstance(item, _Eof):
                    if self.options.auto:
                        continue
                    self.say("(end of input)")
                    self.leave()
                    return 0
                if isinstance(item, _Line):
                    self.prompt_open = self.clock.live = False  # its Enter ended the line
                    if not await self.command(item.text):
                        return 0
                    continue
                await self.show(item)
        finally:
            if self.window is not None:
                self.window.close()  # nobody is left to wait for
            events.cancel()
            if ticker is not None:
                ticker.cancel()

    def leave(self) -> None:
        """Say what becomes of the table when the person leaves it."""
        for line in leaving_lines(
            self.handle, self.remote, clocked=self.turn_time > 0, bot_tokens=self.bot_tokens
        ):
            self.say(line)

    def bot_ended(self, task: asyncio.Task[Any]) -> None:
        """A bot's task ended: the game cannot go on if it failed."""
        if not task.cancelled() and task.exception() is not None:
            self.queue.put_nowait(_StreamEnd(task.exception()))

    async def _pump(self, after_seq: int) -> None:
        try:
            async for item in self.handle.events(after_seq):
                if self.window is not None:
                    self.window.moved(item.seq)  # a bot waiting on an older view looks again
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
        self.waiting = self.offer = False
        if isinstance(item, pb.Snapshot):
            to_act = list(item.view.to_act) if item.HasField("view") else []
        else:
            to_act = list(item.to_act)
        self._learn_clock(item, to_act)
        kind = event_kind(item) if isinstance(item, pb.Event) else ""
        if kind == "session_over":
            return
        if isinstance(item, pb.Event) and kind == "hand_over":
            await self.show_score(item.hand_number + 1)
        if self.handle.seat in to_act:
            await self.look()
        if self.clock.deadline is not None and self.clock.seat < 0:
            await self._find_clock_seat()

    async def look(self, *, again: bool = False) -> None:
        """Fetch the view; show it and prompt when it waits for this seat (its turn, or a
        take before another seat leads) and nothing newer is still to be narrated (the view
        would be ahead of the log).  ``again``: show the table whatever it waits for."""
        response = await self.handle.view()
        if response.HasField("view") and self.clock.deadline is not None and self.clock.seat < 0:
            self.clock.seat = response.view.turn
        if not response.HasField("view") or (response.seq > self.latest and not again):
            return
        self.view, self.seq = response.view, response.seq
        view = response.view
        self.waiting = view.seat in view.to_act
        self.offer = self.waiting and view.turn != view.seat and bool(view.legal_actions)
        if not self._prompting:
            if again:
                for line in self.render(view):
                    self.say(line)
                self._show_clock()
            return
        if response.seq <= self.prompted and not again:
            return
        self.prompted = response.seq
        if again or not self.offer:  # the question before a trick is one line
            for line in self.render(view):
                self.say(line)
        self._prompt()
        if self.options.auto:
            choice = "" if self.offer else _first_legal(view)
            if choice or self.offer:
                self.prompt_open = False  # the answer goes after the prompt, as if typed
                self.say(choice)
                await self.command(choice)

    async def command(self, text: str) -> bool:
        """Handle one line; False to quit."""
        word = text.strip()
        lower = word.lower()
        if lower in ("q", "quit", "exit"):
            self.leave()
            return False
        if lower == "" and self.offer:
            self.let_lead()
            return True
        if lower in ("?", "h", "help"):
            self.say(HELP)
        elif lower == "rules":
            await self.show_rulebook()
        elif lower.split() in (["rules", "short"], ["rules", "s"]):
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
        if self._prompting:
            self._prompt()  # the table still waits for this seat
        return True

    @property
    def _prompting(self) -> bool:
        """The view shown waits for the person: a move, or whether to take a hand."""
        if not self.waiting or self.view is None:
            return False
        return self.offer or self.view.turn == self.view.seat

    def let_lead(self) -> None:
        """Enter at the question before a trick: no take; the bots may go on."""
        self.offer = False
        if self.window is not None:
            self.window.let_pass(self.handle.seat, self.seq)

    async def show_score(self, played: int) -> None:
        """After ``played`` hands: the Bhabhi counts so far (the table's), unless the
        session is over (its result follows)."""
        try:
            table = await self.handle.client.get_table(self.handle.table_id)
        except RefereeError as error:
            self.say(f"(no score: {printable(str(error))})")
            return
        if table.status == pb.TABLE_STATUS_FINISHED:
            return
        # Under H28 the pot depends on the cards each Bhabhi kept, which the table's counts
        # do not tell: the session's result (SessionOver) gives the chips at the end.
        chips = 0 if self.rules.chips_by_card_points else self.rules.session_chips
        score = self.narrator.score_lines(
            table, played, chips=chips, session_hands=self.rules.session_hands
        )
        for line in score:
            self.log.append(line)
            self.say(line)

    async def show_rulebook(self) -> None:
        """The rulebook the referee writes for this table's ruleset (GetRulebook), in the
        player's language; where it cannot (an older referee), the short summary."""
        if self.rulebook is None:
            client, language = self.handle.client, self.options.language
            try:
                try:
                    book = await client.get_rulebook(self.rules.id, language)
                except RefereeError as error:
                    if error.reason != "bad_rulebook_request" or language == "en":
                        raise
                    self.say(f"(no rulebook in {printable(language)} here: in English)")
                    book = await client.get_rulebook(self.rules.id, "en")
            except RefereeError as error:
                self.say(f"(no rulebook from the referee: {printable(str(error))})")
                self.show_rules()
                return
            self.rulebook = book.text
        for line in self.rulebook.splitlines():
            self.say(printable(line))
        self.say(self.style.paint("(rules short: the key options only)", "dim"))

    def show_rules(self) -> None:
        language = self.options.language
        title = printable(f"{self.rules.title_in(language)} ({self.rules.id})")
        self.say(self.style.paint(title, "bold"))
        for line in self.rules.description_in(language).splitlines():
            self.say(printable(line))
        for line in self.rules.summary_lines():
            self.say(f"  • {printable(line)}")

    async def act(self, text: str) -> None:
        try:
            action = parse_action(text)
        except CardSyntaxError as error:
            self.say(self.style.paint(str(error), "yellow"))
            if self._prompting:
                self._prompt()
            return
        if not self.waiting:
            self.say(self.style.paint("It is not your turn: wait for the table.", "yellow"))
            return
        try:  # decided on the view shown: if the table moved on since, the referee says so
            await self.handle.act(action, expected_seq=self.seq)
        except RefereeError as error:
            refusal = printable(error.localized(self.options.language))
            self.say(self.style.paint(f"Refused: {refusal}", "yellow"))
            if error.legal_actions:
                legal = ", ".join(self.style.card(a) for a in error.legal_actions)
                self.say(f"Legal now: {legal}")
            if error.reason == "stale_seq" or error.transient:
                await self.look(again=True)
            else:
                self._prompt()


def leaving_lines(
    handle: SeatHandle, remote: str | None, *, clocked: bool, bot_tokens: Sequence[str] = ()
) -> list[str]:
    """What becomes of the table when the person leaves: on a referee this program runs
    (``remote`` None) the game ends with it; on another one the table goes on, and the
    seats' credentials take them back (``bhabhi play --token``) or give the person's seat to
    a bot (``bhabhi bot --token``)."""
    if remote is None:
        return ["You leave the game. Its referee ran inside this program, so the game ends here."]
    table = printable(handle.table_id)
    where = f"--target {printable(remote)} --table {table}"
    bots = "".join(f" --bot-token {printable(token)}" for token in bot_tokens)
    token = printable(handle.token)
    return [
        f"You leave the game; table {table} goes on at {printable(remote)} without you"
        + (" and without this program's bots." if bot_tokens else "."),
        "Its turn clock plays for the empty seats when their time runs out."
        if clocked
        else "It has no turn clock: it waits until somebody plays those seats again.",
        f"To sit down again: bhabhi play {where} --token {token}{bots}",
        f"To let a bot play your seat: bhabhi bot {where} --token {token}",
    ]


def _failure(tasks: Sequence[asyncio.Task[Any]]) -> BaseException | None:
    for task in tasks:
        if task.done() and not task.cancelled() and task.exception() is not None:
            return task.exception()
    return None


def _may_take(view: pb.SeatView) -> bool:
    """The rules' own take (B9) is open: the one a bare ``t`` makes."""
    return any(
        a.kind == pb.ACTION_KIND_TAKE_HAND and not a.HasField("seat") for a in view.legal_actions
    )


def _decisions(view: pb.SeatView) -> list[str]:
    """The house rules' other legal actions, as typed: ``pass``, ``challenge``, ``take 3``."""
    return [format_action(a).replace(":", " ") for a in _decision_actions(view)]


def _decision_actions(view: pb.SeatView) -> list[pb.Action]:
    return [
        a
        for a in view.legal_actions
        if a.kind not in (pb.ACTION_KIND_PLAY, pb.ACTION_KIND_PICK_UP)
        and not (a.kind == pb.ACTION_KIND_TAKE_HAND and not a.HasField("seat"))
    ]


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
    think: float | None = None,
    stdin: TextIO | None = None,
    turn_time: float = 0.0,
    remote: str | None = None,
    token: str | None = None,
    bot_tokens: Sequence[str] = (),
) -> int:
    """Create (or join) a table, fill the free seats with bots, deal, and play.

    ``turn_time``: seconds for each move at a table created here (0: no clock).
    ``remote``: the referee's address when this program does not run it (what the person
    is told on leaving).  ``token`` takes the person's seat at ``table_id`` back, and
    ``bot_tokens`` the seats the bots of an earlier game there played.  ``think``: the
    strong bots' seconds a move."""
    if table_id is None:
        table = await client.create_table(rules_id, players, hands=hands, turn_time=turn_time)
        table_id = table.table_id
    if token:
        handle = await client.resume(table_id, token, name)
    else:
        handle = await client.join(table_id, name, seat)
    table = await client.get_table(table_id)
    free = [s.seat for s in table.seats if not s.taken]
    seats: list[tuple[int | None, str | None]] = [(s, None) for s in free]
    seats += [(None, bot_token) for bot_token in bot_tokens]
    window = TakeWindow([handle.seat])
    bot_handles: list[SeatHandle] = []
    joined = asyncio.Event()

    def on_join(bot: SeatHandle) -> None:
        bot_handles.append(bot)
        if len(bot_handles) == len(seats):
            joined.set()

    tasks = [
        asyncio.create_task(
            run_bot(
                client,
                table_id,
                BOT_NAMES[i % len(BOT_NAMES)],
                bots,
                seat=bot_seat,
                token=bot_token,
                auto_start=False,
                delay=bot_delay,
                on_join=on_join,
                hold=window.hold,
                think=think,
            )
        )
        for i, (bot_seat, bot_token) in enumerate(seats)
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
        game = TerminalGame(handle, rules, options, table=table, window=window, remote=remote)
        game.bot_tokens = [bot.token for bot in bot_handles]
        for task in tasks:  # a bot that fails would leave the game waiting for it for ever
            task.add_done_callback(game.bot_ended)
        # Back at a table mid-session: from its latest event, which carries the turn clock.
        after = max(0, table.last_seq - 1) if token else 0
        return await game.run(stdin, after_seq=after)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
