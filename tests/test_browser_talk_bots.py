"""A talk game in a real browser against the strategy bots: a person at a table of Are You
the Traitor? with four bots (the default, strongest level). The bots' table talk must read as
sentences about the game (not canned lines, not a card shown against their side), and the
game is played to the end and stored with the bots' specs.
"""

from __future__ import annotations

import re

import pytest

from sessions.store import Store
from tests.app_server import running_app
from tests.test_browser import _choose, _expect, _shot
from tests.test_browser_talk import _button, _open_table, _over, _say, _then_wait

pytestmark = pytest.mark.browser
SPOKEN = re.compile(r"^player (\d+) (says|asks|answers|accuses)[^:]*: (?:\(to player \d+\) )?(.+)$")


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("browser-talk-bots")) as running:
        yield running


def _bot_lines(log_text: str) -> list[str]:
    lines = []
    for line in log_text.splitlines():
        found = SPOKEN.match(line.strip())
        if found and found.group(1) != "1":
            lines.append(found.group(3).strip())
    return lines


def test_the_traitor_bots_talk_in_sentences_about_the_game(page, app):
    # a fresh app's first table setup can take a while on a loaded machine
    _choose(page, "game", "Word and social games › Are You the Traitor?")
    _expect()(page.locator("#start-talk")).to_be_visible(timeout=60_000)
    _open_table(page, "Are You the Traitor?", "player 1", players=5)
    seats = page.locator("#talk-seats").inner_text()
    assert "Strategy bot" in seats, seats  # the strongest level is the default agent
    asked = False
    for _ in range(200):
        if _over(page):
            break
        view = page.locator("#board-text textarea").input_value()
        if "Your turn: answer" in view:
            _then_wait(page, lambda: _say(page, "answer: I am on the good side, I guard the key."))
        elif not asked:
            _then_wait(page, lambda: _say(page, "ask player 2: Which side are you on, and why?"))
            asked = True
        elif _button(page, "pass").is_visible():
            _then_wait(page, lambda: _button(page, "pass").click())
        else:
            choices = page.get_by_role("button", name=re.compile(r"^(vote|accuse|guess)"))
            assert choices.count(), view[-400:]
            _then_wait(page, choices.first.click)
    assert _over(page)
    _shot(page, "play-traitor-bots")
    said = _bot_lines(page.locator("#talk-log").inner_text())
    assert len(said) >= 3, said
    assert len(set(said)) >= min(3, len(said)), said  # not one canned line
    for words in said:
        assert words[0].isupper() and words[-1] in ".?!", words
        assert len(words) <= 280
    about = re.compile(r"player \d|traitor|good|evil|key|guard|side|card|role|trust|vote",
                       re.IGNORECASE)
    assert sum(bool(about.search(w)) for w in said) >= len(said) / 2, said
    [record] = [r for r in Store(app.store_path).records() if r.game == "are_you_the_traitor"]
    assert record.outcome == "normal"
    assert [s.kind for s in record.seats[1:]] == ["bot"] * 4
    evil = [i for i, s in enumerate(record.seats) if s.team == "evil" and s.kind == "bot"]
    for move in record.moves:  # an evil bot never owns up to its side at the table
        if move.seat in evil and move.text:
            assert not re.search(r"\bI am (the )?traitor\b|\bI'm (the )?traitor\b|"
                                 r"\bI am (on the )?evil\b", move.text, re.IGNORECASE), move.text
