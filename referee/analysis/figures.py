"""The figures of one player count, from its hands' records, as plain data.

Every figure is a function of the records alone (in hand order), rounded to 6 decimals, so
the same run gives the same figures in any number of processes.  docs/analysis.md says
what each key means.  Rates are per hand, and a hand without a Bhabhi (everyone out
together, C11; or a bound with no single player holding the most cards) counts as a hand in
which no seat lost: the seats' rates then add up to less than one, by ``no_bhabhi.rate``.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from referee.analysis.numbers import rounded
from referee.analysis.record import HandRecord
from referee.engine.types import Termination

PACE_SECONDS_PER_CARD = 3.0
"""A human pace: seconds per card played at a table (a lead, a follow, a discard or a
tochoo).  Picking up a trick and taking a hand are not counted: they are a few of a hand's
actions, and a table does them as fast as it plays.  ``length.minutes`` is cards played
times this."""

Z95 = statistics.NormalDist().inv_cdf(0.975)
"""The normal quantile of a two-sided 95% interval (1.96)."""

BOUND = frozenset({str(Termination.MAX_TRICKS)})
DEAD = frozenset({str(Termination.DEAD_POSITION)})


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of ``successes / trials``: right near 0 and 1 and on
    few hands, where the normal approximation is not; (0, 1) without trials."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def balance(rates: Sequence[float]) -> float:
    """One minus the largest gap between two seats' loss rates: 1 when every seat loses
    equally often, 0 when one always loses and another never."""
    return 1.0 - (max(rates) - min(rates)) if rates else 1.0


def chi_square_equal(counts: Sequence[int]) -> tuple[float, float] | None:
    """Pearson's chi-square test of ``counts`` (each seat's Bhabhis) against equal chances:
    (statistic, p-value), None without any Bhabhi.  The statistic is the textbook sum; the
    p-value is SciPy's chi-square survival function (``scipy.special.chdtrc``, which
    ``scipy.stats.chisquare`` uses: the tests hold the two equal), imported here, on first
    use, so that no other ``bhabhi`` command pays for loading SciPy."""
    total = sum(counts)
    if total == 0 or len(counts) < 2:
        return None
    from scipy.special import chdtrc

    expected = total / len(counts)
    statistic = math.fsum((observed - expected) ** 2 / expected for observed in counts)
    return statistic, float(chdtrc(len(counts) - 1, statistic))


def spread(values: Sequence[float]) -> dict[str, float]:
    """Median, quartiles, 95th percentile and the largest value (linear interpolation between
    order statistics, as NumPy's default and ``statistics.quantiles(method="inclusive")``)."""
    if not values:
        return {"median": 0.0, "q1": 0.0, "q3": 0.0, "p95": 0.0, "max": 0.0}
    if len(values) == 1:
        only = rounded(values[0])
        return {"median": only, "q1": only, "q3": only, "p95": only, "max": only}
    q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    p95 = statistics.quantiles(values, n=20, method="inclusive")[18]
    return {
        "median": rounded(median),
        "q1": rounded(q1),
        "q3": rounded(q3),
        "p95": rounded(p95),
        "max": rounded(max(values)),
    }


def figures(records: Sequence[HandRecord], players: int, step: int) -> dict[str, Any]:
    """Every figure of one player count (``step``: +1 or -1, the direction of play, which
    says who is "the player after the dealer")."""
    count = len(records)
    endings = Counter(record.termination for record in records)
    bound = sum(endings[t] for t in BOUND)
    dead = sum(endings[t] for t in DEAD)
    no_bhabhi = sum(1 for record in records if record.bhabhi is None)
    by_offset = [0] * players
    dealt_at: list[Counter[int]] = [Counter() for _ in range(players)]
    # Hands are grouped by what these figures read of them (few distinct values), so that
    # a large run costs one pass in C, not a loop over seats per hand.
    for (dealer, bhabhi, dealt), hands in Counter(
        (r.dealer, r.bhabhi, r.dealt) for r in records
    ).items():
        if bhabhi is not None:
            by_offset[((bhabhi - dealer) * step) % players] += hands
        for offset in range(players):
            dealt_at[offset][dealt[(dealer + step * offset) % players]] += hands
    rates = [n / count for n in by_offset]
    tested = chi_square_equal(by_offset)
    return {
        "players": players,
        "hands": count,
        "termination": {
            "normal": rounded((count - bound - dead) / count),
            "dead_position": rounded(dead / count),
            "bound": rounded(bound / count),
            "counts": {str(t): endings[str(t)] for t in Termination},
        },
        "length": {
            "tricks": spread([r.tricks for r in records]),
            "actions": spread([r.actions for r in records]),
            "minutes": spread([r.cards_played * PACE_SECONDS_PER_CARD / 60 for r in records]),
        },
        "tricks_histogram": _histogram([r.tricks for r in records]),
        "seats": [
            {
                "offset": offset,
                "bhabhi_rate": rounded(rates[offset]),
                "ci95": _interval(by_offset[offset], count),
                "bhabhis": by_offset[offset],
                "dealt": max(dealt_at[offset].items(), key=lambda item: (item[1], item[0]))[0],
            }
            for offset in range(players)
        ],
        "no_bhabhi": {"hands": no_bhabhi, "rate": rounded(no_bhabhi / count)},
        "fairness": {
            "fair_rate": rounded((count - no_bhabhi) / count / players),
            "chi2": None if tested is None else rounded(tested[0]),
            "p_value": None if tested is None else rounded(tested[1]),
            "balance": rounded(balance(rates)),
            **_splits(records, players),
        },
        "decisiveness": _decisiveness(records),
        "events": _events(records),
    }


def _splits(records: Sequence[HandRecord], players: int) -> dict[str, Any]:
    """The Bhabhi rate per seat of a group of seats: the holder of the lead card and the
    others; the seats dealt the most cards and the others (hands dealt evenly left out);
    the seats by the number of cards they were dealt."""
    holder = [0, 0]  # (bhabhis, seat-hands) of the holder; the others have the rest
    most = [0, 0]
    others_most = [0, 0]
    even = 0
    by_dealt: dict[int, list[int]] = {}
    for (loser, lead_holder, dealt_to), hands in Counter(
        (r.bhabhi, r.lead_holder, r.dealt) for r in records
    ).items():
        holder[1] += hands
        holder[0] += hands * (loser == lead_holder)
        top = max(dealt_to)
        if min(dealt_to) == top:
            even += hands
        else:
            for seat, dealt in enumerate(dealt_to):
                group = most if dealt == top else others_most
                group[1] += hands
                group[0] += hands * (loser == seat)
        for seat, dealt in enumerate(dealt_to):
            cell = by_dealt.setdefault(dealt, [0, 0])
            cell[1] += hands
            cell[0] += hands * (loser == seat)
    losses = sum(1 for record in records if record.bhabhi is not None)
    others = [losses - holder[0], holder[1] * (players - 1)]
    return {
        "by_lead_card_holder": {"holder": _group(*holder), "others": _group(*others)},
        "by_most_cards": {
            "most": _group(*most),
            "others": _group(*others_most),
            "even_deals": even,
        },
        "by_cards_dealt": {str(n): _group(*by_dealt[n]) for n in sorted(by_dealt)},
    }


def _group(bhabhis: int, seat_hands: int) -> dict[str, Any]:
    rate = bhabhis / seat_hands if seat_hands else 0.0
    return {
        "bhabhi_rate": rounded(rate),
        "ci95": _interval(bhabhis, seat_hands),
        "bhabhis": bhabhis,
        "seat_hands": seat_hands,
    }


def _decisiveness(records: Sequence[HandRecord]) -> dict[str, Any]:
    points = [(r.decisive, r.tricks) for r in records if r.decisive is not None]
    # A hand over before its first trick (hands taken, B9) was told only at its end.
    fractions = [point / tricks if tricks else 1.0 for point, tricks in points]
    after_deal = sum(1 for point, tricks in points if point == 0 and tricks)
    tricks = sum(r.tricks for r in records)
    changes = [r.lead_changes for r in records]
    return {
        "hands": len(points),
        "after_deal": rounded(after_deal / len(points)) if points else 0.0,
        "fraction": spread(fractions),
        "curve": _curve(fractions),
        "lead_changes": {
            "per_hand": spread(changes),
            "per_trick": rounded(sum(changes) / tricks) if tricks else 0.0,
        },
    }


CURVE_STEPS = 10
"""``decisiveness.curve`` gives the share of hands decided by each tenth of the hand."""


def _curve(fractions: Sequence[float]) -> list[float]:
    """Share of the hands with a Bhabhi whose Bhabhi was told (decisiveness fraction at
    most k/10) by each tenth k = 0 .. 10 of the hand."""
    if not fractions:
        return [0.0] * (CURVE_STEPS + 1)
    ordered = sorted(fractions)
    shares = []
    for k in range(CURVE_STEPS + 1):
        limit = k / CURVE_STEPS + 1e-12
        shares.append(rounded(sum(1 for f in ordered if f <= limit) / len(ordered)))
    return shares


def _events(records: Sequence[HandRecord]) -> dict[str, Any]:
    count = len(records)
    out: dict[str, Any] = {}
    for key in ("pickups", "tochoos", "waste_draws", "hands_taken"):
        values = [getattr(r, key) for r in records]
        out[key] = {
            "mean": rounded(sum(values) / count),
            "max": max(values),
            "hands": rounded(sum(1 for v in values if v) / count),
        }
    by_count: Counter[int] = Counter()
    for outs, hands in Counter(r.outs for r in records).items():
        for went in outs:
            by_count[went] += hands
    tricks = sum(r.tricks for r in records)
    went = sum(n * k for k, n in by_count.items())
    out["players_out"] = {
        "tricks_by_count": {str(k): by_count[k] for k in sorted(by_count)},
        "per_trick": rounded(went / tricks) if tricks else 0.0,
        "all_at_once": rounded(
            sum(1 for r in records if len(r.outs) == 1 and r.outs[0] >= len(r.dealt) - 1) / count
        ),
    }
    return out


def _histogram(values: Sequence[int]) -> dict[str, int]:
    """Hands by their number of tricks, ``{"TRICKS": hands}`` in increasing order: the
    length distribution itself (the plots draw it), as compact as the spread of values."""
    counted = Counter(values)
    return {str(value): counted[value] for value in sorted(counted)}


def _interval(successes: int, trials: int) -> list[float]:
    low, high = wilson(successes, trials)
    return [rounded(low), rounded(high)]
