"""What is wrong with a ruleset file, said so that a person can fix it and a program can sort it.

Every problem names a file, a 1-based line and column and the dotted key path, so an editor can
jump to it and a test can assert it exactly; the ``code`` is the stable part that programs (the
gRPC referee, tests) match on, while the message is free to improve.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class Code(StrEnum):
    """Stable problem codes. Values never change once released; new ones may be added."""

    # The file itself.
    FILE_NOT_FOUND = "file_not_found"
    NOT_A_FILE = "not_a_file"
    UNREADABLE = "unreadable"
    TOO_LARGE = "too_large"
    NOT_TEXT = "not_text"
    EMPTY = "empty"
    # YAML structure.
    YAML_SYNTAX = "yaml_syntax"
    TOO_MANY_ALIASES = "too_many_aliases"
    ALIAS_EXPANSION = "alias_expansion"
    RECURSIVE_ALIAS = "recursive_alias"
    TOO_DEEP = "too_deep"
    TOO_MANY_NODES = "too_many_nodes"
    SCALAR_TOO_LONG = "scalar_too_long"
    UNSUPPORTED_YAML = "unsupported_yaml"
    DUPLICATE_KEY = "duplicate_key"
    NOT_A_MAPPING = "not_a_mapping"
    # extends.
    MISSING_BASE = "missing_base"
    EXTENDS_CYCLE = "extends_cycle"
    # Schema.
    UNKNOWN_KEY = "unknown_key"
    MISSING_KEY = "missing_key"
    WRONG_TYPE = "wrong_type"
    NOT_ALLOWED = "not_allowed"
    BAD_FORMAT = "bad_format"
    OUT_OF_RANGE = "out_of_range"
    DUPLICATE_ITEM = "duplicate_item"
    INVALID = "invalid"
    # Beyond the schema.
    ID_MISMATCH = "id_mismatch"
    SEMANTIC = "semantic"
    UNKNOWN_RULESET = "unknown_ruleset"
    DUPLICATE_RULESET = "duplicate_ruleset"
    # The clauses list against the options (bhabhi rules validate only).
    CLAUSE_SWITCHED_OFF = "clause_switched_off"
    CLAUSE_NOT_DECLARED = "clause_not_declared"


WARNINGS = frozenset({Code.CLAUSE_NOT_DECLARED})
"""Codes of findings that are worth a look but do not make a ruleset invalid."""


# Lower sorts first: a broken file or broken YAML makes every later problem noise, and a wrong
# `extends` makes the merged result meaningless, so those are what a reader must see first.
_RANK: dict[Code, int] = {
    Code.FILE_NOT_FOUND: 0,
    Code.NOT_A_FILE: 0,
    Code.UNREADABLE: 0,
    Code.TOO_LARGE: 0,
    Code.NOT_TEXT: 0,
    Code.EMPTY: 0,
    Code.UNKNOWN_RULESET: 0,
    Code.DUPLICATE_RULESET: 0,
    Code.YAML_SYNTAX: 1,
    Code.TOO_MANY_ALIASES: 1,
    Code.ALIAS_EXPANSION: 1,
    Code.RECURSIVE_ALIAS: 1,
    Code.TOO_DEEP: 1,
    Code.TOO_MANY_NODES: 1,
    Code.SCALAR_TOO_LONG: 1,
    Code.UNSUPPORTED_YAML: 1,
    Code.DUPLICATE_KEY: 1,
    Code.NOT_A_MAPPING: 1,
    Code.MISSING_BASE: 2,
    Code.EXTENDS_CYCLE: 2,
}
_SCHEMA_RANK = 3
_SEMANTIC_RANK = 4
_WARNING_RANK = 5


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a ruleset, located where the offending text was written."""

    file: str
    line: int
    column: int
    path: str
    """Dotted key path (``off_suit.play``, ``clauses.3``); empty for the document as a whole."""
    message: str
    code: Code

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}: "
        severity = "warning: " if self.warning else ""
        return f"{where}{severity}{self.path or '(root)'}: {self.message}"

    @property
    def warning(self) -> bool:
        """True for a finding that does not make the ruleset invalid."""
        return self.code in WARNINGS

    @property
    def rank(self) -> int:
        """How early a reader should see this problem (lower first)."""
        if self.warning:
            return _WARNING_RANK
        if self.code in (Code.SEMANTIC, Code.CLAUSE_SWITCHED_OFF):
            return _SEMANTIC_RANK
        return _RANK.get(self.code, _SCHEMA_RANK)


def sort_problems(problems: Iterable[Problem], file_order: Iterable[str] = ()) -> list[Problem]:
    """Drop exact repeats and put the most useful problem first.

    Structural problems come before schema problems, which come before semantic ones, and
    warnings come last; within a rank, problems follow the files in ``file_order`` (the file
    being checked first, then its bases) and then the text, so the list reads top to bottom
    like the file.
    """
    order = {name: i for i, name in enumerate(dict.fromkeys(file_order))}
    unique = list(dict.fromkeys(problems))
    return sorted(
        unique,
        key=lambda p: (p.rank, order.get(p.file, len(order)), p.file, p.line, p.column),
    )


class RulesetError(ValueError):
    """A ruleset could not be loaded; ``problems`` lists every reason, most useful first."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems) or "invalid ruleset")
