"""Ratings speed: our vectorised bootstrap against a plain per-bootstrap loop, and at scale.

    python benchmarks/ratings.py            # both parts
    python benchmarks/ratings.py --small    # the GameBench-sized comparison only

Part 1, a GameBench-sized file (≈300 matches, 7 agents, 9 games, GameBench-like scores:
mostly wins and losses, some ties and fractions), 1000 bootstraps with GameBench's pooled
resampling: (a) the straightforward loop — draw the match list with weights 1/N_game
(``random.choices``, as GameBench did), build the comparison matrix, fit it with
``choix.ilsr_pairwise_dense``, repeat; (b) ours (``sessions.ratings.report.rate``); (c) the loop
again on *our* resamples, which must give the same ratings to 1e-6. Ratio = (a) / (b).

Part 2, 1,000,000 synthetic matches between 50 agents in 30 games, 1000 bootstraps: the
overall ratings with pooled (GameBench's) and by-game (our default) resampling, then the
whole report (overall and all 30 games). Games this large (≥ resample.BAYESIAN_FROM
matches) are redrawn by the Bayesian bootstrap; ``--classical`` also times the by-game
overall with the classical multinomial draw for every game, for comparison.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import choix
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sessions.ratings import bradley_terry as bt  # noqa: E402
from sessions.ratings import resample  # noqa: E402
from sessions.ratings.report import Settings, cells_of, rate  # noqa: E402
from sessions.ratings.results import MatchResult  # noqa: E402

ALPHA = 0.001  # GameBench's
T = TypeVar("T")


def gamebench_like(rng: np.random.Generator, matches: int = 300, agents: int = 7,
                   games: int = 9) -> list[MatchResult]:
    strengths = rng.normal(0, 1, agents)
    per_game = rng.multinomial(matches, rng.dirichlet(np.full(games, 3.0)))
    out = []
    for g, count in enumerate(per_game):
        for _ in range(count):
            a, b = rng.choice(agents, 2, replace=False)
            p = 1 / (1 + np.exp(strengths[b] - strengths[a]))
            u = rng.random()
            score = 0.5 if u < 0.07 else round(float(p), 2) if u < 0.15 else float(rng.random() < p)
            out.append(MatchResult(f"game{g}", (f"agent{a}", f"agent{b}"), (score, 1 - score)))
    return out


def loop_bootstrap(results: list[MatchResult], entities: list[str], bootstrap: int,
                   seed: int) -> np.ndarray:
    """GameBench's procedure, one resample at a time (ties count half, as ours here)."""
    index = {e: i for i, e in enumerate(entities)}
    per_game = {g: sum(r.game == g for r in results) for g in {r.game for r in results}}
    weights = [1 / per_game[r.game] for r in results]
    draw = random.Random(seed)
    out = np.empty((bootstrap, len(entities)))
    for b in range(bootstrap):
        matrix = np.zeros((len(entities), len(entities)))
        for r in draw.choices(results, weights=weights, k=len(results)):
            i, j = index[r.entities[0]], index[r.entities[1]]
            si, sj = (0.5, 0.5) if r.tie else r.scores
            matrix[i, j] += si
            matrix[j, i] += sj
        out[b] = choix.ilsr_pairwise_dense(matrix, alpha=ALPHA, max_iter=10_000, tol=1e-10)
    return out


