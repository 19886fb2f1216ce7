"""What every tab shares: the store (opened on first use, not at import), the index of open
games by browser session (to record a closed tab's game as abandoned) and each tab's turn
(its inputs one at a time)."""

from __future__ import annotations

import functools
import html
from typing import Any

import gradio as gr

from sessions.store import Store, StoreError
from sessions.web.play import OpenSessions
from sessions.web.turns import Turns

OPEN = OpenSessions()  # weak index: browser session id -> its game, to record closed tabs
TURNS = Turns()  # one input at a time per browser tab (sessions.web.turns)
NO_STORE = "Games cannot be stored or read on this server now:"


@functools.cache
def _opened() -> Store:
    return Store()  # $ARENA_DATA_DIR/arena.sqlite3, opened on first use, not at import


def store() -> Store:
    """The app's store; one that cannot be opened (a read-only data folder, an unreachable
    database) is a ``gr.Error`` saying why, in its own words, and is tried again next time."""
    try:
        return _opened()
    except StoreError as err:
        raise gr.Error(f"{NO_STORE} {err}", print_exception=False) from None


def store_notice() -> Any:
    """On page load: a banner saying why games cannot be stored, or nothing."""
    try:
        _opened()
    except StoreError as err:
        text = html.escape(f"{NO_STORE} {err}")
        return gr.update(value=f"<div class='arena-store-problem'>{text}</div>", visible=True)
    return gr.update(visible=False)


# --- the page's theme: formatted rules, and dark mode (issue 22, items 18-19) ---------------
THEME_CSS = """
.arena-rules ul, .arena-rules ol { margin: 0 0 0.6em 1.3em; padding: 0; }
.arena-rules li { margin: 0.15em 0; }
.arena-rules table { border-collapse: collapse; margin: 0.3em 0 0.8em; font-size: 0.92em; }
.arena-rules th, .arena-rules td { border: 1px solid var(--border-color-primary);
  padding: 3px 8px; text-align: left; vertical-align: top; }
.arena-rules th { background: var(--background-fill-secondary); }
.arena-rules code { font-size: 0.92em; }
.arena-dev-notes { margin-top: 0.6em; padding-top: 0.4em; font-size: 0.92em;
  border-top: 1px solid var(--border-color-primary); }
.arena-dev-notes summary { cursor: pointer; opacity: 0.8; }
/* the boards have no image buttons: their empty corner panel showed as a stray dot */
#board .icon-button-wrapper, #replay-board .icon-button-wrapper { display: none !important; }
/* tables people read (History, GAMA results) in the page's font, not a code listing's */
:is(#history-table, #results, #summary) :is(td, th, [class*="cell"]),
:is(#history-table, #results, #summary) :is(td, th, [class*="cell"]) * {
  font-family: var(--font) !important; }
/* GAMA results: headers wrap between words, never inside one ("resul t") */
#results th, #summary th, #results th *, #summary th * { overflow-wrap: normal !important;
  word-break: normal !important; hyphens: none; }
#results table, #summary table { font-size: 0.9em; }
/* dark mode: the drawn boards are light paper; dimmed and framed they sit in a dark page
   without glaring, and the highlights keep dark text on their light colours */
.dark #board img, .dark #replay-board img, .dark .watch-screen img { filter: brightness(0.84) contrast(1.06); border-radius: 8px;
  box-shadow: 0 0 0 1px var(--border-color-primary); }
.dark #talk-seats .seat { border-color: var(--border-color-primary); }
.dark #talk-seats .seat.speaking { background: #6b5200; border-color: #f2c94c;
  color: #fff8e1; }
.dark .arena-to-move, .dark .arena-last { background: #3a3320; color: var(--body-text-color); }
.dark .arena-thinking { color: #f2c94c; }
.dark #talk-log .line { border-bottom-color: var(--border-color-primary); }
.dark #talk-log .title, .dark #talk-log .empty { color: var(--body-text-color-subdued); }
.dark #talk-log .private { color: #c9b3f5; }
"""
"""Kept apart from the other tabs' CSS (the page's style sheet adds it last, so its dark
mode rules win)."""
