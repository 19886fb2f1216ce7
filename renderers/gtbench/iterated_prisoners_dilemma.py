"""Iterated prisoner's dilemma: every past round's choices and the running totals."""

from __future__ import annotations

from collections.abc import Sequence

import pyspiel
from PIL import Image

from renderers import drawing as d
from renderers.common import seat_line, turn_line
from renderers.contract import Renderer

SIDES = d.SEAT_COLOURS
"""Each seat's side as the image draws it (the page says "You ({side})")."""
NAMES = ["player 0", "player 1"]
CHOICES = ["cooperate", "defect"]
PAYOFF = {(0, 0): (5, 5), (0, 1): (0, 10), (1, 0): (10, 0), (1, 1): (1, 1)}
SHOWN_ROUNDS = 10


WATCHER = True
"""``text`` and ``image`` take ``watcher=True``: the seat's view for a spectator (the sides
by colour, never "you")."""
COLOURED = [c.title() for c in d.SEAT_COLOURS]
"""The seats as a watcher's view names them (the colours the table draws)."""


def rounds(state: pyspiel.State) -> list[tuple[int, int]]:
    """The (player 0, player 1) choices of each finished round."""
    history = state.history()
    return [(history[i], history[i + 1]) for i in range(0, len(history) - 1, 3)]


def totals(played: list[tuple[int, int]], seat: int) -> tuple[int, int]:
    """(yours, theirs) summed over ``played``."""
    return (sum(PAYOFF[r][seat] for r in played), sum(PAYOFF[r][1 - seat] for r in played))


def text(state: pyspiel.State, seat: int, *, watcher: bool = False) -> str:
    names = COLOURED if watcher else NAMES
    other = 1 - seat
    played = rounds(state)
    mine, theirs = totals(played, seat)
    me, them = (COLOURED[seat], COLOURED[other]) if watcher else ("you", "opponent")
    lines = [seat_line(seat, names, watcher=watcher), f"Rounds played: {len(played)}"]
    for i, choice in enumerate(played):
        lines.append(
            f"  round {i + 1}: {me} {CHOICES[choice[seat]]}, {them} {CHOICES[choice[other]]}"
            f" ({me} {PAYOFF[choice][seat]}, {them} {PAYOFF[choice][other]})"
        )
    lines.append(f"Totals: {me} {mine}, {them} {theirs}")
    lines.append(turn_line(state, seat, names, watcher=watcher))
    return "\n".join(lines)


def image(state: pyspiel.State, seat: int, *, selection: Sequence[str] = (),
          targets: Sequence[str] = (), last: Sequence[str] | None = None,
          watcher: bool = False) -> Image.Image:
    played = rounds(state)
    status = d.table_status(state, seat, watcher=watcher)
    if not state.is_terminal() and state.is_simultaneous_node():
        status = f"Round {len(played) + 1}: choose"
    canvas = d.table(d.seat_title(seat, watcher=watcher), status, seat)
    x0, y0, x1, y1 = d.FELT_BOX
    mine, theirs = totals(played, seat)
    d.label(canvas, (x0 + 20, y0 + 22), f"Rounds played: {len(played)}", anchor="lm")
    me, them = (COLOURED[seat], COLOURED[1 - seat]) if watcher else ("You", "Opponent")
    d.label(canvas, (x1 - 20, y0 + 22), f"{me} {mine} · {them} {theirs}", anchor="rm",
            size=16, fill=d.GOLD)
    shown = played[-SHOWN_ROUNDS:]
    first = len(played) - len(shown)
    cell = 34
    left = x0 + 112
    for row, (name, p) in enumerate(((me, seat), (them, 1 - seat))):
        top = y0 + 60 + row * (cell + 8)
        d.label(canvas, (x0 + 20, top + cell / 2), name, anchor="lm", size=14)
        for i, choice in enumerate(shown):
            box = (left + i * (cell + 2), top, left + i * (cell + 2) + cell, top + cell)
            colour = d.GOOD if choice[p] == 0 else d.BAD
            newest = i == len(shown) - 1 and bool(last)
            canvas.rect(box, fill=colour, outline=d.LAST if newest else d.FELT_DARK,
                        width=3 if newest else 1, radius=5)
            canvas.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), "CD"[choice[p]],
                        size=15, bold=True, fill=d.HEADER_INK, anchor="mm")
    for i in range(len(shown)):
        canvas.text((left + i * (cell + 2) + cell / 2, y0 + 148), str(first + i + 1), size=11,
                    fill=d.HEADER_INK, anchor="mm")
    _payoffs(canvas, (x0 + 20, y0 + 176), (me, them) if watcher else None)
    mine_said, theirs_said = (me, them) if watcher else ("you", "they")
    lines = [f"{i + 1}. {mine_said} {CHOICES[r[seat]]}, {theirs_said} {CHOICES[r[1 - seat]]}"
             for i, r in enumerate(played)]
    d.history_panel(canvas, d.PANEL_BOX, "Rounds", lines, last_marked=bool(last), size=13)
    return canvas.finish()


def _payoffs(canvas: d.Canvas, corner: tuple[float, float],
             names: tuple[str, str] | None = None) -> None:
    """The payoff table: (you, opponent) for each pair of choices (``names``: the two seats
    as a watcher's view names them, the seat's first)."""
    x, y = corner
    me, them = names or ("you", "they")
    d.label(canvas, (x, y + 10), f"Points ({me}, {them})" if names else
            "Points (you, opponent)", anchor="lm", size=14)
    head = ["", f"{them} cooperate" + "s" * bool(names), f"{them} defect" + "s" * bool(names)]
    rows = [[f"{me} cooperate" + "s" * bool(names), "5, 5", "0, 10"],
            [f"{me} defect" + "s" * bool(names), "10, 0", "1, 1"]]
    widths = [130, 130, 120]
    for r, row in enumerate([head, *rows]):
        cx = x
        for c, cell in enumerate(row):
            top = y + 28 + r * 34
            if r and c:
                canvas.rect((cx, top, cx + widths[c] - 6, top + 28), fill=d.FELT_DARK, radius=5)
            d.label(canvas, (cx + (widths[c] - 6) / 2 if c else cx, top + 14), cell,
                    anchor="mm" if c else "lm", size=13, bold=bool(r and c))
            cx += widths[c]


def hit_test(state: pyspiel.State, seat: int, x: float, y: float, *,
             selection: Sequence[str] = ()) -> str | None:
    """Played with the cooperate and defect buttons: no spot on the table is a move."""
    return None


RENDERER = Renderer(
    page="buttons", text=text, image=image, hit_test=hit_test, watcher=WATCHER,
    sides=tuple(SIDES),
)
