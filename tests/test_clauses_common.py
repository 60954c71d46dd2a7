"""Clauses C1-C16 of the clause catalogue (common to every variant), and the refusals.

Every test is named after the clause it checks and plays a small hand-made deal (or a seeded
one where the clause is about the deal itself).  The expectations are read off the rule texts
(the How to Play document and the Bhabho document), not off the engine.  Seats are numbered
clockwise: ``pickup`` plays counterclockwise (0, n-1, n-2 …), ``get-away`` and ``bhabho``
clockwise (0, 1, 2 …).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from helpers import (
    ROOT,
    deal,
    held,
    load_rules,
    log,
    run,
    variant,
)

from referee.cards import RANKS, SUITS, parse_card
from referee.engine.hand import Hand
from referee.engine.session import Session
from referee.engine.types import (
    PICK_UP,
    TAKE_HAND,
    Action,
    EngineError,
    HandStarted,
    IllegalActionError,
    Outcome,
    Reason,
    Termination,
)

VECTORS: dict[str, Any] = json.loads((ROOT / "docs" / "shuffle-vectors.json").read_text())


def shuffle_vector(seed: int | str) -> list[int]:
    """The published shuffle of the full pack for ``seed`` (docs/shuffle-vectors.json)."""
    for entry in VECTORS["shuffles"]:
        if entry["seed"] == seed:
            return [parse_card(c) for c in entry["order"]]
    raise KeyError(seed)


def play_out(hand: Hand, rng: random.Random, limit: int = 100_000) -> None:
    """Random legal play until the hand is over."""
    for _ in range(limit):
        if hand.is_over:
            return
        seat = hand.to_move
        assert seat is not None
        actions = [a for a in hand.legal_actions(seat) if a != TAKE_HAND]
        hand.apply(seat, rng.choice(actions))
    raise AssertionError("hand did not end")


def state(hand: Hand) -> tuple[object, ...]:
    """Everything observable about a hand: every seat's view, sizes, events, history."""
    views = tuple(hand.view(s) for s in [None, *range(hand.players)])
    events = tuple(hand.events or ())
    return views, hand.hand_sizes(), events, tuple(hand.history), hand.waste


def assert_refused(hand: Hand, seat: int, action: Action, reason: Reason) -> IllegalActionError:
    """``seat`` may not play ``action``: IllegalActionError with ``reason``, nothing changes."""
    before = state(hand)
    assert not hand.can(seat, action)
    with pytest.raises(IllegalActionError) as caught:
        hand.apply(seat, action)
    assert caught.value.reason is reason, str(caught.value)
    assert caught.value.seat == seat
    assert state(hand) == before
    return caught.value


# --- C1 deck ------------------------------------------------------------------------------


def test_C1_one_pack_of_52_cards_four_suits_thirteen_ranks_no_jokers() -> None:
    hand = Hand(load_rules("pickup"), 4, seed=1)
    whole_pack = sorted(parse_card(r + s) for s in SUITS for r in RANKS)
    assert sorted(c for h in hand.deal for c in h) == whole_pack
    assert hand.card_total() == 52


def test_C1_ace_ranks_high_and_an_off_suit_card_never_wins() -> None:
    # Discard rules let an off-suit card be played, so "no trump" is visible: the Ace of
    # clubs played to a heart trick cannot win it; the Ace of spades beats K and Q.
    rules = load_rules("discard")  # counterclockwise: 0, 2, 1
    hand = deal(rules, ["AS 2H 5D", "QS AC 6D", "KS 3H 7D"])
    assert log(run(hand, "0:AS 2:KS 1:QS"))[3] == "trick 0 complete high 0 next 0"
    events = log(run(hand, "0:2H 2:3H 1:AC"))
    assert events[:4] == [
        "0 lead 2H",
        "2 follow 3H",
        "1 discard AC",
        "trick 1 complete high 2 next 2",
    ]
    assert hand.leader == 2


# --- C2 players ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_C2_three_to_eight_players(players: int) -> None:
    hand = Hand(load_rules("pickup"), players, seed=3)
    assert len(hand.deal) == players
    assert hand.card_total() == 52


