"""H31: a dead position ends the hand at the first trick boundary at which it is dead, or
the hand is played on to the bound (``end.at_dead_position: play_on``).

The property test plays random hands through ``Hand`` and, at every trick boundary, asks an
exhaustive search written here (depth first, no cache, no budget) whether the position is
dead; the hand must end in a dead position exactly at the first boundary it names, and never
before or without one.
"""

from __future__ import annotations

import random

import pytest
from helpers import deal, run, variant

from referee.cards import card_str
from referee.engine import deadpos
from referee.engine.hand import Hand
from referee.engine.playout import action_of, random_playout
from referee.engine.types import Outcome, Termination
from referee.ruleset.clauses import clause_problems
from referee.ruleset.loader import RulesetError, load_ruleset_text
from referee.ruleset.model import Ruleset
from referee.ruleset.yamlsafe import KeyPath, Mark

Counts = tuple[int, int, int, int]


def _reference_dead(hand: Hand) -> bool:
    """The definition of docs/engine.md, by an exhaustive search of its own: no suit has as
    many cards as there are players still in, and no abstract play lets any of them go out."""
    book = hand.book
    seats = [hand.leader]
    while (following := hand.next_active(seats[-1])) != hand.leader:
        seats.append(following)
    k = len(seats)
    if k < 2 or (k == 2 and book.two_left_pickup_loses):
        return False

    def counts(mask: int) -> Counts:
        m = book.suit_masks
        return (
            (mask & m[0]).bit_count(),
            (mask & m[1]).bit_count(),
            (mask & m[2]).bit_count(),
            (mask & m[3]).bit_count(),
        )

    start = tuple(counts(hand.hands[s]) for s in seats)
    pile = counts(hand.waste) if book.pickup_takes_waste else (0, 0, 0, 0)
    if any(sum(c[s] for c in start) + pile[s] >= k for s in range(4)):
        return False
    any_leads = book.after_pickup != 0
    seen = {(start, pile)}
    stack = [(start, pile)]
    while stack:
        hands, waste = stack.pop()
        for following_state in deadpos._tricks(hands, waste, any_leads, book.illegal_play_penalty):
            if following_state is None:
                return False
            if following_state not in seen:
                seen.add(following_state)
                stack.append(following_state)
    return True


PICKUP_FAMILY = {
    "pickup": "extends: pickup",
    "ace-low": "extends: ace-low",
    "team": "extends: team",
    "whole-pile": "extends: whole-pile",
    "high-card-lead": "extends: high-card-lead",
    "lowest-leads": "extends: pickup\nnext_leader: {after_pickup: lowest}",
    "penalty": "extends: pickup\nillegal_play: pickup_penalty",
    "draws": "extends: pickup\nnext_leader: {if_out: draws_from_waste}",
    "two-left": "extends: pickup\nend: {two_left_pickup_loses: true}",
    "two-packs": "extends: pickup\ndeck: {packs: 2, identical_cards: first_played}\n"
    "players: {min: 6, max: 12}",
}


def _rules(name: str, extra: str = "") -> Ruleset:
    return load_ruleset_text(f"id: h31-{name}\n{PICKUP_FAMILY[name]}\n{extra}", f"{name}.yaml")


def _random_hand(rules: Ruleset, players: int, seed: int) -> tuple[Hand, list[int]]:
    """A random hand through ``Hand``; also the trick numbers of the boundaries it passed
    at which the reference search calls the position dead."""
    rng = random.Random(seed)
    hand = Hand(rules, players, seed=f"h31-{seed}", dealer=seed % players)
    dead_at: list[int] = []
    while hand.outcome is None:
        seat = hand.to_move
        assert seat is not None
        actions = list(hand.legal_actions(seat))
        before = hand.trick_number
        hand.apply(seat, actions[rng.randrange(len(actions))])
        if hand.trick_number != before and hand.trick_number > 0:
            active = [s for s in range(players) if not hand.out[s]]
            live = len(active) > 1 and hand.trick_number < rules.end.max_tricks
            if live and _reference_dead(hand):
                dead_at.append(hand.trick_number)
    return hand, dead_at


