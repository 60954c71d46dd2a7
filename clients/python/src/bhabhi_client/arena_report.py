"""``bhabhi arena``'s results: ratings, Bhabhi rates with intervals, the crosstable, the
JSON document and the terminal table.

Ratings come from ``openskill`` (the Plackett-Luce model, its default), which rates
multiplayer results with ties: each hand, in the schedule's order, is one match whose
ranking is the order of getting out, the Bhabhi last, those still in at a hand ended by a
bound tied (``HandRecord.places``).  The rating reported is the model's ordinal,
``mu - 3 sigma``: a skill the entrant is very likely above, so that an entrant with few
hands is not ranked high on luck.

A Bhabhi rate is a proportion of hands; its 95% interval is Wilson's score interval, which
stays inside [0, 1] and behaves at rates near 0 or 1 and with few hands, where the normal
approximation does not.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from bhabhi_client.arena import Entrant, HandRecord, Sitting

Z95 = 1.959963984540054
"""The standard normal's 97.5th percentile: a two-sided 95% interval."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of a proportion (``successes`` of ``trials``); (0, 1), all
    it can say, without trials."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denominator = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    # At 0 or all successes a bound is exactly 0 or 1 (rounding would leave a trace).
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == trials else min(1.0, centre + half)
    return (lo, hi)


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``, the figure entrants are ranked by."""
        return self.mu - 3 * self.sigma


def rating_history(
    entrants: Sequence[Entrant], hands: Sequence[HandRecord]
) -> list[dict[str, Rating]]:
    """Every entrant's rating before the first hand and after each hand, the hands rated
    one by one in the order given."""
    model = PlackettLuce()
    current = {e.name: model.rating(name=e.name) for e in entrants}
    history = [{name: Rating(r.mu, r.sigma) for name, r in current.items()}]
    for hand in hands:
        seats = hand.sitting.seats
        places = [float(p) for p in hand.places()]
        rated = model.rate([[current[name]] for name in seats], ranks=places)
        for name, team in zip(seats, rated, strict=True):
            current[name] = team[0]
        history.append({name: Rating(r.mu, r.sigma) for name, r in current.items()})
    return history


def ratings(entrants: Sequence[Entrant], hands: Sequence[HandRecord]) -> dict[str, Rating]:
    """Every entrant's rating after the hands."""
    return rating_history(entrants, hands)[-1]


@dataclass(frozen=True, slots=True)
class Standing:
    """One entrant's figures over the league."""

    name: str
    strategy: str
    hands: int
    bhabhis: int
    timeouts: int
    crashes: int
    rating: Rating

    @property
    def bhabhi_rate(self) -> float:
        return self.bhabhis / self.hands if self.hands else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(self.bhabhis, self.hands)

    @property
    def failures(self) -> int:
        """Seats the entrant did not play itself: turn clocks run out and bots failed."""
        return self.timeouts + self.crashes


def _seats_of(hand: HandRecord, name: str) -> list[int]:
    return [s for s, who in enumerate(hand.sitting.seats) if who == name]


def standings(entrants: Sequence[Entrant], hands: Sequence[HandRecord]) -> list[Standing]:
    """Every entrant's standing, in the order the entrants were given: its figures over the
    hands it sat in (with more entrants than seats, fewer than the league's)."""
    rated = ratings(entrants, hands)
    table = []
    for entrant in entrants:
        played = bhabhis = timeouts = crashes = 0
        for hand in hands:
            for seat in _seats_of(hand, entrant.name):
                played += 1
                bhabhis += hand.bhabhi == seat
                timeouts += hand.timeouts[seat]
                crashes += hand.crashes[seat]
        table.append(
            Standing(
                entrant.name,
                entrant.strategy,
                played,
                bhabhis,
                timeouts,
                crashes,
                rated[entrant.name],
            )
        )
    return table


