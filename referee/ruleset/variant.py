"""The schema of a ruleset file as its author writes it, derived from the full schema.

``ruleset.schema.json`` describes a *resolved* ruleset, so a house variant that writes only
what differs from its base fails it (every key the base supplies is "required").  An editor
checks a file as it is typed, before any ``extends`` is resolved, so it needs a schema in
which nothing but ``id`` and ``extends`` is required and everything else is as in the full
schema: the same keys (misspelt ones are still unknown), types, enums, ranges and
descriptions.  Deriving that schema here, instead of keeping a second copy by hand, keeps
the two from drifting apart; ``rules/schema/ruleset-variant.schema.json`` is this module's
output (a test fails when it is stale), shipped so that editors find it offline.

Regenerate it with ``python -m referee.ruleset.variant > rules/schema/ruleset-variant.schema.json``.
"""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Mapping
from typing import Any

from referee import bundled
from referee.ruleset.schema import schema

VARIANT_SCHEMA_PATH = bundled.RULESET_VARIANT_SCHEMA
VARIANT_ID = "urn:bhabhi-as-data:schema:ruleset-variant"
VARIANT_REQUIRED = ["id", "extends"]


def variant_schema(full: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``full`` (the ruleset schema) with only ``id`` and ``extends`` required.

    Mappings merge key by key under ``extends``, so a variant may write one key of any
    mapping (``title: {en: ...}``, ``take_hand: {when: never}``): no ``required`` is kept at
    any depth.  Lists and scalars are replaced whole, so their checks stay as they are.
    """
    derived = _without_required(copy.deepcopy(dict(schema() if full is None else full)))
    return {
        "$schema": derived.pop("$schema"),
        "$id": VARIANT_ID,
        "$comment": "Generated from ruleset.schema.json by referee/ruleset/variant.py; "
        "do not edit by hand.",
        "title": "Bhabhi ruleset file, as written",
        "description": (
            "A ruleset file as its author writes it, before `extends` is resolved: a house "
            "variant names its base (`extends`) and its own `id`, and writes only what "
            "differs; every other key is optional, with the keys, values and descriptions of "
            "ruleset.schema.json. This checks the file alone; `bhabhi rules validate FILE` "
            "checks the ruleset it resolves to against ruleset.schema.json and the rules a "
            "schema cannot express."
        ),
        **{k: v for k, v in derived.items() if k not in ("$id", "title", "description")},
        "required": VARIANT_REQUIRED,
    }


def _without_required(node: Any, names: bool = False) -> Any:
    """``node`` with every ``required`` keyword dropped; ``names``: ``node`` maps property
    (or definition) names to schemas, so a property named ``required`` would stay."""
    if isinstance(node, dict):
        return {
            k: _without_required(v, k in ("properties", "$defs"))
            for k, v in node.items()
            if names or k != "required"
        }
    if isinstance(node, list):
        return [_without_required(v) for v in node]
    return node


def variant_schema_text() -> str:
    """The text of ``ruleset-variant.schema.json`` as this module writes it."""
    return json.dumps(variant_schema(), ensure_ascii=False, indent=2) + "\n"


if __name__ == "__main__":
    sys.stdout.write(variant_schema_text())
