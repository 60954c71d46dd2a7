"""Running the referee: health, reflection, graceful drain, SIGTERM, TLS and mutual TLS."""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import re
import signal
import sqlite3
import subprocess
import time
import urllib.request
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
from bhabhi.referee.v1 import referee_pb2 as pb
from google.protobuf import descriptor_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2
from server_helpers import (
    ServerProcess,
    Stubs,
    bhabhi_command,
    check_refusal,
    decode,
    drain_stream,
    referee,
    refusal_of,
    run_async,
    seat_table,
)

from referee.cli import main
from referee.ops.drill import free_port
from referee.server.app import Tls
from referee.server.store.memory import MemoryStore
from referee.server.store.opening import missing_folder

SERVICES = (
    "bhabhi.referee.v1.RulesetService",
    "bhabhi.referee.v1.TableService",
    "bhabhi.referee.v1.PlayService",
)
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


@run_async
async def test_health_reports_serving() -> None:
    async with referee() as ref:
        health = health_pb2_grpc.HealthStub(ref.channel)
        for service in ("", *SERVICES):
            answer = await health.Check(health_pb2.HealthCheckRequest(service=service))
            assert answer.status == SERVING, service
        with pytest.raises(grpc.aio.AioRpcError) as unknown:
            await health.Check(health_pb2.HealthCheckRequest(service="no.such.Service"))
        assert unknown.value.code() == grpc.StatusCode.NOT_FOUND


@pytest.mark.parametrize(
    "service", ["grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"]
)
@run_async
async def test_reflection_lists_and_describes_the_services(service: str) -> None:
    """Both reflection services answer (grpcurl asks v1 first), asked through a raw stub
    with the method's full name: the v1alpha messages are v1's, field for field."""
    async with referee() as ref:
        call = ref.channel.stream_stream(
            f"/{service}/ServerReflectionInfo",
            request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
            response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
        )()
        await call.write(reflection_pb2.ServerReflectionRequest(list_services=""))
        listed = await call.read()
        assert isinstance(listed, reflection_pb2.ServerReflectionResponse), listed
        names = {s.name for s in listed.list_services_response.service}
        assert names >= {
            *SERVICES,
            "grpc.health.v1.Health",
            "grpc.reflection.v1alpha.ServerReflection",
        }
        await call.write(
            reflection_pb2.ServerReflectionRequest(
                file_containing_symbol="bhabhi.referee.v1.PlayService"
            )
        )
        found = await call.read()
        assert isinstance(found, reflection_pb2.ServerReflectionResponse), found
        files = [
            descriptor_pb2.FileDescriptorProto.FromString(data)
            for data in found.file_descriptor_response.file_descriptor_proto
        ]
        referee_file = next(f for f in files if f.package == "bhabhi.referee.v1")
        assert {s.name for s in referee_file.service} == {
            "RulesetService",
            "TableService",
            "PlayService",
        }
        await call.done_writing()


class RecordingStore(MemoryStore):
    """A MemoryStore that notes when it is closed, to order the drain's steps."""

    def __init__(self, log: list[str]) -> None:
        super().__init__()
        self.log = log

    async def close(self) -> None:
        self.log.append("store closed")
        await super().close()


@run_async
async def test_stop_reports_not_serving_then_ends_streams_then_closes() -> None:
    log: list[str] = []
    async with referee(store=RecordingStore(log)) as ref:
        seated = await seat_table(ref, "bhabho", 4)
        last = (await seated.table()).last_seq
        health = health_pb2_grpc.HealthStub(ref.channel)
        watches = {
            service: health.Watch(health_pb2.HealthCheckRequest(service=service))
            for service in ("", "bhabhi.referee.v1.PlayService")
        }
        for watch in watches.values():
            assert (await watch.read()).status == SERVING
        table_stream = seated.players[0].watch(last)  # waiting for the next event

        async def health_changes(service: str, watch: Any) -> None:
            answer = await watch.read()
            status = health_pb2.HealthCheckResponse.ServingStatus.Name(answer.status)
            log.append(f"{service or 'server'} {status}")

        async def stream_end() -> None:
            with pytest.raises(grpc.aio.AioRpcError) as ended:
                await table_stream.read()
            check_refusal(decode(ended.value), grpc.StatusCode.UNAVAILABLE, "unavailable", "en")
            log.append("table stream ended")

        readers = [asyncio.ensure_future(health_changes(s, w)) for s, w in watches.items()] + [
            asyncio.ensure_future(stream_end())
        ]
        await asyncio.sleep(0.05)
        began = time.monotonic()
        await ref.running.stop(grace=1.0)
        await asyncio.gather(*readers)
        assert log[-1] == "store closed"
        assert sorted(log[:-1]) == [
            "bhabhi.referee.v1.PlayService NOT_SERVING",
            "server NOT_SERVING",
            "table stream ended",
        ]
        assert time.monotonic() - began < 2.5
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await ref.tables.ListTables(pb.ListTablesRequest(), timeout=2)
        assert refused.value.code() == grpc.StatusCode.UNAVAILABLE


