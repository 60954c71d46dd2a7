"""The Bhabho clauses B1-B9 and the house rules X1-X5.

Small hand-made deals; the expectations are read off the Bhabho document (German seed text).
``bhabho`` plays clockwise: 0, 1, 2 …; the left neighbour of seat s is seat s + 1.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import deal, held, load_rules, log, run, sorted_text, variant, waste_of

from referee.cards import parse_card
from referee.engine.hand import Hand
from referee.engine.types import (
    TAKE_HAND,
    Action,
    ActionKind,
    EngineError,
    HandTaken,
    IllegalActionError,
    Outcome,
    Reason,
    Termination,
    WasteDrawn,
)

BROKEN = Path(__file__).parent / "data" / "broken"


def plays(hand: Hand, seat: int) -> list[Action]:
    """The seat's legal card plays (B9 adds TAKE_HAND before every trick)."""
    return [a for a in hand.legal_actions(seat) if a.kind is ActionKind.PLAY]


def snapshot(hand: Hand) -> tuple[object, ...]:
    views = tuple(hand.view(s) for s in [None, *range(hand.players)])
    return views, hand.hand_sizes(), tuple(hand.events or ()), hand.waste, tuple(hand.draws_made)


# --- B1, B2 first trick -------------------------------------------------------------------


def test_B1_first_trick_every_player_plays_one_card_and_all_go_to_the_waste_pile() -> None:
    hand = deal(load_rules("bhabho"), ["AS 5H 6H", "2S 7H", "9D 8H 10H"])
    assert plays(hand, 0) == [Action.play("AS")]
    hand.apply(0, Action.play("AS"))
    assert list(hand.legal_actions(1)) == [Action.play("2S")]  # a spade if they have one
    hand.apply(1, Action.play("2S"))
    # no spade: any card, and it does not end the trick (no tochoo on the first trick)
    assert set(hand.legal_actions(2)) == {Action.play(c) for c in ("9D", "8H", "10H")}
    assert log(hand.apply(2, Action.play("9D"))) == [
        "2 discard 9D",
        "trick 0 complete high 0 next 0",
        "waste 9D 2S AS",
    ]
    assert hand.hand_sizes() == (2, 1, 2)


def test_B1_an_off_suit_card_early_in_the_first_trick_does_not_end_it() -> None:
    hand = deal(load_rules("bhabho"), ["AS 5H", "9D 7H", "2S 8H"])
    assert log(run(hand, "0:AS 1:9D 2:2S")) == [
        "0 lead AS",
        "1 discard 9D",
        "2 follow 2S",
        "trick 0 complete high 0 next 0",
        "waste 9D 2S AS",
    ]


def test_B2_the_ace_of_spades_holder_leads_the_second_trick() -> None:
    # With Aces low the King of spades is the highest card of trick 0, yet B2 gives the
    # second lead to the player who led the Ace of spades.
    rules = variant("bhabho", deck={"ace": "low"})
    hand = deal(rules, ["AS 5H", "KS 7H", "2S 8H"])
    assert log(run(hand, "0:AS 1:KS 2:2S"))[3] == "trick 0 complete high 1 next 0"
    assert hand.to_move == 0
    other = variant("bhabho", deck={"ace": "low"}, first_trick={"next_leader": "as_other_tricks"})
    hand = deal(other, ["AS 5H", "KS 7H", "2S 8H"])
    assert log(run(hand, "0:AS 1:KS 2:2S"))[3] == "trick 0 complete high 1 next 1"


# --- B3-B7 --------------------------------------------------------------------------------


def test_B3_the_player_of_the_highest_card_of_the_led_suit_has_the_power_and_leads() -> None:
    hand = deal(load_rules("bhabho"), ["AS 5H 2C", "2S 7H 3C", "3S 8H 4C"])
    run(hand, "0:AS 1:2S 2:3S")
    assert log(run(hand, "0:5H 1:7H 2:8H"))[3] == "trick 1 complete high 2 next 2"
    assert hand.to_move == 2
    assert plays(hand, 2) == [Action.play("4C")]


