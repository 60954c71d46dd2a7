"""House rules of getting out with the power (H13-H16) and of two players left (H17-H19),
beyond what the conformance cases of conformance/cases/house-rules/power show: the chance of
a draw from a hand, the explicit draws that replay it, the decision of a chosen draw (the
clock, refusals, the one-target case), what other seats see, the refusals of combinations
that mean nothing or contradict X2, the clause check, the bots, the simulator and the
referee."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import cards, deal, variant

from referee.cards import card_str, cards_in
from referee.engine.components import RuleBook
from referee.engine.deadpos import dead_position_check
from referee.engine.hand import Hand
from referee.engine.shuffle import DRAW_LABEL, Stream
from referee.engine.types import (
    PICK_UP,
    TAKE_HAND,
    Action,
    CardDrawn,
    EngineError,
    IllegalActionError,
    Reason,
    Termination,
    WasteDrawn,
)
from referee.ruleset.loader import resolve_text
from referee.ruleset.model import Ruleset
from referee.ruleset.problems import Code
from referee.sim.bots import HeuristicBot, RandomBot
from referee.sim.play import play_hand
from referee.sim.simulate import simulate

NO_TAKES = {"take_hand": {"when": "never"}}
H14 = variant("bhabho", next_leader={"if_out": "draws_from_player"}, **NO_TAKES)
H14_CHOSEN = variant(
    "bhabho", next_leader={"if_out": "draws_from_player", "draw_from": "chosen"}, **NO_TAKES
)
H16 = variant("bhabho", next_leader={"draw": "top"}, **NO_TAKES)

# Trick 0 is AS 2S 3S (B1, B2); in trick 1 seat 0's last card KD wins a clean trick.
POWER_DEAL = ["AS KD", "2S QD 5C 7C", "3S 4D 2C 8H"]
FIRST_TRICKS = [(0, "AS"), (1, "2S"), (2, "3S"), (0, "KD"), (1, "QD"), (2, "4D")]


def played(hand: Hand, moves: list[tuple[int, str]]) -> Hand:
    for seat, text in moves:
        hand.apply(seat, Action.parse(text))
    return hand


def _deal_seed(hands: list[str]) -> bytes:
    """The draw stream's seed of an explicit deal (docs/shuffle.md)."""
    dealt = [cards(h) for h in hands]
    return ("deal:" + "|".join(",".join(card_str(c) for c in h) for h in dealt)).encode()


# --- H14: the draw from a hand ------------------------------------------------------------


def test_the_draw_from_a_hand_is_uniform_over_its_cards_from_the_draw_stream() -> None:
    hand = played(deal(H14, POWER_DEAL, dealer=2), FIRST_TRICKS)
    [drawn] = [e for e in hand.events or [] if isinstance(e, CardDrawn)]
    held = cards("5C 7C")  # seat 1's hand in ascending card-id order
    expected = held[Stream(_deal_seed(POWER_DEAL), DRAW_LABEL).uniform(len(held))]
    assert (drawn.seat, drawn.from_seat, drawn.card) == (0, 1, expected)
    assert hand.draws_made == [expected] and hand.forced_lead == expected
    assert hand.hands[0] == 1 << expected
    # the recorded draw replays the game exactly
    replay = played(deal(H14, POWER_DEAL, dealer=2, draws=card_str(expected)), FIRST_TRICKS)
    assert [e.to_dict() for e in replay.events or []] == [e.to_dict() for e in hand.events or []]


def test_an_explicit_draw_the_hand_does_not_hold_is_an_error_and_changes_nothing() -> None:
    hand = played(deal(H14, POWER_DEAL, dealer=2, draws="8H"), FIRST_TRICKS[:-1])
    before = (list(hand.hands), len(hand.events or []), list(hand.history))
    with pytest.raises(EngineError, match="draw 1 is given as 8H, which seat 1 does not hold"):
        hand.apply(2, Action.parse("4D"))
    assert (list(hand.hands), len(hand.events or []), list(hand.history)) == before


def test_other_seats_see_who_drew_from_whom_but_not_the_card() -> None:
    event = CardDrawn(0, 1, cards("7C")[0])
    assert event.visible_to(0) == event and event.visible_to(1) == event
    for seat in (2, 3, None):
        seen = event.visible_to(seat)
        assert seen == CardDrawn(0, 1, None)
        assert seen.to_dict() == {"kind": "card_drawn", "seat": 0, "from_seat": 1, "card": None}


