"""House rules of the first trick, the trick and the lead (H5, H6, H9, H10, H11, H12).

The conformance cases in conformance/cases/house-rules/tricks/ replay the rules' normal
effect on small deals; these tests check what the cases cannot say: which readings hold at
the edges (ties of rank, aces low, a dealer dealt no card, a C12 penalty under H9), that
``bhabhi rules validate`` refuses the combinations in which an option cannot act, where it
says so, that the clause check knows the H-IDs, that the fast playout and the dead-position
search stay out of the way, and that the simulator, the bots and the referee play the rules
to the end.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from bhabhi.referee.v1 import referee_pb2 as pb
from bhabhi_client.bots import HeuristicBot as ClientHeuristicBot
from bhabhi_client.cards import format_action, parse_action
from helpers import deal, held, run, variant
from server_helpers import referee, run_async, seat_table

from referee.cards import mask_of, parse_card
from referee.engine.components import RuleBook
from referee.engine.deadpos import dead_position_check
from referee.engine.hand import TRUMP_CHOICES, Hand, longest_suit
from referee.engine.types import (
    LEGAL,
    Action,
    ActionKind,
    CardPlayed,
    PickedUp,
    Reason,
    TrickEnded,
    TrumpFixed,
    Verdict,
)
from referee.ruleset.clauses import catalogue_order, followed
from referee.ruleset.loader import resolve_text
from referee.ruleset.model import Ruleset
from referee.sim.bots import Bot, HeuristicBot, RandomBot
from referee.sim.play import play_hand
from referee.sim.simulate import simulate

PLAIN = {"next_leader": {"if_out": "next_in_turn"}, "take_hand": {"when": "never"}}
"""Bhabho without B8 and B9, so that a hand-made deal is about the rule under test."""


def thulla(**overrides: Any) -> Ruleset:
    """Bhabho without B8 and B9, with ``overrides`` merged on."""
    merged: dict[str, Any] = {k: dict(v) for k, v in PLAIN.items()}
    for key, value in overrides.items():
        if isinstance(value, dict) and key in merged:
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
    return variant("bhabho", **merged)


def legal(hand: Hand, seat: int) -> list[str]:
    return [str(a) for a in hand.legal_actions(seat)]


# --- H5: a player who cannot follow plays high on the first trick ---------------------------


def test_H5_ties_of_rank_in_several_suits_are_all_legal() -> None:
    hand = deal(thulla(first_trick={"void_plays": "highest"}), ["AS 2C", "QH QD QC 3H", "KS 4D"])
    run(hand, "0:AS")
    assert sorted(legal(hand, 1)) == sorted(["QC", "QD", "QH"])


def test_H5_uses_the_rulesets_rank_order_so_with_aces_low_the_king_is_highest() -> None:
    rules = variant(
        "ace-low-ace-leads",
        first_trick={"void_plays": "highest", "off_suit": "discard"},
    )
    hand = deal(rules, ["AS 2C", "AH KD 3C", "KH 4D"])
    assert hand.leader == 0
    run(hand, "0:AS")
    seat = hand.to_move
    assert seat in (1, 2)
    king = "KD" if seat == 1 else "KH"
    assert king in held(hand, seat) and legal(hand, seat) == [king]  # the ace ranks low (V3)


def test_H5_is_refused_not_penalised_under_C12() -> None:
    """C12's penalty is for not following suit; a void player's low card is simply refused."""
    rules = thulla(first_trick={"void_plays": "highest"}, illegal_play="pickup_penalty")
    hand = deal(rules, ["AS 2C", "KH 3C", "KS 4D"])
    run(hand, "0:AS")
    judgement = hand.judge(1, Action.parse("3C"))
    assert judgement.verdict is Verdict.REFUSED
    assert judgement.reason is Reason.ACTION_NOT_ALLOWED
    assert "H5" in judgement.message and "KH" in judgement.message


def test_H5_holds_only_on_the_first_trick() -> None:
    hand = deal(thulla(first_trick={"void_plays": "highest"}), ["AS 2C 9C", "KS 3H AD", "QS 4C"])
    run(hand, "0:AS 1:KS 2:QS 0:2C")
    assert sorted(legal(hand, 1)) == ["3H", "AD"]


def test_H5_the_clock_plays_a_highest_card_too() -> None:
    hand = deal(thulla(first_trick={"void_plays": "highest"}), ["AS 2C", "KH 3C", "KS 4D"])
    run(hand, "0:AS")
    assert str(hand.default_action(1)) == "KH"


def test_H5_with_H6_applies_to_the_suit_the_first_trick_is_led_in() -> None:
    rules = thulla(first_trick={"void_plays": "highest"}, first_lead={"leads": "any_card"})
    hand = deal(rules, ["AS 7H", "KS 2C QD", "QS 9H"])
    run(hand, "0:7H")
    assert legal(hand, 1) == ["KS"]  # no heart: its highest card, a spade


# --- H6: the first leader leads any card -------------------------------------------------------


def test_H6_the_first_leader_may_lead_any_card_and_nobody_is_forced() -> None:
    hand = deal(variant("pickup", first_lead={"leads": "any_card"}), ["AS 7H", "KH", "9H"])
    assert hand.forced_lead == -1 and hand.leader == 0
    assert sorted(legal(hand, 0)) == ["7H", "AS"]
    assert hand.judge(0, Action.parse("7H")) is LEGAL


def test_H6_when_the_lead_card_is_out_of_play_the_highest_spade_leads_what_it_likes() -> None:
    hand = deal(variant("pickup", first_lead={"leads": "any_card"}), ["KS 7H", "2S 3H", "9H"])
    assert hand.leader == 0 and sorted(legal(hand, 0)) == ["7H", "KS"]


def test_H6_a_taken_first_leader_passes_a_free_lead_to_the_lead_cards_new_holder() -> None:
    rules = variant("bhabho", first_lead={"leads": "any_card"})
    hand = deal(rules, ["AS 7H", "KH 2C", "9H 3D"])
    run(hand, "2:take")  # seat 2 takes seat 0's hand (B9: its left neighbour)
    assert hand.leader == 2 and hand.forced_lead == -1
    assert sorted(legal(hand, 2)) == sorted(["3D", "7H", "9H", "AS", "take"])


# --- H9: a tochoo that does not stop the trick -----------------------------------------------


def test_H9_the_trick_goes_on_and_its_highest_card_picks_up_every_card() -> None:
    rules = thulla(
        off_suit={"play": "tochoo_plays_on"}, first_trick={"off_suit": "as_other_tricks"}
    )
    hand = deal(rules, ["AS 2H", "3C 4H", "KS 5H"])
    events = run(hand, "0:AS 1:3C 2:KS")
    roles = [e.role for e in events if isinstance(e, CardPlayed)]
    assert roles == ["lead", "tochoo", "follow"]
    picked = [e for e in events if isinstance(e, PickedUp)]
    assert [(p.seat, len(p.cards)) for p in picked] == [(0, 3)]
    ended = [e for e in events if isinstance(e, TrickEnded)]
    assert ended[0].how == "tochoo" and ended[0].next_leader == 0  # AS: the highest (B7)


def test_H9_C12_penalty_mid_trick_gives_the_lead_to_the_earlier_tochoo_player() -> None:
    rules = thulla(
        off_suit={"play": "tochoo_plays_on"},
        first_trick={"off_suit": "as_other_tricks", "next_leader": "as_other_tricks"},
        next_leader={"after_pickup": "tochoo_player"},
        illegal_play="pickup_penalty",
    )
    hand = deal(rules, ["AS 2H", "3C 4H", "KS 5H", "QS 6H"])
    run(hand, "0:AS 1:3C")
    events = hand.apply(2, Action.parse("5H"))  # seat 2 holds KS: a C12 penalty
    picked = [e for e in events if isinstance(e, PickedUp)]
    assert picked[0].seat == 2 and picked[0].penalty
    ended = [e for e in events if isinstance(e, TrickEnded)]
    assert ended[0].next_leader == 1  # the tochoo player of the trick leads


def test_H9_tochoo_player_after_a_penalty_without_a_tochoo_gives_the_lead_to_the_picker() -> None:
    rules = thulla(
        first_trick={"off_suit": "as_other_tricks", "next_leader": "as_other_tricks"},
        next_leader={"after_pickup": "tochoo_player"},
        illegal_play="pickup_penalty",
    )
    hand = deal(rules, ["AS 2H", "KS 4H", "QS 5H"])
    run(hand, "0:AS")
    events = hand.apply(1, Action.parse("4H"))  # seat 1 holds KS: a C12 penalty
    ended = [e for e in events if isinstance(e, TrickEnded)]
    assert ended[0].how == "pickup" and ended[0].next_leader == 1


# --- H10: the next-highest card leads ----------------------------------------------------------


def test_H10_when_no_card_of_the_led_suit_is_left_in_play_the_next_in_turn_leads() -> None:
    """Under D1 a discard does not rank: with every player of the led suit out, P3 decides."""
    rules = variant("discard", next_leader={"if_out": "next_highest"})
    order = 1 if rules.direction.value == "clockwise" else -1
    second, third = (0 + order) % 4, (0 + 2 * order) % 4
    hands = ["", "", "", ""]
    hands[0] = "AS"
    hands[second] = "2S"
    hands[third] = "5H 6H"
    hands[(0 + 3 * order) % 4] = "7D 8D"
    hand = deal(rules, hands)
    events = run(hand, f"0:AS {second}:2S {third}:5H {(3 * order) % 4}:7D")
    ended = [e for e in events if isinstance(e, TrickEnded)]
    assert ended[0].how == "complete" and ended[0].next_leader == third  # next in turn


def test_H10_switches_the_dead_position_search_off() -> None:
    assert dead_position_check(RuleBook.of(variant("pickup"))) is not None
    rules = variant("pickup", next_leader={"if_out": "next_highest"})
    assert dead_position_check(RuleBook.of(rules)) is None


# --- H12: a trump fixed before play or named by the dealer ------------------------------------


def test_H12_fixed_trump_is_trump_from_the_start_without_an_event() -> None:
    hand = deal(thulla(trump="fixed", trump_suit="D"), ["AS 2C", "KS 3D", "QS 4H"])
    assert hand.view(None).trump == 1 and hand.trump == 1
    assert not any(isinstance(e, TrumpFixed) for e in hand.events or ())


def test_H12_dealer_choice_waits_for_the_dealer_and_offers_only_the_four_suits() -> None:
    hand = deal(thulla(trump="dealer_choice"), ["AS 2C", "KS 3D", "QS 4H"], dealer=2)
    assert hand.to_move == 2 and hand.seats_to_act() == (2,)
    assert tuple(hand.legal_actions(2)) == TRUMP_CHOICES
    assert hand.view(0).turn == 2 and hand.view(0).trump is None
    assert hand.judge(0, Action.parse("AS")).reason is Reason.NOT_YOUR_TURN
    assert hand.judge(2, Action.parse("QS")).reason is Reason.ACTION_NOT_ALLOWED
    assert hand.judge(1, Action.parse("trump:H")).reason is Reason.ACTION_NOT_ALLOWED
    assert hand.apply(2, Action.parse("trump:H")) == [TrumpFixed(2, "H", 0)]
    assert hand.to_move == 0 and hand.trump == 2
    assert hand.judge(2, Action.parse("trump:S")).reason is Reason.ACTION_NOT_ALLOWED


def test_H12_no_hand_is_taken_before_the_dealer_names_the_trump() -> None:
    hand = deal(variant("bhabho", trump="dealer_choice"), ["AS 2C", "KS 3D", "QS 4H"], dealer=1)
    judgement = hand.judge(0, Action.parse("take"))
    assert judgement.reason is Reason.TAKE_HAND_NOT_ALLOWED and "H12" in judgement.message
    run(hand, "1:trump:C")
    assert "take" in legal(hand, 0)


def test_H12_a_dealer_dealt_no_card_leaves_the_choice_to_the_next_player_still_in() -> None:
    hand = deal(thulla(trump="dealer_choice"), ["AS 2C", "KS 3D", "QS 4H", ""], dealer=3)
    assert hand.out[3] and hand.to_move == 0 and tuple(hand.legal_actions(0)) == TRUMP_CHOICES


def test_H12_the_clock_and_the_bots_name_the_suit_held_most() -> None:
    rules = thulla(trump="dealer_choice")
    hand = deal(rules, ["AS 2C", "KS 3D", "QS 4H 5H 2D"], dealer=2)
    assert hand.default_action(2) == Action.choose_trump(2)
    view = hand.view(2)
    assert HeuristicBot(rules).choose(view, random.Random(1)) == Action.choose_trump(2)
    book = RuleBook.of(rules)
    tied = mask_of(parse_card(c) for c in ["2H", "3H", "KD", "QD"])
    assert longest_suit(book, tied) == 1  # of equal length, the stronger cards


def test_H12_the_client_heuristic_bot_names_its_longest_suit() -> None:
    view = pb.SeatView(seat=2, turn=2, hand=["QS", "4H", "5H", "2D"])
    view.legal_actions.extend(pb.Action(kind=pb.ACTION_KIND_CHOOSE_TRUMP, suit=s) for s in "CDHS")
    action = ClientHeuristicBot().choose(view, random.Random(1))
    assert action is not None and format_action(action) == "trump:H"


def test_H12_a_copy_waits_for_the_dealer_as_the_original_does() -> None:
    hand = deal(thulla(trump="dealer_choice"), ["AS 2C", "KS 3D", "QS 4H"], dealer=1)
    twin = hand.copy()
    run(twin, "1:trump:S")
    assert hand.to_move == 1 and twin.to_move == 0 and hand.trump == -1


# --- rules validate ------------------------------------------------------------------------------

REFUSED = [
    (
        "extends: pickup\ntrump: fixed\ntrump_suit: H\n",
        "trump",
        "H12",
    ),
    ("extends: bhabho\ntrump: fixed\n", "trump", "needs trump_suit"),
    ("extends: bhabho\ntrump_suit: C\n", "trump_suit", "leave trump_suit out"),
    ("extends: pickup\nfirst_trick: {void_plays: highest}\n", "first_trick.void_plays", "H5"),
    (
        "extends: discard\nnext_leader: {after_pickup: tochoo_player}\n",
        "next_leader.after_pickup",
        "H9",
    ),
    (
        "extends: pickup\nnext_leader: {after_pickup: tochoo_player}\n",
        "next_leader.after_pickup",
        "picks up instead",
    ),
    (
        "extends: get-away\nnext_leader: {if_out: next_highest}\n",
        "next_leader.if_out",
        "H10",
    ),
]


@pytest.mark.parametrize(("text", "path", "says"), REFUSED)
def test_rules_validate_refuses_a_trick_house_rule_that_cannot_act(
    text: str, path: str, says: str
) -> None:
    _, problems = resolve_text("id: house-test\n" + text, "house.yaml")
    errors = [p for p in problems if not p.warning]
    assert errors, text
    located = [p for p in errors if p.path == path]
    assert located, [(p.path, p.message) for p in errors]
    assert says in located[0].message
    assert located[0].line >= 2  # at the key the file wrote


ACCEPTED = [
    "extends: pickup\nfirst_trick: {void_plays: highest, off_suit: discard}\n",
    "extends: bhabho\nfirst_trick: {void_plays: highest}\n",
    "extends: pickup\nfirst_lead: {leads: any_card}\n",
    "extends: bhabho\noff_suit: {play: tochoo_plays_on}\n",
    "extends: bhabho\nnext_leader: {after_pickup: tochoo_player}\n",
    "extends: pickup\nnext_leader: {if_out: next_highest}\n",
    "extends: discard\ntrump: fixed\ntrump_suit: S\n",
    "extends: bhabho\ntrump: dealer_choice\n",
]


@pytest.mark.parametrize("text", ACCEPTED)
def test_rules_validate_accepts_the_trick_house_rules_where_they_act(text: str) -> None:
    _, problems = resolve_text("id: house-test\n" + text, "house.yaml")
    assert [p.message for p in problems if not p.warning] == []


def test_the_clause_check_knows_H5_H6_H9_H10_H11_H12() -> None:
    base = dict(variant("bhabho").source)
    assert not any(followed(base)[h] for h in ("H5", "H6", "H9", "H10", "H11", "H12"))
    on = dict(
        variant(
            "bhabho",
            first_trick={"void_plays": "highest"},
            first_lead={"leads": "any_card"},
            off_suit={"play": "tochoo_plays_on", "tochoo_picked_up_by": "tochoo_player"},
            next_leader={"if_out": "next_highest"},
            trump="dealer_choice",
        ).source
    )
    assert all(followed(on)[h] for h in ("H5", "H6", "H9", "H10", "H11", "H12"))
    picker_leads = dict(variant("bhabho", next_leader={"after_pickup": "picker"}).source)
    assert followed(picker_leads)["H11"]
    assert not followed(dict(variant("pickup").source))["H11"]  # P2 itself, not a house rule


def test_a_ruleset_declaring_a_trick_house_rule_it_switches_off_is_flagged() -> None:
    text = "id: house-test\nextends: bhabho\nclauses: [C2, H6, H10]\n"
    _, problems = resolve_text(text, "house.yaml", clauses=True)
    off = [p for p in problems if "switch it off" in p.message]
    assert {p.message.split()[1] for p in off} == {"H6", "H10"}


# --- the fast playout, the simulator and the bots ---------------------------------------------

ON: list[tuple[str, dict[str, Any]]] = [
    ("bhabho", {"first_trick": {"void_plays": "highest"}}),
    ("pickup", {"first_lead": {"leads": "any_card"}}),
    ("bhabho", {"off_suit": {"play": "tochoo_plays_on"}}),
    ("bhabho", {"next_leader": {"after_pickup": "tochoo_player"}}),
    ("pickup", {"next_leader": {"if_out": "next_highest"}, "end": {"max_tricks": 60}}),
    ("bhabho", {"trump": "fixed", "trump_suit": "H"}),
    ("bhabho", {"trump": "dealer_choice"}),
]


def _house_yaml(base: str, overrides: dict[str, Any], name: str) -> str:
    """A house variant of ``base`` as a file writes it, with the clauses its options follow
    (the referee refuses an upload whose clause list is false)."""
    rules = variant(base, **overrides)
    states = followed(dict(rules.source))
    clauses = sorted((c for c, on in states.items() if on), key=catalogue_order)
    return yaml.safe_dump({"id": name, "extends": base, "clauses": clauses, **overrides})


def _ruleset_file(tmp_path: Path, base: str, overrides: dict[str, Any], name: str) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(_house_yaml(base, overrides, name), "utf-8")
    return path


@pytest.mark.parametrize(("base", "overrides"), ON)
def test_each_option_leaves_the_fast_playout_and_hands_play_to_the_end(
    base: str, overrides: dict[str, Any]
) -> None:
    rules = variant(base, **overrides)
    assert not RuleBook.of(rules).fast_playout
    assert RuleBook.of(variant(base)).fast_playout
    simulation = simulate(rules, 4, 6, 3, ("random",) * 4)
    assert not simulation.fast and len(simulation.hands) == 6
    for seed in range(4):
        bots: list[Bot] = [HeuristicBot(rules), RandomBot(), HeuristicBot(rules), RandomBot()]
        hand = Hand(rules, 4, seed=seed, dealer=seed % 4)
        play_hand(hand, bots, random.Random(seed))
        assert hand.is_over and hand.trick_number <= rules.end.max_tricks


@pytest.mark.parametrize(("base", "overrides"), ON[:3])
def test_bhabhi_simulate_plays_a_ruleset_file_with_each_option(
    tmp_path: Path, base: str, overrides: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    from referee.cli import main

    path = _ruleset_file(tmp_path, base, overrides, "house-trick")
    assert main(["simulate", "--rules", str(path), "--players", "4", "--games", "5"]) == 0
    assert "5 hands in" in capsys.readouterr().out


# --- through the referee -----------------------------------------------------------------------


async def _play_through_the_referee(yaml_text: str, seats: int, seed: int) -> pb.HandResult:
    async with referee(allow_register=True) as ref:
        registered = await ref.rulesets.RegisterRuleset(pb.RegisterRulesetRequest(yaml=yaml_text))
        seated = await seat_table(ref, registered.ruleset.id, seats, hands=1)
        rng = random.Random(seed)
        for _ in range(4000):
            spectator = (await seated.spectate()).view
            if not spectator.to_act:
                return spectator.result
            player = seated.players[spectator.turn]
            view = await player.view()
            actions = [format_action(a) for a in view.view.legal_actions]
            actions = [a for a in actions if a != "take"] or actions
            await player.submit(parse_action(rng.choice(actions)), view.seq)
        raise AssertionError("the hand did not end")


@pytest.mark.parametrize(("base", "overrides"), ON)
@run_async
async def test_a_game_through_the_referee_plays_each_option_to_the_end(
    base: str, overrides: dict[str, Any]
) -> None:
    text = _house_yaml(base, overrides, "house-trick-referee")
    result = await _play_through_the_referee(text, 4, seed=len(text))
    assert result.termination != pb.TERMINATION_UNSPECIFIED


def test_the_referee_reports_the_dealers_trump_to_every_seat() -> None:
    async def scenario() -> list[str]:
        text = _house_yaml("bhabho", {"trump": "dealer_choice"}, "house-trump")
        async with referee(allow_register=True, test_mode=True) as ref:
            registered = await ref.rulesets.RegisterRuleset(pb.RegisterRulesetRequest(yaml=text))
            seated = await seat_table(
                ref,
                registered.ruleset.id,
                3,
                deal=["AS 2C", "KS 3D", "QS 4H"],
                dealer=2,
            )
            dealer = seated.players[2]
            view = await dealer.view()
            assert [format_action(a) for a in view.view.legal_actions] == [
                "trump:C",
                "trump:D",
                "trump:H",
                "trump:S",
            ]
            response = await dealer.submit(parse_action("trump:H"), view.seq)
            fixed = [e.trump_fixed for e in response.events if e.HasField("trump_fixed")]
            assert [(f.seat, f.suit, f.trick) for f in fixed] == [(2, "H", 0)]
            views = [(await p.view()).view for p in seated.players]
            return [v.trump for v in views]

    assert asyncio.run(asyncio.wait_for(scenario(), 60)) == ["H", "H", "H"]


def test_trump_choices_are_the_decision_kind_choose_trump() -> None:
    assert all(a.kind is ActionKind.CHOOSE_TRUMP for a in TRUMP_CHOICES)
    assert [str(a) for a in TRUMP_CHOICES] == ["trump:C", "trump:D", "trump:H", "trump:S"]
