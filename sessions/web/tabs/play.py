"""The Play tab, laid out like a game site: the setup (game, opponent, seat, Start) collapses
into a one-line bar once a game starts; the board is the largest thing on the page, with the
players and their clocks, the status, the move list (and ◀ ▶ to look back) beside it on wide
screens and under it on narrow ones. Handlers are a few lines each; the work is in
``sessions.web.play.PlaySession``, every input goes through ``sessions.web.turns.respond``
(one at a time per tab, answers in order), and every text panel is built by
``sessions.web.play_html`` (escaped). GAMA-Bench's tables add their setup and panel
(:mod:`sessions.web.tabs.table`); language models their picker and thinking panel
(:mod:`sessions.web.tabs.llm`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import gradio as gr
import numpy as np

from games.actions import MAX_TYPED_CHARS, typed_limit
from games.registry import get
from renderers import seat_label, side_name
from sessions.web import (
    blind,
    gama_screen,
    llm_page,
    llm_panel_html,
    play_html,
    players,
    turns,
)
from sessions.web.live import LIVE
from sessions.web.llm_page import Keyring
from sessions.web.play import MAX_BUTTONS, PlaySession, Screen
from sessions.web.tabs import watch as watch_tab
from sessions.web.tabs.llm import (
    build_llm_picker,
    forget_key,
    llm_picked,
    take_key,
    watch_llm,
)
from sessions.web.tabs.rating import build_your_rating
from sessions.web.tabs.site import OPEN, THEME_CSS, TURNS, store
from sessions.web.tabs.table import (
    arrange_table,
    build_table_info,
    build_table_setup,
    build_table_view,
    choose_table,
    show_table,
)
from sessions.web.tabs.talk import CSS as TALK_CSS
from sessions.web.tabs.talk import (
    arrange_talk,
    build_talk_setup,
    build_talk_view,
    choose_talk,
    show_talk,
)

BUTTONS = MAX_BUTTONS
NARROW = 700
"""Screens narrower than this many CSS pixels get the boards' narrow layouts (a phone)."""
CSS = play_html.CSS + TALK_CSS + THEME_CSS  # the theme last: its dark mode wins
HEAD = play_html.HEAD
PRIVATE: dict[str, Any] = {"api_visibility": "private", "show_progress": "hidden"}
INPUT: dict[str, Any] = {**PRIVATE, "trigger_mode": "multiple"}
"""Inputs: every click reaches the server (Gradio's default for buttons drops a click made
while the button's last event runs), where it is played or answered."""
SYNC: dict[str, Any] = {**PRIVATE, "trigger_mode": "always_last"}
"""The catch-up after inputs (:func:`sync`): one runs after the last input of a burst."""
WIDTH_JS = "() => window.innerWidth"
NAV = (("first", "« Start"), ("back", "‹ Back"), ("forward", "Next ›"), ("last", "Now »"))
"""The move list's buttons: through the positions seen so far, on the same board."""
SEEN = -2
"""Where the page's move number is in the Play tab's outputs (the screen's number is last)."""
FRAME = 6
"""A new game's outputs: the session, the setup, the bar, the game area, the "Back to the
game" button, the spectator link; then the screen's outputs (the bar's text first: a blind
battle's opponent is named there once the game ends)."""


