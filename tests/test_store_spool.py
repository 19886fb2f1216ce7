"""Finished games are never lost when the store fails (issue 24, item 3): a game the store
refuses (SQLite's disk full, PostgreSQL stopped or stalled) is kept in memory and in a spool
file, the person is told it is not saved yet, the log says why, and once the store is back
every such game is stored exactly once, after a restart too."""

from __future__ import annotations

import logging
import time

import psycopg
import pytest

from sessions import store_postgres
from sessions.store import Store
from sessions.store_spool import spool_folder
from sessions.web.play import NOT_SAVED, PlaySession
from sessions.web.players import Person
from sessions.web.watch import WatchSession
from tests import postgres

PERSON = Person("player-0001")


def _until(check, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert check()


def _watched(store: Store, seed: int) -> WatchSession:
    """A finished random-vs-random Connect Four game (its record fills more than a page)."""
    game = WatchSession("connect_four", ["random", "random"], store=store, delay=0, seed=seed)
    game.start()
    assert game.ended.wait(20)
    return game


def test_a_full_sqlite_disk_keeps_every_game_until_a_restarted_app_stores_it_once(
        tmp_path, caplog):
    path = tmp_path / "arena.sqlite3"
    store = Store(path)
    store.spool.wait = 0.5
    conn = store._db._db  # the store's own connection: the "disk" holds what it has now
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")
    with caplog.at_level(logging.WARNING, logger="arena.store"):
        games = [_watched(store, seed) for seed in (1, 3, 7)]  # records of 5 kB
    assert all(NOT_SAVED in game.status() for game in games)
    assert "database or disk is full" in caplog.text
    assert all(game.id in caplog.text for game in games)
    files = sorted(p.stem for p in spool_folder(store).glob("*.json"))
    assert files == sorted(g.id for g in games)
    assert store.count() == 0
    store.close()  # the app goes away with the disk still full

    again = Store(path)  # the next start: the disk has room again (a new connection)
    _until(lambda: not again.spool.waiting())
    assert sorted(r.id for r in again.records()) == files
    assert again.count() == 3 and not list(spool_folder(again).glob("*.json"))
    again.close()


def test_postgresql_stopped_then_back_stores_each_kept_game_once(postgres_server, caplog,
                                                                tmp_path, monkeypatch):
    monkeypatch.setenv("ARENA_DATA_DIR", str(tmp_path))  # where the spool files go
    url = postgres.database(postgres_server, "spool_stopped")
    store = Store(url)
    store.spool.wait, store.spool.retry_first = 2.0, 0.2
    stored = PlaySession("tic_tac_toe", "random", person=PERSON, store=store)
    assert stored.resign() == "You resigned."
    with caplog.at_level(logging.WARNING, logger="arena.store"):
        with postgres.stopped(postgres_server):
            started = time.monotonic()
            people = [PlaySession("tic_tac_toe", "random", person=PERSON, store=store)
                      for _ in range(3)]
            told = [p.resign() for p in people]
            assert time.monotonic() - started < 10  # refused at once, not after a minute
            assert all(NOT_SAVED in t for t in told)
            assert all(NOT_SAVED in p.status() for p in people)
            assert "cannot connect" in caplog.text or "connection" in caplog.text
            assert len(list(spool_folder(store).glob("*.json"))) == 3
        _until(lambda: not store.spool.waiting())  # retried on its own once the server is up
    ids = {stored.id, *(p.id for p in people)}
    assert {r.id for r in store.records()} == ids and store.count() == 4
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT count(*) FROM seats").fetchone()[0] == 8  # once each
    assert all(NOT_SAVED not in p.status() for p in people)
    assert not list(spool_folder(store).glob("*.json"))
    store.close()


def test_a_stalled_postgresql_holds_a_game_ending_request_briefly_and_times_out(
        postgres_server, monkeypatch, caplog, tmp_path):
    monkeypatch.setenv("ARENA_DATA_DIR", str(tmp_path))
    url = postgres.database(postgres_server, "spool_stalled")
    monkeypatch.setattr(store_postgres, "STATEMENT_TIMEOUT", 1.0)
    store = Store(url)
    store.spool.wait, store.spool.retry_first = 0.3, 0.2
    with psycopg.connect(url) as other, caplog.at_level(logging.WARNING, logger="arena.store"):
        other.execute("UPDATE arena_store SET revision = revision")  # holds the row's lock
        person = PlaySession("tic_tac_toe", "random", person=PERSON, store=store)
        started = time.monotonic()
        said = person.resign()
        assert time.monotonic() - started < 1.0 and NOT_SAVED in said
        _until(lambda: "statement timeout" in caplog.text, 5)  # the server cancelled it
        assert "statement timeout" in str(store.unsaved(person.id))
        other.rollback()
    _until(lambda: not store.spool.waiting())
    assert [r.id for r in store.records()] == [person.id]
    assert NOT_SAVED not in person.status()
    store.close()


@pytest.mark.parametrize("backend", ["sqlite"])
def test_a_store_that_takes_the_game_says_nothing_more(tmp_path, backend):
    store = Store(tmp_path / "arena.sqlite3")
    person = PlaySession("tic_tac_toe", "random", person=PERSON, store=store)
    assert person.resign() == "You resigned."
    assert store.count() == 1 and store.unsaved(person.id) is None
    assert not spool_folder(store).exists()
    store.close()
