"""Making sentences from options: the message id scheme and the clauses each states.

A sentence that states one option's value has the message id of the option's dotted path and
the value, in lower case joined by hyphens: ``off_suit.play: tochoo`` is
``off-suit-play-tochoo``, ``take_hand.consent: true`` is ``take-hand-consent-true``.  A
number's sentence is the path alone (``session-hands``, given ``$count``), or the path and
``none`` where the option is null or zero (``session-hands-none``).  Rules that no option
changes (everyone must follow suit, C7) are ``rule-…`` messages.  The ids are ASCII and
stable: a translator's file is keyed by them.
"""

from __future__ import annotations

from enum import StrEnum

from referee.rulebook.clause_ids import Value, clauses_of, option
from referee.rulebook.model import Arg, Sentence
from referee.ruleset.clauses import followed
from referee.ruleset.model import (
    FalseTochooPenalty,
    FirstTrickOffSuit,
    IfLeaderOut,
    IllegalPlay,
    OffSuitPlay,
    OutOfTurn,
    PickupTakes,
    Ruleset,
)

_ATTRIBUTES = {"from": "from_"}
"""Ruleset keys that are Python words, and the model's attribute for each."""


def value_at(ruleset: Ruleset, path: str) -> Value:
    """The option's value in the resolved ruleset, a left-out optional one at its default."""
    found: object = ruleset
    for key in path.split("."):
        found = getattr(found, _ATTRIBUTES.get(key, key))
    if isinstance(found, StrEnum):
        return found.value
    if isinstance(found, str | bool | int) or found is None:
        return found
    raise TypeError(f"{path} is not a plain option value: {found!r}")


def slug(text: str) -> str:
    return text.replace(".", "-").replace("_", "-").lower()


def message_of(path: str, value: Value) -> str:
    """The message id that states ``path: value`` (the scheme of this module's docstring)."""
    return f"{slug(path)}-{slug(str(value).lower())}"


def said(ruleset: Ruleset, path: str, *, also: tuple[str, ...] = (), **args: Arg) -> Sentence:
    """The sentence of ``path``'s value in ``ruleset``; ``also`` names options it states too
    (as arguments or as part of the sentence), whose clauses it carries as well."""
    value = value_at(ruleset, path)
    clauses = [*clauses_of(path, value)]
    for other in also:
        if option(other).values:  # a free value (a card, a number) says its own clauses
            clauses += clauses_of(other, value_at(ruleset, other))
    return Sentence(
        message_of(path, value), dict(args), tuple(dict.fromkeys(clauses)), (path, *also)
    )


def counted(ruleset: Ruleset, path: str, **args: Arg) -> Sentence:
    """The sentence of a number option: ``$count``, or the ``-none`` message for null or 0."""
    value = value_at(ruleset, path)
    clauses = clauses_of(path)
    if value is None or value == 0:
        return Sentence(f"{slug(path)}-none", dict(args), clauses, (path,))
    assert isinstance(value, int)
    return Sentence(slug(path), {"count": value, **args}, clauses, (path,))


def rule(name: str, clauses: tuple[str, ...], **args: Arg) -> Sentence:
    """A rule no option changes (``rule-follow-suit``), with the clauses that state it."""
    return Sentence(f"rule-{name}", dict(args), clauses)


def pickups_happen(ruleset: Ruleset) -> bool:
    """Some trick can end in a pickup: off-suit play picks up, or a penalty does (C12, H26)."""
    return (
        ruleset.off_suit.play is not OffSuitPlay.DISCARD
        or ruleset.illegal_play is IllegalPlay.PICKUP_PENALTY
        or ruleset.out_of_turn is OutOfTurn.PICKUP_PENALTY
    )


def tochoo_game(ruleset: Ruleset) -> bool:
    return ruleset.off_suit.play in (OffSuitPlay.TOCHOO, OffSuitPlay.TOCHOO_PLAYS_ON)


def yes_no(flag: bool) -> str:
    """A flag as a message's selector sees it (``{ $power -> [yes] … *[no] … }``): Fluent
    selects on strings and numbers, and a rulebook message is never given a bare bool."""
    return "yes" if flag else "no"


def has_the_power(ruleset: Ruleset) -> bool:
    """The game is played with "the power" (B3, B7, B8, H14): the word, and the rule that
    you cannot get away with it, belong to Bhabho; a pick-up book's trick winner just leads."""
    follows = followed(ruleset.source)
    return any(follows.get(c, False) for c in ("B3", "B7", "B8")) or (
        ruleset.next_leader.if_out is IfLeaderOut.DRAWS_FROM_PLAYER
    )


def waste_pile_kept(ruleset: Ruleset) -> bool:
    """Finished tricks go onto a waste pile that matters (B1, B5, B8, V4, H25's pickup); else,
    as the pick-up and discard documents say, they leave the hand for good."""
    waste_taken = ruleset.off_suit.pickup_takes is PickupTakes.TRICK_AND_WASTE
    return (
        tochoo_game(ruleset)
        or ruleset.first_trick.off_suit is FirstTrickOffSuit.DISCARD
        or ruleset.next_leader.if_out is IfLeaderOut.DRAWS_FROM_WASTE
        or (waste_taken and pickups_happen(ruleset))
        or (
            ruleset.illegal_play is IllegalPlay.CHALLENGE
            and ruleset.false_tochoo_penalty is FalseTochooPenalty.PICKUP_AND_LEAD
        )
    )


def raw_value(ruleset: Ruleset, path: str) -> object:
    """The option's value as the model holds it (a tuple of ranks, a card id), to compare."""
    found: object = ruleset
    for key in path.split("."):
        found = getattr(found, _ATTRIBUTES.get(key, key))
    return found
