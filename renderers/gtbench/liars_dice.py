"""Liar's dice: your own die (or dice) and the bids so far."""

from __future__ import annotations

from collections.abc import Sequence

import pyspiel
from PIL import Image

from games.registry import get
from renderers import drawing as d
from renderers.common import seat_line, turn_line
from renderers.contract import Renderer

SIDES = d.SEAT_COLOURS
"""Each seat's side as the image draws it (the page says "You ({side})")."""
NAMES = ["player 0", "player 1"]


WATCHER = True
"""``text`` and ``image`` take ``watcher=True``: the seat's view for a spectator (the sides
by colour, never "you")."""
COLOURED = [c.title() for c in d.SEAT_COLOURS]
"""The seats as a watcher's view names them (the colours the table draws)."""


def own_dice(state: pyspiel.State, seat: int) -> str:
    info = state.information_state_string(seat)
    return info.split(" ", 1)[0]


def bids(state: pyspiel.State) -> list[tuple[int, str]]:
    """(bidder, label) for every bid so far; chance rolls are left out."""
    label = get("liars_dice").grammar.label
    return [(h.player, label(state, h.player, h.action))
            for h in state.full_history() if h.player >= 0]


def revealed(state: pyspiel.State) -> list[str]:
    """Both players' dice once the game is over (the cups are lifted), else []."""
    return str(state).split(" ")[:2] if state.is_terminal() else []


def text(state: pyspiel.State, seat: int, *, watcher: bool = False) -> str:
    names = COLOURED if watcher else NAMES
    mine = own_dice(state, seat)
    whose = f"{COLOURED[seat]}'s" if watcher else "Your"
    lines = [seat_line(seat, names, watcher=watcher),
             f"{whose} dice: {' '.join(mine) if mine else 'not rolled yet'} (sixes are wild)"]
    made = bids(state)
    lines.append("Bids so far: " + (", ".join(f"{NAMES[p]}: {label}" for p, label in made)
                                     if made else "none"))
    shown = revealed(state)
    if shown:
        lines.append(f"Revealed dice: player 0 {shown[0]}, player 1 {shown[1]}")
    lines.append(turn_line(state, seat, names, watcher=watcher))
    return "\n".join(lines)


def image(state: pyspiel.State, seat: int, *, selection: Sequence[str] = (),
          targets: Sequence[str] = (), last: Sequence[str] | None = None,
          watcher: bool = False) -> Image.Image:
    canvas = d.table(d.seat_title(seat, watcher=watcher),
                     d.table_status(state, seat, watcher=watcher), seat)
    x0, y0, x1, y1 = d.FELT_BOX
    middle = (x0 + x1) / 2
    mine = own_dice(state, seat) if not state.is_chance_node() else ""
    shown = revealed(state)
    count = int(state.get_game().get_parameters()["numdice"])
    theirs = shown[1 - seat] if shown else None
    d.label(canvas, (middle, y0 + 22), f"{d.who(1 - seat, seat, watcher=watcher)}'s cup"
            + (" (lifted)" if theirs else ""))
    _dice_row(canvas, middle, y0 + 44, theirs, count)
    _dice_row(canvas, middle, y1 - 110, mine or None, count, highlight=d.GOLD)
    whose = f"{COLOURED[seat]}'s" if watcher else "Your"
    d.label(canvas, (middle, y1 - 22), f"{whose} dice · sixes are wild", size=14)
    made = bids(state)
    standing = [(p, said) for p, said in made if said != "liar"]
    bid_text = "No bid yet"
    if standing:
        bidder, said = standing[-1]
        by = (COLOURED[bidder] if watcher else "yours" if bidder == seat else "opponent")
        bid_text = f"Bid on the table: {said} ({by})"
    d.label(canvas, (middle, (y0 + y1) / 2 + 4), bid_text, size=18)
    if made and made[-1][1] == "liar":
        d.label(canvas, (middle, (y0 + y1) / 2 + 30),
                f"{d.who(made[-1][0], seat, watcher=watcher)} called liar!", size=15,
                fill=d.GOLD)
    lines = [f"{d.who(p, seat, watcher=watcher)}: {said}" for p, said in made]
    d.history_panel(canvas, d.PANEL_BOX, "Bids", lines, last_marked=bool(last))
    return canvas.finish()


def _dice_row(canvas: d.Canvas, middle: float, top: float, faces: str | None, count: int,
              *, highlight: d.Colour | None = None) -> None:
    side, gap = 64, 14
    start = middle - (count * side + (count - 1) * gap) / 2
    for i in range(count):
        box = (start + i * (side + gap), top, start + i * (side + gap) + side, top + side)
        if faces and i < len(faces):
            d.pips(canvas, box, int(faces[i]), highlight=highlight)
        else:
            canvas.rect(box, fill=(60, 45, 35), outline=(30, 20, 15), width=2, radius=12)
            canvas.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), "?", size=30,
                        bold=True, fill=d.HEADER_INK, anchor="mm")


def hit_test(state: pyspiel.State, seat: int, x: float, y: float, *,
             selection: Sequence[str] = ()) -> str | None:
    """Liar's dice is played with buttons: no spot on the table is a move."""
    return None


RENDERER = Renderer(
    page="buttons", text=text, image=image, hit_test=hit_test, watcher=WATCHER,
    sides=tuple(SIDES),
)
