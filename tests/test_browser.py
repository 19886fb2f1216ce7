"""The page in a real browser: Playwright driving Debian's chromium against the real app.

Screenshots of the Play tab go to tests/artifacts/ (gitignored) for a person to look at.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from games.registry import get
from renderers import renderer
from sessions.store import Store
from tests.app_server import running_app
from tests.conftest import WAIT

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).parent / "artifacts"


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("browser")) as running:
        yield running


def _expect():
    from playwright.sync_api import expect

    return expect


def _answer_consent(page, *, name: str = "Playwright") -> None:
    _expect()(page.locator("#consent")).to_be_visible()
    page.get_by_label("Display name (optional)").fill(name)
    page.get_by_role("button", name="Yes, keep my games for research").click()
    _expect()(page.locator("#consent")).to_be_hidden()


def _choose(page, elem_id: str, option: str) -> None:
    """Pick ``option``; again if an update still in flight (the list of a game just chosen)
    puts the old value back, as a person would."""
    field = page.locator(f"#{elem_id} input")
    for _ in range(2):
        field.click()
        page.get_by_role("option", name=option, exact=True).click()
        try:
            _expect()(field).to_have_value(option, timeout=3000)
            page.wait_for_timeout(300)  # an update in flight may still put the old one back
            if field.input_value() == option:
                return
        except AssertionError:
            pass
    _expect()(field).to_have_value(option)


def _start(page, game_label: str, opponent: str = "Beginner · Random", seat: str = "first") -> None:
    if page.locator("#new-game").is_visible():  # a game is on: bring the setup back
        page.locator("#new-game").click()
    _choose(page, "game", game_label)
    _choose(page, "opponent", opponent)
    page.locator("#seat").get_by_text(seat, exact=True).click()
    page.locator("#start").click()
    _expect()(page.locator("#setup")).to_be_hidden()  # the new game is on the board
    _expect()(page.locator("#board img")).to_be_visible()
    _expect()(page.locator("#status")).to_contain_text(re.compile("Your turn|thinking"))


def _click_board(page, game_id: str, target: str) -> None:
    """Click the centre of ``target`` on the displayed board, scaled like the browser does."""
    spec = get(game_id)
    state = spec.load(spec.params()).new_initial_state()
    _click_pixel(page, *renderer(game_id).centres(state, 0)[target])


def _board_box(page) -> list[float]:
    """The board image's drawn size and its place in the window (width, height, x, y, shown
    width, shown height), read at once from an image that has loaded: the next image may
    start loading at any moment, and its size reads 0 until it is in."""
    return page.wait_for_function(
        """() => {
            const img = document.querySelector('#board img');
            if (!img || !img.naturalWidth) return null;
            const box = img.getBoundingClientRect();
            return [img.naturalWidth, img.naturalHeight, box.x, box.y, box.width, box.height];
        }""").json_value()


def _click_pixel(page, x: float, y: float, *, tap: bool = False) -> None:
    """Click (or ``tap``) pixel (x, y) of the board image as drawn (the page scales and
    centres it), as a person does: a click the board answers with "the board was being
    redrawn" (the next image began to load between reading the board and clicking it, so
    Gradio never sent the click) is made again, as that notice asks; so is a click that
    reached nothing at all within 2 s (neither sent nor answered on the board)."""
    for _ in range(3):
        page.evaluate("() => document.querySelectorAll('#board .arena-toast')"
                      ".forEach(toast => { toast.textContent = ''; })")
        width, height, box_x, box_y, box_width, box_height = _board_box(page)
        scale = min(box_width / width, box_height / height)
        left = box_x + (box_width - width * scale) / 2
        top = box_y + (box_height - height * scale) / 2
        screen = page.evaluate("() => window.innerHeight")
        if not 0 <= top + y * scale < screen:  # off the screen (the page moved): bring it in
            page.evaluate("(dy) => window.scrollBy(0, dy)", top + y * scale - screen / 2)
            continue
        sent: list[str] = []  # board clicks Gradio sends (their event data has an "index")

        def seen(request, sent: list[str] = sent) -> None:
            if request.method == "POST" and "queue/join" in request.url \
                    and '"index"' in (request.post_data or ""):
                sent.append(request.post_data)
        page.on("request", seen)
        try:
            (page.touchscreen.tap if tap else page.mouse.click)(left + x * scale,
                                                                top + y * scale)
            answer = ""
            for _ in range(40):
                answer = page.evaluate(
                    "() => document.querySelector('#board .arena-toast')?.textContent || ''")
                if sent or answer:
                    break
                page.wait_for_timeout(50)
            if sent and "the board was being redrawn" not in answer:
                return  # the server answers it
            if answer and "the board was being redrawn" not in answer:
                return  # answered on the board (beside it): the caller sees the toast
            page.wait_for_timeout(300)
            # the page said "not played, click again" (or nothing happened): it must not
            # have sent the click (a second click would undo a selection the first made)
            assert not sent, f"the page answered 'click again' to a click it sent: {sent}"
        finally:
            page.remove_listener("request", seen)


def _moves(page) -> list[str]:
    return [line for line in page.locator("#moves textarea").input_value().splitlines() if line]


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


CELLS = [f"C{c}R{r}" for r in (1, 2, 3) for c in (1, 2, 3)]


def _play_free_cell(page) -> None:
    """Tic-tac-toe: click the centre, else the first free cell, and wait for the reply."""
    taken = {line.split(": ")[-1] for line in _moves(page)}
    cell = next(c for c in (["C2R2"] + CELLS) if c not in taken)
    count = len(_moves(page))
    _click_board(page, "tic_tac_toe", cell)
    _expect()(page.locator("#moves textarea")).to_have_value(
        re.compile(rf"{count + 1}\. You: {cell}"))
    _expect()(page.locator("#status")).to_contain_text(re.compile("Your turn|Game over"))


def test_tic_tac_toe_by_clicking_cells_until_the_game_ends(page, app):
    _answer_consent(page)
    _start(page, "Board games › Tic-tac-toe")
    for _ in range(5):
        if "Game over" in page.locator("#status").inner_text():
            break
        _play_free_cell(page)
    status = page.locator("#status").inner_text()
    assert re.search(r"Game over: (You won|You lost|Draw)\. Final score: you (1|0|½) – "
                     r"Random (1|0|½)\.", status)
    _expect()(page.locator("#again")).to_be_visible()
    _shot(page, "play-tic-tac-toe")
    deadline = time.monotonic() + 10
    while True:
        with Store(app.store_path) as store:
            records = [r for r in store.records() if r.game == "tic_tac_toe"
                       and r.seats[0].display_name == "Playwright"]
        if records or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert len(records) == 1
    record = records[0]
    assert record.outcome == "normal" and record.research_use is True
    assert record.seats[0].kind == "human" and record.seats[1].entity == "random"
    mine = [m for m in record.moves if m.seat == 0]
    shown = [line.split(". ", 1)[1] for line in _moves(page)]
    assert [m.label for m in mine] == [line[len("You: "):] for line in shown
                                       if line.startswith("You: ")]
    assert all(m.meta["input"] == "click" for m in mine)


def test_a_click_outside_the_board_says_so(page):
    _start(page, "Board games › Connect Four")
    _click_board(page, "connect_four", "C4")
    _expect()(page.locator("#moves textarea")).to_have_value(re.compile(r"2\. Random: C\d"))
    _expect()(page.locator("#status")).to_contain_text("Your turn")
    _click_pixel(page, 9, 400)  # left of the blue frame
    _expect()(page.locator("#notice")).to_contain_text("not on the board")
    _shot(page, "play-connect-four")


def test_breakthrough_move_with_two_clicks(page):
    _start(page, "Board games › Breakthrough")
    _click_board(page, "breakthrough", "a7")
    _expect()(page.locator("#notice")).to_contain_text("a7 selected")
    _shot(page, "play-breakthrough-selected")
    _click_board(page, "breakthrough", "a6")
    _expect()(page.locator("#notice")).to_contain_text("Your move: a7->a6.")
    _expect()(page.locator("#moves textarea")).to_have_value(re.compile(r"1\. You: a7->a6\n2\. "))
    _shot(page, "play-breakthrough")


def test_kuhn_poker_is_played_with_buttons(page):
    _start(page, "Cards, dice and bids › Kuhn poker", opponent="IS-MCTS")
    _expect()(page.get_by_role("button", name="bet", exact=True)).to_be_visible()
    _expect()(page.get_by_role("button", name="pass", exact=True)).to_be_visible()
    _shot(page, "play-kuhn-poker")
    page.get_by_role("button", name="bet", exact=True).click()
    _expect()(page.locator("#moves textarea")).to_have_value(re.compile(r"1\. You: bet"))
    _expect()(page.locator("#status")).to_contain_text("Game over")
    _expect()(page.get_by_role("button", name="bet", exact=True)).to_be_hidden()
    _shot(page, "play-kuhn-poker-end")
    page.locator("#swap").click()  # a new game from the other seat: the agent acts first
    _expect()(page.locator("#moves textarea")).to_have_value(re.compile(r"^1\. IS-MCTS: "))
    _expect()(page.locator("#bar-text")).to_contain_text("you play blue, second")
    _expect()(page.locator("#status")).to_contain_text(re.compile("Your turn|Game over"))


def test_the_consent_answer_survives_a_reload_and_history_replays(page, app):
    _answer_consent(page, name="Reloader")
    _start(page, "Chance and repeated games › Pig")
    page.get_by_role("button", name="stop", exact=True).click()
    _expect()(page.locator("#moves textarea")).to_have_value(re.compile(r"1\. You: stop"))
    page.get_by_role("button", name="Resign").click()
    page.get_by_role("button", name="Yes, resign").click()  # Resign asks first
    _expect()(page.locator("#status")).to_contain_text("You resigned")
    page.reload()
    page.get_by_text("Your data").click()
    _expect()(page.locator("#profile")).to_contain_text("display name: Reloader")
    _expect()(page.locator("#profile")).to_contain_text("research use: yes")
    _expect()(page.locator("#consent")).to_be_hidden()
    page.get_by_role("tab", name="History").click()
    table = page.locator("#history-table")
    _expect()(table).to_contain_text("Pig")
    table.get_by_text("Pig").filter(visible=True).first.click()
    _expect()(page.locator("#replay-caption")).to_contain_text("Step")
    _expect()(page.locator("#replay-board img")).to_be_visible()


def test_closing_the_tab_records_the_game_as_abandoned(browser, app):
    context = browser.new_context()
    tab = context.new_page()
    tab.set_default_timeout(WAIT)
    tab.goto(app.url)
    _start(tab, "Board games › Connect Four")
    _click_board(tab, "connect_four", "C1")
    _expect()(tab.locator("#moves textarea")).to_have_value(re.compile(r"1\. You: C1"))
    context.close()
    deadline = time.monotonic() + 20
    found = []
    while not found and time.monotonic() < deadline:
        time.sleep(0.5)
        with Store(app.store_path) as store:
            found = [r for r in store.records() if r.outcome == "abandoned"
                     and r.game == "connect_four"]
    assert found, "the closed tab's game was not stored"
    assert found[0].end_reason == "tab closed" and found[0].scores is None
