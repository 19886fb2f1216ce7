"""Negotiation: the item pool, your own values, and every proposal and utterance so far."""

from __future__ import annotations

import pyspiel

from games.gtbench import negotiation_move
from renderers.common import seat_line, turn_line

NAMES = ["player 0", "player 1"]


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


def text(state: pyspiel.State, seat: int) -> str:
    fields = observation(state, seat)
    pool = fields.get("Item pool", "?")
    values = fields.get(f"Agent {seat} util vec", "?")
    lines = [
        seat_line(seat, NAMES),
        f"Item pool (items of type 1, 2, 3): {pool}",
        f"Your value per item (type 1, 2, 3): {values}",
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
    lines.append(turn_line(state, seat, NAMES))
    return "\n".join(lines)
