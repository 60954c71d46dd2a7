"""Properties of the engine over every bundled ruleset and every player count it allows.

Seeded deals and random legal play (a ``random.Random`` seeded by hypothesis chooses among
the legal actions of the seats in ``seats_to_act()``), with these checked as play goes on:

* cards are conserved after every action: hands + trick + waste + out of play = the deck;
* while the hand is not over, the seat ``to_move`` has a legal action, and the seats that
  may act are exactly those with a legal action;
* an illegal action raises IllegalActionError and changes nothing any seat can see;
* no seat's view holds another seat's hidden cards: a view's hand is that seat's cards, and
  ``known_cards`` is exactly what a public model of the game (cards picked up face up, less
  cards played, moved by taken hands) says; the events as a seat sees them never show a
  card drawn from the waste pile (B8) or a taken hand (B9) to anybody else;
* every hand ends within its ``max_tricks`` bound;
* the same seeds give the same event log, and replaying the actions gives it again;
* all of this also under random combinations of the house rules of taking a hand (H20-H24:
  consent, no early or late takes, the take pass, a chosen hand, a neighbour's debt), whose
  requests, answers and passes are public and show no card.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest
from helpers import bundled_ids, load_rules, resolved_mapping
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cards import Card, cards_in
from referee.conformance.mutants import validate
from referee.engine.hand import Hand
from referee.engine.types import (
    PICK_UP,
    TAKE_HAND,
    Action,
    ActionKind,
    CardPlayed,
    Event,
    HandTaken,
    IllegalActionError,
    PickedUp,
    TakeAnswered,
    TakePassed,
    TakeRequested,
    Termination,
    WasteDrawn,
)
from referee.ruleset.model import IllegalPlay, Ruleset

TAKE_CHANCE = 0.05
"""How often random play tries a B9 take when one is legal (else hands end by takes)."""
CHECKED_ACTIONS = 250
"""Actions per hand checked in full (views of every seat); later ones only count cards."""


def player_counts(rules: Ruleset) -> list[int]:
    counts = [n for n in range(3, 9) if rules.players.allows(n)]
    return counts + ([16] if rules.players.allows(16) else [])


CASES = [(rule_id, n) for rule_id in bundled_ids() for n in player_counts(load_rules(rule_id))]
SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
FAST = settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def test_every_bundled_ruleset_is_covered() -> None:
    assert {rule_id for rule_id, _ in CASES} == set(bundled_ids())
    assert ("two-packs", 16) in CASES and ("team", 5) not in CASES


# --- random play --------------------------------------------------------------------------


def choose(hand: Hand, rng: random.Random) -> tuple[int, Action]:
    """A random legal (seat, action): usually the seat to move, now and then a B9 take."""
    if rng.random() < TAKE_CHANCE:
        takes = {s: _takes(hand, s) for s in hand.seats_to_act()}
        takers = [s for s, found in takes.items() if found]
        if takers:
            taker = rng.choice(takers)
            found = takes[taker]
            return taker, found[0] if len(found) == 1 else rng.choice(found)
    seat = hand.to_move
    assert seat is not None
    actions = [a for a in hand.legal_actions(seat) if a.kind is not ActionKind.TAKE_HAND]
    return seat, rng.choice(actions)


def _takes(hand: Hand, seat: int) -> list[Action]:
    """The seat's takes: B9's bare one, or H23's one per hand it may name."""
    return [a for a in hand.legal_actions(seat) if a.kind is ActionKind.TAKE_HAND]


def play_out(hand: Hand, rng: random.Random, limit: int) -> int:
    actions = 0
    while not hand.is_over:
        assert actions < limit, f"hand not over after {limit} actions"
        hand.apply(*choose(hand, rng))
        actions += 1
    return actions


# --- the public model of known cards ------------------------------------------------------


def update_known(known: list[set[Card]], events: Iterable[Event]) -> None:
    """What every player saw: face-up pickups, plays, whole hands taken (public versions)."""
    for event in events:
        public = event.visible_to(None)
        if isinstance(public, PickedUp):
            known[public.seat] |= set(public.cards)
        elif isinstance(public, CardPlayed):
            known[public.seat].discard(public.card)
        elif isinstance(public, HandTaken):
            known[public.taker] |= known[public.seat]
            known[public.seat] = set()


def check_event_privacy(events: Iterable[Event], players: int) -> None:
    for event in events:
        for seat in [None, *range(players)]:
            seen = event.visible_to(seat)
            seen.to_dict()
            if isinstance(event, WasteDrawn):
                assert isinstance(seen, WasteDrawn)
                assert seen.card == (event.card if seat == event.seat else None)
            elif isinstance(event, HandTaken):
                assert isinstance(seen, HandTaken)
                allowed = seat in (event.taker, event.seat)
                assert seen.cards == (event.cards if allowed else None)
                assert seen.count == event.count
            else:
                assert seen == event
            if isinstance(event, (TakeRequested, TakeAnswered, TakePassed)):
                assert "cards" not in event.to_dict() and "card" not in event.to_dict()


