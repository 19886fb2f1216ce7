"""Classic baselines: uniform random and tit-for-tat."""

from __future__ import annotations

import time

import numpy as np

from agents.base import Decision, SeatView
from games.actions import ActionId


class RandomAgent:
    """Picks a legal move uniformly at random with its own seeded generator."""

    def __init__(self, rng: np.random.Generator) -> None:
        self._rng = rng

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        start = time.perf_counter()
        move = view.legal[int(self._rng.integers(len(view.legal)))]
        return Decision(ActionId(action=move.action), raw=move.label,
                        seconds=time.perf_counter() - start)


class TitForTatAgent:
    """Iterated prisoner's dilemma: cooperate first, then repeat the opponent's last choice."""

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        start = time.perf_counter()
        theirs = [move.label for move in view.history if move.seat not in (view.seat, -1)]
        choice = theirs[-1] if theirs else "cooperate"
        move = next(m for m in view.legal if m.label == choice)
        reason = f"opponent's last choice was {choice}" if theirs else "first round: cooperate"
        return Decision(ActionId(action=move.action), raw=move.label, reasoning=reason,
                        seconds=time.perf_counter() - start)
