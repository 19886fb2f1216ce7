"""Liar's dice: your own die (or dice) and the bids so far."""

from __future__ import annotations

import pyspiel

from games.registry import get
from renderers.common import seat_line, turn_line

NAMES = ["player 0", "player 1"]


def own_dice(state: pyspiel.State, seat: int) -> str:
    info = state.information_state_string(seat)
    return info.split(" ", 1)[0]


def bids(state: pyspiel.State) -> list[tuple[int, str]]:
    """(bidder, label) for every bid so far; chance rolls are left out."""
    label = get("liars_dice").grammar.label
    return [(h.player, label(state, h.player, h.action))
            for h in state.full_history() if h.player >= 0]


def text(state: pyspiel.State, seat: int) -> str:
    mine = own_dice(state, seat)
    lines = [seat_line(seat, NAMES),
             f"Your dice: {' '.join(mine) if mine else 'not rolled yet'} (sixes are wild)"]
    made = bids(state)
    lines.append("Bids so far: " + (", ".join(f"{NAMES[p]}: {label}" for p, label in made)
                                     if made else "none"))
    if state.is_terminal():
        everything = str(state).split(" ")
        lines.append(f"Revealed dice: player 0 {everything[0]}, player 1 {everything[1]}")
    lines.append(turn_line(state, seat, NAMES))
    return "\n".join(lines)
