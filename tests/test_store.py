"""The store on both backends (SQLite and a real PostgreSQL server): durable, atomic per
session, versioned and migrated the same way, and careful with data it does not own."""

from __future__ import annotations

import io
import itertools
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agents.specs import parse_spec
from sessions.match import Match
from sessions.record import MatchRecord, SeatRecord, replay
from sessions.store import SCHEMA_VERSION, Store, StoreError, export_jsonl
from sessions.tournament import play_one

ROOT = Path(__file__).resolve().parents[1]


def _record(seed: int = 0, game: str = "tic_tac_toe") -> MatchRecord:
    return play_one(game, [parse_spec("random"), parse_spec("random")], seed=seed)


def test_saved_records_come_back_identical_and_replay(store_location):
    with Store(store_location) as store:
        records = [_record(seed) for seed in range(3)] + [_record(5, "kuhn_poker")]
        for record in records:
            store.save(record)
        assert store.count() == 4
        for record in records:
            again = store.get(record.id)
            assert again == record
            assert list(replay(again).returns()) == record.returns
        assert [r.game for r in store.records(game="kuhn_poker")] == ["kuhn_poker"]


def test_the_store_runs_in_wal_mode_with_a_schema_version(tmp_path):
    path = tmp_path / "b.sqlite3"
    Store(path).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()


def test_unfinished_sessions_are_refused(store_location):
    seats = [SeatRecord("random", "random", "random")] * 2
    match = Match("tic_tac_toe", seats, seed=1)
    with Store(store_location) as store:
        with pytest.raises(ValueError, match="not finished"):
            store.save(match.record)
        assert store.count() == 0


def test_abandoned_sessions_are_stored_as_abandoned(store_location):
    seats = [SeatRecord("human", "human", "human", player_id="anon-1"),
             SeatRecord("random", "random", "random")]
    match = Match("tic_tac_toe", seats, seed=1)
    match.abandon("tab closed")
    with Store(store_location) as store:
        store.save(match.record)
        stored = store.get(match.record.id)
    assert stored.outcome == "abandoned" and stored.scores is None


def test_a_corrupt_file_gives_a_clear_error_and_is_left_alone(tmp_path):
    path = tmp_path / "corrupt.sqlite3"
    garbage = b"this is not a database" * 200
    path.write_bytes(garbage)
    with pytest.raises(StoreError, match="not a usable"):
        Store(path)
    assert path.read_bytes() == garbage


def test_a_foreign_sqlite_database_is_refused(tmp_path):
    path = tmp_path / "foreign.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE invoices (id INTEGER)")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="another application"):
        Store(path)
    db = sqlite3.connect(path)
    assert db.execute("SELECT name FROM sqlite_master").fetchall() == [("invoices",)]


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "newer.sqlite3"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 99")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="schema 99"):
        Store(path)


