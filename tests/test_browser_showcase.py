"""The showcase in a real browser: with ARENA_SHOWCASE set, a visitor lands on the Watch tab
and sees exhibition games played one after another, without pressing anything."""

from __future__ import annotations

import re

import pytest

from tests.app_server import running_app
from tests.test_browser import _expect, _shot

pytestmark = pytest.mark.browser

SHOWCASE = """delay_seconds = 0.5
pause_seconds = 1
[[pairing]]
game = "connect_four"
seats = ["mcts:200:1s", "random"]
[[pairing]]
game = "nim"
seats = ["random", "mcts:200:1s"]
"""


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    folder = tmp_path_factory.mktemp("browser-showcase")
    (folder / "showcase.toml").write_text(SHOWCASE)
    env = {"ARENA_SHOWCASE": str(folder / "showcase.toml"), "OPENAI_API_KEY": None,
           "ANTHROPIC_API_KEY": None, "ARENA_OPPONENTS": None}
    with running_app(folder, env=env) as running:
        yield running


def test_a_visitor_lands_on_exhibition_games_one_after_another(page, app):
    _expect()(page.get_by_role("tab", name="Watch")).to_have_attribute("aria-selected", "true")
    _expect()(page.locator("#watch-status")).to_contain_text("Exhibition game")
    _expect()(page.locator("#watch-title")).to_contain_text(
        re.compile(r"Connect Four: MCTS.* vs Random", re.IGNORECASE))
    _expect()(page.locator("#watch-pause")).to_be_hidden()  # a visitor controls nothing
    _shot(page, "showcase-desktop")
    _expect()(page.locator("#watch-title")).to_contain_text(
        re.compile(r"Nim.*: Random.* vs MCTS", re.IGNORECASE), timeout=60_000)  # by itself
    _expect()(page.locator("#watch-moves textarea")).to_have_value(re.compile(r"1\. Random \(\w+\): "))
