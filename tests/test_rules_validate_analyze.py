"""``bhabhi rules validate --analyze``: the warnings of ``bhabhi analyze`` after each valid
file's ok line, on a bundled ruleset known to warn and on house variants written with a
deliberate flaw; invalid files are reported as without it (few hands: seconds; no timing
is ever asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.analysis.report import DEFAULT_SEED
from referee.analysis.skill import SKILL_MIN_SEAT_HANDS, deals_for
from referee.analysis.validation import warning_line
from referee.cli import main
from referee.ruleset.commands import ANALYZE_HANDS, ANALYZE_SEED

ANALYSIS = ": warning: analysis: "


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["rules", "validate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def analysis_lines(out: str, ref: str) -> list[str]:
    """The analysis warnings printed for ``ref``, without the ``FILE: warning: analysis: ``."""
    prefix = f"{ref}{ANALYSIS}"
    return [line.removeprefix(prefix) for line in out.splitlines() if line.startswith(prefix)]


def house(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_pickup_as_written_warns_that_most_three_player_hands_never_end(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """P1's note: with P1-P3 as written most 3-player hands cannot end.  The warning comes
    after the ok line, confirmed by re-playing with P1's and P2's options switched."""
    code, out, err = run(capsys, "--analyze", "--analyze-hands", "20", "pickup")
    assert code == 0 and err == ""
    first, *rest = out.splitlines()
    assert first.startswith("pickup: ok (id pickup, hash sha256:")
    assert rest == [f"pickup{ANALYSIS}{line}" for line in analysis_lines(out, "pickup")]
    [never] = [line for line in rest if "most-hands-never-end" in line]
    assert never.startswith(
        "pickup: warning: analysis: 3 players: most-hands-never-end: most 3-player hands "
        "never end: "
    )
    assert "with off_suit.play: discard instead, 100% of hands end" in never
    assert never.endswith(" [P1, P2]")  # P3's switch does not end them: dropped


def test_the_warnings_are_those_of_bhabhi_analyze(capsys: pytest.CaptureFixture[str]) -> None:
    """The same hands, seed and bots as ``bhabhi analyze`` with its defaults: every count's
    warnings, in order, and nothing else."""
    assert ANALYZE_SEED == DEFAULT_SEED
    code, out, _ = run(capsys, "--analyze", "--analyze-hands", "20", "discard")
    assert code == 0
    assert main(["analyze", "discard", "--hands", "20", "--json", "-"]) == 0
    document = json.loads(capsys.readouterr().out)
    expected = [
        warning_line(int(players), warning)
        for players, data in document["player_counts"].items()
        for warning in data["warnings"]
    ]
    assert analysis_lines(out, "discard") == expected
    assert expected[0].startswith("3 players: decided-by-deal: ")  # D1's note
    assert expected[0].endswith(" [C4, D1]")
    assert [line.split(": ")[1] for line in expected] == [
        "decided-by-deal", "unfair-seat", *["no-bhabhi"] * 5,
    ]  # fmt: skip


def test_a_house_variant_that_cannot_end(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Pick-up rules for 3 stopped at 6 tricks, the most cards losing: no hand ends before
    the bound (the pick-up clauses named), and the seat after the dealer, dealt 18 cards,
    loses nearly every hand (C4)."""
    path = house(
        tmp_path,
        "endless",
        "id: endless-pickup\nextends: pickup\nplayers: {min: 3, max: 3}\n"
        "end: {max_tricks: 6, at_max_tricks: most_cards}\n",
    )
    code, out, err = run(capsys, "--analyze", "--analyze-hands", "20", path)
    assert code == 0 and err == ""
    ended, unfair = analysis_lines(out, path)
    assert ended == (
        "3 players: no-hand-ended: no 3-player hand ended before the bound: every one of 20 "
        "stopped at end.max_tricks (6 tricks) or in a dead position [P1, P2, P3]"
    )
    assert unfair.startswith("3 players: unfair-seat: the seat after the dealer loses ")
    assert unfair.endswith(" [C4]")


