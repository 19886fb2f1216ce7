"""The store's tables and how each version of them is reached, for SQLite and PostgreSQL alike.

A store records the version of its tables (SQLite: ``PRAGMA user_version``; PostgreSQL: the
``arena_store`` row). Opening a store for writing applies the missing steps of
:data:`MIGRATIONS` in order, in one transaction, and records the new version; a store of a
newer version is refused. The statements are the same on both backends except the type of
floating-point columns (``{float}``: SQLite's REAL is 8 bytes, PostgreSQL's is 4).
"""

from __future__ import annotations

SCHEMA_VERSION = 3
"""The version this code writes."""
READABLE_FROM = 1
"""The oldest version read-only commands can read without migrating it (each step since
then added indexes, or a column read as empty when missing: ``Store.results`` reads no
teams from a store before 3)."""

MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        "CREATE TABLE matches (id TEXT PRIMARY KEY, game TEXT NOT NULL, outcome TEXT NOT NULL,"
        " research_use INTEGER NOT NULL, started_at {float} NOT NULL, ended_at {float},"
        " record TEXT NOT NULL)",
        "CREATE TABLE seats (match_id TEXT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,"
        " seat INTEGER NOT NULL, kind TEXT NOT NULL, entity TEXT NOT NULL, player_id TEXT,"
        " score {float}, return {float}, PRIMARY KEY (match_id, seat))",
        "CREATE INDEX matches_game ON matches(game, ended_at)",
        "CREATE INDEX seats_entity ON seats(entity)",
    ),
    # 2: the History tab lists one player's sessions; without this it scans every seat.
    2: ("CREATE INDEX seats_player ON seats(player_id)",),
    # 3: team games rate each pair of opposing seats (sessions/ratings/results.py); seats
    # of earlier stores played for themselves.
    3: ("ALTER TABLE seats ADD COLUMN team TEXT",),
}

FLOAT_TYPES = {"sqlite": "REAL", "postgresql": "DOUBLE PRECISION"}


def steps(current: int, dialect: str) -> list[tuple[int, list[str]]]:
    """The migrations from ``current`` to :data:`SCHEMA_VERSION`: (version, statements)."""
    return [(version, [sql.format(float=FLOAT_TYPES[dialect]) for sql in MIGRATIONS[version]])
            for version in range(current + 1, SCHEMA_VERSION + 1)]


def too_new(where: str, version: int) -> str:
    return (f"{where} has store schema {version}; this version of LLM Game Arena reads schema "
            f"{READABLE_FROM} to {SCHEMA_VERSION}: update the app, or pass another store")
