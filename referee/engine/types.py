"""The engine's value types: actions, events, outcomes, errors.

Everything here is frozen: an event, once it happened, never changes, and the hand's
append-only list of them is what the referee streams and what a recorded game replays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from referee.cards import MAX_CARD_ID, Card, CardSyntaxError, card_str, parse_card
from referee.reasons import Reason as Reason  # the engine's refusals are the referee's


class ActionKind(StrEnum):
    PLAY = "play"
    """Lead or follow with a card (C7), discard (D1) or play a tochoo (B4)."""
    PICK_UP = "pick_up"
    """P1: unable to follow, play no card and pick up the trick."""
    TAKE_HAND = "take_hand"
    """B9: take a player's whole hand before a trick (``seat`` names whose, where the
    ruleset lets the taker choose: H23)."""
    PASS = "pass"
    """H22: let the take pass go on without taking a hand."""
    CHALLENGE = "challenge"
    """H25: call the last tochoo false (its player held the led suit)."""
    AGREE = "agree"
    """H20: the player whose hand is asked for lets it be taken."""
    REFUSE = "refuse"
    """H20: the player whose hand is asked for keeps it."""
    CHOOSE_TRUMP = "choose_trump"
    """H12: the dealer names the trump suit (``suit``) before the first lead."""
    DRAW_FROM = "draw_from"
    """H14: a player with the power and no card draws a card at random from the hand of
    the player ``seat``."""


_WORDS: dict[ActionKind, str] = {
    ActionKind.PICK_UP: "pickup",
    ActionKind.TAKE_HAND: "take",
    ActionKind.PASS: "pass",
    ActionKind.CHALLENGE: "challenge",
    ActionKind.AGREE: "agree",
    ActionKind.REFUSE: "refuse",
    ActionKind.CHOOSE_TRUMP: "trump",
    ActionKind.DRAW_FROM: "draw",
}
"""The word of each kind in the text notation (a card stands for itself): ``take`` or
``take:3`` (whose hand), ``draw:2``, ``trump:H``, ``pass`` ..."""
_KIND_OF_WORD: dict[str, ActionKind] = {
    **{word: kind for kind, word in _WORDS.items()},
    "pick_up": ActionKind.PICK_UP,
    "take_hand": ActionKind.TAKE_HAND,
    "choose_trump": ActionKind.CHOOSE_TRUMP,
    "draw_from": ActionKind.DRAW_FROM,
}
_NEEDS_SEAT = frozenset({ActionKind.DRAW_FROM})
_MAY_NAME_SEAT = frozenset({ActionKind.TAKE_HAND, ActionKind.DRAW_FROM})
SUIT_LETTERS = "CDHS"


@dataclass(frozen=True, slots=True, order=True)
class Action:
    """One action of a seat: a value, compared and hashed by what it does.

    ``card`` for a play; ``seat`` for the other player an action names (whose hand to take
    where the taker chooses, H23; whose hand to draw from, H14); ``suit`` (0-3, clubs to
    spades) for the trump a dealer names (H12).  Everything else is None."""

    kind: ActionKind
    card: Card | None = None
    seat: int | None = None
    suit: int | None = None

    @classmethod
    def play(cls, card: Card | str) -> Action:
        if isinstance(card, str):
            known = _PLAY_OF_TEXT.get(card)
            if known is not None:
                return known
            card = parse_card(card)
        if not (isinstance(card, int) and 0 <= card < MAX_CARD_ID):
            return cls(ActionKind.PLAY, card)  # kept out of the caches, which stay small
        known = _PLAY_OF_CARD.get(card)
        if known is None:
            known = _PLAY_OF_CARD[card] = cls(ActionKind.PLAY, card)
            _PLAY_OF_TEXT[card_str(card)] = known
        return known

    @classmethod
    def take(cls, seat: int | None = None) -> Action:
        """Take a hand: the one the rules name (``seat`` None), or ``seat``'s (H23)."""
        return TAKE_HAND if seat is None else cls(ActionKind.TAKE_HAND, seat=seat)

    @classmethod
    def of_kind(cls, kind: ActionKind) -> Action:
        """The action of a kind that names no card, seat or suit (``pickup``, ``pass`` ...):
        one shared value per kind."""
        try:
            return _BARE[kind]
        except KeyError:
            raise ValueError(f"{kind} names a card, a seat or a suit") from None

    @classmethod
    def draw_from(cls, seat: int) -> Action:
        return cls(ActionKind.DRAW_FROM, seat=seat)

    @classmethod
    def choose_trump(cls, suit: int) -> Action:
        return cls(ActionKind.CHOOSE_TRUMP, suit=suit)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read an action as written in recorded games: a card (``AS``), ``pickup``,
        ``take`` (or ``take:3``), ``pass``, ``challenge``, ``agree``, ``refuse``,
        ``draw:2`` or ``trump:H``."""
        known = _PLAY_OF_TEXT.get(text)  # a card as ``str(action)`` writes it: the commonest
        if known is not None:
            return known
        word, _, argument = text.strip().lower().replace("-", "_").partition(":")
        if not argument and " " in word:
            word, _, argument = word.partition(" ")
        word, argument = word.strip(), argument.strip()
        kind = _KIND_OF_WORD.get(word)
        if kind is not None:
            return cls._of_word(kind, argument, text)
        try:
            return cls.play(text)
        except CardSyntaxError as error:
            raise CardSyntaxError(
                f"{text!r} is not an action: write a card (AS, 10H), 'pickup', 'take' or "
                f"'take:SEAT', 'pass', 'challenge', 'agree', 'refuse', 'draw:SEAT' or "
                f"'trump:SUIT'"
            ) from error

    @classmethod
    def _of_word(cls, kind: ActionKind, argument: str, text: str) -> Action:
        if kind is ActionKind.CHOOSE_TRUMP:
            suit = argument.upper()
            if len(suit) != 1 or suit not in SUIT_LETTERS:
                raise CardSyntaxError(f"{text!r}: name the trump suit, for example 'trump:H'")
            return cls.choose_trump(SUIT_LETTERS.index(suit))
        if kind in _MAY_NAME_SEAT and argument:
            if not argument.isdigit():
                raise CardSyntaxError(f"{text!r}: the seat after ':' is a number, 'take:3'")
            return cls(kind, seat=int(argument))
        if kind in _NEEDS_SEAT:
            raise CardSyntaxError(f"{text!r}: name the seat, for example 'draw:2'")
        if argument:
            raise CardSyntaxError(f"{text!r}: {_WORDS[kind]!r} takes nothing after it")
        return cls.of_kind(kind)

    def __str__(self) -> str:
        if self.kind is ActionKind.PLAY:
            assert self.card is not None
            return card_str(self.card)
        word = _WORDS[self.kind]
        if self.suit is not None:
            return f"{word}:{SUIT_LETTERS[self.suit]}"
        if self.seat is not None:
            return f"{word}:{self.seat}"
        return word


PICK_UP = Action(ActionKind.PICK_UP)
TAKE_HAND = Action(ActionKind.TAKE_HAND)
PASS = Action(ActionKind.PASS)
CHALLENGE = Action(ActionKind.CHALLENGE)
AGREE = Action(ActionKind.AGREE)
REFUSE = Action(ActionKind.REFUSE)
_BARE = {a.kind: a for a in (PICK_UP, TAKE_HAND, PASS, CHALLENGE, AGREE, REFUSE)}

# Actions are values: one ``Action`` per card, made on first use and shared.  The referee
# reads, checks, stores and logs an action per move, and making a frozen dataclass or
# parsing a card costs more than the rest of a check.  Only ids below MAX_CARD_ID are kept,
# so that the caches stay small whatever a client sends.
_PLAY_OF_CARD: dict[Card, Action] = {}
_PLAY_OF_TEXT: dict[str, Action] = {}
"""By the card's text as ``card_str`` writes it (``10H``, ``AS/2``), nothing else."""


