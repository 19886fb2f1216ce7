"""How long a browser session lives on the server, and what is let go when it ends.

Gradio keeps a ``SessionState`` per session hash (a copy of every component's config, about
0.6 MB with this page, plus the tab's ``gr.State`` values: its game, its keys) and drops one
only when 10,000 newer ones push it out, without the delete callbacks that would store its
game. A client that never opens the page's heartbeat (a script speaking the queue protocol)
therefore left its game unstored and its memory held for good.

Here a session's *sign of life* is its open heartbeat connection (the page, gradio_client),
an event of its own still running, or else the last time it sent an event or its heartbeat
closed. :class:`Reaper` looks every ``ARENA_SESSION_SWEEP`` seconds (default 10) for
sessions without a sign of life for ``ARENA_SESSION_IDLE`` seconds (default 120) and ends
them as a closed tab ends: the page's own clean-up (its unfinished game stored as
abandoned, its watched game stopped, its keys forgotten), every ``gr.State``'s delete
callback, then Gradio's session entry itself. A person who keeps the page open, however long
they think, keeps their heartbeat and is never reaped.

:class:`Heartbeats` is the ASGI middleware that counts open heartbeat connections; both are
installed with :func:`app_kwargs` (``Blocks.launch(app_kwargs=...)``), which also makes
Gradio copy a component's config for a session only when the session first needs it
(:func:`lighter_sessions`: 0.06 instead of 0.65 MB a session).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import ctypes
import ctypes.util
import datetime
import logging
import os
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio
from starlette.middleware import Middleware

IDLE = float(os.environ.get("ARENA_SESSION_IDLE", "120"))
"""Seconds without a sign of life after which a browser session is ended."""
SWEEP = float(os.environ.get("ARENA_SESSION_SWEEP", "10"))
"""Seconds between two looks for sessions to end."""
HEARTBEAT = "/heartbeat/"
log = logging.getLogger("arena.sessions")


class Lifelines:
    """Open heartbeat connections by session hash, and when each last closed (thread-safe)."""

    def __init__(self) -> None:
        self._open: Counter[str] = Counter()
        self._closed: dict[str, float] = {}
        self._lock = threading.Lock()

    def opened(self, session: str) -> None:
        with self._lock:
            self._open[session] += 1

    def closed(self, session: str) -> None:
        with self._lock:
            self._open[session] -= 1
            if self._open[session] <= 0:
                del self._open[session]
                self._closed[session] = time.time()

    def beating(self, session: str) -> bool:
        with self._lock:
            return self._open.get(session, 0) > 0

    def closed_at(self, session: str) -> float:
        with self._lock:
            return self._closed.get(session, 0.0)

    def forget(self, session: str) -> None:
        with self._lock:
            self._closed.pop(session, None)


LIFELINES = Lifelines()


class Heartbeats:
    """ASGI middleware: notes each ``/heartbeat/<session hash>`` connection while it is open."""

    def __init__(self, app: Any, lifelines: Lifelines = LIFELINES) -> None:
        self.app = app
        self.lifelines = lifelines

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        path = scope.get("path", "") if scope.get("type") == "http" else ""
        if HEARTBEAT not in path:
            await self.app(scope, receive, send)
            return
        session = path.rsplit("/", 1)[-1][:128]
        self.lifelines.opened(session)
        try:
            await self.app(scope, receive, send)
        finally:
            self.lifelines.closed(session)


class Reaper:
    """Ends the browser sessions of a Gradio app that show no sign of life."""

    def __init__(self, app: Any, cleanup: Callable[[str, str], None], *, idle: float = IDLE,
                 lifelines: Lifelines = LIFELINES) -> None:
        self.app = app
        self.cleanup = cleanup
        """The page's own clean-up for a session hash, with the reason (app.py's)."""
        self.idle = idle
        self.lifelines = lifelines
        self.ended = 0
        """Sessions ended so far."""

    def sweep(self) -> int:
        """End every session without a sign of life for :attr:`idle` seconds; how many."""
        holder = self.app.state_holder
        now = time.time()
        ended = 0
        for session in list(holder.session_data):
            if self._alive(holder, session, now):
                continue
            self._end(holder, session)
            ended += 1
        if ended:
            self.ended += ended
            _give_back_memory()
        return ended

    def _alive(self, holder: Any, session: str, now: float) -> bool:
        if self.lifelines.beating(session) or self._running(session):
            return True
        used = holder.time_last_used.get(session)
        last = max(used.timestamp() if isinstance(used, datetime.datetime) else 0.0,
                   self.lifelines.closed_at(session))
        return now - last < self.idle

    def _running(self, session: str) -> bool:
        queue = getattr(self.app.get_blocks(), "_queue", None)
        pending = getattr(queue, "pending_event_ids_session", {}) or {}
        return bool(pending.get(session))

    def _end(self, holder: Any, session: str) -> None:
        reason = f"no sign of life from the page for {self.idle:g} s"
        try:
            self.cleanup(session, reason)
            holder.delete_state(session)  # every gr.State's delete callback
        except Exception:  # noqa: BLE001 - one session's clean-up must not stop the sweep
            log.exception("ending the idle session %s failed", session[:12])
        with holder.lock:
            holder.session_data.pop(session, None)
            holder.time_last_used.pop(session, None)
        queue = getattr(self.app.get_blocks(), "_queue", None)
        for name in ("pending_messages_per_session", "pending_event_ids_session"):
            table = getattr(queue, name, None)  # Gradio's queue keeps these per session too
            if isinstance(table, dict):
                table.pop(session, None)
        self.lifelines.forget(session)


class _Configs(dict[int, Any]):
    """A session's copy of one component's config, made when the session first needs it
    (Gradio makes one of every component for every session: ~0.6 MB with this page)."""

    def __init__(self, state: Any, ids: set[int]) -> None:
        super().__init__()
        self._state, self._ids = state, ids

    def __missing__(self, key: int) -> Any:
        blocks = self._state.blocks_config.blocks
        if key not in self._ids or key not in blocks:
            raise KeyError(key)
        value = self._state.blocks_config.config_for_block(key, [], blocks[key])
        self[key] = value
        return value

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or key in self._ids

    def _all(self) -> None:
        for key in self._ids:
            if not dict.__contains__(self, key) and key in self._state.blocks_config.blocks:
                self[key]  # noqa: B018 - made by __missing__

    def items(self) -> Any:
        self._all()
        return super().items()

    def values(self) -> Any:
        self._all()
        return super().values()


def lighter_sessions() -> bool:
    """Make Gradio's per-session config copies on first use instead of all at once (for
    the Gradio version this was written against; others are left as they are)."""
    import gradio
    from gradio import state_holder

    if gradio.__version__ != "6.31.0" or getattr(state_holder.SessionState, "_lazy", False):
        return False

    def __init__(self: Any, blocks: Any) -> None:  # noqa: N807 - Gradio's own, lighter
        self.blocks_config = copy.copy(blocks.default_config)
        self.config_values = _Configs(self, set(blocks.blocks))
        self.state_data = {}
        self._state_ttl = {}
        self.is_closed = False
        self.STATE_TTL_WHEN_CLOSED = 1 if os.getenv("GRADIO_IS_E2E_TEST", None) else 3600

    state_holder.SessionState.__init__ = __init__  # type: ignore[method-assign]
    state_holder.SessionState._lazy = True  # type: ignore[attr-defined]
    return True


def _give_back_memory() -> None:
    """Hand freed heap pages back to the system (glibc keeps them otherwise, and the
    process's resident memory would stay at its peak)."""
    name = ctypes.util.find_library("c")
    if not name:
        return
    trim = getattr(ctypes.CDLL(name), "malloc_trim", None)
    if trim is not None:
        trim(0)


def app_kwargs(cleanup: Callable[[str, str], None], *, idle: float = IDLE,
               every: float = SWEEP) -> dict[str, Any]:
    """``Blocks.launch(app_kwargs=...)``: the heartbeat middleware, and a lifespan that runs
    a :class:`Reaper` every ``every`` seconds while the server runs."""

    lighter_sessions()

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        reaper = Reaper(app, cleanup, idle=idle)
        task = asyncio.create_task(_sweeping(reaper, every))
        try:
            yield
        finally:
            task.cancel()

    return {"middleware": [Middleware(Heartbeats)], "lifespan": lifespan}


async def _sweeping(reaper: Reaper, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        try:
            ended = await anyio.to_thread.run_sync(reaper.sweep)
        except Exception:  # noqa: BLE001 - keep sweeping
            log.exception("the session sweep failed")
            continue
        if ended:
            log.info("ended %d browser session(s) without a sign of life", ended)
