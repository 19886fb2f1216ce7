"""Blind auction: bid shading solved for the arena's measure, winning by more than the other.

A match of the blind auction is judged by the two returns side by side: the winner is who
got more (the Leaderboard's win/draw/loss), and GTBench's score for "earn" games adds up the
difference. So the bot plays the game whose payoff is *my return minus the opponent's*: a
zero-sum game of incomplete information (each knows only their own valuation, drawn as the
rules draw it), solved by linear programming when the bot is built. Its equilibrium
strategy guarantees that no opponent out-earns it on average, and it shades its bid less
than a bidder who counts only its own return: winning the item also keeps the opponent from
earning (with valuations 1-10 it bids one less than its valuation up to 4, then about 70% of
it: 4 on 6, 7 on 10).

It knows only its own valuation (its information state) and bids blind. OpenSpiel lets a
player bid from 0 to one less than its valuation, so winning the item always earns something.
"""

from __future__ import annotations

import functools
import re
import time

import numpy as np
import pyspiel
from scipy.optimize import linprog

from agents.base import Decision, SeatView
from games.actions import ActionId
from games.registry import GameSpec

Strategy = dict[int, list[tuple[int, float]]]
"""valuation -> [(bid, probability), ...]"""


def valuations(game: pyspiel.Game) -> tuple[tuple[int, float], ...]:
    """The valuations a player may draw, with their chances (the game's first chance node)."""
    state = game.new_initial_state()
    return tuple((int(value), float(p)) for value, p in state.chance_outcomes())


def my_valuation(information_state: str) -> int:
    """My valuation from OpenSpiel's information state, e.g. "p1 val 7"."""
    match = re.search(r"\bval (\d+)", information_state)
    if match is None:
        raise ValueError(f"no valuation in {information_state!r}")
    return int(match.group(1))


def gap(mine: int, bid: int, theirs: int, their_bid: int) -> float:
    """My return minus the opponent's, on average over a tie's coin flip."""
    if bid > their_bid:
        return float(mine - bid)
    if bid < their_bid:
        return float(-(theirs - their_bid))
    return ((mine - bid) - (theirs - their_bid)) / 2


@functools.lru_cache(maxsize=8)
def equilibrium(values: tuple[tuple[int, float], ...]) -> Strategy:
    """The equilibrium bidding of the zero-sum game "my return minus the opponent's"."""
    plays = [(v, b) for v, _ in values for b in range(v)]
    chance = dict(values)
    n, m = len(plays), len(values)
    # maximise sum_w P(w) z_w, where z_w is my worst average gap against valuation w
    cost = np.concatenate([np.zeros(n), -np.array([p for _, p in values])])
    bounds_rows, rhs = [], []
    for col, (w, _) in enumerate(values):
        for their_bid in range(w):
            row = np.zeros(n + m)
            for i, (v, b) in enumerate(plays):
                row[i] = -chance[v] * gap(v, b, w, their_bid)
            row[n + col] = 1.0
            bounds_rows.append(row)
            rhs.append(0.0)
    sums = np.zeros((len(values), n + m))
    for i, (v, _) in enumerate(plays):
        sums[[w for w, _ in values].index(v), i] = 1.0
    solved = linprog(cost, A_ub=np.array(bounds_rows), b_ub=rhs, A_eq=sums,
                     b_eq=np.ones(len(values)),
                     bounds=[(0, None)] * n + [(None, None)] * m, method="highs")
    if not solved.success:
        raise RuntimeError(f"the auction's equilibrium was not found: {solved.message}")
    strategy: Strategy = {v: [] for v, _ in values}
    for (v, b), x in zip(plays, solved.x[:n], strict=True):
        if x > 1e-7:
            strategy[v].append((b, float(x)))
    return {v: _normalised(bids) for v, bids in strategy.items()}


def _normalised(bids: list[tuple[int, float]]) -> list[tuple[int, float]]:
    total = sum(p for _, p in bids)
    return [(b, p / total) for b, p in bids]


class AuctionBot:
    """Bids by the equilibrium of "out-earn the other bidder", from its own valuation."""

    def __init__(self, game: GameSpec, params: dict[str, object],
                 rng: np.random.Generator) -> None:
        self._strategy = equilibrium(valuations(game.load(params)))
        self._rng = rng

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        start = time.perf_counter()
        value = my_valuation(view.state.information_state_string(view.seat))
        bids = self._strategy[value]
        pick = int(self._rng.choice(len(bids), p=[p for _, p in bids]))
        bid = bids[pick][0]
        move = next(m for m in view.legal if m.action == bid)
        return Decision(ActionId(action=move.action), raw=move.label,
                        reasoning=f"valuation {value}: bid {bid}",
                        seconds=time.perf_counter() - start)
