"""The API is usable by third parties: a Node.js client built from proto/ alone plays.

``clients/node/play.js`` loads the .proto files at run time (no generated code, nothing
from the Python client), seats every player of a table, plays whole sessions of random
legal moves of every seat the views list in ``to_act`` (every decision of the house rules
included: H12 trump, H14 draw, H20 agree or refuse, H22 pass, H23 chosen take, H25
challenge, H26 a card out of turn), tries every kind of refusal on the way (out of turn,
another seat, forged or missing credentials, illegal cards and decisions, retried, racing
and stale requests, malformed messages) and checks every message each seat received for
cards it could not know. See ``clients/node/README.md``.

``clients/node/attack.js`` repeats from outside, with the same loading code, every attack
found against the referee (hostile ruleset uploads while a table plays, table settings,
a CreateTable flood and the lobby after it, player names, streams of finished sessions,
reflection, SubmitAction refusals, credentials, retries, undecodable bytes); each must be
refused as documented and change nothing.

The referee runs as a subprocess (``bhabhi serve``) on a fresh SQLite file, never in test
mode (which would switch the CreateTable limit off); the one play.js plays at lets clients
register house variants (``--allow-register``), for the rulesets of clients/node/rules/.
``npm ci`` runs once per package-lock (a marker in node_modules remembers it). The tests
are skipped only when ``node`` or ``npm`` is missing.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from nodejs import CLIENT, NODE, ROOT, needs_node, npm_ci

from referee.ops.drill import LISTENING

pytestmark = needs_node


@contextmanager
def _serve(db: Path, *flags: str) -> Iterator[str]:
    """``bhabhi serve`` on a free port (port 0, read back from what it prints)."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    process = subprocess.Popen(
        [sys.executable, "-m", "referee", "serve", "--port", "0", "--db", str(db), *flags],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert process.stdout is not None
        deadline = time.monotonic() + 30
        port = 0
        seen: list[str] = []
        while not port:
            line = process.stdout.readline()
            if not line or time.monotonic() > deadline:
                raise AssertionError(f"bhabhi serve did not start:\n{''.join(seen)}")
            seen.append(line)
            found = LISTENING.search(line)
            if found:
                port = int(found.group(1))
        yield f"127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def referee(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    npm_ci()
    db = tmp_path_factory.mktemp("third-party") / "r.sqlite3"
    with _serve(db, "--allow-register") as target:
        yield target


@pytest.fixture
def attacked_referee(tmp_path: Path) -> Iterator[str]:
    """A referee of its own (the flood spends its address's CreateTable allowance), with
    the default limits, letting finished tables go after 1 s so that a stream "long after"
    reads the table back from the store."""
    npm_ci()
    with _serve(tmp_path / "r.sqlite3", "--keep-finished", "1") as target:
        yield target


@pytest.mark.parametrize(
    ("rules", "players", "hands", "always"),
    [
        ("bhabho", 4, 2, ()),
        ("pickup", 3, 2, ()),
        ("team", 4, 1, ()),
        # H17 shootout, H25 challenge (pickup_and_lead), H26 out of turn
        ("pagat-getaway", 4, 4, ()),
        ("zymbiotic", 4, 2, ()),  # X1, X2
        ("kazhutha", 4, 2, ()),  # H2, H8, H13, H30, counterclockwise
        # registered: H12 dealer_choice (named in every hand), H14 chosen, H20, H22, H23
        ("rules/node-house-decisions.yaml", 4, 6, ("trump x6", "ruleset registered x1")),
        # registered: H15, H16, H23 either_neighbour, H25 with the bhabhi penalty
        ("rules/node-house-draws.yaml", 3, 6, ("ruleset registered x1",)),
    ],
)
def test_node_client_plays_whole_sessions(
    referee: str, rules: str, players: int, hands: int, always: tuple[str, ...]
) -> None:
    """A whole session ends with every check met and no leak; ``always`` are counts every
    session of those rules shows in the summary (the rarer house-rule events, a draw or a
    challenge, depend on the deal: the summary counts them, the test does not ask for them)."""
    assert NODE is not None
    command = [
        NODE,
        str(CLIENT / "play.js"),
        "--target",
        referee,
        "--rules",
        rules,
        "--players",
        str(players),
        "--hands",
        str(hands),
        "--timeout",
        "100",  # a run takes a few seconds; the margin is for a loaded machine
    ]
    result = subprocess.run(command, cwd=CLIENT, capture_output=True, text=True, timeout=120)
    report = f"$ {' '.join(command)}\n{result.stdout}\n{result.stderr}"
    assert result.returncode == 0, report
    assert "leaks: 0" in result.stdout, report
    assert f"hands played: {hands}," in result.stdout, report
    counted = {
        item for line in result.stdout.splitlines() for item in line.partition(": ")[2].split(", ")
    }
    for item in always:
        assert item in counted, report


ATTACKS = (
    "validate_flood",
    "turn_time_1ns",
    "turn_time_0.5s",
    "hands_100000",
    "player_name_newline",
    "player_name_escape",
    "player_name_bidi",
    "player_name_41",
    "player_name_40",
    "watch_finished",
    "watch_finished_later",
    "reflection_v1",
    "reflection_v1alpha",
    "unknown_action_kind",
    "not_your_turn_turn",
    "forged_credential",
    "stolen_credential",
    "stale_seq",
    "retried_request_id",
    "garbage_bytes",
    "create_flood",
    "list_tables_paged",
)


def test_node_client_repeats_every_attack_and_each_is_refused(attacked_referee: str) -> None:
    """One line per attack, each ``ok``; the GetView latency figures of validate_flood are
    printed in its line and not judged."""
    assert NODE is not None
    command = [NODE, str(CLIENT / "attack.js"), "--target", attacked_referee, "--timeout", "200"]
    result = subprocess.run(command, cwd=CLIENT, capture_output=True, text=True, timeout=240)
    report = f"$ {' '.join(command)}\n{result.stdout}\n{result.stderr}"
    print(result.stdout)
    lines = result.stdout.splitlines()
    assert [line for line in lines if not line.startswith("ok ")] == [], report
    assert [line.split(":", 1)[0].removeprefix("ok ") for line in lines] == list(ATTACKS), report
    assert result.returncode == 0, report
