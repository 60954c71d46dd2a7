"""The strong bot (referee.sim.strong): its shadow follows the public actions of every
bundled ruleset to the end of the hand without ever seeing the real hand, its decisions are
legal and reproducible, and it plays better than the heuristic bot."""

from __future__ import annotations

import random

import pytest

from referee.engine.hand import Hand
from referee.engine.shuffle import hand_seed
from referee.ruleset.loader import bundled_ruleset_paths, load_ruleset
from referee.sim.bots import Bot, HeuristicBot, RandomBot
from referee.sim.play import bots_rng, play_hand
from referee.sim.runner import dealer_of
from referee.sim.strong import Shadow, StrongBot, loses

BUNDLED = sorted(bundled_ruleset_paths())


class _Follower(RandomBot):
    """A random player that keeps a shadow of its seat, to check it against the hand."""

    def __init__(self, rules_id: str) -> None:
        self.rules = load_ruleset(rules_id)
        self.shadow: Shadow | None = None
        self.seat = -1

    def begin(self, view, rng):  # type: ignore[no-untyped-def]
        self.seat = view.seat
        self.shadow = Shadow.begin(self.rules, view, random.Random(7))

    def observe(self, seat, action, drawn, view):  # type: ignore[no-untyped-def]
        assert self.shadow is not None
        self.shadow.observe(seat, action, drawn, view)


@pytest.mark.parametrize("rules_id", BUNDLED)
def test_the_shadow_follows_every_hand_to_its_end(rules_id: str) -> None:
    """At every step the shadow's view of its seat is the real one: the same sizes, trick,
    waste pile, players out, known cards and voids, and the same own cards and legal
    actions; its other hidden cards are a guess."""
    rules = load_ruleset(rules_id)
    players = [
        n for n in range(rules.players.min, rules.players.max + 1) if rules.players.allows(n)
    ]
    for n in players[:3]:
        for index in range(4):
            _follow(rules_id, n, index)


def _follow(rules_id: str, players: int, index: int) -> None:
    rules = load_ruleset(rules_id)
    dealer = dealer_of(rules, players, index)
    hand = Hand(rules, players, seed=hand_seed(b"shadow", index), dealer=dealer)
    followers = [_Follower(rules_id) for _ in range(players)]

    def check(real: Hand) -> None:
        for follower in followers:
            shadow = follower.shadow
            assert shadow is not None
            mine, theirs = real.view(follower.seat), shadow.hand.view(follower.seat)
            assert theirs == mine, (rules_id, players, index)

    play_hand(hand, followers, bots_rng(b"shadow", index), observe=check)
    for follower in followers:
        assert follower.shadow is not None
        assert follower.shadow.hand.outcome == hand.outcome


def test_the_strong_bot_is_reproducible_and_legal() -> None:
    rules = load_ruleset("bhabho")
    outcomes = []
    for _ in range(2):
        hand = Hand(rules, 3, seed=b"strong", dealer=0)
        bots: list[Bot] = [StrongBot(rules, playouts=30), HeuristicBot(rules), HeuristicBot(rules)]
        play_hand(hand, bots, random.Random(3))
        outcomes.append((hand.outcome, tuple(hand.history)))
    assert outcomes[0] == outcomes[1]


def test_the_strong_bot_loses_less_than_a_heuristic_bot() -> None:
    """Duplicate deals: each deal played with the strong bot in each seat against two
    heuristic bots, and with a heuristic bot in the same seat instead, so that the cards
    favour neither."""
    rules = load_ruleset("bhabho")
    strong = heuristic = 0
    deals = 8
    for index in range(deals):
        for seat in range(3):
            for kind in ("strong", "heuristic"):
                hand = Hand(rules, 3, seed=hand_seed(b"duel", index), dealer=index % 3)
                bots: list[Bot] = [HeuristicBot(rules) for _ in range(3)]
                if kind == "strong":
                    bots[seat] = StrongBot(rules, playouts=100)
                play_hand(hand, bots, random.Random(index * 7 + seat))
                assert hand.outcome is not None
                lost = loses(hand.outcome, seat)
                if kind == "strong":
                    strong += lost
                else:
                    heuristic += lost
    assert strong < heuristic, (strong, heuristic)
