"""Playing a whole hand through the checked ``Hand`` API, one bot per seat.

Every action goes through ``Hand.apply``, which refuses anything illegal, and every bot
sees only its seat's ``SeatView``: this is the path for strategies, and the reference the
fast random playout (``referee.engine.playout``) is tested against.

Order of play before a trick (B9 lets players other than the leader act): each seat other
than the leader that may act, in play order after the leader, is asked once and may decline
(``None``); then the leader acts.  If the leader took a hand instead of leading, the round
of offers starts again.  During a trick, the seat to move acts.

Determinism: the only randomness is the ``rng`` passed in, which every bot shares in the
order above.  ``bots_rng(seed, index)`` is the generator the simulator uses for hand
``index`` of a run with seed ``seed``: ``random.Random("{seed}:{index}:bots")``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from referee.engine.hand import BEFORE_TRICK, CAN_TAKE_HAND, IN_TRICK, Hand
from referee.engine.shuffle import Seed, seed_bytes
from referee.engine.types import EngineError
from referee.sim.bots import Bot


def bots_rng(seed: Seed, index: int) -> random.Random:
    """The bots' generator for hand ``index`` of a simulation run with ``seed``."""
    return random.Random(seed_bytes(seed) + b":" + str(index).encode("ascii") + b":bots")


def play_hand(hand: Hand, bots: Sequence[Bot], rng: random.Random) -> Hand:
    """Play ``hand`` to its end with ``bots[seat]`` choosing for each seat; returns ``hand``.

    Raises ``EngineError`` (an ``IllegalActionError``) if a bot chooses an illegal action,
    and when a bot that must act declines.
    """
    if len(bots) != hand.players:
        raise EngineError(f"{len(bots)} bots for {hand.players} players")
    while not hand.is_over:
        if hand.phase == IN_TRICK:
            _act(hand, bots, hand.turn, rng)
            continue
        leader = hand.leader
        for offset in range(1, hand.players):
            if hand.phase != BEFORE_TRICK:
                break
            other = (leader + hand.book.step * offset) % hand.players
            if other == hand.leader or not hand.legal_actions(other).flags & CAN_TAKE_HAND:
                continue
            action = bots[other].choose(hand.view(other), rng)
            if action is not None:
                hand.apply(other, action)
        if hand.phase == BEFORE_TRICK:
            _act(hand, bots, hand.leader, rng)
    return hand


def _act(hand: Hand, bots: Sequence[Bot], seat: int, rng: random.Random) -> None:
    action = bots[seat].choose(hand.view(seat), rng)
    if action is None:
        raise EngineError(f"seat {seat} must act now and declined")
    hand.apply(seat, action)