@pytest.mark.parametrize("players", [2, 9])
def test_C2_fewer_than_three_or_more_than_eight_players_are_refused(players: int) -> None:
    with pytest.raises(EngineError, match="3 to 8"):
        Hand(load_rules("pickup"), players, seed=3)


# --- C3 direction -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule_id", "expected_turns"),
    [("pickup", [3, 2, 1]), ("get-away", [1, 2, 3])],  # counterclockwise / clockwise
)
def test_C3_play_goes_round_in_the_agreed_direction(
    rule_id: str, expected_turns: list[int]
) -> None:
    hand = deal(load_rules(rule_id), ["AS 2H", "KS 3H", "QS 4H", "JS 5H"])
    turns = []
    hand.apply(0, Action.play("AS"))
    for _ in range(3):
        seat = hand.to_move
        assert seat is not None
        turns.append(seat)
        (spade,) = [a for a in hand.legal_actions(seat)]
        hand.apply(seat, spade)
    assert turns == expected_turns


# --- C4 deal ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule_id", "seed", "players", "dealer", "receivers"),
    [
        # counterclockwise: after dealer 0 comes seat 2, then 1, then 0
        ("pickup", 0, 3, 0, [2, 1, 0]),
        ("pickup", 42, 3, 1, [0, 2, 1]),
        # clockwise: after dealer 0 comes seat 1
        ("get-away", 0, 3, 0, [1, 2, 0]),
        ("get-away", 0, 5, 3, [4, 0, 1, 2, 3]),
        ("pickup", 42, 5, 3, [2, 1, 0, 4, 3]),
    ],
)
def test_C4_whole_pack_dealt_one_at_a_time_in_play_direction_from_the_player_after_the_dealer(
    rule_id: str, seed: int, players: int, dealer: int, receivers: list[int]
) -> None:
    order = shuffle_vector(seed)
    hand = Hand(load_rules(rule_id), players, seed=seed, dealer=dealer)
    for k, seat in enumerate(receivers):
        assert list(hand.deal[seat]) == order[k::players], f"seat {seat}"
    # 52 = q * n + r: the first r players after the dealer get the extra card
    q, r = divmod(52, players)
    sizes = {seat: q + (1 if k < r else 0) for k, seat in enumerate(receivers)}
    assert hand.hand_sizes() == tuple(sizes[s] for s in range(players))


def test_C4_extra_card_goes_to_the_player_after_the_dealer() -> None:
    # 3 players, 52 cards: 18, 17, 17; the 18 go to the first to receive.
    ccw = Hand(load_rules("pickup"), 3, seed=5, dealer=0)
    cw = Hand(load_rules("get-away"), 3, seed=5, dealer=0)
    assert ccw.hand_sizes() == (17, 17, 18)
    assert cw.hand_sizes() == (17, 18, 17)


# --- C5 dealer ----------------------------------------------------------------------------


def finish_session_hands(session: Session, count: int, seed: int = 0) -> list[Hand]:
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        hand = session.next_hand()
        play_out(hand, rng)
        hands.append(hand)
    return hands


@pytest.mark.parametrize(
    ("rules", "first_dealer", "expected"),
    [
        # How to Play: the deal rotates counter-clockwise (seat 0, then 3, 2, 1)
        (lambda: load_rules("discard"), None, [0, 3, 2, 1, 0]),
        # the Bhabho ruleset lets the deal follow play (clockwise)
        (lambda: load_rules("bhabho"), None, [0, 1, 2, 3, 0]),
        # the first dealer is by agreement
        (lambda: load_rules("discard"), 2, [2, 1, 0, 3, 2]),
        # dealer_moves: clockwise while play goes counterclockwise
        (lambda: variant("discard", deal={"dealer_moves": "clockwise"}), 1, [1, 2, 3, 0, 1]),
    ],
    ids=["counterclockwise", "with-play", "first-dealer-2", "clockwise-against-play"],
)
def test_C5_the_deal_moves_on_each_hand(
    rules: Any, first_dealer: int | None, expected: list[int]
) -> None:
    session = Session(rules(), 4, seed="c5", hands=5, first_dealer=first_dealer)
    hands = finish_session_hands(session, 5)
    assert [h.dealer for h in hands] == expected
    for hand in hands:
        assert hand.events is not None
        started = hand.events[0]
        assert isinstance(started, HandStarted)
        assert started.dealer == hand.dealer


