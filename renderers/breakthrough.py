"""Breakthrough: the board with files a.. and ranks 1.., rank 1 at the bottom."""

from __future__ import annotations

import pyspiel

from renderers.common import seat_line, turn_line

NAMES = ["Black (player 0, moving down)", "White (player 1, moving up)"]


def board_rows(state: pyspiel.State) -> list[tuple[int, str]]:
    """(rank, cells) from the top rank down; cells hold 'b', 'w' or '.'."""
    rows = []
    for line in str(state).splitlines():
        digits = len(line) - len(line.lstrip("0123456789"))
        if digits:
            rows.append((int(line[:digits]), line[digits:]))
    return rows


def text(state: pyspiel.State, seat: int) -> str:
    rows = board_rows(state)
    files = "".join(chr(ord("a") + c) for c in range(len(rows[0][1])))
    lines = [f"{rank:>2} " + " ".join(cell.upper() if cell != "." else "." for cell in cells)
             for rank, cells in rows]
    lines.append("   " + " ".join(files))
    legend = "B = Black pawn, W = White pawn, . = empty"
    return "\n".join([seat_line(seat, NAMES), *lines, legend, turn_line(state, seat, NAMES)])
