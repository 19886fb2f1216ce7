"""Issue 13 in a real browser (Playwright + Debian chromium, the real app): the Play tab as a
game site and every defect a new player hit, each with a test that would have caught it.

Screenshots go to tests/artifacts/ (scripts/screenshots.py makes the full set).
"""

from __future__ import annotations

import re

import pytest

from games.actions import MAX_TYPED_CHARS, MAX_TYPED_TALK_CHARS
from games.gamebench import hive
from games.registry import get
from renderers import renderer
from sessions.store import Store
from tests.app_server import running_app
from tests.conftest import WAIT
from tests.test_browser import (
    _choose,
    _click_board,
    _click_pixel,
    _expect,
    _moves,
    _shot,
    _start,
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("browser-page")) as running:
        yield running


def _no_thanks(page) -> None:
    page.get_by_role("button", name="No thanks, just let me play").click()


def _box(page, selector: str) -> dict:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not on screen"
    return box


def _type(page, text: str) -> None:
    if not page.locator("#typed").is_visible():
        page.get_by_text("Type a move", exact=True).click()
    field = page.locator("#typed textarea, #typed input")
    field.fill(text)
    field.press("Enter")


def _visible_text(page) -> str:
    return page.locator("body").inner_text()


# --- the page: board first, the setup folded away --------------------------------------------


def test_after_start_the_setup_folds_into_a_bar_and_the_board_leads(page):
    _no_thanks(page)
    _expect()(page.locator("#game-area")).to_be_hidden()  # nothing to show before Start
    _start(page, "Board games › Connect Four", opponent="Strong · MCTS (1000 simulations)")
    bar = page.locator("#bar-text")
    _expect()(bar).to_have_text(
        "Connect Four vs Strong · MCTS (1000 simulations) · you play red, first")
    _expect()(page.locator("#game")).to_be_hidden()
    board, side = _box(page, "#board img"), _box(page, "#side-column")
    for panel in ("#players", "#status", "#move-list", "#game-bar"):
        other = _box(page, panel)
        assert board["width"] * board["height"] > 2 * other["width"] * other["height"], panel
    assert side["x"] >= board["x"] + board["width"] - 1  # beside the board on a wide screen
    players = page.locator("#players")
    _expect()(players).to_contain_text("You (red)")
    _expect()(players).to_contain_text("MCTS (1000 simulations)")
    _expect()(players.locator(".arena-clock")).to_have_count(2)
    page.locator("#new-game").click()  # the setup comes back; the game stays until Start
    _expect()(page.locator("#game")).to_be_visible()
    _expect()(page.locator("#board img")).to_be_visible()
    page.locator("#back-to-game").click()
    _expect()(page.locator("#game")).to_be_hidden()


def _tap(page, game_id: str, target: str, state) -> None:
    """Tap ``target`` on the board as drawn for a narrow screen."""
    _click_pixel(page, *renderer(game_id).centres(state, 0, narrow=True)[target], tap=True)


def test_on_a_phone_the_hive_board_fills_the_width_and_plays_by_tapping(phone):
    _no_thanks(phone)
    _start(phone, "Board games › Hive")
    board = _box(phone, "#board img")
    assert board["width"] >= 0.9 * 390  # not 15-pixel tiles under the setup form
    natural = phone.locator("#board img").evaluate("img => img.naturalWidth")
    assert natural < phone.locator("#board img").evaluate("img => img.naturalHeight")
    state = get("hive").load(get("hive").params()).new_initial_state()
    _tap(phone, "hive", "wA1", state)
    _expect()(phone.locator("#notice")).to_contain_text("wA1 selected")
    target = hive.hex_name(next(iter(hive.choices(state).targets("wA1"))))
    _tap(phone, "hive", target, state)
    _expect()(phone.locator("#notice")).to_contain_text("Your move: wA1.")
    _expect()(phone.locator("#moves textarea")).to_have_value(re.compile(r"^1\. You: wA1\n2\. "))
    side = _box(phone, "#side-column")
    assert side["y"] >= board["y"] + board["height"] - 1  # the panels under the board
    _shot(phone, "page-hive-phone")


# --- text is text ------------------------------------------------------------------------------