def test_a_draw_forgets_the_face_up_cards_of_the_hand_drawn_from() -> None:
    """Any of them may be the card drawn: a view must not tell which by dropping one."""
    hand = deal(H14, POWER_DEAL, dealer=2)
    hand.known[1] = hand.hands[1]  # as if seat 1 had picked its cards up face up
    played(hand, FIRST_TRICKS)
    assert hand.known[1] == 0
    assert all(view.known_cards == ((), (), ()) for view in map(hand.view, (None, 0, 1, 2)))


def test_chosen_draw_waits_for_the_drawer_alone() -> None:
    hand = played(deal(H14_CHOSEN, POWER_DEAL, dealer=2), FIRST_TRICKS)
    choices = (Action.draw_from(1), Action.draw_from(2))
    assert hand.choosing_draw and hand.to_move == 0 and hand.seats_to_act() == (0,)
    assert tuple(hand.legal_actions(0)) == choices
    assert hand.view(0).legal_actions == choices and hand.view(1).legal_actions == ()
    assert hand.default_action(0) == Action.draw_from(1)  # the clock: the next player in
    for seat, action, reason in [
        (0, Action.draw_from(0), Reason.ACTION_NOT_ALLOWED),
        (1, Action.draw_from(2), Reason.ACTION_NOT_ALLOWED),
        (1, Action.parse("5C"), Reason.NOT_YOUR_TURN),
        (0, PICK_UP, Reason.PICKUP_NOT_ALLOWED),
        (0, TAKE_HAND, Reason.TAKE_HAND_NOT_ALLOWED),
    ]:
        with pytest.raises(IllegalActionError) as refused:
            hand.apply(seat, action)
        assert refused.value.reason is reason, (seat, action)
    events = hand.apply(0, Action.draw_from(2))
    assert events == [CardDrawn(0, 2, hand.forced_lead)]
    assert not hand.choosing_draw and hand.hands[0] and hand.to_move == 0


def test_chosen_draw_is_made_at_once_when_only_one_player_could_be_chosen() -> None:
    hand = played(
        deal(H14_CHOSEN, ["AS KD", "2S QD 5C", "3S 4D"], dealer=2, draws="5C"), FIRST_TRICKS
    )
    assert not hand.choosing_draw  # seat 2 went out with 4D: seat 1 is the only choice
    assert hand.hands[0] == 1 << cards("5C")[0] and hand.out[1] and hand.is_over
    assert hand.outcome is not None
    assert (hand.outcome.termination, hand.outcome.bhabhi) == (Termination.LAST_PLAYER, 0)


def test_the_heuristic_bot_draws_from_the_longest_hand() -> None:
    four = ["AS KD", "2S QD 5C", "3S 4D 2C 8H 9H", "4S 3D 6C"]
    hand = played(
        deal(
            variant(
                "bhabho",
                next_leader={"if_out": "draws_from_player", "draw_from": "chosen"},
                **NO_TAKES,
            ),
            four,
            dealer=3,
        ),
        [(0, "AS"), (1, "2S"), (2, "3S"), (3, "4S"), (0, "KD"), (1, "QD"), (2, "4D"), (3, "3D")],
    )
    assert hand.choosing_draw
    chosen = HeuristicBot(hand.rules).choose(hand.view(0), random.Random(0))
    assert chosen == Action.draw_from(2)  # three cards against one and two


# --- H16: the top of the waste pile -------------------------------------------------------


def test_an_explicit_draw_that_is_not_the_top_card_is_an_error() -> None:
    hand = played(deal(H16, POWER_DEAL, dealer=2, draws="AS"), FIRST_TRICKS[:-1])
    with pytest.raises(EngineError, match=r"takes the top card of the waste pile \(H16\), 3S"):
        hand.apply(2, Action.parse("4D"))
    assert hand.draws_made == [] and hand.hands[2] >> cards("4D")[0] & 1  # unchanged
    events = played(deal(H16, POWER_DEAL, dealer=2, draws="3S"), FIRST_TRICKS).events or []
    assert [e.card for e in events if isinstance(e, WasteDrawn)] == cards("3S")


def test_the_top_card_skips_cards_that_left_the_pile() -> None:
    """A V4 pickup empties the pile; the cards wasted after it are on top again."""
    rules = variant(
        "bhabho",
        next_leader={"draw": "top"},
        off_suit={"pickup_takes": "trick_and_waste"},
        **NO_TAKES,
    )
    hand = deal(rules, ["AS KD 9C", "2S QD 5H", "3S 4D 6C 7C"], dealer=2)
    played(hand, [(0, "AS"), (1, "2S"), (2, "3S"), (0, "9C"), (1, "5H")])  # tochoo: V4
    assert hand.waste == 0 and hand.hands[0] >> cards("AS")[0] & 1
    played(hand, [(0, "AS")])
    assert hand.to_move == 1


