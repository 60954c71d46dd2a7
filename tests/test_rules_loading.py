"""Loading and validating rulesets: every kind of broken file gets one exact, located problem."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from referee.ruleset.limits import LIMITS
from referee.ruleset.loader import (
    DEFAULT_RULES_DIR,
    Code,
    Problem,
    RulesetError,
    added_rules_dirs,
    bundled_ruleset_paths,
    display_name,
    load_ruleset,
    load_ruleset_text,
    resolve_file,
    resolve_text,
    rules_dirs_added,
)
from referee.ruleset.model import ruleset_hash
from referee.ruleset.problems import sort_problems
from referee.ruleset.schema import SCHEMA_PATH, schema
from referee.ruleset.semantic import semantic_problems
from referee.ruleset.yamlsafe import KeyPath, Mark

BROKEN = Path(__file__).parent / "data" / "broken"


def broken(name: str) -> str:
    return str(BROKEN / name)


def only_problem(path: str | Path) -> Problem:
    _, problems = resolve_file(path)
    assert len(problems) == 1, "\n".join(map(str, problems))
    return problems[0]


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return path


# file, line, column, key path, code, words the message must contain
BROKEN_CASES: list[tuple[str, int, int, str, Code, list[str]]] = [
    ("yaml-syntax.yaml", 5, 15, "", Code.YAML_SYNTAX, ["mapping values are not allowed"]),
    (
        "duplicate-key.yaml",
        7,
        3,
        "off_suit.play",
        Code.DUPLICATE_KEY,
        ["duplicate key 'play'", "first written at line 5, column 3"],
    ),
    (
        "unknown-key.yaml",
        5,
        3,
        "off_suit.plya",
        Code.UNKNOWN_KEY,
        ["unknown key 'plya'; did you mean 'play'?"],
    ),
    (
        "wrong-type.yaml",
        5,
        15,
        "end.max_tricks",
        Code.WRONG_TYPE,
        ["expected an integer, got string 'three'"],
    ),
    (
        "not-allowed.yaml",
        5,
        9,
        "off_suit.play",
        Code.NOT_ALLOWED,
        [
            "'pikup' is not allowed; allowed values: pickup, discard, tochoo",
            "did you mean 'pickup'",
        ],
    ),
    ("missing-key.yaml", 24, 1, "end", Code.MISSING_KEY, ["missing required key 'max_tricks'"]),
    (
        "missing-base.yaml",
        3,
        10,
        "extends",
        Code.MISSING_BASE,
        ["'bhabo' not found", "bhabho, bhabho-own-turn", "did you mean 'bhabho'?"],
    ),
    (
        "cycle-a.yaml",  # the cycle closes in cycle-b.yaml, so that is where it is reported
        3,
        10,
        "extends",
        Code.EXTENDS_CYCLE,
        ["extends cycle", "cycle-a.yaml -> ", "cycle-b.yaml -> ", "cycle-a.yaml"],
    ),
    ("odd-teams.yaml", 5, 8, "players.min", Code.SEMANTIC, ["even number of players", "is 3"]),
    (
        "first-lead-not-in-deck.yaml",
        7,
        9,
        "first_lead.card",
        Code.SEMANTIC,
        ["'2S' is not in the deck", "rank 2 is not in deck.ranks"],
    ),
    (
        "min-greater-than-max.yaml",
        5,
        8,
        "players.min",
        Code.SEMANTIC,
        ["players.min (6) is greater than players.max (4)"],
    ),
    (
        "deck-too-small.yaml",  # the child wrote deck.ranks; players.max comes from the base
        5,
        10,
        "deck.ranks",
        Code.SEMANTIC,
        ["deck has 4 cards", "too few for 8 players"],
    ),
    ("first-dealer.yaml", 5, 17, "deal.first_dealer", Code.SEMANTIC, ["seat 8", "0 to 7"]),
    # The eighth *b of line 4 takes the expansion past 1,000 values.
    ("billion-laughs.yaml", 4, 36, "", Code.ALIAS_EXPANSION, ["aliases", "billion laughs"]),
    ("empty.yaml", 1, 1, "", Code.EMPTY, ["empty"]),
    ("not-a-mapping.yaml", 2, 1, "", Code.NOT_A_MAPPING, ["must be a mapping", "got a list"]),
    ("binary.yaml", 2, 1, "", Code.NOT_TEXT, ["not UTF-8", "0x89"]),
]


@pytest.mark.parametrize(
    ("name", "line", "column", "path", "code", "words"),
    BROKEN_CASES,
    ids=[case[0] for case in BROKEN_CASES],
)
def test_broken_file_gives_one_located_problem(
    name: str, line: int, column: int, path: str, code: Code, words: list[str]
) -> None:
    problem = only_problem(broken(name))
    reported_in = broken("cycle-b.yaml") if name == "cycle-a.yaml" else broken(name)
    assert str(problem).startswith(f"{reported_in}:{line}:{column}: {path or '(root)'}: ")
    assert (problem.file, problem.line, problem.column, problem.path) == (
        reported_in,
        line,
        column,
        path,
    )
    assert problem.code is code
    for word in words:
        assert word in problem.message


def test_extends_cycle_from_the_other_side() -> None:
    problem = only_problem(broken("cycle-b.yaml"))
    assert (problem.file, problem.line, problem.code) == (
        broken("cycle-a.yaml"),
        3,
        Code.EXTENDS_CYCLE,
    )


def test_every_problem_is_reported_at_once_in_file_order() -> None:
    _, problems = resolve_file(broken("several.yaml"))
    assert [(p.line, p.path, p.code) for p in problems] == [
        (4, "direction", Code.NOT_ALLOWED),
        (6, "deck.pakcs", Code.UNKNOWN_KEY),
        (8, "session.hands", Code.WRONG_TYPE),  # one problem, though minimum fails too
        (9, "session.chips", Code.WRONG_TYPE),
    ]


def test_oversize_file_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("id: big\n" + "# padding\n" * (LIMITS.max_bytes // 10 + 1), encoding="utf-8")
    problem = only_problem(path)
    assert (problem.line, problem.column, problem.code) == (1, 1, Code.TOO_LARGE)
    assert "256 KiB" in problem.message


def test_oversize_text_is_refused() -> None:
    _, problems = resolve_text("x" * (LIMITS.max_bytes + 1), "upload")
    assert [p.code for p in problems] == [Code.TOO_LARGE]


@pytest.mark.parametrize(
    ("text", "line", "column", "code", "words"),
    [
        ("id: x\x00\n", 1, 6, Code.NOT_TEXT, ["binary"]),
        ("id: x\x07\n", 1, 6, Code.YAML_SYNTAX, ["#x0007"]),
        ("a: " + "[" * 200 + "]" * 200, 1, 68, Code.TOO_DEEP, ["more than 64 mappings"]),
        ("a: &a [*a]\n", 1, 8, Code.RECURSIVE_ALIAS, ["&a at line 1, column 4", "contains it"]),
        ("id: !!python/object:os.system x\n", 1, 5, Code.UNSUPPORTED_YAML, ["!!python/object"]),
        ("b: &b {x: 1}\nid: x\n<<: *b\n", 3, 1, Code.UNSUPPORTED_YAML, ["merge keys"]),
        ("? [a]\n: b\n", 1, 3, Code.UNSUPPORTED_YAML, ["plain name"]),
        ("id: x\n---\nid: y\n", 2, 1, Code.YAML_SYNTAX, ["single document"]),
        ("id: x\ntitle: 'open\n", 3, 1, Code.YAML_SYNTAX, ["quoted scalar at line 2, column 8"]),
        ("~\n", 1, 1, Code.NOT_A_MAPPING, ["got null"]),
        ("# only a comment\n", 1, 1, Code.EMPTY, ["empty"]),
        ("end:\n  max_tricks: " + "9" * 5000 + "\n", 2, 15, Code.WRONG_TYPE, ["cannot read"]),
    ],
    ids=[
        "nul",
        "control",
        "deep",
        "recursive-alias",
        "python-tag",
        "merge-key",
        "complex-key",
        "two-documents",
        "unterminated",
        "null",
        "comment-only",
        "huge-int",
    ],
)
def test_hostile_yaml_text(text: str, line: int, column: int, code: Code, words: list[str]) -> None:
    _, problems = resolve_text(text, "upload.yaml")
    assert len(problems) == 1, problems
    problem = problems[0]
    assert (problem.file, problem.line, problem.column, problem.code) == (
        "upload.yaml",
        line,
        column,
        code,
    )
    for word in words:
        assert word in problem.message


def test_non_utf8_byte_is_located(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("id: x\ntitle: caf\xe9\n".encode("latin-1"))
    problem = only_problem(path)
    assert (problem.line, problem.column, problem.code) == (2, 11, Code.NOT_TEXT)


def test_directory_and_missing_file(tmp_path: Path) -> None:
    assert only_problem(tmp_path).code is Code.NOT_A_FILE
    missing = only_problem(tmp_path / "nope.yaml")
    assert (missing.code, missing.line, missing.column, missing.path) == (
        Code.FILE_NOT_FOUND,
        1,
        1,
        "",
    )
    assert str(missing) == f"{tmp_path / 'nope.yaml'}:1:1: (root): no such file"


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab:-[]{}&*!?#'\",| \n\t\x00%@`>~.0123"))))
def test_no_text_raises(text: str) -> None:
    resolved, problems = resolve_text(text)
    assert isinstance(resolved, dict)
    assert all(isinstance(p, Problem) for p in problems)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=300))
def test_no_bytes_raise(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "f.yaml"
    path.write_bytes(data)
    _, problems = resolve_file(path)
    assert all(isinstance(p, Problem) for p in problems)


# --- bundled rulesets ---------------------------------------------------------------------------


def test_schema_is_a_valid_2020_12_schema() -> None:
    Draft202012Validator.check_schema(schema())
    assert SCHEMA_PATH.is_file()


def test_bundled_rulesets_are_found_by_file_name() -> None:
    paths = bundled_ruleset_paths()
    assert {"pickup", "bhabho", "two-packs"} <= set(paths)
    assert paths["two-packs"] == DEFAULT_RULES_DIR / "house" / "two-packs.yaml"


@pytest.mark.parametrize("ruleset_id", sorted(bundled_ruleset_paths()))
def test_every_bundled_ruleset_validates_and_loads(ruleset_id: str) -> None:
    resolved, problems = resolve_file(bundled_ruleset_paths()[ruleset_id])
    assert problems == []
    assert "extends" not in resolved
    ruleset = load_ruleset(ruleset_id)
    assert ruleset.id == ruleset_id
    assert ruleset.hash == ruleset_hash(resolved)
    assert load_ruleset(ruleset_id) is ruleset  # cached


def test_extends_chain_merges_mappings_and_replaces_lists() -> None:
    ruleset = load_ruleset("ace-low-ace-leads")  # ace-low-ace-leads -> ace-low -> pickup
    assert ruleset.deck.ace.value == "low"  # from ace-low
    assert ruleset.deck.packs == 1  # from pickup, beside ace-low's `ace`
    assert ruleset.first_lead.if_absent.value == "highest_of_suit"  # from pickup
    assert ruleset.source["first_lead"]["card"] == "AS"  # its own, over ace-low's 2S
    assert "C1" not in ruleset.clauses  # ace-low's list replaced pickup's whole


def test_load_by_path_and_by_text() -> None:
    path = bundled_ruleset_paths()["bhabho"]
    assert load_ruleset(path).hash == load_ruleset("bhabho").hash
    text = path.read_text(encoding="utf-8")
    assert load_ruleset_text(text, "upload").hash == load_ruleset("bhabho").hash


def test_unknown_id_lists_known_ids() -> None:
    with pytest.raises(RulesetError) as info:
        load_ruleset("bhabo")
    (problem,) = info.value.problems
    assert problem.code is Code.UNKNOWN_RULESET
    assert "did you mean 'bhabho'?" in problem.message
    assert "pickup" in problem.message


def test_load_ruleset_raises_with_every_problem() -> None:
    with pytest.raises(RulesetError) as info:
        load_ruleset(broken("several.yaml"))
    assert isinstance(info.value, ValueError)
    assert len(info.value.problems) == 4
    assert str(info.value).splitlines() == [str(p) for p in info.value.problems]


# --- extends --------------------------------------------------------------------------------------


def test_house_variant_with_two_overrides(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "house.yaml",
        "id: house\nextends: bhabho\nplayers:\n  max: 6\nend:\n  max_tricks: 500\n",
    )
    _, problems = resolve_file(path)
    assert problems == []
    ruleset = load_ruleset(path)
    assert ruleset.players.max == 6
    assert ruleset.players.min == 3  # the rest of `players` comes from bhabho
    assert ruleset.end.max_tricks == 500
    assert ruleset.off_suit.play.value == "tochoo"
    assert ruleset.hash != load_ruleset("bhabho").hash


def test_problem_inherited_from_a_base_points_at_the_base(tmp_path: Path) -> None:
    base = write(
        tmp_path, "my-base.yaml", "id: my-base\nextends: pickup\noff_suit:\n  play: pikup\n"
    )
    child = write(tmp_path, "child.yaml", "id: child\nextends: my-base\nplayers:\n  max: 6\n")
    problem = only_problem(child)
    assert (problem.file, problem.line, problem.column, problem.path) == (
        str(base),
        4,
        9,
        "off_suit.play",
    )


def test_child_override_fixes_the_base(tmp_path: Path) -> None:
    write(tmp_path, "my-base.yaml", "id: my-base\nextends: pickup\noff_suit:\n  play: pikup\n")
    child = write(
        tmp_path, "child.yaml", "id: child\nextends: my-base\noff_suit:\n  play: discard\n"
    )
    assert resolve_file(child)[1] == []


def test_syntax_error_in_a_base_is_reported_in_the_base(tmp_path: Path) -> None:
    base = write(tmp_path, "my-base.yaml", "id: my-base\nextends: pickup\nend: [\n")
    child = write(tmp_path, "child.yaml", "id: child\nextends: my-base\n")
    problem = only_problem(child)
    assert (problem.file, problem.code) == (str(base), Code.YAML_SYNTAX)


def test_replaced_list_is_located_in_the_child(tmp_path: Path) -> None:
    child = write(tmp_path, "child.yaml", "id: child\nextends: pickup\nclauses: [C1, C99]\n")
    problem = only_problem(child)
    assert (problem.file, problem.line, problem.column, problem.path) == (
        str(child),
        3,
        15,
        "clauses.1",
    )
    assert "'C99' is not a clause ID" in problem.message


def test_file_may_extend_the_bundled_ruleset_it_is_named_after(tmp_path: Path) -> None:
    path = write(tmp_path, "pickup.yaml", "id: pickup\nextends: pickup\nsession:\n  chips: 1\n")
    assert resolve_file(path)[1] == []


def test_extends_must_be_an_id(tmp_path: Path) -> None:
    path = write(tmp_path, "x.yaml", "extends: ../rules/pickup\n")
    problem = only_problem(path)
    assert (problem.line, problem.column, problem.path, problem.code) == (
        1,
        10,
        "extends",
        Code.BAD_FORMAT,
    )


def test_uploaded_text_extends_bundled_rulesets_only() -> None:
    _, problems = resolve_text("id: up\nextends: team\nplayers:\n  max: 6\n", "up")
    assert problems == []
    _, problems = resolve_text("id: up\nextends: my-base\n", "up")
    assert [(p.file, p.line, p.column, p.code) for p in problems] == [
        ("up", 2, 10, Code.MISSING_BASE)
    ]


def test_rules_dir_adds_rulesets_and_id_mismatch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "house").mkdir()
    write(tmp_path, "tiny.yaml", "id: tiny\nextends: bhabho-copy\n")
    copy = (DEFAULT_RULES_DIR / "bhabho.yaml").read_text(encoding="utf-8")
    write(tmp_path / "house", "bhabho-copy.yaml", copy)
    bundled = sorted(bundled_ruleset_paths())
    monkeypatch.setenv("BHABHI_RULES_DIR", str(tmp_path))
    assert sorted(bundled_ruleset_paths()) == sorted([*bundled, "bhabho-copy", "tiny"])
    assert load_ruleset("tiny").id == "tiny"
    problem = only_problem(tmp_path / "house" / "bhabho-copy.yaml")
    id_line = copy.splitlines().index("id: bhabho") + 1  # after the editor line and a comment
    assert (problem.line, problem.path, problem.code) == (id_line, "id", Code.ID_MISMATCH)
    assert "bhabho-copy.yaml" in problem.message


def test_an_added_rules_folder_extends_bundled_rulesets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "one", tmp_path / "two"
    first.mkdir()
    second.mkdir()
    write(first, "mine.yaml", "id: mine\nextends: bhabho\nplayers:\n  max: 5\n")
    write(second, "theirs.yaml", "id: theirs\nextends: mine\n")
    monkeypatch.setenv("BHABHI_RULES_DIR", os.pathsep.join([str(first), str(second)]))
    assert load_ruleset("theirs").players.max == 5
    # Uploaded text sees the added folders too.
    _, problems = resolve_text("id: up\nextends: mine\n", "up")
    assert problems == []
    # The bundled folder given again adds nothing and clashes with nothing.
    monkeypatch.setenv("BHABHI_RULES_DIR", os.pathsep.join([str(first), str(DEFAULT_RULES_DIR)]))
    assert "mine" in bundled_ruleset_paths()


def test_a_ruleset_id_given_twice_is_an_error_naming_both_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, "bhabho.yaml", "id: bhabho\nextends: pickup\n")
    monkeypatch.setenv("BHABHI_RULES_DIR", str(tmp_path))
    with pytest.raises(RulesetError) as raised:
        load_ruleset("bhabho")
    (problem,) = raised.value.problems
    assert problem.code is Code.DUPLICATE_RULESET
    bundled = display_name(DEFAULT_RULES_DIR / "bhabho.yaml")
    added = str((tmp_path / "bhabho.yaml").resolve())
    assert f"'bhabho' is given by two files: {bundled} and {added}" in problem.message


def test_rules_dirs_added_sets_and_restores_the_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BHABHI_RULES_DIR", raising=False)
    with rules_dirs_added([tmp_path]):
        assert added_rules_dirs() == [tmp_path]
        assert os.environ["BHABHI_RULES_DIR"] == str(tmp_path)
    assert "BHABHI_RULES_DIR" not in os.environ
    monkeypatch.setenv("BHABHI_RULES_DIR", "a")
    with rules_dirs_added([tmp_path]):
        assert added_rules_dirs() == [Path("a"), tmp_path]
    assert os.environ["BHABHI_RULES_DIR"] == "a"


# --- messages -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("override", "line", "column", "path", "message"),
    [
        ("sesion:\n  chips: 1\n", 3, 1, "sesion", "unknown key 'sesion'; did you mean 'session'?"),
        ("ilegal_play: reject\n", 3, 1, "ilegal_play", "did you mean 'illegal_play'?"),
        ("deck:\n  pakcs: 1\n", 4, 3, "deck.pakcs", "did you mean 'packs'?"),
        ("take_hand: {frm: left}\n", 3, 13, "take_hand.frm", "did you mean 'from'?"),
        ("title:\n  fr: B\n", 4, 3, "title.fr", "unknown key 'fr'; allowed keys here: en, de, pl"),
        ("zzz: 1\n", 3, 1, "zzz", "allowed keys here: id, extends, title"),
    ],
)
def test_unknown_key_suggestions(
    tmp_path: Path, override: str, line: int, column: int, path: str, message: str
) -> None:
    problem = only_problem(write(tmp_path, "x.yaml", "id: x\nextends: pickup\n" + override))
    assert (problem.line, problem.column, problem.path, problem.code) == (
        line,
        column,
        path,
        Code.UNKNOWN_KEY,
    )
    assert message in problem.message


@pytest.mark.parametrize(
    ("override", "meant"),
    [
        ("direction: anticlockwise\n", "counterclockwise"),
        ("direction: anti-clockwise\n", "counterclockwise"),
        ("direction: counter-clockwise\n", "counterclockwise"),
        ("direction: Counter Clockwise\n", "counterclockwise"),
        ("direction: CCW\n", "counterclockwise"),
        ("direction: clock-wise\n", "clockwise"),
        ("direction: clockwice\n", "clockwise"),  # a misspelling, found by its letters
        ("deal: {dealer_moves: anticlockwise}\n", "counterclockwise"),
    ],
)
def test_a_way_round_is_suggested_by_its_meaning_not_its_spelling(
    tmp_path: Path, override: str, meant: str
) -> None:
    problem = only_problem(write(tmp_path, "x.yaml", "id: x\nextends: pickup\n" + override))
    assert problem.code is Code.NOT_ALLOWED
    assert problem.message.endswith(f"; did you mean {meant!r}?")


@pytest.mark.parametrize("side", ["left", "right", "Left", "to the right"])
def test_a_side_for_a_way_round_is_explained_not_guessed(tmp_path: Path, side: str) -> None:
    """Play passing to the left goes clockwise, a turn to the left counterclockwise."""
    text = f"id: x\nextends: pickup\ndirection: {side}\n"
    problem = only_problem(write(tmp_path, "x.yaml", text))
    assert (problem.path, problem.code) == ("direction", Code.NOT_ALLOWED)
    assert "did you mean" not in problem.message
    assert problem.message == (
        f"{side!r} is not allowed; allowed values: clockwise, counterclockwise; {side!r} could "
        "mean either way round: play that passes to each player's left neighbour is "
        "'clockwise' (seats are numbered clockwise, seat 1 sits to the left of seat 0), to "
        "the right neighbour 'counterclockwise'"
    )


def test_take_hand_from_keeps_its_own_left_and_right(tmp_path: Path) -> None:
    text = "id: x\nextends: bhabho\ntake_hand: {from: rigth}\n"
    problem = only_problem(write(tmp_path, "x.yaml", text))
    assert problem.message.endswith(
        "allowed values: left, right, next_in_turn, either_neighbour, any_player; "
        "did you mean 'right'?"
    )


def test_misspelt_required_key_is_one_problem(tmp_path: Path) -> None:
    text = broken("missing-key.yaml")
    body = (
        Path(text)
        .read_text(encoding="utf-8")
        .replace("  at_max_tricks", "  max_trick: 9\n  at_max_tricks")
    )
    problem = only_problem(write(tmp_path, "x.yaml", body.replace("id: missing-key", "id: x")))
    assert problem.code is Code.UNKNOWN_KEY
    assert problem.message == "unknown key 'max_trick'; did you mean 'max_tricks'?"


@pytest.mark.parametrize(
    ("override", "path", "code", "message"),
    [
        ("deck:\n  ranks: [2, A]\n", "deck.ranks.0", Code.NOT_ALLOWED, 'quote it: "2"'),
        ("end:\n  max_tricks: 1000.0\n", "end.max_tricks", Code.WRONG_TYPE, "got number 1000.0"),
        ("end:\n  max_tricks: yes\n", "end.max_tricks", Code.WRONG_TYPE, "got boolean true"),
        ("session:\n  hands: 0\n", "session.hands", Code.OUT_OF_RANGE, "at least 1, got 0"),
        ("first_lead:\n  card: 1S\n", "first_lead.card", Code.BAD_FORMAT, "'1S' is not a card"),
        ("first_lead:\n  card: as\n", "first_lead.card", Code.BAD_FORMAT, "in capitals"),
        ("clauses: [C1, C1]\n", "clauses.1", Code.DUPLICATE_ITEM, "'C1' is listed twice"),
        ("clauses: []\n", "clauses", Code.OUT_OF_RANGE, "must not be empty"),
        ("players: 4\n", "players", Code.WRONG_TYPE, "expected a mapping, got integer 4"),
    ],
)
def test_schema_messages(
    tmp_path: Path, override: str, path: str, code: Code, message: str
) -> None:
    problem = only_problem(write(tmp_path, "x.yaml", "id: x\nextends: pickup\n" + override))
    assert (problem.path, problem.code) == (path, code)
    assert message in problem.message


def test_bad_id_message(tmp_path: Path) -> None:
    problem = only_problem(write(tmp_path, "x.yaml", "id: My Rules\nextends: pickup\n"))
    assert (problem.line, problem.column, problem.path, problem.code) == (
        1,
        5,
        "id",
        Code.BAD_FORMAT,
    )
    assert "is not a ruleset id" in problem.message


def test_second_pack_lead_card_beyond_packs() -> None:
    """The schema's card pattern has no ``/2`` yet; the check is ready for when it does."""
    ruleset: dict[str, Any] = json.loads(json.dumps(load_ruleset("bhabho").source))
    ruleset["first_lead"]["card"] = "AS/2"

    def locate(path: KeyPath, at_key: bool) -> tuple[str, Mark]:
        return "f.yaml", Mark(len(path), 1)

    (problem,) = semantic_problems(ruleset, locate, "f.yaml")
    assert problem.path == "first_lead.card"
    assert "pack 2, but deck.packs is 1" in problem.message


