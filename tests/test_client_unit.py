"""The Python client without a referee: notation, refusal decoding, bots, rendering, and the
retry and reconnect logic against a tiny fake PlayService on a loopback port."""

from __future__ import annotations

import asyncio
import functools
import random
import subprocess
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import grpc
import pytest
from bhabhi.referee.v1 import referee_pb2 as pb
from bhabhi.referee.v1 import referee_pb2_grpc as rpc
from bhabhi_client import commands
from bhabhi_client.bots import HeuristicBot, RandomBot, Strategy, take_target
from bhabhi_client.cards import (
    Card,
    CardSyntaxError,
    card_symbol,
    format_action,
    parse_action,
    parse_actions,
    parse_card,
    rank_order,
    same_action,
)
from bhabhi_client.client import Client, SeatHandle
from bhabhi_client.errors import STATUS_DETAILS_KEY, RefereeError
from bhabhi_client.game import GameOptions, TerminalGame
from bhabhi_client.rules import RulesProfile
from bhabhi_client.transcript import Narrator, Style
from google.rpc import error_details_pb2, status_pb2

ROOT = Path(__file__).resolve().parents[1]
SUITS = "CDHS"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def run_async(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """An ``async def`` test in a fresh loop with a deadline (no pytest-asyncio here)."""

    @functools.wraps(test)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        asyncio.run(asyncio.wait_for(test(*args, **kwargs), 30))

    return wrapper


def profile(ruleset_id: str) -> RulesProfile:
    return RulesProfile.from_yaml((ROOT / "rules" / f"{ruleset_id}.yaml").read_text())


# --- cards and actions ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "wire"),
    [
        ("AS", "AS"),
        ("as", "AS"),
        ("10h", "10H"),
        (" q♦ ", "QD"),
        ("TS", "10S"),
        ("7 c", "7C"),
        ("QD/2", "QD/2"),
        ("qd/1", "QD"),
    ],
)
def test_cards_are_read_as_people_type_them(typed: str, wire: str) -> None:
    assert parse_card(typed) == wire


@pytest.mark.parametrize("typed", ["", "1H", "ZZ", "A", "AX", "QD/0", "QD/x", "11S"])
def test_bad_cards_are_refused_naming_the_input(typed: str) -> None:
    with pytest.raises(CardSyntaxError, match="is not a card"):
        parse_card(typed)


def test_actions_read_and_written_like_the_referee() -> None:
    for word in ("p", "pickup", "Pick-Up", "pick up"):
        assert parse_action(word).kind == pb.ACTION_KIND_PICK_UP
    for word in ("t", "take", "TAKE_HAND"):
        assert parse_action(word).kind == pb.ACTION_KIND_TAKE_HAND
    played = parse_action("10h")
    assert (played.kind, played.card) == (pb.ACTION_KIND_PLAY, "10H")
    for text in ("10H", "pickup", "take"):
        assert format_action(parse_action(text)) == text
    with pytest.raises(CardSyntaxError, match="is not a move"):
        parse_action("zz")
    assert [format_action(a) for a in parse_actions(["7H", " ", "take", "??"])] == ["7H", "take"]
    assert same_action(parse_action("10h"), pb.Action(kind=pb.ACTION_KIND_PLAY, card="10H"))
    assert not same_action(parse_action("p"), parse_action("t"))


def test_cards_are_shown_with_suit_symbols() -> None:
    assert card_symbol("10H") == "10♥"
    assert card_symbol("AS/2") == "A♠/2"
    assert card_symbol("not a card") == "not a card"
    assert Card.parse("7D").red and not Card.parse("7C").red
    assert rank_order(ace_low=True)["A"] == 0
    assert rank_order()["A"] == 12


# --- rules ------------------------------------------------------------------------------------