def test_B4_tochoo_ends_the_trick_at_once_and_later_players_do_not_play() -> None:
    hand = deal(load_rules("bhabho"), ["AS 5H 2C", "2S 7H 3C", "3S 4D 4C", "4S 9H 5C"])
    run(hand, "0:AS 1:2S 2:3S 3:4S 0:5H 1:7H")
    # seat 2 has no heart: any card may be played
    assert set(hand.legal_actions(2)) == {Action.play("4D"), Action.play("4C")}
    assert log(hand.apply(2, Action.play("4D"))) == [
        "2 tochoo 4D",
        "1 picks up 5H 7H 4D",
        "trick 1 tochoo high 1 next 1",
    ]
    assert held(hand, 3) == sorted_text("9H 5C")  # seat 3 never played to the trick
    assert hand.to_move == 1


def test_B5_clean_trick_goes_face_down_to_the_waste_pile() -> None:
    hand = deal(load_rules("bhabho"), ["AS 5H 2C", "2S 7H 3C", "3S 8H 4C"])
    run(hand, "0:AS 1:2S 2:3S")
    assert log(run(hand, "0:5H 1:7H 2:8H"))[3:] == [
        "trick 1 complete high 2 next 2",
        "waste 5H 7H 8H",
    ]
    assert waste_of(hand) == "5H 7H 8H 2S 3S AS"
    assert hand.view(1).waste_size == 6


def test_B6_after_a_tochoo_the_player_of_the_highest_led_card_picks_up_everything() -> None:
    hand = deal(load_rules("bhabho"), ["AS 5H 2C", "2S KH 3C", "3S 4D 4C"])
    run(hand, "0:AS 1:2S 2:3S")
    assert log(run(hand, "0:5H 1:KH 2:4D"))[3:] == [
        "1 picks up 5H KH 4D",  # the tochoo included; not the tochoo player
        "trick 1 tochoo high 1 next 1",
    ]
    assert held(hand, 1) == sorted_text("3C 4D 5H KH")
    assert held(hand, 2) == "4C"
    assert hand.view(0).known_cards[1] == tuple(sorted(parse_card(c) for c in ("4D", "5H", "KH")))


def test_B6_option_tochoo_player_picks_up() -> None:
    rules = variant("bhabho", off_suit={"tochoo_picked_up_by": "tochoo_player"})
    hand = deal(rules, ["AS 5H 2C", "2S KH 3C", "3S 4D 4C"])
    run(hand, "0:AS 1:2S 2:3S")
    assert log(run(hand, "0:5H 1:KH 2:4D"))[3] == "2 picks up 5H KH 4D"
    assert held(hand, 2) == sorted_text("4C 4D 5H KH")


def test_B6_a_pickup_gives_cards_back_to_a_player_who_had_just_emptied_their_hand() -> None:
    # Seat 0 leads its last card; seat 2 cannot follow and plays a tochoo; seat 0 played the
    # highest heart, so it picks the trick up: its hand is not empty at the end of the trick.
    hand = deal(load_rules("bhabho"), ["AS 9H", "2S 5H 3C", "3S 4D 5C"])
    run(hand, "0:AS 1:2S 2:3S")
    assert log(run(hand, "0:9H 1:5H 2:4D"))[3:] == [
        "0 picks up 9H 5H 4D",
        "trick 1 tochoo high 0 next 0",
    ]
    assert not hand.view(0).out[0]
    assert held(hand, 0) == sorted_text("4D 5H 9H")
    assert hand.to_move == 0


def test_B4_tochoo_with_the_players_last_card_gets_them_out() -> None:
    hand = deal(load_rules("bhabho"), ["AS 5H 2C", "2S KH 3C", "3S 4D"])
    run(hand, "0:AS 1:2S 2:3S")
    assert log(run(hand, "0:5H 1:KH 2:4D"))[2:] == [
        "2 tochoo 4D",
        "1 picks up 5H KH 4D",
        "trick 1 tochoo high 1 next 1",
        "2 out emptied",
    ]
    assert not hand.is_over and hand.to_move == 1


def test_B7_the_highest_card_of_the_led_suit_leads_after_a_clean_trick_and_a_tochoo() -> None:
    hand = deal(load_rules("bhabho"), ["AS 5H 2C 3D", "2S 7H 3C 4H", "3S 8H 4C 5C"])
    run(hand, "0:AS 1:2S 2:3S")
    assert log(run(hand, "0:5H 1:7H 2:8H"))[3] == "trick 1 complete high 2 next 2"
    assert log(run(hand, "2:4C 0:2C 1:3C"))[3] == "trick 2 complete high 2 next 2"
    assert log(run(hand, "2:5C 0:3D"))[3] == "trick 3 tochoo high 2 next 2"


