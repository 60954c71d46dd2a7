"""The referee's own API for a browser: the Connect protocol (and gRPC-Web) over HTTP/1.1.

A browser cannot speak gRPC (it has no access to HTTP/2 trailers), so beside the gRPC port
the referee serves the same three services with ``connectrpc`` as an ASGI application
under uvicorn, in the same process and event loop, on the same ``Referee``.  Nothing here
decides anything: every call goes through the very method handlers the gRPC server has
(``guard.handlers`` over the drain-counted servicers), with a ``WebContext`` standing in
for grpc's servicer context.  So a refusal leaves as it does over gRPC: the same code, the
same message in the caller's language, the same ``ErrorInfo``, ``LocalizedMessage`` and
``RetryInfo`` details; and the per-client limits count a caller the same way, whichever
port it comes in on.

What HTTP adds is guarded here: a request body larger than ``Limits.max_message_bytes`` is
refused (RESOURCE_EXHAUSTED) before it is decoded, as grpc refuses it; headers are bounded
by uvicorn (16 KiB); uvicorn's own reading of ``X-Forwarded-For`` is off, since the referee
reads it itself, and only behind ``Limits.trusted_proxy_hops`` proxies.

The same port serves the web table's page (``Page``): the files ``make page`` builds into
``referee/server/page/``, at "/" and at their own names, answered to GET and HEAD only.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import math
import re
import socket
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import grpc
import uvicorn
from connectrpc.code import Code
from connectrpc.errors import ConnectError, ErrorDetail
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.request import RequestContext
from connectrpc.server import ConnectASGIApplication, Endpoint
from google.protobuf import descriptor_pb2, json_format, message_factory
from google.protobuf.descriptor import MethodDescriptor, ServiceDescriptor
from google.protobuf.message import Message
from google.rpc import status_pb2
from protobuf.wkt import Any as AnyDetail

from referee.server import guard
from referee.server.observe import why_not_listening

if TYPE_CHECKING:
    from connectrpc.codec import Codec

    from referee.server.app import Tls
    from referee.server.errors import Refusal
    from referee.server.observe import Metrics

STATUS_DETAILS = "grpc-status-details-bin"
"""Where ``grpc_status.rpc_status.to_status`` puts the ``google.rpc.Status`` it built."""

NOT_BUILT = b"the web table is not built yet\n"
NOT_FOUND = b"not found\n"

PAGE_DIRECTORY = Path(__file__).resolve().parent / "page"
"""Where ``make page`` (web/build.mjs) writes the built page, inside the package."""

PAGE_TYPES: dict[str, bytes] = {
    ".html": b"text/html; charset=utf-8",
    ".js": b"text/javascript; charset=utf-8",
    ".css": b"text/css; charset=utf-8",
    ".map": b"application/json; charset=utf-8",
    ".svg": b"image/svg+xml",
    ".png": b"image/png",
    ".ico": b"image/x-icon",
}
"""The page's files by suffix, with their content types; a file of any other suffix is
not served."""

PAGE_POLICY = (
    b"default-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data:; "
    b"style-src 'self' 'unsafe-inline'; frame-src 'self' about:; object-src 'none'; "
    b"base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""The page's Content-Security-Policy: nothing from elsewhere (no CDN, no font, no
script but its own), no call but to the referee that served it. Inline styles are
allowed: the rulebook (GetRulebook's HTML, shown in a frame) carries its CSS inline."""

PAGE_NAME = re.compile(r"/[A-Za-z0-9_-][A-Za-z0-9_.-]*")
"""A page file's path: one segment, no slash and no leading dot (so never ``..``, never a
hidden file). The API's paths (``/package.Service/Method``) have two segments."""

_CODES: dict[grpc.StatusCode, Code] = {
    code: Code(code.name.lower().replace("cancelled", "canceled"))
    for code in grpc.StatusCode
    if code != grpc.StatusCode.OK
}
"""grpc's status codes as Connect names them (the same codes; Connect spells "canceled")."""


