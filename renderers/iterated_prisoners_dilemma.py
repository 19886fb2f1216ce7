"""Iterated prisoner's dilemma: every past round's choices and the running totals."""

from __future__ import annotations

import pyspiel

from renderers.common import seat_line, turn_line

NAMES = ["player 0", "player 1"]
CHOICES = ["cooperate", "defect"]
PAYOFF = {(0, 0): (5, 5), (0, 1): (0, 10), (1, 0): (10, 0), (1, 1): (1, 1)}


def rounds(state: pyspiel.State) -> list[tuple[int, int]]:
    """The (player 0, player 1) choices of each finished round."""
    history = state.history()
    return [(history[i], history[i + 1]) for i in range(0, len(history) - 1, 3)]


def text(state: pyspiel.State, seat: int) -> str:
    other = 1 - seat
    played = rounds(state)
    mine = sum(PAYOFF[r][seat] for r in played)
    theirs = sum(PAYOFF[r][other] for r in played)
    lines = [seat_line(seat, NAMES), f"Rounds played: {len(played)}"]
    for i, choice in enumerate(played):
        lines.append(
            f"  round {i + 1}: you {CHOICES[choice[seat]]}, opponent {CHOICES[choice[other]]}"
            f" (you {PAYOFF[choice][seat]}, opponent {PAYOFF[choice][other]})"
        )
    lines.append(f"Totals: you {mine}, opponent {theirs}")
    lines.append(turn_line(state, seat, NAMES))
    return "\n".join(lines)