def test_notices_rules_and_typed_text_are_shown_as_written(page):
    _no_thanks(page)
    _start(page, "Board games › Tic-tac-toe")
    _type(page, '<img src=/x onerror="window.hacked=1"><h1>big</h1>')
    notice = page.locator("#notice")
    _expect()(notice).to_contain_text('<img src=/x onerror="window.hacked=1"><h1>big</h1>')
    _expect()(notice).to_contain_text("Moves look like a cell as C<column>R<row>")
    assert notice.locator("img, h1").count() == 0
    assert page.evaluate("() => window.hacked") is None
    _expect()(page.locator("#typed-hint")).to_contain_text("a cell as C<column>R<row>")
    page.locator("#new-game").click()
    page.get_by_text("Rules", exact=True).click()
    _expect()(page.locator("#rules")).to_contain_text(
        "cells are written C<column>R<row>, with columns numbered")
    # the typed box cuts where the adapter refuses (games.actions.typed_limit): a talking
    # game's moves carry words, so its box takes more
    typed = page.locator("#typed textarea, #typed input")
    _expect()(typed).to_have_attribute("maxlength", str(MAX_TYPED_CHARS))
    _choose(page, "game", "Word and social games › Codenames")
    _expect()(typed).to_have_attribute("maxlength", str(MAX_TYPED_TALK_CHARS))


def test_a_hive_move_with_a_backslash_keeps_it(page):
    _no_thanks(page)
    _start(page, "Board games › Hive")
    _type(page, "wS1")
    _expect()(page.locator("#moves textarea")).to_have_value(re.compile(r"2\. Random: "))
    spec = get("hive")
    state = spec.load(spec.params()).new_initial_state()
    for line in _moves(page):
        label = line.split(": ", 1)[1]
        state.apply_action(next(a for a in state.legal_actions()
                                if state.action_to_string(state.current_player(), a) == label))
    move = next(label for label in (state.action_to_string(0, a) for a in state.legal_actions())
                if label.endswith("\\") or label.startswith("\\") or "\\" in label)
    _type(page, move)
    _expect()(page.locator("#notice")).to_have_text(f"Your move: {move}.")
    _expect()(page.locator("#move-list")).to_contain_text(move)


# --- every input is played or answered ---------------------------------------------------------


def _board_event(data: str | None) -> bool:
    """A request that carries a board click (its index is a pixel pair, or null off the
    image), not another event with an index (a tab selected: an integer)."""
    return bool(re.search(r'"index":\s*(\[|null)', data or ""))


def test_two_quick_clicks_are_both_played_or_answered(page):
    """The second click is sent before the opponent's reply is on screen: it is played only
    on the position it was made on (issue 14), so here it is answered with a notice, never
    dropped, and the notice does not contradict "Your turn". (The two requests can reach the
    server in either order: then the second click is played and the first answered.)"""
    sent: list[str] = []  # the clicks the page sends (a progress overlay once caught one)
    page.on("request", lambda r: sent.append(r.post_data or "") if r.method == "POST"
            and "queue/join" in r.url and _board_event(r.post_data) else None)
    _no_thanks(page)
    _start(page, "Board games › Tic-tac-toe")
    _click_board(page, "tic_tac_toe", "C1R1")
    _click_board(page, "tic_tac_toe", "C3R3")  # before the reply to the first is shown
    status, notice = page.locator("#status"), page.locator("#notice")
    _expect()(page.locator("#moves textarea")).to_have_value(re.compile(r"^1\. You: C(1R1|3R3)\n"))
    _expect()(status).to_contain_text("Your turn")
    page.wait_for_timeout(500)
    if len(sent) == 1:  # made while the next board image loaded: Gradio never sent it
        _expect()(page.locator("#board .arena-toast")).to_have_text(
            "Not played: the board was being redrawn. Click again.")
        assert [m for m in _moves(page) if ". You: " in m] == ["1. You: C1R1"]
        return
    played = _moves(page)[0].removeprefix("1. You: ")
    other = "C3R3" if played == "C1R1" else "C1R1"
    _expect()(notice).to_contain_text(  # the other click's answer, whatever it is
        re.compile(f"The board changed|Your move: {other}|That cell is taken"))
    moves, said = _moves(page), notice.inner_text().strip()
    if f"3. You: {other}" in moves:  # it was made on the position after the reply: played
        assert said == f"Your move: {other}.", said
    elif f"2. Random: {other}" in moves:  # the reply took the cell
        assert said.startswith(("That cell is taken.", "The board changed")), said
    else:
        assert said == ("The board changed before that arrived, so it was not played: "
                        "have a look and play again."), said
    assert "not your turn" not in said.lower() and "moment" not in said
    assert len(sent) == 2


