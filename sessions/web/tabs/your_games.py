"""In "Your data": download your own games (JSONL, whole replayable records) and "Forget my
games" (every session of this browser's anonymous id is deleted from the store, so it is
also gone from the next published dataset)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import gradio as gr

from sessions.forget import forget_player, player_games
from sessions.web import players
from sessions.web.tabs.site import store


def _player(profile: dict | None) -> str:
    try:
        return players.profile_person(profile).player_id if (profile or {}).get(
            "player_id") else ""
    except ValueError:
        return ""


def download_games(profile: dict | None) -> tuple[Any, str]:
    """A JSONL file of this person's stored games (and a line saying how many)."""
    player = _player(profile)
    lines = list(player_games(store(), player)) if player else []
    if not lines:
        return gr.update(value=None, visible=False), "No stored games of yours yet."
    path = Path(tempfile.mkdtemp(prefix="arena-mine-")) / "my-games.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    return gr.update(value=str(path), visible=True), \
        f"{len(lines)} game{'s' if len(lines) != 1 else ''} ready to download."


def ask_forget(profile: dict | None) -> tuple[Any, str]:
    """The confirmation, with how many games would go."""
    player = _player(profile)
    count = len(store().sessions_of(player)) if player else 0
    if not count:
        return gr.update(visible=False), "No stored games of yours to forget."
    return gr.update(visible=True), (f"Delete your {count} stored game{'s' if count != 1 else ''}"
                                     " for good? This cannot be undone.")


def forget_games(profile: dict | None) -> tuple[Any, str]:
    player = _player(profile)
    removed = forget_player(store(), player) if player else 0
    return gr.update(visible=False), (
        f"Removed {removed} game{'s' if removed != 1 else ''} from the store; they are left "
        "out of every dataset from now on, and the next scheduled update removes them from "
        "the published one.")


def build_your_games(profile: gr.BrowserState) -> None:
    """The buttons (inside "Your data")."""
    with gr.Row():
        download = gr.Button("Download my games (JSONL)", size="sm", elem_id="download-mine")
        forget = gr.Button("Forget my games…", size="sm", variant="stop", elem_id="forget-mine")
    with gr.Row(visible=False) as confirm:
        sure = gr.Button("Yes, delete them", size="sm", variant="stop", elem_id="forget-sure")
        keep = gr.Button("Keep them", size="sm")
    said = gr.Textbox(show_label=False, interactive=False, elem_id="mine-said",
                      container=False)
    file = gr.File(label="Your games", visible=False, interactive=False)
    download.click(download_games, profile, [file, said], api_visibility="private")
    forget.click(ask_forget, profile, [confirm, said], api_visibility="private")
    sure.click(forget_games, profile, [confirm, said], api_visibility="private")
    keep.click(lambda: (gr.update(visible=False), "Nothing was deleted."), None,
               [confirm, said], api_visibility="private")
