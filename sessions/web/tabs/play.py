"""The Play tab: pick a game and an opponent, play on the drawn board (clicks, buttons, a typed
move), watch the agents reply. Handlers are a few lines each; the work is in
``sessions.web.play.PlaySession``. GAMA-Bench's tables add their setup and panel
(:mod:`sessions.web.tabs.table`); language models their picker and thinking panel
(:mod:`sessions.web.tabs.llm`)."""

from __future__ import annotations

from typing import Any

import gradio as gr
import numpy as np

from games.registry import get
from sessions.web import blind, gama_screen, llm_page, llm_panel_html, players
from sessions.web.live import LIVE
from sessions.web.llm_page import Keyring
from sessions.web.play import MAX_BUTTONS, PlaySession
from sessions.web.tabs import watch as watch_tab
from sessions.web.tabs.llm import (
    build_llm_picker,
    forget_key,
    llm_picked,
    take_key,
    watch_llm,
)
from sessions.web.tabs.site import OPEN, store
from sessions.web.tabs.table import (
    arrange_table,
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
    plain,
    show_talk,
)

BUTTONS = MAX_BUTTONS


CSS = "#board img { cursor: pointer; }" + TALK_CSS


def show(session: PlaySession | None, *, image: bool = True) -> list[Any]:
    """Updates for the Play tab's outputs, in the order build_play lists them."""
    if session is None:
        return [None, "Pick a game and an opponent, then press **Start**.", "", "", ""] + [
            gr.update(visible=False)] * (BUTTONS + 5) + [gr.update(visible=False)] * 3 + \
            show_table(None) + show_talk(None) + [None]
    s = session.screen(image=image)
    buttons = [gr.update(value=s.buttons[i], visible=True) if i < len(s.buttons)
               else gr.update(visible=False) for i in range(BUTTONS)]
    return [
        gr.update(value=s.image) if image else gr.skip(), f"### {s.status}", plain(s.notice),
        "\n".join(s.moves), s.text, *buttons,
        gr.update(choices=s.menu, value=None, visible=bool(s.menu)),
        gr.update(visible=bool(s.menu)),
        gr.update(visible=not s.over), gr.update(visible=s.over), gr.update(visible=s.over),
        gr.update(value=s.reasoning, visible=(bool(s.reasoning) or s.thinking)
                  and llm_page.panel_of(session) is None),  # LLM seats: the thinking panel
        gr.update(visible=not s.over), gr.update(visible=s.thinking), *show_table(s.table),
        *show_talk(s.talk),
        session.move_number,  # the page sends back the move number it showed (stale clicks)
    ]


def start(game_id: str, opponent: str | list[str], seat: str, profile: dict, reasoning: str,
          keyring: Keyring, request: gr.Request, params: dict | None = None) -> tuple[Any, ...]:
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
        raise gr.Error(str(err.args[0] if isinstance(err, KeyError) else err)) from None
    OPEN.attach(request.session_hash or "", session)
    LIVE.add(session)  # spectators find it by its link (sessions/web/live.py)
    return session, *show(session)


def spectator_link(session: PlaySession | None, request: gr.Request) -> str:
    """The game's read-only link for spectators (they see only public information)."""
    if session is None:
        return ""
    return (f"{watch_tab.link_line(request, session.id)}  \n*Spectators see the board and "
            "the moves everyone at the table sees, never your cards, until the game ends.*")


def play_again(profile: dict, session: PlaySession | None, keyring: Keyring,
               request: gr.Request) -> tuple[Any, ...]:
    return again(profile, session, False, keyring, request)


def swap_seats(profile: dict, session: PlaySession | None, keyring: Keyring,
               request: gr.Request) -> tuple[Any, ...]:
    return again(profile, session, True, keyring, request)


def again(profile: dict, session: PlaySession | None, swap: bool, keyring: Keyring,
          request: gr.Request) -> tuple[Any, ...]:
    if session is None:
        raise gr.Error("No game yet: press Start.")
    count = len(session.record.seats)
    seat = (session.human + 1) % count if swap else session.human
    opponents = [s.spec for i, s in enumerate(session.record.seats) if i != session.human]
    if isinstance(session, blind.BlindSession):
        opponents = [blind.MYSTERY]  # another mystery, drawn afresh
    choice = players.SEAT_CHOICES[seat] if seat < 2 else str(seat)
    fresh, *updates = start(session.spec.id, opponents[0] if count == 2 else opponents,
                            choice, profile, "", keyring, request, session.params)
    return fresh, gr.update(value=choice if choice in players.SEAT_CHOICES else "random"), *updates


