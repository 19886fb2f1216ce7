"""Who follows which game and how its changes reach them (sessions/web/spectators.py), without
the app: one drawing per version and view for every spectator, the limits and their sentences,
a page that goes away, and a game nobody watches any more."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import pytest

from sessions.web.spectators import Frame, Limits, Refused, Spectators, client_of


class Board:
    """A game whose version a test moves on; it counts its drawings."""

    def __init__(self) -> None:
        self.moves = 0
        self.drawn: list[tuple[int, str | None]] = []
        self.threads: set[str] = set()

    def key(self) -> int:
        return self.moves

    def draw(self, view: str | None) -> Frame:
        self.drawn.append((self.moves, view))
        self.threads.add(threading.current_thread().name)
        time.sleep(0.02)  # drawing takes a while: waiters must share it
        return Frame(f"<p>{self.moves} moves, {view}</p>", done=self.moves >= 99,
                     moves=self.moves)


def quick(**limits: int) -> Spectators:
    return Spectators(Limits(**limits), poll=0.02, wait=2.0, grace=0.3)


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 30))


def test_a_move_reaches_every_spectator_drawn_once_per_view():
    async def scenario():
        people, board = quick(per_game=1000, per_client=1000), Board()
        tickets = [people.join("g", "1.1.1.1", lambda i=i: "public" if i % 2 else "all",
                               lambda: board) for i in range(200)]
        assert people.broadcasting() == 1
        first = await people.first(tickets[0])
        assert first == (1, Frame("<p>0 moves, all</p>", moves=0))
        waits = [asyncio.ensure_future(people.wait(t.id, 1)) for t in tickets]
        await asyncio.sleep(0.1)
        assert not any(w.done() for w in waits)  # nothing changed: everyone waits
        board.moves = 1
        moved = time.monotonic()
        answers = [json.loads(a.body) for a in await asyncio.gather(*waits)]
        assert time.monotonic() - moved < 1.0
        assert {a["version"] for a in answers} == {2}
        assert {a["html"] for a in answers} == {"<p>1 moves, all</p>", "<p>1 moves, public</p>"}
        assert sorted(board.drawn) == [(0, "all"), (1, "all"), (1, "public")]
        assert "MainThread" not in board.threads  # drawn in worker threads
        late = json.loads((await people.wait(tickets[1].id, 1)).body)  # behind: answered at once
        assert late["html"] == "<p>1 moves, public</p>" and len(board.drawn) == 3
    run(scenario())


def test_nothing_new_is_answered_after_the_wait_and_the_end_says_done():
    async def scenario():
        people, board = quick(), Board()
        ticket = people.join("g", "1.1.1.1", lambda: None, lambda: board)
        people.wait_seconds = 0.2
        assert json.loads((await people.wait(ticket.id, 1)).body) == {"version": 1}
        board.moves = 99
        end = json.loads((await people.wait(ticket.id, 1)).body)
        assert end["done"] and end["version"] == 2
        assert people.counts() == {}  # a page that was shown the end no longer counts
    run(scenario())


def test_limits_per_game_per_client_and_on_the_server_say_why():
    async def scenario():
        people, board = quick(per_game=2, per_client=3, total=4), Board()
        for _ in range(2):
            people.join("a", "1.1.1.1", lambda: None, lambda: board)
        with pytest.raises(Refused, match=r"^This game already has 2 spectators; try again "
                                          r"later\.$"):
            people.join("a", "2.2.2.2", lambda: None, lambda: board)
        people.join("b", "1.1.1.1", lambda: None, Board)
        with pytest.raises(Refused, match=r"^3 pages from your address are already following "
                                          r"games here \(at most 3\); close one of them and "
                                          r"try again\.$"):
            people.join("c", "1.1.1.1", lambda: None, Board)
        people.join("c", "2.2.2.2", lambda: None, Board)
        with pytest.raises(Refused, match=r"^This server already has 4 spectators; try again "
                                          r"later\.$"):
            people.join("d", "3.3.3.3", lambda: None, Board)
        host = people.join("a", "1.1.1.1", lambda: None, lambda: board, host=True)
        assert host.id  # the person who started a game is never turned away from it
        assert people.counts() == {"a": 3, "b": 1, "c": 1}
    run(scenario())


def test_a_page_that_goes_away_stops_its_wait_at_once_and_stops_counting():
    async def scenario():
        people, board = quick(per_game=1), Board()
        ticket = people.join("g", "1.1.1.1", lambda: None, lambda: board)
        await people.first(ticket)
        gone = asyncio.Event()
        waiting = asyncio.ensure_future(people.wait(ticket.id, 1, gone.wait))
        await asyncio.sleep(0.5)  # longer than the grace: a waiting page counts
        assert people.counts() == {"g": 1} and not waiting.done()
        gone.set()
        assert await asyncio.wait_for(waiting, 0.5) is None
        with pytest.raises(Refused):  # counted a little longer (a page between two requests)
            people.join("g", "2.2.2.2", lambda: None, lambda: board)
        await asyncio.sleep(0.5)
        assert people.counts() == {} and people.broadcasting() == 0  # its game's task ended
        again = people.join("g", "2.2.2.2", lambda: None, lambda: board)
        assert again.id and people.broadcasting() == 1
        stopped = json.loads((await people.wait(ticket.id, 1)).body)
        assert stopped == {"version": 1, "stopped": True}  # the old page must reload
    run(scenario())


def test_a_stream_carries_every_new_screen_and_ends_with_the_game():
    async def scenario():
        people, board = quick(), Board()
        ticket = people.join("g", "1.1.1.1", lambda: None, lambda: board)
        events = people.stream(ticket.id, 1)
        board.moves = 1
        first = json.loads((await anext(events))[len(b"data: "):])
        assert first["html"] == "<p>1 moves, None</p>" and first["version"] == 2
        board.moves = 99
        last = await anext(events)
        assert last.startswith(b"data: ") and last.endswith(b"\n\n")
        assert json.loads(last[6:])["done"]
        with pytest.raises(StopAsyncIteration):
            await anext(events)
        assert people.counts() == {}
    run(scenario())


def test_a_stream_whose_page_went_away_stops_counting():
    async def scenario():
        people, board = quick(per_game=1), Board()
        ticket = people.join("g", "1.1.1.1", lambda: None, lambda: board)
        streaming = asyncio.ensure_future(anext(people.stream(ticket.id, 1)))
        await asyncio.sleep(0.5)
        assert people.counts() == {"g": 1}
        streaming.cancel()  # what the server does when the page's connection closes
        await asyncio.sleep(0.5)
        assert people.counts() == {} and people.broadcasting() == 0
    run(scenario())


def test_a_page_that_never_asks_counts_a_while_then_not(monkeypatch):
    monkeypatch.setattr("sessions.web.spectators.FIRST", 0.4)

    async def scenario():
        people, board = quick(per_game=1), Board()
        people.join("g", "1.1.1.1", lambda: None, lambda: board)
        await asyncio.sleep(0.2)
        assert people.counts() == {"g": 1}
        await asyncio.sleep(0.5)
        assert people.counts() == {}
    run(scenario())


def test_a_page_that_follows_something_else_lets_go_at_once():
    async def scenario():
        people, board = quick(per_game=1), Board()
        ticket = people.join("g", "1.1.1.1", lambda: None, lambda: board)
        threading.Thread(target=people.leave, args=(ticket.id,)).start()  # any thread
        await asyncio.sleep(0.05)
        assert people.counts() == {}
        assert people.join("g", "2.2.2.2", lambda: None, lambda: board).id
    run(scenario())


def test_a_game_that_cannot_be_drawn_is_drawn_again_on_the_next_request():
    class Broken(Board):
        def draw(self, view):
            if not self.drawn:
                self.drawn.append((-1, view))
                raise RuntimeError("a renderer failed")
            return super().draw(view)

    async def scenario():
        people, board = quick(), Broken()
        ticket = people.join("g", "1.1.1.1", lambda: None, lambda: board)
        with pytest.raises(RuntimeError):
            await people.first(ticket)
        assert await people.first(ticket) == (1, Frame("<p>0 moves, None</p>"))
    run(scenario())


def test_limits_from_the_environment():
    assert Limits.from_env({}) == Limits(100, 10, 1000)
    assert Limits.from_env({"ARENA_SPECTATORS_PER_GAME": "5", "ARENA_SPECTATORS": " 7 ",
                            "ARENA_SPECTATORS_PER_CLIENT": "0"}) == Limits(5, 1, 7)
    with pytest.raises(ValueError, match="ARENA_SPECTATORS_PER_GAME must be a whole number"):
        Limits.from_env({"ARENA_SPECTATORS_PER_GAME": "many"})


class Asked:
    def __init__(self, host: str, forwarded: str = "") -> None:
        self.client = type("Client", (), {"host": host})()
        self.headers = {"x-forwarded-for": forwarded} if forwarded else {}


def test_the_client_is_the_address_the_nearest_proxy_saw():
    assert client_of(Asked("9.9.9.9")) == "9.9.9.9"
    assert client_of(Asked("9.9.9.9", "1.2.3.4")) == "9.9.9.9"  # not behind a proxy
    assert client_of(Asked("10.0.0.5", "81.2.69.160")) == "81.2.69.160"  # a Space's proxy
    assert client_of(Asked("10.0.0.5", "6.6.6.6, 81.2.69.160")) == "81.2.69.160"
    assert client_of(Asked("127.0.0.2")) == "127.0.0.2"