@run_async
async def test_sigterm_drains_and_exits_0(tmp_path: Path) -> None:
    process = ServerProcess(tmp_path / "referee.sqlite3")
    try:
        ref = await process.start()
        seated = await seat_table(ref, "pickup", 3)
        last = (await seated.table()).last_seq
        streams = [p.watch(0) for p in seated.players]
        for stream in streams:
            await drain_stream(stream, last)
        await asyncio.sleep(0.2)  # every stream waits for the next event
        began = time.monotonic()
        process.terminate()
        for stream in streams:
            with pytest.raises(grpc.aio.AioRpcError) as ended:
                await stream.read()
            assert decode(ended.value).reason == "unavailable"
        assert await process.wait(timeout=10) == 0
        assert time.monotonic() - began < 4.0  # the drain's grace is 5 s: nothing held it
        assert "draining" in "".join(process.output)
        await ref.close()
    finally:
        await process.ensure_stopped()


def calls_in_flight(metrics_port: int) -> float:
    """``bhabhi_calls_in_flight`` as the referee's metrics endpoint says it now."""
    url = f"http://127.0.0.1:{metrics_port}/metrics"
    with urllib.request.urlopen(url, timeout=10) as answer:
        text: str = answer.read().decode()
    found = re.search(r"^bhabhi_calls_in_flight (\S+)$", text, re.MULTILINE)
    assert found, text
    return float(found.group(1))


async def until(condition: Callable[[], Awaitable[bool]]) -> None:
    """Wait for ``condition`` (the test's own deadline bounds the wait)."""
    while not await condition():
        await asyncio.sleep(0.02)