class WebRefusal(grpc.aio.AbortError, ConnectError):
    """A call ended with a refusal: an ``AbortError`` to the gRPC layer (so ``guard`` counts
    it under its own status code, as it counts an aborted gRPC call) and a
    ``ConnectError`` to connectrpc, which writes it out with its details."""

    def __init__(self, code: Code, message: str, details: list[ErrorDetail]) -> None:
        ConnectError.__init__(self, code, message, details)


def connect_error(status: grpc.Status) -> WebRefusal:
    """The refusal a gRPC status says, for connectrpc: its code, its message, and the
    details of the ``google.rpc.Status`` in its trailing metadata, byte for byte."""
    details = []
    for key, value in status.trailing_metadata or ():
        if key == STATUS_DETAILS and isinstance(value, bytes):
            for packed in status_pb2.Status.FromString(value).details:
                details.append(ErrorDetail(AnyDetail(type_url=packed.type_url, value=packed.value)))
    return WebRefusal(_CODES[status.code], status.details or "", details)


class WebContext:
    """What the gRPC layer asks of ``grpc.aio.ServicerContext``, answered from an HTTP
    request: its headers as metadata, its peer as grpc names one, and aborting."""

    __slots__ = ("_code", "_request")

    def __init__(self, request: RequestContext[Any, Any]) -> None:
        self._request = request
        self._code: grpc.StatusCode | None = None

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        return tuple(
            (key.lower(), value) for key, value in self._request.request_headers.allitems()
        )

    def peer(self) -> str:
        """``ipv4:HOST:PORT`` or ``ipv6:[HOST]:PORT``, as grpc says it, so that a client's
        address counts the same against the per-address limits on either port."""
        address = self._request.client_address or ""
        host, _, port = address.rpartition(":")
        if ":" in host:
            return f"ipv6:[{host.strip('[]')}]:{port}"
        return f"ipv4:{host}:{port}" if host else ""

    async def abort_with_status(self, status: grpc.Status) -> NoReturn:
        self._code = status.code
        raise connect_error(status)

    def code(self) -> grpc.StatusCode | None:
        return self._code


class _Codec:
    """A protobuf codec (``google.protobuf`` messages) whose decoding never raises: bytes
    that do not parse become ``guard.Undecodable``, which the method then refuses with
    ``bad_request`` and its ``ErrorInfo``, as over gRPC."""

    def __init__(self, name: str) -> None:
        self._name = name

    def name(self) -> str:
        return self._name

    def encode(self, message: Message) -> bytes:
        if self._name == "json":
            return json_format.MessageToJson(message, indent=None).encode()
        return message.SerializeToString()

    def decode(self, data: bytes | bytearray, message_class: type[Message]) -> Any:
        if self._name != "json":
            return guard.decoded(message_class, bytes(data))
        message = message_class()
        try:
            json_format.Parse(bytes(data), message, ignore_unknown_fields=True)
        except (json_format.ParseError, ValueError, RecursionError) as error:
            return guard.Undecodable(message.DESCRIPTOR.full_name, " ".join(str(error).split()))
        return message


CODECS: list[Codec[Any, Any]] = [_Codec("proto"), _Codec("json")]


def _method_info(method: MethodDescriptor) -> MethodInfo[Any, Any]:
    options = method.GetOptions()
    side_effects = options.idempotency_level == descriptor_pb2.MethodOptions.NO_SIDE_EFFECTS
    return MethodInfo(
        name=method.name,
        service_name=method.containing_service.full_name,
        input=message_factory.GetMessageClass(method.input_type),
        output=message_factory.GetMessageClass(method.output_type),
        idempotency_level=(
            IdempotencyLevel.NO_SIDE_EFFECTS if side_effects else IdempotencyLevel.UNKNOWN
        ),
        stream_type=StreamType.SERVER_STREAM if method.server_streaming else StreamType.UNARY,
    )


