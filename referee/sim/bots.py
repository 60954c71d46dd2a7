"""Bots: players that choose an action from what their seat may know, and nothing else.

A bot is handed a ``SeatView`` (its own cards, hand sizes, the face-up cards known to be in
each hand, the current trick, its legal actions) and a ``random.Random``; it never sees the
``Hand``, so it cannot peek at hidden cards.  It may know the rules (they are public), which
a strategy needs: what a void does, which card is higher under ace-low.

``choose`` returns ``None`` only to decline an optional action: under B9 a player who is not
about to lead may take a neighbour's hand before a trick, and may just as well not.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from referee.cards import Card, mask_of
from referee.engine.components import RuleBook
from referee.engine.hand import SeatView, longest_suit, take_target
from referee.engine.types import (
    AGREE,
    CHALLENGE,
    PASS,
    PICK_UP,
    TAKE_HAND,
    Action,
    ActionKind,
)
from referee.ruleset.model import Ruleset


class Bot(Protocol):
    """Anything that picks a seat's action from that seat's view."""

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        """One of ``view.legal_actions``, or None to decline an optional take (B9)."""
        ...


class RandomBot:
    """Uniform over the legal actions: the yardstick every strategy must beat.

    A player who is not about to lead is offered only the optional take (B9); it takes with
    probability ``1 / (own cards + 1)``, as often as a leader choosing uniformly among its
    cards and the take would, so random play does not favour one seat's position.  Asked
    in a take pass (H22), it takes at that rate too and passes otherwise.
    """

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        legal = view.legal_actions
        if not legal:
            return None
        if view.turn != view.seat:  # only optional actions: a take (B9), a challenge (H25)
            if rng.random() * (len(view.hand) + 1) >= 1.0:
                return None
            return legal[0] if len(legal) == 1 else legal[rng.randrange(len(legal))]
        if PASS in legal:  # H22: its turn in the take pass; passing declines, as above
            takes = [a for a in legal if a != PASS]
            if rng.random() * (len(view.hand) + 1) >= 1.0:
                return PASS
            return takes[0] if len(takes) == 1 else takes[rng.randrange(len(takes))]
        return legal[rng.randrange(len(legal))]


class HeuristicBot:
    """A simple, rule-aware strategy: never be the one left holding the cards.

    Its estimates come only from the view: a rival's face-up known cards and hand size, and
    for the rest the cards nobody has seen spread evenly over the rivals' hidden cards (a
    rival whose every card is known has exactly known voids).  From that it estimates, for
    each suit, the chance that a trick led in it is clean (every rival follows).

    * **Taking a hand (B9).**  Taking adds cards and removes a rival who was escaping anyway,
      so only when it cannot hurt: with at least four players in, from a neighbour holding a
      single known low card (they get away at the next trick anyway; a low card helps to
      duck).  Never with two left, where the taker is the Bhabhi at once.  Where the taker
      chooses whose hand (H23), the neighbour or player that fits best (the lowest such
      card); in a take pass (H22) it passes unless it wants to take; asked for its own hand
      (H20) it agrees, since that gets it out.
    * **Void.**  Under the pick-up rules (P1) it must pick up.  Otherwise (tochoo, discard)
      it throws its highest card, from its shortest suit on a tie, to become void in more
      suits.
    * **Pick-up rules (P1).**  It stays out of the lead, which measured far better than
      seeking it (one such seat against three random ones: about 5% Bhabhi under pickup
      and 0% under whole-pile, against 11% and 66% when it played high): it follows with
      the card least likely to make it the next leader (its lowest where the highest card
      leads next, C8; its highest under V1), and leads the suit most likely to make a rival
      pick up (a rival known to be void; on a tie, the rival with fewest cards, then its own
      longest suit) with that same kind of card.
    * **Tochoo picked up by the highest card (B6).**  Following last, or when everyone still
      to play almost surely follows, it plays its highest card (the trick is clean: a high
      card shed safely); otherwise the highest card that still loses, to duck the pickup, or
      its highest if none does.  It leads the suit most likely to be clean: its highest card
      there while the trick is likely clean (it wins, sheds a high card and keeps the lead),
      else its lowest, so that someone else ends up highest.
    * **Otherwise** (discard rules, a tochoo its own player picks up, a tochoo that does
      not stop the trick, H9) it plays its highest card.
    * **Naming the trump (H12)** as the dealer: the suit it holds most of, of equal length
      the one with the stronger cards (a plain choice, not measured against others).
    * **Drawing from a player (H14)**, where it may choose: from the longest hand.
    """

    def __init__(self, rules: Ruleset | RuleBook) -> None:
        self.book = rules if isinstance(rules, RuleBook) else RuleBook.of(rules)
        self._suit_size = [
            sum(1 for c in self.book.deck if self.book.suit[c] == s) for s in range(4)
        ]

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        legal = view.legal_actions
        if not legal:
            return None
        seat = view.seat
        assert seat is not None
        if AGREE in legal:  # H20: being taken gets it out of the hand
            return AGREE
        take = self._take_to_make(view)
        if take is not None:
            return take
        if CHALLENGE in legal and self._proves_false(view):
            return CHALLENGE
        if view.turn != seat:
            return None
        if PASS in legal:  # H22: its turn in the take pass, and no take it wants
            return PASS
        if legal == (PICK_UP,):
            return PICK_UP
        cards = [a.card for a in legal if a.kind is ActionKind.PLAY and a.card is not None]
        if any(a.kind is ActionKind.CHOOSE_TRUMP for a in legal):  # H12: its longest suit
            return Action.choose_trump(longest_suit(self.book, mask_of(view.hand)))
        draws = [a for a in legal if a.kind is ActionKind.DRAW_FROM and a.seat is not None]
        if not cards and draws:
            return self._draw_from(view, draws)
        if not cards:  # a house rule's decision it has no opinion on: the first offered
            return next(
                (a for a in legal if a.kind not in (ActionKind.TAKE_HAND, ActionKind.CHALLENGE)),
                legal[0],
            )
        if len(cards) == 1:
            return Action.play(cards[0])
        if not view.trick:
            return Action.play(self._lead(view, cards))
        return Action.play(self._follow(view, cards))

    # --- H14 ----------------------------------------------------------------------------

    @staticmethod
    def _draw_from(view: SeatView, draws: Sequence[Action]) -> Action:
        """H14: draw from the longest hand (the first in turn on a tie): a draw that empties
        a hand lets that rival get away, and a long hand is the least likely to."""
        sizes = view.hand_sizes
        return max(draws, key=lambda a: (sizes[a.seat or 0], -draws.index(a)))

    # --- B9 -----------------------------------------------------------------------------

    def _take_to_make(self, view: SeatView) -> Action | None:
        """The offered take it wants: the rules' own (B9) or, where the taker chooses
        (H23), the hand whose one known card is lowest; None when it wants none."""
        seat = view.seat
        assert seat is not None
        offered: list[tuple[int, Action]] = []
        for action in view.legal_actions:
            if action == TAKE_HAND:
                offered.append((take_target(view.out, seat, self.book.take_step), action))
            elif action.kind is ActionKind.TAKE_HAND and action.seat is not None:
                offered.append((action.seat, action))
        best: tuple[int, Action] | None = None
        for target, action in offered:
            value = self._take_value(view, target) if target >= 0 else None
            if value is not None and (best is None or value < best[0]):
                best = (value, action)
        return None if best is None else best[1]

    def _take_value(self, view: SeatView, target: int) -> int | None:
        """How little taking ``target``'s hand costs (its one known card's strength), or
        None when it may hurt."""
        active = [s for s in range(view.players) if not view.out[s]]
        if len(active) < 4 or view.hand_sizes[target] != 1:
            return None
        known = view.known_cards[target]
        if len(known) != 1:
            return None
        strength = self.book.strength[known[0]]
        return strength if strength <= 4 else None  # a 6 or lower (ace-high), 5 (ace-low)

    # --- H25 ----------------------------------------------------------------------------

    def _proves_false(self, view: SeatView) -> bool:
        """H25: challenge only a sure thing: a player of an off-suit card to the trick just
        ended still holds a card of its led suit that everyone saw go into their hand face
        up before that trick (known cards that came with the trick itself prove nothing)."""
        if not view.last_trick:
            return False
        book = self.book
        led = book.suit[view.last_trick[0][1]]
        in_trick = {c for _, c in view.last_trick}
        for player, card in view.last_trick[1:]:
            if book.suit[card] == led:
                continue
            if any(book.suit[k] == led and k not in in_trick for k in view.known_cards[player]):
                return True
        return False

    # --- playing a card -----------------------------------------------------------------

    def _follow(self, view: SeatView, cards: Sequence[Card]) -> Card:
        book = self.book
        led = view.led_suit
        assert led is not None
        following = [c for c in cards if book.suit[c] == led]
        if not following:  # void: tochoo or discard
            return self._throw(view, cards)
        by_strength = sorted(following, key=lambda c: book.strength[c])
        if book.pickup_when_void:  # stay out of the lead (see the class docstring)
            return by_strength[0] if book.complete_next_high else by_strength[-1]
        if not (book.tochoo_ends_trick and book.tochoo_picked_up_by_high):
            return by_strength[-1]
        high = max(book.strength[c] for _, c in view.trick if book.suit[c] == led)
        still_to_play = self._still_to_play(view)
        if not still_to_play or self._clean_chance(view, led, still_to_play) >= 0.9:
            return by_strength[-1]
        ducks = [c for c in by_strength if book.strength[c] < high]
        return ducks[-1] if ducks else by_strength[-1]

    def _throw(self, view: SeatView, cards: Sequence[Card]) -> Card:
        book = self.book
        counts = _suit_counts(book, view.hand)
        return max(cards, key=lambda c: (book.strength[c], -counts[book.suit[c]], c))

    def _lead(self, view: SeatView, cards: Sequence[Card]) -> Card:
        book = self.book
        mine: dict[int, list[Card]] = {}
        for card in cards:
            mine.setdefault(book.suit[card], []).append(card)
        for suit_cards in mine.values():
            suit_cards.sort(key=lambda c: book.strength[c])
        rivals = self._rivals_in_order(view)
        if not book.tochoo_ends_trick and not book.pickup_when_void:  # discard rules
            return max(cards, key=lambda c: (book.strength[c], c))
        chance = {suit: self._clean_chance(view, suit, rivals) for suit in mine}
        if book.pickup_when_void:
            fewest = min((view.hand_sizes[r] for r in rivals), default=0)
            short = [r for r in rivals if view.hand_sizes[r] == fewest]

            def pickup_value(suit: int) -> tuple[float, float, int, int]:
                hits_short = 1.0 - self._clean_chance(view, suit, short)
                return (1.0 - chance[suit], hits_short, len(mine[suit]), suit)

            suit_cards = mine[max(mine, key=pickup_value)]
            return suit_cards[0] if book.complete_next_high else suit_cards[-1]
        if book.tochoo_picked_up_by_high:
            suit = max(mine, key=lambda s: (chance[s], -len(mine[s]), s))
            return mine[suit][-1] if chance[suit] >= 0.8 else mine[suit][0]
        # A tochoo picked up by the player who made it: leading can never cost a pickup.
        suit = max(mine, key=lambda s: (len(mine[s]), s))
        return mine[suit][-1]

    # --- what the view says about the rivals --------------------------------------------

    def _rivals_in_order(self, view: SeatView) -> list[int]:
        seat = view.seat
        assert seat is not None
        order = []
        nxt = seat
        for _ in range(view.players - 1):
            nxt = (nxt + self.book.step) % view.players
            if not view.out[nxt]:
                order.append(nxt)
        return order

    def _still_to_play(self, view: SeatView) -> list[int]:
        played = {s for s, _ in view.trick}
        return [s for s in self._rivals_in_order(view) if s not in played]

    def _clean_chance(self, view: SeatView, suit: int, rivals: Sequence[int]) -> float:
        """The chance that every one of ``rivals`` holds a card of ``suit``.

        Known cards count exactly; each rival's hidden cards are drawn from the cards nobody
        has seen (the suit's share of them is known, not where they are: the waste pile
        hides some), independently per rival: an estimate, which is all a bot needs.
        """
        book = self.book
        seen = list(view.hand) + [c for _, c in view.trick]
        for known in view.known_cards:
            seen.extend(known)
        unseen_total = len(book.deck) - len(seen)
        unseen_suit = self._suit_size[suit] - sum(1 for c in seen if book.suit[c] == suit)
        chance = 1.0
        for rival in rivals:
            known = view.known_cards[rival]
            if any(book.suit[c] == suit for c in known):
                continue
            size = view.hand_sizes[rival]
            if size < 0:  # H29: not shown; guess an even share of the unseen cards
                size = len(known) + unseen_total // max(1, len(rivals))
            hidden = size - len(known)
            if hidden <= 0 or unseen_suit <= 0 or unseen_total <= 0:
                return 0.0
            void = (1.0 - unseen_suit / unseen_total) ** hidden
            chance *= 1.0 - void
        return chance


def _suit_counts(book: RuleBook, cards: Sequence[Card]) -> list[int]:
    counts = [0, 0, 0, 0]
    for card in cards:
        counts[book.suit[card]] += 1
    return counts
