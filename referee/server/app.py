"""Assembling and running the referee: gRPC server, health, reflection, TLS, signals, drain.

``create_server`` is what tests use (bind port 0, get the port back); ``bhabhi serve`` is
what ``make run`` starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import gc
import logging
import os
import signal
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import grpc
from bhabhi.referee.v1 import referee_pb2 as pb
from google.protobuf.descriptor import ServiceDescriptor
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection, reflection_pb2, reflection_pb2_grpc

from referee.reasons import Reason
from referee.server import guard, web
from referee.server.errors import Refusal
from referee.server.limits import Limits
from referee.server.observe import Metrics, MetricsEndpoint, why_not_listening
from referee.server.service import PlayService, RulesetService, TableService, refuse
from referee.server.store import Store
from referee.server.store.opening import describe_store, open_store
from referee.server.table import KEEP_FINISHED, Referee

log = logging.getLogger("bhabhi.server")

KEEPALIVE_OPTIONS = [
    # Ping idle connections so that quiet games (a player thinking) are not dropped by
    # proxies, and accept clients' pings at the same rate.
    ("grpc.keepalive_time_ms", 20_000),
    ("grpc.keepalive_timeout_ms", 10_000),
    ("grpc.keepalive_permit_without_calls", 1),
    ("grpc.http2.min_ping_interval_without_data_ms", 5_000),
    ("grpc.http2.max_pings_without_data", 0),
]

SERVICE_NAMES = (
    pb.DESCRIPTOR.services_by_name["RulesetService"].full_name,
    pb.DESCRIPTOR.services_by_name["TableService"].full_name,
    pb.DESCRIPTOR.services_by_name["PlayService"].full_name,
)


@dataclass(frozen=True, slots=True)
class Tls:
    cert: Path
    key: Path
    client_ca: Path | None = None
    """With a client CA, clients must present a certificate it signed (mutual TLS)."""

    def credentials(self) -> grpc.ServerCredentials:
        ca = self.client_ca.read_bytes() if self.client_ca is not None else None
        return grpc.ssl_server_credentials(
            [(self.key.read_bytes(), self.cert.read_bytes())],
            root_certificates=ca,
            require_client_auth=ca is not None,
        )


class Drain:
    """The unary calls the servicers are handling, and, once the referee drains, the
    refusal of every new one.

    grpc's own graceful stop lets the calls the servicers hold finish, but cancels at once
    those it has received and not yet handed to them (grpc.aio takes its calls one at a
    time): 900 GetTable calls sent at a referee over four connections, then SIGTERM, and
    the 594 still waiting ended CANCELLED, which no client retries, well inside the 5 s
    grace.  So the server keeps serving through the drain: every call that reaches a
    servicer then is refused with ``unavailable`` (UNAVAILABLE: retried later or on another
    replica, with the same request_id; 698 of the 900, none cancelled), and grpc is stopped
    once the calls being handled are done and grpc has handed over all it held."""

    QUIET = 0.1
    """Seconds without a call reaching a servicer after which grpc holds none back: with
    900 waiting, the longest gap between two was 7 ms.  Without this wait (the servicers
    idle, so grpc stopped at once) 610 of those 900 were cancelled all the same."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self.calls = 0
        """Unary calls in a servicer now (``bhabhi_calls_in_flight``)."""
        self.draining = False
        self._idle: asyncio.Event | None = None
        self._last_refused = time.monotonic()
        metrics.count_calls(lambda: self.calls)

    def counted(self, servicer: object, service: ServiceDescriptor) -> SimpleNamespace:
        """``servicer``'s methods, the unary ones counted and refused while draining; the
        streaming ones as they are (the referee's own drain ends them)."""
        methods = {}
        for method in service.methods:
            behaviour = getattr(servicer, method.name)
            if not method.server_streaming:
                behaviour = self._counted(method.name, behaviour)
            methods[method.name] = behaviour
        return SimpleNamespace(**methods)

    def _counted(self, name: str, behaviour: Callable[..., Any]) -> Callable[..., Any]:
        async def call(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
            if self.draining:
                self._last_refused = time.monotonic()
                self.metrics.refused(name, Reason.UNAVAILABLE, getattr(request, "table_id", ""))
                await refuse(context, Refusal(Reason.UNAVAILABLE))
            self.calls += 1
            try:
                return await behaviour(request, context)
            finally:
                self.calls -= 1
                if not self.calls and self._idle is not None:
                    self._idle.set()

        return call

    def begin(self) -> None:
        """Refuse every call that reaches a servicer from now on."""
        self.draining = True
        self._last_refused = time.monotonic()

    async def settle(self, timeout: float) -> None:
        """Wait until no call is being handled and none has been refused for ``QUIET``
        seconds (grpc has handed over every call it held), or ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            if self.calls:
                self._idle = asyncio.Event()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._idle.wait(), deadline - time.monotonic())
            now = time.monotonic()
            quiet = self._last_refused + self.QUIET
            if (now >= quiet and not self.calls) or now >= deadline:
                return
            await asyncio.sleep(min(quiet, deadline) - now)


class RefereeServer:
    """A running referee: the gRPC server, the referee behind it, and its health."""

    def __init__(
        self,
        server: grpc.aio.Server,
        referee: Referee,
        health: health.aio.HealthServicer,
        metrics: Metrics | None = None,
        drain: Drain | None = None,
    ):
        self.server = server
        self.referee = referee
        self.health = health
        self.housekeeping: asyncio.Future[None] | None = None
        self.metrics = metrics if metrics is not None else Metrics(referee)
        """Counted whether or not they are served: tests read ``metrics.registry``."""
        self.drain = drain if drain is not None else Drain(self.metrics)
        self.metrics_endpoint: MetricsEndpoint | None = None
        self.web_endpoint: web.WebEndpoint | None = None
        """The Connect and gRPC-Web API for browsers (``--web-port``), if served."""

    async def stop(self, grace: float | None = 5.0) -> None:
        """Drain, then stop: report NOT_SERVING, end the event streams, refuse new calls
        while those being handled finish (up to ``grace`` seconds; 0 or None: none waits),
        then stop serving and close the store."""
        began = time.monotonic()
        self.drain.begin()
        await self.health.enter_graceful_shutdown()
        await self.referee.drain()  # event streams end now: they would hold up the grace
        if grace:
            await self.drain.settle(grace - (time.monotonic() - began))
        left = None if grace is None else max(0.0, grace - (time.monotonic() - began))
        stops = [self.server.stop(left)]  # a health Watch may still hold it up to the grace
        if self.web_endpoint is not None:
            stops.append(self.web_endpoint.stop(left))
        await asyncio.gather(*stops)
        if self.housekeeping is not None:
            self.housekeeping.cancel()
        try:
            await self.referee.stop()
        finally:
            endpoint, self.metrics_endpoint = self.metrics_endpoint, None
            await _close(endpoint)  # served until the very end of the drain

    async def wait_for_termination(self) -> None:
        await self.server.wait_for_termination()


async def create_server(
    address: str = "127.0.0.1:0",
    *,
    store: Store | None = None,
    db: str | Path | None = None,
    test_mode: bool = False,
    allow_register: bool = False,
    tls: Tls | None = None,
    limits: Limits | None = None,
    metrics_address: tuple[str, int] | None = None,
    keep_finished: float = KEEP_FINISHED,
    reuse_port: bool = False,
    web_address: tuple[str, int] | None = None,
) -> tuple[RefereeServer, int]:
    """Start a referee on ``address``; return it and the port bound (for ``:0``).

    With ``metrics_address`` (host, port; port 0: a free one), Prometheus metrics are
    served over HTTP at ``/metrics`` there too (``running.metrics_endpoint.port``).  With
    ``web_address`` (host, port; port 0: a free one), the same services are served to
    browsers over the Connect protocol and gRPC-Web there (``running.web_endpoint.port``).

    The port is the referee's alone unless ``reuse_port``: grpc sets SO_REUSEPORT by
    default, and a second referee on a port in use would start as if all were well, the
    kernel then sharing the clients between the two.  A port in use is an ``OSError``
    ("cannot listen on ADDRESS: the port is in use"), found before the metrics port is
    opened, and that before the store is."""
    _check_port(address, reuse_port)
    web_socket = web.listen(*web_address) if web_address is not None else None
    try:
        return await _create(
            address,
            web_socket,
            store,
            db,
            test_mode,
            allow_register,
            tls,
            limits,
            metrics_address,
            keep_finished,
            reuse_port,
        )
    except BaseException:
        if web_socket is not None:
            web_socket.close()
        raise


async def _create(
    address: str,
    web_socket: socket.socket | None,
    store: Store | None,
    db: str | Path | None,
    test_mode: bool,
    allow_register: bool,
    tls: Tls | None,
    limits: Limits | None,
    metrics_address: tuple[str, int] | None,
    keep_finished: float,
    reuse_port: bool,
) -> tuple[RefereeServer, int]:
    if store is None:
        store = open_store(db)  # a postgresql:// URL, or a SQLite file (default var/)
    limits = limits or Limits()
    referee = Referee(
        store,
        test_mode=test_mode,
        allow_register=allow_register,
        limits=limits,
        keep_finished=keep_finished,
    )
    metrics = Metrics(referee)
    endpoint = metrics.serve(*metrics_address) if metrics_address is not None else None
    try:
        await referee.start()
    except BaseException:
        await _close(endpoint)
        raise
    web_endpoint: web.WebEndpoint | None = None
    try:
        server = grpc.aio.server(
            options=[
                *KEEPALIVE_OPTIONS,
                ("grpc.max_receive_message_length", limits.max_message_bytes),
                ("grpc.so_reuseport", 1 if reuse_port else 0),
            ]
        )
        drain = Drain(metrics)
        services = _servicers(referee, metrics, drain)
        health_servicer = await _add_services(server, services, metrics)
        port = _listen(server, address, tls, reuse_port)
        if web_socket is not None:
            web_app = web.app(services, refuse, metrics, limits.max_message_bytes)
            web_endpoint = await web.WebEndpoint.start(web_app, web_socket, tls=tls)
        await server.start()
    except BaseException:
        try:
            if web_endpoint is not None:
                await web_endpoint.stop(0)
            await referee.stop()
        finally:
            await _close(endpoint)
        raise
    running = RefereeServer(server, referee, health_servicer, metrics, drain)
    running.metrics_endpoint = endpoint
    running.web_endpoint = web_endpoint
    running.housekeeping = asyncio.ensure_future(_collect_garbage())
    return running, port


Servicers = dict[str, tuple[ServiceDescriptor, SimpleNamespace]]
"""Each service's descriptor and its methods as ``Drain.counted`` gives them, by name."""


def _servicers(referee: Referee, metrics: Metrics, drain: Drain) -> Servicers:
    """The referee's three services, their calls counted by ``drain``: the one set of
    servicers both the gRPC port and the web port serve."""
    services = pb.DESCRIPTOR.services_by_name
    return {
        name: (services[name], drain.counted(servicer, services[name]))
        for name, servicer in (
            ("RulesetService", RulesetService(referee, metrics)),
            ("TableService", TableService(referee, metrics)),
            ("PlayService", PlayService(referee, metrics)),
        )
    }


async def _add_services(
    server: grpc.aio.Server, services: Servicers, metrics: Metrics
) -> health.aio.HealthServicer:
    """The referee's three services, health (every service SERVING) and reflection."""
    for service, servicer in services.values():  # bytes that do not decode are refused
        guard.add_service(server, service, servicer, refuse, metrics)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for name in ("", *SERVICE_NAMES):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    _add_reflection(server)
    return health_servicer


REFLECTION_V1 = "grpc.reflection.v1.ServerReflection"
"""Where current tools (grpcurl, Postman, grpcui) ask first; grpcio-reflection serves only
``grpc.reflection.v1alpha.ServerReflection``."""


def _add_reflection(server: grpc.aio.Server) -> None:
    """Server reflection under v1alpha and under v1: one servicer, the same method.

    v1 is v1alpha renamed: the same messages, field for field, so the v1alpha messages
    decode and encode v1's.  Listing names v1alpha only, since v1's own descriptors are not
    in this process to describe it with."""
    servicer = reflection.aio.ReflectionServicer(
        (
            *SERVICE_NAMES,
            health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
            reflection.SERVICE_NAME,
        )
    )
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(servicer, server)
    info = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
    )
    methods = {"ServerReflectionInfo": info}
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(REFLECTION_V1, methods),))
    server.add_registered_method_handlers(REFLECTION_V1, methods)


