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
  card drawn from the waste pile (B8) or a taken hand (B9) to anybody else, nor a card drawn
  from a hand (H14) to anybody but the two players;
* every hand ends within its ``max_tricks`` bound;
* the same seeds give the same event log, and replaying the actions gives it again;
* every valid combination of the options of the house rules of the first trick, the trick
  and the lead (H5, H6, H9, H10, H12, with the values they extend) plays to the end within
  its bound, and samples of them keep the checks above.
* the same under the house rules of challenges (H25: random seats challenge now and then),
  play out of turn (H26) and hidden hand sizes (H29: a view and an event show a seat no
  other seat's size);
* the same seeds give the same event log, and replaying the actions gives it again.

The house rules of getting out with the power and of two players left (H14-H19) are played
on Bhabho in random combinations too (``POWER_VARIANTS``), with the same checks.
* all of this also under random combinations of the house rules of taking a hand (H20-H24:
  consent, no early or late takes, the take pass, a chosen hand, a neighbour's debt), whose
  requests, answers and passes are public and show no card.
"""

from __future__ import annotations

import copy
import functools
import itertools
import random
from collections.abc import Iterable
from typing import Any

import pytest
import yaml
from helpers import bundled_ids, load_rules, resolved_mapping, variant
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cards import Card, cards_in
from referee.conformance.mutants import validate
from referee.engine.hand import Hand
from referee.engine.types import (
    CHALLENGE,
    HIDDEN_SIZE,
    PICK_UP,
    TAKE_HAND,
    Action,
    ActionKind,
    CardDrawn,
    CardPlayed,
    Event,
    HandStarted,
    HandTaken,
    IllegalActionError,
    PickedUp,
    TakeAnswered,
    TakePassed,
    TakeRequested,
    Termination,
    WasteDrawn,
)
from referee.ruleset.loader import resolve_text
from referee.ruleset.model import IllegalPlay, OutOfTurn, Ruleset

CHALLENGE_CHANCE = 0.3
"""How often random play challenges (H25) when a challenge is open."""
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
    """A random legal (seat, action): usually the seat to move, now and then a B9 take or
    an H25 challenge."""
    if rng.random() < CHALLENGE_CHANCE:
        challengers = [s for s in hand.seats_to_act() if CHALLENGE in hand.legal_actions(s)]
        if challengers:
            return rng.choice(challengers), CHALLENGE
    if rng.random() < TAKE_CHANCE:
        takes = {s: _takes(hand, s) for s in hand.seats_to_act()}
        takers = [s for s, found in takes.items() if found]
        if takers:
            taker = rng.choice(takers)
            found = takes[taker]
            return taker, found[0] if len(found) == 1 else rng.choice(found)
    seat = hand.to_move
    assert seat is not None
    actions = [
        a
        for a in hand.legal_actions(seat)
        if a.kind not in (ActionKind.TAKE_HAND, ActionKind.CHALLENGE)
    ]
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
        if isinstance(public, PickedUp):  # (H25, H26: maybe from another seat's hand)
            for holder in known:
                holder -= set(public.cards)
            known[public.seat] |= set(public.cards)
        elif isinstance(public, CardPlayed):
            known[public.seat].discard(public.card)
        elif isinstance(public, HandTaken):
            known[public.taker] |= known[public.seat]
            known[public.seat] = set()
        elif isinstance(public, CardDrawn):  # H14: any of its known cards may be the one
            known[public.from_seat] = set()


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
                hidden = event.sizes_hidden and not allowed
                assert seen.count == (HIDDEN_SIZE if hidden else event.count)
            elif isinstance(event, CardDrawn):
                assert isinstance(seen, CardDrawn)
                allowed = seat in (event.seat, event.from_seat)
                assert seen.card == (event.card if allowed else None)
                assert (seen.seat, seen.from_seat) == (event.seat, event.from_seat)
            elif isinstance(event, HandStarted) and event.sizes_hidden:  # H29
                assert isinstance(seen, HandStarted)
                sizes = [n if s == seat else HIDDEN_SIZE for s, n in enumerate(event.hand_sizes)]
                assert list(seen.hand_sizes) == sizes
            elif isinstance(event, PickedUp) and event.sizes_hidden:  # H29
                assert isinstance(seen, PickedUp) and seen.cards == event.cards
                picker = seat == event.seat
                assert seen.from_waste == (event.from_waste if picker else HIDDEN_SIZE)
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
    hidden = hand.book.hand_sizes_hidden
    sizes = hand.hand_sizes()
    if hidden:  # H29: nobody, a spectator included, sees another seat's size
        assert spectator.hand_sizes == tuple(0 if hand.out[s] else HIDDEN_SIZE for s in range(n))
    else:
        assert spectator.hand_sizes == sizes
    counted = sum(sizes) + len(spectator.trick) + spectator.waste_size
    assert counted + len(out_of_play) == len(deck)
    public_known = tuple(tuple(sorted(k)) for k in known)
    for seat in range(n):
        view = hand.view(seat)
        assert view.hand == held[seat]
        if hidden:
            assert view.hand_sizes == tuple(
                m if s == seat or hand.out[s] else HIDDEN_SIZE for s, m in enumerate(sizes)
            )
        else:
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
    if hand.rules.out_of_turn is OutOfTurn.PICKUP_PENALTY:  # H26: so is a card out of turn
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

HOUSE_CASES = [
    ("bhabho", 4, {"illegal_play": "challenge", "hand_sizes": "hidden"}),
    ("bhabho", 5, {"illegal_play": "challenge", "false_tochoo_penalty": "pickup_and_lead"}),
    ("discard", 4, {"illegal_play": "challenge", "false_tochoo_penalty": "pickup_and_lead"}),
    ("donkey", 4, {"illegal_play": "challenge", "hand_sizes": "hidden"}),
    ("whole-pile", 4, {"out_of_turn": "pickup_penalty", "hand_sizes": "hidden"}),
    ("bhabho", 4, {"out_of_turn": "pickup_penalty"}),
]
"""House variants (H25, H26, H29) played under the same checks as the bundled rulesets."""


@pytest.mark.parametrize(("rule_id", "players", "overrides"), HOUSE_CASES)
@FAST
@given(deal_seed=SEEDS, play_seed=SEEDS)
def test_the_house_rules_keep_the_properties_during_random_play(
    rule_id: str, players: int, overrides: dict[str, str], deal_seed: int, play_seed: int
) -> None:
    play_checked(variant(rule_id, **overrides), players, deal_seed, play_seed)


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
    if outcome.termination in (
        Termination.LAST_PLAYER,
        Termination.TWO_LEFT_PICKUP,
        Termination.SHOOTOUT,  # H17: the other player of the two went out
    ):
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


# --- the house rules of the first trick, the trick and the lead (H5, H6, H9, H10, H12) ------

TRICK_RULES: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("first_trick", "void_plays"), ("any", "highest")),
    (("first_lead", "leads"), ("the_card", "any_card")),
    (("off_suit", "play"), ("pickup", "discard", "tochoo", "tochoo_plays_on")),
    (("next_leader", "after_pickup"), ("picker", "highest", "lowest", "tochoo_player")),
    (("next_leader", "if_out"), ("next_in_turn", "draws_from_waste", "next_highest")),
    (("trump",), ("none", "first_off_suit_card", "fixed", "dealer_choice")),
)
"""Every value of the options these house rules add to or extend (a fixed trump is spades)."""
TRICK_BASES = ("pickup", "bhabho")
TRICK_MAX_TRICKS = 60
"""The bound these combinations play to: small, since under H10 and the pick-up rules a dead
hand is left to it (the dead-position search is off for H10)."""


@functools.cache
def trick_rule_variants(base_id: str) -> tuple[tuple[str, Ruleset], ...]:
    """Every combination of ``TRICK_RULES`` on ``base_id`` that ``rules validate`` accepts."""
    base = load_rules(base_id).source
    found = []
    for values in itertools.product(*(v for _, v in TRICK_RULES)):
        data: dict[str, Any] = copy.deepcopy(dict(base))
        for (path, _), value in zip(TRICK_RULES, values, strict=True):
            node = data
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value
        if data["trump"] == "fixed":
            data["trump_suit"] = "S"
        data["end"]["max_tricks"] = TRICK_MAX_TRICKS
        data["id"] = "house-tricks"
        if validate(data):
            continue
        label = ",".join(values)
        found.append((label, Ruleset.from_mapping(data)))
    return tuple(found)


@pytest.mark.parametrize("base_id", TRICK_BASES)
def test_every_valid_combination_of_the_trick_house_rules_plays_to_the_end(base_id: str) -> None:
    variants = trick_rule_variants(base_id)
    assert len(variants) > 200  # most of the 768 combinations are valid
    for number, (label, rules) in enumerate(variants):
        players = 3 + number % 4
        hand = Hand(rules, players, seed=number, dealer=number % players, record=False)
        rng = random.Random(number)
        bound = TRICK_MAX_TRICKS * players + players
        actions = 0
        while not hand.is_over:
            assert actions < bound, f"{label}: not over after {bound} actions"
            seat = hand.to_move
            assert seat is not None, label
            hand.apply(seat, rng.choice(list(hand.legal_actions(seat))))
            actions += 1
            assert hand.card_total() == len(rules.deck.cards()), label
        assert hand.trick_number <= TRICK_MAX_TRICKS, label


@pytest.mark.parametrize("base_id", TRICK_BASES)
@FAST
@given(
    index=st.integers(min_value=0),
    deal_seed=SEEDS,
    play_seed=SEEDS,
    players=st.sampled_from([3, 4, 5]),
)
def test_trick_house_rules_keep_cards_legality_and_privacy(
    base_id: str, index: int, deal_seed: int, play_seed: int, players: int
) -> None:
    variants = trick_rule_variants(base_id)
    _, rules = variants[index % len(variants)]
    play_checked(rules, players, deal_seed, play_seed)


# --- the house rules of the power and of two players left (H14-H19) ------------------------

POWER_OPTIONS: dict[str, dict[str, list[object]]] = {
    "next_leader": {
        "if_out": ["draws_from_waste", "draws_from_player"],
        "draw_from": ["next_active", "chosen"],
        "draw_pile": ["waste", "waste_and_trick"],
        "draw": ["random", "top"],
    },
    "end": {
        "shootout": ["none", "after_waste_draw", "any_last_card"],
        "two_left_tochoo_wins": [False, True],
        "two_left_power_escapes": [False, True],
        "two_left_pickup_loses": [False, True],
    },
}


def _power_variant(seed: int) -> tuple[dict[str, dict[str, object]], Ruleset]:
    """A random combination of H14-H19 (and X2) on Bhabho that ``rules validate`` accepts:
    the options of a draw only where that draw is made."""
    rng = random.Random(seed)
    chosen = {
        key: {name: rng.choice(values) for name, values in options.items()}
        for key, options in POWER_OPTIONS.items()
    }
    lead = chosen["next_leader"]
    if lead["if_out"] == "draws_from_player":
        lead["draw_pile"], lead["draw"] = "waste", "random"
    else:
        lead["draw_from"] = "next_active"
    return chosen, variant("bhabho", **chosen)


POWER_VARIANTS = [(seed, players) for seed in range(12) for players in (3, 4, 5)]


@pytest.mark.parametrize(("seed", "players"), POWER_VARIANTS)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal_seed=SEEDS, play_seed=SEEDS)
def test_power_house_rules_in_random_combinations(
    seed: int, players: int, deal_seed: int, play_seed: int
) -> None:
    options, rules = _power_variant(seed)
    text = yaml.safe_dump(dict(rules.source), sort_keys=False)
    _, problems = resolve_text(text, "<variant>")
    assert problems == [], (options, [str(p) for p in problems])
    hand = play_checked(rules, players, deal_seed, play_seed)
    assert hand.trick_number <= rules.end.max_tricks
    outcome = hand.outcome
    assert outcome is not None
    left = [s for s in range(players) if not hand.out[s]]
    if outcome.termination in (Termination.SHOOTOUT, Termination.TWO_LEFT_TOCHOO):
        assert left == [outcome.bhabhi] and len(hand.out_order) == players - 1
    elif outcome.termination in (Termination.LAST_PLAYER, Termination.TWO_LEFT_PICKUP):
        assert left == [outcome.bhabhi]
    # the same seeds and the recorded draws give the same game
    replay = Hand(rules, players, deal=hand.deal, draws=hand.draws_made)
    for seat, action in hand.history:
        replay.apply(seat, action)
    assert replay.events is not None and hand.events is not None
    assert [e.to_dict() for e in replay.events] == [e.to_dict() for e in hand.events]


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
