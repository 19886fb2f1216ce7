"""Air, Land & Sea in a real browser (Playwright + Debian chromium): a whole war against
random, played by clicking the table image like a person, and the start of one on a phone
(390 px), tapping the table drawn for narrow screens.

The test knows only what the page shows the person: it reads the table off "Board as text"
(hand, theaters, stacks) to find where things are drawn, and the move buttons when an ability
asks for a choice. Screenshots (1280 px and 390 px wide) go to tests/artifacts/.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from games.gamebench.air_land_sea_cards import BY_NAME, SEATS, THEATERS
from renderers.gamebench import air_land_sea as view
from tests.app_server import running_app
from tests.test_browser import _answer_consent, _click_pixel, _expect, _moves, _shot, _start

pytestmark = pytest.mark.browser
GAME = "Cards, dice and bids › Air, Land & Sea"


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("browser-als")) as running:
        yield running


# --- reading the table off the text view ------------------------------------------------------


def _top_level(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside parentheses (card texts hold some)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i])
            start = i + len(sep)
    return [*parts, text[start:]]


def _card(item: str) -> int | None:
    item = item.strip()
    if item.startswith("a face-down card"):
        return None
    name = item.removeprefix("face-down ").split(" (")[0]
    return BY_NAME[name.lower()].id


def seen_table(text: str) -> tuple[int, tuple[int, ...], view.Seen, tuple[int, ...]]:
    """(seat, row order, stacks, hand with a drawn card) as the text view tells them."""
    seat = SEATS.index(re.search(r"You are (\w+);", text)[1])
    order = tuple(THEATERS.index(t) for t in
                  re.search(r"Theaters from left to right: (\w+), (\w+), (\w+) ", text).groups())
    stacks: list[list[tuple[int | None, ...]]] = [[(), (), ()], [(), (), ()]]
    for theater in order:
        block = re.search(rf"^{THEATERS[theater]}: .*\n(.*)\n(.*)$", text, re.M)
        for line in block.groups():
            owner = SEATS.index(re.match(r"\s*(\w+)", line)[1])
            listed = line.split(": ", 1)[1]
            items = [] if listed == "no cards" else _top_level(listed, ", ")
            stacks[owner][theater] = tuple(_card(item) for item in items)
    hand_line = re.search(r"^Your hand: (.*)\.$", text, re.M)[1]
    hand = [] if hand_line == "empty" else [_card(part) for part in _top_level(hand_line, "; ")]
    drawn = re.search(r"^You drew \(Reinforce, to play face-down now\): (.*?) \(", text, re.M)
    if drawn:
        hand.append(BY_NAME[drawn[1].lower()].id)
    return seat, order, tuple(tuple(side) for side in stacks), tuple(hand)  # type: ignore[return-value]


def path_of(label: str) -> tuple[str, ...]:
    """What a person clicks for a move button's label."""
    if label in ("withdraw",) or label.startswith("skip"):
        return ("withdraw",) if label == "withdraw" else ("skip",)
    if played := re.fullmatch(r"play (.+) (face-up|face-down) to (\w+)", label):
        return (played[1], f"{played[3]} {played[2]}")
    if flipped := re.fullmatch(r"flip (?:face-down )?(.+) \((\w+)\)", label):
        name = flipped[1]
        if name.endswith("'s face-down card"):
            return (f"{name} ({flipped[2]})",)
        return (name,)
    if moved := re.fullmatch(r"move (?:face-down )?(.+) from \w+ to (\w+)", label):
        return (moved[1], moved[2])
    returned = re.fullmatch(r"return face-down (.+) from \w+ to hand", label)
    assert returned, label
    return (returned[1],)


def _board_text(page) -> str:
    return page.locator("#board-text textarea").input_value()


def _buttons(page) -> list[str]:
    return [b.inner_text() for b in page.locator("#moves-buttons button:visible").all()]


def _my_move(page, rng) -> tuple[str, ...]:
    """A move as a person picks one: a listed choice when an ability asks, else a hand card
    played face-down anywhere or face-up to its own theater."""
    choices = _buttons(page)
    if choices:
        return path_of(choices[int(rng.integers(len(choices)))])
    _, _, _, hand = seen_table(_board_text(page))
    card = hand[int(rng.integers(len(hand)))]
    name = view.CARDS[card].name
    if rng.random() < 0.5:
        return (name, f"{THEATERS[view.CARDS[card].theater]} face-up")
    return (name, f"{THEATERS[int(rng.integers(3))]} face-down")


