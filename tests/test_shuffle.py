"""The published shuffle against its test vectors and an independent reading of the spec."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from referee.cards import card_str
from referee.engine.session import Session
from referee.engine.shuffle import (
    DRAW_LABEL,
    SHUFFLE_LABEL,
    Stream,
    deal,
    deal_order,
    seed_bytes,
    seed_commitment,
    shuffled,
)
from referee.ruleset.loader import load_ruleset

ROOT = Path(__file__).resolve().parents[1]
VECTORS: dict[str, Any] = json.loads((ROOT / "docs" / "shuffle-vectors.json").read_text())


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


def test_referee_seed_vectors_match_the_engine() -> None:
    """``fair_deals``: hands as the referee deals them, from 64 hex digits (docs/shuffle.md)."""
    assert {e["ruleset"] for e in VECTORS["fair_deals"]} == {
        "bhabho",
        "pickup",
        "get-away",
        "two-packs",
    }
    for entry in VECTORS["fair_deals"]:
        seed: str = entry["seed"]
        assert re.fullmatch("[0-9a-f]{64}", seed)
        assert seed_bytes(seed) == seed.encode("ascii") and len(seed_bytes(seed)) == 64
        assert seed_commitment(seed) == entry["commitment"]
        assert entry["commitment"] == "sha256:" + hashlib.sha256(seed.encode("ascii")).hexdigest()
        rules = load_ruleset(entry["ruleset"])
        assert entry["direction"] == rules.direction.value
        deck = rules.deck.cards()
        assert entry["deck"] == [card_str(c) for c in deck]
        players = entry["players"]
        session = Session(rules, players, seed="unused")
        assert entry["dealers"] == [session.dealer_of(k) for k in range(players + 1)]
        dealer = entry["dealer"]
        assert dealer == entry["dealers"][entry["hand_number"]]
        first_block = bytes.fromhex(entry["first_block_input_hex"])
        assert first_block == SHUFFLE_LABEL + b"\0" + seed.encode("ascii") + bytes(8)
        for label, key in ((SHUFFLE_LABEL, "shuffle_first_u64"), (DRAW_LABEL, "draw_first_u64")):
            stream = Stream(seed, label)
            assert [str(stream.uniform(1 << 64)) for _ in range(4)] == entry[key]
        digest = hashlib.sha256(first_block).digest()
        assert str(int.from_bytes(digest[:8], "big")) == entry["shuffle_first_u64"][0]
        assert [card_str(c) for c in shuffled(deck, seed)] == entry["order"]
        step = 1 if entry["direction"] == "clockwise" else -1
        assert deal_order(players, dealer, step) == entry["deal_order"]
        hands = deal(deck, seed, players, dealer, step)
        assert [[card_str(c) for c in h] for h in hands] == entry["hands"]
        order = entry["order"]
        for k, seat in enumerate(entry["deal_order"]):
            assert entry["hands"][seat] == order[k::players]


def test_referee_seed_vectors_match_the_independent_reading() -> None:
    for entry in VECTORS["fair_deals"]:
        stream = spec_stream(entry["seed"], "bhabhi/shuffle/v1")
        assert [str(next(stream)) for _ in range(4)] == entry["shuffle_first_u64"]
        if len(entry["deck"]) == 52:
            assert spec_shuffle(entry["seed"]) == entry["order"]


def test_the_vectors_file_is_what_the_tool_writes() -> None:
    spec = importlib.util.spec_from_file_location(
        "shuffle_vectors", ROOT / "tools" / "shuffle_vectors.py"
    )
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.fair_deal_vectors() == VECTORS["fair_deals"]
    assert tool.rendered() == (ROOT / "docs" / "shuffle-vectors.json").read_text()
