"""Reasoning modes: SC-CoT's concurrent samples and real vote, and ToT's 2×3×3 search."""

from __future__ import annotations

import itertools
import threading
import time

import pytest

from agents.llm.modes import tally
from agents.specs import make_agent
from games import registry
from games.actions import ActionId, LegalMove, Text, resolve
from sessions.match import Match
from sessions.record import SeatRecord
from tests.fake_llm_server import FakeLLM, Reply, Request, answer

TIC = registry.get("tic_tac_toe")


@pytest.fixture
def fake():
    with FakeLLM() as server:
        yield server


def agent_for(fake: FakeLLM, spec: str, **options):
    env = {"OPENAI_BASE_URL": fake.openai_url, "OPENAI_API_KEY": "sk-test-000000",
           "ANTHROPIC_BASE_URL": fake.url, "ANTHROPIC_API_KEY": "sk-ant-test-000000"}
    return make_agent(spec, TIC, TIC.params(), seed=5, env=env, **options)


def centre_taken():
    """O to move after X took the centre (C2R2)."""
    seats = [SeatRecord("random", "random", "random")] * 2
    match = Match("tic_tac_toe", seats, seed=1)
    centre = next(m for m in match.legal(0) if m.label == "C2R2")
    match.submit(0, ActionId(action=centre.action))
    return match.view(1)


def test_sc_cot_sends_its_five_samples_at_once(fake):
    fake.responder = lambda request: Reply(text="Final answer: C1R1", delay=1.0)
    agent = agent_for(fake, "openai/gpt-4o-mini+sc-cot")
    started = time.monotonic()
    decision = agent.act(centre_taken())
    wall = time.monotonic() - started
    assert len(fake.requests) == 5
    arrivals = [r.at for r in fake.requests]
    assert max(arrivals) - min(arrivals) < 0.5  # all sent before any answered
    assert wall < 1.9, f"5 samples of 1 s each took {wall:.2f} s: not concurrent"
    assert decision.meta["usage"]["calls"] == 5
    assert {r.body["temperature"] for r in fake.requests} == {0.7}
    assert len({r.body["seed"] for r in fake.requests}) == 5  # five different samples


def test_sc_cot_votes_over_legal_moves_only(fake):
    answers = iter(["Final answer: C3R3", "Final answer: C2R2", "no idea at all",
                    "Final answer: C1R1", "Final answer: C3R3"])
    lock = threading.Lock()

    def respond(request: Request) -> Reply:
        with lock:
            return Reply(text=next(answers))

    fake.responder = respond
    decision = agent_for(fake, "anthropic/claude-haiku-4-5+sc-cot").act(centre_taken())
    votes = decision.meta["llm"]["votes"]
    assert votes["votes"] == {"C3R3": 2, "C1R1": 1}  # C2R2 is taken; one named no move
    assert votes["winner"] == "C3R3" and votes["invalid"] == 2
    assert decision.proposal.text == "C3R3"
    rejected = sorted(c.get("rejected", "") for c in decision.meta["llm"]["calls"])
    assert rejected == ["", "", "", "illegal", "unparseable"]


def test_sc_cot_json_samples_are_structured(fake):
    fake.responder = lambda request: answer(request, "C1R3", reasoning="corner")
    decision = agent_for(fake, "openai/gpt-4o-mini+sc-cot+json").act(centre_taken())
    assert decision.meta["llm"]["votes"]["votes"] == {"C1R3": 5}
    schema = fake.requests[0].schema
    assert list(schema["properties"]) == ["thinking", "move"]


def moves(*labels: str) -> list[LegalMove | None]:
    view = centre_taken()
    return [None if label is None else resolve(TIC, view.state, 1, Text(text=label))
            for label in labels]


def test_ties_go_to_the_move_voted_first():
    assert tally(moves("C1R1", "C3R3", "C3R3", "C1R1", None))["winner"] == "C1R1"
    assert tally(moves("C3R3", "C1R1", "C1R1", "C3R3", None))["winner"] == "C3R3"
    assert tally(moves(None, "C2R1", "C1R2", None, None))["winner"] == "C2R1"
    assert tally([None] * 5) == {"votes": {}, "winner": None, "invalid": 5}


def test_sc_cot_with_no_legal_sample_hands_an_answer_to_the_adapter(fake):
    fake.responder = lambda request: Reply(text="Final answer: C2R2")  # taken
    decision = agent_for(fake, "openai/gpt-4o-mini+sc-cot").act(centre_taken())
    assert decision.meta["llm"]["votes"]["winner"] is None
    assert decision.proposal.text == "Final answer: C2R2"  # the adapter will say why not


def tot_responder():
    counter = itertools.count(1)
    lock = threading.Lock()
    legal = ["C1R1", "C3R1", "C1R3"]

    def respond(request: Request) -> Reply:
        prompt = request.prompt
        with lock:
            n = next(counter)
        if "Do not choose a move yet" in prompt:
            return Reply(text=f"Analysis number {n}: the corners matter.")
        if "The best choice is <number>" in prompt:
            return Reply(text="Candidate two looks best.\nThe best choice is 2")
        return Reply(text=f"Thinking...\nFinal answer: {legal[n % 3]}")

    return respond


def test_tot_is_two_steps_of_three_proposals_and_three_votes(fake):
    fake.responder = tot_responder()
    events = []
    agent = agent_for(fake, "openai/gpt-4o-mini+tot", on_event=events.append)
    decision = agent.act(centre_taken())
    calls = decision.meta["llm"]["calls"]
    ended = [e.stream for e in events if e.kind == "result"]
    assert sorted(ended) == sorted(c["stream"] for c in calls)  # every pane is told it ended
    assert sorted(e.stream for e in events if e.kind == "call") == sorted(events[0].data["streams"])
    assert [c["purpose"] for c in calls] == ["thought"] * 3 + ["vote"] * 3 + ["move"] * 3 + \
        ["vote"] * 3
    assert len(fake.requests) == 12
    by_stream = {c["stream"]: c for c in calls}
    kept = by_stream["step 1 · thought 2"]["text"]  # every vote said 2
    step_two = [r for r in fake.requests if "Here is an analysis" in r.prompt]
    assert len(step_two) == 3 and all(kept in r.prompt for r in step_two)
    distinct = list(dict.fromkeys(by_stream[f"step 2 · move {i}"]["label"] for i in (1, 2, 3)))
    assert len(distinct) == 3
    votes = decision.meta["llm"]["votes"]
    assert votes["thoughts"]["votes"] == {"1": 0, "2": 3, "3": 0}
    assert votes["moves"]["winner"] == "2" and votes["winner"] == distinct[1]
    assert decision.proposal.text == distinct[1]


def test_tot_skips_a_vote_with_nothing_to_choose(fake):
    fake.responder = lambda request: (
        Reply(text="The best choice is 1") if "best choice" in request.prompt
        else Reply(text="Same analysis.") if "Do not choose" in request.prompt
        else Reply(text="Final answer: C3R3"))
    decision = agent_for(fake, "openai/gpt-4o-mini+tot").act(centre_taken())
    assert len(fake.requests) == 3 + 3  # one distinct analysis, one distinct move: no votes
    assert decision.proposal.text == "C3R3"
    assert decision.meta["llm"]["votes"]["thoughts"] == {"skipped": "only one to choose from"}
