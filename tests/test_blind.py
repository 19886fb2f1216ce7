"""Blind battles without a browser: which models may be drawn, how often, and that the name
stays out of everything a person (or a spectator) sees until the game is over.

The models are the real OpenAI SDK talking to tests/fake_llm_server.py over HTTP.
"""

from __future__ import annotations

import json
import threading
import time

import numpy as np
import pytest

from agents.llm import opponent_choices
from agents.specs import parse_spec
from games.registry import get
from sessions.ratings.leaderboard import Filters, Leaderboard
from sessions.ratings.report import Settings
from sessions.store import Store
from sessions.tournament import play_one
from sessions.web import play_html, spectate
from sessions.web.blind import (
    HIDDEN_NAME,
    MYSTERY,
    MYSTERY_NAME,
    NAMED_ITSELF,
    BlindError,
    BlindPanel,
    BlindSession,
    draw,
    ready_models,
    start_blind,
    with_mystery,
)
from sessions.web.llm_page import Keyring, Seating
from sessions.web.llm_panel_html import render
from sessions.web.players import Person, new_player_id
from tests.fake_llm_server import FakeLLM, Reply, answer

GPT = "openai/gpt-4o-mini+prompt"
BOASTING = ("As GPT-4o mini, made by OpenAI, I take a corner; gpt-4o-mini never "
            "loses tic-tac-toe. Philosophy aside, metadata is fine.")


@pytest.fixture
def fake(monkeypatch, tmp_path):
    with FakeLLM() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.openai_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-server-key-for-blind-tests")
        for name in ("ANTHROPIC_API_KEY", "ARENA_OPPONENTS"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("ARENA_DATA_DIR", str(tmp_path))
        yield server


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "arena.sqlite3") as opened:
        yield opened


def person() -> Person:
    return Person(new_player_id(), "Ada", consent=True)


def blind_game(store=None, game: str = "tic_tac_toe") -> tuple[BlindSession, BlindPanel]:
    seating = Seating(Keyring())
    panel = BlindPanel(names=["GPT-4o mini", "gpt-4o-mini"])
    seating.panel = panel
    session = BlindSession(game, GPT, person=person(), seat="first", seed=3, store=store,
                           build_agent=seating.build)
    seating.attach(session)
    return session, panel


def test_ready_models_are_the_offline_one_and_those_with_a_server_key(monkeypatch):
    monkeypatch.setattr("agents.llm.missing", lambda entry: None)  # as if installed
    env = {"ARENA_DATA_DIR": "/nonexistent"}
    assert {c.provider for c in ready_models(env)} == {"local"}
    keyed = ready_models({**env, "ANTHROPIC_API_KEY": "sk-ant-x"})
    assert {c.provider for c in keyed} == {"local", "anthropic"}
    assert all(c.status == "ready" for c in keyed)
    monkeypatch.setattr("agents.llm.missing", lambda entry: "not installed")
    assert ready_models(env) == []
    with pytest.raises(BlindError, match="no language model is ready"):
        draw([], None, np.random.default_rng(0))


def test_models_with_fewer_rated_games_are_drawn_more_often(store):
    choices = [c for c in opponent_choices(env={}) if c.provider == "openai"][:2]
    seasoned, fresh = choices
    for seed in range(9):  # nine rated games for the first model, none for the second
        record = play_one("nim", [parse_spec("random"), parse_spec("mcts:5:0s")], seed=seed)
        record.seats[0].entity = seasoned.entity
        store.save(record)
    rng = np.random.default_rng(11)
    picks = [draw(choices, store, rng).id for _ in range(2000)]
    share = picks.count(fresh.id) / len(picks)
    assert 0.87 < share < 0.95  # 1 : 1/10 gives the fresh one 10/11 of the draws


