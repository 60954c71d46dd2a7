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
from typing import NamedTuple

from referee.engine.components import RuleBook
from referee.engine.hand import Hand
from referee.engine.playout import (
    TAKE_HAND_CODE,
    TRACE_DEAL,
    TRICK_COMPLETE,
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
    picked, tochoos, taken, outs, changes, decisive = course(trace, outcome.bhabhi)
    actions = result.actions
    at = len(actions) - 1
    while at >= 0 and actions[at][1] == TAKE_HAND_CODE:  # B9 takes that ended the hand
        taken += 1
        at -= 1
    return HandRecord(
        str(outcome.termination),
        outcome.bhabhi,
        dealer,
        result.tricks,
        len(actions),
        len(actions) - picked - taken,  # P1 pickups and takes play no card
        result.pickups,
        tochoos,
        len(result.draws),
        taken,
        trace[0][0],
        tuple(map(int.bit_count, trace[0][3])),
        outs,
        changes,
        decisive,
    )


_ENDED = {"complete": TRICK_COMPLETE, "pickup": TRICK_PICKUP, "tochoo": TRICK_TOCHOO}


def record_of_hand(hand: Hand, points: Sequence[list[int]]) -> HandRecord:
    """The record of a finished ``hand`` (played with ``record=True``), given its points:
    every seat's hand (``Hand.hands``) after the deal and after each trick."""
    assert hand.outcome is not None and hand.events is not None, "a finished, recorded hand"
    trace: list[TraceEntry] = []
    leader = lead_holder = -1
    cards = pickups = tochoos = draws = taken = pending = 0
    for event in hand.events:
        if isinstance(event, CardPlayed):
            cards += 1
            if event.role == "lead":
                leader = event.seat
            elif event.role == "tochoo":
                tochoos += 1
        elif isinstance(event, TrickEnded):
            trace.append((leader, _ENDED.get(event.how, TRICK_PICKUP), pending, []))
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
    entries = [(lead_holder, TRACE_DEAL, 0, list(points[0]))]
    entries += [(e[0], e[1], e[2], list(p)) for e, p in zip(trace, points[1:], strict=True)]
    outcome = hand.outcome
    _, _, _, outs, changes, decisive = course(entries, outcome.bhabhi)
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
    trace: Sequence[TraceEntry], bhabhi: int | None
) -> tuple[int, int, int, tuple[int, ...], int, int | None]:
    """From a hand's trace (``random_playout``'s form: the deal, then each trick) and its
    Bhabhi: (P1 pickups, tochoos, hands taken before a trick, outs, lead changes,
    decisiveness point); ``HandRecord`` says what the last three mean.

    A seat is out once its hand is empty, and never comes back: the seats that went out on
    a trick are the hands empty after it that were not before it, less the hands taken
    before it (each take empties one hand)."""
    picked = tochoos = taken = changes = 0
    outs: list[int] = []
    empty_before = trace[0][3].count(0)
    previous = -1
    for leader, ended, takes, hands in trace[1:]:
        if ended == TRICK_PICKUP:
            picked += 1
        elif ended == TRICK_TOCHOO:
            tochoos += 1
        if leader != previous:
            changes += 1
            previous = leader
        taken += takes
        empty = hands.count(0)
        went = empty - empty_before - takes
        if went > 0:
            outs.append(went)
        empty_before = empty
    if changes:
        changes -= 1  # the first trick's lead is no change
    if bhabhi is None:
        return picked, tochoos, taken, tuple(outs), changes, None
    last = len(trace) - 1
    decisive = last
    for at in range(last, -1, -1):
        sizes = list(map(int.bit_count, trace[at][3]))
        own = sizes[bhabhi]
        sizes[bhabhi] = -1
        if own <= max(sizes):
            break
        decisive = at
    return picked, tochoos, taken, tuple(outs), changes, decisive
