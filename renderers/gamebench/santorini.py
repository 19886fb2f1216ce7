"""Santorini: the 5x5 board with building levels, domes and workers; text view; hit-test.

Click targets are square names (``c3``): a placement square, or a worker, the square it
moves to, and the square it builds on. Buildings are drawn from above as stacked tiers
(each level a smaller square on the one below) with the level number in the corner, so
heights read at a glance; a dome is a dark disc.
"""

from __future__ import annotations

import math

import pyspiel
from PIL import Image, ImageDraw

from games.gamebench import santorini
from games.gamebench.santorini import DOME, SIZE, WORKERS, SantoriniState, square_name
from renderers.common import seat_line, turn_line
from renderers.contract import Renderer
from renderers.drawing import centred

SIDES = ("Blue", "Orange")
"""Each seat's side as the image draws it (the page says "You ({side})")."""
NAMES = ["Blue (player 0, workers A and B)", "Orange (player 1, workers X and Y)"]
HEADER, LEFT, CELL, BOTTOM, RIGHT = 46, 36, 104, 34, 16
WIDTH = LEFT + SIZE * CELL + RIGHT
HEIGHT = HEADER + 10 + SIZE * CELL + BOTTOM
TOP = HEADER + 10

GROUND, GRID, INK, BAR = "#b9d99a", "#7a9a62", "#1f2933", "#d9dfe6"
TIERS = [("#f5f5f2", 6), ("#dedcd6", 18), ("#bdbab2", 30)]
"""Fill and inset (pixels from the square's edge) of levels 1, 2 and 3."""
DOME_FILL, DOME_EDGE = "#25324a", "#0d1422"
WORKER_FILL = ("#2563eb", "#f08a24")
WORKER_INK = ("#ffffff", "#1f2933")
SELECTED, TARGET, LAST = "#f2b600", "#138a43", "#e4572e"


def square_box(square: int) -> tuple[int, int, int, int]:
    """The pixel box of ``square`` (rank 5 at the top)."""
    file, rank = square % SIZE, square // SIZE
    x0, y0 = LEFT + file * CELL, TOP + (SIZE - 1 - rank) * CELL
    return (x0, y0, x0 + CELL, y0 + CELL)


def square_centre(square: int) -> tuple[float, float]:
    x0, y0, x1, y1 = square_box(square)
    return ((x0 + x1) / 2, (y0 + y1) / 2)


def centres(state: pyspiel.State, seat: int) -> dict[str, tuple[float, float]]:
    """Every square and the pixel at its centre: the inverse of :func:`hit_test`."""
    return {square_name(square): square_centre(square) for square in range(SIZE * SIZE)}


