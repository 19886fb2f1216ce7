"""Pig: both scores, the turn total and the recent rolls."""

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
_STATE = re.compile(r"Scores: (?P<s0>\d+) (?P<s1>\d+), Turn total: (?P<total>\d+)")


WATCHER = True
"""``text`` and ``image`` take ``watcher=True``: the seat's view for a spectator (the sides
by colour, never "you")."""
COLOURED = [c.title() for c in d.SEAT_COLOURS]
"""The seats as a watcher's view names them (the colours the table draws)."""


def scores(state: pyspiel.State) -> tuple[list[int], int]:
    """([score of player 0, score of player 1], turn total)."""
    match = _STATE.search(str(state))
    if match is None:
        return [0, 0], 0
    return [int(match.group("s0")), int(match.group("s1"))], int(match.group("total"))


def last_rolls(state: pyspiel.State, count: int = 6) -> list[int]:
    return [h.action + 1 for h in state.full_history() if h.player < 0][-count:]


def target(state: pyspiel.State) -> int:
    return int(state.get_game().get_parameters()["winscore"])


def text(state: pyspiel.State, seat: int, *, watcher: bool = False) -> str:
    names = COLOURED if watcher else NAMES
    (s0, s1), total = scores(state)
    rolls = last_rolls(state)
    lines = [
        seat_line(seat, names, watcher=watcher),
        f"Scores: player 0 {s0}, player 1 {s1} (first to {target(state)} wins)",
        f"Turn total: {total}",
        f"Recent rolls: {', '.join(map(str, rolls)) if rolls else 'none'}",
        turn_line(state, seat, names, watcher=watcher),
    ]
    return "\n".join(lines)


def image(state: pyspiel.State, seat: int, *, selection: Sequence[str] = (),
          targets: Sequence[str] = (), last: Sequence[str] | None = None,
          watcher: bool = False) -> Image.Image:
    canvas = d.table(d.seat_title(seat, watcher=watcher),
                     d.table_status(state, seat, watcher=watcher), seat)
    banked, total = scores(state)
    goal = target(state)
    x0, y0, x1, y1 = d.FELT_BOX
    player = state.current_player()
    for row, p in enumerate((seat, 1 - seat)):
        top = y0 + 22 + row * 64
        name = d.who(p, seat, watcher=watcher)
        d.label(canvas, (x0 + 20, top + 12), name, anchor="lm")
        bar = (x0 + 120, top, x1 - 70, top + 26)
        canvas.rect(bar, fill=d.FELT_DARK, radius=8)
        filled = min(1.0, banked[p] / goal)
        if filled:
            canvas.rect((bar[0], bar[1], bar[0] + (bar[2] - bar[0]) * filled, bar[3]),
                        fill=d.PLAYER[p], radius=8)
        if p == player and total:
            start = bar[0] + (bar[2] - bar[0]) * filled
            end = bar[0] + (bar[2] - bar[0]) * min(1.0, (banked[p] + total) / goal)
            canvas.rect((start, bar[1] + 5, end, bar[3] - 5), fill=d.GOLD, radius=4)
        d.label(canvas, (x1 - 20, top + 12), f"{banked[p]}", anchor="rm", size=18)
    d.label(canvas, (x0 + 120, y0 + 150), f"first to {goal} wins · a roll of 1 loses the "
            "turn total", anchor="lm", size=13, bold=False)
    rolls = last_rolls(state)
    whose = (f"{COLOURED[player]}'s" if watcher and player >= 0 else
             "your" if player == seat else "the opponent's")
    d.label(canvas, (x0 + 20, y0 + 196), f"Turn total ({whose} turn): {total}",
            anchor="lm", size=18, fill=d.GOLD if total else d.HEADER_INK)
    d.label(canvas, (x0 + 20, y1 - 78), "Last roll" if rolls else "No roll yet", anchor="lm",
            size=14)
    if rolls:
        d.pips(canvas, (x0 + 20, y1 - 64, x0 + 74, y1 - 10), rolls[-1],
               highlight=d.BAD if rolls[-1] == 1 else d.GOLD)
        for i, face in enumerate(rolls[-6:-1][::-1]):
            left = x0 + 100 + i * 46
            d.pips(canvas, (left, y1 - 50, left + 36, y1 - 14), face)
    lines = _turns(state, seat, watcher)
    d.history_panel(canvas, d.PANEL_BOX, "Moves", lines, last_marked=bool(last))
    return canvas.finish()


def _turns(state: pyspiel.State, seat: int, watcher: bool = False) -> list[str]:
    """One line per decision, with the die that followed a roll."""
    lines: list[str] = []
    for item in state.full_history():
        if item.player >= 0:
            said = "roll" if item.action == 0 else "stop"
            lines.append(f"{d.who(item.player, seat, watcher=watcher)}: {said}")
        elif lines:
            lines[-1] += f" → {item.action + 1}"
    return lines


def hit_test(state: pyspiel.State, seat: int, x: float, y: float, *,
             selection: Sequence[str] = ()) -> str | None:
    """Pig is played with the roll and stop buttons: no spot on the table is a move."""
    return None


RENDERER = Renderer(
    page="buttons", text=text, image=image, hit_test=hit_test, watcher=WATCHER,
    sides=tuple(SIDES),
)
