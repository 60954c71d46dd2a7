"""A session: many hands in a row, Bhabhi counts, the end of the session, chips (C13-C16)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.cards import Card, cards_in
from referee.engine.hand import Hand
from referee.engine.shuffle import Seed, hand_seed
from referee.engine.types import EngineError, Outcome
from referee.ruleset.model import ChipsBy, DealerMoves, Direction, Ruleset


def dealer_step(rules: Ruleset) -> int:
    """C5: +1 when the deal passes clockwise after a hand, -1 counterclockwise.  Under H2
    (``bhabhi_deals``, ``last_picker_deals``) this is the way the deal moves on when the
    previous hand names nobody: with play."""
    moves = rules.deal.dealer_moves
    if moves is DealerMoves.CLOCKWISE:
        return 1
    if moves is DealerMoves.COUNTERCLOCKWISE:
        return -1
    return 1 if rules.direction is Direction.CLOCKWISE else -1


def rotation_dealer(rules: Ruleset, players: int, number: int, first_dealer: int) -> int:
    """C5: the dealer of hand ``number`` (0-based) when the deal goes round the table.

    Under H2 the dealer of a hand depends on the previous hand, which ``Session.dealer_of``
    follows; hands played independently of each other (a simulation's, each from its own
    seed) have no previous hand, so they take this rotation (with play) instead."""
    return (first_dealer + dealer_step(rules) * number) % players


def following_dealer(rules: Ruleset, previous: Hand) -> int:
    """H2: the dealer of the hand after ``previous`` (which is over): its Bhabhi
    (``bhabhi_deals``) or whoever last picked up cards in it (``last_picker_deals``, also
    H11); when it names nobody, the player after its dealer in the direction of play."""
    moves = rules.deal.dealer_moves
    chosen = -1
    if moves is DealerMoves.BHABHI_DEALS and previous.outcome is not None:
        chosen = -1 if previous.outcome.bhabhi is None else previous.outcome.bhabhi
    elif moves is DealerMoves.LAST_PICKER_DEALS:
        chosen = previous.last_picker
    if chosen >= 0:
        return chosen
    return (previous.dealer + dealer_step(rules)) % previous.players


def card_points(cards: int) -> int:
    """H28: the points of a set of cards (a mask): 2 to 10 at face value, J, Q, K 10, A 1."""
    total = 0
    for card in cards_in(cards):
        rank = card % 13  # 0 is the 2, 8 the 10, 9 to 11 J Q K, 12 the ace
        total += rank + 2 if rank <= 8 else 10 if rank <= 11 else 1
    return total


@dataclass(frozen=True, slots=True)
class SessionResult:
    """The standings of a session: at its end (``finish``) or at any moment (``standings``)."""

    hands_played: int
    """Hands over, a current hand that is over included."""
    bhabhi_counts: tuple[int, ...]
    """C14: how often each seat was the Bhabhi."""
    losers: tuple[int, ...]
    """C14: the seats with the most Bhabhi counts (several on a tie; none if nobody lost)."""
    chips: tuple[int, ...]
    """C15: each seat's net chips: what it took from the pot less what it paid in."""
    pot_left: int
    """C15: chips that could not be shared equally among the winners of the pot."""

    def to_dict(self) -> dict[str, object]:
        return {
            "hands_played": self.hands_played,
            "bhabhi_counts": list(self.bhabhi_counts),
            "losers": list(self.losers),
            "chips": list(self.chips),
            "pot_left": self.pot_left,
        }


