"""A bot in another language plays in ``bhabhi arena``: clients/node/bot.js, from the .proto
alone, entered as an external program (``NAME=cmd:node bot.js --target {target} ...``) or
as a bot already connected (``NAME=bot:KEY``).

The arena creates each table, takes every seat and deals, then starts the program per seat
with the seat's credential; the results are read back from the referee's own record of the
table.  Two leagues of bhabho with 3 players, each ``bhabhi arena --json`` in a subprocess
(with the arena's own referee, in its process):

* the Node.js bot with both its strategies beside the built-in heuristic plays every hand
  of 2 deals to the end, without one failure;
* bots failing on purpose (``--crash-after``, ``--stall-after``, ``--garbage-after``) are
  played on by the 1 s turn clock and counted: the crashing one as a crash in every hand
  (its exit code and last line of standard error), the stalling one in timeouts and, as it
  never exits, as a crash "still running after the session was over" (the arena stops it
  5 s after the session), the garbage one in timeouts only (every action it sent was
  refused, else it would have exited with an error).  Once all three have failed, the
  referee closes each table as abandoned after two rounds of clocks.

A third league has the Node.js bot already connected (``--await-key KEY --max-seats 6``,
started before the league and read until it says it is waiting) on a referee the test runs
in its process, and ``bhabhi arena --target`` that referee with the entrant
``mine=bot:KEY``: the arena hands the bot its seat at each table (``HandSeat``), 2 tables
at once, and the bot plays all 6 hands without one failure and exits 0.  Seats may also be
handed before their table starts, when there is no view yet: the bot, handed every seat of a
1-hand table that is then started, plays the three of them to the hand's end.

Measured (``pytest --durations=0 tests/test_node_bot.py``, the shared 2-core machine): 8.9 to
14.2 s, 19.5 to 20.0 s, 5.5 to 6.1 s and 2.5 s, 46.3 s in all at the slowest of three runs.
Skipped only when ``node`` or ``npm`` is missing.
"""

from __future__ import annotations

import asyncio
import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

from bhabhi.referee.v1 import referee_pb2 as pb
from bhabhi_client.client import Client
from nodejs import CLIENT, NODE, ROOT, needs_node, npm_ci
from test_client import BackgroundReferee

pytestmark = needs_node

SEED = "node-bot"


def _bot(*flags: str) -> str:
    """The command of an external entrant running bot.js for the seat it is given."""
    assert NODE is not None
    words = [NODE, str(CLIENT / "bot.js"), "--target", "{target}", "--table", "{table}"]
    return "cmd:" + shlex.join([*words, "--token", "{token}", *flags])


def _arena(tmp_path: Path, entrants: list[str], *options: str) -> dict[str, Any]:
    """``bhabhi arena`` on bhabho with 3 players (its own referee unless ``--target`` is in
    ``options``): the --json document."""
    npm_ci()
    out = tmp_path / "league.json"
    command = [
        sys.executable,
        "-m",
        "referee",
        "arena",
        "--rules",
        "bhabho",
        "--players",
        "3",
        "--entrants",
        ",".join(entrants),
        "--seed",
        SEED,
        "--json",
        str(out),
        *options,
    ]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"{result.stdout}\n{result.stderr}"
    document: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return document


def _every_entrant_played_every_hand(document: dict[str, Any], deals: int) -> None:
    names = [entrant["name"] for entrant in document["entrants"]]
    hands = document["hands"]
    assert sorted((h["deal"], h["rotation"]) for h in hands) == [
        (d, r) for d in range(deals) for r in range(3)
    ]
    for hand in hands:
        assert sorted(hand["seats"]) == sorted(names)
        assert hand["seed"] == f"{SEED}:{hand['deal']}"  # the deal seed of its deal
    for entrant in document["entrants"]:
        assert entrant["hands"] == deals * 3


def test_the_node_bot_plays_a_league_without_failing(tmp_path: Path) -> None:
    """Both strategies play every turn in time with a legal action: no timeout, no crash,
    every hand ended by the cards (its seed revealed)."""
    entrants = [
        "heuristic",
        f"node={_bot()}",
        f"node-random={_bot('--strategy', 'random', '--seed', '{seat}')}",
    ]
    document = _arena(tmp_path, entrants, "--deals", "2", "--turn-time", "5")
    _every_entrant_played_every_hand(document, deals=2)
    for entrant in document["entrants"]:
        assert (entrant["timeouts"], entrant["crashes"]) == (0, 0), entrant
    for hand in document["hands"]:
        assert hand["termination"] != "ABANDONED"
        assert hand["hand_seed"] == f"{SEED}:{hand['deal']}:0"
        assert hand["timeouts"] == [0, 0, 0] and hand["crashes"] == []


