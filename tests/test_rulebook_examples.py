"""Worked examples in the rulebook: tricks of the hand-written conformance cases.

The cases are read here on their own (not through referee.rulebook.examples), so that the
book's examples are held to the case files: every bundled ruleset with hand-written cases
shows at least one; an example's cards are the cards its case plays, in the case's order,
ending where the case records a trick ending; it stands under a sentence stating a clause
the case checks; and every format shows it.  The suite replays the same cases on the engine
(tests/test_conformance*.py), so an example that went wrong would fail there too.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from referee.bundled import CONFORMANCE
from referee.cards import card_str, parse_card
from referee.rulebook import build, render
from referee.rulebook.loading import with_base
from referee.rulebook.model import Rulebook, Sentence
from referee.ruleset.loader import bundled_ruleset_paths, load_ruleset

BUNDLED = sorted(bundled_ruleset_paths())


@cache
def hand_written_cases() -> dict[str, dict[str, Any]]:
    """Every hand-written case of a bundled ruleset, by name."""
    found = {}
    for path in sorted((CONFORMANCE / "cases").rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or not str(data.get("format", "")).startswith("bhabhi-"):
            continue
        hand_reasoned = (data.get("provenance") or {}).get("source") == "hand-reasoned"
        ruleset = data.get("ruleset") or {}
        if (hand_reasoned or data.get("generated") is False) and "inline" not in ruleset:
            found[data["name"]] = data
    return found


def examples(book: Rulebook) -> list[Sentence]:
    return [s for section in book.sections for s in section.sentences if s.example]


def book_of(ruleset_id: str) -> Rulebook:
    return build(*with_base(ruleset_id))


@pytest.mark.parametrize("ruleset_id", BUNDLED)
def test_a_ruleset_with_hand_written_cases_shows_an_example(ruleset_id: str) -> None:
    cases = [c for c in hand_written_cases().values() if c["ruleset"]["id"] == ruleset_id]
    shown = examples(book_of(ruleset_id))
    if cases:
        assert shown, f"{ruleset_id} has {len(cases)} hand-written cases and no example"
    assert len({s.example.case for s in shown if s.example}) == len(shown), "a case twice"


@pytest.mark.parametrize("ruleset_id", BUNDLED)
def test_an_example_s_cards_are_its_case_s_cards(ruleset_id: str) -> None:
    for sentence in examples(book_of(ruleset_id)):
        example = sentence.example
        assert example is not None
        case = hand_written_cases()[example.case]
        assert case["ruleset"]["id"] == ruleset_id
        assert set(sentence.clauses) & set(case["clauses"]), (example.case, sentence.clauses)
        assert example.players == case["players"]
        steps = [s for s in case["steps"] if not s.get("refused")]
        played = []
        for index, step in enumerate(steps):
            try:
                card = card_str(parse_card(str(step["action"]))).split("/")[0]
            except ValueError:
                continue
            played.append((index, step["seat"], card))
        shown = [(p.seat, p.card.rank + p.card.suit) for p in example.plays]
        runs = [
            played[i : i + len(shown)]
            for i in range(len(played) - len(shown) + 1)
            if [(seat, card) for _, seat, card in played[i : i + len(shown)]] == shown
        ]
        assert runs, f"{example.case}: {shown} is not a run of the case's plays"
        # The trick ends at its last card, or at the pickup after it: the next trick_ended.
        ends = [
            next(
                e["trick"]
                for step in steps[run[-1][0] :]
                for e in step.get("events") or []
                if e["kind"] == "trick_ended"
            )
            for run in runs
        ]
        assert example.trick in ends, (example.case, example.trick, ends)


def test_what_happens_is_what_the_case_records() -> None:
    """pickup/winner-out-next-in-turn-leads, its last trick: seat 2 leads its last card,
    2H; seat 1 has no heart and picks it up (P1); seat 2 is out (C9) and seat 1, the only
    player with cards, is the Bhabhi (C10)."""
    book = book_of("pickup")
    (sentence,) = [
        s for s in examples(book) if s.example and s.example.case.endswith("in-turn-leads")
    ]
    text = render(book, "en", "text")
    assert "Example (pickup/winner-out-next-in-turn-leads, 4 players): seat 2 2♥." in text
    outcome = (
        "Seat 1 cannot follow suit. Seat 1 picks up the card. Seat 2 has no cards left and is"
        " out. Seat 1 is the Bhabhi."
    )
    assert outcome in " ".join(line.lstrip("> ") for line in text.splitlines())
    assert sentence.example is not None and sentence.example.trick == 1


def test_every_format_shows_the_examples_with_their_suit_symbols() -> None:
    book = book_of("bhabho")
    count = len(examples(book))
    assert render(book, "en", "text").count("  > Example (") == count
    assert render(book, "en", "markdown").count("> *Example (") == count
    page = render(book, "en", "html")
    assert page.count('<aside class="example">') == count
    assert '<p class="trick">Example (bhabho-family/bhabho/full-pack-opening' in page
    assert '2<span class="black">♠</span>' in page


def test_a_file_that_reuses_a_bundled_id_with_other_rules_shows_no_example(
    tmp_path: Path,
) -> None:
    """The cases were written on the bundled rules: changed rules are not what they show."""
    text = (bundled_ruleset_paths()["pickup"]).read_text(encoding="utf-8")
    changed = tmp_path / "pickup.yaml"
    changed.write_text(text + "\nhand_sizes: hidden\n", encoding="utf-8")
    ruleset, base = with_base(changed)
    assert ruleset.hash != load_ruleset("pickup").hash
    assert not examples(build(ruleset, base))
    assert examples(build(load_ruleset("pickup")))
