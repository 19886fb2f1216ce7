"""Connect Four: the grid with column names C1..C7."""

from __future__ import annotations

import pyspiel

from renderers.common import seat_line, turn_line

NAMES = ["x (player 0)", "o (player 1)"]


def board_rows(state: pyspiel.State) -> list[str]:
    """The grid as rows of 'x', 'o' and '.', top row first."""
    return [row for row in str(state).splitlines() if row]


def text(state: pyspiel.State, seat: int) -> str:
    rows = board_rows(state)
    header = " ".join(f"C{c + 1}" for c in range(len(rows[0])))
    lines = [header] + ["  ".join(row) for row in rows]
    return "\n".join([seat_line(seat, NAMES), *lines, turn_line(state, seat, NAMES)])
