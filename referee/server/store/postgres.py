"""The store for several referees at once: one PostgreSQL database that every replica shares.

Why it is built this way:

* **Durable before acknowledged, one round trip.**  Each append is a single statement in
  autocommit mode: a data-modifying CTE inserts the command, sets the table's status and
  wake-up hints and queues the notification.  One statement is one transaction, so ``append``
  returns after the server's ``COMMIT`` (its ``synchronous_commit`` setting, ``on`` by
  default, decides what that promises), and the notification leaves only if it committed.
* **Concurrency from a pool, grouping from the server.**  Tasks take connections from a small
  pool (``pool_size``), so that many appends are in flight at once; PostgreSQL flushes the WAL
  of concurrent commits together, which is the SQLite store's group commit without a writer
  queue of our own.  A conflict is then simply its own statement's failure.
* **The uniqueness of (table, number) is the only lock between replicas.**  Two replicas
  racing for a table's next number both reach the primary key; the loser's INSERT waits for
  the winner's commit and fails with ``ConflictError``.
* **The schema migrates itself, safely from several replicas.**  ``MIGRATIONS`` corresponds
  version for version to the SQLite store's list, recorded in ``schema_version``.  Each script
  runs in its own transaction holding an advisory lock (per schema) and re-checks the version
  inside it, so replicas starting together apply each script exactly once.
* **JSON stays text.**  Configs and payloads are stored as the exact text ``store_json``
  made, in ``text`` columns: ``jsonb`` would reorder keys, rewrite numbers and refuse the
  ``\\u0000`` escape that JSON text may hold, and every backend must give back the same values.
* **Schemas isolate.**  Tables live in the connection's current schema, chosen the standard
  way (``options=-csearch_path=NAME`` in the URL), and the notification channel is named after
  that schema, so that stores in two schemas of one database neither mix rows nor hear each
  other.
* **News by LISTEN/NOTIFY.**  One dedicated connection listens; a notification carries the
  whole command when it fits PostgreSQL's 8000-byte limit, else only its table and number.
  If that connection is lost, the store reconnects with backoff and then sends every listener
  the resync signal (see ``Listener``): notifications sent meanwhile are gone.
* **Failures speak of the server.**  Every psycopg or OS error surfaces as ``StoreError``
  naming host, port, database and schema, never the password.

A caller cancelled while awaiting ``append`` may still have its command stored: the statement
is already on the server.  Replaying finds it; a retry gets ``ConflictError``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import re
import secrets
import time
import urllib.parse
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import Any, TypeVar

import psycopg
from psycopg import errors, sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg_pool import AsyncConnectionPool

from referee.server.store import (
    CommandRecord,
    ConflictError,
    Listener,
    RulesetRecord,
    Store,
    StoreError,
    TableRecord,
)
from referee.server.store.payload import decode, encode

T = TypeVar("T")
Connection = psycopg.AsyncConnection[Any]

log = logging.getLogger(__name__)

MIGRATIONS: Sequence[str] = (
    # 1: tables, their commands, registered rulesets (SQLite's version 1).  ``seq`` keeps
    # creation order among rows created at the same instant, as SQLite's rowid does.
    """
    CREATE TABLE tables (
        table_id   text             NOT NULL PRIMARY KEY,
        config     text             NOT NULL,  -- JSON object, as store_json encodes it
        created_at double precision NOT NULL,  -- Unix time, seconds
        seq        bigint           GENERATED ALWAYS AS IDENTITY
    );
    CREATE TABLE commands (
        table_id text             NOT NULL REFERENCES tables (table_id),
        number   bigint           NOT NULL,
        kind     text             NOT NULL,
        payload  text             NOT NULL,  -- JSON object, as store_json encodes it
        at       double precision NOT NULL,  -- Unix time, seconds
        PRIMARY KEY (table_id, number)
    );
    CREATE TABLE rulesets (
        ruleset_id    text             NOT NULL PRIMARY KEY,
        yaml          text             NOT NULL,
        registered_at double precision NOT NULL,
        seq           bigint           GENERATED ALWAYS AS IDENTITY
    );
    """,
    # 2: per-table hints for several referees sharing the store (SQLite's version 2): the
    # status after the last command that knew it, and when a referee should next look.
    """
    ALTER TABLE tables ADD COLUMN status text, ADD COLUMN wake_at double precision;
    CREATE INDEX tables_wake_at ON tables (wake_at) WHERE wake_at IS NOT NULL;
    CREATE INDEX tables_status ON tables (status);
    """,
)
"""Append only, and one script per SQLite script: version N means the same in both."""

_SCHEMA_VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    version    integer          NOT NULL PRIMARY KEY,
    applied_at double precision NOT NULL
)
"""

