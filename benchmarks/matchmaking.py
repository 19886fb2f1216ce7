"""Active matchmaking against uniform pairing: games needed to separate the top 10 of a
20-agent field.

    python -m benchmarks.matchmaking [--agents 20] [--top 10] [--runs 8] [--batch 20]

A field of ``--agents`` agents with true Bradley–Terry strengths (normal, sd 1, a fresh draw
per run) plays games in batches of ``--batch``; after each batch the ratings are refitted
(sessions/ratings/matchmaking.py) and the run stops once every adjacent pair of the top 10
(and the 10th with the 11th) is resolved: the 95% interval of their difference excludes 0,
or lies within ±0.1 (declared tied). Uniform pairing draws each game's pair at random;
active pairing takes ``next_pairs`` (the games that most narrow the unresolved intervals).
Both runs of one seed play the same field. Target: active needs <= 60% of uniform's games
(the median over runs). Runs that hit ``--cap`` games count as the cap.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

from sessions.ratings.matchmaking import fit, next_pairs, unresolved


def run(strength: np.ndarray, *, active: bool, top: int, batch: int, cap: int,
        rng: np.random.Generator) -> int:
    n = len(strength)
    wins = np.zeros((n, n))
    for i in range(n):  # one game per pair to start, so every agent is on the scale
        for j in range(i + 1, n):
            _play(wins, strength, i, j, rng)
    played = n * (n - 1) // 2
    while played < cap:
        found = fit(wins)
        if not unresolved(found, top):
            return played
        if active:
            pairs = next_pairs(found, batch, top=top)
        else:
            picks = [rng.choice(n, 2, replace=False) for _ in range(batch)]
            pairs = [(int(a), int(b)) for a, b in picks]
        for i, j in pairs:
            _play(wins, strength, i, j, rng)
        played += len(pairs)
    return cap


def _play(wins: np.ndarray, strength: np.ndarray, i: int, j: int,
          rng: np.random.Generator) -> None:
    if rng.random() < 1.0 / (1.0 + np.exp(strength[j] - strength[i])):
        wins[i, j] += 1
    else:
        wins[j, i] += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", type=int, default=20)
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--batch", type=int, default=20)
    parser.add_argument("--cap", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    counts: dict[str, list[int]] = {"uniform": [], "active": []}
    start = time.perf_counter()
    for r in range(args.runs):
        strength = np.random.default_rng([args.seed, r]).normal(0.0, 1.0, args.agents)
        for name in counts:
            rng = np.random.default_rng([args.seed, r, 1])  # the same luck for both
            counts[name].append(run(strength, active=name == "active", top=args.top,
                                    batch=args.batch, cap=args.cap, rng=rng))
        print(f"run {r}: uniform {counts['uniform'][-1]:,} games, active "
              f"{counts['active'][-1]:,} games", flush=True)
    uniform, active = (statistics.median(counts[k]) for k in ("uniform", "active"))
    ratio = active / uniform
    print(f"median games to separate the top {args.top} of {args.agents}: uniform "
          f"{uniform:,.0f}, active {active:,.0f} ({ratio:.0%} of uniform; "
          f"{time.perf_counter() - start:.0f} s)")
    print(f"target (active <= 60% of uniform): {'met' if ratio <= 0.6 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
