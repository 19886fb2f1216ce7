"""Sea Battle and Pit in a real browser (Playwright + Debian chromium, the real app): a whole
game of each by clicking the drawn table against random agents, desktop and phone
screenshots in tests/artifacts/.

The test reads the position from the page's own "Board as text" view (what a screen reader
gets), rebuilds it, picks its orders or trades there and clicks them at the renderer's
centres, scaled as the browser shows the image.
"""

from __future__ import annotations

import itertools
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


def _click(page, x: float, y: float) -> None:
    """Click pixel (x, y) of the board image after scrolling it to the middle of the window
    (the text view below the board can scroll the page)."""
    page.locator("#board img").evaluate(
        """(img, y) => { const box = img.getBoundingClientRect();
                         const scale = box.width / (img.naturalWidth || box.width);
                         window.scrollBy(0, box.top + y * scale - window.innerHeight / 2); }""",
        y)
    _click_pixel(page, x, y)


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


def _stay(state: rules.SeaBattleState, seat: int, orders: list[int] | None = None) -> int:
    """``seat``'s joint action: ``orders`` by ship (stay, fire left by default), none for the
    sunk."""
    digits = orders or [6] * rules.SHIPS
    return rules.joint([d if ship.afloat else rules.NO_ORDER
                        for ship, d in zip(state.fleet(seat), digits, strict=True)])


def sinking_orders(state: rules.SeaBattleState, seat: int) -> int:
    """Orders that wreck the seat's own ships fast (a short game, whoever wins it): for each
    ship, the first of the two turns of orders that hurt it most, the others staying, ties
    broken towards the nearest rock."""
    game = state.get_game()
    rocks = [(x, y) for x in range(rules.SIZE) for y in range(rules.SIZE) if game.is_rock((x, y))]
    chosen = [6] * rules.SHIPS
    for k, ship in enumerate(state.fleet(seat)):
        if not ship.afloat:
            continue
        best = None
        for first, second in itertools.product(range(8), repeat=2):
            child = state.clone()
            for order in (first, second):
                if child.is_terminal() or not child.fleet(seat)[k].afloat:
                    break
                mine = [order if i == k else 6 for i in range(rules.SHIPS)]
                joint = [_stay(child, seat, mine), _stay(child, 1 - seat)]
                child.apply_actions(joint if seat == 0 else joint[::-1])
            after = child.fleet(seat)[k]
            hurt = (after.damage if after.afloat else rules.HULL) - ship.damage
            near = min(abs(after.x - x) + abs(after.y - y) for x, y in rocks) \
                if after.afloat else 0
            if best is None or (hurt, -near) > best:
                best, chosen[k] = (hurt, -near), first
    return _stay(state, seat, chosen)


def test_sea_battle_a_whole_game_by_clicking_orders(page, app):
    _answer_consent(page, name="Admiral")
    _start(page, "Board games › Sea Battle", seat="second")
    _expect()(page.locator("#status")).to_contain_text("Your turn")
    # one name per side everywhere: the fleet's colour (left and right are where guns fire)
    bar = page.locator("#bar-text").inner_text()
    assert "you play Blue" in bar and not re.search(r"\b(left|right|first|second)\b", bar), bar
    _expect()(page.locator("#players")).to_contain_text("You (Blue)")
    assert not re.search(r"\b(left|right)\b", page.locator("#players").inner_text())
    page.get_by_text("Board as text").click()
    turns = 0
    while "Game over" not in page.locator("#status").inner_text():
        state = sea_from_view(_view(page))
        action = sinking_orders(state, 1)
        path = get("sea_battle").grammar.path(state, 1, action)
        centres = sea_view.centres(state, 1)
        count = len(_moves(page))
        for i, step in enumerate(path):
            _click(page, *centres[step])
            if i < len(path) - 1:
                _expect()(page.locator("#notice")).to_contain_text(step)
                _expect()(page.locator("#notice")).to_contain_text(  # the next ship's order
                    re.compile(r"Now pick ship \d's order"))
                assert "highlighted spot" not in page.locator("#notice").inner_text()
                if turns == 0 and i == 0:
                    _shot(page, "play-sea-battle-selected")
        _expect()(page.locator("#moves textarea")).to_have_value(re.compile(  # seat order
            rf"{count + 1}\. Random: .*\n{count + 2}\. You: {re.escape(state.label(1, action))}"))
        _expect()(page.locator("#status")).to_contain_text(re.compile("Your turn|Game over"))
        turns += 1
        assert turns <= 100  # the game's own turn cap
        if turns == 2:
            page.wait_for_timeout(800)  # the new board image arrives just after the text
            _shot(page, "play-sea-battle")
    status = page.locator("#status").inner_text()
    assert re.search(r"Game over: (You won|You lost|Draw)\.", status)
    _shot(page, "play-sea-battle-end")
    [record] = _stored(app, "sea_battle", "Admiral")
    assert record.outcome == "normal" and record.seats[1].kind == "human"
    assert record.metrics["sea_battle"]["turns"] == turns
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
    _click(tab, *first)
    _expect()(tab.locator("#notice")).to_contain_text(
        "ship 1: forward, shoot right. Now pick ship 2's order")
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


