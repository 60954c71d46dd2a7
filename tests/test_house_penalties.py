"""House rules H25-H27, H29: false cards and the challenge, play out of turn, the clock's
move for any decision, hidden hand sizes (the engine's part; the referee's clock is in
test_play_clock.py, secrecy over whole games in test_server_secrecy.py and
test_properties.py)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import deal, held, log, run, variant

from referee.cards import parse_card
from referee.engine import Verdict
from referee.engine.components import RuleBook
from referee.engine.hand import Hand
from referee.engine.types import (
    CHALLENGE,
    HIDDEN_SIZE,
    Action,
    HandStarted,
    HandTaken,
    IllegalActionError,
    PickedUp,
    Reason,
    Termination,
    TochooChallenged,
)
from referee.ruleset.loader import resolve_file_named
from referee.ruleset.model import Ruleset
from referee.ruleset.problems import Code, Problem
from referee.sim.bots import Bot, HeuristicBot, RandomBot
from referee.sim.play import play_hand

NO_TAKES = {"when": "never"}


def challenge_rules(penalty: str = "bhabhi", **more: object) -> Ruleset:
    return variant(
        "bhabho",
        illegal_play="challenge",
        false_tochoo_penalty=penalty,
        take_hand=NO_TAKES,
        **more,
    )


# Three players, clockwise. Trick 0: AS 2S 3S, complete, seat 0 leads trick 1 (B2).
# Trick 1: seat 0 leads 5H; seat 1 holds 3H but plays 9C: a false tochoo, which ends the
# trick; seat 0 (the highest heart) picks up 5H 9C and leads (B6, B7).
DEAL = ["AS 5H KD 4C", "2S 3H 9C QC", "3S 4H 7D 8D"]
FIRST_TRICKS = "0:AS 1:2S 2:3S 0:5H 1:9C"


def test_a_false_tochoo_is_accepted_and_plays_as_a_tochoo() -> None:
    hand = deal(challenge_rules(), DEAL)
    run(hand, "0:AS 1:2S 2:3S 0:5H")
    assert Action.play(parse_card("9C")) in hand.legal_actions(1)  # held 3H: still legal
    events = hand.apply(1, Action.play(parse_card("9C")))
    assert log(events) == ["1 tochoo 9C", "0 picks up 5H 9C", "trick 1 tochoo high 0 next 0"]
    # Every active seat but the player of the off-suit card may challenge, the leader too.
    assert hand.seats_to_act() == (0, 2)
    assert CHALLENGE in hand.legal_actions(2) and CHALLENGE in hand.legal_actions(0)
    assert CHALLENGE not in hand.legal_actions(1)
    assert hand.to_move == 0
    view = hand.view(2)
    assert [(s, c) for s, c in view.last_trick] == [(0, parse_card("5H")), (1, parse_card("9C"))]


def test_a_right_challenge_makes_the_offender_the_bhabhi() -> None:
    hand = deal(challenge_rules(), DEAL)
    run(hand, FIRST_TRICKS)
    events = hand.apply(2, CHALLENGE)
    assert events[0] == TochooChallenged(2, 1, True, 1, "bhabhi")
    assert hand.is_over and hand.outcome is not None
    assert hand.outcome.termination is Termination.FALSE_TOCHOO
    assert hand.outcome.bhabhi == 1


def test_a_right_challenge_under_pagat_makes_the_offender_pick_up_and_lead() -> None:
    hand = deal(challenge_rules("pickup_and_lead"), DEAL)
    run(hand, FIRST_TRICKS)
    events = hand.apply(0, CHALLENGE)  # the picker itself may challenge
    assert log(events) == ["0 challenges trick 1: 1 pickup_and_lead", "1 picks up 5H 9C (penalty)"]
    assert held(hand, 0) == "4C KD"
    assert held(hand, 1) == "9C QC 3H 5H"
    assert hand.to_move == 1 and hand.leader == 1
    assert hand.view(2).known_cards[1] == tuple(sorted((parse_card("5H"), parse_card("9C"))))
    assert not hand.view(2).last_trick  # the trick cannot be challenged twice
    assert CHALLENGE not in hand.legal_actions(2)


def test_a_wrong_challenge_costs_nothing_and_closes_the_window() -> None:
    hand = deal(challenge_rules(), ["AS 5H KD 4C", "2S 9C QC 10C", "3S 4H 7D 8D"])
    run(hand, FIRST_TRICKS)
    before = (held(hand, 0), held(hand, 1), held(hand, 2), hand.leader)
    events = hand.apply(2, CHALLENGE)
    assert events == [TochooChallenged(2, 1, False, None, "")]
    assert (held(hand, 0), held(hand, 1), held(hand, 2), hand.leader) == before
    assert CHALLENGE not in hand.legal_actions(0)
    with pytest.raises(IllegalActionError) as refused:
        hand.apply(0, CHALLENGE)
    assert refused.value.reason is Reason.ACTION_NOT_ALLOWED


def test_the_window_closes_at_the_next_lead() -> None:
    hand = deal(challenge_rules(), DEAL)
    run(hand, FIRST_TRICKS + " 0:KD")
    assert not hand.view(2).last_trick
    with pytest.raises(IllegalActionError) as refused:
        hand.apply(2, CHALLENGE)
    assert refused.value.reason is Reason.ACTION_NOT_ALLOWED


def test_a_trick_without_an_off_suit_card_offers_no_challenge() -> None:
    hand = deal(challenge_rules(), DEAL)
    run(hand, "0:AS 1:2S 2:3S")
    assert all(CHALLENGE not in hand.legal_actions(s) for s in range(3))
    assert hand.seats_to_act() == (0,)


def test_honest_and_false_tochoos_look_the_same_to_the_others() -> None:
    """The challenge is offered after every trick with an off-suit card, false or not, so
    that its offer tells nobody anything."""
    honest = deal(challenge_rules(), ["AS 5H KD 4C", "2S 9C QC 10C", "3S 4H 7D 8D"])
    false = deal(challenge_rules(), DEAL)
    run(honest, FIRST_TRICKS)
    run(false, FIRST_TRICKS)
    for seat in (0, 2):
        a, b = honest.view(seat), false.view(seat)
        assert a.legal_actions == b.legal_actions and a.to_act == b.to_act
        assert a.last_trick == b.last_trick


def test_several_false_discards_the_first_pays() -> None:
    rules = variant("discard", illegal_play="challenge", false_tochoo_penalty="pickup_and_lead")
    hand = deal(rules, ["AS 2C", "KS 9H 3D", "QS 8H 4D", "JS 7C 5D"], dealer=3)
    order = [hand.to_move]
    assert order == [0]
    first = hand.view(0).trick_number
    hand.apply(0, Action.play(parse_card("AS")))
    seats = list(hand.seats_to_act())
    assert len(seats) == 1
    # the seats after seat 0 in play order: each plays a heart/diamond/club, not the spade
    plays = {1: "9H", 2: "8H", 3: "7C"}
    while hand.trick_number == first:
        seat = hand.to_move
        assert seat is not None
        hand.apply(seat, Action.play(parse_card(plays[seat])))
    # trick complete: clean-trick rules apply (the AS wins); everyone else played off suit
    assert CHALLENGE in hand.legal_actions(0)
    assert all(CHALLENGE not in hand.legal_actions(s) for s in (1, 2, 3))
    trick = hand.view(0).last_trick
    first_false = next(s for s, _ in trick[1:])
    events = hand.apply(0, CHALLENGE)
    assert isinstance(events[0], TochooChallenged) and events[0].offender == first_false
    assert isinstance(events[1], PickedUp)  # the trick, from the waste pile
    assert hand.leader == first_false
    assert hand.card_total() == len(rules.deck.cards())


def test_the_clock_never_plays_a_false_card() -> None:
    hand = deal(challenge_rules(), DEAL)
    run(hand, "0:AS 1:2S 2:3S 0:5H")
    assert hand.default_action(1) == Action.play(parse_card("3H"))


def test_challenge_needs_its_rule() -> None:
    hand = deal(variant("bhabho", take_hand=NO_TAKES), DEAL)
    run(hand, "0:AS 1:2S 2:3S 0:5H")
    judgement = hand.judge(1, Action.play(parse_card("9C")))
    assert judgement.reason is Reason.MUST_FOLLOW_SUIT
    run(hand, "1:3H 2:4H")
    assert CHALLENGE not in hand.legal_actions(2)


# --- H26 ------------------------------------------------------------------------------------


def out_of_turn_rules(**more: object) -> Ruleset:
    return variant("bhabho", out_of_turn="pickup_penalty", take_hand=NO_TAKES, **more)


def test_a_card_out_of_turn_in_a_trick_picks_the_trick_up() -> None:
    hand = deal(out_of_turn_rules(), DEAL)
    run(hand, "0:AS 1:2S 2:3S 0:5H")
    card = Action.play(parse_card("8D"))
    judgement = hand.judge(2, card)
    assert judgement.verdict is Verdict.PENALISED and judgement.reason is Reason.NOT_YOUR_TURN
    assert card not in hand.legal_actions(2)
    events = hand.apply(2, card)
    assert log(events)[:3] == [
        "2 penalised for 8D",
        "2 picks up 5H (penalty)",
        "trick 1 pickup high 0 next 2",
    ]
    assert "8D" in held(hand, 2) and "5H" in held(hand, 2)
    assert hand.leader == 2 and hand.to_move == 2


def test_a_card_right_after_a_tochoo_picks_up_the_trick_just_picked_up() -> None:
    hand = deal(out_of_turn_rules(), ["AS 5H KD 4C", "2S 9C QC 10C", "3S 4H 7D 8D"])
    run(hand, "0:AS 1:2S 2:3S 0:5H 1:9C")  # an honest tochoo: seat 0 picked up 5H 9C
    assert hand.leader == 0
    events = hand.apply(2, Action.play(parse_card("4H")))  # plays on after the tochoo
    assert log(events) == ["2 penalised for 4H", "2 picks up 5H 9C (penalty)"]
    assert held(hand, 0) == "4C KD"
    assert held(hand, 2) == "9C 7D 8D 4H 5H"
    assert hand.leader == 2


def test_out_of_turn_stays_refused_where_there_is_nothing_to_pick_up() -> None:
    hand = deal(out_of_turn_rules(), DEAL)
    judgement = hand.judge(1, Action.play(parse_card("2S")))  # before the first lead
    assert judgement.verdict is Verdict.REFUSED
    run(hand, "0:AS 1:2S 2:3S")  # a clean trick, to the waste pile
    assert hand.judge(1, Action.play(parse_card("3H"))).verdict is Verdict.REFUSED
    run(hand, "0:5H")
    assert hand.judge(2, Action.play(parse_card("KD"))).reason is Reason.CARD_NOT_IN_HAND or (
        hand.judge(2, Action.play(parse_card("KD"))).verdict is Verdict.REFUSED
    )
    assert hand.judge(2, Action(kind=Action.parse("pickup").kind)).verdict is Verdict.REFUSED


def test_a_seat_that_is_out_is_refused_not_penalised() -> None:
    hand = deal(out_of_turn_rules(), ["AS 5H", "2S 6H 9C QC", "3S 4H 7D 8D"])
    run(hand, "0:AS 1:2S 2:3S 0:5H 1:6H 2:4H")
    assert hand.out[0]
    assert hand.judge(0, Action.play(parse_card("5H"))).reason is Reason.PLAYER_OUT
    assert hand.judge(7, Action.play(parse_card("5H"))).reason is Reason.UNKNOWN_SEAT


def test_out_of_turn_and_c12_both_on() -> None:
    rules = variant("pickup", out_of_turn="pickup_penalty", illegal_play="pickup_penalty")
    hand = Hand(rules, 3, seed=7)
    seat = hand.to_move
    assert seat is not None
    other = (seat + 1) % 3
    card = hand.view(other).hand[0]
    hand.apply(seat, hand.legal_actions(seat).__iter__().__next__())
    mover = hand.to_move
    late = next(s for s in range(3) if s not in (seat, mover))
    judgement = hand.judge(late, Action.play(hand.view(late).hand[0]))
    assert judgement.verdict is Verdict.PENALISED
    assert card is not None


# --- H27 ------------------------------------------------------------------------------------


def test_default_action_takes_the_first_offered_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    hand = deal(variant("bhabho", take_hand=NO_TAKES), DEAL)
    agree = Action.parse("agree")
    monkeypatch.setattr(Hand, "_legal", lambda self, seat: (0, 0))
    monkeypatch.setattr(
        Hand, "_decisions", lambda self, seat: (CHALLENGE, Action.parse("take:1"), agree)
    )
    assert hand.default_action(hand.to_move or 0) == agree


# --- H29 ------------------------------------------------------------------------------------


def test_hidden_hand_sizes_in_views_and_events() -> None:
    rules = variant("bhabho", hand_sizes="hidden")
    hand = deal(rules, DEAL)
    assert hand.view(1).hand_sizes == (HIDDEN_SIZE, 4, HIDDEN_SIZE)
    assert hand.view(None).hand_sizes == (HIDDEN_SIZE,) * 3
    started = (hand.events or [])[0]
    assert isinstance(started, HandStarted) and started.hand_sizes == (4, 4, 4)
    assert started.visible_to(2).hand_sizes == (HIDDEN_SIZE, HIDDEN_SIZE, 4)  # type: ignore[attr-defined]
    assert started.public().hand_sizes == (HIDDEN_SIZE,) * 3  # type: ignore[attr-defined]
    taken = hand.apply(2, Action.take())
    event = next(e for e in taken if isinstance(e, HandTaken))
    assert event.visible_to(1).count == HIDDEN_SIZE  # type: ignore[attr-defined]
    assert event.visible_to(2).count == 4  # type: ignore[attr-defined]
    assert event.visible_to(0).count == 4  # type: ignore[attr-defined]
    assert hand.view(1).hand_sizes[0] == 0  # out: everyone knows


def test_public_hand_sizes_are_unchanged() -> None:
    hand = deal(variant("bhabho"), DEAL)
    assert hand.view(1).hand_sizes == (4, 4, 4)
    started = (hand.events or [])[0]
    assert started.visible_to(2) is started


def test_picked_up_from_waste_is_the_pickers_under_hidden_sizes() -> None:
    rules = variant("whole-pile", hand_sizes="hidden")
    rng = random.Random(3)
    for seed in range(40):
        hand = Hand(rules, 4, seed=seed)
        while not hand.is_over:
            seat = hand.to_move
            assert seat is not None
            for event in hand.apply(seat, rng.choice(list(hand.legal_actions(seat)))):
                if isinstance(event, PickedUp) and event.from_waste:
                    other = (event.seat + 1) % 4
                    assert event.visible_to(other).from_waste == HIDDEN_SIZE  # type: ignore[attr-defined]
                    assert event.visible_to(event.seat) is event
                    return
    pytest.fail("no pickup took the waste pile")


# --- the rules together ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "overrides",
    [
        {"illegal_play": "challenge"},
        {"illegal_play": "challenge", "false_tochoo_penalty": "pickup_and_lead"},
        {"out_of_turn": "pickup_penalty"},
        {"hand_sizes": "hidden", "illegal_play": "challenge"},
    ],
)
@pytest.mark.parametrize("base", ["bhabho", "discard", "donkey"])
def test_bots_play_whole_hands_under_the_house_rules(
    base: str, overrides: dict[str, object]
) -> None:
    rules = variant(base, **overrides)
    assert not RuleBook.of(rules).fast_playout or overrides.get("hand_sizes") == "hidden"
    deck = len(rules.deck.cards())
    for seed in range(12):
        hand = Hand(rules, 4, seed=seed)
        bots: list[Bot] = [RandomBot(), HeuristicBot(rules), RandomBot(), HeuristicBot(rules)]
        play_hand(hand, bots, random.Random(seed))
        assert hand.is_over
        assert hand.card_total() == deck


def test_the_heuristic_bot_challenges_only_a_proven_false_card() -> None:
    rules = challenge_rules()
    bot = HeuristicBot(rules)
    hand = deal(rules, ["AS 4H 2H KD", "2S 9H 7H QC", "3S 8D 7D 6D"])
    # Seat 1 picks up 4H 9H 8D face up (seat 2's tochoo), leads 8D; seat 0's KD wins.
    run(hand, "0:AS 1:2S 2:3S 0:4H 1:9H 2:8D 1:8D 2:6D 0:KD")
    assert bot.choose(hand.view(2), random.Random(0)) != CHALLENGE  # a clean trick
    run(hand, "0:2H 1:QC")  # seat 1 still holds 9H, seen face up: a proven false tochoo
    assert CHALLENGE in hand.legal_actions(2)
    assert bot.choose(hand.view(2), random.Random(0)) == CHALLENGE
    events = hand.apply(2, CHALLENGE)
    assert isinstance(events[0], TochooChallenged) and events[0].right


def test_the_heuristic_bot_does_not_challenge_on_a_guess() -> None:
    rules = challenge_rules()
    bot = HeuristicBot(rules)
    hand = deal(rules, DEAL)
    run(hand, FIRST_TRICKS)  # false, but nothing seen proves it
    assert CHALLENGE in hand.legal_actions(2)
    assert bot.choose(hand.view(2), random.Random(0)) is None
    # the picker's own known cards came with the trick: no proof either
    assert bot.choose(hand.view(0), random.Random(0)) != CHALLENGE


# --- rules validate -------------------------------------------------------------------------

BHABHO_NO_TAKES = (
    "[C1, C2, C3, C4, C5, C6, C7, C9, C10, C11, C12, C13, C14, C15, C16, B1, B2, B3, B4, B5, "
    "B6, B7, B8{more}]"
)


def findings(tmp_path: Path, text: str) -> list[Problem]:
    path = tmp_path / "x.yaml"
    path.write_text(text, encoding="utf-8")
    return resolve_file_named(path, str(path), clauses=True)[1]


def test_a_false_tochoo_penalty_without_the_challenge_is_refused(tmp_path: Path) -> None:
    (problem,) = findings(tmp_path, "id: x\nextends: bhabho\nfalse_tochoo_penalty: bhabhi\n")
    assert (problem.line, problem.path, problem.code) == (3, "false_tochoo_penalty", Code.SEMANTIC)
    assert "with illegal_play: reject nobody may challenge" in problem.message


def test_a_challenge_in_the_pickup_game_is_refused(tmp_path: Path) -> None:
    problems = findings(tmp_path, "id: x\nextends: pickup\nillegal_play: challenge\n")
    semantic = [p for p in problems if p.code is Code.SEMANTIC]
    assert [(p.line, p.path) for p in semantic] == [(3, "illegal_play")]
    assert "with off_suit.play: pickup nobody plays off the led suit" in semantic[0].message


@pytest.mark.parametrize(
    ("option", "clause"),
    [
        ("illegal_play: challenge", "H25"),
        ("out_of_turn: pickup_penalty", "H26"),
        ("timeout_bot_after: 2", "H27"),
        ("hand_sizes: hidden", "H29"),
    ],
)
def test_the_house_rule_clauses_follow_their_options(
    tmp_path: Path, option: str, clause: str
) -> None:
    base = "id: x\nextends: bhabho\ntake_hand: {when: never}\n"
    declared = f"clauses: {BHABHO_NO_TAKES.format(more=', ' + clause)}\n"
    assert findings(tmp_path, base + option + "\n" + declared) == []
    (off,) = findings(tmp_path, base + declared)  # declared, but the option is off
    assert off.code is Code.CLAUSE_SWITCHED_OFF and f"clause {clause} is declared" in off.message
    (missing,) = findings(
        tmp_path, base + option + "\n" + BHABHO_NO_TAKES.format(more="").join(["clauses: ", "\n"])
    )
    assert missing.code is Code.CLAUSE_NOT_DECLARED and missing.warning


def test_the_client_bot_challenges_a_proven_false_card_from_the_referees_view() -> None:
    """The same proof from the API's SeatView (the view of the engine's test above, as the
    referee sends it)."""
    from bhabhi.referee.v1 import referee_pb2 as pb
    from bhabhi_client.bots import HeuristicBot as ClientBot
    from bhabhi_client.rules import RulesProfile

    from referee.server.messages import view_message

    rules = challenge_rules()
    hand = deal(rules, ["AS 4H 2H KD", "2S 9H 7H QC", "3S 8D 7D 6D"])
    run(hand, "0:AS 1:2S 2:3S 0:4H 1:9H 2:8D 1:8D 2:6D 0:KD 0:2H 1:QC")
    bot = ClientBot(RulesProfile())
    proven = view_message(hand.view(2), 0)
    assert [p.card for p in proven.last_trick] == ["2H", "QC"]
    assert bot.choose(proven, random.Random(0)) == pb.Action(kind=pb.ACTION_KIND_CHALLENGE)
    guess = deal(rules, DEAL)
    run(guess, FIRST_TRICKS)
    assert bot.choose(view_message(guess.view(2), 0), random.Random(0)) is None
