"""The published shuffle against its test vectors and an independent reading of the spec."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from referee.cards import card_str
from referee.engine.shuffle import DRAW_LABEL, SHUFFLE_LABEL, Stream, deal, shuffled

VECTORS: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[1] / "docs" / "shuffle-vectors.json").read_text()
)


def spec_stream(seed: int | str, label: str) -> Iterator[int]:
    """docs/shuffle.md, written again from the page alone."""
    raw = str(seed).encode()
    counter = 0
    while True:
        block = hashlib.sha256(label.encode() + b"\0" + raw + counter.to_bytes(8, "big")).digest()
        counter += 1
        for i in range(0, 32, 8):
            yield int.from_bytes(block[i : i + 8], "big")


def spec_uniform(stream: Iterator[int], m: int) -> int:
    limit: int = 2**64 - 2**64 % m
    u: int = next(stream)
    while u >= limit:
        u = next(stream)
    return u % m


def spec_shuffle(seed: int | str) -> list[str]:
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    deck = [r + s for s in "CDHS" for r in ranks]
    stream = spec_stream(seed, "bhabhi/shuffle/v1")
    for i in range(len(deck) - 1, 0, -1):
        j = spec_uniform(stream, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_vectors_match_an_independent_implementation_of_the_spec() -> None:
    for entry in VECTORS["shuffles"]:
        assert spec_shuffle(entry["seed"]) == entry["order"]
    for entry in VECTORS["streams"]:
        if "first_u64" in entry:
            stream = spec_stream(entry["seed"], entry["label"])
            assert [str(next(stream)) for _ in range(4)] == entry["first_u64"]


def test_engine_reproduces_the_vectors() -> None:
    deck = list(range(52))
    for entry in VECTORS["shuffles"]:
        assert [card_str(c) for c in shuffled(deck, entry["seed"])] == entry["order"]
    for entry in VECTORS["deals"]:
        step = 1 if entry["direction"] == "clockwise" else -1
        hands = deal(deck, entry["seed"], entry["players"], entry["dealer"], step)
        assert [[card_str(c) for c in h] for h in hands] == entry["hands"]
    for entry in VECTORS["streams"]:
        label = entry["label"].encode()
        stream = Stream(entry["seed"], label)
        if "uniform_52_51_50" in entry:
            assert [stream.uniform(m) for m in (52, 51, 50)] == entry["uniform_52_51_50"]
        if "uniform_10_10_10" in entry:
            assert label == DRAW_LABEL
            assert [stream.uniform(10) for _ in range(3)] == entry["uniform_10_10_10"]
    assert SHUFFLE_LABEL == b"bhabhi/shuffle/v1"


def test_deal_gives_the_extra_cards_to_the_players_after_the_dealer() -> None:
    """C4: one card at a time in play direction from the player after the dealer."""
    hands = deal(list(range(52)), 5, 3, dealer=0, step=-1)
    # counterclockwise from dealer 0: seat 2 first, then seat 1, then seat 0
    assert [len(h) for h in hands] == [17, 17, 18]
    hands = deal(list(range(52)), 5, 3, dealer=0, step=1)
    assert [len(h) for h in hands] == [17, 18, 17]
