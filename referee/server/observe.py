"""What an operator sees of a running referee: Prometheus metrics and structured logs.

The referee plays about 1,500 moves a second on one core, so what this module adds to a
move is one counter increment and one histogram observation on label children looked up
once; everything else (the tables by status, the process's own figures) is computed when
Prometheus scrapes.  Each ``Metrics`` has a registry of its own, never the process-wide
default one: tests run several referees in one process, and each must count only its own.

Logs are for people and for log pipelines alike: ``configure_logging("json")`` writes one
JSON object per line (``ts``, ``level``, ``logger``, ``message`` and every field given with
``extra=``), which a collector can index without parsing free text.
"""

from __future__ import annotations

import datetime
import errno
import json
import logging
import sys
import threading
from collections.abc import Callable, Iterable
from typing import IO, TYPE_CHECKING
from wsgiref.simple_server import WSGIServer

import grpc
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    start_http_server,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from referee.server.table import FINISHED, OPEN, PLAYING

if TYPE_CHECKING:
    from referee.server.table import Referee

log = logging.getLogger("bhabhi.server")

RPC_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Seconds. A move is answered in about a millisecond when the machine is quiet and in
tens of milliseconds under load; the upper buckets catch a store that stalls."""

MOVE_KINDS = ("join", "leave", "start", "deal", "action", "timeout", "close")
"""The command kinds ``Ledger.commit`` stores, counted from zero so that a rate over a
series that has not moved yet is 0 rather than absent."""

TABLES_HELP = "Tables held in memory by this referee, by status (computed when scraped)."

CALLS_HELP = "Unary RPCs being handled by this referee now (computed when scraped)."

RpcTimer = Callable[[grpc.StatusCode | None, float], None]
"""Records one finished call: its status code (None: OK) and the seconds it took."""


class Metrics:
    """The referee's Prometheus metrics, in a registry of their own."""

    def __init__(self, referee: Referee | None = None) -> None:
        self.registry = CollectorRegistry()
        self.moves = Counter(
            "bhabhi_moves",
            "Commands stored durably and applied to a table, by kind.",
            ["kind"],
            registry=self.registry,
        )
        self.refusals = Counter(
            "bhabhi_refusals",
            "Refusals sent to clients, by RPC method and stable reason code.",
            ["method", "reason"],
            registry=self.registry,
        )
        self.rpc_seconds = Histogram(
            "bhabhi_rpc_seconds",
            "Time spent handling a unary RPC in the referee, by method and gRPC status code.",
            ["method", "code"],
            buckets=RPC_BUCKETS,
            registry=self.registry,
        )
        self.streams = Gauge(
            "bhabhi_streams",
            "Event streams (WatchTable) and waits of bots (AwaitSeats) open now.",
            registry=self.registry,
        )
        # The process's CPU, memory, file descriptors and collector passes: read at scrape
        # time only, and the first thing to look at when the latency above grows.
        ProcessCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)
        GCCollector(registry=self.registry)
        self._moves = {kind: self.moves.labels(kind) for kind in MOVE_KINDS}
        self._refusals: dict[tuple[str, str], Counter] = {}
        if referee is not None:
            self.watch(referee)

    def watch(self, referee: Referee) -> None:
        """Count ``referee``'s moves and report its tables."""
        referee.on_commit.append(self.moved)
        self.registry.register(_Tables(referee))

    def moved(self, kind: str) -> None:
        """A command of ``kind`` is durable (the referee's ``on_commit`` hook)."""
        child = self._moves.get(kind)
        if child is None:
            child = self._moves[kind] = self.moves.labels(kind)
        child.inc()

    def refused(self, method: str, reason: str, table_id: str = "") -> None:
        """A refusal with ``reason`` is being sent for a call of ``method``.

        Counted and logged here, the one place every refusal passes, whichever layer
        refused; logged at DEBUG only, since a client that retries can refuse itself many
        times a second."""
        key = (method, reason)
        child = self._refusals.get(key)
        if child is None:
            child = self._refusals[key] = self.refusals.labels(method, reason)
        child.inc()
        if log.isEnabledFor(logging.DEBUG):
            log.debug(
                "refused %s: %s",
                method,
                reason,
                extra={"method": method, "reason": reason, "table_id": table_id},
            )

    def timer(self, method: str) -> RpcTimer:
        """The recorder of ``method``'s calls, its label children kept between calls."""
        histogram = self.rpc_seconds
        children: dict[grpc.StatusCode | None, Histogram] = {None: histogram.labels(method, "OK")}

        def record(code: grpc.StatusCode | None, seconds: float) -> None:
            child = children.get(code)
            if child is None:
                label = "OK" if code is None else code.name
                child = children[code] = histogram.labels(method, label)
            child.observe(seconds)

        return record

    def count_calls(self, read: Callable[[], int]) -> None:
        """``bhabhi_calls_in_flight``: what ``read`` says when scraped (a drain waits for
        these calls, and a count that only grows is a call that never ends)."""
        self.registry.register(_Computed("bhabhi_calls_in_flight", CALLS_HELP, read))

    def serve(self, host: str, port: int) -> MetricsEndpoint:
        """Serve the metrics at ``http://host:port/metrics`` (port 0: a free one)."""
        return MetricsEndpoint(self.registry, host, port)


