"""Checks that relate several options, which JSON Schema cannot express.

They run only on a ruleset that passed the schema, so every key exists with the right type.
A conflict involves several keys, often from different files (a house rule shrinks
``deck.ranks`` of a base that sets ``first_lead.card``); each problem points at the first of
its keys that the checked file itself wrote, since that is where the person will change
something, and otherwise at the main key wherever it was written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.cards import RANKS, CardSyntaxError, pack_of, parse_card, rank_of
from referee.ruleset.problems import Code, Problem
from referee.ruleset.schema import Locate
from referee.ruleset.yamlsafe import KeyPath, dotted


def semantic_problems(
    ruleset: Mapping[str, Any], locate: Locate, own_file: str | None = None
) -> list[Problem]:
    """Problems of a schema-valid resolved ruleset that only show across several keys.

    ``own_file`` is the name of the file being checked (not a base it extends).
    """
    problems: list[Problem] = []

    def report(keys: tuple[KeyPath, ...], message: str) -> None:
        places = [(path, *locate(path, False)) for path in keys]
        path, file, mark = next((p for p in places if p[1] == own_file), places[0])
        problems.append(Problem(file, mark.line, mark.column, dotted(path), message, Code.SEMANTIC))

    deck, players, deal = ruleset["deck"], ruleset["players"], ruleset["deal"]
    low, high = players["min"], players["max"]
    ranks, packs = deck["ranks"], deck["packs"]

    if low > high:
        report(
            (("players", "min"), ("players", "max")),
            f"players.min ({low}) is greater than players.max ({high})",
        )

    if players["teams"] == "partners_opposite":
        for key, count in (("min", low), ("max", high)):
            if count % 2:
                report(
                    (("players", key), ("players", "teams")),
                    f"a team variant needs an even number of players, but players.{key} is "
                    f"{count} (teams: partners_opposite seats partners opposite each other)",
                )

    size = 4 * len(ranks) * packs
    if size < high:
        report(
            (("players", "max"), ("deck", "ranks"), ("deck", "packs")),
            f"the deck has {size} cards ({_plural(len(ranks), 'rank')} x 4 suits x "
            f"{_plural(packs, 'pack')}), too few for {high} players: "
            "every player must be dealt at least one card",
        )

    card_text = ruleset["first_lead"]["card"]
    try:
        card = parse_card(card_text)
    except CardSyntaxError as exc:  # pragma: no cover - the schema's pattern refuses it first
        report((("first_lead", "card"),), str(exc))
    else:
        rank = RANKS[rank_of(card)]
        if rank not in ranks:
            report(
                (("first_lead", "card"), ("deck", "ranks")),
                f"first lead card {card_text!r} is not in the deck: rank {rank} is not in "
                f"deck.ranks ({', '.join(ranks)})",
            )
        elif pack_of(card) >= packs:
            report(
                (("first_lead", "card"), ("deck", "packs")),
                f"first lead card {card_text!r} is not in the deck: it names pack "
                f"{pack_of(card) + 1}, but deck.packs is {packs}",
            )

    if ruleset["trump"] != "none" and ruleset["off_suit"]["play"] == "pickup":
        report(
            (("trump",), ("off_suit", "play")),
            "trump (X5) is fixed by the first card played by a player who cannot follow, "
            "but with off_suit.play: pickup nobody who cannot follow plays a card; use "
            "discard or tochoo, or trump: none",
        )

    dealer = deal["first_dealer"]
    if dealer >= high:
        report(
            (("deal", "first_dealer"), ("players", "max")),
            f"deal.first_dealer is seat {dealer}, but with at most {high} players the seats "
            f"are 0 to {high - 1}",
        )
    return problems


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"
