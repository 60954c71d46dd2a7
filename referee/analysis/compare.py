"""``bhabhi analyze --against``: two rulesets on the same deals, figure by figure.

For one player count, each compared figure is a proportion of hands: the termination
fractions (ended by the rules, in a dead position, at the bound) and each seat's Bhabhi rate.
Each is given for both rulesets with the difference and a **two-proportion z-test** (pooled,
two-sided; the normal tail from ``math.erfc``, no SciPy): significant when its p-value is
below ``SIGNIFICANCE_LEVEL``.  The test treats the two runs as independent samples; they
are not (the same deals), and as the same deal tends to end alike under both rulesets, the
outcomes are positively correlated: the test then assumes more variance than there is and
is cautious (a paired test such as McNemar's would find more).  Two identical rulesets play
the same hands: a difference of 0 and p = 1.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from referee.analysis.figures import BOUND, DEAD
from referee.analysis.numbers import p_text, percent, rounded, seat_label

SIGNIFICANCE_LEVEL = 0.01
"""1%, not 5%: a comparison makes several tests per player count (three endings and one per
seat), and a 5% level would call one of twenty equal figures different."""
TEST = "two-proportion z-test"
ENDINGS = {
    "normal": "ended by the rules",
    "dead_position": "dead position",
    "bound": "at the bound",
}
"""The compared termination fractions, by key, and their words in a table."""


def two_proportions(
    successes: int, trials: int, other_successes: int, other_trials: int
) -> tuple[float, float]:
    """(z, two-sided p-value) of the pooled two-proportion z-test; (0, 1) when the pooled
    proportion is 0 or 1 (both samples all one way: no difference to test)."""
    if trials == 0 or other_trials == 0:
        return 0.0, 1.0
    pooled = (successes + other_successes) / (trials + other_trials)
    variance = pooled * (1 - pooled) * (1 / trials + 1 / other_trials)
    if variance <= 0:
        return 0.0, 1.0
    z = (successes / trials - other_successes / other_trials) / math.sqrt(variance)
    return z, math.erfc(abs(z) / math.sqrt(2))


def differences(this: Mapping[str, Any], other: Mapping[str, Any]) -> dict[str, Any]:
    """The compared figures of one player count: ``this`` ruleset's figures against
    ``other``'s (``figures.figures``, the same player count and deals)."""
    ending = _endings(this)
    other_ending = _endings(other)
    return {
        "termination": {
            key: _difference(ending[key], this["hands"], other_ending[key], other["hands"])
            for key in ENDINGS
        },
        "seats": [
            {
                "offset": seat["offset"],
                "bhabhi_rate": _difference(
                    seat["bhabhis"], this["hands"], other_seat["bhabhis"], other["hands"]
                ),
            }
            for seat, other_seat in zip(this["seats"], other["seats"], strict=True)
        ],
    }


def _endings(data: Mapping[str, Any]) -> dict[str, int]:
    counts = data["termination"]["counts"]
    bound = sum(counts.get(name, 0) for name in BOUND)
    dead = sum(counts.get(name, 0) for name in DEAD)
    return {"normal": data["hands"] - bound - dead, "dead_position": dead, "bound": bound}


def _difference(successes: int, trials: int, other_successes: int, other_trials: int) -> Any:
    z, p_value = two_proportions(successes, trials, other_successes, other_trials)
    this, other = successes / trials, other_successes / other_trials
    return {
        "this": rounded(this),
        "other": rounded(other),
        "difference": rounded(this - other),
        "z": rounded(z),
        "p_value": rounded(p_value),
        "significant": p_value < SIGNIFICANCE_LEVEL,
    }


def format_against(document: Mapping[str, Any]) -> list[str]:
    """The terminal's side-by-side table of every compared player count."""
    against = document["against"]
    this_id, other_id = document["ruleset"]["id"], against["ruleset"]["id"]
    width = max(len(this_id), len(other_id), 8)
    lines = [
        f"against {against['ruleset']['title']} ({other_id}) on the same deals: "
        f"{TEST}, * significant at p < {SIGNIFICANCE_LEVEL:g}",
    ]
    for players, diff in against["differences"].items():
        lines += [
            "",
            f"== {players} players: {this_id} against {other_id} ==",
            f"  {'figure':<18} {this_id:>{width}} {other_id:>{width}} {'diff':>7} {'p':>9}",
        ]
        rows = [(ENDINGS[key], cell) for key, cell in diff["termination"].items()]
        rows += [
            (f"Bhabhi, {seat_label(s['offset'])}", s["bhabhi_rate"])
            for s in diff["seats"]
        ]  # fmt: skip
        for name, cell in rows:
            lines.append(
                f"  {name:<18} {percent(cell['this']):>{width}} {percent(cell['other']):>{width}} "
                f"{100 * cell['difference']:>+7.1f} {p_text(cell['p_value']):>9}"
                + (" *" if cell["significant"] else "")
            )
        for warning in against["player_counts"][players]["warnings"]:
            clauses = f" [{', '.join(warning['clauses'])}]" if warning["clauses"] else ""
            lines.append(f"warning ({other_id}): {warning['message']}{clauses}")
    return lines
