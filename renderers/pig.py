"""Pig: both scores, the turn total and the recent rolls."""

from __future__ import annotations

import re

import pyspiel

from renderers.common import seat_line, turn_line

NAMES = ["player 0", "player 1"]
_STATE = re.compile(r"Scores: (?P<s0>\d+) (?P<s1>\d+), Turn total: (?P<total>\d+)")


def scores(state: pyspiel.State) -> tuple[list[int], int]:
    """([score of player 0, score of player 1], turn total)."""
    match = _STATE.search(str(state))
    if match is None:
        return [0, 0], 0
    return [int(match.group("s0")), int(match.group("s1"))], int(match.group("total"))


def last_rolls(state: pyspiel.State, count: int = 6) -> list[int]:
    return [h.action + 1 for h in state.full_history() if h.player < 0][-count:]


def text(state: pyspiel.State, seat: int) -> str:
    (s0, s1), total = scores(state)
    target = int(state.get_game().get_parameters()["winscore"])
    rolls = last_rolls(state)
    lines = [
        seat_line(seat, NAMES),
        f"Scores: player 0 {s0}, player 1 {s1} (first to {target} wins)",
        f"Turn total: {total}",
        f"Recent rolls: {', '.join(map(str, rolls)) if rolls else 'none'}",
        turn_line(state, seat, NAMES),
    ]
    return "\n".join(lines)
