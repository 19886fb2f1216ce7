"""The agent interface: given a seat's view, return a decision.

Every seat — random, MCTS, an LLM, the person in the browser — answers through the same
types, and every answer goes through the legal-action adapter in ``games.actions``.
Randomness and API clients are passed in when an agent is built, never global.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import pyspiel

from games.actions import LegalMove, Proposal
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


@dataclass
class Decision:
    """An agent's answer: the proposal, plus what it cost.

    ``proposal`` is None when the agent produced nothing usable; ``failure`` then says why
    (for example ``api_error``, ``timeout`` or ``truncated``) and ``meta["failure_detail"]``
    may say it in a sentence (sent back to the agent when it is asked again). ``raw`` is the
    agent's own words (an LLM's answer text) and is recorded as given; ``meta`` is recorded
    with the move or the rejected attempt (an LLM's tokens, latency, cost and calls).
    """

    proposal: Proposal | None
    raw: str = ""
    reasoning: str = ""
    seconds: float = 0.0
    failure: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)


class Agent(Protocol):
    """One seat's decision maker."""

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        """Decide a move. ``feedback`` is the adapter's message about a rejected answer."""
        ...
