"""What a conformance runner needs from the implementation under test, and how it fails.

Kept apart from the runner, which checks cases against this project's engine: an adapter
for another implementation (``remote.py``, any referee over gRPC) needs only these names,
so it can be read, copied and ported without the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class Refused(Exception):
    """The implementation refused an action; ``reason`` is its code."""

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(message or reason)
        self.reason = reason


class CaseError(ValueError):
    """The case itself is malformed (not the implementation's fault)."""


class DealDiffers(Exception):
    """The implementation deals the case's seed (``fair_deal``) other cards than the case
    records: its shuffle, deck or deal order (C4, H1, H4) is not the recorded one."""


class Adapter(Protocol):
    """What a runner needs from an engine or referee under test."""

    def start(self, case: Mapping[str, Any]) -> None:
        """Start the case's hand: its ruleset, players, dealer, deal and draws."""

    def act(self, seat: int, action: str) -> list[dict[str, Any]]:
        """Apply an action; return its events as mappings; raise Refused if refused."""

    def state(self) -> dict[str, Any]:
        """hand_sizes, turn, to_act, legal {"seat": [...]}, hands, views, waste_size, out."""

    def result(self) -> dict[str, Any] | None:
        """termination, bhabhi, losing_team, out_order; None while the hand goes on."""

    def next_hand(self, spec: Mapping[str, Any]) -> int:
        """Session cases: the previous hand is over; deal the next from ``spec["deal"]``
        (and ``spec["draws"]``), the dealer moving on as the ruleset says (C5, C16).

        Returns the seat the implementation chose as the new hand's dealer: the case's
        ``dealer`` of a later hand is what the rotation must give, never an input."""

    def session_result(self) -> dict[str, Any]:
        """hands_played, bhabhi_counts, losers, chips, pot_left, and over (C14, C15)."""

    def close(self) -> None:
        """Release what ``start`` took."""
