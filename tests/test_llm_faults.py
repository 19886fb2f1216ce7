"""Provider faults: retried with backoff inside a bounded time, recorded with their reasons."""

from __future__ import annotations

import time

import pytest

from agents.llm import Budget
from agents.specs import make_agent, parse_spec
from games import registry
from sessions.engine import play_match
from sessions.match import Match
from sessions.record import SeatRecord
from tests.fake_llm_server import FakeLLM, Reply

TIC = registry.get("tic_tac_toe")
QUICK = Budget(turn_seconds=4.0, request_timeout=1.0, max_tries=4, backoff_base=0.05,
               backoff_max=0.2)
BOTH = ["openai/gpt-4o-mini", "anthropic/claude-haiku-4-5"]


@pytest.fixture
def fake():
    with FakeLLM() as server:
        yield server


def agent_for(fake: FakeLLM, spec: str, budget: Budget = QUICK, **options):
    env = {"OPENAI_BASE_URL": fake.openai_url, "OPENAI_API_KEY": "sk-test-000000",
           "ANTHROPIC_BASE_URL": fake.url, "ANTHROPIC_API_KEY": "sk-ant-test-000000"}
    return make_agent(spec, TIC, TIC.params(), seed=5, env=env, budget=budget, **options)


def first_view():
    match = Match("tic_tac_toe", [SeatRecord("llm", "x", "x")] * 2, seed=1)
    return match.view(0)


def act(fake: FakeLLM, spec: str, **options):
    events = []
    agent = agent_for(fake, spec, on_event=events.append, **options)
    started = time.monotonic()
    decision = agent.act(first_view())
    return decision, time.monotonic() - started, events


@pytest.mark.parametrize("spec", BOTH)
def test_429_waits_as_long_as_retry_after_says(fake, spec):
    fake.script(Reply(status=429, retry_after=0.6, error="slow down"), Reply(text="C2R2"))
    decision, _, events = act(fake, spec)
    assert decision.proposal.text == "C2R2" and decision.failure is None
    gap = fake.requests[1].at - fake.requests[0].at
    assert 0.6 <= gap < 1.6  # what Retry-After says, not a backoff of its own on top
    [call] = decision.meta["llm"]["calls"]
    assert call["faults"][0]["reason"] == "api_error"
    assert "HTTP 429" in call["faults"][0]["detail"] and call["faults"][0]["wait"] == 0.6
    assert [e.kind for e in events if e.kind in ("fault", "restart")] == ["fault", "restart"]


@pytest.mark.parametrize("spec", BOTH)
@pytest.mark.parametrize("fault", [
    Reply(status=500, error="boom"),
    Reply(status=529, error="overloaded"),
    Reply(text="C1R1", fault="malformed"),
    Reply(text="C1R1 C1R1 C1R1", fault="drop"),
    Reply(text="C1R1", fault="cut"),
    Reply(text="C1R1", delay=1.5),  # longer than the 1 s request timeout
], ids=["500", "529", "malformed", "dropped", "cut", "slow"])
def test_passing_faults_are_retried(fake, spec, fault):
    fake.script(fault, Reply(text="C3R3"))
    decision, _, _ = act(fake, spec)
    assert decision.failure is None and decision.proposal.text == "C3R3"
    assert len(fake.requests) == 2
    [call] = decision.meta["llm"]["calls"]
    [entry] = call["faults"]
    expected = "timeout" if fault.delay else "truncated" if fault.fault == "cut" else "api_error"
    assert entry["reason"] == expected
    assert 0 < entry["wait"] <= QUICK.backoff_base  # first backoff: base·(½…1)


def test_backoff_grows_and_the_tries_are_bounded(fake):
    fake.responder = lambda request: Reply(status=503, error="unavailable")
    decision, seconds, events = act(fake, "openai/gpt-4o-mini")
    assert decision.proposal is None and decision.failure == "api_error"
    assert len(fake.requests) == QUICK.max_tries
    [call] = decision.meta["llm"]["calls"]
    waits = [f.get("wait") for f in call["faults"]]
    assert waits[-1] is None  # the last failure is not followed by a wait
    for tries, wait in enumerate(waits[:-1], start=1):
        ceiling = min(QUICK.backoff_max, QUICK.backoff_base * 2 ** (tries - 1))
        assert ceiling / 2 <= wait <= ceiling
    assert "gave up after 4 tries" in decision.meta["failure_detail"]
    assert events[-1].kind == "decision" and events[-1].data["failure"] == "api_error"