def crosstable(
    entrants: Sequence[Entrant], hands: Sequence[HandRecord]
) -> dict[str, dict[str, dict[str, Any]]]:
    """For each pair (A, B) of entrants, A's Bhabhi rate in the hands B sat in too, with
    its interval: ``crosstable[A][B]``.  With as many entrants as seats it is A's own rate;
    with more, it says how A fares at the tables B is at, over the same number of hands for
    every pair (each pair meets in as many groups)."""
    cross: dict[str, dict[str, dict[str, Any]]] = {}
    for a in entrants:
        row: dict[str, dict[str, Any]] = {}
        for b in entrants:
            if a.name == b.name:
                continue
            together = [h for h in hands if b.name in h.sitting.seats]
            played = sum(len(_seats_of(h, a.name)) for h in together)
            lost = sum(h.bhabhi in _seats_of(h, a.name) for h in together)
            row[b.name] = _rate(played, lost)
        cross[a.name] = row
    return cross


def _rate(hands: int, bhabhis: int) -> dict[str, Any]:
    lo, hi = wilson(bhabhis, hands)
    return {
        "hands": hands,
        "bhabhis": bhabhis,
        "bhabhi_rate": bhabhis / hands if hands else 0.0,
        "ci95": [lo, hi],
    }


def hand_entry(hand: HandRecord) -> dict[str, Any]:
    """One hand in the JSON document: entrants by name, seats by number."""
    seats = hand.sitting.seats
    return {
        "deal": hand.sitting.deal,
        "group": hand.sitting.group,
        "rotation": hand.sitting.rotation,
        "table_id": hand.table_id,
        "seats": list(seats),
        "bhabhi": None if hand.bhabhi is None else seats[hand.bhabhi],
        "out_order": [seats[s] for s in hand.out_order],
        "termination": hand.termination,
        "seed": hand.sitting.deal_seed,
        "hand_seed": hand.hand_seed,
        "timeouts": list(hand.timeouts),
        "crashes": [
            {"seat": s, "entrant": seats[s], "why": hand.notes[s] if hand.notes else ""}
            for s, crashed in enumerate(hand.crashes)
            if crashed
        ],
    }


def document(
    *,
    rules: str,
    players: int,
    deals: int,
    seed: str,
    entrants: Sequence[Entrant],
    sittings: Sequence[Sitting],
    hands: Sequence[HandRecord],
) -> dict[str, Any]:
    """The ``--json`` document (its keys are the contract documented in docs/bots.md)."""
    return {
        "rules": rules,
        "players": players,
        "deals": deals,
        "seed": seed,
        "rotations": len({s.rotation for s in sittings}),
        "groups": len({s.group for s in sittings}),
        "rating_model": "openskill PlackettLuce, rating = ordinal (mu - 3 sigma)",
        "entrants": [
            {
                "name": s.name,
                "strategy": s.strategy,
                "hands": s.hands,
                "bhabhis": s.bhabhis,
                "bhabhi_rate": s.bhabhi_rate,
                "ci95": list(s.ci95),
                "rating": s.rating.ordinal,
                "mu": s.rating.mu,
                "sigma": s.rating.sigma,
                "failures": s.failures,
                "timeouts": s.timeouts,
                "crashes": s.crashes,
            }
            for s in standings(entrants, hands)
        ],
        "crosstable": crosstable(entrants, hands),
        "hands": [hand_entry(h) for h in hands],
    }


def terminal_table(table: Sequence[Standing]) -> list[str]:
    """The entrants by rating, best first, as lines of a fixed-width table."""
    ranked = sorted(table, key=lambda s: s.rating.ordinal, reverse=True)
    width = max([len("entrant"), *(len(s.name) for s in ranked)])
    lines = [
        f"{'entrant':<{width}}  {'rating':>7}  {'mu':>6}  {'sigma':>5}  {'hands':>5}  "
        f"{'bhabhi':>6}  {'rate':>6}  {'95% interval':<15}  failures"
    ]
    for s in ranked:
        lo, hi = s.ci95
        lines.append(
            f"{s.name:<{width}}  {s.rating.ordinal:>7.2f}  {s.rating.mu:>6.2f}  "
            f"{s.rating.sigma:>5.2f}  {s.hands:>5}  {s.bhabhis:>6}  {s.bhabhi_rate:>6.1%}  "
            f"{f'[{lo:.1%}, {hi:.1%}]':<15}  {s.failures}"
        )
    return lines
