"""What every tab shares: the store (opened on first use, not at import), the index of open
games by browser session (to record a closed tab's game as abandoned) and each tab's turn
(its inputs one at a time)."""

from __future__ import annotations

import functools

from sessions.store import Store
from sessions.web.play import OpenSessions
from sessions.web.turns import Turns

OPEN = OpenSessions()  # weak index: browser session id -> its game, to record closed tabs
TURNS = Turns()  # one input at a time per browser tab (sessions.web.turns)


@functools.cache
def store() -> Store:
    return Store()  # $ARENA_DATA_DIR/arena.sqlite3, opened on first use, not at import
