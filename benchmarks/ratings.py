"""Ratings speed: issue 17's three targets beside the figures before, and the older parts.

    python -m benchmarks.ratings --gamebench PATH   # everything (about 4 minutes)
    python -m benchmarks.ratings --small            # the GameBench-sized comparison only

The targets, printed together at the end with the figures measured before (commit b488bc4,
this machine, 2026-11-23):

A. ``python -m sessions ratings --gamebench matches.json --bootstrap 10000`` on GameBench's
   own file, as a whole process, at least 50 times faster than GameBench's method on the
   same data, with the same ratings (benchmarks/ratings_gamebench.py). GameBench's file is
   not in this repository: pass ``--gamebench`` (the file or a checkout), else that row is
   skipped with how to get it.
B. The whole report (overall and 30 game tables) at 1,000,000 matches, 50 agents, 1000
   resamples: at most 5 s (part 2 below).
C. The live Leaderboard with 100,000 stored sessions and one more every second: at most 5%
   of one core, a new session in the table within 5 s (benchmarks/ratings_play.py).

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

from benchmarks import ratings_gamebench, ratings_play  # noqa: E402
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
             bootstrap: int = 1000, classical: bool = False) -> Clock:
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
    return clock


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


BEFORE = {
    "A": "3.7-4.6 s wall, 3.2 s CPU: 19-23x faster than GameBench's method (86 s); "
         "1.19 s of imports (choix, scipy.stats, OpenSpiel, agents)",
    "B": "17.8 s wall, 17.5 s CPU (the issue measured 23-30 s)",
    "C": "every stored session: the whole report again, 284 s CPU at 100,000 sessions "
         "(this store): a core busy without pause, the table minutes behind",
}


def summary(gamebench: ratings_gamebench.GameBenchRun | None, scale: Clock | None,
            live: ratings_play.PlayResult | None) -> None:
    print("\nIssue 17 targets (before: b488bc4 on this machine, 2026-11-23)")
    if gamebench is None:
        print(f"  A. GameBench file: skipped ({ratings_gamebench.HOW_TO_GET})")
    else:
        ratio = gamebench.method / gamebench.command
        same = max(gamebench.same_as_rate, gamebench.same_as_choix,
                   gamebench.reference if gamebench.reference is not None else 0.0)
        print(f"  A. GameBench file, whole command at 10,000 resamples\n"
              f"     before: {BEFORE['A']}\n"
              f"     target: >= 50x GameBench's method ({gamebench.method / 50:.2f} s here), "
              f"ratings within 0.02\n"
              f"     now:    {gamebench.command:.2f} s wall, {gamebench.command_cpu:.2f} s CPU "
              f"({ratio:.0f}x), imports {gamebench.imports:.2f} s, max |diff| {same:.1e} "
              f"-> {'met' if ratio >= 50 and same <= 0.02 else 'NOT met'}")
    if scale is not None:
        print(f"  B. Whole report, 1,000,000 matches, 50 agents, 30 games, 1000 resamples\n"
              f"     before: {BEFORE['B']}\n"
              f"     target: <= 5 s\n"
              f"     now:    {scale} -> {'met' if scale.wall <= 5 else 'NOT met'}"
              + ("" if scale.wall <= 5 or scale.cpu > 5 else " on the wall clock (the CPU "
                 "time is within it: the machine is shared)"))
    if live is not None:
        worst = max(live.delays) + 3 if live.delays else float("nan")
        print(f"  C. Live leaderboard, 100,000 sessions, one stored per second\n"
              f"     before: {BEFORE['C']}\n"
              f"     target: <= 5% of one core; a new session in the table within 5 s\n"
              f"     now:    {live.cpu_share:.1%} of one core; on the page within "
              f"{worst:.1f} s at most (3 s poll included) -> "
              f"{'met' if live.cpu_share <= 0.05 and worst <= 5 else 'NOT met'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="part 1 only")
    parser.add_argument("--classical", action="store_true",
                        help="also time the classical multinomial draw at scale")
    parser.add_argument("--gamebench", type=Path, default=None, metavar="PATH",
                        help="GameBench's matches.json, or a checkout of "
                             "Joshuaclymer/GameBench (target A)")
    parser.add_argument("--gamebench-resamples", type=int, default=300, metavar="N",
                        help="resamples per table at which GameBench's method is timed "
                             "(scaled to 10,000; default 300)")
    parser.add_argument("--reference", type=Path, default=None, metavar="JSON",
                        help="the command's --json output from before, to compare ratings")
    parser.add_argument("--sessions", type=int, default=100_000,
                        help="stored sessions for target C (default 100,000)")
    parser.add_argument("--play-seconds", type=int, default=120,
                        help="how long a session is stored every second (0: skip C)")
    parser.add_argument("--store", type=Path, default=None,
                        help="the synthetic store for C (built once if missing)")
    args = parser.parse_args()
    part_one()
    if args.small:
        return
    gamebench = None
    if args.gamebench is not None:
        print("\nGameBench's own file (target A)")
        gamebench = ratings_gamebench.run(args.gamebench, args.gamebench_resamples,
                                          args.reference)
        print("\n".join(ratings_gamebench.report(gamebench)))
    else:
        print(f"\nGameBench's own file (target A): skipped; {ratings_gamebench.HOW_TO_GET}")
    scale = part_two(classical=args.classical)
    live = None
    if args.play_seconds:
        print(f"\nThe Leaderboard under play (target C): {args.sessions:,} sessions, one "
              f"more every second for {args.play_seconds} s")
        live = ratings_play.play(args.store, args.sessions, args.play_seconds)
        print("\n".join(ratings_play.report(live)))
    summary(gamebench, scale, live)


if __name__ == "__main__":
    main()
