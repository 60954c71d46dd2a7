"""The Polish rulebook (``locales/pl.ftl``): numbers take the plural form CLDR gives Polish
(1 gracz, 2 graczy, 5 graczy, 22 graczy; 1 karta, 2 karty, 5 kart, 22 karty), cards are named
as Polish players name them, and the rank that deal.remainder removes first is declined.

test_rulebook.py already checks that every message renders at every plural form without a
Fluent error; this file checks that the forms it picks are the right Polish words.
"""

from __future__ import annotations

import pytest

from referee.rulebook.locale import Localizer
from referee.rulebook.model import CardName, RankList

POLISH = Localizer("pl")
ALL_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


@pytest.mark.parametrize(
    ("count", "says"),
    [
        (1, "To gra dla jednego gracza."),
        (2, "W tę grę gra dokładnie 2 graczy."),
        (5, "W tę grę gra dokładnie 5 graczy."),
        (22, "W tę grę gra dokładnie 22 graczy."),
    ],
)
def test_players_exact_counts_players_in_polish(count: int, says: str) -> None:
    """C2: the number of players, "gracz" after one, "graczy" (masculine personal) after 2-4
    and after 5 or more."""
    assert POLISH.message("players-exact", {"count": count}) == says


@pytest.mark.parametrize(
    ("maximum", "says"),
    [
        (1, "od 1 do 1 gracza."),
        (2, "od 1 do 2 graczy."),
        (5, "od 1 do 5 graczy."),
        (22, "od 1 do 22 graczy."),
    ],
)
def test_players_range_puts_the_maximum_in_the_genitive(maximum: int, says: str) -> None:
    """C2: "od … do" takes the genitive, singular after one."""
    assert POLISH.message("players-range", {"min": 1, "max": maximum}).endswith(says)


@pytest.mark.parametrize(
    ("count", "says"),
    [
        (1, "W każdym kolorze jest tylko jedna karta: as."),
        (2, "W każdym kolorze są tylko 2 karty: król i as."),
        (5, "W każdym kolorze jest tylko 5 kart: 10, walet, dama, król i as."),
        (22, "W każdym kolorze są tylko 22 karty: "),
    ],
)
def test_a_short_suit_counts_cards_and_the_verb_agrees(count: int, says: str) -> None:
    """C1 with deck.ranks: "jest 1 karta", "są 2 karty", "jest 5 kart", "są 22 karty"."""
    ranks = RankList(ALL_RANKS[-count:] if count <= len(ALL_RANKS) else ALL_RANKS)
    text = POLISH.message("deck-ranks-some", {"count": count, "ranks": ranks})
    assert text.startswith(says)
    assert text.endswith("Pozostałe karty wyjmuje się z talii i nie biorą one udziału w grze.")


@pytest.mark.parametrize(
    ("count", "says"),
    [(1, "jedną lewę."), (2, "2 lewy."), (5, "5 lew."), (22, "22 lewy.")],
)
def test_the_longest_hand_counts_tricks(count: int, says: str) -> None:
    assert POLISH.message("end-max-tricks", {"count": count}) == f"Rozdanie trwa najwyżej {says}"


@pytest.mark.parametrize(
    ("rank", "suit", "accusative", "genitive"),
    [
        ("A", "S", "asa pik (A♠)", "asa pik (A♠)"),
        ("K", "H", "króla kier (K♥)", "króla kier (K♥)"),
        ("Q", "D", "damę karo (D♦)", "damy karo (D♦)"),
        ("J", "C", "waleta trefl (W♣)", "waleta trefl (W♣)"),
        ("10", "H", "dziesiątkę kier (10♥)", "dziesiątki kier (10♥)"),
        ("2", "S", "dwójkę pik (2♠)", "dwójki pik (2♠)"),  # V3
    ],
)
def test_the_first_lead_card_is_declined_in_polish(
    rank: str, suit: str, accusative: str, genitive: str
) -> None:
    """C6/H7: "gracz, który ma asa pik" takes the accusative and "nikt nie ma damy karo" the
    genitive of negation; the forms are attributes of card-name in pl.ftl, not code."""
    card = CardName(rank, suit)
    leads = POLISH.message("first-lead-leads-the-card", {"card": card})
    assert leads == f"Gracz, który ma {accusative}, wychodzi tą kartą do pierwszej lewy."
    absent = POLISH.message(
        "first-lead-if-absent-player-after-dealer", {"card": card, "dealt": "no"}
    )
    assert absent.startswith(f"Jeśli nikt nie ma {genitive}, bo ta karta nie bierze udziału")
    dealt = POLISH.message(
        "first-lead-if-absent-player-after-dealer", {"card": card, "dealt": "yes"}
    )
    assert dealt.startswith(f"W każdym rozdaniu ktoś dostaje {accusative}. Gdyby tej karty")


@pytest.mark.parametrize(
    ("lowest", "says"),
    [("2", "najpierw karty o wartości 2 "), ("A", "najpierw asy "), ("J", "najpierw walety ")],
)
def test_the_lowest_rank_removed_first_is_declined(lowest: str, says: str) -> None:
    """H1: aces, jacks and queens in the plural ("asy"); a number card by its value."""
    text = POLISH.message("deal-remainder-remove-lowest", {"lowest": RankList((lowest,))})
    assert says in text
