"""``bhabhi conformance run / coverage / mutants / generate`` on small temporary folders.

What a CI job relies on: the exit status (0 only when everything passed), the last line
``N passed, M failed``, a failure that names the file, the case, the step and what was
expected, a malformed file reported as a failed case (never a traceback), and a JUnit
report any CI system reads.
"""

from __future__ import annotations

import copy
import gzip
import io
import json
import random
import re
import sys
import types
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import yaml

from referee.cards import CardSyntaxError
from referee.cli import main
from referee.conformance import mutants
from referee.conformance.coverage import CLAUSES, is_clause
from referee.conformance.runner import (
    CASES,
    STATE_CHECKS,
    EngineAdapter,
    LoadedCase,
    load_case,
    load_cases,
    run_case,
    validate_case,
)
from referee.engine import Hand, Session
from referee.engine.record import export_hand
from referee.ruleset import loader
from referee.ruleset.loader import bundled_ruleset_paths, load_ruleset
from referee.sim.bots import RandomBot
from referee.sim.play import play_hand

SCHEMA = Path(__file__).resolve().parents[1] / "conformance" / "schema" / "case.schema.json"


def played(ruleset: str = "bhabho", players: int = 3, seed: str = "cli", **rules: Any) -> Hand:
    hand = Hand(load_ruleset(ruleset), players, seed=seed, dealer=0)
    play_hand(hand, [RandomBot()] * players, random.Random(seed))
    return hand


def passing_case(name: str = "passing", **kwargs: Any) -> dict[str, Any]:
    return export_hand(played(**kwargs), name=name, full_state=True, generated=False)


def failing_case() -> dict[str, Any]:
    case = passing_case("failing")
    event = case["steps"][1]["events"][0]
    assert event["kind"] == "card_played"
    event["seat"] = (event["seat"] + 1) % case["players"]
    return case


def write_yaml(path: Path, case: Any) -> Path:
    path.write_text(yaml.safe_dump(case, sort_keys=False), encoding="utf-8")
    return path


