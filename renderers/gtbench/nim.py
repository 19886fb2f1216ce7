"""Nim: the piles and how many sticks each holds.

Clicks: a stick takes that stick and every stick above it in its pile, so the target is the
move's label, e.g. ``pile 2 take 3``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pyspiel
from PIL import Image

from renderers import drawing as d
from renderers.common import seat_line, turn_line
from renderers.contract import Renderer

SIDES = d.SEAT_COLOURS
"""Each seat's side as the image draws it (the page says "You ({side})")."""
NAMES = ["player 0", "player 1"]
STICK_W, STICK_H, STICK_GAP = 72, 16, 8
PILE_GAP = 28
_TAKEN = re.compile(r"pile (\d+) take (\d+)")


WATCHER = True
"""``text`` and ``image`` take ``watcher=True``: the seat's view for a spectator (the side
named, never "you")."""
SEEN = [c.title() for c in d.SEAT_COLOURS]
"""The seats as a watcher's text view names them (as the image draws them)."""


def piles(state: pyspiel.State) -> list[int]:
    """Sticks left in each pile (OpenSpiel's string is '(player): 1 3 5 7')."""
    return [int(n) for n in str(state).split(":", 1)[1].split()]


def text(state: pyspiel.State, seat: int, *, watcher: bool = False) -> str:
    lines = [f"Pile {i + 1}: {n} stick{'s' if n != 1 else ''} {'|' * n}".rstrip()
             for i, n in enumerate(piles(state))]
    rule = "Whoever takes the last stick loses."
    names = SEEN if watcher else NAMES
    return "\n".join([seat_line(seat, names, watcher=watcher), *lines, rule,
                      turn_line(state, seat, names, watcher=watcher)])


def _initial(state: pyspiel.State) -> list[int]:
    sizes = str(state.get_game().get_parameters()["pile_sizes"])
    return [int(n) for n in sizes.split(";")]


def layout(state: pyspiel.State) -> tuple[int, int, int, int]:
    """(left of pile 1, y of the bottom stick's bottom, image width, image height)."""
    count = len(piles(state))
    tallest = max(_initial(state))
    width = max(480, 2 * 40 + count * STICK_W + (count - 1) * PILE_GAP)
    left = (width - count * STICK_W - (count - 1) * PILE_GAP) // 2
    bottom = d.HEADER_HEIGHT + 40 + tallest * (STICK_H + STICK_GAP)
    return left, bottom, width, bottom + 70


def stick_box(state: pyspiel.State, pile: int, index: int) -> d.Box:
    """The box of stick ``index`` (0 = bottom) of pile ``pile`` (0-based)."""
    left, bottom, _, _ = layout(state)
    x = left + pile * (STICK_W + PILE_GAP)
    y = bottom - index * (STICK_H + STICK_GAP) - STICK_H
    return (x, y, x + STICK_W, y + STICK_H)


def image(state: pyspiel.State, seat: int, *, selection: Sequence[str] = (),
          targets: Sequence[str] = (), last: Sequence[str] | None = None,
          watcher: bool = False) -> Image.Image:
    left, bottom, width, height = layout(state)
    canvas = d.Canvas(width, height)
    status = d.table_status(state, seat, watcher=watcher)
    d.header(canvas, d.seat_title(seat, watcher=watcher), status, colour=d.PLAYER[seat])
    counts = piles(state)
    taken = _TAKEN.fullmatch(last[0]) if last else None
    for p, count in enumerate(counts):
        ghosts = int(taken.group(2)) if taken and int(taken.group(1)) == p + 1 else 0
        for i in range(count + ghosts):
            box = stick_box(state, p, i)
            if i < count:
                canvas.rect(box, fill=(196, 140, 70), outline=(120, 80, 30), width=1.5,
                            radius=6)
            else:
                canvas.rect(box, outline=d.LAST, width=2, radius=6)
        x = left + p * (STICK_W + PILE_GAP) + STICK_W / 2
        canvas.text((x, bottom + 20), f"Pile {p + 1}", size=15, bold=True, fill=d.INK,
                    anchor="mm")
        canvas.text((x, bottom + 42), f"{count} left", size=13, fill=d.MUTED, anchor="mm")
    canvas.text((width / 2, d.HEADER_HEIGHT + 18),
                "Click a stick to take it and every stick above it · the last stick loses",
                size=13, fill=d.MUTED, anchor="mm")
    return canvas.finish()


def centres(state: pyspiel.State, seat: int) -> dict[str, tuple[float, float]]:
    """Every click target (a move) with the centre of the stick that makes it."""
    out = {}
    for p, count in enumerate(piles(state)):
        for i in range(count):
            x0, y0, x1, y1 = stick_box(state, p, i)
            out[f"pile {p + 1} take {count - i}"] = ((x0 + x1) / 2, (y0 + y1) / 2)
    return out


def hit_test(state: pyspiel.State, seat: int, x: float, y: float, *,
             selection: Sequence[str] = ()) -> str | None:
    counts = piles(state)
    for p, count in enumerate(counts):
        for i in range(count):
            x0, y0, x1, y1 = stick_box(state, p, i)
            if x0 <= x < x1 and y0 - STICK_GAP / 2 <= y < y1 + STICK_GAP / 2:
                return f"pile {p + 1} take {count - i}"
    return None


RENDERER = Renderer(
    page="buttons", text=text, image=image, hit_test=hit_test, watcher=WATCHER,
    sides=tuple(SIDES), centres=centres,
)
