"""Tic-tac-toe: the 3×3 grid with C/R coordinates."""

from __future__ import annotations

import pyspiel

from renderers.common import seat_line, turn_line

NAMES = ["X (player 0)", "O (player 1)"]


def board_rows(state: pyspiel.State) -> list[str]:
    """The grid as rows of 'x', 'o' and '.', top row first."""
    return [row for row in str(state).splitlines() if row]


def text(state: pyspiel.State, seat: int) -> str:
    rows = board_rows(state)
    header = "    " + " ".join(f"C{c + 1}" for c in range(len(rows[0])))
    lines = [header] + [
        f"R{r + 1}  " + " ".join(f" {cell.upper()}" for cell in row) for r, row in enumerate(rows)
    ]
    return "\n".join([seat_line(seat, NAMES), *lines, turn_line(state, seat, NAMES)])
