"""What one seat knows when it must act: the type every decider takes and every presenter may
read (agents build prompts from it; GAMA-Bench's renderers build GAMA's prompt from it).

It lives with the rules so that agents and renderers both import it downward.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyspiel

from games.actions import LegalMove
from games.registry import GameSpec


@dataclass(frozen=True)
class PublicMove:
    """A move the seat saw: who made it (-1 for chance) and its label."""

    seat: int
    label: str


@dataclass(frozen=True)
class SeatView:
    """What one seat knows when it must act.

    ``state`` is a private copy for search agents. On imperfect-information games an agent
    may use only what the seat may know (its information state and the legal actions); the
    IS-MCTS agent is tested for exactly that.
    """

    game: GameSpec
    seat: int
    text: str
    legal: tuple[LegalMove, ...]
    history: tuple[PublicMove, ...]
    state: pyspiel.State

    def label(self, action: int) -> str:
        for move in self.legal:
            if move.action == action:
                return move.label
        raise KeyError(action)
