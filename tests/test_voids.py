"""Shown voids (``Hand.voids``): the suits a seat has shown, from public play alone, it holds
no unseen card of.

Sound first: on random play of every bundled ruleset, and of house variants whose off-suit
cards prove nothing (C12's penalty, H25's false cards, H26's play out of turn) or that move
cards face down (V4's waste pile, B8 and H14 draws, B9 takes), and of a sample of the
combinations of the house rules of the trick and of the power, no seat ever holds an unseen
card of a suit it is said to be void in, at any position.  Informative second: voids are
shown, and each rule that proves or unproves one does so as its clause says.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from helpers import bundled_ids, deal, load_rules, run, variant

from referee.cards import cards_in
from referee.engine.hand import Hand
from referee.engine.types import CHALLENGE, PICK_UP, TAKE_HAND, Action, ActionKind, Verdict
from referee.ruleset.model import Ruleset
from referee.server.messages import view_message


def _tochoo_with_pile(picked_up_by: str) -> tuple[str, dict[str, object]]:
    """H25 where a tochoo ends the trick and its picker takes the pile too (V4)."""
    off_suit = {
        "play": "tochoo",
        "tochoo_picked_up_by": picked_up_by,
        "pickup_takes": "trick_and_waste",
    }
    return "discard", {
        "illegal_play": "challenge",
        "false_tochoo_penalty": "pickup_and_lead",
        "off_suit": off_suit,
    }


VARIANTS: list[tuple[str, dict[str, object]]] = [
    ("pickup", {"illegal_play": "pickup_penalty"}),
    ("bhabho", {"illegal_play": "pickup_penalty"}),
    ("bhabho", {"illegal_play": "challenge", "false_tochoo_penalty": "pickup_and_lead"}),
    ("discard", {"illegal_play": "challenge", "false_tochoo_penalty": "pickup_and_lead"}),
    ("whole-pile", {"out_of_turn": "pickup_penalty", "hand_sizes": "hidden"}),
    ("bhabho", {"next_leader": {"if_out": "draws_from_player", "draw_from": "chosen"}}),
    ("bhabho", {"next_leader": {"if_out": "draws_from_player", "draw_from": "next_active"}}),
    ("bhabho", {"next_leader": {"draw": "top"}}),
    ("pickup", {"first_trick": {"void_plays": "highest"}}),
    *[_tochoo_with_pile(by) for by in ("tochoo_player", "highest_of_led")],
]
"""House variants beside the bundled rulesets: C12, H25, H26 (with V4 and H29), H14, H16,
H5, and H25 where a tochoo's player picks up the trick and the pile face down (V4)."""

UNPROVEN = {
    "discard+illegal_play=challenge,false_tochoo_penalty=pickup_and_lead,off_suit.play=tochoo,"
    "off_suit.tochoo_picked_up_by=tochoo_player,off_suit.pickup_takes=trick_and_waste"
}
"""Where no void can be shown: H25 proves nothing by a play, and the one off-suit card of a
trick is a tochoo whose player picks up the trick and the pile face down, so that not even
a wrong challenge shows it void."""

PENALTY_CHANCE = 0.1
"""How often random play tries a card that the rules penalise (C12, H26)."""


def rulesets() -> list[tuple[str, Ruleset]]:
    found = [(rule_id, load_rules(rule_id)) for rule_id in bundled_ids()]
    found += [(f"{base}+{_options(over)}", variant(base, **over)) for base, over in VARIANTS]
    return found


def _options(over: dict[str, object], prefix: str = "") -> str:
    """``{"next_leader": {"draw": "top"}}`` as ``next_leader.draw=top`` (a test id)."""
    words = []
    for key, value in over.items():
        if isinstance(value, dict):
            words.append(_options(value, f"{prefix}{key}."))
        else:
            words.append(f"{prefix}{key}={value}")
    return ",".join(words)


def counts(rules: Ruleset) -> list[int]:
    """The player counts a test plays: the fewest, four and six where allowed."""
    return [p for p in sorted({rules.players.min, 4, 6}) if rules.players.allows(p)]


CASES = [(name, rules, players) for name, rules in rulesets() for players in counts(rules)]
CASE_IDS = [f"{name}-{players}" for name, _, players in CASES]


