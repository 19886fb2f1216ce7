"""Breakthrough: the board with files a.. and ranks 1.., rank 1 at the bottom.

Clicks: a pawn (its square, e.g. ``a7``), then the square it moves to; the targets are the
square names of ``LegalMove.path``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pyspiel
from PIL import Image

from renderers import drawing as d
from renderers.common import seat_line, turn_line
from renderers.contract import Renderer

SIDES = ("Black", "White")
"""Each seat's side as the image draws it (the page says "You ({side})")."""
NAMES = ["Black (player 0, moving down)", "White (player 1, moving up)"]
SHORT = ["Black", "White"]
CELL = 60
MIN_WIDTH = 460
LIGHT, DARK = d.BOARD, d.BOARD_DARK
PAWN_FILL = {"b": (40, 40, 46), "w": (252, 252, 248)}
PAWN_EDGE = {"b": (10, 10, 12), "w": (70, 70, 80)}


WATCHER = True
"""``text`` and ``image`` take ``watcher=True``: the seat's view for a spectator (the side
named, never "you")."""
SEEN = ["Black", "White"]
"""The seats as a watcher's text view names them (as the image draws them)."""


def board_rows(state: pyspiel.State) -> list[tuple[int, str]]:
    """(rank, cells) from the top rank down; cells hold 'b', 'w' or '.'."""
    rows = []
    for line in str(state).splitlines():
        digits = len(line) - len(line.lstrip("0123456789"))
        if digits:
            rows.append((int(line[:digits]), line[digits:]))
    return rows


def text(state: pyspiel.State, seat: int, *, watcher: bool = False) -> str:
    rows = board_rows(state)
    files = "".join(chr(ord("a") + c) for c in range(len(rows[0][1])))
    lines = [f"{rank:>2} " + " ".join(cell.upper() if cell != "." else "." for cell in cells)
             for rank, cells in rows]
    lines.append("   " + " ".join(files))
    legend = "B = Black pawn, W = White pawn, . = empty"
    names = SEEN if watcher else NAMES
    return "\n".join([seat_line(seat, names, watcher=watcher), *lines, legend,
                      turn_line(state, seat, names, watcher=watcher)])


def square(column: int, rank: int) -> str:
    return f"{chr(ord('a') + column)}{rank}"


def layout(state: pyspiel.State) -> tuple[d.Grid, int]:
    """The board grid and the image width."""
    rows = board_rows(state)
    columns = len(rows[0][1])
    width = max(MIN_WIDTH, columns * CELL + 80)
    left = (width - columns * CELL) // 2
    return d.Grid(columns, len(rows), CELL, left=left, top=d.HEADER_HEIGHT + 22), width


def image(state: pyspiel.State, seat: int, *, selection: Sequence[str] = (),
          targets: Sequence[str] = (), last: Sequence[str] | None = None,
          watcher: bool = False) -> Image.Image:
    rows = board_rows(state)
    grid, width = layout(state)
    canvas = d.Canvas(width, grid.bottom + 40)
    status = d.board_status(state, seat, SHORT, watcher=watcher)
    direction = "down" if seat == 0 else "up"
    who = f"{SHORT[seat]}'s view" if watcher else f"You are {SHORT[seat]}"
    d.header(canvas, f"{who} (moving {direction})", status,
             colour=PAWN_FILL["bw"[seat]])
    chosen, ahead, marked = set(selection), set(targets), set(last or ())
    canvas.rect((grid.left - 3, grid.top - 3, grid.right + 3, grid.bottom + 3), outline=d.INK,
                width=2)
    for c, r in grid.cells():
        rank, cells = rows[r]
        name = square(c, rank)
        fill = LIGHT if (c + r) % 2 == 0 else DARK
        if name in marked:
            fill = (250, 196, 120)
        if name in chosen:
            fill = d.SELECTED
        canvas.rect(grid.box(c, r), fill=fill)
        piece = cells[c]
        if piece != ".":
            _pawn(canvas, grid.box(c, r), piece)
        if name in ahead:
            centre = grid.centre(c, r)
            if piece == ".":
                canvas.circle(centre, 9, fill=d.TARGET)
            else:
                canvas.circle(centre, CELL * 0.44, outline=d.TARGET, width=4)
        if name in marked:
            canvas.rect(grid.box(c, r), outline=d.LAST, width=3)
    for c in range(grid.columns):
        canvas.text((grid.centre(c, 0)[0], grid.bottom + 18), chr(ord("a") + c), size=16,
                    bold=True, fill=d.MUTED, anchor="mm")
    for r, (rank, _) in enumerate(rows):
        canvas.text((grid.left - 20, grid.centre(0, r)[1]), str(rank), size=16, bold=True,
                    fill=d.MUTED, anchor="mm")
    return canvas.finish()


def _pawn(canvas: d.Canvas, box: d.Box, piece: str) -> None:
    x0, y0, x1, y1 = box
    cx, size = (x0 + x1) / 2, x1 - x0
    fill, edge = PAWN_FILL[piece], PAWN_EDGE[piece]
    base = y1 - size * 0.18
    canvas.polygon([(cx - size * 0.28, base), (cx + size * 0.28, base),
                    (cx + size * 0.12, y0 + size * 0.42), (cx - size * 0.12, y0 + size * 0.42)],
                   fill=edge)
    canvas.polygon([(cx - size * 0.25, base - 2), (cx + size * 0.25, base - 2),
                    (cx + size * 0.10, y0 + size * 0.44), (cx - size * 0.10, y0 + size * 0.44)],
                   fill=fill)
    canvas.circle((cx, y0 + size * 0.33), size * 0.15, fill=fill, outline=edge, width=1.5)
    canvas.rect((cx - size * 0.3, base - 4, cx + size * 0.3, base + 2), fill=fill, outline=edge,
                width=1.5, radius=2)


def centres(state: pyspiel.State, seat: int) -> dict[str, tuple[float, float]]:
    """Every click target (a square) with the pixel at its centre."""
    grid, _ = layout(state)
    rows = board_rows(state)
    return {square(c, rows[r][0]): grid.centre(c, r) for c, r in grid.cells()}


def hit_test(state: pyspiel.State, seat: int, x: float, y: float, *,
             selection: Sequence[str] = ()) -> str | None:
    grid, _ = layout(state)
    cell = grid.at(x, y)
    if cell is None:
        return None
    column, row = cell
    return square(column, board_rows(state)[row][0])


RENDERER = Renderer(
    page="board", text=text, image=image, hit_test=hit_test, watcher=WATCHER,
    sides=tuple(SIDES), centres=centres,
)
