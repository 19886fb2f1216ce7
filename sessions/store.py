"""The session store: SQLite by default, PostgreSQL when ``DATABASE_URL`` is set; one
transaction per completed session.

Where: ``Store(path)`` is that SQLite file; ``Store("postgresql://...")`` that database;
``Store()`` is ``DATABASE_URL`` when set, else ``$ARENA_DATA_DIR/arena.sqlite3`` (``./data``
by default). Both backends hold the same tables, versioned and migrated the same way
(sessions/store_schema.py); the SQLite file runs in WAL mode and carries an application id,
so a corrupt, damaged or foreign file is refused with a clear message instead of being
written to (sessions/store_sqlite.py; PostgreSQL: sessions/store_postgres.py).

A record is written in one transaction, so a session is either fully stored or absent:
killing the process loses at most the session in flight. ``readonly=True`` (export,
ratings) creates, checks and migrates nothing and reads a store in a read-only folder.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sessions.record import SCHEMA_VERSION as RECORD_SCHEMA
from sessions.record import MatchRecord
from sessions.store_schema import SCHEMA_VERSION
from sessions.store_spool import Spool, spool_folder
from sessions.store_sqlite import APPLICATION_ID, SQLiteDatabase, SQLiteError

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "DEFAULT_FILE", "Exported", "Store",
           "StoreError", "default_path", "export_jsonl", "is_url"]

DEFAULT_FILE = "arena.sqlite3"
URL_SCHEMES = ("postgresql://", "postgres://")


class StoreError(RuntimeError):
    """The store cannot be used (corrupt, damaged, foreign, newer, unreachable, read-only)."""


def default_path() -> Path:
    return Path(os.environ.get("ARENA_DATA_DIR", "data")) / DEFAULT_FILE


def is_url(location: object) -> bool:
    return isinstance(location, str) and location.startswith(URL_SCHEMES)


def default_location() -> str | Path:
    """``DATABASE_URL`` when set, else the SQLite file under ``ARENA_DATA_DIR``."""
    return os.environ.get("DATABASE_URL") or default_path()


class Store:
    """Completed sessions, keyed by record id."""

    def __init__(self, location: str | os.PathLike[str] | None = None, *,
                 readonly: bool = False) -> None:
        where = default_location() if location is None else location
        self.url: str | None = None
        self.path: Path | None = None
        try:
            if is_url(where):
                from sessions.store_postgres import PostgresDatabase, PostgresError

                self.url = str(where)
                try:
                    self._db: Any = PostgresDatabase(self.url, readonly=readonly)
                except PostgresError as err:
                    raise StoreError(str(err)) from None
            else:
                self.path = Path(where)
                self._db = SQLiteDatabase(self.path, readonly=readonly)
        except SQLiteError as err:
            raise StoreError(str(err)) from None
        self.where: str = self._db.where
        """Where the store is, for messages (a path, or the URL without its password)."""
        self.backend: str = self._db.dialect
        self.readonly = readonly
        version = self._db.schema_version()
        self._seq = "m.seq" if version >= 5 else "m.rowid" if self.backend == "sqlite" else None
        """The SQL of a session's place in the write order (a read-only store before schema
        5: SQLite's rowid; none on PostgreSQL)."""
        self.incremental = self._seq is not None
        """Whether :meth:`results` and :meth:`records` can read only what was written after
        a ``seq`` (every store written by this version; not a read-only PostgreSQL store
        older than schema 5, whose readers read all)."""
        self._tags = "m.tags" if version >= 4 else "''"
        """Stores older than schema 4 (read without migrating) have no tags column."""
        self.spool = None if readonly else Spool(self, spool_folder(self))
        """Finished games this store could not take yet, retried until stored
        (sessions/store_spool.py); what :meth:`keep` uses."""

    def close(self) -> None:
        if self.spool is not None:
            self.spool.close()
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writing --------------------------------------------------------------------------

    def save(self, record: MatchRecord) -> None:
        """Store a completed session in one transaction (replacing one with the same id)."""
        if not record.finished:
            raise ValueError(f"session {record.id} is not finished; only completed sessions are stored")
        if self.readonly:
            raise StoreError(f"{self.where} was opened read-only")
        rows = [
            (record.id, seat, info.kind, info.entity, info.player_id,
             record.scores[seat] if record.scores else None,
             record.returns[seat] if record.returns else None, info.team)
            for seat, info in enumerate(record.seats)
        ]
        with self._errors(), self._db.transaction() as db:
            values = (record.id, record.game, record.outcome, int(record.research_use),
                      record.started_at, record.ended_at, record.to_json(),
                      " ".join(record.tags))
            # the session's seq is taken inside the write transaction, before its old row
            # goes, so a session saved again comes after everything read so far
            # (results(after=...)); PostgreSQL's comes with the transaction (its revision)
            seq = getattr(db, "seq", None)
            if seq is None:
                seq = db.execute("SELECT coalesce(max(seq), 0) + 1 FROM matches").fetchone()[0]
            db.execute("DELETE FROM matches WHERE id = ?", (record.id,))
            db.execute("INSERT INTO matches (id, game, outcome, research_use, started_at, "
                       "ended_at, record, tags, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (*values, seq))
            db.executemany("INSERT INTO seats (match_id, seat, kind, entity, player_id, score,"
                           " return, team) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)

    def keep(self, record: MatchRecord) -> bool:
        """Store a finished game the way the app does: :meth:`save`, waiting a few seconds at
        most; a game the store cannot take now is kept (in memory and in a spool file) and
        retried until stored. True when stored now, False when kept (:meth:`unsaved` says
        why). The page says which."""
        if self.spool is None:
            raise StoreError(f"{self.where} was opened read-only")
        return self.spool.save(record)

    def unsaved(self, record_id: str) -> str | None:
        """Why the finished game ``record_id`` is not stored yet, or None."""
        return None if self.spool is None else self.spool.unsaved(record_id)

    # --- forgetting -----------------------------------------------------------------------

    def sessions_of(self, player_id: str) -> list[str]:
        """Ids of the sessions ``player_id`` sat in, oldest first."""
        return [row[0] for row in self._query(
            "SELECT m.id FROM matches m WHERE m.id IN (SELECT match_id FROM seats WHERE "
            "player_id = ?) ORDER BY m.ended_at ASC NULLS FIRST, m.id", (player_id,))]

    def forget(self, player_id: str) -> int:
        """Delete every session in which ``player_id`` sat; how many were removed."""
        return self.delete(self.sessions_of(player_id))

    def expired(self, before: float) -> list[str]:
        """Ids of the sessions not shared for research that ended before ``before``."""
        return [row[0] for row in self._query(
            "SELECT id FROM matches WHERE research_use = 0 AND coalesce(ended_at, started_at) "
            "< ?", (before,))]

    def delete(self, ids: Iterable[str]) -> int:
        """Delete these sessions (ids not stored are ignored) in one transaction; how many
        were removed."""
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return 0
        if self.readonly:
            raise StoreError(f"{self.where} was opened read-only")
        removed = 0
        with self._errors(), self._db.transaction() as db:
            for start in range(0, len(wanted), 500):
                chunk = tuple(wanted[start:start + 500])
                marks = ", ".join("?" * len(chunk))
                db.execute(f"DELETE FROM seats WHERE match_id IN ({marks})", chunk)
                removed += db.execute(f"DELETE FROM matches WHERE id IN ({marks})",
                                      chunk).rowcount
        return removed

    # --- reading --------------------------------------------------------------------------

    def get(self, record_id: str) -> MatchRecord:
        row = self._query("SELECT record FROM matches WHERE id = ?", (record_id,))
        if not row:
            raise KeyError(f"no session {record_id!r} in {self.where}")
        return MatchRecord.from_json(row[0][0])

    def stored(self, ids: Iterable[str]) -> set[str]:
        """Which of ``ids`` are stored."""
        wanted, found = list(ids), set()
        for start in range(0, len(wanted), 500):
            chunk = tuple(wanted[start:start + 500])
            marks = ", ".join("?" * len(chunk))
            found |= {row[0] for row in self._query(
                f"SELECT id FROM matches WHERE id IN ({marks})", chunk)}
        return found

    def texts(self, *, game: str | None = None, limit: int | None = None,
              newest_first: bool = False, after: int = 0) -> Iterator[tuple[str, str]]:
        """Stored sessions as (id, record JSON), oldest first unless ``newest_first``; with
        ``after``, only those written after that ``seq`` (see :meth:`results`)."""
        sql = "SELECT id, record FROM matches WHERE " + self._after(after)
        args: list[Any] = [after] if after else []
        if game is not None:
            sql += " AND game = ?"
            args.append(game)
        order = "DESC NULLS LAST" if newest_first else "ASC NULLS FIRST"
        sql += f" ORDER BY ended_at {order}, id"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        yield from self._query(sql, tuple(args))

    def catalog(self) -> list[tuple[str, str, bool, float | None, bool]]:
        """Every session as (id, game, shared for research, ended_at, has a person in a
        seat), oldest first: what a dataset selects on, without reading records or seats."""
        rows = self._query(
            "SELECT m.id, m.game, m.research_use, m.ended_at, EXISTS (SELECT 1 FROM seats s "
            "WHERE s.match_id = m.id AND s.kind = 'human') FROM matches m "
            "ORDER BY m.ended_at ASC NULLS FIRST, m.id", ())
        return [(i, game, bool(shared), ended, bool(human))
                for i, game, shared, ended, human in rows]

    def texts_of(self, ids: Iterable[str]) -> list[tuple[str, str]]:
        """(id, record JSON) of those of ``ids`` that are stored, in no set order."""
        wanted, found = list(ids), []
        for start in range(0, len(wanted), 500):
            chunk = tuple(wanted[start:start + 500])
            marks = ", ".join("?" * len(chunk))
            found += self._query(f"SELECT id, record FROM matches WHERE id IN ({marks})", chunk)
        return [(str(i), str(text)) for i, text in found]

    def records(self, *, game: str | None = None, limit: int | None = None,
                newest_first: bool = False, after: int = 0) -> Iterator[MatchRecord]:
        """Stored sessions, oldest first unless ``newest_first`` (``after``: see :meth:`texts`)."""
        for _, text in self.texts(game=game, limit=limit, newest_first=newest_first,
                                  after=after):
            yield MatchRecord.from_json(text)

    def summaries(self, *, limit: int = 50, player_id: str | None = None) -> list[dict[str, Any]]:
        """Recent sessions as small dicts (id, game, outcome, seats, scores, ended_at)."""
        sql = "SELECT id, game, outcome, ended_at FROM matches"
        args: tuple[Any, ...] = ()
        if player_id is not None:
            sql += " WHERE id IN (SELECT match_id FROM seats WHERE player_id = ?)"
            args = (player_id,)
        sql += " ORDER BY ended_at DESC NULLS LAST LIMIT ?"
        out = []
        for match_id, game, outcome, ended_at in self._query(sql, (*args, limit)):
            seats = self._query(
                "SELECT entity, score FROM seats WHERE match_id = ? ORDER BY seat", (match_id,)
            )
            out.append({"id": match_id, "game": game, "outcome": outcome, "ended_at": ended_at,
                        "seats": [s[0] for s in seats], "scores": [s[1] for s in seats]})
        return out

    def count(self) -> int:
        return int(self._query("SELECT count(*) FROM matches", ())[0][0])

    def schema_version(self) -> int:
        with self._errors():
            return self._db.schema_version()

    def revision(self) -> tuple[int, int, int]:
        """(sessions stored, two change counters): differs after any commit, by this Store
        or by another connection or process, including a session saved again under the
        same id (SQLite: ``data_version`` and ``total_changes``; PostgreSQL: the counter
        every save increments).

        Cheap enough to call on every page refresh; caches key on it. Only values from the
        same Store object are comparable.
        """
        with self._errors():
            return self._db.revision()

    def results(self, *, after: int = 0) -> list[dict[str, Any]]:
        """Every stored session's result without its moves, oldest first: id, game, outcome,
        research_use, ended_at, tags, seats [{kind, entity, player_id, score, return, team}]
        and seq.

        What ratings need, read from the seats table instead of parsing whole records. A
        read-only store older than schema 3 has no teams (None), older than 4 no tags.
        ``seq`` grows with every write, a session saved again included (0 in a read-only
        PostgreSQL store older than schema 5); ``after`` reads only the sessions written
        after that seq, so a reader that keeps up reads each session once and notices one
        saved again (its id comes back). Only where :attr:`incremental`.
        """
        team = "s.team" if self.schema_version() >= 3 else "NULL"
        seq = f"coalesce({self._seq}, 0)" if self._seq else "0"
        # SQLite's CROSS JOIN keeps matches outermost: it would otherwise scan every seat to
        # find the few sessions after ``after`` (70 ms instead of 0.2 ms at 100,000 sessions)
        join = "CROSS JOIN" if self.backend == "sqlite" else "JOIN"
        rows = self._query(
            f"SELECT m.id, m.game, m.outcome, m.research_use, m.ended_at, {seq}, {self._tags}, "
            f"s.seat, s.kind, s.entity, s.player_id, s.score, s.return, {team} FROM matches m "
            f"{join} seats s ON s.match_id = m.id WHERE {self._after(after, 'm.')} "
            "ORDER BY m.ended_at ASC NULLS FIRST, m.id, s.seat", (after,) if after else ())
        out: list[dict[str, Any]] = []
        for match_id, game, outcome, research, ended_at, written, tags, _, kind, entity, \
                player, score, ret, side in rows:
            if not out or out[-1]["id"] != match_id:
                out.append({"id": match_id, "game": game, "outcome": outcome,
                            "research_use": bool(research), "ended_at": ended_at,
                            "seq": int(written), "tags": tags.split(), "seats": []})
            out[-1]["seats"].append({"kind": kind, "entity": entity, "player_id": player,
                                     "score": score, "return": ret, "team": side})
        return out

    def tagged(self, tag: str, *, since: float | None = None) -> Iterator[MatchRecord]:
        """Stored sessions carrying ``tag`` (``MatchRecord.tags``) that ended at or after
        ``since``, oldest first."""
        if self._tags == "''":
            return
        sql = "SELECT m.record, m.tags FROM matches m WHERE m.tags LIKE ?"
        args: list[Any] = [f"%{tag}%"]
        if since is not None:
            sql += " AND m.ended_at >= ?"
            args.append(since)
        for text, tags in self._query(sql + " ORDER BY m.ended_at, m.id", tuple(args)):
            if tag in tags.split():
                yield MatchRecord.from_json(text)

    def rated_counts(self, entities: Iterable[str]) -> dict[str, int]:
        """How many stored sessions each of ``entities`` played that ratings may count
        (not abandoned, shared for research); 0 for those never seen."""
        wanted = list(dict.fromkeys(entities))
        counts = dict.fromkeys(wanted, 0)
        for start in range(0, len(wanted), 500):
            chunk = tuple(wanted[start:start + 500])
            marks = ", ".join("?" * len(chunk))
            for entity, count in self._query(
                    "SELECT s.entity, count(DISTINCT s.match_id) FROM seats s JOIN matches m "
                    "ON m.id = s.match_id "
                    f"WHERE m.outcome != 'abandoned' AND m.research_use = 1 AND s.entity IN "
                    f"({marks}) GROUP BY s.entity", chunk):
                counts[entity] = int(count)
        return counts

    def _after(self, after: int, table: str = "") -> str:
        """The SQL condition "written after ``after``"."""
        if not after:
            return "1 = 1"
        if self._seq is None:
            raise ValueError(f"{self.where} keeps no write order: read everything (after=0)")
        return f"{table}{self._seq.removeprefix('m.')} > ?"

    def _query(self, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with self._errors():
            return self._db.query(sql, args)

    def _errors(self) -> _Errors:
        return _Errors(self.where)


class _Errors:
    """Database errors raised inside the block become one-line StoreErrors."""

    def __init__(self, where: str) -> None:
        self.where = where

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: object) -> None:
        if err is None or isinstance(err, StoreError):
            return
        if isinstance(err, sqlite3.DatabaseError) or _is_psycopg_error(err):
            first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            raise StoreError(f"{self.where}: {first}") from None


def _is_psycopg_error(err: BaseException) -> bool:
    return type(err).__module__.startswith("psycopg")


@dataclass
class Exported:
    """What an export wrote, and the records it left out, by reason."""

    count: int = 0
    skipped: Counter[str] = field(default_factory=Counter)

    def note(self) -> str:
        """One line for the person who ran the export."""
        line = f"exported {self.count} record{'s' if self.count != 1 else ''}"
        if self.skipped:
            line += (f"; skipped {sum(self.skipped.values())} that this version cannot read ("
                     + ", ".join(f"{n} {why}" for why, n in sorted(self.skipped.items())) + ")")
        return line


def export_jsonl(store: Store, out: Any, *, game: str | None = None) -> Exported:
    """Write one replayable JSON record per line to ``out``. A record this version cannot
    read (an unknown record schema, a broken record) is skipped and counted, not fatal."""
    done = Exported()
    for _, text in store.texts(game=game):
        try:
            record = MatchRecord.from_json(text)
        except (ValueError, KeyError, TypeError) as err:
            done.skipped[_unreadable(text, err)] += 1
            continue
        out.write(json.dumps(record.to_dict(), sort_keys=True) + "\n")
        done.count += 1
    return done


def _unreadable(text: str, err: Exception) -> str:
    try:
        schema = json.loads(text).get("schema")
    except (ValueError, AttributeError):
        return "not valid JSON"
    if schema != RECORD_SCHEMA:
        return f"with record schema {schema!r}"
    return f"malformed ({type(err).__name__})"
