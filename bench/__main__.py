"""``python -m bench``: how fast the engine plays random hands, against a yardstick.

Everything is measured in the same run on one core, so the ratios hold whatever the machine:

* the baseline: ``bench/baseline_bhabho.py``, a plain hand-written playout of the Bhabho rules
  B1-B8 (no ruleset, no published shuffle);
* ``random_playout`` on the bundled ``bhabho`` ruleset with 4 players: the target
  (``>= 10,000`` hands/s and ``>= 1.0x`` the baseline).  Its random players take their
  neighbour's hand (B9) now and then, which shortens hands, so also
* ``random_playout`` on ``bhabho`` without B9: the baseline's own rules, the like-for-like
  comparison (informational);
* ``Hand`` with ``RandomBot`` through ``play_hand``: every action checked, every seat's view
  built (informational);
* ``random_playout_from`` on ``bhabho`` without B9 from positions a quarter and half way
  into a typical hand (its mean length in actions), the many playouts from one position
  of a search under hidden information (issue 16): playouts per second against the
  baseline's hands per second from the deal (target ``>= 1.0x``; a playout from mid-hand
  is shorter, which is the point of playing on from there), and actions per second against
  ``random_playout``'s from the deal (informational).  The positions are built before the
  clock starts, by ``Hand`` replaying the first actions of ``random_playout`` hands (those
  that last that long).

The work is fixed (the same hands every run); each measurement is the best of a few rounds,
interleaved so that a noisy moment hurts one round, not one contender.

With ``--referee`` (or ``BENCH_REFEREE=1``) the referee benchmark follows, ``bench.referee``:
durable moves per second and latency over gRPC against an echo service, then ``GetView``'s
latency while hostile ruleset uploads run (``bench.uploads``), on every CPU again; the other
arguments go to it (``python -m bench --referee --quick``).
"""

from __future__ import annotations

import copy
import os
import platform
import random
import sys
import time
from collections.abc import Callable

from bench.baseline_bhabho import play_hand as baseline_hand
from referee.engine.components import RuleBook
from referee.engine.hand import Hand
from referee.engine.playout import action_of, random_playout, random_playout_from
from referee.engine.shuffle import hand_seed
from referee.ruleset.loader import load_ruleset
from referee.ruleset.model import Ruleset
from referee.sim.bots import RandomBot
from referee.sim.play import bots_rng, play_hand

PLAYERS = 4
ROUNDS = 3
HANDS = 5_000
HAND_API_HANDS = 500
TARGET_HANDS_PER_SECOND = 10_000
TARGET_RATIO = 1.0
POSITIONS = 200
"""Positions ``random_playout_from`` plays from, at each depth (each about 20 times)."""
DEPTHS = (0.25, 0.5)
"""How far into a typical hand the positions are, as a share of its mean length."""


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    referee = "--referee" in args or os.environ.get("BENCH_REFEREE", "") not in ("", "0")
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    code = _engine()
    if referee:
        if cpus is not None:  # the engine bench pinned this process; the referee needs them all
            os.sched_setaffinity(0, cpus)
        from bench.referee import main as referee_main

        print(flush=True)
        code = referee_main([a for a in args if a != "--referee"]) or code
    return code


def _engine() -> int:
    pinned = _pin_to_one_core()
    bhabho = load_ruleset("bhabho")
    no_take = _without_take_hand(bhabho)
    contenders: list[tuple[str, int, Callable[[int], None]]] = [
        ("baseline (bench/baseline_bhabho.py: B1-B8)", HANDS, _baseline),
        ("random_playout, bhabho", HANDS, _playout(bhabho)),
        ("random_playout, bhabho without B9", HANDS, _playout(no_take)),
        ("Hand + RandomBot (play_hand), bhabho", HAND_API_HANDS, _hand_api(bhabho)),
    ]
    typical = _mean_actions(no_take)
    depths = [round(share * typical) for share in DEPTHS]
    positions = [_positions(no_take, depth) for depth in depths]
    contenders += [
        (f"random_playout_from, {share:.2f} in, without B9", HANDS, _playout_from(at))
        for share, at in zip(DEPTHS, positions, strict=True)
    ]
    best = [float("inf")] * len(contenders)
    for _ in range(ROUNDS):
        for k, (_, hands, run) in enumerate(contenders):
            started = time.perf_counter()
            run(hands)
            best[k] = min(best[k], time.perf_counter() - started)
    rates = [hands / seconds for (_, hands, _), seconds in zip(contenders, best, strict=True)]
    baseline = rates[0]

    print(
        f"bhabhi bench: {PLAYERS} players, best of {ROUNDS} rounds, Python "
        f"{platform.python_version()}, {'pinned to one core' if pinned else 'one process'}"
    )
    notes = ["", "target", "like for like with the baseline", "informational"]
    notes += ["target, per playout"] * len(DEPTHS)
    for (name, _, _), rate, note in zip(contenders, rates, notes, strict=True):
        ratio = f"{rate / baseline:5.2f}x" if note else "     "
        unit = "playouts/s" if name.startswith("random_playout_from") else "hands/s   "
        print(f"  {name:<44} {rate:>9,.0f} {unit}  {ratio}  {note}")
    playout = rates[1]
    met = playout >= TARGET_HANDS_PER_SECOND and playout / baseline >= TARGET_RATIO
    print(
        f"playout/baseline = {playout / baseline:.2f}x (target >= {TARGET_RATIO}); "
        f"{playout:,.0f} hands/s (target >= {TARGET_HANDS_PER_SECOND:,}): "
        f"{'met' if met else 'NOT met'}"
    )
    from_deal = _actions_from_deal(no_take, HANDS) / best[2]
    rows = []
    for k, (share, depth, at) in enumerate(zip(DEPTHS, depths, positions, strict=True)):
        rate = rates[4 + k]
        per_action = _actions_from(at, HANDS) / best[4 + k]
        rows.append(rate / baseline)
        print(
            f"  from {share:.2f} in ({depth} of {typical:.0f} actions, {len(at)} positions): "
            f"{rate / baseline:.2f}x the baseline per playout; {per_action:,.0f} actions/s, "
            f"{per_action / from_deal:.2f}x random_playout's {from_deal:,.0f} from the deal "
            "(informational)"
        )
    met = min(rows) >= TARGET_RATIO
    print(
        f"playout from mid-hand/baseline = {min(rows):.2f}x at the least "
        f"(target >= {TARGET_RATIO}): {'met' if met else 'NOT met'}"
    )
    return 0