# --- state checks -------------------------------------------------------------------------


def observable(hand: Hand) -> tuple[object, ...]:
    views = tuple(hand.view(s) for s in [None, *range(hand.players)])
    return (
        views,
        hand.hand_sizes(),
        len(hand.events or ()),
        tuple(hand.history),
        hand.waste,
        tuple(hand.draws_made),
    )


def check_state(hand: Hand, known: list[set[Card]], deck: tuple[Card, ...]) -> None:
    n = hand.players
    assert hand.card_total() == len(deck)
    spectator = hand.view(None)
    assert spectator.hand == () and spectator.legal_actions == ()
    held = [tuple(cards_in(hand.hands[s])) for s in range(n)]
    on_table = [c for _, c in spectator.trick]
    waste = list(cards_in(hand.waste))
    out_of_play = list(cards_in(hand.out_of_play))
    everything = [c for h in held for c in h] + on_table + waste + out_of_play
    assert sorted(everything) == sorted(deck)  # each card exactly once
    counted = sum(spectator.hand_sizes) + len(spectator.trick) + spectator.waste_size
    assert counted + len(out_of_play) == len(deck)
    public_known = tuple(tuple(sorted(k)) for k in known)
    for seat in range(n):
        view = hand.view(seat)
        assert view.hand == held[seat]
        assert view.hand_sizes == spectator.hand_sizes
        assert view.trick == spectator.trick
        assert view.known_cards == public_known
        assert view.legal_actions == tuple(hand.legal_actions(seat))
        assert known[seat] <= set(held[seat])
    acting = hand.seats_to_act()
    if hand.is_over:
        assert hand.to_move is None and acting == ()
        assert hand.outcome is not None
        return
    mover = hand.to_move
    assert mover is not None and mover in acting
    assert hand.legal_actions(mover)
    for seat in range(n):
        assert bool(hand.legal_actions(seat)) == (seat in acting)
        if hand.out[seat]:
            assert not hand.legal_actions(seat)


def illegal_probe(hand: Hand, rng: random.Random, deck: tuple[Card, ...]) -> tuple[int, Action]:
    """An action that is not legal: a wrong card, a seat out of turn, a stray pickup/take."""
    n = hand.players
    kind = rng.randrange(4)
    if kind == 0:
        seat = rng.choice([-1, n, n + 7])
        return seat, Action.play(rng.choice(deck))
    if kind == 1:
        idle = [s for s in range(n) if s not in hand.seats_to_act()]
        if idle:
            seat = rng.choice(idle)
            return seat, rng.choice([Action.play(rng.choice(deck)), PICK_UP, TAKE_HAND])
    mover = hand.to_move
    assert mover is not None
    legal = hand.legal_actions(mover)
    if kind == 2:  # a card the mover holds but may not play (suit, first lead, drawn card)
        own = [Action.play(c) for c in cards_in(hand.hands[mover])]
        wrong = [a for a in own if a not in legal]
        if wrong:
            return mover, rng.choice(wrong)
    candidates = [Action.play(c) for c in deck if Action.play(c) not in legal]
    candidates += [a for a in (PICK_UP, TAKE_HAND) if a not in legal]
    return mover, rng.choice(candidates)


def check_refused(hand: Hand, seat: int, action: Action) -> None:
    if hand.rules.illegal_play is IllegalPlay.PICKUP_PENALTY:  # a wrong card is penalised
        return
    before = observable(hand)
    assert not hand.can(seat, action)
    with pytest.raises(IllegalActionError) as caught:
        hand.apply(seat, action)
    assert caught.value.seat == seat and caught.value.action == action
    assert observable(hand) == before


def play_checked(rules: Ruleset, players: int, deal_seed: int, play_seed: int) -> Hand:
    hand = Hand(rules, players, seed=deal_seed)
    rng = random.Random(play_seed)
    deck = rules.deck.cards()
    known: list[set[Card]] = [set() for _ in range(players)]
    assert hand.events is not None
    update_known(known, hand.events)
    check_state(hand, known, deck)
    if hand.to_move is not None:  # C6: the first leader may lead only the lead card
        leader = hand.to_move
        others = [c for c in cards_in(hand.hands[leader]) if hand.forced_lead not in (-1, c)]
        if others:
            check_refused(hand, leader, Action.play(rng.choice(others)))
    limit = (rules.end.max_tricks + 1) * players * 2
    for step in range(limit):
        if hand.is_over:
            break
        full = step < CHECKED_ACTIONS
        if full and rng.random() < 0.25:
            check_refused(hand, *illegal_probe(hand, rng, deck))
        seat, action = choose(hand, rng)
        if full:
            assert hand.can(seat, action)
        events = hand.apply(seat, action)
        update_known(known, events)
        if full:
            check_event_privacy(events, players)
            check_state(hand, known, deck)
        else:
            assert hand.card_total() == len(deck)
    assert hand.is_over
    check_state(hand, known, deck)
    check_refused(hand, 0, Action.play(deck[0]))
    return hand


