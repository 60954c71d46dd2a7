"""The deterministic Bhabhi engine: one hand (``Hand``) or many (``Session``)."""

from referee.cards import Card, card_str, cards_in, parse_card
from referee.engine.hand import Hand, LegalActions, SeatView
from referee.engine.session import Session, SessionResult
from referee.engine.types import (
    LEGAL,
    PICK_UP,
    TAKE_HAND,
    Action,
    ActionKind,
    EngineError,
    Event,
    IllegalActionError,
    Judgement,
    Outcome,
    Reason,
    Termination,
    Verdict,
)

__all__ = [
    "LEGAL",
    "PICK_UP",
    "TAKE_HAND",
    "Action",
    "ActionKind",
    "Card",
    "EngineError",
    "Event",
    "Hand",
    "IllegalActionError",
    "Judgement",
    "LegalActions",
    "Outcome",
    "Reason",
    "SeatView",
    "Session",
    "SessionResult",
    "Termination",
    "Verdict",
    "card_str",
    "cards_in",
    "parse_card",
]