# --- C6 first lead ------------------------------------------------------------------------


def test_C6_holder_of_the_ace_of_spades_must_lead_it_first() -> None:
    hand = deal(load_rules("pickup"), ["KS 2H", "AS 3H 4D", "QS 5H"])
    assert hand.to_move == 1
    assert hand.seats_to_act() == (1,)
    assert list(hand.legal_actions(1)) == [Action.play("AS")]
    assert not list(hand.legal_actions(0)) and not list(hand.legal_actions(2))
    assert_refused(hand, 1, Action.play("3H"), Reason.MUST_LEAD_CARD)
    assert log(hand.apply(1, Action.play("AS"))) == ["1 lead AS"]


def test_C6_without_the_ace_of_spades_the_highest_spade_leads() -> None:
    hand = deal(load_rules("pickup"), ["QS 2H", "3H 4D", "KS 5H"])
    assert hand.to_move == 2
    assert list(hand.legal_actions(2)) == [Action.play("KS")]


def test_C6_without_any_spade_the_player_after_the_dealer_leads_any_card() -> None:
    rules = load_rules("pickup")  # counterclockwise: after dealer 0 comes seat 2
    hand = deal(rules, ["2H 3C", "3H 4D", "5H 6C"], dealer=0)
    assert hand.to_move == 2
    assert list(hand.legal_actions(2)) == [Action.play(c) for c in ("6C", "5H")]


def test_C6_if_absent_player_after_dealer_leads_any_card_even_with_spades_in_play() -> None:
    rules = variant("pickup", first_lead={"if_absent": "player_after_dealer"})
    hand = deal(rules, ["QS 2H", "3H 4D", "KS 5H"], dealer=1)  # after dealer 1 comes seat 0
    assert hand.to_move == 0
    assert set(hand.legal_actions(0)) == {Action.play("QS"), Action.play("2H")}


# --- C7 follow suit -----------------------------------------------------------------------


def test_C7_must_follow_suit_when_able_with_free_choice_among_the_suit() -> None:
    hand = deal(load_rules("pickup"), ["AS 9H 2C", "QS 4H 5H 6C", "KS 7H 3C"])
    run(hand, "0:AS 2:KS 1:QS")
    run(hand, "0:9H")
    assert hand.to_move == 2
    assert list(hand.legal_actions(2)) == [Action.play("7H")]
    run(hand, "2:7H")
    assert set(hand.legal_actions(1)) == {Action.play("4H"), Action.play("5H")}
    assert_refused(hand, 1, Action.play("6C"), Reason.MUST_FOLLOW_SUIT)


def test_C7_the_lead_is_a_free_choice_of_any_card() -> None:
    hand = deal(load_rules("pickup"), ["AS 9H 2C 3D", "QS 4H 6C", "KS 7H 3C"])
    run(hand, "0:AS 2:KS 1:QS")
    assert hand.to_move == 0
    assert set(hand.legal_actions(0)) == {Action.play(c) for c in ("9H", "2C", "3D")}


# --- C8 clean trick -----------------------------------------------------------------------


def test_C8_clean_trick_highest_of_led_suit_wins_cards_go_to_waste_winner_leads() -> None:
    hand = deal(load_rules("pickup"), ["AS 9H 4D", "2S 10H 5D", "KS JH 6D"])
    assert log(run(hand, "0:AS 2:KS 1:2S")) == [
        "0 lead AS",
        "2 follow KS",
        "1 follow 2S",
        "trick 0 complete high 0 next 0",
        "waste 2S KS AS",
    ]
    assert hand.view(None).waste_size == 3
    assert log(run(hand, "0:9H 2:JH 1:10H"))[3:] == [
        "trick 1 complete high 2 next 2",
        "waste 9H 10H JH",
    ]
    assert hand.to_move == 2 and hand.view(1).waste_size == 6
    assert hand.hand_sizes() == (1, 1, 1)


# --- C9 going out -------------------------------------------------------------------------


