"""How long "Your rating" and the Leaderboard's People view take to compute: every person
rated as their own entity (``human:<id>``) with the agents, per game and overall, 200
bootstrap resamples (sessions.web.people), on synthetic matches of people against five agents
over ten games.

    python -m benchmarks.people_ratings [--sizes 1000:50 5000:300]

Prints seconds per size (matches:people). The page answers with the last ratings while a
new computation runs in the background, so this is how stale "Your rating" may be after a
game, not how long a person waits (only the very first request of a process waits).
"""

from __future__ import annotations

import argparse
import random
import time

from sessions.ratings.report import Settings, rate
from sessions.ratings.results import MatchResult, by_player
from sessions.web.people import BOOTSTRAP, LEVEL

GAMES = ["tic_tac_toe", "connect_four", "hive", "pig", "nim", "kuhn_poker", "liars_dice",
         "breakthrough", "santorini", "pit"]
AGENTS = ["random", "mcts", "mcts:30:2s", "bot", "bot:50"]


def matches(n: int, people: int, seed: int = 0) -> list[MatchResult]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        score = rng.choice([1.0, 0.0, 0.5])
        out.append(MatchResult(rng.choice(GAMES), ("human", rng.choice(AGENTS)),
                               (score, 1 - score), None, float(i),
                               (f"p{rng.randrange(people):04d}", None), f"m{i}"))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", nargs="*", default=["1000:50", "5000:300"])
    args = parser.parse_args(argv)
    for size in args.sizes:
        n, people = (int(x) for x in size.split(":"))
        results = by_player(matches(n, people), 1)
        start = time.perf_counter()
        report = rate(results, Settings(bootstrap=BOOTSTRAP, level=LEVEL))
        took = time.perf_counter() - start
        print(f"{n:>7,} matches, {people:>4} people: {took:6.2f} s "
              f"({len(report.overall.rows)} entities, {len(report.games)} games)")


if __name__ == "__main__":
    main()
