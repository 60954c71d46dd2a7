"""The strong bot: determinized Monte Carlo search over the hidden cards (docs/bots.md).

A seat cannot see the other hands, so it cannot search the game tree itself.  It searches
many possible worlds instead: it keeps a ``Shadow`` (a ``Hand`` at the table's public
position whose hidden cards are one guess consistent with everything the seat has seen),
draws from it fresh *determinizations* (the hidden cards dealt afresh among the other
seats, each keeping its hand size, the cards everyone saw it pick up, and the voids it
showed: ``referee.engine.determinize``), and in each world plays every legal move of its
own followed by a playout to the end of the hand (random leads, greedy follows:
``play_on``).  The move whose playouts make it the Bhabhi least often is played, of those
the one that gets it away soonest.  Every move is tried in the same worlds with the same
playout generator, so that the comparison between moves is not drowned by the luck of the
worlds (common random numbers).

This is flat Monte Carlo over determinizations ("perfect information Monte Carlo": Ginsberg
2001, GIB; Long, Sturtevant, Buro and Furtak 2010 on why it works in trick-taking games
whose information is revealed quickly, as here, where every card is played face up).  The
bot knows the rules (they are public) and nothing else: the shadow is built from its own
cards and the public actions alone (``begin``, ``observe``), never from the real ``Hand``.

Budget: ``playouts`` worlds per decision at most (each world plays every candidate move
once), and ``think`` seconds at most when given; with ``think`` None the bot is a function
of its inputs and its generator, which the tests and the bench rely on.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from referee.cards import Card, mask_of
from referee.engine.components import dealt_deck
from referee.engine.determinize import determinize
from referee.engine.hand import Hand, SeatView
from referee.engine.playout import random_playout_from
from referee.engine.types import Action, EngineError, Outcome, Verdict
from referee.ruleset.model import Ruleset
from referee.sim.bots import HeuristicBot
from referee.sim.lines import NeverTakeBot
from referee.sim.play import play_hand

DEFAULT_PLAYOUTS = 200
"""Worlds per decision unless told: in 3-player Bhabho about 0.1 s a move on this machine."""


def loses(outcome: Outcome, seat: int) -> bool:
    """The seat is the Bhabhi, or in the Bhabhi's partnership (V2)."""
    if outcome.losing_team is not None:
        return seat in outcome.losing_team
    return outcome.bhabhi == seat


def place(outcome: Outcome, seat: int) -> int:
    """How soon the seat got away (0 first); every seat still in at the end, the Bhabhi
    among them, after the last who got away."""
    order = outcome.out_order
    return order.index(seat) if seat in order else len(order)


def play_on(hand: Hand, rng: random.Random, *, greedy: bool = True) -> Outcome:
    """The end of ``hand`` (a copy of its position, which is not changed) under play in
    which nobody takes a hand (``random_playout_from``'s ``taking``) and, with ``greedy``,
    everyone follows by rule of thumb (its ``greedy``): the fast playout where the rules
    allow it, else ``play_hand`` with random bots that never take."""
    if hand.book.fast_playout:
        return random_playout_from(hand, rng, taking=False, greedy=greedy).outcome
    world = play_hand(hand.copy(record=False), [NeverTakeBot()] * hand.players, rng)
    assert world.outcome is not None
    return world.outcome


class ShadowLost(Exception):
    """The public actions could not be made consistent with any guess of the hidden cards
    (a rule the repair does not know): the bot plays on without searching."""


