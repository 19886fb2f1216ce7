"""The History tab without a browser: recent sessions and move-by-move replays."""

from __future__ import annotations

import pytest
from PIL import ImageChops

from agents.specs import parse_spec
from games.registry import get
from sessions.store import Store
from sessions.tournament import play_one
from sessions.web.play import PlaySession
from sessions.web.players import Person, new_player_id
from sessions.web.replays import Replaying, boundaries, frame, recent, summary_row, viewer
from tests.conftest import GAME_IDS


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "arena.sqlite3") as opened:
        yield opened


def _played(store: Store, game_id: str, *, seat: str = "first", seed: int = 1,
            person: Person | None = None) -> PlaySession:
    person = person or Person(new_player_id(), "Ada", consent=True)
    session = PlaySession(game_id, "random", person=person, seat=seat, store=store, seed=seed)
    session.run_agents()
    while not session.over:
        session.play_label(session.legal()[0].label)
        session.run_agents()
    return session


def test_quick_presses_of_previous_each_count_and_a_stale_answer_is_not_sent(store, monkeypatch):
    """The History tab's replay keeps its frame on the server: two presses of Previous
    sent before the first is answered go back two frames. Answers can reach the page in any
    order, so an answer overtaken by a newer press sends nothing, and a page left showing
    another frame is sent the current one."""
    record = store.get(_played(store, "tic_tac_toe").id)
    opened = Replaying(record, viewer(record))
    assert opened.index == 1 and opened.last == len(boundaries(record)) - 1
    assert opened.step(1).index == 2
    assert opened.step(-1).index == 1 and opened.step(-1).index == 0
    assert opened.step(-1).index == 0  # the start stays the start
    assert opened.go(99).index == opened.last
    assert opened.catch_up(opened.last) is None  # the page shows it already
    again = opened.catch_up(1)
    assert again.index == opened.last and again.caption == frame(record, -1).caption

    import threading

    from sessions.web import replays

    drawing, overtaken = threading.Event(), threading.Event()
    answers = {}

    def slow_first(*args, **kwargs):  # the first press is still drawing when the second comes
        if not drawing.is_set():
            drawing.set()
            assert overtaken.wait(5)
        return frame(*args, **kwargs)

    opened.go(0)
    monkeypatch.setattr(replays, "frame", slow_first)
    first = threading.Thread(target=lambda: answers.setdefault("first", opened.step(1)))
    first.start()
    assert drawing.wait(5)
    answers["second"] = opened.step(1)
    overtaken.set()
    first.join(5)
    assert answers["first"] is None  # overtaken: the page gets the second's frame only
    assert answers["second"].index == opened.index == 2


def test_recent_lists_this_players_sessions_newest_first(store):
    me, other = Person(new_player_id()), Person(new_player_id())
    first = _played(store, "tic_tac_toe", person=me, seed=1)
    _played(store, "nim", person=other, seed=2)
    last = _played(store, "pig", person=me, seed=3)
    mine = recent(store, player_id=me.player_id)
    assert [r.id for r in mine] == [last.id, first.id]
    assert len(recent(store)) == 3
    row = summary_row(mine[0], me.player_id)
    assert row[1] == "Pig" and row[2] == "You vs Random" and row[4] == last.id
    assert row[3] in {"You: won", "You: lost"}


def test_replay_frames_step_through_every_decision(store):
    session = _played(store, "tic_tac_toe")
    record = store.get(session.id)
    points = boundaries(record)
    assert points == list(range(len(record.moves) + 1))
    start = frame(record, 0)
    assert start.caption.startswith("Step 0 of") and start.moves == []
    end = frame(record, -1)
    assert end.index == len(points) - 1 and end.moves == session.moves()
    assert "You" in end.caption and ("won" in end.caption or "lost" in end.caption
                                     or "draw" in end.caption)
    second = frame(record, 2)
    assert second.moves == session.moves()[:2]
    assert second.caption.endswith(f"— Random: {record.moves[1].label}")
    with pytest.raises(IndexError, match="frames 0-"):
        frame(record, len(points))


def test_chance_outcomes_belong_to_the_decision_before_them(store):
    session = _played(store, "pig", seed=4)
    record = store.get(session.id)
    points = boundaries(record)
    assert all(record.moves[i].seat != -1 for i in points[:-1])  # each frame awaits a decision
    rolls = [i for i, m in enumerate(record.moves) if m.label == "roll"]
    assert rolls and all(i + 1 not in points for i in rolls)  # the die shows with the roll
    decisions = sum(1 for m in record.moves if m.seat != -1)
    assert len(points) == decisions + 1


def test_simultaneous_rounds_are_one_frame(store):
    session = _played(store, "iterated_prisoners_dilemma", seed=2)
    record = store.get(session.id)
    rounds = len({m.node for m in record.moves if m.seat != -1})
    assert len(boundaries(record)) == rounds + 1


def test_replay_keeps_the_opponents_sealed_bid_hidden_until_the_end(store):
    session = _played(store, "first_sealed_auction", seat="first", seed=6)
    record = store.get(session.id)
    seat = viewer(record)
    assert seat == 0
    middle = frame(record, 1, seat=seat)  # after my bid, before the result
    assert all("Random: bid" not in line for line in middle.moves)
    end = frame(record, -1, seat=seat)
    assert any(line.startswith("2. Random: bid") for line in end.moves)


def test_replay_of_an_abandoned_game_reveals_nothing_hidden(store):
    person = Person(new_player_id())
    session = PlaySession("first_sealed_auction", "random", person=person, seat="second",
                          store=store, seed=2)
    session.run_agents()
    session.abandon("tab closed")
    record = store.get(session.id)
    end = frame(record, -1, seat=1)
    assert all("Random" not in line for line in end.moves)
    assert "abandoned" in end.caption


def test_replay_images_match_the_live_images(store):
    session = _played(store, "connect_four", seed=3)
    record = store.get(session.id)
    live = session.image()
    replayed = frame(record, -1, seat=session.human).image
    assert ImageChops.difference(live, replayed).getbbox() is None


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_stored_tournament_match_replays_from_seat_zero(game_id):
    spec = get(game_id)
    players = spec.load(spec.params()).num_players()
    record = play_one(game_id, [parse_spec("random")] * players, seed=11)
    assert viewer(record) == 0
    points = boundaries(record)
    shown = range(len(points)) if players == 2 else sorted({0, 1, len(points) - 1})
    for index in shown:  # ten-seat games: the start, the first round and the end
        step = frame(record, index)
        assert step.image.mode == "RGB" and step.text
    others = "Random" if players == 2 else f"Random ×{players - 1}"
    assert summary_row(record)[2] == f"Random vs {others}"
