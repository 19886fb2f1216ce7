"""Language-model opponents on the Play tab: how the model thinks, the key it needs (held in
the tab's server memory only), and the live thinking panel."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import wait
from typing import Any

import gradio as gr

from sessions.web import llm_page, llm_panel_html, play_html
from sessions.web.llm_page import Keyring
from sessions.web.tabs.site import OPEN

WATCH_START = 1.5
"""Seconds the panel waits for a language-model seat to start thinking after an input."""
REASONING_CHOICES = [("Move only", "prompt"), ("Chain of thought", "cot"),
                     ("Self-consistency (5 samples, majority vote)", "sc-cot"),
                     ("Tree of thoughts", "tot"),
                     ("Plans ahead (RAP: predicts replies, searches 2 moves deep)", "rap")]


def key_updates(chosen: llm_page.Pick, problem: str = "") -> list[Any]:
    """Updates for the key field, the note beside it and the forget button."""
    asks = chosen.llm and chosen.slot is not None and chosen.status != "unavailable"
    note = play_html.note(problem or chosen.note)
    return [gr.update(visible=asks, value="", label=chosen.key_label or "API key"),
            gr.update(value=note, visible=chosen.llm),
            gr.update(visible=chosen.key_held)]


def llm_picked(opponent: str | None, keyring: Keyring) -> Iterator[list[Any]]:
    """Show the reasoning modes and the key field for a language model; start the offline
    model's server in the background when it is picked (the note follows its start)."""
    chosen = llm_page.pick(opponent, keyring)
    mode = gr.update(visible=chosen.llm, value=chosen.reasoning or "prompt")
    yield [mode, *key_updates(chosen)]
    if chosen.local and chosen.status == "ready" and opponent:
        starting = llm_page.warm_up(llm_page.entry_for(opponent))
        while not starting.done():
            yield [gr.skip(), *key_updates(llm_page.pick(opponent, keyring))]
            wait([starting], timeout=1.0)
        yield [gr.skip(), *key_updates(llm_page.pick(opponent, keyring))]


def take_key(opponent: str | None, typed: str, keyring: Keyring,
             request: gr.Request) -> Iterator[list[Any]]:
    """Before Start: hold a typed key (the field is emptied); no game starts without one."""
    llm_page.remember_tab(request.session_hash or "", keyring)
    problem = llm_page.take(opponent, typed or "", keyring)
    yield key_updates(llm_page.pick(opponent, keyring), problem)
    if problem:  # the message is beside the field; stop the chain without a pop-up
        raise gr.Error(problem, visible=False, print_exception=False)


def forget_key(opponent: str | None, keyring: Keyring) -> list[Any]:
    keyring.forget()
    return key_updates(llm_page.pick(opponent, keyring))


def watch_llm(request: gr.Request) -> Iterator[Any]:
    """Stream the language-model seats' thinking into the panel while they are to move.

    Started by the turn's first "thinking" screen (a change of a hidden field: Gradio runs
    the listeners of one trigger one after another, so it cannot hang off the input that
    started the turn, which lasts until the agents reply); it finds the tab's game and
    streams until the seats have answered."""
    browser = request.session_hash or ""
    deadline, shown = time.monotonic() + WATCH_START, False
    while time.monotonic() < deadline:
        session = OPEN.get(browser)
        panel = llm_page.panel_of(session)
        if session is None or panel is None or not (session.thinking or
                                                    session.agents.to_move()):
            time.sleep(0.05)
            continue
        for drawn in panel.frames(session, poll=0.1):
            yield gr.update(value=drawn, visible=True)
        shown, deadline = True, time.monotonic() + 0.3  # the reply's own next seat, if any
    if not shown:
        session = OPEN.get(browser)
        panel = llm_page.panel_of(session)
        yield (gr.update(visible=False) if panel is None or session is None else
               gr.update(value=llm_panel_html.render(panel.view(session)), visible=True))


def build_llm_picker() -> tuple[Any, ...]:
    """How a language-model opponent thinks, and the key it needs (shown for LLMs only)."""
    reasoning = gr.Radio(REASONING_CHOICES, value="prompt", label="How the model thinks",
                         visible=False, elem_id="reasoning-mode")
    key = gr.Textbox(type="password", label="API key", visible=False, elem_id="api-key",
                     placeholder="paste your key (kept in this tab's server memory only)")
    note = gr.HTML(visible=False, elem_id="key-note")
    forget = gr.Button("Forget my key", size="sm", visible=False, elem_id="forget-key")
    return reasoning, key, note, forget
