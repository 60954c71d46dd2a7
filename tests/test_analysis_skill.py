"""``bhabhi analyze``'s skill and lines (one bot in every seat in turn against random
players) and the confirmation of suspects, on the bundled rulesets and on house variants
written with a deliberate flaw, each of which must be found and named (few hands: seconds)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.analysis.confirm import switches
from referee.analysis.report import analyze as run_analysis
from referee.analysis.skill import SKILL_MIN_SEAT_HANDS, hands_played
from referee.cli import main
from referee.ruleset.loader import load_ruleset


def analyze(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code = main(["analyze", *argv, "--json", "-"])
    out, err = capsys.readouterr()
    assert code == 0, err
    document: dict[str, Any] = json.loads(out)
    return document


def warned(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {w["code"]: w for w in data["warnings"]}


def house(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def consistent(entry: dict[str, Any], players: int) -> None:
    """An entry of ``skill`` or ``lines``: counts, rate, interval and ratio agree."""
    assert entry["seat_hands"] == entry["deals"] * players
    assert entry["bhabhi_rate"] == pytest.approx(entry["bhabhis"] / entry["seat_hands"])
    low, high = entry["ci95"]
    assert 0 <= low <= entry["bhabhi_rate"] <= high <= 1
    assert 0 <= entry["fair_rate"] <= 1 / players
    if entry["fair_rate"] > 0:
        assert entry["ratio"] == pytest.approx(entry["bhabhi_rate"] / entry["fair_rate"], abs=1e-5)


def test_discard_with_three_players_skill_does_not_matter(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """D1's note: the player dealt 18 cards loses whatever anyone plays, so the heuristic bot
    loses a fair share, a third."""
    doc = analyze(capsys, "discard", "--players", "3", "--hands", "60", "--no-confirm")
    data = doc["player_counts"]["3"]
    skill = data["skill"]
    consistent(skill, 3)
    assert skill["bot"] == "heuristic" and skill["seat_hands"] >= SKILL_MIN_SEAT_HANDS
    assert skill["fair_rate"] == pytest.approx(1 / 3, abs=1e-6)
    warning = warned(data)["skill-does-not-matter"]
    assert warning["clauses"] == ["D1", "D2"]
    assert "heuristic bot" in warning["message"]
    assert "lines" in data and "always-take" not in data["lines"]  # discard takes no hands


def test_bhabho_always_take_line(capsys: pytest.CaptureFixture[str]) -> None:
    """B9 against random players: a player who takes whenever it may takes on cards and
    loses far more often than fair (measured 79% against 25% with 4 players on 200 deals;
    here 15); the warning names B9."""
    doc = analyze(capsys, "bhabho", "--players", "4", "--hands", "60")
    data = doc["player_counts"]["4"]
    assert set(data["lines"]) == {"always-take", "never-take", "longest-suit"}
    for entry in [data["skill"], *data["lines"].values()]:
        consistent(entry, 4)
    always = data["lines"]["always-take"]
    assert always["ci95"][0] > always["fair_rate"]
    lines = [w for w in data["warnings"] if w["code"] == "dominant-line"]
    taking = [w for w in lines if "always takes" in w["message"]]
    assert len(taking) == 1 and taking[0]["clauses"] == ["B9"]
    assert data["skill"]["ratio"] < 1  # the heuristic bot loses less than a fair share


def test_pickup_never_ending_confirmed_by_off_suit_play(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """P1's option switched (off_suit.play) ends every hand: P1 is kept and the message says
    which change removed the warning; P3's switch leaves most hands unended, P3 is dropped."""
    doc = analyze(capsys, "pickup", "--players", "3", "--hands", "60", "--no-skill")
    warning = warned(doc["player_counts"]["3"])["most-hands-never-end"]
    assert warning["clauses"][0] == "P1" and "P3" not in warning["clauses"]
    assert "with off_suit.play: discard instead, 100% of hands end" in warning["message"]
    tried = {t["clause"]: t for t in warning["confirmation"]}
    assert tried["P1"] == {
        "clause": "P1", "option": "off_suit.play", "value": "discard", "figure": 0.0,
        "removed": True, "confirmed": True,
    }  # fmt: skip
    assert tried["P3"]["option"] == "next_leader.if_out" and not tried["P3"]["confirmed"]


