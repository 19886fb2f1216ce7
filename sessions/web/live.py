"""Games being played now, by id, for spectators: what a live game offers and where to find it.

A :class:`LiveGame` is what a spectator can follow: a person's game on the Play tab
(:class:`~sessions.web.play.PlaySession`) or agents playing each other on the Watch tab
(:class:`~sessions.web.watch.WatchSession`). :data:`LIVE` finds one by its record id (the
``?watch=<id>`` of a spectator link). It holds games weakly, like
:class:`~sessions.web.play.OpenSessions`: the page that started a game keeps it alive, and a
game nobody holds any more drops out by itself (its link then shows the stored replay).
Nothing here can change a game: spectators only read.
"""

from __future__ import annotations

import re
import threading
import weakref
from typing import Protocol

from games.registry import GameSpec
from sessions.match import Match
from sessions.record import MatchRecord
from sessions.seats import AgentSeats

GAME_ID = re.compile(r"[0-9a-f]{32}")
"""What a game id (a record id) looks like; anything else in a link is refused unread."""


class LiveGame(Protocol):
    """A game a spectator can follow (and a thinking panel can describe)."""

    spec: GameSpec
    match: Match
    agents: AgentSeats

    @property
    def id(self) -> str: ...

    @property
    def record(self) -> MatchRecord: ...

    @property
    def human(self) -> int | None:
        """The person's seat; None when agents hold every seat."""
        ...

    @property
    def over(self) -> bool: ...

    @property
    def thinking(self) -> bool:
        """Agents are working on a move."""
        ...

    def seat_name(self, seat: int) -> str:
        """The seat's name as its own page shows it (``You`` for the person)."""
        ...


class LiveGames:
    """Live games by id, held weakly (thread-safe)."""

    def __init__(self) -> None:
        self._games: weakref.WeakValueDictionary[str, LiveGame] = weakref.WeakValueDictionary()
        self._lock = threading.Lock()

    def add(self, game: LiveGame) -> str:
        """List ``game`` for spectators; its id (the ``?watch=`` of its link)."""
        with self._lock:
            self._games[game.id] = game
        return game.id

    def get(self, game_id: str) -> LiveGame | None:
        """The live game with this id, or None (unknown, finished and let go, or not an id)."""
        if not GAME_ID.fullmatch(game_id or ""):
            return None
        with self._lock:
            return self._games.get(game_id)

    def running(self) -> list[LiveGame]:
        """The listed games that are not over yet."""
        with self._lock:
            games = list(self._games.values())
        return [game for game in games if not game.over]

    def __len__(self) -> int:
        return len(self._games)


LIVE = LiveGames()
"""The process's live games (each app replica has its own: see the README on replicas)."""


def link(base_url: str, game_id: str) -> str:
    """The spectator link of ``game_id`` on the page at ``base_url`` (relative to the page
    when ``base_url`` is empty)."""
    base = base_url.split("?", 1)[0].rstrip("/")
    return f"{base}/?watch={game_id}" if base else f"?watch={game_id}"