def test_C9_player_with_an_empty_hand_after_a_trick_is_out_and_skipped() -> None:
    hand = deal(load_rules("pickup"), ["AS 9H 4D", "2S 10H 5D", "KS"])
    assert log(run(hand, "0:AS 2:KS 1:2S"))[3:] == [
        "trick 0 complete high 0 next 0",
        "2 out emptied",
        "waste 2S KS AS",
    ]
    assert hand.view(0).out == (False, False, True)
    hand.apply(0, Action.play("9H"))
    assert hand.to_move == 1  # seat 2 takes no further part
    assert not list(hand.legal_actions(2))
    assert_refused(hand, 2, Action.play("KS"), Reason.PLAYER_OUT)


def test_C9_last_card_played_to_a_trick_another_player_picks_up_still_goes_out() -> None:
    # P1 takes the cards of the trick into the picker's hand: seat 3's last card is gone
    # and its hand is empty at the end of the trick.
    hand = deal(load_rules("pickup"), ["AS 3H", "5D 6D", "QS 4H", "KS"])  # 0, 3, 2, 1
    assert log(run(hand, "0:AS 3:KS 2:QS 1:pickup"))[3:] == [
        "1 picks up AS KS QS",
        "trick 0 pickup high 0 next 1",
        "3 out emptied",
    ]
    assert not hand.is_over and hand.to_move == 1


# --- C10 end of hand ----------------------------------------------------------------------


def test_C10_the_last_player_holding_cards_is_the_bhabhi() -> None:
    hand = deal(load_rules("pickup"), ["AS 2H", "QS 4H 5C", "KS 3H"])
    run(hand, "0:AS 2:KS 1:QS")
    assert log(run(hand, "0:2H 2:3H 1:4H"))[3:] == [
        "trick 1 complete high 1 next None",
        "0 out emptied",
        "2 out emptied",
        "waste 2H 3H 4H",
        "over last_player bhabhi 1 out 0,2",
    ]
    assert hand.is_over and hand.to_move is None and hand.seats_to_act() == ()
    assert hand.outcome == Outcome(Termination.LAST_PLAYER, 1, (0, 2))
    assert held(hand, 1) == "5C"


# --- C11 same-trick exits -----------------------------------------------------------------


def test_C11_two_players_going_out_on_the_same_trick_are_both_safe() -> None:
    hand = deal(load_rules("pickup"), ["AS 2H 3H", "JS 4H 5H", "QS", "KS"])  # 0, 3, 2, 1
    assert log(run(hand, "0:AS 3:KS 2:QS 1:JS"))[4:7] == [
        "trick 0 complete high 0 next 0",
        "3 out emptied",
        "2 out emptied",
    ]
    assert not hand.is_over
    hand.apply(0, Action.play("2H"))
    assert hand.to_move == 1


# Seat 1 goes out on trick 0; then seat 0 leads 9H (its last card) and seat 2 follows with
# 4H (its last card): the last two go out together.  Last to play: seat 2; the player of the
# highest card of the led suit: seat 0.
LAST_TWO = ["AS 9H", "QS", "KS 4H"]


@pytest.mark.parametrize(
    ("option", "bhabhi"),
    [("no_bhabhi", None), ("last_to_play", 2), ("trick_winner", 0)],
)
def test_C11_last_two_going_out_on_the_same_trick(option: str, bhabhi: int | None) -> None:
    rules = variant("pickup", end={"all_out_together": option})
    hand = deal(rules, LAST_TWO)
    run(hand, "0:AS 2:KS 1:QS")
    assert hand.view(0).out == (False, True, False)
    events = log(run(hand, "0:9H 2:4H"))
    assert events[2] == "trick 1 complete high 0 next None"
    assert hand.outcome is not None
    assert hand.outcome.termination is Termination.ALL_OUT
    assert hand.outcome.bhabhi == bhabhi
    assert hand.hand_sizes() == (0, 0, 0)


def test_C11_all_three_going_out_together_in_the_discard_version() -> None:
    rules = variant("discard", end={"all_out_together": "last_to_play"})
    hand = deal(rules, ["AS 2H", "QS 3D", "KS 4C"])  # 0, 2, 1
    run(hand, "0:AS 2:KS 1:QS 0:2H 2:4C 1:3D")
    assert hand.outcome is not None
    assert hand.outcome.termination is Termination.ALL_OUT
    assert hand.outcome.bhabhi == 1  # the last of them to play a card


