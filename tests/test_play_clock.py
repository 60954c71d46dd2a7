"""The turn clock in ``bhabhi play``: the clock line, the timeout line, the redraw, and
whole games on clocked tables where the person does not answer."""

from __future__ import annotations

import asyncio
import functools
import io
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from bhabhi.referee.v1 import referee_pb2 as pb
from bhabhi_client.client import Client, SeatHandle
from bhabhi_client.game import (
    GameOptions,
    TerminalGame,
    clock_line,
    format_time_left,
    play_game,
    timed_out_line,
)
from bhabhi_client.rules import RulesProfile
from bhabhi_client.transcript import Narrator, Style
from server_helpers import referee

ROOT = Path(__file__).resolve().parent.parent
REDRAW = "\0337\033[1A\r"
"""Save the cursor, one line up, to its start: how the clock line is rewritten in place."""


def run_async(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """An ``async def`` test in a fresh loop with a deadline."""

    @functools.wraps(test)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        asyncio.run(asyncio.wait_for(test(*args, **kwargs), 60))

    return wrapper


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "referee", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
    )


# --- the clock line -------------------------------------------------------------------------


def test_the_time_left_is_rounded_up_and_shown_in_minutes_from_a_minute() -> None:
    assert format_time_left(27.0) == "27 s"
    assert format_time_left(26.2) == "27 s"
    assert format_time_left(0.2) == "1 s"
    assert format_time_left(-3) == "0 s"
    assert format_time_left(65) == "1:05"
    assert format_time_left(600) == "10:00"


def test_the_persons_own_turn_shows_the_time_left_for_the_move() -> None:
    assert clock_line(100.0, 73.0, seat=0, me=0) == "Clock: 27 s left for your move."
    assert clock_line(100.0, 89.5, seat=0, me=0) == "Clock: 11 s left for your move."
    bold = clock_line(100.0, 73.0, seat=0, me=0, style=Style(True))
    assert bold == "\033[1mClock: 27 s left for your move.\033[0m"


def test_under_ten_seconds_the_persons_turn_is_urgent_with_or_without_colour() -> None:
    assert clock_line(100.0, 90.0, seat=2, me=2) == "Clock: 10 s left for your move."
    assert clock_line(100.0, 91.0, seat=2, me=2) == "Clock: HURRY, only 9 s left for your move!"
    assert clock_line(100.0, 99.7, seat=2, me=2) == "Clock: HURRY, only 1 s left for your move!"
    loud = clock_line(100.0, 93.0, seat=2, me=2, style=Style(True))
    assert loud == "\033[1;31mClock: HURRY, only 7 s left for your move!\033[0m"
    assert clock_line(100.0, 100.0, seat=2, me=2) == (
        "Clock: your time is up; the referee plays for you."
    )


def test_another_seats_turn_names_it_and_is_never_urgent() -> None:
    assert (
        clock_line(100.0, 73.0, seat=1, me=0, name="Asha") == "Clock: Asha has 27 s left to play."
    )
    assert clock_line(100.0, 95.0, seat=1, me=0, name="Asha") == "Clock: Asha has 5 s left to play."
    assert clock_line(100.0, 101.0, seat=3, me=0) == "Clock: Seat 3's time is up."
    dim = clock_line(100.0, 95.0, seat=1, me=0, name="Asha", style=Style(True))
    assert dim == "\033[2mClock: Asha has 5 s left to play.\033[0m"


def test_no_clock_no_line() -> None:
    assert clock_line(None, 73.0, seat=0, me=0) == ""
    assert clock_line(100.0, 73.0, seat=-1, me=0) == ""  # whose turn is not known yet


# --- the timeout line -------------------------------------------------------------------------


def timed_out(seat: int, action: pb.Action) -> pb.Event:
    return pb.Event(seq=9, to_act=[2], turn_timed_out=pb.TurnTimedOut(seat=seat, action=action))