def random_step(hand: Hand, rng: random.Random) -> None:
    """One random action: now and then a penalised card (C12, H26) or a challenge (H25),
    rarely a take or another seat's action (or hands end by takes), else a legal action of
    the seat the game waits for."""
    if rng.random() < PENALTY_CHANCE:
        seat = rng.randrange(hand.players)
        held = list(cards_in(hand.hands[seat]))
        if held and not hand.out[seat]:
            action = Action.play(rng.choice(held))
            if hand.judge(seat, action).verdict is Verdict.PENALISED:
                hand.apply(seat, action)
                return
    seats = hand.seats_to_act()
    waited = hand.to_move
    seat = waited if waited in seats and rng.random() >= 0.05 else rng.choice(seats)
    actions = list(hand.legal_actions(seat))
    if CHALLENGE in actions and rng.random() < 0.3:
        hand.apply(seat, CHALLENGE)
        return
    calm = [a for a in actions if a != TAKE_HAND and a.kind is not ActionKind.TAKE_HAND]
    if calm and rng.random() > 0.05:
        actions = [a for a in calm if a != CHALLENGE] or calm
    hand.apply(seat, rng.choice(actions))


def positions(rules: Ruleset, players: int, seed: int) -> Iterator[Hand]:
    """Every position of one seeded hand played at random (the same object, moved on)."""
    rng = random.Random(seed)
    hand = Hand(rules, players, seed=seed, record=False)
    while not hand.is_over:
        yield hand
        random_step(hand, rng)
    yield hand


def unsound(hand: Hand) -> list[str]:
    """Every claimed void that is false: an unseen card of that suit in that seat's hand."""
    wrong = []
    for seat in range(hand.players):
        for card in cards_in(hand.hands[seat] & ~hand.known[seat]):
            if hand.voids[seat] >> hand.book.suit[card] & 1:
                wrong.append(f"seat {seat} holds {card} of a suit it is void in")
    return wrong


@pytest.mark.parametrize(("name", "rules", "players"), CASES, ids=CASE_IDS)
def test_voids_are_never_false(name: str, rules: Ruleset, players: int) -> None:
    shown = 0
    for seed in range(6):
        for hand in positions(rules, players, seed):
            assert unsound(hand) == [], name
            shown += sum(v.bit_count() for v in hand.voids)
    assert (shown > 0) is (name not in UNPROVEN), f"{name}: {shown} voids shown in six hands"


def test_a_pickup_shows_a_void_and_the_view_lists_it() -> None:
    hand = deal(load_rules("pickup"), ["AS 2H", "5D 6D", "KS 3H"])  # play order 0, 2, 1
    run(hand, "0:AS 2:KS 1:pickup")
    assert hand.voids == [0, 0b1000, 0]  # seat 1 has shown no spades
    view = hand.view(0)
    assert view.voids == ((), (3,), ())
    message = view_message(view, 0)
    assert [list(seat.suits) for seat in message.voids] == [[], ["S"], []]


def test_a_discard_shows_a_void() -> None:
    hand = deal(load_rules("discard"), ["AS 2H", "4H 5H", "KS 4C 5C"])  # play order 0, 2, 1
    run(hand, "0:AS 2:KS 1:4H")
    assert hand.view(2).voids == ((), (3,), ())


def test_a_penalised_card_shows_no_void() -> None:
    """C12: a wrong card is penalised, not played; it proves its player holds the suit."""
    rules = variant("pickup", illegal_play="pickup_penalty")
    hand = deal(rules, ["AS 2H", "QS 4H", "KS 4C 5C"])  # play order 0, 2, 1
    run(hand, "0:AS 2:4C")
    assert hand.trick_number == 1 and hand.voids == [0, 0, 0]


def test_a_card_off_suit_under_challenges_shows_no_void() -> None:
    """H25: a seat holding the led suit may play off it at its risk, so it proves nothing."""
    rules = variant("discard", illegal_play="challenge", false_tochoo_penalty="pickup_and_lead")
    hand = deal(rules, ["AS 2H", "QS 4H", "KS 4C 5C"])  # play order 0, 2, 1
    run(hand, "0:AS 2:4C")
    assert hand.voids == [0, 0, 0]


