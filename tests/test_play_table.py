"""``bhabhi play`` at the table: the question before a trick (and the bots waiting for its
answer), the seat list, the running score, what leaving says, taking a seat back, and text
from the wire shown only escaped."""

from __future__ import annotations

import asyncio
import io
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from bhabhi.referee.v1 import referee_pb2 as pb
from bhabhi_client.bots import TakeWindow
from bhabhi_client.client import Client, SeatHandle
from bhabhi_client.game import GameOptions, TerminalGame, clock_line, leaving_lines, play_game
from bhabhi_client.rules import RulesProfile
from bhabhi_client.transcript import Narrator, Style, printable
from server_helpers import referee
from test_play_clock import run_async, wait_for_text

ROOT = Path(__file__).resolve().parent.parent
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
DECK = [rank + suit for suit in "CDHS" for rank in RANKS]
EVIL = "Eve\n\033[2J\033[31mYou lead A♠.\u202e\x9b\x7f"
"""A name that, printed raw, would clear the screen and forge a line of the game."""


def profile(yaml_text: str = "id: x\n") -> RulesProfile:
    return RulesProfile.from_yaml(yaml_text)


def screen(seat: int = 0) -> tuple[TerminalGame, io.StringIO]:
    out = io.StringIO()
    handle = cast(SeatHandle, SimpleNamespace(seat=seat, table_id="t", token="t.0.secret"))
    game = TerminalGame(handle, profile(), GameOptions(out=out, style=Style(False), animate=False))
    return game, out


# --- text from the wire -----------------------------------------------------------------------


def test_printable_escapes_what_a_terminal_would_act_on_and_keeps_the_rest() -> None:
    assert printable("Asha") == "Asha"
    assert printable("Zoë 中 ♠ 10♥ O'Neil") == "Zoë 中 ♠ 10♥ O'Neil"
    assert printable("a\nb\r\tc") == "a\\nb\\r\\tc"
    assert printable("\033[2J\033]0;x\a") == "\\x1b[2J\\x1b]0;x\\x07"
    assert printable("\x9b\x7f\x00") == "\\x9b\\x7f\\x00"  # C1, DEL, NUL
    assert printable("\u202egnp.exe\u200b") == "\\u202egnp.exe\\u200b"  # bidi, zero-width
    assert printable("1\xa0000 lew, 2\u202f000") == "1\xa0000 lew, 2\u202f000"  # spaces (Zs)
    assert printable(EVIL).isprintable()


def test_names_and_unknown_wire_words_are_shown_escaped_in_every_sentence() -> None:
    narrator = Narrator(me=0)
    joined = pb.Event(seq=1, player_joined=pb.PlayerJoined(seat=2, player_name=EVIL))
    lines = narrator.describe(joined)
    assert lines == ["Eve\\n\\x1b[2J\\x1b[31mYou lead A♠.\\u202e\\x9b\\x7f sits down at seat 2."]
    played = pb.Event(seq=2, card_played=pb.CardPlayed(seat=2, card="\033[5mX", role="lead"))
    out = pb.Event(seq=3, player_out=pb.PlayerOut(seat=2, how="\nforged"))
    lines += narrator.describe(played) + narrator.describe(out)
    assert lines[1].endswith(" leads \\x1b[5mX.")
    assert lines[2].endswith(" is safe (\\nforged).")
    table = pb.Table(seats=[pb.Seat(seat=0), pb.Seat(seat=1, player_name="A\nB", taken=True)])
    assert narrator.score_lines(table, 1) == ["Bhabhi so far, after hand 1: You 0 · A\\nB 0."]
    assert all(line.isprintable() for line in lines)


