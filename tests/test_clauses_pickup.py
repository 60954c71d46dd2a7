"""The pick-up (P1-P3), discard (D1-D2) and named-variation (V1-V5) clauses, and how every hand
is made to end (dead positions, max_tricks).

Small hand-made deals; the expected events are read off the How to Play document.  The
``pickup`` family plays counterclockwise (0, n-1, n-2 …), ``get-away`` clockwise.
"""

from __future__ import annotations

import random

import pytest
from helpers import deal, held, load_rules, log, run, sorted_text, variant, waste_of

from referee.cards import parse_card
from referee.engine.hand import Hand
from referee.engine.types import PICK_UP, Action, EngineError, Outcome, Termination


def play_out(hand: Hand, rng: random.Random, limit: int = 100_000) -> None:
    for _ in range(limit):
        if hand.is_over:
            return
        seat = hand.to_move
        assert seat is not None
        hand.apply(seat, rng.choice(list(hand.legal_actions(seat))))
    raise AssertionError("hand did not end")


# --- P1-P3 --------------------------------------------------------------------------------


def test_P1_player_who_cannot_follow_picks_up_the_trick() -> None:
    hand = deal(load_rules("pickup"), ["AS 2H", "5D 6D", "KS 3H"])  # 0, 2, 1
    run(hand, "0:AS 2:KS")
    assert list(hand.legal_actions(1)) == [PICK_UP]  # plays no card
    assert log(hand.apply(1, PICK_UP)) == ["1 picks up AS KS", "trick 0 pickup high 0 next 1"]
    assert held(hand, 1) == sorted_text("5D 6D KS AS")
    assert hand.view(None).waste_size == 0
    # everyone saw the cards go into seat 1's hand
    assert hand.view(0).known_cards[1] == (parse_card("KS"), parse_card("AS"))
    assert hand.card_total() == 52  # hands + trick + waste + out of play


def test_P2_pickup_ends_the_trick_at_once_and_the_picker_leads() -> None:
    hand = deal(load_rules("pickup"), ["AS 2H 3D", "JS 5H", "QS 4H", "5C 6C"])  # 0, 3, 2, 1
    assert log(run(hand, "0:AS 3:pickup")) == [
        "0 lead AS",
        "3 picks up AS",
        "trick 0 pickup high 0 next 3",
    ]
    assert hand.hand_sizes() == (2, 2, 2, 3)  # seats 2 and 1 never played to the trick
    assert hand.to_move == 3 and hand.view(3).trick == ()
    assert set(hand.legal_actions(3)) == {Action.play(c) for c in ("5C", "6C", "AS")}


def test_P3_winner_of_a_clean_trick_leads_next() -> None:
    hand = deal(load_rules("pickup"), ["AS 3H", "QS 2H", "KS 4H"])
    assert log(run(hand, "0:AS 2:KS 1:QS"))[3] == "trick 0 complete high 0 next 0"
    assert hand.to_move == 0


def test_P3_if_the_winner_is_out_the_next_player_in_turn_leads() -> None:
    hand = deal(load_rules("pickup"), ["AS", "QS 3H", "KS 2H"])  # 0, 2, 1
    assert log(run(hand, "0:AS 2:KS 1:QS"))[3:5] == [
        "trick 0 complete high 0 next 2",
        "0 out emptied",
    ]
    assert hand.to_move == 2


def test_P3_the_next_player_in_turn_who_still_has_cards_leads() -> None:
    hand = deal(load_rules("pickup"), ["AS", "QS 3H", "JS 2H", "KS"])  # 0, 3, 2, 1
    assert log(run(hand, "0:AS 3:KS 2:JS 1:QS"))[4:7] == [
        "trick 0 complete high 0 next 2",  # seat 3, next after 0, is out too
        "0 out emptied",
        "3 out emptied",
    ]
    assert hand.to_move == 2


# --- D1, D2 -------------------------------------------------------------------------------


