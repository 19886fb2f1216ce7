"""The page sends the move number it showed with every input (issue 14, item 5): a click
made on a position that has moved on since is refused by ``PlaySession`` (tests/test_play.py,
tests/test_app_hostile.py); here, that the browser really sends it, and that a quick second
click is played only if it was made on the position after the opponent's reply (a click
that lands while the board image is being replaced may never leave the browser; then too
nothing but the first move is played)."""

from __future__ import annotations

import json
import re

import pytest

from games.registry import get
from renderers import renderer
from tests.app_server import running_app
from tests.test_browser import _click_pixel, _expect, _moves, _start

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("browser-stale")) as running:
        yield running


def test_clicks_carry_the_move_number_shown_and_a_quick_second_click_is_not_played(page):
    sent = []
    page.on("request", lambda r: sent.append(r.post_data) if r.method == "POST"
            and "queue/join" in r.url else None)
    _start(page, "Board games › Tic-tac-toe")
    spec = get("tic_tac_toe")
    at = renderer("tic_tac_toe").centres(spec.load(spec.params()).new_initial_state(), 0)
    page.wait_for_function("() => document.querySelector('#board img')?.naturalWidth > 0")
    _click_pixel(page, *at["C1R1"])
    _click_pixel(page, *at["C3R3"])  # sent before the page shows the opponent's reply
    _expect()(page.locator("#moves textarea")).to_have_value(re.compile(r"2\. Random: "))
    _expect()(page.locator("#status")).to_contain_text("Your turn")
    page.wait_for_timeout(1500)  # let the second click land, whenever it does
    mine = [m.split(". ", 1)[1] for m in _moves(page) if m.split(". ", 1)[1].startswith("You:")]
    posted = [json.loads(body) for body in sent if body and '"index"' in body]
    clicks = [b for b in posted  # the board's clicks (a point), not the tabs' select events
              if isinstance((b.get("event_data") or {}).get("index"), list)]
    assert clicks and clicks[0]["data"][-1] == 1  # the first click: move 1 shown
    if len(clicks) == 1:  # the second click fell on the board while it was being redrawn
        assert mine == ["You: C1R1"]  # the page said so on the board (test_browser_page)
    elif clicks[1]["data"][-1] == 3:  # the page already showed the reply: a fair move
        assert mine in (["You: C1R1"], ["You: C1R1", "You: C3R3"])
    else:  # sent for a position that moved on: never played
        assert clicks[1]["data"][-1] in (1, 2) and mine == ["You: C1R1"]