def advance(session: PlaySession | None):  # noqa: ANN201 - a generator of page updates
    """Let the agents move, showing "thinking…" while they take their time."""
    before = session and (len(session.record.moves), session.record.outcome)
    for _ in session.advance(poll=0.5) if session else ():
        yield show(session, image=False)
    if session and (len(session.record.moves), session.record.outcome) != before:
        yield show(session)
    else:  # nothing moved: leave the page as it is (a generator must yield something)
        yield [gr.skip()] * len(show(None))


def _seen(number: float | None) -> int | None:
    return None if number is None else int(number)


def on_click(session: PlaySession | None, seen: float | None,
             evt: gr.SelectData) -> list[Any]:
    if session is not None:  # evt.index None: the browser saw a click off the image
        session.click(*(evt.index or (-1, -1)), expected=_seen(seen))
    return show(session)


def press(session: PlaySession | None, label: str | None, seen: float | None) -> list[Any]:
    if session is not None:
        session.play_label(label or "", expected=_seen(seen))
    return show(session)


def typed(session: PlaySession | None, text: str, seen: float | None) -> tuple[Any, ...]:
    if session is None:
        return text, *show(session)
    moves = len(session.record.moves)
    session.play_text(text, expected=_seen(seen))
    # played: empty the box; refused: leave it alone (writing the old text back would wipe
    # what the person typed meanwhile)
    return ("" if len(session.record.moves) > moves else gr.skip()), *show(session)


def on_resign(session: PlaySession | None) -> list[Any]:
    if session is not None:
        session.resign()
    return show(session)


def stop_waiting(session: PlaySession | None) -> list[Any]:
    """End a game whose opponent takes too long (a language model's call is cancelled);
    recorded as abandoned, not as a loss."""
    if session is not None:
        session.abandon("the person stopped waiting for the opponent")
    return show(session)


def decide(session: PlaySession | None, number: float | None,
           seen: float | None) -> list[Any]:
    if session is not None:
        session.play_number(number, expected=_seen(seen))
    return show(session)


def propose(session: PlaySession | None, seen: float | None,
            *shares: float | None) -> list[Any]:
    if session is not None:  # the form has a field for every pirate a table may hold
        session.play_plan(shares[: len(gama_screen.plan_fields(session))],
                          expected=_seen(seen))
    return show(session)


def start_table(game_id: str, seat: str, count: float | None, rounds: float | None,
                profile: dict, keyring: Keyring, request: gr.Request,
                *agents: str) -> tuple[Any, ...]:
    try:
        params = gama_screen.table_params(game_id, count, rounds)
    except ValueError as err:
        raise gr.Error(str(err)) from None
    seats = params.get("num_players", len(agents) + 1)
    return start(game_id, list(agents[: seats - 1]), seat, profile, "", keyring, request,
                 params)


def choose_game(game_id: str) -> tuple[Any, ...]:
    spec = get(game_id)
    options = blind.with_mystery(spec, players.opponents_for(spec))
    about = f"**{spec.title}**: {spec.summary}  \n*{spec.taxonomy.describe()}*"
    return (about, spec.rules,
            gr.update(choices=[(o.label, o.spec) for o in options],
                      value=options[0].spec if options else None),
            gr.update(placeholder=spec.grammar.hint))


def describe_opponent(game_id: str, spec: str | None) -> str:
    game = get(game_id)
    notes = {o.spec: o.note for o in blind.with_mystery(game, players.opponents_for(game))}
    return f"*{notes[spec]}*" if spec in notes else ""


