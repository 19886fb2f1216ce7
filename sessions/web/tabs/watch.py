"""The Watch tab: agents playing each other, live, and any live game followed by its link.

Set up a game (an agent and, for language models, a way of thinking for every seat; a
speed) and press Start: the board, the move list and each language-model seat's thinking
panel follow the game as it is played; Pause, Resume, Step and Stop act on it. The same
viewer follows any live game opened by its spectator link (``?watch=<id>``), read-only: a
spectator's page has no controls and holds no reference to the game that could change it.
A finished game's link shows its replay. With ``ARENA_SHOWCASE`` set the page opens here,
following the exhibition games.

Following holds no server slot: the page shows the screen its event drew, then asks the
screen's server function (:func:`follow_moves`) for the next one, which answers when the
game changes (one broadcast per game, bounded per game and per client:
``sessions.web.spectators``). Handlers are a few lines; the work is in
``sessions.web.watch``, ``sessions.web.spectate``, ``sessions.web.spectate_html``,
``sessions.web.spectators`` and ``sessions.web.showcase``.
"""

from __future__ import annotations

import asyncio
import functools
import re
import time
from collections.abc import Hashable
from typing import Any

import anyio
import gradio as gr
from starlette.responses import Response, StreamingResponse

from agents.llm.modes import base
from games.registry import get
from renderers import png, seat_label
from sessions.web import llm_page, players, replays, spectate, spectate_html
from sessions.web.live import GAME_ID, LIVE, LiveGame, link
from sessions.web.llm_page import Keyring
from sessions.web.showcase import Showcase, showcase
from sessions.web.spectate import PUBLIC
from sessions.web.spectate_html import marker, message, with_marker
from sessions.web.spectators import Frame, Limits, Refused, Spectators, client_of
from sessions.web.tabs.llm import REASONING_CHOICES
from sessions.web.tabs.site import store
from sessions.web.watch import DELAYS, HOSTS, WatchSession, default_seats, seat_agents

MAX_SEATS = 10
HOST = re.compile(r"[A-Za-z0-9.\-]{1,253}(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?")
"""What a Host header may hold to be written into a link (anything else: a relative link)."""
SHOWCASE = "showcase"
TICK = 1.0
"""While an agent thinks, the page is redrawn at least this often (the panel's timer)."""
EXHIBITION = "Exhibition game: agents play one game after another. "
SPEEDS = [("As fast as they play" if d == 0 else f"{d:g} s", d) for d in DELAYS]
_private: dict[str, Any] = {"api_visibility": "private", "show_progress": "hidden"}


class Viewer:
    """What one browser tab follows and how (its ``gr.State``): the handlers change it and
    the page's requests for new screens read it (``view``), so a new choice needs no new
    request; following another game lets go of the previous one (its ``ticket``)."""

    def __init__(self) -> None:
        self.followed = ""
        self.view: str | None = PUBLIC
        self.host = False
        """The tab started the game it follows (never refused its own game)."""
        self.ticket = ""
        """Its place among the followed game's spectators ('' while it has none)."""

    def follow(self, followed: str, view: str | None = PUBLIC, *, host: bool = False) -> None:
        spectators().leave(self.ticket)
        self.followed, self.view, self.host, self.ticket = followed, view, host, ""


SCREEN: dict[str, int] = {}
"""The screen component's id (its page script names it when it asks for a stream)."""
SPECTATORS = Spectators(Limits.from_env())
"""The process's spectators (limits: ``ARENA_SPECTATORS_PER_GAME``, ``..._PER_CLIENT``,
``ARENA_SPECTATORS``; see sessions/web/spectators.py)."""


def spectators() -> Spectators:
    return SPECTATORS


def _let_go(viewer: Viewer | None) -> None:
    if viewer is not None:
        spectators().leave(viewer.ticket)


# --- setting up ---------------------------------------------------------------------------


