"""A language model whose server is not running: not listed as ready, and a game against it
that never got an answer is stored as abandoned ("provider unreachable"), not as a rated
win. Real SDK, real sockets: a closed port on loopback, and tests/fake_llm_server.py."""

from __future__ import annotations

import socket

import pytest

from agents.llm import Budget
from agents.specs import make_agent
from games.registry import get
from sessions.engine import UNREACHABLE
from sessions.ratings.results import results_from_store
from sessions.store import Store
from sessions.web import reach
from sessions.web.llm_page import Keyring, pick, take
from sessions.web.play import PlaySession
from sessions.web.players import Person, new_player_id, opponents_for
from tests.fake_llm_server import FakeLLM, Reply

OLLAMA = "compat/qwen2.5:7b+prompt"
GPT = "openai/gpt-4o-mini+prompt"
QUICK = Budget(turn_seconds=3.0, request_timeout=1.0, max_tries=2, backoff_base=0.02,
               backoff_max=0.05)


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def nowhere(monkeypatch, tmp_path):
    """OpenAI and the Ollama entry pointed at closed ports; a fresh reachability cache."""
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{closed_port()}/v1")
    monkeypatch.setenv("ARENA_COMPAT_BASE_URL", f"http://127.0.0.1:{closed_port()}/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env-0000000000")
    monkeypatch.setenv("ARENA_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("ARENA_OPPONENTS", raising=False)
    reach.forget()
    yield
    reach.forget()


def test_a_server_that_is_not_running_is_not_listed_as_ready(nowhere):
    options = {o.spec: o for o in opponents_for(get("tic_tac_toe"))}
    for spec in (OLLAMA, GPT):
        assert options[spec].status == "unavailable", options[spec]
        assert "(unavailable)" in options[spec].label
        assert "does not answer (connection refused" in options[spec].note
    chosen = pick(OLLAMA, Keyring())
    assert chosen.status == "unavailable" and "has a key" not in chosen.note
    assert "does not answer" in take(OLLAMA, "", Keyring())  # Start says why, no game


def test_the_check_is_cached_and_sees_a_server_come_up(nowhere, monkeypatch):
    entry = next(e for e in __import__("agents.llm", fromlist=["x"]).load_opponents()
                 if e.provider == "compat")
    with FakeLLM() as server:
        monkeypatch.setenv("ARENA_COMPAT_BASE_URL", server.openai_url)
        assert reach.problem(entry) is None
        note = pick(OLLAMA, Keyring()).note
        assert "which answers; it needs no key" in note and "has a key" not in note
    assert reach.problem(entry) is None  # cached for a while: no connection per page load
    reach.forget()
    assert "connection refused" in (reach.problem(entry) or "")


def test_a_game_the_model_never_answered_is_abandoned_not_a_rated_win(nowhere, tmp_path):
    def unreachable(spec, game, params, *, seed):
        return make_agent(spec, game, params, seed=seed, budget=QUICK)

    with Store(tmp_path / "arena.sqlite3") as store:
        session = PlaySession("tic_tac_toe", GPT, person=Person(new_player_id()),
                              seat="first", store=store, build_agent=unreachable)
        session.play_text("C2R2")
        session.run_agents()
        record = store.get(session.id)
        assert record.outcome == "abandoned" and record.end_reason == UNREACHABLE
        assert record.scores is None and record.ended_by is None
        tries = [a for a in record.unplayed if a.seat == 1]
        assert len(tries) == 3 and {a.reason for a in tries} == {"api_error"}  # every one
        assert "could not be reached" in session.result() and "loss" in session.result()
        assert results_from_store(store).results == []  # nothing rated


def test_a_model_that_answered_once_still_forfeits_when_it_goes_silent(tmp_path, monkeypatch):
    monkeypatch.setenv("ARENA_DATA_DIR", str(tmp_path))
    with FakeLLM() as server, Store(tmp_path / "arena.sqlite3") as store:
        server.script(Reply(text="C1R1"), *[Reply(status=500, error="down")] * 12)
        env = {"OPENAI_BASE_URL": server.openai_url, "OPENAI_API_KEY": "sk-test-000000"}

        def answering(spec, game, params, *, seed):
            return make_agent(spec, game, params, seed=seed, budget=QUICK, env=env)

        session = PlaySession("tic_tac_toe", GPT, person=Person(new_player_id()),
                              seat="first", store=store, build_agent=answering, seed=1)
        session.play_text("C2R2")
        session.run_agents()
        free = next(m.label for m in session.legal())
        session.play_text(free)
        session.run_agents()
        record = store.get(session.id)
        assert record.outcome == "forfeit" and record.ended_by == 1  # a rated result