def test_rules_profile_reads_the_options_that_matter_for_play() -> None:
    pickup = profile("pickup")
    assert (pickup.off_suit, pickup.clockwise, pickup.step) == ("pickup", False, -1)
    assert pickup.take_hand_when == "never"
    bhabho = profile("bhabho")
    assert (bhabho.off_suit, bhabho.if_out, bhabho.take_step) == (
        "tochoo",
        "draws_from_waste",
        1,
    )
    assert bhabho.title_in("de") == "Bhabho / Laad"
    assert "tochoo" in bhabho.description_in("en")
    ace_low = profile("ace-low")
    assert ace_low.strength("AS") < ace_low.strength("2S")
    assert profile("get-away").after_complete_trick == "lowest"
    hand = ["AS", "2C", "10H", "3D", "KC"]
    assert sorted(hand, key=bhabho.sort_key) == ["2C", "KC", "3D", "10H", "AS"]
    text = "\n".join(bhabho.summary_lines())
    assert "tochoo" in text and "take" in text


@pytest.mark.parametrize(
    ("trump", "said"),
    [
        ({"trump": "first_off_suit_card"}, "first card played by a player who cannot follow"),
        ({"trump": "fixed", "trump_suit": "H"}, "Trump: hearts, all hand (H12)"),
        ({"trump": "dealer_choice"}, "the dealer names it"),
    ],
)
def test_the_rules_summary_names_how_the_trump_is_set(trump: dict[str, str], said: str) -> None:
    """X5 and H12 set the trump three ways; the summary must not call every trump X5's."""
    text = "\n".join(RulesProfile.from_mapping({"id": "x", **trump}).summary_lines())
    assert said in text
    none = "\n".join(RulesProfile.from_mapping({"id": "x", "trump": "none"}).summary_lines())
    assert "Trump" not in none


def test_rules_profile_falls_back_to_bhabho_for_what_is_missing() -> None:
    empty = RulesProfile.from_yaml("id: x\n")
    assert (empty.id, empty.off_suit, empty.ranks) == ("x", "tochoo", RANKS)


# --- refusals ---------------------------------------------------------------------------------


def rich_status(
    code: grpc.StatusCode,
    reason: str,
    messages: dict[str, str],
    metadata: dict[str, str] | None = None,
) -> grpc.aio.AioRpcError:
    """A refusal exactly as the referee sends it: ErrorInfo and LocalizedMessage details."""
    status = status_pb2.Status(code=code.value[0], message=messages.get("en", ""))
    status.details.add().Pack(
        error_details_pb2.ErrorInfo(reason=reason, domain="referee.bhabhi", metadata=metadata)
    )
    for locale, text in messages.items():
        status.details.add().Pack(error_details_pb2.LocalizedMessage(locale=locale, message=text))
    trailers = grpc.aio.Metadata((STATUS_DETAILS_KEY, status.SerializeToString()))
    return grpc.aio.AioRpcError(code, grpc.aio.Metadata(), trailers, messages.get("en", ""))


FOLLOW = {
    "en": "You must follow suit: you hold hearts.",
    "de": "Du musst Farbe bedienen: du hast Herz.",
    "pl": "Musisz dołożyć do koloru: masz kiery.",
}


@pytest.mark.parametrize("language", ["en", "de", "pl"])
def test_refusals_are_decoded_in_the_chosen_language(language: str) -> None:
    rpc_error = rich_status(
        grpc.StatusCode.FAILED_PRECONDITION,
        "must_follow_suit",
        FOLLOW,
        {"legal_actions": "7H,9H", "turn": "2"},
    )
    error = RefereeError.from_rpc_error(rpc_error, language=language)
    assert error.code is grpc.StatusCode.FAILED_PRECONDITION
    assert (error.reason, error.domain) == ("must_follow_suit", "referee.bhabhi")
    assert error.message == FOLLOW[language]
    assert error.legal_actions == ("7H", "9H")
    assert error.metadata["turn"] == "2"
    assert error.localized("pl") == FOLLOW["pl"]
    assert not error.transient
    assert "must_follow_suit" in str(error)