def test_a_timed_out_turn_says_whose_and_what_the_referee_played() -> None:
    narrator = Narrator(names={1: "Asha"}, me=0)
    played = timed_out(1, pb.Action(kind=pb.ACTION_KIND_PLAY, card="7H"))
    assert timed_out_line(played, narrator) == "Out of time: the referee played 7♥ for Asha."
    mine = timed_out(0, pb.Action(kind=pb.ACTION_KIND_PLAY, card="10S"))
    assert timed_out_line(mine, narrator) == "Out of time: the referee played 10♠ for you."
    picked = timed_out(0, pb.Action(kind=pb.ACTION_KIND_PICK_UP))
    assert timed_out_line(picked, narrator) == (
        "Out of time: the referee picked up the trick for you."
    )
    loud = timed_out_line(played, narrator, Style(True))
    assert loud.startswith("\033[1;33mOut of time: the referee played ")


# --- the screen, without a referee ------------------------------------------------------------


def screen(animate: bool) -> tuple[TerminalGame, io.StringIO]:
    out = io.StringIO()
    handle = cast(SeatHandle, SimpleNamespace(seat=0, table_id="t"))
    options = GameOptions(out=out, style=Style(False), animate=animate)
    game = TerminalGame(handle, RulesProfile.from_yaml("id: x\n"), options)
    game.narrator.names[1] = "Asha"
    return game, out


def test_on_a_terminal_the_clock_line_above_the_prompt_is_redrawn_in_place() -> None:
    game, out = screen(animate=True)
    now = time.time()
    game.clock.deadline, game.clock.seat = now + 12.5, 0
    game._prompt()
    assert out.getvalue() == "Clock: 13 s left for your move.\nYour move> "
    game.tick(now + 1.0)  # 11.5 s left: 12 shown
    game.tick(now + 1.1)  # still 12: nothing written
    game.tick(now + 4.0)  # 8.5 s left
    drawn = out.getvalue().removeprefix("Clock: 13 s left for your move.\nYour move> ")
    assert drawn == (
        f"{REDRAW}Clock: 12 s left for your move.\033[K\0338"
        f"{REDRAW}Clock: HURRY, only 9 s left for your move!\033[K\0338"
    )
    game.say("Asha takes your hand (3 cards)!")  # the clock line is no longer just above
    before = out.getvalue()
    game.tick(now + 6.0)
    assert out.getvalue() == before
    assert before.endswith("\0338\nAsha takes your hand (3 cards)!\n")  # below the prompt


def test_another_seats_clock_is_shown_once_the_game_has_waited_for_it() -> None:
    game, out = screen(animate=False)
    now = time.time()
    game.clock.deadline, game.clock.seat, game.clock.since = now + 30, 1, now
    game.tick(now + 1.0)  # a bot would have played by now
    assert out.getvalue() == ""
    game.tick(now + 2.5)
    assert out.getvalue() == "Clock: Asha has 28 s left to play.\n"
    game.tick(now + 5.0)  # not a terminal: once, and never redrawn
    game.tick(now + 9.0)
    assert out.getvalue() == "Clock: Asha has 28 s left to play.\n"


def test_the_clock_follows_the_referees_clock_not_ours() -> None:
    game, _ = screen(animate=False)
    now = time.time()
    game.clock.deadline, game.clock.seat = now + 100 + 20, 0
    game.clock.offset = 100.0  # the referee's clock is 100 s ahead of this machine's
    assert game.clock_text(now) == "Clock: 20 s left for your move."


# --- whole games ------------------------------------------------------------------------------


class Terminal(io.StringIO):
    """Output that says it is a terminal."""

    def isatty(self) -> bool:
        return True


async def wait_for_text(
    out: io.StringIO, text: str, game: asyncio.Task[int], start: int = 0
) -> int:
    """Where ``text`` appears in what the game printed from ``start`` on, once it does."""
    deadline = time.monotonic() + 30
    while (found := out.getvalue().find(text, start)) < 0:
        assert not game.done(), out.getvalue()
        assert time.monotonic() < deadline, f"no {text!r} in:\n{out.getvalue()}"
        await asyncio.sleep(0.05)
    return found


