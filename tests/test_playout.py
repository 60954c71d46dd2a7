"""The fast random playout plays exactly the game ``Hand`` would.

Every action list ``random_playout`` returns is replayed through ``Hand.apply``, which checks
each action, and the two must agree on the outcome, the number of tricks, the B8 draws and
the pickups.  Bundled rulesets at every player count they allow, and variants that reach the
options no bundled ruleset uses.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from referee.engine.components import RuleBook
from referee.engine.hand import Hand
from referee.engine.playout import (
    PICK_UP_CODE,
    TAKE_HAND_CODE,
    PlayoutResult,
    action_of,
    random_playout,
)
from referee.engine.shuffle import hand_seed
from referee.engine.types import PICK_UP, TAKE_HAND, Action, EngineError, PickedUp, Termination
from referee.ruleset.loader import bundled_ruleset_paths, load_ruleset, load_ruleset_text
from referee.ruleset.model import Ruleset

SEEDS = 24
"""Hands per (ruleset, player count); the whole-pile rules make each replay slow."""

VARIANTS: dict[str, str] = {
    # B9 open points and X1.
    "take-one-next-in-turn": "extends: bhabho\ntake_hand: {per_trick: one, "
    "lead_passes_to: next_in_turn}",
    "take-from-right": "extends: bhabho\ntake_hand: {from: right}",
    "take-own-turn-one": "extends: bhabho-own-turn\ntake_hand: {per_trick: one}",
    # B8 with an empty waste pile; C11 choices; a short bound.
    "waste-empty-goes-out": "extends: bhabho\ntake_hand: {when: never}\n"
    "next_leader: {if_waste_empty: goes_out}",
    # A tiny pack: B8 with an empty waste pile early, and hands that end before they start.
    "tiny-goes-out": "extends: bhabho\ndeck: {ranks: [J, Q, K, A]}\ntake_hand: {when: never}\n"
    "first_trick: {off_suit: as_other_tricks}\nnext_leader: {if_waste_empty: goes_out}",
    "tiny-draws-from-trick": "extends: bhabho\ndeck: {ranks: [Q, K, A]}\n"
    "first_trick: {off_suit: as_other_tricks, next_leader: as_other_tricks}",
    "bhabho-short-bound": "extends: bhabho\ntake_hand: {when: never}\n"
    "end: {max_tricks: 12, at_max_tricks: no_bhabhi}",
    "discard-last-to-play": "extends: discard\nend: {all_out_together: last_to_play}",
    "discard-trick-winner": "extends: discard\nend: {all_out_together: trick_winner}",
    # B6 alternative, V1 after a pickup, X3 on pick-up rules, V4 with the highest leading.
    "tochoo-by-player": "extends: bhabho\noff_suit: {tochoo_picked_up_by: tochoo_player}",
    "pickup-lowest-leads": "extends: pickup\nnext_leader: {after_pickup: lowest}",
    "pickup-first-trick-discards": "extends: pickup\nfirst_trick: {off_suit: discard, "
    "next_leader: first_leader}",
    "whole-pile-highest": "extends: whole-pile\nnext_leader: {after_pickup: highest}\n"
    "end: {max_tricks: 300, at_max_tricks: no_bhabhi, at_dead_position: no_bhabhi}",
    "pickup-penalty": "extends: pickup\nillegal_play: pickup_penalty\ndirection: clockwise",
    "pickup-two-left": "extends: pickup\nend: {two_left_pickup_loses: true}",
    # X4 and a short pack.
    "two-packs-last-played": "extends: two-packs\ndeck: {identical_cards: last_played}",
    "short-pack": 'extends: bhabho\ndeck: {ranks: ["8", "9", "10", J, Q, K, A]}',
    "short-pack-ace-low": 'extends: ace-low\ndeck: {ranks: ["2", "3", "4", "5", "6", "7", A]}',
}


@cache
def _variant(name: str) -> Ruleset:
    return load_ruleset_text(f"id: {name}\n{VARIANTS[name]}\n", f"{name}.yaml")


def rules_of(ref: str) -> Ruleset:
    """A bundled ruleset by id, or ``v:NAME`` for one of ``VARIANTS`` (shared with
    ``test_playout_from.py``)."""
    return _variant(ref[2:]) if ref.startswith("v:") else load_ruleset(ref)


def fast_cases() -> list[tuple[str, int]]:
    """Every (ruleset, player count) the fast playout plays, ``VARIANTS`` too (shared with
    ``test_playout_from.py``); a bundled ruleset with a house rule it does not know
    (pagat-getaway: H17, H25, H26) is played through Hand by the simulator instead."""
    refs = [*sorted(bundled_ruleset_paths()), *(f"v:{name}" for name in VARIANTS)]
    cases = []
    for ref in refs:
        if not RuleBook.of(rules_of(ref)).fast_playout:
            continue
        players = rules_of(ref).players
        for count in range(players.min, players.max + 1):
            if players.allows(count):
                cases.append((ref, count))
    return cases


def _replay(rules: Ruleset, players: int, seed: bytes, dealer: int, result: PlayoutResult) -> Hand:
    hand = Hand(rules, players, seed=seed, dealer=dealer, record=True)
    for number, (seat, code) in enumerate(result.actions):
        assert not hand.is_over, f"the hand ended before action {number} ({seat}, {code})"
        hand.apply(seat, action_of(code))  # checked: raises on anything illegal
    return hand


def test_the_bundled_rulesets_the_fast_playout_refuses_are_refused_not_misplayed() -> None:
    for ref in sorted(bundled_ruleset_paths()):
        rules = load_ruleset(ref)
        if RuleBook.of(rules).fast_playout:
            continue
        with pytest.raises(EngineError, match="fast playout does not play"):
            random_playout(rules, rules.players.min, hand_seed(f"playout-{ref}", 0), 0)


@pytest.mark.parametrize(("ref", "players"), fast_cases())
def test_playout_replays_through_hand(ref: str, players: int) -> None:
    rules = rules_of(ref)
    for index in range(SEEDS):
        seed = hand_seed(f"playout-{ref}", index)
        dealer = index % players
        result = random_playout(rules, players, seed, dealer)
        hand = _replay(rules, players, seed, dealer, result)
        where = f"{ref}, {players} players, hand {index}"
        assert hand.is_over, where
        assert hand.outcome == result.outcome, where
        assert hand.trick_number == result.tricks, where
        assert tuple(hand.draws_made) == result.draws, where
        assert hand.events is not None
        assert sum(isinstance(e, PickedUp) for e in hand.events) == result.pickups, where
        assert len(hand.history) == result.action_count, where


def test_variants_reach_the_rare_endings() -> None:
    """The variants are there to reach paths the bundled rulesets do not: check they do."""
    seen: set[Termination] = set()
    for name in ("bhabho-short-bound", "discard-last-to-play", "pickup-two-left"):
        for index in range(SEEDS):
            seen.add(random_playout(_variant(name), 4, hand_seed(name, index), 0).termination)
    assert {Termination.MAX_TRICKS, Termination.ALL_OUT, Termination.TWO_LEFT_PICKUP} <= seen


def test_same_seed_same_result() -> None:
    rules = load_ruleset("bhabho")
    for index in range(10):
        seed = hand_seed(b"again", index)
        first = random_playout(rules, 5, seed, index % 5)
        assert random_playout(rules, 5, seed, index % 5) == first
        assert random_playout(RuleBook.of(rules), 5, seed, index % 5) == first


def test_a_given_generator_is_used_and_still_plays_legally() -> None:
    rules = load_ruleset("pickup")
    seed = hand_seed(b"rng", 0)
    ours = random_playout(rules, 4, seed, 0)
    theirs = random_playout(rules, 4, seed, 0, rng=random.Random(12345))
    assert theirs.actions != ours.actions
    hand = _replay(rules, 4, seed, 0, theirs)
    assert hand.outcome == theirs.outcome


def test_players_the_ruleset_does_not_allow() -> None:
    with pytest.raises(EngineError, match="does not allow 5 players"):
        random_playout(load_ruleset("team"), 5, b"x", 0)


def test_action_codes() -> None:
    assert action_of(PICK_UP_CODE) == PICK_UP
    assert action_of(TAKE_HAND_CODE) == TAKE_HAND
    assert action_of(51) == Action.play("AS")
