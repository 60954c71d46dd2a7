"""The deterministic Bhabhi engine: one hand (``Hand``) or many (``Session``)."""

from referee.cards import Card, card_str, cards_in, parse_card
from referee.engine.hand import Hand, LegalActions, SeatView
from referee.engine.session import Session, SessionResult
from referee.engine.types import (
    AGREE,
    CHALLENGE,
    LEGAL,
    PASS,
    PICK_UP,
    REFUSE,
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
    "AGREE",
    "CHALLENGE",
    "LEGAL",
    "PASS",
    "PICK_UP",
    "REFUSE",
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
