"""``bhabhi conformance mutants --code``: mutation testing of the engine's source, on a tiny
sample so that the command keeps working (the full sample runs in ``make bench``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from referee.conformance import code_mutants

ROOT = Path(__file__).resolve().parents[1]
SESSIONS = str(ROOT / "conformance" / "cases" / "sessions")


def _bhabhi(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "referee", "conformance", "mutants", "--code", *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)


def test_every_kind_of_change_is_found_and_compiles() -> None:
    found = [m for module in code_mutants.TARGETS for m in code_mutants.sites(module)]
    kinds = {m.mutation.split(" to ")[0] for m in found}
    assert {"<", "<=", "==", "!=", "is", "and", "or", "+", "remove not"} <= kinds
    assert any(m.mutation.startswith("-") and "to +" in m.mutation for m in found)
    assert any(m.mutation == "0 to 1" for m in found)
    for mutant in found[:: max(1, len(found) // 25)]:
        code_mutants.mutated_code(mutant)  # compiles


def test_the_sample_is_deterministic() -> None:
    assert code_mutants.choose(5, 3) == code_mutants.choose(5, 3)
    assert code_mutants.choose(5, 3) != code_mutants.choose(5, 4)


def test_a_dealer_moving_the_wrong_way_is_killed_by_the_session_cases() -> None:
    """C5: the session cases check who deals each hand, so ``dealer - step * number``
    (the issue's surviving mutant) fails one."""
    done = _bhabhi("--only", "first_dealer + dealer_step(rules) * number", "--json", SESSIONS)
    report = json.loads(done.stdout)
    assert report["total"] == 1 and report["killed"] == 1, report
    assert "sessions/" in report["verdicts"][0]["killed_by"]
    assert done.returncode == 0


def test_a_tiny_sample_runs_and_prints_the_score() -> None:
    done = _bhabhi("--sample", "3", "--seed", "7", "--corpus-per-file", "0", SESSIONS)
    assert done.returncode in (0, 1), done.stderr
    assert "code mutants:" in done.stdout and "score" in done.stdout
    assert "a sample of 3 of" in done.stdout


def test_the_equivalents_file_names_real_mutants() -> None:
    every = [m for module in code_mutants.TARGETS for m in code_mutants.sites(module)]
    for entry in code_mutants.load_equivalents():
        assert entry.reason
        assert any(entry.matches(m) for m in every), entry
