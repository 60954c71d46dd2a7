"""Trying a move before storing it, where only applying it can tell whether it works.

A test deal's explicit B8 draws may name a card that is not in the waste pile when the
draw comes, which the engine finds only while applying the move.  A command that cannot be
applied must never be stored (replaying the log would fail, and the referee could not
restart), so on such tables the move is first played on a copy of the hand.
"""

from __future__ import annotations

from referee.engine import Action, Hand
from referee.server.table.state import Table


def try_on_copy(table: Table, hand: Hand, seat: int, action: Action) -> None:
    """Raise EngineError if ``action`` cannot be applied to ``hand``; change nothing."""
    if table.test_draws is None and not table.test_hands:
        return  # not a test table with draws (the commonest case, decided at once)
    if table.test_draws_of(len(table.hand_seeds) - 1) is None:
        return
    hand.copy(record=False).apply(seat, action)
