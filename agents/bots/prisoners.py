"""Iterated prisoner's dilemma: never behind, cooperative when it can afford to be.

A match is won by the higher total, and the game may end after any round, so the bot never
lets the opponent get ahead: it cooperates only while its lead is at least what one round of
being cheated costs (defect 10 against cooperate 0), and defects otherwise. Against a
reciprocator such as tit-for-tat that gives alternating rounds worth 5 a round to both, as
much as steady cooperation, with the bot never behind; against an opponent that forgives
(cooperates after being cheated), steady cooperation once the bot is ahead.

It opens with two defections, a probe: an opponent that cooperated through both cooperates
whatever happens and is cheated for as long as it keeps cooperating. Against one that always
defects, the bot always defects too (a draw).
"""

from __future__ import annotations

import time

import numpy as np
import pyspiel

from agents.base import Decision, SeatView
from games.actions import ActionId
from games.registry import GameSpec

COOPERATE, DEFECT = 0, 1
PROBE_ROUNDS = 2


def cheated_cost(state: pyspiel.State, seat: int) -> float:
    """How much one round of cooperating against a defector changes the gap between the
    two totals (the game's own payoffs: 10 with OpenSpiel's)."""
    probe = state.clone()
    actions = [DEFECT] * probe.num_players()
    actions[seat] = COOPERATE
    probe.apply_actions(actions)
    rewards = probe.rewards()
    return float(max(rewards) - rewards[seat])


def rounds(state: pyspiel.State, seat: int) -> list[tuple[int, int]]:
    """(my move, the opponent's move) of every round played."""
    mine = [h.action for h in state.full_history() if h.player == seat]
    theirs = [h.action for h in state.full_history() if h.player == 1 - seat]
    return list(zip(mine, theirs, strict=False))


class PrisonersBot:
    """Defects unless a lead covers one round of being cheated; exploits unconditional
    cooperators."""

    def __init__(self, game: GameSpec, params: dict[str, object],
                 rng: np.random.Generator) -> None:
        self._rng = rng

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        start = time.perf_counter()
        state = view.state
        played = rounds(state, view.seat)
        returns = state.returns()
        lead = returns[view.seat] - returns[1 - view.seat]
        choice, reason = self.choose(played, lead, cheated_cost(state, view.seat))
        move = next(m for m in view.legal if m.action == choice)
        return Decision(ActionId(action=move.action), raw=move.label, reasoning=reason,
                        seconds=time.perf_counter() - start)

    @staticmethod
    def choose(played: list[tuple[int, int]], lead: float, cost: float) -> tuple[int, str]:
        """My move given the rounds so far, my lead and what being cheated costs."""
        if len(played) < PROBE_ROUNDS:
            return DEFECT, "opening probe: does the opponent cooperate whatever I do?"
        if all(theirs == COOPERATE for _, theirs in played):
            return DEFECT, "the opponent cooperates whatever I do"
        if lead >= cost:
            return COOPERATE, f"ahead by {lead:g}: one round of being cheated cannot put me behind"
        return DEFECT, f"ahead by {lead:g} only: cooperating could put me behind"
