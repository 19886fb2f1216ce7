"""The History tab: recent sessions (yours or everyone's), finished games first and abandoned
ones hidden unless asked for, and a replay of any of them, move by move from its first move,
from your seat's point of view."""

from __future__ import annotations

import html
import re
from typing import Any

import gradio as gr

from sessions.web import players, replays
from sessions.web.plain import escape
from sessions.web.tabs.site import store

LIMIT = 50


def history_rows(scope: str, abandoned: bool, profile: dict) -> tuple[list[list[str]], str]:
    mine = scope == "My games"
    player = players.profile_person(profile).player_id if mine else None
    listed = replays.listing(store(), player_id=player, limit=LIMIT, abandoned=abandoned)
    rows = [_shown_row(replays.summary_row(r, player)) for r in listed.records]
    count = (f"{listed.finished} finished game{'s' if listed.finished != 1 else ''}"
             f" · {listed.abandoned} abandoned"
             + ("" if abandoned or not listed.abandoned else " (hidden)"))
    hint = f" {OPENS}" if rows else ""
    return rows, f"<div class='arena-note'>{escape(count + '.' + hint)}</div>"


OPENS = "Click a game in the table to replay it move by move below."
SESSION = re.compile(r'data-session="([^"]+)"')


def _shown_row(row: list[str]) -> list[str]:
    """A History row for people: the session id leaves the table and rides, unseen, on the
    game's cell (a row sorted elsewhere still opens its own replay)."""
    when, game, seats, result, session = row
    cell = f'<span data-session="{escape(session)}" title="Open the replay">{escape(game)}</span>'
    return [when, cell, seats, result]


def open_replay(profile: dict, evt: gr.SelectData) -> tuple[Any, ...]:
    """Open the chosen session at its first move (the start, when nothing was played)."""
    found = SESSION.search(str(evt.row_value[1]))
    if found is None:
        return (None, *_nothing())
    record = store().get(html.unescape(found.group(1)))
    opened = replays.Replaying(record, replays.viewer(record,
                                                      players.profile_person(profile).player_id))
    return (opened, *_shown(opened.go(opened.index), opened.last))


def _shown(f: replays.Frame | None, last: int) -> tuple[Any, ...]:
    """The slider, image, caption and move list of frame ``f`` (nothing when None: a newer
    press has the page's next frame)."""
    if f is None:
        return gr.skip(), gr.skip(), gr.skip(), gr.skip()
    slider = gr.update(maximum=max(last, 1), value=f.index, visible=last > 0)
    return (slider, f.image, f"<div class='arena-status'>{escape(f.caption)}</div>",
            "\n".join(f.moves))


def _nothing() -> tuple[Any, ...]:
    return gr.update(), None, f"<div>{OPENS}</div>", ""


def replay_frame(opened: replays.Replaying | None, index: float | None) -> tuple[Any, ...]:
    """The frame a person dragged the slider to."""
    if opened is None:
        return _nothing()
    return _shown(opened.go(int(index or 0)), opened.last)


def step_back(opened: replays.Replaying | None) -> tuple[Any, ...]:
    return _nothing() if opened is None else _shown(opened.step(-1), opened.last)


def step_forward(opened: replays.Replaying | None) -> tuple[Any, ...]:
    return _nothing() if opened is None else _shown(opened.step(1), opened.last)


def catch_up(opened: replays.Replaying | None, shown: float | None) -> tuple[Any, ...]:
    """After each press: the current frame again if the page shows another (answers to
    quick presses can arrive out of order)."""
    return _shown(None, 0) if opened is None else _shown(opened.catch_up(shown), opened.last)


def build_history(profile: gr.BrowserState) -> gr.Tab:
    chosen = gr.State(None)
    with gr.Tab("History") as tab:
        with gr.Row(equal_height=True):
            scope = gr.Radio(["My games", "All recent games"], value="My games",
                             show_label=False, elem_id="history-scope")
            abandoned = gr.Checkbox(label="Show abandoned games", value=False,
                                    elem_id="history-abandoned")
            refresh = gr.Button("Refresh", size="sm", scale=0, min_width=100)
        count = gr.HTML(elem_id="history-count")
        table = gr.Dataframe(headers=["When", "Game", "Players", "Result"],
                             datatype=["str", "html", "str", "str"], wrap=True,
                             interactive=False, elem_id="history-table", max_height=320)
        with gr.Row(equal_height=False):
            with gr.Column(scale=3, min_width=320):
                image = gr.Image(interactive=False, type="pil", format="png", show_label=False,
                                 buttons=[], elem_id="replay-board", container=False)
            with gr.Column(scale=2, min_width=300):
                caption = gr.HTML(elem_id="replay-caption")
                slider = gr.Slider(0, 1, step=1, label="Position", visible=False,
                                   elem_id="replay-step")
                with gr.Row():
                    back = gr.Button("◀ Previous", size="sm", elem_id="replay-back")
                    forward = gr.Button("Next ▶", size="sm", elem_id="replay-next")
                moves = gr.Textbox(label="Moves", lines=10, interactive=False,
                                   elem_id="replay-moves")
    private: dict[str, Any] = {"api_visibility": "private"}
    for trigger in (tab.select, refresh.click, scope.change, abandoned.change):
        trigger(history_rows, [scope, abandoned, profile], [table, count], **private)
    shown = [slider, image, caption, moves]
    quiet = {**private, "show_progress": "hidden"}  # a catch-up mostly sends nothing: no fading
    table.select(open_replay, profile, [chosen, *shown], **private)
    # the frame shown is kept on the server (replays.Replaying): each quick press counts
    slider.input(replay_frame, [chosen, slider], shown, trigger_mode="always_last", **private
                 ).then(catch_up, [chosen, slider], shown, trigger_mode="always_last", **quiet)
    for button, pressed in ((back, step_back), (forward, step_forward)):
        button.click(pressed, chosen, shown, trigger_mode="multiple", **private
                     ).then(catch_up, [chosen, slider], shown, trigger_mode="always_last",
                            **quiet)
    return tab
