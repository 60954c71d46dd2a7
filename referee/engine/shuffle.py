"""The published shuffle: a deal any implementation can reproduce byte for byte.

Specification (also in docs/shuffle.md, with test vectors):

* A seed is a byte string.  An integer seed ``n >= 0`` stands for the ASCII of its decimal
  digits (``42`` is ``b"42"``), so that the same seed reads the same in every language.
* The stream for a seed and a domain label is the concatenation of
  ``SHA-256(label || 0x00 || seed || counter)`` for counter = 0, 1, 2 … as an 8-byte
  big-endian unsigned integer.  Labels: ``bhabhi/shuffle/v1`` for the deal,
  ``bhabhi/draw/v1`` for the cards drawn from the waste pile (B8).
* ``uniform(m)`` reads 8-byte big-endian unsigned integers ``u`` from the stream, discards
  any ``u >= 2**64 - (2**64 mod m)`` (so every residue is equally likely) and returns
  ``u mod m``.
* The deck starts in ascending card-id order (clubs 2…A, diamonds, hearts, spades; the
  second pack after the first) and is shuffled by Fisher–Yates from the top down: for ``i``
  from ``n - 1`` down to ``1``, swap positions ``i`` and ``uniform(i + 1)``.
* The shuffled deck is dealt one card at a time, position 0 first, to the player after the
  dealer and on round in play direction (C4).
* The referee commits to a hand's seed with ``"sha256:"`` and the lowercase hex SHA-256 of
  the seed's bytes; its seeds are 64 lowercase hex digits, whose bytes are those digits'
  ASCII (not the 32 bytes they spell).
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence

SHUFFLE_LABEL = b"bhabhi/shuffle/v1"
DRAW_LABEL = b"bhabhi/draw/v1"
_TWO_64 = 1 << 64
_NO_REJECTION_BELOW = _TWO_64
"""``uniform(m)`` accepts every ``u <= _NO_REJECTION_BELOW - m`` (tests lower it to force the
value-by-value path)."""
_BITS = tuple(1 << c for c in range(1024))
_COUNTERS = tuple(c.to_bytes(8, "big") for c in range(64))
_sha256 = hashlib.sha256
_WORDS = struct.Struct(">4Q").unpack

Seed = int | bytes | str


def seed_bytes(seed: Seed) -> bytes:
    if isinstance(seed, bytes):
        return seed
    if isinstance(seed, bool):
        raise TypeError("a seed is bytes, text or a non-negative integer, not a bool")
    if isinstance(seed, int):
        if seed < 0:
            raise ValueError(f"a seed must not be negative: {seed}")
        return str(seed).encode("ascii")
    return seed.encode("utf-8")


def _counter(counter: int) -> bytes:
    return _COUNTERS[counter] if counter < len(_COUNTERS) else counter.to_bytes(8, "big")


def _block_words(prefix: bytes, first: int, count: int) -> list[int]:
    """The stream's u64s from block ``first`` on, ``count`` blocks (four u64s each) at once:
    one ``join`` and one ``unpack`` instead of slicing bytes per value."""
    data = b"".join([_sha256(prefix + _counter(c)).digest() for c in range(first, first + count)])
    return list(struct.unpack(f">{4 * count}Q", data))


class Stream:
    """Counter-mode SHA-256: an endless, reproducible source of uniform integers."""

    __slots__ = ("_counter", "_pos", "_prefix", "_words")

    def __init__(self, seed: Seed, label: bytes) -> None:
        self._prefix = label + b"\x00" + seed_bytes(seed)
        self._counter = 0
        self._words: tuple[int, ...] = ()
        self._pos = 0

    def copy(self) -> Stream:
        """A stream at the same position that goes on independently (``Hand.copy``)."""
        twin = Stream.__new__(Stream)
        twin._prefix, twin._counter = self._prefix, self._counter
        twin._words, twin._pos = self._words, self._pos
        return twin

    def _u64(self) -> int:
        if self._pos == len(self._words):
            digest = _sha256(self._prefix + _counter(self._counter)).digest()
            self._counter += 1
            self._words = _WORDS(digest)
            self._pos = 0
        value = self._words[self._pos]
        self._pos += 1
        return value

    def uniform(self, m: int) -> int:
        """A uniform integer in ``range(m)``, by rejection so that no residue is favoured."""
        if m <= 0:
            raise ValueError(f"uniform() needs a positive bound, got {m}")
        limit = _TWO_64 - (_TWO_64 % m)
        while True:
            u = self._u64()
            if u < limit:
                return u % m


def shuffled(cards: Sequence[int], seed: Seed) -> list[int]:
    """Fisher–Yates as specified above.

    The run of u64s the shuffle needs (one per swap) is hashed and unpacked in one go.  If
    any of them could be rejected by ``uniform`` (``u > 2**64 - n``: about once in 10**16
    deals) the shuffle is done again value by value through ``Stream``, so the result is
    always the specified one.
    """
    deck = sorted(cards)
    n = len(deck)
    if n < 2:
        return deck
    words = _block_words(SHUFFLE_LABEL + b"\x00" + seed_bytes(seed), 0, (n + 2) // 4)
    if max(words) > _NO_REJECTION_BELOW - n:
        return _shuffled_by_stream(deck, seed)
    for i, u in zip(range(n - 1, 0, -1), words, strict=False):  # words may run one block over
        j = u % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def _shuffled_by_stream(deck: list[int], seed: Seed) -> list[int]:
    """The specification word for word (and the reference the fast path is tested against)."""
    stream = Stream(seed, SHUFFLE_LABEL)
    for i in range(len(deck) - 1, 0, -1):
        j = stream.uniform(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_order(players: int, dealer: int, step: int) -> list[int]:
    """Seats in the order they receive cards: the player after the dealer first."""
    return [(dealer + step * (k + 1)) % players for k in range(players)]


def deal(cards: Sequence[int], seed: Seed, players: int, dealer: int, step: int) -> list[list[int]]:
    """Each seat's cards, in the order dealt (C4: one at a time, in play direction)."""
    order = deal_order(players, dealer, step)
    deck = shuffled(cards, seed)
    hands: list[list[int]] = [[] for _ in range(players)]
    for k, seat in enumerate(order):
        hands[seat] = deck[k::players]
    return hands


def deal_masks(cards: Sequence[int], seed: Seed, players: int, dealer: int, step: int) -> list[int]:
    """As :func:`deal`, each hand as a bitmask (for playouts, which never need the order)."""
    order = deal_order(players, dealer, step)
    deck = shuffled(cards, seed)
    masks = [0] * players
    bits = _BITS  # card ids are below 1024 (Hand checks it)
    for k, seat in enumerate(order):
        masks[seat] = sum([bits[card] for card in deck[k::players]])  # distinct: sum is or
    return masks


def seed_commitment(seed: Seed) -> str:
    """What the referee publishes at the deal (``HandDealt.seed_commitment``) so that the
    seed it reveals at the end can be checked: ``sha256:`` + hex SHA-256 of the seed's
    bytes (for a referee seed, the ASCII of its 64 hex digits)."""
    return "sha256:" + _sha256(seed_bytes(seed)).hexdigest()


def hand_seed(session_seed: Seed, hand_number: int) -> bytes:
    """The seed of hand ``hand_number`` (0-based) of a session: ``seed || ":" || number``."""
    return seed_bytes(session_seed) + b":" + str(hand_number).encode("ascii")
