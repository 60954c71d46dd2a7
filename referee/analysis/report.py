"""An analysis run: the hands of each player count, their figures and warnings, as one
plain object (the ``--json`` document, docs/analysis.md) and as a terminal summary.

The document is a function of (ruleset, player counts, hands, seed, bots) only: timings
are returned beside it, never in it, so that the same arguments give the same bytes in
any number of processes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.analysis.compare import SIGNIFICANCE_LEVEL, TEST, differences, format_against
from referee.analysis.confirm import confirmer
from referee.analysis.figures import PACE_SECONDS_PER_CARD, figures
from referee.analysis.numbers import p_clause, percent, seat_label
from referee.analysis.record import hand_records
from referee.analysis.skill import format_skill, hands_played, run_all, skill_warnings
from referee.analysis.warnings import clauses_suffix, warnings_for
from referee.engine.components import RuleBook
from referee.engine.shuffle import Seed, seed_bytes
from referee.ruleset.model import Ruleset
from referee.sim.runner import (
    ProgressFn,
    all_random,
    allowed_counts,
    check_run,
    play_hands,
    players_message,
)

DEFAULT_SEED = "1"
"""The seed of a run that names none (``bhabhi analyze``, AnalyzeRuleset): the same hands
every run."""


@dataclass(frozen=True, slots=True)
class Timing:
    seconds: dict[int, float]
    """Seconds spent playing each player count's hands (not computing the figures)."""
    hands: int
    jobs: int
    against_seconds: dict[int, float] = field(default_factory=dict)
    """The same for the ``--against`` ruleset's hands."""

    @property
    def total_seconds(self) -> float:
        return sum(self.seconds.values()) + sum(self.against_seconds.values())

    @property
    def hands_per_second(self) -> float:
        played = self.hands * (len(self.seconds) + len(self.against_seconds))
        total = self.total_seconds
        return played / total if total > 0 else 0.0


def seats_for(bots: Sequence[str], players: int) -> tuple[str, ...]:
    """``--bots``: one name for every seat, or one per seat (seat 0 first)."""
    if len(bots) == 1:
        return tuple(bots) * players
    if len(bots) != players:
        raise ValueError(f"--bots names {len(bots)} bots for {players} players")
    return tuple(bots)


def analyze(
    rules: Ruleset,
    counts: Sequence[int],
    hands: int,
    seed: Seed,
    bots: Sequence[str],
    *,
    jobs: int = 1,
    progress: ProgressFn | None = None,
    against: Ruleset | None = None,
    skill: bool = True,
    confirm: bool = True,
) -> tuple[dict[str, Any], Timing]:
    """Play ``hands`` hands at each player count and return (the document, the timing).
    With ``against``, the same deals (seed and hand indices) are played by that ruleset too,
    at each of ``counts`` it allows, and compared (``compare``).  Raises ``ValueError``
    (one line) for arguments that cannot be played, before any hand.  ``skill``: measure
    the heuristic bot and the degenerate lines against random players (``skill``; for this
    ruleset only, not ``against``); ``confirm``: re-run a warning's suspects with their
    options switched (``confirm``)."""
    raw_seed = seed_bytes(seed)
    plans = [(players, seats_for(bots, players)) for players in counts]
    for players, seats in plans:
        check_run(rules, players, seats, hands, jobs, hands_option="--hands")
    both = [] if against is None else _shared(plans, rules, against)
    for players, seats in both:
        assert against is not None
        check_run(against, players, seats, hands, jobs, hands_option="--hands")
    total = (len(plans) + len(both)) * hands
    if skill:
        total += sum(hands_played(rules, players, hands) for players, _ in plans)
    bar = _Overall(progress, total)
    extra = _Extra(skill, confirm)
    by_count, seconds = _play(rules, plans, hands, raw_seed, jobs, bar, extra)
    document = {
        "ruleset": _ruleset(rules),
        "seed": raw_seed.decode("utf-8", errors="backslashreplace"),
        "hands": hands,
        "bots": list(bots),
        "pace_seconds_per_card": PACE_SECONDS_PER_CARD,
        "player_counts": by_count,
    }
    if against is None:
        return document, Timing(seconds, hands, jobs)
    other, other_seconds = _play(against, both, hands, raw_seed, jobs, bar, _Extra(False, confirm))
    document["against"] = {
        "ruleset": _ruleset(against),
        "test": TEST,
        "significance_level": SIGNIFICANCE_LEVEL,
        "player_counts": other,
        "differences": {n: differences(by_count[n], data) for n, data in other.items()},
    }
    return document, Timing(seconds, hands, jobs, other_seconds)


@dataclass(frozen=True, slots=True)
class _Extra:
    """What a run plays beyond the hands: skill and lines, confirmation of suspects."""

    skill: bool
    confirm: bool


def _ruleset(rules: Ruleset) -> dict[str, str]:
    return {"id": rules.id, "hash": rules.hash, "title": rules.title.en}


def _shared(
    plans: Sequence[tuple[int, tuple[str, ...]]], rules: Ruleset, against: Ruleset
) -> list[tuple[int, tuple[str, ...]]]:
    """The player counts of ``plans`` that ``against`` allows too (at least one)."""
    allowed = set(allowed_counts(against))
    both = [(players, seats) for players, seats in plans if players in allowed]
    if not both:
        asked = ", ".join(str(players) for players, _ in plans)
        raise ValueError(
            f"--against {against.id}: {players_message(against, plans[0][0])}; "
            f"{rules.id} is analysed with {asked}"
        )
    return both


