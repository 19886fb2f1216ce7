"""The leaderboard tab's data: tables, figures, filters, CSV, and a cache that sees new sessions."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from matplotlib.figure import Figure

from sessions.engine import FailurePolicy
from sessions.ratings.leaderboard import Filters, Leaderboard, parse_when
from sessions.ratings.report import Settings
from sessions.store import Store
from sessions.tournament import run_tournament


def play(store: Store, game: str, agents: list[str], matches: int, seed: int) -> None:
    run_tournament(game, agents, matches=matches, seed=seed, store=store,
                   policy=FailurePolicy(), progress=False)


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    with Store(tmp_path / "arena.sqlite3") as store:
        play(store, "tic_tac_toe", ["random", "mcts:25:0s"], 4, 1)
        play(store, "kuhn_poker", ["random", "ismcts:25:0s"], 4, 2)
        yield store


def test_overall_table_has_intervals_and_a_column_per_game(store):
    view = Leaderboard(store, settings=Settings(bootstrap=100)).view()
    table = view.overall
    assert table.headers == ["rank", "entity", "rating", "90% low", "90% high", "matches",
                             "win rate", "kuhn_poker", "tic_tac_toe"]
    rows = {row[1]: row for row in table.rows}
    assert set(rows) == {"random", "mcts:25:0s", "ismcts:25:0s"}
    assert rows["random"][5] == 8
    assert rows["mcts:25:0s"][7] == "" and rows["mcts:25:0s"][8] != ""  # no Kuhn poker
    for row in table.rows:
        assert row[3] <= row[2] <= row[4]
    assert view.summary().startswith("8 rated matches · 2 games · 100 bootstraps")


def test_per_game_nra_and_head_to_head_tables(store):
    view = Leaderboard(store, settings=Settings(bootstrap=100)).view()
    assert {row[0] for row in view.per_game.rows} == {"kuhn_poker", "tic_tac_toe"}
    assert len(view.per_game.rows) == 4
    nra = view.nra_table
    assert nra.headers[:5] == ["game", "entity", "opponent", "matches", "NRA"]
    assert {(r[0], r[5]) for r in nra.rows} == {("kuhn_poker", "rewards"),
                                                ("tic_tac_toe", "win/draw/loss")}
    heads = view.win_probabilities()
    assert heads.headers[0] == "entity" and len(heads.rows) == 3
    for i, row in enumerate(heads.rows):
        assert row[1 + i] == 0.5  # against itself
    game = view.win_probabilities("tic_tac_toe")
    assert set(game.headers[1:]) == {"random", "mcts:25:0s"}
    with pytest.raises(KeyError, match="no rated matches of 'chess'"):
        view.win_probabilities("chess")


def test_figures_are_matplotlib_figures_that_render(store):
    view = Leaderboard(store, settings=Settings(bootstrap=100)).view()
    forest = view.forest()
    assert isinstance(forest, Figure)
    axis = forest.axes[0]
    labels = [t.get_text() for t in axis.get_yticklabels()]
    assert labels == [f"{row[0]}. {row[1]}" for row in view.overall.rows]
    assert list(axis.get_yticks()) == sorted(axis.get_yticks(), reverse=True)  # best on top
    heat = view.heatmap("kuhn_poker")
    assert [t.get_text() for t in heat.axes[0].get_xticklabels()] == \
        view.scope("kuhn_poker").entities
    for fig in (forest, heat):
        png = io.BytesIO()
        fig.savefig(png, format="png")
        assert png.getvalue()[:8] == b"\x89PNG\r\n\x1a\n"


def test_gradio_components_accept_the_tables_and_figures(store):
    gr = pytest.importorskip("gradio")
    view = Leaderboard(store, settings=Settings(bootstrap=50)).view()
    data = gr.Dataframe().postprocess(view.overall.value)
    assert data.headers == view.overall.headers and len(data.data) == 3
    plot = gr.Plot().postprocess(view.forest())
    assert plot.type == "matplotlib" and plot.plot.startswith("data:image/")


def test_csv_download_holds_the_overall_table(store, tmp_path):
    view = Leaderboard(store, settings=Settings(bootstrap=50)).view()
    path = view.csv(tmp_path / "downloads")
    rows = list(csv.reader(path.open(encoding="utf-8")))
    assert rows[0] == view.overall.headers
    assert [r[1] for r in rows[1:]] == [r[1] for r in view.overall.rows]


def test_a_new_session_shows_up_on_the_next_call(store, tmp_path):
    board = Leaderboard(store, settings=Settings(bootstrap=50))
    first = board.view()
    assert board.view() is first  # nothing stored: the cached view
    play(store, "tic_tac_toe", ["random", "mcts:25:0s"], 1, 9)
    second = board.view()
    assert second.report.overall.matches == first.report.overall.matches + 1
    with Store(store.path) as other:  # another process stores a session
        play(other, "tic_tac_toe", ["random", "mcts:25:0s"], 1, 10)
    assert board.view().report.overall.matches == second.report.overall.matches + 1


def test_filters_by_game_human_seat_and_dates(store):
    board = Leaderboard(store, settings=Settings(bootstrap=50))
    kuhn = board.view(Filters.parse(game="kuhn_poker"))
    assert kuhn.report.overall.matches == 4 and list(kuhn.report.games) == ["kuhn_poker"]
    assert board.view(Filters.parse(game="all")).report.overall.matches == 8
    nobody = board.view(Filters(humans_only=True))
    assert nobody.overall.rows == [] and isinstance(nobody.forest(), Figure)
    assert board.view(Filters.parse(until="2000-01-01")).report.overall.matches == 0
    assert board.view(Filters.parse(since="2000-01-01")).report.overall.matches == 8
    assert board.games() == ["kuhn_poker", "tic_tac_toe"]


def test_dates_are_read_as_utc_days_or_instants():
    day = datetime(2025, 3, 1, tzinfo=UTC).timestamp()
    assert parse_when("2025-03-01") == day
    assert parse_when("2025-03-01", end=True) == day + 86400
    assert parse_when("2025-03-01T12:00") == day + 43200
    assert parse_when("2025-03-01T12:00+01:00") == day + 39600
    assert parse_when("") is None and parse_when(None) is None and parse_when(5) == 5.0
    with pytest.raises(ValueError, match="write YYYY-MM-DD"):
        parse_when("01/03/2025")


def test_heat_map_labels_cells_while_they_are_readable():
    import numpy as np

    from sessions.ratings.leaderboard import LABELLED_CELLS, win_probability_plot
    from sessions.ratings.report import Rating, RatingTable

    def table(n: int) -> RatingTable:
        rows = [Rating(f"agent{i}", -i / 2, -i / 2 - 1, -i / 2 + 1, 1, 10, 0.5, 0.0)
                for i in range(n)]
        return RatingTable(None, 10, 0, rows, np.zeros((2, n)))

    small = win_probability_plot(table(3)).axes[0]
    texts = sorted(t.get_text() for t in small.texts)
    assert len(texts) == 6 and "0.62" in texts and "0.38" in texts  # σ(±0.5)
    large = win_probability_plot(table(LABELLED_CELLS + 1)).axes[0]
    assert len(large.texts) == 0 and len(large.get_xticklabels()) == LABELLED_CELLS + 1


def test_forest_plot_takes_a_rating_a_hair_outside_its_interval():
    import numpy as np

    from sessions.ratings.leaderboard import forest_plot
    from sessions.ratings.report import Rating, RatingTable

    # every resample agrees (one match, or a sweep): the mean may differ from the
    # percentiles in the last bit
    rows = [Rating("mcts", 1.9659128163621211, 1.9659128163621629, 1.9659128163621629, 1, 1,
                   1.0, 0.0),
            Rating("random", -1.9659128163621211, -1.9659128163621629, -1.9659128163621629, 2,
                   1, 0.0, 0.0)]
    fig = forest_plot(RatingTable("nim", 1, 0, rows, np.zeros((2, 2))))
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ["1. mcts", "2. random"]


def test_gama_sessions_are_rated_and_scored_0_to_100(tmp_path):
    with Store(tmp_path / "gama.sqlite3") as store:
        play(store, "guess_2_3", ["equilibrium", "adaptive"] + ["random"] * 8, 2, 4)
        play(store, "tic_tac_toe", ["random", "mcts:25:0s"], 1, 1)
        board = Leaderboard(store, settings=Settings(bootstrap=50))
        view = board.view()
        assert view.report.dropped == {}  # GAMA's bots are agents ratings know
        assert view.report.games["guess_2_3"].matches == 2
        gama = {row[0]: row for row in view.gama.rows}
        assert view.gama.headers[1] == "Guess 2/3 of the Average"
        assert set(gama) == {"equilibrium", "adaptive", "random"}
        assert re.fullmatch(r"\d+\.\d ± \d+\.\d \(2\)", gama["adaptive"][1])
        assert gama["adaptive"][-1] == "—"  # overall only once all eight games are played
        assert board.view(Filters.parse(game="tic_tac_toe")).gama.rows == []
        assert board.view(Filters(humans_only=True)).gama.rows == []


def test_every_agent_kind_the_specs_make_can_be_rated():
    from agents.specs import CLASSIC
    from sessions.ratings.results import KINDS

    assert set(CLASSIC) | {"human", "llm"} <= KINDS


def test_csv_file_names_say_which_filters_made_them(store, tmp_path):
    board = Leaderboard(store, settings=Settings(bootstrap=20))
    names = {board.view(f).csv(tmp_path).name for f in (
        Filters.parse(), Filters.parse(humans_only=True),
        Filters.parse(game="kuhn_poker", since="2025-01-01", until="2025-01-31"))}
    assert names == {"leaderboard-all-8-sessions.csv", "leaderboard-all-humans-8-sessions.csv",
                     "leaderboard-kuhn_poker-from-2025-01-01-to-2025-01-31-8-sessions.csv"}