# --- H17-H19: two players left ------------------------------------------------------------


def test_a_penalised_card_is_no_shootout() -> None:
    """C12's penalty pickup is not 'cannot follow': the hand goes on."""
    rules = variant(
        "bhabho", end={"shootout": "after_waste_draw"}, illegal_play="pickup_penalty", **NO_TAKES
    )
    hand = deal(rules, ["AS KD", "2S QD 8C 5S", "3S 4D"], dealer=2, draws="2S")
    played(hand, [*FIRST_TRICKS, (0, "2S"), (1, "8C")])  # seat 1 holds 5S: penalised
    assert not hand.is_over and hand.hands[1] >> cards("2S")[0] & 1  # seat 1 picked up


def test_the_tochoo_wins_only_with_two_left() -> None:
    rules = variant("bhabho", end={"two_left_tochoo_wins": True}, **NO_TAKES)
    hand = deal(rules, ["AS 7H", "2S 8C 9C", "3S 4H 5C"], dealer=2)
    played(hand, [(0, "AS"), (1, "2S"), (2, "3S"), (0, "7H"), (1, "8C")])
    assert not hand.is_over  # three players: a tochoo as ever (B4, B6)
    assert hand.hands[0] == sum(1 << c for c in cards("7H 8C"))


def test_the_power_escapes_only_with_two_left() -> None:
    rules = variant("bhabho", end={"two_left_power_escapes": True}, **NO_TAKES)
    hand = played(deal(rules, POWER_DEAL, dealer=2, draws="2S"), FIRST_TRICKS)
    assert not hand.out[0] and hand.hands[0] == 1 << cards("2S")[0]  # three left: B8


def test_the_power_rules_leave_the_fast_playout_and_the_dead_position_detector() -> None:
    assert RuleBook.of(variant("bhabho")).fast_playout
    for rules in (H14, H14_CHOSEN, H16):
        assert not RuleBook.of(rules).fast_playout
    # Under the pick-up rules a dead position lets nobody empty a hand, so nobody draws:
    # H14-H16 change nothing there and the detector stays.
    pickup = variant("pickup", next_leader={"if_out": "draws_from_player"})
    assert dead_position_check(RuleBook.of(pickup)) is not None


# --- refusals and clauses -----------------------------------------------------------------


def _problems(text: str) -> list[tuple[str, int, str]]:
    _, found = resolve_text(text, "house.yaml", clauses=True)
    return [(p.path, p.line, p.message) for p in found if not p.warning]


@pytest.mark.parametrize(
    ("text", "path", "line", "says"),
    [
        (
            "id: x\nextends: bhabho\nnext_leader: {draw_from: chosen}\n",
            "next_leader.draw_from",
            3,
            "the draw is from the waste pile",
        ),
        (
            "id: x\nextends: pickup\nnext_leader:\n  draw_pile: waste_and_trick\n",
            "next_leader.draw_pile",
            4,
            "nobody draws",
        ),
        (
            "id: x\nextends: bhabho\nnext_leader: {if_out: draws_from_player, draw: top}\n",
            "next_leader.draw",
            3,
            "the draw is from a player's hand",
        ),
        (
            "id: x\nextends: pickup\nend: {shootout: after_waste_draw}\n",
            "end.shootout",
            3,
            "nobody draws",
        ),
        (
            "id: x\nextends: discard\nnext_leader: {if_out: draws_from_waste}\n"
            "end: {shootout: any_last_card}\n",
            "end.shootout",
            4,
            "with off_suit.play: discard (D1)",
        ),
        (
            "id: x\nextends: pickup\nnext_leader: {if_out: draws_from_waste}\n"
            "end: {shootout: after_waste_draw, two_left_pickup_loses: true}\n",
            "end.shootout",
            4,
            "the two contradict each other",
        ),
        (
            "id: x\nextends: pickup\nend: {two_left_tochoo_wins: true}\n",
            "end.two_left_tochoo_wins",
            3,
            "nobody plays a tochoo",
        ),
        (
            "id: x\nextends: bhabho\noff_suit: {tochoo_picked_up_by: tochoo_player}\n"
            "end: {two_left_tochoo_wins: true, two_left_pickup_loses: true}\n",
            "end.two_left_tochoo_wins",
            4,
            "the two contradict each other",
        ),
        (
            "id: x\nextends: pickup\nend: {two_left_power_escapes: true}\n",
            "end.two_left_power_escapes",
            3,
            "such a card always gets away",
        ),
    ],
)
def test_combinations_that_mean_nothing_or_contradict_are_refused_where_written(
    text: str, path: str, line: int, says: str
) -> None:
    found = [p for p in _problems(text) if p[0] == path]
    assert found, _problems(text)
    assert found[0][1] == line and says in found[0][2], found