def test_checks_across_keys_are_reported_with_the_schemas_problems(tmp_path: Path) -> None:
    """Every problem at once: a check across keys whose values passed the schema runs even
    though other values failed it, and comes after the schema's problems."""
    text = (
        "id: x\nextends: pickup\n"
        "direction: sideways\n"
        "players: {min: 9, max: 4, tems: none}\n"
        "first_lead: {card: 2S}\n"
        "deck: {ranks: [J, Q, K, A]}\n"
    )
    _, problems = resolve_file(write(tmp_path, "x.yaml", text))
    assert [(p.line, p.column, p.path, p.code) for p in problems] == [
        (3, 12, "direction", Code.NOT_ALLOWED),
        (4, 27, "players.tems", Code.UNKNOWN_KEY),
        (4, 16, "players.min", Code.SEMANTIC),
        (5, 20, "first_lead.card", Code.SEMANTIC),
    ]
    assert "players.min (9) is greater than players.max (4)" in problems[2].message
    assert "rank 2 is not in deck.ranks (J, Q, K, A)" in problems[3].message


@pytest.mark.parametrize(
    ("override", "path", "code"),
    [
        ("players: {min: '9', max: 4}\n", "players.min", Code.WRONG_TYPE),
        ("players: {min: 9, max: 4.0}\n", "players.max", Code.WRONG_TYPE),
        ("players: {min: 20, max: 4}\n", "players.min", Code.OUT_OF_RANGE),
        ("deck: {ranks: [J, Q, J]}\nfirst_lead: {card: 2S}\n", "deck.ranks.2", Code.DUPLICATE_ITEM),
        ("deck: {ranks: [J, Q, 1]}\nfirst_lead: {card: 2S}\n", "deck.ranks.2", Code.NOT_ALLOWED),
        ("trump: maybe\n", "trump", Code.NOT_ALLOWED),
        ("players: {max: 1}\ndeal: {first_dealer: 5}\n", "players.max", Code.OUT_OF_RANGE),
    ],
)
def test_a_check_across_keys_is_left_out_when_a_value_it_reads_failed_the_schema(
    tmp_path: Path, override: str, path: str, code: Code
) -> None:
    """Its verdict would rest on a value already refused (``min: '9'`` is not 9)."""
    problem = only_problem(write(tmp_path, "x.yaml", "id: x\nextends: pickup\n" + override))
    assert (problem.path, problem.code) == (path, code)


