"""An abusive API client against the real app: oversized, stale and concurrent moves,
invalid ids, runaway searches, a resign after the end, and SIGTERM while busy (issue 14)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from gradio_client import Client
from gradio_client.exceptions import AppError
from gradio_client.utils import Status

from games.registry import get
from renderers.gtbench.tic_tac_toe import centres
from sessions.store import Store
from tests.app_server import running_app
from tests.fake_llm_server import FakeLLM, Reply

PLAYER = "hostile-client-01"


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("hostile")) as running:
        yield running


def _client(app) -> Client:
    return Client(app.url, verbose=False)


def test_oversized_moves_are_refused_unread_and_nothing_is_stored(app):
    client = _client(app)
    state = client.predict("tic_tac_toe", "random", "first", PLAYER, False, "",
                           api_name="/new_game")
    for _ in range(2):
        after = client.predict("C1R1 " * 1_000_000, api_name="/move")
        assert after["accepted"] is False
        assert after["notice"] == ("That move has 5,000,000 characters; at most 2,000 are "
                                   "read, so it was not played (nothing was recorded).")
        assert after["moves"] == state["moves"]
    ended = client.predict(api_name="/resign")
    with Store(app.store_path) as store:
        record = store.get(ended["session"])
    assert record.unplayed == [] and len(record.to_json()) < 5_000


def test_stale_moves_are_refused_with_the_position_now(app):
    client = _client(app)
    state = client.predict("tic_tac_toe", "random", "first", PLAYER, False, "",
                           api_name="/new_game")
    assert state["move_number"] == 1
    jobs = [client.submit(label, 1, api_name="/move") for label in state["legal"]]
    answers = [job.result(timeout=30) for job in jobs]
    taken = [a for a in answers if a["accepted"]]
    assert len(taken) == 1  # nine different moves at once: one is played, not nine in turn
    for refused in (a for a in answers if not a["accepted"]):
        assert refused["notice"].startswith("The board changed before that arrived")
        assert refused["detail"].startswith("Not played: that was sent for move 1, but the "
                                            "game is at move ")
    now = client.predict(api_name="/state")
    assert len(now["moves"]) == 2 and now["move_number"] == 3
    free = next(label for label in now["legal"])
    x, y = centres(get("tic_tac_toe").load().new_initial_state(), 0)[free]
    stale = client.predict(x, y, 1, api_name="/click")
    assert stale["accepted"] is False and stale["moves"] == now["moves"]
    assert stale["view"] == now["view"] and "game is at move 3" in stale["detail"]
    fresh = client.predict(x, y, 3, api_name="/click")
    assert fresh["accepted"] and len(fresh["moves"]) >= 3
    unchecked = client.predict(fresh["legal"][0], api_name="/move")  # expected is optional
    assert unchecked["accepted"]


def test_resign_after_the_game_is_over_is_not_accepted(app):
    client = _client(app)
    client.predict("tic_tac_toe", "random", "first", PLAYER, False, "", api_name="/new_game")
    first = client.predict(api_name="/resign")
    assert first["accepted"] is True and first["outcome"] == "forfeit"
    again = client.predict(api_name="/resign")
    assert again["accepted"] is False and again["notice"] == "The game is already over."


@pytest.mark.parametrize("player_id", ["short", "x" * 65, "has space!", "üñíçødé-id"])
def test_an_invalid_player_id_is_refused_with_the_rule(app, player_id):
    with pytest.raises(AppError, match=r"use 8-64 letters, digits, '-' or '_'"):
        _client(app).predict("nim", "random", "first", player_id, False, "",
                             api_name="/new_game")


def test_names_past_40_characters_are_refused_and_new_ids_are_returned(app):
    client = _client(app)
    with pytest.raises(AppError, match="display name has 41 characters; at most 40"):
        client.predict("nim", "random", "first", PLAYER, False, "n" * 41,
                       api_name="/new_game")
    with pytest.raises(AppError, match="display name has 5,000 characters; at most 40"):
        client.predict("nim", "random", "first", PLAYER, False, "n" * 5_000,
                       api_name="/new_game")
    fresh = client.predict("nim", "random", "first", "", False, "Ada", api_name="/new_game")
    assert len(fresh["player_id"]) == 32 and fresh["display_name"] == "Ada"
    kept = client.predict("nim", "random", "first", PLAYER, False, "Ada", api_name="/new_game")
    assert kept["player_id"] == PLAYER


def test_runaway_search_settings_are_refused_with_the_limits(app):
    client = _client(app)
    job = client.submit("tic_tac_toe", "mcts:1000000000:0s", "second", PLAYER, False, "",
                        api_name="/new_game")
    with pytest.raises(AppError, match=r"outside the limits for play here: mcts takes 1 to "
                                       r"100,000 simulations and a clock of more than 0 and "
                                       r"at most 10s a move"):
        job.result(timeout=20)


def test_end_game_stops_a_search_while_the_game_is_still_starting(app):
    client = _client(app)
    job = client.submit("hive", "mcts:100000:10s", "second", PLAYER, False, "",
                        api_name="/new_game")
    time.sleep(2.0)  # MCTS, seated first, is searching inside /new_game
    assert not job.done()
    pressed = time.monotonic()
    ended = client.predict(api_name="/end_game")
    started = job.result(timeout=10)
    assert time.monotonic() - pressed < 5.0  # not the search's 10 s clock
    assert ended["outcome"] == "abandoned" and started["outcome"] == "abandoned"
    with Store(app.store_path) as store:
        assert store.get(ended["session"]).outcome == "abandoned"


# --- a provider that never answers --------------------------------------------------------------

QUICK_SILENT = """
[[opponent]]
id = "quick-silent"
title = "Quick Silent"
provider = "compat"
model = "quick-silent"
first_token_seconds = 2

