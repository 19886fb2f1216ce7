"""Taking games back: a person's "forget my games", their own games as JSONL, and the
retention of sessions not shared for research (``ARENA_RETENTION_DAYS``).

Forgetting deletes the sessions from the store (SQLite or PostgreSQL), so they are gone from
every later dataset, and the next scheduled push (:mod:`sessions.dataset_hub`) removes them
from the published one.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

RETENTION_ENV = "ARENA_RETENTION_DAYS"
CHECK_HOURS = 6.0
"""How often the running app applies the retention."""
_log = logging.getLogger(__name__)


def forget_player(store: Any, player_id: str) -> int:
    """Delete every stored session ``player_id`` sat in; how many were removed."""
    if not player_id.strip():
        raise ValueError("give the player id to forget")
    return int(store.forget(player_id))


def player_games(store: Any, player_id: str) -> Iterator[str]:
    """Each stored session of ``player_id`` as one JSON line (the whole replayable record,
    as ``python -m sessions export`` writes it), oldest first."""
    ids = store.sessions_of(player_id)
    texts = dict(store.texts_of(ids))
    for match_id in ids:
        if match_id in texts:
            yield json.dumps(json.loads(texts[match_id]), sort_keys=True) + "\n"


def retention_days(value: str | None = None) -> float | None:
    """``ARENA_RETENTION_DAYS`` (or ``value``) as days; None when unset."""
    text = os.environ.get(RETENTION_ENV, "") if value is None else value
    if not text.strip():
        return None
    try:
        days = float(text)
    except ValueError:
        raise ValueError(f"{RETENTION_ENV}={text!r} is not a number of days") from None
    if not days > 0:
        raise ValueError(f"{RETENTION_ENV} must be a positive number of days, not {text!r}")
    return days


def apply_retention(store: Any, days: float, *, now: float | None = None) -> int:
    """Delete the sessions not shared for research that ended more than ``days`` ago."""
    cutoff = (time.time() if now is None else now) - days * 86400
    return int(store.delete(store.expired(cutoff)))


def start_retention() -> threading.Thread | None:
    """In the running app: apply ``ARENA_RETENTION_DAYS`` now and every few hours."""
    try:
        days = retention_days()
    except ValueError as err:
        _log.warning("no retention: %s", err)
        return None
    if days is None:
        return None

    def run() -> None:
        from sessions.store import Store

        while True:
            try:
                with Store() as store:
                    removed = apply_retention(store, days)
                if removed:
                    _log.info("retention: removed %d sessions not shared for research", removed)
            except Exception as err:  # the next round tries again
                _log.warning("retention failed: %s", err)
            time.sleep(CHECK_HOURS * 3600)

    thread = threading.Thread(target=run, name="retention", daemon=True)
    thread.start()
    return thread
