"""Cases recorded by another engine: rulesets of their own (a file beside the case, a folder
added with --rules or BHABHI_RULES_DIR) and events checked as a subsequence."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from referee.cli import main
from referee.conformance.runner import EngineAdapter, run_case
from referee.engine import Hand
from referee.engine.record import export_hand
from referee.ruleset.loader import load_ruleset
from referee.sim.bots import RandomBot
from referee.sim.play import play_hand

MINE = "id: mine\nextends: pickup\nplayers:\n  max: 5\n"


def recorded(ruleset: str = "pickup", seed: str = "recorded") -> dict[str, Any]:
    hand = Hand(load_ruleset(ruleset), 3, seed=seed, dealer=0)
    play_hand(hand, [RandomBot()] * 3, random.Random(seed))
    recorded_by = {"source": "other-implementation", "implementation": "x", "version": "1"}
    case = export_hand(hand, name=f"recorded-{seed}", generated=True)
    del case["generated"]
    return {**case, "provenance": recorded_by}


def write_yaml(path: Path, case: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(case, sort_keys=False), encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["conformance", "run", "--no-progress", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def rules_folder(tmp_path: Path, text: str = MINE, name: str = "mine.yaml") -> Path:
    folder = tmp_path / "their-rules"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder


def with_ruleset(case: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    return {**case, "ruleset": spec}


# --- rulesets -------------------------------------------------------------------------------


def test_a_ruleset_file_is_read_relative_to_the_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    cases = tmp_path / "cases"
    (cases / "rules").mkdir(parents=True)
    (cases / "rules" / "mine.yaml").write_text(MINE, encoding="utf-8")
    write_yaml(
        cases / "a.yaml", with_ruleset(recorded(), {"id": "mine", "file": "rules/mine.yaml"})
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out, _ = run(capsys, str(cases))
    assert code == 0, out
    assert out.splitlines()[-1] == "1 passed, 0 failed, 0 errors"

    # The id written must be the file's.
    write_yaml(
        cases / "a.yaml", with_ruleset(recorded(), {"id": "other", "file": "rules/mine.yaml"})
    )
    code, out, _ = run(capsys, str(cases))
    assert code == 1
    assert "the case names id 'other', but the file's is 'mine'" in out


def test_a_path_as_ruleset_id_is_refused_with_what_to_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_yaml(tmp_path / "a.yaml", with_ruleset(recorded(), {"id": "rules/mine.yaml"}))
    code, out, _ = run(capsys, str(tmp_path / "a.yaml"))
    assert code == 1 and "0 passed, 0 failed, 1 error" in out
    assert "'rules/mine.yaml' is not a ruleset id" in out
    assert "write ruleset: {id: ID, file: rules/mine.yaml}" in out
    both = {"id": "mine", "file": "mine.yaml", "inline": {"id": "mine", "extends": "pickup"}}
    write_yaml(tmp_path / "a.yaml", with_ruleset(recorded(), both))
    code, out, _ = run(capsys, str(tmp_path / "a.yaml"))
    assert code == 1 and "give 'file' or 'inline', not both" in out


def test_rules_adds_a_folder_that_inline_rulesets_extend(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BHABHI_RULES_DIR", raising=False)
    folder = rules_folder(tmp_path)
    inline = {"id": "theirs", "inline": {"id": "theirs", "extends": "mine"}}
    case = write_yaml(tmp_path / "cases" / "a.yaml", with_ruleset(recorded(), inline))
    code, out, _ = run(capsys, str(case))
    assert code == 1 and "base ruleset 'mine' not found" in out
    code, out, _ = run(capsys, "--rules", str(folder), str(case))
    assert code == 0, out
    # An id of the added folder, and one of the bundled rulesets, side by side.
    write_yaml(tmp_path / "cases" / "b.yaml", with_ruleset(recorded(seed="b"), {"id": "mine"}))
    write_yaml(tmp_path / "cases" / "c.yaml", with_ruleset(recorded(seed="c"), {"id": "pickup"}))
    monkeypatch.setenv("BHABHI_RULES_DIR", str(folder))
    code, out, _ = run(capsys, str(tmp_path / "cases"))
    assert code == 0 and "3 passed" in out


def test_an_id_that_two_files_give_is_bad_usage_naming_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = rules_folder(tmp_path, "id: pickup\nextends: bhabho\n", "pickup.yaml")
    case = write_yaml(tmp_path / "a.yaml", recorded())
    code, _, err = run(capsys, "--rules", str(folder), str(case))
    assert code == 2
    assert "'pickup' is given by two files: rules/pickup.yaml and " in err
    assert str((folder / "pickup.yaml").resolve()) in err
    code, _, err = run(capsys, "--rules", str(tmp_path / "missing"), str(case))
    assert code == 2 and "--rules " in err and "no such folder" in err


# --- events as a subsequence ----------------------------------------------------------------


def busy_step(case: dict[str, Any]) -> int:
    """The first step that caused three events or more."""
    return next(i for i, s in enumerate(case["steps"]) if len(s.get("events", [])) >= 3)


def test_events_as_a_subsequence_pass_where_exact_fails() -> None:
    case = recorded()
    index = busy_step(case)
    events = case["steps"][index]["events"]
    case["steps"][index]["events"] = [events[0], events[-1]]
    exact = run_case(case, EngineAdapter())
    assert not exact.passed and exact.failures[0].field == "events"
    assert run_case({**case, "events_match": "subsequence"}, EngineAdapter()).passed
    case["steps"][index]["events_match"] = "subsequence"  # the step's own, the case exact
    assert run_case(case, EngineAdapter()).passed
    # A step may insist on every event where the case does not.
    case["steps"][index]["events_match"] = "exact"
    assert not run_case({**case, "events_match": "subsequence"}, EngineAdapter()).passed


def test_events_out_of_order_fail_naming_the_first_event_not_found() -> None:
    case = {**recorded(), "events_match": "subsequence"}
    index = busy_step(case)
    events = case["steps"][index]["events"]
    first, last = events[0], events[-1]
    case["steps"][index]["events"] = [last, first]
    result = run_case(case, EngineAdapter())
    assert not result.passed
    (failure,) = result.failures
    assert (failure.step, failure.field) == (index, "events[1]")
    kinds = ", ".join(e["kind"] for e in events)
    wrong = "not found after the event that matched events[0] (it came earlier: out of order)"
    assert wrong in failure.what
    assert failure.what.endswith(f"the action caused: {kinds}")
    assert f"{{kind: {first['kind']}" in failure.what


def test_an_event_never_caused_is_named() -> None:
    case = {**recorded(), "events_match": "subsequence"}
    index = busy_step(case)
    case["steps"][index]["events"] = [{"kind": "trump_fixed", "seat": 0}]
    (failure,) = run_case(case, EngineAdapter()).failures
    assert failure.field == "events[0]"
    assert "{kind: trump_fixed, seat: 0} not found; the action caused: " in failure.what


def test_events_match_is_checked_by_the_schema() -> None:
    result = run_case({**recorded(), "events_match": "some"}, EngineAdapter())
    assert result.status == "error"
    assert "events_match: 'some' is not one of ['exact', 'subsequence']" in str(result.failures[0])
