"""Browser sessions without a sign of life end (issue 24, items 2 and 8): a client that never
opened the page's heartbeat has its open game stored as abandoned, and its session let go,
within a bounded time of its last request; a client whose heartbeat is open is never ended,
however long it stays idle. Against the real app, with a 1.5 s limit."""

from __future__ import annotations

import asyncio
import time
import uuid

import httpx
from gradio_client import Client

from benchmarks.load import Api
from sessions.store import Store
from tests.app_server import running_app

LIMIT = 1.5
PLAYER = "lifetimetester01"


def test_a_silent_clients_game_is_stored_as_abandoned_and_a_beating_one_plays_on(tmp_path):
    env = {"ARENA_SESSION_IDLE": str(LIMIT), "ARENA_SESSION_SWEEP": "0.25"}
    with running_app(tmp_path, env=env) as app:
        api = Api(app.url.rstrip("/"))
        listening = Client(app.url, verbose=False)  # opens the heartbeat, as the page does
        kept = listening.predict("tic_tac_toe", "random", "first", PLAYER, True, "",
                                 api_name="/new_game")

        async def silent_games() -> list[str]:
            async with httpx.AsyncClient(timeout=30) as http:  # no heartbeat: queue only
                games = [await api.call(http, uuid.uuid4().hex, "new_game", "tic_tac_toe",
                                        "random", "first", PLAYER, True, "")
                         for _ in range(3)]
            return [game["session"] for game in games]

        silent = asyncio.run(silent_games())
        left = time.monotonic()
        stored: dict[str, str] = {}
        while len(stored) < 3 and time.monotonic() - left < LIMIT + 5:
            time.sleep(0.2)
            with Store(app.store_path, readonly=True) as store:
                stored = {r.id: r.end_reason or "" for r in store.records()}
        assert sorted(stored) == sorted(silent), "the silent clients' games were not stored"
        assert all("no sign of life" in why for why in stored.values())
        assert time.monotonic() - left < LIMIT + 5  # within the limit and a few sweeps

        # the listening client has been idle longer than the silent ones
        move = kept["legal"][0]
        after = listening.predict(move, api_name="/move")
        assert after["session"] == kept["session"] and after["accepted"]
        listening.close()
