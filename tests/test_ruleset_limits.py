"""The loader's limits: a hostile file gets one problem, with the code of the limit it exceeds,
located where it exceeds it and naming the limit's value; a file at a limit is not refused.

Every case runs with libyaml's parser (what the referee uses when PyYAML has it) and with
PyYAML's pure-Python one (the fallback), which must give the same reasons at the same places.
"""

from __future__ import annotations

import multiprocessing
import pickle
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import hostile_rulesets as hostile
import pytest
import yaml

from referee.ruleset import yamlsafe
from referee.ruleset.limits import LIMITS
from referee.ruleset.loader import Code, Problem, bundled_ruleset_paths, resolve_text

ALIAS_CODES = {Code.TOO_MANY_ALIASES, Code.ALIAS_EXPANSION, Code.RECURSIVE_ALIAS}
STRUCTURAL_CODES = {
    Code.TOO_LARGE,
    Code.TOO_DEEP,
    Code.TOO_MANY_NODES,
    Code.SCALAR_TOO_LONG,
    *ALIAS_CODES,
}
PARSERS = {"libyaml": getattr(yaml, "CSafeLoader", None), "python": yaml.SafeLoader}


@pytest.fixture(params=list(PARSERS))
def parser(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Run the test with one YAML parser; libyaml's is skipped where PyYAML was built without."""
    loader = PARSERS[request.param]
    if loader is None or (request.param == "libyaml" and not yaml.__with_libyaml__):
        pytest.skip("PyYAML was built without libyaml")
    monkeypatch.setattr(yamlsafe, "_SafeLoader", loader)
    monkeypatch.setattr(yamlsafe, "_LIBYAML", request.param == "libyaml")
    yield request.param


def only(text: str) -> Problem:
    _, problems = resolve_text(text, "upload.yaml", {})
    assert len(problems) == 1, "\n".join(map(str, problems))
    assert problems[0].file == "upload.yaml"
    return problems[0]


def structural(text: str) -> list[Code]:
    _, problems = resolve_text(text, "upload.yaml", {})
    return [p.code for p in problems if p.code in STRUCTURAL_CODES]


NODES = f"more than {LIMITS.max_nodes} values"
DEEP = f"more than {LIMITS.max_depth} mappings and lists"
EXPANDS = f"aliases expand the document to more than {LIMITS.max_nodes} values"

# hostile text, code, line, column, words the message must contain.  The places follow from
# the limits: e.g. in many_keys the file's mapping, `id` and its value are values 1 to 3, so
# value 1,001 is the value of the 499th key, on line 500.
HOSTILE: list[tuple[Callable[[], str], Code, int, int, list[str]]] = [
    (hostile.many_keys, Code.TOO_MANY_NODES, 500, 12, [NODES]),
    (lambda: hostile.many_keys(1_000), Code.TOO_MANY_NODES, 500, 12, [NODES]),
    (hostile.deep_flow_mappings, Code.TOO_DEEP, 1, 4 + 63 * 4 + 1, [DEEP]),
    (hostile.deep_flow_lists, Code.TOO_DEEP, 1, 4 + 64, [DEEP]),
    (hostile.deep_block_mappings, Code.TOO_DEEP, 65, 65, [DEEP]),
    (hostile.deep_block_lists, Code.TOO_DEEP, 2, 1 + 64 * 2, [DEEP]),
    (hostile.many_items, Code.TOO_MANY_NODES, 2, 11 + 995 * 2, [NODES]),
    (
        hostile.long_string,
        Code.SCALAR_TOO_LONG,
        3,
        7,
        ["250000 characters", f"at most {LIMITS.max_scalar_chars} characters"],
    ),
    (hostile.long_plain_string, Code.SCALAR_TOO_LONG, 3, 7, ["250000 characters"]),
    # The mapping, a0 to a3 and their keys are 927 values; the first *a3 adds 820 more.
    (hostile.billion_laughs, Code.ALIAS_EXPANSION, 5, 10, [EXPANDS, "billion laughs"]),
    (hostile.many_anchors, Code.TOO_MANY_NODES, 2, 8856, [NODES]),
    (
        hostile.many_aliases,
        Code.TOO_MANY_ALIASES,
        3,
        11 + 100 * 4,
        [f"more than {LIMITS.max_aliases} aliases"],
    ),
    (
        hostile.too_large,
        Code.TOO_LARGE,
        1,
        1,
        ["300000 bytes", f"at most {LIMITS.max_bytes} bytes (256 KiB)"],
    ),
]


@pytest.mark.parametrize(
    ("make", "code", "line", "column", "words"),
    HOSTILE,
    ids=[
        "many-keys",
        "1000-keys",
        "deep-flow-mappings",
        "deep-flow-lists",
        "deep-block-mappings",
        "deep-block-lists",
        "many-items",
        "long-string",
        "long-plain-string",
        "billion-laughs",
        "many-anchors",
        "many-aliases",
        "too-large",
    ],
)
def test_hostile_file_gets_one_located_problem_naming_its_limit(
    parser: str,
    make: Callable[[], str],
    code: Code,
    line: int,
    column: int,
    words: list[str],
) -> None:
    problem = only(make())
    assert (problem.code, problem.line, problem.column, problem.path) == (code, line, column, "")
    for word in words:
        assert word in problem.message


@pytest.mark.parametrize("make", [hostile.many_keys, hostile.many_anchors, hostile.many_items])
def test_a_file_without_aliases_is_never_blamed_on_aliases(
    parser: str, make: Callable[[], str]
) -> None:
    text = make()
    assert "*" not in text
    assert only(text).code is Code.TOO_MANY_NODES


def clauses(count: int) -> str:
    """A file of exactly ``count`` values: its mapping, `id`, `x`, `clauses` and the list."""
    return "id: x\nclauses: [" + ", ".join(["C1"] * (count - 5)) + "]\n"


def test_values_up_to_the_limit_are_read(parser: str) -> None:
    assert structural(clauses(LIMITS.max_nodes)) == []
    assert only(clauses(LIMITS.max_nodes + 1)).code is Code.TOO_MANY_NODES


def test_nesting_up_to_the_limit_is_read(parser: str) -> None:
    def lists(depth: int) -> str:  # the innermost list is inside `depth` mappings and lists
        return "a: " + "[" * depth + "]" * depth + "\n"

    assert structural(lists(LIMITS.max_depth)) == []
    problem = only(lists(LIMITS.max_depth + 1))
    assert (problem.code, problem.column) == (Code.TOO_DEEP, 4 + LIMITS.max_depth)


def test_a_value_up_to_the_limit_is_read(parser: str) -> None:
    def title(chars: int) -> str:
        return "id: x\ntitle:\n  en: " + "x" * chars + "\n"

    assert structural(title(LIMITS.max_scalar_chars)) == []
    problem = only(title(LIMITS.max_scalar_chars + 1))
    assert (problem.code, problem.line, problem.column) == (Code.SCALAR_TOO_LONG, 3, 7)
    assert f"{LIMITS.max_scalar_chars + 1} characters" in problem.message


def test_aliases_up_to_the_limit_are_read(parser: str) -> None:
    def aliases(count: int) -> str:
        return "id: x\nbase: &b C1\nclauses: [" + ", ".join(["*b"] * count) + "]\n"

    assert structural(aliases(LIMITS.max_aliases)) == []
    assert only(aliases(LIMITS.max_aliases + 1)).code is Code.TOO_MANY_ALIASES


def test_expansion_up_to_the_limit_is_read(parser: str) -> None:
    # 7 values before the aliases (mapping, id, x, ten, the anchored list of 1 + 9, clauses,
    # its list) is 16; each *t adds 10.
    def expanding(aliases: int, extra: int) -> str:
        ten = ", ".join(["C1"] * 9)
        items = ", ".join(["*t"] * aliases + ["C1"] * extra)
        return f"id: x\nten: &t [{ten}]\nclauses: [{items}]\n"

    room = LIMITS.max_nodes - 16
    aliases, extra = divmod(room, 10)
    assert aliases <= LIMITS.max_aliases
    assert structural(expanding(aliases, extra)) == []
    problem = only(expanding(aliases, extra + 1))
    assert problem.code is Code.ALIAS_EXPANSION  # written values alone are within the limit


def test_size_is_counted_in_bytes(parser: str) -> None:
    at_limit = "id: x\n#" + "x" * (LIMITS.max_bytes - 8) + "\n"
    assert len(at_limit.encode()) == LIMITS.max_bytes
    assert structural(at_limit) == []
    two_byte = "id: x\n#" + "é" * (LIMITS.max_bytes // 2) + "\n"  # fewer characters than bytes
    assert len(two_byte) < LIMITS.max_bytes
    problem = only(two_byte)
    assert problem.code is Code.TOO_LARGE
    assert f"{len(two_byte.encode())} bytes" in problem.message


def test_an_alias_that_expands_too_deep_is_refused_where_it_is_used(parser: str) -> None:
    text = "a: &a " + "[" * 40 + "]" * 40 + "\nb: " + "[" * 30 + "*a" + "]" * 30 + "\n"
    problem = only(text)
    assert (problem.code, problem.line, problem.column) == (Code.TOO_DEEP, 2, 34)
    assert "once alias *a expands" in problem.message


@pytest.mark.parametrize(
    ("text", "line", "column", "code", "words"),
    [
        ("a: &a {b: *a}\n", 1, 11, Code.RECURSIVE_ALIAS, ["*a", "&a at line 1, column 4"]),
        ("a: *nowhere\n", 1, 4, Code.YAML_SYNTAX, ["undefined alias 'nowhere'"]),
        ("a:\n\t- b\n", 2, 1, Code.YAML_SYNTAX, ["found character '\\t'"]),
        ("é: x\x07\n", 1, 5, Code.YAML_SYNTAX, ["#x0007"]),
    ],
    ids=["recursive", "undefined", "tab", "control-after-non-ascii"],
)
def test_yaml_mistakes_read_the_same_with_either_parser(
    parser: str, text: str, line: int, column: int, code: Code, words: list[str]
) -> None:
    problem = only(text)
    assert (problem.code, problem.line, problem.column) == (code, line, column)
    for word in words:
        assert word in problem.message


@pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML was built without libyaml")
@pytest.mark.parametrize("path", sorted(bundled_ruleset_paths().values()), ids=lambda p: p.stem)
def test_both_parsers_read_a_bundled_ruleset_alike(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = path.read_text(encoding="utf-8")
    read = {}
    for name, loader in PARSERS.items():
        monkeypatch.setattr(yamlsafe, "_SafeLoader", loader)
        read[name] = yamlsafe.parse_text(text, path.name)
    assert read["libyaml"] == read["python"]
    assert read["libyaml"][0] is not None


def test_resolve_text_runs_in_a_worker_process() -> None:
    """What a server does to keep validation off its event loop: text in, plain data out."""
    texts = [
        ("id: my-team\nextends: team\n", "upload.yaml"),
        ("id: x\nextends: mine\ndeck:\n  pakcs: 2\n", "typo.yaml"),
        (hostile.billion_laughs(), "bomb.yaml"),
        (hostile.many_keys(), "keys.yaml"),
    ]
    registered = {"mine": "id: mine\nextends: bhabho\n"}
    here = [resolve_text(text, name, registered) for text, name in texts]
    assert pickle.loads(pickle.dumps(here)) == here
    spawn = multiprocessing.get_context("spawn")  # as a gRPC server must: no fork
    with ProcessPoolExecutor(max_workers=1, mp_context=spawn) as pool:
        there = [pool.submit(resolve_text, text, name, registered).result() for text, name in texts]
    assert there == here
    assert [bool(problems) for _, problems in there] == [False, True, True, True]


@pytest.mark.parametrize(
    ("old", "new", "code"),
    [
        ("card: AS", "card: " + "A" * 9_000 + "S", Code.BAD_FORMAT),
        ("trump:", "? " + "k" * 9_000 + "\n: 1\ntrump:", Code.UNKNOWN_KEY),
        (
            "clauses: [C1,",
            "clauses: [" + "X" * 9_000 + ", " + "X" * 9_000 + ", C1,",
            Code.DUPLICATE_ITEM,
        ),
    ],
    ids=["card", "key", "duplicate-item"],
)
def test_a_problem_quotes_a_long_value_shortened(old: str, new: str, code: Code) -> None:
    text = Path(bundled_ruleset_paths()["bhabho"]).read_text(encoding="utf-8")
    assert old in text
    _, problems = resolve_text(text.replace(old, new, 1), "upload.yaml", {})
    assert code in {p.code for p in problems}
    # the value is cut to a few dozen characters; what is left is the message around it
    # (an unknown key's lists the keys allowed, which grow with the options)
    assert max(len(p.message) for p in problems) < 500
