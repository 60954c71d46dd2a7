"""Sentences into words: one Project Fluent file per language, ``locales/LANG.ftl``.

Numbers reach Fluent as numbers, so plural forms come from the CLDR rules (Babel) through
Fluent's selectors (``{ $count -> [one] … *[other] … }``), never from code; cards, suits and
ranks are messages of the language file too (``card-name``, ``suit-name``, ``rank-name``),
so each language writes its own card grammar.  A card is declined by the language file, not
by code: every attribute of ``card-name`` (``.dative``, ``.genitive``, ``.instrumental`` …)
reaches a sentence given a card as ``$card`` as one more variable, ``$card-dative`` and so
on, so a sentence picks the form its grammar needs.  A message that is missing, or that names a
variable or message it is not given, is an error (:class:`RulebookTextError`), never a key
name or ``{…}`` in the printed book: the rulebook's completeness test relies on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path

from babel.lists import format_list
from fluent.runtime import FluentBundle, FluentResource

from referee.cards import SUIT_NAMES
from referee.rulebook.model import Arg, CardName, Example, RankList, Sentence, SuitName
from referee.ruleset.catalogue import Clause
from referee.ruleset.model import Localized

LOCALES = Path(__file__).resolve().parent / "locales"

RANK_KEYS = {
    "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "10": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace",
}  # fmt: skip
"""The selector key a language file's ``rank-name`` and ``card-name`` see for each rank
(words: Fluent compares a string variable with a number key as never equal)."""
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
CATALOGUE_LANGUAGE = "en"
"""The language ``rules/catalogue.yaml`` is written in: its clauses need no messages."""


class RulebookTextError(ValueError):
    """A sentence has no words in a language, or its words need a value it was not given."""


def languages() -> tuple[str, ...]:
    """Every language with a file in ``locales/``: adding ``fr.ftl`` adds French."""
    return tuple(sorted(path.stem for path in LOCALES.glob("*.ftl")))


class Localizer:
    """The words of one language."""

    def __init__(self, language: str) -> None:
        if language not in languages():
            raise RulebookTextError(
                f"no rulebook language {language!r} (there are: {', '.join(languages())})"
            )
        self.language = language
        self._bundle = _bundle(language)

    def has(self, message_id: str) -> bool:
        return self._bundle.has_message(message_id)

    def message(self, message_id: str, args: Mapping[str, Arg] | None = None) -> str:
        """The message's text with ``args`` put in; raises RulebookTextError on any fault."""
        if not self._bundle.has_message(message_id):
            raise RulebookTextError(f"{self.language}.ftl has no message {message_id!r}")
        pattern = self._bundle.get_message(message_id).value
        if pattern is None:
            raise RulebookTextError(f"{self.language}.ftl: message {message_id!r} has no value")
        values: dict[str, str | int] = {}
        for name, value in (args or {}).items():
            values[name] = self._value(value)
            if isinstance(value, CardName):
                values.update(self._card_forms(name, value))
        text, errors = self._bundle.format_pattern(pattern, values)
        if errors:
            faults = "; ".join(str(e) for e in errors)
            raise RulebookTextError(f"{self.language}.ftl: {message_id}: {faults}")
        return str(text)

    def attribute(self, message_id: str, name: str, args: Mapping[str, Arg] | None = None) -> str:
        """A message's attribute (a glossary entry's ``.term``, a card's ``.genitive``),
        with the same checks."""
        if not self._bundle.has_message(message_id):
            raise RulebookTextError(f"{self.language}.ftl has no message {message_id!r}")
        pattern = self._bundle.get_message(message_id).attributes.get(name)
        if pattern is None:
            raise RulebookTextError(f"{self.language}.ftl: {message_id} has no .{name}")
        values = {key: self._value(value) for key, value in (args or {}).items()}
        text, errors = self._bundle.format_pattern(pattern, values)
        if errors:
            raise RulebookTextError(f"{self.language}.ftl: {message_id}.{name}: {errors[0]}")
        return str(text)

    def clause(self, clause: Clause) -> tuple[str, str]:
        """A catalogue clause's title and text in this language."""
        if self.language == CATALOGUE_LANGUAGE:
            return clause.title, clause.text
        message_id = f"clause-{clause.id}"
        return self.attribute(message_id, "title"), self.message(message_id)

    def sentence(self, sentence: Sentence) -> str:
        return self.message(sentence.message_id, sentence.args)

    def example(self, example: Example) -> tuple[str, str]:
        """A worked example in words: the trick (its cards as the language lists them) and
        what happens at its end."""
        plays = [
            self.message("example-play", {"seat": p.seat, **_card_args(p.card.rank, p.card.suit)})
            for p in example.plays
        ]
        trick = self.message(
            "example-trick",
            {
                "case": example.case,
                "players": example.players,
                "plays": str(format_list(plays, locale=self.language)),
            },
        )
        return trick, " ".join(self.sentence(s) for s in example.outcome)

    def _card_forms(self, name: str, card: CardName) -> dict[str, str | int]:
        """The card's other grammatical forms, one per attribute of ``card-name`` (whose
        value :meth:`_value` has already written, so the message exists)."""
        args = _card_args(card.rank, card.suit)
        attributes = self._bundle.get_message("card-name").attributes
        return {f"{name}-{a}": self.attribute("card-name", a, args) for a in attributes}

    def _value(self, value: Arg) -> str | int:
        if isinstance(value, bool):
            raise RulebookTextError("a rulebook message is never given a bare true or false")
        if isinstance(value, int | str):
            return value
        if isinstance(value, Localized):
            return str(getattr(value, self.language, value.en))
        if isinstance(value, CardName):
            return self.message("card-name", _card_args(value.rank, value.suit))
        if isinstance(value, SuitName):
            return self.message("suit-name", {"suit": SUIT_NAMES[value.suit]})
        if isinstance(value, RankList):
            names = [self.message("rank-name", _rank_args(rank)) for rank in value.ranks]
            return str(format_list(names, locale=self.language))
        raise TypeError(f"not a rulebook value: {value!r}")


def _rank_args(rank: str) -> dict[str, Arg]:
    return {"rank": RANK_KEYS[rank], "number": int(rank) if rank.isdigit() else 0}


def _card_args(rank: str, suit: str) -> dict[str, Arg]:
    return {**_rank_args(rank), "suit": SUIT_NAMES[suit], "symbol": SUIT_SYMBOLS[suit]}


@cache
def _bundle(language: str) -> FluentBundle:
    bundle = FluentBundle([language], use_isolating=False)
    text = (LOCALES / f"{language}.ftl").read_text(encoding="utf-8")
    bundle.add_resource(FluentResource(text))
    return bundle
