"""The first sections: the game and its players, the cards, the deal, the first trick."""

from __future__ import annotations

from referee.cards import RANKS, SUITS, card_str, rank_of, suit_of
from referee.rulebook.clause_ids import clauses_of
from referee.rulebook.model import CardName, RankList, Sentence, SuitName
from referee.rulebook.sentences import counted, rule, said, tochoo_game, yes_no
from referee.ruleset.clauses import ALWAYS
from referee.ruleset.model import (
    AceRank,
    DealRemainder,
    FirstTrickOffSuit,
    IllegalPlay,
    OffSuitPlay,
    OutOfTurn,
    Ruleset,
)


def game(ruleset: Ruleset) -> list[Sentence]:
    """What the game is, who wins and loses, how many play, which way round."""
    players = ruleset.players
    player_clauses = value_clauses("players.min", "players.max")
    count = (
        Sentence(
            "players-exact",
            {"count": players.min},
            player_clauses,
            ("players.min", "players.max"),
        )
        if players.min == players.max
        else Sentence(
            "players-range",
            {"min": players.min, "max": players.max},
            player_clauses,
            ("players.min", "players.max"),
        )
    )
    return [
        rule("game-goal", _always("C9", "C10")),
        Sentence("ruleset-description", {"description": ruleset.description}),
        count,
        said(ruleset, "players.teams"),
        said(ruleset, "direction"),
    ]


def cards(ruleset: Ruleset) -> list[Sentence]:
    """The pack, the ranks in each suit and their order."""
    deck = ruleset.deck
    ranks = _ranks_low_to_high(ruleset)
    high_to_low = RankList(tuple(reversed(ranks)))
    sentences = [
        counted(ruleset, "deck.packs"),
        Sentence(
            "deck-ranks-all" if len(ranks) == len(RANKS) else "deck-ranks-some",
            {"count": len(ranks), "ranks": RankList(tuple(ranks))},
            value_clauses("deck.ranks"),
            ("deck.ranks",),
        ),
        said(ruleset, "deck.ace", order=high_to_low),
    ]
    if deck.packs > 1:
        sentences.append(said(ruleset, "deck.identical_cards"))
    return sentences


def deal(ruleset: Ruleset) -> list[Sentence]:
    """Who deals, how the cards go round, who deals next."""
    lowest = _lowest_rank(ruleset)
    return [
        Sentence(
            "deal-first-dealer",
            {"seat": ruleset.deal.first_dealer},
            value_clauses("deal.first_dealer"),
            ("deal.first_dealer",),
        ),
        said(ruleset, "deal.order"),
        said(ruleset, "deal.remainder", lowest=RankList((lowest,))),
        said(ruleset, "deal.dealer_moves"),
        rule("redeal", _always("C16")),
    ]


def first_trick(ruleset: Ruleset) -> list[Sentence]:
    """Who leads the first card, what the first trick allows, who leads the second."""
    lead = ruleset.first_lead.card
    card = CardName.of(lead)
    lead_clauses = _lead_card_clauses(ruleset)
    leads = said(ruleset, "first_lead.leads", also=("first_lead.card",), card=card)
    sentences = [
        Sentence(
            leads.message_id,
            leads.args,
            tuple(dict.fromkeys((*lead_clauses, *leads.clauses))),
            leads.options,
        ),
        said(
            ruleset,
            "first_lead.if_absent",
            card=card,
            suit=SuitName(card.suit),
            dealt=yes_no(not _lead_card_can_be_out(ruleset)),
        ),
        *([rule("lead-card-first-pack", ("X4",), card=card)] if ruleset.deck.packs > 1 else []),
        said(ruleset, "first_trick.off_suit", penalty=yes_no(_first_trick_penalised(ruleset))),
    ]
    discards = ruleset.first_trick.off_suit is FirstTrickOffSuit.DISCARD
    someone_plays_off_suit = ruleset.off_suit.play is not OffSuitPlay.PICKUP or discards
    if someone_plays_off_suit:
        # Where the first trick is like the others (H8), a void player's card is a tochoo.
        tochoo = tochoo_game(ruleset) and not discards
        sentences.append(said(ruleset, "first_trick.void_plays", tochoo=yes_no(tochoo)))
    # A first trick played out with other suits in it (B1, X3) is neither clean nor picked
    # up: for the second lead it counts as clean, as the engine plays it.
    discarded = ruleset.first_trick.off_suit is FirstTrickOffSuit.DISCARD
    sentences.append(said(ruleset, "first_trick.next_leader", discarded=yes_no(discarded)))
    return sentences


def value_clauses(*paths: str) -> tuple[str, ...]:
    """The clauses of a free value (a number, a card, the ranks): the option's own, of which
    the builder keeps those the ruleset follows (C2 only for 3 to 8 players)."""
    return tuple(dict.fromkeys(c for path in paths for c in clauses_of(path)))


def _lead_card_clauses(ruleset: Ruleset) -> tuple[str, ...]:
    """C6 for the Ace of spades; V3 for the 2 of spades with Aces low; H7 for another card."""
    written = card_str(ruleset.first_lead.card)
    if written == "AS":
        return ("C6",)
    if written == "2S" and ruleset.deck.ace is AceRank.LOW:
        return ("C6", "V3")
    return ("H7",)


def _first_trick_penalised(ruleset: Ruleset) -> bool:
    """H25, H26: a false tochoo's challenge or a card out of turn is punished on the first
    trick too, so B1's "nobody picks it up" holds only without them."""
    return (
        ruleset.out_of_turn is OutOfTurn.PICKUP_PENALTY
        or ruleset.illegal_play is not IllegalPlay.REJECT
    )


def _lead_card_can_be_out(ruleset: Ruleset) -> bool:
    """Whether a deal can leave the lead card out of play (C6): only H1's ``remove_lowest``
    does, when for some player count the cards it takes out reach every copy of it.

    The order is the engine's (``referee.engine.components.removed_cards``): weakest rank
    first, clubs, diamonds, hearts, spades within a rank, the first pack first."""
    deck = ruleset.deck
    if ruleset.deal.remainder is not DealRemainder.REMOVE_LOWEST:
        return False
    ranks = _ranks_low_to_high(ruleset)
    lead = ruleset.first_lead.card
    per_rank = len(SUITS) * deck.packs
    last_copy = ranks.index(RANKS[rank_of(lead)]) * per_rank + (suit_of(lead) + 1) * deck.packs
    size = len(ranks) * per_rank
    counts = range(ruleset.players.min, ruleset.players.max + 1)
    return any(size % n >= last_copy for n in counts if ruleset.players.allows(n))


def _ranks_low_to_high(ruleset: Ruleset) -> list[str]:
    deck = ruleset.deck
    ranks = [r for r in RANKS if r in deck.ranks]
    if deck.ace is AceRank.LOW and "A" in ranks:
        ranks = ["A", *[r for r in ranks if r != "A"]]
    return ranks


def _lowest_rank(ruleset: Ruleset) -> str:
    return _ranks_low_to_high(ruleset)[0]


def _always(*clauses: str) -> tuple[str, ...]:
    """Clauses every ruleset follows (``referee.ruleset.clauses.ALWAYS``): checked, not typed
    twice, so that a clause that stops being unconditional is noticed here."""
    missing = [c for c in clauses if c not in ALWAYS]
    assert not missing, missing
    return clauses
