"""Events as sentences, cards with suit symbols and (where wanted) colour.

The terminal game's log, ``bhabhi demo-hand``'s transcript and a bot's ``--verbose``
output are the same sentences, so they are written once here.  Colour follows the usual
conventions: only on a terminal, never when ``NO_COLOR`` is set to anything non-empty.

Text that comes from a referee (players' names, refusals, a ruleset's title, anything a
newer referee may send) goes through ``printable`` before it reaches the screen: a name
holding a newline or an escape sequence could otherwise forge lines of the game or drive
the terminal.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TextIO

from bhabhi.referee.v1 import referee_pb2 as pb

from bhabhi_client.cards import SUIT_SYMBOLS, Card, CardSyntaxError
from bhabhi_client.client import StreamItem, event_kind

_RESET = "\033[0m"
_CODES = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "cyan": "36"}

TERMINATIONS = {
    pb.TERMINATION_LAST_PLAYER: "the last player holding cards",
    pb.TERMINATION_ALL_OUT: "the last players went out together",
    pb.TERMINATION_TWO_LEFT_PICKUP: "a pickup with two players left",
    pb.TERMINATION_MAX_TRICKS: "the limit on the number of tricks",
    pb.TERMINATION_DEAD_POSITION: "a position no play could end",
    pb.TERMINATION_SHOOTOUT: "a shootout: the other of the last two could not follow",
    pb.TERMINATION_TWO_LEFT_TOCHOO: "a tochoo with two players left",
}


def printable(text: str) -> str:
    """``text`` with every character a terminal would not simply show (newlines, escape,
    other C0 and C1 controls, DEL, bidi overrides, zero-width characters) written as its
    Python escape (``\\n``, ``\\x1b``, ``\\u202e``), so that it shows on one line and only
    as text.  Spaces of every width (Unicode's Zs: the no-break space between the thousands
    of a Polish "1 000", the narrow one of French) are shown as they are: they move no cursor
    and hide nothing."""
    if text.isprintable():
        return text
    return "".join(c if _shows(c) else c.encode("unicode_escape").decode() for c in text)


def _shows(character: str) -> bool:
    return character.isprintable() or unicodedata.category(character) == "Zs"


@dataclass(frozen=True, slots=True)
class Style:
    """ANSI styling, or none at all."""

    colour: bool = False

    @classmethod
    def for_stream(cls, stream: TextIO) -> Style:
        if os.environ.get("NO_COLOR"):
            return cls(False)
        isatty = getattr(stream, "isatty", None)
        return cls(bool(isatty and isatty()))

    def paint(self, text: str, *styles: str) -> str:
        if not self.colour or not styles:
            return text
        codes = ";".join(_CODES[s] for s in styles)
        return f"\033[{codes}m{text}{_RESET}"

    def card(self, text: str, *styles: str) -> str:
        """``10H`` as a red ``10♥`` (black suits stay in the terminal's colour)."""
        try:
            card = Card.parse(text)
        except CardSyntaxError:
            return printable(text)
        return self.paint(card.symbol, *(("red", *styles) if card.red else styles))

    def cards(self, texts: Iterable[str]) -> str:
        return " ".join(self.card(t) for t in texts)

    def suit(self, letter: str) -> str:
        symbol = SUIT_SYMBOLS.get(letter) or printable(letter)
        return self.paint(symbol, "red") if letter in "DH" and letter else symbol


@dataclass
class Narrator:
    """Turns a table's events into sentences, knowing the players' names and who "you" is."""

    names: dict[int, str] = field(default_factory=dict)
    me: int | None = None
    style: Style = field(default_factory=Style)
    sort_key: Callable[[str], Any] | None = None
    """How to order a dealt hand (``RulesProfile.sort_key``); as dealt when None."""

    def name(self, seat: int) -> str:
        """``You``, the player's name as it may be shown, or ``Seat 3``."""
        if seat == self.me:
            return "You"
        return printable(self.names.get(seat) or f"Seat {seat}")

    def learn(self, table: pb.Table) -> None:
        """Take the players' names from a table message."""
        for seat in table.seats:
            if seat.taken and seat.player_name:
                self.names[seat.seat] = seat.player_name

    def score_lines(
        self,
        table: pb.Table,
        played: int,
        *,
        chips: int = 0,
        session_hands: int | None = None,
    ) -> list[str]:
        """The running score after ``played`` hands, from the table's seats: each seat's
        Bhabhi count so far and, where each Bhabhi puts ``chips`` in the pot (C15), what is
        in it.  ``session_hands``: the ruleset's length of a session, for a table that sets
        none (the table's next hand may be dealt already, so its count is not used)."""
        self.learn(table)
        counts = {seat.seat: seat.bhabhi_count for seat in table.seats}
        hands = table.hands or session_hands
        after = f"after hand {played} of {hands}" if hands else f"after hand {played}"
        shown = " · ".join(f"{self.name(seat)} {count}" for seat, count in sorted(counts.items()))
        lines = [self.style.paint(f"Bhabhi so far, {after}: {shown}.", "bold")]
        if chips:
            paid = ", ".join(f"{self.name(s)} {n * chips}" for s, n in sorted(counts.items()) if n)
            pot = sum(counts.values()) * chips
            lines.append(
                f"Chips in the pot: {pot}{f' (paid by {paid})' if paid else ''}; whoever was "
                "the Bhabhi the fewest times takes it at the end."
            )
        return lines

    def _says(self, seat: int, you: str, other: str) -> str:
        """``You lead`` / ``Asha leads``: the verb agrees with who does it."""
        return f"{self.name(seat)} {you if seat == self.me else other}"

    def describe(self, item: StreamItem) -> list[str]:
        """Sentences for one stream item; empty for what a reader need not see."""
        if isinstance(item, pb.Snapshot):
            self.learn(item.table)
            return [f"(caught up with the table at event {item.seq})"]
        kind = event_kind(item)
        handler = getattr(self, f"_{kind}", None)
        return list(handler(item)) if handler is not None else []

    # --- one method per event kind ------------------------------------------------------------

    def _player_joined(self, event: pb.Event) -> list[str]:
        e = event.player_joined
        if e.player_name:
            self.names[e.seat] = e.player_name
        return [f"{self._says(e.seat, 'sit', 'sits')} down at seat {e.seat}."]

    def _player_left(self, event: pb.Event) -> list[str]:
        return [f"{self._says(event.player_left.seat, 'leave', 'leaves')} the table."]

    def _hand_started(self, event: pb.Event) -> list[str]:
        e = event.hand_started
        s = self.style
        sizes = ", ".join(f"{self.name(seat)} {n}" for seat, n in enumerate(e.hand_sizes))
        lines = [
            s.paint(f"— Hand {event.hand_number + 1} —", "bold"),
            f"{self._says(e.dealer, 'deal', 'deals')} ({sizes} cards); "
            f"{self._says(e.leader, 'lead', 'leads')} first.",
        ]
        if e.your_cards:
            held = sorted(e.your_cards, key=self.sort_key) if self.sort_key else e.your_cards
            lines.append(f"Your cards: {s.cards(held)}")
        return lines

    def _card_played(self, event: pb.Event) -> list[str]:
        e = event.card_played
        card = self.style.card(e.card)
        if e.role == "lead":
            return [f"{self._says(e.seat, 'lead', 'leads')} {card}."]
        if e.role == "tochoo":
            return [
                self.style.paint(
                    f"{self.name(e.seat)} cannot follow: tochoo with {card}!",
                    "yellow",
                )
            ]
        if e.role == "discard":
            return [f"{self._says(e.seat, 'discard', 'discards')} {card}."]
        if e.role == "trump":
            return [f"{self._says(e.seat, 'trump', 'trumps')} with {card}."]
        return [f"{self._says(e.seat, 'play', 'plays')} {card}."]

    def _trick_ended(self, event: pb.Event) -> list[str]:
        e = event.trick_ended
        if e.next_leader < 0:
            return []
        return [f"{self._says(e.next_leader, 'lead', 'leads')} next."]

    def _trick_to_waste(self, event: pb.Event) -> list[str]:
        count = len(event.trick_to_waste.cards)
        return [self.style.paint(f"The trick ({count} cards) goes to the waste pile.", "dim")]

    def _picked_up(self, event: pb.Event) -> list[str]:
        e = event.picked_up
        what = self.style.cards(e.cards) if e.cards else "nothing"
        extra = f" and {e.from_waste} face-down cards of the waste pile" if e.from_waste else ""
        why = " as a penalty" if e.penalty else ""
        verb = self._says(e.seat, "pick", "picks")
        return [self.style.paint(f"{verb} up {what}{extra}{why}.", "yellow")]

    def _waste_drawn(self, event: pb.Event) -> list[str]:
        e = event.waste_drawn
        card = f" ({self.style.card(e.card)})" if e.card else ""
        return [
            f"{self.name(e.seat)} cannot escape with the power: a card from the waste pile{card}."
        ]

    def _card_drawn(self, event: pb.Event) -> list[str]:
        e = event.card_drawn
        card = f" ({self.style.card(e.card)})" if e.card else ""
        whose = "your" if e.from_seat == self.me else f"{self.name(e.from_seat)}'s"
        return [
            f"{self.name(e.seat)} cannot escape with the power: a card from {whose} hand{card}."
        ]

    def _hand_taken(self, event: pb.Event) -> list[str]:
        e = event.hand_taken
        cards = f": {self.style.cards(e.cards)}" if e.cards else ""
        whose = "your" if e.seat == self.me else f"{self.name(e.seat)}'s"
        verb = self._says(e.taker, "take", "takes")
        return [self.style.paint(f"{verb} {whose} hand ({e.count} cards){cards}!", "cyan")]

    def _take_requested(self, event: pb.Event) -> list[str]:
        e = event.take_requested
        whose = "your" if e.seat == self.me else f"{self.name(e.seat)}'s"
        verb = self._says(e.taker, "ask", "asks")
        question = ": agree or refuse?" if e.seat == self.me else "."
        return [self.style.paint(f"{verb} for {whose} hand{question}", "cyan")]

    def _take_answered(self, event: pb.Event) -> list[str]:
        e = event.take_answered
        answer = ("agree", "agrees") if e.agreed else ("refuse", "refuses")
        return [f"{self._says(e.seat, *answer)}."]

    def _take_passed(self, event: pb.Event) -> list[str]:
        e = event.take_passed
        return [self.style.paint(f"{self._says(e.seat, 'pass', 'passes')}: no take.", "dim")]

    def _player_out(self, event: pb.Event) -> list[str]:
        e = event.player_out
        how = {
            "emptied": "out of cards",
            "hand_taken": "their hand was taken",
            "waste_empty": "nothing left to draw",
            "two_left_pickup": "the other must pick up",
            "drawn_from": "their last card was drawn",
            "shootout": "the other could not follow",
            "two_left_tochoo": "their tochoo with two left",
        }.get(e.how, printable(e.how))
        if e.seat == self.me:
            how = how.replace("their", "your")
        return [self.style.paint(f"{self._says(e.seat, 'are', 'is')} safe ({how}).", "green")]

    def _trump_fixed(self, event: pb.Event) -> list[str]:
        e = event.trump_fixed
        return [f"Trumps are {self.style.suit(e.suit)} from now on."]

    def _illegal_play_penalised(self, event: pb.Event) -> list[str]:
        e = event.illegal_play_penalised
        card = self.style.card(e.card)
        return [
            f"{self.name(e.seat)} did not follow suit with {card}: it goes back, "
            "and the trick is picked up as a penalty."
        ]

    def _hand_over(self, event: pb.Event) -> list[str]:
        result = event.hand_over.result
        how = TERMINATIONS.get(result.termination, "")
        if result.losing_team:
            team = " and ".join(self.name(s) for s in result.losing_team)
            line = f"Hand over: {team} lose as a team"
        elif result.HasField("bhabhi"):
            who = self.name(result.bhabhi)
            line = f"Hand over: {who} {'are' if result.bhabhi == self.me else 'is'} the Bhabhi"
        else:
            line = "Hand over: no Bhabhi this time"
        return [self.style.paint(f"{line} ({how}).", "bold")]

    def _turn_timed_out(self, event: pb.Event) -> list[str]:
        e = event.turn_timed_out
        action = e.action.card or ("pickup" if e.action.kind == pb.ACTION_KIND_PICK_UP else "take")
        return [
            f"{self.name(e.seat)} ran out of time; the referee played {self.style.card(action)}."
        ]

    def _session_over(self, event: pb.Event) -> list[str]:
        e = event.session_over
        counts = ", ".join(f"{self.name(s)} {n}" for s, n in enumerate(e.bhabhi_counts))
        lines = [self.style.paint(f"Session over after {e.hands_played} hand(s).", "bold")]
        lines.append(f"Times the Bhabhi: {counts}.")
        if e.losers:
            lines.append(f"Session loser: {' and '.join(self.name(s) for s in e.losers)}.")
        if any(e.chips):
            chips = ", ".join(f"{self.name(s)} {n:+d}" for s, n in enumerate(e.chips))
            lines.append(f"Chips: {chips}.")
        return lines
