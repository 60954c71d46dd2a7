"""Playing a whole hand through the checked ``Hand`` API, one bot per seat.

Every action goes through ``Hand.apply``, which refuses anything illegal, and every bot
sees only its seat's ``SeatView``: this is the path for strategies, and the reference the
fast random playout (``referee.engine.playout``) is tested against.

Order of play: the seat the game waits for (``Hand.to_move``: the leader before a trick,
the player to follow during one, or whoever a house rule asks, such as the player whose
hand is asked for under H20) must act.  Before that, every other seat that may act now
(B9 lets players other than the leader take a hand, H25 lets anyone challenge a tochoo) is
asked once, in play order after that seat, and may decline (``None``); then the seat the
game waits for at that point acts, and the round begins again.

Determinism: the only randomness is the ``rng`` passed in, which every bot shares in the
order above.  ``bots_rng(seed, index)`` is the generator the simulator uses for hand
``index`` of a run with seed ``seed``: ``random.Random("{seed}:{index}:bots")``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from referee.engine.hand import Hand
from referee.engine.shuffle import Seed, seed_bytes
from referee.engine.types import EngineError
from referee.sim.bots import Bot


def bots_rng(seed: Seed, index: int) -> random.Random:
    """The bots' generator for hand ``index`` of a simulation run with ``seed``."""
    return random.Random(seed_bytes(seed) + b":" + str(index).encode("ascii") + b":bots")


def play_hand(
    hand: Hand,
    bots: Sequence[Bot],
    rng: random.Random,
    *,
    observe: Callable[[Hand], None] | None = None,
) -> Hand:
    """Play ``hand`` to its end with ``bots[seat]`` choosing for each seat; returns ``hand``.

    ``observe``, when given, is called with the hand after every action applied (an analysis
    reads the position it needs, such as the hand sizes at the end of a trick).

    Raises ``EngineError`` (an ``IllegalActionError``) if a bot chooses an illegal action,
    and when a bot that must act declines.
    """
    if len(bots) != hand.players:
        raise EngineError(f"{len(bots)} bots for {hand.players} players")
    while not hand.is_over:
        mover = hand.to_move
        assert mover is not None
        _offer(hand, bots, mover, rng, observe)
        if not hand.is_over:
            seat = hand.to_move
            assert seat is not None
            _act(hand, bots, seat, rng)
            if observe is not None:
                observe(hand)
    return hand


def _offer(
    hand: Hand,
    bots: Sequence[Bot],
    mover: int,
    rng: random.Random,
    observe: Callable[[Hand], None] | None,
) -> None:
    """Ask every other seat that may act now, once each in play order after ``mover``,
    whether it will (the seat the game waits for at the time of asking is not asked)."""
    if len(hand.seats_to_act()) < 2:
        return
    for offset in range(1, hand.players):
        if hand.is_over:
            return
        other = (mover + hand.book.step * offset) % hand.players
        if other == hand.to_move or other not in hand.seats_to_act():
            continue
        action = bots[other].choose(hand.view(other), rng)
        if action is not None:
            hand.apply(other, action)
            if observe is not None:
                observe(hand)


def _act(hand: Hand, bots: Sequence[Bot], seat: int, rng: random.Random) -> None:
    action = bots[seat].choose(hand.view(seat), rng)
    if action is None:
        raise EngineError(f"seat {seat} must act now and declined")
    hand.apply(seat, action)
