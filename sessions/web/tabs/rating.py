""""Your rating" on the Play tab: the returning person's rating (same anonymous id), per game
and overall, with its interval, game count and place among people (sessions.web.people).
Computed when the fold is opened or refreshed, not on every page load."""

from __future__ import annotations

from typing import Any

import gradio as gr

from sessions.web import people, players
from sessions.web.plain import escape
from sessions.web.tabs.site import store

RATINGS = people.Cache()


def your_rating_html(profile: dict) -> str:
    person = players.profile_person(profile)
    lines = people.your_rating(RATINGS.get(store()), person.player_id,
                               profile.get("consent") if isinstance(profile, dict) else None)
    head, rest = lines[0], lines[1:]
    body = f"<div class='arena-your-rating'><b>{escape(head)}</b>"
    if rest:
        body += "<ul>" + "".join(f"<li>{escape(line)}</li>" for line in rest) + "</ul>"
    note = ("Ratings put people, language models and programs on one scale (Bradley–Terry; "
            "0 is the average entry); the place counts people who shared games.")
    return body + f"<div class='arena-note'>{escape(note)}</div></div>"


def build_your_rating(profile: gr.BrowserState) -> gr.HTML:
    """A closed fold "Your rating"; opening it (or Refresh) computes the rating."""
    with gr.Accordion("Your rating", open=False, elem_id="your-rating-fold") as fold:
        shown = gr.HTML("<div>Open to see your rating.</div>", elem_id="your-rating")
        refresh = gr.Button("Refresh", size="sm", elem_id="your-rating-refresh")
    private: dict[str, Any] = {"api_visibility": "private", "show_progress": "minimal"}
    fold.expand(your_rating_html, profile, shown, **private)
    refresh.click(your_rating_html, profile, shown, **private)
    return shown
