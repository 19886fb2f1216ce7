"""The difficulty ladder: for every game, named levels of offline opponents, as data.

``agents/ladder.json`` lists, per game id, its levels from the weakest up: a people's name
("Beginner", "Intermediate", "Strong") and the agent spec that plays it (the spec is what
the record keeps). ``python -m benchmarks.ladder --write`` plays each level against the one
below and the top level against the trivial strategies of :mod:`agents.trivial`, and stores
what it measured beside the levels (the Leaderboard shows it).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

LEVEL_NAMES = ("Beginner", "Intermediate", "Strong", "Expert")


@dataclass(frozen=True)
class Level:
    """One rung: its people's name, the agent spec, and a line about it."""

    name: str
    spec: str
    note: str = ""


@dataclass(frozen=True)
class GameLadder:
    """A game's levels, weakest first, and what the benchmark measured."""

    game: str
    levels: tuple[Level, ...]
    measured: tuple[dict[str, Any], ...] = field(default=())
    """Rows of the last calibration: ``pairing``, ``games``, ``mean``, ``low``, ``high``,
    ``target``, ``met`` (see benchmarks.ladder)."""
    measured_at: str = ""
    games: int | None = None
    """How many games each pairing is calibrated over (None: the benchmark's default)."""
    trivial_games: int | None = None
    """How many games the top level plays each trivial strategy (None: ``games``)."""
    also_measured: tuple[dict[str, Any], ...] = field(default=())
    """Rows measured beside the targets (Pit's top level among random traders)."""

    def level_of(self, spec: str) -> Level | None:
        return next((level for level in self.levels if level.spec == spec), None)


class LadderError(ValueError):
    """A ladder file that cannot be used; the message says where."""


def parse(data: dict[str, Any], source: str = "agents/ladder.json") -> dict[str, GameLadder]:
    """The ladders of a ladder document, checked."""
    games = data.get("games")
    if not isinstance(games, dict):
        raise LadderError(f"{source}: expected a 'games' table")
    out = {}
    for game, entry in games.items():
        levels = entry.get("levels") if isinstance(entry, dict) else None
        if not isinstance(levels, list) or len(levels) < 3:
            raise LadderError(f"{source}: {game} needs at least three levels")
        rungs = []
        for i, level in enumerate(levels):
            if not isinstance(level, dict) or not level.get("name") or not level.get("spec"):
                raise LadderError(f"{source}: {game} level #{i + 1} needs a name and a spec")
            rungs.append(Level(str(level["name"]), str(level["spec"]), str(level.get("note", ""))))
        if len({r.spec for r in rungs}) != len(rungs):
            raise LadderError(f"{source}: {game} lists one spec at two levels")
        out[game] = GameLadder(game, tuple(rungs), tuple(entry.get("measured", ())),
                               str(entry.get("measured_at", "")), entry.get("games"),
                               entry.get("trivial_games"), tuple(entry.get("also_measured", ())))
    return out


@functools.cache
def ladders() -> dict[str, GameLadder]:
    """Every game's ladder, from the packaged ``agents/ladder.json``."""
    text = resources.files("agents").joinpath("ladder.json").read_text("utf-8")
    return parse(json.loads(text))


def ladder(game_id: str) -> GameLadder | None:
    """``game_id``'s ladder, or None when it has none."""
    return ladders().get(game_id)
