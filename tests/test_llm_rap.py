"""RAP as a reasoning mode, against the scripted provider server (real HTTP, real SDKs)."""

from __future__ import annotations

import re

import pytest

from agents.llm import rap
from agents.specs import SpecError, make_agent, parse_spec
from sessions.engine import play_match
from sessions.match import Match
from sessions.record import SeatRecord
from tests.fake_llm_server import FakeLLM, Reply, Request
from tests.test_llm_modes import TIC, agent_for, centre_taken


@pytest.fixture
def fake():
    with FakeLLM() as server:
        yield server


def instruction(request: Request) -> str:
    return request.prompt.rsplit("## What to answer", 1)[-1]


def world(good: str, *, logprobs: bool = True):
    """A provider that proposes three corners, predicts a reply, and judges ``good`` (and
    any path through it) winning, everything else losing."""

    def respond(request: Request) -> Reply:
        what = instruction(request)
        if "List up to" in what:
            return Reply(text="C1R1\nC3R3\nC1R3\nnot a move")
        if "<others>" in what:
            return Reply(text="<others>O plays C2R1</others><state>a calm position</state>")
        first = re.search(r"You play: (\S+)", what)
        winning = first is not None and first[1] == good
        if "yes or no" in what:
            top = (("yes", -0.1), ("no", -2.4)) if winning else (("no", -0.1), ("yes", -2.4))
            return Reply(text=top[0][0], logprobs=top if logprobs else ())
        return Reply(text="9" if winning else "2")

    return respond


def test_rap_plans_with_the_models_judgements_and_bounded_calls(fake):
    fake.responder = world("C3R3")
    decision = agent_for(fake, "openai/gpt-4o-mini+rap").act(centre_taken())
    assert decision.proposal.text == "C3R3"
    votes = decision.meta["llm"]["votes"]
    assert votes["winner"] == "C3R3" and set(votes["judged_by"]) == {"logprobs"}
    assert [c["action"] for c in votes["candidates"]] == ["C1R1", "C3R3", "C1R3"]
    assert len(fake.requests) == decision.meta["usage"]["calls"] == votes["calls"]
    assert votes["calls"] <= votes["call_bound"] == rap.call_bound("rap") == 28
    judges = [r for r in fake.requests if "yes or no" in instruction(r)]
    assert judges and all(r.body.get("logprobs") and r.body.get("top_logprobs") == 5
                          for r in judges)
    assert "RAP searched" in decision.reasoning and "C3R3" in decision.reasoning


def test_rap_scores_in_words_where_the_provider_has_no_logprobs(fake):
    fake.responder = world("C1R3")
    decision = agent_for(fake, "anthropic/claude-haiku-4-5+rap").act(centre_taken())
    votes = decision.meta["llm"]["votes"]
    assert decision.proposal.text == "C1R3"
    assert set(votes["judged_by"]) == {"score"}
    assert not any(r.body.get("logprobs") for r in fake.requests)


def test_rap_reads_a_yes_no_word_when_logprobs_do_not_come_back(fake):
    fake.responder = world("C1R1", logprobs=False)
    decision = agent_for(fake, "openai/gpt-4o-mini+rap").act(centre_taken())
    assert decision.proposal.text == "C1R1"
    assert set(decision.meta["llm"]["votes"]["judged_by"]) == {"yes/no text"}


def test_rap_settings_are_part_of_the_entity_and_checked():
    assert parse_spec("anthropic/claude-haiku-4-5+rap").entity.startswith(
        "anthropic/claude-haiku-4-5+rap:2:10")
    assert parse_spec("openai/gpt-4o-mini+rap:1:3+novision").entity == \
        "openai/gpt-4o-mini+rap:1:3+novision"
    with pytest.raises(SpecError, match="depth of 1-4"):
        parse_spec("openai/gpt-4o-mini+rap:9:10")
    with pytest.raises(SpecError, match="one reasoning mode"):
        parse_spec("openai/gpt-4o-mini+rap+cot")


def test_rap_with_no_legal_candidate_hands_the_adapter_its_words(fake):
    fake.responder = lambda request: Reply(text="resign\nthink again")
    decision = agent_for(fake, "openai/gpt-4o-mini+rap:1:1").act(centre_taken())
    assert decision.proposal is not None and decision.proposal.text == "resign"
    assert len(fake.requests) == 1  # no candidate: nothing to predict or judge


def test_a_small_rap_search_costs_what_it_says(fake):
    fake.responder = world("C3R3")
    decision = agent_for(fake, "openai/gpt-4o-mini+rap:1:1").act(centre_taken())
    # depth 1: one proposal, then a prediction and a judgement for each of 3 candidates
    assert len(fake.requests) == decision.meta["llm"]["votes"]["calls"] == 7
    assert rap.call_bound("rap:1:1") == 7


def test_a_whole_game_with_rap_is_recorded(fake):
    fake.responder = world("C3R3")
    env = {"OPENAI_BASE_URL": fake.openai_url, "OPENAI_API_KEY": "sk-test-000000"}
    agents = [make_agent("openai/gpt-4o-mini+rap:1:2", TIC, TIC.params(), seed=1, env=env),
              make_agent("random", TIC, TIC.params(), seed=2)]
    seats = [SeatRecord("llm", "openai/gpt-4o-mini+rap:1:2", "openai/gpt-4o-mini+rap:1:2"),
             SeatRecord("random", "random", "random")]
    record = play_match(Match("tic_tac_toe", seats, seed=3), agents)
    assert record.outcome in ("normal", "forfeit")
    llm_moves = [m for m in record.moves if m.seat == 0]
    assert llm_moves and all(m.meta["llm"]["reasoning"] == "rap:1:2" for m in llm_moves)
    assert all(m.meta["usage"]["calls"] <= 7 for m in llm_moves)
