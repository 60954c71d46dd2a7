"""Many hands of one ruleset with bots, and what they say about the rules.

The point is to measure a ruleset as written: does every hand end, how long is a hand, is
the result decided by the deal?  (See the catalogue's measured properties: the pick-up rules
can cycle for ever; the discard rules are fixed by the deal.)

Hand ``i`` of a run with seed ``S`` is dealt from ``hand_seed(S, i)`` with the dealer a
``Session`` would have for its hand ``i``, so a hand of a simulation can be replayed on its
own.  With a random bot on every seat the hands are played by the fast playout
(``referee.engine.playout``, its random choices seeded from the hand's seed); otherwise by
``Hand`` and ``play_hand`` with one bot per seat and the bots' generator
``bots_rng(S, i)``.  Either way a hand depends only on (rules, players, S, i), so the work
can be split over processes and merged in hand order to the same result.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from referee.engine.components import RuleBook
from referee.engine.hand import Hand
from referee.engine.playout import random_playout
from referee.engine.shuffle import Seed, hand_seed, seed_bytes
from referee.engine.types import PickedUp, Termination
from referee.ruleset.model import Ruleset
from referee.sim.play import bots_rng, play_hand
from referee.sim.runner import (
    ProgressFn,
    all_random,
    check_run,
    dealer_of,
    make_bot,
    play_hands,
)

BOUND_WARNING_SHARE = 0.5
"""Warn when more than this share of hands ended only by a bound (max_tricks, dead position)."""
FIXED_WARNING_SHARE = 0.95
"""Warn that the deal decides when this share of hands has no Bhabhi, or the same seat
(counted from the dealer) as the Bhabhi."""
FIXED_WARNING_MIN_HANDS = 20
"""Too few hands say nothing about the deal deciding: no such warning below this many."""


class HandStat(NamedTuple):
    """What the summary needs of one hand (small, so that processes pass it back cheaply)."""

    termination: str
    bhabhi: int | None
    dealer: int
    tricks: int
    actions: int
    pickups: int


@dataclass(frozen=True, slots=True)
class Simulation:
    rules: Ruleset
    players: int
    seed: bytes
    bots: tuple[str, ...]
    hands: tuple[HandStat, ...]
    seconds: float
    jobs: int

    @property
    def fast(self) -> bool:
        return all_random(self.bots) and RuleBook.of(self.rules).fast_playout


def hand_stats(
    rules: Ruleset, players: int, seed: bytes, bots: tuple[str, ...]
) -> Callable[[int], HandStat]:
    """The runner's recorder (``referee.sim.runner``): hand ``index`` of the run, played
    and summed up as a ``HandStat``."""
    book = RuleBook.of(rules)
    if all_random(bots) and book.fast_playout:

        def fast(index: int) -> HandStat:
            dealer = dealer_of(rules, players, index)
            result = random_playout(book, players, hand_seed(seed, index), dealer)
            outcome = result.outcome
            return HandStat(
                str(outcome.termination),
                outcome.bhabhi,
                dealer,
                result.tricks,
                result.action_count,
                result.pickups,
            )

        return fast

    def checked(index: int) -> HandStat:
        dealer = dealer_of(rules, players, index)
        hand = Hand(rules, players, seed=hand_seed(seed, index), dealer=dealer, record=True)
        seats = [make_bot(name, rules) for name in bots]  # fresh per hand: bots may remember
        play_hand(hand, seats, bots_rng(seed, index))
        assert hand.outcome is not None and hand.events is not None
        pickups = sum(1 for event in hand.events if isinstance(event, PickedUp))
        return HandStat(
            str(hand.outcome.termination),
            hand.outcome.bhabhi,
            dealer,
            hand.trick_number,
            len(hand.history),
            pickups,
        )

    return checked


def simulate(
    rules: Ruleset,
    players: int,
    games: int,
    seed: Seed,
    bots: Sequence[str],
    *,
    jobs: int = 1,
    progress: ProgressFn | None = None,
) -> Simulation:
    """Play hands ``0 .. games - 1``; with ``jobs > 1`` over that many processes."""
    check_run(rules, players, bots, games, jobs)
    raw_seed = seed_bytes(seed)
    stats, seconds = play_hands(
        rules, players, games, raw_seed, bots, hand_stats, jobs=jobs, progress=progress
    )
    return Simulation(rules, players, raw_seed, tuple(bots), tuple(stats), seconds, jobs)


# --- the summary ----------------------------------------------------------------------------

TERMINATIONS = tuple(str(t) for t in Termination)


def summary(sim: Simulation) -> dict[str, Any]:
    """Everything the run found, as plain data that is identical for identical arguments.

    Floats are rounded to 6 decimals; the timing is kept apart under ``timing``.
    """
    hands = sim.hands
    count = len(hands)
    players = sim.players
    step = RuleBook.of(sim.rules).step
    endings = dict.fromkeys(TERMINATIONS, 0)
    by_seat = [0] * players
    from_dealer = [0] * players
    no_bhabhi = 0
    for stat in hands:
        endings[stat.termination] += 1
        if stat.bhabhi is None:
            no_bhabhi += 1
        else:
            by_seat[stat.bhabhi] += 1
            from_dealer[((stat.bhabhi - stat.dealer) * step) % players] += 1
    bounded = endings[str(Termination.MAX_TRICKS)] + endings[str(Termination.DEAD_POSITION)]
    return {
        "rules": {"id": sim.rules.id, "hash": sim.rules.hash},
        "players": players,
        "hands": count,
        "seed": sim.seed.decode("utf-8", errors="backslashreplace"),
        "bots": list(sim.bots),
        "engine": "playout" if sim.fast else "hand",
        "endings": endings,
        "no_bhabhi": no_bhabhi,
        "tricks": _describe([s.tricks for s in hands]),
        "actions": _describe([s.actions for s in hands]),
        "pickups": _describe([s.pickups for s in hands]),
        "bhabhi_count": {"by_seat": by_seat, "by_seat_from_dealer": from_dealer},
        "bhabhi_rate": {
            "by_seat": [_round(n / count) for n in by_seat],
            "by_seat_from_dealer": [_round(n / count) for n in from_dealer],
        },
        "warnings": _warnings(count, bounded, no_bhabhi, from_dealer),
    }


def timing(sim: Simulation) -> dict[str, Any]:
    seconds = sim.seconds
    rate = len(sim.hands) / seconds if seconds > 0 else 0.0
    return {"seconds": _round(seconds), "hands_per_second": _round(rate), "jobs": sim.jobs}


def _describe(values: list[int]) -> dict[str, float | int]:
    n = len(values)
    mean = math.fsum(values) / n
    spread = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / n)
    ordered = sorted(values)
    middle = n // 2
    median = ordered[middle] if n % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    return {
        "mean": _round(mean),
        "sd": _round(spread),
        "min": ordered[0],
        "median": _round(median),
        "max": ordered[-1],
    }


def _round(value: float) -> float:
    return round(float(value), 6) + 0.0  # + 0.0 turns -0.0 into 0.0


def _warnings(count: int, bounded: int, no_bhabhi: int, from_dealer: list[int]) -> list[str]:
    warnings: list[str] = []
    if bounded > BOUND_WARNING_SHARE * count:
        warnings.append(
            f"this ruleset's hands mostly fail to end: {_pct(bounded, count)} of hands were "
            "stopped by a bound (max_tricks or a dead position)"
        )
    if count >= FIXED_WARNING_MIN_HANDS:
        if no_bhabhi >= FIXED_WARNING_SHARE * count:
            warnings.append(
                f"the result looks fixed by the deal: {_pct(no_bhabhi, count)} of hands "
                "had no Bhabhi"
            )
        for offset, losses in enumerate(from_dealer):
            if losses >= FIXED_WARNING_SHARE * count:
                warnings.append(
                    f"the result looks fixed by the deal: the {_position(offset)} was the "
                    f"Bhabhi in {_pct(losses, count)} of hands"
                )
    return warnings


def _position(offset: int) -> str:
    if offset == 0:
        return "dealer"
    return f"player {offset} after the dealer"


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%"


def format_text(data: Mapping[str, Any], timed: Mapping[str, Any] | None = None) -> str:
    """The summary for people: one screen, the warnings last."""
    players = data["players"]
    count = data["hands"]
    engine = "fast random playout" if data["engine"] == "playout" else "Hand API"
    lines = [
        f"{data['rules']['id']}: {players} players, {count} hands, seed {data['seed']!r}, "
        f"bots {','.join(data['bots'])} ({engine})",
        "",
        "how hands ended:",
    ]
    labels = {
        "last_player": "normally (one player left)",
        "all_out": "all out together (C11)",
        "two_left_pickup": "by a pickup with two left (X2)",
        "max_tricks": "at max_tricks",
        "dead_position": "in a dead position",
    }
    house_endings = {  # shown only when they happen: most rules cannot end a hand so
        "shootout": "by a shootout with two left (H17)",
        "two_left_tochoo": "by a tochoo with two left (H18)",
        "false_tochoo": "by a right challenge (H25)",
    }
    for key, label in house_endings.items():
        if data["endings"].get(key):
            labels[key] = label
    for key, label in labels.items():
        n = data["endings"][key]
        lines.append(f"  {label:<32} {n:>8}  {_pct(n, count):>6}")
    n = data["no_bhabhi"]
    lines.append(f"  {'with no Bhabhi':<32} {n:>8}  {_pct(n, count):>6}")
    lines += ["", f"  {'per hand':<10} {'mean':>10} {'sd':>10} {'min':>7} {'median':>8} {'max':>7}"]
    for key in ("tricks", "actions", "pickups"):
        d = data[key]
        lines.append(
            f"  {key:<10} {d['mean']:>10.2f} {d['sd']:>10.2f} {d['min']:>7} "
            f"{d['median']:>8g} {d['max']:>7}"
        )
    rates = data["bhabhi_rate"]
    lines += ["", "Bhabhi rate by seat:"]
    lines.append("  " + "  ".join(f"{s}: {100 * r:5.1f}%" for s, r in enumerate(rates["by_seat"])))
    lines.append("Bhabhi rate by seat counted from the dealer (deal-order bias):")
    lines.append(
        "  "
        + "  ".join(
            f"{'dealer' if k == 0 else f'+{k}'}: {100 * r:5.1f}%"
            for k, r in enumerate(rates["by_seat_from_dealer"])
        )
    )
    if data["warnings"]:
        lines.append("")
        lines += [f"warning: {w}" for w in data["warnings"]]
    if timed is not None:
        jobs = timed["jobs"]
        lines += [
            "",
            f"{count} hands in {timed['seconds']:.2f} s ({timed['hands_per_second']:,.0f} hands/s"
            f", {jobs} job{'s' if jobs != 1 else ''})",
        ]
    return "\n".join(lines)
