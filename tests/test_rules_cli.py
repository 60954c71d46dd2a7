"""``bhabhi rules …``: output formats and exit codes, called in-process through ``main``."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from referee import cli
from referee.cli import main
from referee.ruleset.loader import DEFAULT_RULES_DIR, bundled_ruleset_paths, load_ruleset
from referee.ruleset.schema import SCHEMA_PATH, schema

BROKEN = Path(__file__).parent / "data" / "broken"
REPO = DEFAULT_RULES_DIR.parent
BUNDLED_IDS = sorted(bundled_ruleset_paths())


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- validate -------------------------------------------------------------------------------------


def test_validate_all_bundled(capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(p) for p in bundled_ruleset_paths().values()]
    code, out, err = run(capsys, "rules", "validate", *files)
    assert code == 0
    assert err == ""
    lines = out.splitlines()
    assert len(lines) == len(files)
    for file, line in zip(files, lines, strict=True):
        ruleset_id = Path(file).stem
        expected = f"{file}: ok (id {ruleset_id}, hash {load_ruleset(ruleset_id).hash})"
        assert line == expected


def test_validate_accepts_a_bundled_id(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "validate", "bhabho")
    assert code == 0
    assert out.startswith("bhabho: ok (id bhabho, hash sha256:")


def test_validate_broken_prints_every_problem(capsys: pytest.CaptureFixture[str]) -> None:
    several = str(BROKEN / "several.yaml")
    code, out, err = run(capsys, "rules", "validate", several)
    assert code == 1
    assert out.splitlines() == [
        f"{several}:4:12: direction: 'sideways' is not allowed; allowed values: "
        "clockwise, counterclockwise",
        f"{several}:6:3: deck.pakcs: unknown key 'pakcs'; did you mean 'packs'?",
        f"{several}:8:10: session.hands: expected an integer or null, got number 0.5",
        f"{several}:9:10: session.chips: expected an integer, got string 'lots'",
    ]
    assert err.strip() == "bhabhi rules validate: 4 problems in 1 of 1 file"


def test_validate_mixed_good_and_bad(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    good = str(DEFAULT_RULES_DIR / "pickup.yaml")
    missing = str(tmp_path / "missing.yaml")
    code, out, err = run(capsys, "rules", "validate", good, missing, str(tmp_path))
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith(f"{good}: ok (id pickup, hash sha256:")
    assert lines[1] == f"{missing}:1:1: (root): no such file"
    assert lines[2] == f"{tmp_path}:1:1: (root): is a directory, not a ruleset file"
    assert "2 problems in 2 of 3 files" in err


def test_validate_checks_the_clauses_against_the_options(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A declared clause switched off is a problem; one followed but left out a warning."""
    variant = tmp_path / "family-thulla.yaml"
    variant.write_text("id: family-thulla\nextends: bhabho\ntake_hand: {when: never}\n")
    code, out, err = run(capsys, "rules", "validate", str(variant))
    assert code == 1
    [line] = out.splitlines()
    assert line.startswith(f"{variant}:3:19: take_hand.when: clause B9 is declared, but the ")
    assert "1 problem in 1 of 1 file" in err
    bhabho = load_ruleset("bhabho").clauses
    kept = ", ".join(c for c in bhabho if c not in ("B9", "B2"))  # B2 is still played
    variant.write_text(
        f"id: family-thulla\nextends: bhabho\ntake_hand: {{when: never}}\nclauses: [{kept}]\n"
    )
    code, out, err = run(capsys, "rules", "validate", str(variant))
    assert code == 0 and err == ""
    warning, ok = out.splitlines()
    assert warning.startswith(
        f"{variant}:4:10: warning: clauses: clause B2 is not declared, but the options follow "
        "it (first_trick.next_leader: first_leader); for these options write clauses: [C1, "
    )
    assert ok.startswith(f"{variant}: ok (id family-thulla, hash sha256:")


