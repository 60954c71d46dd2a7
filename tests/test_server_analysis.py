"""AnalyzeRuleset: the referee's clients get ``bhabhi analyze``'s own document, played off
the event loop, and the same request twice is played once.

The refusals (an unknown ruleset, a player count not allowed, too many hands, a seed too
long, every worker busy, one analysis per client, over the CPU budget) are in
``test_server_refusals``, with every other refusal of the API.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bhabhi.referee.v1 import referee_pb2 as pb
from bhabhi_client.client import Client
from server_helpers import referee, run_async

from referee.analysis.report import analyze
from referee.ruleset.loader import load_ruleset
from referee.ruleset.model import Ruleset

NOT_ENDING = """\
id: short
extends: pickup
title: {en: Short, de: Kurz, pl: Krótka}
end: {max_tricks: 5}
"""
"""A house variant that cannot end: five tricks are too few for a 3-player hand."""


def document_of(rules: Ruleset, **settings: Any) -> dict[str, Any]:
    """What ``bhabhi analyze --json`` writes for the same ruleset and settings."""
    document, _timing = analyze(rules, bots=["random"], **settings)
    return document


@run_async
async def test_the_referee_answers_what_bhabhi_analyze_writes() -> None:
    """Pick-up as written: most 3-player hands never end (P1, P2), in the messages and in
    the JSON, which is the command's document to the byte."""
    async with referee() as ref:
        answer = await ref.rulesets.AnalyzeRuleset(
            pb.AnalyzeRulesetRequest(ruleset_id="pickup", players=[3], hands=60, no_skill=True)
        )
    assert answer.ruleset.id == "pickup"
    expected = document_of(
        load_ruleset("pickup"), counts=[3], hands=60, seed="1", skill=False, confirm=True
    )
    assert json.loads(answer.json) == expected
    [three] = answer.player_counts
    figures = expected["player_counts"]["3"]
    assert (three.players, three.hands) == (3, 60)
    assert three.termination.normal == figures["termination"]["normal"] < 0.5
    assert three.termination.bound + three.termination.dead_position > 0.5
    assert [seat.offset for seat in three.seats] == [0, 1, 2]
    for seat, expected_seat in zip(three.seats, figures["seats"], strict=True):
        assert seat.bhabhi_rate == expected_seat["bhabhi_rate"]
        assert [seat.ci95_low, seat.ci95_high] == expected_seat["ci95"]
    assert three.tricks.median == figures["length"]["tricks"]["median"]
    assert three.balance == figures["fairness"]["balance"]
    warnings = {warning.code: list(warning.clauses) for warning in three.warnings}
    assert {"P1", "P2"} <= set(warnings["most-hands-never-end"])


@run_async
async def test_a_registered_house_variant_is_analysed_at_every_count_it_allows() -> None:
    async with referee(allow_register=True) as ref:
        await ref.rulesets.RegisterRuleset(pb.RegisterRulesetRequest(yaml=NOT_ENDING))
        answer = await ref.rulesets.AnalyzeRuleset(
            pb.AnalyzeRulesetRequest(ruleset_id="short", hands=20, no_skill=True, no_confirm=True)
        )
    counts = [analysis.players for analysis in answer.player_counts]
    rules = load_ruleset("pickup")
    assert counts == [n for n in range(3, rules.players.max + 1) if rules.players.allows(n)]
    assert all(analysis.hands == 20 for analysis in answer.player_counts)
    three = answer.player_counts[0]
    assert three.termination.normal == 0
    assert "no-hand-ended" in [warning.code for warning in three.warnings]
    assert json.loads(answer.json)["ruleset"]["id"] == "short"


@run_async
async def test_the_tables_are_served_while_an_analysis_plays() -> None:
    """The analysis plays in a worker process: the event loop answers other calls the
    whole time (here, every one of them before the analysis is done)."""
    async with referee() as ref:
        analysis = asyncio.ensure_future(
            ref.rulesets.AnalyzeRuleset(
                pb.AnalyzeRulesetRequest(ruleset_id="pickup", players=[3], hands=200, no_skill=True)
            )
        )
        analyst = ref.running.referee.analyst
        while not analyst.workers.asking:
            await asyncio.sleep(0.001)
        answered = 0
        while not analysis.done():
            listed = await ref.rulesets.ListRulesets(pb.ListRulesetsRequest())
            assert listed.rulesets
            answered += 1
            await asyncio.sleep(0.01)
        assert answered > 0
        assert (await analysis).player_counts


@run_async
async def test_the_same_request_is_played_once() -> None:
    async with referee() as ref:
        analyst = ref.running.referee.analyst
        played: list[Any] = []
        run = analyst.workers.run

        async def counted(*args: Any) -> Any:
            played.append(args)
            return await run(*args)

        analyst.workers.run = counted  # type: ignore[method-assign,assignment]
        request = pb.AnalyzeRulesetRequest(
            ruleset_id="discard", players=[4], hands=30, seed="same", no_skill=True
        )
        first, at_once = await asyncio.gather(
            ref.rulesets.AnalyzeRuleset(request), ref.rulesets.AnalyzeRuleset(request)
        )
        again = await ref.rulesets.AnalyzeRuleset(request)
        assert first == at_once == again
        assert len(played) == 1
        request.seed = "other"
        assert await ref.rulesets.AnalyzeRuleset(request) != first
        assert len(played) == 2


@run_async
async def test_the_python_client_asks_for_an_analysis() -> None:
    async with referee() as ref, Client(f"127.0.0.1:{ref.port}") as client:
        answer = await client.analyze_ruleset("discard", [3], hands=40, skill=False)
    [three] = answer.player_counts
    assert three.hands == 40
    document = json.loads(answer.json)
    assert document["hands"] == 40 and set(document["player_counts"]) == {"3"}
    # Discard as written, 3 players: the seat dealt 18 cards always loses (C4, D1).
    warnings = {warning.code: list(warning.clauses) for warning in three.warnings}
    assert warnings["decided-by-deal"] == ["C4", "D1"]
    assert warnings["unfair-seat"] == ["C4"]