def show(session: PlaySession | None, screen: Screen | None = None) -> list[Any]:
    """Updates for the Play tab's outputs, in the order build_play lists them."""
    if session is None:
        hidden = gr.update(visible=False)
        return [gr.skip(), None,
                play_html.status("Pick a game and an opponent, then press Start."),
                "", "", "", "", "", *[hidden] * (BUTTONS + 2), *[hidden] * 7, gr.skip(), hidden,
                *show_table(None), *show_talk(None), None, None]
    s = screen or session.screen()
    buttons = [gr.update(value=s.buttons[i], visible=True) if i < len(s.buttons)
               else gr.update(visible=False) for i in range(BUTTONS)]
    return [
        bar_text(session),  # (a blind battle's model is named once the game ends)
        gr.update(value=s.image) if s.image is not None else gr.skip(),
        play_html.status(s.status, thinking=s.thinking, over=s.over),
        play_html.notice(s.notice),
        play_html.move_list(s.rows, viewing=s.viewing, frames=s.frames),
        play_html.players(s.players),
        "\n".join(s.moves), s.text, *buttons,
        gr.update(choices=s.menu, value=None, visible=bool(s.menu)),
        gr.update(visible=bool(s.menu)),
        gr.update(visible=not s.over), gr.update(visible=s.over), gr.update(visible=s.over),
        gr.update(value=s.reasoning, visible=(bool(s.reasoning) or s.thinking)
                  and llm_page.panel_of(session) is None),  # LLM seats: the thinking panel
        gr.update(visible=not s.over), gr.update(visible=s.thinking),
        gr.update(visible=s.frames > 1),
        # a language model starts thinking: this hidden field changes and starts the panel
        f"{session.id}:{len(session.record.moves)}"
        if s.thinking and llm_page.panel_of(session) is not None else gr.skip(),
        llm_panel(session, s), *show_table(s.table), *show_talk(s.talk),
        session.move_number,  # the page sends back the move number it showed (stale clicks)
        session.screens_sent,  # and the number of the screen it drew (sync)
    ]


def sync(session: PlaySession | None, shown: float | None,
         request: gr.Request) -> Iterator[list[Any]]:
    """After each input's event: the current screen again if the page drew an earlier
    event's screen over a later one (sessions.web.turns.catch_up), else nothing."""
    if session is None:
        yield [gr.skip()] * len(show(None))
        return
    lock = TURNS.lock(request.session_hash or "")
    for screen in turns.catch_up(session, lock, _seen(shown)):
        yield [gr.skip()] * len(show(None)) if screen is None else show(session, screen)


def on_input(listener: Any, fn: Callable[..., Any], inputs: list[Any], outputs: list[Any],
             session: gr.State, screens: list[Any]) -> None:
    """Wire an input's event, then :func:`sync` (``screens``: the Play tab's outputs, the
    last of which holds the number of the screen the page drew)."""
    listener(fn, inputs, outputs, **INPUT).then(sync, [session, screens[-1]], screens, **SYNC)


def llm_panel(session: PlaySession, screen: Screen) -> Any:
    """The thinking panel: hidden without language-model seats; while one thinks it is
    streamed by ``watch_llm``; otherwise drawn as it stands (the answer, what the end of the
    game reveals)."""
    panel = llm_page.panel_of(session)
    if panel is None:
        return gr.update(visible=False)
    if screen.thinking:
        return gr.skip()
    return gr.update(value=llm_panel_html.render(panel.view(session)), visible=True)


def chrome(session: PlaySession, request: gr.Request) -> list[Any]:
    """The setup folded away, the game's one-line bar and the game area shown, with the
    game's spectator link."""
    return [gr.update(visible=False), gr.update(visible=True),
            gr.update(visible=True), gr.update(visible=False),
            spectator_link(session, request)]


def bar_text(session: PlaySession) -> str:
    spec, seat = session.spec, session.human
    if len(session.record.seats) == 2:
        side = side_name(spec.id, seat)
        order = session.order_words()  # who really acts first (a draw may decide it)
        if side and order:
            placed = f"you play {side}, {order}"
        elif side or order:
            placed = f"you play {side or order}"
        else:  # moves at once and no side to name: the seat
            placed = f"you are {seat_label(spec.id, seat)}"
    else:
        placed = f"you are {seat_label(spec.id, seat)}"
    return play_html.bar(spec.title, session.opponents_name(), placed)


def replies(session: PlaySession | None, act: Callable[[PlaySession], Any],
            request: gr.Request) -> Iterator[list[Any]]:
    """Play one input and the agents' reply, showing each screen (sessions.web.turns)."""
    if session is None:
        yield show(None)
        return
    browser = request.session_hash or ""

    def current() -> bool:
        return OPEN.get(browser) in (None, session)

    for screen in turns.respond(session, act, TURNS.lock(browser), current=current):
        yield show(session, screen)


