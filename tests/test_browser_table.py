"""GAMA-Bench's tables in a real browser: Playwright driving Debian's chromium, real app.

Short on purpose (the API tests play every game to the end): a few rounds of Guess 2/3 of
the Average with the number field, what a seat that stayed home at El Farol sees, and Pirate
Game's proposal form. Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import re
import time

import pytest

from sessions.store import Store
from tests.app_server import running_app
from tests.test_browser import _answer_consent, _choose, _expect, _shot

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("browser-table")) as running:
        yield running


def _open_table(tab, game: str, *, seat: str, rounds: int | None = None) -> None:
    _choose(tab, "game", f"GAMA-Bench › {game}")
    _expect()(tab.locator("#start-table")).to_be_visible()
    _expect()(tab.locator("#start")).to_be_hidden()  # the one-opponent setup steps aside
    if rounds is not None:
        tab.locator("#table-rounds input").fill(str(rounds))
    _choose(tab, "table-seat", seat)
    tab.locator("#start-table").click()
    _expect()(tab.locator("#table-seats")).to_contain_text(f"{seat}: you")
    _expect()(tab.locator("#status")).to_contain_text("Your turn")


def _row(tab, table: str, name: str | re.Pattern[str]):
    """A row of one of the table panel's data frames, by its cells' text."""
    return tab.locator(f"#{table}").get_by_role("row", name=name)


def _decide(tab, number: str) -> None:
    tab.locator("#decision input").fill(number)
    tab.locator("#decide").click()


def _stored(running, game: str, name: str) -> list:
    deadline = time.monotonic() + 10
    while True:
        with Store(running.store_path) as store:
            found = [r for r in store.records() if r.game == game
                     and any(s.display_name == name for s in r.seats)]
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def test_guess_two_thirds_round_by_round_with_the_number_field(page, app):  # noqa: F811
    _answer_consent(page, name="Table")
    _open_table(page, "Guess 2/3 of the Average", seat="player 4", rounds=3)
    _expect()(page.locator("#table-seats")).to_contain_text("player 0: Equilibrium")
    results, notice = page.locator("#results"), page.locator("#notice")
    _decide(page, "101")
    _expect()(notice).to_contain_text("101 is not allowed: your number: a whole number from "
                                      "0 to 100")
    _expect()(page.locator("#standing")).to_contain_text("Round 1 of 3")
    _expect()(results.get_by_role("row")).to_have_count(1)  # the headers: no round yet
    for round_number, number in enumerate(("30", "20", "10"), 1):
        _decide(page, number)
        _expect()(_row(page, "results", re.compile(rf"^{round_number} {number} "))).to_be_visible()
        if round_number == 2:
            _expect()(page.locator("#standing")).to_contain_text("Round 3 of 3. Your total:")
            _shot(page, "play-guess-2-3")
    _expect()(page.locator("#status")).to_contain_text("Game over: you placed")
    summary = page.locator("#summary")
    _expect()(summary).to_contain_text("GAMA score")
    [record] = _stored(app, "guess_2_3", "Table")
    assert record.outcome == "normal" and record.seats[4].kind == "human"
    mine = [m for m in record.moves if m.seat == 4]
    assert [m.label for m in mine] == ["choose 30", "choose 20", "choose 10"]
    assert [(a.raw, a.reason) for a in mine[0].rejected] == [("101", "illegal")]
    assert {m.meta["input"] for m in mine} == {"number"}
    score = record.metrics["gama"]["seats"][4]["score"]
    _expect()(_row(page, "summary", re.compile(rf"^player 4 you \S+ \d+ {score:.1f}$"))) \
        .to_be_visible()
    _expect()(summary.get_by_role("row")).to_have_count(11)


def test_el_farol_a_seat_that_stayed_home_does_not_see_the_bar(page, app):  # noqa: F811
    _open_table(page, "El Farol Bar", seat="player 2", rounds=2)
    page.get_by_role("button", name="stay", exact=True).click()
    results = page.locator("#results")
    _expect()(_row(page, "results", "1 stay ? ? ? 5")).to_be_visible()
    page.get_by_text("Board as text").click()
    view = page.locator("#board-text textarea").input_value()
    assert "did not learn what happened at the bar" in view
    assert "went to the bar" not in view and "crowded" not in results.inner_text()
    moves = page.locator("#moves textarea").input_value()
    assert moves.splitlines() == ["1. You: stay"]  # nobody else's choice
    page.get_by_role("button", name="go", exact=True).click()  # going: now it learns
    _expect()(_row(page, "results", re.compile(r"^2 go \d+ \d+ (fun|crowded) \d+$"))) \
        .to_be_visible()


def test_pirate_game_proposal_form_then_the_vote(page, app):  # noqa: F811
    _open_table(page, "Pirate Game", seat="pirate 1")
    shares = page.locator("#plan input")
    _expect()(shares).to_have_count(9)
    _shot(page, "play-pirate-proposal")
    for field, value in zip(shares.all(), [60, 60, 0, 0, 0, 0, 0, 0, 0], strict=True):
        field.fill(str(value))
    page.locator("#propose").click()
    _expect()(page.locator("#notice")).to_contain_text(
        "gives away 120 golds; there are 100: nothing was proposed")
    assert "pirate 1" not in page.locator("#results").inner_text()
    for field, value in zip(shares.all(), [0, 1, 0, 1, 0, 1, 0, 1, 0], strict=True):
        field.fill(str(value))
    page.locator("#propose").click()
    _expect()(page.locator("#results")).to_contain_text("96 0 1 0 1 0 1 0 1 0")
    _expect()(page.locator("#status")).to_contain_text("Game over")