class Verdict(StrEnum):
    """What the rules make of an action: it is played, punished (C12) or refused."""

    LEGAL = "legal"
    PENALISED = "penalised"
    """C12 with ``illegal_play: pickup_penalty``: a card that does not follow suit when the
    player could is not refused; the offender picks up the trick instead."""
    REFUSED = "refused"
    """The action is not made and nothing changes."""


@dataclass(frozen=True, slots=True)
class Judgement:
    """The one answer to "may this seat do this now, and if not, why": ``Hand.judge``.

    A refused or penalised action also carries the position it was judged in, so that a
    referee can explain it without asking the hand again.  A legal action carries none: it
    is judged on every move, and is one shared value (``LEGAL``) rather than a new one."""

    verdict: Verdict
    reason: Reason | None = None
    """Why it is not legal (``MUST_FOLLOW_SUIT`` for a penalised card); None when legal."""
    message: str = ""
    """The reason in words, naming the seat, the action and the position."""
    to_move: int | None = None
    """The seat the game waits for (None when the hand is over)."""
    led_suit: int | None = None
    """The suit led to the current trick (0-3, clubs to spades), None between tricks."""
    forced_lead: Card | None = None
    """The card the leader must lead (C6 first lead, B8 drawn card), if any."""
    legal_actions: tuple[Action, ...] = ()
    """What the seat may do instead (nothing for a seat that does not exist)."""

    @property
    def is_legal(self) -> bool:
        return self.verdict is Verdict.LEGAL

    def error(self, seat: int, action: Action) -> IllegalActionError:
        """The error that refuses ``action`` of ``seat`` for this reason."""
        if self.reason is None:
            raise ValueError("a legal action is not refused")
        return IllegalActionError(self.reason, self.message, seat=seat, action=action)


