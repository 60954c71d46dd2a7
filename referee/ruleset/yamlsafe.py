"""Safe YAML reading that remembers where every key and value was written.

Rulesets come from people (house rules) and, through the referee, from the network, so the
reader assumes hostile input: only plain YAML values (no tags that build objects), and the
limits of :mod:`referee.ruleset.limits` (size, nesting, values, aliases and their expansion,
length of a value), checked on the event stream before any node is built and stopping at the
first one exceeded, so that a "billion laughs" document or 20,000 keys cost a few milliseconds
to refuse.  Every problem is returned, never raised, and carries a line and column.

PyYAML's own ``safe_load`` is not used because it forgets positions, silently lets the
second of two equal keys win, and expands aliases without limit when the data is traversed.
libyaml's parser is used when PyYAML was built with it: PyYAML's pure-Python scanner takes about
150 ms of CPU for 256 KiB of comments or of one long string, libyaml about 2 ms.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from referee.ruleset.limits import LIMITS, Exceeded, first_exceeded, too_deep
from referee.ruleset.problems import Code, Problem

KeyPath = tuple[str | int, ...]
"""Keys and list indices from the document root to a value."""

_TAG = "tag:yaml.org,2002:"
_PLAIN_SCALAR_TAGS = {_TAG + t for t in ("str", "int", "float", "bool", "null")}
# Implicit tags PyYAML resolves plain scalars to that have no JSON meaning: keep their text.
_TEXT_SCALAR_TAGS = {_TAG + "timestamp", _TAG + "value"}

_LIBYAML: bool = yaml.__with_libyaml__
_SafeLoader: type[yaml.SafeLoader] | type[yaml.CSafeLoader] = (
    yaml.CSafeLoader if _LIBYAML else yaml.SafeLoader
)
# libyaml's scanner refuses nesting deeper than 1,000 itself, before the events reach ours.
_LIBYAML_TOO_DEEP = "exceeded maximum nesting depth"


def dotted(path: KeyPath) -> str:
    """The path as people write it: ``off_suit.play``, ``clauses.3``; empty for the root."""
    return ".".join(str(p) for p in path)


@dataclass(frozen=True, slots=True)
class Mark:
    """A 1-based line and column."""

    line: int
    column: int

    @classmethod
    def of(cls, mark: Any) -> Mark:
        """From a PyYAML mark (0-based), or the start of the file when there is none."""
        if mark is None:
            return cls(1, 1)
        return cls(mark.line + 1, mark.column + 1)


@dataclass(frozen=True, slots=True)
class Spot:
    """Where the key of a value and the value itself were written (the same for list items)."""

    key: Mark
    value: Mark


@dataclass(frozen=True, slots=True)
class Document:
    """A YAML mapping read from one file, with the spot of every key path in it."""

    file: str
    data: dict[str, Any]
    spots: dict[KeyPath, Spot]
    """Every key path in ``data``; ``()`` is the root mapping."""


def _first_exceeded(text: str) -> Exceeded | None:
    """The first limit ``text`` exceeds; raises PyYAML's errors for text that is not YAML."""
    try:
        return _exceeded_in(text)
    except yaml.MarkedYAMLError as exc:
        if exc.problem != _LIBYAML_TOO_DEEP or exc.problem_mark is None:
            raise
        # libyaml's scanner looks ahead through ``[[[[...`` and refuses level 1,000 before the
        # events of level 65 reach the count: look for them in the text before that point.
        with contextlib.suppress(yaml.YAMLError):
            exceeded = _exceeded_in(text[: exc.problem_mark.index])
            if exceeded is not None:
                return exceeded
        return too_deep(exc.problem_mark)


def _exceeded_in(text: str) -> Exceeded | None:
    events = _SafeLoader(text)
    try:
        return first_exceeded(events)
    finally:
        events.dispose()