def test_sorting_puts_structure_first() -> None:
    def make(code: Code, line: int, file: str = "a") -> Problem:
        return Problem(file, line, 1, "", "m", code)

    problems = [
        make(Code.SEMANTIC, 1),
        make(Code.UNKNOWN_KEY, 9),
        make(Code.UNKNOWN_KEY, 2, "b"),
        make(Code.MISSING_BASE, 5),
        make(Code.YAML_SYNTAX, 7),
        make(Code.UNKNOWN_KEY, 3),
        make(Code.UNKNOWN_KEY, 3),
    ]
    assert [(p.code, p.file, p.line) for p in sort_problems(problems, ["a", "b"])] == [
        (Code.YAML_SYNTAX, "a", 7),
        (Code.MISSING_BASE, "a", 5),
        (Code.UNKNOWN_KEY, "a", 3),
        (Code.UNKNOWN_KEY, "a", 9),
        (Code.UNKNOWN_KEY, "b", 2),
        (Code.SEMANTIC, "a", 1),
    ]


def test_problem_str() -> None:
    assert str(Problem("f.yaml", 3, 5, "deck.ace", "bad", Code.NOT_ALLOWED)) == (
        "f.yaml:3:5: deck.ace: bad"
    )
    assert str(Problem("f.yaml", 1, 1, "", "empty", Code.EMPTY)) == "f.yaml:1:1: (root): empty"


