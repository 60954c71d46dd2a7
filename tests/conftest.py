"""Shared fixtures.  The plain functions live in ``helpers.py`` so that tests can import them."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

import pytest
from helpers import load_rules as _load_rules
from postgres_helpers import PostgresUnavailable, fresh_postgres_schema, skip_or_fail

from referee.ruleset.model import Ruleset


@pytest.fixture
def load_rules() -> Callable[[str], Ruleset]:
    """``load_rules(id) -> Ruleset``: the loader when importable, else the YAML resolved here."""
    return _load_rules


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A URL of a fresh PostgreSQL schema of its own (dropped afterwards); skips the test
    when no server is reachable, fails it instead under ``BHABHI_REQUIRE_POSTGRES=1``.
    See ``postgres_helpers.fresh_postgres_schema`` for more schemas in one test."""
    with contextlib.ExitStack() as stack:
        try:
            url = stack.enter_context(fresh_postgres_schema())
        except PostgresUnavailable as error:
            skip_or_fail(error)
        yield url
