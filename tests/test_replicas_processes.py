"""Three ``bhabhi serve`` processes over one PostgreSQL schema, one of them killed.

``bhabhi drill`` (``referee/ops/drill.py``) does what a site would do before trusting
replicas: clients of one table spread over every replica and failing over, one replica
killed with SIGKILL mid-game and restarted, then every stream, every acknowledged move and
every record checked against the engine.  Here it runs small.
"""

from __future__ import annotations

import asyncio

import pytest
from postgres_helpers import PostgresUnavailable, fresh_postgres_schema, skip_or_fail

from referee import cli
from referee.ops.drill import drill

DEADLINE = 240.0
"""Three processes and PostgreSQL share two cores with the rest of the suite; about 10 s on
an idle machine."""


def test_three_replicas_one_killed_and_restarted_nothing_lost() -> None:
    try:
        with fresh_postgres_schema() as url:
            lines: list[str] = []
            report = asyncio.run(
                asyncio.wait_for(
                    drill(url, tables=8, kill_after=150, restart_after=300, out=lines.append),
                    DEADLINE,
                )
            )
    except PostgresUnavailable as error:
        skip_or_fail(error)
    assert report.passed, "\n".join(lines)
    assert report.killed_at >= 150 and report.restarted_at >= 300, lines
    assert report.failovers > 0, "nobody noticed the kill"
    assert report.moves > report.restarted_at  # the games went on after the restart


def test_the_drill_refuses_what_it_cannot_do(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["drill", "--replicas", "1"]) == 2
    assert "--replicas must be at least 2" in capsys.readouterr().out
    assert cli.main(["drill", "--kill-after", "50", "--restart-after", "20"]) == 2
    assert "kill-after < restart-after" in capsys.readouterr().out
    code = cli.main(["drill", "--postgres", "postgresql://127.0.0.1:1/none", "--tables", "1"])
    assert code == 1
    assert "PostgreSQL not reachable at postgresql://127.0.0.1:1/none" in capsys.readouterr().out