def test_a_click_gradio_would_drop_is_answered_on_the_board(page):
    """Gradio's image sends nothing for a click while the next image loads, or on the margin
    beside a scaled board: the page answers such a click on the board, and plays nothing."""
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.post_data or "") if r.method == "POST"
            and "queue/join" in r.url and _board_event(r.post_data) else None)
    _no_thanks(page)
    _start(page, "Board games › Tic-tac-toe")
    toast = page.locator("#board .arena-toast")
    frame = _box(page, "#board button")
    drawn = _box(page, "#board img")
    assert frame["width"] > drawn["width"] + 40  # a margin beside the board to click on
    page.mouse.click(frame["x"] + 5, drawn["y"] + drawn["height"] / 2)
    _expect()(toast).to_have_text("Not played: that click was beside the board.")
    page.route("**/never-loads.png", lambda route: None)  # the next image, still on its way
    page.locator("#board img").evaluate("img => { img.src = '/never-loads.png'; }")
    page.mouse.click(drawn["x"] + drawn["width"] / 2, drawn["y"] + drawn["height"] / 2)
    _expect()(toast).to_have_text("Not played: the board was being redrawn. Click again.")
    page.wait_for_timeout(500)
    assert sent == [] and _moves(page) == []  # nothing reached the game
    _expect()(page.locator("#status")).to_contain_text("Your turn")


def test_submitting_again_right_after_the_results_update_plays_both_rounds(page):
    _no_thanks(page)
    _choose(page, "game", "GAMA-Bench › Guess 2/3 of the Average")
    page.locator("#table-rounds input").fill("4")
    page.locator("#start-table").click()
    _expect()(page.locator("#status")).to_contain_text("Your turn")
    number, results = page.locator("#decision input"), page.locator("#results")
    number.fill("10")
    page.locator("#decide").click()
    _expect()(results.get_by_role("row", name=re.compile(r"^1 10 "))).to_be_visible()
    number.fill("20")  # at once, right after the results table updated
    page.locator("#decide").click()
    _expect()(results.get_by_role("row", name=re.compile(r"^2 20 "))).to_be_visible()
    number.fill("30")
    page.locator("#decide").click()
    number.fill("40")  # sent before round 3's results are shown: answered, not dropped
    page.locator("#decide").click()
    _expect()(results.get_by_role("row", name=re.compile(r"^3 30 "))).to_be_visible()
    notice = page.locator("#notice")
    _expect()(notice).to_contain_text(re.compile(r"The board changed before that arrived|"
                                                 r"Your move: choose 40"))
    if "The board changed" in notice.inner_text():  # made on round 3's position: not played
        number.fill("40")
        page.locator("#decide").click()
    _expect()(results.get_by_role("row", name=re.compile(r"^4 40 "))).to_be_visible()
    _expect()(page.locator("#status")).to_contain_text(re.compile(
        r"Game over: you placed \d+(st|nd|rd|th) of \d+ \(ties share a place\), "
        r"with a score of \d"))  # a place in words and what the number is
    # the end screen says what the 0-100 score measures in this game
    _expect()(page.locator("#standing")).to_contain_text(
        "The GAMA score (0-100) measures how low your numbers were")
    _expect()(page.locator("#summary")).to_contain_text("GAMA score", timeout=WAIT)
    _shot(page, "page-guess-end")


# --- people's words, looking back --------------------------------------------------------------


def test_peoples_words_from_start_to_the_final_score(page):
    _no_thanks(page)
    _start(page, "Board games › Tic-tac-toe", opponent="Strong · MCTS (1000 simulations)")
    for cell in ("C2R2", "C1R1", "C3R1", "C1R3", "C2R3", "C3R2", "C1R2", "C2R1", "C3R3"):
        if "Game over" in page.locator("#status").inner_text():
            break
        if any(line.endswith(f": {cell}") for line in _moves(page)):
            continue
        count = len(_moves(page))
        _click_board(page, "tic_tac_toe", cell)
        _expect()(page.locator("#moves textarea")).to_have_value(
            re.compile(rf"{count + 1}\. You: {cell}"))
        _expect()(page.locator("#status")).to_contain_text(re.compile("Your turn|Game over"))
    _expect()(page.locator("#status")).to_contain_text(
        re.compile(r"Game over: (You won|You lost|Draw)\. Final score: you (1|0|½) – MCTS "))
    shown = _visible_text(page)
    assert "You (X)" in shown and "MCTS (1000 simulations)" in shown
    for raw in ("player 0", "player 1", "returns", "mcts:1000:2s", "mcts:"):
        assert raw not in shown, raw
    _shot(page, "page-tic-tac-toe-over")


