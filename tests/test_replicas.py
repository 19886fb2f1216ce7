"""Two app processes on two ports sharing one PostgreSQL store (DATABASE_URL): a game finished
on one shows up on the other's Leaderboard within seconds, and in its History."""

from __future__ import annotations

import contextlib
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests import postgres
from tests.app_server import running_app

gradio_client = pytest.importorskip("gradio_client")


def test_a_game_finished_on_one_replica_is_on_the_others_leaderboard(tmp_path,
                                                                      postgres_server):
    url = postgres.database(postgres_server, "replicas")
    env = {"DATABASE_URL": url}
    with contextlib.ExitStack() as stack, ThreadPoolExecutor(2) as pool:
        one, two = pool.map(stack.enter_context,  # both start at once
                            [running_app(tmp_path / name, env=env) for name in ("one", "two")])
        assert one.url != two.url
        here, there = gradio_client.Client(one.url), gradio_client.Client(two.url)
        empty = there.predict("all", False, "", "", api_name="/leaderboard")
        assert empty["matches"] == 0
        state = here.predict("tic_tac_toe", "random", "first", "", True, "Ada",
                             api_name="/new_game")
        while not state["over"]:
            state = here.predict(state["legal"][0], api_name="/move")
        finished = time.monotonic()
        while True:
            board = there.predict("all", False, "", "", api_name="/leaderboard")
            if board["matches"] == 1 or time.monotonic() - finished > 15:
                break
            time.sleep(0.5)
        waited = time.monotonic() - finished
        assert board["matches"] == 1, f"the other replica still shows {board['summary']}"
        assert waited < 10
        shown = " ".join(str(cell) for row in board["overall"]["rows"] for cell in row)
        assert "random" in shown and "human" in shown.lower()
    assert not list(tmp_path.glob("*/arena.sqlite3")), "a replica wrote a local SQLite store"