# --- the properties -----------------------------------------------------------------------


@pytest.mark.parametrize(("rule_id", "players"), CASES)
@FAST
@given(deal_seed=SEEDS, play_seed=SEEDS)
def test_conservation_legality_refusals_and_privacy_during_random_play(
    rule_id: str, players: int, deal_seed: int, play_seed: int
) -> None:
    play_checked(load_rules(rule_id), players, deal_seed, play_seed)


@pytest.mark.parametrize(("rule_id", "players"), CASES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal_seed=SEEDS, play_seed=SEEDS)
def test_every_hand_ends_within_its_bound(
    rule_id: str, players: int, deal_seed: int, play_seed: int
) -> None:
    rules = load_rules(rule_id)
    hand = Hand(rules, players, seed=deal_seed, record=False)
    # every trick has at most one action per player; B9 takes remove a player each
    bound = rules.end.max_tricks * players + players
    actions = play_out(hand, random.Random(play_seed), bound + 1)
    assert actions <= bound
    assert hand.trick_number <= rules.end.max_tricks
    outcome = hand.outcome
    assert outcome is not None
    out = outcome.out_order
    assert len(set(out)) == len(out)
    assert all(hand.out[s] for s in out)
    left = [s for s in range(players) if not hand.out[s]]
    if outcome.termination in (Termination.LAST_PLAYER, Termination.TWO_LEFT_PICKUP):
        assert left == [outcome.bhabhi]
    elif outcome.termination is Termination.ALL_OUT:
        assert left == []
    else:  # a forced end: the Bhabhi, if any, holds the most cards of those left
        assert len(left) >= 2
        if outcome.bhabhi is not None:
            sizes = hand.hand_sizes()
            assert outcome.bhabhi in left
            assert all(sizes[outcome.bhabhi] > sizes[s] for s in left if s != outcome.bhabhi)
    if outcome.bhabhi is not None and outcome.losing_team is not None:
        partner = (outcome.bhabhi + players // 2) % players
        assert outcome.losing_team == tuple(sorted((outcome.bhabhi, partner)))


@pytest.mark.parametrize(("rule_id", "players"), CASES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal_seed=SEEDS, play_seed=SEEDS)
def test_same_seed_same_event_log(
    rule_id: str, players: int, deal_seed: int, play_seed: int
) -> None:
    rules = load_rules(rule_id)
    logs = []
    for _ in range(2):
        hand = Hand(rules, players, seed=deal_seed)
        play_out(hand, random.Random(play_seed), (rules.end.max_tricks + 1) * players)
        assert hand.events is not None
        logs.append(([e.to_dict() for e in hand.events], hand.outcome, hand.history))
    assert logs[0] == logs[1]
    # replaying the recorded actions on a fresh hand gives the same events
    replay = Hand(rules, players, seed=deal_seed)
    for seat, action in logs[0][2]:
        replay.apply(seat, action)
    assert replay.events is not None
    assert [e.to_dict() for e in replay.events] == logs[0][0]
    assert replay.outcome == logs[0][1]


# --- the house rules of taking a hand (H20-H24), in random combinations ---------------------

TAKE_OPTIONS = st.fixed_dictionaries(
    {
        "when": st.sampled_from(
            ["before_any_trick", "leader_before_trick", "after_neighbour_tochoo"]
        ),
        "from": st.sampled_from(
            ["left", "right", "next_in_turn", "either_neighbour", "any_player"]
        ),
        "per_trick": st.sampled_from(["one", "any", "pass_in_turn"]),
        "lead_passes_to": st.sampled_from(["taker", "next_in_turn"]),
        "consent": st.booleans(),
        "before_first_trick": st.booleans(),
        "with_two_left": st.booleans(),
    }
)


def taking_rules(take: dict[str, object], direction: str) -> Ruleset | None:
    """Bhabho with these ``take_hand`` options, or None when ``rules validate`` refuses them."""
    data = resolved_mapping("bhabho")
    data.update(id="bhabho-taking", direction=direction, take_hand=take)
    if validate(data):
        return None
    return Ruleset.from_mapping(data)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    take=TAKE_OPTIONS,
    direction=st.sampled_from(["clockwise", "counterclockwise"]),
    players=st.integers(min_value=3, max_value=6),
    deal_seed=SEEDS,
    play_seed=SEEDS,
)
def test_house_rules_of_taking_keep_every_property(
    take: dict[str, object], direction: str, players: int, deal_seed: int, play_seed: int
) -> None:
    rules = taking_rules(take, direction)
    if rules is None:  # a combination that says nothing or can never apply (semantic.py)
        return
    hand = play_checked(rules, players, deal_seed, play_seed)
    assert hand.trick_number <= rules.end.max_tricks