def test_look_back_through_the_moves_and_the_list_follows_the_latest(page):
    _no_thanks(page)
    _start(page, "Chance and repeated games › Pig")
    roll = page.get_by_role("button", name="roll", exact=True)
    for _ in range(12):
        count = len(_moves(page))
        # the buttons of the new screen are drawn a moment after its status: wait for them
        # (only "stop" once the turn total reaches the goal)
        page.wait_for_function("() => document.querySelector('#status').innerText"
                               ".includes('Game over') || [...document.querySelectorAll("
                               "'#moves-buttons button')].some(b => b.offsetParent !== null)")
        if not roll.is_visible():
            break
        roll.click()
        try:
            page.wait_for_function("(n) => document.querySelector('#moves textarea').value"
                                   ".split('\\n').length > n", arg=count)
        except Exception as err:  # say what the page showed instead
            raise AssertionError(
                f"roll {count} not played: notice {page.locator('#notice').inner_text()!r}, "
                f"status {page.locator('#status').inner_text()!r}, moves {_moves(page)}") from err
        _expect()(page.locator("#status")).to_contain_text(re.compile("Your turn|Game over"))
    rows = page.locator("#move-list tr")
    assert rows.count() >= 8
    last = rows.last
    _expect()(last).to_have_class(re.compile("arena-last"))
    box, frame = last.bounding_box(), _box(page, "#move-list .arena-moves")
    assert box["y"] + box["height"] <= frame["y"] + frame["height"] + 1  # scrolled into view
    # a person looks back at a page that has settled: the last roll's events are done (an
    # event still drawing could land after the look-back's screen; see sessions/web/turns.py)
    page.wait_for_function("() => !/processing|\\d\\.\\ds/.test("
                           "document.querySelector('#status').innerText)")
    board = page.locator("#board img").get_attribute("src")
    page.locator("#nav-back").click()
    _expect()(page.locator("#status")).to_contain_text("Looking back: position")
    _expect()(page.locator("#move-list .arena-viewed")).to_have_count(1)
    _expect()(page.locator("#board img")).not_to_have_attribute("src", board)
    page.locator("#nav-first").click()
    _expect()(page.locator("#status")).to_contain_text("Looking back: position 0 of")
    page.locator("#nav-last").click()
    _expect()(page.locator("#status")).to_contain_text(re.compile("Your turn|Game over"))
    _expect()(page.locator("#move-list .arena-viewed")).to_have_count(0)


# --- History -----------------------------------------------------------------------------------


def test_history_lists_finished_games_first_and_replays_from_the_first_move(page, app):
    page.get_by_role("button", name="Yes, keep my games for research").click()
    _start(page, "Board games › Tic-tac-toe")
    _click_board(page, "tic_tac_toe", "C2R2")
    _expect()(page.locator("#moves textarea")).to_have_value(re.compile(r"2\. Random: "))
    page.get_by_role("button", name="Resign").click()
    page.get_by_role("button", name="Yes, resign").click()  # Resign asks first
    _expect()(page.locator("#status")).to_contain_text("You resigned")
    for _ in range(3):  # switching games stores an abandoned session each time (the
        _start(page, "Board games › Connect Four")  # finished one was stored already)
    page.get_by_role("tab", name="History").click()
    count = page.locator("#history-count")
    _expect()(count).to_contain_text("1 finished game · 2 abandoned (hidden)")
    table = page.locator("#history-table")
    _expect()(table.get_by_role("row")).to_have_count(2)  # the headers and the finished game
    page.locator("#history-abandoned").get_by_role("checkbox").check()
    _expect()(table.get_by_role("row")).to_have_count(4)
    _expect()(table.get_by_role("row").nth(1)).to_contain_text("Tic-tac-toe")  # first
    _expect()(count).to_contain_text("Click a game in the table to replay it")  # issue 22
    assert not re.search(r"[0-9a-f]{32}", table.inner_text())  # no session ids for people
    font = table.get_by_text("Tic-tac-toe").filter(visible=True).first.evaluate(
        "(cell) => getComputedStyle(cell).fontFamily")
    assert "mono" not in font.lower(), font  # the page's font, not a code listing's
    table.get_by_text("Tic-tac-toe").filter(visible=True).first.click()
    caption = page.locator("#replay-caption")
    _expect()(caption).to_contain_text("Step 1 of 2 — You: C2R2")
    page.locator("#replay-next").click()
    _expect()(caption).to_contain_text("Step 2 of 2 — Random: ")
    page.locator("#replay-back").click()  # two quick presses: each counts (the frame is
    page.locator("#replay-back").click()  # kept on the server, not read off the slider)
    _expect()(caption).to_contain_text("Step 0 of 2 — Start")
    _expect()(page.locator("#replay-step input[type=range]")).to_have_value("0")
    assert "Error" not in page.locator("#replay-step").inner_text()
    number = page.locator("#replay-step input[type=number]")
    number.fill("2")  # a person types a position into the slider's box
    number.press("Enter")
    _expect()(caption).to_contain_text("Step 2 of 2 — Random: ")
    page.locator("#replay-back").click()
    _expect()(caption).to_contain_text("Step 1 of 2 — You: C2R2")
    assert "TypeError" not in app.log.read_text()
    _shot(page, "page-history")
    with Store(app.store_path) as store:  # the switched games are still stored
        assert sum(r.outcome == "abandoned" and r.end_reason == "a new game was started"
                   for r in store.records()) >= 2


