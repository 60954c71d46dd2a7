"""Dead positions: hands that no sequence of legal play can end any more.

Under the pick-up rules (P1: a player who cannot follow picks up instead of playing) cards
leave the hands only through clean tricks, and a clean trick in suit s needs every active
player to hold an s card.  So once no suit has as many cards (in hands, plus the waste pile
that a V4 pickup brings back) as there are active players, no clean trick can ever happen
while they all stay in, and the hand can end only if somebody goes out by playing their
last card to a trick that someone after them picks up.

Whether that can still happen depends only on how many cards of each suit every player
holds (ranks decide only who wins a clean trick, and there are none), so we search that
small abstract space exhaustively.  The search over-approximates where the rules leave a
choice we do not model (who leads after a pickup when that is the high card, a C12 penalty
pickup): extra transitions can only make us say "may still end", never "dead", so a
position we call dead is dead.  Anything larger than the search budget is left to the
ruleset's bound on the length of a hand.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

from referee.engine import components as rule

if TYPE_CHECKING:
    from referee.engine.hand import Hand

SEARCH_BUDGET = 20_000
"""Abstract positions examined before giving up (and leaving the hand to max_tricks)."""

Counts = tuple[int, int, int, int]
"""Cards of each suit (clubs, diamonds, hearts, spades) in one hand."""


def dead_position_check(book: rule.RuleBook) -> Callable[[Hand], bool] | None:
    """The detector these rules need, or None when we have none to offer.

    Discard and tochoo rules shed cards every trick or pass them by rank, and B9 lets any
    player end a hand by taking the last other hand, so only the pick-up family cycles.
    H10 (``lead_passes_down``) changes who leads after a clean trick whose winner went out,
    which the search does not model: these rules are left to the bound.
    """
    if not book.pickup_when_void or book.take_hand or book.lead_passes_down:
        return None
    return _pickup_is_dead


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
    """True when no abstract play from ``start`` (leader first) lets anybody go out."""
    seen = {(start, waste)}
    frontier = deque([(start, waste)])  # breadth first: a way out is usually a trick or two away
    while frontier:
        if len(seen) > SEARCH_BUDGET:
            return False
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