# --- Pit -------------------------------------------------------------------------------------

def _hand(view: str) -> dict[str, int]:
    """The seat's cards, from its text view (``4 Wheat, 2 Barley, Bull``)."""
    line = re.search(r"^Your hand \(\d+ cards\): (.*)\.$", view, re.MULTILINE).group(1)
    cards: dict[str, int] = {}
    for part in line.split(", "):
        count, _, name = part.partition(" ")
        if name:
            cards[name] = int(count)
        else:
            cards[count] = 1
    return cards


def _pit_move(view: str) -> tuple[list[str], str]:
    """A move to click: accept the first offer the seat can pay with one commodity, else
    offer one card of its smallest commodity; returns the click path and the label."""
    hand = _hand(view)
    mine = re.search(r"^Your offer on the table: (\d) (\w+)", view, re.MULTILINE)
    if mine:
        hand[mine.group(2)] -= int(mine.group(1))  # set aside
    commodities = sorted((n, name) for name, n in hand.items()
                         if name not in ("Bull", "Bear") and n)
    for seat, size in re.findall(r"player (\d) offers (\d) card", view):
        for n, name in commodities:
            if n >= int(size):
                return ([f"player {seat}'s offer", f"{size} {name}"],
                        f"accept player {seat}'s offer of {size}, giving {size} {name}")
    n, name = next((n, c) for n, c in commodities if not mine or f"1 {c}" != mine.group(0)[-len(c) - 2:])
    return [f"1 {name}", "make the offer"], f"offer 1 {name}"


def _pit_click(page, target: str) -> None:
    from renderers.gamebench import pit as pit_view

    layout = pit_view.Layout(4, True)
    names = {"make the offer": layout.button("make the offer"), "pass": layout.button("pass")}
    found = re.fullmatch(r"player (\d)'s offer", target)
    if target in names:
        box = names[target]
    elif found:
        box = layout.offer_tag(int(found.group(1)) - 1)
    else:
        count, name = target.split(" ")
        card = [c[0] for c in rules_commodities()].index(name)
        box = layout.chip(card, int(count))
    _click(page, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def rules_commodities():
    from games.gamebench.pit_rules import COMMODITIES

    return COMMODITIES


def test_pit_a_whole_game_by_clicking_the_table(page, app):
    _answer_consent(page, name="Trader")
    _start(page, "Cards, dice and bids › Pit", seat="first")
    page.get_by_text("Board as text").click()
    traded = turns = 0
    while "Game over" not in page.locator("#status").inner_text():
        _expect()(page.locator("#status")).to_contain_text("Your turn")
        view = _view(page)
        count = len(_moves(page))
        if turns < 6:
            path, label = _pit_move(view)
            for i, step in enumerate(path):
                _pit_click(page, step)
                if i < len(path) - 1:
                    _expect()(page.locator("#notice")).to_contain_text(f"{step} selected")
                    if step.endswith("'s offer"):
                        _shot(page, "play-pit-selected")
            traded += label.startswith("accept")
        else:
            label = "pass"
            _pit_click(page, "pass")
        _expect()(page.locator("#moves textarea")).to_have_value(
            re.compile(rf"^{count + 1}\. You: {re.escape(label)}$", re.MULTILINE))
        _expect()(page.locator("#status")).to_contain_text(re.compile("Your turn|Game over"))
        turns += 1
        if turns == 3:
            page.wait_for_timeout(800)
            _shot(page, "play-pit")
        assert turns <= 100
    assert traded, "no offer on the table could be accepted in six turns"
    status = page.locator("#status").inner_text()
    assert re.search(r"Game over: you placed \d(st|nd|rd|th) of 4", status), status
    _shot(page, "play-pit-end")
    [record] = _stored(app, "pit", "Trader")
    assert record.outcome == "normal" and record.seats[0].kind == "human"
    assert record.metrics["pit"]["ended_by"] in ("turn cap", "target")
    assert record.returns == [float(p) for p in record.metrics["pit"]["points"]]
    mine = [m for m in record.moves if m.seat == 0]
    assert len(mine) == turns and all(m.meta["input"] == "click" for m in mine)
    moves = page.locator("#moves textarea").input_value()
    assert "player 2 (Random): " in moves  # the others' moves are shown once the game is over


def test_pit_on_a_phone(browser, app):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    tab = context.new_page()
    tab.set_default_timeout(20_000)
    tab.goto(app.url)
    _start(tab, "Cards, dice and bids › Pit", seat="second")
    tab.get_by_text("Board as text").click()
    path, _ = _pit_move(_view(tab))
    _pit_click(tab, path[0])
    _expect()(tab.locator("#notice")).to_contain_text(f"{path[0]} selected")
    tab.locator("#board img").scroll_into_view_if_needed()
    tab.screenshot(path="tests/artifacts/play-pit-phone.png", full_page=True)
    context.close()
