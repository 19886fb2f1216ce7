"""The History tab: recent sessions (yours or everyone's), finished games first and abandoned
ones hidden unless asked for, and a replay of any of them, move by move from its first move,
from your seat's point of view."""

from __future__ import annotations

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
    rows = [replays.summary_row(r, player) for r in listed.records]
    count = (f"{listed.finished} finished game{'s' if listed.finished != 1 else ''}"
             f" · {listed.abandoned} abandoned"
             + ("" if abandoned or not listed.abandoned else " (hidden)"))
    return rows, f"<div class='arena-note'>{escape(count)}</div>"


def open_replay(profile: dict, evt: gr.SelectData) -> tuple[Any, ...]:
    """Open the chosen session at its first move (the start, when nothing was played)."""
    record = store().get(str(evt.row_value[-1]))
    seat = replays.viewer(record, players.profile_person(profile).player_id)
    last = len(replays.boundaries(record)) - 1
    first = min(1, last)
    return ((record, seat), gr.update(maximum=max(last, 1), value=first, visible=last > 0),
            *replay_frame((record, seat), first))


def replay_frame(chosen: tuple | None, index: float | None) -> tuple[Any, ...]:
    if not chosen:
        return None, "<div>Pick a session in the table.</div>", ""
    last = len(replays.boundaries(chosen[0])) - 1
    f = replays.frame(chosen[0], max(0, min(int(index or 0), last)), seat=chosen[1])
    return f.image, f"<div class='arena-status'>{escape(f.caption)}</div>", "\n".join(f.moves)


def step(index: float | None, chosen: tuple | None, delta: int) -> int:
    """The slider's next value: ``delta`` frames on, within the replay."""
    count = len(replays.boundaries(chosen[0])) if chosen else 1
    return max(0, min(count - 1, int(index or 0) + delta))


def step_back(index: float | None, chosen: tuple | None) -> int:
    return step(index, chosen, -1)


def step_forward(index: float | None, chosen: tuple | None) -> int:
    return step(index, chosen, 1)


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
        table = gr.Dataframe(headers=["When", "Game", "Seats", "Result", "Session"],
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
    table.select(open_replay, profile, [chosen, slider, image, caption, moves], **private)
    slider.change(replay_frame, [chosen, slider], [image, caption, moves], **private)
    back.click(step_back, [slider, chosen], slider, trigger_mode="multiple", **private)
    forward.click(step_forward, [slider, chosen], slider, trigger_mode="multiple", **private)
    return tab
