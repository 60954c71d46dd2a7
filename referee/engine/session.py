"""A session: many hands in a row, Bhabhi counts, the end of the session, chips (C13-C16)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.cards import Card
from referee.engine.hand import Hand
from referee.engine.shuffle import Seed, hand_seed
from referee.engine.types import EngineError, Outcome
from referee.ruleset.model import DealerMoves, Direction, Ruleset


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
        moves = rules.deal.dealer_moves
        if moves is DealerMoves.WITH_PLAY:
            self._dealer_step = 1 if rules.direction is Direction.CLOCKWISE else -1
        else:
            self._dealer_step = 1 if moves is DealerMoves.CLOCKWISE else -1
        self.record = record
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
        return self.current

    def dealer_of(self, number: int) -> int:
        """C5: the dealer of hand ``number`` (0-based)."""
        return (self.dealer + self._dealer_step * number) % self.players

    def _close(self, hand: Hand) -> None:
        assert hand.outcome is not None
        self.outcomes.append(hand.outcome)
        self._charge(hand.outcome, self.bhabhi_counts, self.paid)
        self.current = None

    def _charge(self, outcome: Outcome, counts: list[int], paid: list[int]) -> None:
        """C14, C15: the hand's Bhabhi has lost once more and pays chips into the pot."""
        if outcome.bhabhi is not None:
            counts[outcome.bhabhi] += 1
            paid[outcome.bhabhi] += self.rules.session.chips

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
            self._charge(current.outcome, counts, paid)
        top = max(counts)
        losers = tuple(s for s, c in enumerate(counts) if c == top) if top > 0 else ()
        fewest = min(counts)
        winners = [s for s, c in enumerate(counts) if c == fewest]
        share, left = divmod(sum(paid), len(winners))
        chips = [-p for p in paid]
        for seat in winners:
            chips[seat] += share
        return SessionResult(played, tuple(counts), losers, tuple(chips), left)
