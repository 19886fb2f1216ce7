"""Games played by talking through the app's API (gradio_client, the real app on loopback):
words as moves, the conversation as the seat heard it, bad words refused."""

from __future__ import annotations

import pytest
from gradio_client import Client

from agents import embedding
from tests.app_server import running_app

PLAYER = "talkplayer0001"
WORD_AGENT = "minilm" if embedding.missing() is None else "random"


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("talk-api")) as running:
        yield running


def test_codenames_spymaster_through_the_api(app):
    client = Client(app.url, verbose=False)
    state = client.predict("codenames", ",".join([WORD_AGENT] * 3), "0", PLAYER, True,
                           "Api Talk", api_name="/new_game")
    assert [row["team"] for row in state["table"]] == ["red", "red", "blue", "blue"]
    assert state["table"][0]["player"] == "you"
    clues = iter(["zebu", "quokka", "gnu", "yak", "okapi", "tapir", "ibex", "koala", "lemur",
                  "dingo", "bison", "emu", "kiwi", "puma"])
    cells = [cell.strip() for line in state["view"].splitlines() if "|" in line
             for cell in line.split("|")]  # "WORD (role)", or "WORD = role (revealed)"
    board_word = next(cell.split()[0] for cell in cells if "revealed" not in cell)
    refused = client.predict(f"clue: {board_word} 2", api_name="/move")
    assert not refused["accepted"] and "on the board" in refused["notice"]
    assert refused["talk"] == state["talk"]
    while not state["over"]:
        assert state["say"].startswith("Your turn: clue:")
        clue = next(clues)
        state = client.predict(f"clue: {clue} 2", api_name="/move")
        assert state["accepted"], state["notice"]
        assert any(t["text"] == f"{clue.upper()} 2" and t["speaker"] == "Red spymaster"
                   for t in state["talk"])
    assert state["outcome"] == "normal"


def test_are_you_the_traitor_through_the_api(app):
    client = Client(app.url, verbose=False)
    state = client.predict("are_you_the_traitor", "random,random,random,random", "2",
                           PLAYER, True, "Api Talk", api_name="/new_game")
    assert len(state["table"]) == 5
    refused = client.predict("say: " + "x" * 20_000, api_name="/move")
    assert not refused["accepted"] and "characters" in refused["notice"]
    while not state["over"]:
        move = "answer: I am a guard." if "Your turn: answer" in state["view"] else "pass"
        state = client.predict(move, api_name="/move")
        assert state["accepted"], state["notice"]
    assert state["outcome"] == "normal"