def choose_game(game_id: str, *picks: str | None) -> list[Any]:
    """Seat pickers for the game: one per seat, each keeping the agent picked (``picks``:
    the agents, then the ways of thinking) if it may sit at this game, else a first pairing
    filled in. A model that became ready meanwhile never replaces a pick."""
    spec = get(game_id)
    players_count = spec.load().num_players()
    choices = seat_agents(spec)
    offered = {value for _, value in choices}
    chosen = [pick if pick in offered else default
              for pick, default in zip(_seat_picks(picks), default_seats(spec, players_count),
                                       strict=False)]
    agents = [gr.update(choices=choices, value=chosen[i], visible=True,
                        label=f"{seat_label(spec.id, i).capitalize()}")
              if i < players_count else gr.update(visible=False) for i in range(MAX_SEATS)]
    ways = list(picks[MAX_SEATS:])
    kept = [ways[i] if i < len(ways) and chosen[i] == _seat_picks(picks)[i] else None
            for i in range(players_count)]
    modes = [gr.update(visible="/" in chosen[i], value=kept[i] or _mode(chosen[i]))
             if i < players_count else gr.update(visible=False) for i in range(MAX_SEATS)]
    return [*agents, *modes]


def _seat_picks(picks: tuple[str | None, ...]) -> list[str | None]:
    """The agents picked per seat (None where nothing is), as many as there are pickers."""
    agents = list(picks[:MAX_SEATS])
    return agents + [None] * (MAX_SEATS - len(agents))


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
        game.watchers = functools.partial(watching, game.id)  # none: it pauses, then ends
        game.client = client_of(request)  # a bounded number per address
        seating.attach(game)
        game.start()
    except (ValueError, KeyError) as err:
        raise gr.Error(str(err.args[0] if isinstance(err, KeyError) else err)) from None
    HOSTS.attach(request.session_hash or "", game)
    viewer.follow(game.id, spectate.ALL, host=True)
    return (game, gr.update(open=False), gr.update(visible=True), link_line(request, game.id),
            gr.update(choices=spectate.views(game), value=spectate.ALL))


def watching(game_id: str) -> int:
    """Pages following the game ``game_id`` now (its host's included)."""
    try:
        return spectators().counts().get(game_id, 0)
    except RuntimeError:  # the spectators changed while counted (another thread): say one
        return 1


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


class GameSource:
    """A live game, as its spectators follow it (a :class:`~sessions.web.spectators.Source`)."""

    def __init__(self, game: LiveGame) -> None:
        self.game = game

    def key(self) -> Hashable:
        return _key(self.game)

    def draw(self, view: str | None) -> Frame:
        seen = spectate.spectate(self.game, view)
        return Frame(spectate_html.live(seen), done=seen.over, moves=len(seen.moves))


class ShowcaseSource:
    """The showcase's current game, one after another (never done)."""

    def __init__(self, show: Showcase) -> None:
        self.show = show

    def key(self) -> Hashable:
        game = self.show.current()
        return (self.show.note, None) if game is None else (self.show.note, game.id,
                                                           *_key(game))

    def draw(self, view: str | None) -> Frame:
        game = self.show.current()
        if game is None:
            return Frame(message("The next exhibition game is about to start…"))
        seen = spectate.spectate(game, view)
        return Frame(spectate_html.live(seen, EXHIBITION + self.show.note),
                     moves=len(seen.moves))


def _key(game: LiveGame) -> tuple[Any, ...]:
    """What a spectator would see change; while agents think, also every :data:`TICK`."""
    return (*spectate.changed(game), int(time.monotonic() / TICK) if game.thinking else 0)


async def show(viewer: Viewer, request: gr.Request) -> list[Any]:
    """Draw what the tab follows; for a live game, take a place among its spectators (or
    say why not), and the page then asks for each new screen (:func:`follow_moves`)."""
    followed, people = viewer.followed, spectators()
    people.leave(viewer.ticket)
    viewer.ticket = ""
    if not followed:
        return _screen(message("Set up a game above and press Start, or open a spectator "
                               "link."))
    if followed == SHOWCASE:
        exhibition = showcase(store())
        if exhibition is None:
            return _screen(message("The showcase is off on this server."))
        source: Any = functools.partial(ShowcaseSource, exhibition)
        game: LiveGame | None = exhibition.current()
    else:
        game = LIVE.get(followed)
        if game is None or (game.over and await anyio.to_thread.run_sync(_stored, followed)):
            return await anyio.to_thread.run_sync(_finished, followed)
        source = functools.partial(GameSource, game)
    try:
        ticket = people.join(followed, client_of(request), functools.partial(_view, viewer),
                             source, host=viewer.host)
    except Refused as refused:
        return _screen(message(str(refused)))
    viewer.ticket = ticket.id
    version, frame = await people.first(ticket)
    mark = marker(ticket.id, version, request.session_hash or "", SCREEN.get("id", 0))
    page = frame.html if frame.done else with_marker(frame.html, mark)
    return [page, _views(game, viewer), gr.update(visible=False) if frame.done else gr.skip(),
            gr.update(visible=False), gr.skip(), gr.skip()]