def _click_target(page, target: str, *, narrow: bool = False) -> None:
    """Click ``target`` where the table shows it (scrolled into view first, as a person
    would: the table is taller than the part of the page under the fold), and wait for the
    page to answer; ``narrow``: tap it on the table drawn for a phone."""
    seat, order, stacks, hand = seen_table(_board_text(page))
    if narrow:
        spots = view.narrow_layout(seat, order, stacks, hand).spots
    else:
        spots = view.layout(seat, order, stacks, hand)
    x0, y0, x1, y1 = {name: box for box, name in spots}[target]
    if narrow:  # the phone's table is taller than the screen: the target to its middle
        page.locator("#board img").evaluate(
            """(img, y) => {
                const box = img.getBoundingClientRect();
                const scale = box.width / img.naturalWidth;
                window.scrollBy(0, box.top + y * scale - window.innerHeight / 2);
            }""", (y0 + y1) / 2)
    else:
        page.locator("#board img").evaluate("img => img.scrollIntoView({block: 'start'})")
    notice = page.locator("#notice")
    before = notice.inner_text()
    _click_pixel(page, (x0 + x1) / 2, (y0 + y1) / 2, tap=narrow)
    _expect()(notice).not_to_have_text(before)


def _listed(page, before: int) -> None:
    """Wait until the person's move is listed next, numbered after the ``before`` moves listed
    so far (the opponent's as the rules tell them: "play a card face-down to Air"); when the
    war ends every move is listed whole and numbered anew."""
    try:
        page.wait_for_function(
            """n => new RegExp(`(^|\\n)${n}\\. You: `).test(
                       document.querySelector('#moves textarea').value)
                   || document.querySelector('#status').innerText.includes('Game over')""",
            arg=before + 1, timeout=10_000)
    except Exception as err:  # say what the page showed instead
        raise AssertionError(
            f"move {before + 1} was not listed: notice {page.locator('#notice').inner_text()!r}, "
            f"status {page.locator('#status').inner_text()!r}, moves {_moves(page)[-3:]}") from err


def test_a_whole_war_by_clicking_the_table(page, app):
    _answer_consent(page)
    _start(page, GAME, seat="first")
    page.get_by_text("Board as text").click()
    rng = np.random.default_rng(11)
    status = page.locator("#status")
    played = 0
    shots = {"selected": False, "table": False}
    while True:
        _expect()(status).to_contain_text(re.compile("Your turn|Game over"), timeout=30_000)
        if "Game over" in status.inner_text():
            break
        before = len(_moves(page))
        path = _my_move(page, rng)
        for i, target in enumerate(path):
            _click_target(page, target)
            if i < len(path) - 1:
                _expect()(page.locator("#notice")).to_contain_text(f"{target} selected")
                if not shots["selected"] and played >= 2:
                    _shot(page, "play-air-land-sea-selected")
                    shots["selected"] = True
        _listed(page, before)
        played += 1
        if played == 6 and not shots["table"]:
            _expect()(status).to_contain_text(re.compile("Your turn|Game over"), timeout=30_000)
            _shot(page, "play-air-land-sea")
            shots["table"] = True
        assert played < 200
    assert played > 5
    text = status.inner_text()
    assert re.search(r"Game over: (You won|You lost)\.", text), text
    assert "Game over" in _board_text(page) or "won the war" in _board_text(page)
    own = [line for line in _moves(page) if ": You: " in line or re.match(r"\d+\. You: ", line)]
    assert len(own) == played
    _shot(page, "play-air-land-sea-over")


def test_on_a_phone_the_table_is_drawn_for_it_and_played_by_tapping(phone):
    _answer_consent(phone, name="Thumbs")
    _start(phone, GAME, seat="second")
    board = phone.locator("#board img")
    shown = board.bounding_box()
    natural = board.evaluate("img => [img.naturalWidth, img.naturalHeight]")
    assert natural[0] == view.N_WIDTH and natural[1] > natural[0]  # the phone's layout
    assert shown["width"] >= 0.9 * 390 and shown["width"] <= natural[0]  # fills the width
    phone.get_by_text("Board as text").click()
    rng = np.random.default_rng(5)
    status = phone.locator("#status")
    played = 0
    while played < 4:
        _expect()(status).to_contain_text(re.compile("Your turn|Game over"), timeout=30_000)
        if "Game over" in status.inner_text():
            break
        before = len(_moves(phone))
        path = _my_move(phone, rng)
        for i, target in enumerate(path):
            _click_target(phone, target, narrow=True)
            if i < len(path) - 1:
                _expect()(phone.locator("#notice")).to_contain_text(f"{target} selected")
        _listed(phone, before)
        played += 1
    _expect()(status).to_contain_text(re.compile("Your turn|Game over"), timeout=30_000)
    own = [line for line in _moves(phone) if re.match(r"\d+\. You: ", line)]
    assert played >= 2 and len(own) == played
    phone.evaluate("() => window.scrollTo(0, 0)")
    _shot(phone, "play-air-land-sea-phone")
