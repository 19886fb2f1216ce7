"""Watched games nobody watches pause, then end; a client's watched games are bounded (issue
24, item 7: agents played on for minutes for a client that had hung up)."""

from __future__ import annotations

import time

import pytest

from sessions.store import Store
from sessions.web import watch
from sessions.web.watch import Keeper, WatchError, WatchSession


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setattr(watch, "UNWATCHED_PAUSE", 0.3)
    monkeypatch.setattr(watch, "UNWATCHED_END", 1.2)
    monkeypatch.setattr(Keeper, "EVERY", 0.05)


def _until(check, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not check() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert check()


def test_a_game_nobody_watches_pauses_goes_on_when_watched_and_then_ends(quick, tmp_path):
    store = Store(tmp_path / "arena.sqlite3")
    pages = [1]
    game = WatchSession("breakthrough", ["random", "random"], store=store, delay=0.05, seed=4,
                        watchers=lambda: pages[0])
    game.start()
    _until(lambda: len(game.record.moves) >= 2)
    pages[0] = 0  # the page that watched it is gone
    _until(lambda: game.paused)
    assert game.status() == "Paused: nobody is watching. It goes on when someone does."
    held = len(game.record.moves)
    time.sleep(0.3)
    assert len(game.record.moves) == held and not game.over
    pages[0] = 1  # someone opens its link
    _until(lambda: len(game.record.moves) > held or game.over)
    assert not game.unwatched
    if not game.over:
        pages[0] = 0
        started = time.monotonic()
        assert game.ended.wait(5)
        assert time.monotonic() - started < 3
        assert game.record.outcome == "abandoned"
        assert game.record.end_reason == "nobody watched it for 1.2 s"
        assert store.get(game.id).outcome == "abandoned"
    store.close()


def test_a_game_whose_host_pauses_it_is_not_resumed_by_a_watcher(quick):
    game = WatchSession("connect_four", ["random", "random"], delay=0.05, seed=5,
                        watchers=lambda: 1)
    game.start()
    game.pause()
    time.sleep(0.2)
    assert game.paused and game.status().endswith("press Resume or Step.")
    game.stop()


def test_one_client_has_a_bounded_number_of_watched_games(monkeypatch):
    monkeypatch.setattr(watch, "PER_CLIENT", 2)
    games = []
    try:
        for _ in range(2):
            game = WatchSession("connect_four", ["random", "random"], delay=5.0)
            game.client = "203.0.113.7"
            game.start()
            games.append(game)
        third = WatchSession("connect_four", ["random", "random"], delay=5.0)
        third.client = "203.0.113.7"
        with pytest.raises(WatchError, match=r"2 watched games started from your address "
                                             r"are playing already \(at most 2\)"):
            third.start()
        other = WatchSession("connect_four", ["random", "random"], delay=5.0)
        other.client = "198.51.100.2"
        other.start()  # another address may
        games.append(other)
        games[0].stop()
        assert games[0].ended.wait(5)
        third.start()  # one ended: room again
        games.append(third)
    finally:
        for game in games:
            game.stop()