# --- B8 no escape with the power ----------------------------------------------------------


def test_B8_last_card_wins_a_clean_trick_draw_from_the_waste_and_lead_it() -> None:
    hand = deal(load_rules("bhabho"), ["AS KH", "2S 5H 9C", "3S 4H 8D"], draws="3S")
    run(hand, "0:AS 1:2S 2:3S")
    assert waste_of(hand) == "2S 3S AS"
    assert log(run(hand, "0:KH 1:5H 2:4H"))[3:] == [
        "trick 1 complete high 0 next 0",
        "0 draws 3S",  # drawn before the trick's cards join the pile
        "waste 4H 5H KH",
    ]
    assert hand.view(0).hand == (parse_card("3S"),)
    assert not hand.view(0).out[0]
    assert plays(hand, 0) == [Action.play("3S")]
    assert waste_of(hand) == "4H 5H KH 2S AS"


def test_B8_repeated_draws_until_someone_plays_higher_then_the_drawer_is_out() -> None:
    hands = ["AS KH", "2S 5H 6S QS 10C", "3S 4H 7S 9S"]
    hand = deal(load_rules("bhabho"), hands, draws="AS 2S")
    run(hand, "0:AS 1:2S 2:3S")
    assert log(run(hand, "0:KH 1:5H 2:4H"))[3:5] == [
        "trick 1 complete high 0 next 0",
        "0 draws AS",
    ]
    # nobody plays higher than the drawn Ace: seat 0 wins again with its last card
    assert log(run(hand, "0:AS 1:6S 2:7S"))[3:] == [
        "trick 2 complete high 0 next 0",
        "0 draws 2S",
        "waste 6S 7S AS",
    ]
    assert hand.draws_made == [parse_card("AS"), parse_card("2S")]
    # seat 1 plays higher: seat 0 is out and safe; seat 2 empties too; seat 1 is left
    assert log(run(hand, "0:2S 1:QS 2:9S"))[3:] == [
        "trick 3 complete high 1 next None",
        "0 out emptied",
        "2 out emptied",
        "waste 2S 9S QS",
        "over last_player bhabhi 1 out 0,2",
    ]


def test_B8_after_a_tochoo_on_the_drawn_card_the_drawer_leads_from_the_picked_up_cards() -> None:
    hand = deal(load_rules("bhabho"), ["AS KH", "2S 5H 9C 10C", "3S 4H 8D"], draws="3S")
    run(hand, "0:AS 1:2S 2:3S 0:KH 1:5H 2:4H")
    assert log(run(hand, "0:3S 1:9C"))[1:] == [
        "1 tochoo 9C",
        "0 picks up 3S 9C",
        "trick 2 tochoo high 0 next 0",
    ]
    assert set(plays(hand, 0)) == {Action.play("3S"), Action.play("9C")}  # no draw
    assert hand.draws_made == [parse_card("3S")]


def test_B8_a_higher_card_and_then_a_tochoo_the_drawer_is_out() -> None:
    hand = deal(load_rules("bhabho"), ["AS KH", "2S 5H 6S 9C", "3S 4H 8D 7D"], draws="3S")
    run(hand, "0:AS 1:2S 2:3S 0:KH 1:5H 2:4H")
    assert log(run(hand, "0:3S 1:6S 2:8D"))[3:] == [
        "1 picks up 3S 6S 8D",
        "trick 2 tochoo high 1 next 1",
        "0 out emptied",
    ]


def test_B8_when_the_others_go_out_on_that_trick_the_drawer_is_the_bhabhi() -> None:
    hand = deal(load_rules("bhabho"), ["AS KH", "2S 5H", "3S 4H"], draws="2S")
    run(hand, "0:AS 1:2S 2:3S")
    assert log(run(hand, "0:KH 1:5H 2:4H"))[-1] == "over last_player bhabhi 0 out 1,2"
    assert hand.outcome == Outcome(Termination.LAST_PLAYER, 0, (1, 2))


def test_B8_drawn_card_is_seen_only_by_the_drawer() -> None:
    hand = deal(load_rules("bhabho"), ["AS KH", "2S 5H 9C", "3S 4H 8D"], draws="3S")
    events = run(hand, "0:AS 1:2S 2:3S 0:KH 1:5H 2:4H")
    (drawn,) = [e for e in events if isinstance(e, WasteDrawn)]
    assert drawn.visible_to(0) == WasteDrawn(0, parse_card("3S"))
    assert drawn.visible_to(1) == WasteDrawn(0, None)
    assert drawn.visible_to(None) == WasteDrawn(0, None)
    assert hand.view(1).known_cards[0] == ()