def _play(
    rules: Ruleset,
    plans: Sequence[tuple[int, tuple[str, ...]]],
    hands: int,
    raw_seed: bytes,
    jobs: int,
    bar: _Overall,
    extra: _Extra,
) -> tuple[dict[str, Any], dict[int, float]]:
    """The figures of each planned player count, and the seconds their hands took."""
    step = RuleBook.of(rules).step
    by_count: dict[str, Any] = {}
    seconds: dict[int, float] = {}
    for players, seats in plans:
        records, seconds[players] = play_hands(
            rules,
            players,
            hands,
            raw_seed,
            seats,
            hand_records,
            jobs=jobs,
            progress=bar.part(),
        )
        data = figures(records, players, step)
        fast = all_random(seats) and RuleBook.of(rules).fast_playout
        data["bots"] = list(seats)
        data["engine"] = "playout" if fast else "hand"
        check = confirmer(rules, players, raw_seed, data) if extra.confirm else None
        data["warnings"] = warnings_for(data, rules.source, confirm=check)
        if extra.skill:
            data.update(run_all(rules, players, hands, raw_seed, jobs=jobs, parts=bar.part))
            data["warnings"] += skill_warnings(data, rules.source)
        by_count[str(players)] = data
    return by_count, seconds


class _Overall:
    """One bar over every run of hands (each player count's, its skill and lines runs, the
    ``--against`` ruleset's): each run's progress shifted by the hands before it."""

    def __init__(self, progress: ProgressFn | None, total: int) -> None:
        self._progress = progress
        self._total = total
        self._done = 0

    def part(self) -> ProgressFn | None:
        """The progress function of the next run, which starts where the last one ended."""
        progress = self._progress
        if progress is None:
            return None
        start = self._done

        def report(done: int, _: int) -> None:
            self._done = start + done
            progress(self._done, self._total)

        return report


# --- the terminal summary ------------------------------------------------------------------


def format_text(document: Mapping[str, Any], timing: Timing | None = None) -> str:
    """The summary for people: per player count a few aligned tables, its warnings last."""
    ruleset = document["ruleset"]
    lines = [
        f"{ruleset['title']} ({ruleset['id']}): {document['hands']} hands per player count, "
        f"seed {document['seed']!r}, bots {','.join(document['bots'])}",
        f"minutes at {document['pace_seconds_per_card']:g} s per card played",
    ]
    for data in document["player_counts"].values():
        lines += ["", *_count_text(data)]
    if "against" in document:
        lines += ["", *format_against(document)]
    if timing is not None:
        jobs = timing.jobs
        lines += [
            "",
            f"played in {timing.total_seconds:.2f} s "
            f"({timing.hands_per_second:,.0f} hands/s, {jobs} job{'s' if jobs != 1 else ''})",
        ]
    return "\n".join(lines)


def _count_text(data: Mapping[str, Any]) -> list[str]:
    players = data["players"]
    ending = data["termination"]
    engine = "fast random playout" if data["engine"] == "playout" else "Hand API"
    lines = [
        f"== {players} players ({data['hands']} hands, {engine}) ==",
        f"ended normally {percent(ending['normal'])}, in a dead position "
        f"{percent(ending['dead_position'])}, at the bound {percent(ending['bound'])}; "
        f"no Bhabhi {percent(data['no_bhabhi']['rate'])}",
        "",
        f"  {'length':<10} {'median':>8} {'q1':>8} {'q3':>8} {'p95':>8} {'max':>8}",
    ]
    for key, spread in data["length"].items():
        lines.append(
            f"  {key:<10} "
            + " ".join(f"{spread[k]:>8.1f}" for k in ("median", "q1", "q3", "p95", "max"))
        )
    fairness = data["fairness"]
    lines += [
        "",
        f"  {'seat':<14} {'dealt':>6} {'Bhabhi':>8} {'95% interval':>17}",
    ]
    for seat in data["seats"]:
        low, high = seat["ci95"]
        name = seat_label(seat["offset"])
        lines.append(
            f"  {name:<14} {seat['dealt']:>6} {percent(seat['bhabhi_rate']):>8} "
            f"{percent(low):>8} - {percent(high):<6}"
        )
    p_value = fairness["p_value"]
    tested = "no Bhabhi to test" if p_value is None else f"chi-square {p_clause(p_value)}"
    holder = fairness["by_lead_card_holder"]
    most = fairness["by_most_cards"]
    lines += [
        f"  fair {percent(fairness['fair_rate'])}, balance {fairness['balance']:.3f}, {tested}",
        f"  lead card holder {percent(holder['holder']['bhabhi_rate'])}, others "
        f"{percent(holder['others']['bhabhi_rate'])}; dealt the most cards "
        + (
            "(every hand dealt evenly)"
            if most["most"]["seat_hands"] == 0
            else f"{percent(most['most']['bhabhi_rate'])}, others "
            f"{percent(most['others']['bhabhi_rate'])}"
        ),
    ]
    decided = data["decisiveness"]
    fraction = decided["fraction"]
    lines += [
        "",
        f"  Bhabhi known after the deal in {percent(decided['after_deal'])} of hands with one; "
        f"from {percent(fraction['median'])} of the hand on (median, quartiles "
        f"{percent(fraction['q1'])}-{percent(fraction['q3'])})",
        f"  lead changes hands on {percent(decided['lead_changes']['per_trick'])} of tricks",
    ]
    events = data["events"]
    per_hand = ", ".join(
        f"{key.replace('_', ' ')} {events[key]['mean']:.1f}"
        for key in ("pickups", "tochoos", "waste_draws", "hands_taken")
    )
    out = events["players_out"]
    lines += [
        f"  per hand: {per_hand}",
        f"  players out per trick {out['per_trick']:.3f}; all out on one trick in "
        f"{percent(out['all_at_once'])} of hands",
    ]
    lines += format_skill(data)
    for warning in data["warnings"]:
        lines.append(f"warning: {warning['message']}{clauses_suffix(warning)}")
    return lines
