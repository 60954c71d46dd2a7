"""Playing the hands of a run, in order, in one process or several: what ``bhabhi simulate``
and ``bhabhi analyze`` share.

Hand ``i`` of a run with seed ``S`` is dealt from ``hand_seed(S, i)`` with the dealer a
``Session`` would have for its hand ``i`` (``dealer_of``), and played by bots drawing from
``bots_rng(S, i)`` (or, with a random bot on every seat, by the fast playout seeded from the
hand's seed).  So a hand depends only on (rules, players, S, i): the hands are cut into
chunks, played in worker processes, and merged in hand order to the same result whatever
the number of processes.

What is kept of a hand is the caller's choice: a *recorder* ``recorder(rules, players,
seed, bots)`` is called once per chunk (in the process playing it) and returns the function
that plays hand ``i`` and returns its record.  A recorder must be a module-level function,
so that worker processes can be told which one to use; its records must pickle, and should
be small (a NamedTuple of numbers), since every one travels back to the parent.
"""

from __future__ import annotations

import math
import multiprocessing
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from referee.engine.session import rotation_dealer
from referee.ruleset.model import Ruleset
from referee.sim.bots import Bot, HeuristicBot, RandomBot
from referee.sim.lines import AlwaysTakeBot, LongestSuitBot, NeverTakeBot
from referee.sim.strong import StrongBot

BOT_NAMES = ("random", "heuristic", "strong", "always-take", "never-take", "longest-suit")
"""The bots a run names: ``strong`` searches (``referee.sim.strong``, 200 worlds a decision,
no clock, so a run is the same on any machine); the last three play one line and are random
otherwise (``referee.sim.lines``: the degenerate lines of ``bhabhi analyze``)."""

T = TypeVar("T")

Recorder = Callable[[Ruleset, int, bytes, tuple[str, ...]], Callable[[int], T]]
"""``recorder(rules, players, seed, bots)`` -> the function from a hand's index to its record."""

ProgressFn = Callable[[int, int], None]
"""Called with (hands done, hands in all) as the work goes on."""


def dealer_of(rules: Ruleset, players: int, index: int) -> int:
    """The dealer of hand ``index`` as ``Session`` moves the deal round the table (C5).

    A simulation's hands are independent (each from its own seed, so that they can be
    split over processes), so under H2 (``bhabhi_deals``, ``last_picker_deals``), where
    a session's dealer follows from the previous hand, they take the rotation with play
    that H2 falls back on (``session.rotation_dealer``)."""
    return rotation_dealer(rules, players, index, rules.deal.first_dealer)


def make_bot(name: str, rules: Ruleset) -> Bot:
    if name == "random":
        return RandomBot()
    if name == "heuristic":
        return HeuristicBot(rules)
    if name == "strong":
        return StrongBot(rules)
    if name == "always-take":
        return AlwaysTakeBot()
    if name == "never-take":
        return NeverTakeBot()
    if name == "longest-suit":
        return LongestSuitBot(rules)
    raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(BOT_NAMES)}")


def all_random(bots: Sequence[str]) -> bool:
    """Every seat random: the hands can be played by the fast playout (if the rules allow)."""
    return all(name == "random" for name in bots)


def check_run(
    rules: Ruleset,
    players: int,
    bots: Sequence[str],
    hands: int,
    jobs: int,
    *,
    hands_option: str = "--games",
) -> None:
    """Raise ``ValueError`` (a one-line message naming the option) for a run that cannot be
    played; ``hands_option`` is what the calling command calls the number of hands."""
    if not rules.players.allows(players):
        raise ValueError(players_message(rules, players))
    if len(bots) != players:
        raise ValueError(f"{len(bots)} bots given for {players} players")
    for name in bots:
        if name not in BOT_NAMES:
            raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(BOT_NAMES)}")
    if hands < 1:
        raise ValueError(f"{hands_option} must be at least 1, not {hands}")
    if jobs < 1:
        raise ValueError(f"--jobs must be at least 1, not {jobs}")


def allowed_counts(rules: Ruleset) -> list[int]:
    """The player counts the ruleset allows, smallest first."""
    return rules.players.counts


def players_message(rules: Ruleset, players: int) -> str:
    return f"ruleset {rules.id!r} allows {_counts(allowed_counts(rules))} players, not {players}"


def _counts(allowed: list[int]) -> str:
    if not allowed:
        return "no number of"
    if allowed == list(range(allowed[0], allowed[-1] + 1)):
        return f"{allowed[0]} to {allowed[-1]}"
    return ", ".join(map(str, allowed[:-1])) + f" or {allowed[-1]}"


def play_hands(
    rules: Ruleset,
    players: int,
    hands: int,
    seed: bytes,
    bots: Sequence[str],
    recorder: Recorder[T],
    *,
    jobs: int = 1,
    progress: ProgressFn | None = None,
) -> tuple[list[T], float]:
    """The records of hands ``0 .. hands - 1`` in order, and the seconds it took to play
    them; with ``jobs > 1`` over that many processes.  Checked by ``check_run`` first."""
    chunks = _chunks(hands, jobs)
    bots = tuple(bots)
    started = time.perf_counter()
    records: list[T] = []
    if jobs == 1:
        for start, stop in chunks:
            play = recorder(rules, players, seed, bots)
            records.extend(play(index) for index in range(start, stop))
            if progress is not None:
                progress(len(records), hands)
    else:
        work = [(recorder, players, seed, bots, start, stop) for start, stop in chunks]
        with multiprocessing.Pool(
            min(jobs, len(chunks)), initializer=_init_worker, initargs=(dict(rules.source),)
        ) as pool:
            for part in pool.imap(_work, work):  # imap keeps the order of the hands
                records.extend(part)
                if progress is not None:
                    progress(len(records), hands)
    return records, time.perf_counter() - started


def _chunks(hands: int, jobs: int) -> list[tuple[int, int]]:
    """Ranges of hand indices: small enough for a progress bar and to balance processes."""
    size = max(1, min(2000, math.ceil(hands / (jobs * 8))))
    return [(start, min(start + size, hands)) for start in range(0, hands, size)]


# --- worker processes (top level, so that they work with the spawn start method) ----------

_worker_rules: Ruleset | None = None


def _init_worker(source: Mapping[str, Any]) -> None:
    global _worker_rules
    _worker_rules = Ruleset.from_mapping(source)


def _work(job: tuple[Recorder[Any], int, bytes, tuple[str, ...], int, int]) -> list[Any]:
    assert _worker_rules is not None, "worker used without _init_worker"
    recorder, players, seed, bots, start, stop = job
    play = recorder(_worker_rules, players, seed, bots)
    return [play(index) for index in range(start, stop)]
