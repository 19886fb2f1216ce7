"""The Watch tab: agents playing each other, live, and any live game followed by its link.

Set up a game (an agent and, for language models, a way of thinking for every seat; a
speed) and press Start: the board, the move list and each language-model seat's thinking
panel follow the game as it is played; Pause, Resume, Step and Stop act on it. The same
viewer follows any live game opened by its spectator link (``?watch=<id>``), read-only: a
spectator's page has no controls and holds no reference to the game that could change it.
A finished game's link shows its replay. With ``ARENA_SHOWCASE`` set the page opens here,
following the exhibition games. Handlers are a few lines; the work is in
``sessions.web.watch``, ``sessions.web.spectate`` and ``sessions.web.showcase``.
"""

from __future__ import annotations

import asyncio
import functools
import re
import time
from collections.abc import AsyncIterator
from typing import Any

import anyio
import gradio as gr

from agents.llm.modes import base
from games.registry import get
from renderers import seat_label
from sessions.web import llm_page, players, replays, spectate
from sessions.web.live import GAME_ID, LIVE, LiveGame, link
from sessions.web.llm_page import Keyring
from sessions.web.showcase import showcase
from sessions.web.spectate import PUBLIC, Spectated
from sessions.web.tabs.llm import REASONING_CHOICES
from sessions.web.tabs.site import store
from sessions.web.watch import DELAYS, HOSTS, WatchSession, default_seats, seat_agents

MAX_SEATS = 10
HOST = re.compile(r"[A-Za-z0-9.\-]{1,253}(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?")
"""What a Host header may hold to be written into a link (anything else: a relative link)."""
SHOWCASE = "showcase"
POLL = 0.25
TICK = 1.0
"""While an agent thinks, the page is redrawn at least this often (the panel's timer)."""
FOLLOW_SECONDS = 3 * 3600
"""A page stops following after this long (refresh it to go on)."""
SPEEDS = [("As fast as they play" if d == 0 else f"{d:g} s", d) for d in DELAYS]
_private: dict[str, Any] = {"api_visibility": "private", "show_progress": "hidden"}


class Viewer:
    """What one browser tab follows and how (its ``gr.State``): the handlers change it and
    the running follow loop reads it, so a new choice needs no new stream; starting to
    follow another game ends the loop of the previous one (``generation``)."""

    def __init__(self) -> None:
        self.followed = ""
        self.view: str | None = PUBLIC
        self.generation = 0

    def follow(self, followed: str, view: str | None = PUBLIC) -> None:
        self.followed, self.view = followed, view
        self.generation += 1


# --- setting up ---------------------------------------------------------------------------


def choose_game(game_id: str) -> list[Any]:
    """Seat pickers for the game: one per seat, with a first pairing filled in."""
    spec = get(game_id)
    players_count = spec.load().num_players()
    choices = seat_agents(spec)
    chosen = default_seats(spec, players_count)
    agents = [gr.update(choices=choices, value=chosen[i], visible=True,
                        label=f"{seat_label(spec.id, i).capitalize()}")
              if i < players_count else gr.update(visible=False) for i in range(MAX_SEATS)]
    modes = [gr.update(visible="/" in chosen[i], value=_mode(chosen[i]))
             if i < players_count else gr.update(visible=False) for i in range(MAX_SEATS)]
    return [*agents, *modes]


def agent_picked(agent: str | None) -> Any:
    return gr.update(visible=bool(agent) and "/" in (agent or ""), value=_mode(agent or ""))


def _mode(agent: str) -> str:
    if "/" not in agent:
        return "prompt"
    return next((base(m) for m in agent.split("+")[1:] if base(m)), None) or "prompt"


def start(game_id: str, speed: float, keyring: Keyring, viewer: Viewer, request: gr.Request,
          *picks: str) -> tuple[Any, ...]:
    """Start a watched game; the page then follows it."""
    spec = get(game_id)
    count = spec.load().num_players()
    agents, modes = picks[:MAX_SEATS][:count], picks[MAX_SEATS:][:count]
    seats = [str(llm_page.with_reasoning(a, m)) if a and "/" in a else a
             for a, m in zip(agents, modes, strict=True)]
    for agent in seats:
        problem = llm_page.take(agent, "", keyring)
        if problem:
            raise gr.Error(f"{problem} (keys typed on the Play tab are used here too)")
    seating = llm_page.Seating(keyring)
    try:
        game = WatchSession(game_id, seats, store=store(), delay=float(speed or 0.0),
                            build_agent=seating.build)
        seating.attach(game)
        game.start()
    except (ValueError, KeyError) as err:
        raise gr.Error(str(err.args[0] if isinstance(err, KeyError) else err)) from None
    HOSTS.attach(request.session_hash or "", game)
    viewer.follow(game.id, spectate.ALL)
    return (game, gr.update(open=False), gr.update(visible=True), link_line(request, game.id),
            gr.update(choices=spectate.views(game), value=spectate.ALL))