def test_the_name_is_hidden_everywhere_until_the_end_then_revealed(fake, store):
    fake.responder = lambda request: answer(request, request.legal_moves()[0],
                                            reasoning=BOASTING)
    session, panel = blind_game(store)
    session.play_text("C2R2")
    session.run_agents()
    screen = session.screen(image=False)
    seen_before = "\n".join([
        session.status(), "\n".join(session.moves()), json.dumps(session.snapshot()),
        json.dumps(panel.view(session)), render(panel.view(session)),
        json.dumps(spectate.spectate(session).__dict__, default=str),
        # the Play tab's players panel, the game's bar and the move list (issue 13)
        play_html.players(screen.players), session.opponents_name(),
        play_html.move_list(screen.rows, viewing=None, frames=screen.frames)])
    assert MYSTERY_NAME in session.status() or MYSTERY_NAME in "\n".join(session.moves())
    for name in ("GPT-4o mini", "gpt-4o-mini", "OpenAI", "openai/"):
        assert name.lower() not in seen_before.lower()
    pane = panel.view(session)["turns"][0]["attempts"][0]["panes"][0]
    words = pane["reasoning"] + pane["answer"]
    assert HIDDEN_NAME in words and "Philosophy aside, metadata is fine." in words
    assert panel.view(session)["session"] == {} and pane["tokens"] is None
    assert session.snapshot()["seats"][1] == "mystery" and session.snapshot()["blind"]
    while not session.over:
        session.play_label(session.legal()[0].label)
        session.run_agents()
    assert "The mystery model was GPT-4o mini" in session.result()
    assert session.snapshot()["mystery"] == "GPT-4o mini"
    assert "GPT-4o mini" in render(panel.view(session)) and BOASTING.split(";")[0] in \
        json.dumps(panel.view(session))
    stored = store.get(session.id)
    assert stored.tags == ["blind", NAMED_ITSELF]  # it boasted its name: no blind rating
    assert stored.seats[1].entity.startswith("openai/gpt-4o-mini")


def test_the_leaderboard_can_show_blind_battles_only(fake, store):
    fake.responder = lambda request: answer(request, request.legal_moves()[0])
    session, _ = blind_game(store)
    while not session.over:
        session.run_agents()
        if not session.over:
            session.play_label(session.legal()[0].label)
    store.save(play_one("nim", [parse_spec("random"), parse_spec("mcts:5:0s")], seed=1))
    board = Leaderboard(store, settings=Settings(bootstrap=20))
    everything = board.view(Filters())
    blind = board.view(Filters.parse(blind_only=True))
    assert everything.report.overall.matches == 2 and blind.report.overall.matches == 1
    assert set(blind.report.games) == {"tic_tac_toe"}
    assert Filters.parse(blind_only=True).slug() == "leaderboard-all-blind"


def test_a_blind_battle_is_drawn_from_the_ready_models_and_refused_for_tables(fake, store,
                                                                             monkeypatch):
    monkeypatch.setattr("agents.llm.missing", lambda entry: "not installed")
    session = start_blind("nim", keyring=Keyring(), store=store,
                          rng=np.random.default_rng(2), person=person(), seat="second")
    assert session.record.seats[0].spec.startswith("openai/")
    assert session.seat_name(0) == MYSTERY_NAME and session.record.tags == ["blind"]
    session.abandon("test over")
    with pytest.raises(BlindError, match="two-player games.*Guess 2/3"):
        start_blind("guess_2_3", keyring=Keyring(), store=store,
                    rng=np.random.default_rng(2), person=person(), seat="first")


def test_a_failing_provider_is_not_named_by_its_fault_messages(fake):
    fake.script(Reply(status=503, error="overloaded at api.openai.com", retry_after=0.2),
                Reply(text="C1R1"))
    session, panel = blind_game()
    session.play_text("C2R2")
    session.run_agents()
    pane = panel.view(session)["turns"][0]["attempts"][0]["panes"][0]
    assert pane["faults"] == ["the model's server did not answer"]


def _played_out(session: BlindSession) -> None:
    while not session.over:
        session.run_agents()
        if not session.over:
            session.play_label(session.legal()[0].label)


