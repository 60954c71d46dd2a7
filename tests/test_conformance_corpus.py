"""The generated regression corpus: present for every bundled ruleset, whole, and replaying.

Every bundled ruleset must have golden games (``conformance/corpus/<id>.jsonl.gz``), recorded
on the ruleset as it is now (its hash), marked as generated, with legal actions and views at
every step.  The whole corpus is replayed on the engine, one test per ruleset file (about 40
CPU-seconds in all, so ``pytest -n 2`` spreads it over both cores): any change of the
engine's behaviour in any game fails here, and ``bhabhi conformance generate`` records the
new behaviour once it is understood and intended.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from referee.conformance import corpus
from referee.conformance.runner import CORPUS, EngineAdapter, LoadedCase, read_lines, run_loaded
from referee.ruleset.loader import bundled_ruleset_paths, load_ruleset

RULESETS = sorted(bundled_ruleset_paths())
NAME = re.compile(r'"name":"([^"]+)"')
MAX_MEGABYTES = 25


def corpus_file(ruleset: str) -> Path:
    return corpus.corpus_path(CORPUS, ruleset)


def first_case(ruleset: str) -> dict[str, Any]:
    for _, line in read_lines(corpus_file(ruleset)):
        case: dict[str, Any] = json.loads(line)
        return case
    raise AssertionError(f"{corpus_file(ruleset)} is empty")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_bundled_ruleset_has_a_golden_game(ruleset: str) -> None:
    path = corpus_file(ruleset)
    assert path.is_file(), f"no golden games for {ruleset}: run `bhabhi conformance generate`"
    case = first_case(ruleset)
    assert case["generated"] is True
    assert case["ruleset"]["id"] == ruleset
    assert case["ruleset"]["hash"] == load_ruleset(ruleset).hash, (
        f"{ruleset} changed since its corpus was generated: regenerate it"
    )


def test_the_corpus_is_large_enough_and_small_enough() -> None:
    games = 0
    for ruleset in RULESETS:
        games += sum(1 for _ in read_lines(corpus_file(ruleset)))
    size = sum(corpus_file(r).stat().st_size for r in RULESETS)
    assert games >= 1000
    assert size < MAX_MEGABYTES * 1_000_000


@pytest.mark.parametrize("ruleset", ["pickup", "bhabho", "two-packs"])
def test_base_games_regenerate_identically(ruleset: str) -> None:
    """The corpus is deterministic: the first games come out of the generator unchanged."""
    stored = {}
    for _, line in read_lines(corpus_file(ruleset)):
        case = json.loads(line)
        stored[case["name"]] = case
    rules = load_ruleset(ruleset)
    counts = corpus.player_counts(rules)
    for index in range(3):
        _, case = corpus.base_game(rules, index, counts)
        assert stored.get(case["name"]) == case, case["name"]


PARTS = 4
"""Each file is replayed in this many tests (every PARTS-th game), so that ``pytest -n``
balances the work: whole-pile's games alone take longer than all of discard's."""


@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_corpus_replays(ruleset: str, part: int) -> None:
    path = corpus_file(ruleset)
    adapter = EngineAdapter()
    failures: list[str] = []
    for position, (number, line) in enumerate(read_lines(path)):
        if position % PARTS != part:
            continue
        case = json.loads(line)
        assert case["generated"] is True and case["ruleset"]["id"] == ruleset
        assert {"legal", "views"} <= set(case["initial_state"])
        for step in case["steps"]:
            if "refused" not in step:
                assert {"legal", "views"} <= set(step["state"]), case["name"]
        result = run_loaded(LoadedCase(f"{path}:{number}", case), adapter)
        if not result.passed:
            failures.append(f"{result.path} {result.name}: {result.failures[0]}")
    assert not failures, "\n".join(failures[:5])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_player_count_is_played(ruleset: str) -> None:
    # The name comes first in every line: no need to parse whole games for it.
    names = []
    for _, line in read_lines(corpus_file(ruleset)):
        found = NAME.search(line[:300])
        assert found is not None
        names.append(found.group(1))
    base = [n.split("/", 1)[1].split("-") for n in names if n.split("/", 1)[1][:4].isdigit()]
    players = {int(words[1].rstrip("p")) for words in base}
    bots = {words[2] for words in base}
    assert set(corpus.player_counts(load_ruleset(ruleset))) <= players
    assert {"random", "heuristic"} <= bots