def read_file(path: Path, name: str) -> tuple[str | None, list[Problem]]:
    """The text of a ruleset file, or the reason it cannot be one (never raises)."""

    def problem(code: Code, message: str, line: int = 1, column: int = 1) -> list[Problem]:
        return [Problem(name, line, column, "", message, code)]

    try:
        if not path.exists():
            return None, problem(Code.FILE_NOT_FOUND, "no such file")
        if path.is_dir():
            return None, problem(Code.NOT_A_FILE, "is a directory, not a ruleset file")
        if not path.is_file():
            return None, problem(Code.NOT_A_FILE, "is not a regular file")
        size = path.stat().st_size
        if size > LIMITS.max_bytes:
            return None, problem(Code.TOO_LARGE, _too_large(size))
        with path.open("rb") as stream:
            raw = stream.read(LIMITS.max_bytes + 1)
    except (OSError, ValueError) as exc:  # ValueError: a NUL character in the path
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        return None, problem(Code.UNREADABLE, f"cannot read: {reason}")
    if len(raw) > LIMITS.max_bytes:  # grew since stat, or the size was not reported
        return None, problem(Code.TOO_LARGE, _too_large(len(raw)))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line, column = _line_col_bytes(raw, exc.start)
        return None, problem(
            Code.NOT_TEXT,
            f"not UTF-8 text: cannot decode byte 0x{raw[exc.start]:02x}; "
            "a ruleset is a UTF-8 YAML file",
            line,
            column,
        )
    return text, []


def parse_text(text: str, name: str) -> tuple[Document | None, list[Problem]]:
    """Read one YAML mapping from ``text``; every problem is located in file ``name``.

    The limits are checked first, on the events alone; only a document within them is
    composed into nodes and built into values.
    """
    if len(text) * 4 > LIMITS.max_bytes:  # else it fits: UTF-8 takes 4 bytes a character at most
        size = len(text.encode("utf-8", "replace"))
        if size > LIMITS.max_bytes:
            return None, [Problem(name, 1, 1, "", _too_large(size), Code.TOO_LARGE)]
    nul = text.find("\x00")
    if nul >= 0:
        line, column = _line_col(text, nul)
        message = "binary data (a NUL character): not a YAML text file"
        return None, [Problem(name, line, column, "", message, Code.NOT_TEXT)]

    def one(code: Code, mark: Mark, message: str) -> tuple[None, list[Problem]]:
        return None, [Problem(name, mark.line, mark.column, "", message, code)]

    loader: yaml.SafeLoader | yaml.CSafeLoader | None = None
    try:
        exceeded = _first_exceeded(text)  # the pure-Python reader checks unprintable characters
        if exceeded is not None:
            return one(exceeded.code, Mark(exceeded.line, exceeded.column), exceeded.message)
        loader = _SafeLoader(text)
        root = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = Mark.of(exc.problem_mark or exc.context_mark)
        return one(Code.YAML_SYNTAX, mark, _yaml_message(exc, text))
    except yaml.reader.ReaderError as exc:
        index = exc.position
        if _LIBYAML:  # libyaml counts the bytes of the text encoded as UTF-8
            index = len(text.encode("utf-8")[: exc.position].decode("utf-8", "ignore"))
        line, column = _line_col(text, index)
        char = exc.character if isinstance(exc.character, int) else ord(exc.character)
        return one(
            Code.YAML_SYNTAX,
            Mark(line, column),
            f"unacceptable character #x{char:04x}: {exc.reason}",
        )
    except yaml.YAMLError as exc:  # pragma: no cover - every PyYAML error is one of the above
        return one(Code.YAML_SYNTAX, Mark(1, 1), f"cannot read YAML: {exc}")

    try:
        if root is None:
            message = "the file is empty; a ruleset is a mapping with keys such as id, title, deck"
            return None, [Problem(name, 1, 1, "", message, Code.EMPTY)]
        where = Mark.of(root.start_mark)
        if not isinstance(root, MappingNode) or root.tag != _TAG + "map":
            message = (
                "a ruleset must be a mapping of keys to values "
                f"(id: ..., title: ...), got {_node_kind(root)}"
            )
            return None, [Problem(name, where.line, where.column, "", message, Code.NOT_A_MAPPING)]
        builder = _Builder(loader, name)
        data = builder.build(root, (), where)
        if builder.problems:
            return None, builder.problems
        assert isinstance(data, dict)
        return Document(name, data, builder.spots), []
    finally:
        loader.dispose()


def load_file(path: Path, name: str) -> tuple[Document | None, list[Problem]]:
    """Read and parse one ruleset file."""
    text, problems = read_file(path, name)
    if text is None:
        return None, problems
    return parse_text(text, name)