def test_D1_player_who_cannot_follow_discards_any_card_and_play_continues() -> None:
    hand = deal(load_rules("discard"), ["AS 2H", "QS 4H", "KS 4C 5C"])  # 0, 2, 1
    run(hand, "0:AS 2:KS 1:QS 0:2H")
    assert set(hand.legal_actions(2)) == {Action.play("4C"), Action.play("5C")}
    assert PICK_UP not in hand.legal_actions(2)
    assert log(hand.apply(2, Action.play("5C"))) == ["2 discard 5C"]
    assert hand.to_move == 1


def test_D2_when_all_have_played_the_highest_of_the_led_suit_wins_and_leads() -> None:
    hand = deal(load_rules("discard"), ["AS 2H 3D", "QS 4H 4D", "KS 4C 5C"])  # 0, 2, 1
    run(hand, "0:AS 2:KS 1:QS")
    assert log(run(hand, "0:2H 2:5C 1:4H"))[3:] == [
        "trick 1 complete high 1 next 1",
        "waste 5C 2H 4H",
    ]
    assert hand.to_move == 1 and hand.hand_sizes() == (1, 1, 1)


@pytest.mark.parametrize("seed", range(4))
def test_D1_D2_with_three_players_the_player_dealt_18_cards_is_the_bhabhi(seed: int) -> None:
    # Nothing returns to a hand, so everyone sheds a card a trick (the catalogue's measure).
    hand = Hand(load_rules("discard"), 3, seed=seed, dealer=seed % 3)
    (eighteen,) = [s for s, n in enumerate(hand.hand_sizes()) if n == 18]
    play_out(hand, random.Random(seed))
    assert hand.outcome is not None
    assert hand.outcome.termination is Termination.LAST_PLAYER
    assert hand.outcome.bhabhi == eighteen
    assert hand.trick_number == 17  # the other two go out on trick 17


@pytest.mark.parametrize("players", [4, 6])
def test_D1_D2_with_equal_hands_everyone_goes_out_on_the_same_trick(players: int) -> None:
    hand = Hand(load_rules("discard"), players, seed=players)
    play_out(hand, random.Random(players))
    assert hand.outcome is not None
    assert hand.outcome.termination is Termination.ALL_OUT
    assert hand.outcome.bhabhi is None
    assert hand.trick_number == -(-52 // players)  # the longest hands decide


# --- V1 Get Away --------------------------------------------------------------------------


def test_V1_the_player_of_the_lowest_card_of_the_led_suit_leads_next() -> None:
    hand = deal(load_rules("get-away"), ["AS 3H 4H", "2S 5H", "KS 6H 7H"])  # 0, 1, 2
    assert log(run(hand, "0:AS 1:2S 2:KS"))[3] == "trick 0 complete high 0 next 1"
    assert log(run(hand, "1:5H 2:7H 0:3H"))[3] == "trick 1 complete high 2 next 0"
    assert hand.to_move == 0


def test_V1_after_a_pickup_the_picker_still_leads() -> None:
    hand = deal(load_rules("get-away"), ["AS 3H", "2S 5H", "5C 6C"])  # 0, 1, 2
    assert log(run(hand, "0:AS 1:2S 2:pickup"))[2:] == [
        "2 picks up AS 2S",
        "trick 0 pickup high 0 next 2",
    ]


def test_V1_if_the_lowest_player_is_out_the_next_in_turn_leads() -> None:
    hand = deal(load_rules("get-away"), ["AS 3H", "2S", "KS 4H"])  # 0, 1, 2
    assert log(run(hand, "0:AS 1:2S 2:KS"))[3:5] == [
        "trick 0 complete high 0 next 2",
        "1 out emptied",
    ]


# --- V2 Team Bhabhi -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hands", "bhabhi", "team"),
    [
        (["AS", "JS 2H", "QS", "KS"], 1, (1, 3)),  # 4 players: partner of 1 is 3
        (["AS", "9S 2H", "JS", "10S", "QS", "KS"], 1, (1, 4)),  # 6 players: partner is 4
        (["AS", "QS", "JS", "KS 2H"], 3, (1, 3)),
    ],
)
def test_V2_the_partnership_holding_the_bhabhi_loses(
    hands: list[str], bhabhi: int, team: tuple[int, int]
) -> None:
    hand = deal(load_rules("team"), hands)
    while not hand.is_over:
        seat = hand.to_move
        assert seat is not None
        (spade,) = list(hand.legal_actions(seat))
        hand.apply(seat, spade)
    assert hand.outcome is not None
    assert hand.outcome.bhabhi == bhabhi
    assert hand.outcome.losing_team == team
    assert hand.outcome.to_dict()["losing_team"] == list(team)


