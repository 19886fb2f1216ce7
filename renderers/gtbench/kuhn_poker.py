"""Kuhn poker: your card, the betting so far and the pot; never the other card in play."""

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
CARDS = ["J", "Q", "K"]


WATCHER = True
"""``text`` and ``image`` take ``watcher=True``: the seat's view for a spectator (the sides
by colour, never "you")."""
COLOURED = [c.title() for c in d.SEAT_COLOURS]
"""The seats as a watcher's view names them (the colours the table draws)."""


def private_card(state: pyspiel.State, seat: int) -> str | None:
    info = state.information_state_string(seat)
    return CARDS[int(info[0])] if info[:1].isdigit() else None


def betting(state: pyspiel.State, seat: int) -> str:
    """The public betting sequence as 'p'/'b' letters, from the seat's information state."""
    info = state.information_state_string(seat)
    return info[1:] if info[:1].isdigit() else info


def pot(actions: str) -> int:
    return 2 + actions.count("b")


def showdown_card(state: pyspiel.State, seat: int) -> str | None:
    """The other player's card once a showdown has shown it, else None."""
    if state.is_terminal() and betting(state, seat) not in ("bp", "pbp"):
        return CARDS[state.history()[1 - seat]]
    return None


def text(state: pyspiel.State, seat: int, *, watcher: bool = False) -> str:
    names = COLOURED if watcher else NAMES
    card = private_card(state, seat)
    actions = betting(state, seat)
    said = [f"{NAMES[i % 2]} {'bet' if a == 'b' else 'passed'}" for i, a in enumerate(actions)]
    whose = f"{COLOURED[seat]}'s" if watcher else "Your"
    lines = [
        seat_line(seat, names, watcher=watcher),
        f"{whose} card: {card or 'not dealt yet'}",
        f"Betting so far: {', '.join(said) if said else 'none'}",
        f"Pot: {pot(actions)} chips (each player anted 1)",
    ]
    other = showdown_card(state, seat)
    if other is not None:
        lines.append(f"Showdown: the other player had {other}.")
    lines.append(turn_line(state, seat, names, watcher=watcher))
    return "\n".join(lines)


def image(state: pyspiel.State, seat: int, *, selection: Sequence[str] = (),
          targets: Sequence[str] = (), last: Sequence[str] | None = None,
          watcher: bool = False) -> Image.Image:
    canvas = d.table(d.seat_title(seat, watcher=watcher), d.table_status(state, seat, watcher=watcher), seat)
    actions = betting(state, seat) if not state.is_chance_node() else ""
    x0, y0, x1, y1 = d.FELT_BOX
    middle = (x0 + x1) / 2
    other = showdown_card(state, seat)
    d.label(canvas, (middle, y0 + 22), d.who(1 - seat, seat, watcher=watcher)
            + (" (showdown)" if other else ""))
    d.card(canvas, (middle - 42, y0 + 40, middle + 42, y0 + 156), other)
    mine = private_card(state, seat) if not state.is_chance_node() else None
    d.card(canvas, (middle - 42, y1 - 150, middle + 42, y1 - 34), mine, highlight=d.GOLD)
    d.label(canvas, (middle, y1 - 18), d.who(seat, seat, watcher=watcher))
    chips = pot(actions)
    cy = (y0 + y1) / 2 + 6
    for i in range(chips):
        canvas.ellipse((middle - 112, cy - 2 - i * 7, middle - 58, cy + 16 - i * 7),
                       fill=d.GOLD, outline=(150, 110, 0), width=1.5)
    d.label(canvas, (middle + 40, cy - 4), f"Pot: {chips} chips", size=18, anchor="lm")
    lines = [f"{d.who(i % 2, seat, watcher=watcher)}: {_named(actions[:i], a)}" for i, a in enumerate(actions)]
    d.history_panel(canvas, d.PANEL_BOX, "Betting", lines, last_marked=bool(last))
    return canvas.finish()


def _named(before: str, action: str) -> str:
    """'pass' or 'bet', with what it means after a bet (fold or call)."""
    if "b" in before:
        return "pass (fold)" if action == "p" else "bet (call)"
    return "pass" if action == "p" else "bet"


def hit_test(state: pyspiel.State, seat: int, x: float, y: float, *,
             selection: Sequence[str] = ()) -> str | None:
    """Kuhn poker is played with buttons: no spot on the table is a move."""
    return None


RENDERER = Renderer(
    page="buttons", text=text, image=image, hit_test=hit_test, watcher=WATCHER,
    sides=tuple(SIDES),
)
