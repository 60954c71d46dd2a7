"""``bhabhi serve``: run the referee. Flags win over environment variables (BHABHI_*)."""

from __future__ import annotations

import argparse
import asyncio
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from referee.cli import Subparsers


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").lower() in ("1", "true", "yes", "on")


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
    serve.add_argument("--tls-cert", type=Path, default=os.environ.get("BHABHI_TLS_CERT"))
    serve.add_argument("--tls-key", type=Path, default=os.environ.get("BHABHI_TLS_KEY"))
    serve.add_argument(
        "--tls-client-ca",
        type=Path,
        default=os.environ.get("BHABHI_TLS_CLIENT_CA"),
        help="require client certificates signed by this CA (mutual TLS)",
    )
    serve.set_defaults(func=_serve)


def _serve(args: argparse.Namespace) -> int:
    from referee.server.app import Tls, serve

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
    try:
        asyncio.run(
            serve(
                args.host,
                args.port,
                db=args.db,
                test_mode=args.test_mode,
                allow_register=args.allow_register,
                tls=tls,
            )
        )
    except OSError as error:
        print(f"bhabhi serve: error: {error}")
        return 1
    except RuntimeError as error:  # grpc: "Failed to bind to address"
        print(f"bhabhi serve: error: {error}")
        return 1
    return 0