[[opponent]]
id = "silent-model"
title = "Silent Model"
provider = "compat"
model = "silent-model"
"""


@pytest.fixture(scope="module")
def silent_app(tmp_path_factory):
    """The app with its OpenAI-compatible provider pointed at a server that never answers;
    ``compat/quick-silent`` gives up on silence after 2 s, ``compat/silent-model`` after 30 s
    (only models of the opponents file may be played)."""
    folder = tmp_path_factory.mktemp("silent")
    (folder / "opponents.toml").write_text(QUICK_SILENT)
    with FakeLLM(lambda request: Reply(silent=True)) as fake, running_app(
            folder / "app", env={"ARENA_COMPAT_BASE_URL": fake.openai_url,
                                 "ARENA_OPPONENTS": str(folder / "opponents.toml")}) as running:
        yield running, fake


def test_a_person_waiting_on_a_silent_model_sees_a_countdown_and_wins_in_seconds(silent_app):
    running, fake = silent_app
    client = _client(running)
    client.predict("tic_tac_toe", "compat/quick-silent", "first", PLAYER, True, "",
                   api_name="/new_game")
    asked = time.monotonic()
    job = client.submit("C2R2", api_name="/move")
    seen = []
    while not job.done() and time.monotonic() - asked < 20:
        seen.append((client.predict(api_name="/state")["status"],
                     client.predict(api_name="/thinking")))
        time.sleep(0.2)
    state = job.result(timeout=10)
    waited = time.monotonic() - asked
    assert state["outcome"] == "forfeit" and waited < 6.0  # 2 s of silence, not minutes
    assert state["result"] == ("Quick Silent forfeited (no legal move after 1 attempt: the "
                               "provider sent no text for 2 s (first-token timeout); not "
                               "retryable): you win.")
    counting = [status for status, _ in seen if "thinking" in status]
    assert counting and all(status.endswith(("gives up in 2 s)", "gives up in 1 s)",
                                             "gives up in 0 s)")) for status in counting)
    left = [turn["seconds_left"] for _, thinking in seen for turn in thinking.get("turns", [])
            if turn["thinking"]]
    assert left and all(0 <= s <= 2.0 for s in left)


def _alive(pid: int) -> bool:
    stat = Path(f"/proc/{pid}/stat")
    try:
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def test_sigterm_stops_the_app_within_seconds_whatever_it_is_doing(silent_app):
    """A search seated first inside /new_game, and a provider that never answers: SIGTERM
    stops the app within a few seconds, and both games are stored as abandoned. (This stops
    the module's silent app: keep it last.)"""
    running, fake = silent_app
    began = time.time()
    searching, waiting = _client(running), _client(running)
    asked = len(fake.requests)
    jobs = [waiting.submit("tic_tac_toe", "compat/silent-model", "second", PLAYER, False, "",
                           api_name="/new_game")]
    deadline = time.monotonic() + 30
    while len(fake.requests) == asked and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(fake.requests) > asked, "the model was never asked"
    jobs.append(searching.submit("hive", "mcts:100000:10s", "second", PLAYER, False, "",
                                 api_name="/new_game"))
    deadline = time.monotonic() + 30  # on a busy machine the call may wait to be taken
    while jobs[1].status().code != Status.PROCESSING and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(2.0)  # the game is made and its search under way
    for job in jobs:
        assert not job.done(), job.result()
    sent = time.monotonic()
    os.kill(running.pid, signal.SIGTERM)
    while _alive(running.pid) and time.monotonic() - sent < 30:
        time.sleep(0.05)
    stopped = time.monotonic() - sent
    assert stopped < 6.0, f"the app took {stopped:.1f} s to stop"
    with Store(running.store_path) as store:
        ours = [(r.game, r.outcome, r.end_reason) for r in store.records()
                if r.started_at >= began and r.game in ("hive", "tic_tac_toe")]
    assert sorted(ours) == [("hive", "abandoned", "the server stopped"),
                            ("tic_tac_toe", "abandoned", "the server stopped")], ours


def test_only_models_the_server_offers_can_be_played_and_a_resign_rates_nothing(app):
    """Issue 24 item 4: an invented model is refused with a sentence; nothing is stored."""
    client = _client(app)
    with Store(app.store_path) as store:
        before = store.count()
    for opponent, message in (
            ("compat/Totally-Real-GPT6+prompt", "compat/Totally-Real-GPT6 is not offered on "
                                                "this server"),
            ("openai/gpt-7-preview", "openai/gpt-7-preview is not offered"),
            ("compat/evil\x00model", r"model name 'evil\\x00model' is not valid")):
        with pytest.raises(AppError, match=message):
            client.predict("tic_tac_toe", opponent, "first", PLAYER, True, "",
                           api_name="/new_game")
    with Store(app.store_path) as store:
        assert store.count() == before
