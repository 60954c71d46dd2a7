"""``bhabhi serve``: run the referee. Flags win over environment variables (BHABHI_*)."""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.server.store.opening import DEFAULT_DB, missing_folder

if TYPE_CHECKING:
    from referee.cli import Subparsers


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").lower() in ("1", "true", "yes", "on")


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 (no limit) or more, not {value}")
    return value


def _rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be 0 (no limit) or a positive number, not {text}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be 0 or more seconds, not {text}")
    return value


def _positive(text: str) -> int:
    value = _count(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def _budget(text: str) -> float:
    value = _seconds(text)
    if value <= 0:
        raise argparse.ArgumentTypeError("must be more than 0 seconds")
    return value


def _port(text: str) -> int:
    """A TCP port, 0 to 65535 (grpc would otherwise listen on the number modulo 65536)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port (0 to 65535)")
    return value


def _web_port(text: str) -> int | None:
    """A port, or nothing (the empty default: no web endpoint)."""
    return _port(text) if text.strip() else None


def _message_bytes(text: str) -> int:
    value = _count(text)
    if value < 1024:
        raise argparse.ArgumentTypeError(f"must be at least 1024 bytes, not {value}")
    return value


def _option(
    group: argparse._ActionsContainer,
    flag: str,
    env: str,
    default: str,
    help: str,
    *,
    shown: str | None = None,
    **more: Any,
) -> None:
    """A flag whose default the environment variable ``env`` overrides, its help ending in
    both (``shown``: the default as the help says it, if not just its value)."""
    group.add_argument(
        flag,
        default=os.environ.get(env, default),
        help=f"{help} (default {shown or default}; env {env})",
        **more,
    )


def register(subparsers: Subparsers) -> None:
    serve = subparsers.add_parser(
        "serve",
        help="run the gRPC referee",
        description="Run the gRPC referee: hosts tables for every bundled ruleset and keeps "
        "every accepted move in an embedded SQLite database, or in PostgreSQL, which several "
        "referees (replicas) can share.",
    )
    serve.add_argument("--host", default=os.environ.get("BHABHI_HOST", "127.0.0.1"))
    _option(
        serve,
        "--port",
        "BHABHI_PORT",
        "50051",
        "the port to listen on; 0: a free one (printed)",
        type=_port,
    )
    serve.add_argument(
        "--reuse-port",
        action="store_true",
        default=_env_flag("BHABHI_REUSE_PORT"),
        help="share the port with other processes that set it too (SO_REUSEPORT), for "
        "several referees on one port with the kernel balancing connections between them; "
        "without it a port in use is refused (env BHABHI_REUSE_PORT)",
    )
    serve.add_argument(
        "--db",
        default=os.environ.get("BHABHI_DB"),
        help="SQLite database file, whose folder must exist, :memory: (nothing kept, for a "
        "conformance run's referee), or a PostgreSQL URL such as "
        "postgresql://user:password@host:5432/db (add ?options=-csearch_path%%3Dname for a "
        "schema other than the default; the store creates its tables) "
        f"(default {DEFAULT_DB}, its folder created if need be; env BHABHI_DB)",
    )
    serve.add_argument(
        "--test-mode",
        action="store_true",
        default=_env_flag("BHABHI_TEST_MODE"),
        help="allow tables with an explicit deal (for conformance runs); never in real play",
    )
    serve.add_argument(
        "--allow-register",
        action="store_true",
        default=_env_flag("BHABHI_ALLOW_REGISTER"),
        help="let clients register house variants (RegisterRuleset)",
    )
    limits = serve.add_argument_group(
        "limits", "what one client may take before it is refused (RESOURCE_EXHAUSTED); 0: no limit"
    )
    _option(
        limits,
        "--max-tables",
        "BHABHI_MAX_TABLES",
        "10000",
        "tables open or in play at once",
        type=_count,
    )
    _option(
        limits,
        "--max-streams-per-credential",
        "BHABHI_MAX_STREAMS_PER_CREDENTIAL",
        "16",
        "open event streams per seat credential, or per address for spectators",
        type=_count,
    )
    _option(
        limits,
        "--max-actions-per-second",
        "BHABHI_MAX_ACTIONS_PER_SECOND",
        "100",
        "actions per second per seat credential, after a burst of twice as many",
        type=_rate,
    )
    _option(
        limits,
        "--tables-per-minute",
        "BHABHI_TABLES_PER_MINUTE",
        "120",
        "tables created per minute per client address, after a burst of half as many "
        "(not limited in test mode)",
        type=_rate,
    )
    _option(
        limits,
        "--open-table-seconds",
        "BHABHI_OPEN_TABLE_SECONDS",
        "1800",
        "an open table that nobody joins or leaves for this long is closed",
        type=_seconds,
        metavar="SECONDS",
    )
    _option(
        limits,
        "--min-turn-time",
        "BHABHI_MIN_TURN_TIME",
        "1",
        "the shortest turn clock a table may have (0 is no clock): timeouts never play faster",
        type=_seconds,
        metavar="SECONDS",
    )
    _option(
        limits,
        "--abandon-after-rounds",
        "BHABHI_ABANDON_AFTER_ROUNDS",
        "2",
        "a table in play whose every seat lets its turn clock run out this many rounds in a "
        "row, nobody acting, is closed as abandoned",
        type=_count,
        metavar="N",
    )
    _option(
        limits,
        "--uploads-per-minute",
        "BHABHI_UPLOADS_PER_MINUTE",
        "60",
        "rulesets sent to be checked or registered per minute per client address, after a "
        "burst of half as many (not limited in test mode)",
        type=_rate,
    )
    _option(
        limits,
        "--validation-workers",
        "BHABHI_VALIDATION_WORKERS",
        "2",
        "uploaded rulesets checked at once, each in a worker process (8 more may wait)",
        type=_positive,
        metavar="N",
    )
    _option(
        limits,
        "--validation-cpu-seconds",
        "BHABHI_VALIDATION_CPU_SECONDS",
        "2",
        "CPU time one ruleset check may take before it is refused",
        type=_budget,
        metavar="SECONDS",
    )
    _option(
        limits,
        "--analysis-workers",
        "BHABHI_ANALYSIS_WORKERS",
        "1",
        "analyses of a hosted ruleset (AnalyzeRuleset) run at once, each in a worker process "
        "(4 more may wait; one per client address)",
        type=_positive,
        metavar="N",
    )
    _option(
        limits,
        "--bot-workers",
        "BHABHI_BOT_WORKERS",
        "1",
        "moves of the referee's strong bots (CreateTable.bots) searched at once, each in a "
        "worker process (32 more may wait; past that the heuristic decides)",
        type=_positive,
        metavar="N",
    )
    _option(
        limits,
        "--bot-think",
        "BHABHI_BOT_THINK",
        "1",
        "seconds a strong bot of the referee searches one move at most",
        type=_budget,
        metavar="SECONDS",
    )
    _option(
        limits,
        "--analysis-cpu-seconds",
        "BHABHI_ANALYSIS_CPU_SECONDS",
        "120",
        "CPU time one analysis may take before it is refused",
        type=_budget,
        metavar="SECONDS",
    )
    _option(
        limits,
        "--analysis-max-hands",
        "BHABHI_ANALYSIS_MAX_HANDS",
        "1000",
        "the most hands a player count an analysis may ask for",
        type=_positive,
        metavar="K",
    )
    _option(
        limits,
        "--trusted-proxy-hops",
        "BHABHI_TRUSTED_PROXY_HOPS",
        "0",
        "proxies in front of the referee that append to x-forwarded-for (Envoy with "
        "use_remote_address): spectators' streams then count per address that header "
        "names, not per proxy",
        shown="0: the header is ignored",
        type=_count,
        metavar="N",
    )
    _option(
        limits,
        "--keep-finished",
        "BHABHI_KEEP_FINISHED",
        "600",
        "how long a finished table stays in memory after its last event; then it is "
        "read from the store when asked for",
        type=_seconds,
        metavar="SECONDS",
    )
    _option(
        limits,
        "--max-message-bytes",
        "BHABHI_MAX_MESSAGE_BYTES",
        str(1 << 20),
        "largest request accepted",
        type=_message_bytes,
    )
    serve.add_argument("--tls-cert", type=Path, default=os.environ.get("BHABHI_TLS_CERT"))
    serve.add_argument("--tls-key", type=Path, default=os.environ.get("BHABHI_TLS_KEY"))
    serve.add_argument(
        "--tls-client-ca",
        type=Path,
        default=os.environ.get("BHABHI_TLS_CLIENT_CA"),
        help="require client certificates signed by this CA (mutual TLS)",
    )
    page = serve.add_argument_group("the web endpoint")
    _option(
        page,
        "--web-port",
        "BHABHI_WEB_PORT",
        "",
        "serve the referee's API to browsers on this port too, over the Connect protocol and "
        "gRPC-Web (HTTP/1.1), beside gRPC and on the same tables; 0: a free one (printed)",
        shown="not served",
        type=_web_port,
    )
    _option(page, "--web-host", "BHABHI_WEB_HOST", "127.0.0.1", "where to serve the web endpoint")
    observe = serve.add_argument_group("metrics and logs")
    _option(
        observe,
        "--metrics-port",
        "BHABHI_METRICS_PORT",
        "0",
        "serve Prometheus metrics over HTTP on this port; Prometheus scrapes "
        "http://HOST:PORT/metrics",
        shown="0: not served",
        type=_port,
    )
    _option(
        observe,
        "--metrics-host",
        "BHABHI_METRICS_HOST",
        "127.0.0.1",
        "where to serve the metrics",
    )
    _option(
        observe,
        "--log-format",
        "BHABHI_LOG_FORMAT",
        "text",
        "logs on stderr as text, or one JSON object per line",
        choices=("text", "json"),
    )
    _option(
        observe,
        "--log-level",
        "BHABHI_LOG_LEVEL",
        "INFO",
        "the referee's log level; DEBUG logs every refusal",
        type=str.upper,
        choices=("DEBUG", "INFO", "WARNING", "ERROR"),
    )
    serve.set_defaults(func=_serve)


def _serve(args: argparse.Namespace) -> int:
    from referee.server.app import Tls, serve
    from referee.server.limits import Limits

    db: str = args.db if args.db is not None else str(DEFAULT_DB)
    if args.db is not None and (folder := missing_folder(args.db)) is not None:
        _error(f"--db {args.db}: no such folder: {folder}")
        return 1
    tls = None
    if args.tls_cert or args.tls_key:
        if not (args.tls_cert and args.tls_key):
            _error("--tls-cert and --tls-key go together")
            return 1
        for path in (args.tls_cert, args.tls_key, args.tls_client_ca):
            if path is not None and not Path(path).is_file():
                _error(f"no such file: {path}")
                return 1
        tls = Tls(Path(args.tls_cert), Path(args.tls_key), args.tls_client_ca)
    elif args.tls_client_ca:
        _error("--tls-client-ca needs --tls-cert and --tls-key")
        return 1
    from referee.server.observe import configure_logging

    try:  # the environment's values are not checked by argparse
        configure_logging(args.log_format, args.log_level)
    except ValueError as error:
        _error(str(error))
        return 1
    try:
        limits = Limits(
            max_tables=args.max_tables,
            max_streams_per_credential=args.max_streams_per_credential,
            actions_per_second=args.max_actions_per_second,
            action_burst=math.ceil(2 * args.max_actions_per_second),
            max_message_bytes=args.max_message_bytes,
            trusted_proxy_hops=args.trusted_proxy_hops,
            tables_per_minute=args.tables_per_minute,
            table_burst=math.ceil(args.tables_per_minute / 2),
            open_table_seconds=args.open_table_seconds,
            min_turn_time=args.min_turn_time,
            abandon_after_rounds=args.abandon_after_rounds,
            uploads_per_minute=args.uploads_per_minute,
            upload_burst=math.ceil(args.uploads_per_minute / 2),
            validation_workers=args.validation_workers,
            validation_cpu_seconds=args.validation_cpu_seconds,
            analysis_workers=args.analysis_workers,
            analysis_cpu_seconds=args.analysis_cpu_seconds,
            analysis_max_hands=args.analysis_max_hands,
            bot_workers=args.bot_workers,
            bot_think=args.bot_think,
        )
    except ValueError as error:  # limits that contradict each other
        _error(str(error))
        return 1
    try:
        asyncio.run(
            serve(
                args.host,
                args.port,
                db=db,
                test_mode=args.test_mode,
                allow_register=args.allow_register,
                tls=tls,
                limits=limits,
                metrics_host=args.metrics_host,
                metrics_port=args.metrics_port,
                keep_finished=args.keep_finished,
                reuse_port=args.reuse_port,
                web_host=args.web_host,
                web_port=args.web_port,
            )
        )
    except OSError as error:
        _error(str(error))
        return 1
    except RuntimeError as error:  # how grpc reports what it cannot do
        _error(str(error))
        return 1
    return 0


def _error(message: str) -> None:
    """One line on stderr, where a shell or a supervisor shows what went wrong."""
    print(f"bhabhi serve: error: {message}", file=sys.stderr)
