"""A language-model opponent in a real browser: pick it, type a key, play, watch it think.

The model is tests/fake_llm_server.py behind the app's real OpenAI SDK. Screenshots of the
thinking panel go to tests/artifacts/ for a person to look at.
"""

from __future__ import annotations

import re
import secrets

import pytest

from agents.llm import load_opponents
from agents.llm.local import missing
from tests.app_server import running_app
from tests.fake_llm_server import FakeLLM, Reply, Request, answer
from tests.test_browser import (
    _answer_consent,
    _choose,
    _click_board,
    _expect,
    _moves,
    _shot,
)
from tests.test_page_reach import closed_port

pytestmark = pytest.mark.browser

THOUGHT = ("The centre is yours, so I look at the corners first. A corner blocks one of your "
           "diagonals and keeps a fork of my own possible later.")
GPT = "GPT-4o mini · language model (needs a key)"
OLLAMA = ("Qwen2.5 7B (Ollama, or the server at ARENA_COMPAT_BASE_URL) · language model "
          "(unavailable)")


@pytest.fixture(scope="module")
def fake():
    with FakeLLM() as server:
        yield server


@pytest.fixture(scope="module")
def app(fake, tmp_path_factory):
    env = {"OPENAI_BASE_URL": fake.openai_url, "ANTHROPIC_BASE_URL": fake.url,
           "OPENAI_API_KEY": None, "ANTHROPIC_API_KEY": None, "ARENA_OPPONENTS": None,
           "ARENA_COMPAT_BASE_URL": f"http://127.0.0.1:{closed_port()}/v1"}  # no Ollama
    with running_app(tmp_path_factory.mktemp("browser-llm"), env=env) as running:
        yield running


@pytest.fixture
def viewport() -> dict[str, int]:
    return {"width": 1280, "height": 1200}  # room for the thinking panel under the board


def slow_thinker(request: Request) -> Reply:
    """Think aloud slowly (about 2.5 s of tokens), then take the last legal move."""
    reply = answer(request, request.legal_moves()[-1], reasoning=THOUGHT)
    reply.piece, reply.gap = 3, 0.05
    return reply


def test_pick_a_model_type_a_key_and_watch_it_think(page, app, fake):
    key = f"sk-proj-{secrets.token_hex(16)}"
    fake.responder = slow_thinker
    _answer_consent(page, name="Watcher")
    _choose(page, "game", "Board games › Tic-tac-toe")
    _choose(page, "opponent", GPT)
    _expect()(page.locator("#key-note")).to_contain_text("needs an API key for OpenAI")
    page.locator("#start").click()
    _expect()(page.locator("#key-note")).to_contain_text("No game started")
    _expect()(page.locator("#board img")).to_have_count(0)
    page.locator("#api-key input").fill(key)
    page.locator("#reasoning-mode").get_by_text("Chain of thought").click()
    page.locator("#start").click()
    _expect()(page.locator("#status")).to_contain_text("Your turn")
    page.locator("#new-game").click()  # the setup, folded away during the game
    _expect()(page.locator("#key-note")).to_contain_text("held for this tab only")
    assert page.locator("#api-key input").input_value() == ""
    page.locator("#back-to-game").click()

    panel = page.locator("#llm-panel")
    for move, cell in enumerate(["C2R2", "C1R1"]):
        count = len(_moves(page))
        _click_board(page, "tic_tac_toe", cell)
        _expect()(panel).to_contain_text("thinking…")
        _expect()(panel).to_contain_text("The centre is yours")
        early = panel.inner_text()
        assert THOUGHT not in early  # part of it: the rest is still being written
        _expect()(page.locator("#status")).to_contain_text("GPT-4o mini (CoT) is thinking")
        if move == 0:
            _shot(page, "llm-thinking")
            free = "C3R3" if cell != "C3R3" else "C3R1"
            _click_board(page, "tic_tac_toe", free)  # while it thinks: answered at once
            _expect()(page.locator("#notice")).to_have_text(
                "One moment: GPT-4o mini (CoT) is still thinking.")
        _expect()(page.locator("#status")).to_contain_text(re.compile("Your turn|Game over"))
        if move == 0:  # the reply is in: the notice no longer says to wait
            _expect()(page.locator("#notice")).to_have_text(
                "GPT-4o mini (CoT) moved; your click while waiting was not played, so play "
                "on from here.")
        _expect()(page.locator("#moves textarea")).to_have_value(
            re.compile(rf"{count + 2}\. GPT-4o mini \(CoT\): C\dR\d"))
        _expect()(panel).to_contain_text(re.compile(r"answered C\dR\d in \d+\.\d s"))
        assert THOUGHT in panel.inner_text().replace("\n", " ")
    _expect()(panel).to_contain_text("This game")
    _shot(page, "llm-after-two-moves")
    asked = [r for r in fake.requests if r.key == key]
    assert len(asked) == 2 and asked[0].headers["authorization"] == f"Bearer {key}"
    assert key[-24:] not in page.content()


def test_a_hidden_card_is_not_shown_while_the_hand_is_played(page, fake):
    fake.responder = lambda request: answer(request, "bet", reasoning="I hold the Jack: a bluff.")
    _choose(page, "game", "Cards, dice and bids › Kuhn poker")
    _choose(page, "opponent", GPT)
    # the picker's answer to the choice (which clears the key field) lands first
    _expect()(page.locator("#key-note")).to_contain_text("needs an API key for OpenAI")
    page.locator("#api-key input").fill(f"sk-proj-{secrets.token_hex(16)}")
    page.locator("#seat").get_by_text("second", exact=True).click()
    page.locator("#start").click()
    panel = page.locator("#llm-panel")
    _expect()(panel).to_contain_text("hidden until the game ends")
    assert "Jack" not in panel.inner_text()
    _shot(page, "llm-kuhn-hidden")
    page.get_by_role("button", name="pass", exact=True).click()  # fold to the bet
    _expect()(page.locator("#status")).to_contain_text("Game over")
    _expect()(panel).to_contain_text("I hold the Jack: a bluff.")


def test_a_model_whose_server_is_not_running_is_not_offered_as_ready(page):
    """The Ollama entry with no Ollama: listed as unavailable with the reason, and Start
    starts nothing (it used to play, fail 12 times and store a rated win)."""
    _choose(page, "game", "Board games › Tic-tac-toe")
    _choose(page, "opponent", OLLAMA)
    note = page.locator("#key-note")
    _expect()(note).to_contain_text("is unavailable: its server at http://127.0.0.1:")
    _expect()(note).to_contain_text("does not answer (connection refused")
    _expect()(note).not_to_contain_text("has a key")
    page.locator("#start").click()
    _expect()(note).to_contain_text("does not answer")
    _expect()(page.locator("#board img")).to_have_count(0)


SMOLLM = load_opponents(env={}).get("smollm2-135m")


@pytest.mark.skipif(missing(SMOLLM) is not None, reason=f"offline model: {missing(SMOLLM)}")
def test_picking_the_offline_model_starts_its_server(page):
    _choose(page, "game", "Board games › Tic-tac-toe")
    _choose(page, "opponent", "SmolLM2 135M (offline, structured answers) · language model")
    note = page.locator("#key-note")
    _expect()(note).to_contain_text("Starting the offline model's server")
    _expect()(page.locator("#api-key")).to_be_hidden()
    _expect()(note).to_contain_text("server is running on this machine", timeout=90_000)