def test_V2_team_play_needs_an_even_number_of_players() -> None:
    with pytest.raises(EngineError, match="even"):
        Hand(load_rules("team"), 5, seed=1)


def test_V2_without_teams_there_is_no_losing_team() -> None:
    hand = deal(load_rules("pickup"), ["AS", "JS 2H", "QS", "KS"])
    run(hand, "0:AS 3:KS 2:QS 1:JS")
    assert hand.outcome == Outcome(Termination.LAST_PLAYER, 1, (0, 3, 2), None)


# --- V3 Ace-low ---------------------------------------------------------------------------


def test_V3_ace_low_the_two_of_spades_leads_first() -> None:
    hand = deal(load_rules("ace-low"), ["AS 3H", "2S 4H", "KS 5H"])
    assert hand.to_move == 1
    assert list(hand.legal_actions(1)) == [Action.play("2S")]
    assert log(run(hand, "1:2S 0:AS 2:KS"))[3] == "trick 0 complete high 2 next 2"


def test_V3_ace_low_ace_leads_convention_keeps_the_ace_of_spades_as_first_lead() -> None:
    hand = deal(load_rules("ace-low-ace-leads"), ["AS 3H", "2S 4H", "KS 5H"])
    assert hand.to_move == 0
    assert list(hand.legal_actions(0)) == [Action.play("AS")]
    # the Ace is now the lowest spade: the 2 beats it, the King beats both
    assert log(run(hand, "0:AS 2:KS 1:2S"))[3] == "trick 0 complete high 2 next 2"


def test_V3_aces_rank_below_the_two() -> None:
    hand = deal(load_rules("ace-low-ace-leads"), ["AS 2H", "3S AH", "4S 9D"])  # 0, 2, 1
    assert log(run(hand, "0:AS 2:4S 1:3S"))[3] == "trick 0 complete high 2 next 2"
    hand2 = deal(load_rules("ace-low-ace-leads"), ["AS AH 5C", "3S 2H 6C", "4S 7C"])
    run(hand2, "0:AS 2:4S 1:3S 2:7C 1:6C 0:5C")  # 7C wins with seat 2's last card
    assert hand2.to_move == 1
    assert log(run(hand2, "1:2H 0:AH"))[2] == "trick 2 complete high 1 next None"


def test_V3_ace_high_rulesets_rank_the_ace_above_the_king() -> None:
    hand = deal(load_rules("pickup"), ["AS 2H", "3S AH", "KS 9D"])
    assert log(run(hand, "0:AS 2:KS 1:3S"))[3] == "trick 0 complete high 0 next 0"


# --- V4 Whole-pile pickup -----------------------------------------------------------------


def test_V4_the_picker_takes_the_trick_and_the_whole_waste_pile() -> None:
    hand = deal(load_rules("whole-pile"), ["AS 9H 4D", "2S 5C 6C", "KS 10H 7D"])  # 0, 2, 1
    run(hand, "0:AS 2:KS 1:2S")
    assert waste_of(hand) == "2S KS AS"
    assert log(run(hand, "0:9H 2:10H 1:pickup"))[2:] == [
        "1 picks up 9H 10H +3 from waste",
        "trick 1 pickup high 2 next 1",
    ]
    assert hand.view(None).waste_size == 0 and waste_of(hand) == ""
    assert held(hand, 1) == sorted_text("5C 6C 9H 10H 2S KS AS")
    # the waste came face down: only the trick's cards are known to the others
    assert hand.view(0).known_cards[1] == (parse_card("9H"), parse_card("10H"))
    assert hand.card_total() == 52


