"""Write the hand-written session cases (C5, C13-C16) for every bundled ruleset.

A session is ten short hands, so the cases come from a template rather than ten hands typed
out per ruleset; the expectations in it are reasoned from the rule texts, not taken from the
engine (``generated: false``).  Each hand deals three (or, for two-packs, six) players a
few spades so that the hand ends in one or two tricks with a Bhabhi we chose:

* pick-up family (P/D/V): the lead-card holder leads it (C6), everyone follows (C7), the trick
  is complete and leaves play (C8/D2); every player is then empty except the one dealt two
  spades, who is the Bhabhi (C9, C10).
* Bhabho family (B): the first trick is played by everyone and goes to the waste pile (B1);
  the first leader, dealt a second card (a heart), leads again (B2); the last other player
  holds only a spade, cannot follow, and plays it as a tochoo (B4), ending the trick: the
  leader, who played the highest heart, picks it up (B6) and is left alone: the Bhabhi (C10).
  Under X2 that same tochoo ends the hand with the leader as the Bhabhi (two_left_pickup).

The dealer moves on after every hand as the ruleset says (C5: clockwise, counterclockwise
or with play; H2: the Bhabhi of a hand deals the next, or the last player who picked up, who
in the Bhabho hands above is the Bhabhi and in the pick-up hands is nobody, so the deal moves
on with play); the session ends after session.hands hands (C14), Bhabhi counts decide the
losers (C14), chips are settled (C15: none in the bundled rulesets), and every hand is
dealt anew (C16).  Run: ``python tools/session_cases.py`` (rewrites conformance/cases/sessions/).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from referee.cards import card_str
from referee.ruleset.loader import bundled_ruleset_paths, load_ruleset
from referee.ruleset.model import DealerMoves, Direction, OffSuitPlay, Ruleset

OUT = Path(__file__).resolve().parents[1] / "conformance" / "cases" / "sessions"
# Who is the Bhabhi in each of the ten hands (seats 0-2): seat 2 four times, 0 and 1 three.
LOSERS = [2, 0, 1, 2, 0, 1, 2, 0, 1, 2]


def dealer_step(rules: Ruleset) -> int:
    moves = rules.deal.dealer_moves
    if moves in (DealerMoves.WITH_PLAY, DealerMoves.BHABHI_DEALS, DealerMoves.LAST_PICKER_DEALS):
        return 1 if rules.direction is Direction.CLOCKWISE else -1
    return 1 if moves is DealerMoves.CLOCKWISE else -1


def chosen_dealer(rules: Ruleset, previous_bhabhi: int, bhabho: bool) -> int | None:
    """H2: the seat the previous hand names as the next dealer, None when the deal rotates.
    Every hand here has a Bhabhi; in the Bhabho hands the Bhabhi is also the last to pick up
    (the final tochoo), in the pick-up hands nobody picks up."""
    moves = rules.deal.dealer_moves
    if moves is DealerMoves.BHABHI_DEALS:
        return previous_bhabhi
    if moves is DealerMoves.LAST_PICKER_DEALS and bhabho:
        return previous_bhabhi
    return None


def pickup_hand(rules: Ruleset, bhabhi: int, players: int) -> dict[str, Any]:
    """Lead card to the seat after the Bhabhi; everyone follows; the Bhabhi keeps one."""
    lead = card_str(rules.first_lead.card)
    step = 1 if rules.direction is Direction.CLOCKWISE else -1
    leader = (bhabhi + step) % players
    spare = ["KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S"]
    spare = [c for c in spare if c != lead]
    deal = [""] * players
    order = [(leader + step * k) % players for k in range(players)]
    steps = []
    for k, seat in enumerate(order):
        card = lead if k == 0 else spare[k - 1]
        deal[seat] = card
        steps.append({"seat": seat, "action": card})
    deal[bhabhi] += " 3S" if lead != "3S" else " 4S"
    return {
        "deal": deal,
        "steps": steps,
        "result": {"termination": "last_player", "bhabhi": bhabhi},
    }


def bhabho_hand(rules: Ruleset, bhabhi: int, players: int, two_left: bool) -> dict[str, Any]:
    """The Bhabhi leads AS and a heart; the others follow the first trick; the last one
    left plays a spade tochoo on the heart and the Bhabhi must pick it up."""
    step = 1 if rules.direction is Direction.CLOCKWISE else -1
    order = [(bhabhi + step * k) % players for k in range(players)]
    spades = ["KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S"]
    deal = [""] * players
    deal[bhabhi] = "AS 5H"
    steps: list[dict[str, Any]] = [{"seat": bhabhi, "action": "AS"}]
    last = order[-1]
    for k, seat in enumerate(order[1:]):
        deal[seat] = spades[k] + (" 2S" if seat == last else "")
        steps.append({"seat": seat, "action": spades[k]})
    steps.append({"seat": bhabhi, "action": "5H"})
    steps.append({"seat": last, "action": "2S"})
    termination = "two_left_pickup" if two_left else "last_player"
    return {"deal": deal, "steps": steps, "result": {"termination": termination, "bhabhi": bhabhi}}


def session_case(rules: Ruleset) -> dict[str, Any]:
    players = 6 if rules.players.min > 3 else (4 if rules.players.teams.value != "none" else 3)
    hands_count = rules.session.hands or 10
    losers = [LOSERS[k % len(LOSERS)] for k in range(hands_count)]
    bhabho = rules.off_suit.play is OffSuitPlay.TOCHOO
    first_dealer = 0
    step = dealer_step(rules)
    hands: list[dict[str, Any]] = []
    dealer = first_dealer
    for k, loser in enumerate(losers):
        if bhabho:
            hand = bhabho_hand(rules, loser, players, rules.end.two_left_pickup_loses)
        else:
            hand = pickup_hand(rules, loser, players)
        if k:
            chosen = chosen_dealer(rules, losers[k - 1], bhabho)
            dealer = (dealer + step) % players if chosen is None else chosen
        hand["dealer"] = dealer
        hands.append(hand)
    counts = [losers.count(s) for s in range(players)]
    top = max(counts)
    first, rest = hands[0], hands[1:]
    clauses = ["C5", "C10", "C13", "C14", "C15", "C16"]
    chooses = rules.deal.dealer_moves in (DealerMoves.BHABHI_DEALS, DealerMoves.LAST_PICKER_DEALS)
    if chooses:
        clauses.append("H2")
    return {
        "format": "bhabhi-case/1",
        "name": f"sessions/{rules.id}",
        "description": (
            f"A whole session of {rules.id}: {hands_count} short hands with {players} players "
            "whose Bhabhi we chose (see tools/session_cases.py for the reasoning of each hand). "
            + (
                "The Bhabhi of each hand deals the next (H2, deal.dealer_moves: "
                f"{rules.deal.dealer_moves.value}), every hand is dealt anew (C16), "
                if chooses
                else "The dealer moves on as deal.dealer_moves says (C5), every hand is dealt "
                "anew (C16), "
            )
            + "the session ends after session.hands hands (C14) and the seat with the most "
            "Bhabhi counts loses it (C14); no chips change hands (C15, chips: 0)."
        ),
        "generated": False,
        "clauses": clauses,
        "ruleset": {"id": rules.id},
        "players": players,
        "dealer": first["dealer"],
        "deal": first["deal"],
        "steps": first["steps"],
        "result": first["result"],
        "next_hands": rest,
        "session_result": {
            "over": True,
            "hands_played": hands_count,
            "bhabhi_counts": counts,
            "losers": [s for s, c in enumerate(counts) if c == top],
            "chips": [0] * players,
            "pot_left": 0,
        },
    }


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for ruleset_id in sorted(bundled_ruleset_paths()):
        case = session_case(load_ruleset(ruleset_id))
        text = yaml.safe_dump(case, sort_keys=False, allow_unicode=True, width=100)
        (OUT / f"{ruleset_id}.yaml").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
