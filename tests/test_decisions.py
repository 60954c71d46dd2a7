"""The decisions a referee reads from the engine instead of making them itself.

``Hand.judge`` (legal, penalised under C12, or refused, and why), ``Hand.default_action``
(the move of the referee's turn clock: house rule H27, the ruleset's ``timeout_move``) and
``Hand.copy`` (the one way to copy a hand, for trying a move).  Session standings are with
the C14 tests in test_clauses_common.py.
"""

from __future__ import annotations

import random

import pytest
from helpers import bundled_ids, deal, held, load_rules, log, run, variant

from referee.cards import card_str, cards_in, parse_card
from referee.engine import LEGAL, Judgement, Verdict
from referee.engine.hand import Hand
from referee.engine.shuffle import Stream
from referee.engine.types import (
    PICK_UP,
    TAKE_HAND,
    Action,
    EngineError,
    IllegalActionError,
    IllegalPlayPenalised,
    Reason,
)
from referee.ruleset.model import TimeoutMove


def everything(hand: Hand) -> tuple[object, ...]:
    """Every seat's view, the log, the history and the hidden piles: a hand's whole state."""
    views = tuple(hand.view(s) for s in [None, *range(hand.players)])
    return (
        views,
        tuple(hand.events or ()),
        tuple(hand.history),
        hand.waste,
        tuple(hand.draws_made),
        hand.forced_lead,
    )


def random_move(hand: Hand, rng: random.Random) -> tuple[int, Action]:
    """A random legal move of the seat the game waits for, never taking a hand (B9 ends
    random games within a few tricks)."""
    seat = hand.to_move
    assert seat is not None
    return seat, rng.choice([a for a in hand.legal_actions(seat) if a != TAKE_HAND])


