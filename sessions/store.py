"""The session store: SQLite by default, one transaction per completed session.

The database lives at ``$ARENA_DATA_DIR/arena.sqlite3`` (``./data`` by default), runs in WAL
mode and carries an application id and a schema version, so a corrupt or foreign file is
refused with a clear message instead of being written to. A record is written in one
transaction, so a session is either fully stored or absent: killing the process loses at
most the session in flight.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sessions.record import MatchRecord

APPLICATION_ID = 0x4C474152  # "LGAR"
SCHEMA_VERSION = 1
DEFAULT_FILE = "arena.sqlite3"

_SCHEMA = """
CREATE TABLE matches (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    outcome TEXT NOT NULL,
    research_use INTEGER NOT NULL,
    started_at REAL NOT NULL,
    ended_at REAL,
    record TEXT NOT NULL
);
CREATE TABLE seats (
    match_id TEXT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    entity TEXT NOT NULL,
    player_id TEXT,
    score REAL,
    return REAL,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX matches_game ON matches(game, ended_at);
CREATE INDEX seats_entity ON seats(entity);
"""


class StoreError(RuntimeError):
    """The store file cannot be used (corrupt, foreign, or from a newer version)."""


def default_path() -> Path:
    return Path(os.environ.get("ARENA_DATA_DIR", "data")) / DEFAULT_FILE


class Store:
    """Completed sessions, keyed by record id."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
            self._open()
        except sqlite3.DatabaseError as err:
            raise StoreError(
                f"{self.path} is not a usable LLM Game Arena store ({err}); move it away or "
                "pass another --db path"
            ) from None

    def _open(self) -> None:
        db = self._db
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app_id == 0 and tables == 0:
            with db:
                db.executescript(_SCHEMA)
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        elif app_id != APPLICATION_ID:
            raise StoreError(
                f"{self.path} is an SQLite database of another application "
                f"(application_id {app_id}); refusing to write to it"
            )
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} has store schema {version}; this version reads schema "
                f"{SCHEMA_VERSION}"
            )
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA synchronous = NORMAL")

    def close(self) -> None:
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
        rows = [
            (record.id, seat, info.kind, info.entity, info.player_id,
             record.scores[seat] if record.scores else None,
             record.returns[seat] if record.returns else None)
            for seat, info in enumerate(record.seats)
        ]
        with self._lock, self._db:
            # the next seq (rowid) is taken before the old row goes, so that a session saved
            # again always comes after everything read so far (results(after=...))
            seq = self._db.execute("SELECT coalesce(max(rowid), 0) + 1 FROM matches").fetchone()[0]
            self._db.execute("DELETE FROM matches WHERE id = ?", (record.id,))
            self._db.execute(
                "INSERT INTO matches (rowid, id, game, outcome, research_use, started_at, "
                "ended_at, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (seq, record.id, record.game, record.outcome, int(record.research_use),
                 record.started_at, record.ended_at, record.to_json()),
            )
            self._db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?)", rows)

    # --- reading --------------------------------------------------------------------------

    def get(self, record_id: str) -> MatchRecord:
        row = self._query("SELECT record FROM matches WHERE id = ?", (record_id,))
        if not row:
            raise KeyError(f"no session {record_id!r} in {self.path}")
        return MatchRecord.from_json(row[0][0])

    def records(self, *, game: str | None = None, limit: int | None = None,
                newest_first: bool = False, after: int = 0) -> Iterator[MatchRecord]:
        """Stored sessions, oldest first unless ``newest_first``; with ``after``, only those
        written after that point of :meth:`results`' ``seq``."""
        sql = "SELECT record FROM matches WHERE rowid > ?"
        args: list[Any] = [after]
        if game is not None:
            sql += " AND game = ?"
            args.append(game)
        sql += f" ORDER BY ended_at {'DESC' if newest_first else 'ASC'}, id"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        for (text,) in self._query(sql, tuple(args)):
            yield MatchRecord.from_json(text)

    def summaries(self, *, limit: int = 50, player_id: str | None = None) -> list[dict[str, Any]]:
        """Recent sessions as small dicts (id, game, outcome, seats, scores, ended_at)."""
        sql = "SELECT id, game, outcome, ended_at FROM matches"
        args: tuple[Any, ...] = ()
        if player_id is not None:
            sql += " WHERE id IN (SELECT match_id FROM seats WHERE player_id = ?)"
            args = (player_id,)
        sql += " ORDER BY ended_at DESC LIMIT ?"
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

    def revision(self) -> tuple[int, int, int]:
        """(sessions stored, two change counters): differs after any commit, by this Store
        (``total_changes``) or by another connection or process (SQLite's
        ``data_version``), including a session saved again under the same id.

        Cheap enough to call on every page refresh; caches key on it. Only values from the
        same Store object are comparable.
        """
        with self._lock:
            try:
                count = self._db.execute("SELECT count(*) FROM matches").fetchone()[0]
                version = self._db.execute("PRAGMA data_version").fetchone()[0]
            except sqlite3.DatabaseError as err:
                raise StoreError(f"{self.path}: {err}") from None
            return int(count), int(version), int(self._db.total_changes)

    def results(self, *, after: int = 0) -> list[dict[str, Any]]:
        """Every stored session's result without its moves, oldest first: id, game, outcome,
        research_use, ended_at, seats [{kind, entity, player_id, score, return}] and seq.

        What ratings need, read from the seats table instead of parsing whole records.
        ``seq`` grows with every write, a session saved again included; ``after`` reads only
        sessions written after that seq, so a reader that keeps up reads each session once
        (and notices a session saved again: its id comes back).
        """
        # CROSS JOIN keeps matches outermost: SQLite would otherwise scan every seat to
        # find the few sessions after ``after`` (70 ms instead of 0.2 ms at 100,000)
        rows = self._query(
            "SELECT m.id, m.game, m.outcome, m.research_use, m.ended_at, m.rowid, s.seat, "
            "s.kind, s.entity, s.player_id, s.score, s.return FROM matches m "
            "CROSS JOIN seats s ON s.match_id = m.id WHERE m.rowid > ? "
            "ORDER BY m.ended_at, m.id, s.seat", (after,))
        out: list[dict[str, Any]] = []
        for match_id, game, outcome, research, ended_at, seq, _, kind, entity, player, score, \
                ret in rows:
            if not out or out[-1]["id"] != match_id:
                out.append({"id": match_id, "game": game, "outcome": outcome,
                            "research_use": bool(research), "ended_at": ended_at, "seq": seq,
                            "seats": []})
            out[-1]["seats"].append({"kind": kind, "entity": entity, "player_id": player,
                                     "score": score, "return": ret})
        return out

    def _query(self, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.DatabaseError as err:
                raise StoreError(f"{self.path}: {err}") from None


def export_jsonl(store: Store, out: Any, *, game: str | None = None) -> int:
    """Write one replayable JSON record per line to ``out``; return how many."""
    n = 0
    for record in store.records(game=game):
        out.write(json.dumps(record.to_dict(), sort_keys=True) + "\n")
        n += 1
    return n
