"""One small record per hand: everything the figures need, and nothing else.

A hand is played as ``referee.sim.runner`` plays the hands of ``bhabhi simulate`` (the same
seeds, dealers and bots, so hand ``i`` of an analysis is hand ``i`` of a simulation), but
its course is kept too: with a random bot on every seat and rules the fast playout plays,
from ``random_playout``'s trace; otherwise from ``Hand``'s events and a look at every
seat's hand after each trick (``play_hand``'s observer).  Both give the same *points*: the
position after the deal, then after each trick, as every seat's hand (a bitmask), from
which ``course`` reads who went out and who held the most cards.  ``HandRecord`` is a
NamedTuple of numbers, cheap to send back from a worker process.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import NamedTuple

from referee.engine.components import RuleBook
from referee.engine.hand import Hand
from referee.engine.playout import (
    TAKE_HAND_CODE,
    TRICK_PICKUP,
    TRICK_TOCHOO,
    TraceEntry,
    random_playout,
)
from referee.engine.shuffle import hand_seed
from referee.engine.types import (
    CardPlayed,
    HandStarted,
    HandTaken,
    PickedUp,
    TrickEnded,
    WasteDrawn,
)
from referee.ruleset.model import Ruleset
from referee.sim.play import bots_rng, play_hand
from referee.sim.runner import all_random, dealer_of, make_bot


class HandRecord(NamedTuple):
    """What the analysis keeps of one hand."""

    termination: str
    """``Termination`` as text: last_player, all_out, ..., max_tricks, dead_position."""
    bhabhi: int | None
    """The losing seat, None when the hand had no Bhabhi."""
    dealer: int
    tricks: int
    actions: int
    cards_played: int
    """Actions that played a card (leads, follows, discards, tochoos): the pace counts these."""
    pickups: int
    """Tricks picked up (P1, or B6 after a tochoo), as ``bhabhi simulate`` counts them."""
    tochoos: int
    """Off-suit cards played as a tochoo (B4)."""
    waste_draws: int
    """Cards drawn from the waste pile by a player with the power and no card (B8)."""
    hands_taken: int
    """Hands taken (B9)."""
    lead_holder: int
    """The seat dealt the first lead card (C6: the Ace of spades), who leads the first trick."""
    dealt: tuple[int, ...]
    """Cards dealt to each seat."""
    outs: tuple[int, ...]
    """For each trick on which somebody went out (emptied their hand), in order, how many
    did (an all-out Bhabhi, C11, included)."""
    lead_changes: int
    """Tricks led by another player than the trick before."""
    decisive: int | None
    """The decisiveness point, None without a Bhabhi: the first point (0 = after the deal,
    ``t`` = after trick ``t``; the hand has ``tricks + 1`` points) from which the Bhabhi
    held strictly more cards than anyone else at every later point; ``tricks`` when that
    was not so even at the last point (the result was known only when the hand ended)."""


def hand_records(
    rules: Ruleset, players: int, seed: bytes, bots: tuple[str, ...]
) -> Callable[[int], HandRecord]:
    """The runner's recorder (``referee.sim.runner``): hand ``index`` played and recorded."""
    book = RuleBook.of(rules)
    if all_random(bots) and book.fast_playout:
        return lambda index: _from_playout(book, players, seed, index, rules)

    def checked(index: int) -> HandRecord:
        dealer = dealer_of(rules, players, index)
        hand = Hand(rules, players, seed=hand_seed(seed, index), dealer=dealer, record=True)
        seats = [make_bot(name, rules) for name in bots]  # fresh per hand: bots may remember
        points = [list(hand.hands)]

        def observe(played: Hand) -> None:
            if played.trick_number == len(points):  # a trick has just ended
                points.append(list(played.hands))

        play_hand(hand, seats, bots_rng(seed, index), observe=observe)
        return record_of_hand(hand, points)

    return checked


