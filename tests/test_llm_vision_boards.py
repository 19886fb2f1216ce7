"""A vision model is sent exactly the PNG a person in its seat sees: the renderer's own board
image (Hive's hex board, a GTBench board), encoded as the page encodes it, through both SDKs.
"""

from __future__ import annotations

import hashlib
import random

import pytest
from gradio.processing_utils import encode_pil_to_bytes

from agents.specs import make_agent, parse_spec
from games.registry import get
from renderers import renderer
from sessions.engine import play_turn
from sessions.match import Match
from sessions.record import SeatRecord
from tests.fake_llm_server import FakeLLM, Reply, Request, answer

LLM_MOVES = 4


@pytest.fixture
def fake(monkeypatch):
    with FakeLLM() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.openai_url)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.delenv("ARENA_OPPONENTS", raising=False)
        yield server


def page_png(game_id: str, state, seat: int) -> bytes:
    """The board a person in ``seat`` is shown, as the page's gr.Image(format="png") encodes
    it (Gradio's own encoder, not ours)."""
    return encode_pil_to_bytes(renderer(game_id).image(state, seat), "png")


@pytest.mark.parametrize("game_id", ["hive", "connect_four"])
@pytest.mark.parametrize("spec", ["openai/gpt-4o-mini", "anthropic/claude-haiku-4-5+cot"])
def test_each_request_holds_the_png_the_person_sees(fake, game_id, spec):
    rng = random.Random(4)

    def respond(request: Request) -> Reply:
        return answer(request, rng.choice(request.legal_moves()), reasoning="Looking.")

    fake.responder = respond
    game = get(game_id)
    parsed = parse_spec(spec)
    assert "vision" in parsed.modes
    match = Match(game_id, [SeatRecord("llm", parsed.text, parsed.entity),
                            SeatRecord("random", "random", "random")], seed=2)
    model = make_agent(parsed, game, match.record.params, seed=1, api_key="sk-test-vision-01")
    other = make_agent("random", game, match.record.params, seed=2)
    seen = []
    while len(seen) < LLM_MOVES and not match.over:
        seat = match.to_move()[0]
        if seat == 0:
            seen.append(page_png(game_id, match.state, 0))
        play_turn(match, seat, model if seat == 0 else other)
    assert len(seen) == LLM_MOVES
    assert [request.images() for request in fake.requests] == [[png] for png in seen]
    assert len(set(seen)) == LLM_MOVES  # the boards differ: each request has its own position
    assert {r.api for r in fake.requests} == {parsed.provider}
    moves = [m for m in match.record.moves if m.seat == 0]
    assert [m.meta["llm"]["image"]["sha256"] for m in moves] == \
        [hashlib.sha256(png).hexdigest() for png in seen]
