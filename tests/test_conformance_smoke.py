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
3. Repeat until no valid candidate covers a new pair (in ``MISSES`` rounds in a row).
   Pairs left uncovered are those no valid ruleset can hold (``trump: first_off_suit_card``
   needs off-suit cards to be played, so never with ``off_suit.play: pickup``); the test
   checks there are no others.  The house rules of taking (H20-H24) have pairs ``rules
   validate`` refuses: they are left out from the start, and candidate rows are repaired
   (``_repair_takes``).

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
CANDIDATES = 12
"""Candidate rows tried per row of the array."""
HANDS_PER_ROW = 4
MISSES = 20
"""Rounds of candidates in a row that find no valid row covering a new pair, before the
array is taken as complete (the pairs left are those no valid row can hold)."""

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
    uncovered = {
        (a, x, b, y)
        for a, x, b, y in uncovered
        if {_label(options[a][0], x), _label(options[b][0], y)} not in _REFUSED_TAKE_PAIRS
    }
    rng = random.Random(f"conformance-smoke/{base_id}")
    rows: list[list[Any]] = []
    misses = 0
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
            _repair_takes(options, row, rng)
            new = sum(1 for pair in _pairs(row) if pair in uncovered)
            candidates.append((new, row))
        candidates.sort(key=lambda c: -c[0])
        chosen_row = None
        for new, row in candidates:
            if new and not validate(_apply(base, options, row)):
                chosen_row = row
                break
        if chosen_row is None:
            misses += 1  # every candidate invalid or covering nothing new: try again
            if misses > MISSES:
                break
            continue
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
        if ("trump=first_off_suit_card" in pair and "off_suit.play=pickup" in pair)
        or set(pair) in _REFUSED_TAKE_PAIRS
    }
    assert left == impossible, f"pairs no row covers: {sorted(left - impossible)[:10]}"


def _repair_takes(
    options: Sequence[tuple[Option, list[Any]]], row: list[Any], rng: random.Random
) -> None:
    """Make a candidate row's house rules of taking (H20-H24) a combination ``rules
    validate`` accepts (``_REFUSED_TAKE_PAIRS``), in place and before its pairs are counted,
    by changing either ``take_hand.when`` or the options it conflicts with (at random, so
    that the pairs of both sides get rows): without takes the take options at their
    defaults; a pass only with takes by anyone; a debt only where a neighbour's tochoo can
    be picked up."""
    at = {path: index for index, (path, _) in enumerate(options)}

    def value(*path: str) -> Any:
        return row[at[path]]

    def put(value: Any, *path: str) -> None:
        row[at[path]] = value

    when = value("take_hand", "when")
    if when == "after_neighbour_tochoo" and (
        value("off_suit", "play") != "tochoo"
        or value("off_suit", "tochoo_picked_up_by") == "tochoo_player"
        or value("take_hand", "from") == "any_player"
    ):
        if rng.random() < 0.5:
            put(when := "before_any_trick", "take_hand", "when")
        else:
            put("tochoo", "off_suit", "play")
            put("highest_of_led", "off_suit", "tochoo_picked_up_by")
            if value("take_hand", "from") == "any_player":
                put("either_neighbour", "take_hand", "from")
    if when == "leader_before_trick" and value("take_hand", "per_trick") == "pass_in_turn":
        if rng.random() < 0.5:
            put(when := "before_any_trick", "take_hand", "when")
        else:
            put("one", "take_hand", "per_trick")
    defaults = (
        value("take_hand", "consent") is False
        and value("take_hand", "before_first_trick") is True
        and value("take_hand", "with_two_left") is True
        and value("take_hand", "per_trick") != "pass_in_turn"
        and value("take_hand", "from") in ("left", "right")
    )
    if when == "never" and not defaults and rng.random() < 0.5:
        put("before_any_trick", "take_hand", "when")
    elif when == "never":
        put(False, "take_hand", "consent")
        put(True, "take_hand", "before_first_trick")
        put(True, "take_hand", "with_two_left")
        if value("take_hand", "per_trick") == "pass_in_turn":
            put("one", "take_hand", "per_trick")
        if value("take_hand", "from") not in ("left", "right"):
            put("left", "take_hand", "from")


_NEVER = "take_hand.when=never"
_OWED = "take_hand.when=after_neighbour_tochoo"
_REFUSED_TAKE_PAIRS = [
    *(
        {_NEVER, other}
        for other in (
            "take_hand.consent=True",
            "take_hand.before_first_trick=False",
            "take_hand.with_two_left=False",
            "take_hand.per_trick=pass_in_turn",
            "take_hand.from=next_in_turn",
            "take_hand.from=either_neighbour",
            "take_hand.from=any_player",
        )
    ),
    {"take_hand.when=leader_before_trick", "take_hand.per_trick=pass_in_turn"},
    {_OWED, "take_hand.from=any_player"},
    {_OWED, "off_suit.play=pickup"},
    {_OWED, "off_suit.play=discard"},
    {_OWED, "off_suit.tochoo_picked_up_by=tochoo_player"},
]
"""Pairs of the house rules of taking (H20-H24) that ``rules validate`` refuses: options
that say nothing with no takes, a pass only the leader could be asked in, a debt nobody can
owe (semantic.py)."""


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
