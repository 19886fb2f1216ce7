"""Hive, Santorini and the Leaderboard tab in a real browser (Playwright + Debian chromium).

Screenshots go to tests/artifacts/ for a person to look at.
"""

from __future__ import annotations

import re
import time

import pytest

from games.gamebench import hive
from games.registry import get
from renderers.gamebench import hive as hive_view
from renderers.gamebench import santorini as santorini_view
from sessions.engine import FailurePolicy
from sessions.store import Store
from sessions.tournament import run_tournament
from tests.app_server import running_app
from tests.test_browser import (
    _click_pixel,
    _expect,
    _moves,
    _shot,
    _start,
)
from tests.test_leaderboard_app import fill

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    data = tmp_path_factory.mktemp("boards")
    fill(data / "arena.sqlite3")
    with running_app(data) as running:
        yield running


def _position(game_id: str, page):
    """The game's state after the moves the page lists (replayed by their labels)."""
    spec = get(game_id)
    state = spec.load(spec.params()).new_initial_state()
    for line in _moves(page):
        label = line.split(": ", 1)[1]
        player = state.current_player()
        state.apply_action(next(a for a in state.legal_actions()
                                if state.action_to_string(player, a) == label))
    return state


def _notice(page, text: str) -> None:
    _expect()(page.locator("#notice")).to_contain_text(text)


def test_hive_a_reserve_tile_then_a_highlighted_hex(page):
    _start(page, "Board games › Hive", seat="second")
    _expect()(page.locator("#status")).to_contain_text("Your turn")
    state = _position("hive", page)
    assert len(state.history()) == 1  # White (the agent) has placed its first tile
    spots = hive_view.target_centres(state, 1)
    tile = "bG1"
    _click_pixel(page, *spots[tile])
    _notice(page, f"{tile} selected")
    targets = [hive.hex_name(h) for h in hive.choices(state).targets(tile)]
    assert targets, "a first black tile always has somewhere to go"
    _shot(page, "play-hive-selected")
    destination = targets[-1]
    _click_pixel(page, *spots[destination])
    _notice(page, f"Your move: {tile}")
    _expect()(page.locator("#moves textarea")).to_have_value(re.compile(rf"2\. You: {tile}"))
    _expect()(page.locator("#status")).to_contain_text("Your turn")
    _shot(page, "play-hive")


def test_santorini_place_workers_then_move_and_build(page):
    _start(page, "Board games › Santorini", seat="first")
    for count in (1, 2):
        state = _position("santorini", page)
        square = santorini_view.square_name(next(iter(state.legal_actions())))
        _click_pixel(page, *santorini_view.centres(state, 0)[square])
        _expect()(page.locator("#moves textarea")).to_have_value(
            re.compile(rf"{count}\. You: place"))
    _expect()(page.locator("#moves textarea")).to_have_value(re.compile(r"4\. Random: place"))
    _expect()(page.locator("#status")).to_contain_text("Your turn")
    state = _position("santorini", page)
    spots = santorini_view.centres(state, 0)
    turns = [state.decode(a) for a in state.legal_actions()]
    turn = next(t for t in turns if t.build is not None)
    worker, target, build = (santorini_view.square_name(s)
                             for s in (turn.origin, turn.target, turn.build))
    _click_pixel(page, *spots[worker])
    _notice(page, f"{worker} selected")
    _click_pixel(page, *spots[target])
    _notice(page, f"{worker} then {target} selected")
    _shot(page, "play-santorini-selected")
    _click_pixel(page, *spots[build])
    _notice(page, f"Your move: {turn.label()}")
    _expect()(page.locator("#moves textarea")).to_have_value(
        re.compile(rf"5\. You: {re.escape(turn.label())}"))
    _expect()(page.locator("#status")).to_contain_text(re.compile("Your turn|Game over"))
    _shot(page, "play-santorini")


def test_the_leaderboard_tab_shows_the_table_and_plot_and_follows_the_store(page, app):
    page.get_by_role("tab", name="Leaderboard").click()
    table = page.locator("#lb-overall")
    # people's words on screen, the raw entity on hover
    _expect()(table).to_contain_text("MCTS (25 simulations, no time cap)")
    _expect()(table.locator('[title="mcts:25:0s"]')).to_have_text(
        "MCTS (25 simulations, no time cap)")
    _expect()(table).to_contain_text("90% interval")
    assert "mcts:25:0s" not in table.inner_text()
    # nobody has 10 rated matches yet: listed, not ranked; 4 matches rank at a minimum of 4
    _expect()(page.locator("#lb-summary")).to_contain_text("Ranked from 10 rated matches")
    _expect()(table).to_contain_text("beats people (95% interval)")
    _expect()(table.get_by_role("row", name=re.compile(r"^provisional, \d+ more games? needed "))
              ).to_have_count(5)
    page.locator("#lb-min-games input").fill("4")
    page.locator("#lb-min-games input").press("Enter")
    _expect()(page.locator("#lb-summary")).to_contain_text("Ranked from 4 rated matches")
    _expect()(table.get_by_role("row", name=re.compile(r"^1 IS-MCTS"))).to_be_visible()
    _expect()(table.get_by_role("row", name=re.compile(
        r"^provisional, \d+ more games? needed Adaptive"))).to_be_visible()
    _expect()(page.locator("#lb-forest img")).to_be_visible()
    summary = page.locator("#lb-summary")
    _expect()(summary).to_contain_text(re.compile(r"\d+ rated matches"))
    before = int(re.search(r"(\d+) rated matches", summary.inner_text())[1])
    page.wait_for_timeout(500)
    _shot(page, "leaderboard")
    page.get_by_role("tab", name="Per game").click()  # one Guess 2/3 session: no spread,
    # 3 short of the minimum of 4
    _expect()(page.locator("#lb-per-game").get_by_role(
        "row", name=re.compile(r"Guess 2\/3 of the Average provisional, 3 more games needed "
                               r"Random .* too few games"))
    ).to_have_count(1)
    page.get_by_role("tab", name="GAMA-Bench scores").click()
    _expect()(page.locator("#lb-gama")).to_contain_text("Guess 2/3 of the Average")
    # one session: a mean and no spread (the sample SD of one value is undefined)
    _expect()(page.locator("#lb-gama")).to_contain_text(re.compile(r"\d+\.\d ± — \(1\)"))
    _shot(page, "leaderboard-gama")
    with Store(app.store_path) as store:  # a session finished elsewhere: no click here
        run_tournament("nim", ["random", "mcts:25:0s"], matches=1, seed=8, store=store,
                       policy=FailurePolicy(), progress=False)
    started = time.monotonic()
    _expect()(summary).to_contain_text(f"{before + 1} rated matches", timeout=15_000)
    assert time.monotonic() - started < 10
    _expect()(table).to_contain_text("Nim (misère)")  # a column for the new game
    page.locator("#lb-game input").click()
    page.get_by_role("option", name="Kuhn poker", exact=True).click()
    _expect()(summary).to_contain_text("4 rated matches · 1 game ·")
    _expect()(table).not_to_contain_text(re.compile(r"(?<!IS-)MCTS \(25"))  # no tic-tac-toe