def test_a_taker_keeps_only_the_voids_both_hands_showed() -> None:
    """B9: the taker's new unseen cards are the target's, so a suit stays void only where
    both hands had shown it."""
    rules = load_rules("bhabho")
    for seed in range(40):
        for hand in positions(rules, 4, seed):
            seat = hand.to_move
            if seat is None or TAKE_HAND not in hand.legal_actions(seat):
                continue
            after = hand.copy(record=False)
            after.apply(seat, TAKE_HAND)
            target = next(s for s in range(4) if after.out[s] and not hand.out[s])
            if not hand.voids[seat] or hand.voids[seat] == hand.voids[target]:
                continue
            assert after.voids[seat] == hand.voids[seat] & hand.voids[target]
            return
    pytest.fail("no take by a seat with voids its target had not shown")


def test_a_challenge_shows_the_seats_it_clears_void() -> None:
    """H25: a wrong challenge shows every off-suit card of the trick true; a right one
    those played before the first false one."""
    rules = variant("discard", illegal_play="challenge", false_tochoo_penalty="pickup_and_lead")
    hand = deal(rules, ["AS 2H", "4H 5H", "KS 4C 5C"])  # play order 0, 2, 1
    run(hand, "0:AS 2:4C 1:4H")  # seat 2 plays a false card, seat 1 a true one
    assert hand.voids == [0, 0, 0]
    wrong = deal(rules, ["AS 2H", "4H 5H", "KS 4C 5C"])
    run(wrong, "0:AS 2:KS 1:4H 0:challenge")
    assert wrong.voids == [0, 0b1000, 0]
    run(hand, "0:challenge")  # seat 2 was false: seat 1, after it, is not cleared
    assert hand.voids == [0, 0, 0]
    right = deal(rules, ["AS 2H", "5S 4H", "4C 5C 6C"])
    run(right, "0:AS 2:4C 1:4H 0:challenge")  # seat 2 true, then seat 1 false
    assert right.voids == [0, 0, 0b1000]


def test_the_waste_pile_taken_face_down_unproves_its_suits() -> None:
    """V4: the picker shows the led suit void, then takes the pile face down: no suit of
    the pile is void any more."""
    rules = load_rules("whole-pile")
    for seed in range(40):
        for hand in positions(rules, 4, seed):
            seat = hand.to_move
            if seat is None or PICK_UP not in hand.legal_actions(seat):
                continue
            pile = {hand.book.suit[c] for c in cards_in(hand.waste)}
            if not any(hand.voids[seat] >> u & 1 for u in pile):
                continue
            led = hand.led_suit
            after = hand.copy(record=False)
            after.apply(seat, PICK_UP)
            kept = hand.voids[seat] | 1 << led
            assert after.voids[seat] == kept & ~sum(1 << u for u in pile)
            return
    pytest.fail("no pickup of a pile with a suit its picker had shown void in")


def test_a_waste_draw_shows_a_void_in_every_suit_not_in_the_pile() -> None:
    """B8: a drawer had no card and draws from the pile: it holds nothing of a suit the
    pile does not hold (the pile's suits are public: its cards were played face up)."""
    rules = load_rules("bhabho")
    for seed in range(40):
        for hand in positions(rules, 4, seed):
            drawn = [c for c, seen_by in hand.unseen_draws.items() if seen_by < 0]
            for card in drawn:
                holder = next(s for s in range(4) if hand.hands[s] >> card & 1)
                if hand.hands[holder] == 1 << card:
                    suits = {hand.book.suit[c] for c in cards_in(hand.waste)}
                    suits.add(hand.book.suit[card])
                    assert hand.voids[holder] == sum(1 << u for u in range(4) if u not in suits)
                    return
    pytest.fail("no waste draw in forty hands of bhabho")


COMBINATIONS = 40
"""How many of the valid combinations of the trick house rules a test plays (of about 1,100)."""


def house_combinations() -> list[tuple[str, Ruleset]]:
    """A seeded sample of the combinations of the house rules of the first trick, the trick
    and the lead (H5, H6, H9, H10, H12) and of the power (H14-H19) that ``test_properties``
    plays."""
    from test_properties import TRICK_BASES, _power_variant, trick_rule_variants

    found = [v for base in TRICK_BASES for v in trick_rule_variants(base)]
    found = random.Random(1).sample(found, COMBINATIONS)
    return found + [(f"power {seed}", _power_variant(seed)[1]) for seed in range(12)]


def test_voids_are_never_false_under_combinations_of_house_rules() -> None:
    for index, (name, rules) in enumerate(house_combinations()):
        players = 3 + index % 3
        for hand in positions(rules, players, index):
            assert unsound(hand) == [], f"{name}, {players} players"