def test_a_partial_self_name_is_masked_and_the_battle_left_out_of_blind_ratings(fake, store):
    """Issue 24 item 9: any token of the model's name, id, title or provider is masked; a
    model that named itself flags its session, which the blind ratings leave out."""
    fake.responder = lambda request: answer(request, request.legal_moves()[0],
                                            reasoning="Call me name-4O, the MINI secret.")
    session, panel = blind_game(store)
    session.play_text("C2R2")
    session.run_agents()
    pane = panel.view(session)["turns"][0]["attempts"][0]["panes"][0]
    words = pane["reasoning"] + pane["answer"]
    assert f"Call me name-{HIDDEN_NAME}, the {HIDDEN_NAME} secret." in words, words
    assert session.record.tags == ["blind", NAMED_ITSELF]
    _played_out(session)
    fake.responder = lambda request: answer(request, request.legal_moves()[0],
                                            reasoning="A corner is strong.")
    quiet, _ = blind_game(store)
    _played_out(quiet)
    assert store.get(quiet.id).tags == ["blind"]
    board = Leaderboard(store, settings=Settings(bootstrap=20))
    assert board.view(Filters()).report.overall.matches == 2
    assert board.view(Filters.parse(blind_only=True)).report.overall.matches == 1


def test_the_way_of_thinking_and_the_countdown_wait_for_the_end(fake):
    """Issue 24 item 9: no mode ("self-consistency, 5 samples"), no five sample panes, no
    votes and no "at most N s more" before the reveal, in the status, the panel and
    /thinking alike."""
    fake.responder = lambda request: answer(request, "C1R1", reasoning="thinking slowly")
    fake.script(Reply(text="C1R1", reasoning="thinking slowly", delay=1.0))
    seating = Seating(Keyring())
    panel = BlindPanel(names=["GPT-4o mini", "gpt-4o-mini", "openai"])
    seating.panel = panel
    session = BlindSession("tic_tac_toe", GPT.replace("+prompt", "+sc-cot"), person=person(),
                           seat="second", seed=3, build_agent=seating.build)
    seating.attach(session)
    runner = threading.Thread(target=session.run_agents)
    runner.start()
    statuses, views = [], []
    while runner.is_alive():
        statuses.append(session.status())
        views.append(panel.view(session))
        time.sleep(0.05)
    runner.join()
    assert any("thinking" in s for s in statuses)
    assert not any("more" in s or "gives up" in s for s in statuses), statuses
    turns = [t for v in views for t in v["turns"]]
    assert turns and all(t["mode"] is None and t["seconds_left"] is None for t in turns)
    assert all(len(a["panes"]) == 1 and not a["votes"] for t in turns for a in t["attempts"])
    drawn = render(panel.view(session))
    assert "self-consistency" not in drawn and "more" not in drawn


def test_a_blind_battle_needs_two_ready_models(monkeypatch):
    """Issue 22 item 6: with one model ready the mystery is listed as unavailable, saying
    why, and cannot be started."""
    one = [c for c in opponent_choices() if c.id == "gpt-4o-mini"]
    monkeypatch.setattr("sessions.web.blind.ready_models", lambda env=None: one)
    [mystery] = [o for o in with_mystery(get("nim"), []) if o.spec == MYSTERY]
    assert mystery.status == "unavailable" and "at least 2 language models" in mystery.note
    with pytest.raises(BlindError, match="needs at least 2 language models ready"):
        start_blind("nim", keyring=Keyring(), store=None, rng=np.random.default_rng(0),
                    person=person(), seat="first")


def test_a_titles_note_and_common_words_are_not_masked():
    """Only words that name the model are masked (and flag a self-naming): not a title's
    note in brackets, not "the" or "answers"."""
    from sessions.web.blind import name_tokens

    tokens = name_tokens(["Qwen2.5 7B (Ollama, or the server at URL)", "qwen2.5:7b",
                          "SmolLM2 135M (offline, structured answers)", "Zeta Secret"])
    assert {"Qwen2", "qwen2.5:7b", "SmolLM2", "135M", "Zeta", "Secret"} <= set(tokens)
    assert not {"the", "or", "at", "answers", "offline", "server"} & set(tokens)