def test_B8_a_draw_comes_from_the_pile_before_the_trick_joins_it() -> None:
    # An explicit draw naming a card of the current trick is impossible: the trick's cards
    # are not in the pile yet.  The engine refuses it and nothing changes.
    hand = deal(load_rules("bhabho"), ["AS KH", "2S 5H 9C", "3S 4H 8D"], draws="5H")
    run(hand, "0:AS 1:2S 2:3S 0:KH 1:5H")
    before = snapshot(hand)
    with pytest.raises(EngineError, match="not in the waste pile"):
        hand.apply(2, Action.play("4H"))
    assert snapshot(hand) == before


def test_B8_drawn_card_must_be_led_even_after_taking_a_hand() -> None:
    hand = deal(load_rules("bhabho"), ["AS KH", "2S 5H 9C", "3S 4H 8D"], draws="3S")
    run(hand, "0:AS 1:2S 2:3S 0:KH 1:5H 2:4H")
    run(hand, "0:take")  # seat 0 takes seat 1's hand (9C)
    assert held(hand, 0) == sorted_text("9C 3S")
    assert list(hand.legal_actions(0)) == [Action.play("3S"), TAKE_HAND]
    with pytest.raises(IllegalActionError) as caught:
        hand.apply(0, Action.play("9C"))
    assert caught.value.reason is Reason.MUST_LEAD_CARD


@pytest.mark.parametrize(
    ("option", "expected"),
    [
        (
            "goes_out",  # the player escapes after all; the next in turn leads
            ["trick 0 complete high 0 next 1", "0 out waste_empty", "waste 3D 2S AS"],
        ),
        (
            "draws_from_trick",  # the trick joins the pile first, then the draw
            ["trick 0 complete high 0 next 0", "waste 3D 2S AS", "0 draws 2S"],
        ),
    ],
)
def test_B8_with_an_empty_waste_pile(option: str, expected: list[str]) -> None:
    rules = variant("bhabho", next_leader={"if_waste_empty": option})
    hand = deal(rules, ["AS", "2S 5H", "3D 6H"], draws="2S")
    assert log(run(hand, "0:AS 1:2S 2:3D"))[3:] == expected
    if option == "goes_out":
        assert hand.view(0).out[0] and hand.to_move == 1
    else:
        assert plays(hand, 0) == [Action.play("2S")]


def test_B8_goes_out_with_an_empty_waste_pile_everyone_out_together() -> None:
    rules = variant("bhabho", next_leader={"if_waste_empty": "goes_out"})
    hand = deal(rules, ["AS", "2S", "3D"])
    run(hand, "0:AS 1:2S 2:3D")
    assert hand.outcome == Outcome(Termination.ALL_OUT, None, (0, 1, 2))


def test_B8_next_in_turn_rules_let_the_winner_escape() -> None:
    rules = variant("bhabho", next_leader={"if_out": "next_in_turn"})
    hand = deal(rules, ["AS KH", "2S 5H 9C", "3S 4H 8D"])
    assert log(run(hand, "0:AS 1:2S 2:3S 0:KH 1:5H 2:4H"))[-3:-1] == [
        "trick 1 complete high 0 next 1",
        "0 out emptied",
    ]


# --- B9 taking a hand ---------------------------------------------------------------------


def test_B9_take_all_the_cards_of_the_left_neighbour_who_has_got_away() -> None:
    hand = deal(load_rules("bhabho"), ["AS 5H 2C", "2S 7H 3C", "3S 8H 4C"])
    run(hand, "0:AS 1:2S 2:3S")
    assert TAKE_HAND in hand.legal_actions(1)
    assert 1 in hand.seats_to_act() and 2 in hand.seats_to_act()
    assert log(hand.apply(1, TAKE_HAND)) == ["1 takes 2 (2: 4C 8H)", "2 out hand_taken"]
    assert held(hand, 1) == sorted_text("3C 4C 7H 8H")
    assert hand.hand_sizes() == (2, 4, 0)
    assert hand.to_move == 0  # the leader is unchanged
    run(hand, "0:5H")
    assert hand.to_move == 1  # seat 2 is out: the trick skips it


