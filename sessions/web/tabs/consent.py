"""Consent and profile: the first-use question whether finished games may be kept as
human-baseline data, and "Your data" to change the answer."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import gradio as gr

from sessions.web import players
from sessions.web.plain import escape
from sessions.web.tabs import your_games

CONSENT_TEXT = """### May we keep your games for research?
This arena compares people, language models and classic game programs. With your consent,
your finished games (the moves, how long each took, the result) are kept as human-baseline
data under a random anonymous id stored in this browser. No name, email, IP address or other
personal data is kept. A display name is optional; if you give one, it is shown with your games
to anyone who sees them: in the game history, and to spectators who follow a game by its
link, live or as a replay after it ended.
Without consent you play the same way and your games are stored marked *not for research*."""
TALK_CONSENT_TEXT = ("Also share what I write at the table (clues, questions, statements) "
                     "in the published research data")
"""The talk choice: without it a person's words are withheld from the dataset."""


def load_profile(profile: dict | None, request: gr.Request) -> tuple[dict, Any, str]:
    """The browser's profile on page load, and the question if it is not answered yet; a
    spectator link (``?watch=``) opens on the game, and the question waits until the person
    opens the Play tab (:func:`ask_on_play`)."""
    fresh = players.browser_profile(profile if isinstance(profile, dict) else None)
    answered = fresh["consent"] in (True, False)
    return fresh, gr.update(visible=not answered and not _spectating(request)), \
        profile_text(fresh)


def ask_on_play(profile: dict | None, selected: int, request: gr.Request) -> tuple[Any, int]:
    """The Play tab was selected (``selected`` times before): ask the question if it is not
    answered yet. Gradio also reports the first tab as selected when the page mounts; on a
    spectator link's page (``?watch=``) that one is not the visitor opening Play, so the
    question waits for their own click instead of covering the game they came to watch."""
    if _spectating(request) and selected == 0:
        return gr.update(), 1
    answered = isinstance(profile, dict) and profile.get("consent") in (True, False)
    return gr.update(visible=not answered), selected + 1


def _spectating(request: gr.Request | None) -> bool:
    params = dict(getattr(request, "query_params", {}) or {})
    return bool(str(params.get("watch", "")).strip())


def set_consent(profile: dict, name: str, talk: bool, consent: bool) -> tuple[dict, Any, str]:
    try:
        person = players.Person(players.profile_person(profile).player_id, name, consent,
                                consent and talk is True)
    except ValueError as err:
        raise gr.Error(str(err)) from None
    fresh = {"player_id": person.player_id, "consent": consent, "name": person.display_name,
             "talk": person.talk}
    return fresh, gr.update(visible=False), profile_text(fresh)


def profile_text(profile: dict) -> str:
    """What the page keeps about this browser, as HTML (the display name is escaped)."""
    consent = {True: "yes: your games are kept for research",
               False: "no: your games are stored marked not for research",
               None: "not answered yet (counts as no)"}[profile.get("consent")]
    name = profile.get("name") or "none"
    talk = " · table talk shared" if profile.get("consent") and profile.get("talk") else ""
    return ("<div>" + escape(f"Anonymous id {profile['player_id'][:8]}… · display name: {name}"
                             f" · research use: {consent}{talk}. Applies to games started "
                             "from now on.") + "</div>")


@dataclass(frozen=True)
class Question:
    """The first-use question's components (``build_profile`` wires its answers)."""

    box: gr.Group
    name: gr.Textbox
    yes: gr.Button
    no: gr.Button
    talk: gr.Checkbox


def build_consent(profile: gr.BrowserState) -> Question:
    """The first-use question (shown until it is answered), at the top of the page."""
    with gr.Group(visible=False) as box:
        gr.Markdown(CONSENT_TEXT, elem_id="consent")
        name = gr.Textbox(label="Display name (optional)", max_length=players.MAX_NAME)
        talk = gr.Checkbox(label=TALK_CONSENT_TEXT, value=False, elem_id="consent-talk")
        with gr.Row():
            yes = gr.Button("Yes, keep my games for research", variant="primary")
            no = gr.Button("No thanks, just let me play")
    return Question(box, name, yes, no, talk)


def build_profile(profile: gr.BrowserState, question: Question) -> gr.HTML:
    """"Your data" (at the foot of the page): what is kept, and a change of answer."""
    with gr.Accordion("Your data", open=False):
        about = gr.HTML(elem_id="profile")
        with gr.Row():
            change_yes = gr.Button("Allow research use", size="sm")
            change_no = gr.Button("Do not use my games for research", size="sm")
        your_games.build_your_games(profile)  # download, forget (sessions/web/tabs/your_games.py)
    answers = ((question.yes, True), (question.no, False), (change_yes, True),
               (change_no, False))
    for button, consent in answers:
        button.click(functools.partial(set_consent, consent=consent), [profile, question.name, question.talk],
                     [profile, question.box, about], api_visibility="private")
    return about
