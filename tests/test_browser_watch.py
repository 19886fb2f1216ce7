"""The Watch tab in a real browser: agents play while the board advances, and a second
browser opens the game's spectator link and sees the same moves, read-only.

Screenshots (desktop 1280 px and phone 390 px) go to tests/artifacts/ for a person to look at.
"""

from __future__ import annotations

import re

import pytest

from sessions.web.blind import MYSTERY_LABEL
from tests.app_server import running_app
from tests.conftest import WAIT
from tests.fake_llm_server import FakeLLM, answer
from tests.test_app_blind import NAMES, blind_env
from tests.test_browser import _answer_consent, _choose, _expect, _play_free_cell, _shot

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 1400}


@pytest.fixture(scope="module")
def fake():
    with FakeLLM() as server:
        yield server


@pytest.fixture(scope="module")
def app(fake, tmp_path_factory):
    folder = tmp_path_factory.mktemp("browser-watch")
    with running_app(folder, env=blind_env(fake, folder)) as running:
        yield running


def _watch_moves(page) -> list[str]:
    return [line for line in page.locator("#watch-moves textarea").input_value().splitlines()
            if line]


def _pick(page, elem_id: str, option: str) -> None:
    """Choose ``option`` in the dropdown ``elem_id`` (several seat pickers offer the same
    names, so the option is looked for inside that dropdown)."""
    page.locator(f"#{elem_id} input").click()
    page.locator(f"#{elem_id}").get_by_role("option", name=option, exact=True).click()
    _expect()(page.locator(f"#{elem_id} input")).to_have_value(option)


def _open_watch(page) -> None:
    _answer_consent(page, name="Spectator")
    page.get_by_role("tab", name="Watch").click()
    _expect()(page.locator("#watch-seat-0")).to_be_visible()


def test_agents_play_on_the_watch_tab_and_a_link_shows_the_same_game(page, app, browser):
    _open_watch(page)
    _choose(page, "watch-game", "Board games › Connect Four")
    _pick(page, "watch-seat-0", "Strong · MCTS (1000 simulations)")
    _pick(page, "watch-seat-1", "Beginner · Random")
    page.locator("#watch-speed").get_by_text("0.5 s", exact=True).click()
    page.locator("#watch-start").click()
    _expect()(page.locator("#watch-title")).to_contain_text(
        "Connect Four: MCTS (red) vs Random (yellow)")
    board = page.locator("#watch-board img")
    _expect()(board).to_be_visible()
    first = board.get_attribute("src")
    page.wait_for_function("() => document.querySelector('#watch-moves textarea')"
                           "?.value.split('\\n').filter(Boolean).length >= 2")
    _expect()(board).not_to_have_attribute("src", first or "")  # the board advanced
    _shot(page, "watch-desktop")

    page.locator("#watch-pause").click()
    _expect()(page.locator("#watch-status")).to_contain_text("Paused")
    held = len(_watch_moves(page))
    page.wait_for_timeout(1500)
    assert len(_watch_moves(page)) <= held + 1  # at most the move already on its way
    held = len(_watch_moves(page))
    page.locator("#watch-step").click()
    page.wait_for_function(f"() => document.querySelector('#watch-moves textarea')"
                           f"?.value.split('\\n').filter(Boolean).length == {held + 1}")

    link = page.locator("#watch-link a").get_attribute("href")
    assert link and re.search(r"\?watch=[0-9a-f]{32}$", link)
    spectator = browser.new_context(viewport=PHONE)
    try:
        other = spectator.new_page()
        other.set_default_timeout(WAIT)
        other.goto(link)
        _expect()(other.locator("#watch-title")).to_contain_text("MCTS (red) vs Random (yellow)")
        _expect()(other.locator("#watch-pause")).to_be_hidden()  # read-only
        page.locator("#watch-resume").click()
        _expect()(page.locator("#watch-status")).to_contain_text("Game over", timeout=60_000)
        _expect()(other.locator("#watch-status")).to_contain_text("Game over")
        assert _watch_moves(other) == _watch_moves(page) and len(_watch_moves(page)) >= 7
        _shot(other, "watch-spectator-phone")
        other.goto(link)  # once over: the stored game's replay
        _expect()(other.locator("#watch-status")).to_contain_text("its replay")
        _expect()(other.locator("#watch-board img")).to_be_visible()
        assert _watch_moves(other) == _watch_moves(page)  # the replay names seats with sides
    finally:
        spectator.close()


