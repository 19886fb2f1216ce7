"""The SQLite store: durable, atomic per session, and careful with files it does not own."""

from __future__ import annotations

import json
import os
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
from sessions.store import Store, StoreError, export_jsonl
from sessions.tournament import play_one

ROOT = Path(__file__).resolve().parents[1]


def _record(seed: int = 0, game: str = "tic_tac_toe") -> MatchRecord:
    return play_one(game, [parse_spec("random"), parse_spec("random")], seed=seed)


def test_saved_records_come_back_identical_and_replay(tmp_path):
    with Store(tmp_path / "a.sqlite3") as store:
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
    assert db.execute("PRAGMA user_version").fetchone()[0] == 2
    db.close()


def test_unfinished_sessions_are_refused(tmp_path):
    seats = [SeatRecord("random", "random", "random")] * 2
    match = Match("tic_tac_toe", seats, seed=1)
    with Store(tmp_path / "c.sqlite3") as store, pytest.raises(ValueError, match="not finished"):
        store.save(match.record)
        assert store.count() == 0


def test_abandoned_sessions_are_stored_as_abandoned(tmp_path):
    seats = [SeatRecord("human", "human", "human", player_id="anon-1"),
             SeatRecord("random", "random", "random")]
    match = Match("tic_tac_toe", seats, seed=1)
    match.abandon("tab closed")
    with Store(tmp_path / "d.sqlite3") as store:
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


def test_killing_a_tournament_keeps_every_completed_match(tmp_path):
    db = tmp_path / "killed.sqlite3"
    proc = subprocess.Popen(
        [sys.executable, "-m", "sessions", "play", "breakthrough", "mcts:300:0s", "random",
         "--matches", "500", "--db", str(db), "--quiet", "--param", "columns=8"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 60
    count = 0
    while time.time() < deadline and count < 3:
        time.sleep(0.3)
        if db.exists():
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


def test_jsonl_export_writes_one_replayable_record_per_line(tmp_path):
    out = tmp_path / "out.jsonl"
    with Store(tmp_path / "e.sqlite3") as store:
        for seed in range(3):
            store.save(_record(seed, "pig"))
        with out.open("w") as handle:
            assert export_jsonl(store, handle) == 3
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
