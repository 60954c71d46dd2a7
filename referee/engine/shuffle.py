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
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

SHUFFLE_LABEL = b"bhabhi/shuffle/v1"
DRAW_LABEL = b"bhabhi/draw/v1"
_TWO_64 = 1 << 64

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


class Stream:
    """Counter-mode SHA-256: an endless, reproducible source of uniform integers."""

    __slots__ = ("_buffer", "_counter", "_prefix")

    def __init__(self, seed: Seed, label: bytes) -> None:
        self._prefix = label + b"\x00" + seed_bytes(seed)
        self._counter = 0
        self._buffer = b""

    def _u64(self) -> int:
        if len(self._buffer) < 8:
            block = hashlib.sha256(self._prefix + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._buffer += block
        value = int.from_bytes(self._buffer[:8], "big")
        self._buffer = self._buffer[8:]
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
    deck = sorted(cards)
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
    hands: list[list[int]] = [[] for _ in range(players)]
    for position, card in enumerate(shuffled(cards, seed)):
        hands[order[position % players]].append(card)
    return hands


def hand_seed(session_seed: Seed, hand_number: int) -> bytes:
    """The seed of hand ``hand_number`` (0-based) of a session: ``seed || ":" || number``."""
    return seed_bytes(session_seed) + b":" + str(hand_number).encode("ascii")
