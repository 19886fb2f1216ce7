"""Arctic Scavengers in a real browser: a whole game against random, played by clicking.

The test plays like a person who looks at the table: it reads the text view ("Board as
text") to know what is asked, finds the highlighted cards (green outline) and the live
buttons (blue) on the image the page shows, and clicks them. It digs in rounds 1 and 3 and
otherwise ends gathering; it passes in a skirmish. Screenshots at 1280 px go to
tests/artifacts/. On a phone (390 px, a touch screen) the page gets the table for narrow
screens, and a round is played by tapping it (screenshots ``play-arctic-phone*``).
"""

from __future__ import annotations

import base64
import io
import re
import time
from urllib.parse import urljoin

import numpy as np
import pytest
from PIL import Image

from renderers import drawing
from renderers.gamebench import arctic_narrow as narrow
from renderers.gamebench import arctic_scavengers as view
from sessions.store import Store
from tests.app_server import running_app
from tests.test_browser import (
    _answer_consent,
    _board_box,
    _click_pixel,
    _expect,
    _moves,
    _shot,
    _start,
)

pytestmark = pytest.mark.browser

REGIONS = view.regions(2)
PHONE_REGIONS = view.regions(2, narrow=True)


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("browser-arctic")) as running:
        yield running


def _shown(page) -> Image.Image:
    """The board image exactly as the page received it."""
    src = page.locator("#board img").get_attribute("src") or ""
    if src.startswith("data:"):
        data = base64.b64decode(src.split(",", 1)[1])
    else:
        data = page.request.get(urljoin(page.url, src)).body()
    return Image.open(io.BytesIO(data)).convert("RGB")


def _lit(image: Image.Image, region: str, colour: tuple[int, int, int], *,
         regions: dict = REGIONS) -> list[tuple[float, float]]:
    """Centres of the things drawn in ``colour`` (a live outline or button) in a region,
    top to bottom, left to right."""
    x0, y0, x1, y1 = (int(v) for v in regions[region])
    pixels = np.asarray(image)[y0:y1, x0:x1].astype(int)
    mask = np.abs(pixels - np.array(colour)).sum(axis=2) <= 30
    seen = np.zeros_like(mask)
    found = []
    for y, x in zip(*np.nonzero(mask), strict=True):
        if seen[y, x]:
            continue
        stack, box = [(y, x)], [x, y, x, y]
        seen[y, x] = True
        while stack:
            cy, cx = stack.pop()
            box = [min(box[0], cx), min(box[1], cy), max(box[2], cx), max(box[3], cy)]
            for ny, nx in ((cy + 1, cx), (cy - 1, cx), (cy, cx + 1), (cy, cx - 1)):
                if 0 <= ny < mask.shape[0] and 0 <= nx < mask.shape[1] and mask[ny, nx] \
                        and not seen[ny, nx]:
                    seen[ny, nx] = True
                    stack.append((ny, nx))
        if box[2] - box[0] > 20 and box[3] - box[1] > 15:  # a card, chip or button, not a dot
            found.append((x0 + (box[0] + box[2]) / 2, y0 + (box[1] + box[3]) / 2))
    return sorted(found, key=lambda c: (round(c[1] / 10), c[0]))


def _gather_button(index: int) -> tuple[float, float]:
    """The centre of one of the five gathering buttons (dig, draw, hunt, trash, end)."""
    x0, y0, x1, y1 = REGIONS["buttons"]
    width = (x1 - x0 - 4 * view.GAP) / 5
    return (x0 + index * (width + view.GAP) + width / 2, (y0 + y1) / 2)


def _phone_gather_button(index: int) -> tuple[float, float]:
    """The centre of a gathering button on the phone table: dig, draw, hunt in a row, then
    trash and end gathering."""
    x0, y0, _, _ = PHONE_REGIONS["buttons"]
    row, column, count = (0, index, 3) if index < 3 else (1, index - 3, 2)
    width = (narrow.INNER - (count - 1) * narrow.GAP) / count
    return (x0 + column * (width + narrow.GAP) + width / 2,
            y0 + row * (narrow.BUTTON_H + narrow.GAP) + narrow.BUTTON_H / 2)


def _text(page) -> str:
    return page.locator("#board-text textarea").input_value()


def _click(page, xy: tuple[float, float], *, tap: bool = False) -> None:
    """Click (or scroll to and ``tap``), then wait until the page shows the move (and the
    agent's reply)."""
    # the list changes with every move (a finished turn folds into one line: not a count)
    listed, before = _moves(page), page.locator("#board img").get_attribute("src")
    if tap:  # bring the spot to the middle of the screen, as a thumb scrolls
        natural, _, _, top, shown, _ = _board_box(page)
        page.evaluate("y => window.scrollBy(0, y - window.innerHeight / 2)",
                      top + xy[1] * shown / natural)
    _click_pixel(page, *xy, tap=tap)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if _moves(page) != listed and (
                page.locator("#board img").get_attribute("src") != before):
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"the click at {xy} played nothing: {page.locator('#notice').inner_text()}")


def _wait_for_my_turn(page) -> str:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        text = _text(page)
        if "Your turn" in text or "Game over" in text:
            return text
        page.wait_for_timeout(50)
    raise AssertionError("the opponent never finished")


