"""Connect Four: the grid with column names C1..C7; a click anywhere in a column drops there."""

from __future__ import annotations

from collections.abc import Sequence

import pyspiel
from PIL import Image

from renderers import drawing as d
from renderers.common import seat_line, turn_line
from renderers.contract import Renderer

SIDES = ("red", "yellow")
"""Each seat's side as the image draws it (the page says "You ({side})")."""
NAMES = ["x (player 0)", "o (player 1)"]
COLOURS = ["red", "yellow"]
DISCS = {"x": d.PLAYER[0], "o": (250, 196, 30)}
CELL = 64
LABELS = 30


WATCHER = True
"""``text`` and ``image`` take ``watcher=True``: the seat's view for a spectator (the side
named, never "you")."""
SEEN = ["Red", "Yellow"]
"""The seats as a watcher's text view names them (as the image draws them)."""


def board_rows(state: pyspiel.State) -> list[str]:
    """The grid as rows of 'x', 'o' and '.', top row first."""
    return [row for row in str(state).splitlines() if row]


def text(state: pyspiel.State, seat: int, *, watcher: bool = False) -> str:
    rows = board_rows(state)
    header = " ".join(f"C{c + 1}" for c in range(len(rows[0])))
    lines = [header] + ["  ".join(row) for row in rows]
    names = SEEN if watcher else NAMES
    return "\n".join([seat_line(seat, names, watcher=watcher), *lines,
                      turn_line(state, seat, names, watcher=watcher)])


def layout(state: pyspiel.State) -> d.Grid:
    rows = board_rows(state)
    return d.Grid(len(rows[0]), len(rows), CELL, left=24, top=d.HEADER_HEIGHT + LABELS + 8)


def winning_cells(rows: list[str], length: int = 4) -> set[tuple[int, int]]:
    """Every cell on a line of ``length`` equal discs."""
    found: set[tuple[int, int]] = set()
    height, width = len(rows), len(rows[0])
    for r in range(height):
        for c in range(width):
            mark = rows[r][c]
            if mark == ".":
                continue
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + i * dc, r + i * dr) for i in range(length)]
                if all(0 <= x < width and 0 <= y < height and rows[y][x] == mark
                       for x, y in cells):
                    found.update(cells)
    return found


def top_disc(rows: list[str], column: int) -> int | None:
    """The row of the highest disc in ``column`` (the one dropped last there)."""
    for r, row in enumerate(rows):
        if row[column] != ".":
            return r
    return None


def image(state: pyspiel.State, seat: int, *, selection: Sequence[str] = (),
          targets: Sequence[str] = (), last: Sequence[str] | None = None,
          watcher: bool = False) -> Image.Image:
    rows = board_rows(state)
    grid = layout(state)
    canvas = d.Canvas(grid.right + 24, grid.bottom + 24)
    status = d.board_status(state, seat, [c.capitalize() for c in COLOURS], watcher=watcher)
    title = f"{COLOURS[seat].capitalize()}'s view" if watcher else f"You are {COLOURS[seat]}"
    d.header(canvas, title, status, colour=DISCS["xo"[seat]])
    last_cell = None
    if last:
        column = int(last[0][1:]) - 1
        row = top_disc(rows, column)
        last_cell = (column, row) if row is not None else None
    for c in range(grid.columns):
        label = f"C{c + 1}"
        x = grid.centre(c, 0)[0]
        bold = last_cell is not None and last_cell[0] == c
        canvas.text((x, grid.top - LABELS / 2 - 4), label, size=16, bold=True,
                    fill=d.LAST if bold else d.MUTED, anchor="mm")
    canvas.rect((grid.left - 8, grid.top - 8, grid.right + 8, grid.bottom + 8), fill=d.GRID_BLUE,
                radius=14)
    winners = winning_cells(rows) if state.is_terminal() else set()
    for c, r in grid.cells():
        mark = rows[r][c]
        centre = grid.centre(c, r)
        radius = CELL * 0.4
        canvas.circle(centre, radius, fill=DISCS.get(mark, d.PAPER))
        if (c, r) in winners:
            canvas.circle(centre, radius - 4, outline=d.HEADER_INK, width=4)
        if last_cell == (c, r):
            canvas.circle(centre, radius + 1, outline=d.LAST, width=5)
            canvas.circle(centre, 7, fill=d.HEADER_INK)
    return canvas.finish()


def centres(state: pyspiel.State, seat: int) -> dict[str, tuple[float, float]]:
    """Every click target (a column) with a pixel at its centre."""
    grid = layout(state)
    return {f"C{c + 1}": (grid.centre(c, 0)[0], (grid.top + grid.bottom) / 2)
            for c in range(grid.columns)}


def hit_test(state: pyspiel.State, seat: int, x: float, y: float, *,
             selection: Sequence[str] = ()) -> str | None:
    grid = layout(state)
    if not (grid.left <= x < grid.right and grid.top - LABELS - 8 <= y < grid.bottom):
        return None
    return f"C{int((x - grid.left) // grid.cell) + 1}"


RENDERER = Renderer(
    page="board", text=text, image=image, hit_test=hit_test, watcher=WATCHER,
    sides=tuple(SIDES), centres=centres,
)
