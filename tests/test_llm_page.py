"""The page's side of LLM opponents without a browser: the picker, typed keys, the thinking
panel and its hiding rules, faults, cancelling, and what the record keeps.

Every model here is the real SDK talking to tests/fake_llm_server.py over HTTP.
"""

from __future__ import annotations

import copy
import json
import pickle
import threading
import time

import pytest

from agents.llm import load_opponents
from agents.llm.local import missing
from games.registry import get
from sessions.store import Store
from sessions.web.llm_page import Keyring, Seating, panel_of, pick, take, with_reasoning
from sessions.web.llm_panel_html import render
from sessions.web.play import PlaySession
from sessions.web.players import Person, new_player_id, opponents_for
from tests.fake_llm_server import FakeLLM, Reply, Request, answer

KEY = "sk-test-page-5f0a9c2e7b41d3"
GPT = "openai/gpt-4o-mini+prompt"
CLAUDE = "anthropic/claude-haiku-4-5+prompt"


@pytest.fixture
def fake(monkeypatch, tmp_path):
    with FakeLLM() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.openai_url)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "ARENA_OPPONENTS"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("ARENA_DATA_DIR", str(tmp_path))  # no user opponents file
        yield server


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "arena.sqlite3") as opened:
        yield opened


def person() -> Person:
    return Person(new_player_id(), "Ada", consent=True)


def llm_game(game: str, opponent: str, *, seat: str = "second", store=None, seed: int = 1):
    keyring = Keyring()
    assert take(opponent, KEY, keyring) == ""
    seating = Seating(keyring)
    session = PlaySession(game, opponent, person=person(), seat=seat, seed=seed, store=store,
                          build_agent=seating.build)
    seating.attach(session)
    return session, panel_of(session)


def in_background(session: PlaySession) -> threading.Thread:
    runner = threading.Thread(target=session.run_agents, daemon=True)
    runner.start()
    return runner


def wait_for(condition, timeout: float = 10.0, step: float = 0.01):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(step)
    raise AssertionError("timed out waiting")


def saying(text: str, *, move: int = 0, **reply):
    """A responder: ``text`` as reasoning, then the move-th legal move."""
    def respond(request: Request) -> Reply:
        chosen = answer(request, request.legal_moves()[move], reasoning=text)
        for name, value in reply.items():
            setattr(chosen, name, value)
        return chosen
    return respond


# --- the picker and the key ---------------------------------------------------------------


def test_the_opponent_list_has_the_models_with_their_status(fake, monkeypatch):
    options = {o.spec: o for o in opponents_for(get("tic_tac_toe"))}
    assert [o.llm for o in options.values()][:2] == [False, False]  # classic agents first
    assert options[GPT].status == "needs_key" and "(needs a key)" in options[GPT].label
    assert "OPENAI_API_KEY" in options[GPT].note and "$0.15" in options[GPT].note
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env-0000000000")
    ready = {o.spec: o for o in opponents_for(get("kuhn_poker"))}
    assert ready[GPT].status == "ready" and "(" not in ready[GPT].label.split("·")[1]
    assert ready[CLAUDE].status == "needs_key"
    monkeypatch.setattr("agents.llm.missing", lambda entry: "llama.cpp's server is absent")
    local = next(o for o in opponents_for(get("nim")) if o.spec.startswith("local/"))
    assert local.status == "unavailable" and "llama.cpp's server is absent" in local.note
    assert list(options).index(GPT) < list(options).index(CLAUDE)


def test_no_key_no_game_and_the_message_says_what_to_do(fake):
    keyring = Keyring()
    problem = take(GPT, "", keyring)
    assert "needs an API key" in problem and "key field" in problem and len(keyring) == 0
    bad = "sk-abc def"
    problem = take(GPT, bad, keyring)
    assert "spaces" in problem and bad not in problem and "abc" not in problem
    assert take(GPT, f"  {KEY}\n", keyring) == "" and pick(GPT, keyring).key_held
    # the key is held for OpenAI only: Claude still needs its own
    assert pick(CLAUDE, keyring).key_needed and not pick(CLAUDE, keyring).key_held
    assert "needs an API key" in take(CLAUDE, "", keyring)
    assert take("random", "", keyring) == "" and not pick("random", keyring).llm


def test_a_keyring_never_shows_copies_or_pickles_its_keys():
    keyring = Keyring()
    keyring.put("openai||OPENAI_API_KEY", KEY)
    assert KEY not in repr(keyring) and KEY not in str(keyring)
    assert len(copy.deepcopy(keyring)) == 0 and len(copy.copy(keyring)) == 0
    with pytest.raises(TypeError, match="never pickled"):
        pickle.dumps(keyring)
    keyring.forget()
    assert len(keyring) == 0


