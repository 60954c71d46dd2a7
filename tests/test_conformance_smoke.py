"""Smoke test: no combination of the schema's options crashes the engine or fails to end.

The options are every enumerated option and every boolean of the ruleset schema (30 of
them, 2 or 3 values each: about 10^9 combinations), so instead of all combinations the test
plays a *covering array of strength 2*: a set of rows (full assignments of every option)
such that every pair of values of every two options appears together in some row that
validates.  A bug that needs two options to interact shows in some row.

Construction (AETG-style greedy, seeded so the rows never change between runs):

1. Every pair (option a = x, option b = y) with a before b is *uncovered* at the start.
2. A new row is built by several candidates: each takes the options in a random order and
   gives each the value that covers the most uncovered pairs together with the values
   already chosen (ties broken at random).  The candidates are ranked by the pairs they
   cover, and the first that gives a valid ruleset (on top of the base ruleset, by the
   loader's own checks) becomes the row.
3. Repeat until no valid candidate covers a new pair.  Pairs left uncovered are those no
   valid ruleset can hold (``trump: first_off_suit_card`` needs off-suit cards to be played,
   so never with ``off_suit.play: pickup``); the test checks there are no others.

One constraint is repaired rather than skipped: a team ruleset (``players.teams:
partners_opposite``) needs an even number of players, so its rows set ``players.min`` to 4.

The array is built on two bases, ``pickup`` and ``bhabho`` (the options they do not set,
such as ``deck.ranks``, differ).  For every row, hands with 3 to 6 players (the even ones
under teams) are played by the fast random playout, and its actions are replayed through
``Hand.apply``, which checks each one: the hand must end, the two must agree, and no card
may be lost or invented at any step.  A row with a house rule the fast playout does not play
(``RuleBook.fast_playout`` false: H1, H4) is played by random legal play on ``Hand`` alone.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from functools import cache
from typing import Any

import pytest

from referee.conformance.mutants import mutate, schema_options, validate
from referee.engine.components import RuleBook
from referee.engine.hand import Hand
from referee.engine.playout import action_of, random_playout
from referee.engine.shuffle import hand_seed
from referee.ruleset.loader import load_ruleset
from referee.ruleset.model import Ruleset

BASES = ("pickup", "bhabho")
CANDIDATES = 24
"""Candidate rows tried per row of the array."""
HANDS_PER_ROW = 4

Option = tuple[str, ...]
Pair = tuple[int, Any, int, Any]
"""(option index a, value of a, option index b, value of b), a < b."""


def _options() -> list[tuple[Option, list[Any]]]:
    return [(path, values) for path, values in schema_options() if path != ("end", "max_tricks")]


def _apply(
    base: Ruleset, options: Sequence[tuple[Option, list[Any]]], row: Sequence[Any]
) -> dict[str, Any]:
    data: dict[str, Any] = dict(base.source)
    for (path, _), value in zip(options, row, strict=True):
        data = mutate(data, path, value)
    if data["players"]["teams"] == "partners_opposite" and data["players"]["min"] % 2:
        data = mutate(data, ("players", "min"), data["players"]["min"] + 1)
    if data.get("illegal_play") != "challenge":  # H25: the penalty of no challenge is not
        data.pop("false_tochoo_penalty", None)  # written (rules validate refuses it)
    return data


def _pairs(row: Sequence[Any]) -> Iterator[Pair]:
    for a, b in itertools.combinations(range(len(row)), 2):
        yield (a, row[a], b, row[b])


def _gain(row: Sequence[Any], index: int, value: Any, uncovered: set[Pair]) -> int:
    """How many uncovered pairs giving option ``index`` this value would cover."""
    count = 0
    for other, chosen in enumerate(row):
        if chosen is None or other == index:
            continue
        if index < other:
            count += (index, value, other, chosen) in uncovered
        else:
            count += (other, chosen, index, value) in uncovered
    return count


Array = tuple[list[tuple[Option, list[Any]]], list[list[Any]], set[Pair]]


@cache
def covering_array(base_id: str) -> Array:
    """(options, rows, pairs no valid row covers) for one base ruleset."""
    base = load_ruleset(base_id)
    options = _options()
    uncovered: set[Pair] = {
        (a, x, b, y)
        for a, b in itertools.combinations(range(len(options)), 2)
        for x in options[a][1]
        for y in options[b][1]
    }
    rng = random.Random(f"conformance-smoke/{base_id}")
    rows: list[list[Any]] = []
    while uncovered:
        candidates = []
        for _ in range(CANDIDATES):
            row: list[Any] = [None] * len(options)
            order = list(range(len(options)))
            rng.shuffle(order)
            for index in order:
                values = list(options[index][1])
                rng.shuffle(values)
                gains = [_gain(row, index, value, uncovered) for value in values]
                row[index] = values[gains.index(max(gains))]
            new = sum(1 for pair in _pairs(row) if pair in uncovered)
            candidates.append((new, row))
        candidates.sort(key=lambda c: -c[0])
        chosen_row = None
        for new, row in candidates:
            if new and not validate(_apply(base, options, row)):
                chosen_row = row
                break
        if chosen_row is None:
            break
        rows.append(chosen_row)
        uncovered -= set(_pairs(chosen_row))
    return options, rows, uncovered


def _label(path: Option, value: Any) -> str:
    return f"{'.'.join(path)}={value}"


@pytest.mark.parametrize("base_id", BASES)
def test_covering_array_covers_every_valid_pair(base_id: str) -> None:
    options, rows, uncovered = covering_array(base_id)
    assert rows
    left = {(_label(options[a][0], x), _label(options[b][0], y)) for a, x, b, y in uncovered}
    impossible = {
        pair
        for pair in left
        if "off_suit.play=pickup" in pair
        and ("trump=first_off_suit_card" in pair or "illegal_play=challenge" in pair)
    }
    assert left == impossible, f"pairs no row covers: {sorted(left - impossible)[:10]}"


def _rows() -> list[tuple[str, int]]:
    return [(base, index) for base in BASES for index in range(len(covering_array(base)[1]))]


@pytest.mark.parametrize(("base_id", "index"), _rows())
def test_every_row_plays_to_the_end(base_id: str, index: int) -> None:
    options, rows, _ = covering_array(base_id)
    rules = Ruleset.from_mapping(_apply(load_ruleset(base_id), options, rows[index]))
    counts = [n for n in range(3, 7) if rules.players.allows(n)]
    assert counts, "every row allows some player count from 3 to 6"
    deck = len(rules.deck.cards())
    for number in range(HANDS_PER_ROW):
        players = counts[number % len(counts)]
        seed = hand_seed(f"smoke/{base_id}/{index}", number)
        if not RuleBook.of(rules).fast_playout:
            _play_randomly(rules, players, seed, number % players)
            continue
        result = random_playout(rules, players, seed, number % players)
        hand = Hand(rules, players, seed=seed, dealer=number % players, record=False)
        for seat, code in result.actions:
            assert not hand.is_over
            hand.apply(seat, action_of(code))
            assert hand.card_total() == deck
        assert hand.is_over, "the playout ended but the hand did not"
        assert hand.outcome == result.outcome
        assert hand.trick_number <= rules.end.max_tricks


def _play_randomly(rules: Ruleset, players: int, seed: bytes, dealer: int) -> None:
    """A row with a house rule the fast playout does not play: random legal play on ``Hand``
    alone, which must end within the bound and lose no card."""
    hand = Hand(rules, players, seed=seed, dealer=dealer, record=False)
    rng = random.Random(seed)
    deck = len(rules.deck.cards())
    while not hand.is_over:
        seat = hand.to_move
        assert seat is not None
        hand.apply(seat, rng.choice(list(hand.legal_actions(seat))))
        assert hand.card_total() == deck
    assert hand.trick_number <= rules.end.max_tricks