def test_a_server_that_never_answers_is_given_up_within_the_budget(fake):
    fake.responder = lambda request: Reply(text="C1R1", delay=5.0)
    budget = Budget(turn_seconds=1.5, request_timeout=0.6, backoff_base=0.05, backoff_max=0.1)
    decision, seconds, _ = act(fake, "anthropic/claude-haiku-4-5", budget=budget)
    assert decision.proposal is None and decision.failure == "timeout"
    assert seconds < budget.turn_seconds + 0.5


def test_slow_tokens_cannot_run_past_the_budget(fake):
    fake.responder = lambda request: Reply(text="x" * 400, piece=1, gap=0.01)  # ~4 s
    budget = Budget(turn_seconds=1.0, request_timeout=5.0)
    decision, seconds, _ = act(fake, "openai/gpt-4o-mini", budget=budget)
    assert decision.failure == "timeout" and seconds < 1.5
    assert "1 s time limit" in decision.meta["failure_detail"]


def test_a_wrong_key_is_not_retried(fake):
    fake.script(Reply(status=401, error="invalid x-api-key"))
    decision, _, _ = act(fake, "anthropic/claude-haiku-4-5")
    assert len(fake.requests) == 1
    assert decision.failure == "api_error" and "HTTP 401" in decision.meta["failure_detail"]
    assert "not retryable" in decision.meta["failure_detail"]


def test_a_retry_after_past_the_budget_fails_at_once(fake):
    fake.script(Reply(status=429, retry_after=60))
    decision, seconds, _ = act(fake, "openai/gpt-4o-mini")
    assert decision.failure == "api_error" and seconds < 1.0
    assert "would pass the time limit" in decision.meta["failure_detail"]


def test_an_answer_cut_by_the_token_limit_is_truncated_and_explained(fake):
    fake.script(Reply(text="Let me consider C1R1 and also", finish="length"))
    spec = parse_spec("openai/gpt-4o-mini+cot")
    seats = [SeatRecord("llm", spec.text, spec.entity), SeatRecord("random", "random", "random")]
    match = Match("tic_tac_toe", seats, seed=1)
    env = {"OPENAI_BASE_URL": fake.openai_url, "OPENAI_API_KEY": "sk-test-000000"}
    agents = [make_agent(spec, TIC, match.record.params, seed=1, env=env, budget=QUICK),
              make_agent("random", TIC, match.record.params, seed=2)]
    record = play_match(match, agents)
    first = record.moves[0]
    assert [a.reason for a in first.rejected] == ["truncated"]
    assert first.rejected[0].raw == "Let me consider C1R1 and also"  # never read as C1R1
    second = fake.requests[1].body["messages"]
    assert "cut off at the 1024-token limit" in second[-1]["content"]
    assert second[-2] == {"role": "assistant", "content": "Let me consider C1R1 and also"}


def test_an_empty_answer_reaches_the_adapter(fake):
    fake.script(Reply(text="   "))
    decision, _, _ = act(fake, "openai/gpt-4o-mini")
    assert decision.failure is None and decision.proposal.text == "   "  # EmptyMove follows


def test_servers_that_report_no_usage_get_estimates(fake):
    fake.script(Reply(text="C1R1", prompt_tokens=None))
    decision, _, _ = act(fake, "openai/gpt-4o-mini")
    usage = decision.meta["usage"]
    assert usage["estimated"] is True and usage["prompt_tokens"] > 100


# --- silence and the whole decision's time limit ----------------------------------------------

SILENCE = Budget(turn_seconds=20.0, request_timeout=10.0, first_token_seconds=1.0,
                 backoff_base=0.05, backoff_max=0.1)


def forfeit_time(fake: FakeLLM, spec: str, budget: Budget) -> tuple[float, object]:
    """Play tic-tac-toe with the LLM first; how long until the game ended, and its record."""
    llm = parse_spec(spec)
    seats = [SeatRecord("llm", llm.text, llm.entity), SeatRecord("random", "random", "random")]
    match = Match("tic_tac_toe", seats, seed=1)
    agents = [agent_for(fake, spec, budget), make_agent("random", TIC, match.record.params, seed=2)]
    started = time.monotonic()
    record = play_match(match, agents)
    return time.monotonic() - started, record


