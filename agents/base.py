"""The agent interface: given a seat's view, return a decision.

Every seat — random, MCTS, an LLM, the person in the browser — answers through the same
types, and every answer goes through the legal-action adapter in ``games.actions``.
Randomness and API clients are passed in when an agent is built, never global.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from games.actions import Proposal
from games.seat_view import PublicMove, SeatView

__all__ = ["Agent", "Decision", "PublicMove", "SeatView"]


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
