"""The Watch tab's seat pickers and what watchers are called (issue 22 items 4 and 10)."""

from __future__ import annotations

import re

from agents.llm import opponent_choices
from sessions.web import spectate
from sessions.web.tabs import watch as watch_tab
from sessions.web.watch import WatchSession


def _values(updates: list) -> list:
    return [u.get("value") for u in updates[:watch_tab.MAX_SEATS]]


def test_a_model_that_becomes_ready_never_replaces_a_picked_agent(monkeypatch):
    monkeypatch.setattr("sessions.web.watch.ready_models", lambda: [])
    first = _values(watch_tab.choose_game("tic_tac_toe"))
    assert first[:2] == ["mcts", "mcts:25:2s"]
    smol = [c for c in opponent_choices() if c.provider == "local"][:1]
    assert smol, "the opponents file names the offline model"
    monkeypatch.setattr("sessions.web.watch.ready_models", lambda: smol)
    picks = ["mcts", "random", *[None] * (watch_tab.MAX_SEATS - 2)]
    modes = ["prompt"] * watch_tab.MAX_SEATS
    again = _values(watch_tab.choose_game("connect_four", *picks, *modes))
    assert again[:2] == ["mcts", "random"]  # kept: both may sit at Connect Four
    fresh = _values(watch_tab.choose_game("connect_four"))  # nothing picked yet: a default
    assert fresh[0] == smol[0].spec


def test_watchers_see_each_seat_with_its_side_never_you():
    game = WatchSession("tic_tac_toe", ["mcts:50:1s", "mcts:50:1s"], seed=3, delay=0.0)
    seen = spectate.spectate(game, spectate.ALL)
    labels = [label for label, _ in seen.views]
    assert labels == ["All cards face up", "Public view", "MCTS (X)'s view", "MCTS (O)'s view"]
    assert seen.title == "Tic-tac-toe: MCTS (X) vs MCTS (O)"
    assert seen.status == "MCTS (X) to move."
    words = [seen.title, seen.status, *labels, *seen.moves, *(b.caption for b in seen.boards)]
    assert not any(re.search(r"\byou\b", w, re.IGNORECASE) for w in words)


def test_a_boards_words_name_the_seat_never_you():
    """A seat's text view on a spectator's page is the renderer's watcher's view ("X's
    view", "O to move"), never "You are X" (issue 22 item 4: the page never addresses the
    spectator); the seat's own text view still says "You are X"."""
    from renderers import text_view
    from sessions.web import spectate_html

    game = WatchSession("tic_tac_toe", ["random", "random"], seed=1, delay=0.0)
    page = spectate_html.live(spectate.spectate(game, spectate.ALL))
    assert "— As Random (X) sees it —\nX&#x27;s view." in page
    assert not re.search(r"\byou\b", page.split("watch-text")[1], re.IGNORECASE)
    assert text_view("tic_tac_toe", game.match.state, 0).startswith("You are X")


def test_a_finished_games_replay_names_its_seats_with_sides_as_live():
    from agents.specs import parse_spec
    from sessions.tournament import play_one

    record = play_one("tic_tac_toe", [parse_spec("random"), parse_spec("random")], seed=2)
    assert spectate.record_names(record) == ["Random (X)", "Random (O)"]
    assert spectate.with_sides("air_land_sea", ["Random", "Random"]) == [
        "seat 1 (Random)", "seat 2 (Random)"]
    assert spectate.with_sides("air_land_sea", ["Ada", "Random"]) == ["Ada", "Random"]


def test_a_spectators_board_marks_nobody_as_you():
    """Hive and Santorini draw "(you)" beside the seat's side: a spectator's copy leaves it
    out (the rest of the picture is the seat's)."""
    from PIL import ImageChops

    from renderers import image_view

    for game_id in ("hive", "santorini"):
        game = WatchSession(game_id, ["random", "random"], seed=1, delay=0.0)
        state = game.match.state
        [board] = spectate.spectate(game, spectate.PUBLIC).boards
        mine = image_view(game_id, state, 0).convert("RGB")
        watched = image_view(game_id, state, 0, watcher=True).convert("RGB")
        assert not ImageChops.difference(board.image.convert("RGB"), watched).getbbox()
        assert ImageChops.difference(mine, watched).getbbox() is not None  # no "(you)"
