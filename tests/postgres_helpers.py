"""A fresh PostgreSQL schema per test, so that tests (and pytest-xdist workers) never meet.

``fresh_postgres_schema()`` creates ``bhabhi_test_<random>`` on the test server, yields a URL
whose ``options=-csearch_path%3D<schema>`` makes every connection made from it use that
schema (the stores create their tables there), and drops the schema afterwards.  The server
is ``postgresql://127.0.0.1:5432/test`` unless ``BHABHI_TEST_POSTGRES`` names another.

If the server cannot be reached, ``PostgresUnavailable`` says so; ``skip_or_fail`` turns that
into a skipped test on a developer's machine without PostgreSQL, and into a failure where
``BHABHI_REQUIRE_POSTGRES=1`` (CI: ``.ci/run``), so that CI never passes by skipping.
The ``postgres_url`` fixture in ``conftest.py`` does both for the common case.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import NoReturn

import psycopg
import pytest

from referee.server.store.postgres import PostgresUnreachable, scratch_schema

DEFAULT_URL = "postgresql://127.0.0.1:5432/test"
URL_VARIABLE = "BHABHI_TEST_POSTGRES"
REQUIRE_VARIABLE = "BHABHI_REQUIRE_POSTGRES"


class PostgresUnavailable(Exception):
    """The test server cannot be reached (the message says where, why, and what to set)."""


def postgres_server_url() -> str:
    return os.environ.get(URL_VARIABLE) or DEFAULT_URL


@contextlib.contextmanager
def fresh_postgres_schema(server: str | None = None) -> Iterator[str]:
    """A URL of a new, empty schema on ``server`` (default: the test server), dropped with
    everything in it on exit.  Usable outside pytest fixtures, several at once."""
    with contextlib.ExitStack() as stack:
        try:
            url = stack.enter_context(
                scratch_schema(server or postgres_server_url(), "bhabhi_test")
            )
        except PostgresUnreachable as error:
            raise PostgresUnavailable(
                f"{error}; set {URL_VARIABLE} to the URL of a server where this user may"
                " create schemas"
            ) from error
        yield url


def skip_or_fail(error: PostgresUnavailable) -> NoReturn:
    """Skip the test, unless PostgreSQL is required here (CI): then fail it."""
    if os.environ.get(REQUIRE_VARIABLE, "") == "1":
        pytest.fail(f"{error} ({REQUIRE_VARIABLE}=1: PostgreSQL is required here)")
    pytest.skip(str(error))


def schema_of(url: str) -> str:
    """The schema a ``fresh_postgres_schema`` URL uses."""
    options = psycopg.conninfo.conninfo_to_dict(url)["options"]
    return str(options).rsplit("-csearch_path=", 1)[1].split()[0]