def test_B9_the_player_whose_cards_were_taken_cannot_lose() -> None:
    hand = deal(load_rules("bhabho"), ["AS 5H 2C", "2S 7H 3C", "3S 8H 4C"])
    run(hand, "0:AS 1:2S 2:3S 0:take")  # seat 0 takes seat 1; seats 0 and 2 are left
    assert log(hand.apply(2, TAKE_HAND)) == [
        "2 takes 0 (4: 2C 3C 5H 7H)",
        "0 out hand_taken",
        "over last_player bhabhi 2 out 1,0",
    ]


def test_B9_if_the_left_neighbour_is_out_take_from_the_next_player_round() -> None:
    hand = deal(load_rules("bhabho"), ["AS 5H", "2S 7H", "3S 8H 4C", "4S"])
    run(hand, "0:AS 1:2S 2:3S 3:4S")
    assert hand.view(0).out == (False, False, False, True)
    assert log(hand.apply(2, TAKE_HAND))[0] == "2 takes 0 (1: 5H)"  # seat 3 is out


def test_B9_taking_the_leaders_hand_passes_the_lead_to_the_taker() -> None:
    hand = deal(load_rules("bhabho"), ["AS 5H 2C", "2S 7H 3C", "3S 8H 4C"])
    run(hand, "0:AS 1:2S 2:3S")
    assert log(hand.apply(2, TAKE_HAND)) == ["2 takes 0 (2: 2C 5H)", "0 out hand_taken"]
    assert hand.to_move == 2


def test_B9_option_lead_passes_to_the_next_in_turn() -> None:
    rules = variant("bhabho", take_hand={"lead_passes_to": "next_in_turn"})
    hand = deal(rules, ["AS 5H 2C", "2S 7H 3C", "3S 8H 4C"])
    run(hand, "0:AS 1:2S 2:3S 2:take")
    assert hand.to_move == 1


def test_B9_before_the_first_trick_the_taker_of_the_ace_of_spades_leads_it() -> None:
    hand = deal(load_rules("bhabho"), ["2S 5H", "AS 7H", "3S 8H 4C"])
    assert hand.to_move == 1
    run(hand, "0:take")
    assert hand.to_move == 0
    assert list(hand.legal_actions(0)) == [Action.play("AS"), TAKE_HAND]


def test_B9_option_take_from_the_right() -> None:
    rules = variant("bhabho", take_hand={"from": "right"})
    hand = deal(rules, ["AS 5H 2C", "2S 7H 3C", "3S 8H 4C"])
    run(hand, "0:AS 1:2S 2:3S")
    assert log(hand.apply(1, TAKE_HAND))[0] == "1 takes 0 (2: 2C 5H)"


def test_B9_taken_cards_are_seen_only_by_the_taker_and_the_one_who_held_them() -> None:
    hand = deal(load_rules("bhabho"), ["AS 5H 2C", "2S KH 3C", "3S 4D 4C"])
    run(hand, "0:AS 1:2S 2:3S 0:5H 1:KH 2:4D")  # seat 1 picks up 5H KH 4D, face up
    (taken,) = [e for e in hand.apply(0, TAKE_HAND) if isinstance(e, HandTaken)]
    assert taken.visible_to(0) == taken and taken.visible_to(1) == taken
    assert taken.visible_to(2) == HandTaken(0, 1, 4, None)
    # the picked-up cards were public; they are now known to be in seat 0's hand
    known = tuple(sorted(parse_card(c) for c in ("4D", "5H", "KH")))
    assert hand.view(2).known_cards[0] == known
    assert hand.view(2).known_cards[1] == ()


@pytest.mark.parametrize(("per_trick", "second_allowed"), [("one", False), ("any", True)])
def test_B9_per_trick_one_or_any(per_trick: str, second_allowed: bool) -> None:
    rules = variant("bhabho", take_hand={"per_trick": per_trick})
    hand = deal(rules, ["AS 5H 2C", "2S 7H 3C", "3S 8H 4C", "4S 9H 5C"])
    run(hand, "0:AS 1:2S 2:3S 3:4S 1:take")  # seat 1 takes seat 2
    assert (TAKE_HAND in hand.legal_actions(3)) is second_allowed
    if second_allowed:
        # applied on the state the first take left: seat 3 takes seat 0, the leader
        assert log(hand.apply(3, TAKE_HAND)) == ["3 takes 0 (2: 2C 5H)", "0 out hand_taken"]
        assert hand.to_move == 3
    else:
        with pytest.raises(IllegalActionError) as caught:
            hand.apply(3, TAKE_HAND)
        assert caught.value.reason is Reason.TAKE_HAND_NOT_ALLOWED
        run(hand, "0:5H 1:7H 3:9H")
        assert TAKE_HAND in hand.legal_actions(3)  # a new trick, a new window