def new_session(game_id: str, opponent: str | list[str], seat: str, profile: dict,
                reasoning: str, keyring: Keyring, request: gr.Request,
                params: dict | None = None, width: float | None = None) -> PlaySession:
    """A new game for this tab (the one it replaces is recorded as abandoned)."""
    seating = llm_page.Seating(keyring)  # LLM seats get the tab's key and the thinking panel
    try:
        person = players.profile_person(profile)  # refuses an id or name against the rules
        if opponent == blind.MYSTERY:  # a model drawn at random, named after the game
            session: PlaySession = blind.start_blind(
                game_id, keyring=keyring, store=store(), rng=np.random.default_rng(),
                person=person, seat=seat, params=params)
        else:
            session = PlaySession(game_id, llm_page.with_reasoning(opponent, reasoning),
                                  person=person, seat=seat, store=store(),
                                  build_agent=seating.build, params=params)
            seating.attach(session)
    except (ValueError, KeyError) as err:
        raise gr.Error(str(err.args[0] if isinstance(err, KeyError) else err),
                       print_exception=False) from None
    session.narrow = bool(width) and float(width or 0) < NARROW
    OPEN.attach(request.session_hash or "", session)
    LIVE.add(session)  # spectators find it by its link (sessions/web/live.py)
    return session


def start(game_id: str, opponent: str | list[str], seat: str, profile: dict, reasoning: str,
          keyring: Keyring, width: float | None, request: gr.Request,
          params: dict | None = None) -> Iterator[list[Any]]:
    session = new_session(game_id, opponent, seat, profile, reasoning, keyring, request,
                          params, width)
    for shown in replies(session, lambda s: None, request):
        yield [session, *chrome(session, request), *shown]


def spectator_link(session: PlaySession | None, request: gr.Request) -> str:
    """The game's read-only link for spectators (they see only public information)."""
    if session is None:
        return ""
    return (f"{watch_tab.link_line(request, session.id)}  \n*Spectators see the board and "
            "the moves everyone at the table sees, never your cards, until the game ends.*")


def play_again(profile: dict, session: PlaySession | None, keyring: Keyring,
               width: float | None, request: gr.Request) -> Iterator[list[Any]]:
    yield from again(profile, session, False, keyring, width, request)


def swap_seats(profile: dict, session: PlaySession | None, keyring: Keyring,
               width: float | None, request: gr.Request) -> Iterator[list[Any]]:
    yield from again(profile, session, True, keyring, width, request)


def again(profile: dict, session: PlaySession | None, swap: bool, keyring: Keyring,
          width: float | None, request: gr.Request) -> Iterator[list[Any]]:
    if session is None:
        raise gr.Error("No game yet: press Start.")
    count = len(session.record.seats)
    seat = (session.human + 1) % count if swap else session.human
    opponents = [s.spec for i, s in enumerate(session.record.seats) if i != session.human]
    if isinstance(session, blind.BlindSession):
        opponents = [blind.MYSTERY]  # another mystery, drawn afresh
    choice = players.SEAT_CHOICES[seat] if seat < 2 else str(seat)
    shown = gr.update(value=choice if choice in players.SEAT_CHOICES else "random")
    for update in start(session.spec.id, opponents[0] if count == 2 else opponents, choice,
                        profile, "", keyring, width, request, session.params):
        yield [update[0], shown, *update[1:]]


def _seen(number: float | None) -> int | None:
    """The move number the page showed when the person acted (None: none shown yet)."""
    return None if number is None else int(number)


def on_click(session: PlaySession | None, seen: float | None, evt: gr.SelectData,
             request: gr.Request) -> Iterator[list[Any]]:
    at = evt.index or (-1, -1)  # None: the browser saw a click off the image
    yield from replies(session, lambda s: s.click(*at, expected=_seen(seen)), request)


def press(session: PlaySession | None, label: str | None, seen: float | None,
          request: gr.Request) -> Iterator[list[Any]]:
    yield from replies(session, lambda s: s.play_label(label or "", expected=_seen(seen)),
                       request)


def typed(session: PlaySession | None, text: str, seen: float | None,
          request: gr.Request) -> Iterator[list[Any]]:
    played: list[bool] = []

    def act(s: PlaySession) -> None:
        before = s.inputs_played
        s.play_text(text, expected=_seen(seen))
        played.append(s.inputs_played > before)

    for shown in replies(session, act, request):
        yield ["" if played and played[0] else gr.skip(), *shown]


def ask_resign() -> list[Any]:
    """Resign asks first: the button gives way to "Resign this game? Yes / Keep playing"."""
    return [gr.update(visible=False), gr.update(visible=True)]