def _baseline(hands: int) -> None:
    rng = random.Random(2024)
    for _ in range(hands):
        baseline_hand(PLAYERS, rng)


def _playout(rules: Ruleset) -> Callable[[int], None]:
    book = RuleBook.of(rules)

    def run(hands: int) -> None:
        for index in range(hands):
            random_playout(book, PLAYERS, hand_seed(b"bench", index), index % PLAYERS)

    return run


def _mean_actions(rules: Ruleset) -> float:
    """The mean length of a random hand from the deal, in actions."""
    return _actions_from_deal(rules, POSITIONS) / POSITIONS


def _actions_from_deal(rules: Ruleset, hands: int) -> int:
    """The actions of the hands ``_playout(rules)`` plays, counted apart from the clock."""
    book = RuleBook.of(rules)
    return sum(
        random_playout(book, PLAYERS, hand_seed(b"bench", index), index % PLAYERS).action_count
        for index in range(hands)
    )


def _positions(rules: Ruleset, depth: int) -> list[Hand]:
    """Up to ``POSITIONS`` positions ``depth`` actions into a random hand (of the hands
    that last longer), reached by ``Hand`` replaying a ``random_playout`` hand's start."""
    book = RuleBook.of(rules)
    positions: list[Hand] = []
    index = 0
    while len(positions) < POSITIONS and index < 20 * POSITIONS:
        seed = hand_seed(b"bench-from", index)
        result = random_playout(book, PLAYERS, seed, index % PLAYERS)
        if result.action_count > depth:
            hand = Hand(rules, PLAYERS, seed=seed, dealer=index % PLAYERS, record=False)
            for seat, code in result.actions[:depth]:
                hand.apply(seat, action_of(code))
            positions.append(hand)
        index += 1
    return positions


def _playout_from(positions: list[Hand]) -> Callable[[int], None]:
    def run(playouts: int) -> None:
        rng = random.Random(2024)
        count = len(positions)
        for index in range(playouts):
            random_playout_from(positions[index % count], rng)

    return run


def _actions_from(positions: list[Hand], playouts: int) -> int:
    """The actions of the playouts ``_playout_from(positions)`` plays, counted apart."""
    rng = random.Random(2024)
    return sum(
        random_playout_from(positions[index % len(positions)], rng).action_count
        for index in range(playouts)
    )


def _hand_api(rules: Ruleset) -> Callable[[int], None]:
    def run(hands: int) -> None:
        bots = [RandomBot() for _ in range(PLAYERS)]
        for index in range(hands):
            seed = hand_seed(b"bench", index)
            hand = Hand(rules, PLAYERS, seed=seed, dealer=index % PLAYERS, record=False)
            play_hand(hand, bots, bots_rng(b"bench", index))

    return run


def _without_take_hand(rules: Ruleset) -> Ruleset:
    source = copy.deepcopy(dict(rules.source))
    source["id"] = f"{rules.id}-without-b9"
    source["take_hand"]["when"] = "never"
    return Ruleset.from_mapping(source)


def _pin_to_one_core() -> bool:
    """Keep the whole run on one CPU, as the target is stated for one core."""
    if not hasattr(os, "sched_setaffinity"):
        return False
    try:
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[0]})
    except OSError:
        return False
    return True


if __name__ == "__main__":
    sys.exit(main())
