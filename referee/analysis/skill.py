"""Does skill matter, and does a degenerate line win?  One bot against random players,
in every seat in turn, on the same deals.

For one player count and one bot, deal ``d`` of ``deals`` is played ``players`` times: with
the bot at seat 0 and random players elsewhere, then at seat 1, and so on (the same seed
and hand indices, so the same deals and dealers: no seat is favoured).  The bot's Bhabhi
rate is its Bhabhis over these ``deals * players`` seat-hands, with a 95% Wilson interval;
its **fair share** is ``(1 - no-Bhabhi rate) / players`` of the same hands, what a seat
loses when nobody plays better than another; the **ratio** is the rate over the fair share
(below 1: the bot loses less than fair).

* ``skill``: the heuristic bot (``referee.sim.bots.HeuristicBot``).  When its interval
  contains the fair share, on enough seat-hands to tell, skill does not matter.
* ``lines``: the degenerate lines of ``referee.sim.lines``: always or never taking a hand
  where the ruleset lets hands be taken (B9), and always leading the longest suit.  A line
  whose interval excludes the fair share and whose ratio is far from 1 dominates (or is to
  be avoided by everyone): the game has a line nobody needs to think past.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.analysis.figures import wilson
from referee.analysis.numbers import percent, rounded
from referee.engine.hand import Hand
from referee.engine.shuffle import hand_seed
from referee.ruleset.clauses import followed
from referee.ruleset.model import Ruleset
from referee.sim.play import bots_rng, play_hand
from referee.sim.runner import ProgressFn, dealer_of, make_bot, play_hands

Parts = Callable[[], ProgressFn | None]
"""Gives the progress function of the next run of hands (one bar over many runs)."""

SKILL_BOT = "heuristic"
LINE_BOTS = ("always-take", "never-take", "longest-suit")
TAKING_LINES = ("always-take", "never-take")
"""The lines measured only where hands can be taken (``take_hand.when`` not ``never``)."""
TAKING_CLAUSES = ("B9", "X1", "H20", "H21", "H22", "H23", "H24")
"""The clauses of taking a hand that a taking line's warning names, if followed."""

SKILL_MIN_SEAT_HANDS = 60
"""``skill-does-not-matter`` and ``dominant-line`` need at least this many seat-hands of
the bot: on 60, the 95% interval around a fair share of a third spans about 12 points either
side, narrow enough to tell a bot that loses half as often as fair from one that does not;
on fewer, an interval containing the fair share says only that the run was short."""
DOMINANT_CHANGE = 0.25
"""``dominant-line``: the line's Bhabhi rate differs from the fair share by at least this
share of it (a quarter more or less), as well as significantly (its 95% interval excludes
the fair share), so that a long run does not warn of a real but small effect."""


