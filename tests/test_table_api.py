"""GAMA-Bench's games through the app's API: a person in one seat among nine agents, against
the real app on a free loopback port (gradio_client), for all eight games."""

from __future__ import annotations

import pytest
from gradio_client import Client

from games.gama.catalogue import GAMES
from sessions.store import Store
from tests.app_server import running_app

PLAYER = "tableplayer0001"
MIXED = ",".join(["equilibrium", "adaptive", "random"] * 3)
STEWART = "0 1 0 1 0 1 0 1 0"  # the proposer's optimal plan for ten pirates


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("table-api")) as running:
        yield running


def _client(app) -> Client:
    return Client(app.url, verbose=False)


def _answer(state: dict) -> str:
    """A person's answer to the decision on show: a third of the number range, or the last
    of the choices."""
    control = state["control"]
    if control["kind"] == "number":
        return str((control["minimum"] + control["maximum"]) // 3)
    assert control["kind"] == "choice", state
    return control["options"][-1]


@pytest.mark.parametrize("game_id", [spec.id for spec in GAMES])
def test_a_full_session_with_a_person_among_nine_agents(app, game_id):
    client = _client(app)
    seat = 0 if game_id in ("battle_royale", "pirate_game") else 4
    state = client.predict(game_id, MIXED, str(seat), PLAYER, True, "Api Table",
                           api_name="/new_game")
    assert state["seat"] == seat and len(state["table"]) == 10
    assert state["table"][seat]["player"] == "you"
    assert {row["player"] for row in state["table"]} == {"you", "Equilibrium", "Adaptive",
                                                         "Random"}
    decisions = 0
    while not state["over"]:
        assert state["status"] == "Your turn." and state["control"]["kind"] != "wait"
        if state["plan"]:
            assert state["plan"] == [f"pirate {p}" for p in range(2, 11)]
            state = client.predict(STEWART, api_name="/plan")
        else:
            state = client.predict(_answer(state), api_name="/move")
        assert state["accepted"], state["notice"]
        decisions += 1
    assert state["outcome"] == "normal" and state["result"].startswith("Game over: you placed")
    summary = state["summary"]
    assert summary["headers"][-1] == "GAMA score" and len(summary["rows"]) == 10
    mine = next(row for row in summary["rows"] if row[1] == "you")
    with Store(app.store_path) as store:
        record = store.get(state["session"])
    human = record.seats[seat]
    assert (human.kind, human.player_id, human.display_name) == ("human", PLAYER, "Api Table")
    assert [s.entity for i, s in enumerate(record.seats) if i != seat] == MIXED.split(",")
    played = [m for m in record.moves if m.seat == seat and not m.meta.get("forced")]
    assert played and decisions <= len(played)  # a plan is one decision of several moves
    score = record.metrics["gama"]["seats"][seat]["score"]
    assert mine[-1] == ("—" if score is None else f"{score:.1f}")
    rounds = len(state["results"]["rows"])
    if "num_rounds" in record.params:
        assert rounds == record.params["num_rounds"] == 20
    assert rounds >= 1


def test_out_of_range_numbers_are_refused_with_the_range_and_change_nothing(app):
    client = _client(app)
    state = client.predict("guess_2_3", MIXED, "3", PLAYER, False, "", api_name="/new_game")
    for bad in ("101", "-5", "37.5", "fifty"):
        after = client.predict(bad, api_name="/move")
        assert after["accepted"] is False
        assert "from 0 to 100" in after["notice"], after["notice"]
        assert after["results"] == state["results"] and after["moves"] == state["moves"]
        assert after["control"] == state["control"] and after["status"] == "Your turn."
    played = client.predict("33", api_name="/move")
    assert played["accepted"] and played["results"]["rows"][0][1] == "33"
    with Store(app.store_path) as store, pytest.raises(KeyError):
        store.get(played["session"])  # not over: nothing stored yet
    over = client.predict(api_name="/resign")
    with Store(app.store_path) as store:
        record = store.get(over["session"])
    first = next(m for m in record.moves if m.seat == 3)
    assert [a.raw for a in first.rejected] == ["101", "-5", "37.5", "fifty"]


def test_a_bad_pirate_plan_is_refused_and_changes_nothing(app):
    client = _client(app)
    state = client.predict("pirate_game", MIXED, "0", PLAYER, False, "", api_name="/new_game")
    for bad, reason in (("60 60 0 0 0 0 0 0 0", "gives away 120 golds; there are 100"),
                        ("1 2", "A plan needs 9 shares"),
                        ("0 1 0 1 0 1 0 1 -1", "0 or more")):
        after = client.predict(bad, api_name="/plan")
        assert after["accepted"] is False and reason in after["notice"], after["notice"]
        assert after["moves"] == state["moves"] and after["plan"] == state["plan"]
    voted = client.predict(STEWART, api_name="/plan")
    assert voted["accepted"] and voted["results"]["rows"][0][2] == "96 0 1 0 1 0 1 0 1 0"


def test_a_choice_that_is_not_offered_says_what_is(app):
    client = _client(app)
    client.predict("el_farol", MIXED, "1", PLAYER, False, "", api_name="/new_game")
    after = client.predict("maybe later", api_name="/move")
    assert after["accepted"] is False and "go" in after["notice"] and "stay" in after["notice"]
    assert after["control"]["options"] == ["go", "stay"]