class _Builder:
    """Turns a composed node tree into plain JSON-like values, recording spots and problems."""

    def __init__(self, loader: SafeConstructor, file: str) -> None:
        self.loader = loader
        self.file = file
        self.spots: dict[KeyPath, Spot] = {}
        self.problems: list[Problem] = []

    def problem(self, mark: Mark, path: KeyPath, message: str, code: Code) -> None:
        self.problems.append(
            Problem(self.file, mark.line, mark.column, dotted(path), message, code)
        )

    def build(self, node: Node, path: KeyPath, key: Mark) -> Any:
        where = Mark.of(node.start_mark)
        self.spots[path] = Spot(key, where)
        if isinstance(node, MappingNode):
            if node.tag != _TAG + "map":
                self.problem(where, path, _tag_message(node.tag), Code.UNSUPPORTED_YAML)
                return None
            out: dict[str, Any] = {}
            first: dict[str, Mark] = {}
            for key_node, value_node in node.value:
                key_mark = Mark.of(key_node.start_mark)
                if key_node.tag == _TAG + "merge":
                    message = "YAML merge keys ('<<') are not supported; use `extends` instead"
                    self.problem(key_mark, path, message, Code.UNSUPPORTED_YAML)
                    continue
                if not isinstance(key_node, ScalarNode) or key_node.tag not in _PLAIN_SCALAR_TAGS:
                    message = f"a key must be a plain name, got {_node_kind(key_node)}"
                    self.problem(key_mark, path, message, Code.UNSUPPORTED_YAML)
                    continue
                # The key as written: `yes:` or `10:` name keys, they are not booleans or numbers.
                name = str(key_node.value)
                if name in first:
                    seen = first[name]
                    message = (
                        f"duplicate key {name!r}; first written at line {seen.line}, "
                        f"column {seen.column}"
                    )
                    self.problem(key_mark, (*path, name), message, Code.DUPLICATE_KEY)
                    continue
                first[name] = key_mark
                out[name] = self.build(value_node, (*path, name), key_mark)
            return out
        if isinstance(node, SequenceNode):
            if node.tag != _TAG + "seq":
                self.problem(where, path, _tag_message(node.tag), Code.UNSUPPORTED_YAML)
                return None
            return [
                self.build(item, (*path, i), Mark.of(item.start_mark))
                for i, item in enumerate(node.value)
            ]
        assert isinstance(node, ScalarNode)
        if node.tag in _TEXT_SCALAR_TAGS:
            return str(node.value)
        if node.tag not in _PLAIN_SCALAR_TAGS:
            self.problem(where, path, _tag_message(node.tag), Code.UNSUPPORTED_YAML)
            return None
        try:
            return self.loader.construct_object(node)
        except (yaml.YAMLError, ValueError, OverflowError):
            # In practice a number with thousands of digits (Python refuses to convert it).
            text = str(node.value)
            shown = text if len(text) <= 40 else text[:39] + "…"
            self.problem(where, path, f"cannot read {shown!r}: not a usable value", Code.WRONG_TYPE)
            return None


def _too_large(size: int) -> str:
    return (
        f"file is {size} bytes; a ruleset may be at most {LIMITS.max_bytes} bytes "
        f"({LIMITS.max_bytes // 1024} KiB)"
    )


def _line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def _char_at(text: str, line: int, column: int) -> str:
    """The character at a 0-based line and column (YAML's line breaks are ``splitlines``'s,
    once the characters the reader refuses are left out)."""
    lines = text.splitlines()
    return lines[line][column] if line < len(lines) and column < len(lines[line]) else ""


def _line_col_bytes(raw: bytes, index: int) -> tuple[int, int]:
    line = raw.count(b"\n", 0, index) + 1
    return line, index - (raw.rfind(b"\n", 0, index) + 1) + 1


def _node_kind(node: Node) -> str:
    if isinstance(node, MappingNode):
        return "a mapping"
    if isinstance(node, SequenceNode):
        return "a list"
    if node.tag == _TAG + "null":
        return "null"
    return f"the value {node.value!r}"


def _tag_message(tag: str) -> str:
    shown = "!!" + tag.removeprefix(_TAG) if tag.startswith(_TAG) else tag
    return f"YAML tag {shown} is not supported; a ruleset uses plain values, lists and mappings"


def _yaml_message(exc: yaml.MarkedYAMLError, text: str) -> str:
    problem = exc.problem or "invalid YAML"
    if problem == "found character that cannot start any token" and exc.problem_mark:
        # libyaml's wording; PyYAML's names the character, which is what a reader looks for.
        char = _char_at(text, exc.problem_mark.line, exc.problem_mark.column)
        problem = f"found character {char!r} that cannot start any token"
    where = Mark.of(exc.context_mark)
    if exc.context and exc.context_mark is not None and where != Mark.of(exc.problem_mark):
        if problem.startswith("but "):  # "expected X (there), but found Y" reads in that order
            return f"{exc.context} (line {where.line}, column {where.column}), {problem}"
        return f"{problem} ({exc.context} at line {where.line}, column {where.column})"
    if exc.context:
        return f"{problem} ({exc.context})"
    return problem
