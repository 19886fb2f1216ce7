"""Memory per browser session (issue 24, item 2): the app's resident memory idle, after a
burst of sessions that each start a game and go silent, and after they have been let go.

Starts the real app (``python app.py``) on loopback, warms it up, and reads its RSS
(``/proc/PID/status``) idle; then ``--sessions`` requests (2,000 by default), each from a new
session hash and without the page's heartbeat (Gradio's queue protocol, as a script would
send it: ``/new_game`` of tic-tac-toe against random), ``--concurrency`` at a time; then RSS
right after the burst and every 30 s until ``--wait`` seconds (300 by default: the target is
RSS back within 10% of idle five minutes after the burst). ``--idle`` sets the app's
``ARENA_SESSION_IDLE`` (its default when not given); ``--malloc`` runs it with
``PYTHONMALLOC=malloc``; ``--app-root`` runs another checkout's
app, to measure a "before". Idle is read after a warm-up burst of ``2 x --concurrency``
sessions and ``--settle`` seconds (every import, cache and worker thread made, the warm-up's
sessions ended). Also prints how many of the burst's games were stored (as
abandoned) by the end.

    .venv/bin/python -m benchmarks.session_memory                # the real 5-minute figure
    .venv/bin/python -m benchmarks.session_memory --sessions 300 --wait 40 --idle 10 \
        --settle 20  # quick
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

from benchmarks.load import Api, start_app

ROOT = Path(__file__).resolve().parents[1]
PLAYER = "memorybench000001"


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


async def burst(api: Api, sessions: int, concurrency: int) -> tuple[int, float]:
    """``sessions`` new games, each from a new session hash; (failures, seconds)."""
    gate = asyncio.Semaphore(concurrency)
    failed = 0
    limits = httpx.Limits(max_connections=concurrency * 2)

    async def one(http: httpx.AsyncClient) -> None:
        nonlocal failed
        async with gate:
            try:
                await api.call(http, uuid.uuid4().hex, "new_game", "tic_tac_toe", "random",
                               "first", PLAYER, False, "")
            except (httpx.HTTPError, RuntimeError):
                failed += 1

    started = time.monotonic()
    async with httpx.AsyncClient(timeout=120, limits=limits) as http:
        await asyncio.gather(*(one(http) for _ in range(sessions)))
    return failed, time.monotonic() - started


def stored(data_dir: Path) -> int:
    path = data_dir / "arena.sqlite3"
    if not path.exists():
        return 0
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return int(db.execute("SELECT count(*) FROM matches").fetchone()[0])


def after_burst(app: Any, api: Api, args: argparse.Namespace, data_dir: Path, idle: float,
                round_: int) -> float:
    """One burst and the readings after it; the last RSS read."""
    failed, seconds = asyncio.run(burst(api, args.sessions, args.concurrency))
    after = rss_mb(app.proc.pid)
    print(f"burst {round_}: {args.sessions} sessions in {seconds:.0f} s ({failed} failed); "
          f"RSS {after:.0f} MB (+{after - idle:.0f} MB, "
          f"{(after - idle) / max(1, args.sessions):.2f} MB a session)")
    end = time.monotonic() + args.wait
    while True:
        left = end - time.monotonic()
        time.sleep(max(0.0, min(30.0, left)))
        now = rss_mb(app.proc.pid)
        waited = args.wait - max(0.0, end - time.monotonic())
        print(f"  {waited:5.0f} s after: RSS {now:.0f} MB; games stored {stored(data_dir)}")
        if time.monotonic() >= end:
            return now


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--wait", type=float, default=300.0,
                        help="seconds after the burst to the last reading (default 300)")
    parser.add_argument("--idle", type=float, default=None,
                        help="the app's ARENA_SESSION_IDLE (default: the app's own)")
    parser.add_argument("--settle", type=float, default=150.0,
                        help="seconds after the warm-up before idle is read (default 150: "
                             "past the app's default session limit of 120 s)")
    parser.add_argument("--bursts", type=int, default=1,
                        help="bursts one after another, each followed by --wait (does "
                             "memory grow with every burst, or is it reused?)")
    parser.add_argument("--malloc", action="store_true",
                        help="run the app with PYTHONMALLOC=malloc (the C allocator: freed "
                             "memory goes back to the system; Python's keeps its arenas)")
    parser.add_argument("--app-root", type=Path, default=ROOT)
    args = parser.parse_args()
    env = {"ARENA_SESSION_IDLE": str(args.idle)} if args.idle is not None else {}
    if args.malloc:
        env["PYTHONMALLOC"] = "malloc"
    data_dir = Path(tempfile.mkdtemp(prefix="arena-memory-"))
    app = start_app(args.app_root.resolve(), data_dir, env=env)
    try:
        api = Api(app.url)
        # warm-up: every import, cache and worker thread a burst uses made, then let go
        asyncio.run(burst(api, 2 * args.concurrency, args.concurrency))
        time.sleep(args.settle)
        idle = rss_mb(app.proc.pid)
        print(f"idle: {idle:.0f} MB")
        for round_ in range(1, args.bursts + 1):
            now = after_burst(app, api, args, data_dir, idle, round_)
        within = (now - idle) / idle
        verdict = "met" if within <= 0.10 else "NOT met"
        print(f"target (RSS within 10% of idle {args.wait:.0f} s after the burst): {verdict} "
              f"({now:.0f} MB vs idle {idle:.0f} MB: {within:+.1%})")
    finally:
        app.stop()


if __name__ == "__main__":
    main()
