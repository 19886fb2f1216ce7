"""Bring-your-own-key: a key typed into the page reaches the provider and nothing else."""

from __future__ import annotations

import io
import logging
import secrets

from agents.specs import make_agent, parse_spec
from games import registry
from sessions.engine import play_match
from sessions.match import Match
from sessions.record import SeatRecord
from sessions.store import Store, export_jsonl
from tests.fake_llm_server import FakeLLM, Reply, first_legal

TIC = registry.get("tic_tac_toe")


def test_a_typed_key_is_never_stored_logged_exported_or_echoed(tmp_path, caplog, capsys):
    caplog.set_level(logging.DEBUG)  # every logger, the SDKs' and the HTTP library's too
    openai_key = f"sk-proj-{secrets.token_hex(16)}"
    anthropic_key = f"sk-ant-api03-{secrets.token_hex(16)}"
    events = []
    with FakeLLM() as fake:
        # the first answer is a 401 whose message quotes the key, as some providers do
        fake.script(Reply(status=401, error=f"Incorrect API key provided: {openai_key}."))
        env = {"OPENAI_BASE_URL": fake.openai_url, "ANTHROPIC_BASE_URL": fake.url}
        specs = [parse_spec("openai/gpt-4o-mini+cot"), parse_spec("anthropic/claude-haiku-4-5")]
        seats = [SeatRecord(s.kind, s.text, s.entity) for s in specs]
        match = Match("tic_tac_toe", seats, seed=4)
        agents = [make_agent(specs[0], TIC, match.record.params, seed=1, env=env,
                             api_key=openai_key, on_event=events.append),
                  make_agent(specs[1], TIC, match.record.params, seed=2, env=env,
                             api_key=anthropic_key, on_event=events.append)]
        for seat, agent in zip(seats, agents, strict=True):
            seat.settings = agent.settings()
        fake.responder = first_legal
        record = play_match(match, agents)
        sent = {request.key for request in fake.requests}
    assert sent == {openai_key, anthropic_key}  # the keys did reach the provider
    assert record.moves[0].rejected[0].reason == "api_error"  # the 401 was recorded

    db = tmp_path / "arena.sqlite3"
    with Store(db) as store:
        store.save(record)
        exported = io.StringIO()
        export_jsonl(store, exported)
    places = {
        "record": record.to_json(),
        "export": exported.getvalue(),
        "events": repr(events),
        "logs": caplog.text + "\n".join(repr(r.__dict__) for r in caplog.records),
        "output": "".join(capsys.readouterr()),
        "settings": repr([agent.settings() for agent in agents]),
    }
    stored = b"".join(path.read_bytes() for path in tmp_path.iterdir())
    for key in (openai_key, anthropic_key):
        secret_part = key[-32:].encode()  # the random part: no prefix of it may leak
        assert secret_part[:12] not in stored and secret_part[-12:] not in stored
        for name, text in places.items():
            assert key[-32:][:12] not in text and key[-32:][-12:] not in text, name
    assert "HTTP 401" in record.moves[0].rejected[0].message or \
        "HTTP 401" in record.moves[0].rejected[0].meta["failure_detail"]
    assert "[key]" in record.to_json()  # the echoed key was blanked out, not dropped silently


def test_keys_a_provider_echoes_are_blanked_before_they_are_streamed_or_stored(
        tmp_path, monkeypatch):
    """A provider quoting keys back, in its answer, its reasoning and a structured answer,
    in pieces that split them: the typed keys and a key from the environment (one this
    provider never received) are blanked in the streamed pieces, the record, the store and
    the export."""
    from agents.llm.redaction import hold

    openai_key = f"sk-proj-{secrets.token_hex(16)}"
    anthropic_key = f"sk-ant-api03-{secrets.token_hex(16)}"
    env_key = f"hf_{secrets.token_hex(16)}"
    monkeypatch.setenv("HF_TOKEN", env_key)

    class Tab:  # a key holder like the page's Keyring, holding a key no seat here uses
        def held_keys(self):
            return [other_key]

    other_key = f"sk-other-{secrets.token_hex(16)}"
    tab = Tab()
    hold(tab)

    def echo(request):
        said = f"My key is {request.key}; also {env_key} and {other_key}."
        move = request.legal_moves()[0]
        if request.schema is not None and request.api == "anthropic":
            return Reply(reasoning=said, tool_input={"move": move, "thinking": said}, piece=3)
        return Reply(text=f"{said}\nFinal answer: {move}", reasoning=said, piece=3)

    events = []
    with FakeLLM(echo) as fake:
        env = {"OPENAI_BASE_URL": fake.openai_url, "ANTHROPIC_BASE_URL": fake.url}
        specs = [parse_spec("openai/gpt-4o-mini+cot"),
                 parse_spec("anthropic/claude-haiku-4-5+json")]
        seats = [SeatRecord(s.kind, s.text, s.entity) for s in specs]
        match = Match("tic_tac_toe", seats, seed=4)
        agents = [make_agent(specs[0], TIC, match.record.params, seed=1, env=env,
                             api_key=openai_key, on_event=events.append),
                  make_agent(specs[1], TIC, match.record.params, seed=2, env=env,
                             api_key=anthropic_key, on_event=events.append)]
        record = play_match(match, agents)
    assert record.outcome == "normal"  # the echoes did not stop the game
    db = tmp_path / "arena.sqlite3"
    with Store(db) as store:
        store.save(record)
        exported = io.StringIO()
        export_jsonl(store, exported)
    tokens = {}
    for event in events:
        if event.kind == "token":
            tokens[(event.seat, event.index, event.channel)] = \
                tokens.get((event.seat, event.index, event.channel), "") + event.text
    places = {"record": record.to_json(), "export": exported.getvalue(),
              "streamed": "\n".join(tokens.values()), "events": repr(events)}
    stored = b"".join(path.read_bytes() for path in tmp_path.iterdir())
    for key in (openai_key, anthropic_key, env_key, other_key):
        for piece in (key[-32:][:12], key[-32:][-12:]):
            assert piece.encode() not in stored
            for name, text in places.items():
                assert piece not in text, f"a key leaked into the {name}"
    assert "My key is [key]; also [key] and [key]." in places["streamed"]
    assert record.moves[0].reasoning.startswith("My key is [key]")
    del tab
