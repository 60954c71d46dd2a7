"""Smoke test: no combination of the schema's options crashes the engine or fails to end.

The options are every enumerated option and every boolean of the ruleset schema (about 30
of them, 2 to 5 values each: about 10^9 combinations), so instead of all combinations the test
plays a *covering array of strength 2*: a set of rows (full assignments of every option)
such that every pair of values of every two options appears together in some row that
validates.  A bug that needs two options to interact shows in some row.

Construction (AETG-style greedy, seeded so the rows never change between runs):

1. Every pair (option a = x, option b = y) with a before b is *uncovered* at the start,
   except the pairs ``IMPOSSIBLE`` lists, which no valid ruleset holds.
2. A new row is built by several candidates (another set of them, up to ``ROUNDS``, when
   none of a set is valid): each takes the options in a random order and gives each the
   value that covers the most uncovered pairs together with the values already chosen
   (ties broken at random).  The candidates are ranked by the pairs they
   cover, and the first that gives a valid ruleset (on top of the base ruleset, by the
   loader's own checks) becomes the row.
3. Repeat until no valid candidate covers a new pair; the test checks that no pair is left
   uncovered, and that each pair of ``IMPOSSIBLE`` is refused (``trump:
   first_off_suit_card`` needs off-suit cards to be played, so never goes with
   ``off_suit.play: pickup``, and so on).  An optional option without a default
   (``trump_suit``, H12) takes the value "absent" (left out) beside its own, and is made to
   agree with ``trump`` in every candidate.
   The house rules of taking (H20-H24) have pairs ``rules validate`` refuses: they are
   left out from the start, and candidate rows are repaired (``_repair_takes``).

One constraint is repaired rather than skipped: a team ruleset (``players.teams:
partners_opposite``) needs an even number of players, so its rows set ``players.min`` to 4.

The array is built on two bases, ``pickup`` and ``bhabho`` (the options they do not set,
such as ``deck.ranks``, differ).  For every row, hands with 3 to 6 players (the even ones
under teams) are played by the fast random playout, and its actions are replayed through
``Hand.apply``, which checks each one: the hand must end, the two must agree, and no card
may be lost or invented at any step.  A row with a house rule the fast playout does not play
(``RuleBook.fast_playout`` false: H1, H4, H5, H6, H9, H10, H12, H14-H19) is played by random
legal play on ``Hand`` alone.
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
ROUNDS = 12
"""Sets of candidates tried before a row is given up (the last pairs are hard to hit)."""
HANDS_PER_ROW = 4
MISSES = 20
"""Rounds of candidates in a row that find no valid row covering a new pair, before the
array is taken as complete (the pairs left are those no valid row can hold)."""

Option = tuple[str, ...]
Pair = tuple[int, Any, int, Any]
"""(option index a, value of a, option index b, value of b), a < b."""


LEFT_OUT = frozenset({("trump_suit",)})
"""Optional options without a default, which a row may leave out (the value ABSENT)."""
ABSENT = "absent"
IMPOSSIBLE: tuple[tuple[str, str], ...] = (
    ("trump=first_off_suit_card", "off_suit.play=pickup"),  # X5 needs off-suit cards
    ("trump=fixed", "off_suit.play=pickup"),  # H12 as well
    ("trump=dealer_choice", "off_suit.play=pickup"),
    ("trump=fixed", f"trump_suit={ABSENT}"),  # H12: fixed needs its suit ...
    *(
        (f"trump={t}", f"trump_suit={s}")
        for t in ("none", "first_off_suit_card", "dealer_choice")
        for s in "CDHS"
    ),  # ... and no other trump has one
    ("off_suit.play=pickup", "next_leader.after_pickup=tochoo_player"),  # H9 needs a tochoo
    ("off_suit.play=discard", "next_leader.after_pickup=tochoo_player"),
    *(("off_suit.play=pickup", f"trump_suit={s}") for s in "CDHS"),  # H12's fixed trump
    ("next_leader.after_complete_trick=lowest", "next_leader.if_out=next_highest"),  # H10
    ("off_suit.play=pickup", "illegal_play=challenge"),  # H25: no off-suit card to challenge
    ("off_suit.play=tochoo_plays_on", "take_hand.when=after_neighbour_tochoo"),  # H24 needs B4
)
"""Pairs of option values no valid ruleset holds, each refused by ``bhabhi rules validate``:
the array does not seek them (a test checks that each is refused)."""


def _options() -> list[tuple[Option, list[Any]]]:
    return [
        (path, [ABSENT, *values] if path in LEFT_OUT else values)
        for path, values in schema_options()
        if path != ("end", "max_tricks")
    ]


def _apply(
    base: Ruleset, options: Sequence[tuple[Option, list[Any]]], row: Sequence[Any]
) -> dict[str, Any]:
    data: dict[str, Any] = dict(base.source)
    for (path, _), value in zip(options, row, strict=True):
        if value == ABSENT and path in LEFT_OUT:
            data = {k: v for k, v in data.items() if k != path[0]}
        else:
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
        if not _impossible((_label(options[a][0], x), _label(options[b][0], y)))
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
        chosen_row = None
        for _ in range(ROUNDS):
            chosen_row = _best_valid_row(base, options, uncovered, rng)
            if chosen_row is not None:
                break
        if chosen_row is None:
            misses += 1  # every candidate invalid or covering nothing new: try again
            if misses > MISSES:
                break
            continue
        rows.append(chosen_row)
        uncovered -= set(_pairs(chosen_row))
    return options, rows, uncovered


def _best_valid_row(
    base: Ruleset,
    options: Sequence[tuple[Option, list[Any]]],
    uncovered: set[Pair],
    rng: random.Random,
) -> list[Any] | None:
    """Of ``CANDIDATES`` greedy rows, the one covering most new pairs that validates."""
    candidates = []
    for _ in range(CANDIDATES):
        row: list[Any] = [None] * len(options)
        order = list(range(len(options)))
        rng.shuffle(order)
        for index in order:
            values = list(options[index][1])
            rng.shuffle(values)
            values = _allowed(options, row, index, values)
            gains = [_gain(row, index, value, uncovered) for value in values]
            row[index] = values[gains.index(max(gains))]
        _repair(options, row)
        _repair_takes(options, row, rng)
        _repair_trump_suit(options, row, uncovered)
        new = sum(1 for pair in _pairs(row) if pair in uncovered)
        candidates.append((new, row))
    candidates.sort(key=lambda c: -c[0])
    for new, row in candidates:
        if new and not validate(_apply(base, options, row)):
            return row
    return None


def _repair_trump_suit(
    options: Sequence[tuple[Option, list[Any]]], row: list[Any], uncovered: set[Pair]
) -> None:
    """H12: ``trump_suit`` goes with ``trump: fixed`` and with no other trump, so a candidate
    row is made to agree before its pairs are counted (else few rows would validate): the
    suit of a fixed trump is the one that covers the most pairs."""
    paths = [path for path, _ in options]
    trump, suit = paths.index(("trump",)), paths.index(("trump_suit",))
    if row[trump] != "fixed":
        row[suit] = ABSENT
        return
    row[suit] = None
    gains = [(_gain(row, suit, value, uncovered), value) for value in "CDHS"]
    row[suit] = max(gains)[1]


def _label(path: Option, value: Any) -> str:
    return f"{'.'.join(path)}={value}"


@pytest.mark.parametrize("base_id", BASES)
def test_covering_array_covers_every_valid_pair(base_id: str) -> None:
    options, rows, uncovered = covering_array(base_id)
    assert rows
    left = {(_label(options[a][0], x), _label(options[b][0], y)) for a, x, b, y in uncovered}
    assert not left, f"pairs no row covers: {sorted(left)[:10]}"


@pytest.mark.parametrize("base_id", BASES)
@pytest.mark.parametrize("pair", IMPOSSIBLE, ids="/".join)
def test_the_pairs_the_array_leaves_out_are_refused(base_id: str, pair: tuple[str, str]) -> None:
    data: dict[str, Any] = dict(load_ruleset(base_id).source)
    for label in pair:
        path, _, value = label.partition("=")
        keys = tuple(path.split("."))
        if value == ABSENT:
            data = {k: v for k, v in data.items() if k != keys[0]}
        else:
            data = mutate(data, keys, value)
    assert validate(data), pair


def _impossible(pair: tuple[str, str]) -> bool:
    return (
        pair in IMPOSSIBLE
        or pair[::-1] in IMPOSSIBLE
        or _power_rules_refuse(*pair)
        or set(pair) in _REFUSED_TAKE_PAIRS
    )


_POWER_REFUSED = {
    # H14-H16: an option of a draw nobody makes.
    "next_leader.draw_from=chosen": {
        "next_leader.if_out=next_in_turn",
        "next_leader.if_out=draws_from_waste",
        "next_leader.if_out=next_highest",
        "next_leader.draw_pile=waste_and_trick",  # which needs draws_from_waste
        "next_leader.draw=top",
    },
    "next_leader.draw_pile=waste_and_trick": {
        "next_leader.if_out=next_in_turn",
        "next_leader.if_out=next_highest",
        "next_leader.if_out=draws_from_player",
    },
    "next_leader.draw=top": {
        "next_leader.if_out=next_in_turn",
        "next_leader.if_out=next_highest",
        "next_leader.if_out=draws_from_player",
    },
    # H17: a shootout needs draws and a trick the other player's void ends.
    "end.shootout=after_waste_draw": {
        "next_leader.if_out=next_in_turn",
        "next_leader.if_out=next_highest",
        "off_suit.play=discard",
    },
    "end.shootout=any_last_card": {
        "next_leader.if_out=next_in_turn",
        "next_leader.if_out=next_highest",
        "off_suit.play=discard",
    },
    # H18 needs a tochoo that ends the trick; H19 needs B8.
    "end.two_left_tochoo_wins=True": {
        "off_suit.play=pickup",
        "off_suit.play=discard",
        "off_suit.play=tochoo_plays_on",
    },
    "end.two_left_power_escapes=True": {
        "next_leader.if_out=next_in_turn",
        "next_leader.if_out=next_highest",
    },
}
"""Pairs of values that ``bhabhi rules validate`` refuses whatever the other options."""


def _power_rules_refuse(a: str, b: str) -> bool:
    return b in _POWER_REFUSED.get(a, set()) or a in _POWER_REFUSED.get(b, set())


_POWER_DEFAULTS = {
    ("next_leader", "draw_from"): "next_active",
    ("next_leader", "draw_pile"): "waste",
    ("next_leader", "draw"): "random",
    ("end", "shootout"): "none",
    ("end", "two_left_tochoo_wins"): False,
    ("end", "two_left_power_escapes"): False,
}


def _allowed(
    options: Sequence[tuple[Option, list[Any]]], row: list[Any], index: int, values: list[Any]
) -> list[Any]:
    """The values of option ``index`` that make no refused pair with a value chosen so far
    (``IMPOSSIBLE`` and the refusals of H14-H19)."""
    chosen = [_label(options[i][0], v) for i, v in enumerate(row) if v is not None]
    path = options[index][0]
    allowed = [v for v in values if not any(_impossible((_label(path, v), c)) for c in chosen)]
    return allowed or values


def _repair(options: Sequence[tuple[Option, list[Any]]], row: list[Any]) -> None:
    """Set an option of H14-H19 back to its default where the row's other values make the
    ruleset refused, so that random rows stay valid often enough to cover every pair."""
    labels = [_label(path, value) for (path, _), value in zip(options, row, strict=True)]
    index = {path: i for i, (path, _) in enumerate(options)}
    value = dict(zip((path for path, _ in options), row, strict=True))
    for path, default in _POWER_DEFAULTS.items():
        i = index[path]
        if any(_power_rules_refuse(labels[i], other) for other in labels):
            row[i] = default
            labels[i] = _label(path, default)
    x2 = value[("end", "two_left_pickup_loses")]
    other_picks = value[("off_suit", "play")] == "pickup" or (
        value[("off_suit", "tochoo_picked_up_by")] == "tochoo_player"
    )
    if x2 and other_picks:  # H17 and H18 would contradict X2 about who is the Bhabhi
        row[index[("end", "shootout")]] = "none"
        if value[("off_suit", "tochoo_picked_up_by")] == "tochoo_player":
            row[index[("end", "two_left_tochoo_wins")]] = False


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