def hit_test(state: pyspiel.State, seat: int, x: float, y: float, *,
             selection: tuple[str, ...] = ()) -> str | None:
    """The square at pixel (x, y), or None off the board."""
    file, row = int((x - LEFT) // CELL), int((y - TOP) // CELL)
    if not (0 <= file < SIZE and 0 <= row < SIZE) or x < LEFT or y < TOP:
        return None
    return square_name((SIZE - 1 - row) * SIZE + file)


WATCHER = True
"""``text`` and ``image`` take ``watcher=True``: a spectator's copy, nobody called "you"."""


def image(state: pyspiel.State, seat: int, *, selection: tuple[str, ...] = (),
          targets: tuple[str, ...] | list[str] = (),
          last: tuple[str, ...] | None = None, watcher: bool = False) -> Image.Image:
    """The board as ``seat`` sees it (everything is public). ``last=None`` marks the last
    move of the state itself."""
    assert isinstance(state, SantoriniState)
    picture = Image.new("RGB", (WIDTH, HEIGHT), "#eef1f4")
    draw = ImageDraw.Draw(picture)
    _header(draw, state, -1 if watcher else seat)
    workers = {square: worker for worker, square in enumerate(state.workers)
               if square is not None}
    if len(selection) >= 2 and not state.placing:  # show the chosen worker where it moves to
        workers[santorini.square_of(selection[1])] = workers.pop(
            santorini.square_of(selection[0]))
    for square in range(SIZE * SIZE):
        _square(draw, state, square, workers.get(square))
    for i in range(SIZE):
        centred(draw, (LEFT + i * CELL + CELL / 2, TOP + SIZE * CELL + BOTTOM / 2),
                santorini.FILES[i], size=18, fill=INK, bold=True)
        centred(draw, (LEFT / 2, TOP + i * CELL + CELL / 2), str(SIZE - i), size=18,
                fill=INK, bold=True)
    _last(draw, state, last)
    for name in selection:
        _frame(draw, santorini.square_of(name), SELECTED, 6)
    for name in targets:  # over the selection: a worker may build where it came from
        _target(draw, state, santorini.square_of(name), len(selection), selection)
    return picture


def _header(draw: ImageDraw.ImageDraw, state: SantoriniState, seat: int) -> None:
    draw.rectangle((0, 0, WIDTH, HEADER), fill=BAR)
    if state.is_terminal():
        winner = state.winner
        assert winner is not None
        how = "climbed to level 3" if state.last is not None and state.last.wins else (
            "the other side cannot move")
        status = f"{santorini.PLAYER_NAMES[winner]} wins: {how}"
    else:
        player = state.current_player()
        verb = "places a worker" if state.placing else "to move"
        status = f"{santorini.PLAYER_NAMES[player]} {verb}" + (" (you)" if player == seat else "")
    centred(draw, (14, HEADER / 2), status, size=19, fill=INK, bold=True, anchor="lm")
    for player in (0, 1):
        x = WIDTH - 150 + player * 72
        draw.ellipse((x - 11, HEADER / 2 - 11, x + 11, HEADER / 2 + 11),
                     fill=WORKER_FILL[player], outline=INK, width=2)
        names = "".join(WORKERS[2 * player: 2 * player + 2])
        centred(draw, (x + 16, HEADER / 2), names, size=15, fill=INK, bold=True, anchor="lm")


def _square(draw: ImageDraw.ImageDraw, state: SantoriniState, square: int,
            worker: int | None) -> None:
    x0, y0, x1, y1 = square_box(square)
    draw.rectangle((x0, y0, x1, y1), fill=GROUND, outline=GRID, width=2)
    level = state.levels[square]
    for fill, inset in TIERS[: min(level, 3)]:
        draw.rectangle((x0 + inset, y0 + inset, x1 - inset, y1 - inset), fill=fill,
                       outline="#6f6b62", width=2)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if level == DOME:
        draw.ellipse((cx - 24, cy - 24, cx + 24, cy + 24), fill=DOME_FILL, outline=DOME_EDGE,
                     width=3)
        draw.arc((cx - 16, cy - 16, cx + 12, cy + 12), 200, 260, fill="#8fa3c7", width=3)
    if level:
        tag = "dome" if level == DOME else f"L{level}"
        centred(draw, (x0 + 5, y1 - 4), tag, size=14, fill=INK, bold=True, anchor="lb")
    if worker is not None:
        player = worker // 2
        draw.ellipse((cx - 22, cy - 22, cx + 22, cy + 22), fill=WORKER_FILL[player],
                     outline=INK, width=3)
        centred(draw, (cx, cy + 1), WORKERS[worker], size=24, fill=WORKER_INK[player],
                bold=True)


def _frame(draw: ImageDraw.ImageDraw, square: int, colour: str, width: int) -> None:
    x0, y0, x1, y1 = square_box(square)
    draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=colour, width=width)


def _target(draw: ImageDraw.ImageDraw, state: SantoriniState, square: int, step: int,
            selection: tuple[str, ...]) -> None:
    """Outline a legal next click; say what happens there (climb, build a level, dome)."""
    _frame(draw, square, TARGET, 5)
    x0, y0, x1, _ = square_box(square)
    level = state.levels[square]
    note = ""
    if step == 1 and not state.placing:
        origin = state.levels[santorini.square_of(selection[0])]
        note = "wins!" if level == 3 and origin < 3 else ("up" if level > origin else "")
    elif step == 2:
        note = "+dome" if level == 3 else f"+L{level + 1}"
    if note:
        draw.rounded_rectangle((x1 - 58, y0 + 7, x1 - 7, y0 + 27), radius=6, fill=TARGET)
        centred(draw, (x1 - 32, y0 + 17), note, size=14, fill="#ffffff", bold=True)