def keep_playing() -> list[Any]:
    return [gr.update(visible=True), gr.update(visible=False)]


def on_resign(session: PlaySession | None, request: gr.Request) -> Iterator[list[Any]]:
    """ "Yes, resign": the game ends as a loss; the question goes away."""
    for shown in replies(session, lambda s: s.resign(), request):
        yield [gr.update(visible=False), *shown]


def clear_typed() -> list[str]:
    """A new game starts with empty text boxes (typed words never carry over)."""
    return ["", ""]


def stop_waiting(session: PlaySession | None, request: gr.Request) -> Iterator[list[Any]]:
    """End a game whose opponent takes too long (a language model's call is cancelled);
    recorded as abandoned, not as a loss."""
    yield from replies(
        session, lambda s: s.abandon("the person stopped waiting for the opponent"), request)


def look(where: str) -> Callable[..., Iterator[list[Any]]]:
    def handler(session: PlaySession | None, request: gr.Request) -> Iterator[list[Any]]:
        yield from replies(session, lambda s: s.look(where), request)
    return handler


def decide(session: PlaySession | None, number: float | None, seen: float | None,
           request: gr.Request) -> Iterator[list[Any]]:
    yield from replies(session, lambda s: s.play_number(number, expected=_seen(seen)),
                       request)


def propose(session: PlaySession | None, seen: float | None, request: gr.Request,
            *shares: float | None) -> Iterator[list[Any]]:
    # the form has a field for every pirate a table may hold
    yield from replies(session, lambda s: s.play_plan(
        shares[: len(gama_screen.plan_fields(s))], expected=_seen(seen)), request)


def start_table(game_id: str, seat: str, count: float | None, rounds: float | None,
                profile: dict, keyring: Keyring, width: float | None, request: gr.Request,
                *agents: str) -> Iterator[list[Any]]:
    try:
        params = gama_screen.table_params(game_id, count, rounds)
    except ValueError as err:
        raise gr.Error(str(err), print_exception=False) from None
    seats = params.get("num_players", len(agents) + 1)
    yield from start(game_id, list(agents[: seats - 1]), seat, profile, "", keyring, width,
                     request, params)


def choose_game(game_id: str) -> tuple[Any, ...]:
    """The setup for the game picked (about, rules, opponents) and the typed-move box's hint
    and limit (the adapter's: longer text is cut on the page), as :func:`build_play`'s
    ``chosen`` lists them."""
    spec = get(game_id)
    options = blind.with_mystery(spec, players.opponents_for(spec))
    return (play_html.about(spec), play_html.rules(spec),
            gr.update(choices=[(o.label, o.spec) for o in options],
                      value=options[0].spec if options else None),
            play_html.hint(spec.grammar.hint), gr.update(max_length=typed_limit(spec)))


def describe_opponent(game_id: str, spec: str | None) -> str:
    game = get(game_id)
    notes = {o.spec: o.note for o in blind.with_mystery(game, players.opponents_for(game))}
    return play_html.note(notes.get(spec or "", ""))


def reopen_setup() -> list[Any]:
    """"New game": the setup comes back above the game, which stays until Start."""
    return [gr.update(visible=True), gr.update(visible=False), gr.update(visible=True)]


def back_to_game() -> list[Any]:
    return [gr.update(visible=False), gr.update(visible=True), gr.update(visible=False)]


def build_setup() -> dict[str, Any]:
    """Game, rules, opponent (with the language-model picker), seat, Start; and GAMA-Bench's
    table setup in its place for those games."""
    first = players.game_menu()[0][1]
    with gr.Column(elem_id="setup") as setup, gr.Row(equal_height=False):
        with gr.Column(scale=1, min_width=300):
            game = gr.Dropdown(players.game_menu(), value=first, label="Game",
                               elem_id="game")
            about = gr.HTML(elem_id="about")
            with gr.Accordion("Rules", open=False):
                rules = gr.HTML(elem_id="rules")
        with gr.Column(scale=1, min_width=300):
            opponent = gr.Dropdown([], label="Opponent and difficulty", elem_id="opponent",
                                   info="Beginner, Intermediate or Strong first, then "
                                        "other programs and language models")
            opponent_note = gr.HTML(elem_id="opponent-note")
            reasoning, key, key_note, forget = build_llm_picker()
            seat = gr.Radio(list(players.SEAT_CHOICES), value="first", label="Your seat",
                            elem_id="seat")
            with gr.Row():
                start_button = gr.Button("Start", variant="primary", elem_id="start")
                back = gr.Button("Back to the game", visible=False, elem_id="back-to-game")
            table_setup = build_table_setup()
            talk_setup = build_talk_setup()
    return {"setup": setup, "game": game, "about": about, "rules": rules,
            "talk_setup": talk_setup,
            "opponent": opponent, "opponent_note": opponent_note, "reasoning": reasoning,
            "key": key, "key_note": key_note, "forget": forget, "seat": seat,
            "start": start_button, "back": back, "table_setup": table_setup}


def build_area() -> dict[str, Any]:
    """The game: the board with the move controls under it; beside it (under it on a phone)
    the players and clocks, status, move list with ◀ ▶, and the game's buttons."""
    with gr.Row(elem_id="game-area", visible=False, equal_height=False) as area:
        with gr.Column(scale=3, min_width=320, elem_id="board-column"):
            board = gr.Image(interactive=False, type="pil", format="png", show_label=False,
                             elem_id="board", buttons=[], placeholder="No game yet",
                             container=False)
            notice = gr.HTML(elem_id="notice")
            with gr.Row(elem_id="moves-buttons"):
                buttons = [gr.Button(visible=False, min_width=80) for _ in range(BUTTONS)]
            with gr.Row():
                menu = gr.Dropdown([], label="Your move", visible=False, filterable=True,
                                   elem_id="menu", scale=3)
                menu_play = gr.Button("Play", visible=False, scale=1)
            table_view = build_table_view()
            talk_view = build_talk_view()
        with gr.Column(scale=2, min_width=300, elem_id="side-column"):
            seats = gr.HTML(elem_id="players")
            status = gr.HTML(elem_id="status")
            move_list = gr.HTML(elem_id="move-list")
            with gr.Row(elem_id="nav", visible=False) as nav:
                steps = {where: gr.Button(label, size="sm", min_width=40, elem_id=f"nav-{where}")
                         for where, label in NAV}
            with gr.Row():
                resign_button = gr.Button("Resign", variant="stop", visible=False, size="sm",
                                          min_width=100, elem_id="resign")
                stop_button = gr.Button("Stop waiting: end the game (not counted)",
                                        visible=False, size="sm", elem_id="stop-waiting")
                again_button = gr.Button("Play again", variant="primary", visible=False,
                                         elem_id="again", size="sm")
                swap_button = gr.Button("Swap seats and play again", visible=False,
                                        elem_id="swap", size="sm")
            with gr.Row(visible=False, elem_id="resign-confirm") as confirm:
                gr.HTML("<div class='arena-confirm'>Resign this game? It counts as a loss.</div>")
                confirm_yes = gr.Button("Yes, resign", variant="stop", size="sm",
                                        elem_id="resign-yes", min_width=100)
                confirm_no = gr.Button("Keep playing", size="sm", elem_id="resign-no",
                                       min_width=100)
            build_table_info(table_view)
            link = gr.Markdown(elem_id="spectator-link")  # our own words and a link
            said = gr.Textbox(label="Opponent's reasoning", visible=False, lines=4,
                              max_lines=12, interactive=False)
            thinking = gr.HTML(visible=False, elem_id="llm-panel", label="What the model is "
                               "thinking", show_label=True, container=True, padding=True,
                               css_template=llm_panel_html.CSS)
            with gr.Accordion("Type a move", open=False, visible=False) as typing:
                hint = gr.HTML(elem_id="typed-hint")
                with gr.Row(equal_height=True):
                    text = gr.Textbox(show_label=False, elem_id="typed", scale=3,
                                      min_width=160, container=False, max_length=MAX_TYPED_CHARS,
                                      placeholder="your move, as text")
                    text_play = gr.Button("Play", size="sm", scale=1, min_width=80)
            with gr.Accordion("Board as text", open=False):
                view = gr.Textbox(show_label=False, lines=8, interactive=False,
                                  elem_id="board-text")
            with gr.Group(elem_id="page-data"):  # kept in the page, not shown
                # the move list as plain lines (for tools and tests); the LLM panel's trigger
                moves = gr.Textbox(interactive=False, elem_id="moves", show_label=False)
                llm_turn = gr.Textbox(interactive=False, elem_id="llm-turn", show_label=False)
                seen = gr.Number(None, precision=0, elem_id="move-number", show_label=False)
                shown = gr.Number(None, precision=0, elem_id="screen-number",
                                  show_label=False)
    return {"area": area, "board": board, "talk_view": talk_view, "notice": notice,
            "buttons": buttons, "menu": menu,
            "menu_play": menu_play, "table_view": table_view, "players": seats,
            "status": status, "move_list": move_list, "nav": nav, "steps": steps,
            "resign": resign_button, "confirm": confirm, "resign_yes": confirm_yes,
            "resign_no": confirm_no, "stop": stop_button, "again": again_button,
            "swap": swap_button, "said": said, "thinking": thinking, "typing": typing,
            "text": text, "text_play": text_play, "hint": hint, "view": view,
            "moves": moves, "llm_turn": llm_turn, "seen": seen, "shown": shown, "link": link}


def build_play(profile: gr.BrowserState, session: gr.State,
               keyring: gr.State) -> tuple[Any, ...]:
    """The Play tab; returns the components the page's load event fills in."""
    width = gr.Number(visible=False, elem_id="screen-width")
    s = build_setup()
    with gr.Row(elem_id="game-bar", visible=False, equal_height=False) as bar:
        title = gr.HTML(elem_id="bar-text")
        new_game = gr.Button("New game", elem_id="new-game", size="sm", scale=0,
                             min_width=110, variant="secondary")
    a = build_area()
    build_your_rating(profile)  # a closed fold under the game (sessions.web.tabs.rating)
    outputs = [title, a["board"], a["status"], a["notice"], a["move_list"], a["players"], a["moves"],
               a["view"], *a["buttons"], a["menu"], a["menu_play"], a["resign"], a["again"],
               a["swap"], a["said"], a["typing"], a["stop"], a["nav"], a["llm_turn"],
               a["thinking"], *a["table_view"]["outputs"], *a["talk_view"]["outputs"],
               a["seen"], a["shown"]]
    framed = [session, s["setup"], bar, a["area"], s["back"], a["link"], *outputs]
    chosen = [s["about"], s["rules"], s["opponent"], a["hint"], a["text"]]
    s["game"].change(choose_game, s["game"], chosen, **PRIVATE)
    wire_setup(s, profile, keyring)

    keyed = s["start"].click(take_key, [s["opponent"], s["key"], keyring],
                             [s["key"], s["key_note"], s["forget"]], **PRIVATE)
    keyed.success(start, [s["game"], s["opponent"], s["seat"], profile, s["reasoning"],
                          keyring, width], framed, **PRIVATE)
    a["llm_turn"].change(watch_llm, None, a["thinking"], **PRIVATE)  # LLM seats stream
    seen = a["seen"]

    def wire(listener: Any, fn: Callable[..., Any], inputs: list[Any],
             targets: list[Any] = outputs) -> None:
        on_input(listener, fn, inputs, targets, session, outputs)

    wire(a["board"].select, on_click, [session, seen])
    wire(a["menu_play"].click, press, [session, a["menu"], seen])
    wire(a["text"].submit, typed, [session, a["text"], seen], [a["text"], *outputs])
    wire(a["text_play"].click, typed, [session, a["text"], seen], [a["text"], *outputs])
    asking = [a["resign"], a["confirm"]]  # Resign asks first; a loss is never one click
    a["resign"].click(ask_resign, None, asking, **PRIVATE)
    a["resign_no"].click(keep_playing, None, asking, **PRIVATE)
    wire(a["resign_yes"].click, on_resign, [session], [a["confirm"], *outputs])
    wire(a["stop"].click, stop_waiting, [session])
    for b in a["buttons"]:
        wire(b.click, press, [session, b, seen])
    for where, button in a["steps"].items():
        wire(button.click, look(where), [session])
    for button, handler in ((a["again"], play_again), (a["swap"], swap_seats)):
        wire(button.click, handler, [profile, session, keyring, width],
             [framed[0], s["seat"], *framed[1:]])
    new_game.click(reopen_setup, None, [s["setup"], bar, s["back"]], **PRIVATE)
    s["back"].click(back_to_game, None, [s["setup"], bar, s["back"]], **PRIVATE)
    wire_table(s, a["table_view"], [s["opponent"], s["opponent_note"], s["seat"], s["start"]],
               profile, keyring, session, width, framed)
    wire_talk(s, a["talk_view"], profile, keyring, session, width, framed)
    gr.on([s["start"].click, s["table_setup"]["start"].click, s["talk_setup"]["start"].click,
           a["again"].click, a["swap"].click], clear_typed, None,
          [a["text"], a["talk_view"]["words"]], **PRIVATE)
    return s["game"], chosen, width