def _from_playout(
    book: RuleBook, players: int, seed: bytes, index: int, rules: Ruleset
) -> HandRecord:
    dealer = dealer_of(rules, players, index)
    trace: list[TraceEntry] = []
    result = random_playout(book, players, hand_seed(seed, index), dealer, trace=trace)
    outcome = result.outcome
    tricks = trace[1:]
    picked = tochoos = 0
    for entry in tricks:
        if entry[1] == TRICK_PICKUP:
            picked += 1
        elif entry[1] == TRICK_TOCHOO:
            tochoos += 1
    taken = 0
    if book.take_hand:
        taken = sum(1 for _, code in result.actions if code == TAKE_HAND_CODE)
    points = [entry[3] for entry in trace]
    outs, changes, decisive = course(
        points, [entry[0] for entry in tricks], [entry[2] for entry in tricks], outcome.bhabhi
    )
    return HandRecord(
        str(outcome.termination),
        outcome.bhabhi,
        dealer,
        result.tricks,
        result.action_count,
        result.action_count - picked - taken,  # P1 pickups and takes play no card
        result.pickups,
        tochoos,
        len(result.draws),
        taken,
        trace[0][0],
        tuple(hand.bit_count() for hand in points[0]),
        outs,
        changes,
        decisive,
    )


def record_of_hand(hand: Hand, points: Sequence[Sequence[int]]) -> HandRecord:
    """The record of a finished ``hand`` (played with ``record=True``), given its points:
    every seat's hand (``Hand.hands``) after the deal and after each trick."""
    assert hand.outcome is not None and hand.events is not None, "a finished, recorded hand"
    leaders: list[int] = []
    takes: list[int] = []
    lead_holder = -1
    cards = pickups = tochoos = draws = taken = pending = 0
    for event in hand.events:
        if isinstance(event, CardPlayed):
            cards += 1
            if event.role == "lead":
                leaders.append(event.seat)
            elif event.role == "tochoo":
                tochoos += 1
        elif isinstance(event, TrickEnded):
            takes.append(pending)
            pending = 0
        elif isinstance(event, PickedUp):
            pickups += 1
        elif isinstance(event, WasteDrawn):
            draws += 1
        elif isinstance(event, HandTaken):
            taken += 1
            pending += 1
        elif isinstance(event, HandStarted):
            lead_holder = event.leader
    outcome = hand.outcome
    outs, changes, decisive = course(points, leaders, takes, outcome.bhabhi)
    return HandRecord(
        str(outcome.termination),
        outcome.bhabhi,
        hand.dealer,
        hand.trick_number,
        len(hand.history),
        cards,
        pickups,
        tochoos,
        draws,
        taken,
        lead_holder,
        tuple(len(cards_dealt) for cards_dealt in hand.deal),
        outs,
        changes,
        decisive,
    )


def course(
    points: Sequence[Sequence[int]],
    leaders: Sequence[int],
    takes: Sequence[int],
    bhabhi: int | None,
) -> tuple[tuple[int, ...], int, int | None]:
    """(outs, lead changes, decisiveness point) from a hand's points, the leader of each
    trick and the hands taken before each trick (``HandRecord`` says what each means).

    A seat is out once its hand is empty, and never comes back: the seats that went out on
    trick ``t`` are the empty hands at point ``t + 1`` that were not empty at point ``t``,
    less the hands taken before the trick (each take empties one hand)."""
    outs: list[int] = []
    empty_before = list(points[0]).count(0)
    for point, taken in zip(points[1:], takes, strict=True):
        empty = list(point).count(0)
        went = empty - empty_before - taken
        if went > 0:
            outs.append(went)
        empty_before = empty
    changes = sum(1 for before, now in pairwise(leaders) if before != now)
    if bhabhi is None:
        return tuple(outs), changes, None
    last = len(points) - 1
    decisive = last
    for at in range(last, -1, -1):
        sizes = [hand.bit_count() for hand in points[at]]
        own = sizes[bhabhi]
        sizes[bhabhi] = -1
        if own <= max(sizes):
            break
        decisive = at
    return tuple(outs), changes, decisive