class _Tables(Collector):
    """``bhabhi_tables{status}``, counted when scraped: a table changes status on the event
    loop, and keeping a gauge in step there would cost every join, start and hand."""

    def __init__(self, referee: Referee) -> None:
        self.referee = referee

    def describe(self) -> Iterable[Metric]:
        return [GaugeMetricFamily("bhabhi_tables", TABLES_HELP, labels=["status"])]

    def collect(self) -> Iterable[Metric]:
        counts = dict.fromkeys((OPEN, PLAYING, FINISHED), 0)
        # The scrape runs on the HTTP server's thread while the event loop adds tables:
        # list() copies the values in one step under the GIL, so the dict cannot change
        # while it is walked.
        for table in list(self.referee.tables.values()):
            counts[table.status] = counts.get(table.status, 0) + 1
        family = GaugeMetricFamily("bhabhi_tables", TABLES_HELP, labels=["status"])
        for status, count in counts.items():
            family.add_metric([status], count)
        return [family]


def why_not_listening(error: OSError) -> str:
    """What a failed bind means, in the words an operator acts on."""
    if error.errno == errno.EADDRINUSE:
        return "the port is in use"
    return error.strerror or str(error)


class _Computed(Collector):
    """A gauge whose value is read when scraped, not kept in step on the event loop."""

    def __init__(self, name: str, help: str, read: Callable[[], int]) -> None:
        self.name = name
        self.help = help
        self.read = read

    def describe(self) -> Iterable[Metric]:
        return [GaugeMetricFamily(self.name, self.help)]

    def collect(self) -> Iterable[Metric]:
        return [GaugeMetricFamily(self.name, self.help, value=self.read())]


def host_port(host: str, port: int) -> str:
    """``host:port``, with an IPv6 address in brackets as URLs want it."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


class MetricsEndpoint:
    """prometheus_client's threaded HTTP server for one registry, which can be stopped (the
    referee stops it when it stops; tests start and stop many in one process)."""

    def __init__(self, registry: CollectorRegistry, host: str, port: int) -> None:
        try:
            server, thread = start_http_server(port, addr=host, registry=registry)
        except OSError as error:
            why = why_not_listening(error)
            raise OSError(f"cannot serve metrics on {host_port(host, port)}: {why}") from error
        self._server: WSGIServer = server
        self._thread: threading.Thread = thread
        self.host = host
        self.port: int = server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://{host_port(self.host, self.port)}/metrics"

    def close(self) -> None:
        """Stop serving and release the port (blocks up to half a second: run it in a
        thread from the event loop)."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


# --- logs -------------------------------------------------------------------------------

LOG_FORMATS = ("text", "json")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
LOGGERS = ("bhabhi", "referee")
"""The referee's own logger trees: ``bhabhi.*`` by name, ``referee.*`` by module
(``logging.getLogger(__name__)``, as in the PostgreSQL store)."""

_RECORD_FIELDS = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime"}
"""What every LogRecord has; anything else on a record came from ``extra=``."""


def _fields(record: logging.LogRecord) -> dict[str, object]:
    return {k: v for k, v in vars(record).items() if k not in _RECORD_FIELDS}


def _timestamp(record: logging.LogRecord) -> str:
    moment = datetime.datetime.fromtimestamp(record.created, datetime.UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class JsonFormatter(logging.Formatter):
    """One JSON object per line: a traceback stays inside its record (``exc``), so that
    every line a log pipeline reads parses on its own."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "ts": _timestamp(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in _fields(record).items():
            entry.setdefault(key, value)
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, default=str)


class TextFormatter(logging.Formatter):
    """For a terminal: the time, level, logger and message, then the structured fields as
    ``key=value``, so that text and JSON carry the same facts."""

    def format(self, record: logging.LogRecord) -> str:
        line = f"{_timestamp(record)} {record.levelname} {record.name}: {record.getMessage()}"
        for key, value in _fields(record).items():
            text = str(value)
            if not text or any(c.isspace() or c in '"=' for c in text):
                text = json.dumps(text)
            line += f" {key}={text}"
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        if record.stack_info:
            line += "\n" + self.formatStack(record.stack_info)
        return line


class _Handler(logging.StreamHandler[IO[str]]):
    """The handler ``configure_logging`` installs, told apart from others (pytest's)."""


def configure_logging(
    log_format: str = "text", level: str = "INFO", stream: IO[str] | None = None
) -> None:
    """Send log records to ``stream`` (stderr) in ``log_format``: the referee's own at
    ``level``, other libraries' (grpc, psycopg, asyncio) from WARNING up, so that DEBUG
    shows the referee's details without the event loop's."""
    if log_format not in LOG_FORMATS:
        raise ValueError(f"unknown log format {log_format!r}")
    numeric = logging.getLevelName(level.upper())
    if not isinstance(numeric, int):
        raise ValueError(f"unknown log level {level!r}")
    handler = _Handler(stream if stream is not None else sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _Handler)]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(max(numeric, logging.WARNING))
    for name in LOGGERS:
        logging.getLogger(name).setLevel(numeric)
    logging.captureWarnings(True)  # warnings.warn() too, formatted like the rest
