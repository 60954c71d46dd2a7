"""The catalogue's page, ``docs/catalogue.md``, written from ``rules/catalogue.yaml``.

A test fails when the page is stale, and ``bhabhi rules clauses --markdown > docs/catalogue.md``
brings it up to date.  Every clause gets the anchor of its lower-case ID (``#c1``, ``#h17``), so
that other pages can link to ``docs/catalogue.md#b8``; an ID named in a clause's text links to
that clause.  The ruleset options that decide a clause are read from the ruleset schema's
``x-clauses``, so the page shows them without a second list to keep in step.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from referee.ruleset.catalogue import CITED_ID, FAMILIES, Clause, family_of, load_catalogue
from referee.ruleset.schema import schema

_MARKUP = re.compile(r"([\\*_`<>\[\]])")


def anchor(clause_id: str) -> str:
    """The page's anchor for a clause: ``c1`` for C1."""
    return clause_id.lower()


def options_by_clause(ruleset_schema: Mapping[str, Any]) -> dict[str, list[str]]:
    """Clause ID to the dotted ruleset keys whose ``x-clauses`` name it, in schema order.

    A group of keys (``deck``) is listed for a clause only when none of its keys names that
    clause itself: ``deck.ace`` says more about V3 than ``deck`` does.
    """
    found: dict[str, list[str]] = {}

    def walk(properties: Mapping[str, Any], prefix: str) -> set[str]:
        named: set[str] = set()
        for name, sub in properties.items():
            path = prefix + name
            inner = walk(sub.get("properties", {}), path + ".")
            own = [c for c in sub.get("x-clauses", []) if c not in inner]
            for clause_id in own:
                found.setdefault(clause_id, []).append(path)
            named |= inner | set(own)
        return named

    walk(ruleset_schema["properties"], "")
    return found


def render() -> str:
    catalogue = load_catalogue()
    options = options_by_clause(schema())
    lines = [
        "# Rule clauses",
        "",
        "Generated from `rules/catalogue.yaml` by `bhabhi rules clauses --markdown`; do not edit",
        "by hand. `bhabhi rules clauses [ID ...]` prints the same clauses in a terminal.",
        "",
        "Every rule the project cites by ID is written here in the project's own words. Rulesets",
        "list the clauses they follow (`clauses`), every option of the ruleset format names the",
        "clauses it decides (`x-clauses`, shown under each clause below and in",
        "[ruleset-reference.md](ruleset-reference.md)), and conformance cases and tests name the",
        "clauses they exercise. C, P, D and V come from the How to Play document (English, with a",
        "German translation), B from the Bhabho / Laad / Get Away document (German, with a Polish",
        "translation); X and H are house rules seen in public write-ups and open-source",
        "implementations. Where the sources differ or leave a rule open, the choice is a ruleset",
        "option, never a fixed rule of the engine.",
        "",
    ]
    by_family: dict[str, list[Clause]] = {}
    for clause in catalogue.values():
        by_family.setdefault(family_of(clause.id), []).append(clause)
    for letter, clauses in by_family.items():
        links = " ".join(f"[{c.id}](#{anchor(c.id)})" for c in clauses)
        lines.append(f"- {FAMILIES[letter]} ({letter}): {links}")
    for letter, clauses in by_family.items():
        lines += ["", f"## {FAMILIES[letter]} ({letter})"]
        for clause in clauses:
            lines += ["", *_clause_lines(clause, catalogue, options.get(clause.id, []))]
    return "\n".join(lines) + "\n"


def _clause_lines(clause: Clause, catalogue: Mapping[str, Clause], options: list[str]) -> list[str]:
    def prose(text: str) -> str:
        escaped = _MARKUP.sub(r"\\\1", text)
        return CITED_ID.sub(lambda m: _link(m.group(1), clause.id, catalogue), escaped)

    lines = [f'### <a id="{anchor(clause.id)}"></a>{clause.id} {prose(clause.title)}', ""]
    lines.append(prose(clause.text))
    if clause.disagreement:
        lines += ["", f"*Where sources differ:* {prose(clause.disagreement)}"]
    if clause.note:
        lines += ["", f"*Note:* {prose(clause.note)}"]
    sources = [_MARKUP.sub(r"\\\1", source) for source in clause.sources]
    if len(sources) == 1:
        lines += ["", f"*Source:* {sources[0]}."]
    else:
        lines += ["", "*Sources:*", "", *(f"- {source}" for source in sources)]
    if options:
        lines += ["", "*Ruleset options:* " + ", ".join(f"`{o}`" for o in options) + "."]
    return lines


def _link(clause_id: str, own: str, catalogue: Mapping[str, Clause]) -> str:
    if clause_id == own or clause_id not in catalogue:
        return clause_id
    return f"[{clause_id}](#{anchor(clause_id)})"
