"""Which store a ``--db`` value means: a PostgreSQL URL, ``:memory:`` (nothing kept: for a
conformance run's referee), or else a SQLite file.

One place decides, so that ``bhabhi serve``, ``create_server`` and the benchmarks agree, and
so that what is printed about the store never shows a password given in the URL.  The
PostgreSQL driver is imported only when a URL asks for it: a referee on SQLite never loads it.
"""

from __future__ import annotations

from pathlib import Path

from referee.server.store import Store

DEFAULT_DB = Path("var") / "referee.sqlite3"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
MEMORY = ":memory:"
"""``--db :memory:``: the tables live in the process only and are gone when it ends (a
conformance run's referee, whose tables nobody needs afterwards; no fsync per action)."""


def is_postgres_url(db: str | Path | None) -> bool:
    return isinstance(db, str) and db.startswith(POSTGRES_SCHEMES)  # libpq: lower case only


def open_store(db: str | Path | None) -> Store:
    """The store ``db`` names (None: the default SQLite file), not yet opened: the referee
    opens it, so that its errors arrive where the referee reports them."""
    if is_postgres_url(db):
        from referee.server.store.postgres import PostgresStore

        assert isinstance(db, str)
        return PostgresStore(db)
    if db == MEMORY:
        from referee.server.store.memory import MemoryStore

        return MemoryStore()
    from referee.server.store.sqlite import SqliteStore

    return SqliteStore(Path(db) if db is not None else DEFAULT_DB)


def missing_folder(db: str | Path) -> Path | None:
    """The folder of the SQLite file ``db`` names, if that folder does not exist (None: it
    does, or ``db`` is a PostgreSQL URL).

    The SQLite store creates the folders its file is in, which suits the default
    ``var/referee.sqlite3``; a path given explicitly whose folder is missing is more likely
    a typo or an unmounted volume, and a database quietly made there would be lost."""
    if is_postgres_url(db) or db == MEMORY:
        return None
    folder = Path(db).parent
    return None if folder.is_dir() else folder


def describe_store(db: str | Path | None) -> str:
    """``db`` as it may be printed or logged: a URL's password hidden."""
    if is_postgres_url(db):
        from referee.server.store.postgres import redact

        assert isinstance(db, str)
        return redact(db)
    if db == MEMORY:
        return "memory (nothing is kept)"
    return str(db if db is not None else DEFAULT_DB)