def _no_names(page) -> None:
    shown = page.content().lower()
    assert not [name for name in NAMES if name.lower() in shown]


def test_a_blind_battle_names_the_model_only_at_the_end_and_spectators_see_no_more(
        page, app, fake, browser):
    fake.responder = lambda request: answer(request, request.legal_moves()[0],
                                            reasoning="As GPT-4o from OpenAI I take a corner.")
    _answer_consent(page, name="Ada")
    _choose(page, "game", "Board games › Tic-tac-toe")
    _choose(page, "opponent", MYSTERY_LABEL)
    _expect()(page.locator("#key-note")).to_be_hidden()  # no key to type: the server's
    page.locator("#start").click()
    _expect()(page.locator("#status")).to_contain_text("Your turn")
    _expect()(page.locator("#spectator-link a")).to_be_visible()
    link = page.locator("#spectator-link a").get_attribute("href")
    spectator = browser.new_context(viewport=PHONE)
    try:
        other = spectator.new_page()
        other.set_default_timeout(WAIT)
        other.goto(link)
        _expect()(other.locator("#watch-title")).to_contain_text(
            re.compile(r"Ada \(\w+\) vs Mystery model \(\w+\)"))
        _expect()(other.locator("#watch-view")).to_contain_text("Public view")
        _expect()(other.locator("#watch-view")).not_to_contain_text("face up")
        for turn in range(5):
            if "Game over" in page.locator("#status").inner_text():
                break
            _no_names(page)
            _no_names(other)
            _play_free_cell(page)
            if turn == 1:
                _expect()(other.locator("#watch-moves textarea")).to_have_value(
                    re.compile(r"Mystery model \(\w+\): C\dR\d"))
                _shot(page, "blind-battle-desktop")
                _shot(other, "blind-spectator-phone")
        _expect()(page.locator("#status")).to_contain_text("The mystery model was GPT-4o")
        _expect()(page.locator("#bar-text")).to_contain_text("vs GPT-4o")  # the header too
        _expect()(other.locator("#watch-status")).to_contain_text("Game over")
        _expect()(other.locator("#watch-title")).to_contain_text(re.compile(r"Ada.* vs GPT-4o"))
        _shot(page, "blind-battle-revealed")
    finally:
        spectator.close()


def test_a_spectator_link_shows_names_as_text_with_sides_and_no_consent_over_the_game(
        browser, app):
    """Issue 24 item 6 (a display name written as Markdown stays text: no image is fetched),
    issue 22 items 4 (nobody is called "you") and 5 (no consent question over the game; it
    waits for the Play tab)."""
    import http.server
    import threading

    from gradio_client import Client

    from tests.app_server import free_port

    fetched: list[str] = []

    class Trap(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
            fetched.append(self.path)
            self.send_response(404)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    trap = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Trap)
    threading.Thread(target=trap.serve_forever, daemon=True).start()
    name = f"![a](http://127.0.0.1:{trap.server_address[1]}/p.png)**B**"
    client = Client(app.url, verbose=False)
    state = client.predict("tic_tac_toe", "random", "first", "spectated0123456", True, name,
                           api_name="/new_game")
    context = browser.new_context(viewport=PHONE)
    try:
        other = context.new_page()
        other.set_default_timeout(WAIT)
        other.goto(f"{app.url}?watch={state['session']}")
        _expect()(other.locator("#watch-title")).to_contain_text(f"{name} (X) vs Random (O)")
        _expect()(other.locator("#watch-status")).to_have_text(f"{name} (X) to move.")
        _expect()(other.locator("#consent")).to_be_hidden()
        client.predict(api_name="/resign")
        other.reload()
        _expect()(other.locator("#watch-title")).to_contain_text(f"{name} (X) vs Random (O)")
        _expect()(other.locator("#watch-replay-seat")).to_contain_text(name)
        for shown in ("#watch-title", "#watch-status"):
            assert not re.search(r"\byou\b", other.locator(shown).inner_text(), re.I)
        board_text = other.locator("#watch-text").input_value()  # the replay's board as text
        assert board_text.startswith("X's view.") and not re.search(r"\byou", board_text, re.I)
        assert other.locator("#watch-screen img[src^='http']").count() == 0
        other.get_by_role("tab", name="Play").click()
        _expect()(other.locator("#consent")).to_be_visible()  # asked where a game is started
        assert fetched == []
    finally:
        context.close()
        trap.shutdown()
