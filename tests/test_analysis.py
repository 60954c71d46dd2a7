"""``bhabhi analyze`` on the bundled rulesets, whose properties the catalogue records, and
its command line (no timing is ever asserted)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from referee.ruleset.loader import load_ruleset


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["analyze", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[str, dict[str, Any]]:
    code, out, err = run(capsys, *argv, "--json", "-")
    assert code == 0, err
    assert err == ""  # no progress bar when stderr is not a terminal
    return out, json.loads(out)


def codes(data: dict[str, Any]) -> dict[str, list[str]]:
    return {w["code"]: w["clauses"] for w in data["warnings"]}


# --- the known properties of the bundled rulesets ---------------------------------------------


def test_pickup_with_three_players_mostly_never_ends(capsys: pytest.CaptureFixture[str]) -> None:
    """P1's note: with P1-P3 as written most 3-player hands cannot end (here they stop in a
    dead position, or at the bound); the warning names the pick-up clauses."""
    _, doc = run_json(capsys, "pickup", "--players", "3", "--hands", "80")
    data = doc["player_counts"]["3"]
    ending = data["termination"]
    assert ending["bound"] + ending["dead_position"] > 0.5
    assert ending["normal"] + ending["bound"] + ending["dead_position"] == pytest.approx(1.0)
    assert codes(data)["most-hands-never-end"] == ["P1", "P2", "P3"]


def test_discard_with_three_players_is_decided_by_the_deal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """D1's note: with 3 players the player dealt 18 cards is always the Bhabhi."""
    _, doc = run_json(capsys, "discard", "--players", "3-4", "--hands", "40")
    three = doc["player_counts"]["3"]
    assert three["decisiveness"]["after_deal"] == 1.0
    assert three["fairness"]["by_cards_dealt"]["18"]["bhabhi_rate"] == 1.0
    warned = codes(three)
    assert warned["decided-by-deal"] == ["C4", "D1", "D2"]
    assert warned["unfair-seat"] == ["C4"]
    four = doc["player_counts"]["4"]  # everyone goes out on the same trick: no Bhabhi
    assert four["no_bhabhi"]["rate"] == 1.0
    assert four["events"]["players_out"]["all_at_once"] == 1.0
    assert codes(four) == {"no-bhabhi": ["C11", "D1", "D2"]}


def test_bhabho_ends_normally(capsys: pytest.CaptureFixture[str]) -> None:
    """B8's note: every hand of B1-B8 ends."""
    _, doc = run_json(capsys, "bhabho", "--players", "4-5", "--hands", "100")
    for data in doc["player_counts"].values():
        assert data["termination"]["normal"] >= 0.99
        assert data["warnings"] == []
        assert sum(s["bhabhis"] for s in data["seats"]) + data["no_bhabhi"]["hands"] == 100


def test_heuristic_bots_play_through_hand(capsys: pytest.CaptureFixture[str]) -> None:
    bots = "heuristic,random,random,random"
    _, doc = run_json(capsys, "bhabho", "--players", "4", "--hands", "4", "--bots", bots)
    data = doc["player_counts"]["4"]
    assert data["engine"] == "hand"
    assert data["bots"] == ["heuristic", "random", "random", "random"]
    assert data["termination"]["normal"] == 1.0
    assert data["events"]["tochoos"]["mean"] == data["events"]["pickups"]["mean"]  # B6


