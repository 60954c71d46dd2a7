"""House rules of taking a hand, H20-H24 (``take_hand`` options beside B9 and X1).

H20 ``consent``: a take is a request the player asked agrees to or refuses.  H21
``before_first_trick`` / ``with_two_left``: no take before the first trick, none with two
left.  H22 ``per_trick: pass_in_turn``: one take pass before each trick, from the leader.
H23 ``from: next_in_turn | either_neighbour | any_player``: whose hand.  H24 ``when:
after_neighbour_tochoo``: a neighbour's tochoo that one had to pick up makes that neighbour
owe their hand.

The deals are small and written out, so that each expectation can be checked by hand
against the rule text (tests/helpers.py: ``run`` applies ``seat:action`` words, ``log``
writes events as short sentences).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from helpers import deal, held, log, run, sorted_text, variant

from referee.cards import parse_card
from referee.engine.components import RuleBook
from referee.engine.hand import Hand
from referee.engine.types import (
    AGREE,
    PASS,
    REFUSE,
    TAKE_HAND,
    Action,
    IllegalActionError,
    Reason,
    TakeAnswered,
    TakePassed,
    TakeRequested,
)
from referee.ruleset.model import Ruleset
from referee.sim.bots import HeuristicBot, RandomBot
from referee.sim.play import play_hand

FOUR = ["AS 5H 2C", "2S 7H 3C", "3S 8H 4C", "4S 9H 5C"]
"""Trick 0 is all spades (0:AS 1:2S 2:3S 3:4S); seat 0 leads the second trick (B2)."""
FIRST_TRICK = "0:AS 1:2S 2:3S 3:4S"


def rules(**take: Any) -> Ruleset:
    """Bhabho (clockwise, B9 from the left, any number of takes) with ``take_hand`` options."""
    return variant("bhabho", take_hand=take)


def refused(hand: Hand, seat: int, text: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        hand.apply(seat, Action.parse(text))
    return caught.value


def actions(hand: Hand, seat: int) -> list[str]:
    return [str(a) for a in hand.legal_actions(seat)]


# --- H20 consent --------------------------------------------------------------------------


def test_H20_a_take_is_a_request_and_the_game_waits_for_the_player_asked() -> None:
    hand = deal(rules(consent=True), FOUR)
    run(hand, FIRST_TRICK)
    assert log(hand.apply(1, TAKE_HAND)) == ["1 asks for 2"]
    assert held(hand, 2) == sorted_text("8H 4C")  # nothing taken yet
    assert hand.to_move == 2
    assert hand.seats_to_act() == (2,)
    assert actions(hand, 2) == ["agree", "refuse"]
    assert actions(hand, 0) == [] and actions(hand, 3) == []
    assert refused(hand, 0, "5H").reason is Reason.NOT_YOUR_TURN
    error = refused(hand, 3, "take")
    assert error.reason is Reason.TAKE_HAND_NOT_ALLOWED
    assert "waits for seat 2 to agree or refuse" in str(error)
    assert refused(hand, 1, "agree").reason is Reason.ACTION_NOT_ALLOWED
    assert hand.default_action(2) == REFUSE  # the clock never gives a hand away


def test_H20_agree_the_take_happens_as_without_consent() -> None:
    hand = deal(rules(consent=True), FOUR)
    run(hand, FIRST_TRICK + " 1:take")
    assert log(hand.apply(2, AGREE)) == [
        "2 agrees to 1",
        "1 takes 2 (2: 4C 8H)",
        "2 out hand_taken",
    ]
    assert held(hand, 1) == sorted_text("3C 4C 7H 8H")
    assert hand.to_move == 0 and TAKE_HAND in hand.legal_actions(3)


def test_H20_refuse_nothing_changes_and_the_asker_may_not_ask_again_before_this_trick() -> None:
    hand = deal(rules(consent=True), FOUR)
    run(hand, FIRST_TRICK + " 1:take")
    before = hand.hand_sizes()
    assert log(hand.apply(2, REFUSE)) == ["2 refuses 1"]
    assert hand.hand_sizes() == before and hand.out == [False] * 4
    assert hand.to_move == 0
    assert TAKE_HAND not in hand.legal_actions(1)
    error = refused(hand, 1, "take")
    assert error.reason is Reason.TAKE_HAND_NOT_ALLOWED
    assert "refused" in str(error)
    # others may still ask, the one refused included
    assert TAKE_HAND in hand.legal_actions(3) and TAKE_HAND in hand.legal_actions(2)
    run(hand, "0:5H 1:7H 2:8H 3:9H")  # a clean trick; seat 3 leads the next
    assert TAKE_HAND in hand.legal_actions(1)  # a new trick: seat 1 may ask seat 2 again


def test_H20_a_refused_request_is_not_a_take_under_per_trick_one() -> None:
    hand = deal(rules(consent=True, per_trick="one"), FOUR)
    run(hand, FIRST_TRICK + " 1:take 2:refuse")
    assert TAKE_HAND in hand.legal_actions(3)
    run(hand, "3:take 0:agree")
    assert hand.out == [True, False, False, False]
    assert TAKE_HAND not in hand.legal_actions(1)  # the one take closed the window


def test_H20_asked_for_the_leaders_hand_the_leader_answers_before_leading() -> None:
    hand = deal(rules(consent=True), FOUR)
    run(hand, FIRST_TRICK + " 3:take")
    assert hand.to_move == 0 and actions(hand, 0) == ["agree", "refuse"]
    error = refused(hand, 0, "5H")
    assert error.reason is Reason.ACTION_NOT_ALLOWED
    assert "agree to or refuse seat 3's request" in str(error)
    run(hand, "0:agree")
    assert hand.to_move == 3  # lead_passes_to: taker


def test_H20_request_and_answer_are_public_and_show_no_card() -> None:
    hand = deal(rules(consent=True), FOUR)
    run(hand, FIRST_TRICK)
    events = [*hand.apply(1, TAKE_HAND), *hand.apply(2, AGREE)]
    request, answer = events[0], events[1]
    assert request == TakeRequested(1, 2) and answer == TakeAnswered(2, 1, True)
    for event in (request, answer):
        assert event.public() == event and event.visible_to(3) == event
        assert set(event.to_dict()) <= {"kind", "taker", "seat", "agreed"}
    taken = events[2]
    assert taken.visible_to(3).to_dict()["cards"] is None
    assert taken.visible_to(1) == taken and taken.visible_to(2) == taken


# --- H21 no early or late takes -------------------------------------------------------------


def test_H21_no_take_before_the_first_trick() -> None:
    hand = deal(rules(before_first_trick=False), FOUR)
    assert hand.seats_to_act() == (0,)
    assert actions(hand, 0) == ["AS"]
    error = refused(hand, 1, "take")
    assert error.reason is Reason.TAKE_HAND_NOT_ALLOWED
    assert "before the first trick (H21)" in str(error)
    run(hand, FIRST_TRICK)
    assert TAKE_HAND in hand.legal_actions(1)  # from the second trick on


def test_H21_no_take_with_two_left() -> None:
    hand = deal(rules(with_two_left=False), ["AS 5H 2C", "2S 7H 3C", "3S 8H 4C"])
    run(hand, "0:AS 1:2S 2:3S")
    assert TAKE_HAND in hand.legal_actions(0)  # three in
    run(hand, "0:take")  # seat 0 takes seat 1's hand; two are left
    assert hand.out.count(False) == 2
    assert TAKE_HAND not in hand.legal_actions(0) and TAKE_HAND not in hand.legal_actions(2)
    error = refused(hand, 2, "take")
    assert "only two players left (H21)" in str(error)


def test_H21_default_two_left_take_ends_the_hand_with_the_taker_as_bhabhi() -> None:
    hand = deal(rules(), ["AS 5H 2C", "2S 7H 3C", "3S 8H 4C"])
    run(hand, "0:AS 1:2S 2:3S 0:take")
    assert log(hand.apply(2, TAKE_HAND))[-1] == "over last_player bhabhi 2 out 1,0"


# --- H22 one take pass -----------------------------------------------------------------------


def test_H22_the_pass_goes_round_from_the_leader_each_takes_or_passes() -> None:
    hand = deal(rules(per_trick="pass_in_turn"), FOUR)
    # before the first trick: the leader (the Ace of spades) is asked first
    assert hand.to_move == 0 and actions(hand, 0) == ["take", "pass"]
    assert hand.seats_to_act() == (0,)
    assert refused(hand, 1, "take").reason is Reason.TAKE_HAND_NOT_ALLOWED
    assert "seat 0's turn to take or pass" in str(refused(hand, 1, "take"))
    error = refused(hand, 0, "AS")
    assert error.reason is Reason.ACTION_NOT_ALLOWED and "take pass (H22)" in str(error)
    assert log(hand.apply(0, PASS)) == ["0 passes before trick 0"]
    assert hand.to_move == 1 and hand.default_action(1) == PASS
    run(hand, "1:pass 2:pass 3:pass")
    assert hand.to_move == 0 and actions(hand, 0) == ["AS"]  # the pass is round: lead
    run(hand, FIRST_TRICK)
    assert hand.to_move == 0 and actions(hand, 0) == ["take", "pass"]  # a new pass


def test_H22_each_takes_at_most_once_and_a_seat_that_is_out_is_skipped() -> None:
    hand = deal(rules(per_trick="pass_in_turn"), FOUR)
    run(hand, "0:pass 1:pass 2:pass 3:pass " + FIRST_TRICK + " 0:pass 1:pass")
    assert log(hand.apply(2, TAKE_HAND)) == ["2 takes 3 (2: 5C 9H)", "3 out hand_taken"]
    # seat 3, next in the pass, is out: the pass is round and the leader leads
    assert hand.to_move == 0 and actions(hand, 0) == ["2C", "5H"]
    assert TAKE_HAND not in hand.legal_actions(2)  # seat 2 had its turn


def test_H22_the_leaders_hand_taken_the_lead_passes_and_the_pass_goes_on() -> None:
    hand = deal(rules(per_trick="pass_in_turn"), FOUR)
    run(hand, "0:pass 1:pass 2:pass 3:pass " + FIRST_TRICK + " 0:pass 1:pass 2:pass")
    assert log(hand.apply(3, TAKE_HAND)) == ["3 takes 0 (2: 2C 5H)", "0 out hand_taken"]
    assert hand.to_move == 3 and actions(hand, 3) == sorted_text("2C 5C 5H 9H").split()


def test_H22_a_new_leader_who_had_its_turn_in_the_pass_leads() -> None:
    """With the lead passing to the next in turn, the leader's hand taken late in the pass
    makes a seat that already had its turn the leader: the pass is round, and it leads."""
    hand = deal(rules(per_trick="pass_in_turn", lead_passes_to="next_in_turn"), FOUR)
    run(hand, "0:pass 1:pass 2:pass 3:pass " + FIRST_TRICK + " 0:pass")
    assert hand.to_move == 1
    run(hand, "1:take")  # seat 1 takes seat 2's hand: not the leader
    assert hand.to_move == 3  # seat 2 is out and skipped
    run(hand, "3:take")  # seat 3 takes seat 0, the leader; the lead passes to seat 1
    assert hand.leader == 1 and hand.to_move == 1
    assert actions(hand, 1) == sorted_text("3C 4C 7H 8H").split()  # seat 1 had its turn


def test_H22_the_pass_before_the_first_trick_with_the_ace_of_spades_taken() -> None:
    hand = deal(rules(per_trick="pass_in_turn"), FOUR)
    run(hand, "0:pass 1:pass 2:pass")
    run(hand, "3:take")  # seat 3 takes seat 0 with the Ace of spades: seat 3 leads it
    assert hand.to_move == 3 and actions(hand, 3) == ["AS"]


def test_H22_with_consent_a_refused_asker_keeps_its_turn_in_the_pass() -> None:
    hand = deal(rules(per_trick="pass_in_turn", consent=True, **{"from": "any_player"}), FOUR)
    run(hand, "0:pass 1:take:2")
    assert hand.to_move == 2
    run(hand, "2:refuse")
    assert hand.to_move == 1  # its turn goes on: it may ask someone else, or pass
    assert actions(hand, 1) == ["take:0", "take:3", "pass"]
    run(hand, "1:take:3 3:agree")
    assert hand.to_move == 2  # the pass goes on after seat 1


# --- H23 whose hand ------------------------------------------------------------------------


@pytest.mark.parametrize(("direction", "target"), [("clockwise", 2), ("counterclockwise", 0)])
def test_H23_next_in_turn_follows_the_direction_of_play(direction: str, target: int) -> None:
    ruleset = variant("bhabho", direction=direction, take_hand={"from": "next_in_turn"})
    hand = deal(ruleset, ["AS 5H 2C", "2S 7H 3C", "3S 8H 4C"])
    assert RuleBook.of(ruleset).take_step == (1 if direction == "clockwise" else -1)
    run(hand, "0:AS 1:2S 2:3S" if direction == "clockwise" else "0:AS 2:3S 1:2S")
    assert log(hand.apply(1, TAKE_HAND))[0].startswith(f"1 takes {target} ")


def test_H23_either_neighbour_lists_a_take_per_neighbour_and_refuses_the_bare_take() -> None:
    hand = deal(rules(**{"from": "either_neighbour"}), FOUR)
    run(hand, FIRST_TRICK)
    assert actions(hand, 1) == ["take:0", "take:2"]
    assert TAKE_HAND not in hand.legal_actions(1)
    error = refused(hand, 1, "take")
    assert error.reason is Reason.TAKE_HAND_NOT_ALLOWED
    assert "name whose hand to take (H23): take:0, take:2" in str(error)
    assert "may not take seat 3's hand" in str(refused(hand, 1, "take:3"))
    assert log(hand.apply(1, Action.take(0))) == ["1 takes 0 (2: 2C 5H)", "0 out hand_taken"]
    assert actions(hand, 3) == ["take:1", "take:2"]  # seat 0 is out: seat 3's left is seat 1


def test_H23_any_player_lists_every_player_still_in() -> None:
    hand = deal(rules(**{"from": "any_player"}), FOUR)
    run(hand, FIRST_TRICK)
    assert actions(hand, 1) == ["take:0", "take:2", "take:3"]
    assert actions(hand, 0)[-3:] == ["take:1", "take:2", "take:3"]
    run(hand, "1:take:3")
    assert actions(hand, 2) == ["take:0", "take:1"]


def test_H23_a_named_take_is_refused_where_the_rules_name_the_hand() -> None:
    hand = deal(rules(), FOUR)
    run(hand, FIRST_TRICK)
    error = refused(hand, 1, "take:2")
    assert error.reason is Reason.TAKE_HAND_NOT_ALLOWED
    assert "write take" in str(error)


# --- H24 a tochoo owes a hand --------------------------------------------------------------

OWED = ["AS 5H 2C", "2S 7H 3C", "3S 4C 6C", "4S 9H 5C"]
"""Trick 1: seat 0 leads 5H, seat 1 plays 7H, seat 2 (no hearts) a tochoo with 4C: seat 1,
highest, picks up; seat 2, its left neighbour, owes it its hand (6C)."""


@pytest.mark.parametrize("side", ["left", "either_neighbour", "next_in_turn"])
def test_H24_a_neighbours_tochoo_lets_the_picker_take_that_neighbours_hand(side: str) -> None:
    hand = deal(rules(when="after_neighbour_tochoo", **{"from": side}), OWED)
    assert hand.seats_to_act() == (0,) and TAKE_HAND not in hand.legal_actions(1)
    run(hand, FIRST_TRICK + " 0:5H 1:7H 2:4C")
    take = "take" if side != "either_neighbour" else "take:2"
    assert hand.seats_to_act() == (1,)  # seat 1 leads, and may take
    assert take in actions(hand, 1)
    for seat in (0, 2, 3):
        assert not [a for a in actions(hand, seat) if a.startswith("take")]
    assert log(hand.apply(1, Action.parse(take))) == ["1 takes 2 (1: 6C)", "2 out hand_taken"]
    assert not [a for a in actions(hand, 1) if a.startswith("take")]  # once: it is paid


def test_H24_a_debt_not_claimed_before_the_next_trick_lapses() -> None:
    hand = deal(
        rules(when="after_neighbour_tochoo"),
        ["AS 5H 2C 3D", "2S 7H 3C 4D", "3S 4C 6C 5D", "4S 9H 5C 6D"],
    )
    run(hand, FIRST_TRICK + " 0:5H 1:7H 2:4C")
    assert TAKE_HAND in hand.legal_actions(1)
    run(hand, "1:3C 2:6C 3:5C 0:2C")  # seat 1 leads instead; a clean trick
    assert not any(TAKE_HAND in hand.legal_actions(s) for s in range(4))


RIGHT_DEBT = ["AS KH 2C", "2S 2H 3C", "3S 3H 4C", "4S 5C 6C"]
"""Trick 1: seat 0 leads KH, seats 1 and 2 follow low, seat 3 (no hearts) plays a tochoo:
seat 0 picks up; seat 3 is its right neighbour."""


@pytest.mark.parametrize(("side", "owed"), [("either_neighbour", True), ("left", False)])
def test_H24_the_side_from_names_which_neighbours_tochoo_counts(side: str, owed: bool) -> None:
    hand = deal(rules(when="after_neighbour_tochoo", **{"from": side}), RIGHT_DEBT)
    run(hand, FIRST_TRICK + " 0:KH 1:2H 2:3H 3:5C")
    assert hand.take_debt == ((0, 3) if owed else None)
    assert ("take:3" in actions(hand, 0)) is owed


def test_H24_a_tochoo_from_across_the_table_owes_nothing() -> None:
    ruleset = rules(when="after_neighbour_tochoo", **{"from": "either_neighbour"})
    hand = deal(ruleset, ["AS KH 2C", "2S 2H 3C", "3S 4C 6C", "4S 9H 5C"])
    run(hand, FIRST_TRICK + " 0:KH 1:2H 2:4C")  # seat 2's tochoo: seat 0 picks up
    assert hand.take_debt is None
    assert not any(a.startswith("take") for s in range(4) for a in actions(hand, s))


# --- every option on, whole games ----------------------------------------------------------

COMBINATIONS = [
    {"consent": True},
    {"before_first_trick": False, "with_two_left": False},
    {"per_trick": "pass_in_turn"},
    {"per_trick": "pass_in_turn", "consent": True, "from": "any_player"},
    {"from": "next_in_turn"},
    {"from": "either_neighbour", "consent": True},
    {"when": "after_neighbour_tochoo", "from": "either_neighbour"},
    {"when": "leader_before_trick", "from": "any_player", "consent": True},
]


@pytest.mark.parametrize(
    "take", COMBINATIONS, ids=lambda t: ",".join(f"{k}={v}" for k, v in t.items())
)
@pytest.mark.parametrize("direction", ["clockwise", "counterclockwise"])
def test_whole_games_end_and_keep_every_card(take: dict[str, Any], direction: str) -> None:
    ruleset = variant("bhabho", direction=direction, take_hand=take)
    assert not RuleBook.of(ruleset).fast_playout or take == {"from": "next_in_turn"}
    for players in (3, 4, 6):
        for seed in range(6):
            for bots in ([RandomBot() for _ in range(players)], [HeuristicBot(ruleset)] * players):
                hand = Hand(ruleset, players, seed=f"taking:{seed}")
                play_hand(hand, bots, random.Random(seed))
                assert hand.is_over and hand.card_total() == 52
                events = hand.events or []
                for event in events:
                    if isinstance(event, (TakeRequested, TakeAnswered, TakePassed)):
                        assert event.public() == event


def test_heuristic_bot_agrees_passes_and_names_a_target() -> None:
    ruleset = rules(consent=True, per_trick="pass_in_turn", **{"from": "any_player"})
    bot = HeuristicBot(ruleset)
    hand = deal(ruleset, FOUR)
    assert bot.choose(hand.view(0), random.Random(0)) == PASS
    run(hand, "0:pass 1:take:2")
    assert bot.choose(hand.view(2), random.Random(0)) == AGREE
    # where the taker chooses, the rival with one known low card (it escapes anyway)
    five = deal(rules(**{"from": "any_player"}), ["AS 5H", "2S 7H", "3S 8H", "4S 9H", "5S 3H"])
    view = dataclasses.replace(
        five.view(0),
        hand_sizes=(2, 2, 2, 1, 1),
        known_cards=((), (), (), (parse_card("9H"),), (parse_card("3H"),)),
        legal_actions=tuple(Action.take(s) for s in (1, 2, 3, 4)),
        turn=1,
    )
    assert bot.choose(view, random.Random(0)) == Action.take(4)  # 3H is lower than 9H
    assert HeuristicBot(five.rules).choose(view, random.Random(0)) == Action.take(4)


# --- the client's reading of the options ---------------------------------------------------


def test_the_clients_rules_profile_knows_the_take_options() -> None:
    from bhabhi_client.bots import take_target as client_take_target
    from bhabhi_client.rules import RulesProfile

    data = dict(variant("bhabho", direction="counterclockwise").source)
    data["take_hand"] = {**data["take_hand"], "from": "next_in_turn"}
    profile = RulesProfile.from_mapping(data)
    assert profile.take_step == -1 and not profile.take_chosen  # next in play: the right
    assert client_take_target([False] * 4, 1, profile.take_step) == 0
    data["take_hand"] = {
        "when": "after_neighbour_tochoo",
        "from": "either_neighbour",
        "per_trick": "pass_in_turn",
        "lead_passes_to": "taker",
        "consent": True,
        "before_first_trick": False,
        "with_two_left": False,
    }
    profile = RulesProfile.from_mapping(data)
    assert profile.take_chosen and profile.take_hand_consent
    text = " ".join(profile.summary_lines())
    for words in ("'take 3'", "tochoo", "'pass'", "'agree' or 'refuse'", "first trick", "two"):
        assert words in text, words
    assert RulesProfile.from_mapping(dict(variant("bhabho").source)).take_step == 1
