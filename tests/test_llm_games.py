"""Whole games against LLM seats, through the real SDKs talking to a local HTTP server."""

from __future__ import annotations

import json
import random

import pytest

from agents.llm import load_opponents
from agents.specs import make_agent, parse_spec
from games import registry
from games.registry import all_games
from sessions.cli import main as cli
from sessions.engine import FailurePolicy, play_match
from sessions.match import Match
from sessions.record import MatchRecord, SeatRecord, replay
from sessions.store import Store
from sessions.usage import session_usage
from tests.fake_llm_server import FakeLLM, Reply, Request, answer

# The SDK warns that claude-sonnet-4-5 is being retired; it is the model the issue names.
pytestmark = pytest.mark.filterwarnings("ignore:The model .* is deprecated:DeprecationWarning")


def random_legal(seed: int):
    rng = random.Random(seed)

    def respond(request: Request) -> Reply:
        return answer(request, rng.choice(request.legal_moves()), reasoning="Let me think.")

    return respond


@pytest.fixture
def fake(monkeypatch):
    with FakeLLM() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.openai_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-env-openai-000000")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-env-000000")
        monkeypatch.setenv("ARENA_COMPAT_BASE_URL", server.openai_url)
        monkeypatch.delenv("ARENA_OPPONENTS", raising=False)
        yield server


def play(game_id: str, specs: list[str], *, seed: int = 3,
         policy: FailurePolicy = FailurePolicy(), params: dict | None = None,
         **options) -> MatchRecord:
    spec = registry.get(game_id)
    parsed = [parse_spec(s) for s in specs]
    seats = [SeatRecord(kind=p.kind, spec=p.text, entity=p.entity) for p in parsed]
    match = Match(game_id, seats, seed=seed, params=params)
    agents = [make_agent(p, spec, match.record.params, seed=seed + i, **options)
              for i, p in enumerate(parsed)]
    return play_match(match, agents, policy=policy)


def llm_moves(record: MatchRecord, seat: int = 0):
    return [m for m in record.moves if m.seat == seat]


@pytest.mark.parametrize(("spec", "api"), [
    ("openai/gpt-4o-mini", "openai"),
    ("anthropic/claude-sonnet-4-5+cot", "anthropic"),
    ("compat/qwen2.5:7b+cot", "openai"),
    ("openai/gpt-4o-mini+json", "openai"),
    ("anthropic/claude-sonnet-4-5+cot+json", "anthropic"),
])
def test_a_full_game_through_each_sdk(fake, spec, api):
    fake.responder = random_legal(1)
    record = play("tic_tac_toe", [spec, "random"])
    assert record.outcome == "normal"
    assert replay(record).is_terminal()
    prompts = [r for r in fake.requests]
    assert prompts and {r.api for r in prompts} == {api}
    assert all(r.stream for r in prompts)
    assert {r.body["model"] for r in prompts} == {parse_spec(spec).model}
    mine = llm_moves(record)
    assert len(mine) == len(prompts)  # one call per move, no retries needed
    for move, request in zip(mine, prompts, strict=True):
        assert move.label in request.legal_moves()
        assert not move.rejected
        usage = move.meta["usage"]
        assert usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0
        price = load_opponents().find(parse_spec(spec).provider, parse_spec(spec).model)
        expected = (usage["prompt_tokens"] * price.price_input
                    + usage["completion_tokens"] * price.price_output) / 1e6
        assert usage["cost_usd"] == pytest.approx(expected)
        assert move.meta["llm"]["entity"] == parse_spec(spec).entity
    total = session_usage(record)[0]
    assert total.calls == len(mine)
    assert total.prompt_tokens == sum(m.meta["usage"]["prompt_tokens"] for m in mine)


def test_structured_requests_constrain_the_move_to_the_legal_labels(fake):
    play("tic_tac_toe", ["openai/gpt-4o-mini+json", "anthropic/claude-sonnet-4-5+json"])
    for request in fake.requests:
        labels = request.legal_moves()
        assert request.schema["properties"]["move"]["enum"] == labels
        if request.api == "openai":
            assert request.body["response_format"]["type"] == "json_schema"
            assert request.body["response_format"]["json_schema"]["strict"] is True
        else:
            assert request.body["tool_choice"] == {"type": "tool", "name": "play_move"}