def link_line(request: gr.Request, game_id: str) -> str:
    """The spectator link, as the page shows it (a link anyone may open)."""
    url = link(_base_url(request), game_id)
    return f"**Spectator link** (read-only, for anyone): [{url}]({url})"


def _base_url(request: gr.Request) -> str:
    """The page's address as the browser reached it (through a proxy: its forwarded host);
    a host that is not a plain host name gives a link relative to the page."""
    headers = {k.lower(): v for k, v in dict(getattr(request, "headers", {}) or {}).items()}
    host = (headers.get("x-forwarded-host") or headers.get("host") or "").split(",")[0].strip()
    proto = (headers.get("x-forwarded-proto") or "").split(",")[0].strip() or \
        ("https" if host.endswith(".hf.space") else "http")
    if not HOST.fullmatch(host) or proto not in ("http", "https"):
        return ""
    return f"{proto}://{host}/"


# --- the host's controls ------------------------------------------------------------------


def control(game: WatchSession | None, act: str) -> None:
    if game is None:
        raise gr.Error("No game of yours to control: press Start first.")
    getattr(game, act)()


def set_speed(game: WatchSession | None, speed: float) -> None:
    if game is not None and not game.over:
        try:
            game.set_delay(float(speed or 0.0))
        except (TypeError, ValueError) as err:
            raise gr.Error(str(err)) from None


def _stop_hosted(game: WatchSession | None) -> None:
    if game is not None:
        game.stop("the tab that started it expired")


# --- following a game (the host and every spectator alike) -------------------------------


def open_link(viewer: Viewer, request: gr.Request) -> tuple[bool, Any]:
    """On page load: a ``?watch=<id>`` link opens this tab on that game; with a showcase,
    the page opens here on the exhibition games. (whether to show the tab, the setup)"""
    params = dict(getattr(request, "query_params", {}) or {})
    wanted = str(params.get("watch", "")).strip()
    if wanted:
        viewer.follow(wanted[:64], PUBLIC)
    elif showcase(store()) is not None:
        viewer.follow(SHOWCASE, spectate.ALL)
    else:
        return False, gr.skip()
    return True, gr.update(open=False)


SHOW_TAB_JS = "(go) => { if (go) document.querySelector('#watch-tab-button')?.click(); }"
"""Selects the Watch tab (the page's tabs have no handle of their own to select one with)."""


def choose_view(viewer: Viewer, view: str | None) -> None:
    viewer.view = view


async def follow(viewer: Viewer) -> AsyncIterator[list[Any]]:
    """Redraw the viewer whenever the followed game (or the chosen view) changes, until the
    game ends (for the showcase, on to the next game) or the tab follows another one."""
    generation, followed = viewer.generation, viewer.followed
    if not followed:
        yield _idle("Set up a game above and press **Start**, or open a spectator link.")
        return
    if followed == SHOWCASE:
        async for update in _follow_showcase(viewer, generation):
            yield update
        return
    game = LIVE.get(followed)
    if game is None or (game.over and _stored(followed)):
        yield await anyio.to_thread.run_sync(_finished, followed)
        return
    async for update in _follow(game, viewer, generation, ""):
        yield update


async def _follow(game: LiveGame, viewer: Viewer, generation: int,
                  note: str) -> AsyncIterator[list[Any]]:
    started, last, drawn, board = time.monotonic(), None, 0.0, None
    while viewer.generation == generation:
        if time.monotonic() - started > FOLLOW_SECONDS:
            yield _status("Live updates stopped after three hours: refresh the page to follow "
                          "the game again.")
            return
        key = (*spectate.changed(game), viewer.view)
        now = time.monotonic()
        if key != last or (game.thinking and now - drawn >= TICK):
            seen = await anyio.to_thread.run_sync(spectate.spectate, game, viewer.view)
            board_key = (len(game.record.moves), game.record.outcome, seen.view)
            yield _show(seen, note, image=board_key != board)
            last, drawn, board = key, now, board_key
            if seen.over:
                return
        await asyncio.sleep(POLL)


