"""Every input is played or answered, and the page shows the answers in the order they happen.

Gradio runs a page's events concurrently, each in a worker thread, and sends each result when
it is ready; two quick clicks, or a click while the agents' reply is on its way, used to race:
the second input was refused as "not your turn" a moment before the reply came, or its answer
was overwritten by a screen computed earlier and sent later. So the Play tab's inputs go
through :func:`respond`, which gives each browser tab one turn at a time:

- An input waits for the tab's lock, is played (or refused with a notice) and shown at once,
  and the agents' reply is run inside the same turn for up to ``hold`` seconds: a second
  input waits for that reply (and is played only if it was made on the position it meets:
  the move number the page showed, see ``PlaySession``).
- Agents that take longer (MCTS for seconds, a language model) are left thinking: the turn
  shows "… is thinking" and lets go of the lock, so an input in the meantime is answered at
  once ("Wait: … is thinking"), and the Stop button works. When the reply lands, that notice
  becomes past tense (see ``PlaySession.advance``).
- Every screen is computed *and handed to Gradio* while the lock is held: a generator that
  yields under the lock is resumed (and lets go) only after Gradio has queued the message, so
  screens reach the browser in the order they were computed.
- A turn whose game was replaced (a new game in the same tab) stops sending screens.
- The browser, though, applies each event's screens in its own queue: a slow board image of
  one event can hold back that event's next screen until after a later event's screen was
  drawn, which it then overwrites (a stale click's "Not played" notice vanished under the
  notice of the move before it). So screens are numbered (``PlaySession.screens_sent``), the
  page sends back the number of the last one it drew after each input's event, and
  :func:`catch_up` sends the current screen again when that is not the last one sent.

Nothing here imports Gradio.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from typing import Any

from sessions.web.play import PlaySession, Screen

HOLD = 0.5
"""Seconds an input's turn waits for the agents before it shows them thinking (and lets other
inputs in)."""
WAIT = 10.0
"""Seconds an input waits for the tab's turn before it goes ahead anyway (a turn never held
that long unless Gradio stopped resuming it: a closed connection)."""
_log = logging.getLogger(__name__)


class Turns:
    """One lock per browser tab (by Gradio's session hash), made on first use."""

    def __init__(self) -> None:
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def lock(self, browser: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(browser, threading.Lock())

    def forget(self, browser: str) -> None:
        """The tab closed."""
        with self._guard:
            self._locks.pop(browser, None)

    def __len__(self) -> int:
        return len(self._locks)


def respond(session: PlaySession, act: Callable[[PlaySession], Any], lock: threading.Lock, *,
            current: Callable[[], bool] = lambda: True, hold: float = HOLD,
            wait: float = WAIT) -> Iterator[Screen]:
    """Play one input (``act``) and the agents' reply; yields the screens to show, each while
    holding ``lock`` (see the module docstring). ``current`` says whether ``session`` is still
    the tab's game (a replaced game shows nothing more)."""
    held = _take(lock, wait)
    try:
        moves = len(session.record.moves)
        act(session)
        drawn: int | None = None  # the move count of the last board image sent
        if len(session.record.moves) > moves and session.agents.to_move() and current():
            drawn = len(session.record.moves)
            yield _numbered(session, session.screen())  # the person's move at once
        for _ in session.advance(poll=hold):
            if not held:
                held = _take(lock, wait)
            if not current():
                return
            moves = len(session.record.moves)
            yield _numbered(session, session.screen(image=moves != drawn))
            drawn = moves
            lock.release()
            held = False
        if not held:
            held = _take(lock, wait)
        if current():
            yield _numbered(session, session.screen())
    finally:
        if held:
            lock.release()


def catch_up(session: PlaySession, lock: threading.Lock, shown: int | None, *,
             wait: float = WAIT) -> Iterator[Screen | None]:
    """Yields once, under ``lock``: the current screen when the page's last drawn screen
    (``shown``, its number) is not the last one sent (an earlier event's screen was drawn
    over a later one), else None (the page is up to date)."""
    held = _take(lock, wait)
    try:
        if shown == session.screens_sent:
            yield None
        else:
            yield _numbered(session, session.screen())
    finally:
        if held:
            lock.release()


def _numbered(session: PlaySession, screen: Screen) -> Screen:
    session.screens_sent += 1
    return screen


def _take(lock: threading.Lock, wait: float) -> bool:
    if lock.acquire(timeout=wait):
        return True
    _log.warning("an input waited %.0f s for the tab's turn and goes ahead without it", wait)
    return False
