"""``random_playout_from`` plays on from any position of a hand exactly as ``Hand`` would.

A hand is played some random number of actions in through ``Hand`` (checked), the fast
playout goes on from there, and its actions are replayed through a copy of the hand with
``Hand.apply`` (checked), the copy given the playout's own B8 draws (``Hand.set_draws``).
The two must agree on the outcome, the number of tricks and the pickups.  Every ruleset
and player count the fast playout plays (``test_playout.fast_cases``: the bundled rulesets
and the variants that reach the options no bundled ruleset uses).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from test_playout import fast_cases, rules_of

from referee.cards import cards_in, mask_of
from referee.engine.hand import IN_TRICK, AfterTrick, Hand
from referee.engine.playout import PlayoutResult, action_of, random_playout_from
from referee.engine.shuffle import hand_seed
from referee.engine.types import PICK_UP, TAKE_HAND, EngineError, PickedUp
from referee.ruleset.loader import bundled_ruleset_paths, load_ruleset
from referee.ruleset.model import Ruleset

POSITIONS = 16
"""Positions per (ruleset, player count)."""
MOST_ACTIONS_IN = 120
"""A position is up to this many actions into the hand (a four-player Bhabho hand has
about 60 to 100)."""

MID_TRICK = "in the middle of a trick"
MID_FIRST_TRICK = "in the middle of the first trick"
AFTER_PICKUP = "right after a pickup"
FIRST_LEAD = "the first lead pending (C6)"
DRAWN_LEAD = "a drawn card's lead pending (B8)"
AFTER_TAKE = "after a take this trick (B9)"
PLAYERS_OUT = "with players out"
TRUMP_FIXED = "with the trump fixed (X5)"
DRAWS = "the playout draws from the waste pile (B8)"


def _walk(
    rules: Ruleset, players: int, index: int, rng: random.Random
) -> Iterator[tuple[Hand, set[str]]]:
    """Random legal play from the deal to the end of a hand, through ``Hand``: yields the
    hand (the same object, played on) and what kind of position it is at, at the deal and
    after each action.

    Before each action every seat that may take a hand (B9) but is not the one the game
    waits for takes with probability ``1 / (own cards + 1)``, as ``RandomBot`` does; the
    mover chooses uniformly among its legal actions."""
    hand = Hand(rules, players, seed=hand_seed(b"playout-from", index), dealer=index % players)
    yield hand, _kinds(hand, False)
    while not hand.is_over:
        mover = hand.to_move
        assert mover is not None
        events = None
        for seat in hand.seats_to_act():
            if (
                seat != mover
                and TAKE_HAND in hand.legal_actions(seat)
                and rng.random() * (hand.hands[seat].bit_count() + 1) < 1.0
            ):
                events = hand.apply(seat, TAKE_HAND)
                break
        if events is None:
            legal = list(hand.legal_actions(mover))
            events = hand.apply(mover, legal[rng.randrange(len(legal))])
        yield hand, _kinds(hand, any(isinstance(event, PickedUp) for event in events))


def _walk_in(rules: Ruleset, players: int, index: int, rng: random.Random) -> tuple[Hand, set[str]]:
    """A hand some random number of actions in (or over, if it ended before)."""
    actions_in = rng.randrange(MOST_ACTIONS_IN)
    positions = _walk(rules, players, index, rng)
    position = next(positions)
    for _ in range(actions_in):
        position = next(positions, position)  # the end of the hand, once it is over
    return position


def _kinds(hand: Hand, picked_up: bool) -> set[str]:
    kinds = set()
    if hand.phase == IN_TRICK:
        kinds.add(MID_FIRST_TRICK if hand.trick_number == 0 else MID_TRICK)
    elif picked_up:
        kinds.add(AFTER_PICKUP)
    if hand.phase != IN_TRICK and hand.forced_lead >= 0:
        kinds.add(FIRST_LEAD if hand.trick_number == 0 else DRAWN_LEAD)
    if hand.takes_this_trick:
        kinds.add(AFTER_TAKE)
    if any(hand.out):
        kinds.add(PLAYERS_OUT)
    if hand.trump >= 0:
        kinds.add(TRUMP_FIXED)
    return kinds


def _state(hand: Hand) -> tuple[object, ...]:
    """Everything a playout could change in a hand, to check that it changed nothing."""
    return (
        hand.hands.copy(),
        hand.out.copy(),
        hand.out_order.copy(),
        hand.waste,
        hand.trick.copy(),
        hand.trick_mask,
        hand.trick_in_play(),
        hand.phase,
        hand.leader,
        hand.forced_lead,
        hand.first_leader,
        hand.trick_number,
        hand.takes_this_trick,
        hand.trump,
        hand.draws_made.copy(),
        hand.history.copy(),
        hand.outcome,
    )


def _replay(hand: Hand, result: PlayoutResult) -> Hand:
    """A copy of ``hand`` played on with the playout's actions (checked) and draws."""
    twin = hand.copy()
    twin.set_draws(result.draws)
    for number, (seat, code) in enumerate(result.actions):
        assert not twin.is_over, f"the hand ended before action {number} ({seat}, {code})"
        twin.apply(seat, action_of(code))  # checked: raises on anything illegal
    return twin


