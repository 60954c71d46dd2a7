"""Write the referee-seed section (``fair_deals``) of docs/shuffle-vectors.json from the engine.

Each vector is a hand as the referee deals it: a seed of 64 lowercase hex digits, its
commitment, a bundled ruleset's deck and direction, the dealer of a given hand of the
session, and every intermediate value a second implementation needs to find where it
departs (the bytes hashed for the first block, the first stream values, the shuffled deck,
the seats in the order they receive cards).  The seeds are SHA-256 of a fixed text, so that
the file can be written again and compared; any 64 hex digits would do.

Run ``python tools/shuffle_vectors.py`` to rewrite the section (the others are left as they
are), ``--check`` to fail when the file differs from what the engine gives.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Sequence
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
from referee.ruleset.model import Direction

VECTORS = Path(__file__).resolve().parents[1] / "docs" / "shuffle-vectors.json"
CASES: tuple[tuple[str, int, int], ...] = (
    ("bhabho", 4, 1),  # clockwise; the deal moves with play
    ("pickup", 3, 1),  # counterclockwise; 52 cards to three seats, one seat gets 18
    ("get-away", 5, 1),  # clockwise play, but the deal moves counterclockwise
    ("two-packs", 6, 2),  # 104 cards, the second pack written /2
)
"""(ruleset, players, hand number): the hand number gives the dealer (C5)."""


def vector_seed(number: int) -> str:
    return hashlib.sha256(f"bhabhi fair-deal vector {number}".encode("ascii")).hexdigest()


def first_u64(seed: str, label: bytes) -> list[str]:
    """The stream's first four 8-byte values, as text (a JSON number above 2**53 loses digits
    in many readers).  ``uniform(2**64)`` rejects nothing and returns each value as it is."""
    stream = Stream(seed, label)
    return [str(stream.uniform(1 << 64)) for _ in range(4)]


def fair_deal_vector(
    number: int, ruleset_id: str, players: int, hand_number: int
) -> dict[str, Any]:
    rules = load_ruleset(ruleset_id)
    seed = vector_seed(number)
    session = Session(rules, players, seed="unused")
    dealers = [session.dealer_of(k) for k in range(players + 1)]
    dealer = dealers[hand_number]
    step = 1 if rules.direction is Direction.CLOCKWISE else -1
    deck = rules.deck.cards()
    return {
        "seed": seed,
        "commitment": seed_commitment(seed),
        "ruleset": rules.id,
        "players": players,
        "direction": rules.direction.value,
        "dealers": dealers,
        "hand_number": hand_number,
        "dealer": dealer,
        "deck": [card_str(c) for c in deck],
        "first_block_input_hex": (
            SHUFFLE_LABEL + b"\x00" + seed_bytes(seed) + (0).to_bytes(8, "big")
        ).hex(),
        "shuffle_first_u64": first_u64(seed, SHUFFLE_LABEL),
        "order": [card_str(c) for c in shuffled(deck, seed)],
        "deal_order": deal_order(players, dealer, step),
        "hands": [[card_str(c) for c in h] for h in deal(deck, seed, players, dealer, step)],
        "draw_first_u64": first_u64(seed, DRAW_LABEL),
    }


def fair_deal_vectors() -> list[dict[str, Any]]:
    return [fair_deal_vector(n, *case) for n, case in enumerate(CASES)]


def rendered() -> str:
    vectors = json.loads(VECTORS.read_text(encoding="utf-8"))
    vectors["fair_deals"] = fair_deal_vectors()
    return json.dumps(vectors, indent=1)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the file is stale")
    args = parser.parse_args(argv)
    text = rendered()
    if args.check:
        if VECTORS.read_text(encoding="utf-8") != text:
            print(f"{VECTORS} differs from the engine's vectors", file=sys.stderr)
            return 1
        return 0
    VECTORS.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
