"""The History tab: recent sessions (yours or everyone's) and a replay of any of them, move by
move, from your seat's point of view."""

from __future__ import annotations

import functools
from typing import Any

import gradio as gr

from sessions.web import players, replays
from sessions.web.tabs.site import store


def history_rows(scope: str, profile: dict) -> list[list[str]]:
    mine = scope == "My games"
    player = players.profile_person(profile).player_id if mine else None
    records = replays.recent(store(), player_id=player, limit=50)
    return [replays.summary_row(r, player) for r in records]


def open_replay(profile: dict, evt: gr.SelectData) -> tuple[Any, ...]:
    record = store().get(str(evt.row_value[-1]))
    seat = replays.viewer(record, players.profile_person(profile).player_id)
    last = len(replays.boundaries(record)) - 1
    return ((record, seat), gr.update(maximum=max(last, 1), value=last, visible=last > 0),
            *replay_frame((record, seat), last))


def replay_frame(chosen: tuple | None, index: float) -> tuple[Any, ...]:
    if not chosen:
        return None, "Pick a session in the table.", ""
    last = len(replays.boundaries(chosen[0])) - 1
    f = replays.frame(chosen[0], min(int(index), last), seat=chosen[1])
    return f.image, f.caption, "\n".join(f.moves)


def step(index: float, delta: int, chosen: tuple | None) -> int:
    count = len(replays.boundaries(chosen[0])) if chosen else 1
    return max(0, min(count - 1, int(index) + delta))


def build_history(profile: gr.BrowserState) -> gr.Tab:
    chosen = gr.State(None)
    with gr.Tab("History") as tab:
        with gr.Row():
            scope = gr.Radio(["My games", "All recent games"], value="My games", show_label=False)
            refresh = gr.Button("Refresh", size="sm")
        table = gr.Dataframe(headers=["When", "Game", "Seats", "Result", "Session"],
                             interactive=False, elem_id="history-table", max_height=320)
        with gr.Row():
            with gr.Column(scale=2):
                image = gr.Image(interactive=False, type="pil", format="png", show_label=False,
                                 buttons=[], elem_id="replay-board")
            with gr.Column(scale=1):
                caption = gr.Markdown(elem_id="replay-caption")
                slider = gr.Slider(0, 1, step=1, label="Step", visible=False)
                with gr.Row():
                    back = gr.Button("◀ Previous", size="sm")
                    forward = gr.Button("Next ▶", size="sm")
                moves = gr.Textbox(label="Moves", lines=10, interactive=False)
    private: dict[str, Any] = {"api_visibility": "private"}
    for trigger in (tab.select, refresh.click, scope.change):
        trigger(history_rows, [scope, profile], table, **private)
    table.select(open_replay, profile, [chosen, slider, image, caption, moves], **private)
    slider.change(replay_frame, [chosen, slider], [image, caption, moves], **private)
    back.click(functools.partial(step, delta=-1), [slider, chosen], slider, **private)
    forward.click(functools.partial(step, delta=1), [slider, chosen], slider, **private)
    return tab