def test_bots_failing_on_purpose_are_played_on_by_the_clock_and_counted(tmp_path: Path) -> None:
    """Each failure is counted against the entrant that failed, in every hand, and the
    league goes on."""
    entrants = [
        f"crash={_bot('--crash-after', '1')}",
        f"stall={_bot('--stall-after', '2')}",
        f"garbage={_bot('--garbage-after', '1')}",
    ]
    document = _arena(tmp_path, entrants, "--deals", "1", "--turn-time", "1", "--parallel", "3")
    _every_entrant_played_every_hand(document, deals=1)
    by_name = {entrant["name"]: entrant for entrant in document["entrants"]}
    assert by_name["crash"]["crashes"] == by_name["crash"]["hands"] == 3
    assert by_name["crash"]["timeouts"] > 0
    assert by_name["stall"]["timeouts"] > 0
    assert by_name["stall"]["crashes"] == 3
    assert by_name["garbage"]["timeouts"] > 0
    assert by_name["garbage"]["crashes"] == 0
    for hand in document["hands"]:
        why = {crash["entrant"]: crash["why"] for crash in hand["crashes"]}
        assert why == {
            "crash": "exited with 3: bot.js: crashing on purpose after 1 action(s) (--crash-after)",
            "stall": "still running after the session was over",
        }
        # Nobody acts once all three failed: the referee closes the table, no seed revealed.
        assert (hand["termination"], hand["hand_seed"]) == ("ABANDONED", "")
        # ...after the clocks ran out two rounds' worth of turns in a row (the referee's
        # default --abandon-after-rounds, counted in turns: whoever takes the trick leads
        # the next, so one seat may time out more often than another).
        assert sum(hand["timeouts"]) >= 2 * 3 and min(hand["timeouts"]) >= 1, hand


BOT_KEY = "node-bot-waiting-key-0001"


def _waiting_bot(target: str, max_seats: int) -> subprocess.Popen[str]:
    """bot.js waiting under BOT_KEY on ``target``, once it has said so."""
    npm_ci()
    assert NODE is not None
    waiting = ["--target", target, "--await-key", BOT_KEY, "--max-seats", str(max_seats)]
    bot = subprocess.Popen(
        [NODE, str(CLIENT / "bot.js"), *waiting],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert bot.stdout is not None
    line = bot.stdout.readline()
    if line != f"waiting for seats at {target}\n":
        bot.kill()
        raise AssertionError(f"{line!r} {bot.communicate()}")
    return bot


def _finish(bot: subprocess.Popen[str]) -> tuple[str, str]:
    """The waiting bot's standard output and error once it exited (killed after 60 s)."""
    try:
        return bot.communicate(timeout=60)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()


def test_the_node_bot_already_connected_is_handed_its_seats_and_plays_them(
    tmp_path: Path,
) -> None:
    """The Node.js bot waits under its key (``--await-key``) before the league, on the
    referee the arena plays on; the arena hands it its seat at every table (2 at once) and
    it plays all 6 of them without one failure, then exits 0 (``--max-seats 6``)."""
    referee = BackgroundReferee()
    try:
        bot = _waiting_bot(referee.target, max_seats=6)
        try:
            entrants = ["heuristic", "heuristic", f"mine=bot:{BOT_KEY}"]
            options = ["--deals", "2", "--turn-time", "5", "--target", referee.target]
            document = _arena(tmp_path, entrants, *options)
        finally:
            out, err = _finish(bot)
    finally:
        referee.close()
    assert bot.returncode == 0, err
    _every_entrant_played_every_hand(document, deals=2)
    by_name = {entrant["name"]: entrant for entrant in document["entrants"]}
    assert (by_name["mine"]["timeouts"], by_name["mine"]["crashes"]) == (0, 0)
    for hand in document["hands"]:
        assert hand["termination"] != "ABANDONED" and hand["crashes"] == []
    # A line per seat handed and one per seat finished, each table once.
    tables = {hand["table_id"] for hand in document["hands"]}
    handed = [line for line in out.splitlines() if line.startswith("mine: seat ")]
    finished = [line for line in out.splitlines() if line.endswith(" action(s)")]
    assert {line.rsplit(" ", 1)[1] for line in handed} == tables
    assert len(handed) == len(finished) == 6, out


def test_seats_handed_before_the_table_starts_are_played_once_it_does() -> None:
    """Every seat of a table, handed to the waiting bot while the table is open (no view
    yet): the one process plays all three seats of the hand to its end."""
    referee = BackgroundReferee()

    async def hand_every_seat_then_start() -> pb.Table:
        async with Client(referee.target) as client:
            table = await client.create_table("bhabho", 3, hands=1, turn_time=5)
            seats = [await client.join(table.table_id, f"p{i}", seat=i) for i in range(3)]
            for seat in seats:
                await seat.hand_to(BOT_KEY)
            await asyncio.sleep(1)  # the bot looks at each seat before the table starts
            await seats[0].start()
            for _ in range(600):
                table = await client.get_table(table.table_id)
                if table.status == pb.TABLE_STATUS_FINISHED:
                    return table
                await asyncio.sleep(0.1)
            return table

    try:
        bot = _waiting_bot(referee.target, max_seats=3)
        try:
            table = asyncio.run(hand_every_seat_then_start())
        finally:
            out, err = _finish(bot)
    finally:
        referee.close()
    assert bot.returncode == 0, err
    assert table.status == pb.TABLE_STATUS_FINISHED
    finished = [line for line in out.splitlines() if line.endswith(" action(s)")]
    assert sorted(line.split(": ")[1] for line in finished) == [
        f"p{i} (seat {i})" for i in range(3)
    ], out
