"""Cards and actions in the referee's compact notation, for people and programs alike.

The wire carries cards as text (``AS``, ``10H``, ``QD/2`` for a second pack's card), so the
client never needs the engine's integer cards: this module reads what a person types
(``7h``, ``10 s``, ``Q♦``, ``p``, ``take``) into the exact wire form, and writes cards back
with suit symbols for the terminal.  Strength within a suit depends on the ruleset (Aces
high or low, a shortened pack), so ordering takes the ranks from a ``RulesProfile`` rather
than assuming one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bhabhi.referee.v1 import referee_pb2 as pb

SUITS = "CDHS"
RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RED_SUITS = frozenset("DH")

_SYMBOL_SUITS = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}
_PICKUP_WORDS = frozenset({"p", "pickup", "pick_up", "pick-up", "pick up"})
_TAKE_WORDS = frozenset({"t", "take", "take_hand", "take-hand", "take hand"})


class CardSyntaxError(ValueError):
    """Text that is not a card (or an action) in any spelling the client accepts."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card; ``pack`` is 1 for the first pack (the wire omits it), 2 for ``/2``."""

    suit: str
    rank: str
    pack: int = 1

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``AS``, ``10h``, ``q♦``, ``TS`` (ten) or ``QD/2``, whatever the case or spacing."""
        raw = "".join(text.split()).upper()
        pack = 1
        if "/" in raw:
            raw, _, pack_text = raw.partition("/")
            if not pack_text.isdigit() or int(pack_text) < 1:
                raise CardSyntaxError(
                    f"{text!r} is not a card: the pack after '/' must be 1 or more"
                )
            pack = int(pack_text)
        if len(raw) >= 2:
            suit = _SYMBOL_SUITS.get(raw[-1], raw[-1])
            rank = raw[:-1]
            if rank == "T":
                rank = "10"
            if suit in SUITS and rank in RANKS:
                return cls(suit, rank, pack)
        raise CardSyntaxError(
            f"{text!r} is not a card: write rank then suit, for example AS, 10H, 7c "
            f"(ranks {' '.join(RANKS)}; suits {' '.join(SUITS)})"
        )

    def __str__(self) -> str:
        text = self.rank + self.suit
        return f"{text}/{self.pack}" if self.pack > 1 else text

    @property
    def id(self) -> int:
        """The card's id in the published shuffle (docs/shuffle.md), the order a deck is
        shuffled from: ``(pack - 1) * 52 + suit * 13 + rank``, suits ``C D H S``, ranks 2 to
        A counted from 0 (identity, whatever strength a ruleset gives the Ace)."""
        return (self.pack - 1) * 52 + SUITS.index(self.suit) * 13 + RANKS.index(self.rank)

    @property
    def symbol(self) -> str:
        """``10♥``: the form a person reads fastest (``10♥/2`` for a second pack's card)."""
        text = self.rank + SUIT_SYMBOLS[self.suit]
        return f"{text}/{self.pack}" if self.pack > 1 else text

    @property
    def red(self) -> bool:
        return self.suit in RED_SUITS


def parse_card(text: str) -> str:
    """The wire form of a card a person typed: ``parse_card('10h') == '10H'``."""
    return str(Card.parse(text))


def card_symbol(text: str) -> str:
    """``10H`` as ``10♥``; text that is not a card is returned as it is, never raised on,
    because it comes from the referee and a display must not fail on it."""
    try:
        return Card.parse(text).symbol
    except CardSyntaxError:
        return text


def suit_of(text: str) -> str:
    """The suit letter of a wire card (``10H`` → ``H``)."""
    return Card.parse(text).suit


def play(card: str) -> pb.Action:
    """An ``ACTION_KIND_PLAY`` of ``card``, read leniently (``play('7h')``)."""
    return pb.Action(kind=pb.ACTION_KIND_PLAY, card=parse_card(card))


def pickup() -> pb.Action:
    return pb.Action(kind=pb.ACTION_KIND_PICK_UP)


def take(seat: int | None = None) -> pb.Action:
    """Take the hand the rules name, or ``seat``'s where the taker chooses (H23)."""
    action = pb.Action(kind=pb.ACTION_KIND_TAKE_HAND)
    if seat is not None:
        action.seat = seat
    return action


_DECISION_WORDS: dict[str, pb.ActionKind.ValueType] = {
    "pass": pb.ACTION_KIND_PASS,
    "challenge": pb.ACTION_KIND_CHALLENGE,
    "agree": pb.ACTION_KIND_AGREE,
    "refuse": pb.ACTION_KIND_REFUSE,
}
"""The house rules' decisions that name nothing (H22, H25, H20)."""
_WORD_OF_DECISION = {kind: word for word, kind in _DECISION_WORDS.items()}


def parse_action(text: str) -> pb.Action:
    """Read a card (``7h``), ``p``/``pickup``, ``t``/``take`` (``take 3``: seat 3's hand),
    ``pass``, ``challenge``, ``agree``, ``refuse``, ``draw 2`` or ``trump h``, as a person
    types them (``take:3`` and ``trump:H``, the referee's forms, too)."""
    word = " ".join(text.strip().lower().replace(":", " ").split())
    if word in _PICKUP_WORDS:
        return pickup()
    if word in _TAKE_WORDS:
        return take()
    if word in _DECISION_WORDS:
        return pb.Action(kind=_DECISION_WORDS[word])
    head, _, argument = word.partition(" ")
    if head in ("t", "take", "draw") and argument.isdigit():
        if head == "draw":
            return pb.Action(kind=pb.ACTION_KIND_DRAW_FROM, seat=int(argument))
        return take(int(argument))
    if head == "trump" and argument.upper() in SUITS and len(argument) == 1:
        return pb.Action(kind=pb.ACTION_KIND_CHOOSE_TRUMP, suit=argument.upper())
    try:
        return play(text)
    except CardSyntaxError as error:
        raise CardSyntaxError(
            f"{text.strip()!r} is not a move: type a card (7h, 10S, AS), "
            "'p' to pick up or 't' to take a hand (the house rules add 'pass', "
            "'challenge', 'agree', 'refuse', 'take 3', 'draw 2', 'trump h')"
        ) from error


def format_action(action: pb.Action) -> str:
    """The compact text of an action, as the referee writes it (``10H``, ``pickup``,
    ``take``, ``take:3``, ``pass``, ``draw:2``, ``trump:H``)."""
    if action.kind == pb.ACTION_KIND_PLAY:
        return action.card
    if action.kind == pb.ACTION_KIND_PICK_UP:
        return "pickup"
    if action.kind == pb.ACTION_KIND_TAKE_HAND:
        return f"take:{action.seat}" if action.HasField("seat") else "take"
    if action.kind == pb.ACTION_KIND_DRAW_FROM:
        return f"draw:{action.seat}"
    if action.kind == pb.ACTION_KIND_CHOOSE_TRUMP:
        return f"trump:{action.suit}"
    return _WORD_OF_DECISION.get(action.kind, "?")


def parse_actions(texts: Iterable[str]) -> list[pb.Action]:
    """Actions written by the referee (for example an error's ``legal_actions``), skipping
    any word this client does not know rather than failing on a newer referee."""
    actions = []
    for text in texts:
        if not text.strip():
            continue
        try:
            actions.append(parse_action(text))
        except CardSyntaxError:
            continue
    return actions


def same_action(a: pb.Action, b: pb.Action) -> bool:
    """Equal kind, card, seat and suit, cards compared in their normal form (``10h`` is
    ``10H``)."""
    if a.kind != b.kind:
        return False
    if a.kind != pb.ACTION_KIND_PLAY:
        return format_action(a).upper() == format_action(b).upper()
    try:
        return Card.parse(a.card) == Card.parse(b.card)
    except CardSyntaxError:
        return a.card == b.card


def rank_order(ranks: Sequence[str] = RANKS, *, ace_low: bool = False) -> dict[str, int]:
    """Strength of each rank within a suit, weakest 0: ``ace_low`` moves the Ace below the 2."""
    ordered = [r for r in ranks if r != "A"]
    if "A" in ranks:
        ordered = ["A", *ordered] if ace_low else [*ordered, "A"]
    return {rank: index for index, rank in enumerate(ordered)}