def _unary(
    info: MethodInfo[Any, Any], behaviour: Callable[[Any, Any], Awaitable[Any]]
) -> Endpoint[Any, Any]:
    async def call(request: Any, context: RequestContext[Any, Any]) -> Any:
        return await behaviour(request, WebContext(context))

    return Endpoint.unary(info, call)


def _streaming(
    info: MethodInfo[Any, Any], behaviour: Callable[[Any, Any], AsyncIterator[Any]]
) -> Endpoint[Any, Any]:
    async def call(request: Any, context: RequestContext[Any, Any]) -> AsyncIterator[Any]:
        async for item in behaviour(request, WebContext(context)):
            yield item

    return Endpoint.server_stream(info, call)


def endpoints(
    services: Mapping[str, tuple[ServiceDescriptor, object]],
    refuse: Callable[[Any, Refusal], Any],
    metrics: Metrics,
) -> dict[str, Endpoint[Any, Any]]:
    """``/package.Service/Method`` to its endpoint, for every method of ``services`` (name
    to descriptor and servicer), through the gRPC layer's own handlers."""
    found: dict[str, Endpoint[Any, Any]] = {}
    for service, servicer in services.values():
        handlers = guard.handlers(service, servicer, refuse, metrics)
        for method in service.methods:
            info = _method_info(method)
            handler = handlers[method.name]
            path = f"/{service.full_name}/{method.name}"
            if method.server_streaming:
                found[path] = _streaming(info, handler.unary_stream)  # type: ignore[arg-type]
            else:
                found[path] = _unary(info, handler.unary_unary)  # type: ignore[arg-type]
    return found


class ConnectApp(ConnectASGIApplication[None]):
    """The referee's services under the Connect protocol, gRPC-Web and gRPC (connectrpc
    picks by content type); any other path is a 404."""

    def __init__(self, routes: dict[str, Endpoint[Any, Any]], max_bytes: int) -> None:
        super().__init__(
            service=None,
            endpoints=lambda _: routes,  # type: ignore[arg-type, return-value]
            read_max_bytes=max_bytes,
            codecs=CODECS,
        )

    @property
    def path(self) -> str:
        return "/"


class Page:
    """The built web table's files in ``directory``, read when asked for: "/" is
    ``index.html``, "/NAME" the file NAME directly in the directory (one segment, a known
    suffix, a regular file: nothing outside it, nothing hidden). Each answer carries an
    ETag (its content's hash) and ``Cache-Control: no-cache``, so a browser asks again
    each time and gets a 304 while the build is the same (the names are not hashed)."""

    def __init__(self, directory: Path = PAGE_DIRECTORY) -> None:
        self.directory = directory

    def wants(self, scope: Any) -> bool:
        """Whether the request is for the page rather than the API."""
        path = scope["path"]
        return (
            scope["type"] == "http"
            and scope["method"] in ("GET", "HEAD")
            and (path == "/" or PAGE_NAME.fullmatch(path) is not None)
        )

    def file(self, path: str) -> Path | None:
        """The file ``path`` names, or None."""
        name = "index.html" if path == "/" else path[1:]
        if PAGE_NAME.fullmatch("/" + name) is None or Path(name).suffix not in PAGE_TYPES:
            return None
        found = self.directory / name
        if found.is_symlink() or not found.is_file():
            return None
        return found

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if not self.directory.is_dir():
            await _plain(send, 404, NOT_BUILT)
            return
        found = self.file(scope["path"])
        if found is None:
            await _plain(send, 404, NOT_FOUND)
            return
        body = await asyncio.to_thread(found.read_bytes)
        tag = b'"' + hashlib.sha256(body).hexdigest()[:32].encode() + b'"'
        headers = [
            (b"content-type", PAGE_TYPES[found.suffix]),
            (b"cache-control", b"no-cache"),
            (b"etag", tag),
            (b"x-content-type-options", b"nosniff"),
        ]
        if found.suffix == ".html":
            headers.append((b"content-security-policy", PAGE_POLICY))
        asked = dict(scope.get("headers", ())).get(b"if-none-match", b"")
        if tag in (part.strip() for part in asked.split(b",")):
            await send({"type": "http.response.start", "status": 304, "headers": headers})
            await send({"type": "http.response.body", "body": b""})
            return
        headers.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send(
            {"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body}
        )


async def _plain(send: Any, status: int, text: bytes) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"text/plain; charset=utf-8")],
        }
    )
    await send({"type": "http.response.body", "body": text})