def test_the_readme_house_variant_validates(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    example = r"```yaml\n(# yaml-language-server: [^\n]*\n# my-house.yaml\n.*?)```"
    match = re.search(example, readme, re.S)
    assert match is not None
    written = tmp_path / "my-house.yaml"
    written.write_text(match.group(1), encoding="utf-8")
    code, out, err = run(capsys, "rules", "validate", str(written))
    assert (code, err) == (0, "")
    assert out.startswith(f"{written}: ok (id my-house, hash sha256:")


@pytest.mark.parametrize(
    "name",
    sorted(p.name for p in BROKEN.glob("*.yaml")),
)
def test_validate_every_broken_fixture_fails_cleanly(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    code, out, err = run(capsys, "rules", "validate", str(BROKEN / name))
    assert code == 1
    assert out and all(line.startswith(str(BROKEN)) for line in out.splitlines())
    assert "Traceback" not in out + err


def test_shared_broken_base_is_reported_once(capsys: pytest.CaptureFixture[str]) -> None:
    a, b = str(BROKEN / "cycle-a.yaml"), str(BROKEN / "cycle-b.yaml")
    code, out, _ = run(capsys, "rules", "validate", a, b)
    assert code == 1
    assert len(out.splitlines()) == 2  # one cycle problem in each file


@pytest.mark.parametrize(
    "argv",
    [[], ["rules"], ["rules", "validate"], ["rules", "frobnicate"], ["rules", "list", "--yaml"]],
)
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert "usage:" in err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--bogus"], "bhabhi: error: unrecognized arguments: --bogus"),
        (["--bogus", "rules", "list"], "bhabhi: error: unrecognized arguments: --bogus"),
        (["serve", "--bogus"], "bhabhi serve: error: unrecognized arguments: --bogus"),
        (["rules", "--bogus"], "bhabhi rules: error: unrecognized arguments: --bogus"),
        (["rules", "list", "--bogus"], "bhabhi rules list: error: unrecognized arguments: --bogus"),
        (["simulate", "--bogus"], "bhabhi simulate: error: unrecognized arguments: --bogus"),
        ([], "bhabhi: error: the following arguments are required: COMMAND"),
        (["rules"], "bhabhi rules: error: the following arguments are required: COMMAND"),
        (["nonsense"], "bhabhi: error: argument COMMAND: invalid choice: 'nonsense'"),
    ],
)
def test_usage_errors_name_what_is_wrong(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    """An unrecognised option is named as such (by the command it was given to), even where
    a required argument is missing too; a missing command or an unknown one is named."""
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.splitlines()[-1].startswith(says), err


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "--help")
    assert code == 0
    assert "validate" in out and "show" in out


# --- list -----------------------------------------------------------------------------------------


def test_list_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "list")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["ID", "BASE", "FILE", "CLAUSES", "TITLE"]
    rows = {line.split()[0]: line for line in lines[1:]}
    assert sorted(rows) == BUNDLED_IDS
    assert rows["pickup"].split()[:4] == ["pickup", "-", "rules/pickup.yaml", "C1-C16"]
    assert "Pick-up Bhabhi" in rows["pickup"]
    assert rows["two-packs"].split()[1:3] == ["bhabho", "rules/house/two-packs.yaml"]


def test_list_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "list", "--json")
    assert code == 0
    entries: list[dict[str, Any]] = json.loads(out)
    by_id = {e["id"]: e for e in entries}
    assert sorted(by_id) == BUNDLED_IDS
    leads = by_id["ace-low-ace-leads"]
    assert leads["extends"] == "ace-low"
    assert leads["file"] == "rules/ace-low-ace-leads.yaml"
    assert leads["title"] == "Ace-low Bhabhi (A♠ leads)"
    assert "V3" in leads["clauses"]
    assert leads["hash"] == load_ruleset("ace-low-ace-leads").hash
    assert by_id["bhabho"]["extends"] is None
    assert all(e["valid"] for e in entries)


# --- show -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset_id", BUNDLED_IDS)
def test_show_round_trips(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, ruleset_id: str
) -> None:
    code, out, _ = run(capsys, "rules", "show", ruleset_id)
    assert code == 0
    first, _, body = out.partition("\n")
    ruleset = load_ruleset(ruleset_id)
    assert first == f"# hash: {ruleset.hash}"
    shown = yaml.safe_load(body)
    assert "extends" not in shown
    assert list(shown) == [k for k in schema()["properties"] if k in shown]

    path = tmp_path / f"{ruleset_id}.yaml"
    path.write_text(out, encoding="utf-8")
    code, out, _ = run(capsys, "rules", "validate", str(path))
    assert code == 0
    assert out.strip() == f"{path}: ok (id {ruleset_id}, hash {ruleset.hash})"


