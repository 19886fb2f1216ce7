"""Pig: perfect play, computed from the rules when the bot is built.

The chance of winning from every position (my score, the opponent's score, my turn total,
me to move) is the fixed point of: rolling is worth the average over the die (a 1 hands the
turn over with my score unchanged, any other face adds to the turn total), stopping is worth
what the opponent cannot win after I bank the turn total (Neller & Presser, "Optimal Play of
the Dice Game Pig", 2004). Value iteration finds it; the bot then picks the better of the two
at every decision. With GTBench's goal of 20, perfect play never stops before the goal is
reached: a turn total banked early hands the opponent the initiative, which is worth more
than the points.
"""

from __future__ import annotations

import functools
import re
import time

import numpy as np

from agents.base import Decision, SeatView
from games.actions import ActionId
from games.registry import GameSpec

_STATE = re.compile(r"Scores: (?P<s0>\d+) (?P<s1>\d+), Turn total: (?P<total>\d+)")


@functools.lru_cache(maxsize=8)
def win_chances(goal: int, faces: int = 6, tolerance: float = 1e-9) -> np.ndarray:
    """``W[i, j, k]``: the chance that the player to move wins with score ``i``, the
    opponent's score ``j`` and turn total ``k`` (0 where ``i + k >= goal``: no such turn).

    Each sweep updates the turn totals from the highest down, so a roll's outcomes are
    already this sweep's; the sweeps repeat until nothing moves (46 sweeps, 0.2 s, for a
    goal of 20; 14 s for 100)."""
    w = np.zeros((goal, goal, goal))
    while True:
        change = 0.0
        for k in range(goal - 1, -1, -1):
            new = np.maximum(*_roll_and_stop(w, k, goal, faces))
            new[goal - k:] = 0.0
            change = max(change, float(np.max(np.abs(new - w[:, :, k]))))
            w[:, :, k] = new
        if change < tolerance:
            return w


def _roll_and_stop(w: np.ndarray, k: int, goal: int, faces: int
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The chance of winning by rolling and by stopping with turn total ``k``, for every
    pair of scores [mine, theirs]."""
    theirs_first = w[:, :, 0].T  # [i, j] -> W[j, i, 0]: the opponent to move
    roll = (1 - theirs_first) / faces  # a 1: the turn total is lost
    for face in range(2, faces + 1):
        after = w[:, :, k + face].copy() if k + face < goal else np.zeros((goal, goal))
        after[max(goal - k - face, 0):] = 1.0  # the goal is reached: stop and win
        roll = roll + after / faces
    stop = np.full((goal, goal), -1.0)  # stopping on nothing only passes the die
    if k > 0:
        stop[: goal - k] = 1 - theirs_first[k:]  # banked: W[j, i + k, 0]
        stop[goal - k:] = 1.0
    return roll, stop


def read_position(text: str) -> tuple[tuple[int, int], int]:
    """(scores of player 0 and player 1, turn total) from OpenSpiel's pig state text."""
    match = _STATE.search(text)
    if match is None:
        raise ValueError(f"not a pig position: {text!r}")
    return (int(match.group("s0")), int(match.group("s1"))), int(match.group("total"))


class PigBot:
    """Rolls or stops, whichever gives the better chance of winning under perfect play."""

    def __init__(self, game: GameSpec, params: dict[str, object],
                 rng: np.random.Generator) -> None:
        parameters = game.load(params).get_parameters()
        self._goal = int(parameters["winscore"])
        self._faces = int(parameters["diceoutcomes"])

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        start = time.perf_counter()
        moves = {move.label: move for move in view.legal}
        scores, total = read_position(str(view.state))
        mine, theirs = scores[view.seat], scores[1 - view.seat]
        if "roll" not in moves or mine + total >= self._goal:
            choice, reason = "stop", f"banking {total} reaches {mine + total}"
        else:
            rolls, stops = _roll_and_stop(win_chances(self._goal, self._faces), total,
                                          self._goal, self._faces)
            roll, stop = float(rolls[mine, theirs]), float(stops[mine, theirs])
            choice = "roll" if roll >= stop or "stop" not in moves else "stop"
            reason = f"win chance {roll:.0%} if I roll, {max(stop, 0):.0%} if I stop"
        move = moves[choice]
        return Decision(ActionId(action=move.action), raw=move.label, reasoning=reason,
                        seconds=time.perf_counter() - start)
