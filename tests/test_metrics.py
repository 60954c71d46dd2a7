"""The referee's Prometheus metrics: moves, refusals by reason, latency by method and code,
open streams and tables by status, read from the server's own registry, and once over HTTP.

Every count is exact: each test runs its own referee, whose registry counts only its calls.
"""

from __future__ import annotations

import asyncio
import socket
import urllib.error
import urllib.request
from typing import Any

import grpc
import pytest
from bhabhi.referee.v1 import referee_pb2 as pb
from server_helpers import (
    BHABHO_DEAL,
    Player,
    Referee,
    drain_stream,
    play,
    referee,
    refusal_of,
    run_async,
    seat_table,
)

from referee.server.app import RefereeServer, create_server
from referee.server.observe import MOVE_KINDS, Metrics
from referee.server.store.memory import MemoryStore


def sample(server: RefereeServer, name: str, **labels: str) -> float | None:
    return server.metrics.registry.get_sample_value(name, labels)


def moves(server: RefereeServer) -> dict[str, float | None]:
    return {kind: sample(server, "bhabhi_moves_total", kind=kind) for kind in MOVE_KINDS}


def calls(server: RefereeServer, method: str, code: str) -> float | None:
    return sample(server, "bhabhi_rpc_seconds_count", method=method, code=code)


async def settled(server: RefereeServer, name: str, value: float) -> float | None:
    """The sample once it reaches ``value`` (a stream's end reaches the server a little
    after the client cancels it); what it is after many turns of the event loop otherwise."""
    for _ in range(1000):
        if sample(server, name) == value:
            break
        await asyncio.sleep(0.005)
    return sample(server, name)


@run_async
async def test_moves_refusals_latency_and_tables_are_counted_exactly() -> None:
    async with referee(test_mode=True) as ref:
        server = ref.running
        assert moves(server) == dict.fromkeys(MOVE_KINDS, 0.0)
        assert sample(server, "bhabhi_tables", status="open") == 0.0
        seated = await seat_table(ref, "bhabho", 4, deal=BHABHO_DEAL)
        p0, p1 = seated.players[:2]
        seq = (await p0.view()).seq

        # Three refusals of SubmitAction, each with its reason: the rules, the credential,
        # and bytes that are not a request at all (refused by the guard, not the servicer).
        assert (await refusal_of(p1.submit(play("KS"), seq))).reason == "not_your_turn"
        stranger = Player(p1.stubs, seated.table_id, 1, "not-a-token")
        assert (await refusal_of(stranger.submit(play("KS"), seq))).reason == "bad_credential"
        raw = ref.channel.unary_unary(
            "/bhabhi.referee.v1.PlayService/SubmitAction",
            request_serializer=bytes,
            response_deserializer=bytes,
        )
        assert (await refusal_of(raw(b"\xff\xff\xff\xff\x0f"))).reason == "bad_request"
        missing = ref.play.WatchTable(pb.WatchTableRequest(table_id="no-such-table"))
        assert (await refusal_of(missing.read())).reason == "table_not_found"

        await p0.submit(play("AS"), seq)

        assert moves(server) == {
            "join": 4.0,
            "leave": 0.0,
            "start": 1.0,
            "deal": 0.0,  # the first hand is dealt by the start; "deal" is for the next
            "action": 1.0,
            "timeout": 0.0,
            "close": 0.0,  # an open table nobody came to
        }
        refusals = {
            ("SubmitAction", "not_your_turn"): 1.0,
            ("SubmitAction", "bad_credential"): 1.0,
            ("SubmitAction", "bad_request"): 1.0,
            ("WatchTable", "table_not_found"): 1.0,
        }
        for (method, reason), count in refusals.items():
            assert sample(server, "bhabhi_refusals_total", method=method, reason=reason) == count
        assert (
            sample(server, "bhabhi_refusals_total", method="JoinTable", reason="seat_taken") is None
        )

        assert calls(server, "SubmitAction", "OK") == 1.0
        assert calls(server, "SubmitAction", "FAILED_PRECONDITION") == 1.0
        assert calls(server, "SubmitAction", "UNAUTHENTICATED") == 1.0
        assert calls(server, "SubmitAction", "INVALID_ARGUMENT") == 1.0
        assert calls(server, "CreateTable", "OK") == 1.0
        assert calls(server, "JoinTable", "OK") == 4.0
        assert calls(server, "StartTable", "OK") == 1.0
        assert calls(server, "WatchTable", "OK") is None  # streams are counted, not timed
        every = sample(
            server, "bhabhi_rpc_seconds_bucket", method="SubmitAction", code="OK", le="+Inf"
        )
        assert every == 1.0
        took = sample(server, "bhabhi_rpc_seconds_sum", method="SubmitAction", code="OK")
        assert took is not None  # how long is not this test's business

        # Tables by status, as held when the registry is read.
        await seat_table(ref, "bhabho", 4, start=False)
        assert sample(server, "bhabhi_tables", status="open") == 1.0
        assert sample(server, "bhabhi_tables", status="playing") == 1.0
        assert sample(server, "bhabhi_tables", status="finished") == 0.0


