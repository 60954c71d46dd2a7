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

MAX_SEED = 128
"""Characters of a seed a client names (a seeded table's, an analysis's): it is stored and
repeated in what the referee answers."""


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
    tables_per_minute: float = 120.0
    """CreateTable calls per minute per client address, on average (CreateTable carries no
    credential, so the caller's address is who it is)..."""
    table_burst: int = 60
    """...with this many in a burst."""
    open_table_seconds: float = 1800.0
    """An open table (its session not started) that nobody joins or leaves for this long is
    closed, so that abandoned tables do not fill the lobby or ``max_tables``."""
    min_turn_time: float = 1.0
    """The shortest turn clock a table may have (seconds; 0 is no clock): timeouts never
    play faster than this."""
    abandon_after_rounds: int = 2
    """A table in play whose every seat lets its clock run out this many rounds in a row,
    nobody acting, is closed as abandoned (``TableClosed``, ``abandoned``); 0: never."""
    max_turn_time: float = 86_400.0
    """The longest turn clock (a day)."""
    max_hands: int = 1000
    """The most hands a session may be set to (0: the ruleset's own end of a session)."""
    uploads_per_minute: float = 60.0
    """ValidateRuleset and RegisterRuleset calls per minute per client address, on
    average (they carry no credential)..."""
    upload_burst: int = 30
    """...with this many in a burst."""
    validation_workers: int = 2
    """Ruleset uploads checked at once (ValidateRuleset, RegisterRuleset), each in a worker
    process off the event loop; more at the same moment are refused with a retry delay."""
    validation_queue: int = 8
    """Uploads that may wait for a free worker; past that they are refused at once."""
    validation_cpu_seconds: float = 2.0
    """The CPU time one ruleset check may take before it is refused (a normal ruleset takes
    a few milliseconds)."""
    analysis_workers: int = 1
    """Analyses run at once (AnalyzeRuleset), each in a worker process off the event loop at
    the lowest priority; one client address may have one running or waiting."""
    analysis_queue: int = 4
    """Analyses that may wait for a free worker; past that they are refused at once."""
    analysis_cpu_seconds: float = 120.0
    """The CPU time one analysis may take before it is refused (a bundled ruleset's default
    analysis, 200 hands at every player count with the skill measured, takes 1 to 20 s)."""
    analysis_max_hands: int = 1000
    """The most hands a player count an analysis may ask for."""
    bot_workers: int = 1
    """Strong bots' moves (the referee's own bots, ``CreateTable.bots``) searched at once,
    each in a worker process off the event loop at the lowest priority; a move that finds
    every worker and waiting place taken is the heuristic's."""
    bot_queue: int = 32
    """Strong bots' moves that may wait for a free worker."""
    bot_think: float = 1.0
    """Seconds a strong bot of the referee searches one move at most."""
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
            "table_burst",
            "max_hands",
            "validation_queue",
            "upload_burst",
            "abandon_after_rounds",
        ):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be 0 (no limit) or more, not {getattr(self, name)}")
        if self.actions_per_second < 0:
            raise ValueError(
                f"actions_per_second must be 0 (no limit) or more, not {self.actions_per_second}"
            )
        for name in (
            "tables_per_minute",
            "uploads_per_minute",
            "open_table_seconds",
            "min_turn_time",
        ):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be 0 (no limit) or more, not {getattr(self, name)}")
        if self.max_turn_time < self.min_turn_time:
            raise ValueError(
                f"min_turn_time must be at most {self.max_turn_time:g} seconds (max_turn_time),"
                f" not {self.min_turn_time:g}"
            )
        if self.validation_workers < 1 or self.validation_cpu_seconds <= 0:
            raise ValueError("validation_workers must be 1 or more, validation_cpu_seconds above 0")
        if self.analysis_workers < 1 or self.analysis_cpu_seconds <= 0:
            raise ValueError("analysis_workers must be 1 or more, analysis_cpu_seconds above 0")
        if self.analysis_queue < 0 or self.analysis_max_hands < 1:
            raise ValueError("analysis_queue must be 0 or more, analysis_max_hands 1 or more")
        if self.bot_workers < 1 or self.bot_queue < 0 or not 0 < self.bot_think <= 60:
            raise ValueError(
                "bot_workers must be 1 or more, bot_queue 0 or more, bot_think above 0 and"
                " at most 60 seconds"
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
