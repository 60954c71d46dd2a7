"""House rules of deal, seating and scoring: H1 (equal hands), H2 (the loser or the last picker
deals), H3 (two, and more than eight, players), H4 (deal in seat order), H28 (chips by card
points).

The expectations are read off the rule texts of rules/catalogue.yaml (and the readings
docs/engine.md states), not off the engine; deals from a seed are compared with the published
shuffle (docs/shuffle.md) of the deck the rule leaves, which these rules must not change.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import cards, deal, load_rules, run, variant

from referee.cards import card_str, mask_of
from referee.conformance.runner import EngineAdapter, load_case, run_case
from referee.engine.components import RuleBook, dealt_deck, removed_cards
from referee.engine.hand import Hand
from referee.engine.playout import random_playout
from referee.engine.record import export_hand
from referee.engine.session import Session, card_points, rotation_dealer
from referee.engine.shuffle import deal as shuffle_deal
from referee.engine.types import EngineError
from referee.ruleset.model import DealerMoves
from referee.sim.runner import dealer_of
from referee.sim.simulate import simulate

CASES = Path(__file__).resolve().parents[1] / "conformance" / "cases" / "house-rules" / "deal"
H1 = {"remainder": "remove_lowest"}
H4 = {"order": "seat_order"}


def texts(cs: tuple[int, ...] | list[int]) -> str:
    return " ".join(card_str(c) for c in cs)


def play_randomly(hand: Hand, seed: int) -> None:
    """Random legal play to the end (takes included), every card accounted for at each step."""
    rng = random.Random(seed)
    total = len(hand.book.deck)
    while not hand.is_over:
        seat = rng.choice(hand.seats_to_act())
        hand.apply(seat, rng.choice(list(hand.legal_actions(seat))))
        assert hand.card_total() == total


# --- H1: equal hands ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("base", "players", "removed"),
    [
        ("bhabho", 5, "2C 2D"),  # 52 = 5 x 10 + 2: the two lowest, clubs before diamonds
        ("bhabho", 3, "2C"),
        ("bhabho", 8, "2C 2D 2H 2S"),
        ("bhabho", 7, "2C 2D 2H"),
        ("bhabho", 4, ""),  # 52 = 4 x 13: nothing over
        ("ace-low", 6, "AC AD AH AS"),  # aces low (V3): the aces are the lowest cards
        ("ace-low", 10, "AC AD"),
        ("two-packs", 10, "2C 2D 2C/2 2D/2"),  # 104 = 10 x 10 + 4: suit before pack
        ("two-packs", 7, "2C 2D 2H 2C/2 2D/2 2H/2"),  # 104 = 7 x 14 + 6 (in id order)
    ],
)
def test_h1_takes_out_the_lowest_cards_that_would_not_go_round(
    base: str, players: int, removed: str
) -> None:
    rules = variant(base, deal=H1, players={"max": 16 if base == "two-packs" else 10})
    book = RuleBook.of(rules)
    assert texts(removed_cards(book, players)) == removed
    assert len(dealt_deck(book, players)) % players == 0


def test_h1_with_a_short_pack_takes_the_lowest_rank_it_has() -> None:
    rules = variant("bhabho", deck={"ranks": ["7", "8", "9", "10", "J", "Q", "K", "A"]}, deal=H1)
    assert texts(removed_cards(RuleBook.of(rules), 3)) == "7C 7D"  # 32 = 3 x 10 + 2


def test_h1_deals_equal_hands_from_the_published_shuffle_of_the_smaller_deck() -> None:
    rules = variant("bhabho", deal=H1)
    book = RuleBook.of(rules)
    for players in range(3, 9):
        for seed in range(5):
            hand = Hand(rules, players, seed=seed, dealer=seed % players)
            assert len(set(hand.hand_sizes())) == 1, (players, seed)
            expected = shuffle_deal(
                dealt_deck(book, players), seed, players, seed % players, book.step
            )
            assert [list(h) for h in hand.deal] == expected
            removed = mask_of(removed_cards(book, players))
            assert hand.out_of_play == mask_of(hand.removed) == removed
            assert hand.card_total() == 52


def test_h1_off_deals_out_the_whole_pack_as_before() -> None:
    rules = load_rules("bhabho")
    hand = Hand(rules, 5, seed=3)
    assert sorted(hand.hand_sizes()) == [10, 10, 10, 11, 11]
    assert hand.removed == () and hand.out_of_play == 0
    assert [list(h) for h in hand.deal] == shuffle_deal(rules.deck.cards(), 3, 5, 0, 1)


def test_h1_the_lead_card_taken_out_leaves_the_lead_to_first_lead_if_absent() -> None:
    """Aces low, six players: the four aces leave play, the Ace of spades (the lead card of
    ace-low-ace-leads) with them; C6's highest_of_suit gives the lead to the King of spades,
    player_after_dealer to the player after the dealer in play direction (counterclockwise)."""
    highest = variant("ace-low-ace-leads", deal=H1)
    after = variant("ace-low-ace-leads", deal=H1, first_lead={"if_absent": "player_after_dealer"})
    for seed in range(6):
        hand = Hand(highest, 6, seed=seed, dealer=2)
        holder = next(s for s in range(6) if hand.hands[s] >> cards("KS")[0] & 1)
        assert (hand.leader, hand.forced_lead) == (holder, cards("KS")[0])
        other = Hand(after, 6, seed=seed, dealer=2)
        assert (other.leader, other.forced_lead) == (1, -1)


def test_h1_an_explicit_deal_may_not_hold_a_card_taken_out_of_play() -> None:
    rules = variant("pickup", deal=H1)
    with pytest.raises(EngineError, match=r"2C is dealt, .* takes 2C out of play"):
        deal(rules, ["AS 2C", "KS", "QS"])
    hand = deal(rules, ["AS 3C", "KS", "QS"])  # 2C simply not dealt: fine
    assert texts(hand.removed) == "2C"


def test_h1_removed_cards_are_public_and_no_view_lists_them() -> None:
    """The cards taken out are known to all (they follow from the ruleset and the number of
    players); a view shows its own hand, hand sizes and the table, nothing of them."""
    rules = variant("bhabho", deal=H1)
    hand = Hand(rules, 5, seed=11)
    gone = set(hand.removed)
    for seat in [None, *range(5)]:
        view = hand.view(seat)
        assert not gone & set(view.hand)
        assert not gone & {c for known in view.known_cards for c in known}


def test_h1_and_h4_rule_out_the_fast_playout_which_refuses_them() -> None:
    for deal_rules in (H1, {**H4}):
        rules = variant("pickup", deal=deal_rules)  # pickup plays counterclockwise
        assert not RuleBook.of(rules).fast_playout
        with pytest.raises(EngineError, match="fast playout"):
            random_playout(rules, 4, b"seed", 0)
    # Seat order is the order of play when play goes clockwise: nothing changes then.
    assert RuleBook.of(variant("bhabho", deal=H4)).fast_playout
    for session_rules in (
        variant("pickup", deal={"dealer_moves": "bhabhi_deals"}),
        variant("pickup", session={"chips_by": "card_points"}),
    ):
        assert RuleBook.of(session_rules).fast_playout  # a hand plays as before


# --- H4: deal in seat order ---------------------------------------------------------------


def test_h4_deals_clockwise_from_the_seat_after_the_dealer_whatever_the_play() -> None:
    """pickup plays counterclockwise: with_play deals seat dealer-1 first, seat_order seat
    dealer+1 first; the same shuffled deck either way."""
    seat_order = variant("pickup", deal=H4)
    with_play = load_rules("pickup")
    deck = with_play.deck.cards()
    for seed in range(4):
        for dealer in range(3):
            dealt = Hand(seat_order, 3, seed=seed, dealer=dealer).deal
            assert [list(h) for h in dealt] == shuffle_deal(deck, seed, 3, dealer, 1)
            played = Hand(with_play, 3, seed=seed, dealer=dealer).deal
            assert [list(h) for h in played] == shuffle_deal(deck, seed, 3, dealer, -1)
    assert RuleBook.of(seat_order).step == -1  # play still goes counterclockwise


def test_h4_changes_only_the_deal_play_keeps_its_direction() -> None:
    rules = variant("pickup", deal=H4)
    hand = deal(rules, ["KS", "AS", "QS 3S"])
    run(hand, "1:AS 0:KS 2:QS")  # counterclockwise from the leader: 1, 0, 2
    assert hand.outcome is not None and hand.outcome.bhabhi == 2


def test_h1_h4_fair_deal_names_the_deck_shuffled_and_the_way_it_was_dealt() -> None:
    rules = variant("pickup", deal={**H1, **H4})
    hand = Hand(rules, 5, seed="fair", dealer=1)
    fair = export_hand(hand, name="h1-h4")["fair_deal"]
    assert fair["direction"] == "clockwise"
    assert len(fair["deck"]) == 50 and "2C" not in fair["deck"] and "2D" not in fair["deck"]


# --- H2: the loser or the last picker deals -----------------------------------------------


def test_h2_the_bhabhi_deals_the_next_hand() -> None:
    rules = variant("pickup", deal={"dealer_moves": "bhabhi_deals"})
    session = Session(rules, 3, seed="s")
    first = session.next_hand(deal=[cards("QS"), cards("KS 3S"), cards("AS")])
    run(first, "2:AS 1:KS 0:QS")
    assert first.outcome is not None and first.outcome.bhabhi == 1
    assert session.dealer_of(1) == 1
    assert session.next_hand(deal=[cards("AS"), cards("QS"), cards("KS")]).dealer == 1


def test_h2_a_hand_without_a_bhabhi_passes_the_deal_on_with_play() -> None:
    rules = variant("pickup", deal={"dealer_moves": "bhabhi_deals"})  # counterclockwise play
    session = Session(rules, 3, seed="s", first_dealer=1)
    hand = session.next_hand(deal=[cards("AS"), cards("QS"), cards("KS")])
    run(hand, "0:AS 2:KS 1:QS")
    assert hand.outcome is not None and hand.outcome.bhabhi is None
    assert session.dealer_of(1) == 0


def test_h2_the_last_picker_deals_and_without_a_pickup_the_deal_moves_with_play() -> None:
    rules = variant("pickup", deal={"dealer_moves": "last_picker_deals"})
    session = Session(rules, 3, seed="s")
    hand = session.next_hand(deal=[cards("5H"), cards("AS 3S"), cards("2S 6H 7H")])
    run(hand, "1:AS 0:pickup 0:AS 2:2S 1:3S 0:5H 2:6H")
    assert hand.last_picker == 0
    assert hand.outcome is not None and hand.outcome.bhabhi == 2
    second = session.next_hand(deal=[cards("KS"), cards("AS"), cards("QS 3S")])
    assert second.dealer == 0 and second.last_picker == -1
    run(second, "1:AS 0:KS 2:QS")
    assert session.dealer_of(2) == 2  # nobody picked up: from seat 0, counterclockwise


def test_h2_the_last_picker_counts_a_tochoo_and_a_penalty_pickup_too() -> None:
    tochoo_rules = variant(
        "bhabho", first_trick={"off_suit": "as_other_tricks", "next_leader": "as_other_tricks"}
    )
    tochoo = deal(tochoo_rules, ["AS 2H", "KS", "5D 6D"])
    assert tochoo.last_picker == -1
    run(tochoo, "0:AS 1:KS 2:5D")  # a tochoo: the highest spade, seat 0, picks up (B6)
    assert tochoo.last_picker == 0
    penalty = variant("pickup", illegal_play="pickup_penalty")
    hand = deal(penalty, ["KS 2H", "AS", "QS 3S"])
    run(hand, "1:AS 0:2H")  # 2H does not follow while KS could: seat 0 picks up (C12)
    assert hand.last_picker == 0


def test_h2_a_later_hands_dealer_is_not_known_before_the_hand_before_it_ends() -> None:
    rules = variant("pickup", deal={"dealer_moves": "bhabhi_deals"})
    session = Session(rules, 3, seed="s", first_dealer=2)
    assert session.dealer_of(0) == 2
    with pytest.raises(EngineError, match="not known yet"):
        session.dealer_of(1)
    session.next_hand()
    with pytest.raises(EngineError, match="not known yet"):
        session.dealer_of(2)


def test_h2_a_seeded_session_deals_each_hand_from_the_previous_outcome() -> None:
    for moves in ("bhabhi_deals", "last_picker_deals"):
        rules = variant("bhabho", deal={"dealer_moves": moves}, session={"hands": 6, "chips": 1})
        session = Session(rules, 4, seed=f"h2-{moves}")
        previous: Hand | None = None
        while not session.is_over:
            hand = session.next_hand()
            if previous is not None:
                assert previous.outcome is not None
                named = (
                    previous.outcome.bhabhi
                    if moves == "bhabhi_deals"
                    else (previous.last_picker if previous.last_picker >= 0 else None)
                )
                assert hand.dealer == (named if named is not None else (previous.dealer + 1) % 4)
            play_randomly(hand, len(session.outcomes))
            previous = hand
        assert session.finish().hands_played == 6


def test_h2_simulated_hands_are_independent_and_take_the_rotation_with_play() -> None:
    for moves in ("bhabhi_deals", "last_picker_deals"):
        rules = variant("pickup", deal={"dealer_moves": moves})  # counterclockwise play
        assert rules.deal.dealer_moves.follows_outcome
        assert [dealer_of(rules, 4, i) for i in range(5)] == [0, 3, 2, 1, 0]
        assert dealer_of(rules, 4, 3) == rotation_dealer(rules, 4, 3, 0)
        sim = simulate(rules, 4, 20, "h2", ["random"] * 4)
        assert [h.dealer for h in sim.hands[:5]] == [0, 3, 2, 1, 0]
    assert not DealerMoves.WITH_PLAY.follows_outcome


def test_the_simulator_and_the_session_rotate_the_deal_alike() -> None:
    for rule_id in ("pickup", "bhabho", "team", "two-packs"):
        rules = load_rules(rule_id)
        session = Session(rules, 6, seed="x")
        assert [session.dealer_of(i) for i in range(8)] == [
            dealer_of(rules, 6, i) for i in range(8)
        ]


# --- H28: chips by card points --------------------------------------------------------------


def test_h28_card_points_count_face_value_courts_ten_and_the_ace_one() -> None:
    assert card_points(mask_of(cards("2C 9D 10H"))) == 21
    assert card_points(mask_of(cards("JS QS KS"))) == 30
    assert card_points(mask_of(cards("AH AS"))) == 2
    assert card_points(mask_of(cards("AS/2 KD/2"))) == 11  # a second pack counts the same
    assert card_points(0) == 0


def test_h28_the_bhabhi_pays_the_stake_times_the_points_left_in_hand() -> None:
    rules = variant("pickup", session={"hands": 2, "chips": 3, "chips_by": "card_points"})
    session = Session(rules, 3, seed="s")
    hand = session.next_hand(deal=[cards("KS"), cards("AS"), cards("QS 3S JD AH")])
    run(hand, "1:AS 0:KS 2:QS")
    standing = session.standings()
    assert standing.chips == (14 * 3 // 2, 14 * 3 // 2, -14 * 3)
    assert standing.pot_left == 0
    second = session.next_hand(deal=[cards("QS KH 2C"), cards("AS"), cards("KS")])
    run(second, "1:AS 0:QS 2:KS")
    result = session.finish()
    assert result.bhabhi_counts == (1, 0, 1)
    assert result.chips == (-36, 36 + 42, -42) and result.pot_left == 0


def test_h28_a_bhabhi_with_no_card_left_pays_nothing() -> None:
    """Under end.all_out_together: last_to_play the Bhabhi has just played their last card."""
    rules = variant(
        "pickup",
        end={"all_out_together": "last_to_play"},
        session={"hands": 1, "chips": 5, "chips_by": "card_points"},
    )
    session = Session(rules, 3, seed="s")
    hand = session.next_hand(deal=[cards("KS"), cards("AS"), cards("QS")])
    run(hand, "1:AS 0:KS 2:QS")
    assert hand.outcome is not None and hand.outcome.bhabhi == 2
    assert session.finish().chips == (0, 0, 0)


def test_h28_off_each_loss_pays_the_stake() -> None:
    rules = variant("pickup", session={"hands": 1, "chips": 3})
    session = Session(rules, 3, seed="s")
    run(session.next_hand(deal=[cards("KS"), cards("AS"), cards("QS 3S JD AH")]), "1:AS 0:KS 2:QS")
    assert session.finish().chips == (1, 1, -3)  # 3 shared by two winners: 1 each, 1 left
    assert session.finish().pot_left == 1


# --- H3: table sizes ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("base", "overrides", "players"),
    [
        ("pickup", {"players": {"min": 2}}, 2),
        ("bhabho", {"players": {"min": 2}}, 2),
        ("discard", {"players": {"min": 2}}, 2),
        ("bhabho", {"players": {"max": 10}}, 10),
        ("pickup", {"players": {"max": 10}}, 9),
        ("get-away", {"players": {"max": 10}}, 10),
        ("two-packs", {}, 12),
        ("bhabho", {"players": {"min": 2, "max": 10}, "deal": H1}, 10),
        ("pickup", {"players": {"min": 2}, "deal": {**H1, **H4}}, 2),
    ],
)
def test_h3_every_table_size_plays_to_the_end(
    base: str, overrides: dict[str, Any], players: int
) -> None:
    rules = variant(base, **overrides)
    for seed in range(4):
        hand = Hand(rules, players, seed=seed, dealer=seed % players)
        assert sum(hand.hand_sizes()) + hand.out_of_play.bit_count() == len(rules.deck.cards())
        play_randomly(hand, seed)
        assert hand.outcome is not None
        assert hand.trick_number <= rules.end.max_tricks


def test_h3_a_seeded_deal_to_two_players_is_two_halves_of_the_pack() -> None:
    rules = variant("pickup", players={"min": 2})
    hand = Hand(rules, 2, seed=7, dealer=0)
    assert hand.hand_sizes() == (26, 26)
    assert shuffle_deal(rules.deck.cards(), 7, 2, 0, -1) == [list(h) for h in hand.deal]


def _validate(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> tuple[int, str]:
    from referee.cli import main

    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    code = main(["rules", "validate", str(path)])
    out, err = capsys.readouterr()
    return code, out + err


HOUSE = """\
id: house
extends: {base}
clauses: {clauses}
{body}
"""

PICKUP_CLAUSES = (
    "[C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, C13, C14, C15, C16, P1, P2, P3"
)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "players: {min: 3, max: 11, teams: none}",
            "players.max is 11, but with 1 pack at most 10 may play",
        ),
        (
            "players: {min: 1, max: 8, teams: none}",
            "players.min",
        ),
    ],
)
def test_h3_validate_refuses_too_many_or_too_few_players_where_the_key_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, message: str
) -> None:
    code, out = _validate(
        tmp_path, capsys, HOUSE.format(base="pickup", clauses=PICKUP_CLAUSES + "]", body=body)
    )
    assert code == 1
    assert "house.yaml:4:" in out and message in out


def test_h3_validate_accepts_ten_players_with_one_pack_and_sixteen_with_two(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ten = "players: {min: 2, max: 10, teams: none}"
    clauses = "[C1, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, C13, C14, C15, C16, P1, P2, P3, H3]"
    code, out = _validate(tmp_path, capsys, HOUSE.format(base="pickup", clauses=clauses, body=ten))
    assert code == 0, out
    code, out = _validate(tmp_path, capsys, "id: house\nextends: two-packs\n")
    assert code == 0, out


def test_semantic_table_size_check_reads_the_packs() -> None:
    from referee.ruleset.semantic import MAX_PLAYERS

    assert MAX_PLAYERS == {1: 10, 2: 16}


# --- the clauses of the house rules ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("clause", "body"),
    [
        ("H1", ""),
        ("H2", ""),
        ("H3", ""),
        ("H4", ""),
        ("H28", ""),
        ("H1", "deal: {first_dealer: 0, dealer_moves: counterclockwise, remainder: deal_out}"),
    ],
)
def test_a_declared_house_rule_whose_option_is_off_is_flagged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], clause: str, body: str
) -> None:
    text = HOUSE.format(base="pickup", clauses=f"{PICKUP_CLAUSES}, {clause}]", body=body)
    code, out = _validate(tmp_path, capsys, text)
    assert code == 1
    assert f"clause {clause} is declared, but the options switch it off" in out


@pytest.mark.parametrize(
    ("clause", "body"),
    [
        ("H1", "deal: {first_dealer: 0, dealer_moves: counterclockwise, remainder: remove_lowest}"),
        ("H2", "deal: {first_dealer: 0, dealer_moves: bhabhi_deals}"),
        ("H2, H11", "deal: {first_dealer: 0, dealer_moves: last_picker_deals}"),  # H11 too
        ("H4", "deal: {first_dealer: 0, dealer_moves: counterclockwise, order: seat_order}"),
        ("H28", "session: {hands: 10, bhabhi_limit: null, chips: 1, chips_by: card_points}"),
    ],
)
def test_a_house_rule_on_is_valid_declared_and_a_warning_when_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], clause: str, body: str
) -> None:
    declared = HOUSE.format(base="pickup", clauses=f"{PICKUP_CLAUSES}, {clause}]", body=body)
    code, out = _validate(tmp_path, capsys, declared)
    assert code == 0, out
    assert "warning" not in out
    silent = HOUSE.format(base="pickup", clauses=f"{PICKUP_CLAUSES}]", body=body)
    code, out = _validate(tmp_path, capsys, silent)
    for each in clause.split(", "):
        assert f"clause {each} is not declared" in out


# --- the commands and the referee ---------------------------------------------------------------


ALL_ON = {
    "players": {"min": 2, "max": 10},
    "deal": {**H1, **H4, "dealer_moves": "bhabhi_deals"},
    "session": {"hands": 2, "chips": 1, "chips_by": "card_points"},
}


@pytest.mark.parametrize(
    "option",
    [
        {"deal": H1},
        {"deal": H4},
        {"deal": {"dealer_moves": "bhabhi_deals"}},
        {"deal": {"dealer_moves": "last_picker_deals"}},
        {"session": {"chips_by": "card_points"}},
        ALL_ON,
    ],
)
def test_simulate_runs_a_ruleset_file_with_each_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: dict[str, Any]
) -> None:
    from referee.cli import main

    path = tmp_path / "house.yaml"
    path.write_text(yaml.safe_dump({"id": "house", "extends": "pickup", **option}), "utf-8")
    code = main(["simulate", "--rules", str(path), "--players", "4", "--games", "12"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "12" in out


def test_the_house_cases_pass_and_each_rule_changed_back_fails_one() -> None:
    """Every case of conformance/cases/house-rules/deal passes; the session ones fail when
    their rule is replaced by the C5/C15 default (the case really checks the rule)."""
    files = sorted(CASES.glob("*.yaml"))
    assert len(files) >= 7
    for path in files:
        assert run_case(load_case(path), EngineAdapter(), str(path)).passed, path
    for name, key, value in (
        ("session-bhabhi-deals", "deal", {"dealer_moves": "counterclockwise"}),
        ("session-last-picker-deals", "deal", {"dealer_moves": "bhabhi_deals"}),
        ("session-chips-by-card-points", "session", {"chips_by": "bhabhi"}),
    ):
        case = load_case(CASES / f"{name}.yaml")
        inline = case["ruleset"]["inline"]
        inline[key] = {**inline[key], **value}
        assert not run_case(case, EngineAdapter(), name).passed, name


HOUSE_UPLOAD = """\
id: house-deal
extends: bhabho
title: {en: House deal, de: Hausgeben, pl: Rozdanie domowe}
description:
  en: Bhabho the other way round, equal hands dealt in seat order; the Bhabhi deals and pays.
  de: Bhabho andersherum, gleiche Blätter in Sitzfolge; die Bhabhi gibt und zahlt nach Punkten.
  pl: Bhabho w drugą stronę, równe ręce w kolejności miejsc; Bhabhi rozdaje i płaci punktami.