def test_a_refusal_and_a_ruleset_title_from_the_wire_are_escaped_too() -> None:
    game, out = screen()
    game.rules = profile('id: evil\ntitle: {en: "T\\e[2J"}\ndescription: {en: "a\\nb\\e[31m"}\n')
    game.show_rules()
    assert out.getvalue().startswith("T\\x1b[2J (evil)\na\nb\\x1b[31m\n")  # a line each
    assert "\033" not in out.getvalue()
    assert (
        "\\x1b"
        in leaving_lines(
            cast(SeatHandle, SimpleNamespace(table_id="t\033", token="k")), "h:1", clocked=False
        )[0]
    )


# --- the screen -------------------------------------------------------------------------------


def seat_view(**fields: Any) -> pb.SeatView:
    view = pb.SeatView(
        seat=0,
        players=3,
        hand=["2C", "AS"],
        hand_sizes=[2, 3, 4],
        out=[False, False, False],
        known_cards=[pb.SeatCards(cards=["2C"]), pb.SeatCards(), pb.SeatCards()],
        **fields,
    )
    return view


def test_the_seat_list_shows_every_seat_with_the_persons_own_marked() -> None:
    game, _ = screen()
    game.narrator.names.update({0: "Tester", 1: "Asha", 2: "Bilal"})
    lines = game.render(seat_view(turn=0, to_act=[0]))
    seats = [line for line in lines if "(seat " in line]
    assert seats == [
        "▶ You (seat 0)            2 cards   known: 2♣",
        "  Asha (seat 1)           3 cards",
        "  Bilal (seat 2)          4 cards",
    ]


def take_offer_view() -> pb.SeatView:
    view = seat_view(turn=1, leader=1, to_act=[1, 0])
    view.legal_actions.add(kind=pb.ACTION_KIND_TAKE_HAND)
    return view


def test_before_a_trick_the_person_is_asked_whether_to_take_and_enter_lets_the_leader_lead() -> (
    None
):
    game, out = screen()
    game.window = TakeWindow([0])
    game.narrator.names.update({1: "Asha", 2: "Bilal"})
    game.view, game.seq, game.waiting, game.offer = take_offer_view(), 7, True, True
    game._prompt()
    assert out.getvalue() == "t to take Asha's hand of 3 cards, Enter to let Asha lead> "
    bot_view = pb.SeatView(seat=1, turn=1, to_act=[1, 0])  # what the leader's bot sees
    assert game.window.waiting_for(bot_view, 7) == [0]

    async def enter() -> bool:
        return await game.command("")

    assert asyncio.run(enter())
    assert game.window.waiting_for(bot_view, 7) == []
    assert not game.offer
    assert out.getvalue() == "t to take Asha's hand of 3 cards, Enter to let Asha lead> "


def test_the_clock_of_a_take_question_is_the_leaders_and_says_what_then_happens() -> None:
    kwargs: dict[str, Any] = {"seat": 1, "me": 0, "name": "Asha", "take_offer": True}
    assert clock_line(100.0, 73.0, **kwargs) == (
        "Clock: 27 s left to decide; then the referee leads for Asha."
    )
    assert clock_line(100.0, 92.0, **kwargs) == (
        "Clock: HURRY, only 8 s left to decide; then the referee leads for Asha!"
    )
    assert clock_line(100.0, 100.0, **kwargs) == ("Clock: time is up; the referee leads for Asha.")


def test_off_a_terminal_the_clock_is_shown_again_with_the_prompt_once_it_runs_low() -> None:
    game, out = screen()
    now = time.time()
    game.view, game.waiting = seat_view(turn=0, to_act=[0]), True
    game.clock.deadline, game.clock.seat = now + 12.5, 0
    game._prompt()
    game.tick(now + 1.0)
    assert out.getvalue() == "Clock: 13 s left for your move.\nYour move> "
    game.tick(now + 4.0)  # 8.5 s left
    game.tick(now + 5.0)  # said once
    assert out.getvalue() == (
        "Clock: 13 s left for your move.\nYour move> "
        "\nClock: HURRY, only 9 s left for your move!\nYour move> "
    )


