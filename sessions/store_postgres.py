"""The PostgreSQL backend of the store (psycopg 3), for several app replicas sharing one store.

Chosen by ``DATABASE_URL`` (or a ``postgresql://`` location given to the store). The tables
are those of SQLite (sessions/store_schema.py) plus one row, ``arena_store``, holding the
application's name, the schema version and a revision counter that every save increments
(what the Leaderboard polls to notice a session stored by another replica). Migrations run
under an advisory lock, so replicas starting together migrate once. Integrity is the
server's job (checksums, WAL); there is no ``quick_check`` here.

One connection per store, shared by the app's threads under a lock; a connection lost
(server restarted) is reopened once before a call fails.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from typing import Any

from sessions.store_schema import READABLE_FROM, SCHEMA_VERSION, steps, too_new

APPLICATION = "llm-game-arena"
CONNECT_TIMEOUT = float(os.environ.get("ARENA_PG_CONNECT_TIMEOUT", "5"))
"""Seconds to reach the server before a connection attempt fails."""
STATEMENT_TIMEOUT = float(os.environ.get("ARENA_PG_STATEMENT_TIMEOUT", "15"))
"""Seconds one statement may run on the server (a lock held elsewhere, a stalled server)
before it is cancelled; also how long sent data may go unacknowledged on the connection."""
_LOCK_KEY = 0x4C474152  # the advisory lock migrations hold ("LGAR")
_META = ("CREATE TABLE arena_store (application TEXT NOT NULL, schema_version INTEGER NOT NULL,"
         " revision BIGINT NOT NULL)")


class PostgresError(RuntimeError):
    """Raised by this module; the store turns it into a StoreError."""


def redact(url: str) -> str:
    """The URL without its password, for messages."""
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    try:
        parts = conninfo_to_dict(url)
    except Exception:
        return "the PostgreSQL URL (unreadable)"
    parts.pop("password", None)
    host, port, name = parts.get("host", ""), parts.get("port", ""), parts.get("dbname", "")
    if host or name:
        return f"postgresql://{parts.get('user', '')}@{host}{':' + str(port) if port else ''}/{name}"
    return make_conninfo("", **{k: v for k, v in parts.items() if v is not None})


class PostgresDatabase:
    dialect = "postgresql"

    def __init__(self, url: str, *, readonly: bool = False) -> None:
        try:
            import psycopg
        except ImportError:
            raise PostgresError("DATABASE_URL names PostgreSQL but psycopg is not installed: "
                                "pip install 'psycopg[binary]'") from None
        self._psycopg = psycopg
        self.url = url
        self.where = redact(url)
        self.readonly = readonly
        self._lock = threading.Lock()
        self._conn = self._connect()
        try:
            self._check_and_migrate()
        except BaseException:
            self._conn.close()
            raise

    def _connect(self) -> Any:
        try:
            millis = max(1, int(STATEMENT_TIMEOUT * 1000))
            conn = self._psycopg.connect(
                self.url, autocommit=True, application_name=APPLICATION,
                connect_timeout=max(1, round(CONNECT_TIMEOUT)), tcp_user_timeout=millis)
            conn.execute(f"SET statement_timeout = {millis}")
        except self._psycopg.Error as err:
            raise PostgresError(f"cannot connect to {self.where}: "
                                f"{str(err).strip().splitlines()[0]}") from None
        if self.readonly:
            conn.execute("SET default_transaction_read_only = on")
        return conn

    def _check_and_migrate(self) -> None:
        if self.readonly:
            version = self._version(self._conn)
            if version is None:
                raise PostgresError(f"no store at {self.where}: nothing has been stored there "
                                    "yet")
            if not READABLE_FROM <= version <= SCHEMA_VERSION:
                raise PostgresError(too_new(self.where, version))
            return
        with self._conn.transaction():
            self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
            version = self._version(self._conn)
            if version is None:
                self._conn.execute(_META)
                self._conn.execute("INSERT INTO arena_store VALUES (%s, 0, 0)", (APPLICATION,))
                version = 0
            if version > SCHEMA_VERSION:
                raise PostgresError(too_new(self.where, version))
            for target, statements in steps(version, self.dialect):
                for sql in statements:
                    self._conn.execute(sql)
                self._conn.execute("UPDATE arena_store SET schema_version = %s", (target,))

    def _version(self, conn: Any) -> int | None:
        """The schema version, None for a database without our tables; refuses a database
        where another application's ``matches`` or ``seats`` table stands."""
        found = {row[0] for row in conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = "
            "current_schema() AND table_name IN ('arena_store', 'matches', 'seats')")}
        if "arena_store" not in found:
            if found:
                raise PostgresError(f"{self.where} already has tables named "
                                    f"{', '.join(sorted(found))} of another application; "
                                    "refusing to write to them (use another database or "
                                    "schema)")
            return None
        row = conn.execute("SELECT application, schema_version FROM arena_store").fetchone()
        if row is None or row[0] != APPLICATION:
            raise PostgresError(f"{self.where}: arena_store belongs to {row and row[0]!r}, "
                                "not to LLM Game Arena; refusing to use it")
        return int(row[1])

    # --- using ----------------------------------------------------------------------------

    def query(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        sql = sql.replace("?", "%s")
        with self._lock:
            return self._again(lambda: self._conn.execute(sql, args).fetchall())

    @contextlib.contextmanager
    def transaction(self) -> Iterator[_Writer]:
        """A write transaction. It first takes the next revision (the row lock that holds
        until commit makes concurrent writers, other replicas too, commit in that order):
        the writer's ``seq``."""
        with self._lock:
            self._again(lambda: self._conn.execute("SELECT 1"))
            with self._conn.transaction():
                row = self._conn.execute("UPDATE arena_store SET revision = revision + 1 "
                                         "RETURNING revision").fetchone()
                yield _Writer(self._conn, int(row[0]))

    def revision(self) -> tuple[int, int, int]:
        rows = self.query("SELECT (SELECT count(*) FROM matches), revision FROM arena_store")
        return int(rows[0][0]), int(rows[0][1]), 0

    def schema_version(self) -> int:
        return int(self.query("SELECT schema_version FROM arena_store")[0][0])

    def close(self) -> None:
        with self._lock:  # after the statement another thread is running
            self._conn.close()

    def _again(self, call: Any) -> Any:
        """Run ``call``; if the connection was lost, reconnect once and run it again."""
        try:
            return call()
        except self._psycopg.OperationalError:
            if not self._conn.broken:
                raise  # only a lost connection is made again: a closed store stays closed
            self._conn = self._connect()
            return call()


class _Writer:
    """Executes ``?``-style SQL inside a transaction (the shape sqlite3's connection has)."""

    def __init__(self, conn: Any, seq: int) -> None:
        self._conn = conn
        self.seq = seq
        """The place of this write in the store's write order."""

    def execute(self, sql: str, args: tuple[Any, ...] = ()) -> Any:
        return self._conn.execute(sql.replace("?", "%s"), args)

    def executemany(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        with self._conn.cursor() as cursor:
            cursor.executemany(sql.replace("?", "%s"), rows)
