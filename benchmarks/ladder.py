"""The difficulty ladder, calibrated: python -m benchmarks.ladder [--games ID ...] [--write]

For every game, each level of ``agents/ladder.json`` plays the level below it, and the top
level plays the two trivial strategies of :mod:`agents.trivial` ("always the first legal
move", "always pass/stay/end when allowed"). Two-seat games alternate seats; in N-seat games
the level sits in each seat in turn among N-1 copies of the other side, and its mean return
is compared with what the strategy in its place would have scored there (GAMA-Bench's
``equilibrium`` in its games, else the trivial strategy itself).

Prints, per pairing: games, the level's mean score (win 1, draw 1/2, loss 0) with its 95%
Wilson interval, and whether the target is met: the interval's lower bound above 50% for a
level against the one below; >= 90% wins against each trivial strategy for the top level of
a two-seat game; for N-seat games, a mean return at least the reference's. ``--write`` stores
the measured numbers in ``agents/ladder.json`` (the Leaderboard shows them).
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from agents.specs import make_agent, parse_spec, seat_seed
from agents.trivial import TRIVIAL, trivial_agent
from games import registry
from sessions.engine import play_match
from sessions.match import Match
from sessions.record import MatchRecord, SeatRecord


def seat_record(name: str) -> SeatRecord:
    if name in TRIVIAL:
        return SeatRecord(kind=name, spec=name, entity=name)
    spec = parse_spec(name)
    return SeatRecord(kind=spec.kind, spec=spec.text, entity=spec.entity,
                      settings=spec.settings())


def play(game_id: str, lineup: Sequence[str], *, seed: int) -> MatchRecord:
    """One game of ``game_id`` with one agent name (a spec, ``first`` or ``pass``) per seat."""
    match = Match(game_id, [seat_record(name) for name in lineup], seed=seed)
    agents = [trivial_agent(name) if name in TRIVIAL else
              make_agent(name, match.spec, match.record.params, seed=seat_seed(seed, i, name))
              for i, name in enumerate(lineup)]
    return play_match(match, agents)


@dataclass
class Tally:
    """A side's results over several games."""

    scores: list[float] = field(default_factory=list)
    """Per game: 1 win, 1/2 draw, 0 loss (placement among the seats)."""
    returns: list[float] = field(default_factory=list)
    reference: list[float] = field(default_factory=list)
    """N-seat games: what the reference strategy returned in the same seat and deal."""
    seconds: float = 0.0

    @property
    def games(self) -> int:
        return len(self.scores)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.scores) if self.scores else float("nan")

    def interval(self) -> tuple[float, float]:
        return wilson(self.mean, self.games)


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a rate ``p`` seen over ``n`` games (draws count half)."""
    if n == 0:
        return (0.0, 1.0)
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _one(job: tuple[str, tuple[str, ...], int, int]) -> tuple[float, float, float]:
    game_id, lineup, seed, seat = job
    start = time.perf_counter()
    record = play(game_id, lineup, seed=seed)
    return (record.scores or [0.0] * len(lineup))[seat], (record.returns or [0.0] * len(lineup))[seat], \
        time.perf_counter() - start


def _run(jobs: list[tuple[str, tuple[str, ...], int, int]], workers: int) -> list[tuple[float, float, float]]:
    if workers <= 1:
        return [_one(job) for job in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(_one, jobs))


def duel(game_id: str, a: str, b: str, games: int, *, seed: int = 0, workers: int = 1) -> Tally:
    """``a`` against ``b`` over ``games`` two-seat games, seats alternating: ``a``'s tally."""
    jobs = []
    for g in range(games):
        seat = g % 2
        lineup = (a, b) if seat == 0 else (b, a)
        jobs.append((game_id, lineup, seed + g, seat))
    tally = Tally()
    for score, ret, seconds in _run(jobs, workers):
        tally.scores.append(score)
        tally.returns.append(ret)
        tally.seconds += seconds
    return tally


def among(game_id: str, a: str, others: str, games: int, *, reference: str | None = None,
          players: int | None = None, seed: int = 0, workers: int = 1) -> Tally:
    """``a`` in one seat (each seat in turn) among copies of ``others``; with ``reference``,
    the same deals are played again with ``reference`` in ``a``'s place, for comparison."""
    n = players or registry.get(game_id).load().num_players()
    jobs, ref_jobs = [], []
    for g in range(games):
        seat = g % n
        lineup = tuple(a if i == seat else others for i in range(n))
        jobs.append((game_id, lineup, seed + g, seat))
        if reference is not None:
            ref = tuple(reference if i == seat else others for i in range(n))
            ref_jobs.append((game_id, ref, seed + g, seat))
    tally = Tally()
    for score, ret, seconds in _run(jobs, workers):
        tally.scores.append(score)
        tally.returns.append(ret)
        tally.seconds += seconds
    for _, ret, _ in _run(ref_jobs, workers):
        tally.reference.append(ret)
    return tally