def _last(draw: ImageDraw.ImageDraw, state: SantoriniState,
          last: tuple[str, ...] | None) -> None:
    if last is None:
        turn = state.last
        squares = [] if turn is None else [s for s in (turn.origin, turn.target, turn.build)
                                           if s is not None]
        if turn is not None and turn.origin is None:
            squares = [turn.target]
    else:
        squares = [santorini.square_of(name) for name in last]
    if not squares:
        return
    if len(squares) == 1:
        _frame(draw, squares[0], LAST, 4)
        return
    (ox, oy), (tx, ty) = square_centre(squares[0]), square_centre(squares[1])
    ux, uy = (tx - ox) / math.hypot(tx - ox, ty - oy), (ty - oy) / math.hypot(tx - ox, ty - oy)
    tip = (tx - ux * 30, ty - uy * 30)  # stop short of the worker drawn on the target
    draw.line((ox + ux * 26, oy + uy * 26, *tip), fill=LAST, width=5)
    draw.polygon([(tip[0] + ux * 4, tip[1] + uy * 4),
                  (tip[0] - ux * 12 - uy * 9, tip[1] - uy * 12 + ux * 9),
                  (tip[0] - ux * 12 + uy * 9, tip[1] - uy * 12 - ux * 9)], fill=LAST)
    _frame(draw, squares[0], LAST, 2)
    _frame(draw, squares[1], LAST, 4)
    if len(squares) > 2:
        x0, y0, x1, y1 = square_box(squares[2])
        centred(draw, ((x0 + x1) / 2, y0 + 4), "built", size=13, fill=LAST, bold=True,
                anchor="mt")


# --- the text view -------------------------------------------------------------------------

def text(state: pyspiel.State, seat: int, *, watcher: bool = False) -> str:
    """The board (levels and workers), workers' levels, the last move, the legal moves (for
    a ``watcher``: the seat named, never "you")."""
    assert isinstance(state, SantoriniState)
    names = list(SIDES) if watcher else NAMES
    lines = [seat_line(seat, names, watcher=watcher),
             turn_line(state, seat, names, watcher=watcher)]
    lines.append("Board, rank 5 at the top: each square is its level (0-3, D = dome) and the "
                 "worker on it (. = none).")
    lines.append("    " + "   ".join(santorini.FILES))
    for rank in reversed(range(SIZE)):
        cells = []
        for file in range(SIZE):
            square = rank * SIZE + file
            level = state.levels[square]
            worker = state.worker_at(square)
            cells.append(("D" if level == DOME else str(level))
                         + (WORKERS[worker] if worker is not None else "."))
        lines.append(f"{rank + 1}  " + "  ".join(cells))
    placed = [f"{WORKERS[w]} at {square_name(s)} (level {state.levels[s]})"
              for w, s in enumerate(state.workers) if s is not None]
    lines.append("Workers: " + (", ".join(placed) if placed else "none placed yet") + ".")
    if state.last is not None:
        lines.append(f"Last move: {state.last.label()}.")
    if not state.is_terminal() and state.current_player() == seat:
        lines += _legal_lines(state)
    return "\n".join(lines)


def _legal_lines(state: SantoriniState) -> list[str]:
    turns = [state.decode(a) for a in state.legal_actions()]
    if state.placing:
        squares = ", ".join(square_name(t.target) for t in turns)
        name = WORKERS[turns[0].worker]
        return [f"Legal moves: place {name} at one of {squares} (write: place {name} at c3)."]
    grouped: dict[str, list[str]] = {}
    for turn in turns:
        assert turn.origin is not None
        moved = f"{WORKERS[turn.worker]}: {square_name(turn.origin)}→{square_name(turn.target)}"
        grouped.setdefault(moved, []).append(
            "wins" if turn.build is None else square_name(turn.build))
    lines = [f"Legal moves ({len(turns)}), by worker and destination; write one as "
             "<worker>: <from>-><to>, build <square>:"]
    for moved, builds in grouped.items():
        if builds == ["wins"]:
            lines.append(f"  {moved}, wins (climbs onto level 3)")
        else:
            lines.append(f"  {moved}, build one of {', '.join(builds)}")
    return lines


RENDERER = Renderer(
    page="board", text=text, image=image, hit_test=hit_test, watcher=WATCHER,
    sides=tuple(SIDES), centres=centres,
)
