"""Determinizations (``referee/engine/determinize.py``): the hidden cards dealt afresh as one
seat could believe them to lie.

On random positions of every bundled ruleset and the house variants of ``test_voids`` (C12,
H25, H26, V4, H29, H14, H16, H5), at several player counts, for every seat: the sample is a
legal hand (cards conserved), the seat sees exactly what it saw (its whole view: its cards,
every size, every face-up card, the voids, its legal actions), no seat holds an unseen
card of a suit it showed void in, and the sample plays on to the end.  Samples vary, a
seed repeats its sample, and two hands that differ only in cards the seat cannot see give
the same samples from the same seed.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers import load_rules
from test_voids import CASE_IDS, CASES, positions, random_step, unsound

from referee.cards import cards_in
from referee.engine.determinize import _deal, determinize, hidden_cards
from referee.engine.hand import Hand, take_target
from referee.engine.types import TAKE_HAND, EngineError, Verdict
from referee.ruleset.model import Ruleset

EVERY = 4
"""A test samples every fourth position of a hand (all of them cost too much)."""


def sampled_positions(rules: Ruleset, players: int, seeds: range) -> list[Hand]:
    found = []
    for seed in seeds:
        for index, hand in enumerate(positions(rules, players, seed)):
            if not hand.is_over and index % EVERY == 0:
                found.append(hand.copy(record=False))
    return found


def same_sample(a: Hand, b: Hand) -> bool:
    return (a.hands, a.waste, a.forced_lead, a.unseen_draws) == (
        b.hands,
        b.waste,
        b.forced_lead,
        b.unseen_draws,
    )


@pytest.mark.parametrize(("name", "rules", "players"), CASES, ids=CASE_IDS)
def test_a_sample_is_a_legal_hand_the_seat_cannot_tell_apart(
    name: str, rules: Ruleset, players: int
) -> None:
    rng = random.Random(7)
    for hand in sampled_positions(rules, players, range(3)):
        total = hand.card_total()
        for seat in range(players):
            sample = determinize(hand, seat, rng)
            assert sample.card_total() == total
            assert sample.view(seat) == hand.view(seat), name
            for other in range(players):
                face_up = hand.known[other] & hand.hands[other]
                assert sample.hands[other] & face_up == face_up
            assert unsound(sample) == []
            assert sample.events is None


@pytest.mark.parametrize(("name", "rules", "players"), CASES, ids=CASE_IDS)
def test_a_sample_plays_on_to_the_end(name: str, rules: Ruleset, players: int) -> None:
    rng = random.Random(11)
    found = sampled_positions(rules, players, range(2))
    for index, hand in enumerate(found[:: max(1, len(found) // 4)]):
        sample = determinize(hand, index % players, rng)
        while not sample.is_over:
            random_step(sample, rng)
            sample.card_total()
            assert unsound(sample) == []
            assert sample.trick_number <= sample.book.max_tricks, f"{name}: past the bound"


@pytest.mark.parametrize(("name", "rules", "players"), CASES, ids=CASE_IDS)
def test_the_same_public_history_gives_the_same_samples(
    name: str, rules: Ruleset, players: int
) -> None:
    """A hand and a sample of it differ only in what the seat cannot see: from the same
    seed, sampling either gives the same cards everywhere."""
    for index, hand in enumerate(sampled_positions(rules, players, range(2))):
        seat = index % players
        other = determinize(hand, seat, random.Random(index))
        for seed in (1, 2):
            a = determinize(hand, seat, random.Random(seed))
            b = determinize(other, seat, random.Random(seed))
            assert same_sample(a, b), name
            assert same_sample(a, determinize(hand, seat, random.Random(seed)))


def test_samples_vary() -> None:
    hand = Hand(load_rules("pickup"), 4, seed=3, record=False)
    rng = random.Random(5)
    samples = {tuple(determinize(hand, 0, rng).hands) for _ in range(50)}
    assert len(samples) == 50
    assert all(sample[0] == hand.hands[0] for sample in samples)


def test_a_card_goes_to_each_other_seat_about_as_often() -> None:
    """No voids yet: the hidden cards are one shuffle, so a card lands in each of the three
    other hands (13 cards each) about a third of the time."""
    hand = Hand(load_rules("pickup"), 4, seed=3, record=False)
    card = min(cards_in(hand.hands[1]))
    rng = random.Random(9)
    holders = Counter(
        next(s for s, h in enumerate(determinize(hand, 0, rng).hands) if h >> card & 1)
        for _ in range(600)
    )
    assert set(holders) == {1, 2, 3}
    assert all(150 <= n <= 250 for n in holders.values()), holders


def test_the_hidden_cards_are_what_the_seat_cannot_place() -> None:
    hand = Hand(load_rules("pickup"), 4, seed=3, record=False)
    pinned = 1 << hand.forced_lead if hand.forced_lead >= 0 else 0  # C6: who leads it
    others = hand.hands[1] | hand.hands[2] | hand.hands[3]
    assert hidden_cards(hand, 0) == others & ~pinned


def test_tight_voids_leave_one_deal() -> None:
    """Seat 0 may hold only hearts, seat 1 spades or hearts, seat 2 anything: with three
    cards of each of hearts, spades and clubs there is one way, and the sampler finds it."""
    book = load_rules("pickup")
    masks = Hand(book, 3, seed=1, record=False).book.suit_masks
    pool = 0
    for suit in (0, 2, 3):
        pool |= sum(1 << c for c in list(cards_in(masks[suit]))[:3])
    for seed in range(20):
        dealt = _deal(pool, [3, 3, 3], [0b0100, 0b1100, 0b1111], masks, random.Random(seed))
        assert dealt == [pool & masks[2], pool & masks[3], pool & masks[0]]


def test_a_bad_seat_is_refused_in_one_line() -> None:
    hand = Hand(load_rules("pickup"), 4, seed=3, record=False)
    with pytest.raises(EngineError, match="there is no seat 4 at a table of 4"):
        determinize(hand, 4, random.Random(1))


def test_with_hands_refuses_a_sample_that_breaks_a_public_fact() -> None:
    hand = Hand(load_rules("pickup"), 3, seed=3, record=False)
    swapped = list(hand.hands)
    a, b = min(cards_in(swapped[0])), min(cards_in(swapped[1]))
    swapped[0] ^= 1 << a | 1 << b
    swapped[1] ^= 1 << a | 1 << b
    assert hand.with_hands(swapped).hands == swapped
    c = min(cards_in(swapped[1]))
    with pytest.raises(EngineError, match=r"seat 0 would hold \d+ cards, not \d+"):
        hand.with_hands([swapped[0] | 1 << c, swapped[1] & ~(1 << c), swapped[2]])
    hand.known[1] = hand.hands[1]
    with pytest.raises(EngineError, match="seat 1 would lose its face-up"):
        hand.with_hands(swapped)
    hand.known[1] = 0
    hand.voids[1] = 0b1111
    with pytest.raises(EngineError, match="seat 1 has shown no"):
        hand.with_hands(swapped)


def test_a_suit_is_placed_card_by_card_when_redeals_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no redeal at random, the card-by-card placement (a feasibility check each)
    still finds the one deal of ``test_tight_voids_leave_one_deal``."""
    monkeypatch.setattr("referee.engine.determinize.REDEALS", 0)
    test_tight_voids_leave_one_deal()


