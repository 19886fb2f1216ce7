"""The Leaderboard tab's data through gradio_client, against the real app on a free port.

The store is filled by tournaments before the app starts; sessions played through the API
while it runs must be counted within seconds, without a restart.
"""

from __future__ import annotations

import csv
import time
from pathlib import Path

import pytest
from gradio_client import Client
from gradio_client.exceptions import AppError

from sessions.engine import FailurePolicy
from sessions.store import Store
from sessions.tournament import run_tournament
from tests.app_server import running_app

PLAYER = "boardtester012345"
ALL = ("all", False, "", "")


def fill(path: Path) -> None:
    """9 rated sessions: 4 tic-tac-toe, 4 Kuhn poker, 1 Guess 2/3 with ten seats."""
    with Store(path) as store:
        for game, agents, matches in (("tic_tac_toe", ["random", "mcts:25:0s"], 4),
                                      ("kuhn_poker", ["random", "ismcts:25:0s"], 4),
                                      ("guess_2_3", ["equilibrium", "adaptive"] + ["random"] * 8,
                                       1)):
            run_tournament(game, agents, matches=matches, seed=3, store=store,
                           policy=FailurePolicy(), progress=False)


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    data = tmp_path_factory.mktemp("leaderboard")
    fill(data / "arena.sqlite3")
    with running_app(data) as running:
        yield running


@pytest.fixture(scope="module")
def client(app) -> Client:
    return Client(app.url, verbose=False)


def board(client: Client, game: str = "all", humans: bool = False, since: str = "",
          until: str = "") -> dict:
    return client.predict(game, humans, since, until, api_name="/leaderboard")


def entities(table: dict) -> set[str]:
    return {row[1] for row in table["rows"]}


def play_tic_tac_toe(client: Client, *, consent: bool) -> dict:
    state = client.predict("tic_tac_toe", "random", "first", PLAYER, consent, "",
                           api_name="/new_game")
    while not state["over"]:
        state = client.predict(state["legal"][0], api_name="/move")
    return state


def test_the_leaderboard_reads_the_stored_sessions(client):
    data = board(client)
    assert data["summary"].startswith("9 rated matches · 3 games · 1000 bootstraps")
    overall = data["overall"]
    assert overall["headers"][:7] == ["rank", "entity", "rating", "90% low", "90% high",
                                      "matches", "win rate"]
    assert overall["headers"][7:] == ["guess_2_3", "kuhn_poker", "tic_tac_toe"]
    assert entities(overall) == {"random", "mcts:25:0s", "ismcts:25:0s", "equilibrium",
                                 "adaptive"}
    for row in overall["rows"]:
        assert row[3] <= row[2] <= row[4] and row[0] >= 1
    ranks = [row[0] for row in overall["rows"]]
    assert ranks == sorted(ranks)  # best first
    assert {row[0] for row in data["per_game"]["rows"]} == {"guess_2_3", "kuhn_poker",
                                                            "tic_tac_toe"}
    heads = data["win_probabilities"]
    assert heads["headers"][1:] == [row[1] for row in overall["rows"]]
    assert {(r[0], r[1], r[2]) for r in data["nra"]["rows"]} >= {
        ("tic_tac_toe", "mcts:25:0s", "random"), ("kuhn_poker", "random", "ismcts:25:0s")}
    gama = {row[0]: row for row in data["gama"]["rows"]}
    assert set(gama) == {"equilibrium", "adaptive", "random"}
    assert gama["equilibrium"][1].endswith("(1)") and gama["equilibrium"][2] == "—"


def test_a_session_played_through_the_api_is_counted_within_seconds(app, client):
    before = board(client)
    player = Client(app.url, verbose=False)
    finished = play_tic_tac_toe(player, consent=True)
    assert finished["research_use"] is True
    start, after = time.monotonic(), board(client)
    while after["matches"] == before["matches"] and time.monotonic() - start < 10:
        time.sleep(0.5)
        after = board(client)
    assert after["matches"] == before["matches"] + 1, "the new session was not counted"
    assert time.monotonic() - start < 5
    assert "human" in entities(after["overall"])
    human = next(r for r in after["overall"]["rows"] if r[1] == "human")
    assert human[5] == 1 and human[6] == finished["scores"][0]
    # without consent the session is stored but not rated, and the summary says so
    play_tic_tac_toe(player, consent=False)
    later = board(client)
    assert later["matches"] == after["matches"]
    assert later["dropped"]["not shared for research"] == \
        after["dropped"].get("not shared for research", 0) + 1
    assert "not shared for research" in later["summary"]


def test_filters_change_the_table(client):
    everything = board(client)
    kuhn = board(client, game="kuhn_poker")
    assert entities(kuhn["overall"]) == {"random", "ismcts:25:0s"}
    assert kuhn["matches"] == 4 and kuhn["overall"]["headers"][7:] == ["kuhn_poker"]
    assert kuhn["gama"]["rows"] == []
    humans = board(client, humans=True)
    assert humans["matches"] < everything["matches"]
    assert all("human" in (r[1], r[2]) for r in humans["nra"]["rows"])
    assert board(client, until="2001-01-01")["matches"] == 0
    assert board(client, since="2001-01-01")["matches"] == everything["matches"]
    today = time.strftime("%Y-%m-%d", time.gmtime())
    assert board(client, since=today, until=today)["matches"] == everything["matches"]


def test_bad_filters_are_refused_with_what_is_allowed(client):
    with pytest.raises(AppError, match="cannot read the date 'last week'; write YYYY-MM-DD"):
        board(client, since="last week")
    with pytest.raises(AppError, match="unknown game 'chess'; registered games: "):
        board(client, game="chess")


def test_the_csv_download_holds_the_table_shown(client):
    for game in ("all", "tic_tac_toe"):
        shown = board(client, game=game)["overall"]
        path = client.predict(game, False, "", "", api_name="/leaderboard_csv")
        assert Path(path).name.startswith(f"leaderboard-{game}-")
        with open(path, encoding="utf-8", newline="") as f:
            rows = list(csv.reader(f))
        assert rows[0] == shown["headers"]
        assert rows[1:] == [["" if cell is None else str(cell) for cell in row]
                            for row in shown["rows"]]