def _view(viewer: Viewer) -> str | None:
    return viewer.view


def _views(game: LiveGame | None, viewer: Viewer) -> Any:
    if game is None:
        return gr.skip()
    return gr.update(choices=spectate.views(game), value=spectate.allowed(game, viewer.view),
                     visible=True)


async def follow_moves(asked: Any, request: gr.Request) -> Response:
    """The screen's server function: the page has shown version ``seen`` of the game it
    follows with ``ticket``; answer with the next one (see ``Spectators.wait``)."""
    try:
        ticket, seen = str(asked[0])[:64], int(asked[1])
    except (TypeError, ValueError, IndexError, KeyError):
        return Response(b'{"stopped": true}', media_type="application/json")
    raw = getattr(request, "request", None) or request
    answer = await spectators().wait(ticket, seen, functools.partial(_gone, raw))
    return Response(answer.body if answer else b"{}", media_type="application/json")


async def follow_stream(asked: Any) -> Response:
    """The same as :func:`follow_moves`, every answer in one streamed response (server-sent
    events) until the game ends: what the page's script asks for first."""
    try:
        ticket, seen = str(asked[0])[:64], int(asked[1])
    except (TypeError, ValueError, IndexError, KeyError):
        return Response(b'{"stopped": true}', media_type="application/json")
    return StreamingResponse(spectators().stream(ticket, seen), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


async def _gone(request: Any) -> None:
    """Returns when the page's connection closes (its request will never be answered)."""
    receive = getattr(request, "receive", None)
    while receive is None:
        await asyncio.sleep(3600)
    while (await receive())["type"] != "http.disconnect":
        await asyncio.sleep(0.5)


async def choose_view(viewer: Viewer, view: str | None, request: gr.Request) -> Any:
    """The person picked another view: redraw now (later screens follow the new view)."""
    viewer.view = view
    game = _followed(viewer)
    if game is None:
        return gr.skip()
    seen = await anyio.to_thread.run_sync(spectate.spectate, game, view)
    note = EXHIBITION + (_exhibition_note() or "") if viewer.followed == SHOWCASE else ""
    page = spectate_html.live(seen, note)
    version = spectators().version(viewer.ticket)
    if version is None or seen.over:
        return page
    return with_marker(page, marker(viewer.ticket, version, request.session_hash or "",
                                    SCREEN.get("id", 0)))


def ended(viewer: Viewer) -> tuple[Any, Any]:
    """The followed game is over (the page says so): every view opens, the controls go."""
    return _views(_followed(viewer), viewer), gr.update(visible=False)


def _followed(viewer: Viewer) -> LiveGame | None:
    if viewer.followed == SHOWCASE:
        exhibition = showcase(store())
        return exhibition.current() if exhibition is not None else None
    return LIVE.get(viewer.followed)


def _exhibition_note() -> str | None:
    exhibition = showcase(store())
    return exhibition.note if exhibition is not None else None


def _stored(game_id: str) -> bool:
    return bool(store().stored([game_id]))


def _finished(game_id: str) -> list[Any]:
    """A link to a game that is not live: its replay, or why there is none."""
    if not GAME_ID.fullmatch(game_id):
        return _screen(message(f"{game_id[:64]!r} is not a game link: links look like "
                               "?watch= and 32 letters and digits."))
    try:
        record = store().get(game_id)
    except KeyError:
        return _screen(message("No game with this link is being played here, and none was "
                               "stored: it may have ended without a move, or be played on "
                               "another server."))
    seat = replays.viewer(record)
    frame = spectate.replay_frame(record, -1, seat)
    count = frame.count
    names = spectate.record_names(record)  # with sides, as live
    return [_replay_screen(record, frame), gr.update(visible=False), gr.update(visible=False),
            gr.update(visible=True),
            gr.update(maximum=max(count - 1, 1), value=count - 1, visible=count > 1),
            gr.update(choices=[(n, s) for s, n in enumerate(names)], value=seat)]


def _replay_screen(record: Any, frame: replays.Frame) -> str:
    names = spectate.record_names(record)  # with sides, as live
    title = f"{get(record.game).title}: " + (" vs ".join(names) if len(names) == 2
                                             else f"{len(names)} players")
    return spectate_html.screen(title=title, note=f"This game is over: its replay. "
                                                  f"{frame.caption}",
                                boards=[(png(frame.image), frame.caption)],
                                moves=list(frame.moves), text=frame.text)


def replay_step(viewer: Viewer, index: float, seat: int | None) -> Any:
    try:
        record = store().get(viewer.followed) if GAME_ID.fullmatch(viewer.followed) else None
    except KeyError:
        record = None
    if record is None:
        return gr.skip()
    return _replay_screen(record, spectate.replay_frame(record, int(index or 0), seat))


def _screen(page: str) -> list[Any]:
    """A screen with nothing live on it: no view to pick, no controls."""
    return [page, gr.update(visible=False), gr.update(visible=False), gr.update(visible=False),
            gr.skip(), gr.skip()]


# --- the tab ------------------------------------------------------------------------------


def build_watch(keyring: gr.State) -> dict[str, Any]:
    """The Watch tab; returns what app.py wires to the page load (``tab``, ``followed``,
    ``load``: the events that open a link)."""
    hosted = gr.State(None, delete_callback=_stop_hosted)
    viewer = gr.State(Viewer(), delete_callback=_let_go)
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
        link_box = gr.Markdown(elem_id="watch-link")
        with gr.Row(visible=False) as controls:
            pause = gr.Button("Pause", size="sm", elem_id="watch-pause")
            resume = gr.Button("Resume", size="sm", elem_id="watch-resume")
            step = gr.Button("Step", size="sm", elem_id="watch-step")
            stop = gr.Button("Stop (not counted)", size="sm", variant="stop",
                             elem_id="watch-stop")
        view = gr.Radio([("Public view", PUBLIC)], value=PUBLIC, label="What you see",
                        visible=False, elem_id="watch-view")
        with gr.Row(visible=False) as replay_row:
            slider = gr.Slider(0, 1, step=1, label="Step", elem_id="watch-replay-step")
            replay_seat = gr.Radio([], label="Seen by", elem_id="watch-replay-seat")
        screen = gr.HTML(message(""), elem_id="watch-screen",
                         css_template=spectate_html.SCREEN_CSS,
                         js_on_load=spectate_html.FOLLOW_JS,
                         server_functions=[follow_moves, follow_stream])
        opening = gr.Checkbox(False, visible=False)  # inside the tab: tabs stay one row
    SCREEN["id"] = screen._id  # its script asks this component's server functions
    outputs = [screen, view, controls, replay_row, slider, replay_seat]

    game.change(choose_game, [game, *agents, *modes], [*agents, *modes], **_private)
    for agent, mode in zip(agents, modes, strict=True):
        agent.input(agent_picked, agent, mode, **_private)
    begin.click(start, [game, speed, keyring, viewer, *agents, *modes],
                [hosted, setup, controls, link_box, view], **_private
                ).success(show, viewer, outputs, **_private)
    view.input(choose_view, [viewer, view], screen, **_private)
    screen.end(ended, viewer, [view, controls], **_private)  # the page saw the game end
    for button, act in ((pause, "pause"), (resume, "resume"), (step, "step"),
                        (stop, "stop")):
        button.click(functools.partial(control, act=act), hosted, None, **_private)
    speed.input(set_speed, [hosted, speed], None, **_private)
    slider.release(replay_step, [viewer, slider, replay_seat], screen, **_private)
    replay_seat.input(replay_step, [viewer, slider, replay_seat], screen, **_private)
    return {"tab": tab, "game": game, "pickers": [*agents, *modes], "viewer": viewer,
            "outputs": outputs, "opening": opening, "setup": setup}


def wire_load(app: gr.Blocks, parts: dict[str, Any]) -> None:
    """Page load: the seat pickers of the first game; a spectator link or the showcase
    opens this tab and follows the game."""
    app.load(choose_game, [parts["game"], *parts["pickers"]], parts["pickers"], **_private)
    opened = app.load(open_link, parts["viewer"], [parts["opening"], parts["setup"]],
                      **_private)
    opened.then(None, parts["opening"], None, js=SHOW_TAB_JS, **_private)
    opened.then(show, parts["viewer"], parts["outputs"], **_private)