def test_show_json_of_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    path = DEFAULT_RULES_DIR / "house" / "two-packs.yaml"
    code, out, _ = run(capsys, "rules", "show", str(path), "--json")
    assert code == 0
    shown = json.loads(out)
    assert shown == dict(load_ruleset("two-packs").source)
    assert list(shown["deck"]) == ["packs", "ranks", "ace", "identical_cards"]


def test_show_unknown_id(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules", "show", "bhabo")
    assert code == 1
    assert out == ""
    assert "no bundled ruleset or file named 'bhabo'" in err
    assert "known ids: ace-low" in err
    assert "did you mean 'bhabho'?" in err


def test_show_broken_file(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(BROKEN / "unknown-key.yaml")
    code, out, err = run(capsys, "rules", "show", path)
    assert code == 1
    assert out == ""
    assert f"{path}:5:3: off_suit.plya: unknown key 'plya'; did you mean 'play'?" in err


def test_schema_path(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "schema")
    assert code == 0
    assert Path(out.strip()) == SCHEMA_PATH
    assert SCHEMA_PATH.is_file()
    assert run(capsys, "rules", "schema", "--resolved") == (0, out, "")


def test_schema_of_a_file_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "schema", "--variant")
    assert code == 0
    variant = Path(out.strip())
    assert variant == SCHEMA_PATH.parent / "ruleset-variant.schema.json" and variant.is_file()
    code, printed, _ = run(capsys, "rules", "schema", "--variant", "--print")
    assert code == 0 and printed == variant.read_text(encoding="utf-8")
    assert json.loads(printed)["required"] == ["id", "extends"]
    code, printed, _ = run(capsys, "rules", "schema", "--print")
    assert code == 0 and json.loads(printed) == schema()
    code, _, err = run(capsys, "rules", "schema", "--variant", "--resolved")
    assert code == 2 and "not allowed with argument" in err


# --- clauses --------------------------------------------------------------------------------------


def test_clauses_prints_every_clause_of_the_catalogue(capsys: pytest.CaptureFixture[str]) -> None:
    from referee.ruleset.catalogue import load_catalogue

    code, out, err = run(capsys, "rules", "clauses")
    assert (code, err) == (0, "")
    heads = [block.splitlines()[0] for block in out.strip().split("\n\n")]
    assert heads == [f"{c.id}  {c.title}" for c in load_catalogue().values()]


def test_clauses_prints_the_named_ones(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules", "clauses", "h17", "C1", "H17")
    assert (code, err) == (0, "")
    h17, c1 = out.strip().split("\n\n")
    assert h17.splitlines()[0] == "H17  Shootout"
    assert "    source: Harman6139/bhabhi-live-solver (twoPlayer: pagat-shootout)" in h17
    assert " ".join(h17.split()).count("the drawer loses as the Bhabhi") == 1
    assert c1.splitlines()[0] == "C1  Deck"
    assert "    source: How to Play (English; German translation)" in c1.splitlines()
    assert any(line.startswith("    where sources differ: ") for line in c1.splitlines())


def test_clauses_json(capsys: pytest.CaptureFixture[str]) -> None:
    from referee.ruleset.catalogue import load_catalogue

    code, out, _ = run(capsys, "rules", "clauses", "--json", "B8", "X4")
    assert code == 0
    assert json.loads(out) == [load_catalogue()[i].as_json() for i in ("B8", "X4")]


def test_clauses_markdown_is_the_page(capsys: pytest.CaptureFixture[str]) -> None:
    from referee.ruleset.catalogue_page import render

    code, out, _ = run(capsys, "rules", "clauses", "--markdown")
    assert (code, out) == (0, render())
    code, out, err = run(capsys, "rules", "clauses", "--markdown", "C1")
    assert (code, out) == (2, "")
    assert err == "bhabhi rules clauses: --markdown prints the whole page; name no IDs\n"


def test_clauses_unknown_id_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules", "clauses", "C1", "C99")
    assert (code, out) == (2, "")
    assert err == (
        "bhabhi rules clauses: unknown clause ID C99 (the catalogue has "
        "C1-C16 P1-P3 D1-D2 V1-V5 B1-B9 X1-X5 H1-H31)\n"
    )
    code, out, err = run(capsys, "rules", "clauses", "Z9", "H32")
    assert (code, out) == (2, "")
    assert err.startswith("bhabhi rules clauses: unknown clause IDs Z9, H32 (")
    assert len(err.splitlines()) == 1


def test_rules_list_points_to_the_clauses(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "list", "--help")
    assert code == 0
    assert "bhabhi rules clauses" in " ".join(out.split())


# --- command modules ------------------------------------------------------------------------------


def test_missing_optional_command_module_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "OPTIONAL_COMMAND_MODULES", ("referee.sim.no_such_commands",))
    assert cli.build_parser().parse_args(["rules", "schema"]).rules_command == "schema"


def test_broken_optional_command_module_is_not_hidden(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "fake_commands_mod.py").write_text("import no_such_dependency_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(cli, "OPTIONAL_COMMAND_MODULES", ("fake_commands_mod",))
    with pytest.raises(ModuleNotFoundError, match="no_such_dependency_xyz"):
        cli.build_parser()


# --- a real process -------------------------------------------------------------------------------


def test_subprocess_python_m_referee(tmp_path: Path) -> None:
    broken = str(BROKEN / "not-allowed.yaml")
    result = subprocess.run(
        [sys.executable, "-m", "referee", "rules", "validate", broken],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert result.returncode == 1
    assert result.stdout.startswith(f"{broken}:5:9: off_suit.play: 'pikup' is not allowed")
    assert "Traceback" not in result.stderr


def test_subprocess_console_script() -> None:
    script = Path(sys.executable).parent / "bhabhi"
    if not script.exists():
        pytest.skip("the bhabhi console script is not installed in this environment")
    result = subprocess.run(
        [str(script), "rules", "validate", "rules/pickup.yaml"],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("rules/pickup.yaml: ok (id pickup, hash sha256:")


FORK_WHILE_CONNECTING = """
import asyncio, contextlib, logging, multiprocessing, sys
if sys.argv[1] == "bhabhi":
    from referee.cli import main
    main(["--version"])  # what every command does first
import grpc

async def connect_then_fork() -> None:
    channel = grpc.aio.insecure_channel("127.0.0.1:1")  # nothing answers: it keeps trying
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(channel.channel_ready(), 0.3)
    with multiprocessing.get_context("fork").Pool(1) as pool:
        pool.map(abs, [1])
    await channel.close()

asyncio.run(connect_then_fork())
logging.getLogger("bhabhi.server").warning("our own line")
"""


@pytest.mark.parametrize("setup", ["grpc alone", "bhabhi"])
def test_grpc_core_informational_lines_are_kept_out(setup: str) -> None:
    """A process forked while a channel is open makes C-core print an INFO line on stderr;
    under ``bhabhi`` it does not, and the referee's own log lines still do."""
    env = {k: v for k, v in os.environ.items() if k != "GRPC_VERBOSITY"}
    result = subprocess.run(
        [sys.executable, "-c", FORK_WHILE_CONNECTING, setup],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    assert lines[-1] == "our own line", lines
    if setup == "bhabhi":
        assert lines == ["our own line"]
    else:  # what the test would otherwise not see
        assert any("fork_posix.cc" in line for line in lines), lines


def test_rulesets_that_clash_are_one_line_for_every_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two files giving one id (an added folder's and a bundled one) make every command that
    lists rulesets say so in one line and exit 2, never a traceback."""
    folder = tmp_path / "ours"
    folder.mkdir()
    (folder / "pickup.yaml").write_text(
        (DEFAULT_RULES_DIR / "pickup.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    monkeypatch.setenv("BHABHI_RULES_DIR", str(folder))
    for argv in (["rules", "list"], ["simulate", "--rules", "pickup", "--players", "3"]):
        assert cli.main(argv) in (1, 2)  # simulate says it as its own usage error
        lines = capsys.readouterr().err.strip().splitlines()
        assert lines and all("ruleset id 'pickup' is given by two files" in line for line in lines)
