"""Determinizations: the hidden cards dealt afresh, as one seat could believe them to lie.

A strong bot (issue 16) samples the hands it cannot see, consistent with everything its seat
has seen, and searches each sample as if the cards were face up.  ``determinize(hand, seat,
rng)`` makes one such sample: a ``Hand`` (``Hand.with_hands``, ``record=False``) in which

* ``seat``'s own cards, every face-up card in a hand (``known``), the trick, the waste pile
  and the cards out of play stay where they are;
* every other card (``hidden_cards``) is dealt afresh among the other seats still in, each
  keeping exactly its number of cards, and none getting an unseen card of a suit it has
  shown void in (``Hand.voids``: only where the rules prove it);
* a card a seat must lead that every player knows it holds (C6's first lead card) stays
  with it;
* a card drawn from the waste pile under B8 that nobody else has seen since is drawn afresh
  from the pile as every other player knows it (the pile and the unseen draws together),
  and becomes the drawer's forced lead if the real one was; a card drawn from a hand
  under H14 is hidden like any other, but stays where it is when ``seat`` is the one it
  was drawn from (it saw it);
* the copy's later B8 or H14 draws come from a fresh stream seeded by ``rng``, not from the
  real hand's seed, and H25's false cards are those the sample's hands make false.

The sample uses only what ``seat`` may know: which seats hold how many cards, and of them
which face up, the shown voids, the counts of unseen draws, and the union of the hidden
cards (the complement of all the public cards and the seat's own).  Two hands that differ
only in the other seats' hidden cards give the same samples from the same ``rng`` (a test
holds it).  Under H29 (``hand_sizes: hidden``) the sizes the sample keeps are the engine's,
and that is no leak: every size is still what the public history counts (the deal's order,
each pickup's cards and the waste pile's public size, a taken hand being the whole hand,
a draw being one card), so a player who kept count knows them all.

How uniform: the suits no seat with a hidden card has shown void in are dealt by one shuffle
of the free places, which is exactly uniform; so is the whole sample when at most one suit
is constrained.  With several constrained suits each is dealt, tightest first, uniformly
among the free places of the seats that may hold it, given the suits dealt before it, and
redealt when it would leave a later suit no way to be placed (Hall's condition over the
later constrained suits).  An exact sampler would weigh each placement of a suit by the
number of ways to deal the rest; this one gives the placements that leave few ways a little
more weight than that.  A bot's search averages over many samples and can bear it.

Less informed than a player could be, never wrongly informed: the cards a V4 picker took
face down with the pile are hidden like any other, though every player saw them go to the
pile; an H16 draw of the pile's top card is drawn afresh from the whole pile; a B8 draw may
be drawn afresh from cards that went to the pile after it.

Cost: 25 to 45 microseconds a sample (52 to 104 cards, 4 to 8 players); see
docs/performance.md, "2026-12-03: determinizations".
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from referee.cards import Card, card_str, cards_in
from referee.engine.hand import Hand
from referee.engine.types import EngineError

ALL_SUITS = 0b1111
REDEALS = 64
"""How often a constrained suit is redealt at random before it is placed card by card with
a feasibility check each (which always succeeds: the real hands are one way)."""


def hidden_cards(hand: Hand, seat: int) -> int:
    """The mask of the cards ``seat`` cannot place: in another seat's hand, not face up,
    not a forced lead every player knows, not drawn from the waste pile (those come from the
    pile, see the module) and not drawn from ``seat``'s own hand under H14 (it saw which)."""
    _check_seat(hand, seat)
    return _split(hand, seat)[0]


