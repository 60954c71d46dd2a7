"""The rulebook as a document: sections of sentences, each a message and the clauses it states.

A sentence holds no words, only the id of a Fluent message (``locales/LANG.ftl``) and the
values it needs, so that one document renders in any language and any format.  Values that
need words of their own (a card, a suit, a list of ranks, the ruleset's title) are kept as
the small types below and put into words by :mod:`referee.rulebook.locale` in the language
being rendered, never by the builder.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.cards import RANKS, SUITS, Card, rank_of, suit_of
from referee.ruleset.model import Localized


@dataclass(frozen=True, slots=True)
class CardName:
    """A card, written as its language says (``the Ace of spades (A♠)``, ``das Pik-Ass``)."""

    rank: str
    """The rank as the compact notation writes it: ``2`` … ``10``, ``J``, ``Q``, ``K``, ``A``."""
    suit: str
    """``C``, ``D``, ``H`` or ``S``."""

    @classmethod
    def of(cls, card: Card) -> CardName:
        """The card's name, whichever pack it is of (a name says rank and suit only)."""
        return cls(RANKS[rank_of(card)], SUITS[suit_of(card)])


@dataclass(frozen=True, slots=True)
class SuitName:
    """A suit by its letter (``S``), written as its language says (``spades``, ``Pik``)."""

    suit: str


@dataclass(frozen=True, slots=True)
class RankList:
    """Ranks in the order given (``Ace, King, Queen … 2``), joined as the language joins lists."""

    ranks: tuple[str, ...]


Arg = int | str | CardName | SuitName | RankList | Localized
"""A value a message is given.  ``Localized`` is the ruleset's own text in each language."""


@dataclass(frozen=True, slots=True)
class Play:
    """One card of a worked example's trick, and the seat that played it."""

    seat: int
    card: CardName


@dataclass(frozen=True, slots=True)
class Example:
    """A trick of a hand-written conformance case (:mod:`referee.rulebook.examples`): its
    cards in the order played, and what the case records at its end, as sentences."""

    case: str
    """The case's ``name``: where a reader (and the suite) finds the whole game."""
    trick: int
    """The trick's number in the hand, from 0."""
    players: int
    plays: tuple[Play, ...]
    outcome: tuple[Sentence, ...]


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence of the rulebook: a Fluent message with its values.

    ``clauses`` are the catalogue clauses it states (read from the schema, see
    :mod:`referee.rulebook.clause_ids`); ``options`` are the ruleset options whose values it
    states (dotted paths, ``off_suit.play``), so that a house variant's changes can be shown
    by the sentences of the options it changes, and a test can find the sentence of any
    option."""

    message_id: str
    args: dict[str, Arg] = field(default_factory=dict)
    clauses: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    example: Example | None = None
    """A worked example of what the sentence states, shown under it."""


@dataclass(frozen=True, slots=True)
class Section:
    """A heading and its sentences.  ``key`` is the section's anchor (``deal``, ``take``)."""

    key: str
    heading: Sentence
    sentences: tuple[Sentence, ...]


@dataclass(frozen=True, slots=True)
class Rulebook:
    """The whole book of one resolved ruleset, in no language yet."""

    title: Sentence
    sections: tuple[Section, ...]
    ruleset_id: str
    ruleset_hash: str
    base_id: str | None = None
    """The ruleset this one ``extends``, when the book starts with how it differs."""

    def sentences(self) -> tuple[Sentence, ...]:
        return tuple(s for section in self.sections for s in section.sentences)

    def clauses(self) -> tuple[str, ...]:
        """Every clause the book states, in the order it first states them."""
        return tuple(dict.fromkeys(c for s in self.sentences() for c in s.clauses))