def last_line(text: str) -> str:
    return text.strip().splitlines()[-1]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["conformance", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# --- run ------------------------------------------------------------------------------------


def test_all_passing_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_yaml(tmp_path / "ok.yaml", passing_case())
    (tmp_path / "ok.json").write_text(json.dumps(passing_case("json", seed="j")))
    code, out, _ = run(capsys, "run", str(tmp_path))
    assert code == 0
    assert last_line(out) == "2 passed, 0 failed, 0 errors"


def test_failures_are_reported_with_file_case_step_expected_and_actual(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_yaml(tmp_path / "a-ok.yaml", passing_case())
    failing = write_yaml(tmp_path / "b-failing.yaml", failing_case())
    (tmp_path / "c-broken.yaml").write_text("format: [unclosed\n", encoding="utf-8")
    write_yaml(tmp_path / "d-not-a-case.yaml", {"format": "bhabhi-case/1", "name": "x"})
    code, out, err = run(capsys, "run", str(tmp_path))
    assert code == 1
    assert last_line(out) == "1 passed, 1 failed, 2 errors"  # a malformed case is an error
    assert "Traceback" not in out + err
    assert f"FAIL {failing}: case 'failing'" in out
    assert f"ERROR {tmp_path / 'c-broken.yaml'}: case" in out
    assert f"{tmp_path}/: 1 passed, 1 failed, 2 errors" in out
    assert "action 2 (steps[1]): seat" in out and "expected" in out and "got" in out
    assert "cannot read the case file" in out  # the YAML syntax error
    assert "case: malformed case: (root): 'clauses' is a required property" in out


def test_a_folder_run_skips_files_that_hold_no_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A converter's ``summary.json``, a log in JSON lines or a CI file beside the cases is
    no case: skipped and named, neither passed nor failed.  Named on the command line, the
    same file is read as a case, and is a malformed one."""
    write_yaml(tmp_path / "ok.yaml", passing_case())
    summary = tmp_path / "summary.json"
    summary.write_text(json.dumps({"games": 1, "engine": "other"}), encoding="utf-8")
    (tmp_path / "log.jsonl").write_text('{"event": "start"}\n{"event": "end"}\n')
    write_yaml(tmp_path / "ci.yml", {"jobs": {"test": {"runs-on": "linux"}}})
    (tmp_path / "list.yaml").write_text("- 1\n- 2\n", encoding="utf-8")
    forgot = passing_case("no-format")
    del forgot["format"]
    write_yaml(tmp_path / "forgot-format.yaml", forgot)  # has deal and steps: meant as a case
    code, out, _ = run(capsys, "run", str(tmp_path))
    assert code == 1 and last_line(out) == "1 passed, 0 failed, 1 error"
    assert "skipped 4 files that hold no case:" in out
    for name in ("summary.json", "log.jsonl", "ci.yml", "list.yaml"):
        assert f"{tmp_path / name}: not a case (no format: bhabhi-case/...)" in out
    assert "'format' is a required property" in out

    code, out, _ = run(capsys, "run", "--jobs", "2", str(tmp_path))
    assert last_line(out) == "1 passed, 0 failed, 1 error" and "skipped 4 files" in out

    # Named on the command line, a file is read as cases whatever it holds.
    code, out, _ = run(capsys, "run", str(summary))
    assert code == 1 and last_line(out) == "0 passed, 0 failed, 1 error"
    assert "malformed case" in out and "skipped" not in out
    code, out, _ = run(capsys, "run", str(tmp_path / "log.jsonl"))
    assert last_line(out) == "0 passed, 0 failed, 2 errors"  # each line a malformed case

    for name in ("log.jsonl", "ci.yml", "list.yaml", "forgot-format.yaml"):
        (tmp_path / name).unlink()
    code, out, _ = run(capsys, "run", str(tmp_path))
    assert code == 0 and "skipped 1 file that holds no case:" in out


def test_failures_say_where_without_a_counting_convention(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    at_deal = passing_case("at-deal")
    at_deal["initial_state"]["turn"] = (at_deal["initial_state"]["turn"] + 1) % 3
    bad_card = passing_case("bad-card", seed="card")
    bad_card["deal"][0] = "ZZ " + bad_card["deal"][0]
    at_end = passing_case("at-end", seed="end")
    at_end["result"]["out_order"] = list(reversed(at_end["result"]["out_order"]))
    first = failing_case()
    first["steps"][0]["events"][0]["card"] = "2C" if first["steps"][0]["action"] != "2C" else "3C"
    for name, case in [("a", at_deal), ("b", bad_card), ("c", at_end), ("d", first)]:
        write_yaml(tmp_path / f"{name}.yaml", case)
    code, out, _ = run(capsys, "run", str(tmp_path))
    assert code == 1 and last_line(out) == "0 passed, 3 failed, 1 error"  # the bad card
    assert "    at the deal: initial_state.turn: expected" in out
    assert "    at the deal: deal: 'ZZ' is not a card" in out
    assert "    at the end of the hand: result.out_order[0]: expected" in out
    assert "    action 1 (steps[0]): seat" in out  # the first action


def test_failure_locations_in_a_case_of_several_hands() -> None:
    from referee.conformance.runner import Failure

    assert Failure(0, "x").location() == "action 1 (steps[0])"
    assert Failure(4, "x", hand=0).location() == "hand 1, action 5 (steps[4])"
    assert Failure(2, "x", hand=2).location() == "hand 3, action 3 (next_hands[1].steps[2])"
    assert Failure(None, "x", "deal", 1).location() == "hand 2 (next_hands[0]), at the deal"
    assert Failure(None, "x", "end").location() == "at the end of the hand"
    assert Failure(None, "x", "session").location() == "session result"
    assert str(Failure(None, "unreadable")) == "case: unreadable"
    with pytest.raises(ValueError, match="unknown phase"):
        Failure(None, "x", "start")


def test_json_lines_files_hold_many_cases_one_per_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [json.dumps(passing_case()), "", json.dumps(failing_case()), "{not json"]
    path = tmp_path / "many.jsonl.gz"
    path.write_bytes(gzip.compress("\n".join(lines).encode()))
    (tmp_path / "plain.jsonl").write_text(json.dumps(passing_case("plain")) + "\n")
    code, out, _ = run(capsys, "run", str(tmp_path))
    assert code == 1
    assert last_line(out) == "2 passed, 1 failed, 1 error"
    assert f"FAIL {path}:3: case 'failing'" in out
    assert f"{path}:4" in out and "not a JSON case" in out


def test_a_corrupt_gzip_file_is_one_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "bad.jsonl.gz").write_bytes(b"\x1f\x8b\x08\x00garbage")
    code, out, err = run(capsys, "run", str(tmp_path))
    assert code == 1 and "Traceback" not in out + err
    assert last_line(out) == "0 passed, 0 failed, 1 error"


def test_a_missing_path_is_a_usage_error_and_no_cases_is_not_a_pass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_yaml(tmp_path / "ok.yaml", passing_case())
    for command in ("run", "coverage", "mutants"):
        code, out, err = run(capsys, command, str(tmp_path), str(tmp_path / "nowhere"))
        assert code == 2 and out == "", command
        assert f"error: no such file or folder: {tmp_path / 'nowhere'}" in err
    (tmp_path / "empty").mkdir()
    code, out, err = run(capsys, "run", str(tmp_path / "empty"))
    assert code == 1 and last_line(out) == "0 passed, 0 failed, 0 errors" and "no cases" in err


def test_quiet_prints_only_failures_and_the_last_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_yaml(tmp_path / "ok.yaml", passing_case())
    code, out, _ = run(capsys, "run", "--quiet", str(tmp_path))
    assert code == 0 and out.strip() == "1 passed, 0 failed, 0 errors"


def test_jobs_give_the_same_results(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = [json.dumps(passing_case(f"c{i}", seed=f"s{i}")) for i in range(5)]
    cases.insert(2, json.dumps(failing_case()))
    (tmp_path / "x.jsonl.gz").write_bytes(gzip.compress("\n".join(cases).encode()))
    write_yaml(tmp_path / "y.yaml", passing_case("y"))
    one = run(capsys, "run", "--quiet", str(tmp_path))
    two = run(capsys, "run", "--quiet", "--jobs", "2", str(tmp_path))
    assert one == two
    assert last_line(one[1]) == "6 passed, 1 failed, 0 errors"


def test_junit_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    cases = tmp_path / "checkout" / "cases"
    (cases / "family").mkdir(parents=True)
    write_yaml(cases / "ok.yaml", passing_case())
    write_yaml(cases / "family" / "bad.yaml", failing_case())
    write_yaml(cases / "malformed.yaml", {"format": "bhabhi-case/1", "name": "malformed"})
    lines = [json.dumps(passing_case("line-1")), json.dumps(passing_case("line-2", seed="2"))]
    (cases / "many.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = tmp_path / "report.xml"
    code, _, _ = run(capsys, "run", "--junit", str(report), str(cases))
    assert code == 1
    root = ET.parse(report).getroot()
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("5", "1", "1")
    suite = root.find("testsuite")
    assert suite is not None and suite.get("errors") == "1"
    testcases = root.findall("./testsuite/testcase")
    classes = {t.get("name"): t.get("classname") for t in testcases}
    # Relative to the folder given: the same on every runner, wherever the checkout is.
    assert classes == {
        "passing": "ok",
        "failing": "family.bad",
        "malformed": "malformed",
        "line-1": "many",
        "line-2": "many",
    }
    failing = next(t for t in testcases if t.get("name") == "failing")
    failure = failing.find("failure")
    assert failure is not None and failing.find("error") is None
    assert (failure.get("message") or "").startswith("action 2 (steps[1]): seat")
    assert "bad.yaml" in (failure.text or "")
    malformed = next(t for t in testcases if t.get("name") == "malformed")
    error = malformed.find("error")
    assert error is not None and malformed.find("failure") is None
    assert "malformed case" in (error.get("message") or "")

    # The same classes from another working folder, and for a case file named itself.
    monkeypatch.chdir(tmp_path / "checkout")
    run(capsys, "run", "--junit", str(report), "cases", "cases/ok.yaml")
    named = ET.parse(report).getroot().findall("./testsuite/testcase")
    assert {t.get("classname") for t in named} == {*classes.values(), "cases.ok"}


def test_junit_to_a_folder_that_does_not_exist_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_yaml(tmp_path / "ok.yaml", passing_case())
    target = tmp_path / "no-such-folder" / "report.xml"
    code, out, err = run(capsys, "run", "--junit", str(target), str(tmp_path))
    assert code == 2 and out == ""  # told before any case runs
    assert f"--junit {target}: cannot write the report there: no folder" in err
    code, out, err = run(capsys, "run", "--junit", str(tmp_path), str(tmp_path))
    assert code == 2 and "it is a folder" in err


def test_junit_escapes_what_xml_cannot_hold() -> None:
    from referee.conformance.junit import junit_xml
    from referee.conformance.runner import CaseResult, Failure

    failures = [Failure(3, "expected <\x02>")]
    result = CaseResult('a "<case>" & \x01', "/abs/dir/x.yaml", failures, relative="dir/x.yaml")
    root = ET.fromstring(junit_xml([result]))
    case = root.find("./testsuite/testcase")
    assert case is not None and case.get("classname") == "dir.x"
    assert case.get("name") == 'a "<case>" & \ufffd'
    failure = case.find("failure")
    assert (
        failure is not None and failure.get("message") == "action 4 (steps[3]): expected <\ufffd>"
    )


def test_json_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every case, its status, every failure with its step and field, and the totals, in
    the documented format (validated against conformance/schema/results.schema.json)."""
    from jsonschema import Draft202012Validator

    cases = tmp_path / "cases"
    cases.mkdir()
    write_yaml(cases / "a-ok.yaml", passing_case())
    write_yaml(cases / "b-bad.yaml", failing_case())
    write_yaml(cases / "c-malformed.yaml", {"format": "bhabhi-case/1", "name": "malformed"})
    ending = passing_case("ending", seed="end")
    ending["result"]["bhabhi"] = (ending["result"]["bhabhi"] + 1) % 3
    lines = [json.dumps(passing_case("line")), json.dumps(ending)]
    (cases / "d-many.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (cases / "summary.json").write_text('{"games": 3}', encoding="utf-8")
    report = tmp_path / "results.json"
    monkeypatch.chdir(tmp_path)
    code, _, _ = run(capsys, "run", "--json", str(report), "cases")
    assert code == 1
    document = json.loads(report.read_text(encoding="utf-8"))
    schema = json.loads((SCHEMA.parent / "results.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert list(Draft202012Validator(schema).iter_errors(document)) == []

    assert document["format"] == "bhabhi-conformance-results/1"
    assert document["implementation"] == "engine"
    assert document["totals"] == {
        "cases": 5,
        "passed": 2,
        "failed": 2,
        "errors": 1,
        "skipped_files": 1,
    }
    assert document["skipped"] == [
        {"file": "cases/summary.json", "why": "not a case (no format: bhabhi-case/...)"}
    ]
    by_name = {c["name"]: c for c in document["cases"]}
    assert [c["status"] for c in document["cases"]] == ["pass", "fail", "error", "pass", "fail"]
    assert by_name["passing"]["failures"] == [] and by_name["passing"]["line"] is None
    assert by_name["passing"]["file"] == "cases/a-ok.yaml"
    assert by_name["passing"]["provenance"] == {"source": "hand-reasoned"}  # generated: false
    assert by_name["malformed"]["provenance"] is None
    assert by_name["passing"]["relative"] == "a-ok.yaml"

    step = by_name["failing"]["failures"][0]
    assert step["kind"] == "failure" and step["phase"] == "action"
    assert (step["step"], step["field"], step["hand"]) == (1, "events[0].seat", None)
    assert step["location"] == "action 2 (steps[1])"
    assert step["message"].startswith("seat ") and "events[0].seat: expected" in step["message"]

    malformed = by_name["malformed"]["failures"]
    assert {f["kind"] for f in malformed} == {"error"} and malformed[0]["phase"] == "case"
    assert malformed[0]["step"] is None and malformed[0]["field"] is None

    end = by_name["ending"]
    assert (end["file"], end["relative"], end["line"]) == ("cases/d-many.jsonl", "d-many.jsonl", 2)
    assert end["failures"][0]["phase"] == "end"
    assert end["failures"][0]["field"] == "result.bhabhi"


def test_json_to_a_folder_that_does_not_exist_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_yaml(tmp_path / "ok.yaml", passing_case())
    target = tmp_path / "nowhere" / "results.json"
    code, out, err = run(capsys, "run", "--json", str(target), str(tmp_path))
    assert code == 2 and out == "" and "--json" in err and "no folder" in err


def spelled_with_t(value: Any) -> Any:
    """``value`` with every ten written ``T`` (``10S`` -> ``TS``), as other engines write it."""
    if isinstance(value, str):
        return re.sub(r"\b10([CDHS])", r"T\1", value)
    if isinstance(value, list):
        return [spelled_with_t(v) for v in value]
    if isinstance(value, dict):
        return {k: spelled_with_t(v) for k, v in value.items()}
    return value


def test_a_ten_may_be_written_t_and_is_always_shown_10(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = spelled_with_t(passing_case("tens"))
    text = json.dumps(case)
    assert re.search(r"\bT[CDHS]\b", text) and not re.search(r"\b10[CDHS]\b", text)
    assert validate_case(case) == []
    assert run_case(case, EngineAdapter()).passed

    played_ten = next(
        i for i, s in enumerate(case["steps"]) if s["action"].startswith("T") and "events" in s
    )
    wrong = copy.deepcopy(case)
    other_ten = "TH" if case["steps"][played_ten]["action"] == "TS" else "TS"
    wrong["steps"][played_ten]["events"][0]["card"] = other_ten
    write_yaml(tmp_path / "wrong.yaml", wrong)
    code, out, _ = run(capsys, "run", str(tmp_path))
    assert code == 1
    line = next(line for line in out.splitlines() if "events[0].card" in line)
    assert not re.search(r"\bT[CDHS]\b", line), line  # the case's T is shown as 10
    assert re.search(r"seat \d 10[CDHS]: events\[0\]\.card: expected '10[SH]'", line), line


def test_the_engine_and_the_referee_read_t_as_ten() -> None:
    from referee.cards import card_str, parse_card
    from referee.engine import Action
    from referee.server.table.referee import parse_play

    assert card_str(parse_card("TS")) == card_str(parse_card("ts")) == "10S"
    assert parse_card("td/2") == parse_card("10D/2")
    assert Action.parse("TH") == Action.parse("10H") and str(Action.parse("TH")) == "10H"
    assert str(parse_play("TC")) == "10C"  # SubmitAction's card
    with pytest.raises(CardSyntaxError, match="or T for 10"):
        parse_card("1S")


def test_the_card_pattern_follows_the_schema() -> None:
    from referee.conformance.runner import _CARD

    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert _CARD.pattern == schema["$defs"]["card"]["pattern"]


class Terminal:
    """A stream that says it is a terminal, as a person's would."""

    def isatty(self) -> bool:
        return True


def test_a_bar_is_wanted_only_at_a_terminal_outside_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.conformance.progress import wanted

    monkeypatch.delenv("CI", raising=False)
    assert wanted(Terminal())  # type: ignore[arg-type]
    assert not wanted(io.StringIO())  # a file or a pipe
    monkeypatch.setenv("CI", "true")
    assert not wanted(Terminal())  # type: ignore[arg-type]
    monkeypatch.setenv("CI", "")
    assert wanted(Terminal())  # type: ignore[arg-type]


def test_long_runs_show_the_count_and_the_rate_at_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [json.dumps(passing_case(f"c{i}", seed=f"s{i}")) for i in range(3)]
    (tmp_path / "many.jsonl.gz").write_bytes(gzip.compress("\n".join(lines).encode()))
    write_yaml(tmp_path / "bad.yaml", failing_case())
    (tmp_path / "summary.json").write_text("{}", encoding="utf-8")
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, out, err = run(capsys, "run", str(tmp_path))
    assert code == 1 and last_line(out) == "3 passed, 1 failed, 0 errors"
    assert "FAIL " in out and "/5 " in err  # counted ahead: 3 lines, 2 other files
    assert "case/s" in err and "4/4 " in err  # the skipped file taken out at the end
    for quiet in (["--no-progress"], ["--quiet"]):
        code, _, err = run(capsys, "run", *quiet, str(tmp_path))
        assert code == 1 and "case/s" not in err
    monkeypatch.setenv("CI", "1")
    code, _, err = run(capsys, "run", str(tmp_path))
    assert code == 1 and err == ""


def test_target_uses_the_remote_adapter_lazily(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    targets: list[str] = []

    class FakeRemote(EngineAdapter):
        """The engine behind the remote adapter's face, reporting one API violation."""

        def __init__(self, target: str, **options: Any) -> None:
            super().__init__()
            targets.append(target)
            self.discrepancies: list[str] = []

        def result(self) -> dict[str, Any] | None:
            if self.hand is not None and self.hand.is_over and not self.discrepancies:
                self.discrepancies.append("seat 1 saw seat 0's hand")
            return super().result()

    fake = types.ModuleType("referee.conformance.remote")
    fake.RemoteAdapter = FakeRemote  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "referee.conformance.remote", fake)
    write_yaml(tmp_path / "ok.yaml", passing_case())
    code, out, _ = run(capsys, "run", "--target", "example:50051", str(tmp_path))
    assert targets == ["example:50051"]
    assert code == 1 and "API discrepancy: seat 1 saw seat 0's hand" in out


# --- the runner's pieces ----------------------------------------------------------------------


def test_state_checks_follow_the_schema() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert set(STATE_CHECKS) == set(schema["$defs"]["state"]["properties"])


def test_state_and_event_problems_are_reported() -> None:
    case = passing_case()
    case["steps"][0]["state"]["hand_size"] = [1]
    case["steps"][0]["state"]["turn"] = "north"
    case["steps"][1]["events"][0] = {"kind": "exploded"}
    problems = validate_case(case)
    assert any("steps.0.state: unknown key 'hand_size'" in p for p in problems)
    assert any("steps.0.state.turn: expected an integer or null" in p for p in problems)
    assert any("steps.1.events.0.kind: 'exploded'" in p for p in problems)


def test_an_adapter_that_crashes_fails_the_case_at_its_step() -> None:
    class Crashing(EngineAdapter):
        def act(self, seat: int, action: str) -> list[dict[str, Any]]:
            if self._hand().trick_number >= 1:
                raise RuntimeError("boom")
            return super().act(seat, action)

    result = run_case(passing_case(), Crashing())
    assert not result.passed
    failure = result.failures[0]
    assert failure.step is not None and "RuntimeError: boom" in failure.what


def test_the_substitute_ruleset_skips_the_hash_check() -> None:
    case = passing_case()
    changed = load_ruleset("bhabho-own-turn")  # another ruleset, another hash
    result = run_case(case, EngineAdapter(changed))
    assert all("hash" not in f.what for f in result.failures)


# --- provenance ---------------------------------------------------------------------------


def with_provenance(case: dict[str, Any], provenance: Any) -> dict[str, Any]:
    changed = {k: v for k, v in case.items() if k != "generated"}
    changed["provenance"] = provenance
    return changed


def test_provenance_says_where_a_case_comes_from() -> None:
    from referee.conformance.runner import provenance_of

    case = passing_case()
    other = {"source": "other-implementation", "implementation": "thulla-js", "version": "2.3.1"}
    for provenance in ({"source": "hand-reasoned"}, {"source": "this-engine"}, other):
        changed = with_provenance(case, provenance)
        assert validate_case(changed) == [], provenance
        assert provenance_of(changed) == provenance
        assert run_case(changed, EngineAdapter()).provenance == provenance
    # The older form is still read, as the provenance it stands for.
    assert provenance_of({**case, "generated": True}) == {"source": "this-engine"}
    assert provenance_of({**case, "generated": False}) == {"source": "hand-reasoned"}
    assert validate_case({**case, "generated": True}) == []


def test_a_wrong_or_missing_provenance_is_a_malformed_case() -> None:
    case = passing_case()
    unnamed = with_provenance(case, {"source": "other-implementation", "version": "1"})
    assert validate_case(unnamed) == ["provenance: 'implementation' is a required property"]
    unknown = validate_case(with_provenance(case, {"source": "folklore"}))
    assert unknown and unknown[0].startswith("provenance.source: 'folklore' is not one of")
    both = validate_case({**with_provenance(case, {"source": "this-engine"}), "generated": True})
    assert both == ["(root): give 'provenance' or the older 'generated', not both"]
    neither = {k: v for k, v in case.items() if k != "generated"}
    problems = validate_case(neither)
    assert len(problems) == 1 and problems[0].startswith("(root): 'provenance' is a required")
    assert len(problems[0]) < 200  # not the whole case quoted


# --- coverage -------------------------------------------------------------------------------


def tiny_rules(tmp_path: Path, clauses: list[str]) -> Path:
    """A rules folder holding one small pick-up ruleset (five ranks), for quick games."""
    rules = tmp_path / "rules"
    rules.mkdir()
    data = dict(load_ruleset("pickup").source)
    data["id"] = "tiny"
    data["clauses"] = clauses
    data["deck"] = {**data["deck"], "ranks": ["10", "J", "Q", "K", "A"]}
    data["players"] = {**data["players"], "max": 5}
    data["end"] = {**data["end"], "max_tricks": 60}  # pick-up games may cycle: keep them short
    (rules / "tiny.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return rules


def only_rules(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """``folder`` stands in for the bundled rulesets (an added folder would only add to them,
    and coverage and mutants work on every ruleset the run sees)."""
    monkeypatch.setattr(loader, "DEFAULT_RULES_DIR", folder)
    monkeypatch.delenv("BHABHI_RULES_DIR", raising=False)


def tiny_case(
    name: str, seed: str, *, generated: bool, clauses: list[str], other: bool = False
) -> dict[str, Any]:
    """A small game; ``other``: as recorded by another implementation (``provenance``)."""
    hand = Hand(load_ruleset("tiny"), 3, seed=seed, dealer=0)
    play_hand(hand, [RandomBot()] * 3, random.Random(seed))
    case = export_hand(hand, name=name, generated=generated, clauses=clauses, full_state=True)
    if other:
        recorded = {"source": "other-implementation", "implementation": "x", "version": "0.9"}
        case = with_provenance(case, recorded)
    return case


def test_coverage_counts_hand_written_and_generated_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    only_rules(monkeypatch, tiny_rules(tmp_path, ["C1", "C7", "P1"]))
    cases = tmp_path / "cases"
    cases.mkdir()
    write_yaml(cases / "a.yaml", tiny_case("a", "a", generated=False, clauses=["C1", "C7"]))
    write_yaml(cases / "b.yaml", tiny_case("b", "b", generated=True, clauses=["C1", "P1"]))
    write_yaml(cases / "c.yaml", tiny_case("c", "c", generated=False, clauses=["C7"]))
    code, out, _ = run(capsys, "coverage", "--json", str(cases))
    data = json.loads(out)
    assert code == 1
    counts = {"other_implementation": 0, "required": True}
    assert data["clauses"]["C1"]["tiny"] == {"hand_written": 1, "generated": 1, **counts}
    assert data["clauses"]["C7"]["tiny"] == {"hand_written": 2, "generated": 0, **counts}
    assert data["missing"] == [{"ruleset": "tiny", "clause": "P1"}]  # generated does not count
    code, out, _ = run(capsys, "coverage", str(cases))
    assert code == 1 and "tiny: P1" in out and "0+1!" in out

    # Another implementation's game is counted apart, and is not hand-reasoned either.
    write_yaml(cases / "d.yaml", tiny_case("d", "d", generated=True, clauses=["P1"], other=True))
    code, out, _ = run(capsys, "coverage", "--json", str(cases))
    data = json.loads(out)
    assert code == 1 and data["missing"] == [{"ruleset": "tiny", "clause": "P1"}]
    assert data["clauses"]["P1"]["tiny"]["other_implementation"] == 1
    code, out, _ = run(capsys, "coverage", str(cases))
    assert "0+1+1!" in out and "hand-written+generated+other implementation" in out


def test_coverage_passes_when_every_clause_has_a_hand_written_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    only_rules(monkeypatch, tiny_rules(tmp_path, ["C1", "C7"]))
    cases = tmp_path / "cases"
    cases.mkdir()
    write_yaml(cases / "a.yaml", tiny_case("a", "a", generated=False, clauses=["C1", "C7"]))
    (cases / "broken.yaml").write_text(":\n- [", encoding="utf-8")
    code, out, _ = run(capsys, "coverage", str(cases))
    assert code == 0
    assert "1 cases not counted" in out


def test_clause_ids_match_the_schema_pattern() -> None:
    assert len(CLAUSES) == 71 and all(is_clause(c) for c in CLAUSES)
    assert not is_clause("C17") and not is_clause("B0") and not is_clause("H32")


# --- session cases: who deals (C5) ----------------------------------------------------------


def test_session_cases_catch_a_deal_that_moves_the_wrong_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A later hand's ``dealer`` is what the rotation (or, under H2, the hand before) must
    give, not an input: a session that passes the deal the other way round, or under H2 to
    the seat after the one the previous hand names, fails every session case at its second
    hand."""
    files = sorted((CASES / "sessions").glob("*.yaml"))
    assert files
    for path in files:
        assert run_case(load_case(path), EngineAdapter(), str(path)).passed, path

    forward = Session.dealer_of

    def backward(self: Session, number: int) -> int:
        if number and self.rules.deal.dealer_moves.follows_outcome:
            return (forward(self, number) + 1) % self.players
        return forward(self, -number)

    monkeypatch.setattr(Session, "dealer_of", backward)
    for path in files:
        result = run_case(load_case(path), EngineAdapter(), str(path))
        assert not result.passed, path
        first = result.failures[0]
        assert (first.phase, first.hand, first.error) == ("deal", 1, False), first
        assert first.what.startswith("dealt by seat"), first


# --- mutants --------------------------------------------------------------------------------


def test_schema_options_are_found_by_walking_the_schema() -> None:
    options = dict(mutants.schema_options())
    assert options[("off_suit", "play")] == ["pickup", "discard", "tochoo", "tochoo_plays_on"]
    assert options[("end", "two_left_pickup_loses")] == [False, True]
    assert options[("end", "max_tricks")] == [mutants.SMALL_MAX_TRICKS]
    assert ("deck", "ranks") not in options  # a list, not one value


def test_integer_options_are_mutated_one_off_within_their_bounds() -> None:
    options = {o.path: o for o in mutants.integer_options()}
    assert {("end", "max_tricks"), ("session", "hands"), ("session", "chips")} <= set(options)
    assert ("deck", "packs") in options and ("deal", "first_dealer") in options
    assert options[("session", "chips")].values(0) == [1]  # chips are never negative
    assert options[("session", "hands")].values(10) == [9, 11, None]  # None: no limit
    assert options[("session", "bhabhi_limit")].values(None) == [1]
    found = mutants.mutants_of(load_ruleset("pickup"), [])
    valid = {(m.option, m.value) for m, _ in found.valid}
    assert {("end.max_tricks", 999), ("end.max_tricks", 1001), ("session.chips", 1)} <= valid
    assert ("session.hands", None) in valid and ("session.bhabhi_limit", 1) in valid


def test_mutants_that_do_not_validate_are_skipped() -> None:
    found = mutants.mutants_of(load_ruleset("pickup"), mutants.schema_options())
    invalid = {(m.option, m.value) for m, _ in found.invalid}
    assert ("trump", "first_off_suit_card") in invalid  # P1: nobody plays off-suit
    assert ("players.teams", "partners_opposite") in invalid  # three players
    valid = {(m.option, m.value) for m, _ in found.valid}
    assert ("direction", "clockwise") in valid and ("end.max_tricks", 10) in valid


def test_every_listed_equivalent_mutant_exists() -> None:
    """Each entry of conformance/equivalent-mutants.yaml names a valid mutant, so that a
    renamed option or a changed ruleset cannot leave a stale excuse behind."""
    options = mutants.schema_options()
    valid = {
        m.key()
        for ruleset in bundled_ruleset_paths()
        for m, _ in mutants.mutants_of(load_ruleset(ruleset), options).valid
    }
    listed = mutants.load_equivalents()
    assert listed
    stale = [
        e.mutant.label
        for e in listed
        if e.mutant.key() not in valid
        and not mutants.is_current(load_ruleset(e.mutant.ruleset).source, e.mutant)
    ]
    assert stale == []
    assert all(len(e.reason) > 40 for e in listed)


def test_mutants_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    only_rules(monkeypatch, tiny_rules(tmp_path, ["C1"]))
    cases = tmp_path / "cases"
    cases.mkdir()
    lines = [
        json.dumps(tiny_case(f"g{i}", f"g{i}", generated=True, clauses=["C1"])) for i in range(4)
    ]
    (cases / "tiny.jsonl.gz").write_bytes(gzip.compress("\n".join(lines).encode()))
    equivalents = tmp_path / "equivalent.yaml"
    entries = [
        {
            "ruleset": "tiny",
            "option": "deal.dealer_moves",
            "value": ["clockwise", "with_play"],
            "reason": "a case is one hand",
        },
        {"ruleset": ["tiny"], "option": "take_hand.from", "value": "right", "reason": "never"},
        {"ruleset": "tiny", "option": "trump", "value": "first_off_suit_card", "reason": "x"},
    ]
    equivalents.write_text(yaml.safe_dump(entries), encoding="utf-8")
    code, out, _ = run(capsys, "mutants", "--json", "--equivalents", str(equivalents), str(cases))
    report = json.loads(out)
    assert report["total"] == len([v for v in report["verdicts"] if v["equivalent"] is None])
    verdicts = {(v["option"], json.dumps(v["value"])): v for v in report["verdicts"]}
    assert verdicts[("direction", '"clockwise"')]["caught"]
    assert verdicts[("end.max_tricks", "10")]["caught"]
    assert ("deal.dealer_moves", '"clockwise"') not in verdicts  # listed: not run
    assert {e["option"] for e in report["equivalent"]} == {"deal.dealer_moves", "take_hand.from"}
    assert report["stale_equivalents"] == [
        {"ruleset": "tiny", "option": "trump", "value": "first_off_suit_card"}
    ]
    assert code == (1 if report["survivors"] or report["stale_equivalents"] else 0)
    assert code == 1 or not report["survivors"]

    # Text output, and a wrong equivalence caught by --check-equivalents.
    entries.append(
        {"ruleset": "tiny", "option": "direction", "value": "clockwise", "reason": "wrongly listed"}
    )
    equivalents.write_text(yaml.safe_dump(entries), encoding="utf-8")
    code, out, _ = run(
        capsys, "mutants", "--check-equivalents", "--equivalents", str(equivalents), str(cases)
    )
    assert code == 1
    assert "a case tells them apart" in out and "tiny: direction = clockwise" in out
    assert "mutants caught" in last_line(out)


def test_mutants_rejects_an_unknown_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "mutants", "--ruleset", "no-such-ruleset")
    assert code == 2 and "no bundled ruleset" in err


# --- generate -------------------------------------------------------------------------------


def test_generate_writes_a_corpus_that_passes_and_checks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "corpus"
    argv = ["--out", str(out), "--ruleset", "discard", "--games-per", "discard=3"]
    code, text, _ = run(capsys, "generate", *argv)
    assert code == 0 and (out / "discard.jsonl.gz").is_file()
    cases = [c.case for c in load_cases(out / "discard.jsonl.gz")]
    assert all(c["generated"] is True for c in cases)
    assert {c["name"].split("/")[1][:4] for c in cases} >= {"0000", "0001", "0002"}
    assert all(
        "legal" in s["state"] and "views" in s["state"]
        for c in cases
        for s in c["steps"]
        if "refused" not in s
    )
    code, text, _ = run(capsys, "run", "--quiet", str(out))
    assert code == 0 and last_line(text) == f"{len(cases)} passed, 0 failed, 0 errors"
    code, text, _ = run(capsys, "generate", "--check", *argv)
    assert code == 0 and "same" in text
    (out / "discard.jsonl.gz").write_bytes(gzip.compress(b"{}\n"))
    code, _, err = run(capsys, "generate", "--check", *argv)
    assert code == 1 and "differs" in err


def test_generate_rejects_bad_games_per(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "generate", "--games-per", "discard=none")
    assert code == 2 and "ID=N" in err


def test_loaded_cases_keep_their_line_numbers(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text('{"a": 1}\n\n{"b": 2}\n', encoding="utf-8")
    assert [c.label for c in load_cases(path)] == [f"{path}:1", f"{path}:3"]
    assert isinstance(next(iter(load_cases(path))), LoadedCase)


def test_a_failing_case_is_not_mutated_by_the_run(tmp_path: Path) -> None:
    case = failing_case()
    before = copy.deepcopy(case)
    run_case(case, EngineAdapter())
    assert case == before