def test_the_chosen_reasoning_mode_replaces_the_written_one():
    assert with_reasoning(GPT, "sc-cot") == "openai/gpt-4o-mini+sc-cot"
    assert with_reasoning("local/smollm2-135m+prompt+json", "cot") == \
        "local/smollm2-135m+cot+json"
    assert with_reasoning(["random", GPT], "tot") == ["random", "openai/gpt-4o-mini+tot"]
    assert with_reasoning(GPT, "") == GPT and with_reasoning("mcts", "cot") == "mcts"
    with pytest.raises(ValueError, match="not one of prompt, cot, sc-cot, tot"):
        with_reasoning(GPT, "ponder")


# --- the panel while the model thinks ---------------------------------------------------


def test_each_sc_cot_sample_streams_into_its_own_pane(fake, store):
    def respond(request: Request) -> Reply:
        text = f"Sample seeded {request.body['seed']} weighs the corners."
        return Reply(text=f"{text}\nFinal answer: C2R2", piece=2, gap=0.02)

    fake.responder = respond
    session, panel = llm_game("tic_tac_toe", "openai/gpt-4o-mini+sc-cot", store=store)
    runner = in_background(session)
    live = wait_for(lambda: (v := panel.view(session))["turns"] and sum(
        p["state"] == "writing" and bool(p["answer"]) for p in
        v["turns"][0]["attempts"][0]["panes"]) == 5 and v)
    turn = live["turns"][0]
    assert turn["thinking"] and turn["mode"] == "sc-cot"
    assert "thinking…" in render(live)
    runner.join(10)
    done = panel.view(session)["turns"][0]["attempts"][0]
    sent = {request.body["seed"] for request in fake.requests}
    panes = done["panes"]
    assert [p["stream"] for p in panes] == [f"sample {i}/5" for i in range(1, 6)]
    assert {int(p["answer"].split()[2]) for p in panes} == sent
    assert all(p["read"] == "C2R2" and p["state"] == "done" for p in panes)
    assert done["votes"][0]["votes"] == {"C2R2": 5} and done["outcome"]["label"] == "C2R2"
    drawn = render(panel.view(session))
    assert drawn.count("class='llm-pane ") == 5 and "C2R2 × 5" in drawn


def test_provider_faults_and_retries_show_as_they_happen(fake):
    fake.script(Reply(status=503, error="overloaded", retry_after=0.3),
                Reply(text="C1R1", piece=1, gap=0.2))
    session, panel = llm_game("tic_tac_toe", GPT)
    runner = in_background(session)
    pane = wait_for(lambda: (t := panel.view(session)["turns"]) and
                    t[0]["attempts"][0]["panes"][0]["faults"] and t[0]["attempts"][0]["panes"][0])
    assert pane["state"] == "retrying" and "HTTP 503" in pane["faults"][0]
    assert "trying again in 0.3 s (try 2)" in pane["faults"][0]
    runner.join(10)
    pane = panel.view(session)["turns"][0]["attempts"][0]["panes"][0]
    assert pane["tries"] == 2 and pane["state"] == "done" and pane["answer"] == "C1R1"
    assert "⚠ HTTP 503" in render(panel.view(session))


def test_an_answer_the_adapter_refuses_and_the_retry_show_in_one_turn(fake):
    fake.script(Reply(text="I take the middle square, obviously."), Reply(text="C2R2"))
    session, panel = llm_game("tic_tac_toe", GPT)
    session.run_agents()
    [turn] = panel.view(session)["turns"]
    first, second = turn["attempts"]
    assert first["panes"][0]["rejected"] == "unparseable" and first["panes"][0]["read"] is None
    assert second["retry"] == 1 and second["outcome"]["label"] == "C2R2"
    drawn = render(panel.view(session))
    assert "not a legal move (unparseable)" in drawn and "Asked again (answer 2)" in drawn
    assert session.record.moves[-1].rejected[0].reason == "unparseable"


def test_ending_the_game_cancels_the_call_and_records_abandoned(fake, store):
    fake.responder = saying("x" * 400, piece=1, gap=0.05)  # about 20 s of tokens
    session, panel = llm_game("tic_tac_toe", GPT, store=store)
    runner = in_background(session)
    wait_for(lambda: panel.view(session)["turns"] and
             panel.view(session)["turns"][0]["attempts"][0]["panes"][0]["answer"])
    pressed = time.monotonic()
    session.abandon("the person stopped waiting for the opponent")
    runner.join(5)
    stopped = time.monotonic() - pressed
    assert not runner.is_alive() and stopped < 1.0
    record = store.get(session.id)
    assert record.outcome == "abandoned" and record.scores is None and record.moves == []
    assert "does not count as a loss" in session.status()