def test_a_variant_that_cannot_end_names_no_hand_ended(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Nobody can go out within 5 tricks of a 52-card deal: no hand ends before the bound."""
    variant = tmp_path / "short.yaml"
    variant.write_text("id: short\nextends: pickup\nend: {max_tricks: 5}\n", encoding="utf-8")
    _, doc = run_json(capsys, str(variant), "--players", "4", "--hands", "10")
    data = doc["player_counts"]["4"]
    assert data["termination"]["normal"] == 0.0
    assert codes(data) == {"no-hand-ended": ["P1", "P2", "P3"]}
    [warning] = data["warnings"]
    assert warning["message"].startswith("no 4-player hand ended before the bound")


# --- the document -------------------------------------------------------------------------------


def test_json_keys(capsys: pytest.CaptureFixture[str]) -> None:
    _, doc = run_json(capsys, "pickup", "--players", "3", "--hands", "30", "--seed", "k")
    rules = load_ruleset("pickup")
    assert doc["ruleset"] == {"id": "pickup", "hash": rules.hash, "title": rules.title.en}
    assert (doc["seed"], doc["hands"], doc["bots"]) == ("k", 30, ["random"])
    assert doc["pace_seconds_per_card"] == 3.0
    data = doc["player_counts"]["3"]
    assert {"normal", "dead_position", "bound", "counts"} <= set(data["termination"])
    for key in ("tricks", "actions", "minutes"):
        assert set(data["length"][key]) == {"median", "q1", "q3", "p95", "max"}
    assert [s["offset"] for s in data["seats"]] == [0, 1, 2]
    for seat in data["seats"]:
        assert {"offset", "bhabhi_rate", "ci95", "bhabhis", "dealt"} == set(seat)
        assert seat["ci95"][0] <= seat["bhabhi_rate"] <= seat["ci95"][1]
    assert set(data["no_bhabhi"]) == {"hands", "rate"}
    assert {
        "chi2", "p_value", "balance", "fair_rate", "by_lead_card_holder", "by_most_cards",
        "by_cards_dealt",
    } == set(data["fairness"])  # fmt: skip
    assert {"hands", "after_deal", "fraction", "curve", "lead_changes"} == set(data["decisiveness"])
    assert {"pickups", "tochoos", "waste_draws", "hands_taken", "players_out"} == set(
        data["events"]
    )
    for warning in data["warnings"]:
        assert set(warning) == {"code", "message", "clauses"}


def test_the_document_is_the_same_for_any_number_of_jobs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    args = ("bhabho", "--players", "3-4", "--hands", "150", "--seed", "j")
    one, _ = run_json(capsys, *args, "--jobs", "1")
    again, _ = run_json(capsys, *args)
    two, _ = run_json(capsys, *args, "--jobs", "2")
    assert one == again == two
    target = tmp_path / "out.json"
    code, out, _ = run(capsys, *args, "--json", str(target), "--jobs", "2")
    assert code == 0
    assert target.read_text(encoding="utf-8") == one
    assert "== 3 players" in out and "== 4 players" in out  # the summary still goes out


def test_terminal_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "discard", "--players", "3", "--hands", "25")
    assert code == 0 and err == ""
    assert "== 3 players (25 hands, fast random playout) ==" in out
    assert "dealer +1" in out
    assert "warning: the Bhabhi is known after the deal in 100% of 3-player hands" in out


# --- bad input: one line, exit code 2 ------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("nope",), "no bundled ruleset or file named 'nope'"),
        (("pickup", "--players", "2"), "ruleset 'pickup' allows 3 to 8 players, not 2"),
        (("pickup", "--players", "7-9"), "ruleset 'pickup' allows 3 to 8 players, not 9"),
        (("pickup", "--players", "4-3"), "the range runs from the smaller count"),
        (("team", "--players", "4-6"), "ruleset 'team' allows 4, 6 or 8 players, not 5"),
        (("pickup", "--players", "three"), "--players takes N or N-M"),
        (("pickup", "--hands", "0"), "--hands must be at least 1, not 0"),
        (("pickup", "--jobs", "0"), "--jobs must be at least 1, not 0"),
        (("pickup", "--bots", "genius"), "unknown bot 'genius'; known bots: random, heuristic"),
        (("pickup", "--players", "4", "--bots", "random,heuristic"), "--bots names 2 bots"),
        (("pickup", "--players", "3", "--hands", "2", "--json", "/nonexistent/x.json"),
         "cannot write"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_and_exit_code_2(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], says: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    [line] = err.splitlines()
    assert line.startswith("bhabhi analyze: error: ")
    assert says in line