def test_a_ruleset_that_extends_another_must_name_itself(tmp_path: Path) -> None:
    path = tmp_path / "anon.yaml"
    path.write_text("extends: bhabho\nend:\n  max_tricks: 50\n")
    problem = only_problem(path)
    assert (problem.line, problem.column, problem.path) == (1, 10, "id")
    assert "must name itself" in problem.message


def test_the_editor_line_of_a_bundled_file_changes_neither_its_ruleset_nor_its_hash() -> None:
    """The first line of every bundled file is a comment for editors; a comment is not data,
    and the hash covers the resolved data, so the file reads as it would without it."""
    for ruleset_id, path in bundled_ruleset_paths().items():
        text = path.read_text(encoding="utf-8")
        assert text.startswith("# yaml-language-server: $schema="), path
        bare = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("#"))
        assert ruleset_hash(resolve_text(bare, path.name)[0]) == load_ruleset(ruleset_id).hash
        assert load_ruleset_text(text, path.name).source == load_ruleset(ruleset_id).source


# --- the clauses list against the options ---------------------------------------------------------


def clause_findings(directory: Path, text: str) -> list[Problem]:
    from referee.ruleset.loader import resolve_file_named

    path = write(directory, "x.yaml", text)
    return resolve_file_named(path, str(path), clauses=True)[1]