def _listen(server: grpc.aio.Server, address: str, tls: Tls | None, reuse_port: bool) -> int:
    """Bind ``address``; the port bound.  When grpc cannot, it raises only "Failed to bind"
    (its reason goes to stderr, as its own log line): ``_check_port`` says why, when it
    can."""
    try:
        if tls is not None:
            return server.add_secure_port(address, tls.credentials())
        return server.add_insecure_port(address)
    except RuntimeError:  # "Failed to bind to address …"
        _check_port(address, reuse_port)  # taken since it was checked
        raise OSError(f"cannot listen on {address}") from None


def _check_port(address: str, reuse_port: bool) -> None:
    """Raise ``OSError`` if the port of ``address`` (``host:port``) is in use on one of the
    host's addresses (never for port 0, which asks for a free one).

    A socket is bound as grpc binds its own (SO_REUSEADDR, and SO_REUSEPORT with
    ``reuse_port``) to each address the host resolves to, and closed at once.  Other
    failures (an address this machine does not have, a port below 1024) are left to grpc,
    which may still bind the host's other addresses."""
    host, _, port_text = address.rpartition(":")
    try:
        port = int(port_text)
    except ValueError:  # not host:port: grpc says what it makes of it
        return
    if port == 0:
        return
    try:
        found = socket.getaddrinfo(
            host.strip("[]") or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except OSError:  # a name that does not resolve: grpc says so
        return
    for family, kind, protocol, _, sockaddr in found:
        with socket.socket(family, kind, protocol) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if reuse_port:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            try:
                probe.bind(sockaddr)
            except OSError as error:
                if error.errno == errno.EADDRINUSE:
                    raise OSError(
                        f"cannot listen on {address}: {why_not_listening(error)}"
                    ) from error


async def _close(endpoint: MetricsEndpoint | None) -> None:
    if endpoint is not None:
        await asyncio.to_thread(endpoint.close)


GC_PERIOD = 5.0
"""Seconds between freezes. Tables live in memory for the process's life, so the cyclic
collector's full passes would grow with them (pauses of 100 ms and more after a minute of
1,000 tables). Every few seconds the young generations are collected (cheap) and what
survived is frozen, so that no automatic pass ever walks the long-lived tables again."""


async def _collect_garbage() -> None:
    gc.freeze()
    while True:
        await asyncio.sleep(GC_PERIOD)
        gc.collect(1)
        gc.freeze()


SWITCH_INTERVAL = 0.001
"""Seconds a thread waiting for the GIL lets the running one go on (Python's default: 5 ms).
The store's writer needs the GIL for a moment between its statements; while the event loop
is busy it would wait up to this long each time, and every move waits for a commit."""


async def serve(
    host: str,
    port: int,
    *,
    db: str,
    test_mode: bool,
    allow_register: bool,
    tls: Tls | None,
    limits: Limits | None = None,
    metrics_host: str = "127.0.0.1",
    metrics_port: int = 0,
    keep_finished: float = KEEP_FINISHED,
    reuse_port: bool = False,
    web_host: str = "127.0.0.1",
    web_port: int | None = None,
) -> None:
    """Run the referee until SIGTERM or SIGINT; ``metrics_port`` 0: no metrics endpoint;
    ``web_port`` None: no web endpoint (0: a free port, printed)."""
    sys.setswitchinterval(SWITCH_INTERVAL)
    running, bound = await create_server(
        f"{host}:{port}",
        db=db,
        test_mode=test_mode,
        allow_register=allow_register,
        tls=tls,
        limits=limits,
        metrics_address=(metrics_host, metrics_port) if metrics_port else None,
        keep_finished=keep_finished,
        reuse_port=reuse_port,
        web_address=(web_host, web_port) if web_port is not None else None,
    )
    mode = " (TEST MODE: explicit deals allowed)" if test_mode else ""
    shown = describe_store(db)  # a URL's password stays hidden
    print(f"bhabhi referee listening on {host}:{bound} (store {shown}){mode}", flush=True)
    site = running.web_endpoint
    if site is not None:
        print(f"web API (Connect, gRPC-Web) on http://{web_host}:{site.port}/", flush=True)
    endpoint = running.metrics_endpoint
    log.info(
        "referee started",
        extra={
            "address": f"{host}:{bound}",
            "store": shown,
            "test_mode": test_mode,
            "metrics": endpoint.url if endpoint is not None else None,
            "web": f"{web_host}:{site.port}" if site is not None else None,
        },
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    print("draining …", flush=True)
    grace = float(os.environ.get("BHABHI_DRAIN_SECONDS", "5"))
    log.info("draining", extra={"grace_seconds": grace})
    await running.stop(grace=grace)
    log.info("stopped")
