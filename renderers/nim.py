"""Nim: the piles and how many sticks each holds."""

from __future__ import annotations

import pyspiel

from renderers.common import seat_line, turn_line

NAMES = ["player 0", "player 1"]


def piles(state: pyspiel.State) -> list[int]:
    """Sticks left in each pile (OpenSpiel's string is '(player): 1 3 5 7')."""
    return [int(n) for n in str(state).split(":", 1)[1].split()]


def text(state: pyspiel.State, seat: int) -> str:
    lines = [f"Pile {i + 1}: {n} stick{'s' if n != 1 else ''} {'|' * n}".rstrip()
             for i, n in enumerate(piles(state))]
    rule = "Whoever takes the last stick loses."
    return "\n".join([seat_line(seat, NAMES), *lines, rule, turn_line(state, seat, NAMES)])
