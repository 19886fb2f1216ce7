"""Negotiation: the item pool, your own values, and every proposal and utterance so far."""

from __future__ import annotations

from collections.abc import Sequence

import pyspiel
from PIL import Image

from games.gtbench.catalogue import negotiation_move
from renderers import drawing as d
from renderers.common import seat_line, turn_line
from renderers.contract import Renderer

SIDES = d.SEAT_COLOURS
"""Each seat's side as the image draws it (the page says "You ({side})")."""
NAMES = ["player 0", "player 1"]
ITEM_COLOURS = [(232, 93, 4), (106, 76, 147), (25, 130, 196)]


WATCHER = True
"""``text`` and ``image`` take ``watcher=True``: the seat's view for a spectator (the sides
by colour, never "you")."""
COLOURED = [c.title() for c in d.SEAT_COLOURS]
"""The seats as a watcher's view names them (the colours the table draws)."""


def observation(state: pyspiel.State, seat: int) -> dict[str, str]:
    """The fields of OpenSpiel's per-player observation string (only this seat's values)."""
    if state.is_chance_node():
        return {}
    fields = {}
    for line in state.observation_string(seat).splitlines():
        name, _, value = line.partition(":")
        fields[name.strip()] = value.strip()
    return fields


def moves(state: pyspiel.State) -> list[tuple[int, str, list[int]]]:
    """(player, verb, numbers) for every move so far; all of them are public."""
    return [(h.player, *negotiation_move(state, h.action))
            for h in state.full_history() if h.player >= 0]


def text(state: pyspiel.State, seat: int, *, watcher: bool = False) -> str:
    names = COLOURED if watcher else NAMES
    fields = observation(state, seat)
    pool = fields.get("Item pool", "?")
    values = fields.get(f"Agent {seat} util vec", "?")
    whose = f"{COLOURED[seat]}'s" if watcher else "Your"
    lines = [
        seat_line(seat, names, watcher=watcher),
        f"Item pool (items of type 1, 2, 3): {pool}",
        f"{whose} value per item (type 1, 2, 3): {values}",
        f"Maximum number of proposals: {fields.get('Max steps', '?')}",
        "History:",
    ]
    made = moves(state)
    for player, verb, numbers in made:
        said = verb if verb == "agree" else f"{verb} {numbers}"
        lines.append(f"  {NAMES[player]}: {said}")
    if not made:
        lines.append("  nothing yet")
    if not state.is_terminal() and fields:
        kind = fields.get("Turn Type", "Proposal").lower()
        lines.append(f"Turn type: {kind}")
    lines.append(turn_line(state, seat, names, watcher=watcher))
    return "\n".join(lines)


def _numbers(text: str) -> list[int]:
    return [int(n) for n in text.split()] if text and text != "?" else []


def image(state: pyspiel.State, seat: int, *, selection: Sequence[str] = (),
          targets: Sequence[str] = (), last: Sequence[str] | None = None,
          watcher: bool = False) -> Image.Image:
    canvas = d.table(d.seat_title(seat, watcher=watcher),
                     d.table_status(state, seat, watcher=watcher), seat)
    me = COLOURED[seat] if watcher else "you"
    fields = observation(state, seat)
    pool = _numbers(fields.get("Item pool", ""))
    values = _numbers(fields.get(f"Agent {seat} util vec", ""))
    made = moves(state)
    x0, y0, x1, _ = d.FELT_BOX
    d.label(canvas, (x0 + 20, y0 + 20), "Item pool", anchor="lm")
    d.label(canvas, (x1 - 20, y0 + 20), f"each worth to {me}", anchor="rm", size=13)
    for kind, count in enumerate(pool):
        top = y0 + 40 + kind * 52
        d.label(canvas, (x0 + 20, top + 20), f"type {kind + 1}", anchor="lm", size=14)
        for i in range(count):
            _item(canvas, kind, (x0 + 92 + i * 34, top + 4))
        worth = values[kind] if kind < len(values) else "?"
        d.label(canvas, (x1 - 20, top + 20), f"{worth} pt", anchor="rm", size=18)
    proposals = [(p, numbers) for p, verb, numbers in made if verb == "propose"]
    y = y0 + 210
    if proposals and pool and values:
        by, keep = proposals[-1]
        you_get = keep if by == seat else [n - k for n, k in zip(pool, keep, strict=True)]
        points = sum(v * n for v, n in zip(values, you_get, strict=True))
        whose = (f"{COLOURED[by]}'s proposal" if watcher else
                 "Your proposal" if by == seat else "Opponent's proposal")
        agreed = any(verb == "agree" for _, verb, _ in made)
        d.label(canvas, (x0 + 20, y), f"{whose}{' (agreed)' if agreed else ''}:", anchor="lm")
        d.label(canvas, (x0 + 20, y + 28),
                f"{me} get{'s' * watcher} {you_get} = {points} points", anchor="lm", size=18,
                fill=d.GOLD)
    else:
        d.label(canvas, (x0 + 20, y), "No proposal on the table yet", anchor="lm")
    count = len(proposals)
    limit = fields.get("Max steps", "?")
    turn = fields.get("Turn Type", "")
    d.label(canvas, (x0 + 20, y + 70), f"Proposals made: {count} of at most {limit}",
            anchor="lm", size=14, bold=False)
    if state.is_terminal():
        agreed = any(verb == "agree" for _, verb, _ in made)
        outcome = "Deal: each scores the items they get" if agreed else "No deal: nobody scores"
        d.label(canvas, (x0 + 20, y + 96), outcome, anchor="lm", size=15, fill=d.GOLD)
    elif turn:
        note = ("utterance turn: say [x, y, z], symbols 0-4" if turn == "Utterance"
                else "proposal turn: propose [a, b, c] to keep, or agree")
        d.label(canvas, (x0 + 20, y + 96), note.capitalize(), anchor="lm", size=14, bold=False)
    lines = [f"{d.who(p, seat, watcher=watcher)}: "
             f"{verb if verb == 'agree' else f'{verb} {numbers}'}" for p, verb, numbers in made]
    d.history_panel(canvas, d.PANEL_BOX, "Moves", lines, last_marked=bool(last), size=13)
    return canvas.finish()


def _item(canvas: d.Canvas, kind: int, corner: tuple[float, float]) -> None:
    x, y = corner
    colour = ITEM_COLOURS[kind % 3]
    edge = d.HEADER_INK
    if kind == 0:
        canvas.circle((x + 14, y + 16), 13, fill=colour, outline=edge, width=1.5)
    elif kind == 1:
        canvas.rect((x + 2, y + 4, x + 28, y + 30), fill=colour, outline=edge, width=1.5,
                    radius=4)
    else:
        canvas.polygon([(x + 15, y + 2), (x + 29, y + 30), (x + 1, y + 30)], fill=colour,
                       outline=edge)


def hit_test(state: pyspiel.State, seat: int, x: float, y: float, *,
             selection: Sequence[str] = ()) -> str | None:
    """Negotiation is played with the move list and typed moves: no spot is a move."""
    return None


RENDERER = Renderer(
    page="buttons", text=text, image=image, hit_test=hit_test, watcher=WATCHER,
    sides=tuple(SIDES),
)
