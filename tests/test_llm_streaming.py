"""Watching a model think: events stream tokens as they arrive, per sample, per retry."""

from __future__ import annotations

import threading
import time

import pytest

from agents.specs import make_agent
from games import registry
from sessions.match import Match
from sessions.record import SeatRecord
from tests.fake_llm_server import FakeLLM, Reply

TIC = registry.get("tic_tac_toe")


@pytest.fixture
def fake():
    with FakeLLM() as server:
        yield server


def agent_for(fake: FakeLLM, spec: str, events: list, **options):
    env = {"OPENAI_BASE_URL": fake.openai_url, "OPENAI_API_KEY": "sk-test-000000",
           "ANTHROPIC_BASE_URL": fake.url, "ANTHROPIC_API_KEY": "sk-ant-test-000000"}

    def record(event):
        events.append((time.monotonic(), event))

    return make_agent(spec, TIC, TIC.params(), seed=5, env=env, on_event=record, **options)


def first_view():
    return Match("tic_tac_toe", [SeatRecord("llm", "x", "x")] * 2, seed=1).view(0)


def streamed(events, stream, channel="answer"):
    """The text of ``stream`` as a panel would show it (cleared on restart)."""
    text = ""
    for _, event in events:
        if event.stream != stream:
            continue
        if event.kind == "restart":
            text = ""
        elif event.kind == "token" and event.channel == channel:
            text += event.text
    return text


@pytest.mark.parametrize("spec", ["openai/gpt-4o-mini+cot", "anthropic/claude-haiku-4-5+cot"])
def test_tokens_arrive_while_the_model_is_still_answering(fake, spec):
    answer = "The centre is strong.\nFinal answer: C2R2"
    fake.script(Reply(text=answer, reasoning="hmm, let me see", piece=4, gap=0.05))
    events = []
    started = time.monotonic()
    decision = agent_for(fake, spec, events).act(first_view())
    kinds = [e.kind for _, e in events]
    assert kinds[0] == "start" and kinds[-1] == "decision"
    first_token = next(at for at, e in events if e.kind == "token") - started
    done = events[-1][0] - started
    assert done - first_token > 0.3  # the panel fills while the answer is being written
    assert streamed(events, "answer") == decision.raw == answer
    assert streamed(events, "answer", "reasoning") == decision.reasoning == "hmm, let me see"
    result = next(e for _, e in events if e.kind == "result")
    assert result.data["label"] == "C2R2" and result.data["completion_tokens"] > 0
    final = events[-1][1].data
    assert final["label"] == "C2R2" and final["prompt_tokens"] > 0 and final["cost_usd"] > 0
    assert all(e.seat == 0 for _, e in events)


def test_each_sc_cot_sample_streams_on_its_own(fake):
    fake.responder = lambda request: Reply(text=f"Thinking {request.body['seed']}.\n"
                                                "Final answer: C1R1", piece=3, gap=0.01)
    events = []
    decision = agent_for(fake, "openai/gpt-4o-mini+sc-cot", events).act(first_view())
    names = {e.stream: e.index for _, e in events if e.kind == "call"}
    assert names == {f"sample {i}/5": i - 1 for i in range(1, 6)}
    assert sorted(events[0][1].data["streams"]) == sorted(names)  # announced before any call
    texts = {c["stream"]: c["text"] for c in decision.meta["llm"]["calls"]}
    for stream in names:
        assert streamed(events, stream) == texts[stream]
    assert len(set(texts.values())) == 5
    vote = next(e for _, e in events if e.kind == "vote")
    assert vote.data["votes"] == {"C1R1": 5} and vote.data["winner"] == "C1R1"


def test_a_retried_stream_restarts_its_panel(fake):
    fake.script(Reply(text="C3R3 C3R3 C3R3 C3R3", fault="drop"), Reply(text="C1R1"))
    events = []
    agent_for(fake, "openai/gpt-4o-mini", events).act(first_view())
    kinds = [e.kind for _, e in events]
    assert kinds.index("fault") < kinds.index("restart")
    assert streamed(events, "answer") == "C1R1"


def test_a_failing_callback_does_not_stop_the_game(fake, caplog):
    def broken(event):
        raise RuntimeError("panel closed")

    env = {"OPENAI_BASE_URL": fake.openai_url, "OPENAI_API_KEY": "sk-test-000000"}
    agent = make_agent("openai/gpt-4o-mini", TIC, TIC.params(), seed=1, env=env, on_event=broken)
    decision = agent.act(first_view())
    assert decision.failure is None and decision.proposal.text == "C1R1"
    assert "the LLM event callback failed" in caplog.text


def test_cancel_stops_a_thinking_seat(fake):
    fake.script(Reply(text="x" * 200, piece=1, gap=0.02))  # about 4 s of tokens
    events = []
    agent = agent_for(fake, "openai/gpt-4o-mini", events)
    threading.Timer(0.3, agent.cancel).start()
    started = time.monotonic()
    decision = agent.act(first_view())
    assert time.monotonic() - started < 1.0
    assert decision.proposal is None and decision.failure == "cancelled"
    again = agent.act(first_view())  # later decisions end at once
    assert again.failure == "cancelled" and len(fake.requests) == 1