@run_async
async def test_sigterm_lets_a_call_in_flight_finish_and_refuses_new_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGTERM while a SubmitAction waits for its commit (the test holds the SQLite file's
    write lock): the referee reports NOT_SERVING and refuses a new call with
    ``unavailable`` while the action waits; once the lock is let go the action is answered
    and stored, and the referee exits 0."""
    monkeypatch.setenv("BHABHI_DRAIN_SECONDS", "30")  # the store's own busy timeout is 5 s
    db = tmp_path / "referee.sqlite3"
    metrics_port = free_port()
    process = ServerProcess(db, "--metrics-port", str(metrics_port))
    try:
        ref = await process.start()
        seated = await seat_table(ref, "pickup", 3)
        player = seated.players[(await seated.spectate()).view.turn]
        view = await player.view()
        health = health_pb2_grpc.HealthStub(ref.channel)

        async def one_call_in_flight() -> bool:
            return await asyncio.to_thread(calls_in_flight, metrics_port) == 1

        async def not_serving() -> bool:
            answer = await health.Check(health_pb2.HealthCheckRequest(service=""))
            return bool(answer.status == NOT_SERVING)

        lock = sqlite3.connect(db, isolation_level=None)
        try:
            lock.execute("BEGIN IMMEDIATE")
            submitted = asyncio.ensure_future(player.submit(view.view.legal_actions[0], view.seq))
            await until(one_call_in_flight)
            process.terminate()
            await until(not_serving)
            request = pb.GetTableRequest(table_id=seated.table_id)
            refusal = await refusal_of(ref.tables.GetTable(request))
            check_refusal(refusal, grpc.StatusCode.UNAVAILABLE, "unavailable", "en")
            assert not submitted.done()
        finally:
            lock.execute("ROLLBACK")
            lock.close()
        answer = await submitted
        assert answer.events and answer.last_seq > view.seq
        assert await process.wait(timeout=30) == 0
        await ref.close()
        again = await process.start()  # on the same file: the action was stored
        table = (await again.tables.GetTable(pb.GetTableRequest(table_id=seated.table_id))).table
        assert table.last_seq == answer.last_seq
        await again.close()
    finally:
        await process.ensure_stopped()


@run_async
async def test_calls_grpc_holds_at_sigterm_are_refused_not_cancelled(tmp_path: Path) -> None:
    """Calls that reached the referee's process but no servicer yet when SIGTERM came (sent
    while it was stopped with SIGSTOP, so that they all wait in grpc) are answered or
    refused with ``unavailable``, which a client retries: grpc's own stop cancelled
    them (CANCELLED, not retried)."""
    process = ServerProcess(tmp_path / "referee.sqlite3")
    try:
        ref = await process.start()
        seated = await seat_table(ref, "pickup", 3)
        request = pb.GetTableRequest(table_id=seated.table_id)
        clients = [ref.connect() for _ in range(4)]
        for client in clients:  # each connected
            await client.tables.GetTable(request)
        process.process.send_signal(signal.SIGSTOP)
        calls = [clients[i % 4].tables.GetTable(request) for i in range(200)]
        await asyncio.sleep(0.5)  # sent, into the stopped process's sockets
        process.terminate()
        process.process.send_signal(signal.SIGCONT)
        reasons = Counter[str]()
        for call in calls:
            try:
                await call
                reasons["ok"] += 1
            except grpc.aio.AioRpcError as error:
                reasons[decode(error).reason] += 1  # a CANCELLED has no rich status
        assert set(reasons) <= {"ok", "unavailable"}, reasons
        assert sum(reasons.values()) == 200
        assert await process.wait(timeout=30) == 0
        await ref.close()
    finally:
        if process.process.returncode is None:
            process.process.send_signal(signal.SIGCONT)
        await process.ensure_stopped()


# --- one port, one referee ------------------------------------------------------------------


def serve_once(cwd: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    """``bhabhi serve`` expected to stop at once (a bad setting); what it printed."""
    return subprocess.run(
        [*bhabhi_command(), "serve", *flags],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@run_async
async def test_a_port_in_use_is_refused_before_the_store_is_opened(tmp_path: Path) -> None:
    """grpc would share the port (SO_REUSEPORT) and clients would reach either referee;
    the second one says the port is in use, in one line, and never opens its database,
    with --reuse-port too while the first does not share."""
    first = ServerProcess(tmp_path / "first.sqlite3")
    try:
        ref = await first.start()
        for more in ([], ["--reuse-port"]):
            second = tmp_path / "second.sqlite3"
            result = await asyncio.to_thread(
                serve_once, tmp_path, "--port", str(ref.port), "--db", str(second), *more
            )
            assert result.returncode == 1, result
            assert result.stdout == ""
            assert result.stderr.splitlines() == [
                f"bhabhi serve: error: cannot listen on 127.0.0.1:{ref.port}: the port is in use"
            ]
            assert not second.exists()
        assert (await ref.rulesets.ListRulesets(pb.ListRulesetsRequest())).rulesets
        await ref.close()
    finally:
        await first.ensure_stopped()


@run_async
async def test_referees_that_ask_for_it_share_a_port(tmp_path: Path) -> None:
    """--reuse-port: several processes on one port, the kernel balancing between them."""
    first = ServerProcess(tmp_path / "first.sqlite3", "--reuse-port")
    second: ServerProcess | None = None
    try:
        ref = await first.start()
        second = ServerProcess(tmp_path / "second.sqlite3", "--reuse-port", "--port", str(ref.port))
        also = await second.start()
        assert also.port == ref.port
        assert (await also.rulesets.ListRulesets(pb.ListRulesetsRequest())).rulesets
        await asyncio.gather(ref.close(), also.close())
    finally:
        await first.ensure_stopped()
        if second is not None:
            await second.ensure_stopped()


# --- bhabhi serve's flags ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "env", "says"),
    [
        (["--port", "99999"], {}, "argument --port: 99999 is not a port (0 to 65535)"),
        (["--port", "-1"], {}, "argument --port: -1 is not a port (0 to 65535)"),
        (["--port", "http"], {}, "argument --port: not a port number: 'http'"),
        ([], {"BHABHI_PORT": "65536"}, "argument --port: 65536 is not a port (0 to 65535)"),
        (["--metrics-port", "70000"], {}, "argument --metrics-port: 70000 is not a port"),
        ([], {"BHABHI_METRICS_PORT": "-5"}, "argument --metrics-port: -5 is not a port"),
    ],
)
def test_serve_refuses_a_port_that_is_not_a_port(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    argv: list[str],
    env: dict[str, str],
    says: str,
) -> None:
    """0 to 65535, from a flag or from the environment (grpc would listen on 99999 modulo
    65536, 34463, without a word)."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    db = tmp_path / "referee.sqlite3"
    assert main(["serve", "--db", str(db), *argv]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines()[-1].startswith(f"bhabhi serve: error: {says}"), err
    assert not db.exists()


@pytest.mark.parametrize("given", ["flag", "env"])
def test_serve_refuses_a_database_in_a_folder_that_does_not_exist(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    given: str,
) -> None:
    """A path given explicitly (flag or BHABHI_DB) is used as it is: its folder is not
    made (the default, var/referee.sqlite3, may make var/)."""
    db = tmp_path / "no" / "such" / "x.sqlite3"
    monkeypatch.chdir(tmp_path)
    if given == "env":
        monkeypatch.setenv("BHABHI_DB", str(db))
        argv = ["serve", "--port", "0"]
    else:
        argv = ["serve", "--port", "0", "--db", str(db)]
    assert main(argv) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"bhabhi serve: error: --db {db}: no such folder: {db.parent}\n"
    assert not (tmp_path / "no").exists()
    assert not (tmp_path / "var").exists()


def test_only_an_explicit_sqlite_path_needs_its_folder(tmp_path: Path) -> None:
    assert missing_folder(tmp_path / "x.sqlite3") is None
    assert missing_folder("x.sqlite3") is None  # the working directory
    assert missing_folder(str(tmp_path / "gone" / "x.sqlite3")) == tmp_path / "gone"
    assert missing_folder("postgresql://ref@db:5432/bhabhi") is None


# --- TLS -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pki:
    ca: Path
    server_cert: Path
    server_key: Path
    client_cert: bytes
    client_key: bytes
    stranger_cert: bytes
    stranger_key: bytes


def make_pki(folder: Path) -> Pki:
    """A throwaway CA, a server certificate for localhost/127.0.0.1, a client certificate
    it signed, and one a different CA signed."""
    pytest.importorskip("cryptography")
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = datetime.datetime.now(datetime.UTC)

    def name(common: str) -> x509.Name:
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])

    def key() -> ec.EllipticCurvePrivateKey:
        return ec.generate_private_key(ec.SECP256R1())

    def pem_key(private: ec.EllipticCurvePrivateKey) -> bytes:
        return private.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )

    def certificate(
        subject: str,
        private: ec.EllipticCurvePrivateKey,
        issuer: tuple[str, ec.EllipticCurvePrivateKey] | None,
        *,
        ca: bool = False,
        server: bool = False,
    ) -> bytes:
        issuer_name, issuer_key = issuer if issuer is not None else (subject, private)
        builder = (
            x509.CertificateBuilder()
            .subject_name(name(subject))
            .issuer_name(name(issuer_name))
            .public_key(private.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(hours=1))
            .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
        )
        if server:
            builder = builder.add_extension(
                x509.SubjectAlternativeName(
                    [
                        x509.DNSName("localhost"),
                        x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                    ]
                ),
                critical=False,
            ).add_extension(
                x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False
            )
        elif not ca:
            builder = builder.add_extension(
                x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False
            )
        signed = builder.sign(issuer_key, hashes.SHA256())
        return signed.public_bytes(serialization.Encoding.PEM)

    ca_key, other_ca_key = key(), key()
    ca_pem = certificate("test CA", ca_key, None, ca=True)
    server_key, client_key, stranger_key = key(), key(), key()
    paths = {
        "ca": ca_pem,
        "server.pem": certificate("localhost", server_key, ("test CA", ca_key), server=True),
        "server.key": pem_key(server_key),
    }
    for file, data in paths.items():
        (folder / file).write_bytes(data)
    return Pki(
        ca=folder / "ca",
        server_cert=folder / "server.pem",
        server_key=folder / "server.key",
        client_cert=certificate("a player", client_key, ("test CA", ca_key)),
        client_key=pem_key(client_key),
        stranger_cert=certificate("a stranger", stranger_key, ("other CA", other_ca_key)),
        stranger_key=pem_key(stranger_key),
    )