def test_refusals_fall_back_to_english_then_to_the_status_details() -> None:
    english_only = rich_status(grpc.StatusCode.ABORTED, "stale_seq", {"en-US": "Look again."})
    assert RefereeError.from_rpc_error(english_only, language="de").message == "Look again."
    bare = grpc.aio.AioRpcError(
        grpc.StatusCode.UNAVAILABLE, grpc.aio.Metadata(), grpc.aio.Metadata(), "connect failed"
    )
    error = RefereeError.from_rpc_error(bare)
    assert (error.reason, error.message, error.legal_actions) == ("", "connect failed", ())
    assert error.transient
    garbled = grpc.aio.AioRpcError(
        grpc.StatusCode.INTERNAL,
        grpc.aio.Metadata(),
        grpc.aio.Metadata((STATUS_DETAILS_KEY, b"\xff\x00garbage")),
        "boom",
    )
    assert RefereeError.from_rpc_error(garbled).message == "boom"
    draining = RefereeError(grpc.StatusCode.FAILED_PRECONDITION, "later", reason="unavailable")
    assert draining.transient


# --- bots -------------------------------------------------------------------------------------


def fabricated_view(rules: RulesProfile, rng: random.Random) -> pb.SeatView:
    """A plausible seat view with the legal actions the rules give: follow suit when able;
    when void, pick up (P1) or play anything (tochoo, discard); a take before a trick."""
    players = rng.randint(3, 6)
    deck = [r + s for s in SUITS for r in rules.ranks]
    rng.shuffle(deck)
    hands: list[list[str]] = [[] for _ in range(players)]
    for i, card in enumerate(deck[: rng.randint(players * 2, len(deck))]):
        hands[i % players].append(card)
    seat = rng.randrange(players)
    out = [s != seat and rng.random() < 0.25 for s in range(players)]
    for s in range(players):
        if out[s]:
            hands[s] = []
    active = [s for s in range(players) if not out[s]]
    view = pb.SeatView(
        seat=seat,
        players=players,
        hand=hands[seat],
        hand_sizes=[len(h) for h in hands],
        out=out,
        known_cards=[pb.SeatCards(cards=[c for c in h if rng.random() < 0.2]) for h in hands],
    )
    my_turn = rng.random() < 0.8
    view.turn = seat if my_turn else rng.choice([s for s in active if s != seat] or [seat])
    before_trick = rng.random() < 0.4
    if not before_trick:
        others = [s for s in active if s != seat and hands[s]]
        for s in rng.sample(others, rng.randint(1, len(others))) if others else []:
            view.trick.add(seat=s, card=rng.choice(hands[s]))
    if view.trick:
        view.led_suit = Card.parse(view.trick[0].card).suit
    legal: list[pb.Action] = []
    if view.turn == seat:
        following = [c for c in hands[seat] if not view.led_suit or c[-1] == view.led_suit]
        if following:
            legal = [pb.Action(kind=pb.ACTION_KIND_PLAY, card=c) for c in following]
        elif rules.off_suit == "pickup":
            legal = [pb.Action(kind=pb.ACTION_KIND_PICK_UP)]
        else:
            legal = [pb.Action(kind=pb.ACTION_KIND_PLAY, card=c) for c in hands[seat]]
    if not view.trick and len(active) > 1 and rng.random() < 0.5:
        legal.append(pb.Action(kind=pb.ACTION_KIND_TAKE_HAND))
    view.legal_actions.extend(legal)
    view.to_act.extend([seat] if legal else [])
    return view


@pytest.mark.parametrize("ruleset", ["bhabho", "pickup", "discard", "get-away", "ace-low"])
def test_bots_choose_only_legal_actions(ruleset: str) -> None:
    rules = profile(ruleset)
    rng = random.Random(ruleset)
    bots: list[Strategy] = [RandomBot(), HeuristicBot(rules)]
    for _ in range(400):
        view = fabricated_view(rules, rng)
        for bot in bots:
            action = bot.choose(view, rng)
            if action is None:  # only an optional take may be declined
                assert view.turn != view.seat or not view.legal_actions, view
                continue
            assert any(same_action(action, legal) for legal in view.legal_actions), (
                type(bot).__name__,
                format_action(action),
                view,
            )


