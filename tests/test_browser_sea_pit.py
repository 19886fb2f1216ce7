"""Sea Battle and Pit in a real browser (Playwright + Debian chromium, the real app): a whole
game of each by clicking the drawn table against random agents, desktop and phone
screenshots in tests/artifacts/.

The test reads the position from the page's own "Board as text" view (what a screen reader
gets), rebuilds it, picks its orders or trades there and clicks them at the renderer's
centres, scaled as the browser shows the image.
"""

from __future__ import annotations

import re
import time

import numpy as np
import pytest

from games.gamebench import sea_battle_rules as rules
from games.registry import get
from renderers.gamebench import sea_battle as sea_view
from sessions.store import Store
from tests.app_server import running_app
from tests.test_browser import _answer_consent, _click_pixel, _expect, _moves, _shot, _start

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("sea-pit")) as running:
        yield running


def _view(page) -> str:
    return page.locator("#board-text textarea").input_value()


def _stored(running, game: str, name: str) -> list:
    deadline = time.monotonic() + 10
    while True:
        with Store(running.store_path) as store:
            found = [r for r in store.records() if r.game == game
                     and any(s.display_name == name for s in r.seats)]
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


# --- Sea Battle ------------------------------------------------------------------------------

_SHIP = re.compile(r"^\s*(Red|Blue) (\d) at \((\d+), (\d+)\) facing (\w+).*damage (\d+) of")
_SUNK = re.compile(r"^\s*(Red|Blue) (\d): sunk")


def sea_from_view(view: str, max_turns: int = 100) -> rules.SeaBattleState:
    """The position a seat's text view describes: its inner rocks and every ship."""
    rocks = re.search(r"inner rocks at (.*)\.$", view, re.MULTILINE)
    pairs = re.findall(r"\((\d+), (\d+)\)", rocks.group(1)) if rocks else []
    spec = get("sea_battle")
    params = {**spec.params(), "max_turns": max_turns,
              "rocks": "; ".join(f"{x} {y}" for x, y in pairs), "inner_rocks": 0}
    state = spec.load(params).new_initial_state()
    ships: dict[str, tuple[int, int, str, int] | None] = {}
    for line in view.splitlines():
        found, sunk = _SHIP.match(line), _SUNK.match(line)
        if found:
            team, number, x, y, heading, damage = found.groups()
            ships[f"{team[0]}{number}"] = (int(x), int(y), heading, int(damage))
        elif sunk:
            ships[f"{sunk.group(1)[0]}{sunk.group(2)}"] = None
    state.set_position(ships)
    return state


def sinking_orders(state: rules.SeaBattleState, seat: int) -> int:
    """The joint action that hurts the seat's own fleet most this turn (the other fleet
    staying), ties broken towards the nearest rock: a short game, whoever wins it."""
    rocks = [(x, y) for x in range(rules.SIZE) for y in range(rules.SIZE)
             if state.get_game().is_rock((x, y))]
    stay = rules.joint([rules.NO_ORDER if not s.afloat else 6 for s in state.fleet(1 - seat)])
    best, chosen = None, 0
    for action in state.legal_actions(seat):
        child = state.clone()
        child.apply_actions([action, stay] if seat == 0 else [stay, action])
        hurt = state.hull(seat) - child.hull(seat) + 10 * (len(state.afloat(seat))
                                                          - len(child.afloat(seat)))
        near = sum(min(abs(s.x - x) + abs(s.y - y) for x, y in rocks)
                   for s in child.afloat(seat))
        score = (hurt, -near)
        if best is None or score > best:
            best, chosen = score, action
    return chosen


def test_sea_battle_a_whole_game_by_clicking_orders(page, app):
    _answer_consent(page, name="Admiral")
    _start(page, "Board games › Sea Battle", seat="second")
    _expect()(page.locator("#status")).to_contain_text("Your turn")
    page.get_by_text("Board as text").click()
    turns = 0
    while "Game over" not in page.locator("#status").inner_text():
        state = sea_from_view(_view(page))
        action = sinking_orders(state, 1)
        path = get("sea_battle").grammar.path(state, 1, action)
        centres = sea_view.centres(state, 1)
        count = len(_moves(page))
        for i, step in enumerate(path):
            _click_pixel(page, *centres[step])
            if i < len(path) - 1:
                _expect()(page.locator("#notice")).to_contain_text(f"{step} selected")
                if turns == 0 and i == 0:
                    _shot(page, "play-sea-battle-selected")
        _expect()(page.locator("#moves textarea")).to_have_value(re.compile(  # seat order
            rf"{count + 1}\. Random: .*\n{count + 2}\. You: {re.escape(state.label(1, action))}"))
        _expect()(page.locator("#status")).to_contain_text(re.compile("Your turn|Game over"))
        turns += 1
        assert turns <= 60, "the game should sink a fleet long before the turn cap"
        if turns == 2:
            _shot(page, "play-sea-battle")
    status = page.locator("#status").inner_text()
    assert re.search(r"Game over: (You won|You lost|Draw)\.", status)
    _shot(page, "play-sea-battle-end")
    [record] = _stored(app, "sea_battle", "Admiral")
    assert record.outcome == "normal" and record.seats[1].kind == "human"
    assert record.metrics["sea_battle"]["ended_by"] == "fleet sunk"
    mine = [m for m in record.moves if m.seat == 1]
    assert len(mine) == turns and all(m.meta["input"] == "click" for m in mine)


def test_sea_battle_on_a_phone(browser, app):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    tab = context.new_page()
    tab.set_default_timeout(20_000)
    tab.goto(app.url)
    _start(tab, "Board games › Sea Battle")
    tab.get_by_text("Board as text").click()
    state = sea_from_view(_view(tab))
    first = sea_view.centres(state, 0)["ship 1: forward, shoot right"]
    _click_pixel(tab, *first)
    _expect()(tab.locator("#notice")).to_contain_text("ship 1: forward, shoot right selected")
    image = tab.locator("#board img").bounding_box()
    assert image["width"] <= 390
    assert image["width"] / sea_view.WIDTH * sea_view.BUTTON_H >= 24  # a button stays tappable
    tab.locator("#board img").scroll_into_view_if_needed()
    tab.screenshot(path="tests/artifacts/play-sea-battle-phone.png", full_page=True)
    context.close()


def test_sea_from_view_rebuilds_the_position():
    """The test's own reader of the text view, checked against a real position."""
    spec = get("sea_battle")
    state = spec.load({**spec.params(), "layout_seed": 4}).new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(8):
        state.apply_actions([int(rng.choice(state.legal_actions(p))) for p in (0, 1)])
    from renderers import text_view

    rebuilt = sea_from_view(text_view("sea_battle", state, 0))
    assert str(rebuilt).split(": ", 1)[1] == str(state).split(": ", 1)[1]
    assert rebuilt.get_game().rocks == state.get_game().rocks
