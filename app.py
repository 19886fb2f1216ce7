"""LLM Game Arena: the Gradio app. Wiring only: the work is done in sessions/ and renderers/.

Per-user state: the game in progress is a ``gr.State`` (a sessions.play.PlaySession); the
anonymous player id, consent and display name are a ``gr.BrowserState``; API keys typed for
language models are a ``gr.State`` (sessions.llm_page.Keyring: server memory only, never
sent back to the page). Completed sessions go to the store at $ARENA_DATA_DIR/arena.sqlite3.
API (for gradio_client): /new_game, /move, /click, /plan, /resign, /state, /set_key,
/thinking, /end_game, /leaderboard, /leaderboard_csv; see the README. GAMA-Bench's games (a
person among N-1 agents) get their own setup and table panel: build_table_setup,
build_table_view.
"""

from __future__ import annotations

import functools
import os
import signal
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import wait
from typing import Any

import gradio as gr

from games.gama.common import MAX_PLAYERS
from games.registry import get
from sessions import gama_screen, llm_page, llm_panel_html, players, replays
from sessions.leaderboard import Filters, Leaderboard, LeaderboardView
from sessions.llm_page import Keyring
from sessions.play import MAX_BUTTONS, OpenSessions, PlaySession
from sessions.store import Store

BUTTONS = MAX_BUTTONS
SHARES = MAX_PLAYERS - 1  # Pirate Game's proposal form: one field per pirate below you
OPEN = OpenSessions()  # weak index: browser session id -> its game, to record closed tabs
CONSENT_TEXT = """### May we keep your games for research?
This arena compares people, language models and classic game programs. With your consent,
your finished games (the moves, how long each took, the result) are kept as human-baseline
data under a random anonymous id stored in this browser. No name, email, IP address or other
personal data is kept; a display name is optional and shown only in the game history.
Without consent you play the same way and your games are stored marked *not for research*."""
CSS = "#board img { cursor: pointer; }"
REASONING_CHOICES = [("Move only", "prompt"), ("Chain of thought", "cot"),
                     ("Self-consistency (5 samples, majority vote)", "sc-cot"),
                     ("Tree of thoughts", "tot")]


@functools.cache
def store() -> Store:
    return Store()  # $ARENA_DATA_DIR/arena.sqlite3, opened on first use, not at import


# --- handlers: a few lines each, the work is in sessions.play ------------------------------


def show(session: PlaySession | None, *, image: bool = True) -> list[Any]:
    """Updates for the Play tab's outputs, in the order build_play lists them."""
    if session is None:
        return [None, "Pick a game and an opponent, then press **Start**.", "", "", ""] + [
            gr.update(visible=False)] * (BUTTONS + 5) + [gr.update(visible=False)] * 3 + \
            show_table(None)
    s = session.screen(image=image)
    buttons = [gr.update(value=s.buttons[i], visible=True) if i < len(s.buttons)
               else gr.update(visible=False) for i in range(BUTTONS)]
    return [
        gr.update(value=s.image) if image else gr.skip(), f"### {s.status}", s.notice,
        "\n".join(s.moves), s.text, *buttons,
        gr.update(choices=s.menu, value=None, visible=bool(s.menu)),
        gr.update(visible=bool(s.menu)),
        gr.update(visible=not s.over), gr.update(visible=s.over), gr.update(visible=s.over),
        gr.update(value=s.reasoning, visible=(bool(s.reasoning) or s.thinking)
                  and llm_page.panel_of(session) is None),  # LLM seats: the thinking panel
        gr.update(visible=not s.over), gr.update(visible=s.thinking), *show_table(s.table),
    ]


def show_table(table: gama_screen.TableScreen | None) -> list[Any]:
    """Updates for the GAMA table panel, in the order build_table_view lists them."""
    if table is None:
        return [gr.update(visible=False)] + [gr.skip()] * (SHARES + 7)
    c, plan = table.control, dict(enumerate(table.plan))
    number = c.kind == "number" and not plan
    seats = " · ".join(f"**{seat}: you**" if who == "you" else f"{seat}: {who}"
                       for seat, who in table.seats)
    shares = [gr.update(visible=i in plan, **_share(plan.get(i))) for i in range(SHARES)]
    summary = table.summary or ([], [])
    return [
        gr.update(visible=True), f"**At the table:** {seats}",
        table.standing + (f"  \n**{c.label}**" if c.kind == "choice" else ""),
        gr.update(visible=number),
        gr.update(label=c.label, info=f"a whole number from {c.minimum} to {c.maximum}")
        if number else gr.skip(),
        gr.update(visible=bool(plan)), *shares,
        {"headers": table.headers, "data": table.rows},
        gr.update(value={"headers": summary[0], "data": summary[1]},
                  visible=table.summary is not None),
    ]


