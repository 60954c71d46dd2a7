"""The format's reference page, written from the schema so that the two cannot drift apart.

``docs/ruleset-reference.md`` is this module's output; a test fails when it is stale, and
``bhabhi rules reference > docs/ruleset-reference.md`` brings it up to date.
"""

from __future__ import annotations

import json
from typing import Any

from referee.ruleset.schema import SCHEMA_PATH


def _kind(sub: dict[str, Any]) -> str:
    if "$ref" in sub:
        name = sub["$ref"].rsplit("/", 1)[-1]
        return "card" if name == "card" else "en/de/pl text"
    if "enum" in sub:
        return " \\| ".join(f"`{v}`" for v in sub["enum"])
    declared = sub.get("type", "")
    kind = " or ".join(declared) if isinstance(declared, list) else str(declared)
    if kind == "array":
        items = sub.get("items", {})
        return "list of " + ("ranks" if "enum" in items else "clause IDs")
    if kind in ("integer", "integer or null") and "minimum" in sub:
        kind += f" {sub['minimum']}–{sub['maximum']}" if "maximum" in sub else ""
    return kind


def render() -> str:
    schema: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    lines = [
        "# Ruleset format reference",
        "",
        "Generated from `rules/schema/ruleset.schema.json` by `bhabhi rules reference`; do not",
        "edit by hand. Clause IDs are those of the [clause catalogue](catalogue.md).",
        "",
        schema["description"],
        "",
        "| key | value | clauses | meaning |",
        "| --- | --- | --- | --- |",
    ]

    def walk(properties: dict[str, Any], prefix: str) -> None:
        for name, sub in properties.items():
            path = f"{prefix}{name}"
            clauses = ", ".join(sub.get("x-clauses", []))
            text = " ".join(sub.get("description", "").split()).replace("|", "\\|")
            lines.append(f"| `{path}` | {_kind(sub)} | {clauses} | {text} |")
            if sub.get("type") == "object" and "properties" in sub:
                walk(sub["properties"], path + ".")

    walk(schema["properties"], "")
    return "\n".join(lines) + "\n"
