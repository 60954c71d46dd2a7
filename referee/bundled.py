"""Where the bundled rulesets and conformance cases are.

They live at the top of the repository (``rules/``, ``conformance/``), where a ruleset's
author and a conformance runner look for them, and a checkout or an editable install reads
them there.  A wheel cannot reach outside its packages, so its build copies both folders
into the package as ``referee/bundled/`` (``setup.py``); an installed referee reads that
copy.  The copy wins where it exists: an installed package must never read a ``rules/``
folder that merely happens to sit beside it in site-packages.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """``rules`` or ``conformance``: the installed copy, or else the checkout's folder."""
    installed = _PACKAGE / "bundled" / name
    return installed if installed.is_dir() else _PACKAGE.parent / name


RULES = data_dir("rules")
CONFORMANCE = data_dir("conformance")
RULESET_SCHEMA = RULES / "schema" / "ruleset.schema.json"
CATALOGUE = RULES / "catalogue.yaml"
"""The clause catalogue: not a ruleset, though it sits beside them (the loader skips it)."""
CATALOGUE_SCHEMA = RULES / "schema" / "catalogue.schema.json"
RULESET_VARIANT_SCHEMA = RULES / "schema" / "ruleset-variant.schema.json"
