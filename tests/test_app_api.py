"""The app's API through gradio_client, against the real app on a free loopback port."""

from __future__ import annotations

import pytest
from gradio_client import Client
from gradio_client.exceptions import AppError

from games.registry import get
from renderers.gtbench.breakthrough import centres
from sessions.store import Store
from tests.app_server import running_app

PLAYER = "apitester0123456"


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("api")) as running:
        yield running


def _client(app) -> Client:
    return Client(app.url, verbose=False)


def test_a_full_game_through_the_api_is_stored(app):
    client = _client(app)
    state = client.predict("tic_tac_toe", "random", "first", PLAYER, True, "Api Tester",
                           api_name="/new_game")
    assert state["seat"] == 0 and state["seats"] == ["human", "random"]
    assert state["status"] == "Your turn." and len(state["legal"]) == 9
    while not state["over"]:
        move = state["legal"][0]
        state = client.predict(move, api_name="/move")
        assert state["accepted"] and state["notice"] == f"Your move: {move}."
    assert state["outcome"] == "normal" and state["result"].startswith("Game over:")
    with Store(app.store_path) as store:
        record = store.get(state["session"])
    human = record.seats[0]
    assert (human.kind, human.player_id, human.display_name) == ("human", PLAYER, "Api Tester")
    assert record.research_use is True
    assert [f"{i + 1}. " for i in range(len(state["moves"]))] == \
        [line[: len(f"{i + 1}. ")] for i, line in enumerate(state["moves"])]


def test_bad_moves_are_refused_and_change_nothing(app):
    client = _client(app)
    state = client.predict("connect_four", "random", "second", PLAYER, False, "",
                           api_name="/new_game")
    assert len(state["moves"]) == 1  # the agent in the first seat has moved
    for bad in ("C9", "left please", ""):
        after = client.predict(bad, api_name="/move")
        assert after["accepted"] is False and "Legal moves:" not in after["notice"]
        assert "Legal moves:" in after["detail"]  # the adapter's message, for programs
        assert after["moves"] == state["moves"]
    after = client.predict("c4", api_name="/move")
    assert after["accepted"] and len(after["moves"]) == 3


def test_clicks_and_resign_through_the_api(app):
    client = _client(app)
    client.predict("breakthrough", "random", "first", PLAYER, False, "", api_name="/new_game")
    state = get("breakthrough").load(get("breakthrough").params()).new_initial_state()
    at = centres(state, 0)
    selected = client.predict(*at["a7"], api_name="/click")
    assert selected["accepted"] is False and selected["notice"].startswith("a7 selected")
    moved = client.predict(*at["a6"], api_name="/click")
    assert moved["accepted"] and moved["moves"][0] == "1. You: a7->a6"
    over = client.predict(api_name="/resign")
    assert over["over"] and over["outcome"] == "forfeit"
    with Store(app.store_path) as store:
        assert store.get(over["session"]).end_reason == "resigned"


def test_each_client_has_its_own_game(app):
    first, second = _client(app), _client(app)
    a = first.predict("nim", "random", "first", PLAYER, False, "", api_name="/new_game")
    b = second.predict("pig", "random", "first", PLAYER, False, "", api_name="/new_game")
    assert a["session"] != b["session"]
    assert first.predict(api_name="/state")["game"] == "nim"
    assert second.predict(api_name="/state")["game"] == "pig"


def test_errors_say_what_is_wrong(app):
    client = _client(app)
    with pytest.raises(AppError, match="call /new_game first"):
        client.predict("C1R1", api_name="/move")
    with pytest.raises(AppError, match="unknown game 'chess'"):
        client.predict("chess", "random", "first", PLAYER, False, "", api_name="/new_game")
    with pytest.raises(AppError, match="ismcts instead"):
        client.predict("kuhn_poker", "mcts", "first", PLAYER, False, "", api_name="/new_game")
