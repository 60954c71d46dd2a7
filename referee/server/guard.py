"""Requests whose bytes are not the message they claim to be: refused like any other request.

grpc decodes a request before any servicer code runs; bytes that do not parse make it answer
``UNKNOWN`` with a Python exception's text and no ``ErrorInfo``, which a client in another
language can do nothing with.  So the referee registers its services itself (``handlers``)
with a decoder that never raises: bytes that do not parse become an ``Undecodable`` request,
and the method refuses it with the reason ``bad_request`` (INVALID_ARGUMENT, in three
languages, with ErrorInfo), as it refuses everything else.  What a servicer method receives
is otherwise exactly what the generated ``add_*Servicer_to_server`` would give it.

Every call passes here, so this is also where calls are measured (``observe.Metrics``): the
time and status code of each unary call, the event streams open.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import grpc
from google.protobuf import message_factory
from google.protobuf.descriptor import ServiceDescriptor
from google.protobuf.message import DecodeError, Message

from referee.reasons import Reason
from referee.server.errors import Refusal

if TYPE_CHECKING:
    from referee.server.observe import Metrics, RpcTimer


@dataclass(frozen=True, slots=True)
class Undecodable:
    """A request whose bytes are not a ``type_name`` message."""

    type_name: str
    error: str


def add_service(
    server: grpc.aio.Server,
    service: ServiceDescriptor,
    servicer: object,
    refuse: Callable[[grpc.aio.ServicerContext[Any, Any], Refusal], Any],
    metrics: Metrics,
) -> None:
    """Serve ``servicer``'s methods as the generated ``add_*Servicer_to_server`` does (also
    as registered methods, grpc's faster path), with the guarded decoder; ``refuse`` aborts
    a call with a refusal (the gRPC layer's one way of turning a Refusal into a status);
    ``metrics`` measures every call."""
    methods = handlers(service, servicer, refuse, metrics)
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(service.full_name, methods),)
    )
    server.add_registered_method_handlers(service.full_name, methods)


def handlers(
    service: ServiceDescriptor,
    servicer: object,
    refuse: Callable[[grpc.aio.ServicerContext[Any, Any], Refusal], Any],
    metrics: Metrics,
) -> dict[str, grpc.RpcMethodHandler[Any, Any]]:
    """The service's method handlers over ``servicer``, by method name."""
    methods: dict[str, grpc.RpcMethodHandler[Any, Any]] = {}
    for method in service.methods:
        request_type = message_factory.GetMessageClass(method.input_type)
        response_type = message_factory.GetMessageClass(method.output_type)
        behaviour = getattr(servicer, method.name)
        decode = _decoder(request_type)
        encode = response_type.SerializeToString
        if method.server_streaming:
            methods[method.name] = grpc.unary_stream_rpc_method_handler(
                _streaming(behaviour, refuse, method.name, metrics),
                request_deserializer=decode,
                response_serializer=encode,
            )
        else:
            methods[method.name] = grpc.unary_unary_rpc_method_handler(
                _unary(behaviour, refuse, method.name, metrics),
                request_deserializer=decode,
                response_serializer=encode,
            )
    return methods


def _decoder(request_type: type[Message]) -> Callable[[bytes], Message | Undecodable]:
    def decode(data: bytes) -> Message | Undecodable:
        return decoded(request_type, data)

    return decode


def decoded(request_type: type[Message], data: bytes) -> Message | Undecodable:
    """``data`` as a ``request_type`` message, or what it is when it is not one (the web
    port decodes its requests here too)."""
    try:
        return request_type.FromString(data)
    except (DecodeError, RuntimeError, ValueError) as error:
        name = request_type.DESCRIPTOR.full_name
        return Undecodable(name, " ".join(str(error).split()) or type(error).__name__)


def _refusal(request: Undecodable) -> Refusal:
    return Refusal(Reason.BAD_REQUEST, type_name=request.type_name, detail=request.error)


def _unary(
    behaviour: Callable[..., Any],
    refuse: Callable[[grpc.aio.ServicerContext[Any, Any], Refusal], Any],
    name: str,
    metrics: Metrics,
) -> Callable[..., Any]:
    """The method, timed, with the call's status code: the code of a refusal is the one its
    abort set on the context; any other exception ends the call as UNKNOWN."""
    record: RpcTimer = metrics.timer(name)
    clock = time.perf_counter

    async def call(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
        began = clock()
        failed: grpc.StatusCode | None = None
        try:
            if isinstance(request, Undecodable):
                metrics.refused(name, "bad_request")
                await refuse(context, _refusal(request))
            return await behaviour(request, context)
        except grpc.aio.AbortError:
            raise
        except asyncio.CancelledError:  # the client went away, or the server stops
            failed = grpc.StatusCode.CANCELLED
            raise
        except Exception:
            failed = grpc.StatusCode.UNKNOWN
            raise
        finally:
            record(failed or context.code(), clock() - began)

    return call


def _streaming(
    behaviour: Callable[..., AsyncIterator[Any]],
    refuse: Callable[[grpc.aio.ServicerContext[Any, Any], Refusal], Any],
    name: str,
    metrics: Metrics,
) -> Callable[..., AsyncIterator[Any]]:
    """The method, counted among the open streams while it runs."""
    streams = metrics.streams

    async def call(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> AsyncIterator[Any]:
        streams.inc()
        try:
            if isinstance(request, Undecodable):
                metrics.refused(name, "bad_request")
                await refuse(context, _refusal(request))
            async for item in behaviour(request, context):
                yield item
        finally:
            streams.dec()

    return call
