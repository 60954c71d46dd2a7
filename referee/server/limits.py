"""What one referee accepts from its clients before it refuses with RESOURCE_EXHAUSTED.

A referee is shared by strangers: one runaway bot must not be able to starve the other
tables, fill the memory with tables, or hold hundreds of event streams.  Each limit is a
number an operator can change (``bhabhi serve --max-…``, or ``BHABHI_MAX_…``); 0 switches it
off.  The defaults are far above what people (or reasonable bots) need: a person plays a
card every few seconds, a four-seat table of bots playing flat out on this referee makes a
few hundred moves a second in all.

The refusals carry the reason (``too_many_tables``, ``too_many_streams``, ``rate_limited``)
and, where waiting helps, a ``google.rpc.RetryInfo`` saying how long to wait.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    max_tables: int = 10_000
    """Tables in play or waiting for players (finished ones do not count) on one referee."""
    max_streams_per_credential: int = 16
    """Open WatchTable streams per seat credential; spectators (no credential) count per
    client address."""
    actions_per_second: float = 100.0
    """SubmitAction calls per second per seat credential, on average..."""
    action_burst: int = 200
    """...with this many in a burst (the bucket's size)."""
    max_message_bytes: int = 1 << 20
    """The largest request (gRPC refuses a larger one itself, RESOURCE_EXHAUSTED)."""
    trusted_proxy_hops: int = 0
    """Proxies in front of the referee that append the address they saw to
    ``x-forwarded-for``: a spectator is then told apart by the address that many entries
    from the end, not by the proxy's own.  0: the header is ignored (a client could write
    anything in it)."""

    def __post_init__(self) -> None:
        for name in (
            "max_tables",
            "max_streams_per_credential",
            "action_burst",
            "trusted_proxy_hops",
        ):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be 0 (no limit) or more, not {getattr(self, name)}")
        if self.actions_per_second < 0:
            raise ValueError(
                f"actions_per_second must be 0 (no limit) or more, not {self.actions_per_second}"
            )
        if self.max_message_bytes < 1024:
            raise ValueError(
                f"max_message_bytes must be at least 1024, not {self.max_message_bytes}"
            )


class TokenBucket:
    """``rate`` tokens a second, at most ``size`` saved up; an action takes one.

    A bucket rather than a count per calendar second: a bot may play a quick run of cards
    (a burst) and is slowed only when it keeps going faster than ``rate``, and the wait it
    is told is exact: the time until the next token.
    """

    __slots__ = ("at", "rate", "size", "tokens")

    def __init__(self, rate: float, size: int, now: float) -> None:
        self.rate = rate
        self.size = max(1, size)
        self.tokens = float(self.size)
        self.at = now

    def take(self, now: float) -> float:
        """Take a token: 0.0 if there was one, else the seconds until there will be."""
        self.tokens = min(self.size, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate
