"""What every tab shares: the store (opened on first use, not at import) and the index of
open games by browser session (to record a closed tab's game as abandoned)."""

from __future__ import annotations

import functools

from sessions.store import Store
from sessions.web.play import OpenSessions

OPEN = OpenSessions()  # weak index: browser session id -> its game, to record closed tabs


@functools.cache
def store() -> Store:
    return Store()  # $ARENA_DATA_DIR/arena.sqlite3, opened on first use, not at import