def test_V4_with_an_empty_waste_pile_only_the_trick_is_picked_up() -> None:
    hand = deal(load_rules("whole-pile"), ["AS 9H", "5C 6C", "KS 10H"])
    assert log(run(hand, "0:AS 2:KS 1:pickup"))[2] == "1 picks up AS KS"


def test_P1_plain_pickup_leaves_the_waste_pile_alone() -> None:
    hand = deal(load_rules("pickup"), ["AS 9H 4D", "2S 5C 6C", "KS 10H 7D"])
    run(hand, "0:AS 2:KS 1:2S 0:9H 2:10H 1:pickup")
    assert waste_of(hand) == "2S KS AS"
    assert held(hand, 1) == sorted_text("5C 6C 9H 10H")


# --- V5 High-card lead rotation -----------------------------------------------------------


def test_V5_after_a_pickup_the_player_of_the_highest_card_leads() -> None:
    hand = deal(load_rules("high-card-lead"), ["AS 2H 3D", "4C 5C", "KS 9H"])  # 0, 2, 1
    assert log(run(hand, "0:AS 2:KS 1:pickup"))[2:] == [
        "1 picks up AS KS",
        "trick 0 pickup high 0 next 0",  # not the picker
    ]
    assert hand.to_move == 0


def test_V5_if_the_high_card_player_is_out_the_next_in_turn_leads() -> None:
    rules = load_rules("high-card-lead")  # 0, 3, 2, 1
    hand = deal(rules, ["AS 2H 5D", "JS 7C 8C", "QS 4H 6D", "KS KH"])
    run(hand, "0:AS 3:KS 2:QS 1:JS")
    assert log(run(hand, "0:2H 3:KH 2:4H 1:pickup"))[3:] == [
        "1 picks up 2H KH 4H",
        "trick 1 pickup high 3 next 2",
        "3 out emptied",
    ]
    assert hand.to_move == 2


# --- dead positions and the bound on a hand -----------------------------------------------

# Every suit has one card left, so nobody can ever follow: each trick is one lead and one
# pickup, and the leader (who just picked up) always keeps a card.  Nobody can go out.


@pytest.mark.parametrize(("option", "bhabhi"), [("most_cards", 2), ("no_bhabhi", None)])
def test_P1_P3_dead_position_three_players_ends_the_hand(option: str, bhabhi: int | None) -> None:
    rules = variant("pickup", end={"at_dead_position": option})
    hand = deal(rules, ["AS 2H", "4C", "3D"])  # 0, 2, 1
    assert log(run(hand, "0:AS 2:pickup"))[1:] == [
        "2 picks up AS",
        "trick 0 pickup high 0 next 2",
        f"over dead_position bhabhi {bhabhi} out ",
    ]
    assert hand.outcome == Outcome(Termination.DEAD_POSITION, bhabhi, ())
    assert hand.hand_sizes() == (1, 1, 2)


@pytest.mark.parametrize(("option", "bhabhi"), [("most_cards", 1), ("no_bhabhi", None)])
def test_P1_P3_dead_position_two_players_leader_with_two_or_more_cards(
    option: str, bhabhi: int | None
) -> None:
    rules = variant("pickup", players={"min": 2}, end={"at_dead_position": option})
    hand = deal(rules, ["AS 2H", "3D 4C"])
    run(hand, "0:AS 1:pickup")
    assert hand.hand_sizes() == (1, 3)
    assert hand.outcome == Outcome(Termination.DEAD_POSITION, bhabhi, ())


def test_P1_P3_dead_position_tie_for_most_cards_means_no_bhabhi() -> None:
    rules = variant("pickup", players={"min": 2})
    hand = deal(rules, ["AS 2H 5C", "3D"])  # after the pickup: 2H 5C against 3D AS
    run(hand, "0:AS 1:pickup")
    assert hand.outcome == Outcome(Termination.DEAD_POSITION, None, ())


