"""The fast shuffle (whole blocks hashed and unpacked at once) deals what the spec says.

The reference below is docs/shuffle.md read value by value, written independently of the
engine: ``shuffle.py`` must agree with it on every seed, deck and table, including the path
taken when a value would be rejected.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from referee.engine import shuffle
from referee.engine.shuffle import DRAW_LABEL, SHUFFLE_LABEL, Stream, deal, deal_masks, shuffled


class _ReferenceStream:
    def __init__(self, seed: bytes, label: bytes) -> None:
        self.prefix = label + b"\x00" + seed
        self.counter = 0
        self.buffer = b""

    def u64(self) -> int:
        if len(self.buffer) < 8:
            self.buffer += hashlib.sha256(self.prefix + self.counter.to_bytes(8, "big")).digest()
            self.counter += 1
        value, self.buffer = int.from_bytes(self.buffer[:8], "big"), self.buffer[8:]
        return value

    def uniform(self, m: int) -> int:
        limit = (1 << 64) - (1 << 64) % m
        while True:
            u = self.u64()
            if u < limit:
                return u % m


def _reference_shuffle(cards: list[int], seed: bytes) -> list[int]:
    deck = sorted(cards)
    stream = _ReferenceStream(seed, SHUFFLE_LABEL)
    for i in range(len(deck) - 1, 0, -1):
        j = stream.uniform(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


DECKS = [
    list(range(52)),
    list(range(104)),
    [c for c in range(52) if c % 13 >= 5],  # 7 to A
    list(range(0, 104, 3)),
    [5, 9],
    [3],
    [],
]


def _seeds(count: int) -> list[bytes]:
    rng = random.Random(1)
    seeds = [str(n).encode() for n in range(count // 2)]
    seeds += [rng.randbytes(rng.randrange(0, 40)) for _ in range(count - len(seeds))]
    return seeds


def test_shuffle_matches_the_reference() -> None:
    for k, seed in enumerate(_seeds(3000)):
        deck = DECKS[k % len(DECKS)]
        assert shuffled(deck, seed) == _reference_shuffle(deck, seed), (seed, deck)


def test_deals_match_the_reference() -> None:
    rng = random.Random(2)
    for k, seed in enumerate(_seeds(600)):
        deck = DECKS[k % 4]
        players = rng.randrange(3, 17)
        dealer = rng.randrange(players)
        step = rng.choice((1, -1))
        order = [(dealer + step * (n + 1)) % players for n in range(players)]
        expected: list[list[int]] = [[] for _ in range(players)]
        for position, card in enumerate(_reference_shuffle(deck, seed)):
            expected[order[position % players]].append(card)
        assert deal(deck, seed, players, dealer, step) == expected
        assert deal_masks(deck, seed, players, dealer, step) == [
            sum(1 << c for c in hand) for hand in expected
        ]


def test_the_value_by_value_path_is_the_specified_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Force the path a possible rejection takes (real rejections: see the stream test)."""
    monkeypatch.setattr(shuffle, "_NO_REJECTION_BELOW", 0)
    for k, seed in enumerate(_seeds(300)):
        deck = DECKS[k % len(DECKS)]
        assert shuffled(deck, seed) == _reference_shuffle(deck, seed)


def test_stream_matches_the_reference() -> None:
    rng = random.Random(3)
    bounds = [1, 2, 3, 10, 52, 104, 2**63 + 5, 3 * 2**62, 2**64 - 1]  # the large ones reject
    for seed in _seeds(300):
        for label in (SHUFFLE_LABEL, DRAW_LABEL):
            ours, theirs = Stream(seed, label), _ReferenceStream(seed, label)
            for _ in range(20):
                m = rng.choice(bounds)
                assert ours.uniform(m) == theirs.uniform(m)