def deals_for(hands: int, players: int) -> int:
    """The deals each bot plays per seat: ``hands // players`` (at least 1), so that one
    bot's run costs about as many hands as the run it accompanies."""
    return max(1, hands // players)


def bhabhi_seats(
    rules: Ruleset, players: int, seed: bytes, bots: tuple[str, ...]
) -> Callable[[int], int | None]:
    """The runner's recorder (``referee.sim.runner``): hand ``index`` played through
    ``Hand`` by the named bots, recorded as its Bhabhi seat (None: no Bhabhi)."""

    def play(index: int) -> int | None:
        dealer = dealer_of(rules, players, index)
        hand = Hand(rules, players, seed=hand_seed(seed, index), dealer=dealer)
        seats = [make_bot(name, rules) for name in bots]
        play_hand(hand, seats, bots_rng(seed, index))
        assert hand.outcome is not None
        return hand.outcome.bhabhi

    return play


def against_random(
    rules: Ruleset,
    players: int,
    deals: int,
    seed: bytes,
    bot: str,
    *,
    jobs: int = 1,
    parts: Parts | None = None,
) -> dict[str, Any]:
    """``bot`` in every seat in turn against random players on the same ``deals`` deals:
    ``{bot, deals, seat_hands, bhabhis, bhabhi_rate, ci95, fair_rate, ratio}`` (``ratio``
    None when no hand had a Bhabhi)."""
    bhabhis = no_bhabhi = 0
    for seat in range(players):
        lineup = tuple(bot if s == seat else "random" for s in range(players))
        progress = None if parts is None else parts()
        losers, _ = play_hands(
            rules, players, deals, seed, lineup, bhabhi_seats, jobs=jobs, progress=progress
        )
        bhabhis += sum(1 for loser in losers if loser == seat)
        no_bhabhi += sum(1 for loser in losers if loser is None)
    trials = deals * players
    rate = bhabhis / trials
    fair = (1 - no_bhabhi / trials) / players
    low, high = wilson(bhabhis, trials)
    return {
        "bot": bot,
        "deals": deals,
        "seat_hands": trials,
        "bhabhis": bhabhis,
        "bhabhi_rate": rounded(rate),
        "ci95": [rounded(low), rounded(high)],
        "fair_rate": rounded(fair),
        "ratio": rounded(rate / fair) if fair > 0 else None,
    }


def line_bots(source: Mapping[str, Any]) -> list[str]:
    """The lines a ruleset has: the taking lines only where hands can be taken (B9)."""
    takes = source.get("take_hand", {}).get("when", "never") != "never"
    return [bot for bot in LINE_BOTS if takes or bot not in TAKING_LINES]


def skill_warnings(data: Mapping[str, Any], source: Mapping[str, Any]) -> list[dict[str, Any]]:
    """``skill-does-not-matter`` and ``dominant-line`` from a count's ``skill`` and
    ``lines`` (either may be absent)."""
    follows = {clause for clause, on in followed(source).items() if on}
    players = data["players"]
    out: list[dict[str, Any]] = []
    skill = data.get("skill")
    if (
        skill is not None
        and skill["ratio"] is not None
        and skill["seat_hands"] >= SKILL_MIN_SEAT_HANDS
        and skill["ci95"][0] <= skill["fair_rate"] <= skill["ci95"][1]
    ):
        out.append(
            {
                "code": "skill-does-not-matter",
                "message": f"skill does not matter with {players} players: the heuristic "
                f"bot loses {percent(skill['bhabhi_rate'], 0)} of hands against random players "
                f"(95% interval {percent(skill['ci95'][0], 0)}-{percent(skill['ci95'][1], 0)}), "
                f"as often as a fair share, {percent(skill['fair_rate'], 0)}",
                "clauses": [c for c in ("D1", "D2") if c in follows],
            }
        )
    for name, line in (data.get("lines") or {}).items():
        if line["ratio"] is None or line["seat_hands"] < SKILL_MIN_SEAT_HANDS:
            continue
        low, high = line["ci95"]
        fair = line["fair_rate"]
        if low <= fair <= high or abs(line["ratio"] - 1) < DOMINANT_CHANGE:
            continue
        more = line["ratio"] > 1
        out.append(
            {
                "code": "dominant-line",
                "message": f"with {players} players, a player who {_LINE_WORDS[name]} "
                f"loses {percent(line['bhabhi_rate'], 0)} of hands against random players, "
                f"{percent(abs(line['ratio'] - 1), 0)} {'more' if more else 'less'} often than "
                f"a fair share ({percent(fair, 0)}): "
                + ("a line to avoid" if more else "a line that beats thinking"),
                "clauses": [c for c in TAKING_CLAUSES if c in follows]
                if name in TAKING_LINES
                else [],
            }
        )
    return out


_LINE_WORDS = {
    "always-take": "always takes a hand when it may",
    "never-take": "never takes a hand",
    "longest-suit": "always leads its longest suit",
}


def format_skill(data: Mapping[str, Any]) -> list[str]:
    """The summary's lines on skill and lines: one per bot."""
    rows = []
    if data.get("skill") is not None:
        rows.append(("heuristic", data["skill"]))
    rows += list((data.get("lines") or {}).items())
    if not rows:
        return []
    lines = [
        "",
        f"  {'one bot, others random':<24} {'Bhabhi':>8} {'95% interval':>17} "
        f"{'fair':>7} {'ratio':>6}",
    ]
    for name, entry in rows:
        low, high = entry["ci95"]
        ratio = "-" if entry["ratio"] is None else f"{entry['ratio']:.2f}"
        lines.append(
            f"  {name:<24} {percent(entry['bhabhi_rate'], 0):>8} "
            f"{percent(low, 0):>8} - {percent(high, 0):<6} "
            f"{percent(entry['fair_rate'], 0):>7} {ratio:>6}"
        )
    return lines


def run_all(
    rules: Ruleset,
    players: int,
    hands: int,
    seed: bytes,
    *,
    jobs: int = 1,
    lines: bool = True,
    parts: Parts | None = None,
) -> dict[str, Any]:
    """``{skill, lines}`` of one player count (``lines`` empty when not asked for)."""
    deals = deals_for(hands, players)
    out: dict[str, Any] = {
        "skill": against_random(rules, players, deals, seed, SKILL_BOT, jobs=jobs, parts=parts)
    }
    names: Sequence[str] = line_bots(rules.source) if lines else ()
    out["lines"] = {
        name: against_random(rules, players, deals, seed, name, jobs=jobs, parts=parts)
        for name in names
    }
    return out


def hands_played(rules: Ruleset, players: int, hands: int) -> int:
    """The hands ``run_all`` plays for one player count (for a progress bar's total)."""
    bots = 1 + len(line_bots(rules.source))
    return bots * deals_for(hands, players) * players
