"""Bots that play one fixed line and are random otherwise: the degenerate lines an analysis
measures against random players (``bhabhi analyze``'s ``lines``).

Each follows the ``Bot`` protocol of ``referee.sim.bots``: it sees only its ``SeatView``.
Where its line says nothing it plays as ``RandomBot`` does, so that a difference in its
Bhabhi rate from a random player's is the line's doing.
"""

from __future__ import annotations

import random

from referee.cards import Card
from referee.engine.components import RuleBook
from referee.engine.hand import SeatView
from referee.engine.types import PASS, Action, ActionKind
from referee.ruleset.model import Ruleset
from referee.sim.bots import RandomBot


def _takes(view: SeatView) -> list[Action]:
    return [a for a in view.legal_actions if a.kind is ActionKind.TAKE_HAND]


class AlwaysTakeBot:
    """B9: takes a hand whenever it may (the first offered where it chooses whose, H23);
    otherwise random."""

    def __init__(self) -> None:
        self._random = RandomBot()

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        takes = _takes(view)
        if takes:
            return takes[0]
        return self._random.choose(view, rng)


class NeverTakeBot:
    """B9: never takes a hand (declines, or passes in a take pass, H22); otherwise random
    over the other legal actions."""

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        legal = [a for a in view.legal_actions if a.kind is not ActionKind.TAKE_HAND]
        if view.turn != view.seat:
            optional = [a for a in legal if a.kind is not ActionKind.PASS]
            if not optional or rng.random() * (len(view.hand) + 1) >= 1.0:
                return None  # as RandomBot declines an optional action (H25)
            return optional[rng.randrange(len(optional))]
        if PASS in view.legal_actions:
            return PASS
        if not legal:
            return None
        return legal[rng.randrange(len(legal))]


class LongestSuitBot:
    """Leads a card of the suit it holds most of (of those it may lead; a random card of
    it), whenever it leads; otherwise random."""

    def __init__(self, rules: Ruleset | RuleBook) -> None:
        self.book = rules if isinstance(rules, RuleBook) else RuleBook.of(rules)
        self._random = RandomBot()

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        if view.turn != view.seat or view.trick:
            return self._random.choose(view, rng)
        cards: list[Card] = [
            a.card for a in view.legal_actions if a.kind is ActionKind.PLAY and a.card is not None
        ]
        if not cards:
            return self._random.choose(view, rng)
        suit = self.book.suit
        held = [0, 0, 0, 0]
        for card in view.hand:
            held[suit[card]] += 1
        longest = max(held[suit[c]] for c in cards)
        choice = [c for c in cards if held[suit[c]] == longest]
        return Action.play(choice[rng.randrange(len(choice))])
