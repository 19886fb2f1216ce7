"""Hugging Face Inference Providers (``hf/MODEL``): the router preset, through the real
``openai`` SDK against an OpenAI-compatible server on 127.0.0.1 standing in for the router."""

from __future__ import annotations

import pytest

from agents.llm import MissingKey, load_opponents, opponent_choices
from agents.specs import make_agent, parse_spec
from games import registry
from sessions.engine import play_match
from sessions.match import Match
from sessions.record import SeatRecord, replay
from sessions.web.players import agent_name, llm_opponents
from tests.fake_llm_server import FakeLLM

TIC = registry.get("tic_tac_toe")
TOKEN = "hf_arena_test_token_0123456789"
LLAMA = "hf/meta-llama/Llama-3.1-8B-Instruct"


def test_the_shipped_file_offers_open_models_through_the_router():
    hf = [o for o in load_opponents(env={}) if o.provider == "hf"]
    assert len(hf) >= 3
    assert all(o.key_names() == ["HF_TOKEN"] for o in hf)
    assert {o.spec for o in hf} >= {LLAMA}


def test_without_hf_token_they_need_a_key_and_say_which():
    choices = {c.id: c for c in opponent_choices(env={})}
    llama = choices["llama-3.1-8b-hf"]
    assert llama.status == "needs_key" and "HF_TOKEN" in llama.note
    with pytest.raises(MissingKey, match="HF_TOKEN"):
        make_agent(LLAMA, TIC, TIC.params(), seed=1, env={})
    ready = {c.id: c for c in opponent_choices(env={"HF_TOKEN": TOKEN})}
    assert ready["llama-3.1-8b-hf"].status == "ready"


def test_a_game_against_a_router_model_sends_the_token_and_the_model_name(monkeypatch):
    with FakeLLM() as router:
        env = {"HF_TOKEN": TOKEN, "ARENA_HF_BASE_URL": router.openai_url}
        spec = parse_spec(LLAMA)
        seats = [SeatRecord("llm", spec.text, spec.entity), SeatRecord("random", "random",
                                                                       "random")]
        match = Match("tic_tac_toe", seats, seed=3)
        agent = make_agent(spec, TIC, match.record.params, seed=1, env=env)
        record = play_match(match, [agent, make_agent("random", TIC, {}, seed=2)])
    assert record.outcome == "normal" and replay(record).is_terminal()
    assert router.requests, "the router was never asked"
    assert {r.key for r in router.requests} == {TOKEN}
    assert {r.body["model"] for r in router.requests} == {"meta-llama/Llama-3.1-8B-Instruct"}
    assert spec.entity == "hf/meta-llama/Llama-3.1-8B-Instruct+prompt"
    assert TOKEN not in record.to_json()


def test_the_page_names_the_router_models_in_peoples_words(monkeypatch):
    monkeypatch.delenv("HF_TOKEN", raising=False)
    with FakeLLM() as router:  # the router answers (here: on loopback); no key is set
        monkeypatch.setenv("ARENA_HF_BASE_URL", router.openai_url)
        offered = {o.spec.split("+")[0]: o for o in llm_opponents()}
    llama = offered[LLAMA]
    assert llama.label.startswith("Llama 3.1 8B Instruct (Hugging Face)")
    assert "needs a key" in llama.label
    assert "Hugging Face Inference Providers" in llama.note
    assert agent_name(LLAMA) == "Llama 3.1 8B Instruct (Hugging Face)"