@pytest.mark.parametrize("spec", BOTH)
@pytest.mark.parametrize("silence", [
    Reply(silent=True),  # the connection is accepted and never answered
    Reply(text="C1R1", hold=8.0),  # the stream begins, then no text
    Reply(text="C1R1", hold=8.0, ping=0.2),  # keep-alives only
], ids=["no-response", "no-text", "keep-alives"])
def test_a_silent_provider_forfeits_after_the_first_token_timeout(fake, spec, silence):
    fake.responder = lambda request: silence
    seconds, record = forfeit_time(fake, spec, SILENCE)
    assert record.outcome == "forfeit" and record.ended_by == 0
    assert seconds < SILENCE.first_token_seconds + 1.0  # not 3 asks x 4 tries x the timeout
    assert len(fake.requests) == 1  # silence is not tried again, nor asked again
    [attempt] = record.unplayed
    assert attempt.reason == "timeout"
    assert "sent no text for 1 s" in attempt.message
    assert "sent no text for 1 s" in record.end_reason


def test_the_time_limit_covers_the_re_asks_after_a_rejected_answer(fake):
    """An illegal answer after 1 s, then answers that stream too slowly: the match's re-ask
    gets only what is left of the move's 2 s, and is not asked a third time."""
    fake.script(Reply(text="C9R9", delay=1.0))
    fake.responder = lambda request: Reply(text="C2R2 " * 100, piece=1, gap=0.02)  # ~10 s
    budget = Budget(turn_seconds=2.0, request_timeout=5.0, first_token_seconds=5.0)
    seconds, record = forfeit_time(fake, "openai/gpt-4o-mini", budget)
    assert record.outcome == "forfeit"
    assert 2.0 <= seconds < 2.6
    assert [a.reason for a in record.unplayed] == ["illegal", "timeout"]
    assert len(fake.requests) == 2


def test_before_its_first_request_a_decision_ends_by_the_silence_limit_at_the_latest():
    """What a page counts down from while no request is in flight yet: the silence limit,
    not the whole move's time limit (a silent provider ends the move that soon)."""
    import random
    import threading

    from agents.llm.calls import Caller

    caller = Caller(None, Budget(turn_seconds=60.0, first_token_seconds=2.0), seat=0,
                    emit=lambda event: None, rng=random.Random(0), cancelled=threading.Event())
    assert 1.5 < caller.gives_up_at() - time.monotonic() <= 2.0
    short = Caller(None, Budget(turn_seconds=60.0, first_token_seconds=2.0), seat=0,
                   emit=lambda event: None, rng=random.Random(0), cancelled=threading.Event(),
                   deadline=time.monotonic() + 1.0)
    assert short.gives_up_at() - time.monotonic() <= 1.0


def test_a_network_timeout_shorter_than_the_silence_limit_is_still_retried(fake):
    """Only silence as long as the first-token timeout ends the call at once; a network
    wait that times out sooner is a fault that may pass, retried as before."""
    fake.script(Reply(text="C1R1", hold=3.0, piece=4), Reply(text="C3R3"))
    budget = Budget(turn_seconds=10.0, request_timeout=0.5, first_token_seconds=2.0,
                    backoff_base=0.05, backoff_max=0.1)
    decision, seconds, _ = act(fake, "openai/gpt-4o-mini", budget=budget)
    assert decision.failure is None and decision.proposal.text == "C3R3"
    [call] = decision.meta["llm"]["calls"]
    assert [f["reason"] for f in call["faults"]] == ["timeout"]
    assert seconds < 2.0


def test_cancel_closes_a_stream_that_sends_nothing(fake):
    import threading

    fake.responder = lambda request: Reply(text="C1R1", hold=8.0, ping=0.2)
    agent = agent_for(fake, "anthropic/claude-haiku-4-5", Budget(first_token_seconds=30.0))
    threading.Timer(0.5, agent.cancel).start()
    started = time.monotonic()
    decision = agent.act(first_view())
    assert decision.failure == "cancelled" and time.monotonic() - started < 1.0
    assert agent.deadline is None