def take_view(players: int, out: list[bool], neighbour_card: str) -> pb.SeatView:
    sizes = [0 if o else 5 for o in out]
    target = take_target(out, 0, 1)
    sizes[target] = 1
    view = pb.SeatView(
        seat=0,
        players=players,
        hand=["2C", "5D", "9H", "KS", "3S"],
        hand_sizes=sizes,
        out=out,
        turn=2,
        to_act=[0],
        known_cards=[pb.SeatCards() for _ in range(players)],
    )
    view.known_cards[target].cards.append(neighbour_card)
    view.legal_actions.add(kind=pb.ACTION_KIND_TAKE_HAND)
    return view


def test_heuristic_takes_a_nearly_empty_hand_but_never_with_two_left() -> None:
    bot, rng = HeuristicBot(profile("bhabho")), random.Random(0)
    taken = bot.choose(take_view(5, [False] * 5, "3H"), rng)
    assert taken is not None and taken.kind == pb.ACTION_KIND_TAKE_HAND
    assert bot.choose(take_view(5, [False] * 5, "KH"), rng) is None  # a high card: let it go
    assert bot.choose(take_view(4, [False, False, True, True], "3H"), rng) is None


def following_view(hand: list[str], trick: list[tuple[int, str]], **fields: Any) -> pb.SeatView:
    view = pb.SeatView(seat=0, players=4, hand=hand, turn=0, to_act=[0], **fields)
    for seat, card in trick:
        view.trick.add(seat=seat, card=card)
    view.led_suit = Card.parse(trick[0][1]).suit
    led = [c for c in hand if Card.parse(c).suit == view.led_suit]
    for card in led or hand:
        view.legal_actions.add(kind=pb.ACTION_KIND_PLAY, card=card)
    return view


def test_heuristic_ducks_the_power_with_two_cards_under_b8() -> None:
    bot = HeuristicBot(profile("bhabho"))
    view = following_view(
        ["4H", "KH"],
        [(2, "9H"), (3, "5H")],
        hand_sizes=[2, 6, 6, 6],
        out=[False] * 4,
        known_cards=[pb.SeatCards() for _ in range(4)],
    )
    action = bot.choose(view, random.Random(0))
    assert action is not None and action.card == "4H"


def test_heuristic_follows_low_unless_a_void_rival_will_pick_up() -> None:
    bot = HeuristicBot(profile("pickup"))  # counter-clockwise: seat 3 then 2 after seat 0
    unknown = [pb.SeatCards() for _ in range(4)]
    view = following_view(
        ["4H", "9H", "KH", "2C"],
        [(1, "7H")],
        hand_sizes=[4, 8, 8, 8],
        out=[False] * 4,
        known_cards=unknown,
    )
    low = bot.choose(view, random.Random(0))
    assert low is not None and low.card == "4H"
    known_void = [pb.SeatCards(), pb.SeatCards(), pb.SeatCards(cards=["2S", "3S"]), pb.SeatCards()]
    view = following_view(
        ["4H", "9H", "KH", "2C"],
        [(1, "7H")],
        hand_sizes=[4, 8, 2, 8],
        out=[False] * 4,
        known_cards=known_void,
    )
    high = bot.choose(view, random.Random(0))
    assert high is not None and high.card == "KH"


def test_bots_pick_up_when_that_is_all_they_may_do() -> None:
    view = pb.SeatView(
        seat=1,
        players=3,
        hand=["2C"],
        turn=1,
        to_act=[1],
        led_suit="H",
        hand_sizes=[3, 1, 3],
        out=[False] * 3,
        known_cards=[pb.SeatCards() for _ in range(3)],
    )
    view.trick.add(seat=0, card="5H")
    view.legal_actions.add(kind=pb.ACTION_KIND_PICK_UP)
    for bot in (RandomBot(), HeuristicBot(profile("pickup"))):
        action = bot.choose(view, random.Random(1))
        assert action is not None and action.kind == pb.ACTION_KIND_PICK_UP


# --- rendering --------------------------------------------------------------------------------