@run_async
async def test_the_streams_gauge_follows_watchers_in_and_out() -> None:
    async with referee() as ref:
        server = ref.running
        seated = await seat_table(ref, "bhabho", 4)
        last = (await seated.table()).last_seq
        assert sample(server, "bhabhi_streams") == 0.0
        seat_stream = seated.players[0].watch(0)
        await drain_stream(seat_stream, last)  # the server is streaming to it now
        assert sample(server, "bhabhi_streams") == 1.0
        spectator = seated.spectator_watch(0)
        await drain_stream(spectator, last)
        assert sample(server, "bhabhi_streams") == 2.0
        seat_stream.cancel()
        assert await settled(server, "bhabhi_streams", 1.0) == 1.0
        spectator.cancel()
        assert await settled(server, "bhabhi_streams", 0.0) == 0.0
        # A stream refused at once is in and out again.
        missing = ref.play.WatchTable(pb.WatchTableRequest(table_id="no-such-table"))
        assert (await refusal_of(missing.read())).reason == "table_not_found"
        assert await settled(server, "bhabhi_streams", 0.0) == 0.0


@run_async
async def test_a_referee_stopping_ends_its_streams_in_the_gauge() -> None:
    async with referee() as ref:
        server = ref.running
        seated = await seat_table(ref, "bhabho", 4)
        last = (await seated.table()).last_seq
        stream = seated.players[0].watch(0)
        await drain_stream(stream, last)
        assert sample(server, "bhabhi_streams") == 1.0
        await server.referee.drain()  # what stop() does first: streams end "unavailable"
        assert (await refusal_of(stream.read())).reason == "unavailable"
        assert await settled(server, "bhabhi_streams", 0.0) == 0.0
        unavailable = sample(
            server, "bhabhi_refusals_total", method="WatchTable", reason="unavailable"
        )
        assert unavailable == 1.0


def _scrape(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as answer:
        text: str = answer.read().decode()
        return text


@run_async
async def test_the_metrics_are_served_over_http_until_the_referee_stops() -> None:
    server, port = await create_server(
        "127.0.0.1:0", store=MemoryStore(), metrics_address=("127.0.0.1", 0)
    )
    ref = Referee(port, server)
    try:
        endpoint = server.metrics_endpoint
        assert endpoint is not None and endpoint.port > 0
        assert endpoint.url == f"http://127.0.0.1:{endpoint.port}/metrics"
        await seat_table(ref, "bhabho", 4)
        text = await asyncio.to_thread(_scrape, endpoint.url)
        assert "# TYPE bhabhi_moves_total counter" in text
        assert 'bhabhi_moves_total{kind="join"} 4.0' in text
        assert 'bhabhi_tables{status="playing"} 1.0' in text
        assert "# TYPE bhabhi_rpc_seconds histogram" in text
        assert 'bhabhi_rpc_seconds_count{code="OK",method="JoinTable"} 4.0' in text
        assert "bhabhi_streams 0.0" in text
        assert "process_cpu_seconds_total" in text
    finally:
        await ref.close()
        await server.stop(0)
    assert server.metrics_endpoint is None
    with pytest.raises(urllib.error.URLError):
        await asyncio.to_thread(_scrape, endpoint.url)


@run_async
async def test_a_metrics_port_in_use_is_an_error_that_says_so() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        with pytest.raises(OSError) as error:
            await create_server(
                "127.0.0.1:0", store=MemoryStore(), metrics_address=("127.0.0.1", busy)
            )
    assert str(error.value).startswith(f"cannot serve metrics on 127.0.0.1:{busy}: ")


def test_each_metrics_has_a_registry_of_its_own() -> None:
    first, second = Metrics(), Metrics()
    first.moved("action")
    first.refused("GetView", "bad_credential")
    record: Any = first.timer("GetView")
    record(grpc.StatusCode.UNAUTHENTICATED, 0.002)
    record(None, 0.0004)
    assert first.registry.get_sample_value("bhabhi_moves_total", {"kind": "action"}) == 1.0
    assert second.registry.get_sample_value("bhabhi_moves_total", {"kind": "action"}) == 0.0
    assert (
        first.registry.get_sample_value(
            "bhabhi_refusals_total", {"method": "GetView", "reason": "bad_credential"}
        )
        == 1.0
    )
    buckets = {"method": "GetView", "code": "OK", "le": "0.0005"}
    assert first.registry.get_sample_value("bhabhi_rpc_seconds_bucket", buckets) == 1.0
    failed = {"method": "GetView", "code": "UNAUTHENTICATED", "le": "0.001"}
    assert first.registry.get_sample_value("bhabhi_rpc_seconds_bucket", failed) == 0.0
    failed["le"] = "0.0025"
    assert first.registry.get_sample_value("bhabhi_rpc_seconds_bucket", failed) == 1.0
    first.moved("a_kind_added_later")
    assert (
        first.registry.get_sample_value("bhabhi_moves_total", {"kind": "a_kind_added_later"}) == 1.0
    )