def test_B9_taking_is_only_before_a_trick() -> None:
    hand = deal(load_rules("bhabho"), ["AS 5H 2C", "2S 7H 3C", "3S 8H 4C"])
    run(hand, "0:AS")
    for seat in range(3):
        assert TAKE_HAND not in hand.legal_actions(seat)


# --- X1-X5 --------------------------------------------------------------------------------


def test_X1_only_the_player_about_to_lead_may_take() -> None:
    hand = deal(load_rules("bhabho-own-turn"), ["AS 5H 2C", "2S 7H 3C", "3S 8H 4C"])
    run(hand, "0:AS 1:2S 2:3S")
    assert hand.seats_to_act() == (0,)
    for seat in (1, 2):
        assert TAKE_HAND not in hand.legal_actions(seat)
        with pytest.raises(IllegalActionError) as caught:
            hand.apply(seat, TAKE_HAND)
        assert caught.value.reason is Reason.TAKE_HAND_NOT_ALLOWED
        assert "about to lead" in str(caught.value)
    assert log(hand.apply(0, TAKE_HAND)) == ["0 takes 1 (2: 3C 7H)", "1 out hand_taken"]
    assert hand.to_move == 0


def test_X2_with_two_left_a_tochoo_ends_the_hand_and_the_picker_is_the_bhabhi() -> None:
    hand = deal(load_rules("bhabho-two-left"), ["AS 5H 2C 3C", "2S 7H", "3S 8H 4D"])
    run(hand, "0:AS 1:2S 2:3S 0:5H 1:7H 2:8H")  # seat 1 is out; seat 2 leads
    assert hand.view(0).out == (False, True, False)
    events = log(run(hand, "2:4D 0:2C"))
    assert events[1:4] == ["0 tochoo 2C", "2 picks up 4D 2C", "trick 2 tochoo high 2 next None"]
    assert hand.outcome == Outcome(Termination.TWO_LEFT_PICKUP, 2, (1, 0))


def test_X2_the_survivor_is_not_reported_as_having_emptied_their_hand() -> None:
    hand = deal(load_rules("bhabho-two-left"), ["AS 5H 2C 3C", "2S 7H", "3S 8H 4D"])
    run(hand, "0:AS 1:2S 2:3S 0:5H 1:7H 2:8H")
    events = log(run(hand, "2:4D 0:2C"))
    assert held(hand, 0) == "3C"
    assert "0 out emptied" not in events
    assert "0 out two_left_pickup" in events


def test_X2_does_not_apply_with_three_left() -> None:
    hand = deal(load_rules("bhabho-two-left"), ["AS 5H 2C", "2S KH 3C", "3S 4D 4C"])
    run(hand, "0:AS 1:2S 2:3S 0:5H 1:KH 2:4D")
    assert not hand.is_over and hand.to_move == 1


def test_X2_off_in_plain_bhabho_two_left_tochoo_goes_on() -> None:
    hand = deal(load_rules("bhabho"), ["AS 5H 2C 3C", "2S 7H", "3S 8H 4D"])
    run(hand, "0:AS 1:2S 2:3S 0:5H 1:7H 2:8H 2:4D 0:2C")
    assert not hand.is_over and hand.to_move == 2


def test_X3_is_B1_stated_as_an_option() -> None:
    rules = load_rules("bhabho")
    assert rules.first_trick.off_suit.value == "discard"


# Six players, two packs: trick 0 is all spades; then seat 0 leads KH and seat 1 plays the
# identical KH of the second pack.
TWO_PACKS = ["AS KH 2C", "2S KH/2 3C", "3S 2H 4C", "4S 3H 5C", "5S 4H 6C", "6S 5H 7C"]