def test_P1_P3_a_suit_both_players_hold_keeps_the_hand_alive() -> None:
    rules = variant("pickup", players={"min": 2})
    hand = deal(rules, ["AS 2H", "3H 4C"])
    run(hand, "0:AS 1:pickup")
    assert not hand.is_over and hand.to_move == 1


def test_P1_P3_a_player_who_can_still_go_out_keeps_the_hand_alive() -> None:
    # Every suit has fewer cards than players, yet seat 0 can still go out: seat 2 leads,
    # seat 1 picks up 5H and leads it, seat 0 follows with 2H, its last card, and seat 2
    # (no heart left) picks up.  Not dead.
    hand = deal(load_rules("pickup"), ["AS 2H", "4C", "3D 5H"])  # 0, 2, 1
    run(hand, "0:AS 2:pickup")  # seat 2: 3D 5H AS; hearts: 2H 5H (2 < 3 players)
    assert not hand.is_over


@pytest.mark.parametrize(("option", "bhabhi"), [("most_cards", 1), ("no_bhabhi", None)])
def test_P1_P3_max_tricks_bounds_a_hand(option: str, bhabhi: int | None) -> None:
    rules = variant("pickup", end={"max_tricks": 2, "at_max_tricks": option})
    hand = deal(rules, ["AS 2H 3H 4H", "KS 5H 6H 7C 8C", "QS 8H 9H 10C"])  # 0, 2, 1
    run(hand, "0:AS 2:QS 1:KS")
    assert not hand.is_over
    assert log(run(hand, "0:2H 2:8H 1:5H"))[-1] == f"over max_tricks bhabhi {bhabhi} out "
    assert hand.outcome == Outcome(Termination.MAX_TRICKS, bhabhi, ())
    assert hand.trick_number == 2 and hand.hand_sizes() == (2, 3, 2)


def test_P1_P3_max_tricks_tie_for_most_cards_means_no_bhabhi() -> None:
    rules = variant("pickup", end={"max_tricks": 1, "at_max_tricks": "most_cards"})
    hand = deal(rules, ["AS 2H 3H", "KS 5H 6H", "QS 8H 9H"])
    run(hand, "0:AS 2:QS 1:KS")
    assert hand.outcome == Outcome(Termination.MAX_TRICKS, None, ())


# --- C12 penalty in the pick-up game, X3 --------------------------------------------------


def test_X3_first_trick_without_the_pickup_then_pickup_as_usual() -> None:
    rules = variant("pickup", first_trick={"off_suit": "discard"})
    hand = deal(rules, ["AS 2H 9C", "QS 5H 7D", "4C 5C 6H"])  # 0, 2, 1
    run(hand, "0:AS")
    assert set(hand.legal_actions(2)) == {Action.play(c) for c in ("4C", "5C", "6H")}
    assert log(run(hand, "2:4C 1:QS"))[:4] == [
        "2 discard 4C",
        "1 follow QS",
        "trick 0 complete high 0 next 0",
        "waste 4C QS AS",
    ]
    run(hand, "0:2H 2:6H 1:5H")  # hearts all round: clean
    assert hand.to_move == 2
    assert log(run(hand, "2:5C 1:pickup"))[1:] == [
        "1 picks up 5C",
        "trick 2 pickup high 2 next 1",
        "2 out emptied",
    ]
    assert held(hand, 1) == "5C 7D" and not hand.is_over


def test_D1_first_trick_discard_option_changes_nothing_in_the_discard_game() -> None:
    a = deal(variant("discard", first_trick={"off_suit": "discard"}), ["AS 2H", "QS", "3C"])
    b = deal(load_rules("discard"), ["AS 2H", "QS", "3C"])
    assert log(run(a, "0:AS 2:3C 1:QS")) == log(run(b, "0:AS 2:3C 1:QS"))