clauses: [C1, C3, C4, C5, C6, C7, C9, C10, C11, C12, C13, C14, C15, C16, B1, B2, B3, B4, B5, B6,
  B7, B8, B9, H1, H2, H3, H4, H28]
direction: counterclockwise
players: {min: 2, max: 10, teams: none}
deal: {first_dealer: 0, dealer_moves: bhabhi_deals, remainder: remove_lowest, order: seat_order}
session: {hands: 2, bhabhi_limit: null, chips: 1, chips_by: card_points}
"""


@pytest.mark.parametrize("seats", [2, 10])
def test_a_referee_plays_a_session_under_every_new_option(seats: int) -> None:
    """Registered and played over gRPC: equal hands (H1), dealt in seat order (H4, so each
    export's fair deal is clockwise and checks), the second hand dealt by the first's Bhabhi
    (H2), and the session's chips by card points (H28) in SessionOver."""
    import asyncio

    from bhabhi.referee.v1 import referee_pb2 as pb
    from bhabhi_client import verify_deal
    from server_helpers import Inbox, collect_stream, random_step, referee, run_async, seat_table

    @run_async
    async def play() -> None:
        async with referee(allow_register=True) as ref:
            await ref.rulesets.RegisterRuleset(pb.RegisterRulesetRequest(yaml=HOUSE_UPLOAD))
            seated = await seat_table(ref, "house-deal", seats, start=False)
            spectator = Inbox(None)
            reader = asyncio.ensure_future(collect_stream(seated.spectator_watch(0), spectator)())
            await seated.start()
            rng = random.Random(seats)
            while await random_step(seated, rng) is not None:
                pass
            await asyncio.wait_for(reader, 20)
            events = [e for _, e in spectator.events]
            started = [e.hand_started for e in events if e.HasField("hand_started")]
            over = [e.hand_over for e in events if e.HasField("hand_over")]
            ended = [e.session_over for e in events if e.HasField("session_over")]
            assert len(started) == len(over) == 2 and len(ended) == 1
            for hand in started:
                assert len(set(hand.hand_sizes)) == 1  # H1: equal hands
                assert sum(hand.hand_sizes) == 52 - 52 % seats
            first = over[0].result
            expected = first.bhabhi if first.HasField("bhabhi") else (0 - 1) % seats
            assert started[1].dealer == expected  # H2
            for number in (0, 1):
                exported = await ref.play.ExportHand(
                    pb.ExportHandRequest(table_id=seated.table_id, hand_number=number)
                )
                fair = yaml.safe_load(exported.case_yaml)["fair_deal"]
                assert fair["direction"] == "clockwise" and len(fair["deck"]) % seats == 0
                assert verify_deal(exported.case_yaml).fair
            result = ended[0]
            assert sum(result.chips) + result.pot_left == 0
            losses = sum(result.bhabhi_counts)
            assert losses == 0 or any(c < 0 for c in result.chips) or result.chips == [0] * seats

    play()


def test_the_client_describes_card_point_chips_and_leaves_the_pot_to_the_session_result() -> None:
    from bhabhi_client.rules import RulesProfile

    profile = RulesProfile.from_yaml(HOUSE_UPLOAD)
    assert profile.chips_by_card_points and profile.session_chips == 1
    assert any("per point of the cards left in hand" in line for line in profile.summary_lines())
    assert not RulesProfile.from_yaml("id: x\nsession: {chips: 1}\n").chips_by_card_points