def build_play(profile: gr.BrowserState, session: gr.State,
               keyring: gr.State) -> tuple[Any, ...]:
    """The Play tab; returns the components the page's load event fills in."""
    first = players.game_menu()[0][1]
    with gr.Row():
        with gr.Column(scale=1, min_width=280):
            game = gr.Dropdown(players.game_menu(), value=first, label="Game", elem_id="game")
            about = gr.Markdown()
            with gr.Accordion("Rules", open=False):
                rules = gr.Markdown()
            opponent = gr.Dropdown([], label="Opponent", elem_id="opponent")
            opponent_note = gr.Markdown()
            reasoning, key, key_note, forget = build_llm_picker()
            seat = gr.Radio(list(players.SEAT_CHOICES), value="first", label="Your seat",
                            elem_id="seat")
            start_button = gr.Button("Start", variant="primary", elem_id="start")
            table_setup = build_table_setup()
            talk_setup = build_talk_setup()
        with gr.Column(scale=2, min_width=360):
            status = gr.Markdown(elem_id="status")
            board = gr.Image(interactive=False, type="pil", format="png", show_label=False,
                             elem_id="board", buttons=[], placeholder="No game yet")
            notice = gr.Markdown(elem_id="notice")
            with gr.Row(elem_id="moves-buttons"):
                buttons = [gr.Button(visible=False, min_width=80)
                           for _ in range(BUTTONS)]
            with gr.Row():
                menu = gr.Dropdown([], label="Your move", visible=False, filterable=True,
                                   elem_id="menu", scale=3)
                menu_play = gr.Button("Play", visible=False, scale=1)
            table_view = build_table_view()
            talk_view = build_talk_view()
            with gr.Row(visible=False) as typing:
                text = gr.Textbox(label="Type a move", elem_id="typed", scale=3)
                text_play = gr.Button("Play typed move", scale=1)
            with gr.Row():
                resign_button = gr.Button("Resign", variant="stop", visible=False, size="sm",
                                          scale=0, min_width=120)
                stop_button = gr.Button("Stop waiting: end the game (not counted)",
                                        visible=False, size="sm", elem_id="stop-waiting")
                again_button = gr.Button("Play again", variant="primary", visible=False,
                                         elem_id="again")
                swap_button = gr.Button("Swap seats and play again", visible=False,
                                        elem_id="swap")
            said = gr.Textbox(label="Opponent's reasoning", visible=False, lines=4,
                              max_lines=12, interactive=False)
            thinking = gr.HTML(visible=False, elem_id="llm-panel", label="What the model is "
                               "thinking", show_label=True, container=True, padding=True,
                               css_template=llm_panel_html.CSS)
            moves = gr.Textbox(label="Moves", lines=6, max_lines=10, interactive=False,
                               elem_id="moves")
            with gr.Accordion("Board as text", open=False):
                view = gr.Textbox(show_label=False, lines=8, interactive=False,
                                  elem_id="board-text")
            link_box = gr.Markdown(elem_id="spectator-link")
    seen = gr.Number(None, visible=False, precision=0, elem_id="move-number")
    outputs = [board, status, notice, moves, view, *buttons, menu, menu_play, resign_button,
               again_button, swap_button, said, typing, stop_button, *table_view["outputs"],
               *talk_view["outputs"], seen]
    # The page shows its own "thinking…" status: no progress overlay over the board.
    private: dict[str, Any] = {"api_visibility": "private", "show_progress": "hidden"}
    game.change(choose_game, game, [about, rules, opponent, text], **private)
    opponent.change(describe_opponent, [game, opponent], opponent_note, **private)
    key_outputs = [key, key_note, forget]
    opponent.change(llm_picked, [opponent, keyring], [reasoning, *key_outputs], **private)
    forget.click(forget_key, [opponent, keyring], key_outputs, **private)

    def then_agents(event: Any) -> None:  # agents move; LLM seats stream into the panel
        event.then(advance, session, outputs, **private)
        event.then(watch_llm, session, thinking, **private)

    def started_game(event: Any) -> None:  # a new game: agents move; its spectator link
        then_agents(event)
        event.then(spectator_link, session, link_box, **private)

    started = start_button.click(take_key, [opponent, key, keyring], key_outputs, **private
                                 ).success(start, [game, opponent, seat, profile, reasoning,
                                                   keyring], [session, *outputs], **private)
    started_game(started)
    for event in (
        board.select(on_click, [session, seen], outputs, trigger_mode="multiple", **private),
        *(b.click(press, [session, b, seen], outputs, **private) for b in buttons),
        menu_play.click(press, [session, menu, seen], outputs, **private),
        text.submit(typed, [session, text, seen], [text, *outputs], **private),
        text_play.click(typed, [session, text, seen], [text, *outputs], **private),
        resign_button.click(on_resign, session, outputs, **private),
        stop_button.click(stop_waiting, session, outputs, **private),
    ):
        then_agents(event)
    for button, handler in ((again_button, play_again), (swap_button, swap_seats)):
        started_game(button.click(handler, [profile, session, keyring],
                                  [session, seat, *outputs], **private))
    wire_table(table_setup, table_view, game, [opponent, opponent_note, seat, start_button],
               profile, keyring, session, outputs, then_agents, seen, started_game)
    wire_talk(talk_setup, talk_view, game, profile, keyring, session, outputs, then_agents,
              seen, started_game)
    return game, about, rules, opponent, text


