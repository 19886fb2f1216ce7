"""Blind auction: your valuation and your bid; the other bid only once the auction is over."""

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
_INFO = re.compile(r"p\d+ val (?P<value>\d+)(?: bid (?P<bid>\d+))?")


WATCHER = True
"""``text`` and ``image`` take ``watcher=True``: the seat's view for a spectator (the sides
by colour, never "you")."""
COLOURED = [c.title() for c in d.SEAT_COLOURS]
"""The seats as a watcher's view names them (the colours the table draws)."""


def valuation_and_bid(state: pyspiel.State, seat: int) -> tuple[int | None, int | None]:
    match = _INFO.match(state.information_state_string(seat))
    if match is None:
        return None, None
    bid = match.group("bid")
    return int(match.group("value")), (int(bid) if bid is not None else None)


def final_bids(state: pyspiel.State) -> list[int]:
    """Both bids, in seat order, once the auction is over (sealed until then)."""
    return [h.action for h in state.full_history() if h.player >= 0] if state.is_terminal() else []


def winner(state: pyspiel.State) -> int | None:
    returns = state.returns()
    return max(range(2), key=lambda p: (returns[p] > 0, -p)) if any(returns) else None


def text(state: pyspiel.State, seat: int, *, watcher: bool = False) -> str:
    names = COLOURED if watcher else NAMES
    value, bid = valuation_and_bid(state, seat)
    whose = f"{COLOURED[seat]}'s" if watcher else "Your"
    lines = [
        seat_line(seat, names, watcher=watcher),
        f"{whose} valuation of the item: {value if value is not None else 'not drawn yet'}",
        f"{whose} bid: {bid if bid is not None else 'not placed yet'}",
        "The other player's valuation and bid are hidden.",
    ]
    if state.is_terminal():
        bids = final_bids(state)
        lines[3] = f"Bids revealed: player 0 bid {bids[0]}, player 1 bid {bids[1]}."
        won = winner(state)
        if won is not None:
            lines.append(f"{NAMES[won]} won the item.")
    lines.append(turn_line(state, seat, names, watcher=watcher))
    return "\n".join(lines)


def image(state: pyspiel.State, seat: int, *, selection: Sequence[str] = (),
          targets: Sequence[str] = (), last: Sequence[str] | None = None,
          watcher: bool = False) -> Image.Image:
    canvas = d.table(d.seat_title(seat, watcher=watcher),
                     d.table_status(state, seat, watcher=watcher), seat)
    whose = f"{COLOURED[seat]}'s" if watcher else "Your"
    x0, y0, x1, y1 = d.FELT_BOX
    middle = (x0 + x1) / 2
    value, bid = (None, None) if state.is_chance_node() else valuation_and_bid(state, seat)
    bids = final_bids(state)
    d.label(canvas, (middle, y0 + 22), f"{d.who(1 - seat, seat, watcher=watcher)}'s envelope")
    _envelope(canvas, middle, y0 + 42, bids[1 - seat] if bids else None, opened=bool(bids))
    worth = "?" if value is None else str(value)
    canvas.rect((x0 + 18, (y0 + y1) / 2 - 34, x0 + 168, (y0 + y1) / 2 + 34), fill=d.CARD,
                outline=d.GOLD, width=3, radius=10)
    worth_to = f"Worth to {COLOURED[seat]}" if watcher else "Worth to you"
    canvas.text((x0 + 93, (y0 + y1) / 2 - 16), worth_to, size=13, fill=d.MUTED,
                anchor="mm", bold=True)
    canvas.text((x0 + 93, (y0 + y1) / 2 + 12), worth, size=28, bold=True, anchor="mm")
    _envelope(canvas, middle, y1 - 130, bid, opened=True)
    d.label(canvas, (middle, y1 - 22), f"{whose} bid" if bid is not None
            else f"{whose} bid: not placed")
    lines = []
    if bid is not None:
        lines.append(f"{d.who(seat, seat, watcher=watcher)}: bid {bid}")
    if bids:
        lines = [f"{d.who(p, seat, watcher=watcher)}: bid {b}" for p, b in enumerate(bids)]
        won = winner(state)
        lines.append("Tie: nobody wins" if won is None else
                     f"{d.who(won, seat, watcher=watcher)} won the item")
    d.history_panel(canvas, d.PANEL_BOX, "Bids", lines, last_marked=bool(last))
    return canvas.finish()


def _envelope(canvas: d.Canvas, middle: float, top: float, amount: int | None, *,
              opened: bool) -> None:
    box = (middle - 70, top, middle + 70, top + 80)
    canvas.rect(box, fill=(236, 222, 190), outline=(150, 120, 70), width=2, radius=6)
    if amount is None:
        canvas.polygon([(box[0] + 2, top + 2), (middle, top + 40), (box[2] - 2, top + 2)],
                       fill=(220, 200, 160), outline=(150, 120, 70))
        shown = "sealed" if not opened else "no bid yet"
        canvas.text((middle, top + 60), shown, size=15, bold=True, fill=(120, 90, 40),
                    anchor="mm")
        return
    canvas.text((middle, top + 42), f"bid {amount}", size=26, bold=True, anchor="mm")


def hit_test(state: pyspiel.State, seat: int, x: float, y: float, *,
             selection: Sequence[str] = ()) -> str | None:
    """The blind auction is played with buttons: no spot on the table is a move."""
    return None


RENDERER = Renderer(
    page="buttons", text=text, image=image, hit_test=hit_test, watcher=WATCHER,
    sides=tuple(SIDES),
)
