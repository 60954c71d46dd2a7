"""Any hand played on the engine (or the referee) written down as a conformance case.

A case holds the explicit deal, every B8 draw, and each action with the events it caused,
so that any implementation can replay it without our shuffle.  With ``full_state`` every
step also records the legal actions of every seat and every seat's view: golden files that
catch a game going wrong in the middle and coming right by chance.  A hand dealt from a seed
also carries ``fair_deal``: the seed, the commitment to it, and what re-deriving the deal
with the published shuffle needs (docs/shuffle.md), so that a player can check the deal
from the export alone (``bhabhi verify-deal``, ``bhabhi_client.fairdeal``).  The format is
described by ``conformance/schema/case.schema.json``.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from referee.cards import card_str
from referee.engine.components import RuleBook, dealt_deck
from referee.engine.hand import Hand
from referee.engine.shuffle import seed_commitment as commitment_of
from referee.ruleset.model import Ruleset

FORMAT = "bhabhi-case/1"


VIEW_OWN_KEYS = (
    "hand",
    "known_cards",
    "out",
    "out_order",
    "trick_number",
    "trick",
    "led_suit",
    "trump",
    "waste_size",
    "leader",
    "outcome",
)
"""The keys of a seat's view that the rest of a full state does not already say: the view's
``legal_actions``, ``turn``, ``to_act`` and ``hand_sizes`` repeat the state's, ``seat``,
``players`` and ``dealer`` the case's.  A large corpus keeps only these (``view_keys``)."""


def state_of(hand: Hand, view_keys: Collection[str] | None = None) -> dict[str, Any]:
    """What a case may check at a point: sizes, turn, every seat's legal actions and view
    (only ``view_keys`` of each view, when given)."""
    views = {str(s): hand.view(s).to_dict() for s in range(hand.players)}
    if view_keys is not None:
        views = {s: {k: v for k, v in view.items() if k in view_keys} for s, view in views.items()}
    return {
        "hand_sizes": list(hand.hand_sizes()),
        "turn": hand.to_move,
        "to_act": list(hand.seats_to_act()),
        "legal": {str(s): [str(a) for a in hand.legal_actions(s)] for s in range(hand.players)},
        "views": views,
    }


def deal_direction(book: RuleBook) -> str:
    """The way the cards go round (``fair_deal.direction``): the direction of play (C4), or
    clockwise under ``deal.order: seat_order`` (H4)."""
    return "clockwise" if book.deal_step == 1 else "counterclockwise"


def fair_deal_of(hand: Hand, seed_commitment: str | None = None) -> dict[str, Any] | None:
    """What checking the deal needs, in one place of the case: the seed as text, the
    commitment, the players, the dealer, the direction of the deal (of play, or H4's seat
    order) and the deck shuffled, in ascending card id (without the cards H1 takes out).
    None for a hand without a seed, or with one that is not UTF-8 text (an engine seed of
    raw bytes; the referee's are hex digits)."""
    if hand.seed is None:
        return None
    try:
        seed = hand.seed.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return {
        "seed": seed,
        "commitment": commitment_of(hand.seed) if seed_commitment is None else seed_commitment,
        "players": hand.players,
        "dealer": hand.dealer,
        "direction": deal_direction(hand.book),
        "deck": [card_str(c) for c in dealt_deck(hand.book, hand.players)],
    }


def export_hand(
    hand: Hand,
    *,
    name: str,
    description: str = "",
    clauses: list[str] | None = None,
    generated: bool = True,
    full_state: bool = False,
    ruleset_source: dict[str, Any] | None = None,
    view_keys: Collection[str] | None = None,
    fair_deal: bool = True,
    seed_commitment: str | None = None,
) -> dict[str, Any]:
    """The case of ``hand`` as a plain mapping (dump it as YAML or JSON).

    ``ruleset_source`` inlines the resolved ruleset for rulesets that are not bundled.
    ``view_keys`` keeps only those keys of each view in a full state (``VIEW_OWN_KEYS``
    drops what the state says already, a third of a generated game's size).
    ``fair_deal`` (for a hand dealt from a seed) writes what checking the deal needs;
    ``seed_commitment`` is the commitment published when the hand was dealt (the referee's
    ``HandDealt.seed_commitment``), written as it was, so that the check compares the seed
    with what the players saw; without it, the commitment of the hand's seed is written.
    """
    rules: Ruleset = hand.rules
    replay = Hand(
        rules,
        hand.players,
        deal=[list(cards) for cards in hand.deal],
        dealer=hand.dealer,
        draws=list(hand.draws_made),
    )
    steps: list[dict[str, Any]] = []
    for seat, action in hand.history:
        events = replay.apply(seat, action)
        step: dict[str, Any] = {
            "seat": seat,
            "action": str(action),
            "events": [e.to_dict() for e in events],
        }
        if full_state:
            step["state"] = state_of(replay, view_keys)
        steps.append(step)
    ruleset: dict[str, Any] = {"id": rules.id, "hash": rules.hash}
    if ruleset_source is not None:
        ruleset["inline"] = ruleset_source
    case: dict[str, Any] = {
        "format": FORMAT,
        "name": name,
        "description": description or f"A hand of {rules.id} with {hand.players} players.",
        "generated": generated,
        "clauses": list(clauses if clauses is not None else rules.clauses),
        "ruleset": ruleset,
        "players": hand.players,
        "dealer": hand.dealer,
        "deal": [" ".join(card_str(c) for c in cards) for cards in hand.deal],
    }
    if hand.seed is not None:
        case["seed"] = hand.seed.decode("utf-8", errors="replace")
        checkable = fair_deal_of(hand, seed_commitment) if fair_deal else None
        if checkable is not None:
            case["fair_deal"] = checkable
    if hand.draws_made:
        case["draws"] = [card_str(c) for c in hand.draws_made]
    if full_state:
        start = Hand(
            rules,
            hand.players,
            deal=[list(cards) for cards in hand.deal],
            dealer=hand.dealer,
            draws=list(hand.draws_made),
        )
        case["initial_state"] = state_of(start, view_keys)
    case["steps"] = steps
    if replay.outcome is not None:
        case["result"] = replay.outcome.to_dict()
    return case
