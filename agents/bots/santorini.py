"""Santorini: a two-ply search (its turn, then every reply) on a board evaluation.

The evaluation is what a Santorini player counts: how high each worker stands (a worker on
level 2 is one step from winning), how high the squares it can step onto are, how many
squares it can reach, how central it stands; mine minus the opponent's. A climb onto level 3
wins at once, and a turn that leaves the opponent a winning climb or no move at all is
scored as the loss or the win it is. Workers are placed near the centre.

The board is public (complete information): the bot reads the levels and the workers from
its seat's copy of the position and proposes an action id through the adapter.
"""

from __future__ import annotations

import time

import numpy as np

from agents.base import Decision, SeatView
from games.actions import ActionId
from games.gamebench import santorini as rules
from games.registry import GameSpec

WIN = 1_000_000.0
_NEIGHBOURS = tuple(
    tuple((d, t) for d in range(8) if (t := rules.step(s, d)) is not None)
    for s in range(rules.SQUARES)
)
"""Per square: (direction, neighbouring square) for each neighbour on the board."""
_CENTRE = tuple(
    2 - max(abs(s % rules.SIZE - 2), abs(s // rules.SIZE - 2)) for s in range(rules.SQUARES)
)
"""0 on the edge, 1 one ring in, 2 at c3."""

Turn = tuple[int, int, int, int | None]
"""(action id, worker index 0-3, target square, built square or None for a winning climb)."""


def turns(levels: list[int], workers: list[int], player: int) -> list[Turn]:
    """Every turn of ``player`` (workers ``2p`` and ``2p+1``), winning climbs first."""
    occupied = set(workers)
    wins: list[Turn] = []
    moves: list[Turn] = []
    for w in range(2):
        worker = 2 * player + w
        origin = workers[worker]
        here = levels[origin]
        for move, target in _NEIGHBOURS[origin]:
            height = levels[target]
            if target in occupied or height == rules.DOME or height > here + 1:
                continue
            if height == 3 and here < 3:
                wins.append((rules._WIN_BASE + w * 8 + move, worker, target, None))
                continue
            for build, built in _NEIGHBOURS[target]:
                if levels[built] == rules.DOME or (built in occupied and built != origin):
                    continue
                moves.append((rules._TURN_BASE + w * 64 + move * 8 + build, worker,
                              target, built))
    return wins + moves


def evaluate(levels: list[int], workers: list[int], player: int) -> float:
    """How good the board is for ``player`` (the other player to move next)."""
    return _side(levels, workers, player) - _side(levels, workers, 1 - player)


def _side(levels: list[int], workers: list[int], player: int) -> float:
    occupied = set(workers)
    score = 0.0
    for worker in (2 * player, 2 * player + 1):
        origin = workers[worker]
        here = levels[origin]
        score += 30.0 * here + 4.0 * _CENTRE[origin]
        for _, target in _NEIGHBOURS[origin]:
            height = levels[target]
            if target in occupied or height == rules.DOME or height > here + 1:
                continue
            score += 2.0 + 5.0 * height
            if height == 3 and here == 2:
                score += 40.0  # a climb that wins next turn unless it is blocked
    return score


def _after(levels: list[int], workers: list[int], turn: Turn) -> tuple[list[int], list[int]]:
    _, worker, target, built = turn
    moved = list(workers)
    moved[worker] = target
    if built is None:
        return levels, moved
    raised = list(levels)
    raised[built] += 1
    return raised, moved


def best_turn(levels: list[int], workers: list[int], player: int,
              rng: np.random.Generator) -> tuple[Turn, float]:
    """The turn whose worst reply leaves the best board (ties broken at random)."""
    mine = turns(levels, workers, player)
    if mine[0][3] is None:
        return mine[0], WIN
    # Try the turns that look best at once first: the replies are then cut short sooner.
    scored = []
    for turn in mine:
        after_levels, after_workers = _after(levels, workers, turn)
        scored.append((evaluate(after_levels, after_workers, player), rng.random(), turn,
                       after_levels, after_workers))
    scored.sort(key=lambda item: (-item[0], item[1]))
    best: tuple[Turn, float] | None = None
    for _, _, turn, after_levels, after_workers in scored:
        worst = _worst_reply(after_levels, after_workers, player,
                             best[1] if best is not None else -2 * WIN)
        if best is None or worst > best[1]:
            best = (turn, worst)
        if worst >= WIN:
            break
    assert best is not None
    return best


def _worst_reply(levels: list[int], workers: list[int], player: int, cut: float) -> float:
    """The board value for ``player`` after the opponent's best reply (stops early once it
    is no better than ``cut``, the best turn found so far)."""
    replies = turns(levels, workers, 1 - player)
    if not replies:
        return WIN  # the opponent cannot move: it loses
    if replies[0][3] is None:
        return -WIN
    worst = WIN
    for reply in replies:
        value = evaluate(*_after(levels, workers, reply), player)
        worst = min(worst, value)
        if worst <= cut:
            break
    return worst


def placement(levels: list[int], workers: list[int | None], player: int) -> int:
    """Where to place the next worker: the most central free square, next to the opponent's
    workers and to my own (the first such in board order)."""
    taken = {w for w in workers if w is not None}
    friends = {w for i, w in enumerate(workers) if w is not None and i // 2 == player}
    foes = taken - friends

    def worth(square: int) -> float:
        near = {t for _, t in _NEIGHBOURS[square]}
        return 3.0 * _CENTRE[square] + len(near & foes) + 0.5 * len(near & friends)

    free = [s for s in range(rules.SQUARES) if s not in taken and levels[s] != rules.DOME]
    return max(free, key=lambda s: (worth(s), -s))


class SantoriniBot:
    """Searches its turn and the opponent's reply; places its workers centrally."""

    def __init__(self, game: GameSpec, params: dict[str, object],
                 rng: np.random.Generator) -> None:
        self._rng = rng

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        start = time.perf_counter()
        state = view.state
        levels = list(state.levels)
        legal = {move.action for move in view.legal}
        if state.placing:
            action = placement(levels, list(state.workers), view.seat)
            why = "places its worker near the centre"
        else:
            workers = [int(w) for w in state.workers]
            turn, value = best_turn(levels, workers, view.seat, self._rng)
            action = turn[0]
            why = ("climbs onto level 3 and wins" if turn[3] is None else
                   "wins next turn whatever the reply" if value >= WIN else
                   "every turn loses to a climb onto level 3" if value <= -WIN else
                   f"best board after the opponent's best reply ({value:+.0f})")
        if action not in legal:  # the rules' own list is the authority
            action = view.legal[0].action
            why = "the first legal move"
        return Decision(ActionId(action=action), raw=view.label(action), reasoning=why,
                        seconds=time.perf_counter() - start)