def test_every_bundled_clauses_list_says_what_its_options_do() -> None:
    from referee.ruleset.clauses import followed
    from referee.ruleset.loader import resolve_file_named

    for ruleset_id, path in bundled_ruleset_paths().items():
        resolved, findings = resolve_file_named(path, str(path), clauses=True)
        assert findings == [], "\n".join(map(str, findings))
        states = followed(resolved)
        assert all(states[c] for c in resolved["clauses"]), ruleset_id


def test_a_declared_clause_the_options_switch_off_is_a_problem_at_the_option(
    tmp_path: Path,
) -> None:
    text = "id: x\nextends: bhabho\ntake_hand: {when: never}\nnext_leader: {if_out: next_in_turn}\n"
    off, also_off, undeclared = clause_findings(tmp_path, text)
    assert (off.line, off.column, off.path, off.code) == (
        3,
        19,
        "take_hand.when",
        Code.CLAUSE_SWITCHED_OFF,
    )
    should = (
        "[C1, C2, C3, C4, C5, C6, C7, C9, C10, C11, C12, C13, C14, C15, C16, P3, B1, B2, B3, "
        "B4, B5, B6, B7]"
    )
    assert off.message == (
        "clause B9 is declared, but the options switch it off: it needs take_hand.when: "
        "before_any_trick and take_hand.from: left, and take_hand.when is never; for these "
        f"options write clauses: {should}"
    )
    assert not off.warning
    assert (also_off.path, also_off.code) == ("next_leader.if_out", Code.CLAUSE_SWITCHED_OFF)
    assert also_off.message.startswith("clause B8 is declared, but the options switch it off")
    assert (undeclared.path, undeclared.code) == ("next_leader.if_out", Code.CLAUSE_NOT_DECLARED)
    assert undeclared.warning
    assert undeclared.message == (
        "clause P3 is not declared, but the options follow it (next_leader.if_out: "
        f"next_in_turn); for these options write clauses: {should}"
    )
    assert str(undeclared).endswith(f":4:23: warning: next_leader.if_out: {undeclared.message}")
    # Written as suggested, the list agrees; loading never looked at it.
    fixed = text + f"clauses: {should}\n"
    assert clause_findings(tmp_path, fixed) == []
    assert load_ruleset(write(tmp_path, "y.yaml", text.replace("id: x", "id: y"))).id == "y"


