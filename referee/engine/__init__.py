"""The deterministic Bhabhi engine: one hand (``Hand``) or many (``Session``)."""

from referee.cards import Card, card_str, cards_in, parse_card
from referee.engine.hand import Hand, LegalActions, SeatView
from referee.engine.session import Session, SessionResult
from referee.engine.types import (
    PICK_UP,
    TAKE_HAND,
    Action,
    ActionKind,
    EngineError,
    Event,
    IllegalActionError,
    Outcome,
    Reason,
    Termination,
)

__all__ = [
    "PICK_UP",
    "TAKE_HAND",
    "Action",
    "ActionKind",
    "Card",
    "EngineError",
    "Event",
    "Hand",
    "IllegalActionError",
    "LegalActions",
    "Outcome",
    "Reason",
    "SeatView",
    "Session",
    "SessionResult",
    "Termination",
    "card_str",
    "cards_in",
    "parse_card",
]