@dataclass
class Shadow:
    """A ``Hand`` at the table's public position, seen by ``seat``: its own cards are the
    real ones, the other seats' a guess that every public action so far was legal with."""

    hand: Hand
    seat: int
    rng: random.Random

    @classmethod
    def begin(cls, rules: Ruleset, view: SeatView, rng: random.Random) -> Shadow:
        """The shadow of a hand just dealt, from the seat's view before any action."""
        assert view.seat is not None and view.leader is not None
        return cls.dealt(rules, view.players, view.seat, view.dealer, view.hand, view.leader, rng)

    @classmethod
    def dealt(
        cls,
        rules: Ruleset,
        players: int,
        seat: int,
        dealer: int,
        cards: Sequence[Card],
        leader: int,
        rng: random.Random,
    ) -> Shadow:
        """The shadow of a hand just dealt: the seat's own cards, the dealer, and (the rules
        being public) how many cards each seat was dealt; the first lead card (C6), whose
        holder leads, is given to the seat that leads (``leader``, as the table said)."""
        probe = Hand(rules, players, seed=b"shadow", dealer=dealer, record=False)
        sizes = probe.hand_sizes()
        own = mask_of(cards)
        unseen = mask_of(dealt_deck(probe.book, players)) & ~own
        for _ in range(32):
            deal = _deal_guess(sizes, seat, own, unseen, leader, probe, rng)
            hand = Hand(rules, players, deal=deal, dealer=dealer, draws=())
            if hand.leader == leader:
                return cls(hand, seat, rng)
        raise ShadowLost("no deal guess gives the table's first leader")

    def observe(
        self, seat: int, action: Action, drawn: Sequence[Card] = (), view: SeatView | None = None
    ) -> None:
        """Apply a public action, first making the guess agree with it where it does not:
        the card played is moved into the player's hand, or the suit a player showed void
        in out of it (``determinize``'s ``holding`` and ``void_in``).  ``drawn``: the cards
        the action made this seat draw (B8, H14), which it saw; another seat's draw is
        guessed, and put right when the drawer leads it.  ``view``: this seat's view after
        the action, whose own cards the guess takes where they differ (a hand it took)."""
        hand = self.hand
        if drawn:
            hand.set_draws(drawn)
        holding: dict[int, int] = {}
        void_in: dict[int, int] = {}
        for _ in range(REPAIRS):
            judgement = hand.judge(seat, action)
            if judgement.verdict is not Verdict.REFUSED:
                self.hand = self._applied(hand, seat, action, view, holding, void_in, drawn)
                return
            if not _prove(hand, seat, action, holding, void_in):
                break
            try:
                hand = self._guess(hand, drawn, holding, void_in)
            except EngineError:
                break
            self.hand = hand
        raise ShadowLost(f"seat {seat}'s {action} cannot be made legal in any guess")

    def _applied(
        self,
        hand: Hand,
        seat: int,
        action: Action,
        view: SeatView | None,
        holding: dict[int, int],
        void_in: dict[int, int],
        drawn: Sequence[Card],
    ) -> Hand:
        """``hand`` after the (legal) action, agreeing with what the seat saw of it.

        Where the outcome of an action depends on hidden cards (H25: whether a challenged
        tochoo was false), the guess may show another outcome than the table did; then
        guesses are drawn afresh until one shows what the table showed.  Last, the seat's
        own cards are taken as they are (a hand it took, B9, it has seen)."""
        before = hand.copy(record=False)
        hand.apply(seat, action)
        if view is None:
            return hand
        seen = _public(view)
        for _ in range(RESAMPLES):
            if _public(hand.view(self.seat)) == seen:
                break
            try:
                hand = self._guess(before, drawn, holding, void_in)
            except EngineError:
                continue
            if hand.judge(seat, action).verdict is Verdict.REFUSED:
                continue
            hand.apply(seat, action)
        if _public(hand.view(self.seat)) != seen:
            raise ShadowLost(f"no guess shows what the table showed after seat {seat}'s {action}")
        own = mask_of(view.hand)
        if own != hand.hands[self.seat]:
            try:
                hand = determinize(hand, self.seat, self.rng, own=own)
            except EngineError as error:
                raise ShadowLost(f"the guess cannot hold the seat's own cards: {error}") from None
        return hand

    def _guess(
        self,
        hand: Hand,
        drawn: Sequence[Card],
        holding: dict[int, int],
        void_in: dict[int, int],
    ) -> Hand:
        """A fresh guess of ``hand``'s hidden cards that also shows what an action proved,
        about to draw the cards this seat saw drawn."""
        guess = determinize(hand, self.seat, self.rng, holding=holding, void_in=void_in)
        if drawn:
            guess.set_draws(drawn)
        return guess


REPAIRS = 4
"""Guesses made again for one action before the shadow is given up (one always does)."""
RESAMPLES = 64
"""Guesses drawn for an action whose outcome depends on hidden cards."""


def _public(view: SeatView) -> SeatView:
    """What a view shows of the table besides the seat's own cards and choices."""
    return dataclasses.replace(view, hand=(), legal_actions=())