@pytest.mark.parametrize("name", sorted(PICKUP_FAMILY))
def test_a_dead_position_ends_the_hand_at_the_first_dead_boundary(name: str) -> None:
    rules = _rules(name)
    low, high = rules.players.min, min(rules.players.max, 8)
    ended_dead = 0
    for seed in range(40):
        players = low + seed % (high - low + 1)
        if rules.players.teams.value != "none" and players % 2:
            players -= 1
        hand, dead_at = _random_hand(rules, players, seed)
        assert hand.outcome is not None
        if hand.outcome.termination is Termination.DEAD_POSITION:
            ended_dead += 1
            assert dead_at == [hand.trick_number], (name, players, seed)
        else:
            assert dead_at == [], (name, players, seed)
    if name in ("pickup", "ace-low", "team"):
        assert ended_dead, "no hand ended in a dead position: the test shows nothing"


@pytest.mark.parametrize("name", ["pickup", "ace-low", "penalty", "whole-pile"])
def test_play_on_never_ends_in_a_dead_position(name: str) -> None:
    rules = _rules(name, "end: {at_dead_position: play_on}")
    assert rules.end.at_dead_position.value == "play_on"
    for seed in range(30):
        result = random_playout(rules, 3 + seed % 3, f"play-on-{seed}", 0)
        assert result.termination is not Termination.DEAD_POSITION


def test_play_on_playout_equals_hand() -> None:
    """The fast playout plays on exactly as ``Hand`` (tests/test_playout.py for the rest)."""
    rules = _rules("pickup", "end: {at_dead_position: play_on, max_tricks: 40}")
    for seed in range(30):
        players = 3 + seed % 4
        result = random_playout(rules, players, f"po-{seed}", seed % players)
        hand = Hand(rules, players, seed=f"po-{seed}", dealer=seed % players)
        for seat, code in result.actions:
            hand.apply(seat, action_of(code))
        assert hand.outcome == result.outcome
        assert hand.trick_number == result.tricks


def test_the_case_deal_dead_at_trick_3_names_the_bhabhi_there() -> None:
    script = "2:AS 1:pickup 1:AS 0:pickup 0:KD 2:3D 1:9D"
    dead = deal(variant("pickup", end={"max_tricks": 8}), ["KD 7C", "7H 9D", "3D AS"])
    run(dead, script)
    assert dead.outcome == Outcome(Termination.DEAD_POSITION, 0, (2,))
    assert dead.trick_number == 3
    rules = variant("pickup", end={"max_tricks": 8, "at_dead_position": "play_on"})
    on = deal(rules, ["KD 7C", "7H 9D", "3D AS"])
    run(on, script)
    assert on.outcome is None
    sizes = []
    while on.outcome is None:
        seat = on.to_move
        assert seat is not None
        run(on, f"{seat}:{'pickup' if on.trick else _lead(on, seat)}")
        sizes.append(on.hand_sizes()[:2])
    # Played on, the most cards change hands every trick: only the first dead boundary
    # gives a Bhabhi that does not depend on when it is looked at.
    assert {sizes[i] for i in range(1, len(sizes), 2)} == {(2, 1), (1, 2)}
    assert on.outcome == Outcome(Termination.MAX_TRICKS, 1, (2,))


def _lead(hand: Hand, seat: int) -> str:
    first = next(iter(hand.legal_actions(seat)))
    assert first.card is not None
    return card_str(first.card)


def test_the_search_has_no_budget() -> None:
    assert not hasattr(deadpos, "SEARCH_BUDGET")


def test_play_on_is_a_value_of_at_dead_position_only() -> None:
    with pytest.raises(RulesetError):
        load_ruleset_text("id: bad\nextends: pickup\nend: {at_max_tricks: play_on}\n", "bad.yaml")


def _nowhere(path: KeyPath, _key: bool) -> tuple[str, Mark]:
    return "h31.yaml", Mark(1, 1)


def test_declaring_H31_needs_play_on() -> None:
    rules = _rules("pickup", "end: {at_dead_position: play_on}")
    data = dict(rules.source)
    data["clauses"] = [*data["clauses"], "H31"]
    assert not [p for p in clause_problems(data, _nowhere) if "H31" in p.message]
    data["end"] = {**data["end"], "at_dead_position": "most_cards"}
    problems = [p for p in clause_problems(data, _nowhere) if "H31" in p.message]
    assert problems and "end.at_dead_position: play_on" in problems[0].message