def test_combinations_that_agree_are_accepted() -> None:
    for text in (
        "next_leader: {if_out: draws_from_player, draw_from: chosen}\n",
        "next_leader: {draw: top, draw_pile: waste_and_trick}\n",
        "end: {shootout: any_last_card, two_left_pickup_loses: true}\n",  # B6: they agree
        "end: {two_left_tochoo_wins: true, two_left_pickup_loses: true}\n",
        "next_leader: {draw_from: next_active, draw: random}\n",  # the defaults, written
    ):
        _, found = resolve_text(f"id: x\nextends: bhabho\n{text}", "house.yaml")
        assert [str(p) for p in found if not p.warning] == [], text


def test_a_declared_house_rule_the_options_switch_off_is_flagged() -> None:
    _, found = resolve_text("id: x\nextends: bhabho\nclauses: [H14]\n", "h.yaml", clauses=True)
    off = [p for p in found if p.code is Code.CLAUSE_SWITCHED_OFF]
    assert off and "clause H14 is declared" in off[0].message
    # H13 restates P3: a ruleset that plays it is asked for P3, not for both
    _, found = resolve_text(
        "id: x\nextends: bhabho\nnext_leader: {if_out: next_in_turn}\n", "h.yaml", clauses=True
    )
    asked = [p.message for p in found if p.code is Code.CLAUSE_NOT_DECLARED]
    assert any("clause P3 is not declared" in m for m in asked)
    assert not any("clause H13" in m for m in asked)


# --- the simulator, the CLI and the referee ------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"next_leader": {"if_out": "draws_from_player", "draw_from": "chosen"}},
        {"next_leader": {"draw_pile": "waste_and_trick", "draw": "top"}},
        {"end": {"shootout": "any_last_card", "two_left_power_escapes": True}},
        {"end": {"two_left_tochoo_wins": True}},
    ],
)
def test_the_simulator_plays_the_power_rules_through_hand(options: dict[str, object]) -> None:
    rules: Ruleset = variant("bhabho", **options)
    for bots in (("random",) * 4, ("heuristic", "random", "random", "random")):
        sim = simulate(rules, 4, 30, seed=1, bots=bots)
        assert not sim.fast and len(sim.hands) == 30


def test_play_hand_with_bots_asks_the_drawer_to_choose() -> None:
    drawn = 0
    for seed in range(40):
        hand = Hand(H14_CHOSEN, 4, seed=seed)
        play_hand(
            hand,
            [HeuristicBot(H14_CHOSEN), RandomBot(), RandomBot(), RandomBot()],
            random.Random(seed),
        )
        assert hand.is_over
        drawn += sum(isinstance(e, CardDrawn) for e in hand.events or [])
    assert drawn


RULES_FILE = """\
id: house-power-cli
extends: bhabho
clauses: [C1, C2, C3, C4, C5, C6, C7, C9, C10, C11, C12, C13, C14, C15, C16, B1, B2, B3, B4, B5,
  B6, B7, B9, H14, H17, H19]
next_leader: {if_out: draws_from_player, draw_from: chosen}
end: {shootout: after_waste_draw, two_left_power_escapes: true}
"""


def test_rules_validate_and_simulate_accept_a_file_of_the_power_rules(tmp_path: Path) -> None:
    path = tmp_path / "house-power-cli.yaml"
    path.write_text(RULES_FILE, encoding="utf-8")
    bhabhi = [sys.executable, "-m", "referee"]
    checked = subprocess.run(
        [*bhabhi, "rules", "validate", str(path)], capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0 and "ok (id house-power-cli" in checked.stdout, checked
    assert "warning" not in checked.stdout + checked.stderr
    ran = subprocess.run(
        [*bhabhi, "simulate", "--rules", str(path), "--players", "4", "--games", "20"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert "20" in ran.stdout


def test_cards_in_order_of_the_top_draw_is_documented_by_the_case() -> None:
    """The waste pile's order: a trick's cards in play order, the last on top."""
    hand = deal(H16, POWER_DEAL, dealer=2)
    played(hand, [(0, "AS"), (1, "2S"), (2, "3S")])
    assert [card_str(c) for c in hand._waste_order] == ["AS", "2S", "3S"]
    assert list(cards_in(hand.waste)) == cards("2S 3S AS")
