"""What a person reads when a game ends and when looking back at it (issue 22, items 16-17):
what decided the game, finished results without "so far", History's places in words and
its rows without session ids."""

from __future__ import annotations

import gradio as gr
import pytest

from agents.specs import parse_spec
from renderers import ending, renderer
from sessions.record import replay
from sessions.store import Store
from sessions.tournament import play_one
from sessions.web.play import PlaySession
from sessions.web.players import Person, new_player_id
from sessions.web.replays import ordinal, outcome_text, summary_row
from sessions.web.tabs import history


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "arena.sqlite3") as opened:
        yield opened


def test_codenames_result_says_which_team_hit_the_assassin(store):
    """Seed 0: the person (red operative) ends it on the assassin; seed 1: Blue does."""
    said = []
    for seed in (0, 1):
        session = PlaySession("codenames", "random", person=Person(new_player_id()),
                              seat="second", store=store, seed=seed)
        session.run_agents()
        turn = 0
        while not session.over:
            legal = session.legal()
            session.play_label((legal[-1] if turn % 2 else legal[0]).label)
            session.run_agents()
            turn += 1
        said.append(session.result())
        assert ending("codenames", session.match.state) in session.result()
    assert said[0] == "Game over: your team (red) lost. Blue wins: Red hit the assassin."
    assert said[1] == "Game over: your team (red) won. Red wins: Blue hit the assassin."


def test_a_finished_gama_table_gives_its_score_not_a_score_so_far():
    record = play_one("guess_2_3", [parse_spec("random")] * 10, seed=3,
                      params={"num_rounds": 2})
    view = renderer("guess_2_3").VIEW
    middle = replay(record, upto=len(record.moves) // 2)
    assert "GAMA score so far" in view.standing(middle, 0)
    end = replay(record)
    assert end.is_terminal()
    told = view.standing(end, 0)
    assert "GAMA score " in told and "so far" not in told


def test_history_names_a_place_at_a_table_of_many_as_a_place(store):
    record = play_one("guess_2_3", [parse_spec("random")] * 10, seed=5,
                      params={"num_rounds": 2})
    returns = record.returns
    assert returns is not None
    for seat in range(10):
        place = 1 + sum(1 for r in returns if r > returns[seat])
        assert outcome_text(record, seat) == f"placed {ordinal(place)} of 10"
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]


def test_history_rows_show_no_session_id_and_a_click_opens_that_replay(store, monkeypatch):
    me = Person(new_player_id(), "Ada", consent=True)
    session = PlaySession("tic_tac_toe", "random", person=me, seat="first", store=store, seed=2)
    session.run_agents()
    while not session.over:
        session.play_label(session.legal()[0].label)
        session.run_agents()
    monkeypatch.setattr(history, "store", lambda: store)
    profile = {"player_id": me.player_id, "consent": True, "name": "Ada"}
    rows, count = history.history_rows("My games", False, profile)
    assert len(rows) == 1 and len(rows[0]) == 4
    assert not any(session.id in cell for cell in (rows[0][0], rows[0][2], rows[0][3]))
    assert "Tic-tac-toe" in rows[0][1] and history.OPENS in count
    assert rows[0][3] == summary_row(store.get(session.id), me.player_id)[3]
    picked = gr.SelectData(None, {"index": [0, 2], "value": rows[0][2],
                                  "row_value": rows[0], "selected": True})
    opened, *_ = history.open_replay(profile, picked)
    assert opened.record.id == session.id
