"""Why a request is refused: one enum for the engine, the referee and the conformance suite.

A refusal's reason is a stable code that clients branch on; the engine's illegal actions,
the referee's refusals, the proto's ``RefusalReason`` enum (``REFUSAL_REASON_`` + the code in
capitals) and the conformance suite's negative steps (``refused: must_follow_suit``) all
use these values, so a code means one thing wherever it appears.  A test holds the proto's
enum and the documentation's table of reasons to this one.
"""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    # --- an action the rules do not allow here (the engine decides these) ---------------
    HAND_OVER = "hand_over"
    UNKNOWN_SEAT = "unknown_seat"
    PLAYER_OUT = "player_out"
    NOT_YOUR_TURN = "not_your_turn"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    CARD_NOT_IN_DECK = "card_not_in_deck"
    MUST_FOLLOW_SUIT = "must_follow_suit"
    MUST_LEAD_CARD = "must_lead_card"
    MUST_PICK_UP = "must_pick_up"
    PICKUP_NOT_ALLOWED = "pickup_not_allowed"
    TAKE_HAND_NOT_ALLOWED = "take_hand_not_allowed"
    # --- a request the referee refuses ---------------------------------------------------
    STALE_SEQ = "stale_seq"
    REQUEST_ID_REUSED = "request_id_reused"
    MISSING_REQUEST_ID = "missing_request_id"
    BAD_ACTION = "bad_action"
    UNAUTHENTICATED = "unauthenticated"
    BAD_CREDENTIAL = "bad_credential"
    TABLE_NOT_FOUND = "table_not_found"
    RULESET_NOT_FOUND = "ruleset_not_found"
    RULESET_EXISTS = "ruleset_exists"
    INVALID_RULESET = "invalid_ruleset"
    REGISTER_NOT_ALLOWED = "register_not_allowed"
    PLAYERS_NOT_ALLOWED = "players_not_allowed"
    BAD_TABLE_SETTINGS = "bad_table_settings"
    BAD_PLAYER_NAME = "bad_player_name"
    BAD_PAGE_TOKEN = "bad_page_token"
    TEST_MODE_REQUIRED = "test_mode_required"
    SEAT_TAKEN = "seat_taken"
    TABLE_FULL = "table_full"
    TABLE_NOT_OPEN = "table_not_open"
    TABLE_NOT_FULL = "table_not_full"
    TABLE_NOT_PLAYING = "table_not_playing"
    HAND_NOT_FOUND = "hand_not_found"
    HAND_NOT_OVER = "hand_not_over"
    BAD_AFTER_SEQ = "bad_after_seq"
    UNAVAILABLE = "unavailable"
    BAD_REQUEST = "bad_request"
    STORE_UNAVAILABLE = "store_unavailable"
    TABLE_BUSY = "table_busy"
    # --- limits: one client must not take what belongs to all ----------------------------
    TOO_MANY_TABLES = "too_many_tables"
    TOO_MANY_STREAMS = "too_many_streams"
    RATE_LIMITED = "rate_limited"
    CREATE_RATE_LIMITED = "create_rate_limited"
    VALIDATION_BUSY = "validation_busy"
    RULESET_TOO_COSTLY = "ruleset_too_costly"
    UPLOAD_RATE_LIMITED = "upload_rate_limited"
    # --- actions of the house rules' decisions (appended: a number keeps its reason) -----
    ACTION_NOT_ALLOWED = "action_not_allowed"
    """A decision (pass, challenge, agree, refuse, a chosen trump or target) that is not
    one of the seat's legal actions now, or a card a house rule does not allow (H5: not one
    of the highest; H12: before the dealer names the trump)."""
    # --- the rulebook ----------------------------------------------------------------------
    BAD_RULEBOOK_REQUEST = "bad_rulebook_request"
    """GetRulebook named a language or a format the referee does not write."""
    # --- the analysis ----------------------------------------------------------------------
    BAD_ANALYSIS_REQUEST = "bad_analysis_request"
    """AnalyzeRuleset asked for more hands than the referee plays, or a seed too long."""
    ANALYSIS_BUSY = "analysis_busy"
    """Every analysis worker and waiting place is taken, or the caller's own analysis is
    still running."""
    ANALYSIS_TOO_COSTLY = "analysis_too_costly"
    """The analysis used up its CPU time."""
    # --- bots already connected ------------------------------------------------------------
    BAD_BOT_KEY = "bad_bot_key"
    """A bot key too short or too long, or with a space or a character that is not printable
    ASCII."""
    BOT_NOT_WAITING = "bot_not_waiting"
    """HandSeat named a key no bot waits under on this referee."""
    BOT_ALREADY_WAITING = "bot_already_waiting"
    """AwaitSeats named a key another bot waits under already."""


ENGINE_REASONS = frozenset(
    [*list(Reason)[: list(Reason).index(Reason.STALE_SEQ)], Reason.ACTION_NOT_ALLOWED]
)
"""The reasons an engine gives for an illegal action (the conformance suite's vocabulary)."""