def _share(field: tuple[str, int | None] | None) -> dict[str, Any]:
    """A proposal-form field: its pirate, and the share already set (then not editable)."""
    if field is None:
        return {}
    pirate, fixed = field
    return {"label": pirate, "interactive": fixed is None,
            **({"value": fixed} if fixed is not None else {})}


def start(game_id: str, opponent: str | list[str], seat: str, profile: dict, reasoning: str,
          keyring: Keyring, request: gr.Request, params: dict | None = None) -> tuple[Any, ...]:
    seating = llm_page.Seating(keyring)  # LLM seats get the tab's key and the thinking panel
    try:
        session = PlaySession(game_id, llm_page.with_reasoning(opponent, reasoning),
                              person=players.profile_person(profile), seat=seat, store=store(),
                              build_agent=seating.build, params=params)
    except (ValueError, KeyError) as err:
        raise gr.Error(str(err.args[0] if isinstance(err, KeyError) else err)) from None
    seating.attach(session)
    OPEN.attach(request.session_hash or "", session)
    return session, *show(session)


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


def on_click(session: PlaySession | None, evt: gr.SelectData) -> list[Any]:
    if session is not None:
        session.click(*(evt.index or (-1, -1)))  # None: the browser saw a click off the image
    return show(session)


def press(session: PlaySession | None, label: str | None) -> list[Any]:
    if session is not None:
        session.play_label(label or "")
    return show(session)


def typed(session: PlaySession | None, text: str) -> tuple[Any, ...]:
    if session is None:
        return text, *show(session)
    moves = len(session.record.moves)
    session.play_text(text)
    return ("" if len(session.record.moves) > moves else text), *show(session)


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


# --- language-model opponents: the picker, the key, the thinking panel ---------------------


