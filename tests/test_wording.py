"""Small wordings a player noticed (issue 22, item 20)."""

from __future__ import annotations

import gradio as gr

from sessions.web.players import game_menu
from sessions.web.tabs.table import build_table_info, build_table_view


def test_nim_is_a_board_game_not_a_chance_game():
    groups = {game: label.split(" › ")[0] for label, game in game_menu()}
    assert groups["nim"] == "Board games"
    assert groups["pig"] == "Chance and repeated games"


def test_the_gama_results_tables_wrap_rather_than_cut_their_headers():
    with gr.Blocks():
        view = build_table_view()
        build_table_info(view)
    results, summary = view["outputs"][-2:]
    assert results.wrap and summary.wrap
    assert results.label == "Results by round"  # also true once the game is over


def test_connect_four_names_your_colour_without_openspiel_s_letter(monkeypatch):
    from games.registry import get
    from renderers import drawing, image_view

    titles = []
    real = drawing.header
    monkeypatch.setattr(drawing, "header",
                        lambda canvas, title, *a, **k: (titles.append(title),
                                                        real(canvas, title, *a, **k)))
    state = get("connect_four").load().new_initial_state()
    image_view("connect_four", state, 0)
    image_view("connect_four", state, 1)
    assert titles == ["You are red", "You are yellow"]