_APPEND = """
WITH added AS (
    INSERT INTO commands (table_id, number, kind, payload, at)
    VALUES (%(table_id)s, %(number)s, %(kind)s, %(payload)s, %(at)s)
    RETURNING table_id
), hinted AS (
    UPDATE tables SET status = coalesce(%(status)s, status), wake_at = %(wake_at)s
    WHERE table_id = (SELECT table_id FROM added)
    RETURNING table_id
)
SELECT pg_notify(%(channel)s, %(message)s) FROM hinted
"""
"""Insert, hints and notification in one statement: one round trip, one transaction."""

NOTIFY_LIMIT = 8000
"""PostgreSQL refuses a notification payload of this many bytes or more."""

RESYNC = ""
"""The table id of the resync signal: ``listener("", 0, None)``."""

_DEFAULTS = {"connect_timeout": "10", "application_name": "bhabhi-referee"}
"""Connection settings the URL may set; these only fill in what it leaves out (without a
connect timeout, an unreachable server would hang ``open`` for minutes)."""


class PostgresStore(Store):
    """The referee's store in a PostgreSQL database, shared by every replica given the URL.

    ``url`` is a libpq URL or connection string (``postgresql://user@host:5432/db``, with
    ``?options=-csearch_path%3Dname`` to use a schema other than the default).  ``pool_size``
    bounds the connections used for reads and writes (one more listens); ``timeout`` is how
    long (seconds) a call may wait for a free connection; ``heartbeat`` is how often the
    listening connection proves it is alive while nothing arrives.
    """

    shared = True

    def __init__(
        self,
        url: str,
        *,
        pool_size: int = 10,
        timeout: float = 10.0,
        heartbeat: float = 10.0,
        reconnect_delay: tuple[float, float] = (0.1, 5.0),
    ) -> None:
        if pool_size < 1:
            raise ValueError(f"pool_size must be at least 1, not {pool_size}")
        try:
            params = conninfo_to_dict(url)
        except psycopg.Error as error:  # its message may quote the URL, password and all
            reason = str(error).replace(url, redact(url))
            raise StoreError(f"invalid PostgreSQL URL {redact(url)}: {reason}") from error
        self._password = str(params.get("password") or "")
        self._conninfo = make_conninfo(
            url, **{key: value for key, value in _DEFAULTS.items() if key not in params}
        )
        self.name = f"PostgreSQL store {_where(params)}"
        """How messages name this store: host, port and database (schema once open)."""
        self._pool_size = pool_size
        self._timeout = timeout
        self._heartbeat = heartbeat
        self._reconnect_delay = reconnect_delay
        self._state = "new"
        self._pool: AsyncConnectionPool[Connection] | None = None
        self._channel = ""
        self._busy = 0
        self._idle = asyncio.Event()
        """Set while no call is using a connection: ``close`` waits for it."""
        self._idle.set()
        self._closed = asyncio.Event()
        self._listeners: list[Listener] = []
        self._listening: asyncio.Task[None] | None = None
        self._listen_pid = 0
        """The listening connection's server process (tests end it to show reconnection)."""

    # --- lifecycle ---------------------------------------------------------------------

    async def open(self) -> None:
        if self._state != "new":
            raise StoreError(f"{self.name} is already {self._state}")
        self._state = "opening"
        listening: Connection | None = None
        try:
            await self._prepare_schema()
            self._pool = AsyncConnectionPool(
                self._conninfo,
                min_size=min(2, self._pool_size),
                max_size=self._pool_size,
                kwargs={"autocommit": True},
                timeout=self._timeout,
                name=self.name,
                open=False,
            )
            await self._pool.open(wait=True, timeout=self._timeout)
            if self._listeners:  # listen() before open(): nothing may be missed from here
                listening = await self._connect_listener()
            if self._state != "opening":
                raise StoreError(f"{self.name} was closed while opening")
        except BaseException as error:
            self._state = "closed"
            self._closed.set()
            if listening is not None:
                await listening.close()
            if self._pool is not None:
                await self._pool.close()
            if isinstance(error, psycopg.Error | OSError):
                raise StoreError(f"cannot open {self.name}: {self._text(error)}") from error
            raise
        self._state = "open"
        if listening is not None or self._listeners:
            self._start_listening(listening)

    async def close(self) -> None:
        # Idempotent, like file.close(): a ``finally`` may close a store already closed.
        if self._state in ("new", "opening", "closed"):
            self._state = "closed"  # an ``open`` in progress sees it and lets go
            self._closed.set()
            return
        if self._state == "closing":
            await self._closed.wait()
            return
        self._state = "closing"  # refuse new calls; those in progress finish first
        try:
            await self._idle.wait()
            if self._listening is not None:
                self._listening.cancel()
                await asyncio.gather(self._listening, return_exceptions=True)
            if self._pool is not None:
                await self._pool.close()
        finally:
            self._state = "closed"
            self._closed.set()

    # --- writes ------------------------------------------------------------------------

    async def create_table(self, table: TableRecord) -> None:
        config = encode(table.config, f"config of table {table.table_id!r}")
        await self._write(
            "INSERT INTO tables (table_id, config, created_at, status) VALUES (%s, %s, %s, 'open')",
            (table.table_id, config, table.created_at),
            conflict=f"table {table.table_id!r} already exists",
        )

    async def append(
        self,
        command: CommandRecord,
        *,
        table_status: str | None = None,
        wake_at: float | None = None,
    ) -> None:
        what = f"command number {command.number} of table {command.table_id!r}"
        payload = encode(command.payload, f"payload of {what}")
        await self._write(
            _APPEND,
            {
                "table_id": command.table_id,
                "number": command.number,
                "kind": command.kind,
                "payload": payload,
                "at": command.at,
                "status": table_status,
                "wake_at": wake_at,
                "channel": self._channel,
                "message": _message(command, payload),
            },
            conflict=f"table {command.table_id!r} already has command number {command.number}",
            missing=f"{what}: no such table",
        )

    async def clear_wake(self, table_id: str, wake_at: float) -> None:
        await self._write(
            "UPDATE tables SET wake_at = NULL WHERE table_id = %s AND wake_at = %s",
            (table_id, wake_at),
            conflict=f"cannot clear the wake-up of table {table_id!r}",
        )

    async def finish_table(self, table_id: str) -> None:
        await self._write(
            "UPDATE tables SET status = 'finished', wake_at = NULL WHERE table_id = %s",
            (table_id,),
            conflict=f"cannot record the end of table {table_id!r}",
        )

    async def put_ruleset(self, ruleset: RulesetRecord) -> None:
        await self._write(
            "INSERT INTO rulesets (ruleset_id, yaml, registered_at) VALUES (%s, %s, %s)",
            (ruleset.ruleset_id, ruleset.yaml, ruleset.registered_at),
            conflict=f"ruleset {ruleset.ruleset_id!r} already exists",
        )

    async def _write(
        self,
        query: str,
        params: Sequence[object] | dict[str, object],
        *,
        conflict: str,
        missing: str = "",
    ) -> None:
        async def write(connection: Connection) -> None:
            try:
                await connection.execute(query, params)
            except errors.UniqueViolation as error:
                raise ConflictError(conflict) from error
            except errors.ForeignKeyViolation as error:
                raise StoreError(missing or conflict) from error

        await self._use(write, "write to")

    # --- reads -------------------------------------------------------------------------

    async def load_tables(
        self, *, status: str | None = None, unfinished: bool = False
    ) -> list[TableRecord]:
        rows = await self._rows(
            "SELECT table_id, config, created_at FROM tables"
            " WHERE (%(status)s::text IS NULL OR status = %(status)s)"
            " AND (NOT %(unfinished)s OR status IS DISTINCT FROM 'finished')"
            " ORDER BY created_at, seq",
            {"status": status, "unfinished": unfinished},
        )
        return [
            TableRecord(table_id=table_id, config=decode(config), created_at=created_at)
            for table_id, config, created_at in rows
        ]

    async def load_table(self, table_id: str) -> TableRecord | None:
        rows = await self._rows(
            "SELECT config, created_at FROM tables WHERE table_id = %s", (table_id,)
        )
        if not rows:
            return None
        [(config, created_at)] = rows
        return TableRecord(table_id=table_id, config=decode(config), created_at=created_at)

    async def due_tables(self, now: float, limit: int = 100) -> list[tuple[str, float]]:
        # COLLATE "C": ties in byte order, as SQLite and Python compare, whatever the locale.
        rows = await self._rows(
            "SELECT table_id, wake_at FROM tables WHERE wake_at <= %s"
            ' ORDER BY wake_at, table_id COLLATE "C" LIMIT %s',
            (now, limit),
        )
        return [(table_id, wake_at) for table_id, wake_at in rows]

    async def load_commands(self, table_id: str, after: int = 0) -> list[CommandRecord]:
        rows = await self._rows(
            "SELECT number, kind, payload, at FROM commands"
            " WHERE table_id = %s AND number > %s ORDER BY number",
            (table_id, after),
        )
        return [
            CommandRecord(
                table_id=table_id, number=number, kind=kind, payload=decode(payload), at=at
            )
            for number, kind, payload, at in rows
        ]

    async def load_rulesets(self) -> list[RulesetRecord]:
        rows = await self._rows(
            "SELECT ruleset_id, yaml, registered_at FROM rulesets ORDER BY registered_at, seq"
        )
        return [
            RulesetRecord(ruleset_id=ruleset_id, yaml=yaml, registered_at=registered_at)
            for ruleset_id, yaml, registered_at in rows
        ]

    async def _rows(
        self, query: str, params: Sequence[object] | dict[str, object] = ()
    ) -> list[tuple[Any, ...]]:
        async def read(connection: Connection) -> list[tuple[Any, ...]]:
            cursor = await connection.execute(query, params)
            return await cursor.fetchall()

        return await self._use(read, "read")

    async def _use(self, work: Callable[[Connection], Awaitable[T]], doing: str) -> T:
        """Run ``work`` on a pooled connection, counted so that ``close`` can wait for it,
        with every driver error turned into a ``StoreError`` about this store."""
        if self._state != "open":
            raise StoreError(f"{self.name} is {self._state}, not open")
        assert self._pool is not None
        self._busy += 1
        self._idle.clear()
        try:
            async with self._pool.connection() as connection:
                return await work(connection)
        except StoreError:
            raise
        except (psycopg.Error, OSError, UnicodeError, ValueError) as error:
            # ValueError: stored JSON that does not decode; UnicodeError: lone surrogates.
            raise StoreError(f"cannot {doing} {self.name}: {self._text(error)}") from error
        finally:
            self._busy -= 1
            if not self._busy:
                self._idle.set()

    # --- listening ---------------------------------------------------------------------

    def listen(self, listener: Listener) -> None:
        """After ``open``, the listening connection starts in the background: the listener
        gets the resync signal once it is ready, for whatever was committed before that."""
        if self._state in ("closing", "closed"):
            raise StoreError(f"{self.name} is {self._state}: cannot listen")
        self._listeners.append(listener)
        if self._state == "open" and self._listening is None:
            self._start_listening(None)

    def _start_listening(self, connection: Connection | None) -> None:
        self._listening = asyncio.ensure_future(self._listen(connection))
        self._listening.add_done_callback(self._stopped_listening)

    def _stopped_listening(self, task: asyncio.Task[None]) -> None:
        # Only close() cancels it; anything else is a bug that would silence the news.
        if not task.cancelled() and task.exception() is not None:
            log.error("%s: stopped listening", self.name, exc_info=task.exception())

    async def _listen(self, connection: Connection | None) -> None:
        """Deliver notifications until cancelled; reconnect, then resync, whenever the
        connection is lost (``connection`` None: the first one is still to be made)."""
        delay = self._reconnect_delay[0]
        while True:
            if connection is None:
                try:
                    connection = await self._connect_listener()
                except (psycopg.Error, OSError) as error:
                    log.warning(
                        "%s: cannot listen (%s); retrying in %.1f s",
                        self.name,
                        self._text(error),
                        delay,
                    )
                    await asyncio.sleep(delay)
                    delay = min(2 * delay, self._reconnect_delay[1])
                    continue
                delay = self._reconnect_delay[0]
                self._deliver(RESYNC, 0, None)  # whatever was sent while nobody listened
            try:
                await self._receive(connection)
            except (psycopg.Error, OSError, TimeoutError) as error:
                log.warning("%s: lost the listening connection: %s", self.name, self._text(error))
            finally:
                await connection.close()
            connection = None

    async def _connect_listener(self) -> Connection:
        connection = await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True)
        try:
            await connection.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self._channel)))
        except BaseException:
            await connection.close()
            raise
        self._listen_pid = connection.info.backend_pid
        return connection

    async def _receive(self, connection: Connection) -> None:
        while True:
            async for notify in connection.notifies(timeout=self._heartbeat):
                self._on_notify(notify.payload)
            # A silent server may be a dead one (no RST ever came): ask it something.
            await asyncio.wait_for(connection.execute("SELECT 1"), self._heartbeat)

    def _on_notify(self, text: str) -> None:
        try:
            message = json.loads(text)
            table_id, number = message["table_id"], message["number"]
            if not isinstance(table_id, str) or type(number) is not int:
                raise TypeError(f"table {table_id!r}, number {number!r}")
            record = None
            if "kind" in message:
                kind, payload = message["kind"], message["payload"]
                if not isinstance(kind, str) or not isinstance(payload, dict):
                    raise TypeError(f"kind {kind!r}, payload {payload!r}")
                record = CommandRecord(table_id, number, kind, payload, float(message["at"]))
        except (ValueError, KeyError, TypeError) as error:
            # Not ours, or a table id too long to carry: we cannot tell what changed.
            log.warning("%s: unreadable notification (%s); resync", self.name, error)
            table_id, number, record = RESYNC, 0, None
        self._deliver(table_id, number, record)

    def _deliver(self, table_id: str, number: int, record: CommandRecord | None) -> None:
        # call_soon: a listener that raises is the loop's business, not the listening task's.
        loop = asyncio.get_running_loop()
        for listener in self._listeners:
            loop.call_soon(listener, table_id, number, record)

    # --- the schema --------------------------------------------------------------------

    async def _prepare_schema(self) -> None:
        try:
            connection = await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True)
        except (psycopg.Error, OSError) as error:
            raise StoreError(f"cannot connect to {self.name}: {self._text(error)}") from error
        try:
            info = connection.info
            self.name = f"PostgreSQL store {info.host}:{info.port}/{info.dbname}"
            cursor = await connection.execute(
                "SELECT current_schema(), current_setting('search_path')"
            )
            row = await cursor.fetchone()
            assert row is not None
            schema, search_path = row
            if schema is None:
                raise StoreError(
                    f"{self.name}: no schema of the search_path ({search_path}) exists;"
                    " create it, or choose another with options=-csearch_path%3DNAME in the URL"
                )
            self.name += f", schema {schema}"
            self._channel = channel_name(schema)
            await self._migrate(connection, schema)
        except (psycopg.Error, OSError) as error:
            raise StoreError(f"cannot open {self.name}: {self._text(error)}") from error
        finally:
            await connection.close()

    async def _migrate(self, connection: Connection, schema: str) -> None:
        """Apply each missing script in its own transaction, under an advisory lock, and
        re-check the version inside it: another replica may be migrating at this moment."""
        latest = len(MIGRATIONS)
        lock = _lock_key(schema)
        version = await self._schema_version(connection)
        for number, script in enumerate(MIGRATIONS, start=1):
            self._check_not_newer(version, latest)
            if version >= number:
                continue
            try:
                async with connection.transaction():
                    await connection.execute("SELECT pg_advisory_xact_lock(%s)", (lock,))
                    await connection.execute(_SCHEMA_VERSION_TABLE)
                    version = await self._schema_version(connection)
                    if version < number:
                        await connection.execute(script)
                        await connection.execute(
                            "INSERT INTO schema_version (version, applied_at) VALUES (%s, %s)",
                            (number, time.time()),
                        )
                        version = number
            except psycopg.Error as error:
                raise StoreError(
                    f"cannot migrate {self.name} to schema version {number}: {self._text(error)}"
                ) from error
        self._check_not_newer(version, latest)

    def _check_not_newer(self, version: int, latest: int) -> None:
        if version > latest:
            raise StoreError(
                f"{self.name} has schema version {version}, newer than this referee knows"
                f" ({latest}); upgrade the referee"
            )

    @staticmethod
    async def _schema_version(connection: Connection) -> int:
        cursor = await connection.execute("SELECT to_regclass('schema_version') IS NOT NULL")
        row = await cursor.fetchone()
        if row is None or not row[0]:
            return 0
        cursor = await connection.execute("SELECT coalesce(max(version), 0) FROM schema_version")
        row = await cursor.fetchone()
        assert row is not None
        return int(row[0])

    def _text(self, error: BaseException) -> str:
        """An error on one line, without the password (should a message ever quote it)."""
        text = " ".join(str(error).split()) or type(error).__name__
        if len(self._password) >= 4:
            text = text.replace(self._password, "***")
        return text