def determinize(
    hand: Hand,
    seat: int,
    rng: random.Random,
    *,
    holding: Mapping[int, int] | None = None,
    void_in: Mapping[int, int] | None = None,
    own: int | None = None,
) -> Hand:
    """A copy of ``hand`` with every card ``seat`` cannot see dealt afresh at random, as
    the module says; ``rng`` is the only source of chance (the engine stays pure).

    ``holding`` (``{seat: cards}``, masks) and ``void_in`` (``{seat: suits}``) are what an
    action just seen proves beyond the hand's own record: a bot that keeps a guess of the
    table (``referee.sim.strong``) learns that a seat held the card it played, or none of
    the suit it could not follow, before its guess can apply the action.  A card held may
    be one the guess has in another hand or, for the seat's own unseen waste draw (B8), in
    the pile.  ``own`` (a mask) is ``seat``'s own hand as it really is, where the guess
    has it otherwise: a seat that takes a hand (B9) sees the cards it took.  EngineError
    when they cannot all hold."""
    _check_seat(hand, seat)
    pool, fixed, pile_slots = _split(hand, seat)
    waste = hand.waste
    renamed: dict[Card, Card] = {}
    if own is not None and own != fixed[seat]:
        pool, waste, renamed = _take_own(hand, seat, own, pool, fixed[seat])
        fixed[seat] = own
    players = hand.players
    masks = hand.book.suit_masks
    allow = [ALL_SUITS & ~v for v in hand.voids]
    for s, suits in (void_in or {}).items():
        allow[s] &= ~suits
    pile = waste
    for card, seen_by in hand.unseen_draws.items():
        if seen_by < 0 and not hand.hands[seat] >> card & 1:
            pile |= 1 << card
    pinned = [0] * players  # cards of the pile a seat's unseen draws are known to be
    for s, cards in (holding or {}).items():
        for card in cards_in(cards & ~fixed[s]):
            bit = 1 << card
            if pool & bit:
                pool &= ~bit
                fixed[s] |= bit
            elif pile & bit and pile_slots[s] > pinned[s].bit_count():
                pinned[s] |= bit
                pile &= ~bit
            else:
                raise EngineError(f"seat {s} cannot be holding {card_str(card)}")
    free = [
        0 if s == seat else hand.hands[s].bit_count() - fixed[s].bit_count() - pile_slots[s]
        for s in range(players)
    ]
    if any(n < 0 for n in free):
        raise EngineError("a seat would hold more cards than it has")
    new_hands = list(fixed)
    slots = [pile_slots[s] - pinned[s].bit_count() for s in range(players)]
    from_pile = _draw_from_pile(pile, slots, allow, masks, rng)
    from_pile = [drawn | pin for drawn, pin in zip(from_pile, pinned, strict=True)]
    dealt = _deal(pool, free, allow, masks, rng)
    for s in range(players):
        new_hands[s] |= dealt[s] | from_pile[s]
    # Each unseen draw ``seat`` cannot place becomes one of its holder's new cards of the
    # same kind (from the pile under B8, from the hidden cards under H14).
    draws: dict[Card, int] = {}
    spare = [list(from_pile), list(dealt)]  # what is left to name as a draw
    for card, seen_by in hand.unseen_draws.items():
        holder = next(s for s in range(players) if hand.hands[s] >> card & 1)
        if holder == seat or seen_by == seat:
            draws[renamed.get(card, card)] = seen_by
            continue
        kind = spare[0 if seen_by < 0 else 1]
        new = rng.choice(list(cards_in(kind[holder])))
        kind[holder] &= ~(1 << new)
        renamed[card] = new
        draws[new] = seen_by
    return hand.with_hands(
        new_hands,
        waste=pile & ~sum(from_pile),
        unseen_draws=draws,
        forced_lead=renamed.get(hand.forced_lead, hand.forced_lead),
        draw_seed=rng.randbytes(16),
    )


def _take_own(
    hand: Hand, seat: int, own: int, pool: int, guessed: int
) -> tuple[int, int, dict[Card, Card]]:
    """(the hidden pool, the waste pile, the unseen draws renamed) once ``seat``'s hand is
    ``own`` where the guess has ``guessed``: a hand it took (B9), whose cards it now sees.

    The cards it sees come from the hidden pool, or from the waste pile where the hand it
    took held a card drawn from the pile that nobody saw (B8): the guess drew another card
    of the pile, which goes back to the pile, and the draw is the card the seat now sees."""
    drawn = [
        card
        for card, seen_by in hand.unseen_draws.items()
        if seen_by < 0 and guessed >> card & 1 and not own >> card & 1
    ]
    from_pile = own & hand.waste & ~(pool | guessed)
    if (
        own.bit_count() != guessed.bit_count()
        or own & ~(pool | guessed | from_pile)
        or from_pile.bit_count() > len(drawn)
    ):
        raise EngineError(
            f"seat {seat} cannot be holding {', '.join(map(card_str, cards_in(own)))}"
        )
    renamed = dict(zip(drawn, cards_in(from_pile), strict=False))
    back = sum(1 << card for card in renamed)
    return (pool | guessed) & ~own & ~back, hand.waste & ~from_pile | back, renamed


def _check_seat(hand: Hand, seat: int) -> None:
    if not isinstance(seat, int) or not 0 <= seat < hand.players:
        raise EngineError(f"there is no seat {seat} at a table of {hand.players}")


def _split(hand: Hand, seat: int) -> tuple[int, list[int], list[int]]:
    """(the hidden pool, what each seat keeps, how many unseen waste draws each holds that
    ``seat`` did not make)."""
    players = hand.players
    hands = hand.hands
    fixed = [hand.known[s] & hands[s] for s in range(players)]
    fixed[seat] = hands[seat]
    pile_slots = [0] * players
    if hand.forced_lead >= 0 and hand.forced_lead not in hand.unseen_draws:
        fixed[hand.leader] |= 1 << hand.forced_lead  # C6: every player knows who leads it
    from_pile = 0
    for card, seen_by in hand.unseen_draws.items():
        holder = next(s for s in range(players) if hands[s] >> card & 1)
        if holder == seat:
            continue
        if seen_by == seat:  # H14: drawn from this seat's hand, so it saw the card
            fixed[holder] |= 1 << card
        elif seen_by < 0:  # B8: from the pile
            pile_slots[holder] += 1
            from_pile |= 1 << card
    pool = 0
    for s in range(players):
        if s != seat:
            pool |= hands[s] & ~fixed[s]
    return pool & ~from_pile, fixed, pile_slots