async def _follow_showcase(viewer: Viewer, generation: int) -> AsyncIterator[list[Any]]:
    show = showcase(store())
    if show is None:
        yield _idle("The showcase is off on this server.")
        return
    shown = None
    while viewer.generation == generation:
        game = show.current()
        if game is None or game is shown:
            if game is None:
                yield _status("The next exhibition game is about to start…")
            await asyncio.sleep(1.0)
            continue
        shown = game
        note = "**Exhibition game**: agents play one game after another. " + show.note
        async for update in _follow(game, viewer, generation, note):
            yield update
        await asyncio.sleep(1.0)


def _stored(game_id: str) -> bool:
    return bool(store().stored([game_id]))


def _finished(game_id: str) -> list[Any]:
    """A link to a game that is not live: its replay, or why there is none."""
    if not GAME_ID.fullmatch(game_id):
        return _idle(f"{game_id[:64]!r} is not a game link: links look like ?watch= and 32 "
                     "letters and digits.")
    try:
        record = store().get(game_id)
    except KeyError:
        return _idle("No game with this link is being played here, and none was stored: it "
                     "may have ended without a move, or be played on another server.")
    seat = replays.viewer(record)
    frame = spectate.replay_frame(record, -1, seat)
    count = frame.count
    names = [replays.seat_name(record, s, None) for s in range(len(record.seats))]
    title = f"### {get(record.game).title}: " + (" vs ".join(names) if len(names) == 2
                                                 else f"{len(names)} players")
    return [title, f"This game is over: its replay. {frame.caption}", "",
            gr.update(value=frame.image, visible=True), gr.update(visible=False),
            "\n".join(frame.moves), frame.text, "", gr.update(visible=False),
            gr.update(visible=False), gr.update(visible=True),
            gr.update(maximum=max(count - 1, 1), value=count - 1, visible=count > 1),
            gr.update(choices=[(n, s) for s, n in enumerate(names)], value=seat)]


def replay_step(viewer: Viewer, index: float, seat: int | None) -> tuple[Any, ...]:
    try:
        record = store().get(viewer.followed) if GAME_ID.fullmatch(viewer.followed) else None
    except KeyError:
        record = None
    if record is None:
        return gr.skip(), gr.skip(), gr.skip(), gr.skip()
    frame = spectate.replay_frame(record, int(index or 0), seat)
    return frame.image, f"This game is over: its replay. {frame.caption}", \
        "\n".join(frame.moves), frame.text


def _show(seen: Spectated, note: str, *, image: bool) -> list[Any]:
    one = len(seen.boards) == 1
    board = gr.update(value=seen.boards[0].png, visible=True) if one else \
        gr.update(visible=False)
    caption = seen.hidden or (f"*{seen.boards[0].caption}*" if one else "")
    gallery = gr.update(value=[(b.png, b.caption) for b in seen.boards],
                        visible=len(seen.boards) > 1, columns=min(len(seen.boards), 3))
    texts = "\n\n".join(f"— {b.caption} —\n{b.text}" for b in seen.boards)
    status = f"**{seen.status}**" if seen.status else ""
    return [f"### {seen.title}", status + (f"  \n{note}" if note else ""),
            caption, board if image else gr.skip(), gallery if image else gr.skip(),
            "\n".join(seen.moves), texts, spectate.panels_html(seen),
            gr.update(choices=seen.views, value=seen.view, visible=True),
            gr.update(visible=False) if seen.over else gr.skip(),
            gr.update(visible=False), gr.skip(), gr.skip()]


def _idle(message: str) -> list[Any]:
    return ["", message, "", gr.update(visible=False), gr.update(visible=False), "", "", "",
            gr.skip(), gr.skip(), gr.update(visible=False), gr.skip(), gr.skip()]


def _status(message: str) -> list[Any]:
    return [gr.skip(), message, *[gr.skip()] * (OUTPUTS - 2)]


OUTPUTS = 13
"""How many components the viewer's updates fill (title, status, hidden note, board,
boards, moves, boards as text, panels, view, controls, replay row, replay step, seen by)."""


# --- the tab ------------------------------------------------------------------------------