def test_narrator_speaks_to_you_and_of_the_others() -> None:
    narrator = Narrator(names={1: "Asha"}, me=0)
    played = pb.Event(seq=5, card_played=pb.CardPlayed(seat=1, card="10H", role="lead"))
    assert narrator.describe(played) == ["Asha leads 10♥."]
    tochoo = pb.Event(seq=6, card_played=pb.CardPlayed(seat=0, card="2C", role="tochoo"))
    assert narrator.describe(tochoo) == ["You cannot follow: tochoo with 2♣!"]
    over = pb.Event(
        seq=9,
        hand_over=pb.HandOver(
            result=pb.HandResult(bhabhi=1, termination=pb.TERMINATION_LAST_PLAYER)
        ),
    )
    assert narrator.describe(over) == [
        "Hand over: Asha is the Bhabhi (the last player holding cards)."
    ]
    taken = pb.Event(seq=7, hand_taken=pb.HandTaken(taker=1, seat=0, count=2, cards=["2C", "AS"]))
    assert narrator.describe(taken) == ["Asha takes your hand (2 cards): 2♣ A♠!"]


class _Tty:
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal_and_never_with_no_color(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert Style.for_stream(_Tty()).colour  # type: ignore[arg-type]
    assert "\033[31m" in Style(True).card("QH")
    assert Style(True).card("QS") == "Q♠"
    monkeypatch.setenv("NO_COLOR", "1")
    assert not Style.for_stream(_Tty()).colour  # type: ignore[arg-type]


def test_the_table_shows_the_hand_by_suit_with_legal_cards_marked() -> None:
    handle = SeatHandle(Client("unused:1"), "t1", 0, "token")
    game = TerminalGame(handle, profile("bhabho"), GameOptions(style=Style(False)))
    game.narrator.names.update({1: "Asha", 2: "Bilal", 3: "Chen"})
    view = following_view(
        ["AH", "2C", "9H", "KS", "10H"],
        [(2, "5H"), (3, "JH")],
        hand_sizes=[5, 4, 0, 7],
        out=[False, False, True, False],
        known_cards=[pb.SeatCards(), pb.SeatCards(cards=["QD"]), pb.SeatCards(), pb.SeatCards()],
    )
    text = "\n".join(game.render(view))
    assert "♣ 2   ♥ [9] [10] [A]   ♠ K" in text
    assert "Asha (seat 1)" in text and "known: Q♦" in text
    assert "Bilal (seat 2)" in text and "safe" in text
    assert "Trick (led ♥): Bilal 5♥ · Chen J♥" in text
    assert "You may play a [card]." in text


# --- against a fake PlayService ---------------------------------------------------------------


class FakePlay(rpc.PlayServiceServicer):
    """Drops what a flaky network drops, and records what the client sent."""

    def __init__(self) -> None:
        self.submits: list[tuple[str, str]] = []
        self.watch_after: list[int] = []

    async def SubmitAction(
        self, request: pb.SubmitActionRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> pb.SubmitActionResponse:
        auth = dict(context.invocation_metadata() or ()).get("authorization", "")
        self.submits.append((request.request_id, str(auth)))
        if request.action.card == "2C":
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, "You do not hold 2C.")
        if len(self.submits) < 3:  # the first two answers are lost
            await context.abort(grpc.StatusCode.UNAVAILABLE, "connection reset")
        return pb.SubmitActionResponse(last_seq=request.expected_seq + 1)

    async def GetView(
        self, request: pb.GetViewRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> pb.GetViewResponse:
        await context.abort(grpc.StatusCode.UNIMPLEMENTED, "not faked")
        raise AssertionError  # abort raises

    async def ExportHand(
        self, request: pb.ExportHandRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> pb.ExportHandResponse:
        await context.abort(grpc.StatusCode.UNIMPLEMENTED, "not faked")
        raise AssertionError

    async def ReplayTestActions(
        self, request: pb.ReplayTestActionsRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> pb.ReplayTestActionsResponse:
        await context.abort(grpc.StatusCode.UNIMPLEMENTED, "not faked")
        raise AssertionError

    async def WatchTable(
        self, request: pb.WatchTableRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> Any:
        self.watch_after.append(request.after_seq)
        if len(self.watch_after) == 1:
            for seq in (1, 2, 3):
                yield pb.WatchTableResponse(event=pb.Event(seq=seq))
            await context.abort(grpc.StatusCode.UNAVAILABLE, "stream dropped")
        yield pb.WatchTableResponse(snapshot=pb.Snapshot(seq=5))
        for seq in (4, 5, 6):  # a replay the client must not deliver twice
            yield pb.WatchTableResponse(event=pb.Event(seq=seq))
        yield pb.WatchTableResponse(event=pb.Event(seq=7, session_over=pb.SessionOver()))


async def fake_referee(servicer: FakePlay) -> tuple[grpc.aio.Server, str]:
    server = grpc.aio.server()
    rpc.add_PlayServiceServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    return server, f"127.0.0.1:{port}"


@run_async
async def test_an_action_is_retried_with_the_same_request_id() -> None:
    fake = FakePlay()
    server, target = await fake_referee(fake)
    try:
        async with Client(target, backoff=0.01) as client:
            seat = SeatHandle(client, "t1", 2, "secret")
            response = await seat.act("7h", expected_seq=41)
            assert response.last_seq == 42
            assert len(fake.submits) == 3
            assert len({rid for rid, _ in fake.submits}) == 1
            assert {auth for _, auth in fake.submits} == {"Bearer secret"}
            with pytest.raises(RefereeError) as refused:
                await seat.act("2c", expected_seq=42)
            assert refused.value.code is grpc.StatusCode.FAILED_PRECONDITION
            assert len(fake.submits) == 4  # a refusal is not retried
    finally:
        await server.stop(0)


@run_async
async def test_events_resume_after_the_last_delivered_seq() -> None:
    fake = FakePlay()
    server, target = await fake_referee(fake)
    try:
        async with Client(target, backoff=0.01) as client:
            seen = []
            async for item in SeatHandle(client, "t1", 0, "secret").events():
                kind = "snapshot" if isinstance(item, pb.Snapshot) else "event"
                seen.append((kind, item.seq))
        assert seen == [
            ("event", 1),
            ("event", 2),
            ("event", 3),
            ("snapshot", 5),
            ("event", 6),
            ("event", 7),
        ]
        assert fake.watch_after == [0, 3]
    finally:
        await server.stop(0)


@run_async
async def test_an_unreachable_referee_is_a_referee_error() -> None:
    async with Client("127.0.0.1:1", timeout=1.0, retries=1, backoff=0.01) as client:
        with pytest.raises(RefereeError) as failed:
            await client.list_rulesets()
        assert failed.value.code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)


# --- commands ---------------------------------------------------------------------------------


def test_the_standalone_script_parses_its_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert commands.main(["--version"]) == 0
    assert "bhabhi-client" in capsys.readouterr().out
    assert commands.main(["bot", "--target", "x:1"]) == 2  # --table is required
    assert commands.main(["play", "--language", "fr"]) == 2
    assert commands.main(["demo-hand", "--target", "x:1", "--strategies", "random,clever"]) == 2
    assert "unknown strategy 'clever'" in capsys.readouterr().err


def test_the_commands_are_part_of_bhabhi() -> None:
    from referee.cli import build_parser

    parser = build_parser()
    args = parser.parse_args(["demo-hand", "--players", "3"])
    assert args.func is not None and args.players == 3


def test_the_client_works_without_the_referee_package() -> None:
    """The client is its own distribution: nothing in it may need ``referee``, except
    starting a referee in process, which must then fail in one clear line."""
    code = (
        "import sys; sys.modules['referee'] = None\n"
        "import bhabhi_client.bots, bhabhi_client.client, bhabhi_client.game\n"
        "from bhabhi_client.commands import main\n"
        "sys.exit(main(['play', '--auto']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert done.returncode == 1, done.stderr
    assert "no --target given and the referee is not installed here" in done.stderr
