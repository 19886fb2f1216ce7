"""The store's tables and how each version of them is reached, for SQLite and PostgreSQL alike.

A store records the version of its tables (SQLite: ``PRAGMA user_version``; PostgreSQL: the
``arena_store`` row). Opening a store for writing applies the missing steps of
:data:`MIGRATIONS` in order, in one transaction, and records the new version; a store of a
newer version is refused. The statements are the same on both backends except the type of
floating-point columns (``{float}``: SQLite's REAL is 8 bytes, PostgreSQL's is 4).
"""

from __future__ import annotations

SCHEMA_VERSION = 5
"""The version this code writes."""
READABLE_FROM = 1
"""The oldest version read-only commands can read without migrating it (each step since
then added indexes, or a column read as empty when missing: ``Store.results`` reads no
teams from a store before 3, no tags from a store before 4, and reads all sessions of a
PostgreSQL store before 5)."""

Statement = str | dict[str, str]
"""One SQL statement, or one per dialect (``{"sqlite": ..., "postgresql": ...}``)."""

MIGRATIONS: dict[int, tuple[Statement, ...]] = {
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
    # 4: a session's tags (``blind`` battles, ``watch`` and ``showcase`` games), so the
    # Leaderboard can filter by them and the showcase can add up today's spending without
    # parsing every record.
    4: ("ALTER TABLE matches ADD COLUMN tags TEXT NOT NULL DEFAULT ''",),
    # 5: the write order. Every save takes the next ``seq`` (a session saved again too), so
    # a reader that keeps up (the live Leaderboard) reads only what was written since; on
    # PostgreSQL it is the store's revision, taken under the row lock every save holds, so
    # replicas writing at once still commit in seq order. Sessions stored before: in the
    # order SQLite wrote them (rowid), or on PostgreSQL by the time they ended.
    5: (
        {"sqlite": "ALTER TABLE matches ADD COLUMN seq INTEGER",
         "postgresql": "ALTER TABLE matches ADD COLUMN seq BIGINT"},
        {"sqlite": "UPDATE matches SET seq = rowid",
         "postgresql": "UPDATE matches SET seq = ordered.n FROM (SELECT id, row_number() OVER "
                       "(ORDER BY ended_at NULLS FIRST, id) AS n FROM matches) AS ordered "
                       "WHERE matches.id = ordered.id"},
        {"sqlite": "SELECT 1",
         "postgresql": "UPDATE arena_store SET revision = greatest(revision, "
                       "(SELECT coalesce(max(seq), 0) FROM matches))"},
        "CREATE INDEX matches_seq ON matches(seq)",
    ),
}

FLOAT_TYPES = {"sqlite": "REAL", "postgresql": "DOUBLE PRECISION"}


def steps(current: int, dialect: str) -> list[tuple[int, list[str]]]:
    """The migrations from ``current`` to :data:`SCHEMA_VERSION`: (version, statements)."""
    def text(statement: Statement) -> str:
        sql = statement if isinstance(statement, str) else statement[dialect]
        return sql.format(float=FLOAT_TYPES[dialect])

    return [(version, [text(sql) for sql in MIGRATIONS[version]])
            for version in range(current + 1, SCHEMA_VERSION + 1)]


def too_new(where: str, version: int) -> str:
    return (f"{where} has store schema {version}; this version of LLM Game Arena reads schema "
            f"{READABLE_FROM} to {SCHEMA_VERSION}: update the app, or pass another store")