def start_talk(game_id: str, seat: str, count: float | None, profile: dict, keyring: Keyring,
               request: gr.Request, *agents: str) -> tuple[Any, ...]:
    spec = get(game_id)
    params = {"num_players": int(count)} if count and "num_players" in spec.default_params \
        else None
    players = params["num_players"] if params else spec.load().num_players()
    return start(game_id, list(agents[: players - 1]), seat, profile, "", keyring, request,
                 params)


def say(session: PlaySession | None, text: str, seen: float | None) -> tuple[Any, ...]:
    """The talk panel's text box: words through the adapter, like a typed move."""
    return typed(session, text, seen)


def wire_talk(setup: dict[str, Any], view: dict[str, Any], game: gr.Dropdown,
              profile: gr.BrowserState, keyring: gr.State, session: gr.State,
              outputs: list[Any], then_agents: Any, seen: gr.Number,
              started_game: Any) -> None:
    """The events of the talking games' setup and panel."""
    private: dict[str, Any] = {"api_visibility": "private", "show_progress": "hidden"}
    pickers = [setup["seat"], *setup["agents"]]
    game.change(choose_talk, game, [setup["box"], setup["count"], *pickers], **private)
    for changed in (setup["count"], setup["seat"]):
        changed.input(arrange_talk, [game, setup["count"], setup["seat"], *setup["agents"]],
                      pickers, **private)
    inputs = [game, setup["seat"], setup["count"], profile, keyring, *setup["agents"]]
    words = view["words"]
    started_game(setup["start"].click(start_talk, inputs, [session, *outputs], **private))
    for event in (
        # "multiple": words sent right after a notice are never dropped by a pending event
        view["say"].click(say, [session, words, seen], [words, *outputs],
                          trigger_mode="multiple", **private),
        words.submit(say, [session, words, seen], [words, *outputs], trigger_mode="multiple",
                     **private),
    ):
        then_agents(event)


def wire_table(setup: dict[str, Any], view: dict[str, Any], game: gr.Dropdown,
               duel: list[Any], profile: gr.BrowserState, keyring: gr.State,
               session: gr.State, outputs: list[Any], then_agents: Any,
               seen: gr.Number, started_game: Any) -> None:
    """The events of the GAMA table's setup and panel."""
    private: dict[str, Any] = {"api_visibility": "private", "show_progress": "hidden"}
    pickers = [setup["seat"], *setup["agents"]]
    game.change(choose_table, game, [*duel, setup["box"], setup["count"], setup["rounds"],
                                     *pickers], **private)
    for changed in (setup["count"], setup["seat"]):
        changed.input(arrange_table, [game, setup["count"], setup["seat"], *setup["agents"]],
                      pickers, **private)
    inputs = [game, setup["seat"], setup["count"], setup["rounds"], profile, keyring,
              *setup["agents"]]
    started_game(setup["start"].click(start_table, inputs, [session, *outputs], **private))
    for event in (
        view["decide"].click(decide, [session, view["number"], seen], outputs, **private),
        view["number"].submit(decide, [session, view["number"], seen], outputs, **private),
        view["propose"].click(propose, [session, seen, *view["shares"]], outputs, **private),
    ):
        then_agents(event)
