"""Who may do what: seat credentials, and the per-client limits that keep one client from
taking what belongs to all (actions per seat, tables created, event streams).

A seat credential is ``TABLE.SEAT.RANDOM``; only its SHA-256 is stored, and the only way a
request gets a seat is ``seat_of``.  The limits' numbers are ``Limits`` (``limits.py``).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import math
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from referee.reasons import Reason
from referee.server.errors import Refusal
from referee.server.limits import Limits, TokenBucket
from referee.server.table.state import Table


def new_credential(table_id: str, seat: int) -> str:
    return f"{table_id}.{seat}.{secrets.token_urlsafe(24)}"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def seat_of(table: Table, token: str | None) -> int:
    """The seat a credential stands for; the only way a request gets a seat."""
    if not token:
        raise Refusal(Reason.UNAUTHENTICATED)
    known = table.seat_of_token.get(token)
    if known is not None:
        return known
    digest = token_hash(token)
    for seat, state in enumerate(table.seats):
        if state.taken and hmac.compare_digest(state.token_hash, digest):
            table.seat_of_token[token] = seat
            return seat
    raise Refusal(Reason.BAD_CREDENTIAL)


def network_of(client: str) -> str:
    """Whom a per-address limit counts: an IPv6 client by its /64 (the share of one host or
    one customer, within which it may pick any address), any other as it is."""
    kind, _, address = client.partition(":")
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return client
    if ip.version == 6 and ip.ipv4_mapped is None:
        return f"{kind}:{ipaddress.ip_network(f'{ip}/64', strict=False)}"
    return client


K = TypeVar("K")

MAX_CLIENTS = 10_000
"""Client addresses remembered per limit before the idle ones are forgotten."""


class Gate:
    """The per-client limits of one referee process."""

    def __init__(self, limits: Limits, monotonic: Callable[[], float]) -> None:
        self.limits = limits
        self._monotonic = monotonic
        """The limits' clock: unlike the wall clock it never jumps back."""
        self._actions: dict[tuple[str, int], TokenBucket] = {}
        self._creators: dict[str, TokenBucket] = {}
        self._uploaders: dict[str, TokenBucket] = {}
        self._streams: dict[str, int] = {}
        """Open event streams by credential (spectators: by client address)."""

    def throttle_action(self, table_id: str, seat: int) -> None:
        """Refuse a seat acting faster than ``actions_per_second`` (after a burst), telling
        it how long to wait."""
        rate = self.limits.actions_per_second
        self._take(
            self._actions,
            (table_id, seat),
            rate,
            self.limits.action_burst,
            Reason.RATE_LIMITED,
            rate,
        )

    def throttle_create(self, client: str) -> None:
        """Refuse a client creating tables faster than ``tables_per_minute`` (after a
        burst): tables cost the referee memory and the lobby space."""
        per_minute = self.limits.tables_per_minute
        if client:
            self._take(
                self._creators,
                network_of(client),
                per_minute / 60,
                self.limits.table_burst,
                Reason.CREATE_RATE_LIMITED,
                per_minute,
            )

    def throttle_upload(self, client: str) -> None:
        """Refuse a client sending rulesets faster than ``uploads_per_minute`` (after a
        burst): each is read and checked, at the cost of every other client."""
        per_minute = self.limits.uploads_per_minute
        if client:
            self._take(
                self._uploaders,
                network_of(client),
                per_minute / 60,
                self.limits.upload_burst,
                Reason.UPLOAD_RATE_LIMITED,
                per_minute,
            )

    def _take(
        self,
        buckets: dict[K, TokenBucket],
        key: K,
        per_second: float,
        burst: int,
        reason: Reason,
        shown_rate: float,
    ) -> None:
        """Take a token from ``key``'s bucket (made on first use), or refuse with ``reason``
        and how long to wait; a rate of 0 is no limit."""
        if not per_second:
            return
        now = self._monotonic()
        bucket = buckets.get(key)
        if bucket is None:
            if len(buckets) > MAX_CLIENTS:  # forget the idle ones now and then
                for idle in [k for k, b in buckets.items() if now - b.at >= 3600]:
                    del buckets[idle]
            bucket = buckets[key] = TokenBucket(per_second, burst, now)
        wait = bucket.take(now)
        if wait:
            raise Refusal(reason, rate=f"{shown_rate:g}", retry_ms=max(1, math.ceil(wait * 1000)))

    def forget_table(self, table: Table) -> None:
        for seat in range(table.seat_count):
            self._actions.pop((table.table_id, seat), None)

    @contextmanager
    def stream(self, watcher: str) -> Iterator[None]:
        """Count one open event stream of ``watcher`` while the block runs."""
        most = self.limits.max_streams_per_credential
        if most and self._streams.get(watcher, 0) >= most:
            raise Refusal(Reason.TOO_MANY_STREAMS, limit=most)
        self._streams[watcher] = self._streams.get(watcher, 0) + 1
        try:
            yield
        finally:
            left = self._streams.pop(watcher) - 1
            if left:
                self._streams[watcher] = left