def channel_name(schema: str) -> str:
    """The NOTIFY channel of a schema: readable when the schema name allows, else hashed
    (a channel is an identifier: at most 63 bytes)."""
    channel = f"bhabhi_commands_{schema}"
    if re.fullmatch(r"[a-z0-9_]+", schema) and len(channel) <= 63:
        return channel
    return "bhabhi_commands_" + hashlib.sha256(schema.encode()).hexdigest()[:32]


class PostgresUnreachable(StoreError):
    """No PostgreSQL server answers at the URL given (the message says where and why)."""


@contextlib.contextmanager
def scratch_schema(server: str, prefix: str) -> Iterator[str]:
    """A URL of a new, empty schema ``<prefix>_<random>`` on ``server``, dropped with
    everything in it on exit.  For the tests, the benchmark and ``bhabhi drill``, which
    must leave a site's own tables alone and must not meet each other."""
    schema = f"{prefix}_{secrets.token_hex(6)}"
    try:
        admin = psycopg.connect(server, autocommit=True, connect_timeout=5)
    except psycopg.Error as error:
        reason = " ".join(str(error).split())
        raise PostgresUnreachable(
            f"PostgreSQL not reachable at {redact(server)}: {reason}"
        ) from error
    with admin:
        admin.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    try:
        yield with_schema(server, schema)
    finally:
        with psycopg.connect(server, autocommit=True, connect_timeout=5) as admin:
            # A store left open holds no locks between calls; if one does, fail, not hang.
            admin.execute("SET lock_timeout = '10s'")
            admin.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))


