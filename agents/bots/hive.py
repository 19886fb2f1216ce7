"""Hive: its move and the opponent's best reply, judged by the queens' liberties.

A queen with all six neighbouring hexes occupied loses, so the evaluation is what a Hive
player watches: how many neighbours of the opponent's queen are occupied against how many
of mine (mine weigh a little more: a liberty kept is worth more than one taken), a beetle
on top of the opponent's queen (it pins it), my queen on the board (it frees my tiles to
move) and my tiles in play. Every distinct move is scored; the best few are checked
against every reply, and the move whose worst reply leaves the best position is played.
A move that surrounds the opponent's queen wins at once and is always taken.

The board is public (complete information): the bot reads the tiles from its seat's copy of
the position (OpenSpiel's move list, replayed by :mod:`games.gamebench.hive`) and proposes
an action id through the adapter.
"""

from __future__ import annotations

import time

import numpy as np
import pyspiel

from agents.base import Decision, SeatView
from games.actions import ActionId
from games.gamebench import hive as rules
from games.registry import GameSpec

WIN = 1000.0
CHECKED = 6
"""How many of the best-looking moves are checked against every reply."""


def evaluate(position: rules.Position, colour: str) -> float:
    """How good ``position`` is for ``colour`` (``w`` or ``b``)."""
    foe = "b" if colour == "w" else "w"
    mine, theirs = position.queen_neighbours(colour), position.queen_neighbours(foe)
    if theirs == 6 and mine == 6:
        return 0.0  # both queens surrounded: a draw
    if theirs == 6:
        return WIN
    if mine == 6:
        return -WIN
    score = 10.0 * (theirs or 0) - 12.0 * (mine or 0)
    if mine is not None:
        score += 4.0
    queen = position.where(f"{foe}Q")
    if queen is not None and position.top(queen) != f"{foe}Q":
        score += 6.0 if (position.top(queen) or "").startswith(colour) else -2.0
    score += 0.5 * sum(1 for tile in position.tiles() if tile[0] == colour)
    return score


def _moves(state: pyspiel.State) -> list[rules.Choice]:
    return rules.choices(state).distinct()


def _after(position: rules.Position, choice: rules.Choice) -> rules.Position:
    return position if choice.tile is None else position.after(choice.label)


def _worst_reply(state: pyspiel.State, colour: str) -> float:
    """``colour``'s evaluation after the opponent's best reply in ``state``."""
    if state.is_terminal():
        mine = state.returns()[0 if colour == "w" else 1]
        return WIN if mine > 0 else -WIN if mine < 0 else 0.0
    position = rules.choices(state).position
    return min(evaluate(_after(position, reply), colour) for reply in _moves(state))


class HiveBot:
    """Scores every move by the queens' liberties and checks the best few against every
    reply."""

    def __init__(self, game: GameSpec, params: dict[str, object],
                 rng: np.random.Generator) -> None:
        self._rng = rng

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        start = time.perf_counter()
        state = view.state
        colour = rules.COLOURS[view.seat]
        position = rules.choices(state).position
        moves = _moves(state)
        scored = sorted(((evaluate(_after(position, c), colour), self._rng.random(), c)
                         for c in moves), key=lambda item: (-item[0], item[1]))
        best, value = scored[0][2], scored[0][0]
        if value < WIN:
            best, value = self._checked([c for _, _, c in scored[:CHECKED]], state, colour)
        why = ("surrounds your queen" if value >= WIN else
               "every move loses its queen" if value <= -WIN else
               f"best position after your best reply ({value:+.0f})")
        return Decision(ActionId(action=best.action), raw=best.label, reasoning=why,
                        seconds=time.perf_counter() - start)

    def _checked(self, candidates: list[rules.Choice], state: pyspiel.State,
                 colour: str) -> tuple[rules.Choice, float]:
        best: tuple[rules.Choice, float] | None = None
        for choice in candidates:
            child = state.clone()
            child.apply_action(choice.action)
            worst = _worst_reply(child, colour)
            if best is None or worst > best[1]:
                best = (choice, worst)
        assert best is not None
        return best
