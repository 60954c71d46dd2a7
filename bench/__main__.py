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
  built (informational).

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
from referee.engine.playout import random_playout
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
    for (name, _, _), rate, note in zip(contenders, rates, notes, strict=True):
        ratio = f"{rate / baseline:5.2f}x" if note else "     "
        print(f"  {name:<44} {rate:>9,.0f} hands/s  {ratio}  {note}")
    playout = rates[1]
    met = playout >= TARGET_HANDS_PER_SECOND and playout / baseline >= TARGET_RATIO
    print(
        f"playout/baseline = {playout / baseline:.2f}x (target >= {TARGET_RATIO}); "
        f"{playout:,.0f} hands/s (target >= {TARGET_HANDS_PER_SECOND:,}): "
        f"{'met' if met else 'NOT met'}"
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
