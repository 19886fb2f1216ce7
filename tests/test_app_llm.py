"""LLM opponents through the real app and gradio_client, with the app's OpenAI and Anthropic
SDKs pointed at tests/fake_llm_server.py (OPENAI_BASE_URL / ANTHROPIC_BASE_URL).

Every key used here is typed in (/set_key), never in the app's environment; the last test
greps the store, the JSONL export, the app's log (SDK debug logging on) and every API
answer of this module for all of them.
"""

from __future__ import annotations

import io
import json
import os
import random
import secrets
import time
from pathlib import Path

import pytest
from gradio_client import Client
from gradio_client.exceptions import AppError

from agents.llm import load_opponents
from agents.llm.local import missing
from agents.specs import parse_spec
from sessions.store import Store, export_jsonl
from tests.app_server import running_app
from tests.fake_llm_server import FakeLLM, Reply, Request, answer

PLAYER = "llmtester012345"
KEYS: list[str] = []  # every key typed in this module
ANSWERS: list[str] = []  # every API answer of this module, as JSON


@pytest.fixture(scope="module")
def fake():
    with FakeLLM() as server:
        yield server


def provider_env(fake: FakeLLM) -> dict[str, str | None]:
    return {"OPENAI_BASE_URL": fake.openai_url, "ANTHROPIC_BASE_URL": fake.url,
            "OPENAI_API_KEY": None, "ANTHROPIC_API_KEY": None, "ARENA_COMPAT_API_KEY": None,
            "ARENA_OPPONENTS": None, "OPENAI_LOG": "debug", "ANTHROPIC_LOG": "debug"}


@pytest.fixture(scope="module")
def app(fake, tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("llm-app"), env=provider_env(fake)) as running:
        yield running


class Recorded:
    """A gradio_client Client whose every answer is kept for the leak check."""

    def __init__(self, app) -> None:
        self.client = Client(app.url, verbose=False)

    def predict(self, *args, api_name: str):
        result = self.client.predict(*args, api_name=api_name)
        ANSWERS.append(json.dumps(result))
        return result

    def submit(self, *args, api_name: str):
        return self.client.submit(*args, api_name=api_name)

    def done(self, job, timeout: float = 30):
        result = job.result(timeout=timeout)
        ANSWERS.append(json.dumps(result))
        return result


def new_key(provider: str) -> str:
    key = ("sk-ant-api03-" if provider == "anthropic" else "sk-proj-") + secrets.token_hex(16)
    KEYS.append(key)
    return key


def random_legal(seed: int, reasoning: str = "Let me weigh the corners and the centre."):
    rng = random.Random(seed)

    def respond(request: Request) -> Reply:
        return answer(request, rng.choice(request.legal_moves()), reasoning=reasoning)

    return respond


def sent_with(fake: FakeLLM, key: str) -> list[Request]:
    return [r for r in fake.requests if r.key == key]


def panes(thinking: dict) -> list[dict]:
    return thinking["turns"][0]["attempts"][-1]["panes"] if thinking.get("turns") else []