LEGAL = Judgement(Verdict.LEGAL)
"""The judgement of every legal action."""


class EngineError(ValueError):
    """Bad input to the engine; the message names the input and the position."""


class IllegalActionError(EngineError):
    """An action refused in this position; the state is unchanged."""

    def __init__(
        self, reason: Reason, message: str, *, seat: int, action: Action | None = None
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.seat = seat
        self.action = action


class Termination(StrEnum):
    LAST_PLAYER = "last_player"
    """C10: all but one player are out; the one left is the Bhabhi."""
    ALL_OUT = "all_out"
    """C11: the last players went out on the same trick; see end.all_out_together."""
    TWO_LEFT_PICKUP = "two_left_pickup"
    """X2: with two left, a pickup or tochoo ended the hand."""
    MAX_TRICKS = "max_tricks"
    """The ruleset's bound on the length of a hand was reached."""
    DEAD_POSITION = "dead_position"
    """No sequence of legal play can end the hand any more."""
    SHOOTOUT = "shootout"
    """H17: with two left, the other player could not follow a drawn (or last) card led."""
    TWO_LEFT_TOCHOO = "two_left_tochoo"
    """H18: with two left, a tochoo ended the hand; its player is safe."""
    FALSE_TOCHOO = "false_tochoo"
    """H25 (``false_tochoo_penalty: bhabhi``): a right challenge made the player of a false
    card the Bhabhi at once."""


@dataclass(frozen=True, slots=True)
class Outcome:
    termination: Termination
    bhabhi: int | None
    """The losing seat, or None when the hand has no loser."""
    out_order: tuple[int, ...]
    """Seats in the order they went out (got away), earliest first."""
    losing_team: tuple[int, ...] | None = None
    """V2: the partnership holding the Bhabhi, when the ruleset plays in teams."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "termination": str(self.termination),
            "bhabhi": self.bhabhi,
            "losing_team": list(self.losing_team) if self.losing_team is not None else None,
            "out_order": list(self.out_order),
        }


# --- events -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``public()`` is what a seat that must not see it is told."""

    kind: ClassVar[str] = "event"

    def public(self) -> Event:
        return self

    def visible_to(self, seat: int | None) -> Event:
        return self

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for name in self.__dataclass_fields__:
            out[name] = _plain(getattr(self, name))
        return out


def _plain(value: object) -> Any:
    if isinstance(value, Outcome):
        return value.to_dict()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, StrEnum):
        return str(value)
    return value


def _cards(cards: tuple[Card, ...] | None) -> list[str] | None:
    return None if cards is None else [card_str(c) for c in cards]