def test_a_house_variant_with_a_dominant_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Bhabho for 3 stopped at 3 tricks: at the default hands the skill and lines runs are
    long enough to tell that always taking a hand loses far more than a fair share (B9);
    every analysis warning follows the ok line."""
    path = house(
        tmp_path,
        "three-trick",
        "id: three-trick-bhabho\nextends: bhabho\nplayers: {min: 3, max: 3}\n"
        "end: {max_tricks: 3, at_max_tricks: most_cards}\n",
    )
    code, out, err = run(capsys, "--analyze", path)
    assert code == 0 and err == ""
    lines = out.splitlines()
    ok = next(i for i, line in enumerate(lines) if line.startswith(f"{path}: ok "))
    warned = analysis_lines(out, path)
    assert lines[ok + 1 :] == [f"{path}{ANALYSIS}{line}" for line in warned]
    always = [line for line in warned if "always takes a hand" in line]
    assert len(always) == 1
    assert always[0].startswith("3 players: dominant-line: with 3 players, a player who always")
    assert always[0].endswith(": a line to avoid [B9]")


def test_an_invalid_file_is_reported_as_today_and_not_analysed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A declared clause the options switch off is a problem: the file is not analysed, the
    valid one beside it is, and the exit code is 1."""
    broken = house(
        tmp_path, "family-thulla", "id: family-thulla\nextends: bhabho\ntake_hand: {when: never}\n"
    )
    code, out, err = run(capsys, broken, "--analyze", "--analyze-hands", "20")
    assert code == 1
    [line] = out.splitlines()
    assert line.startswith(f"{broken}:3:19: take_hand.when: clause B9 is declared, but the ")
    assert "1 problem in 1 of 1 file" in err
    assert main(["rules", "validate", broken]) == 1
    assert capsys.readouterr().out == out  # exactly as without --analyze

    code, out, err = run(capsys, "--analyze", "--analyze-hands", "20", broken, "pickup")
    assert code == 1
    assert analysis_lines(out, broken) == []
    assert analysis_lines(out, "pickup")[0].startswith("3 players: most-hands-never-end: ")
    assert "1 problem in 1 of 2 files" in err


@pytest.mark.parametrize("hands", ["0", "-3", "x", "2.5", ""])
def test_bad_analyze_hands_is_one_line_and_exit_code_2(
    capsys: pytest.CaptureFixture[str], hands: str
) -> None:
    code, out, err = run(capsys, "--analyze", "--analyze-hands", hands, "pickup")
    assert code == 2
    assert out == ""
    assert err.splitlines() == [
        "bhabhi rules validate: error: --analyze-hands must be a whole number of at least 1, "
        f"not {hands!r}"
    ]


def test_the_default_hands_let_every_warning_be_told_at_3_to_8_players() -> None:
    """The skill and lines warnings need SKILL_MIN_SEAT_HANDS seat-hands of the bot at every
    count: the default is the fewest hands that give them from 3 to 8 players."""

    def enough(hands: int) -> bool:
        return all(deals_for(hands, n) * n >= SKILL_MIN_SEAT_HANDS for n in range(3, 9))

    assert enough(ANALYZE_HANDS) and not enough(ANALYZE_HANDS - 1)


def test_plain_validation_does_not_load_the_analysis() -> None:
    """The ruleset layer reaches up to the analysis (and so the simulator) only when
    ``--analyze`` is given: plain validation stays as light as loading a ruleset."""
    script = (
        "import argparse, sys\n"
        "from referee.ruleset import commands\n"
        "parser = argparse.ArgumentParser()\n"
        "commands.register(parser.add_subparsers())\n"
        "def loaded():\n"
        "    return sorted({m.split('.')[1] for m in sys.modules\n"
        "                   if m.startswith(('referee.analysis', 'referee.sim'))})\n"
        "args = parser.parse_args(['rules', 'validate', 'discard'])\n"
        "assert args.func(args) == 0\n"
        "print(loaded())\n"
        "args = parser.parse_args(['rules', 'validate', '--analyze', '--analyze-hands', '3',"
        " 'discard'])\n"
        "assert args.func(args) == 0\n"
        "print(loaded())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    lines = done.stdout.splitlines()
    assert lines[0].startswith("discard: ok ")
    assert lines[1] == "[]"
    assert lines[-1] == "['analysis', 'sim']"
