"""The SQLite backend of the store: one file, WAL, checked before it is written to.

Opened for writing, the file is created if missing (with its folder), must carry the
store's application id, is migrated to the current schema and passes ``PRAGMA
quick_check`` (a damaged file is refused before anything is written to it). Opened
read-only (export, ratings, the GAMA table), nothing is created, checked or migrated and
the file is opened with ``mode=ro``, so a store in a read-only folder can be read.
Every failure is a :class:`~sessions.store.StoreError` of one line saying what to do.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import threading
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sessions.store_schema import READABLE_FROM, SCHEMA_VERSION, steps, too_new

APPLICATION_ID = 0x4C474152  # "LGAR"


class SQLiteError(RuntimeError):
    """Raised by this module; the store turns it into a StoreError."""


class SQLiteDatabase:
    dialect = "sqlite"

    def __init__(self, path: Path, *, readonly: bool = False) -> None:
        self.path = path
        self.where = str(path)
        self.readonly = readonly
        self._lock = threading.Lock()
        self._db = self._connect_readonly() if readonly else self._connect_writable()

    # --- opening --------------------------------------------------------------------------

    def _connect_writable(self) -> sqlite3.Connection:
        folder = self.path.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise SQLiteError(f"cannot create the folder {folder} for the store: "
                              f"{_reason(err)}; pass --db (or set ARENA_DATA_DIR) to a "
                              "writable place") from None
        if not os.access(folder, os.W_OK):
            raise SQLiteError(f"cannot write the store {self.path}: the folder {folder} is "
                              "read-only; pass --db (or set ARENA_DATA_DIR) to a writable "
                              "place (export and ratings can still read it)")
        if self.path.exists() and not os.access(self.path, os.W_OK):
            raise SQLiteError(f"cannot write the store {self.path}: the file is read-only; "
                              "make it writable or pass another --db")
        try:
            db = sqlite3.connect(self.path, check_same_thread=False, timeout=30,
                                 isolation_level=None)
        except sqlite3.Error as err:
            raise SQLiteError(f"cannot open the store {self.path}: {err}") from None
        try:
            self._prepare(db)
        except BaseException:
            db.close()
            raise
        return db

    def _prepare(self, db: sqlite3.Connection) -> None:
        try:
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        except sqlite3.DatabaseError as err:
            raise SQLiteError(f"{self.path} is not a usable LLM Game Arena store ({err}); "
                              "move it away or pass another --db path") from None
        if not (app_id == 0 and tables == 0) and app_id != APPLICATION_ID:
            raise SQLiteError(f"{self.path} is an SQLite database of another application "
                              f"(application_id {app_id}); refusing to write to it")
        if tables:
            self._check_integrity(db)
        try:
            self._migrate(db)
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA foreign_keys = ON")
            db.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.DatabaseError as err:
            raise SQLiteError(f"{self.path} is not a usable LLM Game Arena store ({err}); "
                              "move it away or pass another --db path") from None

    def _check_integrity(self, db: sqlite3.Connection) -> None:
        """``PRAGMA quick_check``: every page and index is readable and well formed."""
        try:
            problems = [row[0] for row in db.execute("PRAGMA quick_check(5)")]
        except sqlite3.DatabaseError as err:
            problems = [str(err)]
        if problems != ["ok"]:
            raise SQLiteError(
                f"{self.path} is damaged ({'; '.join(problems)[:200]}); nothing was written "
                f"to it. Move it away and restore a backup, or salvage what is readable with "
                f"`sqlite3 {self.path} .recover | sqlite3 recovered.sqlite3`")

    def _migrate(self, db: sqlite3.Connection) -> None:
        db.execute("BEGIN IMMEDIATE")  # one migrator at a time; re-read under the lock
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise SQLiteError(too_new(str(self.path), version))
            for target, statements in steps(version, self.dialect):
                for sql in statements:
                    db.execute(sql)
                db.execute(f"PRAGMA user_version = {target}")
            if version == 0:
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def _connect_readonly(self) -> sqlite3.Connection:
        if not self.path.exists():
            raise SQLiteError(f"no store at {self.path}: nothing has been stored there yet; "
                              "pass --db (or set ARENA_DATA_DIR) to where the games are")
        if not os.access(self.path, os.R_OK):
            raise SQLiteError(f"cannot read the store {self.path}: permission denied")
        uri = "file:" + urllib.parse.quote(str(self.path.resolve()))
        # In a folder this process cannot write, SQLite cannot make the WAL index beside the
        # file; no writer can then be using the file either, so it is read as immutable.
        folder_writable = os.access(self.path.parent, os.W_OK)
        wal = self.path.with_name(self.path.name + "-wal")
        if not folder_writable and wal.exists() and wal.stat().st_size > 0:
            raise SQLiteError(f"{self.path} has sessions not yet folded into the file ({wal}) "
                              "and its folder is read-only, so they cannot be read: open it "
                              "once where it can be written, or copy the folder elsewhere")
        mode = "?mode=ro" if folder_writable else "?mode=ro&immutable=1"
        try:
            db = sqlite3.connect(uri + mode, uri=True, check_same_thread=False, timeout=30,
                                 isolation_level=None)
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            version = db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.DatabaseError as err:
            raise SQLiteError(f"{self.path} is not a readable LLM Game Arena store ({err}); "
                              "check the path") from None
        if app_id != APPLICATION_ID:
            db.close()
            raise SQLiteError(f"{self.path} is not an LLM Game Arena store "
                              f"(application_id {app_id})")
        if version > SCHEMA_VERSION or version < READABLE_FROM:
            db.close()
            raise SQLiteError(too_new(str(self.path), version))
        return db

    # --- using ----------------------------------------------------------------------------

    def query(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                if self._db.in_transaction:  # SQLite rolls back by itself on a full disk
                    self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def revision(self) -> tuple[int, int, int]:
        with self._lock:
            count = self._db.execute("SELECT count(*) FROM matches").fetchone()[0]
            version = self._db.execute("PRAGMA data_version").fetchone()[0]
            return int(count), int(version), int(self._db.total_changes)

    def schema_version(self) -> int:
        return int(self.query("PRAGMA user_version")[0][0])

    def close(self) -> None:
        """Close once no other thread is using the connection: closing it under a running
        statement crashes the process (a segfault in Python 3.11's sqlite3)."""
        with self._lock:
            self._db.close()


def _reason(err: OSError) -> str:
    if err.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return "permission denied (read-only)"
    return err.strerror or str(err)