async def list_rulesets(
    port: int, credentials: grpc.ChannelCredentials | None
) -> pb.ListRulesetsResponse:
    target = f"127.0.0.1:{port}"
    options = [("grpc.ssl_target_name_override", "localhost")]
    channel = (
        grpc.aio.secure_channel(target, credentials, options=options)
        if credentials is not None
        else grpc.aio.insecure_channel(target)
    )
    try:
        stubs = Stubs.over(channel)
        return await stubs.rulesets.ListRulesets(pb.ListRulesetsRequest(), timeout=5)
    finally:
        await channel.close()


@run_async
async def test_tls_and_mutual_tls(tmp_path: Path) -> None:
    pki = make_pki(tmp_path)
    ca = pki.ca.read_bytes()
    anonymous = grpc.ssl_channel_credentials(root_certificates=ca)
    member = grpc.ssl_channel_credentials(
        root_certificates=ca, private_key=pki.client_key, certificate_chain=pki.client_cert
    )
    stranger = grpc.ssl_channel_credentials(
        root_certificates=ca, private_key=pki.stranger_key, certificate_chain=pki.stranger_cert
    )
    # TLS: any client that trusts the CA; plaintext is not spoken.
    async with referee(tls=Tls(pki.server_cert, pki.server_key)) as ref:
        assert (await list_rulesets(ref.port, anonymous)).rulesets
        with pytest.raises(grpc.aio.AioRpcError) as plain:
            await list_rulesets(ref.port, None)
        assert plain.value.code() == grpc.StatusCode.UNAVAILABLE
    # Mutual TLS: only a client certificate the client CA signed gets in.
    async with referee(tls=Tls(pki.server_cert, pki.server_key, client_ca=pki.ca)) as ref:
        assert (await list_rulesets(ref.port, member)).rulesets
        for credentials in (anonymous, stranger):
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await list_rulesets(ref.port, credentials)
            assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