def best_of(runs: int, work: Callable[[], T]) -> tuple[float, T]:
    """The fastest of ``runs`` timings (the machine is shared) and the work's result."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - start)
    return min(times), result


def loop_on_counts(cells: resample.Cells, counts: np.ndarray) -> np.ndarray:
    return np.array([bt.fit_choix(cells, cells.sample(row), alpha=ALPHA) for row in counts])


def part_one(bootstrap: int = 1000) -> None:
    results = gamebench_like(np.random.default_rng(2024))
    settings = Settings(bootstrap=bootstrap, seed=1, ties="half", alpha=ALPHA,
                        resampling="pooled")
    entities = sorted({e for r in results for e in r.entities})
    games = len({r.game for r in results})
    print(f"GameBench-sized: {len(results)} matches, {len(entities)} agents, {games} games, "
          f"{bootstrap} bootstraps, alpha {ALPHA}, pooled resampling")

    t_loop, loop = best_of(3, lambda: loop_bootstrap(results, entities, bootstrap, seed=1))
    t_ours, table = best_of(7, lambda: rate(results, settings, per_game=False).overall)
    ours = np.array([table.get(e).rating for e in entities])

    cells = cells_of(results, entities, "half")
    counts = resample.counts(cells, 50, np.random.default_rng(5))
    same_draws = np.abs(loop_on_counts(cells, counts)
                        - bt.fit(cells, cells.sample(counts), alpha=ALPHA,
                                 start=bt.fit_choix(cells, alpha=ALPHA))).max()

    spread = loop.std(axis=0) / np.sqrt(bootstrap) * np.sqrt(2)
    print(f"  loop (random.choices + choix.ilsr_pairwise_dense): {t_loop:7.3f} s (best of 3)")
    print(f"  ours (sessions.ratings.report.rate, overall):              {t_ours:7.3f} s (best of 7)")
    print(f"  speed-up: {t_loop / t_ours:.0f}x")
    print(f"  ratings, ours vs loop (independent resamples): max |diff| "
          f"{np.abs(ours - loop.mean(axis=0)).max():.4f} (Monte Carlo s.e. of a difference "
          f"≤ {spread.max():.4f})")
    print(f"  same 50 resamples fitted by choix one at a time vs ours: max |diff| "
          f"{same_draws:.1e}")


def synthetic_arrays(rng: np.random.Generator, matches: int, agents: int, games: int
                     ) -> tuple[np.ndarray, ...]:
    strengths = rng.normal(0, 1, agents)
    game = rng.integers(0, games, matches)
    a = rng.integers(0, agents, matches)
    b = (a + rng.integers(1, agents, matches)) % agents
    p = 1 / (1 + np.exp(strengths[b] - strengths[a]))
    draw = 0.2 * np.minimum(p, 1 - p)
    u = rng.random(matches)
    score = np.where(u < p - draw, 1.0, np.where(u < p + draw, 0.5, 0.0))
    return strengths, game, a, b, score


def part_two(matches: int = 1_000_000, agents: int = 50, games: int = 30,
             bootstrap: int = 1000, classical: bool = False) -> None:
    rng = np.random.default_rng(7)
    strengths, game, a, b, score = synthetic_arrays(rng, matches, agents, games)
    weight = 1.0 / np.bincount(game, minlength=games)[game]
    print(f"\nAt scale: {matches:,} matches, {agents} agents, {games} games, "
          f"{bootstrap} bootstraps")
    runs = [("pooled (GameBench)", None, None), ("by game (default)", game, None)]
    if classical:
        runs.append(("by game, classical", game, matches + 1))
    spreads = {}
    for label, stratum, bayesian_from in runs:
        with Clock() as clock:
            cells = resample.collapse(agents, a, b, score, 1 - score, weight, stratum)
            point = bt.fit_point(cells)
            draws = resample.draw(cells, bootstrap, np.random.default_rng(1),
                                  bayesian_from=bayesian_from)
            samples = bt.fit(cells, draws, start=point)
        r = np.corrcoef(samples.mean(axis=0), strengths)[0, 1]
        spreads[label] = samples.std(axis=0)
        print(f"  overall, {label:18s}: {clock} ({cells.n_cells:,} cells; correlation "
              f"with the true strengths {r:.4f}; mean bootstrap s.d. "
              f"{spreads[label].mean():.4f})")
    names = [f"agent{i}" for i in range(agents)]
    results = [MatchResult(f"game{g}", (names[i], names[j]), (s, 1 - s))
               for g, i, j, s in zip(game.tolist(), a.tolist(), b.tolist(), score.tolist(),
                                     strict=True)]
    with Clock() as clock:
        rate(results, Settings(bootstrap=bootstrap))
    print(f"  whole report (overall + {games} games, by game, from MatchResult objects): "
          f"{clock}")


class Clock:
    """Wall and CPU seconds of a block (CPU time shows the work when the machine is busy)."""

    def __enter__(self) -> Clock:
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall = time.perf_counter() - self.wall
        self.cpu = time.process_time() - self.cpu

    def __str__(self) -> str:
        return f"{self.wall:6.2f} s wall, {self.cpu:6.2f} s CPU"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="part 1 only")
    parser.add_argument("--classical", action="store_true",
                        help="also time the classical multinomial draw at scale")
    args = parser.parse_args()
    part_one()
    if not args.small:
        part_two(classical=args.classical)


if __name__ == "__main__":
    main()
