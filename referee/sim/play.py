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

Bots that keep their own account of the hand (``Watcher``: the strong bot's shadow) are
told the hand's start (their seat's view before any action) and, after every action
applied, what the table showed their seat of it: who did what, and a card it made their
seat draw (B8, H14).

Determinism: the only randomness is the ``rng`` passed in, which every bot shares in the
order above.  ``bots_rng(seed, index)`` is the generator the simulator uses for hand
``index`` of a run with seed ``seed``: ``random.Random("{seed}:{index}:bots")``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from referee.cards import Card
from referee.engine.hand import Hand, SeatView
from referee.engine.shuffle import Seed, seed_bytes
from referee.engine.types import Action, EngineError
from referee.sim.bots import Bot


@runtime_checkable
class Watcher(Protocol):
    """A bot that follows the hand's public actions as they happen."""

    def begin(self, view: SeatView, rng: random.Random) -> None:
        """A new hand: the seat's view before any action."""
        ...

    def observe(self, seat: int, action: Action, drawn: Sequence[Card], view: SeatView) -> None:
        """``seat`` did ``action``; ``drawn``: the cards it made this watcher's seat draw,
        or draw from its hand (B8, H14), which it saw; ``view``: its seat's view after it."""
        ...


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
    watchers = [(seat, bot) for seat, bot in enumerate(bots) if isinstance(bot, Watcher)]
    for viewer, watcher in watchers:
        watcher.begin(hand.view(viewer), rng)
    if watchers:
        observe = _telling(watchers, observe)
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


def drawn_seen_by(hand: Hand, drawn: Sequence[Card], viewer: int) -> tuple[Card, ...]:
    """The cards of ``drawn`` (just drawn from the waste pile, B8, or from a hand, H14)
    that ``viewer`` saw: those now in its own hand, or drawn from it by another seat."""
    return tuple(
        card
        for card in drawn
        if hand.hands[viewer] >> card & 1 or hand.unseen_draws.get(card) == viewer
    )


def _telling(
    watchers: Sequence[tuple[int, Watcher]], observe: Callable[[Hand], None] | None
) -> Callable[[Hand], None]:
    """``observe`` that first tells every watcher the action just applied, and a card it
    made somebody draw only to the seats that saw it (the drawer; under H14 the seat it was
    drawn from): to the others it stays hidden until it is played."""
    told = [0, 0]  # actions and draws already told

    def tell(hand: Hand) -> None:
        for seat, action in hand.history[told[0] :]:
            new = hand.draws_made[told[1] :]
            told[1] = len(hand.draws_made)
            for viewer, watcher in watchers:
                watcher.observe(seat, action, drawn_seen_by(hand, new, viewer), hand.view(viewer))
        told[0] = len(hand.history)
        if observe is not None:
            observe(hand)

    return tell


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