def test_the_score_between_hands_counts_the_bhabhi_and_the_chips_in_the_pot() -> None:
    narrator = Narrator(names={1: "Asha", 2: "Bilal"}, me=0)
    table = pb.Table(
        hands=0,
        seats=[
            pb.Seat(seat=0, taken=True, bhabhi_count=1),
            pb.Seat(seat=1, taken=True, bhabhi_count=0),
            pb.Seat(seat=2, taken=True, bhabhi_count=2),
        ],
    )
    assert narrator.score_lines(table, 3, session_hands=10) == [
        "Bhabhi so far, after hand 3 of 10: You 1 · Asha 0 · Bilal 2."
    ]
    table.hands = 5  # the table's own length wins over the ruleset's
    assert narrator.score_lines(table, 3, chips=2, session_hands=10) == [
        "Bhabhi so far, after hand 3 of 5: You 1 · Asha 0 · Bilal 2.",
        "Chips in the pot: 6 (paid by You 2, Bilal 4); whoever was the Bhabhi the fewest "
        "times takes it at the end.",
    ]
    assert profile("id: c\nsession: {hands: 4, chips: 3}\n").session_chips == 3
    assert profile("id: c\nsession: {hands: 4, chips: 0}\n").session_chips == 0


def test_leaving_says_the_game_ends_with_a_local_referee_and_how_to_come_back_to_a_remote_one() -> (
    None
):
    handle = cast(SeatHandle, SimpleNamespace(table_id="t1", token="t1.0.mine"))
    assert leaving_lines(handle, None, clocked=True) == [
        "You leave the game. Its referee ran inside this program, so the game ends here."
    ]
    remote = leaving_lines(handle, "host:7", clocked=True, bot_tokens=["t1.1.b", "t1.2.c"])
    assert remote == [
        "You leave the game; table t1 goes on at host:7 without you and without this "
        "program's bots.",
        "Its turn clock plays for the empty seats when their time runs out.",
        "To sit down again: bhabhi play --target host:7 --table t1 --token t1.0.mine "
        "--bot-token t1.1.b --bot-token t1.2.c",
        "To let a bot play your seat: bhabhi bot --target host:7 --table t1 --token t1.0.mine",
    ]
    assert leaving_lines(handle, "host:7", clocked=False)[1] == (
        "It has no turn clock: it waits until somebody plays those seats again."
    )


# --- the take window --------------------------------------------------------------------------


@run_async
async def test_the_take_window_holds_a_bot_until_the_person_answers_or_the_table_moves() -> None:
    window = TakeWindow([0])
    bot_view = pb.SeatView(seat=1, turn=1, to_act=[1, 0, 2])
    assert not await window.hold(pb.SeatView(seat=1, turn=1, to_act=[1, 2]), 5)  # no take
    assert not await window.hold(pb.SeatView(seat=1, turn=0, to_act=[0, 1]), 5)  # person leads

    for release in ("let_pass", "moved"):
        window = TakeWindow([0])
        held = asyncio.create_task(window.hold(bot_view, 5))
        await asyncio.sleep(0)
        window.moved(5)  # the event of the view itself: still waiting
        window.let_pass(0, 4)  # an answer to an older view: still waiting
        await asyncio.sleep(0)
        assert not held.done()
        if release == "let_pass":
            window.let_pass(0, 5)
        else:
            window.moved(6)
        assert await held  # it waited, so the bot looks again
        assert not await window.hold(bot_view, 5)

    window = TakeWindow([0])
    held = asyncio.create_task(window.hold(bot_view, 5))
    await asyncio.sleep(0)
    window.close()
    assert await held


# --- whole games ------------------------------------------------------------------------------