def _check(hand: Hand, rng_seed: int, where: str, *, greedy: bool = False) -> PlayoutResult:
    """Play on from ``hand`` and replay the playout through ``Hand``: they must agree."""
    before = _state(hand)
    result = random_playout_from(hand, random.Random(rng_seed), greedy=greedy)
    assert _state(hand) == before, f"{where}: the playout changed the hand"
    twin = _replay(hand, result)
    assert twin.is_over, where
    assert twin.outcome == result.outcome, where
    assert twin.trick_number == result.tricks, where
    assert tuple(twin.draws_made[len(hand.draws_made) :]) == result.draws, where
    assert len(twin.history) - len(hand.history) == result.action_count, where
    assert hand.events is not None and twin.events is not None
    picked = sum(isinstance(e, PickedUp) for e in twin.events[len(hand.events) :])
    assert picked == result.pickups, where
    again = random_playout_from(hand, random.Random(rng_seed), greedy=greedy)
    assert again == result, f"{where}: same seed"
    return result


def _positions(ref: str, players: int, *, greedy: bool = False) -> set[str]:
    """Check the playout from ``POSITIONS`` positions; the kinds of position reached."""
    rules = rules_of(ref)
    seen: set[str] = set()
    for index in range(POSITIONS):
        rng = random.Random(f"{ref}/{players}/{index}")
        hand, kinds = _walk_in(rules, players, index, rng)
        where = f"{ref}, {players} players, position {index} ({len(hand.history)} actions in)"
        if hand.is_over:
            with pytest.raises(EngineError, match="the hand is over"):
                random_playout_from(hand, rng)
            continue
        result = _check(hand, index, where, greedy=greedy)
        seen |= kinds
        if result.draws:
            seen.add(DRAWS)
    return seen


@pytest.mark.parametrize(("ref", "players"), fast_cases())
def test_playout_from_a_position_replays_through_hand(ref: str, players: int) -> None:
    _positions(ref, players)


@pytest.mark.parametrize(("ref", "players"), fast_cases())
def test_a_greedy_playout_replays_through_hand(ref: str, players: int) -> None:
    _positions(ref, players, greedy=True)


@pytest.mark.parametrize(
    ("ref", "rule"),
    [("discard", "highest"), ("pickup", "lowest"), ("bhabho", "duck")],
)
def test_a_greedy_follower_plays_by_its_rule(ref: str, rule: str) -> None:
    """Greedy followers with a choice: the highest card (discard rules), the lowest where
    the highest card leads next (P1, C8), under B6 the highest below the trick's high card
    unless playing last; a player who cannot follow throws their highest card."""
    rules = rules_of(ref)
    checked = 0
    for index in range(20):
        hand = Hand(rules, 4, seed=f"greedy/{index}", dealer=index % 4)
        result = random_playout_from(hand, random.Random(index), greedy=True)
        twin = hand.copy()
        twin.set_draws(result.draws)
        for seat, code in result.actions:
            trick = twin.trick_in_play()
            if trick is not None and code >= 0:
                strength = twin.book.strength
                held = list(cards_in(twin.hands[seat]))
                led = [c for c in held if twin.book.suit[c] == twin.led_suit]
                last = trick.played == len(trick.order) - 1
                if not led:
                    assert strength[code] == max(strength[c] for c in held), (index, seat)
                elif len(led) > 1:
                    powers = sorted(strength[c] for c in led)
                    below = [p for p in powers if p < trick.high]
                    want = {
                        "highest": powers[-1],
                        "lowest": powers[0],
                        "duck": powers[-1] if last or not below else below[-1],
                    }[rule]
                    assert strength[code] == want, (index, seat, code)
                    checked += 1
            twin.apply(seat, action_of(code))
    assert checked > 50, checked


