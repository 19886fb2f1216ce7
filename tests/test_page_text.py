"""What the Play tab says, without a browser: text shown as text, people's words instead of
raw ids, the end of a game on the board, GAMA-Bench's plot and score explanation."""

from __future__ import annotations

import re

import numpy as np
import pytest

from games.gama.scoring import MEASURES
from games.registry import all_games, get
from renderers.gama.view import Plot, Series, draw, round_ticks
from sessions.ratings.gama_table import GAMES
from sessions.web import play_html, replays
from sessions.web.gama_screen import is_table
from sessions.web.plain import escape, paragraphs
from sessions.web.play import PlaySession
from sessions.web.players import Person, agent_name, new_player_id
from sessions.web.replays import BANNER, ended_banner
from sessions.web.scoreboard import MoveRow

HOSTILE = '<img src=/x onerror="alert(1)"><h1>big</h1> ${1+1} C<column>R<row> wQ wS1\\'


def person() -> Person:
    return Person(new_player_id(), "Ada")


def test_typed_html_angle_brackets_and_backslashes_stay_text():
    shown = escape(HOSTILE)
    assert "<img" not in shown and "<h1>" not in shown and "${" not in shown
    assert "&lt;column&gt;R&lt;row&gt;" in shown and "&#92;" in shown
    assert "\\" not in shown.replace("&#92;", "")  # every backslash is an entity
    for panel in (play_html.notice(HOSTILE), play_html.status(HOSTILE),
                  play_html.move_list([MoveRow(1, 0, "You", HOSTILE, 1.0, 1)], viewing=None,
                                      frames=2)):
        assert "<img" not in panel and "<h1>" not in panel and "&lt;img" in panel


def test_rules_and_format_hints_keep_what_markdown_ate():
    spec = get("tic_tac_toe")
    rules = play_html.rules(spec)
    assert "cells are written C&lt;column&gt;R&lt;row&gt;" in rules
    assert rules.count("<p>") == 2  # its two paragraphs
    assert "C&lt;column&gt;R&lt;row&gt;" in play_html.hint(spec.grammar.hint)
    assert paragraphs("a\nb\n\nc\n- d\n- e") == "<p>a b</p><p>c<br>- d<br>- e</p>"


def test_an_illegal_typed_move_says_the_format_in_full():
    session = PlaySession("tic_tac_toe", "random", person=person(), seat="first")
    notice = session.play_text("middle please")
    assert "C<column>R<row>" in notice
    assert "C&lt;column&gt;R&lt;row&gt;" in play_html.notice(notice)


def test_agents_in_peoples_words():
    assert agent_name("mcts") == "MCTS (1000 simulations)"
    assert agent_name("mcts:1000:2s") == "MCTS (1000 simulations)"
    assert agent_name("mcts:25:0s") == "MCTS (25 simulations, no time cap)"
    assert agent_name("ismcts:200:5s") == "IS-MCTS (200 simulations, 5 s cap)"
    assert agent_name("random") == "Random" and agent_name("human") == "People"
    assert agent_name("openai/gpt-4o-mini+cot") == "GPT-4o mini (CoT)"
    assert agent_name("not an agent!") == "not an agent!"


def test_the_end_of_a_game_says_the_score_in_words():
    session = PlaySession("tic_tac_toe", "mcts:50:1s", person=person(), seat="first", seed=3)
    rng = np.random.default_rng(0)
    while not session.over:
        session.play_label(session.legal()[int(rng.integers(len(session.legal())))].label)
        session.run_agents()
    result = session.result()
    assert re.fullmatch(r"Game over: (You won|You lost|Draw)\. Final score: you (1|0|½) – "
                        r"MCTS (1|0|½)\.", result), result
    assert "returns" not in result and "mcts:" not in result
    players = play_html.players(session.screen().players)
    assert "You (X)" in players and "MCTS (50 simulations, 1 s cap)" in players


TWO_SEATS = [g.id for g in all_games() if not is_table(g.id) and g.load().num_players() == 2]


@pytest.mark.parametrize("game_id", TWO_SEATS)
def test_no_raw_ids_or_seat_numbers_on_the_play_tab(game_id):
    """Status, notice, players, bar and move list of every two-seat game, over a few moves."""
    session = PlaySession(game_id, "random", person=person(), seat="first", seed=5)
    rng = np.random.default_rng(5)
    for _ in range(4):
        session.run_agents()
        if session.over:
            break
        screen = session.screen(image=False)
        shown = " ".join([play_html.status(screen.status), play_html.notice(screen.notice),
                          play_html.players(screen.players),
                          play_html.move_list(screen.rows, viewing=None, frames=screen.frames)])
        assert not re.search(r"player [01]\b|returns|random:|seat [01]\b", shown), shown
        assert "You" in play_html.players(screen.players)
        legal = session.legal()
        session.play_label(legal[int(rng.integers(len(legal)))].label)


