"""A ruleset and the ruleset it ``extends``, for a book that starts with how they differ.

The resolved ruleset no longer says what it was based on (``extends`` is applied and
dropped), so the base is read from the file as written and found as the loader finds it:
``ID.yaml`` beside the file, else a bundled ruleset.
"""

from __future__ import annotations

from pathlib import Path

from referee.ruleset.loader import find_ruleset, load_ruleset
from referee.ruleset.model import Ruleset
from referee.ruleset.yamlsafe import load_file


def with_base(ref: str | Path) -> tuple[Ruleset, Ruleset | None]:
    """The ruleset ``ref`` names (a bundled id or a file) and its base, if it has one;
    raises RulesetError for either."""
    ruleset = load_ruleset(ref)
    path, name = find_ruleset(ref)
    document, _ = load_file(path, name)
    base_id = document.data.get("extends") if document is not None else None
    if not isinstance(base_id, str):
        return ruleset, None
    beside = path.parent / f"{base_id}.yaml"
    base_ref: str | Path = (
        beside if beside.is_file() and beside.resolve() != path.resolve() else base_id
    )
    return ruleset, load_ruleset(base_ref)
