"""Shared fixtures.  The plain functions live in ``helpers.py`` so that tests can import them."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from helpers import load_rules as _load_rules

from referee.ruleset.model import Ruleset


@pytest.fixture
def load_rules() -> Callable[[str], Ruleset]:
    """``load_rules(id) -> Ruleset``: the loader when importable, else the YAML resolved here."""
    return _load_rules
