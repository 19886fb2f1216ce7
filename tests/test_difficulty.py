"""The difficulty a person chose (issue 22, item 22): the level's name is in the header and
in the stored record; an agent that is not one of the game's levels has none."""

from __future__ import annotations

from sessions.web.play import PlaySession
from sessions.web.players import Person, level_name, new_player_id
from sessions.web.tabs.play import bar_text


def test_the_level_chosen_is_in_the_header_and_the_record():
    session = PlaySession("connect_four", "mcts:30:2s", person=Person(new_player_id()),
                          seat="first", seed=1)
    assert session.record.seats[1].settings["level"] == "Intermediate"
    assert "Intermediate · MCTS (30 simulations)" in bar_text(session)
    assert session.seat_title(1) == "Intermediate · MCTS (30 simulations)"
    assert "level" not in session.record.seats[0].settings  # the person has no level


def test_an_agent_off_the_ladder_has_no_level():
    assert level_name("connect_four", "mcts") == "Strong"
    assert level_name("connect_four", "mcts:77:2s") is None
    assert level_name("connect_four", "not a spec ::") is None
    session = PlaySession("connect_four", "mcts:77:2s", person=Person(new_player_id()),
                          seat="first", seed=1)
    assert "level" not in session.record.seats[1].settings
    assert "· MCTS" not in bar_text(session)