def with_schema(url: str, schema: str) -> str:
    """``url`` with its search_path set to ``schema`` through the standard ``options``
    parameter (kept beside any other options it had)."""
    parts = urllib.parse.urlsplit(url)
    query = urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
    options = [value for key, value in query if key == "options"]
    options.append(f"-csearch_path={schema}")
    query = [(key, value) for key, value in query if key != "options"]
    query.append(("options", " ".join(options)))
    encoded = urllib.parse.urlencode(query, quote_via=urllib.parse.quote, safe="")
    return urllib.parse.urlunsplit(parts._replace(query=encoded))


def redact(url: str) -> str:
    """The URL to show people: any password replaced by ``***``."""
    parts = urllib.parse.urlsplit(url)
    netloc = parts.netloc
    userinfo, at, hosts = netloc.rpartition("@")
    if at and ":" in userinfo:
        netloc = f"{userinfo.split(':', 1)[0]}:***@{hosts}"
    query = "&".join(
        "password=***" if pair.split("=", 1)[0] == "password" else pair
        for pair in parts.query.split("&")
    )
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc, query=query))


def _where(params: dict[str, Any]) -> str:
    """host:port/database as libpq would choose them, before any connection told us."""
    host = params.get("host") or params.get("hostaddr") or os.environ.get("PGHOST") or "localhost"
    port = params.get("port") or os.environ.get("PGPORT") or "5432"
    database = params.get("dbname") or os.environ.get("PGDATABASE") or params.get("user") or ""
    return f"{host}:{port}/{database}"


def _lock_key(schema: str) -> int:
    """The advisory lock of one schema's migrations (a signed 64-bit key)."""
    digest = hashlib.sha256(f"bhabhi-referee migrations {schema}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def _message(command: CommandRecord, payload: str) -> str:
    """The notification: the whole command as compact JSON if it fits, else where to look,
    else (a table id of kilobytes) something unreadable, which listeners take as resync."""
    table_id = json.dumps(command.table_id, ensure_ascii=False)
    kind = json.dumps(command.kind, ensure_ascii=False)
    head = f'{{"table_id":{table_id},"number":{int(command.number)}'
    whole = f'{head},"kind":{kind},"at":{json.dumps(float(command.at))},"payload":{payload}}}'
    for message in (whole, head + "}"):
        if len(message.encode("utf-8", "surrogatepass")) < NOTIFY_LIMIT:
            return message
    return ""