class Session:
    """Deals hand after hand (C16) from one session seed, rotating the dealer (C5)."""

    def __init__(
        self,
        rules: Ruleset,
        players: int,
        *,
        seed: Seed,
        hands: int | None = None,
        bhabhi_limit: int | None = None,
        first_dealer: int | None = None,
        record: bool = True,
    ) -> None:
        if not rules.players.allows(players):
            raise EngineError(f"ruleset {rules.id!r} does not allow {players} players")
        self.rules = rules
        self.players = players
        self.seed = seed
        self.hand_limit = rules.session.hands if hands is None else hands
        self.bhabhi_limit = rules.session.bhabhi_limit if bhabhi_limit is None else bhabhi_limit
        self.dealer = (rules.deal.first_dealer if first_dealer is None else first_dealer) % players
        self.record = record
        self._previous: Hand | None = None
        """The hand dealt last (the current one, or the last closed): H2 deals from it."""
        self.outcomes: list[Outcome] = []
        """The closed hands' outcomes (a hand is closed when the next is dealt)."""
        self.bhabhi_counts = [0] * players
        """C14: the closed hands' Bhabhi counts; ``standings()`` adds a finished current hand."""
        self.paid = [0] * players
        self.current: Hand | None = None

    @property
    def hands_played(self) -> int:
        """Closed hands; ``standings().hands_played`` counts a finished current hand too."""
        return len(self.outcomes)

    @property
    def is_over(self) -> bool:
        """C14: the agreed number of hands is played, or a seat reached the Bhabhi limit.

        A finished current hand counts at once, before ``next_hand`` or ``finish`` closes it.
        """
        if self.current is not None and not self.current.is_over:
            return False
        standings = self.standings()
        if self.hand_limit is not None and standings.hands_played >= self.hand_limit:
            return True
        limit = self.bhabhi_limit
        return limit is not None and max(standings.bhabhi_counts) >= limit

    def next_hand(
        self,
        *,
        seed: Seed | None = None,
        deal: Sequence[Sequence[Card]] | None = None,
        draws: Sequence[Card] | None = None,
        dealer: int | None = None,
    ) -> Hand:
        """Close the finished hand (if any) and deal the next one.

        By default hand ``k`` is dealt from the session seed (``S:k``); a referee that must
        commit to a fresh secret seed per hand passes ``seed``, and a test table ``deal``.
        """
        if self.current is not None and not self.current.is_over:
            raise EngineError("the current hand is not over yet")
        if self.is_over:
            raise EngineError("the session is over")
        if self.current is not None:
            self._close(self.current)
        number = self.hands_played
        if dealer is None:
            dealer = self.dealer_of(number)
        if seed is None and deal is None:
            seed = hand_seed(self.seed, number)
        self.current = Hand(
            self.rules,
            self.players,
            seed=seed,
            deal=deal,
            draws=draws,
            dealer=dealer,
            record=self.record,
        )
        self._previous = self.current
        return self.current

    def dealer_of(self, number: int) -> int:
        """C5: the dealer of hand ``number`` (0-based), the one place that decides it.

        Under H2 (``bhabhi_deals``, ``last_picker_deals``) a hand's dealer follows from the
        hand before it, so it is known only for the first hand and for the next one to deal
        once the previous is over."""
        if not self.rules.deal.dealer_moves.follows_outcome or number == 0:
            return rotation_dealer(self.rules, self.players, number, self.dealer)
        previous = self._previous
        dealt = self.hands_played + (1 if self.current is not None else 0)
        if number != dealt or previous is None or not previous.is_over:
            raise EngineError(
                f"under deal.dealer_moves: {self.rules.deal.dealer_moves} (H2) the dealer of "
                f"hand {number} follows from how hand {number - 1} ended, which is not known yet"
            )
        return following_dealer(self.rules, previous)

    def _close(self, hand: Hand) -> None:
        assert hand.outcome is not None
        self.outcomes.append(hand.outcome)
        self._charge(hand, self.bhabhi_counts, self.paid)
        self.current = None

    def _charge(self, hand: Hand, counts: list[int], paid: list[int]) -> None:
        """C14, C15: the hand's Bhabhi has lost once more and pays chips into the pot: the
        stake (C15), or under H28 the stake times the points of the cards left in hand."""
        outcome = hand.outcome
        assert outcome is not None
        if outcome.bhabhi is not None:
            counts[outcome.bhabhi] += 1
            stake = self.rules.session.chips
            if self.rules.session.chips_by is ChipsBy.CARD_POINTS:
                stake *= card_points(hand.hands[outcome.bhabhi])
            paid[outcome.bhabhi] += stake

    def finish(self) -> SessionResult:
        """The session's result so far (C14, C15); closes a finished current hand first."""
        if self.current is not None and self.current.is_over:
            self._close(self.current)
        return self.standings()

    def standings(self) -> SessionResult:
        """The result as it stands (C14, C15), changing nothing: a current hand counts as
        soon as it is over, before ``next_hand`` or ``finish`` closes it, so this is the
        one answer to "how often was each seat the Bhabhi" at any moment."""
        counts, paid, played = list(self.bhabhi_counts), list(self.paid), self.hands_played
        current = self.current
        if current is not None and current.outcome is not None:
            played += 1
            self._charge(current, counts, paid)
        top = max(counts)
        losers = tuple(s for s, c in enumerate(counts) if c == top) if top > 0 else ()
        fewest = min(counts)
        winners = [s for s, c in enumerate(counts) if c == fewest]
        share, left = divmod(sum(paid), len(winners))
        chips = [-p for p in paid]
        for seat in winners:
            chips[seat] += share
        return SessionResult(played, tuple(counts), losers, tuple(chips), left)