@pytest.mark.parametrize(("option", "bhabhi"), [("last_to_play", 2), ("trick_winner", 0)])
def test_C11_bhabhi_of_an_all_out_trick_is_not_listed_as_got_away(option: str, bhabhi: int) -> None:
    rules = variant("pickup", end={"all_out_together": option})
    hand = deal(rules, LAST_TWO)
    run(hand, "0:AS 2:KS 1:QS 0:9H 2:4H")
    assert hand.outcome is not None
    assert hand.outcome.bhabhi == bhabhi
    assert bhabhi not in hand.outcome.out_order


# --- C12 illegal play ---------------------------------------------------------------------


def test_C12_reject_not_following_suit_is_refused_and_nothing_changes() -> None:
    hand = deal(load_rules("pickup"), ["AS 2H", "QS 5C 3H", "KS 4H"])
    run(hand, "0:AS 2:KS")
    error = assert_refused(hand, 1, Action.play("5C"), Reason.MUST_FOLLOW_SUIT)
    assert "spades" in str(error) and "5C" in str(error)


def test_C12_pickup_penalty_offender_keeps_the_card_and_picks_up_the_trick() -> None:
    rules = variant("pickup", illegal_play="pickup_penalty")
    hand = deal(rules, ["AS 2H", "QS 5C 3H", "KS 4H"])  # 0, 2, 1
    run(hand, "0:AS 2:KS")
    events = log(hand.apply(1, Action.play("5C")))
    assert events == [
        "1 penalised for 5C",
        "1 picks up AS KS (penalty)",
        "trick 0 pickup high 0 next 1",
    ]
    assert held(hand, 1) == "5C 3H QS KS AS"
    assert hand.to_move == 1
    # other illegal actions are still refused
    assert_refused(hand, 0, Action.play("2H"), Reason.NOT_YOUR_TURN)
    assert_refused(hand, 1, Action.play("9D"), Reason.CARD_NOT_IN_HAND)


# --- C13 hand scoring ---------------------------------------------------------------------


def test_C13_the_bhabhi_loses_and_every_other_player_wins() -> None:
    hand = Hand(load_rules("discard"), 3, seed=11, dealer=0)
    play_out(hand, random.Random(1))
    assert hand.outcome is not None
    assert hand.outcome.bhabhi is not None
    assert sorted([*hand.outcome.out_order, hand.outcome.bhabhi]) == [0, 1, 2]
    assert set(hand.outcome.to_dict()) == {"termination", "bhabhi", "losing_team", "out_order"}


# --- C14, C15 session ---------------------------------------------------------------------

# Discard with 3 players is decided by the deal: the player dealt 18 cards (the player after
# the dealer) is the Bhabhi.  Counterclockwise dealers 0, 2, 1, 0 … make seats 2, 1, 0, 2 …
# the Bhabhi of hands 0, 1, 2, 3 ….


def test_C14_session_ends_after_the_agreed_number_of_hands() -> None:
    session = Session(load_rules("discard"), 3, seed="s", hands=3)
    hands = finish_session_hands(session, 3)
    assert [h.outcome.bhabhi for h in hands if h.outcome] == [2, 1, 0]
    with pytest.raises(EngineError, match="session is over"):
        session.next_hand()
    result = session.finish()
    assert result.hands_played == 3
    assert result.bhabhi_counts == (1, 1, 1)
    assert result.losers == (0, 1, 2)


def test_C14_session_ends_when_a_player_reaches_the_bhabhi_limit() -> None:
    rules = variant("discard", session={"hands": None, "bhabhi_limit": 2, "chips": 0})
    session = Session(rules, 3, seed="s")
    hands = finish_session_hands(session, 4)
    assert [h.outcome.bhabhi for h in hands if h.outcome] == [2, 1, 0, 2]
    with pytest.raises(EngineError, match="session is over"):
        session.next_hand()
    result = session.finish()
    assert result.bhabhi_counts == (1, 1, 2)
    assert result.losers == (2,)