def test_rules_read_formatted_and_dark_mode_keeps_boards_and_seats_readable(browser, app):
    """Issue 22, items 18, 19 and 21, one page in dark mode: Air, Land & Sea's rules are formatted
    (a card table, bold words without their stars) with the developers' notes in a closed
    fold; a board is dimmed and framed, and the seat to speak in Codenames keeps readable
    text on its highlight; "Your rating" answers and the Leaderboard has a People view."""
    context = browser.new_context(viewport={"width": 1280, "height": 1100})
    page = context.new_page()
    page.set_default_timeout(WAIT)
    page.goto(app.url + "?__theme=dark")
    _no_thanks(page)
    _choose(page, "game", "Cards, dice and bids › Air, Land & Sea")
    page.get_by_text("Rules", exact=True).click()
    rules = page.locator("#rules")
    _expect()(rules.locator("table td").filter(has_text="Heavy Tanks (Land)")).to_be_visible()
    text = rules.inner_text()
    assert "**" not in text and "|---" not in text and "| Card |" not in text
    assert rules.locator("strong").filter(has_text="Placing").count() + rules.locator(
        "strong").count() > 0
    notes = rules.locator("details.arena-dev-notes")
    _expect()(notes.locator("summary")).to_contain_text("Notes for developers")
    _expect()(notes.get_by_text("Where this differs", exact=False)).to_be_hidden()
    notes.locator("summary").click()
    _expect()(notes.get_by_text("Where this differs", exact=False)).to_be_visible()
    _choose(page, "game", "Word and social games › Codenames")
    _choose(page, "talk-seat", "Red operative")
    page.locator("#start-talk").click()
    _expect()(page.locator("#talk-seats .speaking")).to_be_visible()
    assert page.evaluate("() => document.body.classList.contains('dark')")
    contrast = page.evaluate("""() => {
        const chip = document.querySelector('#talk-seats .speaking');
        const rgb = (c) => c.match(/[0-9.]+/g).slice(0, 3).map(Number);
        const lum = (c) => { const [r, g, b] = rgb(c).map((v) => { v /= 255;
            return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
            return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
        const style = getComputedStyle(chip);
        const [a, b] = [lum(style.color), lum(style.backgroundColor)].sort((x, y) => y - x);
        return (a + 0.05) / (b + 0.05);
    }""")
    assert contrast >= 4.5, f"the speaking seat's chip has contrast {contrast:.1f}"
    board = page.locator("#board img")
    _expect()(board).to_be_visible()
    assert "brightness" in board.evaluate("(img) => getComputedStyle(img).filter")
    _shot(page, "play-codenames-dark")
    page.get_by_text("Your rating", exact=True).click()  # item 21: this person said no
    _expect()(page.locator("#your-rating")).to_contain_text("allow research use")
    page.get_by_role("tab", name="Leaderboard").click()
    page.get_by_role("tab", name="People").click()
    _expect()(page.locator("#lb-people")).to_contain_text("person")
    context.close()
