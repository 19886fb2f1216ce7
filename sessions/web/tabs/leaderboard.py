"""The Leaderboard tab and its API: ratings with intervals, plots, NRA and GAMA-Bench tables,
filters and CSV, kept live by a cheap poll of the store."""

from __future__ import annotations

import functools
import tempfile
from typing import Any

import gradio as gr

from games.registry import get
from sessions.ratings.leaderboard import (
    Filters,
    Leaderboard,
    LeaderboardView,
    Table,
    forest_plot,
    win_probability_plot,
)
from sessions.ratings.report import RatingTable
from sessions.web import people, standings
from sessions.web.plain import escape
from sessions.web.tabs.rating import RATINGS
from sessions.web.tabs.site import store

BOARD_POLL = 3.0
"""Seconds between the open Leaderboard tab's checks for newly stored sessions (a check is
one small SQL query; new sessions are read and rated when something was stored)."""


BOARD_OUTPUTS = 11


RATINGS_TEXT = """**How to read this.** Each agent configuration, and *People* (every session
a person agreed to share, pooled; `human` in the API and the CSV), gets a Bradley–Terry rating: the mean of 1000 bootstrap fits
over finished matches, each game weighted equally (1/N_game). The interval is the 5th–95th
percentile of the fits; rows are listed by the interval's lower bound, and the rank is 1 + the
number of entries whose interval lies wholly above. An entry with fewer matches than the
minimum is provisional and says how many more games it needs. *Beats people* is the share
of people's sessions an agent won (ties half) with Wilson's 95% interval. A rating
difference d means P(win) = 1 / (1 + e^−d). NRA is GTBench's normalized
relative advantage of one entry over another in one game (−1 to 1); GAMA-Bench's scores are
0–100 per game (mean ± std (sessions)), overall only when all eight games were played."""


LADDER_TEXT = """The offline opponents the Play tab offers as levels, and how each was measured
by `python -m benchmarks.ladder`: a level's score against the level below it (win 1, draw
½), and the strongest level's against two trivial plans (always the first legal move;
always pass, stay or end when allowed). Targets: the interval's lower bound above 50%
against the level below; 90% against each trivial plan in two-player games."""


PEOPLE_TEXT = """People rated one by one, on the same scale as the programs and models they
played (the table above pools every person as *People*). Listed: people who chose a display
name and let their games be kept for research; the place counts every person rated."""


def show_people() -> Any:
    """The People view: each person with a display name, rated on their own."""
    headers, rows = people.people_table(RATINGS.get(store()))
    return gr.update(value={"headers": headers, "data": rows})


@functools.cache
def leaderboard() -> Leaderboard:
    return Leaderboard(store(), live=True)  # new sessions at once, intervals in the background


@functools.cache
def downloads() -> str:
    return tempfile.mkdtemp(prefix="arena-leaderboard-")


def board_filters(game: str | None, humans: bool, since: str | None, until: str | None,
                  blind: bool = False) -> Filters:
    try:
        if game not in (None, "", "all"):
            get(game)  # an unknown game is an error naming the games, not an empty table
        return Filters.parse(game=game, humans_only=humans, since=since, until=until,
                             blind_only=blind)
    except (ValueError, KeyError) as err:
        raise gr.Error(str(err.args[0] if isinstance(err, KeyError) else err)) from None


def board_view(game: str | None, humans: bool, since: str | None, until: str | None,
               blind: bool = False) -> LeaderboardView:
    return leaderboard().view(board_filters(game, humans, since, until, blind))


def show_board(game: str | None, humans: bool, since: str | None, until: str | None,
               blind: bool = False, minimum: float | None = None) -> list[Any]:
    """Updates for the Leaderboard tab's outputs, in the order build_leaderboard lists them:
    the tables in people's words (sessions.web.standings); the CSV keeps the raw ids."""
    view = board_view(game, humans, since, until, blind)
    least = standings.min_games(minimum)
    games = [("All games", "all")] + [(get(g).title, g) for g in leaderboard().games()]
    summary = f"{escape(view.summary())}<br>{escape(standings.note(least, view.report.overall))}"
    plotted = standings.plotted(view.report.overall, least)
    return [(view.version, view.filters, least), gr.update(choices=games),
            f"<div class='arena-note'>{summary}</div>",
            _frame(standings.overall(view, least)),
            _forest(plotted, view.report.settings.level),
            win_probability_plot(plotted),
            _frame(standings.per_game(view, least)),
            _frame(standings.head_to_head(view.win_probabilities())),
            _frame(standings.renamed(view.nra_table)), view.gama.value,
            view.csv(downloads())]


