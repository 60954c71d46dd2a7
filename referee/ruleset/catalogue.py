"""The clause catalogue: what the IDs that rulesets, options, cases and tests cite mean.

Every rule the project cites by ID (C1, P2, B8, X1, H17 ...) is written down in
``rules/catalogue.yaml`` in the project's own words, with its sources and, where the sources
differ, the choices a ruleset has.  The file is checked against its own schema
(``rules/schema/catalogue.schema.json``) and ships with the package like the rulesets
(``referee/bundled.py``); ``docs/catalogue.md`` and ``bhabhi rules clauses`` are read from it.

It is the project's own data, not a person's upload, so PyYAML's safe loader is enough here
(the hardened reader of :mod:`referee.ruleset.yamlsafe` reads one mapping per file, and a
ruleset's size limits, neither of which fits a list of seventy clauses).  A catalogue that
does not check out raises :class:`CatalogueError`: a broken catalogue is a packaging fault.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator

from referee import bundled

__all__ = [
    "CATALOGUE_PATH",
    "CATALOGUE_SCHEMA_PATH",
    "CITED_ID",
    "FAMILIES",
    "CatalogueError",
    "Clause",
    "cited_ids",
    "family_of",
    "load_catalogue",
]

CATALOGUE_PATH = bundled.CATALOGUE
CATALOGUE_SCHEMA_PATH = bundled.CATALOGUE_SCHEMA

FAMILIES: dict[str, str] = {
    "C": "Common to all variants",
    "P": 'Pick-up version, "standard Indian"',
    "D": "Discard version",
    "V": "Named variations of the How to Play document",
    "B": "Bhabho / Laad / Get Away",
    "X": "Further house rules seen in public write-ups",
    "H": "House rules seen in the wild",
}
"""The clause families by ID letter, in catalogue order."""

CITED_ID = re.compile(r"(?<![A-Za-z0-9])([CPDVBXH][1-9][0-9]*)(?![0-9A-Za-z])")
"""A clause ID as written in prose, code names and test names: ``B8``, ``test_H27_…``, both ends
of ``P1-P3``; not the ``C`` of ``CSafeLoader`` nor ``v1``."""


class CatalogueError(ValueError):
    """The catalogue file is unreadable or breaks its schema; the message lists every fault."""


@dataclass(frozen=True, slots=True)
class Clause:
    """One rule clause, as ``rules/catalogue.yaml`` writes it."""

    id: str
    title: str
    text: str
    """The rule in plain words."""
    sources: tuple[str, ...]
    """The rule documents (title and languages), or the write-ups a house rule was seen in."""
    disagreement: str | None = None
    """Where the sources differ or leave the rule open, and what the choices are."""
    note: str | None = None
    """Further facts, such as how the rule behaved over many measured games."""

    @property
    def family(self) -> str:
        """The heading of the clause's family (``Common to all variants`` for C1)."""
        return FAMILIES[family_of(self.id)]

    def as_json(self) -> dict[str, Any]:
        """The clause as the catalogue file writes it (absent fields left out)."""
        data: dict[str, Any] = {
            "id": self.id,
            "title": self.title,
            "text": self.text,
            "sources": list(self.sources),
        }
        if self.disagreement is not None:
            data["disagreement"] = self.disagreement
        if self.note is not None:
            data["note"] = self.note
        return data


def family_of(clause_id: str) -> str:
    """The family letter of a clause ID (``C`` for ``C12``)."""
    return clause_id[:1]


def cited_ids(text: str) -> list[str]:
    """Every clause ID written in ``text``, in order (see :data:`CITED_ID`)."""
    return CITED_ID.findall(text)


def load_catalogue(path: Path = CATALOGUE_PATH) -> dict[str, Clause]:
    """Every clause, id to clause, in catalogue order; raises CatalogueError.

    The file is read once; every call returns a new dict, so that a caller may change its own.
    """
    return {clause.id: clause for clause in _read(path)}


@cache
def _read(path: Path) -> tuple[Clause, ...]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise CatalogueError(f"{path}: cannot read the clause catalogue: {exc}") from exc
    faults = _schema_faults(data)
    if not faults:
        faults = _duplicate_faults(entry["id"] for entry in data)
    if faults:
        raise CatalogueError(f"{path}: " + "; ".join(faults))
    return tuple(_clause(entry) for entry in data)


def _schema_faults(data: Any) -> list[str]:
    schema = json.loads(CATALOGUE_SCHEMA_PATH.read_text(encoding="utf-8"))
    errors = sorted(Draft202012Validator(schema).iter_errors(data), key=lambda e: list(e.path))
    return [f"{'.'.join(map(str, e.path)) or 'catalogue'}: {e.message}" for e in errors]


def _duplicate_faults(ids: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    faults = []
    for clause_id in ids:
        if clause_id in seen:
            faults.append(f"{clause_id} is written more than once")
        seen.add(clause_id)
    return faults


def _clause(entry: dict[str, Any]) -> Clause:
    return Clause(
        id=entry["id"],
        title=entry["title"],
        text=entry["text"],
        sources=tuple(entry["sources"]),
        disagreement=entry.get("disagreement"),
        note=entry.get("note"),
    )