def random_position(rules_id: str, players: int, seed: int, moves: int) -> Hand:
    """A seeded hand after ``moves`` random legal moves (fewer if it ends first)."""
    hand = Hand(load_rules(rules_id), players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if hand.is_over:
            break
        hand.apply(*random_move(hand, rng))
    return hand


# --- judge ----------------------------------------------------------------------------------


def test_judge_a_legal_action_is_the_shared_legal_judgement() -> None:
    hand = deal(load_rules("pickup"), ["AS 2H", "QS 5C 3H", "KS 4H"])
    judgement = hand.judge(0, Action.play("AS"))
    assert judgement is LEGAL and judgement.is_legal and judgement.reason is None
    assert hand.can(0, Action.play("AS"))


def test_judge_C12_reject_refuses_with_the_position_that_explains_it() -> None:
    hand = deal(load_rules("pickup"), ["AS 2H", "QS 5C 3H", "KS 4H"])  # plays 0, 2, 1
    run(hand, "0:AS 2:KS")
    judgement = hand.judge(1, Action.play("5C"))
    assert judgement == Judgement(
        Verdict.REFUSED,
        Reason.MUST_FOLLOW_SUIT,
        judgement.message,
        to_move=1,
        led_suit=3,  # spades
        forced_lead=None,
        legal_actions=(Action.play("QS"),),
    )
    assert "spades" in judgement.message and "5C" in judgement.message
    with pytest.raises(IllegalActionError) as caught:
        hand.apply(1, Action.play("5C"))
    assert (caught.value.reason, str(caught.value)) == (judgement.reason, judgement.message)


def test_judge_C12_pickup_penalty_penalises_and_apply_makes_the_penalty() -> None:
    hand = deal(variant("pickup", illegal_play="pickup_penalty"), ["AS 2H", "QS 5C 3H", "KS 4H"])
    run(hand, "0:AS 2:KS")
    judgement = hand.judge(1, Action.play("5C"))
    assert judgement.verdict is Verdict.PENALISED
    assert judgement.reason is Reason.MUST_FOLLOW_SUIT and "C12" in judgement.message
    assert not hand.can(1, Action.play("5C"))  # not a legal play, though not refused
    with pytest.raises(IllegalActionError):
        hand.verify(1, Action.play("5C"))
    assert log(hand.apply(1, Action.play("5C")))[0] == "1 penalised for 5C"
    assert held(hand, 1) == "5C 3H QS KS AS"


def test_judge_a_refused_lead_names_the_card_that_must_be_led() -> None:
    hand = deal(load_rules("pickup"), ["KS 2H", "AS 3H 4D", "QS 5H"])
    judgement = hand.judge(1, Action.play("3H"))
    assert (judgement.verdict, judgement.reason) == (Verdict.REFUSED, Reason.MUST_LEAD_CARD)
    assert judgement.forced_lead == parse_card("AS") and judgement.led_suit is None
    assert judgement.legal_actions == (Action.play("AS"),)


def test_judge_out_of_turn_says_whose_turn_it_is() -> None:
    hand = deal(load_rules("pickup"), ["KS 2H", "AS 3H 4D", "QS 5H"])
    judgement = hand.judge(0, Action.play("KS"))
    assert (judgement.reason, judgement.to_move, judgement.legal_actions) == (
        Reason.NOT_YOUR_TURN,
        1,
        (),
    )


@pytest.mark.parametrize("seat", [-1, 3])
def test_judge_an_unknown_seat_has_no_legal_actions(seat: int) -> None:
    hand = deal(load_rules("pickup"), ["KS 2H", "AS 3H 4D", "QS 5H"])
    judgement = hand.judge(seat, Action.play("AS"))
    assert (judgement.reason, judgement.legal_actions) == (Reason.UNKNOWN_SEAT, ())


@pytest.mark.parametrize(
    ("rules_id", "players"), [("pickup", 4), ("bhabho", 4), ("discard", 3), ("two-packs", 6)]
)
def test_judge_verify_can_and_apply_agree_on_every_action(rules_id: str, players: int) -> None:
    """Every action of every seat, at positions of random games: legal exactly when it is
    one of the seat's legal actions; a refusal changes nothing; a penalty is applied."""
    penalty = variant(rules_id, illegal_play="pickup_penalty")
    for number, rules in enumerate([load_rules(rules_id), penalty]):
        for seed in range(3):
            hand = Hand(rules, players, seed=seed + 10 * number)
            rng = random.Random(seed)
            for _ in range(rng.randrange(5, 60)):
                if hand.is_over:
                    break
                seat = rng.choice(hand.seats_to_act())
                hand.apply(seat, rng.choice(list(hand.legal_actions(seat))))
            actions = [Action.play(c) for c in hand.book.deck[::3]] + [PICK_UP, TAKE_HAND]
            for seat in range(-1, players + 1):
                legal = list(hand.legal_actions(seat)) if 0 <= seat < players else []
                for action in [*actions, *legal]:
                    judgement = hand.judge(seat, action)
                    assert judgement.is_legal == (action in legal) == hand.can(seat, action)
                    twin = hand.copy()
                    if judgement.verdict is Verdict.REFUSED:
                        with pytest.raises(IllegalActionError) as caught:
                            twin.apply(seat, action)
                        assert caught.value.reason is judgement.reason
                        assert everything(twin) == everything(hand)
                    elif judgement.verdict is Verdict.PENALISED:
                        assert rules is penalty
                        assert isinstance(twin.apply(seat, action)[0], IllegalPlayPenalised)
                    else:
                        hand.verify(seat, action)
                        twin.apply(seat, action)


# --- H27: the referee's turn clock ----------------------------------------------------------


def test_H27_bundled_rulesets_time_out_into_the_lowest_legal_card() -> None:
    for rules_id in bundled_ids():
        assert load_rules(rules_id).timeout_move is TimeoutMove.LOWEST_CARD, rules_id


def test_H27_a_seat_out_of_time_follows_with_its_lowest_card_of_the_led_suit() -> None:
    hand = deal(load_rules("pickup"), ["AS 2H", "QS 9S 3S KH", "KS 4H"])  # plays 0, 2, 1
    run(hand, "0:AS 2:KS")
    assert hand.default_action(1) == Action.play("3S")


def test_H27_a_leader_out_of_time_leads_the_lowest_card_clubs_first_of_equal_rank() -> None:
    hand = deal(load_rules("pickup"), ["AS 5H 5C 9D", "QS 6S", "KS 7D"])
    assert hand.default_action(0) == Action.play("AS")  # C6: the one card it may lead
    run(hand, "0:AS 2:KS 1:QS")
    assert hand.default_action(0) == Action.play("5C")


def test_H27_strength_is_the_rulesets_rank_order_so_ace_low_times_out_into_the_ace() -> None:
    hand = deal(load_rules("ace-low"), ["2S 3H AH", "3S 4H", "4S KH"])
    run(hand, "0:2S 2:4S 1:3S")  # ace-low: 2S leads (V3); 4S wins and leads
    run(hand, "2:KH")
    assert hand.default_action(1) == Action.play("4H")
    run(hand, "1:4H")
    assert hand.default_action(0) == Action.play("AH")


def test_H27_a_seat_that_cannot_follow_under_P1_picks_up() -> None:
    hand = deal(load_rules("pickup"), ["AS 2H 7C", "QS 5C", "KS 4H"])
    run(hand, "0:AS 2:KS 1:QS 0:2H 2:4H")
    assert list(hand.legal_actions(1)) == [PICK_UP]
    assert hand.default_action(1) == PICK_UP


def test_H27_the_clock_never_takes_a_hand() -> None:
    hand = deal(load_rules("bhabho"), ["AS 2H 7C", "QS 5C", "KS 4H 8D"])
    run(hand, "0:AS 1:QS 2:KS")  # B1: the first trick is complete; B2: seat 0 leads again
    assert TAKE_HAND in hand.legal_actions(0)
    assert hand.default_action(0) == Action.play("2H")


def test_timeout_move_highest_card_plays_the_highest_legal_card() -> None:
    rules = variant("pickup", timeout_move="highest_card")
    assert rules.timeout_move is TimeoutMove.HIGHEST_CARD
    hand = deal(rules, ["AS 5H 5C 9D", "QS 9S 3S KH", "KS 4H 10D"])
    run(hand, "0:AS 2:KS")
    assert hand.default_action(1) == Action.play("QS")
    run(hand, "1:3S")  # AS wins; seat 0 leads
    assert hand.default_action(0) == Action.play("9D")
    hands = ["AS 2H", "9H 9H/2 3S", "KS", "QS", "JS", "10S"]
    two = deal(variant("two-packs", timeout_move="highest_card"), hands)
    run(two, "0:AS 1:3S 2:KS 3:QS 4:JS 5:10S 0:2H")  # B1, then B2: seat 0 leads again
    assert card_str(two.default_action(1).card or 0) == "9H"  # of two equal cards, pack 1


def test_H27_only_the_seat_the_game_waits_for_has_a_timeout_move() -> None:
    hand = deal(load_rules("pickup"), ["AS 2H", "QS 5C 3H", "KS 4H"])
    with pytest.raises(EngineError, match="seat 0's turn, not seat 1's"):
        hand.default_action(1)
    finished = deal(load_rules("pickup"), ["AS", "KS", "QS"])
    run(finished, "0:AS 2:QS 1:KS")
    assert finished.is_over
    with pytest.raises(EngineError, match="hand is over"):
        finished.default_action(0)


def test_H27_the_timeout_move_is_always_legal() -> None:
    for rules_id, players in (("pickup", 4), ("bhabho", 5), ("discard", 3), ("two-packs", 6)):
        for move in ("lowest_card", "highest_card"):
            hand = Hand(variant(rules_id, timeout_move=move), players, seed=rules_id)
            while not hand.is_over:
                seat = hand.to_move
                assert seat is not None
                action = hand.default_action(seat)
                assert hand.judge(seat, action) is LEGAL and action != TAKE_HAND
                hand.apply(seat, action)


# --- copy -----------------------------------------------------------------------------------


def test_a_copy_and_its_original_evolve_independently() -> None:
    hand = random_position("pickup", 4, seed=7, moves=20)
    assert not hand.is_over
    before = everything(hand)
    twin = hand.copy()
    assert everything(twin) == before
    rng = random.Random(1)
    while not twin.is_over:
        seat = rng.choice(twin.seats_to_act())
        twin.apply(seat, rng.choice(list(twin.legal_actions(seat))))
    assert everything(hand) == before  # the copy's game left the original where it was
    finished = everything(twin)
    seat = hand.seats_to_act()[0]
    hand.apply(seat, next(iter(hand.legal_actions(seat))))
    assert everything(twin) == finished  # and the original's move left the copy alone


@pytest.mark.parametrize(
    ("rules_id", "players", "seed", "draws_after"),
    [("bhabho", 5, 4, 5), ("two-packs", 7, 4, 3), ("pickup", 4, 7, 0)],
)
def test_a_copy_plays_on_exactly_as_the_original(
    rules_id: str, players: int, seed: int, draws_after: int
) -> None:
    """The same moves from a copy make the same events, draws (B8 from the seed) and end."""
    hand = random_position(rules_id, players, seed=seed, moves=12)
    assert not hand.is_over and not hand.draws_made
    twin = hand.copy()
    rng = random.Random(seed)
    while not hand.is_over:
        seat, action = random_move(hand, rng)
        assert hand.apply(seat, action) == twin.apply(seat, action)
    assert everything(twin) == everything(hand)
    assert twin.outcome == hand.outcome and twin.draws_made == hand.draws_made
    assert len(hand.draws_made) >= draws_after  # the copied draw stream was used


def test_a_copy_shares_no_mutable_state() -> None:
    hand = random_position("bhabho", 4, seed=2, moves=10)
    twin = hand.copy()
    for name, value in vars(hand).items():
        if isinstance(value, list | dict | set | Stream):
            assert vars(twin)[name] is not value, name
    assert twin.rules is hand.rules and twin.book is hand.book and twin.deal is hand.deal


def test_a_copy_without_a_log_still_plays_and_keeps_the_history() -> None:
    hand = random_position("pickup", 3, seed=1, moves=6)
    twin = hand.copy(record=False)
    assert twin.events is None and twin.history == hand.history
    seat = twin.seats_to_act()[0]
    assert twin.apply(seat, next(iter(twin.legal_actions(seat)))) == []


def test_B8_an_impossible_explicit_draw_leaves_a_copy_and_the_hand_unchanged() -> None:
    hand = deal(load_rules("bhabho"), ["AS KH", "2S 5H 9C", "3S 4H 8D"], draws="5H")
    run(hand, "0:AS 1:2S 2:3S 0:KH 1:5H")
    twin = hand.copy()
    before = everything(hand)
    for which in (hand, twin):
        with pytest.raises(EngineError, match="not in the waste pile"):
            which.apply(2, Action.play("4H"))
        assert everything(which) == before
    assert [card_str(c) for c in cards_in(hand.waste)] == ["2S", "3S", "AS"]
