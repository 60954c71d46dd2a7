"""An unoptimised, hand-written playout of the Bhabho rules (B1-B8), the benchmark's yardstick.

Written the way anyone would write it first: lists of (rank, suit) tuples, list
comprehensions for the legal cards, ``random.shuffle``.  It knows nothing of rulesets; the
benchmark compares the engine's speed on the same rules against it, in the same run.
"""

from __future__ import annotations

import random

Card = tuple[int, int]


def play_hand(players: int, rng: random.Random) -> int:
    """Play one random hand; return the Bhabhi's seat (or -1)."""
    deck = [(rank, suit) for suit in range(4) for rank in range(13)]
    rng.shuffle(deck)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for i, card in enumerate(deck):
        hands[i % players].append(card)
    active = [True] * players
    waste: list[Card] = []
    leader = next(s for s in range(players) if (12, 3) in hands[s])
    # B1: the first trick, everyone plays, all cards to the waste pile.
    hands[leader].remove((12, 3))
    waste.append((12, 3))
    for k in range(1, players):
        seat = (leader + k) % players
        spades = [c for c in hands[seat] if c[1] == 3]
        card = rng.choice(spades) if spades else rng.choice(hands[seat])
        hands[seat].remove(card)
        waste.append(card)
    for seat in range(players):
        if not hands[seat] and seat != leader:
            active[seat] = False
    while sum(active) > 1:
        if not hands[leader]:  # B8: no escape with the power
            if not waste:
                active[leader] = False
                leader = next_active(active, leader)
                continue
            drawn = waste.pop(rng.randrange(len(waste)))
            hands[leader].append(drawn)
        lead = rng.choice(hands[leader])
        hands[leader].remove(lead)
        trick = [(leader, lead)]
        suit = lead[1]
        tochoo = False
        seat = next_active(active, leader)
        while seat != leader:
            follow = [c for c in hands[seat] if c[1] == suit]
            card = rng.choice(follow) if follow else rng.choice(hands[seat])
            hands[seat].remove(card)
            trick.append((seat, card))
            if card[1] != suit:
                tochoo = True
                break
            seat = next_active(active, seat)
        high_seat = max((c[0], s) for s, c in trick if c[1] == suit)[1]
        if tochoo:
            hands[high_seat].extend(c for _, c in trick)
        for s, _ in trick:
            if not hands[s] and s != high_seat:
                active[s] = False
        if not tochoo:
            if not hands[high_seat] and sum(active) > 1 and waste:
                drawn = waste.pop(rng.randrange(len(waste)))
                hands[high_seat].append(drawn)
            elif not hands[high_seat]:
                active[high_seat] = False
            waste.extend(c for _, c in trick)
        leader = high_seat if active[high_seat] else next_active(active, high_seat)
    return next((s for s in range(players) if active[s]), -1)


def next_active(active: list[bool], seat: int) -> int:
    n = len(active)
    nxt = (seat + 1) % n
    while not active[nxt] and nxt != seat:
        nxt = (nxt + 1) % n
    return nxt