def test_a_clause_the_file_itself_declares_is_reported_at_its_entry(tmp_path: Path) -> None:
    text = "id: x\nextends: pickup\nclauses: [C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, "
    text += "C13, C14, C15, C16, P1, P2, P3, V2]\n"
    (problem,) = clause_findings(tmp_path, text)
    assert (problem.line, problem.path, problem.code) == (3, "clauses.19", Code.CLAUSE_SWITCHED_OFF)
    assert "it needs players.teams: partners_opposite, and players.teams is none" in problem.message


@pytest.mark.parametrize(
    ("override", "clause"),
    [
        ("deck: {ranks: [J, Q, K, A]}\n", "C1"),
        ("players: {min: 2}\n", "C2"),
        ("first_lead: {card: KS}\n", "C6"),
        ("next_leader: {after_complete_trick: lowest}\n", "C8"),
        ("off_suit: {play: discard}\n", "P1 P2"),  # P2: the picker leads
        ("next_leader: {after_pickup: highest}\n", "P2"),
        ("next_leader: {if_out: draws_from_waste}\n", "P3"),
    ],
)
def test_each_option_that_leaves_a_pickup_clause_switches_it_off(
    tmp_path: Path, override: str, clause: str
) -> None:
    findings = clause_findings(tmp_path, "id: x\nextends: pickup\n" + override)
    off = [p.message.split()[1] for p in findings if p.code is Code.CLAUSE_SWITCHED_OFF]
    assert off == clause.split()