def build_watch(keyring: gr.State) -> dict[str, Any]:
    """The Watch tab; returns what app.py wires to the page load (``tab``, ``followed``,
    ``load``: the events that open a link)."""
    hosted = gr.State(None, delete_callback=_stop_hosted)
    viewer = gr.State(Viewer())
    first = players.game_menu()[0][1]
    with gr.Tab("Watch", id="watch", elem_id="watch-tab") as tab:
        with gr.Accordion("Set up a game between agents", open=True) as setup:
            with gr.Row():
                game = gr.Dropdown(players.game_menu(), value=first, label="Game",
                                   elem_id="watch-game", scale=2)
                speed = gr.Radio(SPEEDS, value=1.0, label="Least time between moves",
                                 elem_id="watch-speed", scale=2)
            agents, modes = [], []
            with gr.Row(elem_id="watch-seats"):
                for i in range(MAX_SEATS):
                    with gr.Column(min_width=220):
                        agents.append(gr.Dropdown([], label=f"Seat {i + 1}", visible=False,
                                                  elem_id=f"watch-seat-{i}"))
                        modes.append(gr.Dropdown(REASONING_CHOICES, value="prompt",
                                                 label="How it thinks", visible=False,
                                                 elem_id=f"watch-mode-{i}"))
            begin = gr.Button("Start", variant="primary", elem_id="watch-start")
        title = gr.Markdown(elem_id="watch-title")
        status = gr.Markdown(elem_id="watch-status")
        link_box = gr.Markdown(elem_id="watch-link")
        with gr.Row(visible=False) as controls:
            pause = gr.Button("Pause", size="sm", elem_id="watch-pause")
            resume = gr.Button("Resume", size="sm", elem_id="watch-resume")
            step = gr.Button("Step", size="sm", elem_id="watch-step")
            stop = gr.Button("Stop (not counted)", size="sm", variant="stop",
                             elem_id="watch-stop")
        view = gr.Radio([("Public view", PUBLIC)], value=PUBLIC, label="What you see",
                        visible=False, elem_id="watch-view")
        hidden = gr.Markdown(elem_id="watch-hidden")
        board = gr.Image(interactive=False, type="pil", format="png", show_label=False,
                         buttons=[], visible=False, elem_id="watch-board")
        boards = gr.Gallery(visible=False, show_label=False, elem_id="watch-boards",
                            object_fit="contain", height="auto", allow_preview=True)
        with gr.Row(visible=False) as replay_row:
            slider = gr.Slider(0, 1, step=1, label="Step", elem_id="watch-replay-step")
            replay_seat = gr.Radio([], label="Seen by", elem_id="watch-replay-seat")
        panels = gr.HTML(elem_id="watch-panels", css_template=spectate.PANELS_CSS)
        moves = gr.Textbox(label="Moves", lines=6, max_lines=12, interactive=False,
                           elem_id="watch-moves")
        with gr.Accordion("Boards as text", open=False):
            text = gr.Textbox(show_label=False, lines=8, interactive=False,
                              elem_id="watch-text")
        opening = gr.Checkbox(False, visible=False)  # inside the tab: tabs stay one row
    outputs = [title, status, hidden, board, boards, moves, text, panels, view, controls,
               replay_row, slider, replay_seat]

    game.change(choose_game, game, [*agents, *modes], **_private)
    for agent, mode in zip(agents, modes, strict=True):
        agent.input(agent_picked, agent, mode, **_private)
    begin.click(start, [game, speed, keyring, viewer, *agents, *modes],
                [hosted, setup, controls, link_box, view], **_private
                ).success(follow, viewer, outputs, concurrency_limit=None, **_private)
    view.input(choose_view, [viewer, view], None, **_private)
    for button, act in ((pause, "pause"), (resume, "resume"), (step, "step"),
                        (stop, "stop")):
        button.click(functools.partial(control, act=act), hosted, None, **_private)
    speed.input(set_speed, [hosted, speed], None, **_private)
    slider.release(replay_step, [viewer, slider, replay_seat],
                   [board, status, moves, text], **_private)
    replay_seat.input(replay_step, [viewer, slider, replay_seat],
                      [board, status, moves, text], **_private)
    return {"tab": tab, "game": game, "pickers": [*agents, *modes], "viewer": viewer,
            "outputs": outputs, "opening": opening, "setup": setup}


def wire_load(app: gr.Blocks, parts: dict[str, Any]) -> None:
    """Page load: the seat pickers of the first game; a spectator link or the showcase
    opens this tab and follows the game."""
    app.load(choose_game, parts["game"], parts["pickers"], **_private)
    opened = app.load(open_link, parts["viewer"], [parts["opening"], parts["setup"]],
                      **_private)
    opened.then(None, parts["opening"], None, js=SHOW_TAB_JS, **_private)
    opened.then(follow, parts["viewer"], parts["outputs"], concurrency_limit=None, **_private)
