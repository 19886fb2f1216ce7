"""Hive's text view: tiles with coordinates and stacks, a map, reserves, whose turn, the
legal moves in UHP. For language models, screen readers and golden files."""

from __future__ import annotations

import pyspiel

from games.gamebench import hive
from games.gamebench.hive import Position
from renderers.common import seat_line, turn_line

NAMES = ["White (player 0, moves first)", "Black (player 1)"]
SHORT = ["White", "Black"]


def text(state: pyspiel.State, seat: int, *, watcher: bool = False) -> str:
    """Tiles with coordinates and stacks, a map, reserves, whose turn, the legal moves (for
    a ``watcher``, a spectator of that seat: the seat named, never "you")."""
    found = hive.choices(state)
    position = found.position
    names = SHORT if watcher else NAMES
    lines = [seat_line(seat, names, watcher=watcher),
             turn_line(state, seat, names, watcher=watcher)]
    lines.append(f"Move {len(state.history()) + 1}. Coordinates are axial (q,r); the "
                 "neighbours of (q,r) are E (q+1,r), W (q-1,r), NE (q+1,r-1), NW (q,r-1), "
                 "SE (q,r+1), SW (q-1,r+1).")
    if position.stacks:
        lines.append("Tiles on the board (a stack is listed bottom to top; only its top "
                     "tile may move):")
        for where, stack in sorted(position.stacks.items(), key=lambda i: (i[0][1], i[0][0])):
            shown = stack[0] if len(stack) == 1 else (
                f"{stack[-1]} on top of a stack of {len(stack)}: {', '.join(stack)}")
            lines.append(f"  {hive.hex_name(where)} {shown}")
        lines += ["Map (one line per r, each line shifted half a hex right of the one above; "
                  "x^n = top tile x of a stack of n):", *_map(position)]
    else:
        lines.append("The board is empty: the first tile goes to (0,0).")
    if position.last is not None:
        moved = position.last
        origin = "from the reserve" if moved.origin is None else (
            f"from {hive.hex_name(moved.origin)}")
        lines.append(f"Last move: {moved.tile} {origin} to {hive.hex_name(moved.target)}.")
    for player, colour in enumerate(hive.COLOURS):
        left = hive.reserve(state, colour)
        lines.append(f"{SHORT[player]}'s reserve ({len(left)}): {' '.join(left) or 'empty'}")
    lines.append(_queens(position))
    if not state.is_terminal() and state.current_player() == seat:
        lines += _legal_lines(found, watcher)
    return "\n".join(lines)


def _map(position: Position) -> list[str]:
    stacks = position.stacks
    lowest = min(2 * q + r for q, r in stacks)
    rows = []
    for r in range(min(r for _, r in stacks), max(r for _, r in stacks) + 1):
        line = ""
        for q in sorted(q for q, rr in stacks if rr == r):
            stack = stacks[(q, r)]
            cell = stack[-1] if len(stack) == 1 else f"{stack[-1]}^{len(stack)}"
            line = line.ljust((2 * q + r - lowest) * 3) + cell
        rows.append(f"  r={r:<3} {line}".rstrip())
    return rows


def _queens(position: Position) -> str:
    parts = []
    for player, colour in enumerate(hive.COLOURS):
        where = position.where(f"{colour}Q")
        if where is None:
            parts.append(f"{SHORT[player]}'s queen is not placed yet")
        else:
            parts.append(f"{SHORT[player]}'s queen at {hive.hex_name(where)} has "
                         f"{position.queen_neighbours(colour)} of 6 neighbours occupied")
    return "Queens: " + "; ".join(parts) + "."


def _legal_lines(found: hive.Choices, watcher: bool = False) -> list[str]:
    if found.only_pass:
        return ["Legal moves: pass (no other move)." if watcher
                else "Legal moves: pass (you have no other move)."]
    distinct = found.distinct()
    lines = [f"Legal moves ({len(distinct)}; each destination is written with one "
             "neighbouring tile, any other neighbour of that hex works too):"]
    where = found.position
    for choice in distinct:
        assert choice.tile is not None and choice.target is not None
        origin = where.where(choice.tile)
        verb = (f"place {choice.tile} at" if origin is None
                else f"move {choice.tile} {hive.hex_name(origin)} ->")
        lines.append(f"  {verb} {hive.hex_name(choice.target)}: {choice.label}")
    return lines
