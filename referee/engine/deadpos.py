"""Dead positions: hands that no sequence of legal play can end any more.

Under the pick-up rules (P1: a player who cannot follow picks up instead of playing) cards
leave the hands only through clean tricks, and a clean trick in suit s needs every active
player to hold an s card.  So once no suit has as many cards (in hands, plus the waste pile
that a V4 pickup brings back) as there are active players, no clean trick can ever happen
while they all stay in, and the hand can end only if somebody goes out by playing their
last card to a trick that someone after them picks up.

The definition (H31; docs/engine.md, "Every hand ends"): a position between tricks is
*dead* when

1. no suit has as many cards (hands, plus the waste pile under V4) as there are active
   players, and
2. no sequence of plays from it lets any active player go out,

and the hand ends at the first trick boundary (after trick 0) at which it is dead.  The
outcome (``end.at_dead_position``) is therefore a function of that position alone: the
Bhabhi that ``most_cards`` names is the one holding the most cards at the first dead
boundary, never at a later one that a slower detector might have noticed.

Whether 2 holds depends only on how many cards of each suit every player holds (ranks
decide only who wins a clean trick, and there are none), so we search that abstract space
*exhaustively*.  It is finite: while nobody goes out and no trick is clean, every card of
the position stays in the hands (a V4 waste pile joins them at the first pickup and no
clean trick refills it), so a state is a distribution of fixed suit counts over a fixed
ring of players, each state is expanded once, and the search always ends with the exact
answer.  There is no budget: measured over random hands of the pick-up rulesets and
variants (one and two packs, 3 to 16 players, C12 penalties, B7/V5 leaders), a search that
proves a position dead never examined more than 12 states; one that finds a way out
examined at most 349,050 (two packs, 9 players, C12 penalty pickups; 99 % of searches under
2,400), and the answers are cached (docs/performance.md, 2026-12-02).

Where the rules leave a choice the counts cannot see (who leads after a pickup when that is
the high or low card, B7/V5; a C12 penalty pickup), the abstract plays include every
possibility; extra plays can only find a way out, so a position called dead is dead under
the real rules too, and the definition above is of the abstract plays.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

from referee.engine import components as rule

if TYPE_CHECKING:
    from referee.engine.hand import Hand

Counts = tuple[int, int, int, int]
"""Cards of each suit (clubs, diamonds, hearts, spades) in one hand."""


def detects_dead_positions(book: rule.RuleBook) -> bool:
    """Whether a dead position ends a hand under these rules.

    Discard and tochoo rules shed cards every trick or pass them by rank, and B9 lets any
    player end a hand by taking the last other hand, so only the pick-up family cycles;
    and with ``end.at_dead_position: play_on`` (H31) a dead hand is played on to the bound.
    """
    return book.pickup_when_void and not book.take_hand and not book.at_dead_plays_on


def dead_position_check(book: rule.RuleBook) -> Callable[[Hand], bool] | None:
    """The detector these rules need, or None when a dead position ends nothing."""
    return _pickup_is_dead if detects_dead_positions(book) else None


def _pickup_is_dead(hand: Hand) -> bool:
    seats: list[int] = [hand.leader]
    nxt = hand.next_active(hand.leader)
    while nxt != hand.leader:
        seats.append(nxt)
        nxt = hand.next_active(nxt)
    return pickup_is_dead(hand.book, seats, hand.hands, hand.waste)


def pickup_is_dead(book: rule.RuleBook, seats: list[int], hands: list[int], waste: int) -> bool:
    """The pick-up detector on bare state, so that a playout without a ``Hand`` shares it.

    ``seats`` are the active seats in play order from the player about to lead; ``hands``
    every seat's cards as bitmasks; ``waste`` the waste pile's.
    """
    masks = book.suit_masks
    k = len(seats)
    if k < 2 or (k == 2 and book.two_left_pickup_loses):
        return False
    pile: Counts = (0, 0, 0, 0)
    if book.pickup_takes_waste:
        pile = (
            (waste & masks[0]).bit_count(),
            (waste & masks[1]).bit_count(),
            (waste & masks[2]).bit_count(),
            (waste & masks[3]).bit_count(),
        )
    counts: list[Counts] = []
    for seat in seats:
        h = hands[seat]
        counts.append(
            (
                (h & masks[0]).bit_count(),
                (h & masks[1]).bit_count(),
                (h & masks[2]).bit_count(),
                (h & masks[3]).bit_count(),
            )
        )
    for suit in range(4):
        if sum(c[suit] for c in counts) + pile[suit] >= k:
            return False
    return _search(
        tuple(counts),
        pile,
        book.after_pickup != rule.PICKER,
        book.illegal_play_penalty,
    )


@lru_cache(maxsize=65_536)
def _search(
    start: tuple[Counts, ...], waste: Counts, any_led_player_leads: bool, penalty_pickups: bool
) -> bool:
    """True when no abstract play from ``start`` (leader first) lets anybody go out.

    Exhaustive: every reachable state is expanded once (the space is finite, see the
    module's docstring), so the answer never depends on how large the search grows."""
    seen = {(start, waste)}
    frontier = deque([(start, waste)])  # breadth first: a way out is usually a trick or two away
    while frontier:
        hands, pile = frontier.popleft()
        for following in _tricks(hands, pile, any_led_player_leads, penalty_pickups):
            if following is None:
                return False
            if following not in seen:
                seen.add(following)
                frontier.append(following)
    return True


def _tricks(
    hands: tuple[Counts, ...], pile: Counts, any_led_player_leads: bool, penalty_pickups: bool
) -> list[tuple[tuple[Counts, ...], Counts] | None]:
    """Positions after each possible trick; None stands for 'somebody can go out'.

    A trick led in ``suit`` is followed by every player holding that suit until the first
    one who cannot follow picks up (with C12 penalties, anyone holding it may pick up
    instead).  Everybody before the picker played exactly one card, so somebody goes out
    exactly when one of them held a single card.
    """
    k = len(hands)
    totals = [h[0] + h[1] + h[2] + h[3] for h in hands]
    results: list[tuple[tuple[Counts, ...], Counts] | None] = []
    for suit in range(4):
        if not hands[0][suit]:
            continue
        single = totals[0] == 1
        for picker in range(1, k):
            holds = hands[picker][suit] > 0
            if not holds or penalty_pickups:
                if single:
                    return [None]
                results.extend(_after_pickup(hands, picker, suit, pile, any_led_player_leads))
            if not holds:
                break
            single = single or totals[picker] == 1
        else:
            return [None]  # every player followed: a clean trick, the regime is over
    return results


def _after_pickup(
    hands: tuple[Counts, ...],
    picker: int,
    suit: int,
    pile: Counts,
    any_led_player_leads: bool,
) -> list[tuple[tuple[Counts, ...], Counts]]:
    """The positions after seats 0 … picker-1 played one ``suit`` card each and ``picker``
    took them (and a V4 waste pile), rotated so that each possible next leader is first."""
    after: list[Counts] = []
    for h in hands[:picker]:
        c = list(h)
        c[suit] -= 1
        after.append((c[0], c[1], c[2], c[3]))
    took = list(hands[picker])
    took[suit] += picker
    new_pile = pile
    if pile != (0, 0, 0, 0):
        took = [took[s] + pile[s] for s in range(4)]
        new_pile = (0, 0, 0, 0)
    after.append((took[0], took[1], took[2], took[3]))
    after.extend(hands[picker + 1 :])
    leaders = range(picker) if any_led_player_leads else (picker,)
    return [(tuple(after[lead:] + after[:lead]), new_pile) for lead in leaders]
