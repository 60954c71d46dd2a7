"""The strong strategy over gRPC (bhabhi_client.strong): fed only by its seat's event
stream, its guess of the table stays in step with the referee's hand to the end of every
hand, house rules included, and it plays every move by searching."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from bhabhi_client.bots import run_bot
from bhabhi_client.client import Client
from bhabhi_client.commands import main
from bhabhi_client.rules import RulesProfile
from bhabhi_client.strong import DEFAULT_THINK, StrongStrategy, strong_strategy
from server_helpers import referee, run_async, run_async_within


@pytest.mark.parametrize("rules_id", ["bhabho", "pickup", "pagat-getaway", "discard"])
@run_async
async def test_the_strong_strategy_follows_the_stream(rules_id: str) -> None:
    async with referee() as ref, Client(f"127.0.0.1:{ref.port}") as client:
        table = await client.create_table(rules_id, 3, hands=2)
        profile = RulesProfile.from_yaml((await client.get_ruleset(rules_id)).yaml)
        strong = StrongStrategy(profile, think=0.02)
        results = await asyncio.gather(
            run_bot(client, table.table_id, "strong", strong, seed=1),
            run_bot(client, table.table_id, "h1", "heuristic", seed=2),
            run_bot(client, table.table_id, "h2", "heuristic", seed=3),
        )
    assert all(result.hands == 2 for result in results)
    assert strong.fell_back == 0
    assert strong.searched > 0


TRIES = 6
"""Hands of the same deal played until one has a challenge the guess must be redrawn for:
the same deal is played differently now and then (over gRPC, whether a heuristic bot takes a
hand out of turn, B9, depends on when it sees the position), and in ten runs three hands of
this deal had no such challenge; six in a row without one would be about one run in a
thousand."""


@run_async_within(600)  # about 32 s a hand alone: a whole hand searched at every decision
async def test_a_guess_the_view_disagrees_with_is_drawn_afresh() -> None:
    """H25: whether a challenged tochoo was false hangs on hidden cards, so the guess may
    show another outcome than the table did; the strategy draws it afresh from the last
    guess the view agreed with, and searches on instead of falling back (this deal, with
    these seeds and 10 worlds a decision, mostly has such a challenge)."""
    async with referee() as ref, Client(f"127.0.0.1:{ref.port}", timeout=30) as client:
        profile = RulesProfile.from_yaml((await client.get_ruleset("pagat-getaway")).yaml)
        for _ in range(TRIES):
            table = await client.create_table("pagat-getaway", 3, hands=1, deal_seed="redraw:3")
            strong = StrongStrategy(profile, think=None, playouts=10)
            await asyncio.gather(
                run_bot(client, table.table_id, "strong", strong, seed=1),
                run_bot(client, table.table_id, "h1", "heuristic", seed=2),
                run_bot(client, table.table_id, "h2", "heuristic", seed=3),
            )
            assert strong.fell_back == 0
            if strong.redrawn >= 1:
                return
    raise AssertionError(f"no hand of {TRIES} had a guess to draw afresh")


def test_the_budget_is_a_time_or_a_number_of_worlds_or_both() -> None:
    """``--think`` bounds a decision's seconds, ``--playouts`` its worlds; with worlds alone
    there is no time bound but the table's clock, so that the bot's play depends on its seed
    only."""
    rules = RulesProfile()
    default = strong_strategy(rules)
    assert (default.think, default.core) == (DEFAULT_THINK, None)  # no ruleset: heuristic
    assert strong_strategy(rules, playouts=40).think is None
    assert strong_strategy(rules, think=0.5).think == 0.5
    assert strong_strategy(rules, think=0.5, playouts=40).think == 0.5


def test_a_league_searched_by_worlds_is_played_the_same_way_twice(tmp_path: Path) -> None:
    """The same seed and ``--playouts``: the same hands (the same players out in the same
    order), whatever the machine's load."""
    documents = []
    for run in ("a", "b"):
        out = tmp_path / f"{run}.json"
        args = ["--rules", "bhabho", "--players", "3", "--entrants", "strong,heuristic,random"]
        args += ["--deals", "1", "--seed", "twice", "--playouts", "8", "--turn-time", "60"]
        assert main(["arena", *args, "--json", str(out)]) == 0
        documents.append(json.loads(out.read_text()))
    first, second = ([(h["out_order"], h["bhabhi"]) for h in d["hands"]] for d in documents)
    assert first == second and len(first) == 3