def _draw_from_pile(
    pile: int,
    slots: Sequence[int],
    allow: Sequence[int],
    masks: Sequence[int],
    rng: random.Random,
) -> list[int]:
    """B8: each holder's unseen waste draws drawn afresh from ``pile``, of suits it may
    hold; a holder left without a card it may hold (possible only with two holders) starts
    the draws again."""
    for _ in range(REDEALS):
        left = pile
        drawn = [0] * len(slots)
        for holder, count in enumerate(slots):
            if not count:
                continue
            may = left & _suits_mask(allow[holder], masks)
            cards = list(cards_in(may))
            if len(cards) < count:
                break
            for card in rng.sample(cards, count):
                drawn[holder] |= 1 << card
            left &= ~drawn[holder]
        else:
            return drawn
    raise EngineError("the unseen waste draws cannot be placed: the hand's voids are unsound")


def _suits_mask(suits: int, masks: Sequence[int]) -> int:
    found = 0
    for suit in range(4):
        if suits >> suit & 1:
            found |= masks[suit]
    return found


def _deal(
    pool: int, free: list[int], allow: Sequence[int], masks: Sequence[int], rng: random.Random
) -> list[int]:
    """The cards of ``pool`` dealt into the ``free`` places of the seats, a seat getting
    only suits it may hold (``allow``, a suit mask per seat); see the module for how
    uniform."""
    players = len(free)
    seats = [s for s in range(players) if free[s]]
    dealt = [0] * players
    counts = [(pool & masks[u]).bit_count() for u in range(4)]
    constrained = [u for u in range(4) if counts[u] and any(not allow[s] >> u & 1 for s in seats)]
    free = list(free)
    later = list(constrained)
    while later:  # the tightest suit first: the fewest spare places for its cards
        suit = min(later, key=lambda u: _room(u, seats, free, allow) - counts[u])
        later.remove(suit)
        cards = list(cards_in(pool & masks[suit]))
        places = _place(suit, len(cards), later, counts, seats, free, allow, rng)
        for card, s in zip(cards, places, strict=True):
            dealt[s] |= 1 << card
            free[s] -= 1
        counts[suit] = 0
    rest = pool
    for suit in constrained:
        rest &= ~masks[suit]
    # One shuffle of the free places; a sort by random keys costs a third of rng.shuffle.
    places = [s for s in seats for _ in range(free[s])]
    draw = rng.random
    keys = [draw() for _ in places]
    order = sorted(range(len(places)), key=keys.__getitem__)
    for card, index in zip(cards_in(rest), order, strict=True):
        dealt[places[index]] |= 1 << card
    return dealt


def _room(suit: int, seats: Sequence[int], free: Sequence[int], allow: Sequence[int]) -> int:
    """The free places of the seats that may hold ``suit``."""
    return sum(free[s] for s in seats if allow[s] >> suit & 1)


def _place(
    suit: int,
    count: int,
    later: Sequence[int],
    counts: Sequence[int],
    seats: Sequence[int],
    free: list[int],
    allow: Sequence[int],
    rng: random.Random,
) -> list[int]:
    """The seats (in a random order, one per card) that get the ``count`` cards of ``suit``:
    a uniform draw of places among those that may hold it, redrawn while it would leave the
    ``later`` constrained suits no way to be dealt, then card by card if need be."""
    places = [s for s in seats if allow[s] >> suit & 1 for _ in range(free[s])]
    for _ in range(REDEALS):
        chosen = rng.sample(places, count)
        after = list(free)
        for s in chosen:
            after[s] -= 1
        if not later or _feasible(later, counts, seats, after, allow):
            return chosen
    chosen = []
    after = list(free)
    for left in range(count - 1, -1, -1):
        order = [s for s in seats if allow[s] >> suit & 1 and after[s]]
        rng.shuffle(order)
        for s in order:
            after[s] -= 1
            rest = [*later, suit] if left else later
            trial = list(counts)
            trial[suit] = left
            if _feasible(rest, trial, seats, after, allow):
                chosen.append(s)
                break
            after[s] += 1
        else:
            raise EngineError("the hidden cards cannot be dealt: the hand's voids are unsound")
    return chosen


def _feasible(
    suits: Sequence[int],
    counts: Sequence[int],
    seats: Sequence[int],
    free: Sequence[int],
    allow: Sequence[int],
) -> bool:
    """Hall's condition: every set of the given suits has at least as many free places
    among the seats that may hold one of them as it has cards (the other suits go
    anywhere, so they need no check)."""
    for subset in range(1, 1 << len(suits)):
        wanted = 0
        may = 0
        for bit, suit in enumerate(suits):
            if subset >> bit & 1:
                wanted += counts[suit]
                may |= 1 << suit
        if wanted > sum(free[s] for s in seats if allow[s] & may):
            return False
    return True
