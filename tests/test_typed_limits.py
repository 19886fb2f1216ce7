"""One limit per rule: the page's text boxes cut typed moves where the adapter refuses them."""

from __future__ import annotations

import gradio as gr
import pytest

from games import registry
from games.actions import MoveError, Text, TooLongMove, resolve, typed_limit
from sessions.web.tabs import play as play_tab
from sessions.web.tabs import talk as talk_tab


def _first_decision(spec: registry.GameSpec):
    state = spec.load().new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def _refuses_as_too_long(spec: registry.GameSpec, length: int) -> bool:
    state = _first_decision(spec)
    seat = max(state.current_player(), 0)  # seat 0 in a simultaneous round
    try:
        resolve(spec, state, seat, Text(text="a" * length))
    except TooLongMove:
        return True
    except MoveError:
        return False
    return False


@pytest.mark.parametrize("game_id", [s.id for s in registry.all_games()])
def test_the_play_tabs_typed_box_takes_the_adapters_limit(game_id):
    spec = registry.get(game_id)
    limit = typed_limit(spec)
    box = play_tab.choose_game(game_id)[-1]  # the typed box's update (build_play's chosen)
    assert box["max_length"] == limit
    assert not _refuses_as_too_long(spec, limit)  # all the page lets through is read
    assert _refuses_as_too_long(spec, limit + 1)


def test_the_talk_box_takes_the_talking_games_limit():
    talking = [s for s in registry.all_games() if s.grammar.free_text is not None]
    assert talking  # Codenames, Two Rooms and a Boom, Are You the Traitor?
    with gr.Blocks():
        words = talk_tab.build_talk_view()["words"]
    for spec in talking:
        assert words.max_length == typed_limit(spec)
        assert not _refuses_as_too_long(spec, words.max_length)
        assert _refuses_as_too_long(spec, words.max_length + 1)