@run_async
async def test_the_bots_wait_so_that_the_person_can_take_the_leaders_hand() -> None:
    # Asha (seat 1) holds A♠ and leads the first trick; bots without a delay would lead
    # before the person has read the question, and the take would be refused.
    deal = [DECK[1::3], DECK[0::3], DECK[2::3]]
    read, write = os.pipe()
    stdin = os.fdopen(read, "r")
    out = io.StringIO()
    try:
        async with (
            referee(test_mode=True) as ref,
            Client(ref.target, timeout=30) as client,
        ):
            table = await client.create_table("bhabho", 3, hands=1, test_deal=deal)
            game = asyncio.create_task(
                play_game(
                    client,
                    rules_id="bhabho",
                    players=3,
                    table_id=table.table_id,
                    name="Tester",
                    seat=0,
                    hands=1,
                    bots="heuristic",
                    bot_delay=0.0,
                    options=GameOptions(out=out, style=Style(False)),
                    stdin=stdin,
                )
            )
            asked = await wait_for_text(
                out, "t to take Asha's hand of 18 cards, Enter to let Asha lead> ", game
            )
            os.write(write, b"t\n")
            taken = await wait_for_text(out, "You take Asha's hand (18 cards): ", game, asked)
            await wait_for_text(out, "Your move> ", game, taken)  # the lead passed to the taker
            os.write(write, b"q\n")
            assert await asyncio.wait_for(game, 30) == 0
    finally:
        os.close(write)
        stdin.close()
    text = out.getvalue()
    assert "Refused" not in text and "leads A♠" not in text
    assert "▶ You (seat 0)           35 cards" in text
    assert text.endswith("so the game ends here.\n")


@run_async
async def test_a_person_who_left_a_remote_table_sits_down_again_with_the_printed_command() -> None:
    read, write = os.pipe()
    stdin = os.fdopen(read, "r")
    first, second = io.StringIO(), io.StringIO()
    async with referee() as ref, Client(ref.target, timeout=30) as client:

        def game(out: io.StringIO, source: io.TextIOBase, **kwargs: Any) -> asyncio.Task[int]:
            options = GameOptions(out=out, style=Style(False), auto=kwargs.pop("auto", False))
            return asyncio.create_task(
                play_game(
                    client,
                    rules_id="bhabho",
                    players=3,
                    name="Tester",
                    seat=None,
                    hands=1,
                    bots="heuristic",
                    bot_delay=0.0,
                    options=options,
                    stdin=cast(Any, source),
                    remote=ref.target,
                    **kwargs,
                )
            )

        try:
            playing = game(first, cast(io.TextIOBase, stdin), table_id=None)
            await wait_for_text(first, "> ", playing)
            os.write(write, b"q\n")
            assert await asyncio.wait_for(playing, 30) == 0
        finally:
            os.close(write)
            stdin.close()
        again = re.search(r"To sit down again: bhabhi play (.*)\n", first.getvalue())
        assert again is not None, first.getvalue()
        words = again.group(1).split()
        options = dict(zip(words[0::2], words[1::2], strict=True))
        assert options["--target"] == ref.target and "It has no turn clock" in first.getvalue()
        bot_tokens = [words[i + 1] for i, word in enumerate(words) if word == "--bot-token"]
        assert len(bot_tokens) == 2
        playing = game(
            second,
            io.StringIO(""),
            auto=True,
            table_id=options["--table"],
            token=options["--token"],
            bot_tokens=bot_tokens,
        )
        assert await asyncio.wait_for(playing, 30) == 0
    assert "Session over after 1 hand(s)." in second.getvalue()
    assert "sits down" not in second.getvalue()  # the same seats, not new ones


# --- the command line -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--token", "abc"), "--token takes a seat back at a running referee"),
        (("--token", "abc", "--table", "t", "--target", "h:1", "--seat", "1"), "leave --seat out"),
        (("--bot-token", "abc"), "--bot-token goes with --token"),
    ],
)
def test_bhabhi_play_token_usage_errors(args: tuple[str, ...], message: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bhabhi_client", "play", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert done.returncode == 2
    assert message in done.stderr
