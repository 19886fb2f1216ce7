"""Vision models get the board image the person sees, inside the provider request."""

from __future__ import annotations

import hashlib
import io
from dataclasses import replace

import pytest
from PIL import Image, ImageDraw

import renderers.gtbench.tic_tac_toe as tic_renderer
from agents.specs import make_agent
from games import registry
from games.actions import ActionId
from sessions.match import Match
from sessions.record import SeatRecord
from tests.fake_llm_server import FakeLLM

TIC = registry.get("tic_tac_toe")


def board(state, seat, **options):
    """A stand-in for the renderer's image(): a picture that depends on the position."""
    picture = Image.new("RGB", (90, 90), "white")
    pen = ImageDraw.Draw(picture)
    for i, cell in enumerate("".join(tic_renderer.board_rows(state))):
        if cell != ".":
            x, y = 30 * (i % 3), 30 * (i // 3)
            pen.rectangle([x + 5, y + 5, x + 25, y + 25], fill="black" if cell == "x" else "red")
    return picture


def png(picture) -> bytes:
    out = io.BytesIO()
    picture.save(out, format="PNG")
    return out.getvalue()


@pytest.fixture
def fake():
    with FakeLLM() as server:
        yield server


def act(fake: FakeLLM, spec: str):
    env = {"OPENAI_BASE_URL": fake.openai_url, "OPENAI_API_KEY": "sk-test-000000",
           "ANTHROPIC_BASE_URL": fake.url, "ANTHROPIC_API_KEY": "sk-ant-test-000000",
           "ARENA_COMPAT_BASE_URL": fake.openai_url}
    match = Match("tic_tac_toe", [SeatRecord("llm", "x", "x")] * 2, seed=1)
    match.submit(0, _centre(match))
    view = match.view(1)
    agent = make_agent(spec, TIC, TIC.params(), seed=1, env=env)
    return view, agent.act(view)


def _centre(match):
    return ActionId(action=next(m.action for m in match.legal(0) if m.label == "C2R2"))


def _draw_with(monkeypatch, image) -> None:
    """Tic-tac-toe's renderer with ``image`` as its drawing (renderers.renderer_for reads it)."""
    monkeypatch.setattr(tic_renderer, "RENDERER", replace(tic_renderer.RENDERER, image=image))


@pytest.mark.parametrize("spec", ["openai/gpt-4o-mini", "anthropic/claude-haiku-4-5+cot+json"])
def test_a_vision_model_gets_the_seats_board_image(fake, monkeypatch, spec):
    _draw_with(monkeypatch, board)
    view, decision = act(fake, spec)
    [request] = fake.requests
    expected = png(board(view.state, view.seat))
    assert request.images() == [expected]
    assert "The attached image shows the same position" in request.prompt
    image = decision.meta["llm"]["image"]
    assert image == {"sha256": hashlib.sha256(expected).hexdigest(), "bytes": len(expected)}
    if request.api == "anthropic":  # the image block comes before the text
        content = request.body["messages"][0]["content"]
        assert [part["type"] for part in content] == ["image", "text"]
        assert content[0]["source"]["media_type"] == "image/png"
    else:
        content = request.body["messages"][1]["content"]
        assert content[1]["image_url"]["url"].startswith("data:image/png;base64,")


def test_text_only_models_never_get_the_image(fake, monkeypatch):
    _draw_with(monkeypatch, board)
    act(fake, "openai/gpt-4o-mini+novision")
    act(fake, "compat/qwen2.5:7b")
    assert all(request.images() == [] for request in fake.requests)


def test_a_broken_drawing_does_not_cost_the_move(fake, monkeypatch):
    def broken(state, seat, **options):
        raise ValueError("no pen")

    _draw_with(monkeypatch, broken)
    _, decision = act(fake, "openai/gpt-4o-mini")
    assert decision.failure is None
    assert decision.meta["llm"]["image"]["why"] == "the board image failed: ValueError"
