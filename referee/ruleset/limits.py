"""The limits on a ruleset file, and how its YAML is counted against them: the one place that
defines them for the loader, the CLI and the referee.

Rulesets reach the referee from the network (``ValidateRuleset``, ``RegisterRuleset``), so the
loader refuses, before it builds anything large, a file that no ruleset needs to be and that
would cost the referee time or memory.  Each limit has a problem code of its own; the problem
says which limit was exceeded and its value, and is located where the file exceeds it:

* ``max_bytes`` 262,144 (256 KiB), ``too_large``: bytes of the file as UTF-8.
* ``max_depth`` 64, ``too_deep``: mappings and lists a value may sit inside, the file's own
  mapping being the first, and aliases expanded.
* ``max_nodes`` 1,000, ``too_many_nodes``: values written (every key, scalar, mapping and list;
  a list item or a mapping's value is one of these).  Once every alias is replaced by what it
  names, the same limit gives ``alias_expansion`` (a "billion laughs" document).
* ``max_aliases`` 100, ``too_many_aliases``: alias uses (``*name``).
* ``max_scalar_chars`` 10,000, ``scalar_too_long``: characters in one key or value.
* ``max_extends_depth`` 16, ``too_deep``: rulesets in one ``extends`` chain.

The bundled rulesets are far inside every limit: at most 2,658 bytes, nesting 3, 148 values, no
alias, 270 characters in a value and ``extends`` chains of 2.  ``max_nodes`` also bounds the
work after parsing: the schema's errors (about 30 µs each) for every value of a file cost well
under 100 ms.

After the size, the limits are counted on the YAML event stream by :func:`first_exceeded`, which
stops at the first limit exceeded: a file exceeding one gets that one problem and no other, and
is refused after reading at most ``max_nodes`` values, in a few milliseconds whatever its shape.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    DocumentEndEvent,
    Event,
    NodeEvent,
    ScalarEvent,
    StreamEndEvent,
)

from referee.ruleset.problems import Code


@dataclass(frozen=True, slots=True)
class RulesetLimits:
    """How large a ruleset file may be, and how deep, wide and repetitive its YAML."""

    max_bytes: int = 256 * 1024
    max_depth: int = 64
    max_nodes: int = 1_000
    max_aliases: int = 100
    max_scalar_chars: int = 10_000
    max_extends_depth: int = 16


LIMITS = RulesetLimits()
"""The limits every ruleset is loaded under."""


@dataclass(frozen=True, slots=True)
class Exceeded:
    """The first limit a document exceeds: its problem code, where (1-based) and why."""

    code: Code
    line: int
    column: int
    message: str


class Events(Protocol):
    """A YAML parser: PyYAML's, or libyaml's through PyYAML."""

    def get_event(self) -> Event | None: ...


def first_exceeded(events: Events, limits: RulesetLimits = LIMITS) -> Exceeded | None:
    """The first limit the first document of ``events`` exceeds, or ``None``.

    Reads events, never nodes: an alias counts as the values and the levels of what it names,
    so the expansion of a "billion laughs" is counted, not built.  An alias to no anchor is
    refused here too (as ``yaml_syntax``, naming it), since its size is unknown.  Raises
    PyYAML's errors for text that is not YAML.
    """
    census = _Census(limits)
    while True:
        event = events.get_event()
        if event is None or isinstance(event, DocumentEndEvent | StreamEndEvent):
            return None
        exceeded = None
        if isinstance(event, CollectionEndEvent):
            census.close()
        elif isinstance(event, AliasEvent):
            exceeded = census.alias(event)
        elif isinstance(event, NodeEvent):  # a scalar, or the start of a mapping or list
            exceeded = census.value(event)
        if exceeded is not None:
            return exceeded


def too_deep(mark: Any, limits: RulesetLimits = LIMITS, alias: str | None = None) -> Exceeded:
    """``max_depth`` exceeded at a PyYAML mark (by an alias's expansion when one is named)."""
    message = (
        f"nested inside more than {limits.max_depth} mappings and lists (the file's own "
        "mapping is the first); a ruleset needs 3"
    )
    if alias is not None:
        message += f", once alias *{alias} expands"
    return _at(mark, Code.TOO_DEEP, message)


@dataclass(slots=True)
class _Open:
    """A mapping or list whose end event has not come yet."""

    anchor: str | None
    mark: Any
    start: int
    """Values counted (aliases expanded) before this one."""
    height: int = 0
    """Levels nested below it so far, aliases expanded."""


class _Census:
    """Counts what the events of one document add up to, and says which limit they exceed."""

    def __init__(self, limits: RulesetLimits) -> None:
        self.limits = limits
        self.written = 0
        self.aliases = 0
        self.expanded = 0
        """Values so far with every alias replaced by what it names."""
        self.open: list[_Open] = []
        self.anchors: dict[str, tuple[int, int]] = {}
        """Anchor name -> the values and the levels below of what it names, aliases expanded."""

    def value(self, event: NodeEvent) -> Exceeded | None:
        limits, mark = self.limits, event.start_mark
        self.written += 1
        self.expanded += 1
        if len(self.open) > limits.max_depth:
            return too_deep(mark, limits)
        if self.written > limits.max_nodes:
            message = (
                f"more than {limits.max_nodes} values (keys, scalars, mappings and lists); "
                "a ruleset has about 150"
            )
            return _at(mark, Code.TOO_MANY_NODES, message)
        if self.expanded > limits.max_nodes:
            return _at(mark, Code.ALIAS_EXPANSION, _expansion_message(limits))
        anchor = None if event.anchor is None else str(event.anchor)
        if not isinstance(event, ScalarEvent):
            self.open.append(_Open(anchor, mark, self.expanded - 1))
            return None
        if len(event.value) > limits.max_scalar_chars:
            message = (
                f"a value of {len(event.value)} characters; a ruleset's keys and values may be "
                f"at most {limits.max_scalar_chars} characters long"
            )
            return _at(mark, Code.SCALAR_TOO_LONG, message)
        if anchor is not None:
            self.anchors[anchor] = (1, 0)
        self._nested(0)
        return None

    def alias(self, event: AliasEvent) -> Exceeded | None:
        limits, mark, name = self.limits, event.start_mark, str(event.anchor)
        self.aliases += 1
        if self.aliases > limits.max_aliases:
            message = f"more than {limits.max_aliases} aliases; a ruleset needs few or none"
            return _at(mark, Code.TOO_MANY_ALIASES, message)
        around = next((o for o in self.open if o.anchor == name), None)
        if around is not None:
            message = (
                f"alias *{name} refers to the value anchored &{name} at line "
                f"{around.mark.line + 1}, column {around.mark.column + 1}, which contains it"
            )
            return _at(mark, Code.RECURSIVE_ALIAS, message)
        if name not in self.anchors:
            return _at(mark, Code.YAML_SYNTAX, f"found undefined alias {name!r}")
        size, height = self.anchors[name]
        if len(self.open) + height > limits.max_depth:
            return too_deep(mark, limits, alias=name)
        self.expanded += size
        if self.expanded > limits.max_nodes:
            return _at(mark, Code.ALIAS_EXPANSION, _expansion_message(limits))
        self._nested(height)
        return None

    def close(self) -> None:
        done = self.open.pop()
        self._nested(done.height)
        if done.anchor is not None:
            self.anchors[done.anchor] = (self.expanded - done.start, done.height)

    def _nested(self, height: int) -> None:
        """A value ``height`` levels tall ends inside the innermost open mapping or list."""
        if self.open:
            self.open[-1].height = max(self.open[-1].height, height + 1)


def _at(mark: Any, code: Code, message: str) -> Exceeded:
    return Exceeded(code, mark.line + 1, mark.column + 1, message)


def _expansion_message(limits: RulesetLimits) -> str:
    return (
        f"aliases expand the document to more than {limits.max_nodes} values "
        "(a 'billion laughs' document?); a ruleset has about 150"
    )
