"""The referee's own bots, in the seats a table's creator gives them (``CreateTable.bots``).

A person who opens a table in a browser has no bot program to run, so the referee can fill
seats itself.  A bot seat is played the way a seat whose clock ran out is (``clocks.py``):
when the game waits for it, its clock fires at once, the bot decides from what its seat
may see and nothing more (``Hand.view``), the table's ``bot_delay`` passes (so that the
people at the table can follow), and the action is stored as the seat's ``Move``, judged by
the engine like anyone's.  So a bot's move is made once, a bot seat is played on after a
restart (the bots are in the table's stored settings), and with replicas the first
replica to store the move wins.

``random`` and ``heuristic`` decide in microseconds, on the event loop.  ``strong``
searches for up to ``Limits.bot_think`` seconds, which must never be the loop's time: it
runs in a worker process at the lowest priority (``workers``), a bounded number at a time.
A worker holds nothing between moves: it is given the hand's deal, its B8 draws so far and
its actions, and replays them, telling the strong bot what its seat saw after each
(``referee.sim.strong``'s shadow needs exactly that).  A decision that cannot be made so
(the workers busy or gone, the CPU budget spent, a replay that fails) is the heuristic's.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from referee.cards import Card
from referee.engine import Action, EngineError, Hand
from referee.ruleset.model import Ruleset
from referee.server.errors import Refusal
from referee.server.table.state import Table
from referee.server.table.workers import OverBudget, Workers
from referee.sim.bots import Bot, HeuristicBot, RandomBot
from referee.sim.play import drawn_seen_by
from referee.sim.strong import StrongBot

STRATEGIES = ("random", "heuristic", "strong")
"""How the referee's bots play, as ``CreateTable`` names them (``BotStrategy``)."""

MAX_BOT_DELAY = 10.0

log = logging.getLogger("bhabhi.referee")


def bot_name(strategy: str) -> str:
    """The name a bot seat is taken under: what it is, for everyone at the table to see."""
    return f"{strategy.capitalize()} bot"


def quick_bot(strategy: str, rules: Ruleset) -> Bot:
    """A bot that decides on the event loop: ``random`` or ``heuristic`` (and the
    heuristic for a ``strong`` decision that cannot be searched)."""
    return RandomBot() if strategy == "random" else HeuristicBot(rules)


class SeatBots:
    """Decisions of the referee's bots: the quick ones here, the strong ones in workers."""

    def __init__(self, workers: Workers, think: float) -> None:
        self.workers = workers
        self.think = think
        """Seconds a strong bot searches a move at most."""
        self.searched = 0
        """Strong moves searched in a worker."""
        self.fell_back = 0
        """Strong moves the heuristic decided instead (workers busy, budget spent, a replay
        that failed)."""

    async def decide(self, table: Table, hand: Hand, seat: int) -> Action:
        """The action of the bot at ``seat``, one of the seat's legal actions (its
        default action where a bot declines to choose).  ``hand`` is read only before the
        first await: the caller checks, after, that the table has not moved on."""
        strategy = table.bots[seat]
        view = hand.view(seat)
        rng = random.Random(secrets.token_bytes(16))
        action: Action | None = None
        if strategy == "strong":
            args = (
                table.rules.hash,
                dict(table.rules.source),
                hand.players,
                seat,
                hand.deal,
                hand.dealer,
                tuple(hand.draws_made),
                tuple(hand.history),
                self.think,
                rng.random(),
            )
            try:
                action = await self.workers.run(2 * self.think + 1.0, strong_choice, *args)
            except (Refusal, OverBudget) as why:
                log.info("table %s seat %s: the heuristic decides (%r)", table.table_id, seat, why)
            if action is None:
                self.fell_back += 1
            else:
                self.searched += 1
        if action is None:
            action = quick_bot(strategy, table.rules).choose(view, rng)
        if action is None or action not in view.legal_actions:
            return hand.default_action(seat)
        return action


_RULESETS: dict[str, Ruleset] = {}
"""A worker's rulesets, by hash: a ruleset is read once per worker, not once a move."""


def strong_choice(
    rules_hash: str,
    source: Mapping[str, Any],
    players: int,
    seat: int,
    deal: Sequence[Sequence[Card]],
    dealer: int,
    draws: Sequence[Card],
    history: Sequence[tuple[int, Action]],
    think: float,
    seed: float,
) -> Action | None:
    """The strong bot's choice for ``seat``, in a worker process: the hand replayed from
    its deal, the bot told what its seat saw after each action; None where the replay
    does not give the hand the referee holds (the heuristic decides then)."""
    rules = _RULESETS.get(rules_hash) or _RULESETS.setdefault(
        rules_hash, Ruleset.from_mapping(source)
    )
    rng = random.Random(seed)
    bot = StrongBot(rules, think=think)
    try:
        replay = Hand(rules, players, deal=deal, dealer=dealer, draws=draws, record=False)
        bot.begin(replay.view(seat), rng)
        told = 0
        for mover, action in history:
            replay.apply(mover, action)
            seen = drawn_seen_by(replay, replay.draws_made[told:], seat)
            told = len(replay.draws_made)
            bot.observe(mover, action, seen, replay.view(seat))
    except EngineError:
        return None
    return bot.choose(replay.view(seat), rng)