def test_a_game_ended_early_says_so_across_the_board_header():
    session = PlaySession("tic_tac_toe", "random", person=person(), seat="first")
    before = session.image()
    session.resign()
    after = session.image()
    assert after.size == before.size
    assert after.crop((0, 0, after.width, BANNER)).tobytes() == ended_banner(
        before, "Game over: you resigned").crop((0, 0, after.width, BANNER)).tobytes()
    assert after.crop((0, BANNER, after.width, after.height)).tobytes() == before.crop(
        (0, BANNER, before.width, before.height)).tobytes()  # the board itself unchanged
    replayed = replays.frame(session.record, -1, seat=0).image  # History says it too
    assert replayed.crop((0, 0, after.width, BANNER)).tobytes() == ended_banner(
        before, "Game over: resigned").crop((0, 0, after.width, BANNER)).tobytes()


def test_every_gama_game_explains_its_score_at_the_end():
    assert set(MEASURES) == set(GAMES)
    for text in MEASURES.values():
        assert text.startswith("The GAMA score (0-100)") and "not count" in text.replace(
            "lowers this score", "not count")
    assert "95" in MEASURES["pirate_game"]
    session = PlaySession("guess_2_3", ["random"] * 2, person=person(), seat=0,
                          params={"num_players": 3, "num_rounds": 1})
    session.play_number(10)
    session.run_agents()
    table = session.screen(image=False).table
    assert table is not None and table.summary is not None
    assert table.measures == MEASURES["guess_2_3"]


def test_gama_plots_count_whole_rounds_from_round_one():
    assert round_ticks(1) == [1] and round_ticks(5) == [1, 2, 3, 4, 5]
    assert round_ticks(30) == [1, 5, 10, 15, 20, 25, 30]
    assert all(len(round_ticks(n)) <= 12 and round_ticks(n)[0] == 1 for n in range(1, 400))
    empty = draw(Plot("Guess", "number", (Series("your number", ()),)))
    one = draw(Plot("Guess", "number", (Series("your number", (30.0,)),)))
    # before round one: no axes at all (a plot of nothing drew a 0-1 frame and ticks)
    assert _dark_lines(empty) == 0 and _dark_lines(one) > 0


def _dark_lines(image) -> int:  # noqa: ANN001 - a PIL image
    """Rows that are mostly dark: the horizontal axis lines of a frame."""
    grey = np.asarray(image.convert("L"))
    return int(((grey < 80).mean(axis=1) > 0.5).sum())


def test_every_game_is_on_the_menu_with_a_rules_panel():
    for spec in all_games():
        assert play_html.rules(spec).startswith("<div class='arena-rules'><p>")


def test_leaderboard_rows_in_peoples_words_with_too_few_games_and_a_minimum():
    from sessions.ratings.report import Rating, RatingTable
    from sessions.web.standings import PENDING, TOO_FEW, name_cell, standings

    def row(entity, rating, low, high, matches):
        return Rating(entity, rating, low, high, 0, matches, 0.5, rating)

    table = RatingTable(None, 30, 0, [
        row("mcts:1000:2s", 1.0, 0.5, 1.5, 20), row("random", -1.0, -1.0, -1.0, 12),
        row("human", 0.2, -0.1, 0.6, 3), row("openai/gpt-4o-mini+prompt", 0.0,
                                             float("nan"), float("nan"), 15)],
        np.zeros((0, 4)))
    shown = {s.rating.entity: s for s in standings(table, 10)}
    assert shown["mcts:1000:2s"].name == "MCTS (1000 simulations)"
    assert shown["mcts:1000:2s"].rank == 1 and shown["random"].interval == TOO_FEW
    assert shown["human"].rank is None and shown["human"].name == "People"  # 3 < 10
    assert shown["openai/gpt-4o-mini+prompt"].interval == PENDING
    assert [s.rating.entity for s in standings(table, 10)][-1] == "human"  # unranked last
    cell = name_cell("<b>x</b>", 'a"b')
    assert cell == '<span title="a&quot;b">&lt;b&gt;x&lt;/b&gt;</span>'