def _forest(plotted: RatingTable, level: float) -> Any:
    """The forest plot with the page's names and ranks (unranked entries unnumbered)."""
    figure = forest_plot(plotted, level=level)
    axes = figure.axes[0]
    labels = standings.plot_labels(plotted)  # rows run top down: y = n-1 ... 0
    axes.set_yticks(list(range(len(labels)))[::-1], labels)
    return figure


def _frame(table: Table) -> Any:
    """A Dataframe update: names are HTML (raw id on hover), numbers sort as numbers."""
    kinds = []
    for i, _ in enumerate(table.headers):
        cells = [row[i] for row in table.rows]
        if any(isinstance(c, str) and c.startswith("<span") for c in cells):
            kinds.append("html")
        elif cells and all(isinstance(c, int | float) for c in cells):
            kinds.append("number")
        else:
            kinds.append("str")
    return gr.update(value=table.value, datatype=kinds)


def poll_board(game: str | None, humans: bool, since: str | None, until: str | None,
               blind: bool, minimum: float | None, shown: tuple | None) -> list[Any]:
    """The timer's check: nothing to send unless a session was stored since the last one."""
    try:
        filters = Filters.parse(game=game, humans_only=humans, since=since, until=until,
                                blind_only=blind)
    except ValueError:
        return [gr.skip()] * BOARD_OUTPUTS  # the filter's own event says what is wrong
    if shown == (leaderboard().view(filters).version, filters,  # cheap: live views wait
                 standings.min_games(minimum)):  # for no bootstrap
        return [gr.skip()] * BOARD_OUTPUTS
    return show_board(game, humans, since, until, blind, minimum)


def open_board(game: str | None, humans: bool, since: str | None, until: str | None,
               blind: bool, minimum: float | None, shown: tuple | None) -> list[Any]:
    """The tab was opened: start polling, and draw it unless it already shows the store."""
    return [gr.Timer(active=True), *poll_board(game, humans, since, until, blind, minimum,
                                               shown)]


def api_leaderboard(game: str, humans_only: bool, since: str, until: str,
                    blind_only: bool = False) -> dict:
    """The leaderboard as data: the tables the tab shows (headers and rows) and the summary."""
    view = board_view(game, humans_only, since, until, blind_only)
    tables = {"overall": view.overall, "per_game": view.per_game,
              "win_probabilities": view.win_probabilities(), "nra": view.nra_table,
              "gama": view.gama}
    tables["versus_people"] = versus_people_table(view)
    return {"summary": view.summary(), "sessions": view.revision[0],
            "matches": view.report.overall.matches, "dropped": view.report.dropped,
            **{name: {"headers": t.headers, "rows": t.rows} for name, t in tables.items()}}


def versus_people_table(view: LeaderboardView) -> Table:
    """"Beats X% of people" as data: per agent overall (game "") and per game, raw ids."""
    return Table(["entity", "game", "sessions", "won", "share", "low 95%", "high 95%",
                  "provisional"],
                 [[v.entity, v.game or "", v.sessions, v.won, round(v.share, 4),
                   round(v.low, 4), round(v.high, 4), v.provisional] for v in view.people])


def api_leaderboard_csv(game: str, humans_only: bool, since: str, until: str,
                        blind_only: bool = False) -> str:
    """The overall table as a CSV file (what the tab's download button gives)."""
    return str(board_view(game, humans_only, since, until, blind_only).csv(downloads()))


