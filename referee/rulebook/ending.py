"""The last sections: the end of a hand and its open points, sessions, the referee's table."""

from __future__ import annotations

from referee.rulebook.model import Sentence
from referee.rulebook.sentences import counted, rule, said, yes_no
from referee.ruleset.model import (
    DeadPositionEnd,
    IfLeaderOut,
    IfWasteEmpty,
    OffSuitPlay,
    Ruleset,
    TakeHandWhen,
)


def end_of_hand(ruleset: Ruleset) -> list[Sentence]:
    """The Bhabhi (C10, C13, V2), and every way a hand is made to end."""
    return [
        rule("bhabhi-loses", ("C10", "C13")),
        said(ruleset, "end.all_out_together", never=yes_no(_power_keeps_the_last_in(ruleset))),
        said(ruleset, "end.at_dead_position", detected=yes_no(_dead_positions_detected(ruleset))),
        counted(ruleset, "end.max_tricks"),
        said(ruleset, "end.at_max_tricks"),
    ]


def session(ruleset: Ruleset) -> list[Sentence]:
    """How many hands, the count of Bhabhis, chips (C14, C15, H28)."""
    sentences = [
        counted(ruleset, "session.hands"),
        counted(ruleset, "session.bhabhi_limit"),
        rule("session-loser", ("C14",)),
        counted(ruleset, "session.chips"),
    ]
    if ruleset.session.chips:
        sentences.append(said(ruleset, "session.chips_by"))
    return sentences


def table(ruleset: Ruleset) -> list[Sentence]:
    """What the referee does at a table with a clock, and what the players see (H27, H29)."""
    # The clock picks up only where a player who cannot follow picks up (P1), and says it
    # never takes a hand only where hands can be taken (B9).
    pickup = yes_no(ruleset.off_suit.play is OffSuitPlay.PICKUP)
    takes = yes_no(ruleset.take_hand.when is not TakeHandWhen.NEVER)
    return [
        said(ruleset, "timeout_move", pickup=pickup, takes=takes),
        counted(ruleset, "timeout_bot_after"),
        said(ruleset, "hand_sizes"),
    ]


def _power_keeps_the_last_in(ruleset: Ruleset) -> bool:
    """B8: the last players never all go out on one trick, since its winner cannot get
    away (even from an empty waste pile, when the trick is drawn from) and, with everyone
    else out, is the Bhabhi holding no card; H19 lets the winner of two escape."""
    leader = ruleset.next_leader
    return (
        leader.if_out is IfLeaderOut.DRAWS_FROM_WASTE
        and leader.if_waste_empty is IfWasteEmpty.DRAWS_FROM_TRICK
        and not ruleset.end.two_left_power_escapes
    )


def _dead_positions_detected(ruleset: Ruleset) -> bool:
    """Whether the referee looks for a dead position (H31) under these rules, as
    ``referee.engine.deadpos.detects_dead_positions`` decides: only the pick-up family
    cycles (P1), and not where a hand can be taken (B9), where H31 plays on, or where H10
    passes the lead down; elsewhere the bound ends a hand that does not end."""
    return (
        ruleset.off_suit.play is OffSuitPlay.PICKUP
        and ruleset.take_hand.when is TakeHandWhen.NEVER
        and ruleset.end.at_dead_position is not DeadPositionEnd.PLAY_ON
        and ruleset.next_leader.if_out is not IfLeaderOut.NEXT_HIGHEST
    )
