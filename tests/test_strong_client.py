"""The strong strategy over gRPC (bhabhi_client.strong): fed only by its seat's event
stream, its guess of the table stays in step with the referee's hand to the end of every
hand, house rules included, and it plays every move by searching."""

from __future__ import annotations

import asyncio

import pytest
from bhabhi_client.bots import run_bot
from bhabhi_client.client import Client
from bhabhi_client.rules import RulesProfile
from bhabhi_client.strong import StrongStrategy
from server_helpers import referee, run_async


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