@pytest.mark.parametrize(
    ("rules", "hands"),
    [
        (lambda: load_rules("discard"), 3),  # session.hands = 3 below
        (lambda: variant("discard", session={"hands": None, "bhabhi_limit": 2}), 4),
    ],
    ids=["hand-count", "bhabhi-limit"],
)
def test_C14_session_is_over_as_soon_as_its_last_hand_ends(rules: Any, hands: int) -> None:
    session = Session(rules(), 3, seed="s", hands=3 if hands == 3 else None)
    finish_session_hands(session, hands)
    assert session.current is not None and session.current.is_over
    assert session.is_over


def test_C14_standings_count_a_finished_hand_before_the_next_is_dealt() -> None:
    """A referee reads the counts between hands, while the finished hand is still current
    (it is closed when the next one is dealt): ``standings`` counts it already."""
    session = Session(variant("discard", session={"chips": 5}), 3, seed="standings", hands=4)
    rng = random.Random(0)
    losers: list[int] = []
    for number in range(4):
        assert session.standings().hands_played == number
        hand = session.next_hand()
        play_out(hand, rng)
        assert hand.outcome is not None
        if hand.outcome.bhabhi is not None:
            losers.append(hand.outcome.bhabhi)
        standings = session.standings()
        assert standings.hands_played == number + 1
        assert standings.bhabhi_counts == tuple(losers.count(s) for s in range(3))
        assert session.standings() == standings  # reading it changes nothing
        assert sum(standings.chips) + standings.pot_left == 0  # C15: chips only move
    assert session.is_over
    assert session.finish() == standings


def test_C14_standings_before_any_hand_and_while_one_is_played() -> None:
    session = Session(load_rules("pickup"), 3, seed="s", hands=2)
    empty = session.standings()
    assert (empty.hands_played, empty.bhabhi_counts, empty.losers) == (0, (0, 0, 0), ())
    session.next_hand()
    assert session.standings() == empty


def test_C15_chips_go_to_the_pot_and_the_fewest_losses_share_it() -> None:
    rules = variant("discard", session={"hands": 4, "bhabhi_limit": None, "chips": 5})
    session = Session(rules, 3, seed="s")
    finish_session_hands(session, 4)
    result = session.finish()
    # counts (1, 1, 2): 5 + 5 + 10 in the pot, seats 0 and 1 share it
    assert result.bhabhi_counts == (1, 1, 2)
    assert result.chips == (5, 5, -10)
    assert result.pot_left == 0
    assert sum(result.chips) + result.pot_left == 0


def test_C15_what_cannot_be_shared_stays_in_the_pot() -> None:
    rules = variant("discard", session={"hands": 1, "bhabhi_limit": None, "chips": 5})
    session = Session(rules, 3, seed="s")
    finish_session_hands(session, 1)
    result = session.finish()
    assert result.bhabhi_counts == (0, 0, 1)
    assert result.chips == (2, 2, -5)
    assert result.pot_left == 1


# --- C16 re-deal --------------------------------------------------------------------------


def test_C16_every_hand_is_a_new_deal_of_the_whole_pack_to_every_player() -> None:
    session = Session(load_rules("discard"), 4, seed="c16", hands=3)
    hands = finish_session_hands(session, 3)
    whole_pack = sorted(parse_card(r + s) for s in SUITS for r in RANKS)
    for hand in hands:
        assert sorted(c for h in hand.deal for c in h) == whole_pack
        assert all(len(h) == 13 for h in hand.deal)
    assert len({h.deal for h in hands}) == 3


# --- refusals -----------------------------------------------------------------------------


def test_refusal_not_your_turn() -> None:
    hand = deal(load_rules("pickup"), ["AS 2H", "QS 3H", "KS 4H"])
    assert_refused(hand, 2, Action.play("KS"), Reason.NOT_YOUR_TURN)
    hand.apply(0, Action.play("AS"))
    assert_refused(hand, 1, Action.play("QS"), Reason.NOT_YOUR_TURN)  # seat 2 plays first
    assert_refused(hand, 0, Action.play("2H"), Reason.NOT_YOUR_TURN)


def test_refusal_card_not_in_hand_and_card_not_in_deck() -> None:
    hand = deal(load_rules("pickup"), ["AS 2H", "QS 3H", "KS 4H"])
    hand.apply(0, Action.play("AS"))
    assert_refused(hand, 2, Action.play("QS"), Reason.CARD_NOT_IN_HAND)
    assert_refused(hand, 2, Action.play("AS/2"), Reason.CARD_NOT_IN_DECK)


