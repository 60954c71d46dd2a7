"""The referee's API over the Connect protocol, as a browser speaks it: HTTP/1.1 POSTs
(binary protobuf or JSON), server streaming in enveloped frames, errors as Connect JSON.

The client here is written from the Connect protocol itself (httpx and a few lines of
framing), not from the server's library, so that what is tested is the wire.  Every
refusal is compared with the same call's refusal over gRPC: the same code, reason,
message and details, because both ports run the same handlers on the same referee.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import ssl
import struct
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import httpx
import pytest
from bhabhi.referee.v1 import referee_pb2 as pb
from google.protobuf.message import Message
from google.rpc import error_details_pb2
from server_helpers import (
    BHABHO_DEAL,
    TEST_LIMITS,
    Referee,
    bearer,
    play,
    refusal_of,
    run_async,
    seat_table,
)
from test_server_ops import make_pki

from referee.server.app import Tls, create_server
from referee.server.limits import Limits
from referee.server.store.memory import MemoryStore

PACKAGE = "bhabhi.referee.v1"


@dataclass
class WebRefused:
    """A Connect error: its HTTP status, code, message, ErrorInfo and localized messages."""

    status: int
    code: str
    message: str
    reason: str
    metadata: dict[str, str]
    localized: dict[str, str]


def _refused(status: int, body: dict[str, Any]) -> WebRefused:
    info = error_details_pb2.ErrorInfo()
    localized = {}
    for detail in body.get("details", ()):
        value = base64.b64decode(detail["value"] + "==")
        if detail["type"] == "google.rpc.ErrorInfo":
            info.ParseFromString(value)
        elif detail["type"] == "google.rpc.LocalizedMessage":
            message = error_details_pb2.LocalizedMessage.FromString(value)
            localized[message.locale] = message.message
    return WebRefused(
        status, body["code"], body.get("message", ""), info.reason, dict(info.metadata), localized
    )


class WebError(Exception):
    def __init__(self, refused: WebRefused) -> None:
        super().__init__(refused)
        self.refused = refused


class Connect:
    """A Connect client over one HTTP/1.1 connection pool."""

    def __init__(self, port: int) -> None:
        self.http = httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=20.0)

    async def unary(
        self,
        service: str,
        method: str,
        request: Message,
        response_type: type[Message],
        headers: dict[str, str] | None = None,
    ) -> Any:
        answer = await self.http.post(
            f"/{PACKAGE}.{service}/{method}",
            content=request.SerializeToString(),
            headers={
                "content-type": "application/proto",
                "connect-protocol-version": "1",
                **(headers or {}),
            },
        )
        if answer.status_code != 200:
            raise WebError(_refused(answer.status_code, answer.json()))
        assert answer.headers["content-type"] == "application/proto"
        return response_type.FromString(answer.content)

    @contextlib.asynccontextmanager
    async def stream(
        self, service: str, method: str, request: Message, headers: dict[str, str] | None = None
    ) -> AsyncIterator[AsyncIterator[bytes | dict[str, Any]]]:
        """The stream's frames: each message's bytes, then the end-of-stream JSON."""
        data = request.SerializeToString()
        async with self.http.stream(
            "POST",
            f"/{PACKAGE}.{service}/{method}",
            content=struct.pack(">BI", 0, len(data)) + data,
            headers={
                "content-type": "application/connect+proto",
                "connect-protocol-version": "1",
                **(headers or {}),
            },
        ) as answer:
            assert answer.status_code == 200
            assert answer.headers["content-type"] == "application/connect+proto"

            async def frames() -> AsyncIterator[bytes | dict[str, Any]]:
                buffer = b""
                async for chunk in answer.aiter_bytes():
                    buffer += chunk
                    while len(buffer) >= 5:
                        flags, size = struct.unpack(">BI", buffer[:5])
                        if len(buffer) < 5 + size:
                            break
                        body, buffer = buffer[5 : 5 + size], buffer[5 + size :]
                        yield json.loads(body) if flags & 0x02 else body

            yield frames()

    async def close(self) -> None:
        await self.http.aclose()


@contextlib.asynccontextmanager
async def web_referee(
    limits: Limits = TEST_LIMITS, tls: Tls | None = None
) -> AsyncIterator[tuple[Referee, Connect]]:
    """An in-process referee with its web endpoint on a free loopback port, and a gRPC
    client and a Connect client of it."""
    server, port = await create_server(
        "127.0.0.1:0",
        store=MemoryStore(),
        test_mode=True,
        limits=limits,
        tls=tls,
        web_address=("127.0.0.1", 0),
    )
    assert server.web_endpoint is not None
    ref = Referee(port, server)
    web = Connect(server.web_endpoint.port)
    try:
        yield ref, web
    finally:
        await web.close()
        await ref.close()
        await server.stop(0)


async def web_refusal(call: Any) -> WebRefused:
    try:
        result = await call
    except WebError as error:
        return error.refused
    raise AssertionError(f"expected a refusal, got {result!r}")


def same_refusal(web: WebRefused, over_grpc: Any, http_status: int) -> None:
    """The Connect error says what the gRPC status says."""
    assert web.status == http_status
    assert web.code == over_grpc.code.name.lower()
    assert (web.reason, web.message) == (over_grpc.reason, over_grpc.message)
    assert web.metadata == over_grpc.metadata
    assert web.localized == over_grpc.localized and set(web.localized) == {"en", "de", "pl"}


@run_async
async def test_a_table_over_connect() -> None:
    """ListRulesets, CreateTable, JoinTable, StartTable, GetView and a refused SubmitAction,
    all over Connect; the refusal is the one gRPC gives, in the language asked for."""
    async with web_referee() as (ref, web):
        listed = await web.unary(
            "RulesetService", "ListRulesets", pb.ListRulesetsRequest(), pb.ListRulesetsResponse
        )
        assert "bhabho" in {r.id for r in listed.rulesets}
        created = await web.unary(
            "TableService",
            "CreateTable",
            pb.CreateTableRequest(
                ruleset_id="bhabho",
                seat_count=4,
                test_deal=[pb.SeatCards(cards=c.split()) for c in BHABHO_DEAL],
            ),
            pb.CreateTableResponse,
        )
        tid = created.table.table_id
        tokens = []
        for seat in range(4):
            joined = await web.unary(
                "TableService",
                "JoinTable",
                pb.JoinTableRequest(table_id=tid, player_name=f"web {seat}", seat=seat),
                pb.JoinTableResponse,
            )
            assert joined.seat == seat
            tokens.append(joined.seat_token)
        auth = [{"authorization": f"Bearer {token}"} for token in tokens]
        await web.unary(
            "TableService",
            "StartTable",
            pb.StartTableRequest(table_id=tid),
            pb.StartTableResponse,
            auth[0],
        )
        viewed = await web.unary(
            "PlayService", "GetView", pb.GetViewRequest(table_id=tid), pb.GetViewResponse, auth[1]
        )
        assert sorted(viewed.view.hand) == sorted(BHABHO_DEAL[1].split())
        # Seat 1 plays out of turn: refused over Connect as over gRPC, English and German.
        request = pb.SubmitActionRequest(
            table_id=tid, action=play("KS"), request_id="w", expected_seq=viewed.seq
        )
        for language in ("en", "de"):
            refused = await web_refusal(
                web.unary(
                    "PlayService",
                    "SubmitAction",
                    request,
                    pb.SubmitActionResponse,
                    {**auth[1], "accept-language": language},
                )
            )
            over_grpc = await refusal_of(
                ref.play.SubmitAction(
                    request, metadata=(*bearer(tokens[1]), ("accept-language", language))
                )
            )
            assert over_grpc.reason == "not_your_turn"
            same_refusal(refused, over_grpc, 400)
            assert refused.message == refused.localized[language]
        answer = await web.unary(
            "PlayService",
            "SubmitAction",
            pb.SubmitActionRequest(
                table_id=tid, action=play("AS"), request_id="a", expected_seq=viewed.seq
            ),
            pb.SubmitActionResponse,
            auth[0],
        )
        assert answer.events[0].card_played.seat == 0


@run_async
async def test_json_as_a_browser_sends_it() -> None:
    """The JSON codec (what connect-web sends by default): field names in lowerCamelCase."""
    async with web_referee() as (_, web):
        answer = await web.http.post(
            f"/{PACKAGE}.TableService/CreateTable",
            json={"rulesetId": "bhabho", "seatCount": 3},
            headers={"connect-protocol-version": "1"},
        )
        assert answer.status_code == 200, answer.text
        assert answer.headers["content-type"] == "application/json"
        assert answer.json()["table"]["seatCount"] == 3
        unknown = await web.http.post(
            f"/{PACKAGE}.TableService/GetTable",
            json={"tableId": "nope"},
            headers={"connect-protocol-version": "1"},
        )
        assert unknown.status_code == 404
        assert _refused(404, unknown.json()).reason == "table_not_found"


@run_async
async def test_one_referee_behind_both_ports() -> None:
    """A table created over gRPC is seen over Connect, and one created over Connect over
    gRPC: the two ports serve one Referee."""
    async with web_referee() as (ref, web):
        made = await ref.tables.CreateTable(
            pb.CreateTableRequest(ruleset_id="pickup", seat_count=3)
        )
        seen = await web.unary(
            "TableService",
            "GetTable",
            pb.GetTableRequest(table_id=made.table.table_id),
            pb.GetTableResponse,
        )
        assert seen.table.table_id == made.table.table_id
        assert seen.table.ruleset.id == "pickup"
        made_web = await web.unary(
            "TableService",
            "CreateTable",
            pb.CreateTableRequest(ruleset_id="bhabho", seat_count=4),
            pb.CreateTableResponse,
        )
        seen_grpc = await ref.tables.GetTable(pb.GetTableRequest(table_id=made_web.table.table_id))
        assert seen_grpc.table.seat_count == 4
        listed = await web.unary(
            "TableService", "ListTables", pb.ListTablesRequest(), pb.ListTablesResponse
        )
        assert {t.table_id for t in listed.tables} == {
            made.table.table_id,
            made_web.table.table_id,
        }


@run_async
async def test_watch_table_as_a_server_stream() -> None:
    """WatchTable over Connect's server streaming on HTTP/1.1: the history so far, then an
    event as it happens, then the end of the stream when the referee stops."""
    async with web_referee() as (ref, web):
        seated = await seat_table(ref, "bhabho", 4, deal=BHABHO_DEAL)
        tid = seated.table_id
        history = await ref.play.GetView(pb.GetViewRequest(table_id=tid))
        request = pb.WatchTableRequest(table_id=tid, after_seq=0)
        async with web.stream("PlayService", "WatchTable", request) as frames:
            seen: list[pb.Event] = []
            async for frame in frames:
                assert isinstance(frame, bytes), frame
                seen.append(pb.WatchTableResponse.FromString(frame).event)
                if seen[-1].seq == history.seq:
                    break
            assert [e.seq for e in seen] == list(range(1, history.seq + 1))
            assert any(e.HasField("hand_started") for e in seen)
            await seated.players[0].submit(play("AS"), history.seq)
            frame = await anext(frames)
            assert isinstance(frame, bytes)
            live = pb.WatchTableResponse.FromString(frame).event
            assert live.seq == history.seq + 1
            assert live.card_played.seat == 0 and live.card_played.card == "AS"


@run_async
async def test_watch_refused_in_the_stream() -> None:
    """A refused WatchTable ends its stream with the refusal gRPC gives."""
    async with web_referee() as (ref, web):
        request = pb.WatchTableRequest(table_id="missing")
        async with web.stream("PlayService", "WatchTable", request) as frames:
            ends = [frame async for frame in frames]
        assert len(ends) == 1 and isinstance(ends[0], dict)
        end = ends[0]["error"]
        over_grpc = await refusal_of(ref.play.WatchTable(request).read())
        same_refusal(_refused(200, end), over_grpc, 200)
        assert over_grpc.code == grpc.StatusCode.NOT_FOUND


@run_async
async def test_limits_and_bad_requests() -> None:
    """A request larger than max_message_bytes is refused (RESOURCE_EXHAUSTED, as grpc
    refuses it), bytes that are not the message are ``bad_request`` as over gRPC, and a
    path that is no method is a 404."""
    limits = Limits(
        tables_per_minute=0, uploads_per_minute=0, actions_per_second=0, max_message_bytes=1024
    )
    async with web_referee(limits) as (ref, web):
        big = pb.CreateTableRequest(ruleset_id="x" * 2000, seat_count=4)
        refused = await web_refusal(
            web.unary("TableService", "CreateTable", big, pb.CreateTableResponse)
        )
        assert (refused.status, refused.code) == (429, "resource_exhausted")
        assert "larger than" in refused.message
        with contextlib.suppress(grpc.aio.AioRpcError):
            await ref.tables.CreateTable(big)
            raise AssertionError("gRPC took an oversized request")
        garbled = await web.http.post(
            f"/{PACKAGE}.TableService/GetTable",
            content=b"\xff\xff\xff",
            headers={"content-type": "application/proto"},
        )
        over_grpc = await refusal_of(
            ref.channel.unary_unary(
                f"/{PACKAGE}.TableService/GetTable",
                request_serializer=lambda data: data,
                response_deserializer=pb.GetTableResponse.FromString,
            )(b"\xff\xff\xff")
        )
        assert over_grpc.reason == "bad_request"
        same_refusal(_refused(garbled.status_code, garbled.json()), over_grpc, 400)
        not_json = await web.http.post(
            f"/{PACKAGE}.TableService/GetTable",
            content=b'{"tableId": 7',
            headers={"content-type": "application/json"},
        )
        assert not_json.status_code == 400
        assert _refused(400, not_json.json()).reason == "bad_request"
        for path in (f"/{PACKAGE}.TableService/NoSuchMethod", "/nothing/here"):
            missing = await web.http.post(
                path, content=b"", headers={"content-type": "application/proto"}
            )
            assert missing.status_code == 404


@run_async
async def test_serving_ends_with_the_referee() -> None:
    """Stopping the referee closes the web port too."""
    async with web_referee() as (ref, _):
        endpoint = ref.running.web_endpoint
        assert endpoint is not None
        port = endpoint.port
        await ref.running.stop(0)
        with contextlib.suppress(httpx.TransportError):
            await asyncio.wait_for(
                httpx.AsyncClient().post(f"http://127.0.0.1:{port}/", content=b""), 5
            )
            raise AssertionError("the web port still answers")


@run_async
async def test_tls_on_the_web_port(tmp_path: Path) -> None:
    """With TLS the web port takes the gRPC port's certificate, key and client CA: HTTPS
    only, and under mutual TLS only a client certificate the CA signed gets in."""
    pki = make_pki(tmp_path)
    (tmp_path / "client.pem").write_bytes(pki.client_cert)
    (tmp_path / "client.key").write_bytes(pki.client_key)
    body = pb.ListRulesetsRequest().SerializeToString()
    headers = {"content-type": "application/proto"}
    path = f"/{PACKAGE}.RulesetService/ListRulesets"

    def trusting(with_certificate: bool) -> ssl.SSLContext:
        context = ssl.create_default_context(cafile=str(pki.ca))
        if with_certificate:
            context.load_cert_chain(tmp_path / "client.pem", tmp_path / "client.key")
        return context

    async def call(port: int, context: ssl.SSLContext) -> httpx.Response:
        async with httpx.AsyncClient(verify=context, timeout=5) as client:
            return await client.post(
                f"https://localhost:{port}{path}", content=body, headers=headers
            )

    async with web_referee(tls=Tls(pki.server_cert, pki.server_key)) as (ref, web):
        port = ref.running.web_endpoint.port  # type: ignore[union-attr]
        answer = await call(port, trusting(False))
        assert pb.ListRulesetsResponse.FromString(answer.content).rulesets
        with pytest.raises(httpx.TransportError):
            await web.http.post(path, content=body, headers=headers)  # plain HTTP
    async with web_referee(tls=Tls(pki.server_cert, pki.server_key, pki.ca)) as (ref, _):
        port = ref.running.web_endpoint.port  # type: ignore[union-attr]
        assert (await call(port, trusting(True))).status_code == 200
        with pytest.raises(httpx.TransportError):
            await call(port, trusting(False))


@run_async
async def test_grpc_web_too() -> None:
    """The same port answers gRPC-Web (its status in a trailer frame of the body)."""
    async with web_referee() as (_, web):
        answer = await web.http.post(
            f"/{PACKAGE}.TableService/GetTable",
            content=struct.pack(">BI", 0, 0),
            headers={"content-type": "application/grpc-web+proto", "x-grpc-web": "1"},
        )
        assert answer.status_code == 200
        trailer = answer.content
        flags, size = struct.unpack(">BI", trailer[:5])
        assert flags & 0x80 and len(trailer) == 5 + size
        text = trailer[5:].decode().lower()
        assert "grpc-status: 5" in text and "grpc-status-details-bin" in text
