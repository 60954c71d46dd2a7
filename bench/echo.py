"""``python -m bench.echo --port P``: a bare gRPC echo service, the yardstick of the referee bench.

It serves the referee's own ``PlayService`` (the generated servicer, the same ``grpc.aio``
server and channel options) and answers ``SubmitAction`` at once, without a table, an engine
or a store: the request's action comes back as one ``card_played`` event at
``expected_seq + 1``, the shape and size of the referee's commonest answer.  What the referee
does beyond this is the price of validating, storing and answering a move; ``bench.referee``
measures both with the same load generator in the same run.

The other methods answer UNIMPLEMENTED: the load generator calls only ``SubmitAction`` here.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from collections.abc import AsyncIterator
from typing import Any

import grpc
from bhabhi.referee.v1 import referee_pb2 as pb
from bhabhi.referee.v1 import referee_pb2_grpc as rpc
from google.protobuf import timestamp_pb2

from referee.server.app import KEEPALIVE_OPTIONS

_TIME = timestamp_pb2.Timestamp(seconds=1_767_225_600, nanos=123_456_000)
"""A fixed event time: the referee stamps every event, so the echo's answer carries one too."""


Context = grpc.aio.ServicerContext[Any, Any]


class EchoPlayService(rpc.PlayServiceServicer):
    """``SubmitAction`` echoes the action as the event it would have caused; nothing else."""

    async def SubmitAction(
        self, request: pb.SubmitActionRequest, context: Context
    ) -> pb.SubmitActionResponse:
        seq = request.expected_seq + 1
        event = pb.Event(
            seq=seq,
            time=_TIME,
            hand_number=0,
            to_act=[1],
            card_played=pb.CardPlayed(seat=0, card=request.action.card, trick=1, role="follow"),
        )
        return pb.SubmitActionResponse(events=[event], last_seq=seq)

    async def GetView(self, request: pb.GetViewRequest, context: Context) -> pb.GetViewResponse:
        await context.abort(grpc.StatusCode.UNIMPLEMENTED, "the echo service only echoes")

    async def WatchTable(
        self, request: pb.WatchTableRequest, context: Context
    ) -> AsyncIterator[pb.WatchTableResponse]:
        await context.abort(grpc.StatusCode.UNIMPLEMENTED, "the echo service only echoes")
        yield pb.WatchTableResponse()  # pragma: no cover - abort raises

    async def ExportHand(
        self, request: pb.ExportHandRequest, context: Context
    ) -> pb.ExportHandResponse:
        await context.abort(grpc.StatusCode.UNIMPLEMENTED, "the echo service only echoes")

    async def ReplayTestActions(
        self, request: pb.ReplayTestActionsRequest, context: Context
    ) -> pb.ReplayTestActionsResponse:
        await context.abort(grpc.StatusCode.UNIMPLEMENTED, "the echo service only echoes")


async def create_echo_server(address: str = "127.0.0.1:0") -> tuple[grpc.aio.Server, int]:
    """Start the echo service on ``address``; return the server and the port bound."""
    server = grpc.aio.server(options=KEEPALIVE_OPTIONS)
    rpc.add_PlayServiceServicer_to_server(EchoPlayService(), server)
    port = server.add_insecure_port(address)
    await server.start()
    return server, port


async def _serve(host: str, port: int) -> None:
    server, bound = await create_echo_server(f"{host}:{port}")
    print(f"bhabhi echo listening on {host}:{bound}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await server.stop(1.0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.echo", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port (printed)")
    args = parser.parse_args(argv)
    asyncio.run(_serve(args.host, args.port))
    return 0


if __name__ == "__main__":
    sys.exit(main())