def key_updates(chosen: llm_page.Pick, problem: str = "") -> list[Any]:
    """Updates for the key field, the note beside it and the forget button."""
    asks = chosen.llm and chosen.slot is not None and chosen.status != "unavailable"
    note = f"**{problem}**" if problem and not problem.startswith("**") else problem
    return [gr.update(visible=asks, value="", label=chosen.key_label or "API key"),
            gr.update(value=note or chosen.note, visible=chosen.llm),
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


def watch_llm(session: PlaySession | None) -> Iterator[Any]:
    """Stream the language-model seats' thinking into the panel while they are to move."""
    panel = llm_page.panel_of(session)
    if panel is None or session is None:
        yield gr.update(visible=False)
        return
    for drawn in panel.frames(session, poll=0.1):
        yield gr.update(value=drawn, visible=True)


def decide(session: PlaySession | None, number: float | None) -> list[Any]:
    if session is not None:
        session.play_number(number)
    return show(session)


def propose(session: PlaySession | None, *shares: float | None) -> list[Any]:
    if session is not None:  # the form has a field for every pirate a table may hold
        session.play_plan(shares[: len(gama_screen.plan_fields(session))])
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


def choose_table(game_id: str) -> list[Any]:
    """Show the table setup for GAMA-Bench's games, the one-opponent setup for the others."""
    table = gama_screen.is_table(game_id)
    duel = [gr.update(visible=not table)] * 4  # opponent, its note, seat, start
    if not table:
        return [*duel, gr.update(visible=False)] + [gr.skip()] * (SHARES + 3)
    defaults = get(game_id).params()
    count, rounds = int(defaults["num_players"]), defaults.get("num_rounds")
    return [*duel, gr.update(visible=True), count,
            gr.update(value=rounds, visible=rounds is not None),
            *arrange_table(game_id, count, "0", *([None] * SHARES))]


def arrange_table(game_id: str, count: float | None, seat: str | None,
                  *agents: str | None) -> list[Any]:
    """Seat choices and one agent picker per other seat, named as the game names seats; a
    picker keeps its agent if it may sit at this game, else gets the default mix."""
    count = max(2, min(MAX_PLAYERS, int(count or 2)))
    if seat != "random" and not (seat and seat.isdigit() and int(seat) < count):
        seat = "0"
    setup = gama_screen.table_setup(game_id, count, None if seat == "random" else int(seat))
    allowed = {spec for _, spec in setup.agents}
    pickers = [gr.update(visible=i < count - 1, choices=setup.agents,
                         label=setup.others[i] if i < count - 1 else "agent",
                         value=agents[i] if agents[i] in allowed else
                         setup.defaults[i % len(setup.defaults)])
               for i in range(SHARES)]
    return [gr.update(choices=setup.seat_choices, value=seat), *pickers]


def choose_game(game_id: str) -> tuple[Any, ...]:
    spec = get(game_id)
    options = players.opponents_for(spec)
    about = f"**{spec.title}**: {spec.summary}  \n*{spec.taxonomy.describe()}*"
    return (about, spec.rules,
            gr.update(choices=[(o.label, o.spec) for o in options],
                      value=options[0].spec if options else None),
            gr.update(placeholder=spec.grammar.hint))


def describe_opponent(game_id: str, spec: str | None) -> str:
    notes = {o.spec: o.note for o in players.opponents_for(get(game_id))}
    return f"*{notes[spec]}*" if spec in notes else ""


# --- profile and consent --------------------------------------------------------------------


def load_profile(profile: dict | None) -> tuple[dict, Any, str]:
    person = players.profile_person(profile)
    answered = isinstance(profile, dict) and profile.get("consent") in (True, False)
    fresh = {"player_id": person.player_id, "consent": profile.get("consent") if answered
             else None, "name": person.display_name}
    return fresh, gr.update(visible=not answered), profile_text(fresh)


def set_consent(profile: dict, name: str, consent: bool) -> tuple[dict, Any, str]:
    try:
        person = players.Person(players.profile_person(profile).player_id, name, consent)
    except ValueError as err:
        raise gr.Error(str(err)) from None
    fresh = {"player_id": person.player_id, "consent": consent, "name": person.display_name}
    return fresh, gr.update(visible=False), profile_text(fresh)


def profile_text(profile: dict) -> str:
    consent = {True: "yes: your games are kept for research",
               False: "no: your games are stored marked not for research",
               None: "not answered yet (counts as no)"}[profile.get("consent")]
    name = profile.get("name") or "none"
    return (f"Anonymous id `{profile['player_id'][:8]}…` · display name: {name} · "
            f"research use: {consent}. Applies to games started from now on.")


# --- history --------------------------------------------------------------------------------


def history_rows(scope: str, profile: dict) -> list[list[str]]:
    mine = scope == "My games"
    player = players.profile_person(profile).player_id if mine else None
    records = replays.recent(store(), player_id=player, limit=50)
    return [replays.summary_row(r, player) for r in records]


def open_replay(profile: dict, evt: gr.SelectData) -> tuple[Any, ...]:
    record = store().get(str(evt.row_value[-1]))
    seat = replays.viewer(record, players.profile_person(profile).player_id)
    last = len(replays.boundaries(record)) - 1
    return ((record, seat), gr.update(maximum=max(last, 1), value=last, visible=last > 0),
            *replay_frame((record, seat), last))


def replay_frame(chosen: tuple | None, index: float) -> tuple[Any, ...]:
    if not chosen:
        return None, "Pick a session in the table.", ""
    last = len(replays.boundaries(chosen[0])) - 1
    f = replays.frame(chosen[0], min(int(index), last), seat=chosen[1])
    return f.image, f.caption, "\n".join(f.moves)


def step(index: float, delta: int, chosen: tuple | None) -> int:
    count = len(replays.boundaries(chosen[0])) if chosen else 1
    return max(0, min(count - 1, int(index) + delta))


# --- leaderboard ----------------------------------------------------------------------------

BOARD_POLL = 3.0
"""Seconds between the open Leaderboard tab's checks for newly stored sessions (a check is
one small SQL query; the ratings are recomputed only when something was stored)."""
BOARD_OUTPUTS = 11
RATINGS_TEXT = """**How to read this.** Each agent configuration, and `human` (every session a
person agreed to share, pooled), gets a Bradley–Terry rating: the mean of 1000 bootstrap fits
over finished matches, each game weighted equally (1/N_game). The interval is the 5th–95th
percentile of the fits; the rank is 1 + the number of entries whose interval lies wholly
above. A rating difference d means P(win) = 1 / (1 + e^−d). NRA is GTBench's normalized
relative advantage of one entry over another in one game (−1 to 1); GAMA-Bench's scores are
0–100 per game (mean ± std (sessions)), overall only when all eight games were played."""


@functools.cache
def leaderboard() -> Leaderboard:
    return Leaderboard(store())


@functools.cache
def downloads() -> str:
    return tempfile.mkdtemp(prefix="arena-leaderboard-")


def board_filters(game: str | None, humans: bool, since: str | None, until: str | None,
                  ) -> Filters:
    try:
        if game not in (None, "", "all"):
            get(game)  # an unknown game is an error naming the games, not an empty table
        return Filters.parse(game=game, humans_only=humans, since=since, until=until)
    except (ValueError, KeyError) as err:
        raise gr.Error(str(err.args[0] if isinstance(err, KeyError) else err)) from None


def board_view(game: str | None, humans: bool, since: str | None, until: str | None,
               ) -> LeaderboardView:
    return leaderboard().view(board_filters(game, humans, since, until))


def show_board(game: str | None, humans: bool, since: str | None, until: str | None,
               ) -> list[Any]:
    """Updates for the Leaderboard tab's outputs, in the order build_leaderboard lists them."""
    view = board_view(game, humans, since, until)
    games = [("All games", "all")] + [(get(g).title, g) for g in leaderboard().games()]
    return [(view.revision, view.filters), gr.update(choices=games), view.summary(),
            view.overall.value, view.forest(), view.heatmap(), view.per_game.value,
            view.win_probabilities().value, view.nra_table.value, view.gama.value,
            view.csv(downloads())]


def poll_board(game: str | None, humans: bool, since: str | None, until: str | None,
               shown: tuple | None) -> list[Any]:
    """The timer's check: nothing to send unless a session was stored since the last one."""
    try:
        filters = Filters.parse(game=game, humans_only=humans, since=since, until=until)
    except ValueError:
        return [gr.skip()] * BOARD_OUTPUTS  # the filter's own event says what is wrong
    if shown == (leaderboard().store.revision(), filters):
        return [gr.skip()] * BOARD_OUTPUTS
    return show_board(game, humans, since, until)


def open_board(game: str | None, humans: bool, since: str | None, until: str | None,
               shown: tuple | None) -> list[Any]:
    """The tab was opened: start polling, and draw it unless it already shows the store."""
    return [gr.Timer(active=True), *poll_board(game, humans, since, until, shown)]


def api_leaderboard(game: str, humans_only: bool, since: str, until: str) -> dict:
    """The leaderboard as data: the tables the tab shows (headers and rows) and the summary."""
    view = board_view(game, humans_only, since, until)
    tables = {"overall": view.overall, "per_game": view.per_game,
              "win_probabilities": view.win_probabilities(), "nra": view.nra_table,
              "gama": view.gama}
    return {"summary": view.summary(), "sessions": view.revision[0],
            "matches": view.report.overall.matches, "dropped": view.report.dropped,
            **{name: {"headers": t.headers, "rows": t.rows} for name, t in tables.items()}}


def api_leaderboard_csv(game: str, humans_only: bool, since: str, until: str) -> str:
    """The overall table as a CSV file (what the tab's download button gives)."""
    return str(board_view(game, humans_only, since, until).csv(downloads()))


# --- the API (gradio_client) ----------------------------------------------------------------


def api_new_game(game: str, opponent: str, seat: str, player_id: str, consent: bool,
                 display_name: str, keyring: Keyring, request: gr.Request,
                 ) -> tuple[PlaySession, dict]:
    """Start a game; agents that move first have moved when this returns."""
    profile = {"player_id": player_id, "consent": bool(consent), "name": display_name}
    seated = [o.strip() for o in opponent.split(",")] if "," in opponent else opponent
    session, *_ = start(game, seated, seat, profile, "", keyring, request)
    session.run_agents()
    return session, session.snapshot()


def api_act(session: PlaySession | None, act: str, *args: Any) -> dict:
    if session is None:
        raise gr.Error("no game in this session: call /new_game first")
    moves = len(session.record.moves)
    getattr(session, act)(*args)
    session.run_agents()
    return {**session.snapshot(), "accepted": len(session.record.moves) > moves or
            session.over and act == "resign"}


def api_move(session: PlaySession | None, move: str) -> dict:
    """Play a typed move (same reading as the page's text box), then let agents reply."""
    return api_act(session, "play_text", move)


def api_click(session: PlaySession | None, x: float, y: float) -> dict:
    """Click pixel (x, y) of the board image, then let agents reply."""
    return api_act(session, "click", x, y)


def api_plan(session: PlaySession | None, shares: str) -> dict:
    """Pirate Game: propose a whole plan (golds for each pirate below you, e.g. "0 1 0 1")."""
    try:
        plan = gama_screen.parse_plan(shares)
    except ValueError as err:
        raise gr.Error(str(err)) from None
    return api_act(session, "play_plan", plan)


def api_resign(session: PlaySession | None) -> dict:
    return api_act(session, "resign")


def api_state(session: PlaySession | None) -> dict:
    if session is None:
        raise gr.Error("no game in this session: call /new_game first")
    return session.snapshot()


def api_set_key(opponent: str, key: str, keyring: Keyring, request: gr.Request) -> dict:
    """Hold an API key for ``opponent``'s provider in this client session (never returned)."""
    llm_page.remember_tab(request.session_hash or "", keyring)
    if not opponent or "/" not in opponent:
        raise gr.Error("name a language-model opponent, e.g. openai/gpt-4o-mini")
    try:
        problem = llm_page.take(opponent, key or "", keyring)
        chosen = llm_page.pick(opponent, keyring)
    except ValueError as err:
        raise gr.Error(str(err)) from None
    return {"opponent": opponent, "key_held": chosen.key_held, "ready": not problem,
            "problem": problem}


def api_thinking(session: PlaySession | None) -> dict:
    """What the language-model seats are thinking now (as the page's panel shows it)."""
    panel = llm_page.panel_of(session)
    if session is None or panel is None:
        return {"llm": False}
    return {"llm": True, **panel.view(session)}


def api_end_game(session: PlaySession | None) -> dict:
    """End the game without a result (a thinking model is stopped): recorded as abandoned."""
    if session is None:
        raise gr.Error("no game in this session: call /new_game first")
    session.abandon("the person stopped waiting for the opponent")
    return session.snapshot()


# --- layout ---------------------------------------------------------------------------------


def build_consent(profile: gr.BrowserState) -> tuple[gr.Group, gr.Markdown]:
    with gr.Group(visible=False) as box:
        gr.Markdown(CONSENT_TEXT, elem_id="consent")
        name = gr.Textbox(label="Display name (optional)", max_length=players.MAX_NAME)
        with gr.Row():
            yes = gr.Button("Yes, keep my games for research", variant="primary")
            no = gr.Button("No thanks, just let me play")
    with gr.Accordion("Your data", open=False):
        about = gr.Markdown(elem_id="profile")
        with gr.Row():
            change_yes = gr.Button("Allow research use", size="sm")
            change_no = gr.Button("Do not use my games for research", size="sm")
    for button, consent in ((yes, True), (no, False), (change_yes, True), (change_no, False)):
        button.click(functools.partial(set_consent, consent=consent), [profile, name],
                     [profile, box, about], api_visibility="private")
    return box, about


def build_llm_picker() -> tuple[Any, ...]:
    """How a language-model opponent thinks, and the key it needs (shown for LLMs only)."""
    reasoning = gr.Radio(REASONING_CHOICES, value="prompt", label="How the model thinks",
                         visible=False, elem_id="reasoning-mode")
    key = gr.Textbox(type="password", label="API key", visible=False, elem_id="api-key",
                     placeholder="paste your key (kept in this tab's server memory only)")
    note = gr.Markdown(visible=False, elem_id="key-note")
    forget = gr.Button("Forget my key", size="sm", visible=False, elem_id="forget-key")
    return reasoning, key, note, forget


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
    outputs = [board, status, notice, moves, view, *buttons, menu, menu_play, resign_button,
               again_button, swap_button, said, typing, stop_button, *table_view["outputs"]]
    # The page shows its own "thinking…" status: no progress overlay over the board.
    private = {"api_visibility": "private", "show_progress": "hidden"}
    game.change(choose_game, game, [about, rules, opponent, text], **private)
    opponent.change(describe_opponent, [game, opponent], opponent_note, **private)
    key_outputs = [key, key_note, forget]
    opponent.change(llm_picked, [opponent, keyring], [reasoning, *key_outputs], **private)
    forget.click(forget_key, [opponent, keyring], key_outputs, **private)

    def then_agents(event: Any) -> None:  # agents move; LLM seats stream into the panel
        event.then(advance, session, outputs, **private)
        event.then(watch_llm, session, thinking, **private)

    started = start_button.click(take_key, [opponent, key, keyring], key_outputs, **private
                                 ).success(start, [game, opponent, seat, profile, reasoning,
                                                   keyring], [session, *outputs], **private)
    then_agents(started)
    for event in (
        board.select(on_click, session, outputs, trigger_mode="multiple", **private),
        *(b.click(press, [session, b], outputs, **private) for b in buttons),
        menu_play.click(press, [session, menu], outputs, **private),
        text.submit(typed, [session, text], [text, *outputs], **private),
        text_play.click(typed, [session, text], [text, *outputs], **private),
        resign_button.click(on_resign, session, outputs, **private),
        stop_button.click(stop_waiting, session, outputs, **private),
    ):
        then_agents(event)
    for button, handler in ((again_button, play_again), (swap_button, swap_seats)):
        then_agents(button.click(handler, [profile, session, keyring],
                                 [session, seat, *outputs], **private))
    wire_table(table_setup, table_view, game, [opponent, opponent_note, seat, start_button],
               profile, keyring, session, outputs, then_agents)
    return game, about, rules, opponent, text


def build_table_setup() -> dict[str, Any]:
    """GAMA-Bench's games: players, rounds, the person's seat and an agent for every other
    seat (shown instead of the one-opponent setup when such a game is chosen)."""
    with gr.Group(visible=False) as box:
        with gr.Row():
            count = gr.Number(10, label="Players", precision=0, min_width=90,
                              elem_id="table-players")
            rounds = gr.Number(20, label="Rounds", precision=0, min_width=90,
                               elem_id="table-rounds")
        seat = gr.Dropdown([], label="Your seat", elem_id="table-seat")
        with gr.Accordion("Agents at the other seats", open=True), gr.Row():
            agents = [gr.Dropdown([], visible=False, min_width=150,
                                  elem_id=f"table-agent-{i}") for i in range(SHARES)]
        begin = gr.Button("Start", variant="primary", elem_id="start-table")
    return {"box": box, "count": count, "rounds": rounds, "seat": seat, "agents": agents,
            "start": begin}


def build_table_view() -> dict[str, Any]:
    """GAMA-Bench's games while playing: who sits where, the score so far, the round's number
    field (choices use the move buttons), Pirate Game's proposal form, the results table
    and, at the end, everyone's GAMA score. Outputs in show_table's order."""
    with gr.Column(visible=False) as box:
        seats = gr.Markdown(elem_id="table-seats")
        standing = gr.Markdown(elem_id="standing")
        with gr.Row(visible=False) as number_row:
            number = gr.Number(label="Your number", elem_id="decision", scale=3)
            decide_button = gr.Button("Submit", variant="primary", scale=1, elem_id="decide")
        with gr.Group(visible=False) as plan_box:
            gr.Markdown("**Your plan:** golds for each pirate below you; you keep the rest.")
            with gr.Row(elem_id="plan"):
                shares = [gr.Number(0, visible=False, min_width=80, precision=0)
                          for _ in range(SHARES)]
            propose_button = gr.Button("Propose this plan", variant="primary",
                                       elem_id="propose")
        results = gr.Dataframe(label="Results so far", interactive=False, max_height=320,
                               elem_id="results")
        summary = gr.Dataframe(label="Final results and GAMA scores (0-100)", visible=False,
                               interactive=False, elem_id="summary")
    return {"outputs": [box, seats, standing, number_row, number, plan_box, *shares, results,
                        summary],
            "number": number, "decide": decide_button, "shares": shares,
            "propose": propose_button}


def wire_table(setup: dict[str, Any], view: dict[str, Any], game: gr.Dropdown,
               duel: list[Any], profile: gr.BrowserState, keyring: gr.State,
               session: gr.State, outputs: list[Any], then_agents: Any) -> None:
    """The events of the GAMA table's setup and panel."""
    private = {"api_visibility": "private", "show_progress": "hidden"}
    pickers = [setup["seat"], *setup["agents"]]
    game.change(choose_table, game, [*duel, setup["box"], setup["count"], setup["rounds"],
                                     *pickers], **private)
    for changed in (setup["count"], setup["seat"]):
        changed.input(arrange_table, [game, setup["count"], setup["seat"], *setup["agents"]],
                      pickers, **private)
    inputs = [game, setup["seat"], setup["count"], setup["rounds"], profile, keyring,
              *setup["agents"]]
    for event in (
        setup["start"].click(start_table, inputs, [session, *outputs], **private),
        view["decide"].click(decide, [session, view["number"]], outputs, **private),
        view["number"].submit(decide, [session, view["number"]], outputs, **private),
        view["propose"].click(propose, [session, *view["shares"]], outputs, **private),
    ):
        then_agents(event)


def build_history(profile: gr.BrowserState) -> gr.Tab:
    chosen = gr.State(None)
    with gr.Tab("History") as tab:
        with gr.Row():
            scope = gr.Radio(["My games", "All recent games"], value="My games", show_label=False)
            refresh = gr.Button("Refresh", size="sm")
        table = gr.Dataframe(headers=["When", "Game", "Seats", "Result", "Session"],
                             interactive=False, elem_id="history-table", max_height=320)
        with gr.Row():
            with gr.Column(scale=2):
                image = gr.Image(interactive=False, type="pil", format="png", show_label=False,
                                 buttons=[], elem_id="replay-board")
            with gr.Column(scale=1):
                caption = gr.Markdown(elem_id="replay-caption")
                slider = gr.Slider(0, 1, step=1, label="Step", visible=False)
                with gr.Row():
                    back = gr.Button("◀ Previous", size="sm")
                    forward = gr.Button("Next ▶", size="sm")
                moves = gr.Textbox(label="Moves", lines=10, interactive=False)
    private = {"api_visibility": "private"}
    for trigger in (tab.select, refresh.click, scope.change):
        trigger(history_rows, [scope, profile], table, **private)
    table.select(open_replay, profile, [chosen, slider, image, caption, moves], **private)
    slider.change(replay_frame, [chosen, slider], [image, caption, moves], **private)
    back.click(functools.partial(step, delta=-1), [slider, chosen], slider, **private)
    forward.click(functools.partial(step, delta=1), [slider, chosen], slider, **private)
    return tab


def build_leaderboard() -> gr.Tab:
    """The Leaderboard tab: ratings with intervals, plots, NRA and GAMA-Bench tables, filters,
    CSV; it reads the store through the cached Leaderboard and polls for new sessions."""
    shown = gr.State(None)
    with gr.Tab("Leaderboard") as tab:
        with gr.Row(equal_height=True):
            game = gr.Dropdown([("All games", "all")], value="all", label="Game",
                               elem_id="lb-game", scale=2)
            humans = gr.Checkbox(label="Only sessions with a person", elem_id="lb-humans")
            since = gr.DateTime(include_time=False, type="string", label="From (UTC)",
                                elem_id="lb-since")
            until = gr.DateTime(include_time=False, type="string", label="To (UTC, inclusive)",
                                elem_id="lb-until")
            with gr.Column(scale=1, min_width=160):
                refresh = gr.Button("Refresh", size="sm", elem_id="lb-refresh")
                download = gr.DownloadButton("Download CSV", size="sm", elem_id="lb-csv")
        summary = gr.Markdown(elem_id="lb-summary")
        overall = gr.Dataframe(label="Ratings (90% interval, rank by interval overlap)",
                               interactive=False, elem_id="lb-overall", max_height=420)
        with gr.Row():
            forest = gr.Plot(label="Ratings with 90% intervals", show_label=False,
                             elem_id="lb-forest")
            heatmap = gr.Plot(label="Head-to-head win probability", show_label=False,
                              elem_id="lb-heatmap")
        with gr.Tabs():
            with gr.Tab("Per game"):
                per_game = gr.Dataframe(interactive=False, elem_id="lb-per-game")
            with gr.Tab("Head-to-head"):
                heads = gr.Dataframe(interactive=False, elem_id="lb-heads")
            with gr.Tab("NRA (GTBench)"):
                nra = gr.Dataframe(interactive=False, elem_id="lb-nra")
            with gr.Tab("GAMA-Bench scores"):
                gama = gr.Dataframe(interactive=False, elem_id="lb-gama", wrap=True)
        gr.Markdown(RATINGS_TEXT)
    timer = gr.Timer(BOARD_POLL, active=False)
    filters = [game, humans, since, until]
    outputs = [shown, game, summary, overall, forest, heatmap, per_game, heads, nra, gama,
               download]
    # one computation at a time: concurrent refreshes then find the cached view
    quiet = {"api_visibility": "private", "show_progress": "hidden",
             "concurrency_id": "leaderboard", "concurrency_limit": 1}
    tab.select(open_board, [*filters, shown], [timer, *outputs], **quiet)
    refresh.click(show_board, filters, outputs, **{**quiet, "show_progress": "minimal"})
    for control in filters:
        control.change(show_board, filters, outputs, trigger_mode="always_last", **quiet)
    timer.tick(poll_board, [*filters, shown], outputs, **quiet)
    with gr.Group(visible=False):  # the API's endpoints (gradio_client)
        api_in = [gr.Textbox(), gr.Checkbox(), gr.Textbox(), gr.Textbox()]
        api_out, api_file, api_go, api_csv = gr.JSON(), gr.File(), gr.Button(), gr.Button()
    api_go.click(api_leaderboard, api_in, api_out, api_name="leaderboard",
                 concurrency_id="leaderboard", concurrency_limit=1)
    api_csv.click(api_leaderboard_csv, api_in, api_file, api_name="leaderboard_csv",
                  concurrency_id="leaderboard", concurrency_limit=1)
    return tab


def build_api(session: gr.State, keyring: gr.State) -> None:
    """Hidden endpoints for gradio_client: one game per client session."""
    with gr.Group(visible=False):
        game, opponent, seat = gr.Textbox(), gr.Textbox(), gr.Textbox()
        player, name, consent = gr.Textbox(), gr.Textbox(), gr.Checkbox()
        move, x, y, plan = gr.Textbox(), gr.Number(), gr.Number(), gr.Textbox()
        answer = gr.JSON(label="session")
        buttons = {n: gr.Button() for n in ("new_game", "move", "click", "plan", "resign",
                                            "state")}
    buttons["new_game"].click(api_new_game, [game, opponent, seat, player, consent, name,
                                             keyring], [session, answer], api_name="new_game")
    buttons["move"].click(api_move, [session, move], answer, api_name="move")
    buttons["click"].click(api_click, [session, x, y], answer, api_name="click")
    buttons["plan"].click(api_plan, [session, plan], answer, api_name="plan")
    buttons["resign"].click(api_resign, session, answer, api_name="resign")
    buttons["state"].click(api_state, session, answer, api_name="state")
    build_llm_api(session, keyring)


def build_llm_api(session: gr.State, keyring: gr.State) -> None:
    """/set_key (hold a key for this client session), /thinking (the panel as data),
    /end_game (stop waiting: abandoned, not a loss)."""
    with gr.Group(visible=False):
        opponent, key = gr.Textbox(), gr.Textbox()
        answer = gr.JSON()
        buttons = {n: gr.Button() for n in ("set_key", "thinking", "end_game")}
    buttons["set_key"].click(api_set_key, [opponent, key, keyring], answer, api_name="set_key")
    buttons["thinking"].click(api_thinking, session, answer, api_name="thinking")
    buttons["end_game"].click(api_end_game, session, answer, api_name="end_game")


def build_app() -> gr.Blocks:
    with gr.Blocks(title="LLM Game Arena") as app:
        profile = gr.BrowserState(
            {"player_id": "", "consent": None, "name": ""}, storage_key="llm-game-arena-profile",
            secret=os.environ.get("ARENA_BROWSER_SECRET", "llm-game-arena"))
        session = gr.State(None, delete_callback=_expire)
        keyring = gr.State(Keyring(), delete_callback=Keyring.forget)  # copies start empty
        gr.Markdown("# LLM Game Arena\nPlay strategy games against language models, MCTS and "
                    "other programs. Click the board to move.")
        consent_box, consent_about = build_consent(profile)
        with gr.Tab("Play"):
            game, about, rules, opponent, text = build_play(profile, session, keyring)
        build_history(profile)
        build_leaderboard()
        build_api(session, keyring)
        app.load(load_profile, profile, [profile, consent_box, consent_about],
                 api_visibility="private")
        app.load(choose_game, game, [about, rules, opponent, text], api_visibility="private")
        app.unload(_closed)
    return app


def _expire(session: PlaySession | None) -> None:
    if session is not None:
        session.abandon("session expired")


def _closed(request: gr.Request) -> None:
    OPEN.close(request.session_hash or "")
    llm_page.forget_keys(request.session_hash or "")


def _stop_on_sigterm(signum: int, frame: Any) -> None:
    sys.exit(0)  # exit normally, so atexit stops the offline model's server


demo = build_app()
demo.queue(default_concurrency_limit=16)

if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    demo.launch(css=CSS)  # honours GRADIO_SERVER_NAME / GRADIO_SERVER_PORT