def test_a_whole_game_by_clicks_against_random(page, app):
    _answer_consent(page, name="Scavenger")
    _start(page, "Cards, dice and bids › Arctic Scavengers", seat="first")
    page.get_by_text("Board as text").click()
    dug, shots = set(), set()
    for _ in range(400):
        text = _wait_for_my_turn(page)
        if "Game over" in text:
            break
        ask = text.splitlines()[1]
        may = text.rsplit("You may now: ", 1)[1].rstrip(".").split(" | ")
        round_number = int(re.search(r"Round (\d+) of 16", text)[1])
        image = _shown(page)
        if "gather resources" in ask:
            if "dig" in may and round_number in (1, 3) and round_number not in dug:
                dug.add(round_number)
                _click(page, _gather_button(0))
            else:
                if round_number == 3 and "round 3" not in shots:
                    shots.add("round 3")
                    _shot(page, "play-arctic")
                _click(page, _gather_button(4))
        elif "choose cards to dig with" in ask:
            if any(m.startswith("dig with") for m in may):
                if "dig" not in shots:
                    shots.add("dig")
                    _shot(page, "play-arctic-dig")
                _click(page, _lit(image, "buttons", drawing.GRID_BLUE)[0])
            else:
                _click(page, _lit(image, "hand", drawing.TARGET)[0])
        elif "keep a dug-up card" in ask:
            kept = _lit(image, "table", drawing.TARGET)
            _click(page, kept[0] if kept else _lit(image, "buttons", drawing.GRID_BLUE)[0])
        elif "snipe, sabotage or pass" in ask:
            _click(page, _lit(image, "buttons", drawing.GRID_BLUE)[-1])
        else:
            raise AssertionError(f"unexpected question: {ask}")
    status = page.locator("#status")
    _expect()(status).to_contain_text(re.compile(r"Game over: (You won|You lost|Draw)"))
    _shot(page, "play-arctic-end")
    assert dug == {1, 3}
    lines = _moves(page)
    assert not any(" draws " in line or "junkyard gives" in line for line in lines)
    # the bar says who really acted first (the first initiator is drawn)
    first = "first" if lines[0].split(". ", 1)[1].startswith("You:") else "second"
    _expect()(page.locator("#bar-text")).to_contain_text(f"you play {first}")
    # the opponent's turns are one move each: no building steps in the list
    theirs = [line.split(": ", 1)[1] for line in lines if ". Random: " in line]
    assert theirs and not any(t.startswith("add ") or t == "cancel" for t in theirs), theirs
    record = _stored(app)
    assert record.outcome == "normal" and record.seats[0].kind == "human"
    mine = [m for m in record.moves if m.seat == 0]
    assert mine and all(m.meta["input"] == "click" for m in mine)
    assert sum(1 for m in mine if m.label == "end gathering") == 16
    sizes = record.metrics["gamebench"]["tribe_size"]
    verdict = "won" if sizes[0] > sizes[1] else "lost" if sizes[0] < sizes[1] else "drew"
    expected = {"won": "You won", "lost": "You lost", "drew": "Draw"}[verdict]
    assert expected in status.inner_text()


def test_on_a_phone_a_round_is_played_by_tapping_the_one_column_table(phone, app):
    page = phone
    _answer_consent(page, name="Thumb")
    _start(page, "Cards, dice and bids › Arctic Scavengers", seat="first")
    page.get_by_text("Board as text").click()
    natural, tall, _, _, shown, _ = _board_box(page)
    assert (natural, tall) == (narrow.WIDTH, view.height(2, narrow=True))  # the phone table
    assert shown >= 0.9 * 390 - 12  # the width of the screen, not a scaled-down desktop
    played: list[str] = []
    for _ in range(12):
        text = _wait_for_my_turn(page)
        ask = text.splitlines()[1]
        may = text.rsplit("You may now: ", 1)[1].rstrip(".").split(" | ")
        image = _shown(page)
        assert image.size == (narrow.WIDTH, view.height(2, narrow=True))
        if "Round 2 of 16" in text:
            _shot(page, "play-arctic-phone")
            break
        if "gather resources" in ask:
            if "dig" in may and "dig" not in played:
                _click(page, _phone_gather_button(0), tap=True)
                played.append("dig")
            else:
                _click(page, _phone_gather_button(4), tap=True)
                played.append("end gathering")
        elif "choose cards to dig with" in ask:
            lit = (_lit(image, "buttons", drawing.GRID_BLUE, regions=PHONE_REGIONS)
                   if any(m.startswith("dig with") for m in may) else
                   _lit(image, "hand", drawing.TARGET, regions=PHONE_REGIONS))
            _click(page, lit[0], tap=True)  # a card, then the confirmation (before cancel)
            played.append("picked")
        elif "keep a dug-up card" in ask:
            _shot(page, "play-arctic-phone-dig")
            kept = _lit(image, "table", drawing.TARGET, regions=PHONE_REGIONS)
            _click(page, kept[0] if kept else _lit(image, "buttons", drawing.GRID_BLUE,
                                                    regions=PHONE_REGIONS)[0], tap=True)
            played.append("kept")
        else:
            raise AssertionError(f"unexpected question: {ask}")
    assert played[0] == "dig" and "kept" in played and played[-1] == "end gathering", played
    mine = [line.split(": ", 1)[1] for line in _moves(page) if ". You: " in line]
    # the finished turn is one line, without the steps that built it
    assert mine[-1].startswith("dig with ") and mine[-1].endswith("end gathering"), mine
    assert "; keep " in mine[-1] and "add " not in mine[-1], mine


def _stored(running):
    deadline = time.monotonic() + 10
    while True:
        with Store(running.store_path) as store:
            found = [r for r in store.records() if r.game == "arctic_scavengers"
                     and r.seats[0].display_name == "Scavenger"]
        if found or time.monotonic() > deadline:
            assert len(found) == 1
            return found[0]
        time.sleep(0.2)
