"""The Python client against the real referee, in process on a loopback port.

Most tests share one referee running on a background thread (test mode, memory store), so
that they can also run the client's commands as subprocesses against it; the restart test
starts its own, on an SQLite file, to stop it and start it again under a watcher.
"""

from __future__ import annotations

import asyncio
import functools
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from bhabhi.referee.v1 import referee_pb2 as pb
from bhabhi_client.bots import BotResult, run_bot
from bhabhi_client.client import Client, SeatHandle, event_kind
from bhabhi_client.errors import RefereeError
from bhabhi_client.rules import RulesProfile

from referee import rulebook
from referee.ruleset.loader import load_ruleset

try:
    from referee.server.app import create_server
    from referee.server.store.memory import MemoryStore
except ImportError:  # pragma: no cover - only while the referee is being written
    pytestmark = pytest.mark.skip(reason="the referee (referee.server.app) is not importable")

ROOT = Path(__file__).resolve().parents[1]
SUITS = "CDHS"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
ROUND_ROBIN = [[RANKS[i % 13] + SUITS[i // 13] for i in range(52) if i % 4 == s] for s in range(4)]
"""The sorted pack dealt one card at a time: every seat holds every suit, seat 3 the AS."""


def run_async(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """An ``async def`` test in a fresh loop with a deadline (no pytest-asyncio here)."""

    @functools.wraps(test)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        asyncio.run(asyncio.wait_for(test(*args, **kwargs), 60))

    return wrapper


class BackgroundReferee:
    """A referee on its own thread and event loop, so that a test may block (on a
    subprocess, say) while the referee keeps serving."""

    def __init__(self, *, allow_register: bool = False) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        started = create_server(
            "127.0.0.1:0", store=MemoryStore(), test_mode=True, allow_register=allow_register
        )
        future = asyncio.run_coroutine_threadsafe(started, self.loop)
        self.server, port = future.result(timeout=30)
        self.target = f"127.0.0.1:{port}"

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self.server.stop(0), self.loop).result(timeout=30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=30)


@pytest.fixture(scope="module")
def target() -> Iterator[str]:
    referee = BackgroundReferee()
    try:
        yield referee.target
    finally:
        referee.close()


async def seated(
    client: Client, players: int = 4, **table: Any
) -> tuple[pb.Table, list[SeatHandle]]:
    created = await client.create_table(table.pop("rules", "bhabho"), players, **table)
    seats = [await client.join(created.table_id, f"p{i}", seat=i) for i in range(players)]
    await seats[0].start()
    return await client.get_table(created.table_id), seats


def cli(*args: str, stdin: str = "", module: str = "referee") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
    )


# --- the typed API ----------------------------------------------------------------------------


@run_async
async def test_rulesets_are_listed_fetched_and_validated(target: str) -> None:
    async with Client(target) as client:
        ids = [r.id for r in await client.list_rulesets()]
        assert "bhabho" in ids and "pickup" in ids
        fetched = await client.get_ruleset("pickup")
        rules = RulesProfile.from_yaml(fetched.yaml)
        assert (rules.id, rules.off_suit, rules.clockwise) == ("pickup", "pickup", False)
        verdict = await client.validate_ruleset("extends: bhabho\nid: nope\ndirection: up\n")
        assert not verdict.valid and verdict.problems
        assert all(p.line >= 1 for p in verdict.problems)
        with pytest.raises(RefereeError) as missing:
            await client.get_ruleset("no-such-rules")
        assert (missing.value.code, missing.value.reason) == (
            grpc.StatusCode.NOT_FOUND,
            "ruleset_not_found",
        )


@run_async
async def test_tables_are_created_listed_joined_and_left(target: str) -> None:
    async with Client(target) as client:
        table = await client.create_table("bhabho", 3, turn_time=30, hands=2)
        assert (table.seat_count, table.hands, table.turn_time.seconds) == (3, 2, 30)
        open_ids = [t.table_id for t in await client.list_tables(open_only=True)]
        assert table.table_id in open_ids
        seat = await client.join(table.table_id, "Asha", seat=2)
        assert seat.seat == 2 and seat.token
        again = await client.get_table(table.table_id)
        assert again.seats[2].player_name == "Asha"
        with pytest.raises(RefereeError) as early:
            await seat.start()
        assert early.value.reason == "table_not_full"
        left = await seat.leave()
        assert not left.seats[2].taken


@pytest.mark.parametrize("language", ["en", "de", "pl"])
@run_async
async def test_refusals_arrive_decoded_with_the_legal_actions(target: str, language: str) -> None:
    async with Client(target, language=language) as client:
        _, seats = await seated(client, test_deal=ROUND_ROBIN, test_dealer=0)
        now = await seats[3].view()
        assert [a.card for a in now.view.legal_actions if a.card] == ["AS"]
        with pytest.raises(RefereeError) as wrong_turn:
            await seats[0].act("3S", expected_seq=now.seq)
        assert wrong_turn.value.reason == "not_your_turn"
        assert wrong_turn.value.message == wrong_turn.value.messages[language]
        with pytest.raises(RefereeError) as must_lead:
            await seats[3].act("2S", expected_seq=now.seq)
        assert must_lead.value.reason == "must_lead_card"
        assert "AS" in must_lead.value.legal_actions
        with pytest.raises(RefereeError) as stale:
            await seats[3].act("AS", expected_seq=now.seq - 1)
        assert (stale.value.code, stale.value.reason) == (grpc.StatusCode.ABORTED, "stale_seq")
        led = await seats[3].act("AS", expected_seq=now.seq)
        assert led.last_seq > now.seq
        with pytest.raises(RefereeError) as follow:
            await seats[0].act("2C", expected_seq=led.last_seq)
        assert follow.value.reason == "must_follow_suit"
        assert set(follow.value.legal_actions) == {c for c in ROUND_ROBIN[0] if c.endswith("S")}
        assert set(follow.value.messages) == {"en", "de", "pl"}
        with pytest.raises(RefereeError) as not_held:
            await seats[0].act("KS", expected_seq=led.last_seq)
        assert not_held.value.reason == "card_not_in_hand"


@run_async
async def test_a_retried_request_id_is_applied_once(target: str) -> None:
    async with Client(target) as client:
        table, seats = await seated(client, test_deal=ROUND_ROBIN, test_dealer=0)
        now = await seats[3].view()
        first = await seats[3].act("AS", expected_seq=now.seq, request_id="lead-1")
        again = await seats[3].act("AS", expected_seq=now.seq, request_id="lead-1")
        assert again.last_seq == first.last_seq
        assert [e.seq for e in again.events] == [e.seq for e in first.events]
        assert (await client.get_table(table.table_id)).last_seq == first.last_seq


@run_async
async def test_an_action_refused_for_its_rate_is_sent_again_after_the_wait() -> None:
    """The referee refuses a seat past its allowance with RetryInfo; the client waits as
    asked and sends the same request again, so the caller sees only the answer."""
    from referee.server.limits import Limits

    limits = Limits(actions_per_second=20, action_burst=1)
    server, port = await create_server(store=MemoryStore(), test_mode=True, limits=limits)
    try:
        async with Client(f"127.0.0.1:{port}") as client:
            _, seats = await seated(client, test_deal=ROUND_ROBIN, test_dealer=0)
            now = await seats[3].view()
            with pytest.raises(RefereeError) as early:
                await seats[3].act("2S", expected_seq=now.seq)  # takes seat 3's one token
            assert early.value.reason == "must_lead_card" and early.value.retry_after is None
            led = await seats[3].act("AS", expected_seq=now.seq)  # refused, waited, applied
            assert led.last_seq > now.seq
            stub = client.play_stub
            request = pb.SubmitActionRequest(
                table_id=seats[3].table_id,
                action=pb.Action(kind=pb.ACTION_KIND_PLAY, card="3S"),
                request_id="raw",
                expected_seq=led.last_seq,
            )
            with pytest.raises(grpc.aio.AioRpcError) as raw:  # a bare stub sees the refusal
                await stub.SubmitAction(request, metadata=client._metadata(seats[3].token))
            refusal = client.error(raw.value)
            assert refusal.reason == "rate_limited"
            assert refusal.code is grpc.StatusCode.RESOURCE_EXHAUSTED
            assert refusal.retry_after is not None and 0 < refusal.retry_after <= 0.05
    finally:
        await server.stop(0)


@run_async
async def test_a_seat_sees_its_cards_and_a_spectator_does_not(target: str) -> None:
    async with Client(target) as client:
        table, seats = await seated(client, test_deal=ROUND_ROBIN, test_dealer=0)

        async def first_deal(events: Any) -> pb.HandStarted:
            async for item in events:
                if isinstance(item, pb.Event) and item.HasField("hand_started"):
                    return item.hand_started
            raise AssertionError("no deal")

        mine = await first_deal(seats[1].events())
        assert sorted(mine.your_cards) == sorted(ROUND_ROBIN[1])
        public = await first_deal(client.watch(table.table_id))
        assert list(public.your_cards) == [] and list(public.hand_sizes) == [13] * 4
        spectator = await client.spectator_view(table.table_id)
        assert spectator.view.seat == -1 and not spectator.view.hand


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for localhost and 127.0.0.1, signed by its own key."""
    pytest.importorskip("cryptography")
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


@run_async
async def test_the_client_speaks_tls_when_given_credentials(tmp_path: Path) -> None:
    from referee.server.app import Tls

    cert, key = self_signed(tmp_path)
    server, port = await create_server(store=MemoryStore(), tls=Tls(cert, key))
    try:
        credentials = grpc.ssl_channel_credentials(root_certificates=cert.read_bytes())
        async with Client(f"localhost:{port}", credentials=credentials) as client:
            assert await client.list_rulesets()
        async with Client(f"127.0.0.1:{port}", timeout=2.0) as plain:
            with pytest.raises(RefereeError) as refused:
                await plain.list_rulesets()
            assert refused.value.code is grpc.StatusCode.UNAVAILABLE
    finally:
        await server.stop(0)


# --- bots -------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["bhabho", "pickup", "get-away"])
@run_async
async def test_bots_play_a_whole_session(target: str, rules: str) -> None:
    async with Client(target, timeout=20) as client:
        table = await client.create_table(rules, 4, hands=2)
        strategies = ["heuristic", "random", "heuristic", "random"]
        results: list[BotResult] = await asyncio.gather(
            *(
                run_bot(client, table.table_id, f"{s}-{i}", s, seed=i)
                for i, s in enumerate(strategies)
            )
        )
        assert all(r.hands == 2 and r.session is not None for r in results)
        session = results[0].session
        assert session is not None
        assert [r.bhabhi for r in sorted(results, key=lambda r: r.seat)] == list(
            session.bhabhi_counts
        )
        finished = await client.get_table(table.table_id)
        assert finished.status == pb.TABLE_STATUS_FINISHED


@run_async
async def test_a_bot_takes_back_its_seat_with_the_token(target: str) -> None:
    async with Client(target) as client:
        table = await client.create_table("bhabho", 3, hands=1)
        earlier = await client.join(table.table_id, "Asha")
        results = await asyncio.gather(
            run_bot(client, table.table_id, "Asha", "heuristic", token=earlier.token),
            run_bot(client, table.table_id, "Bilal", "random", seed=1),
            run_bot(client, table.table_id, "Chen", "random", seed=2),
        )
        assert results[0].seat == earlier.seat
        assert all(r.hands == 1 for r in results)


@run_async
async def test_the_event_stream_survives_a_referee_restart(tmp_path: Path) -> None:
    db = tmp_path / "referee.sqlite3"
    server, port = await create_server("127.0.0.1:0", db=db)
    target = f"127.0.0.1:{port}"
    async with Client(target, backoff=0.05, reconnect_attempts=40) as client:
        table = await client.create_table("bhabho", 3, hands=1)
        seats = [await client.join(table.table_id, f"p{i}") for i in range(3)]
        await seats[0].start()
        seen: list[int] = []
        stream = seats[0].events()
        async for item in stream:
            seen.append(item.seq)
            if isinstance(item, pb.Event) and event_kind(item) == "hand_started":
                break
        await server.stop(0)
        server, _ = await create_server(target, db=db)
        try:
            bots = asyncio.gather(
                *(
                    run_bot(client, table.table_id, s.name, "random", token=s.token, seed=i)
                    for i, s in enumerate(seats)
                )
            )
            async for item in stream:
                seen.append(item.seq)
            await bots
        finally:
            await server.stop(0)
    assert seen == list(range(1, len(seen) + 1))  # nothing lost, nothing twice


# --- the commands -----------------------------------------------------------------------------


def test_bhabhi_play_completes_a_hand_from_scripted_input() -> None:
    script = "help\nrules\nrules short\nzz\n"
    done = cli("play", "--auto", "--hands", "1", "--players", "3", "--name", "Tester", stdin=script)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Type a card to play it" in out  # help
    # rules: the whole rulebook, from the referee's GetRulebook (its hash at the foot)
    book = rulebook.render(rulebook.build(load_ruleset("bhabho")), "en", "text")
    assert book.splitlines()[0] == "How to play Bhabho / Laad"
    assert all(line in out for line in book.splitlines())
    assert "(rules short: the key options only)" in out
    assert "Bhabho / Laad (bhabho)" in out and "No escape with the power" in out  # rules short
    assert "'zz' is not a move" in out
    assert "Your hand (" in out and "Your move> " in out
    assert "Hand over:" in out and "Session over after 1 hand(s)." in out
    assert "\033[" not in out  # NO_COLOR


@pytest.mark.parametrize("language", ["de", "pl"])
def test_bhabhi_play_shows_the_rulebook_in_the_player_s_language(language: str) -> None:
    """In a language with a rulebook file the book is written in it; in one without (a
    referee older than the file), the English book, saying so."""
    done = cli(*play_file("--language", language), stdin="rules\n")
    assert done.returncode == 0, done.stderr
    book = rulebook.build(load_ruleset("bhabho"))
    if language in rulebook.languages():
        expected = rulebook.render(book, language, "text")
    else:
        assert f"(no rulebook in {language} here: in English)" in done.stdout
        expected = rulebook.render(book, "en", "text")
    assert all(line in done.stdout for line in expected.splitlines())


HOUSE_BASE = "id: family-base\nextends: bhabho\nend: {max_tricks: 300}\n"
HOUSE = (
    "# yaml-language-server: $schema=../schema/ruleset-variant.schema.json\n"
    "id: family-thulla\nextends: family-base\n"
    "title: {en: Family Thulla, de: Familien-Thulla, pl: Rodzinna Thulla}\n"
    "first_trick: {next_leader: as_other_tricks}\n"
    # B2 (the Ace of spades leads the second trick too) is what this variant switches off
    "clauses: [C1, C2, C3, C4, C5, C6, C7, C9, C10, C11, C12, C13, C14, C15, C16,"
    " B1, B3, B4, B5, B6, B7, B8, B9]\n"
)
WITHOUT_REFEREE = (
    "import sys; sys.modules['referee'] = None\n"
    "from bhabhi_client.commands import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def house_files(folder: Path) -> Path:
    """A house variant whose base sits beside it (a file the referee cannot see)."""
    (folder / "family-base.yaml").write_text(HOUSE_BASE, encoding="utf-8")
    variant = folder / "family-thulla.yaml"
    variant.write_text(HOUSE, encoding="utf-8")
    return variant


def play_file(*args: str) -> list[str]:
    return ["play", *args, "--auto", "--hands", "1", "--players", "3", "--bot-delay", "0"]


def test_bhabhi_play_plays_a_house_variant_file_on_its_own_referee(tmp_path: Path) -> None:
    done = cli(*play_file("--rules", str(house_files(tmp_path))))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Family Thulla: you are seat 0.")
    assert "Session over after 1 hand(s)." in done.stdout
    assert "Registered" not in done.stdout  # nothing is kept once the game ends
    demo = cli("demo-hand", "--rules", str(tmp_path / "family-thulla.yaml"), "--players", "3")
    assert demo.returncode == 0, demo.stderr
    assert demo.stdout.startswith("Family Thulla: table ")


def test_bhabhi_play_gives_a_house_variant_file_to_a_remote_referee_that_allows_it(
    tmp_path: Path,
) -> None:
    """Without the referee package: the client reads the file and the referee resolves it."""
    variant = house_files(tmp_path)
    referee = BackgroundReferee(allow_register=True)
    try:

        def play(rules: Path) -> subprocess.CompletedProcess[str]:
            argv = play_file("--target", referee.target, "--rules", str(rules))
            return subprocess.run(
                [sys.executable, "-c", WITHOUT_REFEREE, *argv],
                capture_output=True,
                text=True,
                timeout=120,
                cwd=tmp_path,
                env={**os.environ, "NO_COLOR": "1"},
            )

        first = play(variant)
        assert first.returncode == 0, first.stderr
        registered = (
            f"Registered ruleset family-base, family-thulla at the referee {referee.target}."
        )
        assert first.stdout.splitlines()[0] == registered
        assert "Family Thulla: you are seat 0." in first.stdout
        again = play(variant)  # hosted now with the same rules: used as it is
        assert again.returncode == 0, again.stderr
        assert again.stdout.startswith("Family Thulla: you are seat 0.")
        other = tmp_path / "other" / "family-thulla.yaml"
        other.parent.mkdir()
        other.write_text("id: family-thulla\nextends: bhabho\n", encoding="utf-8")
        clash = play(other)
        assert clash.returncode == 1
        assert "the referee hosts another ruleset with the id 'family-thulla'" in clash.stderr
        assert "give the file an id of its own" in clash.stderr
    finally:
        referee.close()


def test_bhabhi_play_of_a_file_on_a_referee_that_registers_nothing_names_the_option(
    target: str, tmp_path: Path
) -> None:
    done = cli(*play_file("--target", target, "--rules", str(house_files(tmp_path))))
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"bhabhi: this referee hosts no ruleset 'family-base' and does not let clients register "
        f"one, so it cannot play {tmp_path / 'family-base.yaml'}: start it with `bhabhi serve "
        "--allow-register`, or play a ruleset it hosts"
    )


def test_bhabhi_play_of_a_broken_file_prints_its_problems_located(
    target: str, tmp_path: Path
) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("id: broken\nextends: bhabho\ntake_hand: {wehn: never}\n", encoding="utf-8")
    done = cli(*play_file("--target", target, "--rules", str(broken)))
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"{broken}:3:13: take_hand.wehn: unknown key 'wehn'; did you mean 'when'?",
        f"bhabhi: {broken} is not a valid ruleset (1 problem)",
    ]
    (tmp_path / "a.yaml").write_text("id: a\nextends: b\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text("id: b\nextends: a\n", encoding="utf-8")
    cycle = cli(*play_file("--target", target, "--rules", str(tmp_path / "a.yaml")))
    assert (cycle.returncode, cycle.stderr) == (1, "bhabhi: extends cycle: a -> b -> a\n")
    missing = cli(*play_file("--target", target, "--rules", "missing.yaml"))
    assert (missing.returncode, missing.stderr) == (1, "bhabhi: no ruleset file missing.yaml\n")


def test_bhabhi_client_demo_hand_prints_a_transcript(target: str) -> None:
    done = cli(
        "demo-hand", "--target", target, "--players", "4", "--seed", "7", module="bhabhi_client"
    )
    assert done.returncode == 0, done.stderr
    assert "leads A♠." in done.stdout
    assert "Hand over:" in done.stdout
    assert done.stdout.count("): 1 hand(s)") == 4  # one summary per bot


def test_bhabhi_bot_plays_a_seat_at_a_remote_table(target: str) -> None:
    async def create() -> str:
        async with Client(target) as client:
            return (await client.create_table("bhabho", 3, hands=1)).table_id

    table_id = asyncio.run(create())

    async def others() -> list[BotResult]:
        async with Client(target) as client:
            return list(
                await asyncio.gather(
                    run_bot(client, table_id, "Bilal", "random", seat=1, seed=1),
                    run_bot(client, table_id, "Chen", "random", seat=2, seed=2),
                )
            )

    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "referee",
            "bot",
            "--target",
            target,
            "--table",
            table_id,
            "--strategy",
            "heuristic",
            "--name",
            "Remote",
            "--seat",
            "0",
            "--verbose",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "NO_COLOR": "1"},
    )
    try:
        results = asyncio.run(asyncio.wait_for(others(), 60))
        out, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert "Remote: seat 0 of table" in out
    assert "Remote (seat 0): 1 hand(s)" in out
    assert all(r.hands == 1 for r in results)


def test_a_refused_command_is_one_line_and_exit_1(target: str) -> None:
    done = cli("bot", "--target", target, "--table", "nope", "--strategy", "random")
    assert done.returncode == 1
    assert done.stderr.strip().startswith("bhabhi: There is no table nope.")
    assert "Traceback" not in done.stderr
