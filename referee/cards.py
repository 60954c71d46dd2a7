"""Cards as small integers, so that hands are bitmasks and playouts are fast.

A card's id is ``pack * 52 + suit * 13 + rank`` with suits in the order clubs, diamonds,
hearts, spades (``C D H S``) and ranks from 2 up to Ace (``2 … 10 J Q K A``), whatever the
ruleset says about Aces: strength within a suit is the ruleset's business (see
``CardOrder``), identity is not.  A hand is an ``int`` with bit ``id`` set for each card.

The compact notation is rank then suit (``AS``, ``10H``, ``2C``); a card of the second
pack carries ``/2`` (``AS/2``).  A ten is always written ``10``; ``T`` is read as ten too
(``TS``, ``th``), as many engines write it, so that their games need no rewriting.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

SUITS = "CDHS"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_ALIASES = {"T": "10"}
"""Ranks read in another spelling, and the rank each stands for (never written)."""
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
CARDS_PER_PACK = 52

Card = int
"""A card id (see the module docstring)."""


class CardSyntaxError(ValueError):
    """A card written in a form the compact notation does not allow."""


def make_card(rank: int, suit: int, pack: int = 0) -> Card:
    return pack * CARDS_PER_PACK + suit * 13 + rank


def suit_of(card: Card) -> int:
    return (card % CARDS_PER_PACK) // 13


def rank_of(card: Card) -> int:
    return card % 13


def pack_of(card: Card) -> int:
    return card // CARDS_PER_PACK


def parse_card(text: str) -> Card:
    """Read ``AS``, ``10h``, ``TS`` (a ten) or ``QD/2``; raise CardSyntaxError naming the
    input otherwise.  ``card_str`` writes every card back in one form (``10S``)."""
    raw = text.strip().upper()
    pack = 0
    if "/" in raw:
        raw, _, pack_text = raw.partition("/")
        if not pack_text.isdigit() or int(pack_text) < 1:
            raise CardSyntaxError(f"{text!r} is not a card: the pack after '/' must be 1 or more")
        pack = int(pack_text) - 1
    rank = RANK_ALIASES.get(raw[:-1], raw[:-1])
    if len(raw) < 2 or raw[-1] not in SUITS or rank not in RANKS:
        raise CardSyntaxError(
            f"{text!r} is not a card: write rank then suit, for example AS, 10H, 2C "
            f"(ranks {' '.join(RANKS)}, or T for 10; suits {' '.join(SUITS)})"
        )
    return make_card(RANKS.index(rank), SUITS.index(raw[-1]), pack)


MAX_CARD_ID = 1024
"""Card ids of any deck are below this (``Hand`` refuses others)."""

_CARD_TEXT: dict[Card, str] = {}


def card_str(card: Card) -> str:
    """The card as written (``AS``, ``10H/2``).  Written once per card id and kept: the
    referee writes a card into every event and answer.  Only ids below MAX_CARD_ID are kept,
    so the cache stays small whatever a client sends."""
    text = _CARD_TEXT.get(card)
    if text is None:
        text = RANKS[rank_of(card)] + SUITS[suit_of(card)]
        pack = pack_of(card)
        if pack:
            text = f"{text}/{pack + 1}"
        if 0 <= card < MAX_CARD_ID:
            _CARD_TEXT[card] = text
    return text


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_in(mask: int) -> Iterator[Card]:
    """The cards of a bitmask in ascending id order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_str(mask: int) -> str:
    return " ".join(card_str(c) for c in cards_in(mask))


def suit_mask(suit: int, packs: int) -> int:
    mask = 0
    for pack in range(packs):
        mask |= ((1 << 13) - 1) << (pack * CARDS_PER_PACK + suit * 13)
    return mask
