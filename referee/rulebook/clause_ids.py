"""Which catalogue clauses a ruleset option's value states, read from the ruleset schema.

The schema is the one place: each option names the clauses it decides in ``x-clauses``, and
its description names, in parentheses right after a value (``\\`pickup\\` (P1): …``), the
clauses that value states.  A value whose description names none states the option's
clauses that no other value of it names (``deal.dealer_moves: clockwise`` states C5, the
values of H2 name H2); an option whose every clause belongs to another value states none.
The language files never repeat an ID.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from referee.ruleset.catalogue import CITED_ID
from referee.ruleset.schema import schema

Value = str | bool | int | None


@dataclass(frozen=True, slots=True)
class Option:
    """One leaf option of the ruleset format (``off_suit.play``) and what it may be."""

    path: str
    values: tuple[Value, ...]
    """Every enum value, or ``True, False``; empty for numbers and other free values."""
    kind: str
    """``enum``, ``boolean``, ``integer`` (``null`` allowed when ``nullable``), or ``other``."""
    nullable: bool
    clauses: tuple[str, ...]
    description: str
    minimum: int | None = None
    maximum: int | None = None


NOT_RULES = frozenset({"$schema", "id", "extends", "title", "description", "clauses", "sources"})
"""Top-level keys that name or describe a ruleset rather than set a rule."""


@cache
def options() -> tuple[Option, ...]:
    """Every rule option of the schema, in schema order."""
    return tuple(_walk(schema()["properties"], ""))


def option(path: str) -> Option:
    for found in options():
        if found.path == path:
            return found
    raise KeyError(path)


def _walk(properties: Mapping[str, Any], prefix: str) -> Iterator[Option]:
    for name, sub in properties.items():
        path = prefix + name
        if not prefix and name in NOT_RULES:
            continue
        if "properties" in sub:
            yield from _walk(sub["properties"], path + ".")
            continue
        types = sub.get("type")
        types = [types] if isinstance(types, str) else list(types or [])
        if "enum" in sub:
            kind, values = "enum", tuple(sub["enum"])
        elif "boolean" in types:
            kind, values = "boolean", (True, False)
        elif "integer" in types:
            kind, values = "integer", ()
        else:
            kind, values = "other", ()
        yield Option(
            path=path,
            values=values,
            kind=kind,
            nullable="null" in types,
            clauses=tuple(sub.get("x-clauses", ())),
            description=sub.get("description", ""),
            minimum=sub.get("minimum"),
            maximum=sub.get("maximum"),
        )


def _written(value: Value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _named(description: str, value: Value) -> tuple[str, ...]:
    """The IDs in the parentheses right after ``value`` in the description, up to a colon."""
    match = re.search(rf"`{re.escape(_written(value))}`\s*\(([^)]*)\)?", description)
    if match is None:
        return ()
    return tuple(dict.fromkeys(CITED_ID.findall(match.group(1).split(":")[0])))


@cache
def clauses_of(path: str, value: Value = None) -> tuple[str, ...]:
    """The clauses that ``path`` set to ``value`` states (numbers: the option's clauses)."""
    found = option(path)
    if not found.values:
        return found.clauses
    named = _named(found.description, value)
    if named:
        return named
    others = (other for other in found.values if other != value)
    claimed = {c for other in others for c in _named(found.description, other)}
    return tuple(c for c in found.clauses if c not in claimed)