@pytest.mark.parametrize(("option", "high"), [("first_played", 0), ("last_played", 1)])
def test_X4_two_packs_identical_cards(option: str, high: int) -> None:
    rules = variant("two-packs", deck={"identical_cards": option})
    hand = deal(rules, TWO_PACKS)
    run(hand, "0:AS 1:2S 2:3S 3:4S 4:5S 5:6S")
    events = log(run(hand, "0:KH 1:KH/2 2:2H 3:3H 4:4H 5:5H"))
    assert events[6] == f"trick 1 complete high {high} next {high}"


def test_X4_bundled_two_packs_first_played_ranks_higher() -> None:
    hand = deal(load_rules("two-packs"), TWO_PACKS)
    run(hand, "0:AS 1:2S 2:3S 3:4S 4:5S 5:6S 0:KH 1:KH/2 2:2H 3:3H 4:4H 5:5H")
    assert hand.to_move == 0


@pytest.mark.parametrize(("players", "ok"), [(5, False), (6, True), (16, True), (17, False)])
def test_X4_two_packs_for_six_to_sixteen_players(players: int, ok: bool) -> None:
    rules = load_rules("two-packs")
    if not ok:
        with pytest.raises(EngineError):
            Hand(rules, players, seed=1)
        return
    hand = Hand(rules, players, seed=1)
    assert hand.card_total() == 104
    assert sum(hand.hand_sizes()) == 104


def test_X5_first_off_suit_card_fixes_trump_and_a_later_trump_wins() -> None:
    """X5 (Donkey): the first card of a player who cannot follow fixes the trump suit; from
    then on an off-suit trump does not end the trick but beats the led suit."""
    hand = deal(load_rules("donkey"), ["AS 5H 9C KD", "2S 7H 3D 4D", "3S 2C 6C 8C"])
    run(hand, "0:AS 1:2S 2:3S")  # B1: the first trick goes to the waste pile; 0 leads (B2)
    events = log(run(hand, "0:5H 1:7H 2:2C"))
    # The fixing card is still a tochoo: the highest heart (seat 1) picks up and leads.
    assert events[:4] == ["0 lead 5H", "1 follow 7H", "2 fixes trump C", "2 tochoo 2C"]
    assert "1 picks up 5H 7H 2C" in events
    assert hand.view(None).trump == 0  # clubs
    events = log(run(hand, "1:3D 2:6C 0:KD"))
    # Seat 2 has no diamond: its club is a trump, the trick goes on and the trump wins.
    assert events[:3] == ["1 lead 3D", "2 trump 6C", "0 follow KD"]
    assert "trick 2 complete high 2 next 2" in events
    assert sorted_text("3D 6C KD") in waste_of(hand)


def test_X5_trump_led_is_an_ordinary_suit_and_non_trumps_stay_tochoos() -> None:
    hand = deal(load_rules("donkey"), ["AS 5H 9C KD", "2S 7H 3D 4D", "3S 2C 6C 8C"])
    run(hand, "0:AS 1:2S 2:3S 0:5H 1:7H 2:2C")
    # Seat 1 leads a club (trump): following is as usual and the highest club wins.
    events = log(run(hand, "1:2C 2:8C 0:9C"))
    assert events[:3] == ["1 lead 2C", "2 follow 8C", "0 follow 9C"]
    assert "trick 2 complete high 0 next 0" in events
    # Seat 0 leads its last card, a diamond; seat 1 follows;
    # seat 2 holds only 6C (a trump) and trumps the diamonds.
    events = log(run(hand, "0:KD 1:4D 2:6C"))
    assert events[:3] == ["0 lead KD", "1 follow 4D", "2 trump 6C"]
    assert "trick 3 complete high 2 next 2" in events


def test_X5_without_trump_rules_no_trump_is_ever_fixed() -> None:
    hand = deal(load_rules("bhabho"), ["AS 5H 9C KD", "2S 7H 3D 4D", "3S 2C 6C 8C"])
    events = log(run(hand, "0:AS 1:2S 2:3S 0:5H 1:7H 2:2C"))
    assert not any("trump" in e for e in events)
    assert hand.view(None).trump is None


def test_X5_trump_needs_off_suit_cards_to_be_played() -> None:
    from referee.ruleset.loader import resolve_file

    _, problems = resolve_file(BROKEN / "trump-with-pickup.yaml")
    assert [(p.line, p.column, p.path, p.code.value) for p in problems] == [
        (3, 8, "trump", "semantic")
    ]
    assert "off_suit.play: pickup" in problems[0].message
