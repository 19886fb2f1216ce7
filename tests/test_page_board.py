"""Beside the board, without a browser: clocks, the move list, looking back through the
positions seen so far, and History's list (finished games first, abandoned ones hidden)."""

from __future__ import annotations

import pytest

from renderers import image_view, renderer
from sessions.record import CHANCE
from sessions.store import Store
from sessions.web import replays
from sessions.web.play import PlaySession
from sessions.web.players import Person, new_player_id
from sessions.web.scoreboard import clock, seconds_used, took


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "arena.sqlite3") as opened:
        yield opened


def person() -> Person:
    return Person(new_player_id(), "Ada")


def click(session: PlaySession, target: str) -> str:
    x, y = renderer(session.spec.id).centres(session.match.state, session.human)[target]
    return session.click(x, y)


def test_clocks_count_each_sides_moves_and_the_running_turn():
    session = PlaySession("tic_tac_toe", "random", person=person(), seat="first")
    record = session.record
    click(session, "C2R2")
    session.run_agents()
    you, them = record.moves[0], record.moves[1]
    now = them.ended_at + 5.0
    used = seconds_used(record, [0], now)
    assert used[0] == pytest.approx(you.ended_at - you.started_at + 5.0)
    assert used[1] == pytest.approx(them.ended_at - them.started_at)
    players = session.screen(image=False).players
    assert [p.name for p in players] == ["You (X)", "Beginner · Random"]  # random is the first level
    assert [p.to_move for p in players] == [True, False] and players[1].side == "O"
    assert clock(5) == "0:05" and clock(754) == "12:34" and clock(3723) == "1:02:03"
    assert took(None) == "" and took(0.42) == "0.4 s" and took(125) == "2:05"


def test_the_move_list_has_times_and_the_frame_after_each_move():
    session = PlaySession("pig", "random", person=person(), seat="first", seed=3)
    for _ in range(3):
        session.play_label("roll")
        session.run_agents()
        if session.over or not session.your_turn:
            break
    rows = session.screen(image=False).rows
    points = replays.boundaries(session.record)
    assert [r.number for r in rows] == list(range(1, len(rows) + 1))
    for row in rows:
        assert (row.seconds is None) == (row.seat == CHANCE)
        assert 0 < row.frame < len(points)
    assert rows[-1].frame == len(points) - 1  # the last move: the position now
    assert [r.frame for r in rows] == sorted(r.frame for r in rows)


def test_look_back_and_forth_on_the_same_board_then_return():
    session = PlaySession("tic_tac_toe", "random", person=person(), seat="first", seed=2)
    for cell in ("C2R2", "C1R1", "C3R3", "C1R3"):
        if session.over:
            break
        if cell in {m.label for m in session.record.moves}:
            continue
        click(session, cell)
        session.run_agents()
    now = session.image()
    last = session.frames() - 1
    assert last >= 2
    session.look("back")
    assert session.viewing == last - 1 and "Looking back" in session.status()
    assert session.image().tobytes() == replays.frame(session.record, last - 1,
                                                      seat=0).image.tobytes()
    session.look("first")
    assert session.viewing == 0
    empty = image_view("tic_tac_toe", session.spec.load().new_initial_state(), 0)
    assert session.image().tobytes() == empty.tobytes()
    session.look("back")  # already at the start: stays there
    assert session.viewing == 0
    session.look("forward")
    assert session.viewing == 1
    session.look("last")
    assert session.viewing is None and session.image().tobytes() == now.tobytes()
    with pytest.raises(ValueError, match="first, back, forward or last"):
        session.look("sideways")


def test_any_input_returns_to_the_game_as_it_is():
    session = PlaySession("tic_tac_toe", "random", person=person(), seat="first", seed=2)
    click(session, "C2R2")
    session.run_agents()
    session.look("first")
    free = next(m.path[0] for m in session.legal() if m.label != "C2R2")
    assert click(session, free) == f"Your move: {free}."  # played on the live board
    assert session.viewing is None


def test_history_lists_finished_games_first_and_hides_abandoned_ones(store):
    me = person()
    abandoned = []
    for seed in range(3):
        game = PlaySession("nim", "random", person=me, seat="first", seed=seed, store=store)
        game.abandon("a new game was started")
        abandoned.append(game.id)
    done = PlaySession("nim", "random", person=me, seat="first", seed=9, store=store)
    done.resign()
    late = PlaySession("nim", "random", person=me, seat="first", seed=10, store=store)
    late.abandon("tab closed")  # the newest session is an abandoned one
    listed = replays.listing(store, player_id=me.player_id)
    assert [r.id for r in listed.records] == [done.id]
    assert (listed.finished, listed.abandoned) == (1, 4)
    shown = replays.listing(store, player_id=me.player_id, abandoned=True)
    assert [r.id for r in shown.records][0] == done.id  # finished first, then the others
    assert {r.id for r in shown.records[1:]} == {*abandoned, late.id}