@run_async
async def test_a_person_who_does_not_answer_sees_the_countdown_and_the_timeout() -> None:
    out = Terminal()
    read, write = os.pipe()
    stdin = os.fdopen(read, "r")
    try:
        async with referee() as ref, Client(ref.target, timeout=30) as client:
            options = GameOptions(out=out, style=Style(False))  # animated: out is a terminal
            game = asyncio.create_task(
                play_game(
                    client,
                    rules_id="bhabho",
                    players=3,
                    table_id=None,
                    name="Tester",
                    seat=0,
                    hands=1,
                    bots="heuristic",
                    bot_delay=0.0,
                    options=options,
                    stdin=stdin,
                    turn_time=2.5,
                )
            )
            timed_out = await wait_for_text(out, "for you.\n", game)
            await wait_for_text(out, "> ", game, timed_out)  # the next question
            os.write(write, b"q\n")
            assert await asyncio.wait_for(game, 30) == 0
    finally:
        os.close(write)
        stdin.close()
    text = out.getvalue()
    assert "you are seat 0; 2.5 s for each move." in text
    assert "Clock: HURRY, only 3 s left for your move!\nYour move> " in text
    assert f"{REDRAW}Clock: HURRY, only 2 s left for your move!\033[K\0338" in text
    assert f"{REDRAW}Clock: HURRY, only 1 s left for your move!\033[K\0338" in text
    # The timeout goes on a line of its own below the prompt, and says what was played.
    assert "\0338\nOut of time: the referee played " in text
    assert "for you.\nYou " in text
    assert "ends here." in text


@run_async
async def test_an_unclocked_game_shows_no_clock() -> None:
    out = Terminal()
    async with referee() as ref, Client(ref.target, timeout=30) as client:
        done = await play_game(
            client,
            rules_id="bhabho",
            players=3,
            table_id=None,
            name="Tester",
            seat=0,
            hands=1,
            bots="heuristic",
            bot_delay=0.0,
            options=GameOptions(out=out, style=Style(False), auto=True),
            stdin=io.StringIO(""),
        )
    assert done == 0
    text = out.getvalue()
    assert "Session over after 1 hand(s)." in text
    assert "Clock" not in text and "\033" not in text and "for each move" not in text


def test_bhabhi_play_turn_time_prints_the_time_left_once_per_turn_off_a_terminal() -> None:
    env = {**os.environ, "NO_COLOR": "1"}
    command = [sys.executable, "-m", "referee", "play", "--turn-time", "1", "--players", "3"]
    command += ["--hands", "1", "--bot-delay", "0", "--name", "Tester", "--seat", "0"]
    process = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert process.stdin is not None and process.stdout is not None
    lines: list[str] = []
    timed_out = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            if line.startswith("Out of time:") and line.endswith(" for you.\n"):
                timed_out.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert timed_out.wait(60), "".join(lines)
        process.stdin.write("q\n")
        process.stdin.close()
        assert process.wait(60) == 0
        reader.join(10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    text = "".join(lines)
    assert "you are seat 0; 1 s for each move. Type ? for help." in text
    assert "Clock: HURRY, only 1 s left for your move!\nYour move> \n" in text
    assert "Out of time: the referee played " in text and " for you.\n" in text
    assert "\033" not in text  # not a terminal: no colour, no redraw


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--turn-time", "30", "--table", "abc"), "--turn-time sets the clock of a table"),
        (("--turn-time", "-1"), "is not 0 to 86400 seconds"),
        (("--turn-time", "soon"), "not a number of seconds"),
    ],
)
def test_bhabhi_play_turn_time_usage_errors(args: tuple[str, ...], message: str) -> None:
    done = cli("play", *args)
    assert done.returncode == 2
    assert message in done.stderr
