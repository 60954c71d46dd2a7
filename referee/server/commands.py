"""``bhabhi serve``: run the referee. Flags win over environment variables (BHABHI_*)."""

from __future__ import annotations

import argparse
import asyncio
import math
import os
from pathlib import Path
from typing import TYPE_CHECKING

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


def _message_bytes(text: str) -> int:
    value = _count(text)
    if value < 1024:
        raise argparse.ArgumentTypeError(f"must be at least 1024 bytes, not {value}")
    return value


def register(subparsers: Subparsers) -> None:
    serve = subparsers.add_parser(
        "serve",
        help="run the gRPC referee",
        description="Run the gRPC referee: hosts tables for every bundled ruleset and keeps "
        "every accepted move in an embedded SQLite database, or in PostgreSQL, which several "
        "referees (replicas) can share.",
    )
    serve.add_argument("--host", default=os.environ.get("BHABHI_HOST", "127.0.0.1"))
    serve.add_argument("--port", type=int, default=int(os.environ.get("BHABHI_PORT", "50051")))
    serve.add_argument(
        "--db",
        default=os.environ.get("BHABHI_DB", str(Path("var") / "referee.sqlite3")),
        help="SQLite database file, or a PostgreSQL URL such as "
        "postgresql://user:password@host:5432/db (add ?options=-csearch_path%%3Dname for a "
        "schema other than the default; the store creates its tables) "
        "(default var/referee.sqlite3; env BHABHI_DB)",
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
    limits.add_argument(
        "--max-tables",
        type=_count,
        default=os.environ.get("BHABHI_MAX_TABLES", "10000"),
        help="tables open or in play at once (default 10000; env BHABHI_MAX_TABLES)",
    )
    limits.add_argument(
        "--max-streams-per-credential",
        type=_count,
        default=os.environ.get("BHABHI_MAX_STREAMS_PER_CREDENTIAL", "16"),
        help="open event streams per seat credential, or per address for spectators "
        "(default 16; env BHABHI_MAX_STREAMS_PER_CREDENTIAL)",
    )
    limits.add_argument(
        "--max-actions-per-second",
        type=_rate,
        default=os.environ.get("BHABHI_MAX_ACTIONS_PER_SECOND", "100"),
        help="actions per second per seat credential, after a burst of twice as many "
        "(default 100; env BHABHI_MAX_ACTIONS_PER_SECOND)",
    )
    limits.add_argument(
        "--trusted-proxy-hops",
        type=_count,
        default=os.environ.get("BHABHI_TRUSTED_PROXY_HOPS", "0"),
        metavar="N",
        help="proxies in front of the referee that append to x-forwarded-for (Envoy with "
        "use_remote_address): spectators' streams then count per address that header "
        "names, not per proxy (default 0: the header is ignored; env "
        "BHABHI_TRUSTED_PROXY_HOPS)",
    )
    limits.add_argument(
        "--keep-finished",
        type=_seconds,
        default=os.environ.get("BHABHI_KEEP_FINISHED", "600"),
        metavar="SECONDS",
        help="how long a finished table stays in memory after its last event; then it is "
        "read from the store when asked for (default 600; env BHABHI_KEEP_FINISHED)",
    )
    limits.add_argument(
        "--max-message-bytes",
        type=_message_bytes,
        default=os.environ.get("BHABHI_MAX_MESSAGE_BYTES", str(1 << 20)),
        help="largest request accepted (default 1048576; env BHABHI_MAX_MESSAGE_BYTES)",
    )
    serve.add_argument("--tls-cert", type=Path, default=os.environ.get("BHABHI_TLS_CERT"))
    serve.add_argument("--tls-key", type=Path, default=os.environ.get("BHABHI_TLS_KEY"))
    serve.add_argument(
        "--tls-client-ca",
        type=Path,
        default=os.environ.get("BHABHI_TLS_CLIENT_CA"),
        help="require client certificates signed by this CA (mutual TLS)",
    )
    observe = serve.add_argument_group("metrics and logs")
    observe.add_argument(
        "--metrics-port",
        type=int,
        default=os.environ.get("BHABHI_METRICS_PORT", "0"),
        help="serve Prometheus metrics over HTTP on this port; Prometheus scrapes "
        "http://HOST:PORT/metrics (default 0: not served; env BHABHI_METRICS_PORT)",
    )
    observe.add_argument(
        "--metrics-host",
        default=os.environ.get("BHABHI_METRICS_HOST", "127.0.0.1"),
        help="where to serve the metrics (default 127.0.0.1; env BHABHI_METRICS_HOST)",
    )
    observe.add_argument(
        "--log-format",
        choices=("text", "json"),
        default=os.environ.get("BHABHI_LOG_FORMAT", "text"),
        help="logs on stderr as text, or one JSON object per line "
        "(default text; env BHABHI_LOG_FORMAT)",
    )
    observe.add_argument(
        "--log-level",
        type=str.upper,
        choices=("DEBUG", "INFO", "WARNING", "ERROR"),
        default=os.environ.get("BHABHI_LOG_LEVEL", "INFO"),
        help="the referee's log level; DEBUG logs every refusal "
        "(default INFO; env BHABHI_LOG_LEVEL)",
    )
    serve.set_defaults(func=_serve)


def _serve(args: argparse.Namespace) -> int:
    from referee.server.app import Tls, serve
    from referee.server.limits import Limits

    tls = None
    if args.tls_cert or args.tls_key:
        if not (args.tls_cert and args.tls_key):
            print("bhabhi serve: error: --tls-cert and --tls-key go together")
            return 1
        for path in (args.tls_cert, args.tls_key, args.tls_client_ca):
            if path is not None and not Path(path).is_file():
                print(f"bhabhi serve: error: no such file: {path}")
                return 1
        tls = Tls(Path(args.tls_cert), Path(args.tls_key), args.tls_client_ca)
    elif args.tls_client_ca:
        print("bhabhi serve: error: --tls-client-ca needs --tls-cert and --tls-key")
        return 1
    if not 0 <= args.metrics_port <= 65535:
        print(f"bhabhi serve: error: --metrics-port {args.metrics_port} is not a port")
        return 1
    from referee.server.observe import configure_logging

    try:  # the environment's values are not checked by argparse
        configure_logging(args.log_format, args.log_level)
    except ValueError as error:
        print(f"bhabhi serve: error: {error}")
        return 1
    try:
        asyncio.run(
            serve(
                args.host,
                args.port,
                db=args.db,
                test_mode=args.test_mode,
                allow_register=args.allow_register,
                tls=tls,
                limits=Limits(
                    max_tables=args.max_tables,
                    max_streams_per_credential=args.max_streams_per_credential,
                    actions_per_second=args.max_actions_per_second,
                    action_burst=math.ceil(2 * args.max_actions_per_second),
                    max_message_bytes=args.max_message_bytes,
                    trusted_proxy_hops=args.trusted_proxy_hops,
                ),
                metrics_host=args.metrics_host,
                metrics_port=args.metrics_port,
                keep_finished=args.keep_finished,
            )
        )
    except OSError as error:
        print(f"bhabhi serve: error: {error}")
        return 1
    except RuntimeError as error:  # grpc: "Failed to bind to address"
        print(f"bhabhi serve: error: {error}")
        return 1
    return 0