def poll(client: Recorded, condition, timeout: float = 20.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        seen = client.predict(api_name="/thinking")
        if condition(seen):
            return seen
        time.sleep(0.05)
    raise AssertionError(f"the panel never showed it; last: {seen}")


@pytest.mark.parametrize(("spec", "api", "seat"), [
    ("openai/gpt-4o-mini+cot", "openai", "first"),
    ("anthropic/claude-haiku-4-5+cot", "anthropic", "second"),
])
def test_a_full_game_against_each_protocol_with_a_typed_key(app, fake, spec, api, seat):
    key = new_key(api)
    fake.responder = random_legal(len(KEYS))
    client = Recorded(app)
    held = client.predict(spec, key, api_name="/set_key")
    assert held == {"opponent": spec, "key_held": True, "ready": True, "problem": ""}
    state = client.predict("tic_tac_toe", spec, seat, PLAYER, True, "", api_name="/new_game")
    while not state["over"]:
        state = client.predict(state["legal"][0], api_name="/move")
    assert state["outcome"] == "normal" and state["result"].startswith("Game over:")
    with Store(app.store_path) as store:
        record = store.get(state["session"])
    llm = 1 - state["seat"]
    assert record.seats[llm].entity == parse_spec(spec).entity
    asked = sent_with(fake, key)  # the typed key, in the header the SDK sends it in
    assert asked and all(r.api == api and (r.headers.get("authorization") == f"Bearer {key}"
                                           or r.headers.get("x-api-key") == key)
                         for r in asked)
    theirs = [m for m in record.moves if m.seat == llm]
    assert len(theirs) == len(asked)  # one call per move
    assert all(m.label in r.legal_moves() for m, r in zip(theirs, asked, strict=True))
    assert record.metrics["usage"][str(llm)]["calls"] == len(asked)
    thinking = client.predict(api_name="/thinking")
    assert [row["move"] for row in thinking["moves"]] == [m.label for m in theirs]
    assert thinking["session"][str(llm)]["cost_usd"] > 0


def test_no_key_no_game_with_a_clear_message(app, fake):
    client = Recorded(app)
    with pytest.raises(AppError, match="needs an API key: set ANTHROPIC_API_KEY, or enter"):
        client.predict("tic_tac_toe", "anthropic/claude-sonnet-4-5", "first", PLAYER, False,
                       "", api_name="/new_game")
    with pytest.raises(AppError, match="call /new_game first"):
        client.predict(api_name="/state")
    refused = client.predict("openai/gpt-4o-mini", "sk-has a space", api_name="/set_key")
    assert refused["key_held"] is False and "spaces" in refused["problem"]
    assert "has a space" not in json.dumps(refused)


def test_sc_cot_samples_stream_into_the_panel_as_they_arrive(app, fake):
    key = new_key("openai")

    def respond(request: Request) -> Reply:
        text = f"Sample with seed {request.body['seed']} looks at every line on the board."
        return Reply(text=f"{text}\nFinal answer: {request.legal_moves()[0]}", piece=2,
                     gap=0.03)

    fake.responder = respond
    client = Recorded(app)
    client.predict("openai/gpt-4o-mini", key, api_name="/set_key")
    client.predict("tic_tac_toe", "openai/gpt-4o-mini+sc-cot", "first", PLAYER, False, "",
                   api_name="/new_game")
    job = client.submit("C2R2", api_name="/move")
    live = poll(client, lambda t: len(panes(t)) == 5 and all(
        p["state"] == "writing" and p["answer"] for p in panes(t)))
    assert live["thinking"] and live["turns"][0]["thinking"]
    partial = {p["stream"]: p["answer"] for p in panes(live)}
    state = client.done(job)
    assert state["accepted"] and len(state["moves"]) == 2
    final = client.predict(api_name="/thinking")
    sent = {f"Sample with seed {r.body['seed']}" for r in sent_with(fake, key)}
    assert len(sent) == 5
    assert {p["answer"].split(" looks")[0] for p in panes(final)} == sent
    for pane in panes(final):  # what streamed earlier is the start of the final text
        assert pane["answer"].startswith(partial[pane["stream"]])
    assert final["turns"][0]["attempts"][-1]["votes"][0]["winner"] == \
        state["moves"][1].split(": ")[1]


def test_a_faulting_slow_model_shows_retries_and_ending_it_is_not_a_loss(app, fake):
    key = new_key("anthropic")
    fake.script(Reply(status=503, error="overloaded", retry_after=0.4),
                Reply(status=429, error="rate limited", retry_after=0.4),
                Reply(text="x" * 400, piece=1, gap=0.05))  # about 20 s of tokens
    client = Recorded(app)
    client.predict("anthropic/claude-haiku-4-5", key, api_name="/set_key")
    client.predict("tic_tac_toe", "anthropic/claude-haiku-4-5+cot", "first", PLAYER, True, "",
                   api_name="/new_game")
    job = client.submit("C1R1", api_name="/move")
    seen = poll(client, lambda t: panes(t) and len(panes(t)[0]["faults"]) == 2
                and panes(t)[0]["answer"])
    faults = panes(seen)[0]["faults"]
    assert "HTTP 503" in faults[0] and "trying again in 0.4 s (try 2)" in faults[0]
    assert "HTTP 429" in faults[1] and "(try 3)" in faults[1]
    assert panes(seen)[0]["tries"] == 3
    pressed = time.monotonic()
    ended = client.predict(api_name="/end_game")
    state = client.done(job, timeout=10)
    returned = time.monotonic() - pressed
    assert ended["outcome"] == "abandoned" and "does not count as a loss" in ended["result"]
    assert state["over"] and returned < 2.0
    with Store(app.store_path) as store:
        record = store.get(ended["session"])
    assert record.outcome == "abandoned" and record.scores is None
    assert [m.label for m in record.moves] == ["C1R1"]
    streamed = sent_with(fake, key)[-1]
    deadline = time.monotonic() + 5
    while streamed.hung_up is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert streamed.hung_up is not None and len(streamed.sent) < 100  # the call was cut


def test_a_provider_echoing_the_typed_key_never_gets_it_shown_or_stored(app, fake):
    key = new_key("anthropic")

    def echo(request: Request) -> Reply:
        said = f"Your key {request.key} is a fine key. The centre is strong."
        return Reply(text=f"{said}\nFinal answer: {request.legal_moves()[0]}", reasoning=said,
                     piece=5, gap=0.01)

    fake.responder = echo
    client = Recorded(app)
    client.predict("anthropic/claude-haiku-4-5", key, api_name="/set_key")
    state = client.predict("tic_tac_toe", "anthropic/claude-haiku-4-5+cot", "first", PLAYER,
                           True, "", api_name="/new_game")
    job = client.submit("C2R2", api_name="/move")
    live = poll(client, lambda t: panes(t) and "fine key" in panes(t)[0]["answer"])
    state = client.done(job)
    while not state["over"]:
        state = client.predict(state["legal"][0], api_name="/move")
    final = client.predict(api_name="/thinking")
    with Store(app.store_path) as store:
        exported = io.StringIO()
        export_jsonl(store, exported)
        record = store.get(state["session"])
    assert "Your key [key] is a fine key" in panes(final)[0]["answer"]
    assert "Your key [key] is a fine key" in record.moves[1].reasoning
    stored = b"".join(p.read_bytes() for p in Path(app.data_dir).glob("arena.sqlite3*"))
    secret = key[-32:]
    for piece in (secret[:12], secret[-12:]):
        assert piece.encode() not in stored
        for name, text in (("export", exported.getvalue()), ("live panel", json.dumps(live)),
                           ("final panel", json.dumps(final))):
            assert piece not in text, f"the echoed key reached the {name}"


def test_typed_keys_never_reach_the_store_the_export_the_log_or_an_answer(app, fake):
    key = new_key("openai")
    # the provider refuses the first call with a message quoting the key, as some do
    fake.script(Reply(status=401, error=f"Incorrect API key provided: {key}."))
    fake.responder = random_legal(7)
    client = Recorded(app)
    client.predict("openai/gpt-4o", key, api_name="/set_key")
    state = client.predict("tic_tac_toe", "openai/gpt-4o+cot", "second", PLAYER, True, "",
                           api_name="/new_game")
    ANSWERS.append(json.dumps(client.predict(api_name="/thinking")))
    while not state["over"]:
        state = client.predict(state["legal"][0], api_name="/move")
        ANSWERS.append(json.dumps(client.predict(api_name="/thinking")))
    assert sent_with(fake, key)[0].headers["authorization"] == f"Bearer {key}"
    with Store(app.store_path) as store:
        record = store.get(state["session"])
        exported = io.StringIO()
        export_jsonl(store, exported)
    assert record.moves[0].rejected[0].reason == "api_error"  # the 401 was recorded
    assert "[key]" in record.to_json()  # the quoted key was blanked
    log = app.log.read_text()
    assert "Request options" in log  # the SDKs' debug logging was on
    stored = b"".join(p.read_bytes() for p in Path(app.data_dir).glob("arena.sqlite3*"))
    places = {"export": exported.getvalue(), "log": log, "answers": "\n".join(ANSWERS)}
    assert len(KEYS) >= 4
    for typed in KEYS:
        secret = typed[-32:]  # the random part; no piece of it may leak
        for piece in (secret[:12], secret[-12:]):
            assert piece.encode() not in stored
            for name, text in places.items():
                assert piece not in text, f"a typed key leaked into the {name}"


# --- the offline model ----------------------------------------------------------------------

SMOLLM = load_opponents(env={}).get("smollm2-135m")


def children_named(parent: int, word: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if ppid == parent and word in command:
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(missing(SMOLLM) is not None, reason=f"offline model: {missing(SMOLLM)}")
def test_the_offline_model_starts_on_demand_and_stops_with_the_app(fake, tmp_path):
    with running_app(tmp_path / "local", env=provider_env(fake)) as running:
        client = Recorded(running)
        assert children_named(running.pid, "llama_cpp.server") == []
        client.predict("tic_tac_toe", "local/smollm2-135m", "first", PLAYER, False, "",
                       api_name="/new_game")
        job = client.submit("C2R2", api_name="/move")
        starting = poll(client, lambda t: t.get("notes"))
        assert "starting the offline model's server" in starting["notes"][0]["text"]
        state = client.done(job, timeout=120)
        assert len(state["moves"]) == 2 and state["moves"][1].startswith("2. SmolLM2")
        [server] = children_named(running.pid, "llama_cpp.server")
    deadline = time.monotonic() + 15
    while _alive(server) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(server), "the llama.cpp server outlived the app"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] == "Z")
