"""Safe YAML reading that remembers where every key and value was written.

Rulesets come from people (house rules) and, through the referee, from the network, so the
reader assumes hostile input: only plain YAML values (no tags that build objects), a size
limit checked before parsing, bounded nesting, and a bound on alias expansion so that a
"billion laughs" document is refused after composing a few hundred nodes instead of being
expanded.  Every problem is returned, never raised, and carries a line and column.

PyYAML's own ``safe_load`` is not used because it forgets positions, silently lets the
second of two equal keys win, and expands aliases without limit when the data is traversed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from referee.ruleset.problems import Code, Problem

MAX_BYTES = 256 * 1024
"""Largest ruleset file accepted; the bundled ones are under 4 KiB."""
MAX_ALIASES = 1000
"""Most alias uses (``*name``) in one document."""
MAX_NODES = 20_000
"""Most values in a document once every alias is expanded (a full ruleset has about 150)."""
MAX_DEPTH = 64
"""Deepest nesting of mappings and lists (a ruleset needs 3); keeps recursion bounded."""

KeyPath = tuple[str | int, ...]
"""Keys and list indices from the document root to a value."""

_TAG = "tag:yaml.org,2002:"
_PLAIN_SCALAR_TAGS = {_TAG + t for t in ("str", "int", "float", "bool", "null")}
# Implicit tags PyYAML resolves plain scalars to that have no JSON meaning: keep their text.
_TEXT_SCALAR_TAGS = {_TAG + "timestamp", _TAG + "value"}


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


class _Limit(Exception):
    """A structural limit was hit while composing; unwinds the composer at once."""

    def __init__(self, code: Code, mark: Mark, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.mark = mark
        self.message = message


class _Loader(yaml.SafeLoader):
    """SafeLoader that refuses deep nesting and many aliases while it composes nodes."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0
        self._aliases = 0

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        if isinstance(event, yaml.AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_ALIASES:
                raise _Limit(
                    Code.TOO_MANY_ALIASES,
                    Mark.of(event.start_mark),
                    f"more than {MAX_ALIASES} aliases; a ruleset needs few or none",
                )
            return super().compose_node(parent, index)
        if self._depth >= MAX_DEPTH:
            raise _Limit(
                Code.TOO_DEEP,
                Mark.of(event.start_mark),
                f"nested more than {MAX_DEPTH} levels deep; a ruleset needs 3",
            )
        self._depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


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
        if size > MAX_BYTES:
            return None, problem(Code.TOO_LARGE, _too_large(size))
        with path.open("rb") as stream:
            raw = stream.read(MAX_BYTES + 1)
    except (OSError, ValueError) as exc:  # ValueError: a NUL character in the path
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        return None, problem(Code.UNREADABLE, f"cannot read: {reason}")
    if len(raw) > MAX_BYTES:  # grew since stat, or the size was not reported
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
    """Read one YAML mapping from ``text``; every problem is located in file ``name``."""
    size = len(text.encode("utf-8", "replace"))
    if size > MAX_BYTES:
        return None, [Problem(name, 1, 1, "", _too_large(size), Code.TOO_LARGE)]
    nul = text.find("\x00")
    if nul >= 0:
        line, column = _line_col(text, nul)
        message = "binary data (a NUL character): not a YAML text file"
        return None, [Problem(name, line, column, "", message, Code.NOT_TEXT)]

    loader: _Loader | None = None
    try:
        loader = _Loader(text)  # checks for unprintable characters first
        root = loader.get_single_node()
        if root is not None:
            _check_expansion(root)
    except _Limit as exc:
        return None, [Problem(name, exc.mark.line, exc.mark.column, "", exc.message, exc.code)]
    except yaml.MarkedYAMLError as exc:
        mark = Mark.of(exc.problem_mark or exc.context_mark)
        return None, [
            Problem(name, mark.line, mark.column, "", _yaml_message(exc), Code.YAML_SYNTAX)
        ]
    except yaml.reader.ReaderError as exc:
        line, column = _line_col(text, exc.position)
        char = exc.character if isinstance(exc.character, int) else ord(exc.character)
        message = f"unacceptable character #x{char:04x}: {exc.reason}"
        return None, [Problem(name, line, column, "", message, Code.YAML_SYNTAX)]
    except yaml.YAMLError as exc:  # pragma: no cover - every PyYAML error is one of the above
        return None, [Problem(name, 1, 1, "", f"cannot read YAML: {exc}", Code.YAML_SYNTAX)]

    assert loader is not None
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

    def __init__(self, loader: _Loader, file: str) -> None:
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


def _check_expansion(root: Node) -> None:
    """Refuse a document whose aliases expand to too many values, or refer to themselves.

    Sizes are memoised per node, so the check costs one visit per distinct node however large
    the expansion would be.
    """
    sizes: dict[int, int] = {}
    active: set[int] = set()

    def size(node: Node, depth: int) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        where = Mark.of(node.start_mark)
        if key in active:
            raise _Limit(Code.RECURSIVE_ALIAS, where, "an alias refers to a value that contains it")
        if depth > MAX_DEPTH:
            message = f"nested more than {MAX_DEPTH} levels deep once aliases expand"
            raise _Limit(Code.TOO_DEEP, where, message)
        active.add(key)
        total = 1
        children: list[Node] = []
        if isinstance(node, SequenceNode):
            children = list(node.value)
        elif isinstance(node, MappingNode):
            children = [n for pair in node.value for n in pair]
        for child in children:
            total += size(child, depth + 1)
            if total > MAX_NODES:
                raise _Limit(
                    Code.TOO_MANY_ALIASES,
                    where,
                    f"aliases here expand to more than {MAX_NODES} values "
                    "(a 'billion laughs' document?); a ruleset has about 150",
                )
        active.discard(key)
        sizes[key] = total
        return total

    size(root, 0)


def _too_large(size: int) -> str:
    return f"file is {size} bytes; a ruleset may be at most {MAX_BYTES} bytes (256 KiB)"


def _line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


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


def _yaml_message(exc: yaml.MarkedYAMLError) -> str:
    problem = exc.problem or "invalid YAML"
    where = Mark.of(exc.context_mark)
    if exc.context and exc.context_mark is not None and where != Mark.of(exc.problem_mark):
        if problem.startswith("but "):  # "expected X (there), but found Y" reads in that order
            return f"{exc.context} (line {where.line}, column {where.column}), {problem}"
        return f"{problem} ({exc.context} at line {where.line}, column {where.column})"
    if exc.context:
        return f"{problem} ({exc.context})"
    return problem
