"""Spectators against the real app: following a game holds none of Gradio's queue workers, a
closed spectator page stops counting within seconds, and the spectators of one game and of one
client address are bounded, with a sentence on the page that says so (issue 24, item 1).

Spectator pages are driven without a browser (tests/spectator_pages.py: the link's page-load
events, then the screen's requests for the next screen), from several loopback addresses; the
last test shows the refusal in a real browser.
"""

from __future__ import annotations

import asyncio
import re
import threading
import time

import pytest

from tests.app_server import running_app
from tests.conftest import WAIT
from tests.spectator_pages import App, Page, Session
from tests.test_browser import _expect

PLAYER = "spectated-person-01"
PAGES = 60
"""More spectator pages than Gradio's queue has workers (40)."""


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    env = {"ARENA_SPECTATORS_PER_GAME": str(PAGES), "ARENA_SPECTATORS_PER_CLIENT": "1000"}
    with running_app(tmp_path_factory.mktemp("spectator-slots"), env=env) as running:
        yield running


@pytest.fixture(scope="module")
def bounded(tmp_path_factory):
    env = {"ARENA_SPECTATORS_PER_GAME": "3", "ARENA_SPECTATORS_PER_CLIENT": "4"}
    with running_app(tmp_path_factory.mktemp("spectator-bounds"), env=env) as running:
        yield running


async def _person_game(app: App, game: str = "tic_tac_toe") -> tuple[Session, dict]:
    """A person's game waiting for the person's first move (nothing changes meanwhile)."""
    person = Session(app)
    state = await person.call("new_game", game, "random", "first", PLAYER, True, "Ada")
    return person, state


async def _timed(call) -> float:
    started = time.monotonic()
    await asyncio.wait_for(call, 30)
    return time.monotonic() - started


def test_spectator_pages_hold_no_queue_worker_and_closed_ones_stop_counting_in_seconds(app):
    async def scenario() -> None:
        pages_app = App.read(app.url)
        person, state = await _person_game(pages_app)
        pages = [Page(pages_app, state["session"]) for _ in range(PAGES)]
        opening = [asyncio.ensure_future(page.open()) for page in pages]
        done, waiting = await asyncio.wait(opening, timeout=30)
        for task in waiting:
            task.cancel()
        assert not waiting, (f"only {len(done)} of {PAGES} spectator pages opened within 30 s: "
                             "each page that follows a game holds one of the queue's workers")
        assert all(page.ticket for page in pages)  # every page follows the game
        await asyncio.gather(*(page.start_screens() for page in pages[::2]))  # as a browser
        await asyncio.gather(*(page.start_next() for page in pages[1::2]))  # one at a time

        new_game = Session(pages_app).call("new_game", "nim", "random", "first", PLAYER, True, "")
        assert await _timed(new_game) < 3.0  # 60 spectators waiting: another person starts
        refused = Page(pages_app, state["session"])
        assert f"This game already has {PAGES} spectators; try again later." in \
            await refused.open()
        assert not refused.ticket

        for page in pages:
            page.abandon()  # 60 tabs closed while their requests wait
        new_game = Session(pages_app).call("new_game", "nim", "random", "first", PLAYER, True, "")
        assert await _timed(new_game) < 3.0
        closed = time.monotonic()
        while True:  # the closed pages no longer count: a new spectator gets in
            late = Page(pages_app, state["session"])
            await late.open()
            if late.ticket:
                break
            assert time.monotonic() - closed < 10.0, "closed pages still counted after 10 s"
            await asyncio.sleep(0.5)

        screens = late.screens()
        moved = await person.call("move", state["legal"][0])  # the person and the reply
        answer = await asyncio.wait_for(anext(screens), 10)
        while answer.moves != len(moved["moves"]):
            answer = await asyncio.wait_for(anext(screens), 10)
        assert answer.html and answer.moves >= 2 and "<b>Ada (X) to move.</b>" in answer.html

    asyncio.run(scenario())


def test_spectators_per_game_and_per_client_are_bounded_with_a_clear_message(bounded):
    async def scenario() -> None:
        pages_app = App.read(bounded.url)
        _, first = await _person_game(pages_app)
        _, second = await _person_game(pages_app, "nim")
        mine = [Page(pages_app, first["session"]) for _ in range(3)]
        for page in mine:
            await page.open()
            assert page.ticket
        crowded = Page(pages_app, first["session"], client="127.0.0.2")
        assert "This game already has 3 spectators; try again later." in await crowded.open()
        assert not crowded.ticket

        other = Page(pages_app, second["session"])
        await other.open()
        assert other.ticket  # a fourth page from 127.0.0.1, on another game
        fifth = Page(pages_app, second["session"])
        assert ("4 pages from your address are already following games here (at most 4); "
                "close one of them and try again.") in await fifth.open()
        assert not fifth.ticket
        elsewhere = Page(pages_app, second["session"], client="127.0.0.3")
        await elsewhere.open()
        assert elsewhere.ticket  # another client is not held back by this one
        following = [*mine, other, elsewhere]
        await asyncio.gather(*(page.start_screens() for page in following))
        await asyncio.sleep(0.5)
        for page in following:  # closed while following: they stop counting 5 s later
            page.abandon()

    asyncio.run(scenario())


async def _abandon(pages: list[Page]) -> None:
    for page in pages:
        page.abandon()


class Loop:
    """An event loop in a thread of its own (the browser's sync API holds this thread's)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=60)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


@pytest.mark.browser
def test_a_spectator_turned_away_is_told_why_on_the_page(bounded, browser):
    """Three spectators already follow the game: a fourth opens the link in a browser and
    reads why the game is not shown; once they have gone, a reload follows the game and sees
    the person's move arrive."""
    pages_app = App.read(bounded.url)

    async def crowd(game_id: str) -> list[Page]:
        pages = [Page(pages_app, game_id, client="127.0.0.9") for _ in range(3)]
        await asyncio.gather(*(page.open() for page in pages))
        await asyncio.gather(*(page.start_screens() for page in pages))
        return pages

    loop = Loop()
    context = browser.new_context(viewport={"width": 1280, "height": 1100})
    try:
        person, state = loop.run(_person_game(pages_app, "connect_four"))
        pages = loop.run(crowd(state["session"]))
        tab = context.new_page()
        tab.set_default_timeout(WAIT)
        link = f"{bounded.url}?watch={state['session']}"
        tab.goto(link)
        _expect()(tab.locator("#watch-status")).to_contain_text(
            "This game already has 3 spectators; try again later.", timeout=WAIT)
        _expect()(tab.locator("#watch-board img")).to_have_count(0)
        loop.run(_abandon(pages))
        time.sleep(6.0)  # longer than a closed page is counted (sessions.web.spectators.GRACE)
        tab.goto(link)
        _expect()(tab.locator("#watch-title")).to_contain_text("Connect Four: Ada (red) vs",
                                                               timeout=WAIT)
        _expect()(tab.locator("#watch-board img")).to_be_visible()
        loop.run(person.call("move", state["legal"][0]))
        _expect()(tab.locator("#watch-moves textarea")).to_have_value(
            re.compile(r"1\. Ada \(red\): .*\n2\. "), timeout=WAIT)
    finally:
        context.close()
        loop.close()
