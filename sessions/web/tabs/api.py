"""The API for gradio_client: hidden endpoints, one game per client session (see the table
in docs/api.md).

Every text argument is checked against its cap (:data:`CAPS`) before it is read; a move
longer than ``PlaySession``'s ``MAX_INPUT`` comes back ``accepted: false`` unread. ``/move``,
``/click`` and ``/plan`` take an optional ``expected`` move number (the ``move_number`` of
the answer the client acted on): a stale one is refused with the position as it is now.
"""

from __future__ import annotations

from typing import Any

import gradio as gr

from sessions.web import gama_screen, llm_page
from sessions.web.llm_page import Keyring
from sessions.web.play import MAX_INPUT, PlaySession
from sessions.web.tabs import serving
from sessions.web.tabs.play import new_session
from sessions.web.tabs.site import OPEN

CAPS = {"game": 100, "opponent": 2_000, "seat": 20, "shares": MAX_INPUT}
"""The longest text each argument may be (characters); longer is refused unread."""


def check_sizes(**texts: str | None) -> None:
    """Refuse any text argument longer than its cap, before anything reads it."""
    for name, text in texts.items():
        if text is not None and len(text) > CAPS[name]:
            raise gr.Error(f"{name} has {len(text):,} characters; at most {CAPS[name]:,} "
                           "are accepted: nothing was done")


def api_new_game(game: str, opponent: str, seat: str, player_id: str, consent: bool,
                 display_name: str, keyring: Keyring, request: gr.Request,
                 ) -> tuple[PlaySession, dict]:
    """Start a game; agents that move first have moved when this returns."""
    check_sizes(game=game, opponent=opponent, seat=seat)  # the id and name have their rules
    profile = {"player_id": player_id, "consent": bool(consent), "name": display_name}
    seated = [o.strip() for o in opponent.split(",")] if "," in opponent else opponent
    session = new_session(game, seated, seat, profile, "", keyring, request)
    session.run_agents()
    return session, session.snapshot()


def api_act(session: PlaySession | None, act: str, *args: Any,
            expected: float | None = None) -> dict:
    if session is None:
        raise gr.Error("no game in this session: call /new_game first")
    if expected is not None and not float(expected).is_integer():
        raise gr.Error(f"expected must be a whole move number (the state's move_number), "
                       f"not {expected}")
    with session._lock:  # count this request's own input: others may play between
        played, was_over = session.inputs_played, session.over
        getattr(session, act)(*args, **({} if expected is None else {"expected": int(expected)}))
        accepted = session.inputs_played > played or (
            act == "resign" and not was_over and session.over)
    session.run_agents()
    return {**session.snapshot(), "accepted": accepted}


def api_move(session: PlaySession | None, move: str, expected: float | None = None) -> dict:
    """Play a typed move (same reading as the page's text box), then let agents reply."""
    return api_act(session, "play_text", move, expected=expected)


def api_click(session: PlaySession | None, x: float, y: float,
              expected: float | None = None) -> dict:
    """Click pixel (x, y) of the board image, then let agents reply."""
    return api_act(session, "click", x, y, expected=expected)


def api_plan(session: PlaySession | None, shares: str, expected: float | None = None) -> dict:
    """Pirate Game: propose a whole plan (golds for each pirate below you, e.g. "0 1 0 1")."""
    check_sizes(shares=shares)
    try:
        plan = gama_screen.parse_plan(shares)
    except ValueError as err:
        raise gr.Error(str(err)) from None
    return api_act(session, "play_plan", plan, expected=expected)


def api_resign(session: PlaySession | None) -> dict:
    return api_act(session, "resign")


def api_state(session: PlaySession | None) -> dict:
    if session is None:
        raise gr.Error("no game in this session: call /new_game first")
    return session.snapshot()


def api_set_key(opponent: str, key: str, keyring: Keyring, request: gr.Request) -> dict:
    """Hold an API key for ``opponent``'s provider in this client session (never returned)."""
    check_sizes(opponent=opponent)
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


def api_opponents(game: str) -> dict:
    """The opponents the Play tab offers for ``game``, as data: the levels first, then the
    other agents and the language models, each with its spec, its label in people's words,
    whether it can play now (``ready``, ``preparing``, ``needs_key``, ``unavailable``) and
    its note (what it is; for a model being prepared, the step and its progress)."""
    check_sizes(game=game)
    from games.registry import get
    from sessions.web.players import opponents_for

    try:
        spec = get(game)
    except KeyError as err:
        raise gr.Error(str(err.args[0])) from None
    return {"game": spec.id, "opponents": [
        {"spec": o.spec, "label": o.label, "status": o.status, "note": o.note}
        for o in opponents_for(spec)]}


def api_end_game(session: PlaySession | None, request: gr.Request) -> dict:
    """End the game without a result (a thinking model or search is stopped): recorded as
    abandoned. Also while /new_game is still running (an agent seated first is thinking)."""
    session = session or OPEN.get(request.session_hash or "")
    if session is None:
        raise gr.Error("no game in this session: call /new_game first")
    session.abandon("the person stopped waiting for the opponent")
    return session.snapshot()


def build_api(session: gr.State, keyring: gr.State) -> None:
    """Hidden endpoints for gradio_client: one game per client session."""
    with gr.Group(visible=False):
        game, opponent, seat = gr.Textbox(), gr.Textbox(), gr.Textbox()
        player, name, consent = gr.Textbox(), gr.Textbox(), gr.Checkbox()
        move, x, y, plan = gr.Textbox(), gr.Number(), gr.Number(), gr.Textbox()
        expected = gr.Number(None, precision=0)
        answer = gr.JSON(label="session")
        buttons = {n: gr.Button() for n in ("new_game", "move", "click", "plan", "resign",
                                            "state")}
    buttons["new_game"].click(api_new_game, [game, opponent, seat, player, consent, name,
                                             keyring], [session, answer], api_name="new_game",
                              **serving.API)
    buttons["move"].click(api_move, [session, move, expected], answer, api_name="move",
                          **serving.API)
    buttons["click"].click(api_click, [session, x, y, expected], answer, api_name="click",
                           **serving.API)
    buttons["plan"].click(api_plan, [session, plan, expected], answer, api_name="plan",
                          **serving.API)
    buttons["resign"].click(api_resign, session, answer, api_name="resign", **serving.API)
    buttons["state"].click(api_state, session, answer, api_name="state", **serving.API)
    build_llm_api(session, keyring)


def build_llm_api(session: gr.State, keyring: gr.State) -> None:
    """/set_key (hold a key for this client session), /thinking (the panel as data),
    /end_game (stop waiting: abandoned, not a loss), /opponents (a game's opponent list with
    whether each can play now)."""
    with gr.Group(visible=False):
        opponent, key = gr.Textbox(), gr.Textbox()
        answer = gr.JSON()
        buttons = {n: gr.Button() for n in ("set_key", "thinking", "end_game", "opponents")}
        game = gr.Textbox()
    buttons["opponents"].click(api_opponents, game, answer, api_name="opponents")
    buttons["set_key"].click(api_set_key, [opponent, key, keyring], answer, api_name="set_key")
    buttons["thinking"].click(api_thinking, session, answer, api_name="thinking")
    buttons["end_game"].click(api_end_game, session, answer, api_name="end_game")