HIDDEN_SIZE = -1
"""H29 (``hand_sizes: hidden``): a hand size, or a count of cards that tells one, that the
seat an event or a view is for may not see."""


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    kind: ClassVar[str] = "hand_started"
    dealer: int
    hand_sizes: tuple[int, ...]
    leader: int
    sizes_hidden: bool = field(default=False, repr=False)
    """H29: each seat is told only its own hand's size (the others are -1)."""

    def public(self) -> Event:
        if not self.sizes_hidden:
            return self
        hidden = tuple(HIDDEN_SIZE for _ in self.hand_sizes)
        return HandStarted(self.dealer, hidden, self.leader, True)

    def visible_to(self, seat: int | None) -> Event:
        if not self.sizes_hidden:
            return self
        sizes = tuple(n if s == seat else HIDDEN_SIZE for s, n in enumerate(self.hand_sizes))
        return HandStarted(self.dealer, sizes, self.leader, True)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "dealer": self.dealer,
            "hand_sizes": list(self.hand_sizes),
            "leader": self.leader,
        }


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    kind: ClassVar[str] = "card_played"
    seat: int
    card: Card
    trick: int
    role: str
    """``lead``, ``follow``, ``discard`` (off-suit, trick goes on), ``tochoo`` or ``trump``
    (X5: an off-suit trump, which goes on and can win)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seat": self.seat,
            "card": card_str(self.card),
            "trick": self.trick,
            "role": self.role,
        }


@dataclass(frozen=True, slots=True)
class TrumpFixed(Event):
    """X5: the first card played by a player who could not follow fixed the trump suit."""

    kind: ClassVar[str] = "trump_fixed"
    seat: int
    suit: str
    """``C``, ``D``, ``H`` or ``S``."""
    trick: int


@dataclass(frozen=True, slots=True)
class TrickEnded(Event):
    kind: ClassVar[str] = "trick_ended"
    trick: int
    how: str
    """``complete`` (everyone played: clean or discard trick), ``pickup`` or ``tochoo``."""
    high_seat: int | None
    """Player of the highest card of the led suit (None if the trick had no card)."""
    next_leader: int | None
    """Who leads next (None when the hand is over)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "trick": self.trick,
            "how": self.how,
            "high_seat": self.high_seat,
            "next_leader": self.next_leader,
        }


@dataclass(frozen=True, slots=True)
class TrickToWaste(Event):
    kind: ClassVar[str] = "trick_to_waste"
    trick: int
    cards: tuple[Card, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "trick": self.trick, "cards": _cards(self.cards)}


@dataclass(frozen=True, slots=True)
class PickedUp(Event):
    kind: ClassVar[str] = "picked_up"
    seat: int
    cards: tuple[Card, ...]
    """The face-up cards of the trick, seen by everyone."""
    from_waste: int
    """V4: how many face-down cards of the waste pile came with them."""
    penalty: bool = False
    """C12, H25, H26: picked up as a penalty (not following suit, a false card proven by a
    challenge, a card played out of turn)."""
    sizes_hidden: bool = field(default=False, repr=False)
    """H29: ``from_waste`` is told only to the picker (-1 for the others)."""

    def public(self) -> Event:
        if not self.sizes_hidden:
            return self
        return PickedUp(self.seat, self.cards, HIDDEN_SIZE, self.penalty, True)

    def visible_to(self, seat: int | None) -> Event:
        return self if not self.sizes_hidden or seat == self.seat else self.public()

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seat": self.seat,
            "cards": _cards(self.cards),
            "from_waste": self.from_waste,
            "penalty": self.penalty,
        }


@dataclass(frozen=True, slots=True)
class WasteDrawn(Event):
    """B8: a player with the power and no card draws from the waste pile."""

    kind: ClassVar[str] = "waste_drawn"
    seat: int
    card: Card | None
    """The card drawn; None in the version other seats see."""

    def public(self) -> Event:
        return WasteDrawn(self.seat, None)

    def visible_to(self, seat: int | None) -> Event:
        return self if seat == self.seat else self.public()

    def to_dict(self) -> dict[str, Any]:
        card = None if self.card is None else card_str(self.card)
        return {"kind": self.kind, "seat": self.seat, "card": card}


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    """H14: a player with the power and no card drew a card at random from ``from_seat``'s
    hand.  The two of them see the card; every other seat sees only who drew from whom."""

    kind: ClassVar[str] = "card_drawn"
    seat: int
    from_seat: int
    card: Card | None
    """The card drawn; None in the version other seats see."""

    def public(self) -> Event:
        return CardDrawn(self.seat, self.from_seat, None)

    def visible_to(self, seat: int | None) -> Event:
        return self if seat in (self.seat, self.from_seat) else self.public()

    def to_dict(self) -> dict[str, Any]:
        card = None if self.card is None else card_str(self.card)
        return {"kind": self.kind, "seat": self.seat, "from_seat": self.from_seat, "card": card}