def test_clauses_are_checked_only_on_values_that_passed_the_schema(tmp_path: Path) -> None:
    """A misspelt key leaves its inherited value in place: that is not what was written."""
    findings = clause_findings(tmp_path, "id: x\nextends: bhabho\ntake_hand: {wehn: never}\n")
    assert [p.code for p in findings] == [Code.UNKNOWN_KEY]
    findings = clause_findings(tmp_path, "id: x\nextends: bhabho\nclauses: [C1, C1]\n")
    assert [p.code for p in findings] == [Code.DUPLICATE_ITEM]
    findings = clause_findings(tmp_path, "id: x\nextends: bhabho\ntake_hand: {when: nevr}\n")
    assert [p.code for p in findings] == [Code.NOT_ALLOWED]


def test_a_restated_clause_is_enough(tmp_path: Path) -> None:
    """X3 is "the same as B1"; B3 states C8's rule for the tochoo game."""
    bhabho = load_ruleset("bhabho")
    assert "C8" not in bhabho.clauses and "X3" not in bhabho.clauses
    text = "id: x\nextends: bhabho\nclauses: [" + ", ".join(bhabho.clauses) + "]\n"
    assert clause_findings(tmp_path, text.replace("B1,", "X3,")) == []
    (warning,) = clause_findings(tmp_path, text.replace(" B3,", ""))
    assert (warning.code, warning.message.split()[1]) == (Code.CLAUSE_NOT_DECLARED, "B3")


@pytest.mark.parametrize(("written", "canonical"), [("TS", "10S"), ("10s", "10S"), ("qh", "QH")])
def test_a_card_written_another_way_is_refused_with_its_one_form(
    tmp_path: Path, written: str, canonical: str
) -> None:
    """A ruleset writes a card one way (its hash depends on the text), and says which."""
    path = write(tmp_path, "t.yaml", f"id: t\nextends: bhabho\nfirst_lead: {{card: {written}}}\n")
    _, problems = resolve_file(path)
    assert len(problems) == 1
    assert problems[0].line == 3
    assert f"write {canonical}" in problems[0].message
