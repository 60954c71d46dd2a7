"""The German rulebook (``locales/de.ftl``): card grammar, plural forms and the game's words.

test_rulebook.py checks that every message of every language exists and renders; these check
what only German needs: a card's article and case (``den Herz-König``, ``den Kreuz-Buben``),
verbs and nouns that agree with a number (``ist nur eine Karte`` / ``sind nur diese 8
Karten``), and that two values of an option never read the same in German either.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_rulebook import CONTEXT, _values, ruleset_with, sentences_of

from referee.rulebook import build, render
from referee.rulebook.clause_ids import options
from referee.rulebook.loading import with_base
from referee.rulebook.locale import Localizer
from referee.rulebook.model import Arg, CardName, RankList, Sentence, SuitName

GERMAN = Localizer("de")


def _said(path: str, value: Any) -> list[str]:
    """The German sentences that state ``path: value`` on the bhabho base."""
    book = build(ruleset_with({**CONTEXT.get(path, {}), path: value}))
    return [GERMAN.sentence(s) for s in sentences_of(book, path)]


@pytest.mark.parametrize(
    ("rank", "suit", "written"),
    [
        ("A", "S", "das Pik-Ass (A♠)"),  # C6
        ("K", "H", "den Herz-König (K♥)"),
        ("Q", "D", "die Karo-Dame (D♦)"),
        ("J", "C", "den Kreuz-Buben (B♣)"),
        ("10", "D", "die Karo-10 (10♦)"),
        ("2", "S", "die Pik-2 (2♠)"),  # V3
    ],
)
def test_a_lead_card_is_written_with_its_article_in_the_accusative(
    rank: str, suit: str, written: str
) -> None:
    """C6/H7: "Wer den Herz-König hat", never "der" or a bare "Herz-König"; the Jack is a
    weak noun (den Buben). "Ist der Herz-König nicht im Spiel" takes the nominative, the
    attribute card-name.nominative of de.ftl."""
    card = CardName(rank, suit)
    leads = GERMAN.sentence(Sentence("first-lead-leads-the-card", {"card": card}))
    assert leads == f"Wer {written} hat, eröffnet damit den ersten Stich."
    nominative = written.replace("den ", "der ").replace("Buben", "Bube")
    for dealt, starts in (
        ("no", f"Ist {nominative} nicht im Spiel, "),
        ("yes", f"Beim Geben wird {nominative} immer mit ausgeteilt. "),
    ):
        args: dict[str, Arg] = {"card": card, "suit": SuitName(suit), "dealt": dealt}
        absent = GERMAN.sentence(Sentence("first-lead-if-absent-highest-of-suit", args))
        assert absent.startswith(starts)


def test_suits_are_the_german_suit_names() -> None:
    """H12: a fixed trump is named as the seeds name suits (Kreuz, Karo, Herz, Pik)."""
    names = {s: GERMAN.sentence(Sentence("trump-fixed", {"suit": SuitName(s)})) for s in "CDHS"}
    assert names == {
        "C": "Trumpf ist in jeder Runde Kreuz.",
        "D": "Trumpf ist in jeder Runde Karo.",
        "H": "Trumpf ist in jeder Runde Herz.",
        "S": "Trumpf ist in jeder Runde Pik.",
    }


@pytest.mark.parametrize(
    ("path", "value", "says"),
    [
        ("session.hands", 1, "Eine Partie besteht aus einer einzigen Runde."),  # C14
        ("session.hands", 2, "Eine Partie besteht aus 2 Runden."),
        ("session.bhabhi_limit", 1, "sobald ein Spieler einmal die Bhabhi war."),
        ("session.bhabhi_limit", 3, "sobald ein Spieler 3-mal die Bhabhi war."),
        ("session.chips", 1, "mit einem Einsatz von einem Chip."),  # C15
        ("session.chips", 3, "mit einem Einsatz von 3 Chips."),
        ("end.max_tricks", 1, "Eine Runde dauert höchstens einen Stich."),
        ("end.max_tricks", 1000, "Eine Runde dauert höchstens 1.000 Stiche."),
        ("deck.packs", 1, "Gespielt wird mit einem Kartendeck ohne Joker."),  # C1
        ("deck.packs", 2, "Gespielt wird mit 2 Kartendecks ohne Joker,"),  # X4
        ("deck.ranks", ["A"], "Von jeder Farbe ist nur eine Karte im Spiel: Ass."),
        (
            "deck.ranks",
            ["7", "8", "9", "10", "J", "Q", "K", "A"],
            "Von jeder Farbe sind nur diese 8 Karten im Spiel: 7, 8, 9, 10, Bube, Dame,"
            " König und Ass.",
        ),
    ],
)
def test_numbers_take_their_german_plural_form(path: str, value: Any, says: str) -> None:
    assert any(says in text for text in _said(path, value)), _said(path, value)


def test_the_lowest_rank_and_the_order_are_german_rank_names() -> None:
    """V3 with the remainder taken out: the Ace is the lowest card, "mit dem Wert Ass"."""
    book = build(
        ruleset_with(
            {"deck.ace": "low", "deal.remainder": "remove_lowest", "first_lead.card": "2S"}
        )
    )
    texts = [GERMAN.sentence(s) for s in book.sentences()]
    assert any("zuerst die Karten mit dem Wert Ass," in t for t in texts)
    assert any(
        "von hoch nach niedrig: König, Dame, Bube, 10, 9, 8, 7, 6, 5, 4, 3, 2 und Ass." in t
        for t in texts
    )
    assert GERMAN.message("rank-name", {"rank": "jack", "number": 0}) == "Bube"
    ranks = Sentence("deck-ranks-some", {"count": 2, "ranks": RankList(("Q", "K"))})
    assert "Dame und König" in GERMAN.sentence(ranks)


def test_every_value_says_something_else_in_german() -> None:
    """Two values of one option never read the same in German (as test_rulebook checks for
    English): a translation that merges two rules would hide a difference the referee makes."""
    for found in options():
        texts = {" ".join(_said(found.path, value)) for value in _values(found)}
        assert len(texts) == len(_values(found)), (found.path, texts)


def test_a_german_house_variant_names_its_base_and_uses_the_seed_words() -> None:
    """pagat-getaway against Bhabho (H17, H25, H26): the heading names the base by its German
    title, and the book speaks of Stich, Macht, Tochoo and Ablagestapel."""
    book = build(*with_base("pagat-getaway"))
    text = render(book, "de", "text")
    assert text.startswith("Spielanleitung: Getaway (Pagat)")
    assert "Was anders ist als bei Bhabho / Laad" in text
    for word in ("Stich", "die Macht", "Tochoo", "Ablagestapel", "bedienen", "die Bhabhi"):
        assert word in text, word
    page = render(book, "de", "html")
    assert '<html lang="de">' in page and "Regelwerk pagat-getaway" in page