def test_refusal_must_follow_suit() -> None:
    hand = deal(load_rules("bhabho"), ["AS 2H 3D", "QS 3H 4C", "KS 4H 5C"])  # 0, 1, 2
    run(hand, "0:AS 1:QS 2:KS 0:2H")
    assert_refused(hand, 1, Action.play("4C"), Reason.MUST_FOLLOW_SUIT)
    assert_refused(hand, 1, PICK_UP, Reason.PICKUP_NOT_ALLOWED)


def test_refusal_must_lead_the_first_lead_card() -> None:
    hand = deal(load_rules("pickup"), ["AS 2H", "QS 3H", "KS 4H"])
    assert_refused(hand, 0, Action.play("2H"), Reason.MUST_LEAD_CARD)


def test_refusal_must_pick_up() -> None:
    hand = deal(load_rules("pickup"), ["AS 2H", "5C 3H", "KS 4H"])
    run(hand, "0:AS 2:KS")
    assert list(hand.legal_actions(1)) == [PICK_UP]
    assert_refused(hand, 1, Action.play("5C"), Reason.MUST_PICK_UP)


def test_refusal_pickup_not_allowed() -> None:
    # can follow: must not pick up
    hand = deal(load_rules("pickup"), ["AS 2H", "QS 3H", "KS 4H"])
    run(hand, "0:AS")
    error = assert_refused(hand, 2, PICK_UP, Reason.PICKUP_NOT_ALLOWED)
    assert "must not pick up" in str(error)
    # a leader never picks up
    assert_refused(hand, 0, PICK_UP, Reason.NOT_YOUR_TURN)
    # discard rules have no pickup at all
    discard = deal(load_rules("discard"), ["AS 2H", "5C 3D", "KS 4H"])
    run(discard, "0:AS 2:KS")
    assert_refused(discard, 1, PICK_UP, Reason.PICKUP_NOT_ALLOWED)


def test_refusal_take_hand_not_allowed() -> None:
    hand = deal(load_rules("pickup"), ["AS 2H", "QS 3H", "KS 4H"])
    error = assert_refused(hand, 1, TAKE_HAND, Reason.TAKE_HAND_NOT_ALLOWED)
    assert "do not allow" in str(error)
    bhabho = deal(load_rules("bhabho"), ["AS 2H", "QS 3H", "KS 4H"])
    bhabho.apply(0, Action.play("AS"))
    error = assert_refused(bhabho, 1, TAKE_HAND, Reason.TAKE_HAND_NOT_ALLOWED)
    assert "only before a trick" in str(error)


def test_refusal_hand_over() -> None:
    hand = deal(load_rules("pickup"), ["AS 2H", "QS 4H 5C", "KS 3H"])
    run(hand, "0:AS 2:KS 1:QS 0:2H 2:3H 1:4H")
    assert hand.is_over
    assert_refused(hand, 1, Action.play("5C"), Reason.HAND_OVER)
    assert all(not list(hand.legal_actions(s)) for s in range(3))


@pytest.mark.parametrize("seat", [-1, 3, 99])
def test_refusal_unknown_seat(seat: int) -> None:
    hand = deal(load_rules("pickup"), ["AS 2H", "QS 3H", "KS 4H"])
    assert_refused(hand, seat, Action.play("AS"), Reason.UNKNOWN_SEAT)
    assert not list(hand.legal_actions(seat))


def test_refusal_player_out() -> None:
    hand = deal(load_rules("pickup"), ["AS 9H 4D", "2S 10H 5D", "KS"])
    run(hand, "0:AS 2:KS 1:2S")
    assert_refused(hand, 2, Action.play("9H"), Reason.PLAYER_OUT)
    assert_refused(hand, 2, PICK_UP, Reason.PLAYER_OUT)


def test_refusal_messages_name_the_input_and_the_position() -> None:
    hand = deal(load_rules("pickup"), ["AS 2H", "QS 3H", "KS 4H"])
    with pytest.raises(IllegalActionError) as caught:
        hand.apply(0, Action.play("2H"))
    assert "seat 0" in str(caught.value) and "AS" in str(caught.value)
    assert caught.value.action == Action.play("2H")
    assert isinstance(caught.value, ValueError)