def _prove(
    hand: Hand, seat: int, action: Action, holding: dict[int, int], void_in: dict[int, int]
) -> bool:
    """Add to ``holding`` or ``void_in`` what the action, which the table accepted, proves
    and the guess does not show: the seat held the card it played, or (playing off the led
    suit, picking up) held none of the led suit.  False when it proves nothing more."""
    if action.card is not None and not hand.hands[seat] >> action.card & 1:
        holding[seat] = holding.get(seat, 0) | 1 << action.card
        return True
    if hand.led_suit >= 0 and hand.hands[seat] & hand.book.suit_masks[hand.led_suit]:
        void_in[seat] = void_in.get(seat, 0) | 1 << hand.led_suit
        return True
    return False


def _deal_guess(
    sizes: Sequence[int],
    seat: int,
    own: int,
    unseen: int,
    leader: int | None,
    probe: Hand,
    rng: random.Random,
) -> list[list[Card]]:
    cards = [c for c in range(unseen.bit_length()) if unseen >> c & 1]
    rng.shuffle(cards)
    lead_card = probe.book.first_lead_card
    if leader is not None and leader != seat and lead_card in cards:
        cards.remove(lead_card)
        cards.insert(0, lead_card)
    deal: list[list[Card]] = [[] for _ in sizes]
    deal[seat] = [c for c in range(own.bit_length()) if own >> c & 1]
    order = [s for s in range(len(sizes)) if s != seat]
    if leader is not None and leader in order:  # the lead card goes to the leader first
        order.remove(leader)
        order.insert(0, leader)
    at = 0
    for other in order:
        deal[other] = cards[at : at + sizes[other]]
        at += sizes[other]
    return deal


@dataclass
class StrongBot:
    """``referee.sim.bots.Bot`` that searches (module docstring); a ``Watcher`` too: the
    table tells it each hand's start and every public action."""

    rules: Ruleset
    playouts: int = DEFAULT_PLAYOUTS
    think: float | None = None
    """Seconds a decision may take at most (None: only ``playouts`` bounds it)."""
    greedy: bool = True
    """Playouts in which the others follow by rule of thumb (``play_on``), not at random."""
    shadow: Shadow | None = field(default=None, init=False)
    searched: int = field(default=0, init=False)
    """Worlds played in the last decision (for the bench and tests)."""

    def __post_init__(self) -> None:
        self._fallback = HeuristicBot(self.rules)

    def begin(self, view: SeatView, rng: random.Random) -> None:
        try:
            self.shadow = Shadow.begin(self.rules, view, random.Random(rng.random()))
        except ShadowLost:
            self.shadow = None

    def observe(
        self, seat: int, action: Action, drawn: Sequence[Card] = (), view: SeatView | None = None
    ) -> None:
        if self.shadow is None:
            return
        try:
            self.shadow.observe(seat, action, drawn, view)
        except ShadowLost:
            self.shadow = None

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        return self.search(view, rng, self.think)

    def search(self, view: SeatView, rng: random.Random, think: float | None) -> Action | None:
        """The decision for ``view`` within ``think`` seconds (None: ``playouts`` worlds,
        however long they take): the client's strong strategy gives the table's clock."""
        legal = list(view.legal_actions)
        optional = view.turn != view.seat
        candidates: list[Action | None] = [*legal, None] if optional else list(legal)
        if len(candidates) <= 1 or self.shadow is None:
            return self._fallback.choose(view, rng) if self.shadow is None else candidates[0]
        seat = view.seat
        assert seat is not None
        losses = [0] * len(candidates)
        places = [0] * len(candidates)
        deadline = None if think is None else time.perf_counter() + think
        worlds = 0
        while worlds < self.playouts:
            world = determinize(self.shadow.hand, seat, rng)
            playout_seed = rng.random()
            for index, candidate in enumerate(candidates):
                trial = world.copy(record=False)
                if candidate is not None:
                    trial.apply(seat, candidate)
                outcome = trial.outcome or play_on(
                    trial, random.Random(playout_seed), greedy=self.greedy
                )
                losses[index] += loses(outcome, seat)
                places[index] += place(outcome, seat)
            worlds += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.searched = worlds
        best = min(range(len(candidates)), key=lambda i: (losses[i], places[i], i))
        return candidates[best]


__all__ = ["DEFAULT_PLAYOUTS", "Shadow", "ShadowLost", "StrongBot", "loses", "play_on"]
