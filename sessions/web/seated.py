"""What a screen of the Play tab reads of the game it shows: a protocol, so the screens (GAMA
tables in ``gama_screen``, the talk panel in ``talk``) do not import the session that shows
them (``sessions.web.play.PlaySession`` imports them)."""

from __future__ import annotations

from typing import Any, Protocol

import pyspiel

from games.registry import GameSpec
from sessions.record import MatchRecord


class SeatedMatch(Protocol):
    @property
    def state(self) -> pyspiel.State: ...

    def to_move(self) -> list[int]: ...


class Seated(Protocol):
    """A person's seat at a game: the game, the seat, the record so far, the live match."""

    @property
    def spec(self) -> GameSpec: ...

    @property
    def human(self) -> int: ...

    @property
    def record(self) -> MatchRecord: ...

    @property
    def match(self) -> SeatedMatch: ...

    @property
    def your_turn(self) -> bool: ...

    def status(self) -> str: ...

    def legal(self) -> list[Any]: ...
