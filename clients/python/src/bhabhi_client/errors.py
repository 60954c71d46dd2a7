"""Refusals of the referee as one exception type a program can branch on.

The referee refuses with a gRPC status whose ``grpc-status-details-bin`` trailer is a
``google.rpc.Status`` holding an ``ErrorInfo`` (the stable ``reason`` code, domain
``referee.bhabhi``, and for an illegal move the legal actions in its metadata) and
``LocalizedMessage`` details in English, German and Polish.  Decoding happens here, once,
so that callers read ``error.reason`` and ``error.message`` instead of protobuf ``Any``s;
the decoding needs only ``googleapis-common-protos``, not ``grpcio-status``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import grpc
from google.rpc import error_details_pb2, status_pb2

DOMAIN = "referee.bhabhi"
STATUS_DETAILS_KEY = "grpc-status-details-bin"
LANGUAGES = ("en", "de", "pl")

TRANSIENT_CODES = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})
"""Failures after which the same request may simply be sent again."""


class RefereeError(Exception):
    """A call the referee refused, or that could not reach it.

    ``reason`` is the ErrorInfo code (``not_your_turn``, ``stale_seq`` …), empty when the
    status carried none (a transport failure); ``message`` is the referee's text in the
    requested language, falling back to English and then to the status details.
    """

    def __init__(
        self,
        code: grpc.StatusCode,
        message: str,
        *,
        reason: str = "",
        domain: str = "",
        metadata: Mapping[str, str] | None = None,
        messages: Mapping[str, str] | None = None,
        details: str = "",
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason
        self.domain = domain
        self.metadata: dict[str, str] = dict(metadata or {})
        self.messages: dict[str, str] = dict(messages or {})
        self.details = details
        self.retry_after = retry_after
        """Seconds the referee asked to wait before sending the same request again (its
        ``google.rpc.RetryInfo``, with ``rate_limited``), or None."""

    @property
    def legal_actions(self) -> tuple[str, ...]:
        """The legal actions the referee listed with an illegal move, in its notation."""
        text = self.metadata.get("legal_actions", "")
        return tuple(word.strip() for word in text.split(",") if word.strip())

    @property
    def transient(self) -> bool:
        """True when sending the same request again may succeed (the referee refuses with
        ``unavailable`` while it drains for a restart)."""
        return self.code in TRANSIENT_CODES or self.reason == "unavailable"

    def localized(self, language: str) -> str:
        """The message in ``language`` (``en``, ``de``, ``pl``), else English, else details."""
        return _pick(self.messages, language) or self.details or self.code.name.lower()

    def __str__(self) -> str:
        label = self.reason or self.code.name.lower()
        return f"{self.message} [{label}]" if self.message else label

    def __repr__(self) -> str:
        return (
            f"RefereeError(code={self.code.name}, reason={self.reason!r}, message={self.message!r})"
        )

    @classmethod
    def from_status(
        cls,
        code: grpc.StatusCode,
        details: str,
        trailing_metadata: Iterable[tuple[str, Any]] | None,
        *,
        language: str = "en",
    ) -> RefereeError:
        """Decode a status and its trailers; unknown detail types are ignored."""
        reason = domain = ""
        metadata: dict[str, str] = {}
        messages: dict[str, str] = {}
        retry_after: float | None = None
        for key, value in trailing_metadata or ():
            if key != STATUS_DETAILS_KEY or not isinstance(value, bytes | bytearray):
                continue
            status = status_pb2.Status()
            try:
                status.ParseFromString(bytes(value))
            except Exception:  # a garbled trailer must not hide the status itself
                continue
            for detail in status.details:
                info = error_details_pb2.ErrorInfo()
                localized = error_details_pb2.LocalizedMessage()
                retry = error_details_pb2.RetryInfo()
                if detail.Unpack(info):  # False for another detail type
                    reason, domain = info.reason, info.domain
                    metadata.update(info.metadata)
                elif detail.Unpack(localized):
                    messages[localized.locale] = localized.message
                elif detail.Unpack(retry):
                    retry_after = retry.retry_delay.ToNanoseconds() / 1e9
            if not details:
                details = status.message
        message = _pick(messages, language) or details or code.name.lower()
        return cls(
            code,
            message,
            reason=reason,
            domain=domain,
            metadata=metadata,
            messages=messages,
            details=details,
            retry_after=retry_after,
        )

    @classmethod
    def from_rpc_error(cls, error: grpc.RpcError, *, language: str = "en") -> RefereeError:
        """Decode what a ``grpc.aio`` call raised (an ``AioRpcError``)."""
        code = _call(error, "code", grpc.StatusCode.UNKNOWN)
        details = _call(error, "details", "") or ""
        trailers = _call(error, "trailing_metadata", None)
        return cls.from_status(code, details, trailers, language=language)


def _pick(messages: Mapping[str, str], language: str) -> str:
    """The message for ``language``, matching ``de`` to ``de-DE`` as well, else English."""
    for wanted in (language, "en"):
        for locale, text in messages.items():
            if locale == wanted or locale.split("-")[0].split("_")[0] == wanted:
                return text
    return ""


def _call(error: object, name: str, default: Any) -> Any:
    method = getattr(error, name, None)
    if not callable(method):
        return default
    try:
        return method()
    except Exception:  # pragma: no cover - a half-built RpcError from a transport failure
        return default
