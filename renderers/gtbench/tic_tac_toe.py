"""Tic-tac-toe: the 3×3 grid with C/R coordinates; each cell is a click target C<col>R<row>."""

from __future__ import annotations

from collections.abc import Sequence

import pyspiel
from PIL import Image

from renderers import drawing as d
from renderers.common import seat_line, turn_line
from renderers.contract import Renderer

SIDES = ("X", "O")
"""Each seat's side as the image draws it (the page says "You ({side})")."""
NAMES = ["X (player 0)", "O (player 1)"]
MARKS = "xo"
CELL = 120
MARGIN = 36


WATCHER = True
"""``text`` and ``image`` take ``watcher=True``: the seat's view for a spectator (the side
named, never "you")."""
SEEN = ["X", "O"]
"""The seats as a watcher's text view names them (as the image draws them)."""


def board_rows(state: pyspiel.State) -> list[str]:
    """The grid as rows of 'x', 'o' and '.', top row first."""
    return [row for row in str(state).splitlines() if row]


def text(state: pyspiel.State, seat: int, *, watcher: bool = False) -> str:
    rows = board_rows(state)
    header = "    " + " ".join(f"C{c + 1}" for c in range(len(rows[0])))
    lines = [header] + [
        f"R{r + 1}  " + " ".join(f" {cell.upper()}" for cell in row) for r, row in enumerate(rows)
    ]
    names = SEEN if watcher else NAMES
    return "\n".join([seat_line(seat, names, watcher=watcher), *lines,
                      turn_line(state, seat, names, watcher=watcher)])


def cell_name(column: int, row: int) -> str:
    return f"C{column + 1}R{row + 1}"


def layout(state: pyspiel.State) -> d.Grid:
    rows = board_rows(state)
    return d.Grid(len(rows[0]), len(rows), CELL, left=MARGIN + 12, top=d.HEADER_HEIGHT + MARGIN)


def winning_line(rows: list[str]) -> list[tuple[int, int]]:
    """The cells of a completed line of three, or [] (the board is square)."""
    n = len(rows)
    lines = [[(c, r) for c in range(n)] for r in range(n)]
    lines += [[(c, r) for r in range(n)] for c in range(n)]
    lines += [[(i, i) for i in range(n)], [(n - 1 - i, i) for i in range(n)]]
    for cells in lines:
        marks = {rows[r][c] for c, r in cells}
        if len(marks) == 1 and marks != {"."}:
            return cells
    return []


def image(state: pyspiel.State, seat: int, *, selection: Sequence[str] = (),
          targets: Sequence[str] = (), last: Sequence[str] | None = None,
          watcher: bool = False) -> Image.Image:
    rows = board_rows(state)
    grid = layout(state)
    canvas = d.Canvas(grid.right + MARGIN, grid.bottom + 20)
    status = d.board_status(state, seat, MARKS.upper(), watcher=watcher)
    mark = MARKS[seat].upper()
    d.header(canvas, f"{mark}'s view" if watcher else f"You are {mark}", status,
             colour=d.PLAYER[seat])
    for c in range(grid.columns):
        canvas.text((grid.centre(c, 0)[0], grid.top - 16), f"C{c + 1}", size=16, fill=d.MUTED,
                    anchor="mm", bold=True)
    for r in range(grid.rows):
        canvas.text((grid.left - 22, grid.centre(0, r)[1]), f"R{r + 1}", size=16, fill=d.MUTED,
                    anchor="mm", bold=True)
    marked = set(last or ())
    winners = set(winning_line(rows)) if state.is_terminal() else set()
    for c, r in grid.cells():
        x0, y0, x1, y1 = grid.box(c, r)
        name = cell_name(c, r)
        fill = d.BOARD
        if (c, r) in winners:
            fill = (255, 230, 150)
        elif name in marked:
            fill = (255, 222, 186)
        canvas.rect((x0 + 3, y0 + 3, x1 - 3, y1 - 3), fill=fill, radius=10)
        if name in marked:
            canvas.rect((x0 + 3, y0 + 3, x1 - 3, y1 - 3), outline=d.LAST, width=4, radius=10)
        if name in targets:
            canvas.circle(grid.centre(c, r), 10, fill=d.TARGET)
        _mark(canvas, rows[r][c], grid.box(c, r))
    return canvas.finish()


def _mark(canvas: d.Canvas, mark: str, box: d.Box) -> None:
    x0, y0, x1, y1 = box
    pad = (x1 - x0) * 0.26
    if mark == "x":
        colour = d.PLAYER[0]
        canvas.line([(x0 + pad, y0 + pad), (x1 - pad, y1 - pad)], fill=colour, width=11)
        canvas.line([(x1 - pad, y0 + pad), (x0 + pad, y1 - pad)], fill=colour, width=11)
    elif mark == "o":
        canvas.ellipse((x0 + pad, y0 + pad, x1 - pad, y1 - pad), outline=d.PLAYER[1], width=10)


def centres(state: pyspiel.State, seat: int) -> dict[str, tuple[float, float]]:
    """Every click target with the pixel at its centre."""
    grid = layout(state)
    return {cell_name(c, r): grid.centre(c, r) for c, r in grid.cells()}


def hit_test(state: pyspiel.State, seat: int, x: float, y: float, *,
             selection: Sequence[str] = ()) -> str | None:
    cell = layout(state).at(x, y)
    return cell_name(*cell) if cell is not None else None


RENDERER = Renderer(
    page="board", text=text, image=image, hit_test=hit_test, watcher=WATCHER,
    sides=tuple(SIDES), centres=centres,
)