DRAWING = [
    ("bhabho", load_rules("bhabho")),
    *[(name, rules) for name, rules, players in CASES if "next_leader." in name and players == 4],
]
"""B8 (random and H16's top card) and H14 (the next player's hand, a chosen one)."""


@pytest.mark.parametrize(("name", "rules"), DRAWING, ids=[d[0] for d in DRAWING])
def test_a_draw_nobody_else_saw_is_drawn_afresh(name: str, rules: Ruleset) -> None:
    """Right after a B8 or H14 draw, the drawer's card is hidden from the others (but the
    hand it came from under H14): their samples draw it afresh, from the pile or the hidden
    cards, and make it the drawer's forced lead; the drawer's own sample keeps it."""
    rng = random.Random(3)
    checked = moved = 0
    for seed in range(80):
        for hand in positions(rules, 4, seed):
            if hand.is_over or not hand.unseen_draws:
                continue
            for seat in range(4):
                sample = determinize(hand, seat, rng)
                assert sample.view(seat) == hand.view(seat), name
                assert unsound(sample) == []
                other = determinize(sample, seat, random.Random(seed))
                assert same_sample(other, determinize(hand, seat, random.Random(seed)))
                for card, seen_by in hand.unseen_draws.items():
                    if seen_by == seat or hand.hands[seat] >> card & 1:  # it saw the card
                        assert [h >> card & 1 for h in sample.hands] == [
                            h >> card & 1 for h in hand.hands
                        ]
                if hand.forced_lead in hand.unseen_draws:
                    assert sample.hands[sample.leader] >> sample.forced_lead & 1
                    assert sample.forced_lead in sample.unseen_draws
                    moved += sample.forced_lead != hand.forced_lead
                checked += 1
    assert checked >= 20 and moved > 0, (checked, moved)


def test_a_taken_hand_shows_the_card_its_holder_drew_unseen() -> None:
    """B8 then B9: a seat takes the hand of one who drew from the waste pile unseen.  Its
    guess drew some card of the pile; now it sees the real one, which the guess has in the
    pile.  ``own=`` puts the guessed card back in the pile, the real one in the taker's
    hand, and keeps the sample a legal hand the taker cannot tell from the real one."""
    rules = load_rules("bhabho")
    rng = random.Random(5)
    checked = 0
    for seed in range(400):
        for hand in positions(rules, 3, seed):
            if hand.is_over:
                continue
            for taker in range(3):
                if hand.judge(taker, TAKE_HAND).verdict is Verdict.REFUSED:
                    continue
                target = take_target(hand.out, taker, hand.book.take_step)
                drawn = [c for c, by in hand.unseen_draws.items() if by < 0]
                if not any(hand.hands[target] >> c & 1 for c in drawn):
                    continue
                real = hand.copy(record=False)
                real.apply(taker, TAKE_HAND)
                guess = determinize(hand, taker, rng)
                guess.apply(taker, TAKE_HAND)
                sample = determinize(guess, taker, rng, own=real.hands[taker])
                assert sample.hands[taker] == real.hands[taker]
                assert sample.view(taker) == real.view(taker)
                assert sample.waste.bit_count() == real.waste.bit_count()
                assert unsound(sample) == []
                checked += 1
        if checked >= 5:
            break
    assert checked >= 5, checked