def test_every_kind_of_position_is_played_on_from() -> None:
    """The positions the subtle starts need are all reached, and checked: from every
    position of a few whole hands."""
    seen: set[str] = set()
    for ref, players in (("bhabho", 3), ("bhabho", 4), ("donkey", 4), ("pickup", 4)):
        for index in range(3):
            where = f"{ref}, {players} players, hand {index}"
            for hand, kinds in _walk(rules_of(ref), players, index, random.Random(where)):
                if hand.is_over:
                    break
                result = _check(hand, index, f"{where}, {len(hand.history)} actions in")
                seen |= kinds
                if result.draws:
                    seen.add(DRAWS)
    assert {
        MID_TRICK,
        MID_FIRST_TRICK,
        AFTER_PICKUP,
        FIRST_LEAD,
        DRAWN_LEAD,
        AFTER_TAKE,
        PLAYERS_OUT,
        TRUMP_FIXED,
        DRAWS,
    } <= seen


def test_a_determinization_is_played_with_its_own_cards() -> None:
    """The other seats' cards dealt again among them (sizes kept), as a search samples
    them: the playout plays the sample's cards, legally for the sample (``_check`` replays
    it through the sample), and not the real hand's."""
    rules = load_ruleset("bhabho")
    differ = 0
    for index in range(POSITIONS * 2):
        rng = random.Random(f"sample/{index}")
        hand, _ = _walk_in(rules, 4, index, rng)
        if hand.is_over:
            continue
        seat = hand.to_move
        assert seat is not None
        sample = hand.copy()
        others = [s for s in range(4) if s != seat and not sample.out[s]]
        pool = [card for s in others for card in cards_in(sample.hands[s])]
        rng.shuffle(pool)
        for s in others:
            size = sample.hands[s].bit_count()
            sample.hands[s], pool = mask_of(pool[:size]), pool[size:]
        result = _check(sample, index, f"sample {index}")
        differ += result != random_playout_from(hand, random.Random(index))
    assert differ


def test_the_hand_s_seed_is_not_read() -> None:
    """The same position dealt from a seed and from the same cards dealt explicitly (so
    with another draw stream; the draws so far given) plays on the same with the same
    generator."""
    rules = load_ruleset("bhabho")
    drew = False
    for index in range(POSITIONS * 2):
        rng = random.Random(f"seedless/{index}")
        seeded, _ = _walk_in(rules, 4, index, rng)
        if seeded.is_over:
            continue
        dealt = Hand(rules, 4, deal=seeded.deal, dealer=seeded.dealer, draws=seeded.draws_made)
        for seat, action in seeded.history:
            dealt.apply(seat, action)
        assert dealt.hands == seeded.hands
        ours = random_playout_from(seeded, random.Random(index))
        assert random_playout_from(dealt, random.Random(index)) == ours
        drew = drew or bool(ours.draws)
    assert drew


def test_the_generator_decides_the_play() -> None:
    rules = load_ruleset("pickup")
    hand, _ = _walk_in(rules, 4, 1, random.Random(3))
    assert not hand.is_over
    plays = {random_playout_from(hand, random.Random(seed)).actions for seed in range(6)}
    assert len(plays) > 1


def test_a_finished_hand_is_refused() -> None:
    hand = Hand(load_ruleset("pickup"), 4, seed=hand_seed(b"over", 0), dealer=0)
    while not hand.is_over:
        seat = hand.to_move
        assert seat is not None
        legal = list(hand.legal_actions(seat))
        hand.apply(seat, PICK_UP if PICK_UP in legal else legal[0])
    with pytest.raises(EngineError, match="the hand is over"):
        random_playout_from(hand, random.Random(0))


def test_rules_the_fast_playout_does_not_play_are_refused() -> None:
    refused = 0
    for ref in sorted(bundled_ruleset_paths()):
        rules = load_ruleset(ref)
        hand = Hand(rules, rules.players.min, seed=hand_seed(b"refused", 0), dealer=0)
        if hand.book.fast_playout:
            continue
        refused += 1
        with pytest.raises(EngineError, match="fast playout does not play"):
            random_playout_from(hand, random.Random(0))
    assert refused


def test_a_pending_house_rule_window_is_refused() -> None:
    """Positions the fast loop cannot start from arise only under rules it refuses anyway
    (every walk above starts from wherever it stopped); were one reached, say the window
    after a trick that H25 keeps open, it is refused, not misplayed."""
    hand = Hand(load_ruleset("bhabho"), 4, seed=hand_seed(b"window", 0), dealer=0)
    hand.after_trick = AfterTrick(0, (), -1, (), ())
    with pytest.raises(EngineError, match="a house rule's decision is pending"):
        random_playout_from(hand, random.Random(0))
