"""LLM Game Arena: the Gradio app. Composition only: the tabs are built in sessions/web/tabs/,
the work is done in sessions/ and renderers/.

Per-user state: the game in progress is a ``gr.State`` (a sessions.web.play.PlaySession); the
anonymous player id, consent and display name are a ``gr.BrowserState``; API keys typed for
language models are a ``gr.State`` (sessions.web.llm_page.Keyring: server memory only, never
sent back to the page). Completed sessions go to the store at $ARENA_DATA_DIR/arena.sqlite3.
API (for gradio_client): /new_game, /move, /click, /plan, /resign, /state, /set_key,
/thinking, /end_game, /leaderboard, /leaderboard_csv; see the README.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from typing import Any

import gradio as gr

from agents.llm import local_servers
from sessions import dataset_hub, forget
from sessions.web import llm_page
from sessions.web.llm_page import Keyring
from sessions.web.play import PlaySession
from sessions.web.tabs import api, consent, history, leaderboard, lifetime, play, serving, watch
from sessions.web.tabs.site import OPEN, TURNS, store_notice
from sessions.web.watch import HOSTS


def build_app() -> gr.Blocks:
    with gr.Blocks(title="LLM Game Arena", **serving.BLOCKS) as app:
        profile = gr.BrowserState(
            {"player_id": "", "consent": None, "name": ""}, storage_key="llm-game-arena-profile",
            secret=os.environ.get("ARENA_BROWSER_SECRET", "llm-game-arena"))
        session = gr.State(None, delete_callback=_expire)
        keyring = gr.State(Keyring(), delete_callback=Keyring.forget)  # copies start empty
        gr.HTML("<div class='arena-title'><b>LLM Game Arena</b> · play strategy games "
                "against language models, MCTS and other programs</div>")
        store_problem = gr.HTML(visible=False, elem_id="store-problem")  # a read-only folder
        question = consent.build_consent(profile)
        with gr.Tab("Play") as play_tab:
            game, chosen, width = play.build_play(profile, session, keyring)
        watching = watch.build_watch(keyring)
        history.build_history(profile)
        leaderboard.build_leaderboard()
        api.build_api(session, keyring)
        consent_about = consent.build_profile(profile, question)
        app.load(consent.load_profile, profile, [profile, question.box, consent_about],
                 api_visibility="private")
        app.load(store_notice, None, store_problem, api_visibility="private")
        play_selects = gr.State(0)  # how often the Play tab was selected (consent.ask_on_play)
        play_tab.select(consent.ask_on_play, [profile, play_selects], [question.box, play_selects],
                        api_visibility="private")
        app.load(play.choose_game, game, chosen, api_visibility="private")
        app.load(None, None, width, js=play.WIDTH_JS)  # phones get narrow board layouts
        watch.wire_load(app, watching)  # ?watch=<id> links and the showcase
        app.unload(_closed)
    return app


def _expire(session: PlaySession | None) -> None:
    if session is not None:
        session.abandon("session expired")


def _closed(request: gr.Request) -> None:
    _forget(request.session_hash or "")


def _forget(browser: str, reason: str = "") -> None:
    """A tab went away (closed, or silent: sessions/web/tabs/lifetime.py): its unfinished
    game is stored as abandoned, its watched game stopped, what it held let go."""
    OPEN.close(browser, reason or "tab closed")
    TURNS.forget(browser)
    HOSTS.close(browser, reason or "the tab that started it was closed")
    llm_page.forget_keys(browser)


STOP_SECONDS = 3.0
"""After SIGTERM the app exits normally; if something still holds it after this long (a
search between checks, a provider that sends nothing), it exits anyway."""


def _stop_on_sigterm(signum: int, frame: Any) -> None:
    threading.Thread(target=_exit_soon, name="sigterm", daemon=True).start()
    OPEN.close_all("the server stopped")  # stored as abandoned; their agents are stopped
    sys.exit(0)  # exit normally, so atexit stops the offline model's server


def _exit_soon() -> None:
    time.sleep(STOP_SECONDS)
    local_servers().stop()  # what atexit would have done
    os._exit(0)


demo = build_app()
serving.lighten_queue()  # before the queue reads its settings (sessions/web/tabs/serving.py)
demo.queue(**serving.QUEUE)

if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    llm_page.prepare_offline_models()  # in the background: the page serves meanwhile
    dataset_hub.start_from_env()  # ARENA_DATASET_REPO: push the dataset on a schedule
    forget.start_retention()  # ARENA_RETENTION_DAYS: drop old sessions not shared
    demo.launch(css=play.CSS, head=play.HEAD, **serving.LAUNCH,  # honours GRADIO_SERVER_*
                app_kwargs=lifetime.app_kwargs(_forget))  # silent sessions end (lifetime.py)