def wire_setup(s: dict[str, Any], profile: gr.BrowserState, keyring: gr.State) -> None:
    """The setup's own events: the game's description and opponents, the LLM picker."""
    key_outputs = [s["key"], s["key_note"], s["forget"]]
    s["opponent"].change(describe_opponent, [s["game"], s["opponent"]], s["opponent_note"],
                         **PRIVATE)
    s["opponent"].change(llm_picked, [s["opponent"], keyring], [s["reasoning"], *key_outputs],
                         **PRIVATE)
    s["forget"].click(forget_key, [s["opponent"], keyring], key_outputs, **PRIVATE)


def wire_table(s: dict[str, Any], view: dict[str, Any], duel: list[Any],
               profile: gr.BrowserState, keyring: gr.State, session: gr.State,
               width: gr.Number, framed: list[Any]) -> None:
    """The events of the GAMA table's setup and panel."""
    setup, game = s["table_setup"], s["game"]
    outputs = framed[FRAME:]
    pickers = [setup["seat"], *setup["agents"]]
    game.change(choose_table, game, [*duel, setup["box"], setup["count"], setup["rounds"],
                                     *pickers], **PRIVATE)
    for changed in (setup["count"], setup["seat"]):
        changed.input(arrange_table, [game, setup["count"], setup["seat"], *setup["agents"]],
                      pickers, **PRIVATE)
    inputs = [game, setup["seat"], setup["count"], setup["rounds"], profile, keyring, width,
              *setup["agents"]]
    setup["start"].click(start_table, inputs, framed, **PRIVATE)
    seen = outputs[SEEN]  # the move number the page showed: inputs made on it carry it
    for listener in (view["decide"].click, view["number"].submit):
        on_input(listener, decide, [session, view["number"], seen], outputs, session, outputs)
    on_input(view["propose"].click, propose, [session, seen, *view["shares"]], outputs,
             session, outputs)


def start_talk(game_id: str, seat: str, count: float | None, profile: dict, keyring: Keyring,
               width: float | None, request: gr.Request,
               *agents: str) -> Iterator[list[Any]]:
    spec = get(game_id)
    params = {"num_players": int(count)} if count and "num_players" in spec.default_params \
        else None
    seats = params["num_players"] if params else spec.load().num_players()
    yield from start(game_id, list(agents[: seats - 1]), seat, profile, "", keyring, width,
                     request, params)


def say(session: PlaySession | None, text: str, seen: float | None,
        request: gr.Request) -> Iterator[list[Any]]:
    """The talk panel's text box: words through the adapter, like a typed move."""
    yield from typed(session, text, seen, request)


def wire_talk(s: dict[str, Any], view: dict[str, Any], profile: gr.BrowserState,
              keyring: gr.State, session: gr.State, width: gr.Number,
              framed: list[Any]) -> None:
    """The events of the talking games' setup and panel."""
    setup, game = s["talk_setup"], s["game"]
    outputs = framed[FRAME:]
    seen = outputs[SEEN]
    pickers = [setup["seat"], *setup["agents"]]
    game.change(choose_talk, game, [setup["box"], setup["count"], *pickers], **PRIVATE)
    for changed in (setup["count"], setup["seat"]):
        changed.input(arrange_talk, [game, setup["count"], setup["seat"], *setup["agents"]],
                      pickers, **PRIVATE)
    inputs = [game, setup["seat"], setup["count"], profile, keyring, width, *setup["agents"]]
    words = view["words"]
    setup["start"].click(start_talk, inputs, framed, **PRIVATE)
    for listener in (view["say"].click, words.submit):
        on_input(listener, say, [session, words, seen], [words, *outputs], session, outputs)