@pytest.mark.parametrize("game", [g.id for g in all_games()])
def test_llm_against_llm_on_every_game(fake, game):
    """Two-player games: one model against the other; GAMA-Bench's tables: three seats, the
    models in turn, two rounds (the engine is the same at ten seats, only slower)."""
    fake.responder = random_legal(7)
    models = ["openai/gpt-4o-mini", "compat/qwen2.5:7b+json"]
    defaults = registry.get(game).params()
    fewest = max(3, registry.get(game).load().get_type().min_num_players)
    params = {name: value for name, value in (("num_players", fewest), ("num_rounds", 2),
                                              ("max_rounds", 2))
              if name in defaults} if "num_players" in defaults else None
    seats = (params or {}).get("num_players", registry.get(game).load().num_players())
    record = play(game, [models[i % 2] for i in range(seats)], params=params)
    assert record.outcome == "normal", record.end_reason
    assert replay(record).is_terminal()
    assert all(not m.rejected for m in record.moves)


def test_a_rejected_answer_is_sent_back_with_the_reason(fake):
    fake.script(Reply(text="Final answer: C9R9"), Reply(text="I would rather not say."))
    record = play("tic_tac_toe", ["openai/gpt-4o-mini+cot", "random"])
    first = llm_moves(record)[0]
    assert [a.reason for a in first.rejected] == ["illegal", "unparseable"]
    assert first.rejected[0].raw == "Final answer: C9R9"
    assert first.rejected[0].meta["usage"]["calls"] == 1
    third = fake.requests[2]
    turns = third.body["messages"]
    assert [t["role"] for t in turns] == ["system", "user", "assistant", "user", "assistant",
                                          "user"]
    assert turns[2]["content"] == "Final answer: C9R9"
    assert "Your answer was not accepted" in turns[3]["content"]
    assert "Legal moves: C1R1" in turns[3]["content"]
    # the rejected attempts' tokens are part of the session's cost
    assert session_usage(record)[0].calls == len(llm_moves(record)) + 2


def test_repeated_bad_answers_forfeit_and_stay_auditable(fake, tmp_path):
    fake.responder = lambda request: Reply(text="pass")
    record = play("tic_tac_toe", ["anthropic/claude-sonnet-4-5", "random"])
    assert record.outcome == "forfeit" and record.ended_by == 0
    assert [a.reason for a in record.unplayed] == ["unparseable"] * 3
    assert all(a.seat == 0 and a.meta["usage"]["calls"] == 1 for a in record.unplayed)
    with Store(tmp_path / "arena.sqlite3") as store:
        store.save(record)
        again = store.get(record.id)
    assert again.unplayed == record.unplayed
    assert session_usage(again)[0].calls == 3


def test_the_random_fallback_is_flagged(fake):
    fake.responder = lambda request: Reply(text="")
    record = play("tic_tac_toe", ["openai/gpt-4o-mini", "random"],
                  policy=FailurePolicy(max_retries=1, on_failure="random"))
    assert record.outcome == "normal"
    mine = llm_moves(record)
    assert all(m.fallback and [a.reason for a in m.rejected] == ["empty", "empty"]
               for m in mine)


def test_the_cli_plays_llm_specs(fake, tmp_path, capsys):
    fake.responder = random_legal(2)
    code = cli(["play", "tic_tac_toe", "openai/gpt-4o-mini+cot", "random", "--matches", "2",
                "--db", str(tmp_path / "a.sqlite3"), "--quiet", "--json"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["standings"][0]["entity"] == "openai/gpt-4o-mini+cot+vision"
    assert summary["standings"][0]["matches"] == 2


def test_the_cli_explains_a_missing_key(fake, monkeypatch, tmp_path, capsys):
    monkeypatch.delenv("OPENAI_API_KEY")
    code = cli(["play", "tic_tac_toe", "openai/gpt-4o-mini", "random", "--matches", "1",
                "--db", str(tmp_path / "a.sqlite3"), "--quiet"])
    assert code == 2
    assert "needs an API key: set OPENAI_API_KEY" in capsys.readouterr().err
