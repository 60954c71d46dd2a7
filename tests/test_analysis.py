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
    _, doc = run_json(
        capsys, "pickup", "--players", "3", "--hands", "80", "--no-confirm", "--no-skill"
    )
    data = doc["player_counts"]["3"]
    ending = data["termination"]
    assert ending["bound"] + ending["dead_position"] > 0.5
    assert ending["normal"] + ending["bound"] + ending["dead_position"] == pytest.approx(1.0)
    assert codes(data)["most-hands-never-end"] == ["P1", "P2", "P3"]  # unconfirmed suspects


def test_pickup_never_ending_is_confirmed_by_switching_off_suit_play(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Re-played with P1's option switched (off_suit.play), the hands end: P1 is confirmed
    and the message names the option; P3's switch (draws_from_waste) does not end them."""
    _, doc = run_json(capsys, "pickup", "--players", "3", "--hands", "80", "--no-skill")
    warning = next(
        w for w in doc["player_counts"]["3"]["warnings"] if w["code"] == "most-hands-never-end"
    )
    assert "P1" in warning["clauses"] and "P3" not in warning["clauses"]
    assert "with off_suit.play: " in warning["message"]
    tried = {t["clause"]: t for t in warning["confirmation"]}
    assert tried["P1"]["option"] == "off_suit.play" and tried["P1"]["confirmed"]
    assert tried["P1"]["figure"] <= 0.5 * (1 - doc["player_counts"]["3"]["termination"]["normal"])
    assert not tried["P3"]["confirmed"]


def test_discard_with_three_players_is_decided_by_the_deal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """D1's note: with 3 players the player dealt 18 cards is always the Bhabhi."""
    _, doc = run_json(capsys, "discard", "--players", "3-4", "--hands", "40")
    three = doc["player_counts"]["3"]
    assert three["decisiveness"]["after_deal"] == 1.0
    assert three["fairness"]["by_cards_dealt"]["18"]["bhabhi_rate"] == 1.0
    warned = codes(three)
    assert warned["decided-by-deal"] == ["C4", "D1"]  # D2 switched off alone changes nothing
    assert warned["unfair-seat"] == ["C4"]
    four = doc["player_counts"]["4"]  # everyone goes out on the same trick: no Bhabhi
    assert four["no_bhabhi"]["rate"] == 1.0
    assert four["events"]["players_out"]["all_at_once"] == 1.0
    assert codes(four) == {"no-bhabhi": ["C11", "D1"]}


def test_bhabho_ends_normally(capsys: pytest.CaptureFixture[str]) -> None:
    """B8's note: every hand of B1-B8 ends."""
    _, doc = run_json(capsys, "bhabho", "--players", "4-5", "--hands", "100", "--no-skill")
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
        assert {"code", "message", "clauses"} <= set(warning) <= {
            "code", "message", "clauses", "confirmation",
        }  # fmt: skip
    for entry in [data["skill"], *data["lines"].values()]:
        assert {
            "bot", "deals", "seat_hands", "bhabhis", "bhabhi_rate", "ci95", "fair_rate", "ratio",
        } == set(entry)  # fmt: skip
        assert entry["ci95"][0] <= entry["bhabhi_rate"] <= entry["ci95"][1]
    assert list(data["lines"]) == ["longest-suit"]  # pickup takes no hands: no B9 lines


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
        (("pickup", "--players", "3", "--hands", "2", "--html", "/nonexistent/x.html"),
         "cannot write"),
        (("pickup", "--against", "nope"), "no bundled ruleset or file named 'nope'"),
        (("pickup", "--players", "3", "--against", "team"),
         "--against team: ruleset 'team' allows 4, 6 or 8 players, not 3"),
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


# --- --against: two rulesets on the same deals ---------------------------------------------------


def test_discard_against_pickup_differs_significantly(capsys: pytest.CaptureFixture[str]) -> None:
    """D1's note against P1's: every discard hand ends, most 3-player pick-up hands do not;
    the other ruleset's figures are those of its own run on the same seed."""
    _, doc = run_json(capsys, "discard", "--players", "3", "--hands", "60", "--against", "pickup")
    against = doc["against"]
    pickup = load_ruleset("pickup")
    assert against["ruleset"] == {"id": "pickup", "hash": pickup.hash, "title": pickup.title.en}
    assert (against["test"], against["significance_level"]) == ("two-proportion z-test", 0.01)
    _, alone = run_json(capsys, "pickup", "--players", "3", "--hands", "60", "--no-skill")
    assert against["player_counts"] == alone["player_counts"]
    normal = against["differences"]["3"]["termination"]["normal"]
    assert normal["this"] == doc["player_counts"]["3"]["termination"]["normal"] == 1.0
    assert normal["other"] == alone["player_counts"]["3"]["termination"]["normal"] < 0.5
    assert normal["difference"] == pytest.approx(normal["this"] - normal["other"])
    assert normal["significant"] and normal["p_value"] < 0.01
    seats = against["differences"]["3"]["seats"]
    assert [s["offset"] for s in seats] == [0, 1, 2]
    assert seats[1]["bhabhi_rate"]["significant"]  # discard: dealer +1 (18 cards) always loses


def test_an_identical_copy_against_its_base_differs_in_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    copy = tmp_path / "copy.yaml"
    copy.write_text("id: pickup-copy\nextends: pickup\n", encoding="utf-8")
    code, out, _ = run(
        capsys, str(copy), "--players", "3-4", "--hands", "50", "--against", "pickup"
    )
    assert code == 0
    assert "== 3 players: pickup-copy against pickup ==" in out
    assert not [line for line in out.splitlines() if line.endswith(" *")]  # none significant
    _, doc = run_json(capsys, str(copy), "--players", "3-4", "--hands", "50", "--against", "pickup")
    differences = doc["against"]["differences"]
    assert set(differences) == {"3", "4"}
    for diff in differences.values():
        cells = [*diff["termination"].values(), *(s["bhabhi_rate"] for s in diff["seats"])]
        for cell in cells:
            assert (cell["difference"], cell["p_value"], cell["significant"]) == (0.0, 1.0, False)


def test_against_plays_only_the_player_counts_both_allow(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, doc = run_json(capsys, "pickup", "--players", "3-4", "--hands", "5", "--against", "team")
    assert set(doc["player_counts"]) == {"3", "4"}
    assert set(doc["against"]["player_counts"]) == set(doc["against"]["differences"]) == {"4"}


def test_the_two_proportion_test_is_the_chi_square_test_of_the_two_by_two_table() -> None:
    """Without continuity correction, z squared is the 2x2 table's chi-square statistic, and
    the p-values agree (SciPy's contingency test as the independent check)."""
    from scipy.stats import chi2_contingency

    from referee.analysis.compare import two_proportions

    for a, n, b, m in [(30, 100, 15, 100), (5, 40, 9, 60), (120, 400, 100, 400)]:
        z, p_value = two_proportions(a, n, b, m)
        statistic, expected_p, _, _ = chi2_contingency([[a, n - a], [b, m - b]], correction=False)
        assert z * z == pytest.approx(statistic)
        assert p_value == pytest.approx(expected_p)
    assert two_proportions(0, 10, 0, 20) == (0.0, 1.0)
    assert two_proportions(10, 10, 20, 20) == (0.0, 1.0)


# --- --html --------------------------------------------------------------------------------------


def test_html_page_from_the_document(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Four inline plots per player count, the warnings first, nothing to fetch, the same
    bytes for the same run; with --against the length and seat plots show both rulesets."""
    page = tmp_path / "a.html"
    args = ("discard", "--players", "3", "--hands", "20", "--against", "pickup", "--no-confirm")
    code, out, _ = run(capsys, *args, "--html", str(page))
    assert code == 0 and "== 3 players" in out
    text = page.read_text(encoding="utf-8")
    assert text.count("<svg ") == 4
    assert text.index('id="warnings"') < text.index('id="players-3"')
    assert "[C4, D1, D2]" in text and "[P1, P2, P3]" in text
    assert "<script" not in text and "<img" not in text and "<link" not in text
    assert "http://" not in text.replace('xmlns="http://', "").replace('xlink="http://', "")
    assert "https://" not in text
    [length, seats, dealt, curve] = [part.split("</svg>")[0] for part in text.split("<svg ")[1:]]
    for both in (length, seats):
        assert ">discard<" in both and ">pickup<" in both
    for one in (dealt, curve):
        assert ">pickup<" not in one
    again = tmp_path / "b.html"
    assert run(capsys, *args, "--html", str(again))[0] == 0
    assert again.read_bytes() == page.read_bytes()


def test_html_escapes_every_text(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    variant = tmp_path / "odd.yaml"
    variant.write_text(
        "id: odd\nextends: bhabho\ntitle: {en: 'Tom & Jerry <b>house</b>'}\n", encoding="utf-8"
    )
    page = tmp_path / "odd.html"
    code, _, _ = run(capsys, str(variant), "--players", "4", "--hands", "3", "--html", str(page))
    assert code == 0
    text = page.read_text(encoding="utf-8")
    assert "<title>Analysis of Tom &amp; Jerry &lt;b&gt;house&lt;/b&gt;</title>" in text
    assert "<b>house" not in text


def test_matplotlib_is_loaded_only_for_html(tmp_path: Path) -> None:
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from referee.cli import main\n"
        "assert main(['analyze', 'bhabho', '--players', '4', '--hands', '2']) == 0\n"
        "print('loaded', 'matplotlib' in sys.modules)\n"
        f"assert main(['analyze', 'bhabho', '--players', '4', '--hands', '2', '--html', "
        f"{str(tmp_path / 'p.html')!r}]) == 0\n"
        "print('loaded', 'matplotlib' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    loaded = [line for line in done.stdout.splitlines() if line.startswith("loaded ")]
    assert loaded == ["loaded False", "loaded True"]
