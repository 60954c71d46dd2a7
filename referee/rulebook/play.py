"""The middle sections: following suit, who leads next, getting out, taking a hand."""

from __future__ import annotations

from dataclasses import replace

from referee.rulebook.model import Sentence, SuitName
from referee.rulebook.sentences import (
    has_the_power,
    pickups_happen,
    rule,
    said,
    tochoo_game,
    waste_pile_kept,
    yes_no,
)
from referee.ruleset.model import (
    IfLeaderOut,
    IllegalPlay,
    OffSuitPlay,
    Ruleset,
    Shootout,
    TakeHandWhen,
    Trump,
)


def following(ruleset: Ruleset) -> list[Sentence]:
    """Following suit, what a player who cannot does, trumps, and a card that breaks C7."""
    play = ruleset.off_suit.play
    waste = yes_no(waste_pile_kept(ruleset))
    sentences = [rule("follow-suit", ("C7",))]
    if play is OffSuitPlay.DISCARD:
        sentences.append(rule("trick-complete", ("C8", "D2"), waste=waste))
    else:
        clauses = ("C8", "B5") if tochoo_game(ruleset) else ("C8",)
        sentences.append(rule("trick-clean", clauses, waste=waste))
    sentences.append(said(ruleset, "off_suit.play"))
    if tochoo_game(ruleset):
        sentences.append(said(ruleset, "off_suit.tochoo_picked_up_by"))
    if pickups_happen(ruleset):
        sentences.append(said(ruleset, "off_suit.pickup_takes"))
    if ruleset.trump is Trump.FIXED and ruleset.trump_suit is not None:
        suit = SuitName(ruleset.trump_suit.value)
        sentences.append(said(ruleset, "trump", also=("trump_suit",), suit=suit))
    else:
        sentences.append(said(ruleset, "trump"))
    if ruleset.trump is not Trump.NONE:
        beats = rule("trump-beats", _trump_clauses(ruleset))
        sentences.append(replace(beats, options=("trump",)))  # a variant's change (X5)
        sentences.append(rule("trump-high", _trump_clauses(ruleset)))
    sentences.append(said(ruleset, "illegal_play"))
    if ruleset.illegal_play is IllegalPlay.CHALLENGE:
        sentences.append(said(ruleset, "false_tochoo_penalty"))
    sentences.append(said(ruleset, "out_of_turn"))
    return sentences


def leading(ruleset: Ruleset) -> list[Sentence]:
    """Who leads after a clean trick, after a pickup, and when the leader has no cards."""
    leader = ruleset.next_leader
    power = yes_no(has_the_power(ruleset))
    # Under D1 every trick is played out, so it is "every trick", not "a clean trick".
    trick = "every" if ruleset.off_suit.play is OffSuitPlay.DISCARD else "clean"
    sentences = [said(ruleset, "next_leader.after_complete_trick", power=power, trick=trick)]
    if pickups_happen(ruleset):
        sentences.append(said(ruleset, "next_leader.after_pickup", power=power))
    sentences.append(said(ruleset, "next_leader.if_out"))
    if leader.if_out is IfLeaderOut.DRAWS_FROM_WASTE:
        sentences += [
            said(ruleset, "next_leader.draw_pile"),
            said(ruleset, "next_leader.draw"),
            said(ruleset, "next_leader.if_waste_empty"),
        ]
    if leader.if_out is IfLeaderOut.DRAWS_FROM_PLAYER:
        sentences.append(said(ruleset, "next_leader.draw_from"))
    return sentences


def getting_out(ruleset: Ruleset) -> list[Sentence]:
    """Going out (C9), and what changes when only two players are left (X2, H17-H19)."""
    draws = ruleset.next_leader.if_out in (
        IfLeaderOut.DRAWS_FROM_WASTE,
        IfLeaderOut.DRAWS_FROM_PLAYER,
    )
    end = ruleset.end
    sentences = [rule("going-out", ("C9",)), rule("same-trick-out", ("C11",))]
    # "Play goes on" with two left, except where the shootout (H17) ends the hand; and
    # nothing more to say of the tochoo or a shootout where X2 ends it at the pickup.
    shootout = yes_no(end.shootout is not Shootout.NONE)
    pickup_ends = end.two_left_pickup_loses
    if pickups_happen(ruleset):
        sentences.append(said(ruleset, "end.two_left_pickup_loses", shootout=shootout))
    tochoo = ruleset.off_suit.play is OffSuitPlay.TOCHOO
    if (tochoo and not pickup_ends) or end.two_left_tochoo_wins:
        sentences.append(said(ruleset, "end.two_left_tochoo_wins", shootout=shootout))
    if (draws and not pickup_ends) or end.shootout is not Shootout.NONE:
        sentences.append(said(ruleset, "end.shootout"))
    if draws or end.two_left_power_escapes:
        sentences.append(said(ruleset, "end.two_left_power_escapes"))
    return sentences


def taking(ruleset: Ruleset) -> list[Sentence]:
    """Taking another player's whole hand (B9, X1, H20-H24)."""
    sentences = [said(ruleset, "take_hand.when")]
    if ruleset.take_hand.when is TakeHandWhen.NEVER:
        return sentences
    # Under X1 only the player about to lead takes, so the leader's hand is never taken.
    leader_only = ruleset.take_hand.when is TakeHandWhen.LEADER_BEFORE_TRICK
    return [
        *sentences,
        said(ruleset, "take_hand.from"),
        said(ruleset, "take_hand.per_trick"),
        *([] if leader_only else [said(ruleset, "take_hand.lead_passes_to")]),
        said(ruleset, "take_hand.consent"),
        said(ruleset, "take_hand.before_first_trick"),
        said(ruleset, "take_hand.with_two_left"),
    ]


def _trump_clauses(ruleset: Ruleset) -> tuple[str, ...]:
    return ("X5",) if ruleset.trump is Trump.FIRST_OFF_SUIT_CARD else ("H12",)