def build_leaderboard() -> gr.Tab:
    """The Leaderboard tab: ratings with intervals, plots, NRA and GAMA-Bench tables, filters,
    CSV; it reads the store through the cached Leaderboard and polls for new sessions."""
    shown = gr.State(None)
    with gr.Tab("Leaderboard") as tab:
        with gr.Row(equal_height=True):
            game = gr.Dropdown([("All games", "all")], value="all", label="Game",
                               elem_id="lb-game", scale=2)
            with gr.Column(scale=1, min_width=170):
                humans = gr.Checkbox(label="Only sessions with a person", elem_id="lb-humans")
                blind = gr.Checkbox(label="Only blind battles (the model's name hidden "
                                    "until the end)", elem_id="lb-blind")
            since = gr.DateTime(include_time=False, type="string", label="From (UTC)",
                                elem_id="lb-since")
            until = gr.DateTime(include_time=False, type="string", label="To (UTC, inclusive)",
                                elem_id="lb-until")
            minimum = gr.Number(standings.min_games(), label="Ranked from (matches)",
                                precision=0, minimum=0, elem_id="lb-min-games", min_width=120)
            with gr.Column(scale=1, min_width=160):
                refresh = gr.Button("Refresh", size="sm", elem_id="lb-refresh")
                download = gr.DownloadButton("Download CSV (raw ids)", size="sm",
                                             elem_id="lb-csv")
        summary = gr.HTML(elem_id="lb-summary")
        overall = gr.Dataframe(label="Ratings (90% interval, listed by its lower bound; "
                               "rank by interval overlap)",
                               interactive=False, elem_id="lb-overall", max_height=420)
        with gr.Row():
            forest = gr.Plot(label="Ratings with 90% intervals", show_label=False,
                             elem_id="lb-forest")
            heatmap = gr.Plot(label="Head-to-head win probability", show_label=False,
                              elem_id="lb-heatmap")
        with gr.Tabs():
            with gr.Tab("Per game"):
                per_game = gr.Dataframe(interactive=False, elem_id="lb-per-game")
            with gr.Tab("Head-to-head"):
                heads = gr.Dataframe(interactive=False, elem_id="lb-heads")
            with gr.Tab("NRA (GTBench)"):
                nra = gr.Dataframe(interactive=False, elem_id="lb-nra")
            with gr.Tab("GAMA-Bench scores"):
                gama = gr.Dataframe(interactive=False, elem_id="lb-gama", wrap=True)
            with gr.Tab("People") as people_tab:
                gr.Markdown(PEOPLE_TEXT)
                people_frame = gr.Dataframe(interactive=False, elem_id="lb-people",
                                            max_height=520)
            with gr.Tab("Difficulty levels"):
                gr.Markdown(LADDER_TEXT)
                gr.Dataframe(standings.ladder_table().value, interactive=False,
                             elem_id="lb-ladder", wrap=True, max_height=520)
        gr.Markdown(RATINGS_TEXT)
    people_tab.select(show_people, None, people_frame, api_visibility="private",
                      show_progress="minimal")
    timer = gr.Timer(BOARD_POLL, active=False)
    filters: list[Any] = [game, humans, since, until, blind, minimum]
    outputs = [shown, game, summary, overall, forest, heatmap, per_game, heads, nra, gama,
               download]
    # one computation at a time: concurrent refreshes then find the cached view
    quiet: dict[str, Any] = {"api_visibility": "private", "show_progress": "hidden",
                             "concurrency_id": "leaderboard", "concurrency_limit": 1}
    tab.select(open_board, [*filters, shown], [timer, *outputs], **quiet)
    refresh.click(show_board, filters, outputs, **{**quiet, "show_progress": "minimal"})
    for control in filters:
        control.change(show_board, filters, outputs, trigger_mode="always_last", **quiet)
    timer.tick(poll_board, [*filters, shown], outputs, **quiet)
    with gr.Group(visible=False):  # the API's endpoints (gradio_client)
        api_in = [gr.Textbox(), gr.Checkbox(), gr.Textbox(), gr.Textbox(),
                  gr.Checkbox(False, label="blind_only")]
        api_out, api_file, api_go, api_csv = gr.JSON(), gr.File(), gr.Button(), gr.Button()
    api_go.click(api_leaderboard, api_in, api_out, api_name="leaderboard",
                 concurrency_id="leaderboard", concurrency_limit=1)
    api_csv.click(api_leaderboard_csv, api_in, api_file, api_name="leaderboard_csv",
                  concurrency_id="leaderboard", concurrency_limit=1)
    return tab