@dataclass(frozen=True, slots=True)
class HandTaken(Event):
    """B9: ``taker`` took every card of ``seat``, who got away."""

    kind: ClassVar[str] = "hand_taken"
    taker: int
    seat: int
    count: int
    cards: tuple[Card, ...] | None
    """The cards taken; only the taker (and the one who held them) sees them."""
    sizes_hidden: bool = field(default=False, repr=False)
    """H29: ``count`` is told only to the taker and the one taken from (-1 for others)."""

    def public(self) -> Event:
        count = HIDDEN_SIZE if self.sizes_hidden else self.count
        return HandTaken(self.taker, self.seat, count, None, self.sizes_hidden)

    def visible_to(self, seat: int | None) -> Event:
        return self if seat in (self.taker, self.seat) else self.public()

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "taker": self.taker,
            "seat": self.seat,
            "count": self.count,
            "cards": _cards(self.cards),
        }


@dataclass(frozen=True, slots=True)
class TakeRequested(Event):
    """H20: ``taker`` asked for the hand of ``seat``, who must agree or refuse.  Public: it
    names the two players and no card."""

    kind: ClassVar[str] = "take_requested"
    taker: int
    seat: int


@dataclass(frozen=True, slots=True)
class TakeAnswered(Event):
    """H20: ``seat`` agreed to ``taker``'s request (a ``hand_taken`` follows) or refused it
    (nothing changes).  Public: no card."""

    kind: ClassVar[str] = "take_answered"
    seat: int
    taker: int
    agreed: bool


@dataclass(frozen=True, slots=True)
class TakePassed(Event):
    """H22: ``seat``, asked in the take pass before ``trick``, took no hand."""

    kind: ClassVar[str] = "take_passed"
    seat: int
    trick: int


@dataclass(frozen=True, slots=True)
class PlayerOut(Event):
    kind: ClassVar[str] = "player_out"
    seat: int
    how: str
    """``emptied`` (C9), ``hand_taken`` (B9), ``waste_empty`` (B8 with no card to draw),
    ``two_left_pickup`` (X2: the other of the last two is safe when one must pick up),
    ``drawn_from`` (H14: their last card was drawn by the player with the power),
    ``shootout`` (H17: they could not follow the other's lead), ``two_left_tochoo`` (H18:
    their tochoo ended the hand)."""


@dataclass(frozen=True, slots=True)
class IllegalPlayPenalised(Event):
    """C12, table version: the card goes back and the offender picks up the trick; or H26:
    a card played out of turn stays in its player's hand, who picks up and leads."""

    kind: ClassVar[str] = "illegal_play_penalised"
    seat: int
    card: Card
    offence: str = "must_follow_suit"
    """``must_follow_suit`` (C12) or ``not_your_turn`` (H26)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seat": self.seat,
            "card": card_str(self.card),
            "offence": self.offence,
        }


@dataclass(frozen=True, slots=True)
class TochooChallenged(Event):
    """H25: ``challenger`` called the off-suit cards of trick ``trick`` false.  Public: a
    right challenge names the offender, who held the led suit, but not which card."""

    kind: ClassVar[str] = "tochoo_challenged"
    challenger: int
    trick: int
    right: bool
    offender: int | None
    """The player of the false card that pays (None for a wrong challenge)."""
    penalty: str
    """``bhabhi`` or ``pickup_and_lead`` for a right challenge, empty for a wrong one."""


@dataclass(frozen=True, slots=True)
class HandOver(Event):
    kind: ClassVar[str] = "hand_over"
    outcome: Outcome
