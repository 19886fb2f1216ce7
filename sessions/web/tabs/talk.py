"""Games played by talking on the Play tab: the table's setup (any seat, an agent or language
model in every other seat, the number of players where the game allows several) and the
table-talk panel (who sits where, with teams; every utterance the person heard, in order,
with its speaker; the speaking seat highlighted; the person's text box).

Every word shown here — what people and models said, seat and agent names — is escaped:
it is text, never Markdown or HTML. The work is in ``sessions.web.talk``.
"""

from __future__ import annotations

import html
from typing import Any

import gradio as gr

from games.actions import MAX_TYPED_TALK_CHARS
from sessions.web import talk
from sessions.web.talk import MAX_SEATS, TalkScreen

PICKERS = MAX_SEATS - 1
_MARKDOWN = str.maketrans({c: "\\" + c for c in "\\`*_[]#|~$"})


def plain(text: str) -> str:
    """``text`` for a Markdown component, shown exactly as written: HTML-escaped (``<N>``
    stays visible, ``<b>`` stays text) and Markdown's marks backslashed."""
    return html.escape(text, quote=False).translate(_MARKDOWN)

CSS = """
#talk-seats .seat { display: inline-block; margin: 2px 4px 2px 0; padding: 3px 8px;
  border: 1px solid #c9ced6; border-radius: 12px; font-size: 0.92em; }
#talk-seats .seat.speaking { background: #fff3c4; border-color: #e0a800; font-weight: 600; }
#talk-seats .seat.you { border-width: 2px; border-color: #2563eb; }
/* the log scrolls inside its box, newest at the bottom and in view (like the move list: a
   reversed flex column is anchored to its end); the block around it never grows past it */
#talk-log { overflow: hidden !important; }
#talk-log .talk-scroll { max-height: 320px; overflow-y: auto; display: flex;
  flex-direction: column-reverse; overscroll-behavior: contain; }
#talk-log .line { padding: 3px 0; border-bottom: 1px solid #eef0f3; white-space: pre-wrap;
  overflow-wrap: anywhere; }
#talk-log .who { font-weight: 600; }
#talk-log .title { font-size: 0.85em; color: #6c757d; margin-bottom: 4px; }
#talk-log .private { color: #6b4fa0; }
#talk-log .empty { color: #6c757d; }
"""


def _seats_html(screen: TalkScreen) -> str:
    parts = []
    for seat in screen.seats:
        classes = " ".join(c for c, on in (("seat", True), ("speaking", seat.speaking),
                                           ("you", seat.you)) if on)
        team = f" · {seat.team}" if seat.team else ""
        who = "you" if seat.you else seat.player
        parts.append(f'<span class="{classes}">{html.escape(seat.name)}: '
                     f"{html.escape(who)}{html.escape(team)}</span>")
    return "".join(parts)


def _log_html(screen: TalkScreen) -> str:
    title = '<div class="title">Table talk</div>'
    if not screen.lines:
        return title + '<div class="line empty">Nothing said yet.</div>'
    rows = []
    for line in screen.lines:
        speaker = f"{line.speaker} (you)" if line.yours else line.speaker
        private = " private" if line.private else ""
        tag = " (privately)" if line.private else ""
        rows.append(f'<div class="line{private}"><span class="who">{html.escape(speaker)}'
                    f"</span> {html.escape(line.kind)}{tag}: {html.escape(line.text)}</div>")
    return title + '<div class="talk-scroll"><div>' + "".join(rows) + "</div></div>"


def show_talk(screen: TalkScreen | None) -> list[Any]:
    """Updates for the talk panel, in the order build_talk_view lists its outputs."""
    if screen is None:
        return [gr.update(visible=False), gr.skip(), gr.skip(), gr.skip()]
    return [gr.update(visible=True), _seats_html(screen), _log_html(screen),
            gr.update(placeholder=screen.hint, label=screen.prompt or "Your words (when it "
                      "is your turn to speak)")]


def build_talk_view() -> dict[str, Any]:
    """The panel while playing; outputs in show_talk's order."""
    with gr.Column(visible=False, elem_id="talk") as box:
        seats = gr.HTML(elem_id="talk-seats")
        log = gr.HTML(elem_id="talk-log", container=True)
        with gr.Row():
            words = gr.Textbox(label="Your words", elem_id="talk-text", scale=4, max_lines=3,
                               max_length=MAX_TYPED_TALK_CHARS)  # the adapter's limit
            say = gr.Button("Say it", variant="primary", scale=1, elem_id="talk-say")
    return {"outputs": [box, seats, log, words], "words": words, "say": say}


def build_talk_setup() -> dict[str, Any]:
    """Seat, players and an agent for every other seat (shown for games played by talking,
    instead of the one-opponent setup)."""
    with gr.Group(visible=False) as box:
        count = gr.Number(4, label="Players", precision=0, min_width=90, visible=False,
                          elem_id="talk-players")
        seat = gr.Dropdown([], label="Your seat", elem_id="talk-seat")
        with gr.Accordion("Who sits in the other seats", open=True), gr.Row():
            agents = [gr.Dropdown([], visible=False, min_width=150,
                                  elem_id=f"talk-agent-{i}") for i in range(PICKERS)]
        begin = gr.Button("Start", variant="primary", elem_id="start-talk")
    return {"box": box, "count": count, "seat": seat, "agents": agents, "start": begin}


def choose_talk(game_id: str) -> list[Any]:
    """The setup's updates when a game is picked: [box, count, seat, *agents]."""
    if not talk.is_talk(game_id):
        return [gr.update(visible=False)] + [gr.skip()] * (PICKERS + 2)
    setup = talk.talk_setup(game_id, None, 0)
    low, high = setup.counts
    return [gr.update(visible=True),
            gr.update(value=setup.players, visible=low != high, minimum=low, maximum=high),
            *arrange_talk(game_id, setup.players, "0", *([None] * PICKERS))]


def arrange_talk(game_id: str, count: float | None, seat: str | None,
                 *agents: str | None) -> list[Any]:
    """Seat choices and one agent picker per other seat, named as the game names seats."""
    probe = talk.talk_setup(game_id, int(count or 0) or None, None)
    players = probe.players
    if seat != "random" and not (seat and seat.isdigit() and int(seat) < players):
        seat = "0"
    setup = talk.talk_setup(game_id, players, None if seat == "random" else int(seat or 0))
    allowed = {spec for _, spec in setup.agents}
    pickers = [gr.update(visible=i < players - 1, choices=setup.agents,
                         label=setup.others[i] if i < players - 1 else "agent",
                         value=agents[i] if agents[i] in allowed else setup.defaults[0])
               for i in range(PICKERS)]
    return [gr.update(choices=setup.seat_choices, value=seat), *pickers]