def test_switches_prefer_an_option_that_tells_suspects_apart() -> None:
    """P2 shares off_suit.play with P1: its own option, next_leader.after_pickup, first."""
    source = load_ruleset("pickup").source
    first_path, _ = switches(source, "P2", ["P1", "P3"])[0]
    assert first_path == ("next_leader", "after_pickup")
    assert switches(source, "C4", ["P1"]) == []  # C4: no option switches it off


# --- house variants with a deliberate flaw ---------------------------------------------------


def test_house_variant_that_cannot_end(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Pick-up rules stopped at 6 tricks: no hand ends before the bound (P1 named)."""
    path = house(
        tmp_path,
        "endless",
        "id: endless-pickup\nextends: pickup\nend: {max_tricks: 6, at_max_tricks: most_cards}\n",
    )
    doc = analyze(capsys, path, "--players", "3", "--hands", "30", "--no-skill")
    data = doc["player_counts"]["3"]
    assert data["termination"]["bound"] == 1.0
    assert "P1" in warned(data)["no-hand-ended"]["clauses"]


def test_house_variant_with_an_unfair_seat(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Bhabho for 3 stopped at 3 tricks, the most cards losing: the seat after the dealer,
    dealt 18 cards, loses about half the hands (C4 named)."""
    path = house(
        tmp_path,
        "unfair",
        "id: three-trick-bhabho\nextends: bhabho\nplayers: {min: 3, max: 3}\n"
        "end: {max_tricks: 3, at_max_tricks: most_cards}\n",
    )
    doc = analyze(capsys, path, "--hands", "300", "--no-skill", "--no-confirm")
    data = doc["player_counts"]["3"]
    warning = warned(data)["unfair-seat"]
    assert warning["clauses"] == ["C4"]
    assert warning["message"].startswith("the seat after the dealer loses")
    assert max(data["seats"], key=lambda s: s["bhabhi_rate"])["dealt"] == 18


def test_house_variant_where_skill_does_not_matter(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The discard rules for 3 only: the deal decides, skill-does-not-matter names D1, D2."""
    path = house(
        tmp_path, "shed", "id: three-hand-discard\nextends: discard\nplayers: {min: 3, max: 3}\n"
    )
    doc = analyze(capsys, path, "--hands", "60", "--no-confirm")
    data = doc["player_counts"]["3"]
    consistent(data["skill"], 3)
    assert warned(data)["skill-does-not-matter"]["clauses"] == ["D1", "D2"]


def test_one_progress_bar_over_the_skill_runs_too() -> None:
    """The bar counts the skill and lines hands: it rises and ends at its total."""
    rules = load_ruleset("discard")
    calls: list[tuple[int, int]] = []
    run_analysis(rules, [3], 9, "p", ["random"], progress=lambda d, t: calls.append((d, t)))
    total = 9 + hands_played(rules, 3, 9)
    assert total == 9 + 2 * 3 * 3  # heuristic and longest-suit, 3 deals in each of 3 seats
    assert calls[-1] == (total, total)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_html_page_has_a_skill_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    page = tmp_path / "skill.html"
    argv = ["analyze", "discard", "--players", "3", "--hands", "9", "--no-confirm"]
    assert main([*argv, "--html", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    assert "<h3>Skill and lines</h3>" in text and "heuristic bot" in text
    assert main([*argv, "--no-skill", "--html", str(page)]) == 0
    assert "Skill and lines" not in page.read_text(encoding="utf-8")
    capsys.readouterr()