class WebApp:
    """The ASGI application the web port serves: the page (GET and HEAD of "/" and of its
    files' names), and the API (everything else)."""

    def __init__(self, api: ConnectApp, page: Page | None = None) -> None:
        self.api = api
        self.page = page if page is not None else Page()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if self.page.wants(scope):
            await self.page(scope, receive, send)
            return
        await self.api(scope, receive, send)


class WebEndpoint:
    """uvicorn serving ``WebApp`` on a socket the referee bound itself (so that a port in
    use is an ``OSError`` at once, and port 0 tells its number), in the running loop, with
    no signal handlers of its own: ``bhabhi serve`` has its own and drains both ports."""

    def __init__(self, server: uvicorn.Server, sock: socket.socket) -> None:
        self.server = server
        self.socket = sock
        self.port: int = sock.getsockname()[1]
        self._loop: asyncio.Task[None] | None = None

    @classmethod
    async def start(
        cls, app: WebApp, sock: socket.socket, *, tls: Tls | None = None
    ) -> WebEndpoint:
        """Serve ``app`` on ``sock`` (from ``listen``), which is closed if that fails."""
        config = uvicorn.Config(
            app,
            http="h11",
            lifespan="off",
            log_config=None,
            access_log=False,
            proxy_headers=False,  # the referee reads x-forwarded-for itself, when told to
            server_header=False,
            ssl_certfile=str(tls.cert) if tls is not None else None,
            ssl_keyfile=str(tls.key) if tls is not None else None,
            ssl_ca_certs=str(tls.client_ca) if tls and tls.client_ca else None,
            ssl_cert_reqs=ssl.CERT_REQUIRED if tls and tls.client_ca else ssl.CERT_NONE,
        )
        config.load()
        server = uvicorn.Server(config)
        server.lifespan = config.lifespan_class(config)
        try:
            await server.startup(sockets=[sock])
        except BaseException:
            sock.close()
            raise
        endpoint = cls(server, sock)
        endpoint._loop = asyncio.ensure_future(server.main_loop())
        return endpoint

    async def stop(self, grace: float | None) -> None:
        """Stop listening, let the calls being answered finish (up to ``grace`` seconds;
        None: as long as they take), then cancel what is left and close."""
        # uvicorn counts whole seconds: a call may have up to one more than the grace.
        seconds = None if grace is None else math.ceil(max(grace, 0.0))
        self.server.config.timeout_graceful_shutdown = seconds
        self.server.should_exit = True
        if self._loop is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop
        await self.server.shutdown(sockets=[self.socket])


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (0: a free port), or ``OSError`` saying why not:
    bound before the store is opened, as the gRPC port is checked."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as error:
        sock.close()
        raise OSError(f"cannot listen on {host}:{port}: {why_not_listening(error)}") from error
    sock.listen(128)
    sock.setblocking(False)
    return sock


def app(
    services: Mapping[str, tuple[ServiceDescriptor, object]],
    refuse: Callable[[Any, Refusal], Any],
    metrics: Metrics,
    max_bytes: int,
    page: Page | None = None,
) -> WebApp:
    """The web port's application over the counted servicers the gRPC server serves, and
    the page (``PAGE_DIRECTORY`` unless ``page`` says otherwise)."""
    return WebApp(ConnectApp(endpoints(services, refuse, metrics), max_bytes), page)