def test_killing_a_tournament_keeps_every_completed_match(store_location):
    db = store_location
    proc = subprocess.Popen(
        [sys.executable, "-m", "sessions", "play", "breakthrough", "mcts:300:0s", "random",
         "--matches", "500", "--db", str(db), "--quiet", "--param", "columns=8"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 60
    count = 0
    while time.time() < deadline and count < 3:
        time.sleep(0.3)
        if "://" in db or Path(db).exists():
            try:
                with Store(db) as store:
                    count = store.count()
            except StoreError:
                count = 0
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert count >= 3, "the tournament stored nothing before the deadline"
    with Store(db) as store:
        records = list(store.records())
        assert len(records) >= count
        assert len(records) < 500
        for record in records:
            assert record.outcome == "normal"
            state = replay(record)
            assert state.is_terminal() and list(state.returns()) == record.returns


def test_jsonl_export_writes_one_replayable_record_per_line(tmp_path, store_location):
    out = tmp_path / "out.jsonl"
    with Store(store_location) as store:
        for seed in range(3):
            store.save(_record(seed, "pig"))
        with out.open("w") as handle:
            assert export_jsonl(store, handle).count == 3
    lines = out.read_text().splitlines()
    assert len(lines) == 3
    for line in lines:
        record = MatchRecord.from_dict(json.loads(line))
        assert replay(record).is_terminal()


def test_store_location_follows_the_data_dir_variable(tmp_path, monkeypatch):
    monkeypatch.setenv("ARENA_DATA_DIR", str(tmp_path / "somewhere"))
    with Store() as store:
        assert store.path == tmp_path / "somewhere" / "arena.sqlite3"
    assert os.path.exists(tmp_path / "somewhere" / "arena.sqlite3")


# --- schema versions and migrations, the same on both backends ----------------------------

V1_SQLITE = """
CREATE TABLE matches (id TEXT PRIMARY KEY, game TEXT NOT NULL, outcome TEXT NOT NULL,
    research_use INTEGER NOT NULL, started_at REAL NOT NULL, ended_at REAL, record TEXT NOT NULL);
CREATE TABLE seats (match_id TEXT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL, kind TEXT NOT NULL, entity TEXT NOT NULL, player_id TEXT,
    score REAL, return REAL, PRIMARY KEY (match_id, seat));
CREATE INDEX matches_game ON matches(game, ended_at);
CREATE INDEX seats_entity ON seats(entity);
"""


def _raw(location: str):
    """A plain connection to the store's database, as another program would open it."""
    if "://" in location:
        import psycopg

        return psycopg.connect(location, autocommit=True)
    return sqlite3.connect(location, isolation_level=None)


def _make_v1_store(location: str, record: MatchRecord) -> None:
    """A store as version 1 of the app left it, holding ``record``."""
    db = _raw(location)
    mark = "%s" if "://" in location else "?"
    if "://" in location:
        for sql in V1_SQLITE.replace("REAL", "DOUBLE PRECISION").split(";")[:-1]:
            db.execute(sql)
        db.execute("CREATE TABLE arena_store (application TEXT NOT NULL, schema_version "
                   "INTEGER NOT NULL, revision BIGINT NOT NULL)")
        db.execute("INSERT INTO arena_store VALUES ('llm-game-arena', 1, 0)")
    else:
        db.executescript(V1_SQLITE)
        db.execute("PRAGMA application_id = 1279738194")
        db.execute("PRAGMA user_version = 1")
    db.execute(f"INSERT INTO matches VALUES ({', '.join([mark] * 7)})",
               (record.id, record.game, record.outcome, 1, record.started_at, record.ended_at,
                record.to_json()))
    for seat, info in enumerate(record.seats):
        db.execute(f"INSERT INTO seats VALUES ({', '.join([mark] * 7)})",
                   (record.id, seat, info.kind, info.entity, info.player_id,
                    record.scores[seat], record.returns[seat]))
    db.close()


def test_a_version_1_store_is_migrated_on_open_and_keeps_its_sessions(store_location):
    record = _record(4)
    _make_v1_store(store_location, record)
    with Store(store_location, readonly=True) as store:  # reading does not migrate
        assert store.schema_version() == 1 and store.get(record.id) == record
        assert store.results()[0]["seats"][0]["team"] is None  # no team column yet
    with Store(store_location) as store:
        assert store.schema_version() == SCHEMA_VERSION == 5
        assert store.get(record.id) == record
        assert [s["team"] for s in store.results()[0]["seats"]] == [None, None]  # 3: teams
        assert store.summaries(player_id=None)[0]["id"] == record.id
    db = _raw(store_location)
    if "://" in store_location:
        indexes = {r[0] for r in db.execute("SELECT indexname FROM pg_indexes")}
    else:
        indexes = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    db.close()
    assert {"seats_player", "matches_seq"} <= indexes


def test_both_backends_keep_a_write_order_that_readers_can_follow(store_location):
    """Schema 4: every save takes the next seq, a session saved again too, so a reader that
    keeps up (the live Leaderboard) reads only what was written since its last read, also
    from another Store (another replica) and on PostgreSQL."""
    first, second = _record(1), _record(2)
    with Store(store_location) as writer, Store(store_location) as reader:
        assert writer.incremental and reader.incremental
        writer.save(first)
        writer.save(second)
        rows = reader.results()
        assert [r["id"] for r in rows] == [first.id, second.id]
        last = max(r["seq"] for r in rows)
        assert reader.results(after=last) == []
        writer.save(first)  # saved again: it comes back, after everything read so far
        again = reader.results(after=last)
        assert [r["id"] for r in again] == [first.id] and again[0]["seq"] > last
        assert [r.id for r in reader.records(after=last)] == [first.id]


def test_tags_are_stored_filtered_and_counted_and_an_older_store_reads_none(store_location):
    blind, plain = _record(1), _record(2)
    blind.tags = ["blind"]
    abandoned = _record(3)
    abandoned.outcome, abandoned.tags = "abandoned", ["showcase"]
    with Store(store_location) as store:
        for record in (blind, plain, abandoned):
            store.save(record)
        assert store.get(blind.id).tags == ["blind"]
        tags = {row["id"]: row["tags"] for row in store.results()}
        assert tags == {blind.id: ["blind"], plain.id: [], abandoned.id: ["showcase"]}
        assert [r.id for r in store.tagged("blind")] == [blind.id]
        assert [r.id for r in store.tagged("showcase", since=abandoned.ended_at)] == \
            [abandoned.id]
        assert list(store.tagged("showcase", since=abandoned.ended_at + 1)) == []
        counts = store.rated_counts(["random", "mcts:1000:2s"])
        assert counts == {"random": 2, "mcts:1000:2s": 0}  # per session, abandoned left out


def test_a_version_1_store_read_without_migrating_has_no_tags(store_location):
    record = _record(4)
    _make_v1_store(store_location, record)
    with Store(store_location, readonly=True) as store:
        assert [row["tags"] for row in store.results()] == [[]]
        assert list(store.tagged("blind")) == []


def test_a_store_of_a_newer_version_is_refused_on_both_backends(store_location):
    Store(store_location).close()
    db = _raw(store_location)
    if "://" in store_location:
        db.execute("UPDATE arena_store SET schema_version = 99")
    else:
        db.execute("PRAGMA user_version = 99")
    db.close()
    for readonly in (False, True):
        with pytest.raises(StoreError, match="schema 99.*update the app"):
            Store(store_location, readonly=readonly)


def test_tables_of_another_application_are_refused_and_left_alone(store_location):
    db = _raw(store_location)
    db.execute("CREATE TABLE matches (invoice INTEGER)")
    db.close()
    with pytest.raises(StoreError, match="another application"):
        Store(store_location)
    db = _raw(store_location)
    assert db.execute("SELECT count(*) FROM matches").fetchone()[0] == 0
    db.close()


def test_a_session_saved_by_one_store_object_is_seen_by_another(store_location):
    with Store(store_location) as writer, Store(store_location) as reader:
        before = reader.revision()
        record = _record(8)
        writer.save(record)
        after = reader.revision()
        assert after != before and after[0] == before[0] + 1
        writer.save(record)  # the same session again: no new row, still a new revision
        assert reader.revision() != after and reader.count() == 1
        assert reader.stored([record.id, "nope"]) == {record.id}


# --- issue 14: damaged stores, read-only places, records this version cannot read ----------


def _garble_middle(path: Path, size: int = 4096) -> None:
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle:middle + size] = os.urandom(size)
    path.write_bytes(bytes(data))


def test_a_damaged_file_is_refused_before_anything_is_written(tmp_path):
    path = tmp_path / "damaged.sqlite3"
    with Store(path) as store:
        for seed in range(40):
            store.save(_record(seed, "connect_four"))
    _garble_middle(path)
    damaged = path.read_bytes()
    with pytest.raises(StoreError, match=r"is damaged \(.*\); nothing was written.*\.recover"):
        Store(path)
    assert path.read_bytes() == damaged
    done = _cli("play", "tic_tac_toe", "random", "random", "--matches", "2", "--db", str(path),
                "--quiet")
    assert done.returncode == 2 and path.read_bytes() == damaged
    assert done.stderr.count("\n") == 1 and "is damaged" in done.stderr


def _cli(*args: str, unprivileged: bool = False) -> subprocess.CompletedProcess[str]:
    """``python -m sessions ...``; ``unprivileged``: as a process that cannot write folders
    it does not own (root keeps its user but loses the capability to override file modes)."""
    command = [sys.executable, "-m", "sessions", *args]
    if unprivileged and os.geteuid() == 0:
        caps = "-dac_override,-dac_read_search"
        command = ["setpriv", f"--bounding-set={caps}", f"--inh-caps={caps}", "--", *command]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_read_only_commands_read_a_store_in_a_read_only_folder(tmp_path):
    folder = tmp_path / "shared"
    with Store(folder / "arena.sqlite3") as store:
        for seed in range(3):
            store.save(_record(seed))
    folder.chmod(0o555)
    try:
        export = _cli("export", "--db", str(folder / "arena.sqlite3"), unprivileged=True)
        ratings = _cli("ratings", "--db", str(folder / "arena.sqlite3"), "--bootstrap", "10",
                       unprivileged=True)
        play = _cli("play", "tic_tac_toe", "random", "random", "--matches", "1", "--quiet",
                    "--db", str(folder / "arena.sqlite3"), unprivileged=True)
        missing = _cli("export", "--db", str(folder / "sub" / "arena.sqlite3"),
                       unprivileged=True)
        play_missing = _cli("play", "tic_tac_toe", "random", "random", "--matches", "1",
                            "--quiet", "--db", str(folder / "sub" / "arena.sqlite3"),
                            unprivileged=True)
    finally:
        folder.chmod(0o755)
    assert export.returncode == 0, export.stderr
    assert len(export.stdout.splitlines()) == 3 and export.stderr == "exported 3 records\n"
    assert ratings.returncode == 0, ratings.stderr
    for failed, says in ((play, "the folder .* is read-only; pass --db"),
                         (missing, "no store at .*sub/arena.sqlite3: nothing has been stored"),
                         (play_missing, "cannot create the folder .*sub for the store: "
                                        "permission denied")):
        assert failed.returncode == 2, failed.stderr
        assert failed.stderr.count("\n") == 1 and "Traceback" not in failed.stderr
        assert failed.stderr.startswith("error: ") and re.search(says, failed.stderr), \
            failed.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["arena.sqlite3"]


def test_an_export_skips_records_of_an_unknown_schema_and_says_how_many(store_location,
                                                                        tmp_path):
    with Store(store_location) as store:
        for seed in range(3):
            store.save(_record(seed))
        newer = _record(9)
        newer.schema = 99  # as a newer version of the app would write it
        store.save(newer)
        out = io.StringIO()
        done = export_jsonl(store, out)
    assert done.count == 3 and dict(done.skipped) == {"with record schema 99": 1}
    assert len(out.getvalue().splitlines()) == 3
    cli = _cli("export", "--db", store_location, "--out", str(tmp_path / "all.jsonl"))
    assert cli.returncode == 0, cli.stderr
    assert cli.stderr == ("exported 3 records; skipped 1 that this version cannot read "
                          "(1 with record schema 99)\n")
    assert len((tmp_path / "all.jsonl").read_text().splitlines()) == 3


def test_closing_a_store_while_another_thread_writes_waits_for_it(store_location):
    """The app closes its store at shutdown while game threads may still be saving: the
    close waits for the write under way (closing SQLite under a running statement killed
    the process), and a later save gets a clear StoreError instead of a reconnection."""
    import threading

    records = [_record(seed) for seed in range(20)]
    store = Store(store_location)
    saved: list[str] = []
    refused: list[StoreError] = []
    started = threading.Event()

    def write() -> None:
        for record in itertools.cycle(records):
            try:
                store.save(record)
            except StoreError as err:
                refused.append(err)
                return
            saved.append(record.id)
            started.set()

    writer = threading.Thread(target=write)
    writer.start()
    assert started.wait(30)
    store.close()
    writer.join(30)
    assert not writer.is_alive() and len(refused) == 1
    assert "closed" in str(refused[0]).lower()
    with Store(store_location) as again:  # every save that returned is there
        assert {record.id for record in again.records()} == set(saved)


def test_a_lost_postgresql_connection_is_made_again(postgres_server):
    """The server dropped the store's connection (a restart, an idle timeout): the next use
    connects again, and the sessions are all there."""
    import psycopg

    from tests import postgres

    url = postgres.database(postgres_server, "lost_connection")
    with Store(url) as store:
        store.save(_record(1))
        with psycopg.connect(postgres_server.url(), autocommit=True) as admin:
            dropped = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                ("lost_connection",)).fetchall()
        assert dropped and all(row[0] for row in dropped)
        store.save(_record(2))
        assert store.count() == 2