def test_the_record_keeps_usage_per_move_and_per_session_and_no_key(fake, store):
    fake.responder = saying("Corners first.", move=0)
    session, panel = llm_game("tic_tac_toe", "openai/gpt-4o-mini+cot", seat="second",
                              store=store)
    while not session.over:
        session.run_agents()
        if not session.over:
            session.play_label(session.legal()[-1].label)
    record = store.get(session.id)
    seat = record.seats[0]
    assert seat.kind == "llm" and seat.settings["model"] == "gpt-4o-mini"
    assert seat.settings["price_input_per_mtok"] == 0.15 and seat.settings["reasoning"] == "cot"
    theirs = [m for m in record.moves if m.seat == 0]
    assert all(m.meta["usage"]["prompt_tokens"] > 0 for m in theirs)
    total = record.metrics["usage"]["0"]
    assert total["calls"] == len(theirs)
    assert total["prompt_tokens"] == sum(m.meta["usage"]["prompt_tokens"] for m in theirs)
    assert total["cost_usd"] == pytest.approx(sum(m.meta["usage"]["cost_usd"] for m in theirs))
    view = panel.view(session)
    assert [r["move"] for r in view["moves"]] == [m.label for m in theirs]
    assert view["session"]["0"]["calls"] == total["calls"]
    assert KEY[-12:] not in record.to_json() and KEY[-12:] not in json.dumps(view)
    assert {r.key for r in fake.requests} == {KEY}


# --- what the panel hides -----------------------------------------------------------------


def test_a_hidden_card_stays_out_of_the_panel_until_the_game_ends(fake):
    fake.responder = saying("I hold the King, so I bet.")
    session, panel = llm_game("kuhn_poker", "anthropic/claude-haiku-4-5+cot")
    session.run_agents()
    assert session.record.moves[-1].seat == 0 and not session.over
    view = panel.view(session)
    pane = view["turns"][0]["attempts"][0]["panes"][0]
    assert pane["characters"] > 0 and pane["answer"] == pane["reasoning"] == ""
    assert "King" not in json.dumps(view) and "King" not in render(view)
    assert "hidden until the game ends" in render(view)
    while not session.over:
        session.play_label(session.legal()[0].label)
        session.run_agents()
    assert "I hold the King" in render(panel.view(session))


def test_sealed_bids_are_not_named_before_the_end(fake):
    fake.responder = saying("My valuation is high; I bid high.", move=-1)
    session, panel = llm_game("first_sealed_auction", "openai/gpt-4o-mini+cot")
    session.run_agents()
    bid = session.record.moves[-1]
    assert bid.seat == 0 and bid.label.startswith("bid")
    view = panel.view(session)
    attempt = view["turns"][0]["attempts"][0]
    assert attempt["outcome"]["label"] is None and attempt["panes"][0]["read"] is None
    assert view["moves"][0]["move"] is None and "(sealed)" in render(view)
    assert bid.label not in json.dumps(view) and "valuation" not in json.dumps(view)
    session.play_label(session.legal()[0].label)
    session.run_agents()
    assert session.over
    view = panel.view(session)
    assert view["moves"][0]["move"] == bid.label and "valuation" in render(view)


def settle(session, timeout: float = 10) -> None:
    """Wait for agents answering in the background (in a simultaneous round they think
    while the person does)."""
    deadline = time.monotonic() + timeout
    while session.agents.busy() and time.monotonic() < deadline:
        time.sleep(0.02)


def test_a_simultaneous_choice_is_hidden_until_the_round_is_played(fake):
    fake.responder = saying("They cooperated last time; I defect now.", move=1)
    session, panel = llm_game("iterated_prisoners_dilemma", "openai/gpt-4o-mini+cot")
    session.run_agents()  # the model chooses while the person has not chosen yet
    settle(session)
    view = panel.view(session)
    assert view["turns"] and view["turns"][0]["text_hidden"]
    assert "defect" not in json.dumps(view).lower()
    assert "until the round is played" in render(view)
    session.play_label("cooperate")
    session.run_agents()  # round 1 is played; unless the game ended, round 2 is chosen
    settle(session)
    view = panel.view(session)
    round_one = view["earlier"][-1] if view["earlier"] else view["turns"][0]
    assert "I defect now" in json.dumps(round_one) and not round_one["text_hidden"]
    if not session.over:
        assert view["turns"][0]["text_hidden"]
        assert "I defect now" not in json.dumps(view["turns"])


# --- the offline model ----------------------------------------------------------------------


SMOLLM = load_opponents(env={}).get("smollm2-135m")


@pytest.mark.skipif(missing(SMOLLM) is not None, reason=f"offline model: {missing(SMOLLM)}")
def test_the_offline_model_starts_in_the_background_and_the_panel_says_so():
    from agents.llm import local_servers

    local_servers().stop("smollm2-135m")
    session, panel = llm_game("tic_tac_toe", "local/smollm2-135m")
    runner = in_background(session)
    note = wait_for(lambda: panel.view(session)["notes"])
    assert "starting the offline model's server" in note[0]["text"]
    assert "starting the offline model&#x27;s server (llama.cpp)" in render(panel.view(session))
    runner.join(120)
    assert session.record.moves and session.record.moves[-1].seat == 0
    assert panel.view(session)["notes"] == []
    assert "smollm2-135m" in local_servers().running()
    local_servers().stop("smollm2-135m")
